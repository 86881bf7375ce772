"""The export panel's runtime picker (docs/page.md, "Reviewed config"): the plan stays in
M / K / S, and the picked runtime renames the knobs to its own names and units, exports
its own file (as ``budgetcore export --runtime`` does), and its own file is what the
import box reads (as ``budgetcore check --runtime`` reads it).

Pure: the update's handler, the export's text and table, the import's preview. The
runtime modules load when a runtime is first picked, never at boot.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from budgetcore.errors import Problem, ScenarioError
from budgetcore.messages import t
from budgetcore.ui.events import ExportRuntimeChosen
from budgetcore.ui.markup import Markup, breaks, el, join, td
from budgetcore.ui.problems import problem_text
from budgetcore.units import format_int

if TYPE_CHECKING:  # ui.model imports the panels that import update, which imports this one
    from budgetcore.core.plan import Plan
    from budgetcore.core.scenario import Scenario
    from budgetcore.runtimes.check import NamedWindow
    from budgetcore.runtimes.export import Model, RuntimeExport
    from budgetcore.runtimes.model import Value
    from budgetcore.ui.model import PageState

__all__ = [
    "ARTICLE",
    "RUNTIME_HANDLERS",
    "RuntimeImport",
    "file_text",
    "option_title",
    "runtime_effect",
    "runtime_export",
    "runtime_export_html",
    "runtime_import",
    "runtime_options_html",
]

#: The design article's runtime: the reviewed config of spec §9 (the panel as it was).
ARTICLE = "article"


def _names() -> tuple[str, ...]:
    from budgetcore.runtimes import RUNTIME_NAMES  # noqa: PLC0415 - on first pick

    return RUNTIME_NAMES


def _chosen(state: PageState, e: ExportRuntimeChosen) -> PageState:
    if e.runtime == state.export_runtime or e.runtime not in _names():
        return state
    # A preview read as another runtime's file would be stale: it goes.
    return dataclasses.replace(state, export_runtime=e.runtime, import_preview=None)


RUNTIME_HANDLERS: dict[type, Callable[[PageState, Any], PageState]] = {ExportRuntimeChosen: _chosen}


def _model(state: PageState, scenario: Scenario | None = None) -> Model:
    """The model the file is for: the scenario's (the plan's unless given) registry
    model (its provider keys OpenCode's file), else the contract's I and O, said as
    such."""
    from budgetcore.runtimes.export import Model  # noqa: PLC0415

    scenario = state.plan.scenario if scenario is None else scenario
    contract = scenario.main_model
    name = scenario.main_model_name
    entry = None if name is None or state.registry is None else state.registry.lookup(name)
    registry_i = None if entry is None else entry.contract.input_tokens
    return Model(
        name=name,
        provider=None if entry is None else entry.provider,
        window=contract.input_tokens,
        output=contract.output_tokens,
        # The page's link is a fragment: the same words as export --runtime --fragment.
        source=t("runtime.source-fragment" if name else "runtime.source-contract", state.lang),
        # A log's model at its runtime's window (spec §17), said in the header.
        registry_window=None if registry_i == contract.input_tokens else registry_i,
    )


#: Export sentences the page says in its own words: the CLI's notes name its ``--model``
#: and its ``check --runtime``, where the page has its model picker and its import box.
_PAGE_SAYS = {
    "runtime-note.no-model": "runtime-note.no-model-page",
    "runtime-note.kimi-cli": "runtime-note.kimi-cli-page",
}


def runtime_export(state: PageState) -> RuntimeExport:
    """The picked runtime's export of the plan (runtimes.export.RuntimeExport); a
    ScenarioError when the runtime cannot reach K (named, with what would)."""
    from budgetcore.runtimes.export import Reviewed, export_runtime  # noqa: PLC0415
    from budgetcore.scenario.export import export_toml, overrides_of  # noqa: PLC0415

    scenario = state.plan.scenario
    reviewed = Reviewed(
        trigger=scenario.config.trigger_tokens,
        main_safe_input=state.plan.main_safe_input,
        summary_cap=scenario.config.summary_max_tokens,
        article_text=export_toml(scenario),
        article_settings=tuple(overrides_of(scenario).items()),  # type: ignore[arg-type]
    )

    def say(key: str, **params: str) -> str:  # the file's comments in the page's language
        # A note that tells the CLI's reader its flag tells the page's its picker.
        key = _PAGE_SAYS.get(key, key)
        return t(key, state.lang, **params)

    return export_runtime(state.export_runtime, _model(state), reviewed, say)


def runtime_effect(state: PageState) -> str:
    """One line beside the first screen's runtime picker: what the picked runtime does
    with the plan for this model (its effective trigger in tokens and the setting that
    gives it, its S), then that the readouts stay the plan's. The picker changes no
    readout: M, K and S are budgetcore's plan in every runtime (docs/page.md); the
    runtime's own numbers come from its profile through the export (never a second
    table), the same figures as the Export panel's table."""
    lang = state.lang
    if state.export_runtime == ARTICLE:
        return t("runtime.first-article", lang)
    stays = t("runtime.first-stays", lang)
    gap = "" if lang == "zh" else " "  # between two sentences
    try:
        x = runtime_export(state)
    except ScenarioError as exc:  # K out of the runtime's reach: why, as Export says it
        return problem_text(exc.problems[0], lang) + t("runtime.first-then", lang) + stays
    title = x.runtime.title
    order = {k.name: i for i, k in enumerate(x.runtime.knobs)}
    settings = sorted(x.settings, key=lambda kv: order.get(kv[0], len(order)))
    s_settable = not any(n.knob.startswith("S") for n in x.not_settable)
    cap = x.summary_cap_tokens
    if s_settable and cap is not None and len(settings) > 1:
        name, value = settings[1]
        s = t(
            "runtime.first-cap", lang, tokens=format_int(cap), setting=f"{name} = {_value(value)}"
        )
    elif cap is not None and not s_settable:
        s = t("runtime.first-own-cap", lang, tokens=format_int(cap))
    else:
        s = t("runtime.first-no-cap", lang)
    trigger = x.effective_trigger_tokens
    if trigger is None or not settings:
        return t("runtime.first-no-trigger", lang, runtime=title, s=s) + gap + stays
    name, value = settings[0]
    said = t(
        "runtime.first-effect",
        lang,
        runtime=title,
        tokens=format_int(trigger),
        setting=f"{name} = {_value(value)}",
        s=s,
    )
    return said + gap + stays


