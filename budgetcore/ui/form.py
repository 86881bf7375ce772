"""The form: each field's label, unit and slider, and the one parse-and-validate step.

Every way a value reaches the page — typing, a slider, a key, a link, an import, an
experiment, a reset — ends in :func:`parse_text` for its field, then in the scenario's
cross-key rules (``budgetcore.scenario.fields.LIMIT_RULES``). A problem is data
(:meth:`budgetcore.errors.Problem.page`: a catalogue code and parameters), the core's
rule (``core.*``, the sentence the CLI prints too) said of the field by its label; its
sentence is rendered in the reader's language by :func:`budgetcore.ui.problems.problem_text`.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, localcontext
from functools import lru_cache

from budgetcore.core.scenario import MAX_MARGIN_PLACES
from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.inputs.numbers import MAX_TOKENS, typed, whole_text
from budgetcore.inputs.text import limit_of, size_text, utf8_size_above
from budgetcore.scenario.fields import SCENARIO_FIELDS, FieldSpec, parse_field
from budgetcore.scenario.parse import parse_average
from budgetcore.units import format_int

__all__ = [
    "AVERAGES",
    "FIELDS",
    "SLIDER_STEPS",
    "FieldUI",
    "Param",
    "format_value",
    "nudge",
    "parse_text",
    "slider_position",
    "slider_value",
    "too_large_issue",
]

SLIDER_STEPS = 1000
#: The two sample averages the samples panel edits like fields (empty = unknown).
AVERAGES = ("samples.tokens_per_message", "samples.messages_per_session")

#: A message parameter: (name, text, whether text is a catalogue key to translate).
Param = tuple[str, str, bool]


@dataclass(frozen=True, slots=True)
class FieldUI:
    """How a field looks: its unit and slider. Labels and hints live in the catalogue
    (``label.<path>``, ``hint.<path>``)."""

    path: str
    kind: str  # tokens | positive | margin | bool | average
    nullable: bool
    unit: str  # a ``unit.*`` catalogue key
    low: int  # slider stop 1 (log) ; the valid minimum is stop 0
    high: int  # last slider stop; the field itself takes anything the rule allows
    log: bool = True
    empty: str = ""  # ``hint`` key saying what an empty nullable field means

    @property
    def minimum(self) -> int:
        return 1 if self.kind == "positive" else 0


_RANGES: dict[str, tuple[int, int]] = {
    "input_tokens": (1_000, 10_000_000),
    "output_tokens": (256, 1_000_000),
    "config.trigger_tokens": (1_000, 10_000_000),
    "config.summary_max_tokens": (256, 1_000_000),
    "config.reply_max_tokens": (256, 1_000_000),
    "workload.summary_instruction_tokens": (100, 1_000_000),
    "workload.previous_summary_tokens": (100, 1_000_000),
    "limits.directory_sessions_read": (1, 100_000),
    "limits.raw_records_read": (1, 1_000_000),
    "limits.directory_page_size": (1, 10_000),
    "limits.message_page_size": (1, 100_000),
    "limits.raw_bson_bytes": (1_024, 1_073_741_824),
    "limits.full_read_ms": (10, 600_000),
    "limits.single_query_ms": (10, 600_000),
    "limits.raw_bson_batch": (1, 10_000),
    "limits.tool_result_tokens": (100, 1_000_000),
    "limits.recall_calls_per_request": (1, 100),
    "limits.recall_pack_tokens": (100, 1_000_000),
    "limits.recall_slice_code_points": (100, 1_000_000),
    "limits.background_runs_per_process": (1, 100),
    "limits.model_timeout_s": (1, 3_600),
    "limits.run_timeout_s": (1, 3_600),
    "limits.lease_s": (1, 3_600),
}


def _ui(spec: FieldSpec) -> FieldUI:
    name = spec.path.split(".", 1)[1]
    low, high = _RANGES.get(spec.path) or _RANGES.get(name) or (100, 10_000_000)
    # The field's own unit (scenario.fields), as a catalogue key; a yes/no has none.
    unit = "unit." + (spec.unit or "tokens").replace(" ", "-")
    if spec.kind == "margin":
        # Hundredths from 0.00 to 0.99: both ends are valid margins (m < 1).
        return FieldUI(spec.path, "margin", False, unit, 0, 99, log=False)
    empty = f"hint.{spec.path}" if spec.nullable else ""
    return FieldUI(spec.path, spec.kind, spec.nullable, unit, low, high, empty=empty)


FIELDS: dict[str, FieldUI] = {s.path: _ui(s) for s in SCENARIO_FIELDS}
FIELDS.update(
    {
        p: FieldUI(p, "average", True, "unit.tokens" if "tokens" in p else "unit.records", 1, 1)
        for p in AVERAGES
    }
)
_SPECS = {s.path: s for s in SCENARIO_FIELDS}

# ------------------------------------------------------------------ typed text


def _got(text: str) -> Param:
    return ("got", render_value(text), False)


def _range_issue(ui: FieldUI, text: str) -> Problem:
    params: tuple[Param, ...] = (
        ("unit", ui.unit, True),
        ("low", format_int(ui.minimum), False),
        ("high", format_int(MAX_TOKENS), False),
        _got(text),
    )
    if ui.nullable:
        return Problem.page(
            "core.whole-unit-or-empty", (*params, ("empty", ui.empty, True)), (ui.path,)
        )
    return Problem.page("core.whole-unit", params, (ui.path,))


def too_large_issue(path: str, text: str) -> Problem:
    """The issue of a typed ``text`` above a field's size limit (``inputs.text``
    ``SIZE_LIMITS["field"]``, every typed field's, a seed's too): its size in UTF-8
    bytes stands for the value, which is too long to quote."""
    limit = limit_of("field")
    params: tuple[Param, ...] = (
        ("size", format_int(len(text.encode("utf-8", "surrogatepass"))), False),
        ("limit", size_text(limit), False),
        ("bytes", format_int(limit), False),
    )
    return Problem.page("core.too-large-unread", params, (path,))


def parse_text(path: str, text: str) -> object:
    """The value a person typed into ``path``; raises :class:`IssueError`."""
    ui = FIELDS[path]
    if utf8_size_above(text, limit_of("field")):
        raise IssueError(too_large_issue(path, text))
    text = text.strip()
    if ui.kind == "average":
        try:
            return parse_average(typed(text) or None, path)
        except ScenarioError:
            params = (("high", format_int(MAX_TOKENS), False), _got(text))
            raise IssueError(Problem.page("core.average-typed", params, (path,))) from None
    if ui.kind == "bool":
        if text in ("true", "false"):
            return text == "true"
        raise IssueError(Problem.page("core.bool", (_got(text),), (path,)))
    if ui.nullable and text == "":
        return None
    if ui.kind == "margin":
        try:
            return parse_field(_SPECS[path], typed(text))
        except ScenarioError:
            params = (("places", str(MAX_MARGIN_PLACES), False), _got(text))
            raise IssueError(Problem.page("core.margin-typed", params, (path,))) from None
    value = whole_text(text)
    if value is None or value < ui.minimum:
        raise IssueError(_range_issue(ui, text))
    return value


class IssueError(ValueError):
    """Raised by :func:`parse_text` with the problem to show by the field."""

    def __init__(self, issue: Problem) -> None:
        super().__init__(issue.code)
        self.issue = issue


def format_value(path: str, value: object) -> str:
    """The text a field shows for a valid value: full integers with separators."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return format_int(value)
    return str(value)


