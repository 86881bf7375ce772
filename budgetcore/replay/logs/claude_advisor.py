"""Claude Code's advisor calls (docs/replay.md, "Claude Code's advisor calls").

Claude Code 2.1.98 and later can consult an advisor model (Anthropic's advisor tool,
``advisor_20260301``; code.claude.com/docs "advisor"). The reply's top-level
``message.usage`` then holds the executor's tokens alone; each advisor call is a
``message.usage.iterations`` entry of type ``advisor_message`` with its own ``model`` and
counts, billed at that model's rates. The ``message`` entries are the executor's own,
already in the top-level usage. ccusage 20.0.24 adds each advisor entry to the request
at its model; here each call is a request of its own in the series :data:`ADVISOR`,
billed beside the response (never a turn, never the main context's), at the response's
line, so that a response billed elsewhere takes its advisor calls with it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from budgetcore.errors import Problem
from budgetcore.inputs.numbers import MAX_TOKENS, bound_text
from budgetcore.replay.logs.model import LogRequest, LogSeries, ParsedLog, new_request
from budgetcore.replay.logs.reader import count_of

__all__ = [
    "ADVISOR",
    "KIND",
    "Call",
    "advisor_calls",
    "advisor_series",
    "advisor_text",
    "usage_counts",
    "write_split",
]

#: The series that holds the advisor calls: billed (in the measured usage, per model),
#: never on a branch, so never a turn nor the main context's replay.
ADVISOR = "advisor"
#: An iteration of this type is one advisor call; the bytes a line must hold for the
#: compiled decoder to leave it to the full decode.
KIND = "advisor_message"
_RAW = KIND.encode()
_COUNTS = (
    "input_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
    "output_tokens",
)

#: One advisor call: its model (None: the entry names none, so its cost is unknown) and
#: its counts as a request's (input, write 5m, write 1h, read, output, context).
Call = tuple[str | None, tuple[int, int, int, int, int, int]]


def holds_advisor(raw: bytes | memoryview | Any) -> bool:
    """Whether a compiled line's raw ``iterations`` may hold an advisor call (the full
    decode reads it then): a cheap byte search, no decode."""
    return _RAW in bytes(raw)


def usage_counts(usage: dict[str, Any], at: str) -> tuple[int, int, int, int] | Problem:
    """A usage object's four counts (input, cache written, cache read, output), a
    response's or an advisor call's: missing or null is 0; the problem of the first that
    is not a count, named ``<at>.<field>`` as the log writes it."""
    counts = [count_of(usage.get(k)) for k in _COUNTS]
    bad = next((k for k, c in zip(_COUNTS, counts, strict=True) if c is None), None)
    if bad is not None:
        return _problem(f"{at}.{bad}", usage.get(bad))
    fresh, write, read, output = (c or 0 for c in counts)  # each a count here
    return fresh, write, read, output


def write_split(usage: dict[str, Any], write: int, at: str) -> tuple[int, int] | Problem:
    """The cache writes at 5 minutes and at 1 hour: the ``cache_creation`` split where
    given, which is what was billed (docs/replay.md, "Cache writes"), else ``write`` at
    5 minutes; the problem of a split's count that is not one."""
    split = usage.get("cache_creation")
    if not isinstance(split, dict):
        return write, 0
    five = count_of(split.get("ephemeral_5m_input_tokens"))
    hour = count_of(split.get("ephemeral_1h_input_tokens"))
    if five is None or hour is None:
        key = "ephemeral_5m_input_tokens" if five is None else "ephemeral_1h_input_tokens"
        return _problem(f"{at}.cache_creation.{key}", split.get(key))
    return five, hour


def advisor_calls(iterations: object) -> tuple[Call, ...] | Problem:
    """The advisor calls of a usage's ``iterations`` (anything else: none), or the
    problem of the first count that is not one, named as the log writes it."""
    if not isinstance(iterations, list):
        return ()
    calls: list[Call] = []
    for i, item in enumerate(iterations):
        if not isinstance(item, dict) or item.get("type") != KIND:
            continue  # the executor's own ("message"), already in the top-level usage
        at = f"message.usage.iterations[{i}]"
        counts = usage_counts(item, at)
        if isinstance(counts, Problem):
            return counts
        fresh, write, read, output = counts
        split = write_split(item, write, at)
        if isinstance(split, Problem):
            return split
        write_5m, write_1h = split
        model = item.get("model")
        model = model if isinstance(model, str) and model else None
        calls.append((model, (fresh, write_5m, write_1h, read, output, fresh + write + read)))
    return tuple(calls)


def _problem(field: str, value: object) -> Problem:
    return Problem.of(field, value, "log-line-count", high=bound_text(MAX_TOKENS))


def advisor_series(
    advised: Iterable[tuple[int, int, int | None, int | None, tuple[Call, ...]]],
) -> LogSeries:
    """The series :data:`ADVISOR` of each response's calls (``advised``: its file, first
    line, first and last times, its calls), in file order: billed, never turns."""
    calls: list[LogRequest] = []
    for file, line, started, finished, found in advised:
        for model, (fresh, write_5m, write_1h, read, output, context) in found:
            calls.append(
                new_request(  # LogRequest's fields in order
                    (
                        line,
                        context,
                        output,
                        read,
                        write_5m + write_1h,
                        model,
                        None,
                        None,
                        fresh,
                        write_1h,
                        0,
                        started,
                        finished,
                        file,
                        None,
                        None,
                    )
                )
            )
    return LogSeries(ADVISOR, (), (), tuple(calls))


def advisor_text(log: ParsedLog, lang: str) -> tuple[int, str]:
    """The advisor calls ``log`` bills and the one sentence that says them and their
    models, the page's and the CLI table's; (0, "") where it has none."""
    advisor = next((s for s in log.series if s.name == ADVISOR), None)
    if advisor is None:
        return 0, ""
    from budgetcore.messages import count, t  # noqa: PLC0415 - the one catalogue

    calls = advisor.abandoned
    unnamed = t("replay.log.advisor-no-model", lang)
    models = dict.fromkeys(c.model or unnamed for c in calls)
    text = t(
        "replay.log.advisor",
        lang,
        calls=count("count.request", len(calls), lang),
        models=t("msg.list-sep", lang).join(models),
    )
    return len(calls), text
