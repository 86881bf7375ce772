"""A tune over sessions (docs/tune.md): each session's grid (a pure function of the
session, so it runs anywhere: one process, ``--jobs``, a Dask cluster), then their sum,
the scenario's own point, the frontier and the choice.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from budgetcore.core.capacity import main_safe_input
from budgetcore.core.plan import check_scenario
from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem, ScenarioError
from budgetcore.replay.model import ReplayOptions, Turn
from budgetcore.replay.prepared import Session, prepare
from budgetcore.tune.choice import (
    DEFAULT_MAX_GENERATIONS,
    Choice,
    Constraints,
    Costs,
    choose,
    frontier,
    order_key,
    ranked,
)
from budgetcore.tune.engine import ENGINES, grid_of
from budgetcore.tune.grid import check_axis, check_points, default_k, default_s, scenario_at
from budgetcore.tune.measures import GridMeasures, add_grids

if TYPE_CHECKING:
    from budgetcore.tune.whatif import PointCost

__all__ = [
    "SessionResult",
    "TuneResult",
    "default_axes",
    "scenario_at",
    "session_result",
    "summarise",
    "tune",
]


def default_axes(scenario: Scenario) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """docs/spec.md §16's grid for ``scenario``: 24 K from 4,000 to M, 16 S from 1,024 to
    the summary model's O."""
    cfg = scenario.config
    m = main_safe_input(scenario.main_model, cfg.reply_max_tokens, cfg.safety_margin)
    return default_k(m), default_s(scenario.summary_contract.output_tokens)


@dataclass(frozen=True, slots=True)
class SessionResult:
    """One session's grid and its value at the scenario's own K and S, or why it has
    none (``problems``: it could not be read or replayed)."""

    name: str
    grid: GridMeasures | None
    own: GridMeasures | None
    problems: tuple[Problem, ...] = ()


def session_result(
    session: Session,
    ks: Sequence[int],
    ss: Sequence[int],
    own: tuple[int, int],
    engine: str = "auto",
) -> SessionResult:
    """The grid of one prepared session and its own point (a pure function)."""
    return SessionResult(
        session.name,
        grid_of(session, ks, ss, engine=engine),
        grid_of(session, (own[0],), (own[1],), engine="python"),
    )


