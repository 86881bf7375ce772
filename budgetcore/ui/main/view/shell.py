"""The page's static markup, written once (or once per language): the controls, the readout
tables, the sweep and experiment choices and the pickers' empty frames.
"""

from __future__ import annotations

from budgetcore.messages import CATALOGUE, t
from budgetcore.scenario.fields import SCENARIO_FIELDS
from budgetcore.ui.export.runtime import runtime_options_html
from budgetcore.ui.form import (
    AVERAGES,
    FIELDS,
    slider_max,
)
from budgetcore.ui.main.state import PRESETS
from budgetcore.ui.main.view.nav import nav_html
from budgetcore.ui.main.view.types import BOOL_KEYS, KEY_READOUTS, READOUT_KEYS
from budgetcore.ui.markup import Markup, el, join

__all__ = [
    "averages_html",
    "background_html",
    "controls_html",
    "experiment_buttons_html",
    "key_readouts_html",
    "language_html",
    "picker_html",
    "readouts_html",
    "runtime_html",
    "shell_html",
    "sweep_options_html",
]


#: K and S first: they are the knobs users come for (issue 42: under the model contracts
#: they sat at the bottom edge of the first 1440 x 900 screen, and screens down on a phone).
_GROUPS = ("config", "main_model", "summary_model", "workload", "limits")


_FOLDED = ("workload", "limits")  # fold on a phone; results come first


def _field_id(path: str) -> str:
    return "in-" + path.replace(".", "-")


def _control(path: str) -> Markup:
    ui = FIELDS[path]
    fid = _field_id(path)
    label_key, hint_key = f"label.{path}", f"hint.{path}"
    msg = el("p", {"class": "msg", "id": f"{fid}-msg", "role": "alert", "data-msg": path})
    hint = (
        el("span", {"class": "hint", "id": f"{fid}-hint", "data-i18n": hint_key}, t(hint_key, "en"))
        if hint_key in CATALOGUE
        else Markup("")
    )
    label = el("label", {"for": fid, "data-i18n": label_key}, t(label_key, "en"))
    if ui.kind == "bool":
        box = el("input", {"type": "checkbox", "id": fid, "data-input": path})
        return el("div", {"class": "field check"}, box, label, hint, msg)
    if ui.kind == "average":
        box = el(
            "input",
            {
                "type": "text",
                "id": fid,
                "data-input": path,
                "data-sample-avg": path,
                "inputmode": "decimal",
                "aria-describedby": f"{fid}-msg",
            },
        )
        return el("div", {"class": "field"}, label, box, msg)
    unit = el("span", {"class": "unit", "data-i18n": ui.unit}, t(ui.unit, "en"))
    slider = el(
        "input",
        {
            "type": "range",
            "min": 0,
            "max": slider_max(path),
            "step": 1,
            "data-slider": path,
            "aria-labelledby": f"{fid}-label",
        },
    )
    text = el(
        "input",
        {
            "type": "text",
            "id": fid,
            "data-input": path,
            "inputmode": "decimal" if ui.kind == "margin" else "numeric",
            "autocomplete": "off",
            "spellcheck": "false",
            "aria-describedby": f"{fid}-hint {fid}-msg",
        },
    )
    label = el(
        "label", {"for": fid, "id": f"{fid}-label", "data-i18n": label_key}, t(label_key, "en")
    )
    return el(
        "div",
        {"class": "field", "data-field": path},
        label,
        hint,
        el("div", {"class": "pair"}, slider, el("span", {"class": "typed"}, text, unit)),
        msg,
    )


