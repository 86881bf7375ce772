"""The Tune panel's maps (docs/spec.md §16): a K × S map per measure, with the numbers
as text that its cells, legends and the choice say, a runtime's knob on the axes, and
each point's change from as run. Apart from the view (:mod:`budgetcore.ui.tune.view`:
the form, the choice in words, the panel) so that each reads whole; the view draws the
maps through :func:`maps_html`. Pure: results in, markup out.

Maps are drawn the way :mod:`budgetcore.ui.svg` draws: at the container's real width
(12 px text), ticks with units, every label in a gutter of its own (never on a mark),
and what the map must not be read as. Colours are up to 8 quantile bands, their edges
rounded to 3 significant figures and exact integers (``web/style.css`` holds the
palette); the legend prints each band as a half-open range. Each
cell is a focusable button whose label holds the point's exact values; the one in
the tab order moves with the arrow keys (a roving tab stop: 384 cells are one stop).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from budgetcore.charts.geometry import FONT_PX, text_width, wrap_text
from budgetcore.messages import count, t
from budgetcore.replay.model import decimal_of
from budgetcore.ui.markup import Markup, el, join
from budgetcore.ui.svg.axes import chart_svg
from budgetcore.units import format_int, format_money, format_money_figures, signed_money_text

if TYPE_CHECKING:  # the tune model loads when the panel first runs, not on boot
    from budgetcore.runtimes.tune_axis import RuntimeAxis
    from budgetcore.tune.measures import GridMeasures
    from budgetcore.tune.result import TuneResult
    from budgetcore.tune.whatif import PointCost

__all__ = [
    "BINS",
    "EDGE_FIGURES",
    "MEASURES",
    "SIDE_BINS",
    "band_class",
    "band_of",
    "cost_unit",
    "cost_value",
    "delta_text",
    "gap_amount",
    "knob_point",
    "knob_row",
    "knob_text",
    "maps_html",
    "not_settings",
    "point_text",
    "quantile_edges",
    "ranked_amount",
    "round_figures",
    "signed_money",
]


#: The colour scale's bins (``.tb0`` … ``.tb7`` in web/style.css).
BINS = 8
#: Each map: its key (``tune.map.<key>.title``) and the measure's column.
#: The maps: cost, and what a cost may hide (unseen history, runs, and the summary's
#: quality, docs/spec.md §17: its generations, how often the oldest history was
#: summarised again, and the compression of the run that took the most input).
MEASURES = ("cost", "unseen", "runs", "generations", "compression")
_PAD = 4
_TICK = 4
_LINE = 16
_CELL_H = 14


# ------------------------------------------------------------------ numbers as text


def cost_value(g: GridMeasures, units: int) -> str:
    """A cost (or a difference of costs) exactly: dollars at every place, else tokens."""
    if g.priced:
        value = decimal_of(units, g.places)
        assert value is not None
        return format_money(value)
    return format_int(units)


def _cost_amount(g: GridMeasures, units: int, lang: str) -> str:
    """A cost with its unit: "$0.325395" (the sign says dollars), or "n billed tokens"."""
    if g.priced:
        return cost_value(g, units)
    return t("tune.amount", lang, value=format_int(units), unit=t(cost_unit(g), lang))


def ranked_amount(result: TuneResult, i: int, lang: str) -> str:
    """Point ``i``'s cost as the choice ranks it: its what-if on the as-run baseline
    (the cost map's figure) over logs, else the grid's modelled cost."""
    costs = result.ranked_costs
    if costs is None:
        return _cost_amount(result.grid, result.grid.cost_units(i), lang)
    value = costs[i]
    assert value is not None  # only ranked points are named
    return format_money(value)


def gap_amount(result: TuneResult, j: int, i: int, lang: str) -> str:
    """Point ``j``'s ranked cost minus point ``i``'s, with its unit."""
    gap = result.cost_gap(j, i)
    if isinstance(gap, Decimal):
        return format_money(gap)
    return _cost_amount(result.grid, gap, lang)


def cost_unit(g: GridMeasures) -> str:
    return "tune.unit.money" if g.priced else "tune.unit.billed"


def _value(g: GridMeasures, measure: str, i: int) -> int:
    if measure == "cost":
        return int(g.cost_units(i))
    if measure == "unseen":
        return int(g.columns["unseen_tokens"][i])
    if measure == "generations":
        return int(g.generations(i))
    if measure == "compression":  # in tenths of n:1, floored (shown: "n.n:1")
        ratio = g.compression(i)
        return 0 if ratio is None else ratio.numerator * 10 // ratio.denominator
    return int(g.summary_calls(i))


def _shown(g: GridMeasures, measure: str, i: int) -> bool:
    """Whether point ``i`` has a value on this map: a cost of unknown usage has none
    (docs/spec.md §15), nor a compression where no run summarised."""
    if measure == "cost":
        return bool(g.known(i))
    if measure == "compression":
        return g.compression(i) is not None
    return True


def _value_text(g: GridMeasures, measure: str, units: int, lang: str) -> str:
    if measure == "cost":
        return _cost_amount(g, units, lang)
    if measure == "compression":
        return t("tune.compression", lang, ratio=f"{format_int(units // 10)}.{units % 10}")
    # A counted phrase: a band or cell of one says "1 generation", never "1 generations"
    # (the January walk saw "1 generations" and "1 summary calls" in a legend).
    key = {"unseen": "tune.count.tokens", "generations": "tune.count.generations"}.get(
        measure, "tune.count.calls"
    )
    return count(key, units, lang)


def point_text(
    g: GridMeasures,
    i: int,
    lang: str,
    costs: Sequence[PointCost] | None = None,
    result: TuneResult | None = None,
) -> str:
    """Point ``i``'s exact values in words (a cell's label and the readout); with
    ``costs``, its what-if on the as-run baseline and the change from it too."""
    # Over a log the point's cost is its what-if alone: the engine's own cost (spec
    # §16: its F, no as-run cache) is of another scope, and the choice ranks what-ifs,
    # unless none is known (tune.result.summarise): then it ranks the engine's, said.
    ranked = costs is not None and any(c.modelled is not None for c in costs)
    text = _point_values(g, i, lang, engine_cost=not ranked)
    if costs is not None:
        text = t("tune.point-whatif", lang, point=text, whatif=delta_text(costs[i], lang))
    if result is not None and result.runtime is not None:
        text = t("tune.point-knob", lang, knob=knob_point(result, i, lang), point=text)
    return text


def _point_values(g: GridMeasures, i: int, lang: str, *, engine_cost: bool = True) -> str:
    k, s = g.point(i)
    c = g.columns
    cost = (
        _value_text(g, "cost", g.cost_units(i), lang)
        if g.known(i)
        else t("tune.unknown-usage", lang)
    )
    return t(
        "tune.point" if engine_cost else "tune.point.what-if",
        lang,
        k=format_int(k),
        s=format_int(s),
        cost=cost,
        unseen=format_int(c["unseen_tokens"][i]),
        peak_unseen=format_int(c["peak_unseen"][i]),
        runs=count("tune.count.runs", c["runs"][i], lang),
        recompresses=count("tune.count.recompresses", c["recompresses"][i], lang),
        rejected=count("tune.count.rejected", c["rejected"][i], lang),
        peak=format_int(c["peak_full_input"][i]),
        m=format_int(c["main_safe_input_at_peak"][i]),
        generations=count("tune.count.summary-generations", g.generations(i), lang),
        compression=_compression_text(g.compression(i), lang),
    )


def _compression_text(ratio: Fraction | None, lang: str) -> str:
    """The largest run's compression as "n:1" to one decimal, rounded half-even (its
    exact ratio is the CLI's); "—" when no run summarised."""
    if ratio is None:
        return "—"
    from decimal import Decimal  # noqa: PLC0415

    value = (Decimal(ratio.numerator) / Decimal(ratio.denominator)).quantize(
        Decimal("0.1"), ROUND_HALF_EVEN
    )
    return t("tune.compression", lang, ratio=f"{value}")


