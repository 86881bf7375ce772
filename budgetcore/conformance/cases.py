"""Conformance cases (spec §14): scenarios with the plan this controller computes for them.

An agent service's own budget code — in any language — proves it computes what the
reviewed controller computes by reading these cases and comparing its outputs with
each case's ``plan``. The default set is golden, the four experiments (before and
after), designed edge cases and a fixed seeded random set; it ships in the package as
JSON Lines (``budgetcore/data/cases.jsonl``): a header line carrying the format and
its version, then one case per line, ``{"name", "note", "tags", "scenario", "plan"}``.
``scenario`` is the full docs/spec.md §11 input (every key explicit, margins as decimal
strings) and ``plan`` the full output of ``plan(scenario).as_dict()``.

Random scenarios come from ``random.Random(seed)`` alone, through ``getrandbits`` (the
part of the generator Python keeps stable), so a seed gives the same cases everywhere.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from budgetcore._shipped import shipped_bytes
from budgetcore.conformance import MAX_RANDOM_COUNT
from budgetcore.core.contracts import ModelContract
from budgetcore.core.plan import OUTPUT_KEYS, plan
from budgetcore.core.samples import ByteSample, ReadSample, Samples
from budgetcore.core.scenario import Background, Config, Limits, Scenario, Workload
from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.explore.experiments import EXPERIMENTS
from budgetcore.inputs.jsonio import key_path, key_problems, load_json
from budgetcore.inputs.numbers import MAX_SEED, MAX_TOKENS
from budgetcore.inputs.text import check_size, decode_utf8, split_lines
from budgetcore.scenario.dump import scenario_json
from budgetcore.scenario.fragment import to_fragment
from budgetcore.scenario.parse import parse_scenario

__all__ = [
    "DEFAULT_RANDOM_COUNT",
    "DEFAULT_RANDOM_SEED",
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_RANDOM_COUNT",
    "REGENERATE",
    "SHIPPED_CASES",
    "TAGS",
    "Case",
    "CaseFile",
    "Difference",
    "assert_plan_matches",
    "build_cases",
    "case_of",
    "default_cases",
    "designed_cases",
    "dump_cases",
    "parse_cases",
    "plan_differences",
    "random_cases",
    "random_scenario",
    "shipped_cases_text",
]

FORMAT = "budgetcore-cases"
#: Raised when a case's shape changes incompatibly; readers refuse a newer version.
FORMAT_VERSION = 1
#: The seed and size of the random set that ships (docs/spec.md §14, hence 14).
DEFAULT_RANDOM_SEED = 14
DEFAULT_RANDOM_COUNT = 40
#: Where the default set ships inside the package.
SHIPPED_CASES = "data/cases.jsonl"
REGENERATE = "python -m budgetcore cases --out budgetcore/data/cases.jsonl"


@dataclass(frozen=True, slots=True, repr=False)
class Case:
    """One conformance case: a spec §11 scenario and the plan budgetcore computes."""

    name: str
    note: str  # what the case is there to catch
    tags: tuple[str, ...]  # see TAGS
    scenario: Mapping[str, Any]  # docs/spec.md §11 input, every key explicit
    plan: Mapping[str, Any]  # expected output: the docs/spec.md §11 keys, then added keys

    def __repr__(self) -> str:
        # pytest prints the fixture's value in a failure: the name says which case.
        return f"Case({self.name!r}, tags={list(self.tags)!r})"

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "note": self.note,
            "tags": list(self.tags),
            "scenario": self.scenario,
            "plan": self.plan,
        }


@dataclass(frozen=True, slots=True)
class CaseFile:
    """A parsed cases file: its header and its cases, in file order."""

    header: Mapping[str, Any]
    cases: tuple[Case, ...]


#: What a case's tags mean. A runtime that models only part of the spec skips the
#: cases tagged with what it leaves out (``"io" in budget_case.tags``).
TAGS: dict[str, str] = {
    "golden": "spec §10's worked example",
    "experiment": "one side of a spec §10 boundary experiment",
    "edge": "a designed edge case",
    "random": "a seeded random scenario",
    "io": "a runtime protection narrows the prefetch (spec §6-7): needs the samples",
    "samples": "has byte or time samples: the bytes, time and io keys depend on them",
    "summary-model": "the summary model has its own contract",
    "baseline": "a provider usage baseline gives the soft estimate",
}


def case_of(kind: str, name: str, note: str, scenario: Scenario) -> Case:
    result = plan(scenario)
    tags = [kind]
    if result.io.first_binding not in ("token_budget", "history"):
        tags.append("io")
    if scenario.samples != Samples():
        tags.append("samples")
    if scenario.summary_model is not None:
        tags.append("summary-model")
    if scenario.workload.usage_baseline_tokens is not None:
        tags.append("baseline")
    return Case(name, note, tuple(tags), scenario_json(scenario), result.as_dict())


# ------------------------------------------------------------------ designed cases


def _with(scenario: Scenario, section: str, **fields: object) -> Scenario:
    return dataclasses.replace(
        scenario, **{section: dataclasses.replace(getattr(scenario, section), **fields)}
    )


def _model(i: int, o: int, q: bool = True) -> ModelContract:
    return ModelContract(input_tokens=i, output_tokens=o, reserves_output=q)


_BASE = Scenario()
_M = plan(_BASE).main_safe_input  # 936,345: the golden M
_DEEP = _with(_BASE, "workload", history_tokens=3_000_000)  # more history than any cap
_BSON = (ByteSample(812, 3_310), ByteSample(1_500, 6_480))
_ALL_SAMPLES = Samples(
    text=(ByteSample(812, 2_950),),
    bson=_BSON,
    json=(ByteSample(812, 3_620),),
    read=(ReadSample(1_048_576, 38), ReadSample(524_288, 25)),
    query_ms=(9, 21),
    tokens_per_message=Decimal("350"),
    messages_per_session=Decimal("40"),
)


def _samples(**fields: Any) -> Scenario:
    return dataclasses.replace(_DEEP, samples=Samples(**fields))


def designed_cases() -> tuple[Case, ...]:
    """Golden, the four experiments before and after, and the designed edge cases."""
    out = [
        case_of("golden", "golden", "spec §10: the article's worked example (every default)", _BASE)
    ]
    for e in EXPERIMENTS:
        for when, build in (("before", e.before), ("after", e.after)):
            out.append(
                case_of(
                    "experiment",
                    f"experiment-{e.key}-{when}",
                    f"spec §10 boundary experiment {e.key!r}, {when}",
                    build(_BASE),
                )
            )
    edges: list[tuple[str, str, Scenario]] = [
        (
            "margin-0",
            "m = 0: Safe is the whole room",
            _with(_BASE, "config", safety_margin=Decimal(0)),
        ),
        (
            "margin-near-1",
            "m = 0.999: M and C floor to a small remainder",
            _with(_BASE, "config", safety_margin=Decimal("0.999")),
        ),
        (
            "margin-28-places",
            "m with 28 decimal places just below 1: M floors to 0, the request is rejected",
            _with(_BASE, "config", safety_margin=Decimal("0." + "9" * 28)),
        ),
        (
            "margin-one-third",
            "m = 0.3333…: exact fractions, a float would round differently",
            _with(_BASE, "config", safety_margin=Decimal("0." + "3" * 28)),
        ),
        (
            "margin-float-trap",
            "m = 0.55 over a room of 1,000,000: exactly 450,000; binary floats give 449,999",
            _with(
                dataclasses.replace(_BASE, main_model=_model(1_008_192, 65_536)),
                "config",
                safety_margin=Decimal("0.55"),
            ),
        ),
        (
            "margin-float-trap-small",
            "m = 0.3 over a room of 90: exactly 63; binary floats give 62",
            _with(
                dataclasses.replace(_BASE, main_model=_model(8_282, 65_536)),
                "config",
                safety_margin=Decimal("0.3"),
            ),
        ),
        (
            "margin-floor-boundary",
            "m = 0.15: (1 - m) × room is not a whole number; budgets floor",
            _with(_BASE, "config", safety_margin=Decimal("0.15")),
        ),
        (
            "k-above-m",
            "K above M: the trigger can never be reached by an admitted request",
            _with(_BASE, "config", trigger_tokens=2_000_000),
        ),
        (
            "k-zero",
            "K = 0: every request reaches the trigger",
            _with(_BASE, "config", trigger_tokens=0),
        ),
        (
            "k-equals-full-input",
            "full input exactly K: reached (>=)",
            _with(_BASE, "config", trigger_tokens=36_000),
        ),
        (
            "k-one-above-full-input",
            "full input one below K: not reached",
            _with(_BASE, "config", trigger_tokens=36_001),
        ),
        (
            "s-above-o",
            "S configured above the summary model's O: S is clamped to O",
            _with(_BASE, "config", summary_max_tokens=100_000),
        ),
        (
            "s-zero",
            "S = 0: G = 0, every previous summary needs a recompress",
            _with(_BASE, "config", summary_max_tokens=0),
        ),
        (
            "previous-summary-above-s",
            "previous summary > S: recompress, new raw 0, c does not move",
            _with(_BASE, "workload", previous_summary_tokens=9_000),
        ),
        (
            "previous-summary-equals-s",
            "previous summary = S: no recompress",
            _with(_BASE, "workload", previous_summary_tokens=8_192),
        ),
        (
            "f-above-m",
            "F one above M: raw space 0, rejected even with no history",
            _with(_BASE, "workload", required_tokens=_M + 1, history_tokens=0),
        ),
        (
            "f-equals-m",
            "F = M: admitted, the summary is dropped (F + A > M), raw space 0",
            _with(_BASE, "workload", required_tokens=_M),
        ),
        (
            "f-plus-a-equals-m",
            "F + A = M: the summary just fits, raw space 0",
            _with(_BASE, "workload", required_tokens=_M - 6_000),
        ),
        (
            "tiny-window",
            "I = 1, O = 1: M = 0 and every request is rejected",
            dataclasses.replace(_BASE, main_model=_model(1, 1)),
        ),
        (
            "window-equals-reply",
            "I = o with q = 1: no room at all",
            dataclasses.replace(_BASE, main_model=_model(8_192, 8_192)),
        ),
        (
            "small-window-q0",
            "q = 0: the reply budget is not reserved inside the window",
            dataclasses.replace(_BASE, main_model=_model(32_768, 8_192, False)),
        ),
        (
            "huge-window",
            "I = O = 10^12: the largest valid contract, exact integers throughout",
            _with(
                dataclasses.replace(_BASE, main_model=_model(MAX_TOKENS, MAX_TOKENS)),
                "workload",
                history_tokens=MAX_TOKENS,
                backlog_tokens=MAX_TOKENS,
            ),
        ),
        (
            "reply-above-window",
            "o above I: Safe clamps the room at 0",
            _with(_BASE, "config", reply_max_tokens=2_000_000),
        ),
        (
            "summary-model-different",
            "a smaller summary model with q = 0: C from its own contract, S clamped by its O",
            _with(
                dataclasses.replace(_BASE, summary_model=_model(200_000, 4_096, False)),
                "config",
                summary_max_tokens=8_192,
            ),
        ),
        (
            "summary-model-too-small",
            "a summary model whose C is below instructions + previous summary: new raw budget 0",
            dataclasses.replace(_BASE, summary_model=_model(15_000, 15_000)),
        ),
        (
            "engine-summary-none",
            "the engine sees no summary (A engine = 0) while the loader reserved 6,000",
            _with(_BASE, "workload", engine_summary_tokens=0),
        ),
        (
            "engine-summary-larger",
            "the engine's A is larger than the loader's: the loader read less than fits",
            _with(_BASE, "workload", engine_summary_tokens=12_000, history_tokens=2_000_000),
        ),
        (
            "engine-drops-summary",
            "F + A engine > M: the engine drops the summary; the loader does not read more",
            _with(
                _BASE,
                "workload",
                required_tokens=930_000,
                engine_summary_tokens=7_000,
                history_tokens=2_000_000,
            ),
        ),
        (
            "loader-summary-above-m",
            "A loader > M: the loader's prefetch limit is 0",
            _with(_BASE, "workload", summary_tokens=1_000_000, engine_summary_tokens=6_000),
        ),
        ("history-zero", "no history at all", _with(_BASE, "workload", history_tokens=0)),
        (
            "binding-token-budget",
            "more history than the token budget M - A: the token budget binds first",
            _DEEP,
        ),
        ("backlog-zero", "backlog 0: new raw 0", _with(_BASE, "workload", backlog_tokens=0)),
        (
            "backlog-below-budget",
            "backlog below the new raw budget: new raw = backlog",
            _with(_BASE, "workload", backlog_tokens=5_000),
        ),
        (
            "baseline-reaches-k",
            "a provider baseline plus replay reaches K though the local estimate does not",
            _with(
                _BASE,
                "workload",
                history_tokens=0,
                usage_baseline_tokens=30_000,
                replay_since_baseline_tokens=2_000,
            ),
        ),
        (
            "baseline-below-k",
            "a provider baseline below K wins over a local estimate above it",
            _with(_BASE, "workload", usage_baseline_tokens=20_000, replay_since_baseline_tokens=0),
        ),
        (
            "background-not-idle",
            "trigger reached but no idle slot: the summary will not start",
            _with(_BASE, "background", idle_slot=False),
        ),
        (
            "samples-all",
            "every sample channel and both averages: bytes, time and the I/O rows all known",
            dataclasses.replace(_DEEP, samples=_ALL_SAMPLES),
        ),
        (
            "samples-without-optional",
            "byte samples without averages, reads or queries: records and time unknown",
            _samples(bson=_BSON, text=(ByteSample(1_000, 4_000),)),
        ),
        (
            "samples-zero-bytes",
            "a sample of 0 bytes: a ratio of 0 never divides",
            _samples(bson=(ByteSample(100, 0),), json=(ByteSample(100, 0),)),
        ),
        (
            "binding-raw-bson-bytes",
            "2 MiB of BSON binds first",
            _samples(bson=_BSON),
        ),
        (
            "binding-raw-records-read",
            "the record cap binds first",
            _samples(tokens_per_message=Decimal("350")),
        ),
        (
            "binding-directory-sessions-read",
            "the session cap binds first",
            _samples(tokens_per_message=Decimal("350"), messages_per_session=Decimal("2")),
        ),
        (
            "binding-full-read-ms",
            "the full read time binds first",
            _samples(
                bson=(ByteSample(100, 100),),
                read=(ReadSample(1_000, 10),),
                tokens_per_message=Decimal("350.5"),
                messages_per_session=Decimal("40"),
            ),
        ),
        (
            "binding-single-query-ms",
            "one message page takes longer than the single-query time",
            _with(
                _samples(
                    bson=(ByteSample(100, 100),),
                    read=(ReadSample(100_000, 10),),
                    query_ms=(5,),
                    tokens_per_message=Decimal("350"),
                    messages_per_session=Decimal("40"),
                ),
                "limits",
                single_query_ms=10,
            ),
        ),
        (
            "binding-history",
            "every protection leaves room: all uncovered history is read",
            dataclasses.replace(_BASE, samples=_ALL_SAMPLES),
        ),
        (
            "limits-raised",
            "raised protections with their cross-key rules at the boundary",
            dataclasses.replace(
                _samples(bson=_BSON, tokens_per_message=Decimal("0.5")),
                limits=Limits(
                    raw_bson_bytes=8_388_608,
                    raw_records_read=10_000,
                    message_page_size=10_000,
                    directory_page_size=200,
                    model_timeout_s=90,
                    run_timeout_s=90,
                    lease_s=91,
                ),
            ),
        ),
    ]
    out += [case_of("edge", f"edge-{name}", note, s) for name, note, s in edges]
    return tuple(out)


# ------------------------------------------------------------------ random cases


class _Draw:
    """Draws built on ``getrandbits`` only: stable across Python versions for a seed."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def below(self, n: int) -> int:
        """Uniform in [0, n), by rejection (no modulo bias)."""
        bits = max(1, (n - 1).bit_length())
        while True:
            value = self._rng.getrandbits(bits)
            if value < n:
                return value

    def between(self, low: int, high: int) -> int:
        return low + self.below(high - low + 1)

    def chance(self, num: int, den: int) -> bool:
        return self.below(den) < num

    def pick(self, options: Sequence[Any]) -> Any:
        return options[self.below(len(options))]

    def spread(self, low: int, high: int) -> int:
        """Log-spread in [low, high]: a digit count first, then a value of that size."""
        digits = self.between(len(str(low)), len(str(high)))
        return self.between(
            max(low, 10 ** (digits - 1) if digits > 1 else 0), min(high, 10**digits - 1)
        )

    def tokens(self, high: int, specials: Sequence[int] = ()) -> int:
        if specials and self.chance(1, 4):
            return int(self.pick(specials))
        return self.spread(0, high)