@dataclass(frozen=True, slots=True)
class TuneResult:
    """The sum over the sessions that could be replayed, and what the grid says.

    ``own`` is the scenario's own (K, S) as a one-point grid (also when the grid holds
    it: ``own_index``); ``less_unseen`` is what the choice trades: the first point in
    the choice's order with fewer unseen tokens that meets the constraints (None when
    none does).
    """

    scenario: Scenario
    grid: GridMeasures
    own: GridMeasures
    own_index: int | None
    constraints: Constraints
    choice: Choice | None
    frontier: tuple[int, ...]
    less_unseen: int | None
    sessions: tuple[str, ...]
    failed: tuple[SessionResult, ...]
    # Each log session's backtest (docs/spec.md §17): (name, measured cost, modelled
    # cost, their ratio, within 5 %, why no baseline or "", the malformed lines that may
    # have carried a bill: the measured cost may be incomplete, the requests another
    # session of the import bills: replay's requests_billed_elsewhere), money as exact
    # decimal text; the CLI fills it.
    backtests: tuple[
        tuple[str, str | None, str | None, str | None, bool | None, str, int, int], ...
    ] = ()
    # The chosen point as exact what-ifs on the log sessions' as-run baselines, summed
    # (the CLI fills it from each point's what-if, made in the grid's pass).
    chosen_what_if: dict[str, Any] | None = None
    # The default generations limit, when no point met it: (the default, the fewest
    # generations a point makes that meets every other constraint, the limit the choice
    # then applied: the larger of that fewest and the scenario's own point's).
    relaxed: tuple[int, int, int] | None = None
    # ``tune --runtime``: the runtime's knob axis (runtimes.tune_axis.RuntimeAxis) whose
    # values the grid's points are; the CLI fills it.
    runtime: Any = None
    # Each point as a what-if on the log sessions' as-run baselines, summed
    # (tune.whatif.PointCost per point, docs/spec.md §17), when every session is a log
    # with a baseline (summarise takes them).
    point_what_ifs: tuple[Any, ...] | None = None
    # The cost the choice and the frontier ranked: each point's what-if cost (the map's
    # figure, None where unknown), or None when the grid's own cost was (no what-ifs,
    # or none known).
    ranked_costs: tuple[Decimal | None, ...] | None = None

    def cost_gap(self, j: int, i: int) -> int | Decimal:
        """Point ``j``'s ranked cost minus point ``i``'s: exact money with what-ifs, else
        in the grid's cost units (money units or billed tokens). Both must be ranked."""
        costs = self.ranked_costs
        if costs is None:
            return self.grid.cost_units(j) - self.grid.cost_units(i)
        a, b = costs[j], costs[i]
        assert a is not None  # only ranked points are compared
        assert b is not None
        return a - b

    def relaxed_note(self, lang: str) -> str | None:
        """The sentence that says the default generations limit was relaxed, and to
        what, in ``lang`` (the catalogue's; the page and the CLI both say it)."""
        if self.relaxed is None:
            return None
        from budgetcore.messages import t  # noqa: PLC0415 - the one catalogue
        from budgetcore.units import format_int  # noqa: PLC0415

        default, fewest, limit = self.relaxed
        return t(
            "tune.binds.relaxed" if limit == fewest else "tune.binds.relaxed-own",
            lang,
            default=format_int(default),
            fewest=format_int(fewest),
            limit=format_int(limit),
            k=format_int(self.own.ks[0]),
            s=format_int(self.own.ss[0]),
            source=t("tune.source.max_generations", lang),
        )

    def none_note(self, lang: str) -> str | None:
        """Why no point is chosen when every point rejects every turn (the always-on
        ``serves_no_turn``: no K or S serves these sessions), in ``lang``; None when a
        point is chosen or some point serves a turn (the count of broken points says
        the rest)."""
        g = self.grid
        if self.choice is not None or not g.points:
            return None
        if any("serves_no_turn" not in self.constraints.broken(g, i) for i in range(g.points)):
            return None
        from budgetcore.messages import t  # noqa: PLC0415 - the one catalogue
        from budgetcore.units import format_int  # noqa: PLC0415

        return t("tune.choice.none-serves", lang, points=format_int(g.points))

    def ties_own_note(self, lang: str) -> str | None:
        """Where the scenario's own K and S tie with the choice on every measure the
        choice ranks (cost, unseen tokens, runs) and break no limit, the sentence that
        says so, in ``lang``: the tie rule (docs/spec.md §16) then takes the smaller K and S,
        which reads as advice to move (the tenth walk: a pi session whose largest
        request is 6,450 tokens was told "K = 6,536, S = 1,024", every point from there
        up costing the same, the scenario's K = 32,000 among them). None otherwise."""
        choice, own, g = self.choice, self.own, self.grid
        if choice is None or not own.known(0) or not g.known(choice.index):
            return None
        i = choice.index
        if (own.ks[0], own.ss[0]) == (choice.k, choice.s) or self.constraints.broken(own, 0):
            return None
        same = (
            g.cost_units(i) == own.cost_units(0)
            and g.columns["unseen_tokens"][i] == own.columns["unseen_tokens"][0]
            and g.summary_calls(i) == own.summary_calls(0)
        )
        if not same:
            return None
        from budgetcore.messages import t  # noqa: PLC0415 - the one catalogue
        from budgetcore.units import format_int  # noqa: PLC0415

        return t("tune.binds.ties-own", lang, k=format_int(own.ks[0]), s=format_int(own.ss[0]))

    def edge_note(self, lang: str) -> str | None:
        """The sentence that says the choice sits on the grid's ends (:attr:`edges`),
        in ``lang`` (the catalogue's; the page and the CLI both say it)."""
        if not self.edges:
            return None
        from budgetcore.messages import t  # noqa: PLC0415 - the one catalogue

        # "smallest K" -> tune.edge.smallest-k: each end in the sentence's language.
        keys = [f"tune.edge.{'-'.join(edge.lower().split())}" for edge in self.edges]
        where = t("msg.list-sep", lang).join(t(key, lang) for key in keys)
        return t("tune.binds.edge", lang, edges=where)

    def at_m_note(self, lang: str) -> str | None:
        """What a chosen K of M (or above) means, in ``lang``; None for any other
        choice. M is the grid's top row: compaction starts only at the limit, which
        the review warns of once it is set (``k-at-or-above-m``). Then, plainly, why it
        was chosen: whether these sessions compact there at all (their largest request
        against K), and, for a runtime whose own default line lies above M (pi's
        reserveTokens 16,384 on any window above about 90,000), that the choice is the
        setting nearest that default which the plan admits (the sixth walk: pi's Tune
        chose K = M and said only the warning)."""
        if self.choice is None:
            return None
        cfg = self.scenario.config
        m = main_safe_input(self.scenario.main_model, cfg.reply_max_tokens, cfg.safety_margin)
        if self.choice.k < m:
            return None
        from budgetcore.messages import t  # noqa: PLC0415 - the one catalogue
        from budgetcore.units import format_int  # noqa: PLC0415

        k, i = self.choice.k, self.choice.index
        said = [t("tune.binds.at-m", lang, k=format_int(k))]
        nearest = self._runtime_default_above(m)
        if nearest is not None:
            title, knob, value, line = nearest
            said.append(
                t(
                    "tune.binds.at-m-runtime",
                    lang,
                    runtime=title,
                    knob=knob,
                    value=value,
                    line=format_int(line),
                )
            )
        runs, peak = self.grid.summary_calls(i), self.grid.columns["peak_full_input"][i]
        if runs == 0 and peak < k:
            said.append(t("tune.binds.at-m-never", lang, peak=format_int(peak)))
        elif runs:
            key = "tune.binds.at-m-runs.one" if runs == 1 else "tune.binds.at-m-runs.other"
            said.append(t(key, lang, n=format_int(runs)))
        return t("msg.sentence-gap", lang).join(said)

    def _runtime_default_above(self, m: int) -> tuple[str, str, str, int] | None:
        """(title, knob, its default as text, the line it gives) of the tuned runtime
        whose default trigger for the scenario's model lies above M; None otherwise."""
        axis = self.runtime
        if axis is None or axis.runtime == "article" or axis.knob.default is None:
            return None
        from budgetcore.runtimes import profile  # noqa: PLC0415 - a runtime was tuned
        from budgetcore.runtimes.tune_axis import value_text  # noqa: PLC0415

        main = self.scenario.main_model
        line = profile(axis.runtime).effective_trigger(
            main.input_tokens, main.output_tokens, None, self.scenario.main_model_name
        )
        if line is None or line <= m:
            return None
        return axis.title, axis.knob.name, value_text(axis.knob, axis.knob.default), line

    @property
    def edges(self) -> tuple[str, ...]:
        """Which ends of the grid the choice sits on ("smallest K", "largest S", ...):
        there the best point may lie beyond the grid (docs/spec.md §17)."""
        if self.choice is None:
            return ()
        cfg = self.scenario.config
        m = main_safe_input(self.scenario.main_model, cfg.reply_max_tokens, cfg.safety_margin)
        # Nothing lies beyond M for K (a trigger at or above M never fires before the
        # request is refused) nor beyond the summary model's O for S: there the grid's end
        # is the scenario's own limit, not the grid's.
        limits = {"K": m, "S": self.scenario.summary_contract.output_tokens}
        # Where the chosen point starts no summary call, its S caps nothing: every S ties,
        # the tie rule takes the smallest (docs/spec.md §13), and no S beyond the grid
        # could do better or worse.
        axes = [("K", self.choice.k, self.grid.ks)]
        if self.grid.summary_calls(self.choice.index):
            axes.append(("S", self.choice.s, self.grid.ss))
        out = []
        for name, value, axis in axes:
            if len(axis) > 1 and value == min(axis):
                out.append(f"smallest {name}")
            if len(axis) > 1 and value == max(axis) and value < limits[name]:
                out.append(f"largest {name}")
        return tuple(out)

    @property
    def above_as_run(self) -> tuple[Decimal, int] | None:
        """Where the chosen point's what-if costs more than the sessions as run: (that
        as-run cost, how many of the grid's points cost less than it, each breaking a
        limit, or none at all). The choice is still the cheapest within the limits, but
        the reader is owed that no point beats what they run (docs/tune.md)."""
        if self.choice is None or not self.point_what_ifs:
            return None
        mine = self.point_what_ifs[self.choice.index]
        if mine.modelled is None or mine.as_run is None or mine.modelled <= mine.as_run:
            return None
        below = sum(
            1 for p in self.point_what_ifs if p.modelled is not None and p.modelled < mine.as_run
        )
        return mine.as_run, below

    def chosen_scenario(self) -> Scenario | None:
        """The scenario with the chosen K and S: what ``export`` writes as the reviewed
        config (docs/spec.md §9)."""
        if self.choice is None:
            return None
        return scenario_at(self.scenario, self.choice.k, self.choice.s)


