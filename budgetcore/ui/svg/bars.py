"""The plan's bar charts (funnel, branch, work): one row per quantity on one token axis,
A's outline under B's bar, reference lines broken around their labels, a legend and a
caveat.
"""

from __future__ import annotations

from functools import lru_cache

from budgetcore.charts.bars import CHART_KEYS, FAR, Ref, Row, plan_rows
from budgetcore.charts.geometry import Box, text_box
from budgetcore.core.plan import Plan
from budgetcore.messages import t
from budgetcore.ui.markup import Markup, el, join
from budgetcore.ui.svg.axes import (
    BAR,
    CLEAR,
    GAP,
    GHOST,
    LINE,
    MIN_WIDTH,
    PAD,
    Axis,
    axis_svg,
    chart_svg,
    fits,
    free,
    open_runs,
    token_axis,
)
from budgetcore.units import format_int

__all__ = ["CHART_KEYS", "ab_legend", "funnel_figure", "plan_charts"]


_Values = tuple[tuple[Row, ...], tuple[Ref, ...]]


def _bars_svg(
    b: _Values, a: _Values | None, key: str, lang: str, width: int
) -> tuple[Markup, list[Markup]]:
    rows, refs = b
    a_rows, a_refs = a if a is not None else ((), ())
    # The scale covers B and A: every row total and K always; M/C unless far off.
    data_top = max(
        [sum(t for _, t in r.parts) for r in (*rows, *a_rows)]
        + [r.tokens for r in (*refs, *a_refs) if r.always]
    )
    lines: list[tuple[str, int, bool]] = []  # (key, tokens, is A) drawn as lines
    beyond: list[tuple[str, int, bool]] = []  # drawn as an edge arrow
    seen: set[tuple[str, int]] = set()
    for ref, is_a in [(r, False) for r in refs] + [(r, True) for r in a_refs]:
        if is_a and (ref.key, ref.tokens) in seen:
            continue  # A's line is B's line: draw it once
        seen.add((ref.key, ref.tokens))
        far = not ref.always and ref.tokens > FAR * max(1, data_top)
        (beyond if far else lines).append((ref.key, ref.tokens, is_a))
    top_value = max([data_top] + [tok for _, tok, _ in lines])
    axis = token_axis(top_value, width)

    out: list[Markup] = []
    labels: list[Markup] = []
    legend_extra: list[Markup] = []

    # Reference labels in bands above the plot; a label that would touch another goes
    # one band lower. Lines start below the last band, so no line crosses a band.
    band_boxes: list[list[Box]] = []
    ref_labels: list[tuple[int, int, str, str, str]] = []  # (band, x, anchor, text, cls)

    def band_place(candidates: list[tuple[int, str]], text: str) -> tuple[int, int, str]:
        band = 0
        while True:
            if band == len(band_boxes):
                band_boxes.append([])
            boxes = [
                (text_box(x, (band + 1) * LINE - 4, text, anchor, bold=True), x, anchor)
                for x, anchor in candidates
            ]
            for box, x, anchor in boxes:
                if fits(box, width) and free(box, band_boxes[band]):
                    band_boxes[band].append(box)
                    return band, x, anchor
            if not band_boxes[band]:
                # Wider than the chart even alone in a band (the bold estimate is
                # conservative: "M 1,000,000,000,000: beyond the axis →" at a phone's
                # width): this empty band holds it, so it touches no other label and
                # no line, rather than the band past the last that the rows fill.
                box, x, anchor = boxes[0]
                band_boxes[band].append(box)
                return band, x, anchor
            band += 1
            if band > 6:  # cannot happen with two or three labels; keep it finite
                return band, candidates[0][0], candidates[0][1]

    for ref_key, tokens, is_a in lines:
        name = t(f"seg.{ref_key}", lang)
        text = (
            t("chart.ref.a", lang, name=name, value=format_int(tokens))
            if is_a
            else t("chart.value", lang, name=name, value=format_int(tokens))
        )
        x = axis.x(tokens)
        band, lx, anchor = band_place([(x, "middle"), (x - 2, "end"), (x + 2, "start")], text)
        ref_labels.append((band, lx, anchor, text, "ch-ref-label"))
    for ref_key, tokens, is_a in beyond:
        name = t(f"seg.{ref_key}", lang)
        if is_a:
            name = t("chart.pinned-name", lang, name=name)
        text = t("chart.beyond", lang, name=name, value=format_int(tokens))
        band, lx, anchor = band_place([(width - PAD, "end")], text)
        ref_labels.append((band, lx, anchor, text, "ch-ref-label ch-beyond"))
        legend_extra.append(
            el(
                "li",
                {"class": "ch-note", "data-beyond": ref_key},
                t(
                    "chart.beyond.legend",
                    lang,
                    name=name,
                    value=format_int(tokens),
                    end=format_int(axis.high),
                ),
            )
        )
    bands = len(band_boxes)
    for band, lx, anchor, text, cls in ref_labels:
        baseline = (band + 1) * LINE - 4
        labels.append(
            el("text", {"class": cls, "x": lx, "y": baseline, "text-anchor": anchor}, text)
        )
    y = bands * LINE + (4 if bands else 0)
    plot_top = y

    # Rows: a label line, then B's bar, then A's outline under it.
    row_labels: list[tuple[Box, Markup]] = []
    line_xs = [axis.x(tok) for _, tok, _ in lines]
    for i, row in enumerate(rows):
        total = sum(tok for _, tok in row.parts)
        name = t(row.name, lang)
        a_total = sum(tok for _, tok in a_rows[i].parts) if a_rows else None
        if a_total is None:
            text = t("chart.value", lang, name=name, value=format_int(total))
        elif a_total == total:  # the pinned plan's value is this one: say so, shorter
            text = t("chart.value.same", lang, name=name, value=format_int(total))
        else:
            text = t(
                "chart.value.ab", lang, name=name, value=format_int(total), a=format_int(a_total)
            )
        texts = [text]
        if a_total not in (None, total) and not fits(text_box(axis.left, 0, text, "start"), width):
            # Too wide for one line (a narrow column): the pinned value on a line below.
            assert a_total is not None
            texts = [
                t("chart.value", lang, name=name, value=format_int(total)),
                t("chart.pinned-value", lang, a=format_int(a_total)),
            ]
        # A label names the bar under it: it may step past a line only where that bar
        # (B's, or A's under it) reaches beyond the line, so it stays over its own bar.
        # Elsewhere it keeps the left edge and the line breaks around it (the seventh
        # walk: K above a small M put every label beside M's line, far from its bar).
        reach = axis.left + max(axis.length(total), axis.length(a_total or 0))
        for text in texts:
            baseline = y + LINE - 4
            candidates = [axis.left] + [lx + 4 for lx in sorted(line_xs) if lx + 4 <= reach]
            chosen = None
            for lx in candidates:
                box = text_box(lx, baseline, text, "start")
                if fits(box, width) and not any(
                    box.x0 - CLEAR <= x <= box.x1 + CLEAR for x in line_xs
                ):
                    chosen = (lx, box)
                    break
            if chosen is None:  # no gap between lines: the lines break around the label
                chosen = (axis.left, text_box(axis.left, baseline, text, "start"))
            lx, box = chosen
            mark = el("text", {"class": "ch-label", "x": lx, "y": baseline}, text)
            row_labels.append((box, mark))
            y += LINE
        out.extend(_stack(row.parts, axis, y, BAR, lang, cls="seg", attr="data-segment"))
        y += BAR
        if a_rows:
            y += 2
            out.extend(
                _stack(a_rows[i].parts, axis, y, GHOST, lang, cls="ch-ghost", attr="data-pinned")
            )
            y += GHOST
        y += GAP
    plot_bottom = y - GAP // 2
    labels.extend(mark for _, mark in row_labels)

    # Reference lines from below the bands to the axis, broken around any label box.
    for (ref_key, tokens, is_a), x in zip(lines, line_xs, strict=True):
        cls = f"ch-ref ch-ref-{ref_key}" + (" ch-ref-a" if is_a else "")
        for y0, y1 in open_runs(x, plot_top, plot_bottom, [b for b, _ in row_labels]):
            out.append(
                el(
                    "line",
                    {
                        "class": cls,
                        "x1": x,
                        "x2": x,
                        "y1": y0,
                        "y2": y1,
                        "data-ref": ref_key,
                        "data-tokens": tokens,
                    },
                )
            )

    axis_parts, height = axis_svg(axis, plot_bottom, width, lang)
    out.extend(axis_parts)
    out.extend(labels)
    return chart_svg(key, t(f"chart.{key}.title", lang), width, height, out), legend_extra