def runtime_options_html() -> Markup:
    """The runtime picker's options: budgetcore's own config (its title from the
    catalogue), then every other profile (``runtimes.profiles``, the one table) by its
    title."""
    return join(
        el("option", {"value": n, "data-i18n": "runtime.article"}, t("runtime.article", "en"))
        if n == ARTICLE
        else el("option", {"value": n}, option_title(n))
        for n in _names()
    )


#: An option's text where the profile's title is too long for a closed select at 390 px.
SHORT_TITLES = {"langchain": "LangChain summarization"}


#: Where a runtime's settings go, as its profile or export names it in English
#: (runtimes/profiles.py ``file``, runtimes/export.py ``RuntimeFile.name``), by catalogue
#: key where words surround the path; a bare path or a Python call is data in any
#: language.
FILE_KEYS = {
    "~/.claude/settings.json (env block) or shell export lines": "runtime-file.claude-code",
    "shell profile (export lines)": "runtime-file.shell-profile",
    "Cline extension state (no file)": "runtime-file.cline",
    "Messages API request body (fragment)": "runtime-file.anthropic-api",
    "request body fragment": "runtime-file.request-body",
}


def file_text(name: str, lang: str) -> str:
    """A runtime's file as the page says it in ``lang``."""
    key = FILE_KEYS.get(name)
    return name if key is None else t(key, lang)


def option_title(name: str) -> str:
    """A runtime as the picker lists it: its profile's title, or a short form of it."""
    from budgetcore.runtimes import PROFILES  # noqa: PLC0415

    return SHORT_TITLES.get(name, PROFILES[name].title)