def _relaxed(
    grid: GridMeasures, constraints: Constraints, own_generations: int, costs: Costs = None
) -> tuple[Constraints, tuple[int, int, int] | None]:
    """A long session summarises often under any K of the article's runtime (a run
    covers at most 64,000 new tokens): when no point makes at most the *default*
    generations, the limit becomes what the scenario's own point makes (its K and S as
    run), or the fewest any point makes that meets every other constraint where that
    is more. So the choice summarises no more often than the session did, and is the
    cheapest such point: relaxing to the fewest alone bought one or two generations
    fewer at any price (K = M on the page's default session, twelve times its own
    point's billed tokens). The result says so (docs/tune.md, "Quality"). A limit the
    user set is never relaxed."""
    limit = constraints.max_generations
    if limit is None or limit != DEFAULT_MAX_GENERATIONS:
        return constraints, None
    others = dataclasses.replace(constraints, max_generations=None)
    fewest = min(
        (
            grid.generations(i)
            for i in range(grid.points)
            if ranked(grid, i, costs) and not others.broken(grid, i)
        ),
        default=None,
    )
    if fewest is None or fewest <= limit:
        return constraints, None
    relaxed = max(fewest, own_generations)
    return dataclasses.replace(constraints, max_generations=relaxed), (limit, fewest, relaxed)