def controls_html() -> Markup:
    """The form's fieldsets; workload and protections fold (open on a wide screen)."""
    parts = []
    for section in _GROUPS:
        paths = [s.path for s in SCENARIO_FIELDS if s.section == section]
        body = join(_control(p) for p in paths)
        extra: Markup = Markup("")
        if section == "main_model":
            options = join(
                el("option", {"value": k, "data-i18n": f"preset.{k}"}, t(f"preset.{k}", "en"))
                for k in PRESETS
            )
            custom = el(
                "option", {"value": "", "data-i18n": "phrase.custom"}, t("phrase.custom", "en")
            )
            extra = el(
                "div",
                {"class": "field"},
                el(
                    "label",
                    {"for": "preset", "data-i18n": "phrase.preset"},
                    t("phrase.preset", "en"),
                ),
                el("select", {"id": "preset", "data-preset": "main_model"}, custom, options),
            )
            extra = join((extra, picker_html("main_model")))
        elif section == "summary_model":
            extra = el(
                "div",
                {"class": "field check"},
                el(
                    "input",
                    {
                        "type": "checkbox",
                        "id": "summary-same",
                        "data-toggle": "summary_model",
                        "checked": True,
                    },
                ),
                el(
                    "label",
                    {"for": "summary-same", "data-i18n": "phrase.same-contract"},
                    t("phrase.same-contract", "en"),
                ),
            )
            body = el("div", {"id": "summary-fields", "hidden": True}, picker_html(section), body)
        elif section == "workload":
            extra = el(
                "div",
                {"class": "field"},
                el(
                    "button",
                    {
                        "type": "button",
                        "id": "engine-drops",
                        "data-action": "engine-drops",
                        "data-i18n": "phrase.engine-drops",
                    },
                    t("phrase.engine-drops", "en"),
                ),
            )
        elif section == "config":
            # The runtime beside the knobs it writes and just above the model: users
            # pick their model and runtime first (issue 42: it lived only in Export).
            body = join((body, runtime_html()))
        legend = el("span", {"data-i18n": f"group.{section}"}, t(f"group.{section}", "en"))
        if section in _FOLDED:
            parts.append(
                el(
                    "details",
                    {"class": "group", "data-group": section, "data-fold": "true"},
                    el("summary", None, legend),
                    extra,
                    body,
                )
            )
        else:
            parts.append(
                el("fieldset", {"data-group": section}, el("legend", None, legend), extra, body)
            )
    return join(parts)


def runtime_html() -> Markup:
    """The first screen's runtime picker: the same state as the Export panel's (both
    selects carry ``data-export-runtime``, one event, ``PageState.export_runtime``),
    and the line of what the picked runtime changes (``#runtime-effect``)."""
    return el(
        "div",
        {"class": "field runtime-field", "data-runtime-field": ""},
        el("label", {"for": "runtime", "data-i18n": "runtime.label"}, t("runtime.label", "en")),
        el(
            "select",
            {"id": "runtime", "data-export-runtime": "", "aria-describedby": "runtime-effect"},
            runtime_options_html(),
        ),
        el("p", {"id": "runtime-effect", "class": "hint runtime-effect", "aria-live": "polite"}),
    )


def background_html() -> Markup:
    return join(_control(s.path) for s in SCENARIO_FIELDS if s.section == "background")


def averages_html() -> Markup:
    return join(_control(p) for p in AVERAGES)


def readouts_html() -> Markup:
    """The full readouts table; A and B − A columns show only while A is pinned."""
    rows = join(
        el(
            "tr",
            None,
            el("th", {"scope": "row", "data-i18n": f"readout.{k}"}, t(f"readout.{k}", "en")),
            el("td", {"class": "num", "data-key": k, "data-value": "" if k in BOOL_KEYS else None}),
            el("td", {"class": "num ab", "data-key-a": k}),
            el("td", {"class": "num ab delta", "data-key-delta": k}),
        )
        for k in READOUT_KEYS
    )
    head = el(
        "thead",
        None,
        el(
            "tr",
            None,
            el("th", {"scope": "col", "data-i18n": "phrase.readout"}, t("phrase.readout", "en")),
            el("th", {"scope": "col", "data-i18n": "phrase.col-b"}, t("phrase.col-b", "en")),
            el(
                "th",
                {"scope": "col", "class": "ab", "data-i18n": "phrase.col-a"},
                t("phrase.col-a", "en"),
            ),
            el(
                "th",
                {"scope": "col", "class": "ab", "data-i18n": "phrase.col-delta"},
                t("phrase.col-delta", "en"),
            ),
        ),
    )
    caption = el(
        "caption", {"data-i18n": "phrase.readouts-caption"}, t("phrase.readouts-caption", "en")
    )
    return el("table", {"class": "readouts"}, caption, head, el("tbody", None, rows))