def _k_rows(settings: list[tuple[str, Value]], lang: str, tokens: str, cols: list[str]) -> Markup:
    """K's row, one table row per setting (the first carries the plan's name and the
    trigger, spanning the others), so a name and its value stay level however a
    narrow screen wraps a long name; on a phone the rows stack, each cell named."""
    if not settings:
        return _row("k", lang, "—", "—", tokens, cols=cols)
    span = {"rowspan": len(settings)} if len(settings) > 1 else {}
    rows = []
    for i, (name, value) in enumerate(settings):
        head = (el("th", {"scope": "row", **span}, t("runtime.k", lang)),) if i == 0 else ()
        tail = (td(cols[3], {"class": "num", **span}, tokens),) if i == 0 else ()
        rows.append(
            el(
                "tr",
                {"data-runtime-row": "k"},
                *head,
                # A long dotted or snake_case name breaks after a dot or an
                # underscore, never mid-word ("compressionThres|hold", 390 px).
                td(cols[1], None, el("code", None, breaks(name, "._"))),
                td(cols[2], None, el("code", None, _value(value))),
                *tail,
            )
        )
    return join(rows)


def _row(
    key: str,
    lang: str,
    where: Markup | str,
    value: Markup | str,
    tokens: str,
    *,
    cols: list[str],
) -> Markup:
    return el(
        "tr",
        {"data-runtime-row": key},
        el("th", {"scope": "row"}, t(f"runtime.{key}", lang)),
        td(cols[1], None, where),
        td(cols[2], None, value),
        td(cols[3], {"class": "num"}, tokens),
    )


def runtime_export_html(state: PageState) -> tuple[str, Markup]:
    """The picked runtime's file, and the plan's knobs under that runtime's names and
    units: K as its knob (and the trigger it gives for this model, in tokens), S as its
    setting or "not settable there", M as it stays."""
    lang = state.lang
    # Beside the export: a runtime that cannot run the page's model (the CLI's warning
    # too, scenario/warnings.py); the key bar lists it with the other warnings.
    from budgetcore.scenario.warnings import runtime_warning  # noqa: PLC0415
    from budgetcore.ui.problems import warning_lines  # noqa: PLC0415

    found = runtime_warning(state.export_runtime, state.plan.scenario.main_model_name)
    warned = warning_lines([] if found is None else [found], lang)
    try:
        x = runtime_export(state)
    except ScenarioError as exc:
        items = join(el("li", None, problem_text(p, lang)) for p in exc.problems)
        refused = el("ul", {"class": "errors", "data-runtime-refused": "", "role": "alert"}, items)
        return "", join((warned, refused))
    title = x.runtime.title
    # The profile lists its trigger's knob first; the export writes its settings in the
    # file's order (OpenCode's model limits before compaction.reserved), so the rows go by
    # the profile's order.
    order = {k.name: i for i, k in enumerate(x.runtime.knobs)}
    settings = sorted(x.settings, key=lambda kv: order.get(kv[0], len(order)))
    s_note = next((n for n in x.not_settable if n.knob.startswith("S")), None)
    # Where S is not settable, every setting the file writes is there for K (OpenCode's
    # limit.input, without which compaction.reserved is not read; Anthropic's compact
    # flag; Kimi's ratio beside its reserve): the K row shows them all, one per line.
    k_settings = settings if s_note is not None else settings[:1]
    trigger = x.effective_trigger_tokens
    k_tokens = "—" if trigger is None else t("runtime.effective", lang, tokens=format_int(trigger))
    cap = x.summary_cap_tokens
    if s_note is not None:
        s_where: Markup | str = t("runtime.not-settable", lang, runtime=title)
        # The reason in the page's language: the export said it through the catalogue.
        s_value: Markup | str = el("span", {"class": "note-small"}, s_note.why)
        s_tokens = "—" if cap is None else format_int(cap)
    else:
        rest = settings[1:]
        s_where = join(el("code", None, n) for n, _v in rest) if rest else "—"
        s_value = join(el("code", None, _value(v)) for _n, v in rest) if rest else "—"
        s_tokens = "—" if cap is None else format_int(cap)
    cols = t("runtime.head", lang, runtime=title).split("|")
    heads = join(el("th", {"scope": "col"}, h) for h in cols)
    # Stacked on a phone, each cell named: four columns of long setting names and
    # reasons scrolled sideways, hidden, at 390 px.
    table = el(
        "table",
        {"class": "diff stack", "data-runtime-table": x.runtime.name},
        el("thead", None, el("tr", None, heads)),
        el(
            "tbody",
            None,
            _k_rows(k_settings, lang, k_tokens, cols),
            _row("s", lang, s_where, s_value, s_tokens, cols=cols),
            _row(
                "m",
                lang,
                t("runtime.plan-only", lang),
                format_int(state.plan.main_safe_input),
                format_int(state.plan.main_safe_input),
                cols=cols,
            ),
        ),
    )
    files = t("msg.item-sep", lang).join(file_text(f.name, lang) for f in x.files)
    lacking = _not_settable_html(x, lang)
    notes = el(
        "p",
        {"class": "note-small"},
        t("runtime.plan-stays", lang, runtime=title),
        t("msg.sentence-gap", lang),
        t("runtime.file", lang, runtime=title, file=files),
        " ",
        el("code", {"data-runtime-conversion": ""}, x.conversion),
    )
    return x.text, join((warned, table, lacking, notes, _notes_html(x, lang), _more_files(x, lang)))


