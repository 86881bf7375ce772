"""``update(state, event) -> (state, effects)``: the only way the page changes.

The effects (``budgetcore.ui.effects``) are what the shell is asked to do: a job's next
step, a download, a copy, a notice's timer, a package to load. ``reduce`` is the state
alone, for tests that need no effect.

Every value — typed, slid, nudged, from a link, an import, an experiment or a reset —
goes through :func:`budgetcore.ui.form.parse_text` for its field and then through the
scenario's cross-key rules, so a problem always shows by its field(s), marks the plan
stale, and the link and the export always describe the plan on screen.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from budgetcore.core.contracts import ModelContract
from budgetcore.core.plan import plan
from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.text import (
    decode_utf8,
    limit_of,
    too_large,
    utf8_size_above,
)
from budgetcore.scenario.fields import SCENARIO_FIELDS
from budgetcore.scenario.model import Scenario
from budgetcore.scenario.parse import parse_sample_lines
from budgetcore.ui.effects import (
    JOBS,
    ClearNotice,
    Copy,
    CopyLink,
    Download,
    Effect,
    Step,
)
from budgetcore.ui.events import (
    ActionClicked,
    CurvesToggled,
    EngineDrops,
    Event,
    ExampleSamples,
    ExperimentRun,
    ExportFormatChosen,
    Failed,
    FieldCommitted,
    FieldNudged,
    FieldTyped,
    FileRefused,
    ImportApplied,
    ImportCancelled,
    ImportFileLoaded,
    ImportPreviewed,
    ImportTyped,
    JobStep,
    LanguageChosen,
    LinkOpened,
    ModelChosen,
    ModelDataLoaded,
    Noticed,
    NoticeExpired,
    PeersUnitChosen,
    PickerClosed,
    PickerEntered,
    PickerMoved,
    PickerTyped,
    Pinned,
    PresetChosen,
    Reset,
    Resized,
    SamplesTyped,
    SliderMoved,
    SummarySameToggled,
    SweepBoundTyped,
    SweepPathChosen,
    TextRefused,
    Toggled,
    Unpinned,
)
from budgetcore.ui.form import (
    AVERAGES,
    FIELDS,
    IssueError,
    format_value,
    nudge,
    parse_text,
    slider_value,
)
from budgetcore.ui.model import (
    PICKER_MIN_CHARS,
    PICKER_SECTIONS,
    PICKER_SHOWN,
    PRESETS,
    ImportPreview,
    PageState,
    PickerState,
    SweepState,
)
from budgetcore.ui.picks import chosen_model_of, picked_prices
from budgetcore.ui.replay.handlers import (
    REPLAY_HANDLERS,
    log_refused,
    replay_due,
    replay_step,
    turns_refused,
)
from budgetcore.ui.replay.state import (
    initial_panel,
)
from budgetcore.ui.runtime_picker import RUNTIME_HANDLERS, runtime_import
from budgetcore.ui.tune.handlers import TUNE_HANDLERS, derived, page_pending, page_step
from budgetcore.ui.validate import (
    above_limit,
    loaded,
    preset_of,
    replanned,
    scenario_of,
    scenario_texts,
    with_field_texts,
)
from budgetcore.units import format_int

if TYPE_CHECKING:  # the registry and the peers load after the page is ready
    from budgetcore.registry.models import Registry

__all__ = [
    "EXAMPLE_AVERAGES",
    "EXAMPLE_SAMPLES",
    "PRERENDER_WIDTH",
    "chosen_model_of",
    "first_state",
    "initial_state",
    "picked_prices",
    "preset_of",
    "reduce",
    "scenario_of",
    "scenario_texts",
    "summary_contract_of",
    "update",
]

_PATHS = (*(s.path for s in SCENARIO_FIELDS), *AVERAGES)
_SUMMARY_PATHS = tuple(p for p in _PATHS if p.startswith("summary_model."))


def initial_state(scenario: Scenario | None = None, **changes: Any) -> PageState:
    """The page for ``scenario`` (the article's worked example by default)."""
    scenario = Scenario() if scenario is None else scenario
    base = PageState(plan=plan(scenario), texts={}, values={}, **changes)
    state = loaded(base, scenario)
    return _sweep_path(state, state.sweep.path)


#: A chart box's inner width on a desktop (>= 1280 px wide: the 848 px results column,
#: less the box's 1 px borders and 8 px paddings), the width the shell draws charts at;
#: the build pre-renders the first view for it. A browser test holds the stylesheet to it.
PRERENDER_WIDTH = 830


def first_state(width: int = PRERENDER_WIDTH, lang: str = "en") -> PageState:
    """The state the build pre-renders (``ui.prerender``): a link without a fragment, in
    ``lang`` (the browser's language), charts at ``width``. The shell takes over a
    pre-rendered page without painting when its own first state equals this one."""
    return reduce(initial_state(width=width), LinkOpened("", lang))


# ------------------------------------------------------------------ handlers


def _typed(state: PageState, e: FieldTyped) -> PageState:
    return with_field_texts(state, {e.path: e.text}, notice="")


def _committed(state: PageState, e: FieldCommitted) -> PageState:
    if e.path in state.field_issues:
        return state
    text = format_value(e.path, state.values[e.path])
    return state if text == state.texts[e.path] else with_field_texts(state, {e.path: text})


def _slid(state: PageState, e: SliderMoved) -> PageState:
    return with_field_texts(state, {e.path: format_value(e.path, slider_value(e.path, e.position))})


def _nudged(state: PageState, e: FieldNudged) -> PageState:
    if e.path in state.field_issues:
        return state  # a nudge needs a value to start from; the problem stays shown
    value = nudge(e.path, state.values[e.path], e.steps)
    return with_field_texts(state, {e.path: format_value(e.path, value)})


def _toggled(state: PageState, e: Toggled) -> PageState:
    return with_field_texts(state, {e.path: "true" if e.checked else "false"})


def _summary_same(state: PageState, e: SummarySameToggled) -> PageState:
    if e.checked:
        return replanned(dataclasses.replace(state, summary_same=True))
    # An own summary contract starts from the main one, as the fields showed it.
    texts = {p: state.texts[p.replace("summary_model.", "main_model.")] for p in _SUMMARY_PATHS}
    main = state.pickers.get("main_model", PickerState())
    pickers = _picker(state, "summary_model", query=main.chosen, open=False, chosen=main.chosen)
    return with_field_texts(state, texts, summary_same=False, pickers=pickers)


def _preset(state: PageState, e: PresetChosen) -> PageState:
    if e.key not in PRESETS:
        return state
    i, o, q = PRESETS[e.key]
    return with_field_texts(
        state,
        {
            "main_model.input_tokens": format_int(i),
            "main_model.output_tokens": format_int(o),
            "main_model.reserves_output": "true" if q else "false",
        },
    )


def _engine_drops(state: PageState, _e: EngineDrops) -> PageState:
    return with_field_texts(state, {"workload.engine_summary_tokens": "0"})


def _link(state: PageState, e: LinkOpened) -> PageState:
    from budgetcore.scenario.fragment import parse_fragment  # noqa: PLC0415 - only on open

    result = parse_fragment(e.fragment)
    ui = dict(result.ui)
    chosen = ui.get("lang") in ("en", "zh")
    lang = ui["lang"] if chosen else ("zh" if e.browser_lang.lower().startswith("zh") else "en")
    problems = result.problems
    if "lang" in ui and not chosen:  # named in the banner, the browser's language used
        problems = (
            *problems,
            Problem.of("lang", "must be en or zh", ui["lang"], "link-lang"),
        )
    runtime = state.export_runtime
    if "runtime" in ui:  # the export panel's runtime, kept by a copied link
        from budgetcore.runtimes import profile  # noqa: PLC0415 - only when a link names one

        try:
            runtime = profile(ui["runtime"]).name
        except ScenarioError as exc:  # named in the banner, the page's runtime kept
            problems = (*problems, *exc.problems)
    # A pinned plan the link carries is pinned again: the comparison survives a copied link.
    pinned = None if result.pinned is None else plan(result.pinned)
    opened = loaded(
        state,
        result.scenario,
        link_problems=problems,
        lang=lang,
        lang_chosen=chosen,
        pinned=pinned,
    )
    if runtime != opened.export_runtime:
        opened = dataclasses.replace(opened, export_runtime=runtime)
    if not result.models:
        return opened
    # A model the link names: its picker shows it (once the registry is in) and how the
    # written name matched.
    pickers = dict(opened.pickers)
    for section, written, name in result.models:
        if section in pickers:
            pickers[section] = PickerState(query=name, chosen=name, written=written)
    return dataclasses.replace(opened, pickers=pickers)


def _language(state: PageState, e: LanguageChosen) -> PageState:
    if e.lang not in ("en", "zh"):
        return state
    return dataclasses.replace(state, lang=e.lang, lang_chosen=True)


def _samples_refused(state: PageState, problems: tuple[Problem, ...]) -> PageState:
    return replanned(
        dataclasses.replace(state, samples_text="", sample_lines={}, sample_problems=problems)
    )


def _import_refused(state: PageState, problems: tuple[Problem, ...], mode: str) -> PageState:
    preview = ImportPreview("", mode, problems=problems)
    return dataclasses.replace(state, import_preview=preview, import_text="", notice="")


def _text_refused(state: PageState, e: TextRefused) -> PageState:
    problems = too_large(e.what, size=e.length, at_least=True).problems
    if e.what == "samples":
        return _samples_refused(state, problems)
    if e.what == "page-turns":
        return turns_refused(state, problems)
    if e.what == "config":
        return _import_refused(state, problems, "replace")
    return state  # not a paste box of the page


def _samples(state: PageState, e: SamplesTyped) -> PageState:
    refused = above_limit("samples", e.text)
    if refused:
        return _samples_refused(state, refused)
    lines, problems = parse_sample_lines(e.text)
    return replanned(
        dataclasses.replace(
            state, samples_text=e.text, sample_lines=lines, sample_problems=tuple(problems)
        )
    )


#: Made-up samples the "example" button loads (never a generic language ratio).
EXAMPLE_SAMPLES = """# Made-up example samples: replace them with pairs measured on your own store.
{"channel": "text", "tokens": 812, "bytes": 2950}
{"channel": "text", "tokens": 1500, "bytes": 5720}
{"channel": "bson", "tokens": 812, "bytes": 3310}
{"channel": "bson", "tokens": 1500, "bytes": 6480}
{"channel": "json", "tokens": 812, "bytes": 3620}
{"channel": "json", "tokens": 1500, "bytes": 6900}
{"channel": "read", "bytes": 1048576, "ms": 38}
{"channel": "read", "bytes": 262144, "ms": 12}
{"channel": "query", "ms": 9}
{"channel": "query", "ms": 21}"""
EXAMPLE_AVERAGES = {"samples.tokens_per_message": "350", "samples.messages_per_session": "40"}


def _example(state: PageState, _e: ExampleSamples) -> PageState:
    lines, problems = parse_sample_lines(EXAMPLE_SAMPLES)
    state = dataclasses.replace(
        state,
        samples_text=EXAMPLE_SAMPLES,
        sample_lines=lines,
        sample_problems=tuple(problems),
    )
    return with_field_texts(state, EXAMPLE_AVERAGES)


def _export_format(state: PageState, e: ExportFormatChosen) -> PageState:
    return dataclasses.replace(state, export_format="json" if e.fmt == "json" else "toml")


def _import_typed(state: PageState, e: ImportTyped) -> PageState:
    refused = above_limit("config", e.text)
    if refused:
        return _import_refused(state, refused, "replace")
    return dataclasses.replace(state, import_text=e.text)


def _import_file(state: PageState, e: ImportFileLoaded) -> PageState:
    """A config file: its size and its UTF-8 first (the CLI's rules), then the preview
    of its text, which the box then shows."""
    mode = "merge" if e.mode == "merge" else "replace"
    if len(e.data) > limit_of("config"):
        return _import_refused(state, too_large("config", size=len(e.data)).problems, mode)
    try:
        text = decode_utf8(e.data, "config")
    except ScenarioError as exc:
        preview = ImportPreview("", mode, problems=exc.problems)
        return dataclasses.replace(state, import_preview=preview, import_text="", notice="")
    return _import_preview(state, ImportPreviewed(text, mode))


def _import_preview(state: PageState, e: ImportPreviewed) -> PageState:
    from budgetcore.scenario.export import effective_values  # noqa: PLC0415
    from budgetcore.scenario.overrides import OVERRIDES, apply_overrides, read_reviewed  # noqa: PLC0415

    mode = "merge" if e.mode == "merge" else "replace"
    refused = above_limit("config", e.text)
    if refused:
        return _import_refused(state, refused, mode)
    if not e.text.strip():
        # Nothing to preview: a box emptied by a refused paste, or never filled. Never
        # read as "a file that sets nothing", whose replace would reset every setting.
        problem = Problem.coded(
            "config", "is empty: paste a TOML or JSON config, or choose a file", "import-empty"
        )
        preview = ImportPreview(e.text, mode, problems=(problem,))
        return dataclasses.replace(state, import_preview=preview, import_text=e.text, notice="")
    if state.stale:
        problem = Problem.coded(
            "page", "has invalid fields; fix them before importing", "page-invalid"
        )
        preview = ImportPreview(e.text, mode, problems=(problem,))
        return dataclasses.replace(state, import_preview=preview, import_text=e.text, notice="")
    if state.export_runtime != "article":  # the picked runtime's own file
        read = runtime_import(state, e.text)
        preview = ImportPreview(
            e.text,
            mode,
            problems=read.problems,
            changes=read.changes,
            keys=read.keys,
            after=read.after,
            restored=read.restored,  # a runtime's file names no model: the page's is kept
            runtime=read.runtime,
        )
        return dataclasses.replace(state, import_preview=preview, import_text=e.text, notice="")
    try:
        overrides, models = read_reviewed(e.text)
        current = state.plan.scenario
        # The reviewed models first (a file that records them restores them, in either
        # mode: they are what the review was for), then the overrides.
        base = models.applied(current)
        if mode == "replace":
            # The file becomes the whole override set: every supported key it does not
            # set goes back to its default.
            defaults = {o.key: o.default for o in OVERRIDES if o.key not in overrides}
            base = apply_overrides(base, defaults)
        after = apply_overrides(base, overrides)
    except ScenarioError as exc:
        preview = ImportPreview(e.text, mode, problems=exc.problems)
        return dataclasses.replace(state, import_preview=preview, import_text=e.text, notice="")
    now, later = effective_values(current), effective_values(after)
    changes = tuple(
        (o.key, now[o.key], later[o.key]) for o in OVERRIDES if now[o.key] != later[o.key]
    ) + _contract_changes(current, after)
    preview = ImportPreview(
        e.text,
        mode,
        changes=changes,
        keys=tuple(overrides),
        after=after,
        reviewed=models.present,
        restored=plan(after),
    )
    return dataclasses.replace(state, import_preview=preview, import_text=e.text, notice="")


def _contract_changes(current: Scenario, after: Scenario) -> tuple[tuple[str, object, object], ...]:
    """The main model's I and O a reviewed file restores, as rows of the preview's
    table beside the overrides (the restores line names the model)."""
    out = []
    for name in ("input_tokens", "output_tokens"):
        now, later = getattr(current.main_model, name), getattr(after.main_model, name)
        if now != later:
            out.append((f"main_model.{name}", now, later))
    return tuple(out)


def _import_apply(state: PageState, _e: ImportApplied) -> PageState:
    p = state.import_preview
    if p is None or p.after is None or p.applied:
        return state
    done = dataclasses.replace(p, applied=True)
    return loaded(state, p.after, import_preview=done)


def _import_cancel(state: PageState, _e: ImportCancelled) -> PageState:
    return dataclasses.replace(state, import_preview=None)


def _experiment(state: PageState, e: ExperimentRun) -> PageState:
    from budgetcore.explore.experiments import BY_KEY, run  # noqa: PLC0415 - on first use

    if e.key not in BY_KEY:
        return state
    if state.stale:
        return dataclasses.replace(state, notice="msg.fix-first")
    outcome = run(BY_KEY[e.key], state.plan.scenario)
    return loaded(state, outcome.after.scenario, pinned=outcome.before, outcome=outcome)


def _pin(state: PageState, _e: Pinned) -> PageState:
    if state.stale:
        return dataclasses.replace(state, notice="msg.pin-stale")
    return dataclasses.replace(state, pinned=state.plan, notice="msg.pinned")


def _unpin(state: PageState, _e: Unpinned) -> PageState:
    return dataclasses.replace(state, pinned=None, outcome=None, notice="")


def _reset(state: PageState, _e: Reset) -> PageState:
    fresh = initial_state(
        lang=state.lang,
        lang_chosen=state.lang_chosen,
        width=state.width,
        registry=state.registry,  # loaded data stays; the pickers start empty again
        peers=state.peers,
        peers_unit=state.peers_unit,
        export_runtime=state.export_runtime,  # the picker shows it still
    )
    return dataclasses.replace(
        fresh,
        sweep=dataclasses.replace(fresh.sweep, open=state.sweep.open),
        replay=dataclasses.replace(fresh.replay, open=state.replay.open),
    )


def _sweep_path(state: PageState, path: str) -> PageState:
    from budgetcore.explore.curves import SWEEPABLE, default_range  # noqa: PLC0415 - on first use

    if path not in SWEEPABLE:
        return state
    low, high = default_range(state.plan.scenario, path)
    sweep = SweepState(
        path,
        format_value(path, low),
        format_value(path, high),
        low,
        high,
        (),
        state.sweep.open,
    )
    return dataclasses.replace(state, sweep=sweep)


def _sweep_chosen(state: PageState, e: SweepPathChosen) -> PageState:
    return _sweep_path(state, e.path)


def _sweep_bound(state: PageState, e: SweepBoundTyped) -> PageState:
    s = state.sweep
    # The bounds follow the swept field's own rule (the summary model's I like the main's).
    rule_path = "main_model.input_tokens" if s.path.startswith("summary_model.") else s.path
    low_text, high_text = (e.text, s.high_text) if e.which == "low" else (s.low_text, e.text)
    texts = {"low": low_text, "high": high_text}
    parsed: dict[str, object] = {}
    issues: list[Problem] = []
    # Each bound is read on its own and a problem names the bound whose text it quotes
    # (the one just typed first), so editing "to" never blames "to" for "from"'s value.
    for which in (e.which, "high" if e.which == "low" else "low"):
        try:
            parsed[which] = parse_text(rule_path, texts[which])
        except IssueError as exc:
            issues.append(dataclasses.replace(exc.issue, path=f"sweep.{which}", marks=()))
    typed = dataclasses.replace(s, low_text=low_text, high_text=high_text)
    if issues:
        return dataclasses.replace(state, sweep=dataclasses.replace(typed, issues=tuple(issues)))
    low, high = parsed["low"], parsed["high"]
    assert isinstance(low, int | Decimal)
    assert isinstance(high, int | Decimal)
    if not low < high:
        params = (
            ("low", format_value(s.path, low), False),
            ("high", format_value(s.path, high), False),
        )
        issue = Problem.page("problem.sweep-order", params, ("sweep.low", "sweep.high"))
        return dataclasses.replace(state, sweep=dataclasses.replace(typed, issues=(issue,)))
    sweep = dataclasses.replace(typed, low=low, high=high, issues=())
    return dataclasses.replace(state, sweep=sweep)


def _curves(state: PageState, e: CurvesToggled) -> PageState:
    return dataclasses.replace(state, sweep=dataclasses.replace(state.sweep, open=e.open))


def _noticed(state: PageState, e: Noticed) -> PageState:
    key = e.key
    if key == "msg.link-copied":
        # The link holds the scenario only: say what it leaves on this page.
        panel, start = state.replay, initial_panel()
        if panel.source == "log" and panel.logs:
            key = "msg.link-copied-log"
        elif panel.source != start.source or panel.texts != start.texts:
            key = "msg.link-copied-replay"
    return dataclasses.replace(state, notice=key)


def _resized(state: PageState, e: Resized) -> PageState:
    width = max(240, min(1600, e.width))
    panel = 0 if e.panel_width <= 0 else max(240, min(2400, e.panel_width))
    if (width, panel) == (state.width, state.panel_width):
        return state
    return dataclasses.replace(state, width=width, panel_width=panel)


def _notice_expired(state: PageState, e: NoticeExpired) -> PageState:
    return _noticed(state, Noticed("")) if state.notice == e.key else state


def _failed(state: PageState, e: Failed) -> PageState:
    return dataclasses.replace(state, error=e.detail[:300])


# ------------------------------------------------------------------ model pickers and peers


def _searched(registry: Registry | None, ps: PickerState, before: PickerState) -> PickerState:
    """``ps`` with the matches for its text, found once here (the view only reads
    them); None below :data:`PICKER_MIN_CHARS` characters, above the query's size
    limit, or before the registry has loaded. Typing extends the text: every model
    matching the longer text matched the shorter one (its words only grow or are
    added), so only the shorter text's matches are searched again."""
    query = ps.query
    if (
        registry is None
        or len(query.strip()) < PICKER_MIN_CHARS
        or utf8_size_above(query, limit_of("query"))  # a search is a few words, not a page
    ):
        return dataclasses.replace(ps, found=None, searched=query, matches=())
    from budgetcore.registry.models import picks  # noqa: PLC0415 - after ready

    within = registry
    if before.searched is not None and before.matches and query.startswith(before.searched):
        within = registry.within(before.matches)
    found = picks(query, PICKER_SHOWN, within)
    return dataclasses.replace(ps, found=found, searched=query, matches=within.matches(query))


def _picker(state: PageState, section: str, **changes: Any) -> dict[str, PickerState]:
    pickers = dict(state.pickers)
    before = pickers.get(section, PickerState())
    after = dataclasses.replace(before, **changes)
    if after.open and after.searched != after.query:
        after = _searched(state.registry, after, before)
    pickers[section] = after
    return pickers


def _model_data(state: PageState, e: ModelDataLoaded) -> PageState:
    pickers = {
        section: _searched(e.registry, ps, PickerState()) if ps.open else ps
        for section, ps in state.pickers.items()
    }
    today = e.today if _ISO_DATE.fullmatch(e.today) else ""
    loaded = dataclasses.replace(
        state, registry=e.registry, peers=e.peers, pickers=pickers, today=today
    )
    # The names the scenario kept unchecked are checked now (a link's model may be
    # unknown or edited): the plan's scenario then carries only the true ones.
    return replanned(loaded) if any(p.chosen for p in pickers.values()) else loaded


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)


