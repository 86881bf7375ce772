"""``render(state) -> Screen``: everything the browser shell writes, as plain values.

The shell compares each part with what it wrote last time and touches only what
changed. Markup comes from ``budgetcore.ui.markup`` (always escaped) and every word
from the catalogue (``budgetcore.ui.messages``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from budgetcore.core.plan import OUTPUT_KEYS, Plan
from budgetcore.errors import Problem
from budgetcore.inputs.text import limit_of, too_large, utf8_size_above
from budgetcore.scenario.fields import SCENARIO_FIELDS
from budgetcore.scenario.fragment import to_fragment
from budgetcore.ui.form import (
    AVERAGES,
    FIELDS,
    Issue,
    format_value,
    slider_max,
    slider_position,
)
from budgetcore.ui.markup import Markup, el, join
from budgetcore.ui.messages import CATALOGUE, count, t
from budgetcore.ui.nav import nav_html
from budgetcore.ui.state import (
    PICKER_MIN_CHARS,
    PICKER_SECTIONS,
    PRESETS,
    PageState,
    chosen_model_of,
    picks_of,
    preset_of,
    scenario_texts,
)
from budgetcore.units import format_bytes, format_int

if TYPE_CHECKING:  # the registry loads after the page is ready
    from budgetcore.registry.models import RegistryModel, Resolution

__all__ = [
    "BOOL_KEYS",
    "KEY_READOUTS",
    "READOUT_KEYS",
    "FieldView",
    "PickerView",
    "Screen",
    "averages_html",
    "background_html",
    "controls_html",
    "experiment_buttons_html",
    "format_signed",
    "issue_text",
    "key_readouts_html",
    "language_html",
    "peers_html",
    "picker_html",
    "problem_text",
    "readouts_html",
    "render",
    "render_curves",
    "render_export",
    "render_peers",
    "shell_html",
    "sweep_options_html",
]

#: Readouts in table order: the docs/spec.md §11 keys, then the page's own.
READOUT_KEYS: tuple[str, ...] = (
    *OUTPUT_KEYS,
    "summary_cap_clamped",
    "summary_dropped",
    "summary_will_start",
)
#: The readouts that stay in view while editing (and come first on a phone).
KEY_READOUTS: tuple[str, ...] = (
    "main_safe_input",
    "trigger_tokens",
    "summary_cap",
    "summary_safe_input",
    "full_input",
    "admitted",
    "trigger_reached",
)
BOOL_KEYS = frozenset(
    {
        "recompress_needed",
        "admitted",
        "trigger_reached",
        "summary_cap_clamped",
        "summary_dropped",
        "summary_will_start",
    }
)
_GROUPS = ("main_model", "summary_model", "config", "workload", "limits")
_FOLDED = ("workload", "limits")  # fold on a phone; results come first


@dataclass(frozen=True, slots=True)
class FieldView:
    text: str
    message: str  # "" when the field is valid
    slider: int | None  # the slider's stop, None for fields without one
    valuetext: str  # what a screen reader announces for the slider
    empty: bool  # a nullable field left empty (its slider shows no value)


@dataclass(frozen=True, slots=True)
class PickerView:
    """What the shell sets on a picker's combobox input (its list is in ``html``)."""

    query: str  # the input's text
    expanded: bool  # aria-expanded, and the listbox shown
    active_id: str  # aria-activedescendant ("" for none)


@dataclass(frozen=True, slots=True)
class Screen:
    lang: str
    stale: bool
    ab: bool
    summary_same: bool
    preset: str
    fields: dict[str, FieldView]
    readouts: dict[str, tuple[str, str | None]]  # key -> (text, data-value)
    ab_cells: dict[str, tuple[str, str, str]]  # key -> (A, B − A, sign: up/down/same)
    html: dict[str, Markup]  # element id -> innerHTML (ours, escaped)
    text: dict[str, str]  # element id -> textContent
    fragment: str
    sweep: tuple[str, str, str]  # path, low text, high text
    boxes: dict[str, str]  # text areas' values (pasted samples, the import box)
    key_ab: dict[str, str]  # the key bar's A and B − A while A is pinned
    pickers: dict[str, PickerView] = field(default_factory=dict)  # section -> picker
    peers_unit: str = "tokens"


# ------------------------------------------------------------------ problems


def _param(value: str, is_key: bool, lang: str) -> str:
    return t(value, lang) if is_key else value


def issue_text(issue: Issue, lang: str) -> str:
    """An issue's sentence in ``lang``, naming the field as the user sees it."""
    params = {name: _param(v, k, lang) for name, v, k in issue.params}
    first = issue.paths[0] if issue.paths else ""
    label_key = f"label.{first}"
    if label_key in CATALOGUE:
        params.setdefault("field", t(label_key, lang))
    else:
        params.setdefault(
            "field", t(f"field.{first}", lang) if f"field.{first}" in CATALOGUE else first
        )
    return t(issue.code, lang, **params)


