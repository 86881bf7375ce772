"""The page's Tune panel (docs/spec.md §16): its constraint fields, its sessions and its
grid, computed a slice at a time between frames.

The panel is a value (:class:`TunePanel`) inside the page state, changed only by the
page's ``reduce``. Every constraint text goes through :func:`parse_field_text` (an
:class:`~budgetcore.errors.Problem` by the field on a problem, as the replay panel's
fields). The sessions are the replay panel's turn source (generated, pasted turns, or
every session of an imported log or folder) under the scenario on screen.

The grid runs in slices (docs/tune.md, "For the page"): each :func:`step` prepares a
session or replays points of the grid until about :data:`SLICE_TURNS` turn updates are
spent (16 points of a 500-turn session, about 12 ms in the page at a 2.5 s floor), and
the shell asks for the next slice after the browser has handled input. A step whose
inputs differ from the running job's (a field typed, another source) starts again
from nothing, so a new input cancels the old grid. The grid does not depend on the
scenario's own K and S (tests/test_ui_tune.py holds it so): choosing a point moves
the scenario's mark, and the choice, without replaying the grid again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.inputs.numbers import typed
from budgetcore.inputs.text import limit_of, utf8_size_above
from budgetcore.ui.form import IssueError, too_large_issue
from budgetcore.ui.replay.state import (
    NONE_PICKED,
    Picked,
    ReplayPanel,
    Sessions,
    options_of,
    session_turns,
    source_waits,
)

if TYPE_CHECKING:  # the tune modules load when the panel first runs, not on boot
    from budgetcore.replay.engine import PointCounts
    from budgetcore.replay.model import ReplayOptions, Turn
    from budgetcore.replay.prepared import Session
    from budgetcore.replay.whatif import WhatIf
    from budgetcore.runtimes.tune_axis import RuntimeAxis
    from budgetcore.tune.choice import Constraints
    from budgetcore.tune.measures import GridMeasures
    from budgetcore.tune.result import TuneResult
    from budgetcore.tune.whatif import Baseline, PointCost

__all__ = [
    "QUALITY",
    "SLICE_TURNS",
    "TIMED_COST",
    "TUNE_FIELDS",
    "WHAT_IF_COST",
    "TuneField",
    "TuneInputs",
    "TuneJob",
    "TunePanel",
    "constraints_of",
    "default_text",
    "initial_tune",
    "inputs_of",
    "parse_field_text",
    "pending",
    "result_of",
    "run_to_end",
    "session_panels",
    "step",
    "with_texts",
]

#: Turn updates per slice: 16 points of a 500-turn session (docs/tune.md, Speed: the
#: slowest point is 0.73 ms in the page at a 2.5 s floor, so a slice stays near 12 ms).
SLICE_TURNS = 16 * 500
#: A point with a clock or retries costs about this many untimed ones (docs/tune.md).
TIMED_COST = 5
#: A point's what-if on a log's as-run baseline costs about this many grid points: the
#: engine's run without rows (``what_if_direct``), then the as-run cache model and the
#: pricing of every request (a 400-request Claude Code log, scripts/make_bench_logs.py
#: --claude-requests 400, in CPython: 2.8 ms against 0.24 ms a point; a Codex one 2.0 ms).
WHAT_IF_COST = 12


@dataclass(frozen=True, slots=True)
class TuneField:
    path: str  # "tune.<name>": its label is "label.tune.<name>"
    kind: str  # "bool", "tokens", "rate", "generations" or "ratio"
    # The text a new panel holds; None: the choice's stated default (a quality limit,
    # tune.choice.DEFAULT_MAX_*, read when the panel is drawn: :func:`default_text`).
    default: str | None


TUNE_FIELDS: dict[str, TuneField] = {
    f.path: f
    for f in (
        TuneField("tune.no_rejected", "bool", "false"),
        TuneField("tune.max_unseen", "tokens", ""),
        TuneField("tune.max_runs_per_100", "rate", ""),
        # The quality limits every choice applies unless told otherwise (docs/spec.md
        # §17): the CLI's --max-generations N|off and --max-compression X|off.
        TuneField("tune.max_generations", "generations", None),
        TuneField("tune.max_compression", "ratio", None),
    )
}

#: Each quality field's Constraints attribute.
QUALITY = {"tune.max_generations": "max_generations", "tune.max_compression": "max_compression"}


def default_text(path: str) -> str:
    """A field's text in a new panel: a quality limit's default as the CLI states it
    (one home, tune/choice.py; imported here, not at boot: it loads the replay engine)."""
    f = TUNE_FIELDS[path]
    if f.default is not None:
        return f.default
    from budgetcore.tune.choice import Constraints  # noqa: PLC0415

    return str(getattr(Constraints(), QUALITY[path]))


def parse_field_text(path: str, text: str) -> object:
    """The value of a constraint's text (None: empty, no such constraint, or a quality
    limit ``off``); raises :class:`IssueError` naming the field. The rule is the CLI's
    flags' own (``tune.constraints``), a count also read from ``1e3`` as every field."""
    f = TUNE_FIELDS[path]
    if utf8_size_above(text, limit_of("field")):
        raise IssueError(too_large_issue(path, text))
    if f.kind != "bool" and text.strip() == "":
        return None
    # Light (errors, numbers), but the tune package loads when the panel first runs.
    from budgetcore.tune.constraints import constraint_value  # noqa: PLC0415

    try:
        # Read as every page field reads its text (full-width digits, 。 as the point);
        # the problem still quotes the text as typed.
        return constraint_value(path, f.kind, typed(text))
    except ScenarioError as e:
        p = e.problems[0]
        params = tuple(
            (name, render_value(text.strip()) if name == "got" else value, name in p.keys)
            for name, value in p.params
        )
        raise IssueError(Problem.page(p.code, params, (path,))) from None