def _picker_typed(state: PageState, e: PickerTyped) -> PageState:
    if e.section not in PICKER_SECTIONS:
        return state
    pickers = _picker(state, e.section, query=e.text, open=True, active=-1)
    return dataclasses.replace(state, pickers=pickers)


def _picker_moved(state: PageState, e: PickerMoved) -> PageState:
    if e.section not in PICKER_SECTIONS:
        return state
    opened = state.pickers[e.section].open
    pickers = _picker(state, e.section, open=True)  # searches a list closed till now
    current = pickers[e.section]
    found = current.found
    if found is None or not found.models:
        return state
    n = len(found.models)
    if not opened:  # an arrow on a closed list opens it at its first (last) option
        active = 0 if e.steps > 0 else n - 1
    else:  # from no highlight, down goes to the first option and up to the last
        start = current.active if current.active >= 0 else (-1 if e.steps > 0 else 0)
        active = (start + e.steps) % n
    pickers[e.section] = dataclasses.replace(current, active=active)
    return dataclasses.replace(state, pickers=pickers)


def _picker_entered(state: PageState, e: PickerEntered) -> PageState:
    if e.section not in PICKER_SECTIONS:
        return state
    current = state.pickers[e.section]
    found = current.found
    if not current.open or found is None or not found.models:
        return state
    index = min(max(current.active, 0), len(found.models) - 1)
    return _chosen(state, ModelChosen(e.section, found.models[index].name))