def problem_text(problem: Problem, lang: str) -> str:
    """A core problem (config import, pasted samples, a link) in ``lang``."""
    from budgetcore.ui.problems import problem_sentence  # noqa: PLC0415

    return problem_sentence(problem, lang)


# ------------------------------------------------------------------ static markup


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
            el("span", {"class": "v num", "data-key-summary": k}),
            el("span", {"class": "kv-ab num", "data-key-ab": k}),
        )
        for k in KEY_READOUTS
    )


# ------------------------------------------------------------------ readouts


def _yes(value: bool, lang: str) -> str:
    return t("msg.yes" if value else "msg.no", lang)


def _values(p: Plan) -> dict[str, Any]:
    out = p.as_dict()
    out["summary_will_start"] = p.start.will_start
    return out


def _readouts(p: Plan, values: dict[str, Any], lang: str) -> dict[str, tuple[str, str | None]]:
    out: dict[str, tuple[str, str | None]] = {}
    for key in READOUT_KEYS:
        value = values[key]
        if isinstance(value, bool):
            out[key] = (_yes(value, lang), "true" if value else "false")
        else:
            out[key] = (format_int(value), None)
    out["has_work"] = (_yes(p.start.has_work, lang), "true" if p.start.has_work else "false")
    out["trigger_tokens"] = (format_int(p.scenario.config.trigger_tokens), None)
    return out


def format_signed(value: int) -> str:
    """A signed difference: '+1,234', '−1,234' (a real minus sign) or '0'."""
    if value > 0:
        return f"+{format_int(value)}"
    if value < 0:
        return f"\u2212{format_int(-value)}"
    return "0"


def _ab_cells(a: dict[str, Any], b: dict[str, Any], lang: str) -> dict[str, tuple[str, str, str]]:
    out = {}
    for key in READOUT_KEYS:
        x, y = a[key], b[key]
        if isinstance(x, bool):
            out[key] = (
                _yes(x, lang),
                t("msg.same" if x == y else "msg.changed", lang),
                "same" if x == y else "changed",
            )
        else:
            sign = "up" if y > x else "down" if y < x else "same"
            out[key] = (format_int(x), format_signed(y - x), sign)
    return out


def _differing_inputs(a: Plan, b: Plan, lang: str) -> Markup:
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
                _yes(same_a, lang),
                " → ",
                _yes(same_b, lang),
            )
        )
    if not rows:
        return el("p", {"class": "ab-same"}, t("phrase.ab-no-diff", lang))
    return join(
        (
            el("p", {"class": "ab-h"}, t("phrase.ab-diff", lang)),
            el("ul", {"class": "ab-diff"}, *rows),
        )
    )


# ------------------------------------------------------------------ panels


def _ratio_text(value: str | None) -> Markup:
    if value is None:
        return Markup("—")
    exact = Fraction(value)
    with localcontext() as ctx:
        ctx.prec = 28
        approx = Decimal(exact.numerator) / Decimal(exact.denominator)
    return el("span", {"title": value}, f"{approx:.4f}")


def _samples_html(p: Plan, out: dict[str, Any], lang: str) -> Markup:
    """Ratio ranges, byte predictions, the limits verdict and the read time (drawn again
    only when something it shows changed)."""
    key = json.dumps(
        [out["bytes"], out["io"], out["time"], out["first_binding_limit"], p.funnel.prefetched],
        sort_keys=True,
        default=str,
    )
    return _samples_markup(key, p, lang)


_SAMPLES_MEMO: dict[tuple[str, str], Markup] = {}


def _samples_markup(key: str, p: Plan, lang: str) -> Markup:
    hit = _SAMPLES_MEMO.get((key, lang))
    if hit is None:
        hit = _samples_body(p, p.as_dict(), lang)
        _SAMPLES_MEMO.clear()
        _SAMPLES_MEMO[(key, lang)] = hit
    return hit


