"""Tune in a runtime's own units (docs/tune.md, "A runtime's knob"): the values of the
one knob that moves a runtime's trigger, each turned into the (K, S) point it means for
a model through the runtime's profile, so that tune's grid replays exactly the settings
the runtime can be given, and the choice is a value of that knob.

Values only: the command line (``tune --runtime``) parses the flag and prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.numbers import decimal_places, read_number
from budgetcore.inputs.text import check_size
from budgetcore.runtimes import profile
from budgetcore.runtimes.model import Knob, Profile, Value

__all__ = [
    "TUNE_KNOBS",
    "KnobPoint",
    "RuntimeAxis",
    "default_token_values",
    "default_values",
    "parse_knob_values",
    "runtime_axis",
    "tune_knob",
    "value_text",
]

#: The knob that moves each runtime's trigger, in its own unit. pi's reserveTokens moves
#: K and S together (S = floor(0.8 × reserveTokens)); the others leave S where it is.
TUNE_KNOBS: dict[str, str] = {
    "article": "config.trigger_tokens",
    "claude-code": "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
    "codex": "model_auto_compact_token_limit",
    "pi": "compaction.reserveTokens",
    "gemini-cli": "model.compressionThreshold",
    "qwen-code": "context.autoCompactThreshold",
    "kimi-cli": "loop_control.compaction_trigger_ratio",
    "goose": "GOOSE_AUTO_COMPACT_THRESHOLD",
    "langchain": "trigger",
    "deepagents": "trigger",
    "openai-agents": "compact_threshold",
    "anthropic-api": "trigger.value",
}
#: Runtimes with no knob that moves the trigger by itself, and why (never a silent grid).
NOT_TUNABLE: dict[str, str] = {
    "cline": "has no threshold setting in v4 (its line is 0.81 × W)",
    "opencode": (
        "moves its line with compaction.reserved only when the model sets limit.input; "
        "without it the line is W − min(O, 32,000)"
    ),
}
#: At most this many knob values (the K axis of tune's grid: MAX_AXIS there).
MAX_VALUES = 200


@dataclass(frozen=True, slots=True)
class KnobPoint:
    """One value of the knob and the point it means: K, the first T that compacts,
    and S, the summary cap (the runtime's own where it sets one)."""

    value: Value
    k: int
    s: int


@dataclass(frozen=True, slots=True)
class RuntimeAxis:
    runtime: str
    title: str
    knob: Knob
    points: tuple[KnobPoint, ...]
    # How S is decided: "runtime" (the runtime's own cap, fixed or tied to the knob) or
    # "scenario" (the runtime has no cap setting: the scenario's S, not settable there).
    summary: str
    never: tuple[Value, ...] = ()  # values at which the runtime never compacts
    # Values whose trigger lies above the main request's safe input M: the runtime would
    # send more than M before it compacts. Off the grid: the replay caps a request at M
    # and drops history unseen there, so such a point reads as a session that never
    # summarises (0 generations, cheap) while the export would write the knob for K = M.
    above: tuple[Value, ...] = ()
    safe_input: int | None = None
    # The model the values were turned into points for (W, O, its name): what the
    # runtime export of a chosen K is written for (:meth:`exported`).
    window: int = 0
    output: int = 0
    model: str | None = None

    @property
    def ks(self) -> tuple[int, ...]:
        return tuple(sorted({p.k for p in self.points}))

    @property
    def ss(self) -> tuple[int, ...]:
        return tuple(sorted({p.s for p in self.points}))

    @property
    def reachable(self) -> frozenset[tuple[int, int]]:
        return frozenset((p.k, p.s) for p in self.points)

    def at(self, k: int, s: int) -> KnobPoint | None:
        """The knob value that gives (K, S); the first of equal ones."""
        return next((p for p in self.points if (p.k, p.s) == (k, s)), None)

    def exported(self, k: int, s: int) -> tuple[str, Value] | None:
        """The setting ``export --runtime`` writes for (K, S) where it is not the grid's
        knob at the grid's value (None where it is, or where (K, S) is no setting): the
        knob with other digits (a fraction or a percentage is exported aimed at the
        middle of K's token, so that the runtime's float product cannot cross an edge,
        docs/runtimes.md "The target", where the grid's round value may lie on one), or
        another key that reaches the same K in whole tokens (Kimi CLI's reserve)."""
        at = self.at(k, s)
        if at is None:
            return None
        from budgetcore.runtimes.export import knob_written  # noqa: PLC0415 - on use only

        settings = knob_written(
            self.runtime, window=self.window, output=self.output, model=self.model, k=k, s=s
        )
        name = self.knob.name
        if not settings or settings.get(name) == _setting(self.knob, at.value):
            return None
        if name in settings:
            return name, settings[name]
        return next(iter(settings.items()))

    def exported_note(self, k: int, s: int, lang: str) -> str | None:
        """What :meth:`exported` finds, as the CLI's note and the page's sentence under
        the choice (one home), in ``lang``; None where the export writes the grid's."""
        written = self.exported(k, s)
        at = self.at(k, s)
        if written is None or at is None:
            return None
        from budgetcore.messages import t  # noqa: PLC0415 - the one catalogue, on use only
        from budgetcore.units import format_int  # noqa: PLC0415

        name, value = written
        other = name != self.knob.name
        return t(
            "tune.knob-exported-other" if other else "tune.knob-exported",
            lang,
            knob=name,
            value=format_int(value) if isinstance(value, int) else value_text(self.knob, value),
            k=format_int(k),
            grid=f"{self.knob.name} = {value_text(self.knob, at.value)}",
        )


def value_text(knob: Knob, value: object) -> str:
    """A knob value in its own unit, as the page and the CLI's notes say it: "85 %",
    "0.75", "190,000"."""
    if knob.unit == "percent":
        return f"{value} %"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def tune_knob(runtime: str) -> tuple[Profile, Knob]:
    """The profile and its tuned knob; a ScenarioError naming ``--runtime`` when the
    runtime has none."""
    p = profile(runtime)
    if p.name in NOT_TUNABLE:
        why = NOT_TUNABLE[p.name]
        problem = Problem.of("--runtime", runtime, "runtime-not-tunable", title=p.title, why=why)
        raise ScenarioError([problem])
    return p, p.knob(TUNE_KNOBS[p.name])


def _setting(knob: Knob, value: Value) -> Value:
    # LangChain's trigger is a ContextSize: a token count is ("tokens", n).
    return ("tokens", value) if knob.unit == "trigger" else value


def parse_knob_values(text: str, knob: Knob) -> tuple[Value, ...]:
    """A comma list of the knob's values in its own unit: whole tokens, a percentage
    with at most two decimals, or a fraction; each within the knob's range. Token lists
    and ranges are parsed by the caller (tune's axis syntax)."""
    check_size(text, "axis", "--knob")
    out: list[Value] = []
    for item in (t.strip() for t in text.split(",")):
        number = read_number(item) if item else None
        places = 2 if knob.unit == "percent" else 6
        ok = isinstance(number, int | Decimal) and not isinstance(number, bool)
        if ok:
            assert isinstance(number, int | Decimal)
            ok = decimal_places(Decimal(number)) <= places
            low, high = knob.low, knob.high
            ok = ok and (low is None or number >= low) and (high is None or number <= high)
            ok = ok and number > 0
        if not ok:
            said = {"knob": knob.name, "unit": knob.unit, "places": places}
            problem = (
                Problem.of("--knob", item, "knob-values", **said)
                if knob.high is None
                else Problem.of(
                    "--knob", item, "knob-values-range", low=knob.low, high=knob.high, **said
                )
            )
            raise ScenarioError([problem])
        assert isinstance(number, int | Decimal)
        out.append(number)
    if len(set(out)) != len(out):
        raise ScenarioError([Problem.of("--knob", text, "knob-repeat")])
    if len(out) > MAX_VALUES:
        raise ScenarioError(
            [
                Problem.of(
                    "--knob",
                    len(out),
                    "knob-many",
                    high=MAX_VALUES,
                )
            ]
        )
    return tuple(sorted(out))  # type: ignore[type-var]


def default_values(knob: Knob, window: int) -> tuple[Value, ...]:
    """A default spread in the knob's own unit (tokens: the caller's log-spaced axis):
    percentages 50 to 95 by 5, fractions 0.50 to 0.95 by 0.05 within the knob's range."""
    if knob.unit == "percent":
        return tuple(range(50, 100, 5))
    steps = [Decimal(n) / 100 for n in range(50, 100, 5)]
    low = Decimal(knob.low) if knob.low is not None else Decimal(0)
    high = Decimal(knob.high) if knob.high is not None else Decimal(1)
    del window
    return tuple(v for v in steps if low <= v <= high)


#: Token knobs that move the trigger down as they grow, each as the value that puts the
#: first compacting T at K on a window W: pi fires at T > W − reserveTokens
#: (compaction.ts:214), so reserveTokens = W + 1 − K. A default spread of K (4,000 to M)
#: is turned into these values, so that the runtime's grid spans the same K as the
#: others' instead of reserves of 4,000 to M (K from W − M up, mostly above M).
_DOWNWARD: dict[str, str] = {"pi": "reserve"}


def default_token_values(runtime: str, window: int, ks: Sequence[int]) -> tuple[int, ...]:
    """The default values of a runtime's token knob for a spread of triggers ``ks``: the
    triggers themselves where the knob is the trigger (Codex's limit), else the values
    that give them (pi's reserve)."""
    if profile(runtime).name in _DOWNWARD:
        return tuple(sorted({window + 1 - k for k in ks if 0 < k <= window}))
    return tuple(ks)


def runtime_axis(
    runtime: str,
    window: int,
    output: int,
    model: str | None,
    *,
    values: Sequence[Value],
    scenario_s: int,
    safe_input: int | None = None,
) -> RuntimeAxis:
    """Each knob value's (K, S) for a model of window W and output O: K is the profile's
    effective trigger with the knob at that value (the rest at their defaults), S the
    runtime's cap where it has one (pi's follows reserveTokens), else the scenario's S
    (named as not settable there). Values at which the runtime never compacts are kept
    aside, never dropped in silence, and so are values whose K lies above
    ``safe_input`` (M) where it is given: pi's small reserveTokens or Claude Code's 95 %
    on a 1,048,576-token window."""
    p, knob = tune_knob(runtime)
    points, never, above = [], [], []
    for value in values:
        settings = {knob.name: _setting(knob, value)}
        k = p.effective_trigger(window, output, settings, model)
        if k is None:
            never.append(value)
            continue
        if safe_input is not None and k > safe_input:
            above.append(value)
            continue
        cap = p.summary_cap(settings) if p.name != "article" else scenario_s
        points.append(KnobPoint(value, k, scenario_s if cap is None else cap))
    summary = "scenario" if p.summary_cap(None) is None or p.name == "article" else "runtime"
    return RuntimeAxis(
        p.name,
        p.title,
        knob,
        tuple(points),
        summary,
        tuple(never),
        tuple(above),
        safe_input,
        window,
        output,
        model,
    )
