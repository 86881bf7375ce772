"""The page's session replay panel (docs/spec.md §12): its form, its turn source and its replay.

The panel is a value (:class:`ReplayPanel`) inside the page state, changed only by
``budgetcore.ui.state.reduce``. Every field text goes through :func:`parse_field_text`
(an :class:`~budgetcore.ui.form.Issue` by the field on a problem, as in the main form);
the turns and options are then built from the valid values and the scenario on screen.
An imported log is parsed when it is loaded and only its numbers are kept: the text
is never part of the state. The replay itself runs only when the panel is drawn
(:mod:`budgetcore.ui.replay_view`), memoised on (scenario, turns, options).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.inputs.numbers import MAX_SEED, MAX_TOKENS, as_decimal, whole_text
from budgetcore.inputs.text import limit_of, too_large, utf8_size_above
from budgetcore.scenario.model import Scenario
from budgetcore.ui.form import Issue, IssueError, Param, too_large_issue
from budgetcore.units import format_int

if TYPE_CHECKING:  # the replay modules load when the panel first draws, not on boot
    from budgetcore.replay.logs import ParsedLog
    from budgetcore.replay.logs.session import LogModel
    from budgetcore.replay.logs.usage import MeasuredUsage
    from budgetcore.replay.model import Replay, ReplayOptions, Turn
    from budgetcore.replay.turns import GeneratorSpec

__all__ = [
    "DISTS",
    "GENERATOR_PATHS",
    "MAX_PAGE_TURNS",
    "REPLAY_FIELDS",
    "SOURCES",
    "LoadedLog",
    "ReplayField",
    "ReplayPanel",
    "Source",
    "initial_panel",
    "options_of",
    "parse_field_text",
    "run_replay",
    "turns_of",
    "with_log",
    "with_logs",
    "with_texts",
    "with_turn_lines",
]

SOURCES = ("generate", "turns", "log")
DISTS = ("fixed", "uniform", "triangular")
#: The most generated turns the page draws (the CLI takes up to 100,000).
MAX_PAGE_TURNS = 2_000
#: A rate's finest step, as the generator's burst rate and the options' fractions.
_MAX_PLACES = 30


@dataclass(frozen=True, slots=True)
class ReplayField:
    path: str  # "replay.<name>": its label is "label.replay.<name>"
    kind: str  # "count", "tokens", "seed", "fraction", "dist", "bool"
    default: str  # the text the field starts with
    low: int = 0
    high: int = MAX_TOKENS
    nullable: bool = False  # empty means "not set"


REPLAY_FIELDS: dict[str, ReplayField] = {
    f.path: f
    for f in (
        ReplayField("replay.turns", "count", "200", 1, MAX_PAGE_TURNS),
        ReplayField("replay.seed", "seed", "1", 0, MAX_SEED),
        ReplayField("replay.dist", "dist", "uniform"),
        ReplayField("replay.low", "tokens", "1,000"),
        ReplayField("replay.high", "tokens", "9,000"),
        ReplayField("replay.burst_rate", "fraction", "0.05", nullable=True),
        ReplayField("replay.burst_tokens", "tokens", "40,000"),
        ReplayField("replay.summary_ratio", "fraction", "", nullable=True),
        ReplayField("replay.failure_rate", "fraction", "", nullable=True),
        ReplayField("replay.failure_seed", "seed", "0", 0, MAX_SEED),
        ReplayField("replay.cache", "bool", "false"),
        ReplayField("replay.stable_prefix", "tokens", "8,000"),
        ReplayField("replay.wrapper", "tokens", "0"),
    )
}
#: The generator's fields, in the order the panel shows them.
GENERATOR_PATHS = (
    "replay.turns",
    "replay.seed",
    "replay.dist",
    "replay.low",
    "replay.high",
    "replay.burst_rate",
    "replay.burst_tokens",
)


def _got(text: str) -> Param:
    return ("got", render_value(text), False)


def parse_field_text(path: str, text: str) -> object:
    """The value of a replay field's text; raises :class:`IssueError` naming the field."""
    f = REPLAY_FIELDS[path]
    if utf8_size_above(text, limit_of("seed" if f.kind == "seed" else "field")):
        raise IssueError(too_large_issue(path, "seed" if f.kind == "seed" else "field"))
    text = text.strip()
    if f.kind == "bool":
        if text in ("true", "false"):
            return text == "true"
        raise IssueError(Issue("problem.bool", (_got(text),), (path,)))
    if f.kind == "dist":
        if text in DISTS:
            return text
        raise IssueError(Issue("problem.replay-dist", (_got(text),), (path,)))
    if f.nullable and text == "":
        return None
    if f.kind == "fraction":
        value = as_decimal(text, 0, 1, _MAX_PLACES)
        if value is None:
            raise IssueError(Issue("problem.replay-fraction", (_got(text),), (path,)))
        return value
    number = whole_text(text, f.high, plain=True)
    if number is None or number < f.low:
        unit = "unit.tokens" if f.kind == "tokens" else "unit.turns"
        if f.kind == "seed":
            params: tuple[Param, ...] = (("high", "2^63 − 1", False), _got(text))  # MAX_SEED
            raise IssueError(Issue("problem.replay-seed", params, (path,)))
        params = (
            ("unit", unit, True),
            ("low", format_int(f.low), False),
            ("high", format_int(f.high), False),
            _got(text),
        )
        raise IssueError(Issue("problem.whole-range", params, (path,)))
    return number