def _samples_body(p: Plan, out: dict[str, Any], lang: str) -> Markup:
    by = out["bytes"]
    unknown = t("msg.unknown", lang)
    ratios = el(
        "table",
        {"class": "grid"},
        el("caption", None, t("phrase.ratios", lang)),
        el(
            "thead",
            None,
            el(
                "tr",
                None,
                *(
                    el("th", {"scope": "col"}, t(k, lang))
                    for k in (
                        "phrase.channel",
                        "phrase.samples",
                        "phrase.min",
                        "phrase.max",
                        "phrase.pooled",
                    )
                ),
            ),
        ),
        el(
            "tbody",
            None,
            *(
                el(
                    "tr",
                    {"data-channel": c},
                    el("th", {"scope": "row"}, t(f"channel.{c}", lang)),
                    el("td", None, str(by[c]["samples"])),
                    el("td", None, _ratio_text(by[c]["ratio_min"])),
                    el("td", None, _ratio_text(by[c]["ratio_max"])),
                    el("td", None, _ratio_text(by[c]["ratio_pooled"])),
                )
                for c in by
            ),
        ),
    )
    rows = []
    for q, tokens in p.predicted_tokens().items():
        tds = []
        for c in by:
            pred = by[c]["predictions"][q]
            if pred == "unknown":
                tds.append(el("td", {"data-bytes": f"{c}.{q}", "data-unknown": "true"}, unknown))
            else:
                tds.append(
                    el(
                        "td",
                        {"data-bytes": f"{c}.{q}"},
                        f"{format_bytes(pred['low'])} – {format_bytes(pred['high'])}",
                        el("br"),
                        el("small", None, f"≈ {format_bytes(pred['point'])}"),
                    )
                )
        rows.append(
            el(
                "tr",
                None,
                el(
                    "th",
                    {"scope": "row"},
                    t(f"quantity.{q}", lang),
                    " ",
                    format_int(tokens),
                    " ",
                    t("unit.tokens", lang),
                ),
                *tds,
            )
        )
    predictions = el(
        "table",
        {"class": "grid"},
        el("caption", None, t("phrase.predicted", lang)),
        el(
            "thead",
            None,
            el(
                "tr",
                None,
                el("th", {"scope": "col"}, t("unit.tokens", lang)),
                *(el("th", {"scope": "col"}, t(f"channel.{c}", lang)) for c in by),
            ),
        ),
        el("tbody", None, *rows),
    )
    first = out["first_binding_limit"]
    limit_rows = []
    for r, limit_row in zip(out["io"], p.io.rows, strict=True):
        if not r["known"]:
            equivalent = unknown
        elif r["tokens"] is None:
            equivalent = t("phrase.does-not-bite", lang)
        else:
            equivalent = format_int(r["tokens"])
        limit_rows.append(
            el(
                "tr",
                {"data-limit": r["key"], "data-binding": "true" if r["key"] == first else None},
                el("th", {"scope": "row"}, t(f"limit.{r['key']}", lang)),
                el("td", None, format_int(r["limit"]), " ", t(_unit_key(r["unit"]), lang)),
                el("td", None, equivalent),
                el("td", None, _basis(limit_row, lang)),
            )
        )
    verdict = (
        t("phrase.nothing-bites", lang)
        if first == "history"
        else t("phrase.first-bites", lang, name=t(f"limit.{first}", lang))
    )
    limits = join(
        (
            el(
                "table",
                {"class": "grid limits"},
                el("caption", None, t("phrase.limits-caption", lang)),
                el(
                    "thead",
                    None,
                    el(
                        "tr",
                        None,
                        *(
                            el("th", {"scope": "col"}, t(k, lang))
                            for k in (
                                "phrase.limit",
                                "phrase.value",
                                "phrase.equivalent",
                                "phrase.basis",
                            )
                        ),
                    ),
                ),
                el("tbody", None, *limit_rows),
            ),
            el("p", {"class": "verdict", "data-verdict": first}, verdict),
        )
    )
    tm = out["time"]

    def num(v: int | None, key: str) -> str:
        return t(f"count.unknown.{key}", lang) if v is None else count(f"count.{key}", v, lang)

    read_ms = tm["read_ms"]
    read = (
        unknown
        if read_ms == "unknown"
        else f"{format_int(read_ms['low'])} – {format_int(read_ms['high'])} {t('unit.ms', lang)}"
    )
    sentence = t(
        "phrase.time",
        lang,
        tokens=format_int(p.funnel.prefetched),
        records=num(tm["records"], "record"),
        sessions=num(tm["sessions"], "session"),
        pages=num(tm["message_pages"], "message-page"),
        dirs=num(tm["directory_pages"], "directory-page"),
        read=read,
    )
    return join(
        (ratios, predictions, limits, el("p", {"class": "time", "data-time": ""}, sentence))
    )


_UNIT_KEYS = {
    "tokens": "unit.tokens",
    "bytes": "unit.bytes",
    "records": "unit.records",
    "sessions": "unit.sessions",
    "ms": "unit.ms",
}


def _basis(row: Any, lang: str) -> str:
    return t(row.basis_key, lang, **dict(row.basis_params))


def _unit_key(unit: str) -> str:
    return _UNIT_KEYS.get(unit, "unit.tokens")


def _shown(value: object, lang: str) -> str:
    if isinstance(value, bool):
        return _yes(value, lang)
    if isinstance(value, int):
        return format_int(value)
    return str(value)


def _expected(text: str, lang: str) -> str:
    if text.startswith("is "):
        shown = {"yes": _yes(True, lang), "no": _yes(False, lang)}.get(text[3:], text[3:])
        return t("phrase.expect-is", lang, value=shown)
    return t(f"phrase.expect-{text}", lang)


