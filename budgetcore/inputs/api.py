"""The checks of the public Python API's values (docs/python-api.md): a value built in
Python, not read from a file, is held to the rules its file or flag would be, and a
misuse is a :class:`~budgetcore.errors.ScenarioError` naming the argument as the
caller wrote it (``ReplayOptions.failure_rate``, ``turns[2].added``), never a result
computed from a value the CLI refuses, nor an ``AttributeError`` three calls down.

The problems are the number reader's own (:func:`~budgetcore.inputs.numbers.whole`,
:func:`~budgetcore.inputs.numbers.decimal`), so the rule reads the same everywhere.
"""

from __future__ import annotations

from decimal import Decimal

from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.numbers import MAX_TOKENS, decimal, whole

__all__ = ["Checks"]


class Checks:
    """Problems of one value's fields, collected and raised together (every problem at
    once, as the file parsers do). ``owner`` prefixes each field (``Constraints``)."""

    __slots__ = ("owner", "problems")

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self.problems: list[Problem] = []

    def _path(self, name: str) -> str:
        return f"{self.owner}.{name}" if self.owner else name

    def whole(
        self, name: str, value: object, low: int = 0, high: int = MAX_TOKENS, *, none: bool = False
    ) -> None:
        before = len(self.problems)
        whole(value, self._path(name), self.problems, low, high, nullable=none)
        if none and len(self.problems) > before:  # Python's word for it, not JSON's
            p = self.problems[-1]
            self.problems[-1] = Problem(p.path, p.rule.replace(" or null", " or None"), p.value)

    def decimal(
        self,
        name: str,
        value: object,
        low: Decimal | int,
        high: Decimal | int,
        places: int,
        *,
        none: bool = False,
    ) -> None:
        decimal(
            value,
            self._path(name),
            self.problems,
            low=low,
            high=high,
            places=places,
            nullable=none,
            strings=False,
        )

    def flag(self, name: str, value: object, *, none: bool = False) -> None:
        if isinstance(value, bool) or (none and value is None):
            return
        rule = "must be True or False" + (" or None" if none else "")
        self.problems.append(_problem(self._path(name), rule, value))

    def instance(self, name: str, value: object, kind: type | tuple[type, ...], what: str) -> None:
        """``value`` is a ``kind`` (or None): ``what`` says which, as the caller knows it."""
        if value is None or isinstance(value, kind):
            return
        self.problems.append(_problem(self._path(name), f"must be {what} or None", value))

    def rule(self, name: str, rule: str, value: object = None) -> None:
        """A rule of the caller's own wording; no value when the rule already shows it."""
        path = self._path(name)
        self.problems.append(Problem(path, rule) if value is None else _problem(path, rule, value))

    def done(self) -> None:
        if self.problems:
            raise ScenarioError(self.problems)


def _problem(path: str, rule: str, value: object) -> Problem:
    """A value as a problem shows it: as JSON would (a string quoted: ``"no"``), or an
    object of no JSON shape by its type, never its repr's internals."""
    if value is None or isinstance(value, str | int | Decimal | float | list | dict | tuple):
        return Problem.of(path, rule, value)
    return Problem(path, rule, f"a {type(value).__name__}")
