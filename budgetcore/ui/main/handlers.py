"""The main form's handlers (docs/page.md): its fields (typed, committed, slid,
nudged, toggled), presets, the link, the language, the pasted samples, experiments,
pin and reset, the capacity curves' path and bounds, the model pickers and the data
they search, and the page-wide events (a resize, a notice's end, a failure, a file or
a paste refused by its size). Every value goes through ``ui.main.validate``; the main
form's state is the page model's own fields (``ui.model.PageState``)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from budgetcore.core.plan import plan
from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.numbers import typed
from budgetcore.inputs.text import (
    limit_of,
    too_large,
    utf8_size_above,
)
from budgetcore.messages import t
from budgetcore.scenario.fields import SCENARIO_FIELDS
from budgetcore.scenario.parse import parse_sample_lines
from budgetcore.ui.events import (
    CurvesToggled,
    EngineDrops,
    ExampleSamples,
    ExperimentRun,
    Failed,
    FieldCommitted,
    FieldNudged,
    FieldTyped,
    FileRefused,
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
from budgetcore.ui.export.handlers import import_refused, noticed
from budgetcore.ui.form import (
    AVERAGES,
    IssueError,
    format_value,
    nudge,
    parse_text,
    slider_value,
)
from budgetcore.ui.main.state import PRESETS, default_sweep
from budgetcore.ui.main.validate import (
    above_limit,
    frozen_lines,
    loaded,
    replanned,
    with_field_texts,
)
from budgetcore.ui.model import (
    PICKER_MIN_CHARS,
    PICKER_SECTIONS,
    PICKER_SHOWN,
    PageState,
    PickerState,
)
from budgetcore.ui.replay.handlers import (
    log_refused,
    turns_refused,
)
from budgetcore.units import format_int

if TYPE_CHECKING:  # the registry and the peers load after the page is ready
    from budgetcore.registry.models import Registry

__all__ = [
    "EXAMPLE_AVERAGES",
    "EXAMPLE_SAMPLES",
    "MAIN_HANDLERS",
    "initial_state",
]


_PATHS = (*(s.path for s in SCENARIO_FIELDS), *AVERAGES)


_SUMMARY_PATHS = tuple(p for p in _PATHS if p.startswith("summary_model."))


def initial_state(scenario: Scenario | None = None, **changes: Any) -> PageState:
    """The page for ``scenario`` (the article's worked example by default)."""
    scenario = Scenario() if scenario is None else scenario
    base = PageState(plan=plan(scenario), texts={}, values={}, **changes)
    state = loaded(base, scenario)
    return _sweep_path(state, state.sweep.path)


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
            Problem.of("lang", ui["lang"], "link-lang"),
        )
    # The runtime (the first screen's picker and Export's, one value) is the link's: a
    # link without one is budgetcore's own config, as the page writes it (to_fragment
    # leaves the article's out), so a link opened over a runtime round-trips.
    runtime = "article"
    if "runtime" in ui:  # the runtime picked, kept by a copied link
        from budgetcore.runtimes import profile  # noqa: PLC0415 - only when a link names one

        try:
            runtime = profile(ui["runtime"]).name
        except ScenarioError as exc:  # named in the banner, the page's runtime kept
            runtime = state.export_runtime
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
        dataclasses.replace(state, samples_text="", sample_lines=(), sample_problems=problems)
    )


def _text_refused(state: PageState, e: TextRefused) -> PageState:
    problems = too_large(e.what, size=e.length, at_least=True).problems
    if e.what == "samples":
        return _samples_refused(state, problems)
    if e.what == "page-turns":
        return turns_refused(state, problems)
    if e.what == "config":
        return import_refused(state, problems, "replace")
    return state  # not a paste box of the page


def _samples(state: PageState, e: SamplesTyped) -> PageState:
    refused = above_limit("samples", e.text)
    if refused:
        return _samples_refused(state, refused)
    lines, problems = parse_sample_lines(e.text)
    return replanned(
        dataclasses.replace(
            state,
            samples_text=e.text,
            sample_lines=frozen_lines(lines),
            sample_problems=tuple(problems),
        )
    )


#: Made-up samples the "example" button loads (never a generic language ratio), under
#: a comment in the page's language (:func:`example_samples`).
_EXAMPLE_LINES = """{"channel": "text", "tokens": 812, "bytes": 2950}
{"channel": "text", "tokens": 1500, "bytes": 5720}
{"channel": "bson", "tokens": 812, "bytes": 3310}
{"channel": "bson", "tokens": 1500, "bytes": 6480}
{"channel": "json", "tokens": 812, "bytes": 3620}
{"channel": "json", "tokens": 1500, "bytes": 6900}
{"channel": "read", "bytes": 1048576, "ms": 38}
{"channel": "read", "bytes": 262144, "ms": 12}
{"channel": "query", "ms": 9}
{"channel": "query", "ms": 21}"""