@dataclass(frozen=True, slots=True)
class TuneInputs:
    """What a grid is computed from: the scenario on screen, the sessions' turns, the
    replay options, and the sessions of an import that cannot be replayed (named, never
    dropped). Two inputs that differ only in the scenario's own K and S give the same
    grid (:meth:`same`).

    ``baselines``: with a log, each session's as-run baseline (one per session, in
    order), so every point is also a what-if on it (docs/spec.md §17); empty when a
    session has none (generated or pasted turns), and then the maps stay absolute."""

    scenario: Scenario
    sessions: tuple[tuple[str, tuple[Turn, ...]], ...]
    options: ReplayOptions
    unreadable: tuple[tuple[str, tuple[Problem, ...]], ...] = ()
    baselines: tuple[Baseline, ...] = field(default=(), compare=False)
    # The runtime picked beside Export ("" for the article's): its knob is the grid
    # (docs/tune.md, "A runtime's knob"); ``runtime_s`` the scenario's S where that
    # runtime takes it (it has no cap setting), so a new S starts the grid again.
    runtime: str = ""
    runtime_s: int | None = None

    def options_of(self, index: int) -> ReplayOptions | None:
        """Session ``index``'s options: its own as-run start (stable prefix, first
        context) with a baseline, else the panel's."""
        return self.baselines[index].options if self.baselines else self.options

    def same(self, other: TuneInputs) -> bool:
        """The same grid: equal scenario and options, the very same turn tuples (the
        turn sources memoise them, so a redraw hands the same tuple)."""
        return (
            len(self.sessions) == len(other.sessions)
            and all(
                a[0] == b[0] and a[1] is b[1]
                for a, b in zip(self.sessions, other.sessions, strict=True)
            )
            and self.unreadable == other.unreadable
            and self.options == other.options
            and (self.runtime, self.runtime_s) == (other.runtime, other.runtime_s)
            and _at_own_point_of(self.scenario, other.scenario) == other.scenario
        )


