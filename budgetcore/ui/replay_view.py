"""The replay panel drawn: timeline and cost charts, the session summary, the scrubbed
turn's row and funnel (docs/spec.md §12). Pure: page state in, markup out.

The charts take their geometry from :mod:`budgetcore.charts.timeline` (integer positions in
1/100 px) and draw it the way :mod:`budgetcore.ui.svg` draws: at the container's real
width (12 px text), nice ticks, every label in a row or gutter of its own (never on a
mark), exact values in the legend, and what the chart must not be read as.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from typing import Any

from budgetcore.charts.geometry import FONT_PX, nice_ticks, text_box, text_width
from budgetcore.charts.timeline import UNIT, Polyline, cost_chart, timeline_chart, turning_points
from budgetcore.errors import Problem
from budgetcore.replay.logs import LogSeries
from budgetcore.replay.model import SUMMARY_KEYS, Replay, TurnRow, money_text
from budgetcore.ui.form import Issue
from budgetcore.ui.markup import Markup, el, join
from budgetcore.ui.messages import CATALOGUE, t
from budgetcore.ui.replay_panel import (
    DISTS,
    GENERATOR_PATHS,
    REPLAY_FIELDS,
    ReplayPanel,
    options_of,
    run_replay,
    turns_of,
)
from budgetcore.ui.svg.axes import chart_svg
from budgetcore.units import format_int

__all__ = ["ROW_SHOWN", "ReplayScreen", "render_replay", "replay_controls_html"]

_PAD = 4
_TICK = 4
_LINE = 16
_STRIP = 10
_PLOT = 200
_COST = 90
#: The replay panel's and each chart box's padding and borders (web/style.css): the
#: charts are drawn this much narrower than the chart column so 12 px stays 12 px.
_INSET = 44

#: The scrubbed turn's row, in this order (exact integers in ``data-value``).
ROW_SHOWN: tuple[str, ...] = (
    "history",
    "covered",
    "uncovered",
    "summary",
    "required",
    "summary_adopted",
    "raw_selected",
    "full_input",
    "unseen",
    "trigger_tokens",
    "main_safe_input",
    "trigger_reached",
    "admitted",
    "added",
    "status",
    "new_raw",
    "summary_input",
    "written",
    "cached_input",
    "cumulative_tokens",
)


@dataclass(frozen=True, slots=True)
class ReplayScreen:
    html: dict[str, Markup]  # element id -> innerHTML
    text: dict[str, str]  # element id -> textContent
    field_messages: dict[str, str]  # replay field path -> its issue ("" when valid)
    scrub: tuple[int, int, str]  # (turns, scrubbed turn, what a screen reader announces)


# ------------------------------------------------------------------ the form (static)


def _field(path: str) -> Markup:
    f = REPLAY_FIELDS[path]
    fid = "rp-" + path.split(".", 1)[1].replace("_", "-")
    label = el("label", {"for": fid, "data-i18n": f"label.{path}"}, t(f"label.{path}", "en"))
    msg = el("p", {"class": "msg", "role": "alert", "data-replay-msg": path})
    if f.kind == "bool":
        box = el("input", {"type": "checkbox", "id": fid, "data-replay-input": path})
        return el("div", {"class": "field check"}, box, label, msg)
    if f.kind == "dist":
        options = join(
            el(
                "option",
                {"value": d, "selected": d == f.default or None, "data-i18n": f"replay.dist.{d}"},
                t(f"replay.dist.{d}", "en"),
            )
            for d in DISTS
        )
        box = el("select", {"id": fid, "data-replay-input": path}, options)
        return el("div", {"class": "field"}, label, box, msg)
    box = el(
        "input",
        {
            "type": "text",
            "id": fid,
            "data-replay-input": path,
            "value": f.default,
            "inputmode": "decimal" if f.kind == "fraction" else "numeric",
            "autocomplete": "off",
            "spellcheck": "false",
            "class": "short",
        },
    )
    return el("div", {"class": "field"}, label, box, msg)


def replay_controls_html() -> Markup:
    """The generator and options fields (written once; retexted by ``data-i18n``)."""
    gen = join(_field(p) for p in GENERATOR_PATHS)
    opts = join(
        _field(p)
        for p in (
            "replay.summary_ratio",
            "replay.failure_rate",
            "replay.failure_seed",
            "replay.cache",
            "replay.stable_prefix",
            "replay.wrapper",
        )
    )
    return join(
        (
            el("div", {"class": "rp-grid", "data-replay-part": "generate"}, gen),
            el(
                "fieldset",
                {"class": "rp-grid"},
                el("legend", {"data-i18n": "replay.options"}, t("replay.options", "en")),
                opts,
            ),
        )
    )


# ------------------------------------------------------------------ numbers as text


def _px(v: int) -> str:
    """A position in 1/100 px as an SVG number: whole pixels, rounded half up (a
    position, never a token count; hundreds of points are written per input)."""
    return str((v + UNIT // 2) // UNIT)


def _points(pts: tuple[tuple[int, int], ...]) -> str:
    """Positions in whole pixels (rounded half up) as an SVG point list. A point between
    two on the same pixel row draws nothing and is left out: a value held over many
    turns (the summary, an empty backlog, K) is one segment, not hundreds of points."""
    half = UNIT // 2
    xs = [(x + half) // UNIT for x, _ in pts]
    ys = [(y + half) // UNIT for _, y in pts]
    return " ".join([f"{xs[i]},{ys[i]}" for i in turning_points(ys)])


def _exact(value: object) -> str:
    """The machine text of a value, as ``python -m budgetcore replay`` prints it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return money_text(value)
    return str(value)