def summarise(
    scenario: Scenario,
    results: Sequence[SessionResult],
    constraints: Constraints,
    point_costs: Sequence[PointCost] | None = None,
) -> TuneResult:
    """Add up the sessions' grids and choose. Sessions without a grid are listed in
    ``failed``, never silently left out; with none at all, the error names them.
    ``point_costs``: each point's what-if on the sessions' as-run baselines, summed
    (docs/spec.md §17): the choice then ranks their cost, the figure the map shows (the
    CLI and the page alike), unless no point's is known."""
    ok = [r for r in results if r.grid is not None and r.own is not None]
    failed = tuple(r for r in results if r.grid is None or r.own is None)
    if not ok:
        # Of several sessions, each problem names its own ("log is empty" 10,000
        # times said of no file).
        named = len(failed) > 1
        problems = [
            dataclasses.replace(p, path=f"{r.name}: {p.path}") if named and r.name else p
            for r in failed
            for p in r.problems
        ] or [Problem.coded("sessions", "no-session")]
        raise ScenarioError(problems)
    grid = add_grids(r.grid for r in ok if r.grid is not None)
    own = add_grids(r.own for r in ok if r.own is not None)
    k0, s0 = own.ks[0], own.ss[0]
    costs = None
    if point_costs is not None:
        costs = tuple(c.modelled for c in point_costs)
        assert len(costs) == grid.points  # one per point, in the grid's order
        if all(c is None for c in costs):
            costs = None  # nothing to rank on: the grid's own cost is
    choice = choose(grid, constraints, costs)
    relaxed = None
    if choice is None:
        constraints, relaxed = _relaxed(grid, constraints, own.generations(0), costs)
        if relaxed is not None:
            choice = choose(grid, constraints, costs)
    less = None
    if choice is not None:
        unseen = grid.columns["unseen_tokens"][choice.index]
        better = [
            i
            for i in range(grid.points)
            if ranked(grid, i, costs)
            and not constraints.broken(grid, i)
            and grid.columns["unseen_tokens"][i] < unseen
        ]
        less = min(better, key=lambda i: order_key(grid, i, costs)) if better else None
    return TuneResult(
        scenario=scenario,
        grid=grid,
        own=own,
        own_index=grid.index(k0, s0),
        constraints=constraints,
        choice=choice,
        frontier=frontier(grid, constraints.reachable, costs),
        less_unseen=less,
        sessions=tuple(r.name for r in ok),
        failed=failed,
        relaxed=relaxed,
        point_what_ifs=None if point_costs is None else tuple(point_costs),
        ranked_costs=costs,
    )