def _at_own_point_of(scenario: Scenario, other: Scenario) -> Scenario:
    """``scenario`` with ``other``'s K and S (valid values: they are ``other``'s)."""
    k, s = other.config.trigger_tokens, other.config.summary_max_tokens
    if (scenario.config.trigger_tokens, scenario.config.summary_max_tokens) == (k, s):
        return scenario
    config = dataclasses.replace(scenario.config, trigger_tokens=k, summary_max_tokens=s)
    return dataclasses.replace(scenario, config=config)


def session_panels(replay: ReplayPanel) -> tuple[ReplayPanel, ...]:
    """One replay panel per session: the chosen source, or every session of an import."""
    if replay.source != "log" or len(replay.logs) <= 1:
        return (replay,)
    return tuple(dataclasses.replace(replay, log_index=i) for i in range(len(replay.logs)))


def inputs_of(
    scenario: Scenario,
    replay: ReplayPanel,
    picked: Picked = NONE_PICKED,
    sessions: Sessions | None = None,
    runtime: str = "",
) -> TuneInputs | tuple[Problem, ...] | None:
    made = _inputs_of(scenario, replay, picked, sessions)
    if not isinstance(made, TuneInputs) or runtime in ("", "article"):
        return made
    return dataclasses.replace(made, runtime=runtime, runtime_s=_runtime_s(runtime, scenario))


def _runtime_s(runtime: str, scenario: Scenario) -> int | None:
    """The scenario's S where ``runtime`` has no summary cap of its own (its grid's S)."""
    from budgetcore.runtimes import profile  # noqa: PLC0415

    try:
        capped = profile(runtime).summary_cap(None) is not None
    except ScenarioError:
        return None
    return None if capped else scenario.config.summary_max_tokens


def _inputs_of(
    scenario: Scenario,
    replay: ReplayPanel,
    picked: Picked = NONE_PICKED,
    sessions: Sessions | None = None,
) -> TuneInputs | tuple[Problem, ...] | None:
    """The grid's inputs from the replay panel's turn source: None while a replay
    field the source uses is invalid (the panel waits), the source's problems when it
    has no turn at all. With a log or folder, every session of the import. ``sessions``:
    the turns made last time, the very same tuples while their sources are unchanged."""
    if source_waits(replay):
        return None
    options = options_of(replay, picked)
    panels = session_panels(replay)
    _key, sources = session_turns(panels, sessions)
    if len(sources) == 1:
        (source,) = sources
        if source.error:
            return source.error
        name = replay.log_name if replay.source == "log" else replay.source
        bases = _baselines(panels, picked)
        return TuneInputs(scenario, ((name, source.turns),), options, baselines=bases)
    sessions_ = []
    unreadable = []
    usable = []
    for panel, log, source in zip(panels, replay.logs, sources, strict=True):
        if source.error:
            unreadable.append((log.name, source.error))
        else:
            sessions_.append((log.name, source.turns))
            usable.append(panel)
    if not sessions_:
        return tuple(p for _, problems in unreadable for p in problems)
    bases = _baselines(tuple(usable), picked)
    return TuneInputs(scenario, tuple(sessions_), options, tuple(unreadable), bases)