_WINDOWS = (8_192, 32_768, 128_000, 200_000, 262_144, 1_008_192, 1_048_576, 2_000_000)
_OUTPUTS = (4_096, 8_192, 32_000, 64_000, 65_536, 128_000)
# 0.3 and 0.55 are where binary floats floor wrongly (a runtime using float fails).
_MARGINS = ("0", "0.05", "0.1", "0.10", "0.15", "0.2", "0.3", "0.5", "0.55", "0.999")


def _contract(d: _Draw) -> ModelContract:
    i = d.pick(_WINDOWS) if d.chance(2, 3) else d.spread(1, 10_000_000)
    o = d.pick(_OUTPUTS) if d.chance(2, 3) else d.spread(1, 1_000_000)
    return _model(i, o, d.chance(3, 4))


def _nullable(d: _Draw, high: int) -> int | None:
    return None if d.chance(1, 2) else d.tokens(high, (0,))


def _limits(d: _Draw) -> Limits:
    if d.chance(1, 2):
        return Limits()
    records = d.spread(1, 20_000)
    sessions = d.spread(1, 2_000)
    model = d.between(1, 300)
    run = d.between(model, 600)
    return Limits(
        directory_sessions_read=sessions,
        raw_records_read=records,
        directory_page_size=d.between(1, sessions),
        message_page_size=d.between(1, records),
        raw_bson_bytes=d.spread(1, 64 * 1_048_576),
        full_read_ms=d.spread(1, 60_000),
        single_query_ms=d.spread(1, 10_000),
        model_timeout_s=model,
        run_timeout_s=run,
        lease_s=d.between(run + 1, 1_200),
    )