def _stack(
    parts: tuple[tuple[str, int], ...],
    axis: Axis,
    y: int,
    height: int,
    lang: str,
    *,
    cls: str,
    attr: str,
) -> list[Markup]:
    # Each part's length depends on its tokens only (not on where it starts), so the
    # same tokens are the same length in every row, in B and in A; parts abut.
    out = []
    x0 = axis.left
    for seg_key, tokens in parts:
        length = axis.length(tokens)
        x1 = x0 + length
        out.append(
            el(
                "rect",
                {
                    "class": f"{cls} seg-{seg_key}" if cls == "seg" else f"{cls} ghost-{seg_key}",
                    "x": x0,
                    "y": y,
                    "width": x1 - x0,
                    "height": height,
                    attr: seg_key,
                    "data-tokens": tokens,
                },
            )
        )
        x0 = x1
    return out


def ab_legend(lang: str) -> Markup:
    """The two legend entries that tell A's outline from B's fill."""
    return join(
        (
            el("li", {"class": "ch-key ch-key-b", "data-legend": "b"}, t("chart.legend.b", lang)),
            el("li", {"class": "ch-key ch-key-a", "data-legend": "a"}, t("chart.legend.a", lang)),
        )
    )


#: A stacked part that repeats a quantity drawn in a row of its own, in the same colour
#: (the full input's F, A and raw): the legend lists the quantity once, under its row.
_SAME_AS = {
    "full_required": "required",
    "full_summary": "summary_adopted",
    "full_raw": "raw_selected",
}