def _shown(value: object, lang: str) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return t("msg.yes" if value else "msg.no", lang)
    if isinstance(value, int):
        return format_int(value)
    if isinstance(value, Fraction):
        if value == 0:
            return "0 %"
        tenths = (value * 1000).numerator * 1 // (value * 1000).denominator  # floor
        return f"{tenths // 10}.{tenths % 10} %"
    if isinstance(value, Decimal):
        return f"{value:f}"
    return str(value)


def _status(status: str, lang: str) -> str:
    return t(f"replay.status.{status.replace(' ', '-')}", lang)


# ------------------------------------------------------------------ charts


def _y_ticks(top: int | Decimal, height: int) -> tuple[Any, ...]:
    count_ = max(2, min(5, height // 40))
    return nice_ticks(0, top, count_) if top else (0,)


def _y_of(v: int | Decimal, top: int | Decimal, height: int) -> int:
    if not top:
        return height
    return height - int(Decimal(v) * height / Decimal(top))


def _tick_text(v: int | Decimal) -> str:
    return format_int(v) if isinstance(v, int) else f"{v.normalize():f}"


def _y_grid(  # noqa: PLR0917 - one call site per chart, all positions
    scale: int | Decimal,
    height: int,
    top: int,
    gutter: int,
    pw: int,
    parts: list[Markup],
    texts: list[Markup],
    *,
    tagged: bool,
) -> None:
    """A y axis from 0 to ``scale``: grid lines into ``parts``, tick labels into
    ``texts`` (with ``data-tick`` when ``tagged``)."""
    for v in _y_ticks(scale, height):
        y = top + _y_of(v, scale, height)
        parts.append(
            el("line", {"class": "ch-grid", "x1": gutter, "x2": gutter + pw, "y1": y, "y2": y})
        )
        attrs: dict[str, object] = {
            "class": "ch-tick",
            "x": gutter - _TICK - 2,
            "y": y + 4,
            "text-anchor": "end",
        }
        if tagged:
            attrs["data-tick"] = v
        texts.append(el("text", attrs, _tick_text(v)))


@lru_cache(maxsize=64)
def _turn_ticks(n: int, pw: int) -> tuple[int, ...]:
    """The most turn ticks (up to 10) whose labels do not touch; the same for every
    redraw of one session at one width, so it is memoised."""
    for c in range(min(10, n), 0, -1):
        ticks = [v for v in nice_ticks(1, n, c) if v >= 1] if n > 1 else [1]
        xs = [((2 * v - 1) * pw) // (2 * n) for v in ticks]
        boxes = [text_box(x, 0, format_int(v), "middle") for x, v in zip(xs, ticks, strict=True)]
        if all(not a.overlaps(b, 8) for a, b in pairwise(boxes)):
            return tuple(ticks)
    return (1,)


def _mark_key_text(key: str, lang: str, peers: dict[str, str]) -> str:
    if ":" in key and key in peers:  # a rule firing on a count: its own whole label
        return peers[key]
    if key in peers:
        return t("replay.mark.peer", lang, name=peers[key])
    return t(f"replay.mark.{key}", lang)


def _timeline_svg(
    result: Replay,
    lang: str,
    *,
    width: int,
    scrub: int,
    log: LogSeries | None,
    peer_marks: list[tuple[str, int]],
    peer_names: dict[str, str],
    peer_also: dict[str, list[tuple[str, str, int]]] | None = None,
) -> tuple[Markup, list[tuple[str, int]], int, int]:
    """The timeline svg, its off-scale notes, and the plot's left edge and width."""
    rows = result.rows
    n = len(rows)
    # The gutter fits the widest tick label the scale can have (the scale is at most
    # the largest value drawn; one geometry pass, not two): every series it can be drawn
    # to, the unseen history too (a huge backlog once cut the top labels at the edge).
    col = result.columns
    values = [max(col[k]) for k in ("full_input", "main_safe_input", "trigger_tokens")]
    values += [max(col["summary"]), max(col["unseen"])]
    values += [tok for _, tok in peer_marks]
    if log is not None:
        values += [q.context for q in log.requests]
    widest = max(values)
    gutter = _PAD + text_width(format_int(max(1, widest))) + _TICK + 4
    pw = max(40, width - gutter - _PAD - 12)
    geo = timeline_chart(result, width=pw, height=_PLOT, log=log, lines=peer_marks, also=peer_also)
    top = _LINE // 2
    parts: list[Markup] = []
    texts: list[Markup] = []
    g: list[Markup] = []
    _y_grid(geo.scale_tokens, _PLOT, top, gutter, pw, parts, texts, tagged=True)
    base = _PLOT * UNIT
    for s in geo.series:
        if s.area:
            pts = ((s.points[0][0], base), *s.points, (s.points[-1][0], base))
            g.append(
                el(
                    "polygon",
                    {"class": f"rp-area rp-{s.key}", "data-series": s.key, "points": _points(pts)},
                )
            )
        else:
            g.append(
                el(
                    "polyline",
                    {
                        "class": f"rp-line rp-{s.key}",
                        "data-series": s.key,
                        "points": _points(s.points),
                    },
                )
            )
    for line in geo.lines:
        g.append(
            el(
                "line",
                {
                    "class": "rp-peer",
                    "data-line": line.key,
                    "data-tokens": line.tokens,
                    "x1": 0,
                    "x2": pw,
                    "y1": _px(line.y),
                    "y2": _px(line.y),
                },
            )
        )
    plot_bottom = top + _PLOT
    parts.append(el("g", {"transform": f"translate({gutter},{top})", "data-plot": "timeline"}, *g))
    # The x axis: turns.
    parts.append(
        el(
            "line",
            {
                "class": "ch-axis",
                "x1": gutter,
                "x2": gutter + pw,
                "y1": plot_bottom,
                "y2": plot_bottom,
            },
        )
    )
    for v in _turn_ticks(n, pw):
        x = gutter + ((2 * v - 1) * pw) // (2 * n)
        parts.append(
            el(
                "line",
                {
                    "class": "ch-axis",
                    "x1": x,
                    "x2": x,
                    "y1": plot_bottom,
                    "y2": plot_bottom + _TICK,
                },
            )
        )
        texts.append(
            el(
                "text",
                {
                    "class": "ch-tick",
                    "x": x,
                    "y": plot_bottom + _TICK + FONT_PX,
                    "text-anchor": "middle",
                },
                format_int(v),
            )
        )
    title_y = plot_bottom + _TICK + FONT_PX + _LINE
    texts.append(
        el(
            "text",
            {"class": "ch-axis-title", "x": width - _PAD, "y": title_y, "text-anchor": "end"},
            t("replay.axis", lang),
        )
    )
    # Marker strips: one labelled row per kind of event, marks below their label.
    y = title_y + 6
    order = ["run", "recompress", "refused", "trigger", "log_compaction"]
    for k, _ in peer_marks:  # a rule's count firings right below its token firings
        order += [k, *(f"{k}:{count}" for count, _, _ in (peer_also or {}).get(k, ()))]
    spans: list[tuple[int, int]] = []  # the strips' rows, where the cursor may cross
    by_key: dict[str, list[int]] = {}
    for m in geo.markers:
        by_key.setdefault(m.key, []).append(m.x)
    for key in order:
        xs = by_key.get(key)
        if not xs:
            continue
        label = _mark_key_text(key, lang, peer_names)
        texts.append(
            el(
                "text",
                {"class": "ch-label", "x": gutter, "y": y + _LINE - 4},
                t("replay.mark.row", lang, name=label, n=format_int(len(xs))),
            )
        )
        strip_top = y + _LINE
        half = UNIT // 2  # _px inline: a mark per run, hundreds per input
        d = "".join([f"M{(x + half) // UNIT} 0v{_STRIP}" for x in xs])
        ticks_svg = [el("path", {"d": d})]
        parts.append(
            el(
                "g",
                {
                    "class": f"rp-marks rp-mark-{key}",
                    "data-marks": key,
                    "data-count": len(xs),
                    "transform": f"translate({gutter},{strip_top})",
                },
                *ticks_svg,
            )
        )
        spans.append((strip_top, strip_top + _STRIP))
        y = strip_top + _STRIP + 2
    height = y + 4
    # The scrubbed turn: a cursor across the plot and the strips.
    sx = gutter + ((2 * scrub - 1) * pw) // (2 * n)
    # Across the plot and each strip only: it never crosses a label.
    parts.append(
        el(
            "path",
            {
                "class": "rp-cursor",
                "data-scrub": scrub,
                "d": f"M{sx} {top}V{plot_bottom}" + "".join(f"M{sx} {a}V{b}" for a, b in spans),
            },
        )
    )
    svg = chart_svg(
        "replay-timeline",
        t("replay.timeline.title", lang),
        width,
        height,
        [*parts, *texts],
        **{"data-turns": n, "data-plot-left": gutter, "data-plot-width": pw},
    )
    return svg, list(geo.notes), gutter, pw


def _cost_svg(result: Replay, lang: str, width: int, gutter: int, pw: int) -> tuple[Markup, str]:
    geo = cost_chart(result, width=pw, height=_COST)
    top = _LINE // 2
    parts: list[Markup] = []
    texts: list[Markup] = []
    _y_grid(geo.scale_turn, _COST, top, gutter, pw, parts, texts, tagged=False)
    # The bars touch (each fills its turn's slot), so they are drawn as one stepped
    # outline, a top and a right edge per pixel column (_px inline: 500 bars per input).
    # With more turns than pixels several bars end in one column: it shows the tallest
    # of them, so a spike never falls into a zero-width step.
    u, half = UNIT, UNIT // 2
    steps: list[list[int]] = []  # [top, right edge], in px
    for x, y, w, _ in geo.bars:
        bar_top, right = (y + half) // u, (x + w + half) // u
        if steps and steps[-1][1] == right:
            steps[-1][0] = min(steps[-1][0], bar_top)
        else:
            steps.append([bar_top, right])
    tops = "".join([f"V{bar_top}H{right}" for bar_top, right in steps])
    bars = f"M{(geo.bars[0][0] + half) // u} {_COST}{tops}V{_COST}Z"
    cum = geo.cumulative
    g = [
        el("path", {"class": "rp-bar", "data-series": "cost", "d": bars}),
        el(
            "polyline",
            {
                "class": "rp-line rp-cumulative",
                "data-series": "cumulative",
                "points": _points(cum.points),
            },
        ),
    ]
    parts.append(el("g", {"transform": f"translate({gutter},{top})"}, *g))
    bottom = top + _COST
    parts.append(
        el(
            "line",
            {"class": "ch-axis", "x1": gutter, "x2": gutter + pw, "y1": bottom, "y2": bottom},
        )
    )
    unit = t("replay.cost.unit-tokens" if geo.unit == "tokens" else "replay.cost.unit-money", lang)
    total = _tick_text(geo.scale_total)
    title = t("replay.cost.axis", lang, unit=unit, total=total)
    # One line where it fits; else two, each right-aligned (never cut at the left edge).
    lines = (
        [title]
        if text_width(title) <= width - 2 * _PAD
        else [
            t("replay.cost.axis-turn", lang, unit=unit),
            t("replay.cost.axis-total", lang, total=total),
        ]
    )
    for i, line in enumerate(lines, start=1):
        texts.append(
            el(
                "text",
                {
                    "class": "ch-axis-title",
                    "x": width - _PAD,
                    "y": bottom + i * _LINE,
                    "text-anchor": "end",
                },
                line,
            )
        )
    height = bottom + len(lines) * _LINE + 6
    svg = chart_svg("replay-cost", t("replay.cost.title", lang), width, height, [*parts, *texts])
    return svg, geo.unit


def _swatch(cls: str) -> Markup:
    return el(
        "svg",
        {"class": "ch-swatch", "width": 12, "height": 12, "aria-hidden": "true"},
        el("rect", {"class": cls, "x": 1, "y": 1, "width": 10, "height": 10}),
    )


def _timeline_figure(
    result: Replay, lang: str, *, width: int, scrub: int, log: LogSeries | None, window: int
) -> tuple[Markup, Markup]:
    peer_marks: list[tuple[str, int]] = []
    peer_names: dict[str, str] = {}
    peer_also: dict[str, list[tuple[str, str, int]]] = {}
    uncounted: list[str] = []  # count triggers the log gives no counts for
    if log is not None:
        from budgetcore.registry.peers import peer_lines  # noqa: PLC0415 - only with a log

        first = result.rows[0].plan
        view = peer_lines(window, first.scenario.main_model.output_tokens, first)
        for row in view.rows:
            if row.tokens is not None and not row.beyond_window:
                peer_marks.append((row.data_key, row.tokens))
                peer_names[row.data_key] = row.peer.name
                for a in row.peer.also:
                    peer_also.setdefault(row.data_key, []).append((a.count, a.compare, a.value))
                    peer_names[f"{row.data_key}:{a.count}"] = t(
                        "replay.mark.peer-count", lang, name=row.peer.name, what=a.text.get(lang)
                    )
                    if all(getattr(q, a.count) is None for q in log.requests):
                        uncounted.append(f"{row.peer.name}: {a.text.get(lang)}")
    svg, notes, gutter, pw = _timeline_svg(
        result,
        lang,
        width=width,
        scrub=scrub,
        log=log,
        peer_marks=peer_marks,
        peer_names=peer_names,
        peer_also=peer_also,
    )
    last = result.rows[-1]
    legend_items = [
        ("full_input", "rp-line-swatch rp-full_input", {}),
        ("summary", "rp-area rp-summary", {}),
        ("unseen", "rp-area rp-unseen", {}),
        ("trigger", "rp-line-swatch rp-trigger", {"value": format_int(last.trigger_tokens)}),
        (
            "main_safe_input",
            "rp-line-swatch rp-main_safe_input",
            {"value": format_int(last.main_safe_input)},
        ),
    ]
    if log is not None:
        legend_items.append(("log_context", "rp-line-swatch rp-log_context", {}))
    items = [
        el("li", {"data-legend": key}, _swatch(cls), t(f"replay.legend.{key}", lang, **params))
        for key, cls, params in legend_items
    ]
    # Lines far above the data are named in one note rather than squashing the chart.
    off = [
        f"{peer_names.get(key) or t(f'replay.legend.off.{key}', lang)} {format_int(tokens)}"
        for key, tokens in notes
    ]
    note_ps = [
        el(
            "p",
            {"class": "ch-note", "data-off-scale": len(off)},
            t("replay.note.off-scale", lang, names="; ".join(off)),
        )
        for _ in off[:1]
    ]
    if uncounted:
        note_ps.append(
            el(
                "p",
                {"class": "ch-note", "data-uncounted": len(uncounted)},
                t("replay.note.uncounted", lang, rules="; ".join(uncounted)),
            )
        )
    figure = el(
        "figure",
        {"class": "ch-figure", "data-figure": "replay-timeline"},
        el("figcaption", None, el("strong", None, t("replay.timeline.title", lang))),
        svg,
        el("ul", {"class": "ch-legend"}, *items),
        *note_ps,
        el("p", {"class": "caveat"}, t("phrase.not", lang), t("replay.timeline.not", lang)),
    )
    cost_svg, unit = _cost_svg(result, lang, width, gutter, pw)
    cost_note = t("replay.cost.tokens-only" if unit == "tokens" else "replay.cost.priced", lang)
    cost = el(
        "figure",
        {"class": "ch-figure", "data-figure": "replay-cost", "data-unit": unit},
        el("figcaption", None, el("strong", None, t("replay.cost.title", lang))),
        cost_svg,
        el(
            "ul",
            {"class": "ch-legend"},
            el("li", {"data-legend": "cost"}, _swatch("rp-bar"), t("replay.legend.cost", lang)),
            el(
                "li",
                {"data-legend": "cumulative"},
                _swatch("rp-line-swatch rp-cumulative"),
                t("replay.legend.cumulative", lang),
            ),
        ),
        el("p", {"class": "ch-note", "data-cost-unit": unit}, cost_note),
        el("p", {"class": "caveat"}, t("phrase.not", lang), t("replay.cost.not", lang)),
    )
    return figure, cost


# ------------------------------------------------------------------ tables


@lru_cache(maxsize=256)
def _row_head(key: str, lang: str) -> Markup:
    """A table row's label cell: the same for every redraw in one language."""
    return el("th", {"scope": "row"}, t(key, lang))


def _summary_table(result: Replay, lang: str) -> Markup:
    s = result.summary
    rows = []
    for key in SUMMARY_KEYS:
        value = getattr(s, key)
        rows.append(
            el(
                "tr",
                None,
                _row_head(f"replay.sum.{key}", lang),
                el(
                    "td",
                    {"class": "num", "data-replay-summary": key, "data-value": _exact(value)},
                    _shown(value, lang),
                ),
            )
        )
    return el(
        "table",
        {"class": "grid rp-summary"},
        el("caption", None, t("replay.summary.caption", lang)),
        el("tbody", None, *rows),
    )


def _row_table(row: TurnRow, lang: str) -> Markup:
    cells = []
    for key in ROW_SHOWN:
        value = getattr(row, key)
        shown = _status(value, lang) if key == "status" else _shown(value, lang)
        cells.append(
            el(
                "tr",
                None,
                _row_head(f"replay.row.{key}", lang),
                el(
                    "td",
                    {"class": "num", "data-replay-row": key, "data-value": _exact(value)},
                    shown,
                ),
            )
        )
    return el(
        "table",
        {"class": "grid rp-row", "data-turn": row.turn},
        el("caption", None, t("replay.row.caption", lang, turn=format_int(row.turn))),
        el("tbody", None, *cells),
    )


def _log_html(panel: ReplayPanel, lang: str) -> Markup:
    if panel.source != "log":
        return Markup("")
    from budgetcore.ui.replay_logs import logs_html  # noqa: PLC0415 - only with a log

    return logs_html(panel, lang)


def _source_errors(
    panel: ReplayPanel, lang: str, error: tuple[Problem, ...], skipped: tuple[Problem, ...]
) -> Markup:
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    if panel.source == "log":
        return Markup("")
    items = [problem_text(p, lang) for p in (*error, *skipped)]
    if not items:
        return Markup("")
    return el(
        "ul",
        {"class": "errors", "role": "alert", "data-replay-error": panel.source},
        *(el("li", None, x) for x in items),
    )


# ------------------------------------------------------------------ the panel


def render_replay(state: Any) -> ReplayScreen:
    """The replay panel of page state ``state`` (its ``replay`` panel, plan, lang, width)."""
    from budgetcore.ui.problems import issue_text  # noqa: PLC0415

    panel: ReplayPanel = state.replay
    lang = state.lang
    messages = {p: "" for p in REPLAY_FIELDS}
    for path, issue in panel.issues.items():
        messages[path] = _issue(issue, lang, issue_text)
    html: dict[str, Markup] = {"replay-log": _log_html(panel, lang)}
    text = {"replay-status": ""}
    empty = ReplayScreen(
        {
            **html,
            "replay-errors": Markup(""),
            "replay-timeline": Markup(""),
            "replay-cost": Markup(""),
            "replay-summary": Markup(""),
            "replay-row": Markup(""),
            "replay-funnel": Markup(""),
        },
        text,
        messages,
        (1, 1, ""),
    )
    if (
        state.stale
        or (panel.source == "generate" and panel.stale)
        or (
            panel.source != "generate"
            and any(
                p != "replay.turns" and p in panel.issues
                for p in (
                    "replay.summary_ratio",
                    "replay.failure_rate",
                    "replay.failure_seed",
                    "replay.stable_prefix",
                    "replay.wrapper",
                )
            )
        )
    ):
        text["replay-status"] = t("replay.stale", lang)
        return empty
    source = turns_of(panel)
    html["replay-errors"] = _source_errors(panel, lang, source.error, source.problems)
    if source.error:
        return ReplayScreen({**empty.html, **html}, text, messages, (1, 1, ""))
    result = run_replay(state.plan.scenario, source.turns, options_of(panel))
    n = len(result.rows)
    scrub = panel.scrub if 1 <= panel.scrub <= n else result.summary.peak_turn
    row = result.rows[scrub - 1]
    series = panel.log.main if panel.source == "log" and panel.log is not None else None
    # The peers' lines take the scenario's model, like K and M (with the switch on, the
    # log's own model): never a window from the log mixed with another model's K.
    window = state.plan.scenario.main_model.input_tokens
    width = max(240, state.width - _INSET)
    timeline, cost = _timeline_figure(
        result, lang, width=width, scrub=scrub, log=series, window=window
    )
    if series is not None:
        from budgetcore.ui.replay_logs import logs_html  # noqa: PLC0415

        html["replay-log"] = logs_html(panel, lang, result)
    html["replay-timeline"] = timeline
    html["replay-cost"] = cost
    html["replay-summary"] = _summary_table(result, lang)
    html["replay-row"] = _row_table(row, lang)
    funnel = _funnel(row.plan, lang, width)
    html["replay-funnel"] = el("div", {"data-replay-funnel": scrub}, funnel)
    valuetext = t(
        "replay.scrub.value",
        lang,
        turn=format_int(scrub),
        n=format_int(n),
        full=format_int(row.full_input),
        status=_status(row.status, lang),
    )
    return ReplayScreen(html, text, messages, (n, scrub, valuetext))


def _funnel(p: Any, lang: str, width: int) -> Markup:
    """The funnel chart of one turn's plan (``plan_charts``' first chart, drawn alone)."""
    from budgetcore.ui.svg.bars import funnel_figure  # noqa: PLC0415

    return funnel_figure(p, lang, width)


def _issue(issue: Issue, lang: str, issue_text: Any) -> str:
    return str(issue_text(issue, lang))


_ = (CATALOGUE, Polyline)