def _byte_samples(d: _Draw) -> tuple[ByteSample, ...]:
    return tuple(
        ByteSample(tokens, d.between(0, tokens * 6))
        for tokens in (d.spread(1, 100_000) for _ in range(d.below(4)))
    )


def _random_samples(d: _Draw) -> Samples:
    if d.chance(1, 3):
        return Samples()

    def average() -> Decimal | None:
        if d.chance(1, 3):
            return None
        return Decimal(d.spread(1, 5_000_000)).scaleb(-d.below(4))

    return Samples(
        text=_byte_samples(d),
        bson=_byte_samples(d),
        json=_byte_samples(d),
        read=tuple(
            ReadSample(d.spread(1, 10_000_000), d.spread(0, 5_000)) for _ in range(d.below(3))
        ),
        query_ms=tuple(d.spread(0, 2_000) for _ in range(d.below(3))),
        tokens_per_message=average(),
        messages_per_session=average(),
    )


def random_scenario(d: _Draw) -> Scenario:
    """One valid scenario: realistic sizes with the edges (0, exact boundaries) mixed in."""
    main = _contract(d)
    summary = None if d.chance(1, 2) else _contract(d)
    margin = d.pick(_MARGINS) if d.chance(2, 3) else f"0.{d.below(10**4):04d}"
    config = Config(
        trigger_tokens=d.tokens(2_000_000, (0, 32_000, 36_000)),
        summary_max_tokens=d.tokens(200_000, (0, 8_192, 16_384, 20_000)),
        safety_margin=Decimal(margin),
        reply_max_tokens=d.tokens(200_000, (0, 8_192, 32_000)),
    )
    workload = Workload(
        required_tokens=d.tokens(1_500_000, (0, 20_000)),
        summary_tokens=d.tokens(50_000, (0, 6_000)),
        engine_summary_tokens=_nullable(d, 50_000),
        history_tokens=d.tokens(5_000_000, (0, 10_000)),
        summary_instruction_tokens=d.tokens(5_000, (0, 1_000)),
        previous_summary_tokens=d.tokens(40_000, (0, 6_000, 8_192, 12_000)),
        backlog_tokens=_nullable(d, 200_000),
        usage_baseline_tokens=_nullable(d, 1_000_000),
        replay_since_baseline_tokens=d.tokens(50_000, (0,)),
    )
    background = Background(
        billing_recorded=d.chance(7, 8), idle_slot=d.chance(7, 8), lease_acquired=d.chance(7, 8)
    )
    return Scenario(
        main_model=main,
        summary_model=summary,
        config=config,
        workload=workload,
        background=background,
        limits=_limits(d),
        samples=_random_samples(d),
    )


