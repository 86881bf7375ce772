"""``render(state) -> Screen``: everything the browser shell writes, as plain values.

The shell compares each part with what it wrote last time and touches only what
changed. Markup comes from ``budgetcore.ui.markup`` (always escaped) and every word
from the catalogue (``budgetcore.messages``). Each region's markup has its own
module in this package; this one puts them together.
"""

from __future__ import annotations

from functools import lru_cache

from budgetcore.core.plan import Plan
from budgetcore.messages import t
from budgetcore.scenario.fragment import to_fragment
from budgetcore.ui.drawn import reuse
from budgetcore.ui.export.runtime import runtime_effect
from budgetcore.ui.export.view import import_html, warnings_html
from budgetcore.ui.form import (
    FIELDS,
    format_value,
    slider_position,
)
from budgetcore.ui.main.validate import preset_of
from budgetcore.ui.main.view.experiment import experiment_html
from budgetcore.ui.main.view.pickers import link_models, picker_parts
from budgetcore.ui.main.view.readouts import (
    ab_cells,
    bullet_list,
    differing_inputs,
    format_signed,
    plan_values,
    readout_cells,
)
from budgetcore.ui.main.view.samples import samples_html
from budgetcore.ui.main.view.types import (
    KEY_READOUTS,
    REFUSALS,
    FieldView,
    Screen,
)
from budgetcore.ui.markup import Markup
from budgetcore.ui.model import PICKER_SECTIONS, PageState
from budgetcore.ui.problems import problem_text
from budgetcore.units import format_int

__all__ = ["curves_key", "render", "render_curves"]


def _field_views(state: PageState) -> dict[str, FieldView]:
    lang = state.lang
    messages: dict[str, str] = {}
    for issue in state.issues:
        text = problem_text(issue, lang)
        for path in issue.paths:
            messages[path] = f"{messages[path]} {text}" if path in messages else text
    return {
        path: _field_view(
            path, state.texts[path], state.values.get(path), messages.get(path, ""), lang
        )
        for path in FIELDS
    }


@lru_cache(maxsize=512)
def _field_view(path: str, text: str, value: object, message: str, lang: str) -> FieldView:
    ui = FIELDS[path]
    has_slider = ui.kind not in ("bool", "average")
    empty = value is None and ui.nullable
    if empty and has_slider:
        valuetext = t("phrase.empty", lang) + " — " + t(f"hint.{path}", lang)
    elif has_slider:
        valuetext = f"{format_value(path, value)} {t(ui.unit, lang)}".strip()
    else:
        valuetext = ""
    return FieldView(
        text,
        message,
        slider_position(path, value) if has_slider else None,
        valuetext,
        empty,
    )


def notice_text(state: PageState) -> str:
    """The notice in the page's language; a copied link's names what it leaves."""
    lang = state.lang
    if not state.notice_items:
        return t(state.notice, lang)
    items = t("msg.item-sep", lang).join(t(k, lang) for k in state.notice_items)
    return t(state.notice, lang, items=items)


