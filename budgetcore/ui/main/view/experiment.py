"""The experiment panel: what the chosen experiment expected and what happened."""

from __future__ import annotations

from typing import TYPE_CHECKING

from budgetcore.core.plan import Plan
from budgetcore.messages import t
from budgetcore.ui.main.view.readouts import yes_no
from budgetcore.ui.markup import Markup, el, join
from budgetcore.units import format_int

if TYPE_CHECKING:  # the experiments load with the first one run
    from budgetcore.explore.experiments import Outcome

__all__ = [
    "experiment_html",
]


def _shown(value: object, lang: str) -> str:
    if isinstance(value, bool):
        return yes_no(value, lang)
    if isinstance(value, int):
        return format_int(value)
    return str(value)


def _expected(text: str, lang: str) -> str:
    if text.startswith("is "):
        shown = {"yes": yes_no(True, lang), "no": yes_no(False, lang)}.get(text[3:], text[3:])
        return t("phrase.expect-is", lang, value=shown)
    return t(f"phrase.expect-{text}", lang)


def experiment_html(outcome: Outcome, lang: str) -> Markup:
    """The expected outcome, what changed and what did not, and why a failure failed."""
    e = outcome.experiment
    names = t("phrase.watched", lang).split("|")
    # Each cell names its column: the table stacks on a phone, where five columns
    # broke a number across lines.
    before, after, expected, holds = ({"data-label": n} for n in names[1:])
    rows = join(
        el(
            "tr",
            {"data-check": c.key, "data-holds": "true" if c.holds else "false"},
            el("th", {"scope": "row"}, t(f"watch.{c.key}", lang)),
            el("td", before, _shown(c.before, lang)),
            el("td", after, _shown(c.after, lang)),
            el("td", expected, _expected(c.expected, lang)),
            el("td", holds, "✓" if c.holds else "✗"),
        )
        for c in outcome.checks
    )
    heads = join(el("th", {"scope": "col"}, h) for h in names)
    verdict = t("phrase.holds" if outcome.holds else "phrase.fails", lang)
    why = [] if outcome.holds else _why_failed(outcome, lang)
    return el(
        "div",
        {"data-experiment-result": e.key, "data-holds": "true" if outcome.holds else "false"},
        el("h3", None, t(f"exp.{e.key}.title", lang)),
        el("p", {"class": "expect"}, t(f"exp.{e.key}.expect", lang)),
        el(
            "table",
            {"class": "grid stack"},
            el("thead", None, el("tr", None, heads)),
            el("tbody", None, rows),
        ),
        el("p", {"class": "verdict"}, verdict),
        *(el("p", {"class": "why", "data-why": k}, text) for k, text in why),
    )


def _why_failed(outcome: Outcome, lang: str) -> list[tuple[str, str]]:
    """The reasons a stated outcome failed that the scenario itself shows."""
    out = []
    after: Plan = outcome.after
    before: Plan = outcome.before
    for p in (before, after):
        configured = p.scenario.config.summary_max_tokens
        o = p.scenario.summary_contract.output_tokens
        if p.summary.clamped:
            out.append(
                ("s-clamped", t("why.s-clamped", lang, s=format_int(configured), o=format_int(o)))
            )
            break
    if not after.funnel.admitted and outcome.experiment.key != "f_above_m":
        out.append(("rejected", t("why.rejected", lang)))
    if outcome.experiment.key == "raise_i" and after.main_safe_input == before.main_safe_input:
        out.append(("m-flat", t("why.m-flat", lang)))
    for c in outcome.checks:
        if not c.holds:
            out.append(
                (
                    f"check-{c.key}",
                    t(
                        "why.check",
                        lang,
                        name=t(f"watch.{c.key}", lang),
                        expected=_expected(c.expected, lang),
                        before=_shown(c.before, lang),
                        after=_shown(c.after, lang),
                    ),
                )
            )
    return out