def key_readouts_html() -> Markup:
    """The readouts that stay in view: M, K, S, C, full input, admitted, trigger."""
    return join(
        el(
            "div",
            {"class": "kv", "data-kv": k},
            el("span", {"class": "k", "data-i18n": f"key.{k}"}, t(f"key.{k}", "en")),
            # The unit beside the value, never in it: the value's cell is the exact
            # number alone (the DOM contract); the two lamps' booleans have none.
            el(
                "span",
                {"class": "vu"},
                el("span", {"class": "v num", "data-key-summary": k}),
                *(
                    ()
                    if k in BOOL_KEYS
                    else (
                        " ",
                        el(
                            "span",
                            {"class": "u", "data-i18n": "unit.tokens"},
                            t("unit.tokens", "en"),
                        ),
                    )
                ),
            ),
            el("span", {"class": "kv-ab num", "data-key-ab": k}),
        )
        for k in KEY_READOUTS
    )


def sweep_options_html(lang: str) -> Markup:
    from budgetcore.explore.curves import SWEEPABLE  # noqa: PLC0415

    return join(el("option", {"value": k}, t(f"sweep.{k}", lang)) for k in SWEEPABLE)


def experiment_buttons_html(lang: str) -> Markup:
    from budgetcore.explore.experiments import EXPERIMENTS  # noqa: PLC0415

    return join(
        el("button", {"type": "button", "data-experiment": e.key}, t(f"exp.{e.key}.title", lang))
        for e in EXPERIMENTS
    )


def picker_html(section: str) -> Markup:
    """A model picker (ARIA combobox + listbox) for ``section``'s contract. Its list,
    status and chosen model are written by the shell from the screen."""
    pid = f"picker-{section}"
    return el(
        "div",
        {"class": "field picker", "data-picker-box": section},
        el(
            "label",
            {"for": pid, "id": f"{pid}-label", "data-i18n": "picker.label"},
            t("picker.label", "en"),
        ),
        el(
            "input",
            {
                "type": "text",
                "id": pid,
                "data-picker": section,
                "role": "combobox",
                "aria-autocomplete": "list",
                "aria-expanded": "false",
                "aria-controls": f"{pid}-list",
                "aria-describedby": f"{pid}-status {pid}-info",
                "autocomplete": "off",
                "spellcheck": "false",
            },
        ),
        el(
            "ul",
            {
                "id": f"{pid}-list",
                "class": "picker-list",
                "role": "listbox",
                "aria-labelledby": f"{pid}-label",
                "hidden": True,
            },
        ),
        el("p", {"id": f"{pid}-status", "class": "hint picker-status", "aria-live": "polite"}),
        el("p", {"id": f"{pid}-info", "class": "picker-info"}),
    )


def shell_html() -> dict[str, Markup]:
    """The markup the shell writes once at start-up, by element id (texts in English
    until retexted). The build's first view writes the same (``ui.prerender``)."""
    return {
        "controls": controls_html(),
        "background": background_html(),
        "readouts": readouts_html(),
        "key-readouts": key_readouts_html(),
        "sample-averages": averages_html(),
        "nav-list": nav_html(),
    }


def language_html(lang: str) -> dict[str, Markup]:
    """The markup the shell writes again on every change of language, by element id."""
    return {
        "experiment-buttons": experiment_buttons_html(lang),
        "sweep-path": sweep_options_html(lang),
    }