def _experiment_html(outcome: Any, lang: str) -> Markup:
    """The expected outcome, what changed and what did not, and why a failure failed."""
    e = outcome.experiment
    rows = join(
        el(
            "tr",
            {"data-check": c.key, "data-holds": "true" if c.holds else "false"},
            el("th", {"scope": "row"}, t(f"watch.{c.key}", lang)),
            el("td", None, _shown(c.before, lang)),
            el("td", None, _shown(c.after, lang)),
            el("td", None, _expected(c.expected, lang)),
            el("td", None, "✓" if c.holds else "✗"),
        )
        for c in outcome.checks
    )
    heads = join(el("th", {"scope": "col"}, h) for h in t("phrase.watched", lang).split("|"))
    verdict = t("phrase.holds" if outcome.holds else "phrase.fails", lang)
    why = [] if outcome.holds else _why_failed(outcome, lang)
    return el(
        "div",
        {"data-experiment-result": e.key, "data-holds": "true" if outcome.holds else "false"},
        el("h3", None, t(f"exp.{e.key}.title", lang)),
        el("p", {"class": "expect"}, t(f"exp.{e.key}.expect", lang)),
        el(
            "table",
            {"class": "grid"},
            el("thead", None, el("tr", None, heads)),
            el("tbody", None, rows),
        ),
        el("p", {"class": "verdict"}, verdict),
        *(el("p", {"class": "why", "data-why": k}, text) for k, text in why),
    )


def _why_failed(outcome: Any, lang: str) -> list[tuple[str, str]]:
    """The reasons a stated outcome failed that the scenario itself shows."""
    out = []
    after: Plan = outcome.after
    before: Plan = outcome.before
    for p in (before, after):
        configured = p.scenario.config.summary_max_tokens
        o = p.scenario.summary_contract.output_tokens
        if configured > o:
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


def _list(items: list[str]) -> Markup:
    return join(el("li", None, i) for i in items)


def _import_html(state: PageState) -> Markup:
    p = state.import_preview
    lang = state.lang
    if p is None:
        return Markup("")
    if p.problems:
        return el(
            "ul",
            {"class": "errors", "id": "import-errors", "role": "alert"},
            _list([problem_text(x, lang) for x in p.problems]),
        )
    keys = ", ".join(p.keys) if p.keys else t("phrase.none", lang)
    mode = t(f"phrase.import-{p.mode}", lang)
    if p.applied:
        n = count("count.override", len(p.keys), lang)
        msg = t("phrase.import-done", lang, n=n, keys=keys, mode=mode)
        return el("p", {"id": "import-ok", "role": "status", "data-import": "applied"}, msg)
    head = t("phrase.import-preview", lang, n=count("count.override", len(p.keys), lang), mode=mode)
    if not p.keys and p.mode == "merge":
        head = t("phrase.import-empty-merge", lang)
    elif not p.keys:
        head = t("phrase.import-empty-replace", lang)
    if p.changes:
        rows = join(
            el(
                "tr",
                {"data-import-change": key},
                el("th", {"scope": "row"}, _label_with_key(key, lang)),
                el("td", None, format_value(key, now)),
                el("td", None, el("strong", None, format_value(key, after))),
            )
            for key, now, after in p.changes
        )
        heads = join(
            el("th", {"scope": "col"}, h) for h in t("phrase.import-head", lang).split("|")
        )
        table: Markup = el(
            "table",
            {"class": "diff"},
            el("thead", None, el("tr", None, heads)),
            el("tbody", None, rows),
        )
    else:
        table = el("p", None, t("phrase.import-no-change", lang))
    warn = _warnings(p.after, lang) if p.after is not None else Markup("")
    buttons = el(
        "div",
        {"class": "row"},
        el(
            "button",
            {"type": "button", "data-action": "import-apply"},
            t("phrase.import-apply", lang),
        ),
        el(
            "button",
            {"type": "button", "data-action": "import-cancel"},
            t("phrase.import-cancel", lang),
        ),
    )
    return el("div", {"data-import": "preview"}, el("p", None, head), table, warn, buttons)


def _label_with_key(key: str, lang: str) -> Markup:
    """A setting as the page labels it, with the key a config file uses."""
    return join((t(f"label.{key}", lang), " ", el("code", None, key)))


def _warnings(scenario: Any, lang: str) -> Markup:
    s = scenario.config.summary_max_tokens
    o = scenario.summary_contract.output_tokens
    if s <= o:
        return Markup("")
    return el(
        "p",
        {"class": "warn", "data-warning": "s-above-o"},
        t("warn.s-above-o", lang, s=format_int(s), o=format_int(o)),
    )


# ------------------------------------------------------------------ the screen


def _field_views(state: PageState) -> dict[str, FieldView]:
    lang = state.lang
    messages: dict[str, str] = {}
    for issue in state.issues:
        text = issue_text(issue, lang)
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
    if True:
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