def _baselines(panels: tuple[ReplayPanel, ...], picked: Picked) -> tuple[Baseline, ...]:
    """Each session's as-run baseline (docs/spec.md §17), or none at all when a session
    has none: a sum of deltas over some sessions and absolute costs over the others
    would be of no one scope."""
    from budgetcore.tune.whatif import Baseline  # noqa: PLC0415

    out = []
    for panel in panels:
        chosen, log = panel.chosen, panel.log
        if panel.source != "log" or chosen is None or chosen.as_run is None or log is None:
            return ()
        if not log.main.requests:
            return ()
        # The panel's backtest, which leaves out what another session of the import
        # bills (replay.logs.session.billed_once), as `tune --log FOLDER`'s does: each
        # response billed once in Tune's as-run line and in every what-if. Each
        # session's own start (its stable prefix and first context), as its replay in
        # the panel has it: options_of reads the chosen session's log.
        out.append(Baseline(log, chosen.as_run, options_of(panel, picked), chosen.excluded))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class TuneJob:
    """A grid under way: sessions are prepared and replayed in order; ``counts`` holds
    the points done of the session ``session`` (``prepared[session]``), ``grids`` every
    finished session's grid."""

    inputs: TuneInputs
    ks: tuple[int, ...]
    ss: tuple[int, ...]
    prepared: tuple[Session, ...] = ()
    not_replayed: tuple[tuple[str, tuple[Problem, ...]], ...] = ()
    session: int = 0  # the next session to prepare or replay
    counts: tuple[PointCounts, ...] = ()
    grids: tuple[GridMeasures, ...] = ()
    # With baselines: after a session's grid, each point's what-if on its as-run
    # baseline (``what_ifs``: the points done of this session), summed over the
    # finished sessions in ``costs`` (one per point; () before the first).
    what_ifs: tuple[WhatIf | None, ...] = ()
    costs: tuple[PointCost, ...] = ()
    in_what_if: bool = False  # the session's grid is done; its what-ifs run
    # With a runtime: its knob's values as (K, S) points (the grid is their K × S, only
    # these points a setting), or why that runtime cannot be tuned (the grid is then
    # the article's K × S, and the panel says so).
    axis: RuntimeAxis | None = None
    axis_problems: tuple[Problem, ...] = ()

    @property
    def points(self) -> int:
        return len(self.ks) * len(self.ss)

    @property
    def _passes(self) -> int:
        return 2 if self.inputs.baselines else 1

    @property
    def total(self) -> int:
        """Points to replay over every session, what-ifs included (a session that
        cannot be prepared counts none once it is known)."""
        sessions = len(self.inputs.sessions) - len(self.not_replayed)
        return self.points * sessions * self._passes

    @property
    def done(self) -> int:
        finished = len(self.grids) - (1 if self.in_what_if else 0)
        return (
            self.points * finished * self._passes
            + len(self.counts)
            + (self.points + len(self.what_ifs) if self.in_what_if else 0)
        )

    @property
    def point_costs(self) -> tuple[PointCost, ...] | None:
        """Each point's what-if summed over the sessions (docs/spec.md §17), once the
        grid is finished; None without baselines."""
        if not self.inputs.baselines or not self.finished or not self.costs:
            return None
        return self.costs

    @property
    def finished(self) -> bool:
        return self.session >= len(self.inputs.sessions)


@dataclass(frozen=True, slots=True)
class TunePanel:
    open: bool = False
    texts: Mapping[str, str] = field(default_factory=dict)
    values: Mapping[str, object] = field(default_factory=dict)
    issues: Mapping[str, Problem] = field(default_factory=dict)
    job: TuneJob | None = None
    error: tuple[Problem, ...] = ()  # why there is no grid (the scenario refused it)
    focus: int = -1  # the point last focused: the maps' tab stop (-1: none)
    hover: int = -1  # the point under the pointer, shown until a focus moves (-1: none)
    # Derived by update (:func:`derived`), read by the steps and the view: the sessions'
    # turns (made once per change of their sources), the grid's inputs, and a finished
    # grid's result under the scenario and the constraints (``result_for``: those).
    sessions: Sessions | None = field(default=None, compare=False)
    inputs: TuneInputs | tuple[Problem, ...] | None = field(default=None, compare=False)
    result: TuneResult | None = field(default=None, compare=False)
    result_for: object = None

    @property
    def stale(self) -> bool:
        return bool(self.issues)


def with_texts(panel: TunePanel, updates: Mapping[str, str]) -> TunePanel:
    """Set constraint texts, each through :func:`parse_field_text`. The grid stays: a
    constraint only changes which point is chosen."""
    texts, values, issues = dict(panel.texts), dict(panel.values), dict(panel.issues)
    for path, text in updates.items():
        if path not in TUNE_FIELDS:
            continue
        texts[path] = text
        try:
            values[path] = parse_field_text(path, text)
            issues.pop(path, None)
        except IssueError as exc:
            issues[path] = exc.issue
    return dataclasses.replace(panel, texts=texts, values=values, issues=issues)


