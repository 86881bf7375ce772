"""The one exception the library raises for bad input, carrying every problem found."""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal

__all__ = ["NonFinite", "Problem", "ScenarioError", "render_value"]

_MAX_RENDERED = 60


class NonFinite:
    """Stand-in for a number that is never evaluated (JSON ``NaN``/``Infinity``, TOML
    ``inf``, or an absurd exponent or digit count), so validation can name its field."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def render_value(value: object) -> str:
    """Render a received value the way it would look in JSON, shortened to one line."""
    if isinstance(value, NonFinite):
        text = value.text
    elif isinstance(value, Decimal):
        text = str(value)
    elif isinstance(value, bool) or value is None:
        text = json.dumps(value)
    elif isinstance(value, int | str):
        text = json.dumps(value, ensure_ascii=False)
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, default=str)
        except (TypeError, ValueError):
            text = repr(value)
    text = " ".join(text.split()) if "\n" in text else text
    if len(text) > _MAX_RENDERED:
        text = text[: _MAX_RENDERED - 1] + "…"
    return text


@dataclass(frozen=True, slots=True)
class Problem:
    """One invalid field: where it is, which rule it breaks, and what was received."""

    path: str
    rule: str
    value: str | None = None

    @classmethod
    def of(cls, path: str, rule: str, value: object) -> Problem:
        return cls(path, rule, render_value(value))

    def __str__(self) -> str:
        text = f"{self.path} {self.rule}" if self.path else self.rule
        return text if self.value is None else f"{text}, got {self.value}"


class ScenarioError(ValueError):
    """Invalid input. ``problems`` lists every problem found, not only the first."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        if not problems:
            raise ValueError("ScenarioError needs at least one problem")
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__(self.one_line())

    def one_line(self) -> str:
        return "; ".join(str(p) for p in self.problems)