def render(state: PageState) -> Screen:
    """Everything but the charts-in-a-frame (curves) and the export (loaded after boot)."""
    lang = state.lang
    p = state.plan
    values = _values(p)
    readouts = _readouts(p, values, lang)
    html: dict[str, Markup] = {}
    text: dict[str, str] = {}
    pinned = state.pinned
    ab_cells: dict[str, tuple[str, str, str]] = {}
    if pinned is not None:
        ab_cells = _ab_cells(_values(pinned), values, lang)
        html["ab-inputs"] = _differing_inputs(pinned, p, lang)
    else:
        html["ab-inputs"] = Markup("")
    html.update(_charts(p, pinned, lang, state.width))
    html["samples-out"] = _samples_html(p, values, lang)
    html["sample-errors"] = _list([problem_text(x, lang) for x in state.sample_problems])
    html["experiment-result"] = (
        _experiment_html(state.outcome, lang) if state.outcome is not None else Markup("")
    )
    html["import-result"] = _import_html(state)
    html["warnings"] = _warnings(p.scenario, lang)
    text["link-problems"] = (
        t("msg.link-problems", lang)
        + t("msg.list-sep", lang).join(problem_text(x, lang) for x in state.link_problems)
        if state.link_problems
        else ""
    )
    text["status"] = t("problem.internal", lang, detail=state.error) if state.error else ""
    text["notice"] = t(state.notice, lang) if state.notice else ""
    text["sweep-msg"] = issue_text(state.sweep.issue, lang) if state.sweep.issue else ""
    pickers = {}
    for section in PICKER_SECTIONS:
        view, parts = _picker_parts(state, section)
        pickers[section] = view
        html[f"picker-{section}-list"] = parts[0]
        html[f"picker-{section}-info"] = parts[1]
        text[f"picker-{section}-status"] = parts[2]
    fragment = to_fragment(
        p.scenario, lang=lang if state.lang_chosen else "", **_link_models(state)
    )
    key_ab: dict[str, str] = {}
    if pinned is not None:
        a_k, b_k = pinned.scenario.config.trigger_tokens, p.scenario.config.trigger_tokens
        k_cell = (format_int(a_k), format_signed(b_k - a_k), "")
        for key in KEY_READOUTS:
            a_text, delta, _sign = k_cell if key == "trigger_tokens" else ab_cells[key]
            key_ab[key] = t("phrase.key-ab", lang, a=a_text, delta=delta)
    return Screen(
        lang=lang,
        stale=state.stale,
        ab=pinned is not None,
        summary_same=state.summary_same,
        preset=preset_of(state),
        fields=_field_views(state),
        readouts=readouts,
        ab_cells=ab_cells,
        html=html,
        text=text,
        fragment=fragment,
        sweep=(state.sweep.path, state.sweep.low_text, state.sweep.high_text),
        boxes={"samples-text": state.samples_text, "import-text": state.import_text},
        key_ab=key_ab,
        pickers=pickers,
        peers_unit=state.peers_unit,
    )


_CHART_MEMO: dict[tuple[int, int, str, int], tuple[Plan, Plan | None, dict[str, Markup]]] = {}


def _charts(p: Plan, pinned: Plan | None, lang: str, width: int) -> dict[str, Markup]:
    """The three plan charts, drawn once per (plan, pinned, language, width)."""
    key = (id(p), id(pinned), lang, width)
    hit = _CHART_MEMO.get(key)
    if hit is not None and hit[0] is p and hit[1] is pinned:
        return hit[2]
    from budgetcore.ui.svg import plan_charts  # noqa: PLC0415

    drawn = plan_charts(p, lang, width=width, pinned=pinned)
    charts = {f"chart-{k}": v for k, v in drawn.items()}
    _CHART_MEMO.clear()  # keep one entry: the objects it holds keep the ids unique
    _CHART_MEMO[key] = (p, pinned, charts)
    return charts


def render_curves(state: PageState, width: int | None = None) -> Markup:
    """The capacity curves of the current sweep (drawn in a frame of their own)."""
    from budgetcore.explore.curves import sweep, sweep_values  # noqa: PLC0415 - on first use
    from budgetcore.ui.svg import curves_chart  # noqa: PLC0415

    s = state.sweep
    values = sweep_values(s.low, s.high, s.path)
    drawn = sweep(state.plan.scenario, s.path, values)
    return curves_chart(drawn, state.lang, width=state.width if width is None else width)