def _picker_closed(state: PageState, e: PickerClosed) -> PageState:
    if e.section not in PICKER_SECTIONS or not state.pickers[e.section].open:
        return state
    return dataclasses.replace(state, pickers=_picker(state, e.section, open=False))


def _chosen(state: PageState, e: ModelChosen) -> PageState:
    """Fill I and O from the registry through the one validation path; q stays."""
    if e.section not in PICKER_SECTIONS or state.registry is None:
        return state
    if e.section == "summary_model" and state.summary_same:
        return state  # the summary picker shows only with an own summary contract
    model = state.registry.lookup(e.name)
    if model is None:
        return state
    i_path, o_path = f"{e.section}.input_tokens", f"{e.section}.output_tokens"
    texts = {
        i_path: format_value(i_path, model.contract.input_tokens),
        o_path: format_value(o_path, model.contract.output_tokens),
    }
    written = state.pickers[e.section].query.strip()
    pickers = _picker(
        state,
        e.section,
        query=model.name,
        open=False,
        active=-1,
        chosen=model.name,
        written=written,
    )
    return with_field_texts(state, texts, pickers=pickers, notice="")


def _peers_unit(state: PageState, e: PeersUnitChosen) -> PageState:
    if e.unit not in ("tokens", "percent"):
        return state
    return dataclasses.replace(state, peers_unit=e.unit)


