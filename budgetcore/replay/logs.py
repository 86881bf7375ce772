"""Imported agent logs (SPEC §12): Claude Code session JSONL, Codex CLI rollout JSONL.

Numbers only. Each line is decoded, its few numeric fields (and the model's name, the
entry ids that link the session tree) are read, and the rest — every message's text —
is dropped with the line: nothing here keeps, shows or sends it.

A log becomes a replay's turns: one turn per request, ``added`` = the growth of the
context to the next request (across a compaction: the compaction's ``preTokens`` minus
this request's context, never below 0; the last turn adds its own output), ``output``
= the request's output tokens. The log's own compactions are kept beside the turns
(after which turn, auto or manual, ``preTokens``, and the context of the next request:
the size the log measured, shown beside the model's, never substituted).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from budgetcore.errors import NonFinite, Problem, ScenarioError
from budgetcore.inputs.numbers import MAX_TOKENS
from budgetcore.replay.model import Turn

__all__ = [
    "FORMATS",
    "LogCompaction",
    "LogRequest",
    "LogSeries",
    "ParsedLog",
    "detect_format",
    "parse_claude_code",
    "parse_codex",
    "parse_log",
]

Format = Literal["claude-code", "codex"]
FORMATS: tuple[str, ...] = ("claude-code", "codex")
_CODEX_TYPES = {"session_meta", "turn_context", "event_msg", "response_item", "compacted"}
_CLAUDE_TYPES = {"assistant", "user", "system", "summary", "file-history-snapshot"}


@dataclass(frozen=True, slots=True)
class LogRequest:
    line: int  # 1-based line number in the file
    context: int  # the request's whole input, as the provider billed it
    output: int
    cache_read: int  # part of context read from the provider's prompt cache
    cache_write: int  # part of context written to it (Claude Code only; else 0)
    model: str | None
    # For event-counting peer rules (docs/models-and-peers.md): the conversation's
    # messages before this request, and the characters of tool results so far. None
    # when the log does not let us count them.
    messages: int | None = None
    tool_result_chars: int | None = None


@dataclass(frozen=True, slots=True)
class LogCompaction:
    line: int
    after_turn: int  # the number of requests before it (0: before the first)
    trigger: str | None  # "auto" or "manual" (Claude Code); None when the log does not say
    pre_tokens: int | None  # the context when it compacted (Claude Code's preTokens)
    post_tokens: int | None  # the context of the next request, as measured


@dataclass(frozen=True, slots=True)
class LogSeries:
    name: str  # "main", or "sidechain" / "sidechain:<agentId>" for subagents
    requests: tuple[LogRequest, ...]
    compactions: tuple[LogCompaction, ...]

    def turns(self) -> tuple[Turn, ...]:
        """One replay turn per request (see the module docstring for ``added``)."""
        reqs = self.requests
        after: dict[int, LogCompaction] = {}
        for comp in self.compactions:
            after.setdefault(comp.after_turn, comp)  # the first of several in one gap
        out = []
        for i, req in enumerate(reqs):
            if i + 1 == len(reqs):
                added = req.output
            elif (gap := after.get(i + 1)) is not None:
                # No preTokens (Codex): the context before compacting is not in the log;
                # the reply itself is the least that became history.
                added = (
                    req.output if gap.pre_tokens is None else max(0, gap.pre_tokens - req.context)
                )
            else:
                added = max(0, reqs[i + 1].context - req.context)
            out.append(Turn(added=added, output=req.output))
        return tuple(out)


@dataclass(frozen=True, slots=True)
class ParsedLog:
    format: str  # one of FORMATS
    series: tuple[LogSeries, ...]  # the main series first when it has requests
    skipped: tuple[Problem, ...]  # malformed lines, by line number
    duplicates: int  # repeated entries of one response, dropped
    window: int | None  # the model's context window when the log states it (Codex)

    @property
    def main(self) -> LogSeries:
        return self.series[0]

    def pick(self, name: str | None) -> LogSeries:
        """The series called ``name`` (None: the main one); raises naming the choices."""
        if name is None:
            return self.main
        for s in self.series:
            if s.name == name:
                return s
        names = ", ".join(s.name for s in self.series)
        raise ScenarioError([Problem.of("series", f"must be one of {names}", name)])

    def models(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for s in self.series:
            for r in s.requests:
                if r.model is not None:
                    seen.setdefault(r.model, None)
        return tuple(seen)


def _decode(line: str) -> object:
    return json.loads(line, parse_float=Decimal, parse_constant=NonFinite)


def _count(raw: object) -> int | None:
    """A token count: a non-negative integer; null or missing counts as 0; else None."""
    if raw is None:
        return 0
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw if 0 <= raw <= MAX_TOKENS else None
    if isinstance(raw, Decimal) and raw.is_finite() and raw == raw.to_integral_value():
        return int(raw) if 0 <= raw <= MAX_TOKENS else None
    return None


def _counts(
    obj: dict[str, Any], keys: tuple[str, ...], where: str, path: str, problems: list[Problem]
) -> tuple[int, ...] | None:
    values = []
    for key in keys:
        value = _count(obj.get(key))
        if value is None:
            problems.append(
                Problem.of(
                    f"{where}: {path}.{key}",
                    "must be an integer from 0 to 10^12 or null",
                    obj.get(key),
                )
            )
            return None
        values.append(value)
    return tuple(values)


def _lines(text: str | bytes) -> list[str]:
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ScenarioError(
                [Problem.coded("log", f"must be UTF-8 text (byte {exc.start})", "log-not-utf8")]
            ) from None
    return text.splitlines()


def _objects(lines: list[str], problems: list[Problem]) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = _decode(line)
        except (ValueError, RecursionError):  # JSONDecodeError, or digits beyond int()
            problems.append(Problem(f"line {number}", "is not valid JSON"))
            continue
        if not isinstance(obj, dict):
            problems.append(Problem(f"line {number}", "is not a JSON object"))
            continue
        out.append((number, obj))
    return out


def detect_format(text: str | bytes) -> str:
    """ "claude-code" or "codex", from the first lines that say which; raises otherwise."""
    for line in _lines(text)[:200]:
        try:
            obj = _decode(line)
        except (ValueError, RecursionError):
            continue
        if not isinstance(obj, dict):
            continue
        kind = obj.get("type")
        if kind in _CODEX_TYPES and "payload" in obj:
            return "codex"
        if kind in _CLAUDE_TYPES or "uuid" in obj or "sessionId" in obj:
            return "claude-code"
    raise ScenarioError(
        [
            Problem.coded(
                "log",
                "is neither a Claude Code session JSONL nor a Codex CLI rollout JSONL",
                "log-unknown-format",
            )
        ]
    )


def parse_log(text: str | bytes, fmt: str | None = None) -> ParsedLog:
    """Parse a log of format ``fmt`` (detected when None)."""
    fmt = detect_format(text) if fmt is None else fmt
    if fmt == "claude-code":
        return parse_claude_code(text)
    if fmt == "codex":
        return parse_codex(text)
    raise ScenarioError([Problem.of("log format", f"must be one of {', '.join(FORMATS)}", fmt)])


def _no_requests(fmt: str, problems: list[Problem]) -> ScenarioError:
    detail = f" ({len(problems)} malformed line(s), first: {problems[0]})" if problems else ""
    return ScenarioError(
        [
            Problem.coded(
                "log", f"has no usable request in this {fmt} file{detail}", "log-no-requests"
            )
        ]
    )


# ---------------------------------------------------------------- Claude Code

_USAGE = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")


@dataclass(frozen=True, slots=True)
class _Entry:
    line: int
    uuid: str | None
    parent: str | None  # parentUuid, else logicalParentUuid (across a compact_boundary)
    series: str
    request: LogRequest | None
    key: tuple[object, object] | None  # (message.id, requestId) for deduplication
    compaction: tuple[str | None, int | None] | None  # (trigger, preTokens)


def _claude_entry(number: int, obj: dict[str, Any], problems: list[Problem]) -> _Entry:
    where = f"line {number}"
    uuid = obj.get("uuid") if isinstance(obj.get("uuid"), str) else None
    parent = obj.get("parentUuid")
    if not isinstance(parent, str):
        parent = obj.get("logicalParentUuid")
    parent = parent if isinstance(parent, str) else None
    series = "main"
    if obj.get("isSidechain") is True:
        agent = obj.get("agentId")
        series = f"sidechain:{agent}" if isinstance(agent, str) and agent else "sidechain"
    request: LogRequest | None = None
    key: tuple[object, object] | None = None
    compaction: tuple[str | None, int | None] | None = None
    kind = obj.get("type")
    if kind == "assistant":
        message = obj.get("message")
        usage = message.get("usage") if isinstance(message, dict) else None
        model = message.get("model") if isinstance(message, dict) else None
        model = model if isinstance(model, str) else None
        if model == "<synthetic>":
            pass  # written by the client itself, not a request
        elif not isinstance(usage, dict):
            problems.append(Problem(where, "is an assistant entry without message.usage"))
        else:
            counts = _counts(usage, _USAGE, where, "message.usage", problems)
            if counts is not None:
                fresh, write, read, output = counts
                request = LogRequest(number, fresh + write + read, output, read, write, model)
                assert isinstance(message, dict)
                mid, rid = message.get("id"), obj.get("requestId")
                key = (mid, rid) if mid is not None or rid is not None else None
    elif kind == "system" and obj.get("subtype") == "compact_boundary":
        meta = obj.get("compactMetadata")
        meta = meta if isinstance(meta, dict) else {}
        trigger = meta.get("trigger") if isinstance(meta.get("trigger"), str) else None
        pre = meta.get("preTokens")
        if pre is None:
            compaction = (trigger, None)
        elif (value := _count(pre)) is None:
            problems.append(
                Problem.of(
                    f"{where}: compactMetadata.preTokens",
                    "must be an integer from 0 to 10^12 or null",
                    pre,
                )
            )
            compaction = (trigger, None)
        else:
            compaction = (trigger, value)
    return _Entry(number, uuid, parent, series, request, key, compaction)


def _branch(entries: list[_Entry]) -> list[_Entry]:
    """The entries on the path from the root to the last entry, in file order. A rewind
    leaves abandoned branches in the file; they are not turns."""
    if not any(e.uuid for e in entries):
        return entries  # no tree in this file: every entry in file order
    by_uuid = {e.uuid: e for e in entries if e.uuid is not None}
    last = next(e for e in reversed(entries) if e.uuid is not None)
    keep: set[int] = set()
    seen: set[str] = set()
    node: _Entry | None = last
    while node is not None and node.uuid not in seen:
        keep.add(node.line)
        if node.uuid is not None:
            seen.add(node.uuid)
        node = by_uuid.get(node.parent) if node.parent is not None else None
    return [e for e in entries if e.line in keep]


def _dedup(entries: list[_Entry]) -> tuple[list[_Entry], int]:
    """One entry per (message.id, requestId): the first with the largest output_tokens."""
    best: dict[tuple[object, object], _Entry] = {}
    for e in entries:
        if e.request is None or e.key is None:
            continue
        kept = best.get(e.key)
        if kept is None or (kept.request is not None and e.request.output > kept.request.output):
            best[e.key] = e
    out = []
    dropped = 0
    for e in entries:
        if e.request is not None and e.key is not None and best[e.key] is not e:
            dropped += 1
            continue
        out.append(e)
    return out, dropped


def _series(name: str, entries: list[_Entry]) -> LogSeries:
    requests: list[LogRequest] = []
    pending: list[tuple[int, str | None, int | None]] = []
    compactions: list[LogCompaction] = []

    def flush(post: int | None) -> None:
        for line, trigger, pre in pending:
            compactions.append(LogCompaction(line, len(requests), trigger, pre, post))
        pending.clear()

    for e in entries:
        if e.compaction is not None:
            pending.append((e.line, *e.compaction))
        elif e.request is not None:
            flush(e.request.context)
            requests.append(e.request)
    flush(None)
    return LogSeries(name, tuple(requests), tuple(compactions))


def _ordered(series: dict[str, list[_Entry]], build: Any) -> list[LogSeries]:
    out = [build(name, entries) for name, entries in series.items()]
    out = [s for s in out if s.requests]
    out.sort(key=lambda s: s.name != "main")  # stable: the main series first
    return out


def parse_claude_code(text: str | bytes) -> ParsedLog:
    """A Claude Code session file (``~/.claude/projects/<project>/<session>.jsonl``)."""
    problems: list[Problem] = []
    groups: dict[str, list[_Entry]] = {}
    for number, obj in _objects(_lines(text), problems):
        entry = _claude_entry(number, obj, problems)
        groups.setdefault(entry.series, []).append(entry)
    duplicates = 0
    chosen: dict[str, list[_Entry]] = {}
    for name, entries in groups.items():
        kept, dropped = _dedup(_branch(entries))
        chosen[name] = kept
        duplicates += dropped
    series = _ordered(chosen, _series)
    if not series:
        raise _no_requests("Claude Code", problems)
    return ParsedLog("claude-code", tuple(series), tuple(problems), duplicates, None)


# ---------------------------------------------------------------- Codex CLI

_CODEX_USAGE = ("input_tokens", "cached_input_tokens", "output_tokens", "reasoning_output_tokens")


def parse_codex(text: str | bytes) -> ParsedLog:
    """A Codex CLI rollout (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``)."""
    problems: list[Problem] = []
    model: str | None = None
    window: int | None = None
    last_totals: tuple[int, ...] | None = None
    repeats = 0
    entries: list[_Entry] = []
    for number, obj in _objects(_lines(text), problems):
        where = f"line {number}"
        kind = obj.get("type")
        payload = obj.get("payload")
        payload = payload if isinstance(payload, dict) else {}
        if kind == "turn_context":
            name = payload.get("model")
            model = name if isinstance(name, str) else model
        elif kind == "compacted" or (
            kind == "event_msg" and payload.get("type") == "context_compacted"
        ):
            entries.append(_Entry(number, None, None, "main", None, None, (None, None)))
        elif kind == "event_msg" and payload.get("type") == "token_count":
            info = payload.get("info")
            if info is None:
                continue  # a rate-limit update without usage
            if not isinstance(info, dict) or not isinstance(info.get("last_token_usage"), dict):
                problems.append(Problem(where, "is a token_count without info.last_token_usage"))
                continue
            last = _counts(
                info["last_token_usage"], _CODEX_USAGE, where, "info.last_token_usage", problems
            )
            if last is None:
                continue
            total_raw = info.get("total_token_usage")
            totals = None
            if isinstance(total_raw, dict):
                totals = _counts(total_raw, _CODEX_USAGE, where, "info.total_token_usage", problems)
                if totals is None:
                    continue
            if totals is not None and totals == last_totals:
                repeats += 1  # the same totals again: not a new request
                continue
            last_totals = totals
            w = _count(info.get("model_context_window"))
            window = w if w else window
            fresh, cached, output, _reasoning = last
            request = LogRequest(number, fresh, output, cached, 0, model)
            entries.append(_Entry(number, None, None, "main", request, None, None))
    series = _ordered({"main": entries}, _series)
    if not series:
        raise _no_requests("Codex CLI", problems)
    return ParsedLog("codex", tuple(series), tuple(problems), repeats, window)