def render(state: PageState, before: Screen | None = None) -> Screen:
    """Everything but the panels (curves, peers, export, replay, Tune); ``before``: the
    last screen, whose costly regions are reused where their values are unchanged."""
    was = before.drawn if before is not None else None
    drawn: dict[str, tuple[object, object]] = {}
    lang = state.lang
    p = state.plan
    values = plan_values(p)
    readouts = readout_cells(p, values, lang)
    html: dict[str, Markup] = {}
    text: dict[str, str] = {}
    pinned = state.pinned
    ab: dict[str, tuple[str, str, str]] = {}
    if pinned is not None:
        ab = ab_cells(plan_values(pinned), values, lang)
        html["ab-inputs"] = differing_inputs(pinned, p, lang)
    else:
        html["ab-inputs"] = Markup("")
    html.update(
        reuse(
            was,
            drawn,
            "charts",
            (p, pinned, lang, state.width),
            lambda: _charts(p, pinned, lang, state.width),
        )
    )
    html["samples-out"] = samples_html(p, values, lang, was, drawn)
    html["sample-errors"] = bullet_list([problem_text(x, lang) for x in state.sample_problems])
    html["experiment-result"] = (
        experiment_html(state.outcome, lang) if state.outcome is not None else Markup("")
    )
    html["import-result"] = import_html(state)
    html["warnings"] = warnings_html(p.scenario, lang, state.peers, state.export_runtime)
    # The import file box's status, in the page's language (the browser's is not).
    text["import-file-status"] = state.import_file or t("static.import-file-none", lang)
    # The runtime picked beside the model, and what it changes (nothing on the readouts).
    text["runtime-effect"] = reuse(
        was,
        drawn,
        "runtime-effect",
        (p.scenario, state.export_runtime, lang, state.registry is not None),
        lambda: runtime_effect(state),
    )
    # One problem a line (the banner keeps its line breaks: white-space: pre-line), where
    # a link with several problems read as one run-on paragraph (the December walk).
    text["link-problems"] = (
        t("msg.link-problems", lang).rstrip()
        + "".join(f"\n• {problem_text(x, lang)}" for x in state.link_problems)
        if state.link_problems
        else ""
    )
    text["status"] = t("problem.internal", lang, detail=state.error) if state.error else ""
    text["notice"] = notice_text(state) if state.notice else ""
    text["sweep-msg"] = t("msg.list-sep", lang).join(
        problem_text(i, lang) for i in state.sweep.issues
    )
    pickers = {}
    for section in PICKER_SECTIONS:
        view, parts = picker_parts(state, section)
        pickers[section] = view
        html[f"picker-{section}-list"] = parts[0]
        html[f"picker-{section}-info"] = parts[1]
        text[f"picker-{section}-status"] = parts[2]
    fragment = to_fragment(
        p.scenario,
        None if pinned is None else pinned.scenario,
        lang=lang if state.lang_chosen else "",
        runtime="" if state.export_runtime == "article" else state.export_runtime,
        **link_models(state),
    )
    key_ab: dict[str, str] = {}
    if pinned is not None:
        a_k, b_k = pinned.scenario.config.trigger_tokens, p.scenario.config.trigger_tokens
        k_cell = (format_int(a_k), format_signed(b_k - a_k), "")
        for key in KEY_READOUTS:
            a_text, delta, _sign = k_cell if key == "trigger_tokens" else ab[key]
            key_ab[key] = t("phrase.key-ab", lang, a=a_text, delta=delta)
    return Screen(
        lang=lang,
        stale=state.stale,
        ab=pinned is not None,
        summary_same=state.summary_same,
        preset=preset_of(state),
        fields=_field_views(state),
        readouts=readouts,
        ab_cells=ab,
        html=html,
        text=text,
        fragment=fragment,
        sweep=(state.sweep.path, state.sweep.low_text, state.sweep.high_text),
        sweep_invalid=state.sweep.invalid,
        boxes={
            "samples-text": state.samples_text,
            "import-text": state.import_text,
            "replay-turns": state.replay.turns_text,
        },
        key_ab=key_ab,
        pickers=pickers,
        peers_unit=state.peers_unit,
        notice_kind="refusal" if state.notice in REFUSALS else "done",
        drawn=drawn,
    )


def _charts(p: Plan, pinned: Plan | None, lang: str, width: int) -> dict[str, Markup]:
    """The three plan charts (drawn again only when the plan, A, the language or the
    width changed: ``render``'s key)."""
    from budgetcore.ui.svg.bars import plan_charts  # noqa: PLC0415

    drawn = plan_charts(p, lang, width=width, pinned=pinned)
    return {f"chart-{k}": v for k, v in drawn.items()}


def curves_key(state: PageState) -> object:
    """What the curves panel is drawn from (the shell draws it again when this changes;
    None: nothing to draw, the panel closed, the scenario stale or not swept yet)."""
    s = state.sweep
    if not s.open or state.stale or s.curves is None:
        return None
    return (s.curves_for, s.curves, state.lang)


def render_curves(state: PageState, width: int | None = None) -> Markup:
    """The capacity curves of the sweep job's result (ui.update: ``JobStep("sweep")``)."""
    from budgetcore.ui.svg.curves import curves_chart  # noqa: PLC0415

    drawn = state.sweep.curves
    if drawn is None:
        return Markup("")
    return curves_chart(drawn, state.lang, width=state.width if width is None else width)
