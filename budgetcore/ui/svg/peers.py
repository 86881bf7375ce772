"""The peers' trigger lines: one bar per peer system on one axis (tokens, or percent of
the window W), beside this scenario's K, M and hard line and the article's lines.

One scale, the model's window: the axis runs from 0 to W (100 % of W), whatever the
lines. A line beyond W (a fixed count above a small window, or K set above it) never
fires for this model: its bar stops at W's edge, drawn as cut (an arrow past the
edge), and its label keeps its exact value and "beyond W" — so no such line stretches
the axis and shrinks every other bar (Gemini CLI's 524,288 beside Sonnet's 200,000
did). A system that does not run this model (``registry.peers.runs_model``: Gemini
CLI beside a Claude model) is not drawn at all: its line is not about this window,
and the panel lists it apart (``ui.main.view.peers``).
"""

from __future__ import annotations

from dataclasses import dataclass

from budgetcore.charts.geometry import Box, text_box, wrap_text
from budgetcore.messages import t
from budgetcore.ui.markup import Markup, el
from budgetcore.ui.svg.axes import (
    LINE,
    PAD,
    axis_svg,
    chart_svg,
    fits,
    free,
    open_runs,
    token_axis,
)
from budgetcore.units import format_int

__all__ = ["PEERS_PERCENT_PLACES", "peer_percent", "peers_chart"]


#: Percent of the window is shown with this many decimals, rounded half-even
#: (``budgetcore.units.format_percent``): the one rounding of the peers view.
PEERS_PERCENT_PLACES = 1


_PEER_BAR = 12


_PEER_GAP = 6


#: How far past W's edge the arrow of a cut bar reaches (px; the axis's right pad is
#: wider, so it stays inside the chart).
_CUT_ARROW = 6


def peer_percent(share: object) -> str:
    """A share of the window as the peers view shows it: 0.835 -> '83.5 %'."""
    from fractions import Fraction  # noqa: PLC0415

    from budgetcore.units import format_percent  # noqa: PLC0415

    assert isinstance(share, Fraction | int)
    return format_percent(share, PEERS_PERCENT_PLACES)


@dataclass(frozen=True, slots=True)
class _PeerRow:
    kind: str  # "ref", "article", "peer", "none"
    key: str  # data attribute value
    text: str
    parts: tuple[tuple[str, int], ...]  # (css class, tokens up to): stacked from 0
    confidence: str = ""


def _peer_rows(view: object, lang: str, unit: str) -> list[_PeerRow]:
    from budgetcore.registry.peers import PeerView  # noqa: PLC0415

    assert isinstance(view, PeerView)

    def value(tokens: int, share: object) -> tuple[str, str]:
        tok, pct = format_int(tokens), peer_percent(share)
        return (pct, tok) if unit == "percent" else (tok, pct)

    rows = []
    beyond = t("peers.mark-beyond", lang)
    for ref in view.scenario:
        main, other = value(ref.tokens, ref.share)
        text = t("peers.row", lang, name=t(f"peers.line.{ref.key}", lang), value=main, other=other)
        if ref.tokens > view.window:  # K above W: cut at W's edge, like a peer's line
            text = f"{text} — {beyond}"
        rows.append(_PeerRow("ref", ref.key, text, ((f"pr-ref pr-ref-{ref.key}", ref.tokens),)))
    clean, compact, hard = (view.line(k) for k in ("clean", "compact", "hard"))
    text = t(
        "peers.article-row",
        lang,
        clean=value(clean.tokens, clean.share)[0],
        compact=value(compact.tokens, compact.share)[0],
        hard=value(hard.tokens, hard.share)[0],
    )
    parts = (
        ("pr-art-base", clean.tokens),
        ("pr-gap-1", max(clean.tokens, compact.tokens)),
        ("pr-gap-2", max(compact.tokens, hard.tokens)),
    )
    rows.append(_PeerRow("article", "article", text, parts))
    for r in view.rows:
        if not r.for_model:  # not about this model's window: listed apart, never drawn
            continue
        name = r.peer.name + (f" {r.peer.version}" if r.peer.version else "")
        if r.tokens is None or r.share is None:
            key = f"peers.no-line.{r.peer.kind}"
            text = t("peers.row-none", lang, name=name, why=t(key, lang))
            rows.append(_PeerRow("none", r.peer.id, text, (), r.peer.confidence))
            continue
        main, other = value(r.tokens, r.share)
        text = t("peers.row", lang, name=name, value=main, other=other)
        marks = []
        if r.peer.reported:
            marks.append(t("peers.mark-reported", lang))
        if r.beyond_window:
            marks.append(beyond)
        if r.clamped:
            marks.append(t("peers.mark-clamped", lang))
        if r.peer.also:  # count triggers beside the line: never drawn as tokens
            marks.append(t("peers.mark-counts", lang, n=len(r.peer.also)))
        if marks:
            text = f"{text} — {', '.join(marks)}"
        cls = f"pr-bar pr-{r.peer.confidence}"
        rows.append(_PeerRow("peer", r.peer.id, text, ((cls, r.tokens),), r.peer.confidence))
    return rows


def _percent_label(v: int) -> str:
    return f"{v} %"


