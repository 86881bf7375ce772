"""Turn sources for a replay (docs/spec.md §12): a seeded generator and JSON Lines turns.

The generator draws integers only (``random.Random(seed)``: ``randint``, ``choice``, a
``randrange`` over integer weights), so no float ever reaches a token count, and the same
seed gives the same turns on every machine and in the page. Draw order per turn:
``added``, then ``required`` and ``output`` when they are distributions, then the burst
draw (one ``randrange`` against the burst rate's exact fraction), then the burst size
when a burst happens.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from budgetcore._exact import ratio
from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.jsonio import json_lines, key_problems, load_json
from budgetcore.inputs.numbers import MAX_SEED, MAX_TOKENS, decimal
from budgetcore.inputs.text import check_size, decode_utf8
from budgetcore.replay.distributions import (
    DISTRIBUTIONS,
    Distribution,
    distribution,
    int_or_low,
)
from budgetcore.replay.model import Turn
from budgetcore.replay.options import parse_changes

__all__ = [
    "DISTRIBUTIONS",
    "MAX_TURNS",
    "Distribution",
    "GeneratorSpec",
    "generate",
    "parse_generator",
    "parse_generator_json",
    "parse_turn_lines",
]

#: The most turns a generator or a file may give: far beyond any real session.
MAX_TURNS = 100_000


@dataclass(frozen=True, slots=True, kw_only=True)
class GeneratorSpec:
    turns: int
    seed: int = 0
    added: Distribution
    required: Distribution | None = None  # None: the scenario's F
    output: Distribution | None = None  # None: the scenario's o
    burst_rate: Decimal = Decimal(0)  # chance of a tool-output burst per turn
    burst: Distribution | None = None  # tokens a burst adds on top of ``added``


@lru_cache(maxsize=2)  # a long session is large: keep the page's current one or two
def generate(spec: GeneratorSpec) -> tuple[Turn, ...]:
    """The turns of ``spec``; the same spec (seed included) gives the same turns.

    Memoised (the result is a tuple of frozen turns): the page replays the generated
    session again on every input, and the same tuple each time lets the replay skip
    re-checking its turns and re-drawing their gaps (``replay.simulate``)."""
    rng = random.Random(spec.seed)
    num, den = ratio(spec.burst_rate)
    out = []
    for _ in range(spec.turns):
        added = spec.added.draw(rng)
        required = None if spec.required is None else spec.required.draw(rng)
        output = None if spec.output is None else spec.output.draw(rng)
        if spec.burst is not None and num and rng.randrange(den) < num:
            added = min(MAX_TOKENS, added + spec.burst.draw(rng))
        out.append(Turn(added=added, required=required, output=output))
    return tuple(out)


_GENERATOR_KEYS = ("turns", "seed", "added", "required", "output", "burst")


def parse_generator(obj: object) -> GeneratorSpec:
    """``{"turns": 200, "seed": 7, "added": {"dist": "uniform", "low": 1000, "high": 6000},
    "required": 20000, "output": null, "burst": {"rate": "0.05", "tokens": 30000}}``."""
    if not isinstance(obj, dict):
        raise ScenarioError([Problem.of("generate", obj, "object")])
    problems = key_problems(obj, "generate", _GENERATOR_KEYS, code="not-generator-key")
    if "turns" not in obj:
        problems.append(Problem.coded("generate.turns", "required"))
    turns = int_or_low(obj.get("turns", 1), "generate.turns", problems, 1, MAX_TURNS)
    seed = int_or_low(obj.get("seed", 0), "generate.seed", problems, 0, MAX_SEED)
    if "added" not in obj:
        problems.append(Problem.coded("generate.added", "required"))
    added = distribution(obj.get("added", 0), "generate.added", problems)
    required = output = None
    if obj.get("required") is not None:
        required = distribution(obj["required"], "generate.required", problems)
    if obj.get("output") is not None:
        output = distribution(obj["output"], "generate.output", problems)
    rate = Decimal(0)
    burst = None
    raw_burst = obj.get("burst")
    if raw_burst is not None:
        if not isinstance(raw_burst, dict):
            problems.append(Problem.of("generate.burst", raw_burst, "burst"))
        else:
            problems += key_problems(
                raw_burst,
                "generate.burst",
                ("rate", "tokens"),
                code="not-burst-key",
            )
            # A finer rate is not a setting, and the exact fraction stays cheap.
            value = decimal(
                raw_burst.get("rate"), "generate.burst.rate", problems, low=0, high=1, places=30
            )
            rate = Decimal(0) if value is None else value
            burst = distribution(raw_burst.get("tokens"), "generate.burst.tokens", problems)
    if problems or added is None:
        raise ScenarioError(problems or [Problem.coded("generate.added", "required")])
    return GeneratorSpec(
        turns=turns,
        seed=seed,
        added=added,
        required=required,
        output=output,
        burst_rate=rate,
        burst=burst,
    )


def parse_generator_json(text: str | bytes) -> GeneratorSpec:
    check_size(text, "generate")
    return parse_generator(load_json(text, "generate"))


_TURN_KEYS = (
    "added",
    "required",
    "output",
    "set",
    "billing_recorded",
    "idle_slot",
    "lease_acquired",
    "gap_ms",
    "time_ms",
    "reply_end_ms",
    "append_ms",
)
#: The most appends one turn may list (a log's lines between two requests).
MAX_APPENDS = 100_000


def _turn(obj: dict[str, Any], number: int, problems: list[Problem]) -> Turn | None:
    where = f"line {number}"
    before = len(problems)
    problems += key_problems(obj, where, _TURN_KEYS, code="not-turn-field", line=number)
    if "added" not in obj:
        problems.append(Problem.coded(f"{where}: added", "required", line=number, key="added"))
    added = int_or_low(obj.get("added", 0), f"{where}: added", problems, line=number)
    values: dict[str, Any] = {}
    for key in ("required", "output"):
        if obj.get(key) is not None:
            values[key] = int_or_low(obj[key], f"{where}: {key}", problems, line=number)
    for key in ("billing_recorded", "idle_slot", "lease_acquired"):
        if obj.get(key) is not None:
            if isinstance(obj[key], bool):
                values[key] = obj[key]
            else:
                problems.append(
                    Problem.of(
                        f"{where}: {key}",
                        obj[key],
                        "bool-or-null",
                        line=number,
                        key=key,
                    )
                )
    if obj.get("set") is not None:
        values["changes"] = parse_changes(obj["set"], f"{where}: set", problems, number)
    for key in ("gap_ms", "time_ms", "reply_end_ms"):
        if obj.get(key) is not None:
            values[key] = int_or_low(obj[key], f"{where}: {key}", problems, line=number)
    appends = obj.get("append_ms")
    if appends is not None:
        if not isinstance(appends, list) or len(appends) > MAX_APPENDS:
            problems.append(
                Problem.of(
                    f"{where}: append_ms",
                    appends,
                    "append-list",
                    high=f"{MAX_APPENDS:,}",
                    line=number,
                    key="append_ms",
                )
            )
        else:
            values["append_ms"] = tuple(
                int_or_low(t, f"{where}: append_ms[{i}]", problems, line=number)
                for i, t in enumerate(appends)
            )
    if "gap_ms" in values and ("time_ms" in values or "reply_end_ms" in values):
        problems.append(Problem.coded(f"{where}: gap_ms", "gap-and-time", line=number))
    if len(problems) > before:
        return None
    return Turn(added=added, **values)


def parse_turn_lines(text: str | bytes) -> tuple[tuple[Turn, ...], tuple[Problem, ...]]:
    """Turns as JSON Lines, one object per line: ``{"added": N, "required": N,
    "output": N}``, optionally ``"set": {"config.summary_max_tokens": 8192}`` (supported
    overrides from that turn on) and the background flags ``billing_recorded``,
    ``idle_slot``, ``lease_acquired``. Blank lines and ``#`` comments are skipped.
    Returns the valid turns and one problem per bad field (``line 3: added ...``); a
    file without a single valid turn raises."""
    check_size(text, "turns")
    if isinstance(text, bytes):
        text = decode_utf8(text, "turns")
    turns: list[Turn] = []
    problems: list[Problem] = []
    for number, obj in json_lines(text):
        if isinstance(obj, ScenarioError):
            problems.extend(_on_line(p, number) for p in obj.problems)
            continue
        if not isinstance(obj, dict):
            problems.append(Problem.of(f"line {number}", obj, "object", line=number))
            continue
        turn = _turn(obj, number, problems)
        if turn is not None:
            turns.append(turn)
        if len(turns) > MAX_TURNS:
            raise ScenarioError([Problem.coded("turns", "too-many-turns", high=f"{MAX_TURNS:,}")])
    if not turns:
        raise ScenarioError([Problem.coded("turns", "no-turns"), *problems])
    return tuple(turns), tuple(problems)


def _on_line(problem: Problem, number: int) -> Problem:
    """A line's JSON problem, located at the line for the page's sentence."""
    return dataclasses.replace(problem, params=(*problem.params, ("line", str(number))))