@dataclass(frozen=True, slots=True)
class Source:
    """What the chosen turn source gave: turns, or why there are none."""

    turns: tuple[Turn, ...] = ()
    problems: tuple[Problem, ...] = ()  # lines skipped (turns or log)
    error: tuple[Problem, ...] = ()  # the source is unusable (no turn at all)


@dataclass(frozen=True, slots=True)
class LoadedLog:
    """One session of an import: its numbers (never its text), or why it is unusable."""

    name: str
    log: ParsedLog | None = None
    error: tuple[Problem, ...] = ()
    measured: MeasuredUsage | None = None
    model: LogModel | None = None  # the log's main model and the scenario it implies


@dataclass(frozen=True, slots=True)
class ReplayPanel:
    open: bool = False
    source: str = "generate"
    texts: Mapping[str, str] = field(default_factory=dict)
    values: Mapping[str, object] = field(default_factory=dict)
    issues: Mapping[str, Issue] = field(default_factory=dict)
    turns_text: str = ""
    pasted: Source = Source()
    logs: tuple[LoadedLog, ...] = ()  # one per session of the import
    log_index: int = 0  # the session the charts replay
    log_not_read: tuple[str, ...] = ()  # files of the import that are not logs
    log_model: bool = True  # the switch: the scenario takes the log's main model
    saved_model: tuple[str, str] | None = None  # I and O texts before the switch took over
    scrub: int = 0  # the scrubbed turn (1-based); 0: the peak turn

    @property
    def stale(self) -> bool:
        return bool(self.issues)

    @property
    def chosen(self) -> LoadedLog | None:
        if not self.logs:
            return None
        return self.logs[min(max(self.log_index, 0), len(self.logs) - 1)]

    @property
    def log(self) -> ParsedLog | None:
        chosen = self.chosen
        return None if chosen is None else chosen.log

    @property
    def log_name(self) -> str:
        chosen = self.chosen
        return "" if chosen is None else chosen.name

    @property
    def log_error(self) -> tuple[Problem, ...]:
        chosen = self.chosen
        return () if chosen is None else chosen.error


def with_texts(panel: ReplayPanel, updates: Mapping[str, str]) -> ReplayPanel:
    """Set field texts, each through :func:`parse_field_text`; plus the one cross rule
    (a range's low at most its high)."""
    texts, values = dict(panel.texts), dict(panel.values)
    issues = {k: v for k, v in panel.issues.items() if k != "replay.high"}
    for path, text in updates.items():
        if path not in REPLAY_FIELDS:
            continue
        texts[path] = text
        try:
            values[path] = parse_field_text(path, text)
            issues.pop(path, None)
        except IssueError as exc:
            issues[path] = exc.issue
    low, high = values.get("replay.low"), values.get("replay.high")
    if (
        values.get("replay.dist") != "fixed"
        and "replay.low" not in issues
        and "replay.high" not in issues
        and isinstance(low, int)
        and isinstance(high, int)
        and low > high
    ):
        params: tuple[Param, ...] = (
            ("low", format_int(low), False),
            ("high", format_int(high), False),
        )
        issues["replay.high"] = Issue("problem.replay-order", params, ("replay.high",))
    return dataclasses.replace(panel, texts=texts, values=values, issues=issues, scrub=0)


def initial_panel() -> ReplayPanel:
    return with_texts(ReplayPanel(), {p: f.default for p, f in REPLAY_FIELDS.items()})