def peers_chart(view: object, lang: str, *, width: int = 640, unit: str = "tokens") -> Markup:
    """The peers' trigger lines of ``view`` (a ``budgetcore.registry.peers.PeerView``) as an svg
    at ``width`` CSS pixels, on a token axis or (``unit="percent"``) a percent-of-W axis."""
    from fractions import Fraction  # noqa: PLC0415

    from budgetcore.registry.peers import PeerView  # noqa: PLC0415

    assert isinstance(view, PeerView)
    w = view.window
    percent = unit == "percent"
    rows = _peer_rows(view, lang, unit)
    # One scale: 0 to W. A line beyond W is cut at W's edge (the module's docstring).
    axis = (
        token_axis(100, width, _percent_label, end_at_top=True)
        if percent
        else token_axis(w, width, end_at_top=True)
    )

    def pos(tokens: int) -> int:
        # One rounding for every mark: half up to the nearest pixel, exact until then.
        v = Fraction(min(tokens, w) * 100, w) if percent else Fraction(min(tokens, w))
        return axis.left + (2 * v * axis.span + axis.high) // (2 * axis.high)

    # The article's lines and the window's edge, labelled in bands above the plot (a
    # label that would touch another goes one band lower).
    lines = [(k, view.line(k).tokens) for k in ("clean", "compact", "hard")]
    lines.append(("window", w))
    bands: list[list[Box]] = []
    line_labels: list[tuple[int, int, str, str]] = []
    for key, tokens in lines:
        x = pos(tokens)
        text = t(f"peers.line-short.{key}", lang)
        placed = False
        for band in range(4):
            if band == len(bands):
                bands.append([])
            for lx, anchor in ((x, "middle"), (x - 2, "end"), (x + 2, "start")):
                box = text_box(lx, (band + 1) * LINE - 4, text, anchor, bold=True)
                if fits(box, width) and free(box, bands[band]):
                    bands[band].append(box)
                    line_labels.append((band, lx, anchor, text))
                    placed = True
                    break
            if placed:
                break
    y = len(bands) * LINE + 4
    plot_top = y
    parts: list[Markup] = [
        el(
            "defs",
            None,
            el(
                "pattern",
                {
                    "id": "pr-hatch",
                    "width": 6,
                    "height": 6,
                    "patternUnits": "userSpaceOnUse",
                    "patternTransform": "rotate(45)",
                },
                el("rect", {"class": "pr-hatch-bg", "width": 6, "height": 6}),
                el("line", {"class": "pr-hatch-line", "x1": 0, "y1": 0, "x2": 0, "y2": 6}),
            ),
        )
    ]
    texts: list[Markup] = [
        el(
            "text",
            {"class": "ch-ref-label", "x": lx, "y": (band + 1) * LINE - 4, "text-anchor": anchor},
            text,
        )
        for band, lx, anchor, text in line_labels
    ]
    label_boxes: list[Box] = []
    text_room = width - axis.left - PAD
    for row in rows:
        for line in wrap_text(row.text, text_room):
            baseline = y + LINE - 4
            label_boxes.append(text_box(axis.left, baseline, line, "start"))
            cls = "ch-label pr-noline" if row.kind == "none" else "ch-label"
            texts.append(
                el(
                    "text",
                    {"class": cls, "x": axis.left, "y": baseline, "data-peer-row": row.key},
                    line,
                )
            )
            y += LINE
        x0 = axis.left
        for cls, tokens in row.parts:
            x1 = max(x0, pos(tokens))
            if tokens > 0 and x1 == axis.left:
                x1 = axis.left + 1  # a line above 0 is never drawn as nothing
            cut = tokens > w
            parts.append(
                el(
                    "rect",
                    {
                        "class": cls,
                        "x": x0,
                        "y": y,
                        "width": x1 - x0,
                        "height": _PEER_BAR,
                        "data-peer-bar": row.key,
                        "data-peer-tokens": tokens,
                        "data-peer-cut": "true" if cut else None,
                    },
                    el("title", None, row.text),
                )
            )
            if cut:  # an arrow past W's edge: the bar goes on, off this model's window
                tip = x1 + _CUT_ARROW
                parts.append(
                    el(
                        "polygon",
                        {
                            "class": "pr-cut",
                            "points": f"{x1},{y} {tip},{y + _PEER_BAR // 2} {x1},{y + _PEER_BAR}",
                            "data-peer-cut": row.key,
                        },
                    )
                )
            x0 = x1
        if row.parts:
            y += _PEER_BAR
        y += _PEER_GAP
    plot_bottom = y - _PEER_GAP // 2
    for key, tokens in lines:
        x = pos(tokens)
        for y0, y1 in open_runs(x, plot_top, plot_bottom, label_boxes):
            parts.append(
                el(
                    "line",
                    {
                        "class": f"ch-ref pr-line pr-line-{key}",
                        "x1": x,
                        "x2": x,
                        "y1": y0,
                        "y2": y1,
                        "data-peer-line": key,
                    },
                )
            )
    axis_parts, height = axis_svg(
        axis,
        plot_bottom,
        width,
        lang,
        label=_percent_label if percent else format_int,
        title_key="peers.axis-percent" if percent else "axis.tokens",
    )
    return chart_svg("peers", t("peers.h", lang), width, height, [*parts, *axis_parts, *texts])
