"""The plan's bar rows: the one source of what the funnel, branch and work charts show.

Each chart is rows of stacked parts (a segment key and its exact tokens, left to
right) and the reference lines drawn across it (K, M, C). The page's SVG
(``budgetcore.ui.svg``) and the review report (``budgetcore.report``) draw these same
rows; they differ only in how they place pixels. Labels are catalogue keys, so each
renderer says them in its reader's language; what each chart must not be read as
is docs/spec.md §1.
"""

from __future__ import annotations

from dataclasses import dataclass

from budgetcore.core.plan import Plan

__all__ = ["CHART_KEYS", "FAR", "Ref", "Row", "plan_rows", "split_refs"]

CHART_KEYS = ("funnel", "branch", "work")

#: A reference line further than this times the chart's largest other value is not
#: drawn to scale (an edge note instead): drawing M = 936,345 to scale would shrink a
#: 36,000 full input to 4 % of the width, which hides every difference the chart is for.
FAR = 2


@dataclass(frozen=True, slots=True)
class Row:
    name: str  # catalogue key of the row's label
    parts: tuple[tuple[str, int], ...]  # (segment key, tokens), stacked left to right

    @property
    def total(self) -> int:
        return sum(tokens for _, tokens in self.parts)


@dataclass(frozen=True, slots=True)
class Ref:
    key: str  # trigger, main_safe_input, summary_safe_input (catalogue: seg.<key>)
    tokens: int
    always: bool  # K: the axis always extends to it; M, C: only when not far off


def plan_rows(p: Plan, key: str) -> tuple[tuple[Row, ...], tuple[Ref, ...]]:
    """The rows and reference lines of chart ``key`` (one of ``CHART_KEYS``) for ``p``.

    >>> from budgetcore.core.plan import plan
    >>> from budgetcore.core.scenario import Scenario
    >>> rows, refs = plan_rows(plan(Scenario()), "branch")
    >>> [(r.name, r.total) for r in rows][-1], [(r.key, r.tokens) for r in refs]
    (('phrase.full-input', 36000), [('trigger', 32000), ('main_safe_input', 936345)])
    """
    f = p.funnel
    w = p.scenario.workload
    if key == "funnel":
        rows = tuple(
            Row(f"seg.{k}", ((k, v),))
            for k, v in (
                ("main_safe_input", p.main_safe_input),
                ("loader_prefetch_limit", f.loader_prefetch_limit),
                ("prefetched", f.prefetched),
                ("engine_raw_headroom", f.engine_raw_headroom),
                ("raw_selected", f.raw_selected),
            )
        )
        return rows, ()
    if key == "branch":
        # The summary is a separate branch joining F and the raw tail (spec §4).
        rows = (
            Row("seg.required", (("required", w.required_tokens),)),
            Row("seg.loader_reserve", (("loader_reserve", w.summary_tokens),)),
            Row("seg.summary_adopted", (("summary_adopted", f.summary_adopted),)),
            Row("seg.raw_selected", (("raw_selected", f.raw_selected),)),
            Row(
                "phrase.full-input",
                (
                    ("full_required", w.required_tokens),
                    ("full_summary", f.summary_adopted),
                    ("full_raw", f.raw_selected),
                ),
            ),
        )
        refs = (
            Ref("trigger", p.scenario.config.trigger_tokens, True),
            Ref("main_safe_input", p.main_safe_input, False),
        )
        return rows, refs
    if key != "work":
        raise ValueError(f"no bar chart {key!r}; the charts are {', '.join(CHART_KEYS)}")
    rows = (
        Row(
            "phrase.work-input",
            (
                ("instructions", w.summary_instruction_tokens),
                ("previous_summary", w.previous_summary_tokens),
                ("new_raw", p.round.new_raw),
            ),
        ),
        Row("seg.generation", (("generation", p.summary.generation),)),
    )
    return rows, (Ref("summary_safe_input", p.summary.safe_input, False),)


def split_refs(
    rows: tuple[Row, ...], refs: tuple[Ref, ...]
) -> tuple[int, tuple[Ref, ...], tuple[Ref, ...]]:
    """The largest value the axis must reach, the lines drawn to scale, and the lines
    beyond the axis (further than ``FAR`` times the largest row or always-line).

    >>> from budgetcore.core.plan import plan
    >>> from budgetcore.core.scenario import Scenario
    >>> top, lines, beyond = split_refs(*plan_rows(plan(Scenario()), "branch"))
    >>> top, [r.key for r in lines], [r.key for r in beyond]
    (36000, ['trigger'], ['main_safe_input'])
    """
    data_top = max([r.total for r in rows] + [r.tokens for r in refs if r.always])
    lines = tuple(r for r in refs if r.always or r.tokens <= FAR * max(1, data_top))
    beyond = tuple(r for r in refs if r not in lines)
    return max([data_top] + [r.tokens for r in lines]), lines, beyond