def with_turn_lines(panel: ReplayPanel, text: str) -> ReplayPanel:
    from budgetcore.replay.turns import parse_turn_lines  # noqa: PLC0415

    try:
        turns, problems = parse_turn_lines(text)
        pasted = Source(turns, problems)
    except ScenarioError as exc:
        pasted = Source(error=exc.problems)
    return dataclasses.replace(panel, turns_text=text, pasted=pasted, scrub=0)


def with_log(panel: ReplayPanel, text: str, name: str) -> ReplayPanel:
    """Parse one log file's text; keep its numbers, never the text."""
    return with_logs(panel, ((name, text.encode("utf-8", "surrogatepass")),))


def _load(name: str, files: tuple[tuple[str, bytes], ...]) -> LoadedLog:
    import io  # noqa: PLC0415

    from budgetcore.replay.logs import read_session  # noqa: PLC0415 - only with a log
    from budgetcore.replay.logs.session import log_model  # noqa: PLC0415
    from budgetcore.replay.logs.usage import measured_usage  # noqa: PLC0415

    try:
        log = read_session([(n, io.BytesIO(data)) for n, data in files])
    except ScenarioError as exc:
        return LoadedLog(name, error=exc.problems)
    return LoadedLog(name, log, (), measured_usage(log), log_model(log))


def with_logs(panel: ReplayPanel, files: tuple[tuple[str, bytes], ...]) -> ReplayPanel:
    """Several files or a folder (paths as the picker gives them): one session per
    session file (its subagent files with it), each parsed at once into numbers; the
    bytes are not kept (docs/replay.md, "Folders")."""
    from budgetcore.replay.logs.folder import plan_folder  # noqa: PLC0415

    total = sum(len(data) for _, data in files)
    if total > limit_of("page-log"):
        error = too_large("log", limit_of("page-log")).problems
        logs: tuple[LoadedLog, ...] = (LoadedLog(files[0][0] if files else "", error=error),)
        return dataclasses.replace(panel, logs=logs, log_index=0, log_not_read=(), scrub=0)
    by_name = dict(files)
    names = list(by_name)
    plan = plan_folder(names)
    # A single file of any name is a session (a picked file need not end in .jsonl).
    sessions = plan.sessions or tuple(_session_of(n) for n in names if not n.endswith(".meta.json"))
    not_read = tuple(n for n in plan.not_read if plan.sessions)
    logs = tuple(_load(s.name, tuple((f, by_name[f]) for f in s.files)) for s in sessions)
    return dataclasses.replace(panel, logs=logs, log_index=0, log_not_read=not_read, scrub=0)


def _session_of(name: str) -> Any:
    from budgetcore.replay.logs.folder import SessionFiles  # noqa: PLC0415

    return SessionFiles(name, (name,))


def _generator(values: Mapping[str, object]) -> GeneratorSpec:
    from budgetcore.replay.turns import Distribution, GeneratorSpec  # noqa: PLC0415

    dist = str(values["replay.dist"])
    low, high = values["replay.low"], values["replay.high"]
    assert isinstance(low, int)
    assert isinstance(high, int)
    added = Distribution("fixed", (low,)) if dist == "fixed" else Distribution(dist, (low, high))
    rate = values["replay.burst_rate"]
    burst_tokens = values["replay.burst_tokens"]
    assert isinstance(burst_tokens, int)
    burst = None if not rate else Distribution("fixed", (burst_tokens,))
    turns, seed = values["replay.turns"], values["replay.seed"]
    assert isinstance(turns, int)
    assert isinstance(seed, int)
    return GeneratorSpec(
        turns=turns,
        seed=seed,
        added=added,
        burst_rate=rate if isinstance(rate, Decimal) else Decimal(0),
        burst=burst,
    )


def turns_of(panel: ReplayPanel) -> Source:
    """The chosen source's turns (generator fields must be valid)."""
    if panel.source == "turns":
        if not panel.turns_text.strip() and not panel.pasted.error:  # (refused: emptied)
            return Source(error=(Problem.coded("turns", "is empty", "replay-no-turns"),))
        return panel.pasted
    if panel.source == "log":
        if panel.log_error:
            return Source(error=panel.log_error)
        if panel.log is None:
            return Source(error=(Problem.coded("log", "no file chosen", "replay-no-log"),))
        turns = _log_turns(panel.log)
        if not turns:
            main = panel.log.main
            problem = Problem.coded(
                "log",
                f"has no request on the replayed branch of series {main.name}",
                "log-no-branch-requests",
                series=main.name,
                abandoned=format_int(len(main.abandoned)),
            )
            return Source(error=(problem,))
        return Source(turns, panel.log.skipped)
    return Source(_generated(tuple(panel.values[p] for p in GENERATOR_PATHS), panel))