def initial_tune() -> TunePanel:
    """A new panel. A quality field holds no text until it is typed in: untouched, it is
    the choice's default (:func:`constraints_of`), whose value the panel shows."""
    return with_texts(
        TunePanel(), {p: f.default for p, f in TUNE_FIELDS.items() if f.default is not None}
    )


def constraints_of(panel: TunePanel) -> Constraints:
    from budgetcore.tune.choice import Constraints  # noqa: PLC0415

    v = panel.values
    unseen, rate = v.get("tune.max_unseen"), v.get("tune.max_runs_per_100")
    # A quality field never typed in keeps the choice's default; one typed "off" or
    # empty is None, switched off.
    default = Constraints()
    gens = v.get("tune.max_generations", default.max_generations)
    ratio = v.get("tune.max_compression", default.max_compression)
    return Constraints(
        no_rejected=v.get("tune.no_rejected") is True,
        max_unseen=unseen if isinstance(unseen, int) else None,
        max_runs_per_100=rate if isinstance(rate, Decimal) else None,
        max_generations=gens if isinstance(gens, int) else None,
        max_compression=ratio if isinstance(ratio, Decimal) else None,
    )


def _cost(session: Session) -> int:
    """A point's cost in turn updates (a clock or retries cost about five times more)."""
    return max(1, session.turns) * (TIMED_COST if session.timed else 1)


def _start(inputs: TuneInputs) -> TuneJob:
    from budgetcore.tune.result import default_axes  # noqa: PLC0415
    from budgetcore.tune.runtime_grid import runtime_grid  # noqa: PLC0415

    if inputs.runtime:
        try:
            axis = runtime_grid(inputs.runtime, inputs.scenario)
        except ScenarioError as exc:
            ks, ss = default_axes(inputs.scenario)
            return TuneJob(inputs, ks, ss, axis_problems=tuple(exc.problems))
        return TuneJob(inputs, axis.ks, axis.ss, axis=axis)
    ks, ss = default_axes(inputs.scenario)
    return TuneJob(inputs, ks, ss)


