"""The replay timeline's run-time strip drawn (docs/spec.md §15): each run's duration
as a bar, dashed by its fate, against the time from its start to the next append, on
one axis of seconds. Pure: the strip's geometry (``charts.timeline.RunTimes``) in,
markup out.

A timed redraw draws a few hundred runs per input; what does not move from one input
to the next (the title, the seconds axis, the caption, a slot's texts) is kept by
value, and each run's text is two looked-up texts joined in C (docs/performance.md).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from itertools import compress
from operator import add
from typing import cast

from budgetcore.charts.geometry import FONT_PX, nice_ticks, text_width, wrap_text
from budgetcore.charts.timeline import UNIT, RunTimes, held
from budgetcore.messages import t
from budgetcore.ui.markup import Markup, Plain, el
from budgetcore.ui.replay.chart_text import px_texts, slot_texts
from budgetcore.ui.svg.axes import LINE, TICK
from budgetcore.units import format_int

__all__ = ["FATE_DASH", "run_strip", "seconds_text"]

#: A fate's dash pattern on the run-time strip (its legend swatch has the same).
FATE_DASH = {"published": "", "discarded": "4 2", "abandoned": "1 2", "failed": "6 2 1 2"}


def seconds_text(v: Fraction) -> str:
    """A tick's seconds: whole, or a short exact decimal (ticks are 1, 2, 5 × 10^k)."""
    return format_int(int(v)) if v.denominator == 1 else f"{Decimal(v.numerator) / v.denominator:f}"


@lru_cache(maxsize=64, typed=True)
def _seconds_ticks(scale: Fraction) -> tuple[Fraction, ...]:
    """Nice ticks from 0 to the scale: integers when the scale is a second or more. By
    value: the scale is the longest run, mostly the same from one redraw to the next."""
    if scale >= 2:
        return tuple([Fraction(v) for v in nice_ticks(0, int(scale), 3)])
    milli = int(scale * 1000)
    return tuple([Fraction(v, 1000) for v in nice_ticks(0, max(1, milli), 3)])


@lru_cache(maxsize=64)
def _seconds_axis(
    scale: Fraction, h: int, top: int, gutter: int, pw: int
) -> tuple[tuple[Markup, ...], tuple[Markup, ...]]:
    """The seconds axis's grid lines and tick labels, by value: the scale is mostly the
    same from one input to the next."""
    grid: list[Markup] = []
    labels: list[Markup] = []
    sn, sd = scale.numerator, scale.denominator
    for v in _seconds_ticks(scale):
        # int(v * h / scale), v and the scale >= 0, in integers: (a/b) h / (c/d) floored
        ty = top + h - (v.numerator * h * sd) // (v.denominator * sn)
        grid.append(
            el("line", {"class": "ch-grid", "x1": gutter, "x2": gutter + pw, "y1": ty, "y2": ty})
        )
        labels.append(
            el(
                "text",
                {"class": "ch-tick", "x": gutter - TICK - 2, "y": ty + 4, "text-anchor": "end"},
                seconds_text(v),
            )
        )
    return tuple(grid), tuple(labels)


@lru_cache(maxsize=64)
def _title_lines(lang: str, pw: int) -> tuple[str, ...]:
    """The strip's title: one line where it fits; else its two halves, each wrapped
    again where it is still wider than the plot (a phone's plot is narrower than the
    title, or than a half)."""
    title = t("replay.runs.title", lang)
    if text_width(title) <= pw:
        return (title,)
    return (
        *wrap_text(t("replay.runs.title-1", lang), pw),
        *wrap_text(t("replay.runs.title-2", lang), pw),
    )


@lru_cache(maxsize=64)
def _caption_lines(lang: str, width: int) -> tuple[str, ...]:
    """The axis's caption, wrapped where a phone's plot is narrower."""
    return tuple(wrap_text(t("replay.runs.axis", lang), width))


