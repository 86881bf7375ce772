"""The checks of the public Python API's values (docs/python-api.md): a value built in
Python, not read from a file, is held to the rules its file or flag would be, and a
misuse is a :class:`~budgetcore.errors.ScenarioError` naming the argument as the
caller wrote it (``ReplayOptions.failure_rate``, ``turns[2].added``), never a result
computed from a value the CLI refuses, nor an ``AttributeError`` three calls down.

The problems are the number reader's own (:func:`~budgetcore.inputs.numbers.whole`,
:func:`~budgetcore.inputs.numbers.decimal`), so the rule reads the same everywhere.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.numbers import MAX_TOKENS, as_whole, decimal, whole, whole_problem

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
        if not none:
            whole(value, self._path(name), self.problems, low, high)
        elif value is not None and as_whole(value, low, high) is None:
            # Python's word for it, not JSON's: None
            self.problems.append(whole_problem(self._path(name), value, low, high, "whole-or-none"))

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
        code = "py-bool-or-none" if none else "py-bool"
        self.problems.append(_problem(self._path(name), value, code))

    def instance(self, name: str, value: object, kind: type) -> None:
        """``value`` is a ``kind`` (or None), named by its class as the caller knows it."""
        if value is None or isinstance(value, kind):
            return
        self.problems.append(_problem(self._path(name), value, "py-instance", what=kind.__name__))

    def rule(self, name: str, code: str, got: object = None, /, **params: object) -> None:
        """A rule of the caller's own (``core.<code>``) that ``got`` breaks; no value
        when the rule already shows it."""
        path = self._path(name)
        if got is None:
            self.problems.append(Problem.coded(path, code, **params))
        else:
            self.problems.append(_problem(path, got, code, **params))

    def done(self) -> None:
        if self.problems:
            raise ScenarioError(self.problems)


def _problem(path: str, value: object, code: str, /, **params: object) -> Problem:
    """A value as a problem shows it: as JSON would (a string quoted: ``"no"``), or an
    object of no JSON shape by its type, never its repr's internals."""
    if value is None or isinstance(value, str | int | Decimal | float | list | dict | tuple):
        return Problem.of(path, value, code, **params)
    return dataclasses.replace(
        Problem.coded(path, code, **params), value=f"a {type(value).__name__}"
    )
