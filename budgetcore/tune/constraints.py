"""The Tune constraints as a person types them (docs/tune.md, "The choice"): one rule
for the CLI's flags (``--max-rejected N|off``, ``--max-unseen N|off``,
``--max-unseen-total N|off``, ``--max-runs-per-100 X|off``, ``--max-generations N|off``,
``--max-compression X|off``) and the page's Tune fields (``tune.*``): every limit takes
``off``, no limit. The values are :class:`budgetcore.tune.choice.Constraints`' own;
this module reads text into them and imports nothing heavy (the page loads it at boot).

A problem is a core rule's (``Problem.page`` with a ``core.*`` key and its parameters,
``messages/problems.py``: a typed text's variant such as ``core.whole-or-off``); the page
says it of the field in the reader's language, and the CLI prints its rule, the same
entry's English (``Problem.rule``).
"""

from __future__ import annotations

from decimal import Decimal
from typing import NoReturn

from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.inputs.numbers import MAX_TOKENS, as_decimal, bound_text, whole_text
from budgetcore.inputs.text import check_size

__all__ = ["KINDS", "constraint_value"]

#: The kinds of constraint text: a switch, a count of tokens, runs per 100 turns, a
#: generation limit (or off), a compression limit X of X:1 (or off).
KINDS = ("bool", "tokens", "rate", "generations", "ratio")

#: Runs per 100 turns: Constraints.max_runs_per_100's range (tune/choice.py, 0 to 100).
_RATE_LOW, _RATE_HIGH, _RATE_PLACES = 0, 100, 6
#: A compression limit X (of X:1): Constraints.max_compression's range.
_RATIO_LOW, _RATIO_HIGH, _RATIO_PLACES = 1, 10**6, 6


def _range(low: int, high: int, places: int) -> tuple[tuple[str, str, bool], ...]:
    return (
        ("low", bound_text(low), False),
        ("high", bound_text(high), False),
        ("places", str(places), False),
    )


def _problem(field: str, code: str, params: tuple[tuple[str, str, bool], ...]) -> NoReturn:
    raise ScenarioError([Problem.page(code, params, (field,))])


def constraint_value(
    field: str, kind: str, text: str, *, plain: bool = False
) -> bool | int | Decimal | None:
    """The value of one constraint's ``text`` (within the size of a field; ``field``
    names it in a problem). None: a limit switched ``off``. ``plain``: a count
    in digits only, as every CLI flag takes it (``inputs.numbers.whole_text``); a
    page field also reads ``1e3``. Raises :class:`ScenarioError` with one problem."""
    check_size(text, "field", field)
    text = text.strip()
    got = ("got", render_value(text), False)
    if kind == "bool":
        if text in ("true", "false"):
            return text == "true"
        _problem(field, "core.bool", (got,))
    # Every limit switches off alike (the sixth walk: the quality limits took "off",
    # the unseen and runs limits refused it), and every refusal says so.
    if text.lower() == "off":
        return None
    if kind in ("tokens", "generations"):
        number = whole_text(text, MAX_TOKENS, plain=plain)
        if number is not None:
            return number
        low, high = ("low", "0", False), ("high", bound_text(MAX_TOKENS), False)
        _problem(field, "core.whole-or-off", (low, high, got))
    if kind == "rate":
        value = as_decimal(text, _RATE_LOW, _RATE_HIGH, _RATE_PLACES)
        if value is None:
            _problem(
                field, "core.decimal-or-off", (*_range(_RATE_LOW, _RATE_HIGH, _RATE_PLACES), got)
            )
        return value
    if kind == "ratio":
        # "10" or "10:1" (spaces around either part are the typist's, not the value's)
        ratio = as_decimal(text.removesuffix(":1").strip(), _RATIO_LOW, _RATIO_HIGH, _RATIO_PLACES)
        if ratio is None:
            _problem(
                field, "core.ratio-or-off", (*_range(_RATIO_LOW, _RATIO_HIGH, _RATIO_PLACES), got)
            )
        return ratio
    raise ValueError(f"no such constraint kind: {kind!r}")  # a programming error
