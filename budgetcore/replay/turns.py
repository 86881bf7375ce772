"""Turn sources for a replay (SPEC §12): a seeded generator and JSON Lines turns.

The generator draws integers only (``random.Random(seed)``: ``randint``, ``choice``, a
``randrange`` over integer weights), so no float ever reaches a token count, and the same
seed gives the same turns on every machine and in the page. Draw order per turn:
``added``, then ``required`` and ``output`` when they are distributions, then the burst
draw (one ``randrange`` against the burst rate's exact fraction), then the burst size
when a burst happens.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from budgetcore._exact import ratio
from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.jsonio import json_lines, load_json
from budgetcore.inputs.numbers import MAX_TOKENS
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

#: Named distributions and their parameters.
DISTRIBUTIONS: dict[str, tuple[str, ...]] = {
    "fixed": ("value",),  # always value
    "uniform": ("low", "high"),  # randint(low, high)
    "triangular": ("low", "high"),  # the floor of the mean of two uniform draws: peaks mid-range
    "choice": ("values", "weights"),  # one of values, with optional integer weights
}


@dataclass(frozen=True, slots=True)
class Distribution:
    name: str
    values: tuple[int, ...]  # fixed: (v,); uniform/triangular: (low, high); choice: the values
    weights: tuple[int, ...] | None = None

    def draw(self, rng: random.Random) -> int:
        if self.name == "fixed":
            return self.values[0]
        if self.name == "uniform":
            return rng.randint(self.values[0], self.values[1])
        if self.name == "triangular":
            low, high = self.values
            return (rng.randint(low, high) + rng.randint(low, high)) // 2  # floor
        if self.weights is None:
            return rng.choice(self.values)
        # An integer draw against the cumulative integer weights (random.choices would
        # scale a float).
        pick = rng.randrange(sum(self.weights))
        for value, weight in zip(self.values, self.weights, strict=True):
            if pick < weight:
                return value
            pick -= weight
        raise AssertionError("unreachable: pick < sum(weights)")  # pragma: no cover

    @property
    def needs_draw(self) -> bool:
        return self.name != "fixed"


@dataclass(frozen=True, slots=True, kw_only=True)
class GeneratorSpec:
    turns: int
    seed: int = 0
    added: Distribution
    required: Distribution | None = None  # None: the scenario's F
    output: Distribution | None = None  # None: the scenario's o
    burst_rate: Decimal = Decimal(0)  # chance of a tool-output burst per turn
    burst: Distribution | None = None  # tokens a burst adds on top of ``added``


def generate(spec: GeneratorSpec) -> tuple[Turn, ...]:
    """The turns of ``spec``; the same spec (seed included) gives the same turns."""
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


def _int(
    raw: object, path: str, problems: list[Problem], low: int = 0, high: int = MAX_TOKENS
) -> int:
    value: int | None = None
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = raw
    elif isinstance(raw, Decimal) and raw.is_finite() and raw == raw.to_integral_value():
        value = int(raw)
    if value is None or not low <= value <= high:
        top = "10^12" if high == MAX_TOKENS else f"{high:,}"
        problems.append(Problem.of(path, f"must be an integer from {low} to {top}", raw))
        return low
    return value


def _distribution(raw: object, path: str, problems: list[Problem]) -> Distribution | None:
    if isinstance(raw, int | Decimal) and not isinstance(raw, bool):
        return Distribution("fixed", (_int(raw, path, problems),))
    if not isinstance(raw, dict):
        problems.append(
            Problem.of(
                path,
                'must be an integer or {"dist": NAME, ...} (fixed, uniform, triangular, choice)',
                raw,
            )
        )
        return None
    name = raw.get("dist")
    if name not in DISTRIBUTIONS:
        problems.append(
            Problem.of(f"{path}.dist", f"must be one of {', '.join(DISTRIBUTIONS)}", name)
        )
        return None
    allowed = ("dist", *DISTRIBUTIONS[name])
    for key in raw:
        if key not in allowed:
            problems.append(Problem.of(f"{path}.{key}", f"is not a parameter of {name}", raw[key]))
    before = len(problems)
    if name == "fixed":
        dist = Distribution(name, (_int(raw.get("value"), f"{path}.value", problems),))
    elif name in ("uniform", "triangular"):
        low = _int(raw.get("low"), f"{path}.low", problems)
        high = _int(raw.get("high"), f"{path}.high", problems)
        if len(problems) == before and low > high:
            problems.append(
                Problem(f"{path}.high", f"must be at least {path}.low, got {high:,} < {low:,}")
            )
        dist = Distribution(name, (low, high))
    else:
        values = raw.get("values")
        weights = raw.get("weights")
        if not isinstance(values, list) or not values or len(values) > 1_000:
            problems.append(
                Problem.of(f"{path}.values", "must be a list of 1 to 1,000 integers", values)
            )
            return None
        ints = tuple(_int(v, f"{path}.values[{i}]", problems) for i, v in enumerate(values))
        wts = None
        if weights is not None:
            if not isinstance(weights, list) or len(weights) != len(values):
                problems.append(
                    Problem.of(
                        f"{path}.weights", "must be a list of integers, one per value", weights
                    )
                )
                return None
            wts = tuple(
                _int(w, f"{path}.weights[{i}]", problems, 0, 10**9) for i, w in enumerate(weights)
            )
            if len(problems) == before and not any(wts):
                problems.append(Problem(f"{path}.weights", "must not all be 0"))
        dist = Distribution(name, ints, wts)
    return dist if len(problems) == before else None


def _exponent(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)  # finite
    return exponent


_GENERATOR_KEYS = ("turns", "seed", "added", "required", "output", "burst")


def parse_generator(obj: object) -> GeneratorSpec:
    """``{"turns": 200, "seed": 7, "added": {"dist": "uniform", "low": 1000, "high": 6000},
    "required": 20000, "output": null, "burst": {"rate": "0.05", "tokens": 30000}}``."""
    if not isinstance(obj, dict):
        raise ScenarioError([Problem.of("generate", "must be a JSON object", obj)])
    problems: list[Problem] = []
    for key in obj:
        if key not in _GENERATOR_KEYS:
            problems.append(Problem.of(f"generate.{key}", "is not a generator key", obj[key]))
    if "turns" not in obj:
        problems.append(Problem("generate.turns", "is required"))
    turns = _int(obj.get("turns", 1), "generate.turns", problems, 1, MAX_TURNS)
    seed = _int(obj.get("seed", 0), "generate.seed", problems, 0, 2**63 - 1)
    if "added" not in obj:
        problems.append(Problem("generate.added", "is required"))
    added = _distribution(obj.get("added", 0), "generate.added", problems)
    required = output = None
    if obj.get("required") is not None:
        required = _distribution(obj["required"], "generate.required", problems)
    if obj.get("output") is not None:
        output = _distribution(obj["output"], "generate.output", problems)
    rate = Decimal(0)
    burst = None
    raw_burst = obj.get("burst")
    if raw_burst is not None:
        if not isinstance(raw_burst, dict):
            problems.append(
                Problem.of(
                    "generate.burst", 'must be {"rate": ..., "tokens": ...} or null', raw_burst
                )
            )
        else:
            for key in raw_burst:
                if key not in ("rate", "tokens"):
                    problems.append(
                        Problem.of(f"generate.burst.{key}", "is not a burst key", raw_burst[key])
                    )
            raw_rate = raw_burst.get("rate")
            value: Decimal | None = None
            if isinstance(raw_rate, int | Decimal) and not isinstance(raw_rate, bool):
                value = Decimal(raw_rate)
            elif isinstance(raw_rate, str):
                try:
                    value = Decimal(raw_rate)
                except ArithmeticError:
                    value = None
            if (
                value is None
                or not value.is_finite()
                or not 0 <= value <= 1
                or -_exponent(value) > 30  # a finer rate is not a setting, and stays cheap
            ):
                problems.append(
                    Problem.of(
                        "generate.burst.rate",
                        "must be a decimal from 0 to 1 with at most 30 decimal places, as a "
                        "string or an exact JSON number",
                        raw_rate,
                    )
                )
            else:
                rate = value
            burst = _distribution(raw_burst.get("tokens"), "generate.burst.tokens", problems)
    if problems or added is None:
        raise ScenarioError(problems or [Problem("generate.added", "is required")])
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
    return parse_generator(load_json(text, "generate"))


_TURN_KEYS = (
    "added",
    "required",
    "output",
    "set",
    "billing_recorded",
    "idle_slot",
    "lease_acquired",
)


def _turn(obj: dict[str, Any], where: str, problems: list[Problem]) -> Turn | None:
    before = len(problems)
    for key, value in obj.items():
        if key not in _TURN_KEYS:
            problems.append(Problem.of(f"{where}: {key}", "is not a turn field", value))
    if "added" not in obj:
        problems.append(Problem(f"{where}: added", "is required"))
    added = _int(obj.get("added", 0), f"{where}: added", problems)
    values: dict[str, Any] = {}
    for key in ("required", "output"):
        if obj.get(key) is not None:
            values[key] = _int(obj[key], f"{where}: {key}", problems)
    for key in ("billing_recorded", "idle_slot", "lease_acquired"):
        if obj.get(key) is not None:
            if isinstance(obj[key], bool):
                values[key] = obj[key]
            else:
                problems.append(
                    Problem.of(f"{where}: {key}", "must be true, false or null", obj[key])
                )
    if obj.get("set") is not None:
        values["changes"] = parse_changes(obj["set"], f"{where}: set", problems)
    if len(problems) > before:
        return None
    return Turn(added=added, **values)


def parse_turn_lines(text: str | bytes) -> tuple[tuple[Turn, ...], tuple[Problem, ...]]:
    """Turns as JSON Lines, one object per line: ``{"added": N, "required": N,
    "output": N}``, optionally ``"set": {"config.summary_max_tokens": 8192}`` (supported
    overrides from that turn on) and the background flags ``billing_recorded``,
    ``idle_slot``, ``lease_acquired``. Blank lines and ``#`` comments are skipped.
    Returns the valid turns and one problem per bad line (``line 3: ...``); a file
    without a single valid turn raises."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ScenarioError(
                [Problem("turns", f"must be UTF-8 text (byte {exc.start})")]
            ) from None
    turns: list[Turn] = []
    problems: list[Problem] = []
    for number, obj in json_lines(text):
        where = f"line {number}"
        if isinstance(obj, ScenarioError):
            problems.extend(obj.problems)
            continue
        if not isinstance(obj, dict):
            problems.append(Problem.of(where, "must be a JSON object", obj))
            continue
        turn = _turn(obj, where, problems)
        if turn is not None:
            turns.append(turn)
        if len(turns) > MAX_TURNS:
            raise ScenarioError([Problem("turns", f"must be at most {MAX_TURNS:,} turns")])
    if not turns:
        first = f": {problems[0]}" if problems else ""
        raise ScenarioError([Problem("turns", f"has no usable turn line{first}")])
    return tuple(turns), tuple(problems)