# ------------------------------------------------------------------ sliders


def _nice(value: Decimal) -> int:
    """Round to 3 significant digits so slider stops read as round numbers."""
    with localcontext() as ctx:
        ctx.prec = 3
        return int(+value)


@lru_cache(maxsize=8192)
def _log_stop(ui: FieldUI, position: int) -> int:
    # Stop 1 is ui.low and the last stop is ui.high, evenly spaced in log space. Slider
    # stops are coarse by design (the field beside it takes any integer); the ends are
    # exact and valid.
    if position <= 1:
        return ui.low
    if position >= SLIDER_STEPS:
        return ui.high
    with localcontext() as ctx:
        ctx.prec = 30
        lo, hi = Decimal(ui.low).ln(), Decimal(ui.high).ln()
        return _nice(((hi - lo) * (position - 1) / (SLIDER_STEPS - 1) + lo).exp())


def slider_max(path: str) -> int:
    ui = FIELDS[path]
    return ui.high if not ui.log else SLIDER_STEPS


def slider_value(path: str, position: int) -> object:
    """The value of a slider stop. Stop 0 is the field's valid minimum (0 tokens, or 1
    where zero is not allowed); every stop is a valid value."""
    ui = FIELDS[path]
    position = max(0, min(slider_max(path), position))
    if not ui.log:  # the margin, in hundredths
        return Decimal(position) / 100 if position else Decimal(0)
    return ui.minimum if position == 0 else _log_stop(ui, position)


@lru_cache(maxsize=4096)
def slider_position(path: str, value: object) -> int:
    """The stop nearest ``value`` (values beyond the slider's range sit at its ends)."""
    ui = FIELDS[path]
    if value is None:
        return 0
    if not ui.log:
        assert isinstance(value, Decimal)
        return max(0, min(ui.high, int(value * 100)))
    assert isinstance(value, int)
    if value <= ui.minimum and value < ui.low:
        return 0
    if value <= ui.low:
        return 1
    if value >= ui.high:
        return SLIDER_STEPS
    with localcontext() as ctx:
        ctx.prec = 30
        lo, hi = Decimal(ui.low).ln(), Decimal(ui.high).ln()
        guess = int((Decimal(value).ln() - lo) / (hi - lo) * (SLIDER_STEPS - 1)) + 1
    candidates = range(max(1, guess - 1), min(SLIDER_STEPS, guess + 1) + 1)
    return min(candidates, key=lambda i: abs(_log_stop(ui, i) - value))


def nudge(path: str, value: object, steps: int) -> object:
    """ArrowUp/ArrowDown in a number field: one step of about 1 % of the value's order of
    magnitude (a power of ten; 0.01 for the margin), ``steps`` times, within the valid
    range (a nudge past an end stays at the end)."""
    ui = FIELDS[path]
    if ui.kind == "margin":
        assert isinstance(value, Decimal)
        moved = value + Decimal(steps) / 100
        return min(max(moved, Decimal(0)), Decimal("0.99"))
    base = value if isinstance(value, int) and not isinstance(value, bool) else ui.minimum
    step = 10 ** max(0, len(str(abs(base))) - 2)
    return min(max(base + steps * step, ui.minimum), MAX_TOKENS)