def _file_refused(state: PageState, e: FileRefused) -> PageState:
    """A chosen file above its input's size limit, refused unread (the shell knows its
    size before reading it): the same too-large message as a paste or the CLI."""
    if e.what == "page-log":
        problems = too_large("log", limit_of("page-log"), e.size).problems
        return log_refused(state, e.name, problems)
    return _import_refused(state, too_large(e.what, size=e.size).problems, "replace")


def _job_step(state: PageState, e: JobStep) -> PageState:
    if e.job in state.scheduled:
        state = dataclasses.replace(state, scheduled=state.scheduled - {e.job})
    job = _JOBS.get(e.job)
    if job is None or not job[0](state):
        return state
    return job[1](state)


_HANDLERS: dict[type, Callable[[PageState, Any], PageState]] = {
    FieldTyped: _typed,
    FieldCommitted: _committed,
    SliderMoved: _slid,
    FieldNudged: _nudged,
    Toggled: _toggled,
    SummarySameToggled: _summary_same,
    PresetChosen: _preset,
    EngineDrops: _engine_drops,
    LinkOpened: _link,
    LanguageChosen: _language,
    SamplesTyped: _samples,
    ExampleSamples: _example,
    ExportFormatChosen: _export_format,
    ImportTyped: _import_typed,
    ImportPreviewed: _import_preview,
    ImportFileLoaded: _import_file,
    ImportApplied: _import_apply,
    ImportCancelled: _import_cancel,
    ExperimentRun: _experiment,
    Pinned: _pin,
    Unpinned: _unpin,
    Reset: _reset,
    SweepPathChosen: _sweep_chosen,
    SweepBoundTyped: _sweep_bound,
    CurvesToggled: _curves,
    Noticed: _noticed,
    Resized: _resized,
    FileRefused: _file_refused,
    TextRefused: _text_refused,
    NoticeExpired: _notice_expired,
    JobStep: _job_step,
    ActionClicked: lambda state, e: _action(state, e)[0],  # its effects: update's
    Failed: _failed,
    ModelDataLoaded: _model_data,
    PickerTyped: _picker_typed,
    PickerMoved: _picker_moved,
    PickerEntered: _picker_entered,
    PickerClosed: _picker_closed,
    ModelChosen: _chosen,
    PeersUnitChosen: _peers_unit,
    **REPLAY_HANDLERS,
    **TUNE_HANDLERS,
    **RUNTIME_HANDLERS,
}