def check_sessions(
    sessions: object,
) -> tuple[tuple[str, Sequence[Turn]], ...]:
    """``sessions`` as :func:`tune` takes them: a list of (name, turns) pairs (the turns
    themselves are checked where they are replayed, as ``replay`` checks them)."""
    if isinstance(sessions, str | bytes) or not isinstance(sessions, Sequence):
        raise ScenarioError([Problem.of("sessions", sessions, "py-sessions")])
    out = []
    for i, item in enumerate(sessions):
        if not (isinstance(item, tuple | list) and len(item) == 2 and isinstance(item[0], str)):
            raise ScenarioError([Problem.of(f"sessions[{i}]", item, "py-session")])
        out.append((item[0], item[1]))
    return tuple(out)


def tune(
    scenario: Scenario,
    sessions: Sequence[tuple[str, Sequence[Turn]]],
    options: ReplayOptions | None = None,
    *,
    ks: Sequence[int] | None = None,
    ss: Sequence[int] | None = None,
    constraints: Constraints | None = None,
    engine: str = "auto",
) -> TuneResult:
    """Every (K, S) of the grid (default: :func:`default_axes`) replayed over every
    session, added up, and the choice. In one process; the CLI spreads sessions over
    processes or a cluster with the same :func:`session_result`.

    Every argument is checked as the CLI checks its flags (docs/python-api.md): a
    misuse is a :class:`ScenarioError` naming the argument, never a wrong result."""
    check_scenario(scenario)
    dk, ds = default_axes(scenario)
    ks = dk if ks is None else check_axis(ks, "ks")
    ss = ds if ss is None else check_axis(ss, "ss")
    check_points(ks, ss)
    if options is not None and not isinstance(options, ReplayOptions):
        raise ScenarioError([Problem.of("options", options, "py-instance", what="ReplayOptions")])
    if constraints is not None and not isinstance(constraints, Constraints):
        raise ScenarioError(
            [Problem.of("constraints", constraints, "py-instance", what="Constraints")]
        )
    if engine not in ENGINES:
        names = tuple(ENGINES)
        raise ScenarioError([Problem.of("engine", engine, "one-of", names=names)])
    sessions = check_sessions(sessions)
    own = (scenario.config.trigger_tokens, scenario.config.summary_max_tokens)
    results = [
        session_result(prepare(scenario, turns, options, name), ks, ss, own, engine)
        for name, turns in sessions
    ]
    return summarise(scenario, results, constraints or Constraints())