def render_export(state: PageState) -> tuple[str, Markup]:
    """The exported override file and its diff against the defaults."""
    from budgetcore.scenario.export import export_json, export_toml, overrides_of  # noqa: PLC0415
    from budgetcore.scenario.overrides import OVERRIDES  # noqa: PLC0415

    scenario = state.plan.scenario
    lang = state.lang
    body = export_toml(scenario) if state.export_format == "toml" else export_json(scenario)
    changed = overrides_of(scenario)
    if not changed:
        return body, el("p", {"class": "diff-empty"}, t("phrase.no-overrides", lang))
    rows = join(
        el(
            "tr",
            {"data-override": o.key},
            el("th", {"scope": "row"}, el("code", None, o.key)),
            el("td", None, format_value(o.key, o.default)),
            el("td", None, el("strong", None, format_value(o.key, changed[o.key]))),
            el("td", None, t(FIELDS[o.key].unit, lang)),
            el("td", None, t(f"override.{o.key}", lang)),
        )
        for o in OVERRIDES
        if o.key in changed
    )
    heads = join(el("th", {"scope": "col"}, h) for h in t("phrase.diff-head", lang).split("|"))
    return body, el(
        "table",
        {"class": "diff"},
        el("thead", None, el("tr", None, heads)),
        el("tbody", None, rows),
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


# ------------------------------------------------------------------ model pickers and peers


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


def _picker_parts(state: PageState, section: str) -> tuple[PickerView, tuple[Markup, Markup, str]]:
    """The picker's input state, its options, what it has chosen and its status line."""
    lang = state.lang
    ps = state.pickers[section]
    registry = state.registry
    found = picks_of(registry, ps.query) if ps.open else None
    options: list[Markup] = []
    active_id = ""
    if found is not None:
        active = min(ps.active, len(found.models) - 1)
        for i, m in enumerate(found.models):
            oid = f"picker-{section}-opt-{i}"
            if i == active:
                active_id = oid
            meta = t(
                "picker.meta",
                lang,
                provider=m.provider,
                i=format_int(m.contract.input_tokens),
                o=format_int(m.contract.output_tokens),
            )
            marks = _model_marks(m, lang)
            resolved = found.resolution if i == 0 else None
            options.append(
                el(
                    "li",
                    {
                        "id": oid,
                        "role": "option",
                        "aria-selected": "true" if i == active else "false",
                        "data-model": m.name,
                        "data-picker-option": section,
                        **({"data-retired": "true"} if m.retired else {}),
                    },
                    el("span", {"class": "picker-name"}, m.name),
                    " ",
                    el("span", {"class": "picker-meta"}, meta),
                    *(
                        [el("span", {"class": "picker-marks", "data-marks": m.name}, marks)]
                        if marks
                        else []
                    ),
                    *(
                        [
                            el(
                                "span",
                                {"class": "picker-resolved", "data-resolved": resolved.how},
                                _resolution_text(resolved, lang),
                            )
                        ]
                        if resolved is not None
                        else []
                    ),
                )
            )
    expanded = bool(options)
    if registry is None:
        status = t("picker.loading", lang) if ps.open or section == "main_model" else ""
    elif not ps.open and ps.chosen:
        status = ""  # the chosen model's line says it all
    elif ps.open and utf8_size_above(ps.query, limit_of("query")):  # never searched (picks_of)
        status = problem_text(too_large("query").problems[0], lang)
    elif found is None:  # closed with nothing chosen, or fewer letters than a search needs
        status = t(
            "picker.type",
            lang,
            n=PICKER_MIN_CHARS,
            total=format_int(len(registry)),
            release=registry.provenance.label,
            retired=format_int(registry.provenance.retired_models),
        )
    elif found.total == 0:
        status = t("picker.none", lang, query=ps.query.strip())
    elif found.total > len(found.models):
        status = t("picker.some", lang, shown=len(found.models), total=format_int(found.total))
    else:
        status = count("picker.all", found.total, lang)
    view = PickerView(ps.query, expanded, active_id if expanded else "")
    return view, (join(options), _chosen_html(state, section), status)


def _link_models(state: PageState) -> dict[str, str]:
    """The models the link names: each picker's choice while its contract is still that
    model's (edited by hand, the numbers alone are the link)."""
    out = {}
    for section in PICKER_SECTIONS:
        if section == "summary_model" and state.summary_same:
            continue
        name, same = chosen_model_of(state, section)
        # Before the registry is in, a model the link named stays in the link.
        if name and (same or state.registry is None):
            out[f"{section}.model"] = name
    return out


def _model_marks(model: RegistryModel, lang: str) -> str:
    """What only some models are, in one line: Responses API only, retired (with the
    release it comes from), the deprecation date."""
    marks = []
    if model.mode == "responses":
        marks.append(t("picker.mark.responses", lang))
    if model.retired:
        marks.append(t("picker.mark.retired", lang, release=model.retired))
    if model.deprecation:
        marks.append(t("picker.mark.deprecation", lang, date=model.deprecation))
    return " · ".join(marks)


def _resolution_text(found: Resolution, lang: str) -> str:
    how = " + ".join(t(f"picker.how.{step}", lang) for step in found.steps)
    return t("picker.resolved", lang, written=found.name, name=found.matched or "", how=how)


def _chosen_html(state: PageState, section: str) -> Markup:
    name, same = chosen_model_of(state, section)
    lang = state.lang
    if not name or state.registry is None:
        return Markup("")
    from budgetcore.registry.models import per_million  # noqa: PLC0415 - loaded after ready

    release = state.registry.provenance.label
    if not same:
        return el(
            "span",
            {"data-model-chosen": name, "data-custom": "true"},
            t("picker.custom", lang, name=name),
        )
    model = state.registry.lookup(name)
    assert model is not None
    p = model.prices
    prices = t(
        "picker.prices",
        lang,
        input=per_million(p.input),
        output=per_million(p.output),
        read=per_million(p.cache_read),
        write=per_million(p.cache_write),
    )
    if p.cache_write_1h is not None:
        prices += t("picker.prices-1h", lang, write_1h=per_million(p.cache_write_1h))
    tiers = [
        el(
            "span",
            {"data-tier": tier.above},
            t(
                "picker.tier",
                lang,
                above=format_int(tier.above),
                input=per_million(p.input if tier.input is None else tier.input),
                output=per_million(p.output if tier.output is None else tier.output),
                read=per_million(p.cache_read if tier.cache_read is None else tier.cache_read),
                write=per_million(p.cache_write if tier.cache_write is None else tier.cache_write),
            ),
        )
        for tier in p.tiers
    ]
    marks = _model_marks(model, lang)
    written = state.pickers[section].written
    resolved = state.registry.resolve(written) if written and written != name else None
    return el(
        "span",
        {"data-model-chosen": name, "data-custom": "false"},
        el("strong", None, name),
        " ",
        t(
            "picker.contract",
            lang,
            provider=model.provider,
            i=format_int(model.contract.input_tokens),
            o=format_int(model.contract.output_tokens),
        ),
        *(
            [el("br"), el("span", {"class": "picker-marks", "data-marks": name}, marks)]
            if marks
            else []
        ),
        *(
            [
                el("br"),
                el(
                    "span",
                    {"class": "picker-resolved", "data-resolved": resolved.how},
                    _resolution_text(resolved, lang),
                ),
            ]
            if resolved is not None and resolved.matched == name
            else []
        ),
        el("br"),
        el("span", {"data-prices": name}, prices),
        *(x for tier in tiers for x in (el("br"), tier)),
        el("br"),
        el(
            "span",
            {"class": "hint", "data-release": release},
            t("picker.release", lang, release=model.retired or release),
        ),
    )


_PEERS_MEMO: dict[tuple[Any, ...], tuple[Any, Any, Markup]] = {}


def render_peers(state: PageState) -> Markup:
    """The peers panel for the main model's W and O: chart, tables, what it is not.
    The shell draws it in the frame after the readouts (like the curves), so an input
    never waits for it; drawn again only when W, O, q, K, o, M, the language, the
    width, the unit or the chosen model change."""
    lang = state.lang
    if state.peers is None:
        return el("p", {"class": "note-small", "data-peers": "loading"}, t("peers.loading", lang))
    name, same = chosen_model_of(state, "main_model")
    model = name if same else ""
    p = state.plan
    # The panel depends on the plan only through W, O, q, K, o and M: typing in any
    # other field redraws nothing.
    sc = p.scenario
    key = (
        sc.main_model,
        sc.config.trigger_tokens,
        sc.config.reply_max_tokens,
        p.main_safe_input,
        id(state.peers),
        lang,
        state.width,
        state.peers_unit,
        model,
    )
    hit = _PEERS_MEMO.get(key)
    if hit is not None and hit[1] is state.peers:
        return hit[2]
    drawn = peers_html(p, state.peers, lang, width=state.width, unit=state.peers_unit, model=model)
    _PEERS_MEMO.clear()
    _PEERS_MEMO[key] = (None, state.peers, drawn)  # holding the peers keeps their id unique
    return drawn


def peers_html(
    p: Plan, peers: Any, lang: str, *, width: int = 640, unit: str = "tokens", model: str = ""
) -> Markup:
    """The peers' trigger lines for ``p``'s main model (W = I, O): a chart on one axis,
    a table with every system's exact line and source, this scenario's and the
    article's lines with the room between them, and what the view must not be read as."""
    from budgetcore.registry.peers import peer_lines  # noqa: PLC0415 - loaded after ready
    from budgetcore.ui.svg import peer_percent, peers_chart  # noqa: PLC0415

    main = p.scenario.main_model
    view = peer_lines(main.input_tokens, main.output_tokens, p, peers)
    w, o = format_int(view.window), format_int(view.max_output)
    title = (
        t("peers.title-model", lang, model=model, w=w, o=o)
        if model
        else t("peers.title", lang, w=w, o=o)
    )
    svg = peers_chart(view, lang, width=max(240, width - 26), unit=unit)
    legend = el(
        "ul",
        {"class": "ch-legend"},
        *(
            el(
                "li",
                {"data-legend": f"pr-{c}"},
                _peer_swatch(f"pr-bar pr-{c}"),
                t(f"peers.legend.{c}", lang),
            )
            for c in ("code", "docs", "reported")
        ),
        *(
            el(
                "li",
                {"data-legend": f"gap-{i}", "data-gap": f"{g.low}-{g.high}"},
                _peer_swatch(f"pr-gap-{i}"),
                t(
                    "peers.gap",
                    lang,
                    low=t(f"peers.line-short.{g.low}", lang),
                    high=t(f"peers.line-short.{g.high}", lang),
                    tokens=format_int(g.tokens),
                    what=t(f"peers.gap.{g.low}", lang),
                ),
            )
            for i, g in enumerate(view.gaps, start=1)
        ),
    )
    table = _peers_table(view, peers, lang)
    ref_rows = []
    seen: set[str] = set()
    for group, refs in (("scenario", view.scenario), ("article", view.article)):
        for ref in refs:
            first = ref.key not in seen  # the hard line is in both groups: one data-key
            seen.add(ref.key)
            ref_rows.append(
                el(
                    "tr",
                    {"data-line": ref.key, "data-group": group},
                    el("th", {"scope": "row"}, t(f"peers.line.{ref.key}", lang)),
                    el(
                        "td",
                        {"class": "num", "data-key": ref.data_key if first else None},
                        format_int(ref.tokens),
                    ),
                    el("td", {"class": "num"}, peer_percent(ref.share)),
                    el("td", None, t(f"peers.group.{group}", lang)),
                )
            )
    ref_heads = join(el("th", {"scope": "col"}, h) for h in t("peers.ref-head", lang).split("|"))
    refs_table = el(
        "table",
        {"class": "grid peers-lines"},
        el("caption", None, t("peers.ref-caption", lang)),
        el("thead", None, el("tr", None, ref_heads)),
        el("tbody", None, *ref_rows),
    )
    return el(
        "figure",
        {"class": "ch-figure", "data-figure": "peers", "data-unit": unit},
        el("figcaption", None, el("strong", None, title)),
        svg,
        legend,
        el("p", {"class": "ch-note"}, t("peers.rounding", lang)),
        el("p", {"class": "caveat"}, t("phrase.not", lang), t("peers.not", lang)),
        table,
        refs_table,
    )


_TABLE_MEMO: dict[tuple[int, int, int, str], tuple[Any, Markup]] = {}


def _peers_table(view: Any, peers: Any, lang: str) -> Markup:
    """Every system's row: it depends on W, O and the language only (not on K or M),
    so typing K redraws the chart and reuses this."""
    key = (view.window, view.max_output, id(peers), lang)
    hit = _TABLE_MEMO.get(key)
    if hit is not None and hit[0] is peers:
        return hit[1]
    from budgetcore.ui.svg import peer_percent  # noqa: PLC0415

    heads = join(el("th", {"scope": "col"}, h) for h in t("peers.head", lang).split("|"))
    rows = []
    for r in view.rows:
        peer = r.peer
        name: Markup | str = peer.name
        if peer.url:
            name = el("a", {"href": peer.url, "rel": "noopener"}, peer.name)
        elif peer.seed:
            name = join((peer.name, " ", t("peers.seed", lang, seed=peer.seed)))
        version = f" {peer.version}" if peer.version else ""
        if r.tokens is None or r.share is None:
            line: Markup = el(
                "td", {"class": "pr-noline", "colspan": 2}, t(f"peers.no-line.{peer.kind}", lang)
            )
        else:
            marks = [t("peers.mark-beyond", lang)] if r.beyond_window else []
            if r.clamped:
                marks.append(t("peers.mark-clamped", lang))
            line = join(
                (
                    el("td", {"class": "num", "data-key": r.data_key}, format_int(r.tokens)),
                    el("td", {"class": "num"}, peer_percent(r.share), *(f" ({m})" for m in marks)),
                )
            )
        cap = (
            t("peers.cap", lang, cap=format_int(r.summary_cap)) if r.summary_cap is not None else ""
        )
        rows.append(
            el(
                "tr",
                {"data-peer": peer.id, "data-confidence": peer.confidence},
                el("th", {"scope": "row"}, name, version),
                el(
                    "td",
                    {"class": f"pr-conf pr-conf-{peer.confidence}"},
                    peer.evidence.get(lang),
                    *((" — ", t("peers.mark-reported", lang)) if peer.reported else ()),
                ),
                line,
                el(
                    "td",
                    None,
                    peer.rule.get(lang),
                    *(
                        (
                            el("br"),
                            el(
                                "span",
                                {"class": "pr-counts", "data-counts": peer.id},
                                t(
                                    "peers.also",
                                    lang,
                                    counts=" · ".join(a.text.get(lang) for a in peer.also),
                                ),
                            ),
                        )
                        if peer.also
                        else ()
                    ),
                ),
                el("td", None, peer.keeps.get(lang), el("br") if cap else "", cap),
            )
        )
    table = el(
        "table",
        {"class": "grid peers"},
        el("caption", None, t("peers.caption", lang)),
        el("thead", None, el("tr", None, heads)),
        el("tbody", None, *rows),
    )
    _TABLE_MEMO.clear()
    _TABLE_MEMO[key] = (peers, table)
    return table


def _peer_swatch(cls: str) -> Markup:
    return el(
        "svg",
        {"class": "ch-swatch", "width": 12, "height": 12, "aria-hidden": "true"},
        el("rect", {"class": cls, "x": 1, "y": 1, "width": 10, "height": 10}),
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