def _next(state: PageState, event: Event) -> PageState:
    """The state after ``event``. Unknown paths and keys leave the state as it was."""
    path = getattr(event, "path", None)
    if isinstance(event, FieldTyped | FieldCommitted | SliderMoved | FieldNudged | Toggled) and (
        path not in FIELDS
    ):
        return state
    if isinstance(event, SliderMoved | FieldNudged) and FIELDS[event.path].kind in (
        "bool",
        "average",
    ):
        return state
    next_state = _HANDLERS[type(event)](state, event)
    if next_state.error and not isinstance(event, Failed):
        next_state = dataclasses.replace(next_state, error="")
    return next_state


# ------------------------------------------------------------------ jobs and effects


def _export_due(state: PageState) -> bool:
    from budgetcore.ui.view.config import export_key  # noqa: PLC0415 - after ready

    return state.export is None or state.export[0] != export_key(state)


def _export_step(state: PageState) -> PageState:
    """The export job's one step: the reviewed config file and its diff (the config
    module, hashlib and tomllib load with the first, after the page is ready)."""
    from budgetcore.ui.view.config import export_key, render_export  # noqa: PLC0415

    body, diff = render_export(state)
    return dataclasses.replace(state, export=(export_key(state), body, diff))


def _export_body(state: PageState) -> str:
    if _export_due(state):
        state = _export_step(state)
    assert state.export is not None
    return state.export[1]