def _notes_html(x: RuntimeExport, lang: str) -> Markup:
    """What the export cannot say in its file and ``export --runtime`` prints beside it
    (Anthropic's beta header, a runtime that takes W from elsewhere), in the page's
    language: the page showed none of them until the thirteenth walk."""
    if not x.notes:
        return Markup("")
    items = join(el("li", None, n) for n in x.notes)
    return el("ul", {"class": "note-small", "data-runtime-notes": x.runtime.name}, items)


def _more_files(x: RuntimeExport, lang: str) -> Markup:
    """A runtime's further files (Claude Code's shell export lines beside its
    settings.json): Download and Copy take the first, so the rest are shown to copy."""
    out = []
    first = file_text(x.files[0].name, lang)
    for i, f in enumerate(x.files[1:], start=1):
        said = t("runtime.also-file", lang, file=file_text(f.name, lang), first=first)
        out.append(el("p", {"class": "note-small"}, said))
        out.append(
            el("pre", {"class": "runtime-file", "data-runtime-file": i, "tabindex": 0}, f.text)
        )
    return join(out)


#: The export's knob names for K and S (runtimes.export.NotSettable.knob) -> the rows'
#: own words; any other is a reviewed override's key, said by its field's label.
_PLAN_KNOBS = {"K (trigger line)": "runtime.k", "S (summary cap)": "runtime.s"}


def _not_settable_html(x: RuntimeExport, lang: str) -> Markup:
    """Every reviewed knob the runtime has no setting for, as the export's JSON lists
    them (``not_settable``): K in Cline, S, and each override the review changed from
    its default (margin, reply, protections), with its reviewed value and why (the
    export said why through the catalogue, in the page's language)."""
    from budgetcore.messages import CATALOGUE  # noqa: PLC0415

    if not x.not_settable:
        return Markup("")
    items = []
    for n in x.not_settable:
        key = _PLAN_KNOBS.get(n.knob, f"label.{n.knob}")
        name = t(key, lang) if key in CATALOGUE else n.knob
        # The reviewed value as the plan shows it (a token count in full, a margin as is).
        value = "—" if n.value is None else _shown(n.value)
        items.append(
            el(
                "li",
                {"data-not-settable": n.knob},
                el("strong", None, name),
                " ",
                el("code", None, value),
                t("runtime.not-settable-why", lang),
                n.why,
            )
        )
    head = t("runtime.not-settable-head", lang, runtime=x.runtime.title)
    return el(
        "div",
        {"class": "note-small", "data-runtime-not-settable": x.runtime.name},
        el("p", None, head),
        el("ul", None, join(items)),
    )


def _shown(value: object) -> str:
    return format_int(value) if isinstance(value, int) else str(value)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "(" + ", ".join(_value(v) for v in value) + ")"
    return str(value)


