"""The one exception the library raises for bad input, carrying every problem found."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

__all__ = [
    "NonFinite",
    "Problem",
    "ScenarioError",
    "WrittenDecimal",
    "render_value",
    "shown_text",
]

_MAX_RENDERED = 60
_MAX_PATH = 80  # paths such as samples.bson[12].tokens stay whole
_MAX_RULE = 240  # rules are ours; this only guards text they quote
#: One-line summaries stop adding problems past this length (a few hundred characters).
_MAX_LINE = 400


class NonFinite:
    """Stand-in for a number that is never evaluated (JSON ``NaN``/``Infinity``, TOML
    ``inf``, or an absurd exponent or digit count), so validation can name its field."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


class WrittenDecimal(Decimal):
    """A number read with an exponent, which keeps the text it was written as: a refusal
    quotes what the user wrote (``1e400``), not Decimal's normal form (``1E+400``). It is
    a Decimal in every other way; arithmetic on it gives plain Decimals, and a copy (which
    goes through ``str``) loses the text, so readers fall back to ``str``."""

    __slots__ = ("text",)
    text: str

    def __new__(cls, text: str) -> WrittenDecimal:
        self = super().__new__(cls, text)
        self.text = text
        return self


def _number_text(value: Decimal | NonFinite) -> str:
    """An exact number as it was written, where that is known."""
    text = getattr(value, "text", None)
    return text if isinstance(text, str) else str(value)


def render_value(value: object) -> str:
    """Render a received value the way it would look in JSON, shortened to one line."""
    if isinstance(value, NonFinite | Decimal):
        text = _number_text(value)
    elif isinstance(value, bool) or value is None:
        text = json.dumps(value)
    elif isinstance(value, str):
        # Only the start is ever shown: never re-encode a 10 MB string to cut it.
        text = json.dumps(value[: _MAX_RENDERED + 1], ensure_ascii=False)
    elif isinstance(value, int):
        try:
            text = str(value)
        except ValueError:  # beyond Python's int-to-text digit limit
            text = f"an integer of {value.bit_length():,} bits"
    else:
        try:
            text = _container_text(value)
        except (TypeError, ValueError):
            text = repr(value)
        except RecursionError:  # nested deeper than the encoder goes
            text = _nested_start(value)
    return _shorten(text)


def _container_text(value: object) -> str:
    """A list or object as JSON, its exact numbers (Decimal, a NonFinite's text) written
    as the numbers they were, not as strings: {"a": 0.5}, never {"a": "0.5"}."""
    numbers: dict[str, str] = {}

    def default(item: object) -> object:
        if isinstance(item, Decimal | NonFinite):
            mark = f"\x00{id(numbers)}:{len(numbers)}\x00"  # a NUL is escaped in JSON
            numbers[json.dumps(mark)] = _number_text(item)
            return mark
        return str(item)

    text = json.dumps(value, ensure_ascii=False, default=default)
    for mark, number in numbers.items():
        text = text.replace(mark, number, 1)
    return text


def _nested_start(value: object) -> str:
    """The start of a value nested too deeply to encode: its first items, one level at
    a time, as far as a message shows (``{"a": {"a": {"a": …``)."""
    parts: list[str] = []
    for _ in range(_MAX_RENDERED):
        if isinstance(value, dict) and value:
            key, value = next(iter(value.items()))
            parts.append("{" + json.dumps(str(key)[:_MAX_RENDERED], ensure_ascii=False) + ": ")
        elif isinstance(value, list) and value:
            parts.append("[")
            value = value[0]
        else:
            break
    return "".join(parts) + "…"


def shown_text(text: str) -> str:
    """``text`` with each unprintable character escaped, as a quoted value is shown: a
    lone surrogate (JSON "\\ud800", a non-UTF-8 file name) cannot be written to a UTF-8
    stream or a page, and a bidirectional override or a zero-width character would show
    the value as other than it is ("\\u202e123" read "321", the fifth walk).

    >>> print(shown_text("\u202e123"), shown_text("a\u200bb"), shown_text("中文"))
    \\u202e123 a\\u200bb 中文
    """
    if text.isprintable():
        return text
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )


def _shorten(text: str, limit: int = _MAX_RENDERED) -> str:
    """One line of at most ``limit`` characters, unprintable ones escaped."""
    if not text.isprintable():
        text = shown_text(" ".join(text[: limit * 4].split()))
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True, slots=True)
class Problem:
    """One invalid field: where it is, which rule it breaks, and what was received.

    The rule is data: a catalogue code and its parameters. Its sentence has one home,
    the catalogue's ``core.<code>`` (``budgetcore/messages/``), English and Chinese; the
    page says it in the reader's language (``ui/problems.py``), the CLI prints
    :attr:`rule`, the same English. A raise site names the code and the parameters
    only::

        Problem.of("config.trigger_tokens", "8k", "whole", low="0", high="10^12")
        Problem.coded("log", "log-empty")
    """

    path: str
    # A catalogue id without its ``core.`` prefix; a page field's problem's whole key.
    code: str
    value: str | None = None
    params: tuple[tuple[str, str], ...] = ()
    # For the page: the further fields the problem marks (a rule between two fields
    # marks both), and the names of the params whose text is itself a catalogue key,
    # said in the reader's language.
    marks: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    # A list the sentence names, each item with its count, as data (a log with no
    # request: its ledger's kinds of entry). The English param that says it is rendered
    # from it at the raise site; the page says each item in its language from these,
    # never by splitting the English back (a kind may hold ", " or end in digits).
    counts: tuple[tuple[str, int], ...] = ()
    # A parameter that is a list (agents' names, file endings), as data: its items, each
    # a text or a text with a list of its own. The param says it in English; the page
    # says it in its language from these (``messages.said_list``: "、" between items in
    # Chinese), never by splitting the English back.
    lists: tuple[tuple[str, tuple[Any, ...]], ...] = ()

    def __post_init__(self) -> None:
        # A path echoes keys the input chose (a 10 MB unknown key): shorten it like a value.
        if len(self.path) > _MAX_PATH or not self.path.isprintable():
            object.__setattr__(self, "path", _shorten(self.path, _MAX_PATH))

    @classmethod
    def of(cls, path: str, value: object, code: str, /, **params: object) -> Problem:
        """A problem quoting ``value`` as received. A parameter given as a tuple is a
        list (:attr:`lists`)."""
        return cls(path, code, render_value(value), _params(params), lists=_lists(params))

    @classmethod
    def coded(cls, path: str, code: str, /, **params: object) -> Problem:
        """A problem without a received value (a tuple parameter: as :meth:`of`)."""
        return cls(path, code, None, _params(params), lists=_lists(params))

    @classmethod
    def page(
        cls,
        code: str,
        params: tuple[tuple[str, str | tuple[str, ...], bool], ...],
        paths: tuple[str, ...],
    ) -> Problem:
        """A page field's problem (a field's typed text, two fields out of order):
        ``code`` is its whole catalogue key, a core rule's (``core.whole-unit``, said of
        the field by its label) or one of the few page-only rules (``problem.*``);
        ``params`` are (name, text, whether text is a catalogue key; a tuple of texts is
        a list, :attr:`lists`), ``paths`` the fields it marks, the first named."""
        return cls(
            paths[0],
            code,
            None,
            tuple(
                (name, _english_list(text) if isinstance(text, tuple) else text)
                for name, text, _ in params
            ),
            paths[1:],
            tuple(name for name, _, is_key in params if is_key),
            lists=tuple((name, text) for name, text, _ in params if isinstance(text, tuple)),
        )

    @property
    def rule(self) -> str:
        """The rule in English, as the CLI prints it after the path ("must be ..."):
        rendered from the catalogue when asked, never stored (a log reader builds a
        problem per bad line; most are only counted)."""
        # The catalogue loads with the first problem said, not with every command.
        from budgetcore.messages import problem_rule  # noqa: PLC0415

        rule = problem_rule(self.code, dict(self.params), self.value, self.keys)
        if len(rule) > _MAX_RULE or not rule.isprintable():
            return _shorten(rule, _MAX_RULE)
        return rule

    @property
    def paths(self) -> tuple[str, ...]:
        """Every field the problem marks, the one it names first."""
        return (self.path, *self.marks)

    def got(self, value: object) -> Problem:
        """The same problem quoting ``value`` as received (e.g. a link's text)."""
        return dataclasses.replace(self, value=render_value(value))

    def __str__(self) -> str:
        from budgetcore.messages import rule_says_got  # noqa: PLC0415 - as rule

        rule = self.rule
        text = f"{self.path} {rule}" if self.path else rule
        if self.value is None or rule_says_got(self.code):
            return text
        return f"{text}, got {self.value}"


def _params(params: dict[str, object]) -> tuple[tuple[str, str], ...]:
    # A parameter may echo the input (an unknown key), shown as a path or value is; a
    # list (a tuple) is said in English (the catalogue loads with the first such one).
    return tuple(
        (k, shown_text(_english_list(v) if isinstance(v, tuple) else str(v)))
        for k, v in params.items()
    )


def _lists(params: dict[str, object]) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    return tuple((k, v) for k, v in params.items() if isinstance(v, tuple))


def _english_list(items: tuple[Any, ...]) -> str:
    from budgetcore.messages import said_list  # noqa: PLC0415 - a list's problem only

    return said_list(items, "en")


class ScenarioError(ValueError):
    """Invalid input. ``problems`` lists every problem found, not only the first."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        if not problems:
            raise ValueError("ScenarioError needs at least one problem")
        self.problems: tuple[Problem, ...] = tuple(problems)
        # The message is made when said (__str__), not here: a folder's read raises one
        # for each session with no request and keeps its problems alone (rendering it
        # was about 74 k instructions of a 52-line Copilot CLI file's 1.09 M,
        # docs/performance.md, speed40n). The problems are the argument: it pickles.
        super().__init__(self.problems)

    def __str__(self) -> str:
        return self.one_line()

    def one_line(self) -> str:
        """Every problem, or as many as fit a readable line and how many more there are."""
        shown: list[str] = []
        length = 0
        for problem in self.problems:
            text = str(problem)
            if shown and length + len(text) > _MAX_LINE:
                break
            shown.append(text)
            length += len(text) + 2
        rest = len(self.problems) - len(shown)
        more = f"; and {rest:,} more problem{'' if rest == 1 else 's'}" if rest else ""
        return "; ".join(shown) + more