#: Each job (ui.effects.JOBS): whether it has a step to take, and that step. A step
#: that leaves a job pending is followed by another once the browser had its turn; a
#: job whose inputs change starts again at its next step; one whose panel closes is
#: no longer pending, and its waiting step does nothing (cancelled).
def _sweep_key(state: PageState) -> tuple[object, ...]:
    s = state.sweep
    return (state.plan.scenario, s.path, s.low, s.high)


def _sweep_due(state: PageState) -> bool:
    """The capacity curves are computed while their panel is open on a valid scenario."""
    s = state.sweep
    return s.open and not state.stale and s.curves_for != _sweep_key(state)


def _sweep_step(state: PageState) -> PageState:
    """The sweep job's one step: the 500 scenarios of the curves."""
    from budgetcore.explore.curves import sweep, sweep_values  # noqa: PLC0415 - on first use

    s = state.sweep
    drawn = sweep(state.plan.scenario, s.path, sweep_values(s.low, s.high, s.path))
    return dataclasses.replace(
        state, sweep=dataclasses.replace(s, curves=drawn, curves_for=_sweep_key(state))
    )


_JOBS: dict[str, tuple[Callable[[PageState], bool], Callable[[PageState], PageState]]] = {
    "replay": (replay_due, replay_step),
    "tune": (page_pending, page_step),
    "sweep": (_sweep_due, _sweep_step),
    "export": (_export_due, _export_step),
}


