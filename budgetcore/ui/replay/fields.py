"""The replay panel's fields (docs/page.md, "Replay"): each typed field's kind, bounds
and path in the CLI's options, the panel's field orders, and the one parser of a typed
field's text (``parse_field_text``), whose problems are the core's rules said of the
field. The panel's state, its sources and its runs are ``ui.replay.state``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from budgetcore.errors import Problem, render_value
from budgetcore.inputs.numbers import (
    DECIMAL_TEXT,
    GROUPED,
    MAX_SEED,
    MAX_TOKENS,
    as_decimal,
    bound_text,
    read_number,
    typed,
    whole_text,
)
from budgetcore.inputs.text import limit_of, utf8_size_above
from budgetcore.ui.form import IssueError, Param, too_large_issue
from budgetcore.units import format_int

if TYPE_CHECKING:  # the replay modules load when the panel first draws, not on boot
    pass

__all__ = [
    "DISTS",
    "GENERATOR_PATHS",
    "LIMIT_PATHS",
    "MAX_PAGE_TURNS",
    "OPTION_PATHS",
    "REPLAY_FIELDS",
    "SET_BY_BACKTEST",
    "SOURCES",
    "TIMING_PATHS",
    "ReplayField",
    "option_issue",
    "parse_field_text",
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
    # "count", "tokens", "seed", "fraction", "dist", "bool", "choice" (one of
    # ``choices``), or "option": a value of the options JSON at ``option`` (keys from
    # "timing" or "retries"), read by the CLI's own parse function
    kind: str
    default: str  # the text the field starts with
    low: int = 0
    high: int = MAX_TOKENS
    nullable: bool = False  # empty means "not set"
    choices: tuple[str, ...] = ()
    option: tuple[str, ...] = ()


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
        # Background timing and retries (docs/spec.md §15): off by default, so the
        # replay is exactly §12's until the box is ticked.
        ReplayField("replay.timing", "bool", "false"),
        ReplayField("replay.duration", "choice", "fixed", choices=("fixed", "rates")),
        ReplayField("replay.fixed_s", "option", "20", option=("timing", "duration", "fixed_s")),
        ReplayField(
            "replay.prefill_rate",
            "option",
            "5,000",
            option=("timing", "duration", "prefill_tokens_per_s"),
        ),
        ReplayField(
            "replay.decode_rate",
            "option",
            "300",
            option=("timing", "duration", "decode_tokens_per_s"),
        ),
        ReplayField("replay.gap", "choice", "uniform", choices=DISTS),
        ReplayField("replay.gap_low", "option", "2,000", option=("timing", "gap_ms", "low")),
        ReplayField("replay.gap_high", "option", "60,000", option=("timing", "gap_ms", "high")),
        ReplayField("replay.gap_seed", "option", "0", option=("timing", "gap_seed")),
        ReplayField(
            "replay.format_failure_rate", "option", "0", option=("retries", "failure_rate")
        ),
        ReplayField(
            "replay.format_failure_seed", "option", "0", option=("retries", "failure_seed")
        ),
        ReplayField("replay.policy", "option", "resend", option=("retries", "policy")),
        ReplayField("replay.max_resends", "option", "10", option=("retries", "max_resends")),
        ReplayField("replay.bill_failed_output", "bool", "true"),
        ReplayField("replay.appends", "choice", "any", choices=("any", "conversation")),
        # The other §15 options, as the options file names them (docs/replay.md).
        ReplayField(
            "replay.breaker_failures", "option", "3", option=("retries", "breaker_failures")
        ),
        ReplayField(
            "replay.round_up_ms",
            "option",
            "",
            nullable=True,
            option=("timing", "duration", "round_up_ms"),
        ),
        ReplayField("replay.run_from", "choice", "reply", choices=("reply", "turn")),
    )
}
#: The options fields besides the generator's, in the order the panel shows them.
OPTION_PATHS = (
    "replay.summary_ratio",
    "replay.failure_rate",
    "replay.failure_seed",
    "replay.cache",
    "replay.stable_prefix",
    "replay.wrapper",
)
#: The options a log's backtest sets for its replay (``replay.whatif.whatif_options``):
#: while it does, their fields are disabled and a note says what it set.
SET_BY_BACKTEST = ("replay.cache", "replay.stable_prefix")
#: The background-timing fields (docs/spec.md §15), in the order the panel shows them.
TIMING_PATHS = (
    "replay.timing",
    "replay.duration",
    "replay.fixed_s",
    "replay.prefill_rate",
    "replay.decode_rate",
    "replay.gap",
    "replay.gap_low",
    "replay.gap_high",
    "replay.gap_seed",
    "replay.format_failure_rate",
    "replay.format_failure_seed",
    "replay.policy",
    "replay.max_resends",
    "replay.bill_failed_output",
    "replay.breaker_failures",
    "replay.round_up_ms",
    "replay.run_from",
    "replay.appends",
)
#: The article's timeouts (model 30 s <= execution 90 s < lease 120 s): the scenario's
#: own limits fields, shown in the timing part too and typed through the main form's
#: one validation path (``ui.form.parse_text`` and the cross-key rules).
LIMIT_PATHS = ("limits.model_timeout_s", "limits.run_timeout_s", "limits.lease_s")
_BY_CLI_PATH = {
    ".".join(("options", *f.option)): f.path for f in REPLAY_FIELDS.values() if f.option
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


def _typed_value(text: str) -> object:
    """What a typed option means as a JSON value would: a number read by the one
    number reader (thousands may be grouped, as in every typed field), else the text
    as a string (which the option's rule then refuses or, for a decimal, reads)."""
    text = typed(text)
    sign, rest = ("-", text[1:]) if text.startswith("-") else ("", text)
    digits = rest.replace(",", "") if GROUPED.fullmatch(rest.split(".", 1)[0]) else rest
    if DECIMAL_TEXT.fullmatch(digits):
        return read_number(sign + digits)  # a sign too, as JSON reads -1: the rule refuses it
    return text


def _option_raw(f: ReplayField, value: object) -> dict[str, Any]:
    """The smallest ``timing`` or ``retries`` object holding ``value`` at the field's
    key, the rest valid, so the CLI's parse function judges this one field alone."""
    section, *keys = f.option
    if section == "retries":
        return {keys[0]: value}
    raw: dict[str, Any] = {"duration": {"fixed_s": 0}}
    if keys[0] == "duration" and keys[1] == "round_up_ms":
        raw["duration"] = {"fixed_s": 0, "round_up_ms": value}
    elif keys[0] == "duration":
        other = {"prefill_tokens_per_s": "decode_tokens_per_s"}
        other |= {v: k for k, v in other.items()}
        raw["duration"] = {keys[1]: value}
        if keys[1] in other:
            raw["duration"][other[keys[1]]] = 1
    elif keys[0] == "gap_ms":
        raw["gap_ms"] = {"dist": "uniform", "low": value, "high": value}
    else:
        raw[keys[0]] = value
    return raw


def _cli_path(f: ReplayField) -> str:
    """The field's key in the options JSON: ``options.timing.duration.fixed_s``."""
    return ".".join(("options", *f.option))


def _page_path(cli_path: str) -> str:
    return _BY_CLI_PATH.get(cli_path, cli_path)


#: A core rule of the options JSON and the same rule said of a typed field: without
#: "as a string or an exact JSON number", which a page field is neither.
_TYPED_RULES = {"decimal": "decimal-typed", "decimal-or-null": "decimal-typed-or-empty"}
#: The same, of a field that may be empty (its null): the JSON's reader checks a null
#: before the rule, so its rule never says "or null" (round_up_ms said only "an integer
#: from 1 to 3,600,000" of a field that starts empty, the eighth walk).
_TYPED_RULES_OR_EMPTY = {"whole": "whole-or-empty", "decimal": "decimal-typed-or-empty"}


def option_issue(problem: Problem, text: str | None = None) -> Problem:
    """A core problem of the timing options as the page's issue: the same rule
    (``core.<code>``, or its typed field's wording) and parameters, the field named by
    its page label, and ``text``, what was typed, as the value it got (the second walk
    of December 2026 saw "got 1E+400" for a typed "1e400", and bounds as
    "1000000000" where every other field groups them)."""
    path = _page_path(problem.path)
    got = _got(text) if text is not None else _got_value(problem.value)
    params: list[Param] = [("where", f"label.{path}", True), got]
    for name, value in problem.params:
        if name == "other":
            params.append((name, f"label.{_page_path(value)}", True))
        elif name in ("low", "high") and value.isdigit():
            params.append((name, format_int(int(value)), False))
        else:
            params.append((name, value, name in ("why", "detail")))
    field = REPLAY_FIELDS.get(path)
    rules = _TYPED_RULES_OR_EMPTY if field is not None and field.nullable else _TYPED_RULES
    code = problem.code if text is None else rules.get(problem.code, problem.code)
    return Problem.page(f"core.{code}", tuple(params), (path,))


def _got_value(value: str | None) -> Param:
    return ("got", "" if value is None else value, False)


def _parse_option(f: ReplayField, text: str) -> object:
    from budgetcore.replay.options import parse_retries, parse_timing  # noqa: PLC0415

    value = _typed_value(text)
    problems: list[Problem] = []
    parse = parse_timing if f.option[0] == "timing" else parse_retries
    parse(_option_raw(f, value), f"options.{f.option[0]}", problems)
    mine = [p for p in problems if p.path == _cli_path(f)]
    if mine:
        raise IssueError(option_issue(mine[0], text))
    assert not problems, problems  # the rest of the object is valid by construction
    return value


def parse_field_text(path: str, text: str) -> object:
    """The value of a replay field's text; raises :class:`IssueError` naming the field."""
    f = REPLAY_FIELDS[path]
    if utf8_size_above(text, limit_of("field")):
        raise IssueError(too_large_issue(path, text))
    text = text.strip()
    if f.kind == "bool":
        if text in ("true", "false"):
            return text == "true"
        raise IssueError(Problem.page("core.bool", (_got(text),), (path,)))
    if f.kind == "dist":
        if text in DISTS:
            return text
        names = ("names", tuple(DISTS), False)
        raise IssueError(Problem.page("core.one-of", (names, _got(text)), (path,)))
    if f.kind == "choice":
        if text in f.choices:
            return text
        names = ("names", tuple(f.choices), False)
        raise IssueError(Problem.page("core.one-of", (names, _got(text)), (path,)))
    if f.nullable and text == "":
        return None
    if f.kind == "option":
        return _parse_option(f, text)
    if f.kind == "fraction":
        value = as_decimal(typed(text), 0, 1, _MAX_PLACES)
        if value is None:
            params: tuple[Param, ...] = (
                ("low", "0", False),
                ("high", "1", False),
                ("places", str(_MAX_PLACES), False),
                _got(text),
            )
            raise IssueError(Problem.page("core.decimal-typed-or-empty", params, (path,)))
        return value
    number = whole_text(text, f.high, plain=True)
    if number is None or number < f.low:
        unit = "unit.tokens" if f.kind == "tokens" else "unit.turns"
        if f.kind == "seed":
            params = (("low", "0", False), ("high", bound_text(MAX_SEED), False), _got(text))
            raise IssueError(Problem.page("core.whole", params, (path,)))
        params = (
            ("unit", unit, True),
            ("low", format_int(f.low), False),
            ("high", format_int(f.high), False),
            _got(text),
        )
        raise IssueError(Problem.page("core.whole-unit", params, (path,)))
    return number