def random_cases(count: int, seed: int) -> tuple[Case, ...]:
    """``count`` seeded random cases named ``random-<seed>-<index>``; a seed always gives
    the same cases, and a larger count extends a smaller one. A seed is from 0 to
    2^63 - 1, as every seed (``random.Random`` would draw for -1 what it draws for 1)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be an integer from 0 to 2^63 - 1, got {render_value(seed)}")
    d = _Draw(seed)
    width = max(3, len(str(count - 1)))
    return tuple(
        case_of(
            "random", f"random-{seed}-{i:0{width}d}", f"seeded random scenario (seed {seed})", s
        )
        for i, s in ((i, random_scenario(d)) for i in range(count))
    )


def default_cases() -> tuple[Case, ...]:
    """The set that ships: designed cases and the fixed seeded random set."""
    return designed_cases() + random_cases(DEFAULT_RANDOM_COUNT, DEFAULT_RANDOM_SEED)


def build_cases(random_count: int = 0, seed: int = 0) -> tuple[Case, ...]:
    """The default set, plus ``random_count`` random cases of ``seed`` not already in it."""
    cases = default_cases()
    if random_count:
        names = {c.name for c in cases}
        cases += tuple(c for c in random_cases(random_count, seed) if c.name not in names)
    return cases


# ------------------------------------------------------------------ JSON Lines


def _header(cases: Sequence[Case]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "contract": "spec §14: each line after this one is {name, note, tags, scenario, "
        "plan}; "
        "scenario is the spec §11 input, plan the output of `python -m budgetcore plan`",
        "spec_output_keys": list(OUTPUT_KEYS),
        "tags": TAGS,
        "cases": len(cases),
    }


def _line(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def dump_cases(cases: Sequence[Case]) -> str:
    """The cases as JSON Lines: the header line, then one case per line."""
    lines = [_line(_header(cases)), *(_line(c.to_json_dict()) for c in cases)]
    return "\n".join(lines) + "\n"


def _fail(where: str, code: str, value: object = None, /, **params: object) -> ScenarioError:
    return ScenarioError(
        [
            Problem.of(where, value, code, **params)
            if value is not None
            else Problem.coded(where, code, **params)
        ]
    )


def _plain(value: Any, line: int) -> Any:
    """JSON as plain dicts and lists (load_json's objects remember duplicates); a key
    given twice anywhere is refused, by the one key rule: never silently the last one."""
    try:
        return _copy(value, f"line {line}", line)
    except RecursionError:
        raise _fail(f"line {line}", "nested-deep") from None


def _copy(value: Any, path: str, line: int) -> Any:
    if isinstance(value, dict):
        problems = key_problems(value, path, None, line=line)
        if problems:
            raise ScenarioError(problems[:1])
        return {k: _copy(v, key_path(path, k, line), line) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v, f"{path}[{i}]", line) for i, v in enumerate(value)]
    return value


def parse_cases(text: str | bytes) -> CaseFile:
    """Read a cases file; refuses another format, a newer version, a malformed case or a
    file without a case (a conformance run of zero cases proves nothing)."""
    check_size(text, "cases")
    if isinstance(text, bytes):
        text = decode_utf8(text, "cases")
    lines = [(n, line) for n, line in split_lines(text) if line.strip()]
    if not lines:
        raise _fail("cases", "cases-empty")
    number, first = lines[0]
    header = _plain(load_json(first, f"line {number}"), number)
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise _fail(f"line {number}", "cases-header", header, format=FORMAT)
    version = header.get("format_version")
    if (
        not isinstance(version, int)
        or isinstance(version, bool)
        or not 1 <= version <= FORMAT_VERSION
    ):
        raise _fail(f"line {number}: format_version", "cases-version", version, high=FORMAT_VERSION)
    cases: list[Case] = []
    seen: set[str] = set()
    for number, line in lines[1:]:
        where = f"line {number}"
        obj = _plain(load_json(line, where), number)
        if not isinstance(obj, dict):
            raise _fail(where, "object", obj)
        name = obj.get("name")
        if not isinstance(name, str) or not name:
            raise _fail(f"{where}: name", "cases-name", name)
        if name in seen:
            raise _fail(f"{where}: name", "cases-name-twice", name)
        seen.add(name)
        for key in ("scenario", "plan"):
            if not isinstance(obj.get(key), dict):
                raise _fail(f"{where}: {key}", "object", obj.get(key))
        try:  # a case's scenario is an input like any other: its field named, never run
            parse_scenario(obj["scenario"])
        except ScenarioError as exc:
            problem = exc.problems[0]
            path = f"{where} ({name}): scenario.{problem.path}"
            if len(exc.problems) > 1:  # the first problem's rule, and how many follow
                more = len(exc.problems) - 1
                problem = Problem(
                    path, "and-more", problem.value, (("rule", problem.rule), ("more", str(more)))
                )
            raise ScenarioError([dataclasses.replace(problem, path=path)]) from None
        missing = [k for k in OUTPUT_KEYS if k not in obj["plan"]]
        if missing:
            raise _fail(
                f"{where}: plan",
                "cases-plan-keys",
                None,
                missing=len(missing),
                keys=len(OUTPUT_KEYS),
                names=", ".join(missing[:3]) + (", …" if len(missing) > 3 else ""),
            )
        note = obj.get("note", "")
        tags = obj.get("tags", [])
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise _fail(f"{where}: tags", "cases-tags", tags)
        note = note if isinstance(note, str) else ""
        cases.append(Case(name, note, tuple(tags), obj["scenario"], obj["plan"]))
    declared = header.get("cases")
    if declared is not None and declared != len(cases):
        raise _fail("cases", "cases-count", None, declared=declared, found=len(cases))
    if not cases:
        raise _fail("cases", "cases-none")
    return CaseFile(header, tuple(cases))


def shipped_cases_text() -> str:
    """The cases file inside the installed package (read like a module, never a user file)."""
    return shipped_bytes(SHIPPED_CASES).decode("utf-8")


# ------------------------------------------------------------------ comparing plans

_MISSING: Any = type("_Missing", (), {"__repr__": lambda self: "missing"})()


@dataclass(frozen=True, slots=True)
class Difference:
    """One key where the actual plan differs from the expected one."""

    key: str  # budgetcore's dotted path, e.g. "main_safe_input" or "io[1].tokens"
    theirs: str | None  # the caller's name for it, when a mapping renamed it
    expected: object
    actual: object  # _MISSING when absent

    def __str__(self) -> str:
        label = (
            self.key if self.theirs in (None, self.key) else f"{self.key} (yours: {self.theirs})"
        )
        if self.actual is _MISSING:
            return f"{label}: missing, expected {_show(self.expected)}"
        text = f"{label}: expected {_show(self.expected)}, got {_show(self.actual)}"
        if _is_int(self.expected) and _is_int(self.actual):
            delta = self.actual - self.expected  # type: ignore[operator]
            text += f" ({_grouped(delta, sign=True)})"
        elif isinstance(self.actual, float):
            text += " (a float: the contract is exact integers and booleans)"
        return text


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _grouped(value: int, *, sign: bool = False) -> str:
    """An integer with thousands separators; past Python's int-to-text limit (4,300
    digits) its size instead, so a huge value still fails the assertion that names
    its key rather than the formatting."""
    try:
        return f"{value:+,}" if sign else f"{value:,}"
    except ValueError:
        return (
            f"{'-' if value < 0 else '+' if sign else ''}an integer of {value.bit_length():,} bits"
        )


def _show(value: object) -> str:
    if _is_int(value):
        return _grouped(value)  # type: ignore[arg-type]
    if isinstance(value, float | Decimal):
        return f"{type(value).__name__} {value}"
    return render_value(value)


def _same(expected: object, actual: object) -> bool:
    # bool is an int in Python and 1.0 == 1: compare JSON types as well as values.
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if _is_int(expected):
        return _is_int(actual) and expected == actual
    return type(expected) is type(actual) and expected == actual


def _walk(
    key: str, expected: object, actual: object, out: list[tuple[str, object, object]]
) -> None:
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        for sub in expected:
            _walk(f"{key}.{sub}", expected[sub], actual.get(sub, _MISSING), out)
    elif (
        isinstance(expected, list)
        and isinstance(actual, list | tuple)
        and len(actual) == len(expected)
    ):
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            _walk(f"{key}[{i}]", e, a, out)
    elif actual is _MISSING or not _same(expected, actual):
        out.append((key, expected, actual))


def _as_mapping(actual: object) -> Mapping[str, Any]:
    if isinstance(actual, Mapping):
        return actual
    if dataclasses.is_dataclass(actual) and not isinstance(actual, type):
        return {f.name: getattr(actual, f.name) for f in dataclasses.fields(actual)}
    raise TypeError(
        f"a plan must be a mapping or a dataclass instance, got {type(actual).__name__}"
    )


def plan_differences(
    actual: object,
    expected: Mapping[str, Any],
    *,
    keys: Iterable[str] | None = None,
    names: Mapping[str, str] | None = None,
) -> tuple[tuple[Difference, ...], int]:
    """Every key where ``actual`` differs from ``expected``, and how many keys were compared.

    ``names`` maps the caller's key names to budgetcore's (``{"M": "main_safe_input"}``);
    keys not in it are taken as budgetcore's own. ``keys`` lists the keys to compare
    (each must be present); by default the eighteen docs/spec.md §11 keys, plus every added key
    of the expected plan that ``actual`` also has. Nested objects compare key by key.
    """
    __tracebackhide__ = True  # a misuse is its one-line message, not this frame
    mapping = _names(names, expected)
    ours: dict[str, Any] = {}
    theirs_of: dict[str, str] = {}
    for key, value in _as_mapping(actual).items():
        our = mapping.get(key, key)
        ours[our] = value
        theirs_of[our] = key
    for their, our in mapping.items():
        theirs_of.setdefault(our, their)
    if keys is None:
        wanted = [*OUTPUT_KEYS, *(k for k in expected if k in ours and k not in OUTPUT_KEYS)]
        absent = [k for k in OUTPUT_KEYS if k not in expected]
        if absent:
            raise ValueError(f"the expected plan lacks the spec §11 keys {_listed(absent)}")
    else:
        wanted = _keys(keys, expected)
    raw: list[tuple[str, object, object]] = []
    for key in wanted:
        _walk(key, expected[key], ours.get(key, _MISSING), raw)
    diffs = tuple(
        Difference(path, theirs_of.get(path.split(".")[0].split("[")[0]), exp, act)
        for path, exp, act in raw
    )
    return diffs, len(wanted)


def _listed(items: Iterable[object], most: int = 5) -> str:
    shown = [render_value(x) if not isinstance(x, str) else x for x in items]
    return ", ".join(shown[:most]) + (f" and {len(shown) - most} more" if len(shown) > most else "")


def _names(names: object, expected: Mapping[str, Any]) -> dict[str, str]:
    """``names`` checked: a mapping of the caller's key names to budgetcore's plan keys."""
    if names is None:
        return {}
    if not isinstance(names, Mapping):
        raise TypeError(
            "names must be a mapping of your key names to budgetcore's, such as "
            f"{{'M': 'main_safe_input'}}, got {render_value(names)}"
        )
    for theirs, ours in names.items():
        if not isinstance(theirs, str):
            raise TypeError(
                f"names: the key {render_value(theirs)} must be your key name (a string)"
            )
        if not isinstance(ours, str):
            raise TypeError(
                f"names[{theirs!r}] must be a budgetcore plan key (a string such as "
                f"'main_safe_input'), got {render_value(ours)}"
            )
        if ours not in expected:
            near = difflib.get_close_matches(ours, list(expected), n=3)
            hint = f" (near: {', '.join(near)})" if near else ""
            raise ValueError(f"names[{theirs!r}] = {ours!r} is not a key of the plan{hint}")
    return dict(names)


def _keys(keys: object, expected: Mapping[str, Any]) -> list[str]:
    """``keys`` checked: plan keys to compare, as a list (never one string's letters)."""
    if isinstance(keys, str):
        raise TypeError(f"keys must be a list of plan keys, not one string: use keys=[{keys!r}]")
    if not isinstance(keys, Iterable):
        raise TypeError(f"keys must be a list of plan keys, got {render_value(keys)}")
    wanted = list(keys)
    for i, key in enumerate(wanted):
        if not isinstance(key, str):
            raise TypeError(f"keys[{i}] must be a plan key (a string), got {render_value(key)}")
    unknown = [k for k in wanted if k not in expected]
    if unknown:
        raise ValueError(f"not keys of the expected plan: {_listed(unknown)}")
    if not wanted:
        raise ValueError("keys names no key: a comparison of nothing proves nothing")
    return wanted


def _reproduce(case: Case) -> str:
    try:
        fragment = to_fragment(parse_scenario(case.scenario))
    except ScenarioError:
        return "reproduce: the case's scenario is not valid here (another budgetcore version?)"
    if not fragment:
        return "reproduce: echo '{}' | python -m budgetcore plan -"
    return f"reproduce: python -m budgetcore plan --fragment '#{fragment}'"


def assert_plan_matches(
    actual: object,
    case: Case,
    *,
    keys: Iterable[str] | None = None,
    names: Mapping[str, str] | None = None,
) -> None:
    """Raise AssertionError listing every key where ``actual`` differs from the case's plan.

    ``actual`` is your runtime's output (a mapping or a dataclass); ``names`` maps your
    key names to the docs/spec.md §11 names; ``keys`` limits the comparison to what your runtime
    computes (default: the eighteen docs/spec.md §11 keys, plus added keys you also return).

    >>> case = case_of("golden", "golden", "the worked example", Scenario())
    >>> yours = {**case.plan, "main_safe_input": 936_346}
    >>> assert_plan_matches(yours, case, keys=["main_safe_input"])
    Traceback (most recent call last):
    ...
    AssertionError: case 'golden' differs from budgetcore in 1 of 1 keys
      main_safe_input: expected 936,345, got 936,346 (+1)
      note: the worked example
      reproduce: echo '{}' | python -m budgetcore plan -
    """
    __tracebackhide__ = True  # pytest shows the caller's line, not this one
    if not isinstance(case, Case):
        raise TypeError(
            f"case must be the budget_case fixture's Case, got {type(case).__name__} "
            f"{render_value(case)}"
        )
    diffs, compared = plan_differences(actual, case.plan, keys=keys, names=names)
    if not diffs:
        return
    lines = [f"case {case.name!r} differs from budgetcore in {len(diffs)} of {compared} keys"]
    lines += [f"  {d}" for d in diffs]
    if case.note:
        lines.append(f"  note: {case.note}")
    lines.append(f"  {_reproduce(case)}")
    raise AssertionError("\n".join(lines))