_TURNS_MEMO: dict[int, tuple[ParsedLog, tuple[Turn, ...]]] = {}


def _log_turns(log: ParsedLog) -> tuple[Turn, ...]:
    """The main series' turns, the same tuple on every redraw (the replay's memo)."""
    hit = _TURNS_MEMO.get(id(log))
    if hit is None or hit[0] is not log:
        if len(_TURNS_MEMO) > 256:
            _TURNS_MEMO.clear()
        hit = _TURNS_MEMO[id(log)] = (log, log.main.turns())
    return hit[1]


def log_prices(panel: ReplayPanel) -> Any:
    """The prices of the log's model when the switch gives the scenario that model."""
    chosen = panel.chosen
    if panel.source != "log" or not panel.log_model or chosen is None or chosen.model is None:
        return None
    res = chosen.model.resolution
    return None if res is None or res.model is None else res.model.prices


_GEN_MEMO: dict[tuple[object, ...], tuple[Turn, ...]] = {}


def _generated(key: tuple[object, ...], panel: ReplayPanel) -> tuple[Turn, ...]:
    hit = _GEN_MEMO.get(key)
    if hit is None:
        from budgetcore.replay.turns import generate  # noqa: PLC0415

        hit = generate(_generator(panel.values))
        _GEN_MEMO.clear()
        _GEN_MEMO[key] = hit
    return hit


def options_of(panel: ReplayPanel) -> ReplayOptions:
    from budgetcore.replay.model import ReplayOptions  # noqa: PLC0415

    v = panel.values
    ratio, rate, seed = (
        v["replay.summary_ratio"],
        v["replay.failure_rate"],
        v["replay.failure_seed"],
    )
    prefix, wrapper = v["replay.stable_prefix"], v["replay.wrapper"]
    assert isinstance(seed, int)
    assert isinstance(prefix, int)
    assert isinstance(wrapper, int)
    return ReplayOptions(
        summary_wrapper_tokens=wrapper,
        summary_ratio=ratio if isinstance(ratio, Decimal) else None,
        failure_rate=rate if isinstance(rate, Decimal) else None,
        failure_seed=seed,
        cache=v["replay.cache"] is True,
        stable_prefix_tokens=prefix,
        main_prices=log_prices(panel),
    )


_REPLAY_MEMO: dict[str, tuple[Scenario, tuple[Turn, ...], ReplayOptions, Replay]] = {}


def run_replay(scenario: Scenario, turns: tuple[Turn, ...], options: ReplayOptions) -> Replay:
    """The replay, memoised on its inputs (one entry: the page shows one replay)."""
    hit = _REPLAY_MEMO.get("last")
    if hit is not None and hit[1] is turns and hit[0] == scenario and hit[2] == options:
        return hit[3]
    from budgetcore.replay.simulate import replay  # noqa: PLC0415

    result = replay(scenario, turns, options)
    _REPLAY_MEMO["last"] = (scenario, turns, options, result)
    return result


def cli_args(panel: ReplayPanel) -> dict[str, Any]:
    """The generator spec and options JSON that make ``python -m budgetcore replay``
    replay what the panel shows (tests compare the two)."""
    v = panel.values
    spec: dict[str, Any] = {"turns": v["replay.turns"], "seed": v["replay.seed"]}
    if v["replay.dist"] == "fixed":
        spec["added"] = v["replay.low"]
    else:
        spec["added"] = {"dist": v["replay.dist"], "low": v["replay.low"], "high": v["replay.high"]}
    if v["replay.burst_rate"]:
        spec["burst"] = {"rate": str(v["replay.burst_rate"]), "tokens": v["replay.burst_tokens"]}
    opts: dict[str, Any] = {
        "summary_wrapper_tokens": v["replay.wrapper"],
        "failure_seed": v["replay.failure_seed"],
        "cache": v["replay.cache"] is True,
        "stable_prefix_tokens": v["replay.stable_prefix"],
    }
    for key, path in (
        ("summary_ratio", "replay.summary_ratio"),
        ("failure_rate", "replay.failure_rate"),
    ):
        if v[path] is not None:
            opts[key] = str(v[path])
    prices = log_prices(panel)
    if prices is not None:
        opts["main_prices"] = {
            k: None if getattr(prices, k) is None else str(getattr(prices, k))
            for k in ("input", "output", "cache_read", "cache_write")
        }
    return {"generate": spec, "options": opts}


__all__ += ["cli_args", "log_prices"]