def _tune_body(state: PageState) -> str | None:
    """The export of the Tune panel's chosen point (what its "Download" offers)."""
    from budgetcore.ui.tune.handlers import at_point  # noqa: PLC0415
    from budgetcore.ui.tune.state import result_of  # noqa: PLC0415

    result = result_of(state.tune, state.plan.scenario)
    if result is None or result.choice is None:
        return None
    return _export_body(at_point(state, result.choice.k, result.choice.s))


#: A runtime file's syntax -> its usual suffix and media type (YAML: RFC 9512).
_SUFFIX = {"python": "py"}
_MIME = {
    "toml": "application/toml",
    "json": "application/json",
    "yaml": "application/yaml",
    "python": "text/x-python",
}


def _action(state: PageState, e: ActionClicked) -> tuple[PageState, tuple[Effect, ...]]:
    """A button the shell answers (download, copy): the effect, and the notice."""
    fmt = state.export_format
    name = f"budgetcore-overrides.{fmt}"
    runtime = state.export_runtime
    if runtime != "article":  # the picked runtime's own file, in its own syntax
        from budgetcore.runtimes import profile  # noqa: PLC0415 - picked: loaded

        fmt = profile(runtime).syntax
        name = f"{runtime}-settings.{_SUFFIX.get(fmt, fmt)}"
    mime = _MIME.get(fmt, "application/json")
    if e.action == "download":
        return state, (Download(_export_body(state), name, mime),)
    if e.action == "tune-download":  # the Tune panel's chosen point, in the same file
        body = _tune_body(state)
        return state, (() if body is None else (Download(body, name, mime),))
    if e.action == "copy":
        return _noticed(state, Noticed("msg.copied")), (Copy(_export_body(state)),)
    if e.action == "copy-link":
        return _noticed(state, Noticed("msg.link-copied")), (CopyLink(),)
    return state, ()


def update(state: PageState, event: Event) -> tuple[PageState, tuple[Effect, ...]]:
    """The state after ``event`` and what the shell is to do for it: the event's own
    effects, a timer for a new notice, and a step of each job that became pending."""
    effects: list[Effect] = []
    if isinstance(event, ActionClicked):
        after, own = _action(state, event)
        effects.extend(own)
    else:
        after = _next(state, event)
    if after.notice and (after.notice != state.notice or isinstance(event, ActionClicked)):
        effects.append(ClearNotice(after.notice))
    if after is state:
        return after, tuple(effects)
    after = derived(after)
    asked = set()
    for name in JOBS:
        job = _JOBS.get(name)
        if job is not None and name not in after.scheduled and job[0](after):
            asked.add(name)
            effects.append(Step(name))
    if asked:
        after = dataclasses.replace(after, scheduled=after.scheduled | asked)
    return after, tuple(effects)


def reduce(state: PageState, event: Event) -> PageState:
    """The state after ``event``, without its effects (tests, and a step's own state)."""
    return update(state, event)[0]


def summary_contract_of(state: PageState) -> ModelContract:
    """The summary contract the fields describe (the main one while shared)."""
    return state.plan.scenario.summary_contract