def _legend(b: _Values, a: _Values | None, lang: str, extra: list[Markup]) -> Markup:
    rows, refs = b
    a_rows, a_refs = a if a is not None else ((), ())
    items = [ab_legend(lang)] if a is not None else []
    listed: set[str] = set()
    for i, row in enumerate(rows):
        for j, (seg_key, tokens) in enumerate(row.parts):
            if _SAME_AS.get(seg_key, seg_key) in listed:
                continue
            listed.add(seg_key)
            name = t(f"seg.{seg_key}", lang)
            if a_rows:
                text = t(
                    "chart.value.ab",
                    lang,
                    name=name,
                    value=format_int(tokens),
                    a=format_int(a_rows[i].parts[j][1]),
                )
            else:
                text = t("chart.value", lang, name=name, value=format_int(tokens))
            # The swatch is the item's ::before (page CSS), not an element of its own.
            items.append(
                el("li", {"class": f"ch-key ch-key-{seg_key}", "data-legend": seg_key}, text)
            )
    for k, ref in enumerate(refs):
        name = t(f"seg.{ref.key}", lang)
        if a_refs:
            text = t(
                "chart.value.ab",
                lang,
                name=name,
                value=format_int(ref.tokens),
                a=format_int(a_refs[k].tokens),
            )
        else:
            text = t("chart.value", lang, name=name, value=format_int(ref.tokens))
        items.append(el("li", {"data-legend": ref.key}, text))
    return el("ul", {"class": "ch-legend"}, *items, *extra)


def _figure(key: str, svg: Markup, legend: Markup, lang: str) -> Markup:
    return el(
        "figure",
        {"class": "ch-figure", "data-figure": key},
        el("figcaption", None, el("strong", None, t(f"chart.{key}.title", lang))),
        svg,
        legend,
        el("p", {"class": "caveat"}, t("phrase.not", lang), t(f"chart.{key}.not", lang)),
    )


def plan_charts(
    p: Plan, lang: str, *, width: int = 640, pinned: Plan | None = None
) -> dict[str, Markup]:
    """The funnel, branch and work charts of ``p`` at ``width`` CSS pixels, each a
    ``<figure>``: title, svg, legend with exact tokens, and what it must not be read as.
    With ``pinned`` (A), A is drawn in each chart on the same scale, as outlines."""
    width = max(width, MIN_WIDTH)
    return {
        key: _chart_figure(
            key, plan_rows(p, key), None if pinned is None else plan_rows(pinned, key), lang, width
        )
        for key in CHART_KEYS
    }


def funnel_figure(p: Plan, lang: str, width: int) -> Markup:
    """The funnel chart of ``p`` alone (a replayed turn's funnel)."""
    return _chart_figure("funnel", plan_rows(p, "funnel"), None, lang, max(width, MIN_WIDTH))


@lru_cache(maxsize=96)
def _chart_figure(key: str, b: _Values, a: _Values | None, lang: str, width: int) -> Markup:
    # Keyed by the values the chart shows: a keystroke redraws only the charts it
    # changes (typing S leaves the funnel as it was), and A's values never change.
    svg, extra = _bars_svg(b, a, key, lang, width)
    return _figure(key, svg, _legend(b, a, lang, extra), lang)
