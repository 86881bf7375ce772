"""The plan's readouts and, while A is pinned, the A/B cells and the inputs that differ."""

from __future__ import annotations

from typing import Any

from budgetcore.core.plan import Plan
from budgetcore.core.scenario import Scenario
from budgetcore.messages import CATALOGUE, t
from budgetcore.ui.main.state import PRESETS
from budgetcore.ui.main.validate import scenario_texts
from budgetcore.ui.main.view.types import READOUT_KEYS
from budgetcore.ui.markup import Markup, el, join
from budgetcore.units import format_int

__all__ = [
    "ab_cells",
    "bullet_list",
    "differing_inputs",
    "format_signed",
    "model_name",
    "plan_values",
    "readout_cells",
    "yes_no",
]


def yes_no(value: bool, lang: str) -> str:
    return t("msg.yes" if value else "msg.no", lang)


def plan_values(p: Plan) -> dict[str, Any]:
    out = p.as_dict()
    out["summary_will_start"] = p.start.will_start
    return out


def readout_cells(p: Plan, values: dict[str, Any], lang: str) -> dict[str, tuple[str, str | None]]:
    out: dict[str, tuple[str, str | None]] = {}
    for key in READOUT_KEYS:
        value = values[key]
        if isinstance(value, bool):
            out[key] = (yes_no(value, lang), "true" if value else "false")
        else:
            out[key] = (format_int(value), None)
    out["has_work"] = (yes_no(p.start.has_work, lang), "true" if p.start.has_work else "false")
    out["trigger_tokens"] = (format_int(p.scenario.config.trigger_tokens), None)
    return out


def format_signed(value: int) -> str:
    """A signed difference: '+1,234', '−1,234' (a real minus sign) or '0'."""
    if value > 0:
        return f"+{format_int(value)}"
    if value < 0:
        return f"\u2212{format_int(-value)}"
    return "0"


def ab_cells(a: dict[str, Any], b: dict[str, Any], lang: str) -> dict[str, tuple[str, str, str]]:
    out = {}
    for key in READOUT_KEYS:
        x, y = a[key], b[key]
        if isinstance(x, bool):
            out[key] = (
                yes_no(x, lang),
                t("msg.same" if x == y else "msg.changed", lang),
                "same" if x == y else "changed",
            )
        else:
            sign = "up" if y > x else "down" if y < x else "same"
            out[key] = (format_int(x), format_signed(y - x), sign)
    return out


def differing_inputs(a: Plan, b: Plan, lang: str) -> Markup:
    """The inputs in which A and B differ, each as A → B."""
    ta, tb = scenario_texts(a.scenario), scenario_texts(b.scenario)
    same_a, same_b = a.scenario.summary_model is None, b.scenario.summary_model is None
    rows = []
    for path in ta:
        if path.startswith("summary_model.") and same_a and same_b:
            continue
        if ta[path] != tb[path]:
            rows.append(
                el(
                    "li",
                    {"data-differs": path},
                    t(f"label.{path}", lang)
                    if f"label.{path}" in CATALOGUE
                    else t(f"field.{path}", lang),
                    ": ",
                    el("span", {"class": "num"}, ta[path] or "—"),
                    " → ",
                    el("strong", {"class": "num"}, tb[path] or "—"),
                )
            )
    if same_a != same_b:
        rows.append(
            el(
                "li",
                {"data-differs": "summary_model"},
                t("phrase.same-contract", lang),
                ": ",
                yes_no(same_a, lang),
                " → ",
                yes_no(same_b, lang),
            )
        )
    # The two plans' models by name (issue 42: the comparison never named them); a
    # contract no registry model holds is its preset's, as the picker names it, or
    # "custom".
    models = el(
        "p",
        {"class": "ab-models", "data-ab-models": ""},
        t(
            "phrase.ab-models",
            lang,
            a=model_name(a.scenario, lang),
            b=model_name(b.scenario, lang),
        ),
    )
    if not rows:
        return join((models, el("p", {"class": "ab-same"}, t("phrase.ab-no-diff", lang))))
    return join(
        (
            models,
            el("p", {"class": "ab-h"}, t("phrase.ab-diff", lang)),
            el("ul", {"class": "ab-diff"}, *rows),
        )
    )


def model_name(scenario: Scenario, lang: str, custom: str = "phrase.custom") -> str:
    """A scenario's main model as the page names it: its registry name, the preset
    whose contract it has ("pinned custom" sat under a picker reading "Article: …"),
    or the catalogue's ``custom`` phrase."""
    if scenario.main_model_name:
        return scenario.main_model_name
    c = scenario.main_model
    for key, contract in PRESETS.items():
        if contract == (c.input_tokens, c.output_tokens, c.reserves_output):
            return t("phrase.ab-preset", lang, name=t(f"preset.{key}", lang))
    return t(custom, lang)


def bullet_list(items: list[str]) -> Markup:
    return join(el("li", None, i) for i in items)