def _rows_text(ys: tuple[int, ...] | list[int], tail: str = "") -> list[str]:
    """Heights in 1/100 px as whole pixels (rounded half up) as text, each with
    ``tail``; a held height (every run as long: a fixed duration) written once."""
    half = UNIT // 2
    if ys and held(ys):
        return [f"{(ys[0] + half) // UNIT}{tail}"] * len(ys)
    return px_texts([(y + half) // UNIT for y in ys], tail)


def run_strip(  # noqa: PLR0917 - the timeline's one call, all positions
    times: RunTimes,
    lang: str,
    y: int,
    gutter: int,
    pw: int,
    n: int,
    parts: list[Markup],
    texts: list[Markup],
) -> int:
    """Each run's duration (a bar, dashed by fate) against the time from its start to
    the next append (a short bar across it; a triangle at the top when later than the
    scale), on one axis of seconds; returns the y below it."""
    lines = _title_lines(lang, pw)
    for i, line in enumerate(lines):
        texts.append(
            el("text", {"class": "ch-label", "x": gutter, "y": y + (i + 1) * LINE - 4}, line)
        )
    y += (len(lines) - 1) * LINE
    top = y + LINE + 6  # the title's descenders clear the top grid line
    h = times.height
    grid, labels = _seconds_axis(times.scale_s, h, top, gutter, pw)
    parts += grid
    texts += labels
    slot = max(1, pw // n)
    stroke = max(1, min(5, slot - 1))
    # By column (a few hundred runs per input): each fate's bars in the order its first
    # run comes, then the appends' marks; a run sits at its turn's slot middle, whose
    # texts are kept by value (slot_texts), and its height's text is looked up.
    fates, xs = times.fates, times.xs
    bar_at = slot_texts(n, pw, "M", f" {h}V")
    bars = list(map(add, map(bar_at.__getitem__, xs), _rows_text(times.duration_ys)))
    kinds = dict.fromkeys(fates)
    by_fate = (
        {fate: bars for fate in kinds}
        if len(kinds) == 1
        else {fate: list(compress(bars, [f == fate for f in fates])) for fate in kinds}
    )
    left, wide = stroke // 2 + 2, stroke + 4
    append_at = slot_texts(n, pw, "M", " ", -left)
    has = [a is not None for a in times.append_ys]
    every = all(has)  # else a run has no append after it (the session's last)
    xs_with = xs if every else tuple(compress(xs, has))
    ays = cast(
        "tuple[int, ...]", times.append_ys if every else tuple(compress(times.append_ys, has))
    )
    appends = list(map(add, map(append_at.__getitem__, xs_with), _rows_text(ays, f"h{wide}")))
    later_at = slot_texts(n, pw, "M", " 0l3 5h-6z")
    later = list(map(later_at.__getitem__, compress(xs, times.above))) if any(times.above) else []
    g: list[Markup] = []
    for fate, ds in by_fate.items():
        attrs: dict[str, object] = {
            "class": f"rp-run rp-fate-{fate}",
            "data-run-fate": fate,
            "data-count": len(ds),
            "d": Plain("".join(ds)),
            "stroke-width": stroke,
        }
        if FATE_DASH[fate]:
            attrs["stroke-dasharray"] = FATE_DASH[fate]
        g.append(el("path", attrs))
    if appends:
        g.append(
            el(
                "path",
                {"class": "rp-append", "data-appends": len(appends), "d": Plain("".join(appends))},
            )
        )
    if later:
        g.append(
            el(
                "path",
                {"class": "rp-append-later", "data-later": len(later), "d": Plain("".join(later))},
            )
        )
    parts.append(el("g", {"transform": f"translate({gutter},{top})", "data-plot": "runs"}, *g))
    bottom = top + h
    parts.append(
        el(
            "line",
            {"class": "ch-axis", "x1": gutter, "x2": gutter + pw, "y1": bottom, "y2": bottom},
        )
    )
    # Right-aligned under the plot.
    caption = _caption_lines(lang, gutter + pw)
    for i, line in enumerate(caption):
        texts.append(
            el(
                "text",
                {
                    "class": "ch-axis-title",
                    "x": gutter + pw,
                    "y": bottom + FONT_PX + TICK + i * LINE,
                    "text-anchor": "end",
                },
                line,
            )
        )
    return bottom + FONT_PX + TICK + 2 + (len(caption) - 1) * LINE