def _advance(job: TuneJob, budget: int) -> TuneJob:
    """The job after one slice: sessions prepared, points replayed and (with a
    baseline) each point's what-if made, in order, until ``budget`` turn updates are
    spent (at least one piece of work)."""
    from budgetcore.replay.engine import point_counts  # noqa: PLC0415
    from budgetcore.replay.prepared import prepare  # noqa: PLC0415
    from budgetcore.tune.measures import from_points  # noqa: PLC0415
    from budgetcore.tune.whatif import PointCost, add_point, point_what_if  # noqa: PLC0415

    prepared, not_replayed = list(job.prepared), list(job.not_replayed)
    counts, grids = list(job.counts), list(job.grids)
    what_ifs, costs, in_what_if = list(job.what_ifs), list(job.costs), job.in_what_if
    index = job.session
    inputs = job.inputs
    sessions = inputs.sessions
    n_s = len(job.ss)
    spent = 0
    while index < len(sessions) and (spent == 0 or spent < budget):
        name, turns = sessions[index]
        if len(prepared) + len(not_replayed) <= index:  # preparing costs about a point
            try:
                prepared.append(prepare(inputs.scenario, turns, inputs.options_of(index), name))
            except ScenarioError as exc:
                not_replayed.append((name, exc.problems))
                index += 1
            spent += max(1, len(turns))
            continue
        session = prepared[-1]
        if in_what_if:
            base = inputs.baselines[index]
            cost = max(1, len(turns)) * WHAT_IF_COST
            reachable = None if job.axis is None else job.axis.reachable
            while len(what_ifs) < job.points and (spent == 0 or spent + cost <= budget):
                i = len(what_ifs)
                k, s = job.ks[i // n_s], job.ss[i % n_s]
                if reachable is not None and (k, s) not in reachable:
                    # No setting of the runtime (pi's off-diagonal): drawn grey, never
                    # a what-if, so none is made (552 of pi's 576 points).
                    what_ifs.append(None)
                    spent += 1
                    continue
                what_ifs.append(point_what_if(base, inputs.scenario, k, s))
                spent += cost
            if len(what_ifs) < job.points:
                break
            before = costs or [PointCost()] * job.points
            costs = [add_point(c, w) for c, w in zip(before, what_ifs, strict=True)]
            what_ifs, in_what_if = [], False
            index += 1
            continue
        cost = _cost(session)
        while len(counts) < job.points and (spent == 0 or spent + cost <= budget):
            i = len(counts)
            counts.append(point_counts(session, job.ks[i // n_s], job.ss[i % n_s]))
            spent += cost
        if len(counts) < job.points:
            break
        grids.append(from_points(session, job.ks, job.ss, counts))
        counts = []
        if inputs.baselines:
            in_what_if = True
            continue
        index += 1
    return dataclasses.replace(
        job,
        prepared=tuple(prepared),
        not_replayed=tuple(not_replayed),
        session=index,
        counts=tuple(counts),
        grids=tuple(grids),
        what_ifs=tuple(what_ifs),
        costs=tuple(costs),
        in_what_if=in_what_if,
    )


def pending(panel: TunePanel, inputs: TuneInputs | tuple[Problem, ...] | None) -> bool:
    """Whether a step would do work: the panel is open, its inputs are usable, and the
    grid is unfinished or for other inputs (then it starts again)."""
    if not panel.open or not isinstance(inputs, TuneInputs):
        return False
    job = panel.job
    return job is None or not job.inputs.same(inputs) or not job.finished


def step(
    panel: TunePanel,
    inputs: TuneInputs | tuple[Problem, ...] | None,
    budget: int = SLICE_TURNS,
) -> TunePanel:
    """One slice of the grid for ``inputs`` (from :func:`inputs_of`): a new job when the
    running one is for other inputs, else its next slice; nothing while it waits."""
    if not pending(panel, inputs):
        return panel
    assert isinstance(inputs, TuneInputs)
    job = panel.job
    if job is None or not job.inputs.same(inputs):
        try:
            job = _start(inputs)
        except ScenarioError as exc:
            return dataclasses.replace(panel, job=None, error=exc.problems)
    return dataclasses.replace(panel, job=_advance(job, budget), error=())


def run_to_end(panel: TunePanel, inputs: TuneInputs, budget: int = SLICE_TURNS) -> TunePanel:
    """Every slice at once (tests and the bench): what the shell gets frame by frame."""
    panel = step(panel, inputs, budget)
    while pending(panel, inputs):
        panel = step(panel, inputs, budget)
    return panel


def result_of(panel: TunePanel, scenario: Scenario) -> TuneResult | None:
    """The finished grid's sum, the scenario's own point, the frontier and the choice
    under the panel's constraints (None while the grid runs, or when no session could
    be replayed). The page keeps it in the panel (:func:`derived`)."""
    job = panel.job
    if job is None or not job.finished or not job.grids:
        return None
    constraints = constraints_of(panel)
    axis = job.axis
    if axis is not None and len(job.ks) * len(job.ss) > len(axis.reachable):
        # pi's reserveTokens moves K and S together: the rest of the product is no
        # setting of it, so never chosen (tune --runtime's rule).
        constraints = dataclasses.replace(constraints, reachable=axis.reachable)
    from budgetcore.tune.engine import grid_of  # noqa: PLC0415
    from budgetcore.tune.result import SessionResult, summarise  # noqa: PLC0415

    own = (scenario.config.trigger_tokens, scenario.config.summary_max_tokens)
    results = [
        SessionResult(s.name, g, grid_of(s, (own[0],), (own[1],), engine="python"))
        for s, g in zip(job.prepared, job.grids, strict=True)
    ]
    failed = (*job.inputs.unreadable, *job.not_replayed)
    results += [SessionResult(name, None, None, problems) for name, problems in failed]
    # With what-ifs the choice ranks their cost, as the cost map shows it (spec §17).
    result = summarise(scenario, results, constraints, job.point_costs)
    return result if axis is None else dataclasses.replace(result, runtime=axis)