def example_samples(lang: str) -> str:
    """The made-up samples with their comment in ``lang``: the box is the page's text,
    in its language (the fifth walk found the Chinese page's box in English)."""
    return f"# {t('samples.example-comment', lang)}\n{_EXAMPLE_LINES}"


EXAMPLE_SAMPLES = example_samples("en")


EXAMPLE_AVERAGES = {"samples.tokens_per_message": "350", "samples.messages_per_session": "40"}


def _example(state: PageState, _e: ExampleSamples) -> PageState:
    text = example_samples(state.lang)
    lines, problems = parse_sample_lines(text)
    state = dataclasses.replace(
        state,
        samples_text=text,
        sample_lines=frozen_lines(lines),
        sample_problems=tuple(problems),
    )
    return with_field_texts(state, EXAMPLE_AVERAGES)


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
        # What the shell measured and told once (Resized, ModelDataLoaded): lost, the
        # replay and Tune charts drew at the default width, two thirds of their card,
        # and a past deprecation date was no longer marked as past.
        width=state.width,
        panel_width=state.panel_width,
        today=state.today,
        registry=state.registry,  # loaded data stays; the pickers start empty again
        peers=state.peers,
        peers_unit=state.peers_unit,
        # The runtime picked goes back to budgetcore's own, with every other choice:
        # Reset is the page as first opened (issue 42; it kept the pick before).
    )
    # An open panel stays open, as its <details> does: a Tune panel closed in the state
    # and open on screen kept showing its last grid, "against K 32,000" after K moved.
    return dataclasses.replace(
        fresh,
        sweep=dataclasses.replace(fresh.sweep, open=state.sweep.open),
        replay=dataclasses.replace(fresh.replay, open=state.replay.open),
        tune=dataclasses.replace(fresh.tune, open=state.tune.open),
    )


def _sweep_path(state: PageState, path: str) -> PageState:
    sweep = default_sweep(state.plan.scenario, path, state.sweep.open)
    return state if sweep is None else dataclasses.replace(state, sweep=sweep)


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


def _resized(state: PageState, e: Resized) -> PageState:
    width = max(240, min(1600, e.width))
    panel = 0 if e.panel_width <= 0 else max(240, min(2400, e.panel_width))
    if (width, panel) == (state.width, state.panel_width):
        return state
    return dataclasses.replace(state, width=width, panel_width=panel)


def _notice_expired(state: PageState, e: NoticeExpired) -> PageState:
    return noticed(state, Noticed("")) if state.notice == e.key else state


def _failed(state: PageState, e: Failed) -> PageState:
    # An import whose step failed cannot go on (its readers' generator is spent): it
    # ends here, said, rather than waiting for a step forever.
    return dataclasses.replace(state, error=e.detail[:300], importing=None)


def _searched(registry: Registry | None, ps: PickerState, before: PickerState) -> PickerState:
    """``ps`` with the matches for its text, found once here (the view only reads
    them); None below :data:`PICKER_MIN_CHARS` characters, above the query's size
    limit, or before the registry has loaded. Typing extends the text: every model
    matching the longer text matched the shorter one (its words only grow or are
    added), so only the shorter text's matches are searched again. Full-width letters
    and digits read as ASCII, as in every typed field (an IME in full-width mode)."""
    query = typed(ps.query)
    if (
        registry is None
        or len(query.strip()) < PICKER_MIN_CHARS
        or utf8_size_above(query, limit_of("query"))  # a search is a few words, not a page
    ):
        return dataclasses.replace(ps, found=None, searched=query, matches=())
    from budgetcore.registry.picks import picks  # noqa: PLC0415 - after ready

    within = registry
    if before.searched is not None and before.matches and query.startswith(before.searched):
        within = registry.within(before.matches)
    found = picks(query, PICKER_SHOWN, within)
    return dataclasses.replace(ps, found=found, searched=query, matches=within.matches(query))


def _picker(state: PageState, section: str, **changes: Any) -> dict[str, PickerState]:
    pickers = dict(state.pickers)
    before = pickers.get(section, PickerState())
    after = dataclasses.replace(before, **changes)
    if after.open and after.searched != typed(after.query):
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
    return import_refused(state, too_large(e.what, size=e.size).problems, "replace")


MAIN_HANDLERS: dict[type, Callable[[PageState, Any], PageState]] = {
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
    ExperimentRun: _experiment,
    Pinned: _pin,
    Unpinned: _unpin,
    Reset: _reset,
    SweepPathChosen: _sweep_chosen,
    SweepBoundTyped: _sweep_bound,
    CurvesToggled: _curves,
    Resized: _resized,
    FileRefused: _file_refused,
    TextRefused: _text_refused,
    NoticeExpired: _notice_expired,
    Failed: _failed,
    ModelDataLoaded: _model_data,
    PickerTyped: _picker_typed,
    PickerMoved: _picker_moved,
    PickerEntered: _picker_entered,
    PickerClosed: _picker_closed,
    ModelChosen: _chosen,
    PeersUnitChosen: _peers_unit,
}