@dataclasses.dataclass(frozen=True, slots=True)
class RuntimeImport:
    """The import box read as a runtime's own file: what update's preview shows
    (problems, or the changes, the keys set, the scenario and plan after)."""

    problems: tuple[Problem, ...] = ()
    changes: tuple[tuple[str, object, object], ...] = ()
    keys: tuple[str, ...] = ()
    after: Scenario | None = None
    restored: Plan | None = None
    runtime: str = ""
    named: tuple[str, str] | None = None  # the file's model: (its key, the name written)
    named_known: bool = False  # the registry has it: the import restores that model
    page_first: bool = False  # the page's named model comes first: the file's is not restored
    window_why: tuple[str, tuple[tuple[str, str], ...]] | None = None  # the restored I's evidence


def _named_scenario(state: PageState, found: NamedWindow | None) -> Scenario | None:
    """The page's scenario with the main model the file names, at the window its
    runtime gives it (``runtimes.check.named_window``: Claude Code runs a model the
    registry lists at 1,000,000 at 200,000 unless it is named with [1m]) and the
    registry's O (q stays), or None where the registry does not have it."""
    if found is None:
        return None
    current = state.plan.scenario
    contract = dataclasses.replace(
        current.main_model, input_tokens=found.window, output_tokens=found.output
    )
    return dataclasses.replace(current, main_model=contract, main_model_name=found.name)


def runtime_import(state: PageState, text: str) -> RuntimeImport:
    """The import box read as the picked runtime's own file (as ``check --runtime``):
    the trigger and summary cap it means, previewed as K and S, for the model the file
    names where the registry has it (restored with them: a reviewer re-importing their
    runtime's file expects its model back, the sixth walk), else for the page's model.
    A cap the runtime does not have leaves S as it is; never compacting is a problem."""
    from budgetcore.core.plan import plan  # noqa: PLC0415
    from budgetcore.runtimes.check import check_runtime, parse_file, read_for  # noqa: PLC0415
    from budgetcore.scenario.export import effective_values  # noqa: PLC0415
    from budgetcore.scenario.overrides import OVERRIDES, apply_overrides  # noqa: PLC0415
    from budgetcore.ui.export.state import contract_changes  # noqa: PLC0415

    current = state.plan.scenario
    # One precedence with check --runtime (runtimes.check.MODEL_ORDER): the page's named
    # main model, then the file's, then the page's contract. The registry not loaded
    # yet: nothing resolves, the page's model is kept and the preview says so.
    registry = state.registry
    # Parsed once: the model the file names and its settings are read from one parse.
    parsed = parse_file(state.export_runtime, text)
    chosen = read_for(
        state.export_runtime,
        parsed,
        flag=False,
        scenario=current.main_model_name is not None,
        resolve=None if registry is None else registry.resolve,
    )
    named, found = chosen.named, chosen.model
    restored_model = _named_scenario(state, found)
    base = current if restored_model is None else restored_model
    model = _model(state, base)
    try:
        checked = check_runtime(
            state.export_runtime,
            parsed,
            window=model.window,
            output=model.output,
            model=model.name,
            window_source=found.evidence() if found is not None else "the model's window",
        )
    except ScenarioError as exc:
        return RuntimeImport(problems=tuple(exc.problems))
    if checked.effective_trigger_tokens is None:
        return RuntimeImport(
            problems=(Problem.of("config", state.export_runtime, "runtime-never"),)
        )
    overrides: dict[str, object] = {"config.trigger_tokens": checked.effective_trigger_tokens}
    if checked.summary_cap_tokens is not None:
        overrides["config.summary_max_tokens"] = checked.summary_cap_tokens
    try:
        after = apply_overrides(base, overrides)
    except ScenarioError as exc:  # pragma: no cover - K and S are whole tokens
        return RuntimeImport(problems=tuple(exc.problems))
    now, later = effective_values(current), effective_values(after)
    changes = tuple(
        (o.key, now[o.key], later[o.key]) for o in OVERRIDES if now[o.key] != later[o.key]
    ) + contract_changes(current, after)
    return RuntimeImport(
        changes=changes,
        keys=tuple(overrides),
        after=after,
        restored=plan(after),
        runtime=checked.runtime.title,
        named=named,
        named_known=restored_model is not None,
        page_first=chosen.source == "scenario",
        window_why=None if found is None else (found.key, found.params),
    )
