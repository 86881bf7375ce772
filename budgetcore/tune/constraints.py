"""The Tune constraints as a person types them (docs/tune.md, "The choice"): one rule
for the CLI's flags (``--max-unseen``, ``--max-unseen-total``, ``--max-runs-per-100``,
``--max-generations N|off``, ``--max-compression X|off``) and the page's Tune fields
(``tune.*``). The values are :class:`budgetcore.tune.choice.Constraints`' own; this
module reads text into them and imports nothing heavy (the page loads it at boot).

A problem carries both sentences: the English rule the CLI prints (``rule``, then
``, got <value>``) and the catalogue code and parameters the page shows in the reader's
language (``messages/tune.py``, ``messages/problems.py``).
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import NoReturn

from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.inputs.numbers import MAX_TOKENS, as_decimal, whole_rule, whole_text
from budgetcore.inputs.text import check_size
from budgetcore.units import format_int

__all__ = ["KINDS", "RATE_RULE", "RATIO_RULE", "constraint_value"]

#: The kinds of constraint text: a switch, a count of tokens, runs per 100 turns, a
#: generation limit (or off), a compression limit X of X:1 (or off).
KINDS = ("bool", "tokens", "rate", "generations", "ratio")

#: Runs per 100 turns: Constraints.max_runs_per_100's range (tune/choice.py, 0 to 100).
_RATE_LOW, _RATE_HIGH, _RATE_PLACES = 0, 100, 6
RATE_RULE = "must be a decimal from 0 to 100 with at most 6 decimal places"
#: A compression limit X (of X:1): Constraints.max_compression's range.
_RATIO_LOW, _RATIO_HIGH, _RATIO_PLACES = 1, 10**6, 6
RATIO_RULE = "must be a ratio X (of X:1) from 1 to 1,000,000 with at most 6 decimal places, or off"


def _problem(
    field: str, rule: str, code: str, params: tuple[tuple[str, str, bool], ...]
) -> NoReturn:
    # Problem.page carries the page's code and parameters; the rule is the CLI's.
    raise ScenarioError([dataclasses.replace(Problem.page(code, params, (field,)), rule=rule)])


def constraint_value(
    field: str, kind: str, text: str, *, plain: bool = False
) -> bool | int | Decimal | None:
    """The value of one constraint's ``text`` (within the size of a field; ``field``
    names it in a problem). None: a quality limit switched ``off``. ``plain``: a count
    in digits only, as every CLI flag takes it (``inputs.numbers.whole_text``); a
    page field also reads ``1e3``. Raises :class:`ScenarioError` with one problem."""
    check_size(text, "field", field)
    text = text.strip()
    got = ("got", render_value(text), False)
    if kind == "bool":
        if text in ("true", "false"):
            return text == "true"
        _problem(field, "must be on or off", "problem.bool", (got,))
    if kind in ("generations", "ratio") and text.lower() == "off":
        return None
    if kind in ("tokens", "generations"):
        number = whole_text(text, MAX_TOKENS, plain=plain)
        if number is not None:
            return number
        if kind == "generations":
            high = ("high", format_int(MAX_TOKENS), False)
            _problem(field, whole_rule(0, MAX_TOKENS), "problem.tune-generations", (high, got))
        params = (
            ("unit", "unit.tokens", True),
            ("low", "0", False),
            ("high", format_int(MAX_TOKENS), False),
            got,
        )
        _problem(field, whole_rule(0, MAX_TOKENS), "problem.whole-range", params)
    if kind == "rate":
        value = as_decimal(text, _RATE_LOW, _RATE_HIGH, _RATE_PLACES)
        if value is None:
            _problem(field, RATE_RULE, "problem.tune-rate", (got,))
        return value
    if kind == "ratio":
        # "10" or "10:1" (spaces around either part are the typist's, not the value's)
        ratio = as_decimal(text.removesuffix(":1").strip(), _RATIO_LOW, _RATIO_HIGH, _RATIO_PLACES)
        if ratio is None:
            _problem(field, RATIO_RULE, "problem.tune-compression", (got,))
        return ratio
    raise ValueError(f"no such constraint kind: {kind!r}")  # a programming error