# ------------------------------------------------------------------ the maps


#: A band edge's significant figures: the fewest that keep it above the edge below.
EDGE_FIGURES = 3


def round_figures(v: int, figures: int) -> int:
    """``v`` (>= 0) rounded down to ``figures`` significant digits: an edge a reader can
    write down ("$2.42", "141,000,000"), exact in the map's integer units. Down, so
    the value the edge stands for is in the band above it, as a quantile's is."""
    digits = len(str(v))
    if digits <= figures:
        return v
    q: int = 10 ** (digits - figures)
    return v // q * q


def quantile_edges(values: Sequence[int], bands: int = BINS) -> tuple[int, ...]:
    """Quantile bands: edges[0] is the least value, edges[-1] the greatest, and each
    edge between is the value that leaves about 1/``bands`` of the points below it (so
    each band holds about as many points: a cluster of near-equal costs, as around a
    choice, still spans several colours), rounded down to :data:`EDGE_FIGURES`
    significant figures, or more where fewer would not stay above the least value
    left. Band j holds
    edges[j] <= v < edges[j + 1], the last one up to the greatest value itself. Where
    many points are equal (most points leave 0 tokens unseen) that value is a band of
    its own and the bands left share the points above it."""
    ranked = sorted(values)
    if not ranked:
        return (0, 0)
    hi = ranked[-1]
    edges = [ranked[0]]
    rest = ranked
    while len(edges) < bands:
        # Above the least value left, so the band below the new edge holds a point.
        above = [v for v in rest if v > rest[0]]
        if not above:
            break
        left = bands - len(edges) + 1  # bands still to make, this one included
        raw = max(rest[len(rest) // left], above[0])
        figures = EDGE_FIGURES
        edge = round_figures(raw, figures)
        while not rest[0] < edge <= hi:
            figures += 1
            edge = round_figures(raw, figures)
        edges.append(edge)
        rest = [v for v in rest if v >= edge]
    edges.append(hi)  # the last band closed; [hi, hi] when the greatest is an edge itself
    return tuple(edges)


def band_of(v: int, edges: tuple[int, ...]) -> int:
    """The band of ``v``: the last j with edges[j] <= v, the greatest value in the last."""
    return max(0, min(len(edges) - 2, bisect_right(edges, v) - 1))


def band_class(j: int, edges: tuple[int, ...]) -> str:
    """Band j's colour: the bands spread over the palette's ends (``.tb0`` … ``.tb7``),
    so three bands are dark, middle and light, not the three darkest."""
    n = len(edges) - 1
    return f"tb{0 if n <= 1 else j * (BINS - 1) // (n - 1)}"


def _tick_indices(n: int, step: int) -> list[int]:
    """Both ends, and every ``step``-th value between that keeps ``step`` from the top."""
    if n <= 1:
        return list(range(n))
    inner = [i for i in range(0, n - 1, step) if i <= n - 1 - step]
    return sorted({*inner, n - 1})


def _cells(
    g: GridMeasures, measure: str, lang: str, edges: tuple[int, ...]
) -> list[tuple[str, str]]:
    """Each point's colour class and value text on an absolute map."""
    out = []
    for i in range(g.points):
        # A cost of unknown usage is never a colour (docs/spec.md §15): grey, and said;
        # so is a compression where no run summarised.
        if _shown(g, measure, i):
            value = _value(g, measure, i)
            band = band_class(band_of(value, edges), edges)
            out.append((band, _value_text(g, measure, value, lang)))
        else:
            out.append(("tu", t(_NO_VALUE[measure], lang)))
    return out


def _map_svg(
    result: TuneResult,
    measure: str,
    lang: str,
    width: int,
    *,
    cells: list[tuple[str, str]],
    title: str,
) -> Markup:
    g = result.grid
    n_k, n_s = len(g.ks), len(g.ss)
    axis = result.runtime
    k_labels = [format_int(k) if axis is None else knob_row(axis, k) for k in g.ks]
    gutter = _PAD + max(text_width(x) for x in k_labels) + _TICK + 3
    cell_w = max(6, (width - gutter - _PAD) // n_s)
    plot_w = cell_w * n_s
    # The axis titles wrap where the svg is narrower than they are (issue 42: at 390 px
    # in English the S title, anchored at the plot's right edge, lost its first letters).
    k_text, s_text = _axis_titles(axis, lang)
    k_title = wrap_text(k_text, width - 2 * _PAD)
    s_title = wrap_text(s_text, width - 2 * _PAD)
    top = _LINE * len(k_title) + 4  # the K axis title's rows
    plot_h = _CELL_H * n_k
    bottom = top + plot_h
    height = bottom + _TICK + _LINE + _LINE * len(s_title) + 4
    parts: list[Markup] = []
    texts: list[Markup] = [
        el("text", {"class": "ch-axis-title", "x": _PAD, "y": _LINE * (j + 1)}, line)
        for j, line in enumerate(k_title)
    ]
    for i in range(g.points):
        row, col = divmod(i, n_s)
        x = gutter + col * cell_w
        y = top + (n_k - 1 - row) * _CELL_H
        bin_class, value_text = cells[i]
        k, s = g.point(i)
        parts.append(
            el(
                "rect",
                {
                    "class": f"tc {bin_class}",
                    "x": x,
                    "y": y,
                    "width": cell_w,
                    "height": _CELL_H,
                    "tabindex": "-1",
                    "role": "button",
                    "data-tune-cell": i,
                    "data-k": k,
                    "data-s": s,
                    "aria-label": t(
                        "tune.cell", lang, k=format_int(k), s=format_int(s), value=value_text
                    ),
                },
            )
        )
    # The marks: drawn over the cells, never taking a click (web/style.css .tm).
    r = max(2, min(cell_w, _CELL_H) // 2 - 3)
    for i in result.frontier:
        row, col = divmod(i, n_s)
        cx = gutter + col * cell_w + cell_w // 2
        cy = top + (n_k - 1 - row) * _CELL_H + _CELL_H // 2
        parts.append(el("circle", {"class": "tm tm-frontier", "cx": cx, "cy": cy, "r": r}))
    if result.choice is not None:
        row, col = divmod(result.choice.index, n_s)
        cx = gutter + col * cell_w + cell_w // 2
        cy = top + (n_k - 1 - row) * _CELL_H + _CELL_H // 2
        h = r + 2
        pts = f"{cx},{cy - h} {cx + h},{cy} {cx},{cy + h} {cx - h},{cy}"
        parts.append(el("polygon", {"class": "tm tm-chosen", "points": pts}))
    own = result.own_index
    if own is not None:
        row, col = divmod(own, n_s)
        x = gutter + col * cell_w
        y = top + (n_k - 1 - row) * _CELL_H
        own_box = {"x": x + 1, "y": y + 1, "width": cell_w - 2, "height": _CELL_H - 2}
        parts.append(el("rect", {"class": "tm tm-own", **own_box}))
    # Ticks and labels in the gutters: K at the left (upwards), S below.
    for row in _tick_indices(n_k, -(-(FONT_PX + 4) // _CELL_H)):
        y = top + (n_k - 1 - row) * _CELL_H + _CELL_H // 2
        parts.append(
            el("line", {"class": "ch-axis", "x1": gutter - _TICK, "x2": gutter, "y1": y, "y2": y})
        )
        attrs = {"class": "ch-tick", "x": gutter - _TICK - 2, "y": y + 4, "text-anchor": "end"}
        texts.append(el("text", attrs, k_labels[row]))
    s_labels = [format_int(s) for s in g.ss]
    widest = max(text_width(x) for x in s_labels) + 6
    for col in _tick_indices(n_s, -(-widest // cell_w)):
        x = gutter + col * cell_w + cell_w // 2
        label = s_labels[col]
        half = (text_width(label) + 1) // 2
        lx = min(max(x, half + _PAD), width - _PAD - half)  # inside the svg
        parts.append(
            el("line", {"class": "ch-axis", "x1": x, "x2": x, "y1": bottom, "y2": bottom + _TICK})
        )
        attrs = {"class": "ch-tick", "x": lx, "y": bottom + _TICK + 12, "text-anchor": "middle"}
        texts.append(el("text", attrs, label))
    for j, line in enumerate(s_title):
        # Under the plot's right edge, or as far right as keeps the line inside the svg.
        end = max(gutter + plot_w, min(width - _PAD, _PAD + text_width(line)))
        y = bottom + _TICK + _LINE + 14 + _LINE * j
        attrs = {"class": "ch-axis-title", "x": end, "y": y, "text-anchor": "end"}
        texts.append(el("text", attrs, line))
    frame = {"x": gutter, "y": top, "width": plot_w, "height": plot_h}
    parts.append(el("rect", {"class": "tf", **frame}))
    return chart_svg(
        f"tune-{measure}",
        title,
        width,
        height,
        [*parts, *texts],
        css="ch tune-map",
        role="group",
        data={"data-tune-map": measure, "data-n-k": n_k, "data-n-s": n_s},
    )


def _scale_text(g: GridMeasures, measure: str, units: int, lang: str, rounding: str) -> str:
    """A colour scale's edge: money to four significant figures by ``rounding`` (a cell
    shows its exact cost); billed tokens, unseen tokens and runs exactly."""
    if measure != "cost" or not g.priced:
        return _value_text(g, measure, units, lang)
    value = decimal_of(units, g.places)
    assert value is not None
    return format_money_figures(value, rounding)


def _scale_html(
    g: GridMeasures,
    measure: str,
    edges: tuple[int, ...],
    lang: str,
    skip: frozenset[int] = frozenset(),
) -> Markup:
    """The colour scale: each quantile band as a half-open range ("$0.97 to < $2.42",
    the last one closed at the greatest value), with the unit. The edges between bands
    are exact (:func:`quantile_edges` rounds them); the least and greatest values are
    money widened outward to four significant figures (floor, ceiling)."""
    items = []
    n = len(edges) - 1
    held: dict[int, set[int]] = {}
    for i in range(g.points):
        if _shown(g, measure, i) and i not in skip:
            v = _value(g, measure, i)
            held.setdefault(band_of(v, edges), set()).add(v)
    for j in range(n):
        one = held.get(j, set())
        if len(one) == 1:  # one value (0 unseen tokens on most points): said alone
            text = _scale_text(g, measure, min(one), lang, ROUND_HALF_EVEN)
        else:
            low = _edge_text(g, measure, edges[j], lang, ROUND_FLOOR if j == 0 else None)
            last = j == n - 1
            high = _edge_text(g, measure, edges[j + 1], lang, ROUND_CEILING if last else None)
            text = t("tune.bin" if last else "tune.bin-open", lang, low=low, high=high)
        items.append(el("li", {"class": f"ch-key tk {band_class(j, edges)}", "data-bin": j}, text))
    if measure in _NO_VALUE and not all(_shown(g, measure, i) for i in range(g.points)):
        items.append(el("li", {"class": "ch-key tk tu"}, t(_NO_VALUE[measure], lang)))
    money = measure == "cost" and g.priced
    title = t("tune.scale-money" if money else "tune.scale", lang)
    bands = t("tune.scale-bands-money" if money else "tune.scale-bands", lang)
    if n < BINS:  # (quantile_edges stops where the points left all share one value)
        few = count("count.band", n, lang)
        title = t("tune.scale-few-money" if money else "tune.scale-few", lang, bands=few)
        why = t("tune.scale-one-why", lang) if n == 1 else t("tune.scale-few-why", lang, bands=few)
        bands = f"{why}{'' if lang == 'zh' else ' '}{bands}"
    return el(
        "ul",
        {"class": "ch-legend tune-scale", "aria-label": title},
        el("li", {"class": "tune-scale-title"}, title),
        *items,
        el("li", {"class": "ch-note tune-scale-note"}, bands),
    )


def _edge_text(g: GridMeasures, measure: str, units: int, lang: str, rounding: str | None) -> str:
    """A band edge: a rounded edge between bands exactly ("$2.42"); the map's least or
    greatest value (``rounding`` given) as the scale's other money, to four figures."""
    if rounding is not None or measure != "cost" or not g.priced:
        return _scale_text(g, measure, units, lang, rounding or ROUND_HALF_EVEN)
    return cost_value(g, units)


#: What a cell without a value says, per map that can have one.
_NO_VALUE = {"cost": "tune.unknown-usage", "compression": "tune.no-run"}


def _band_edges(
    g: GridMeasures, measure: str, skip: frozenset[int] = frozenset()
) -> tuple[int, ...]:
    """The map's quantile bands over the points it colours (``skip``: no setting)."""
    values = [
        _value(g, measure, i) for i in range(g.points) if _shown(g, measure, i) and i not in skip
    ]
    return quantile_edges(values)


# ------------------------------------------------------------------ a runtime's knob


def knob_text(axis: RuntimeAxis, value: object) -> str:
    """A knob value in its own unit: "85 %", "0.75", "190,000"."""
    from budgetcore.runtimes.tune_axis import value_text  # noqa: PLC0415 - a runtime is tuned

    return value_text(axis.knob, value)


def knob_row(axis: RuntimeAxis, k: int) -> str:
    """A K row's label: the knob value that gives that K (the first of equal ones)."""
    point = next((p for p in axis.points if p.k == k), None)
    return format_int(k) if point is None else knob_text(axis, point.value)


def _axis_titles(axis: RuntimeAxis | None, lang: str) -> tuple[str, str]:
    """The maps' axis titles: K and S, or the runtime's knob and where its S comes from."""
    if axis is None:
        return t("tune.axis.k", lang), t("tune.axis.s", lang)
    unit = t(f"tune.knob-unit.{axis.knob.unit}", lang)
    k_title = t("tune.axis.knob", lang, knob=axis.knob.name, unit=unit)
    key = "tune.axis.s-runtime" if axis.summary == "runtime" else "tune.axis.s-scenario"
    return k_title, t(key, lang, runtime=axis.title)


def not_settings(result: TuneResult) -> frozenset[int]:
    """The grid's points that are no setting of the runtime (pi's reserveTokens moves K
    and S together: only its diagonal is); none without a runtime."""
    axis, g = result.runtime, result.grid
    if axis is None:
        return frozenset()
    reachable = axis.reachable
    return frozenset(i for i in range(g.points) if g.point(i) not in reachable)


def knob_point(result: TuneResult, i: int, lang: str) -> str:
    """Point ``i`` as the runtime's setting: "knob = value", or that it is none."""
    axis = result.runtime
    k, s = result.grid.point(i)
    at = axis.at(k, s)
    if at is None:
        return t("tune.not-a-setting", lang, runtime=axis.title)
    return t("tune.knob-is", lang, knob=axis.knob.name, value=knob_text(axis, at.value))


def _marks_html(result: TuneResult, lang: str) -> Markup:
    own = result.own
    items = [
        el(
            "li",
            {"class": "ch-key tkm tkm-own"},
            t("tune.mark.own", lang, k=format_int(own.ks[0]), s=format_int(own.ss[0]))
            + ("" if result.own_index is not None else t("tune.mark.own-off", lang)),
        ),
        el(
            "li",
            {"class": "ch-key tkm tkm-frontier"},
            t("tune.mark.frontier", lang, n=format_int(len(result.frontier))),
        ),
    ]
    if result.choice is not None:
        items.append(el("li", {"class": "ch-key tkm tkm-chosen"}, t("tune.mark.chosen", lang)))
    return el("ul", {"class": "ch-legend tune-marks"}, *items)


def maps_html(
    result: TuneResult, lang: str, width: int, costs: Sequence[PointCost] | None = None
) -> Markup:
    """The marks' legend and a map per measure. ``costs``: each point's what-if on the
    sessions' as-run baselines (docs/spec.md §17); then the cost map shows each point's
    change from the as-run model, on one colour scale diverging at 0."""
    g = result.grid
    figures = [_marks_html(result, lang)]
    skip = not_settings(result)
    none_text = "" if not skip else t("tune.not-a-setting", lang, runtime=result.runtime.title)
    for measure in MEASURES:
        unit = t("tune.unit.money" if g.priced else "tune.unit.billed-title", lang)
        if measure == "cost" and costs is not None:
            delta = _Delta.of(costs, skip)
            title = t("tune.map.delta.title", lang)
            cells = delta.cells(lang)
            scale = delta.scale_html(lang)
            caveat = t("tune.not-delta", lang)
        else:
            edges = _band_edges(g, measure, skip)
            title = t(f"tune.map.{measure}.title", lang, unit=unit)
            cells = _cells(g, measure, lang, edges)
            scale = _scale_html(g, measure, edges, lang, skip)
            caveat = t(
                {"cost": "tune.not", "unseen": "tune.not-measure"}.get(
                    measure, f"tune.not-measure.{measure}"
                ),
                lang,
            )
        if skip:
            # No setting of the runtime: grey, and said, never a colour on its scale.
            cells = [("tu", none_text) if i in skip else c for i, c in enumerate(cells)]
            item = el("li", {"class": "ch-key tk tu"}, none_text)
            scale = Markup(str(scale).replace("</ul>", str(item) + "</ul>"))
        figures.append(
            el(
                "figure",
                {"class": "ch-figure", "data-figure": f"tune-{measure}"},
                el("figcaption", None, el("strong", None, title)),
                _map_svg(result, measure, lang, width, cells=cells, title=title),
                scale,
                el("p", {"class": "caveat"}, t("phrase.not", lang), caveat),
            )
        )
    return join(figures)


# ------------------------------------------------------------------ change from as run

#: Colour bins on each side of 0 (``.tdn4`` … ``.tdn1``, ``.td0``, ``.tdp1`` … ``.tdp4``
#: in web/style.css: a diverging palette, savings blue, extra cost red).
SIDE_BINS = 4


def signed_money(value: Decimal) -> str:
    """A change in dollars, exactly, its sign always said: "+$0.12", "−$0.12", "±$0.00"
    (``units.signed_money_text``, the CLI's and the what-if's: one home)."""
    return signed_money_text(value)


@dataclass(frozen=True, slots=True)
class _Delta:
    """Each point's what-if minus the as-run model, as whole units of 10^-places dollars
    (exact: every figure is a finite decimal), None where unknown."""

    costs: tuple[PointCost, ...]
    places: int
    units: tuple[int | None, ...]
    skip: frozenset[int] = frozenset()

    @classmethod
    def of(cls, costs: Sequence[PointCost], skip: frozenset[int] = frozenset()) -> _Delta:
        """``skip``: points that are no setting (drawn grey by the caller, off the scale)."""
        deltas = [None if i in skip else c.delta for i, c in enumerate(costs)]
        known = [d for d in deltas if d is not None]
        places = max([2, *(-int(d.as_tuple().exponent) for d in known)])
        units = tuple(None if d is None else int(d.scaleb(places)) for d in deltas)
        return cls(tuple(costs), places, units, skip)

    @property
    def edges(self) -> tuple[int, ...]:
        """Quantile bands of the changes' sizes (:func:`quantile_edges`, up to
        :data:`SIDE_BINS`), one scale for both signs so one colour is one size of
        change, saving or extra; 0 is a band of its own, the edge between the sides."""
        return quantile_edges([abs(u) for u in self.units if u], SIDE_BINS)

    def bin_of(self, u: int, edges: tuple[int, ...] | None = None) -> int:
        """−4 … −1 below 0, 0 at exactly 0, 1 … 4 above: the size's band, spread over
        the palette's side as :func:`band_class` spreads the absolute maps'."""
        if u == 0:
            return 0
        edges = self.edges if edges is None else edges
        n = len(edges) - 1
        j = band_of(abs(u), edges)
        side = 1 if n <= 1 else 1 + j * (SIDE_BINS - 1) // (n - 1)
        return side if u > 0 else -side

    def cells(self, lang: str) -> list[tuple[str, str]]:
        edges = self.edges
        out = []
        for c, u in zip(self.costs, self.units, strict=True):
            if u is None:
                out.append(("tu", t("tune.delta.unknown", lang)))
            else:
                out.append((_delta_class(self.bin_of(u, edges)), delta_text(c, lang)))
        return out

    def _dollars(self, units: int) -> Decimal:
        return Decimal(units).scaleb(-self.places)

    def scale_html(self, lang: str) -> Markup:
        """The colour scale: 0 alone, and on each side each band of sizes held there
        as a half-open range ("saves $0.97 to < $2.42"): the edges between bands
        exact, the side's least and greatest size widened outward to four figures."""
        edges = self.edges
        held: dict[int, list[int]] = {}
        for u in self.units:
            if u is not None:
                held.setdefault(self.bin_of(u, edges), []).append(abs(u))
        n = len(edges) - 1
        # Each side's own innermost and outermost band: the saving side's greatest change
        # is its own, not the edge it shares with the costlier side ("saves $0.03052 to
        # < $0.536" where no point saved more than $0.0439, the eighth walk).
        inner = {
            -1: max((b for b in held if b < 0), default=0),
            1: min((b for b in held if b > 0), default=0),
        }
        outer = {
            -1: min((b for b in held if b < 0), default=0),
            1: max((b for b in held if b > 0), default=0),
        }
        items = []
        for b in range(-SIDE_BINS, SIDE_BINS + 1):
            if b not in held:
                continue
            sizes = held[b]
            j = band_of(sizes[0], edges)
            sign = 1 if b > 0 else -1
            first, last = j == 0 or b == inner[sign], j == n - 1 or b == outer[sign]
            if b == 0:
                text = signed_money(self._dollars(0))
            elif min(sizes) == max(sizes):  # one change: exactly, as its cells say, in the
                # words of the bands beside it ("saves $0.2978285", not a lone "−$0.29…")
                key = "tune.bin-save-one" if b < 0 else "tune.bin-more-one"
                text = t(key, lang, value=format_money(self._dollars(sizes[0])))
            else:
                low = (
                    format_money_figures(self._dollars(min(sizes)), ROUND_FLOOR)
                    if first
                    else format_money(self._dollars(edges[j]))
                )
                high = (
                    format_money_figures(self._dollars(max(sizes)), ROUND_CEILING)
                    if last
                    else format_money(self._dollars(edges[j + 1]))
                )
                side = "save" if b < 0 else "more"
                key = f"tune.bin-{side}" if last else f"tune.bin-{side}-open"
                text = t(key, lang, low=low, high=high)
            items.append(el("li", {"class": f"ch-key tk {_delta_class(b)}", "data-bin": b}, text))
        if any(u is None and i not in self.skip for i, u in enumerate(self.units)):
            items.append(el("li", {"class": "ch-key tk tu"}, t("tune.delta.unknown", lang)))
        title = t("tune.scale-delta", lang)
        return el(
            "ul",
            {"class": "ch-legend tune-scale", "aria-label": title},
            el("li", {"class": "tune-scale-title"}, title),
            *items,
            el("li", {"class": "ch-note tune-scale-note"}, t("tune.scale-delta-bands", lang)),
        )


def _delta_class(b: int) -> str:
    return "td0" if b == 0 else (f"tdp{b}" if b > 0 else f"tdn{-b}")


def _signed_figures(value: Decimal, rounding: str) -> str:
    """A scale edge: signed dollars to four significant figures by ``rounding`` (of the
    signed value, so a range widened outward stays widened on the negative side)."""
    text = format_money_figures(value, rounding)
    if value == 0:
        return "±" + text
    return ("−" + text[1:]) if text.startswith("-") else "+" + text


def delta_text(c: PointCost, lang: str) -> str:
    """A point's what-if in words: "what-if $X, +$Y from the as-run model"."""
    if c.modelled is None or c.delta is None:
        return t("tune.delta.unknown", lang)
    return t(
        "tune.delta.value",
        lang,
        modelled=format_money(c.modelled),
        delta=signed_money(c.delta),
    )
