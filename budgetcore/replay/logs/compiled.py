"""The optional compiled line decoder (docs/replay.md, "Speed"): msgspec, where it is
installed (the ``fast`` extra) and the interpreter is CPython 3.11, decodes each line
into small typed structs of only the fields the readers look at, in C. It is an
accelerator and nothing else: the page (Pyodide) and any install without it read with
the standard library's decoder, to the same answer.

A line goes through the compiled decoder only where its answer is the full decode's;
everything else is decoded in full (:func:`~budgetcore.replay.logs.reader.decode_line`):

- **Typed fields.** A count is an ``int`` from 0 to 10^12, a text a ``str``, a flag a
  ``bool``; msgspec is strict, so ``12.0``, ``1e3``, ``true``, ``null`` or a count out of
  range fails the line (the full decode then accepts it, or names the field). A field
  whose mere presence matters to a reader (a Claude Code line's ``payload``) is kept raw.
- **Repeated keys.** msgspec keeps the last copy, as JSON's decoder does (a test holds
  them alike).
- **UTF-8 and long integers.** msgspec does not check the UTF-8 of a string it skips,
  and takes an integer of any length where ``int()`` stops at
  ``sys.get_int_max_str_digits()`` digits: a batch whose bytes are not all UTF-8, or
  that may hold such a run of digits, is decoded in full (:func:`batch_ok`).
- **Nesting.** Both decoders stop at the interpreter's recursion limit; msgspec decodes
  :data:`DEPTH_MARGIN` Python frames deeper than the full decode (:func:`decode_batch`),
  and Python frames count against the same limit, so a line it takes is one the
  standard decoder takes too (no global setting changes: other threads are untouched).
  That holds where one limit governs Python frames and C recursion alike, CPython 3.11
  (from 3.12 on C recursion has its own), so the decoder is offered on 3.11 only.

Set ``BUDGETCORE_PURE_PYTHON=1`` to read with the standard library alone.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from decimal import Decimal
from functools import cache
from types import FrameType
from typing import Annotated, Any, TypedDict, TypeVar

import msgspec
from msgspec import UNSET, Meta, Raw, Struct, UnsetType, to_builtins
from msgspec.structs import astuple

from budgetcore.inputs.numbers import MAX_TOKENS, read_number
from budgetcore.replay.logs.records import ABSENT, Shape

__all__ = [
    "DECODE_ERRORS",
    "DEPTH_MARGIN",
    "SKELETONS",
    "AmpMessage",
    "AmpThread",
    "ClaudeLine",
    "CodexLine",
    "CopilotKind",
    "amp_decoder",
    "astuple",
    "batch_ok",
    "claude_decoder",
    "codex_decoder",
    "copilot_kind_decoder",
    "decode_batch",
    "document_decoder",
    "plain",
    "record_decoder",
    "record_struct",
    "skeleton_decoder",
    "stack_room",
]

#: How many frames deeper than the full decode msgspec decodes: the standard decoder
#: goes a few levels less deep than msgspec at the same depth.
DEPTH_MARGIN = 50

#: What a line msgspec cannot take raises (MsgspecError is a ValueError: bad JSON, a
#: value that does not fit its field; RecursionError: nested past its margin).
DECODE_ERRORS = (msgspec.MsgspecError, RecursionError)

Count = Annotated[int, Meta(ge=0, le=MAX_TOKENS)]


# ---------------------------------------------------------------- Codex CLI


class CodexUsage(Struct, gc=False):
    """In the reader's field order: ``astuple`` gives its counts as ``_counts`` does."""

    input_tokens: Count = 0
    cached_input_tokens: Count = 0
    output_tokens: Count = 0
    reasoning_output_tokens: Count = 0
    cache_write_input_tokens: Count = 0


class CodexInfo(Struct, gc=False):
    total_token_usage: CodexUsage | None = None
    last_token_usage: CodexUsage | None = None
    model_context_window: int | None = None
    model: str | None = None
    model_name: str | None = None


class CodexPayload(Struct, gc=False):
    type: str | None = None
    info: CodexInfo | None = None
    model: str | None = None


class CodexLine(Struct, gc=False):
    timestamp: str | int | None = None
    type: str | None = None
    payload: CodexPayload | None = None


# ---------------------------------------------------------------- Claude Code


class ClaudeSplit(Struct, gc=False):
    ephemeral_5m_input_tokens: Count = 0
    ephemeral_1h_input_tokens: Count = 0


class ClaudeUsage(Struct, gc=False):
    input_tokens: Count = 0
    cache_creation_input_tokens: Count = 0
    cache_read_input_tokens: Count = 0
    output_tokens: Count = 0
    cache_creation: ClaudeSplit | None = None
    # Kept undecoded: a line whose iterations name an advisor call is read in full
    # (claude_advisor); absent, it is empty.
    iterations: Raw = Raw()


class ClaudePart(Struct, gc=False):
    text: str | None = None


class ClaudeBlock(Struct, gc=False):
    type: str | None = None
    content: str | list[ClaudePart] | None = None


class ClaudeMessage(Struct, gc=False):
    id: str | None = None
    model: str | None = None
    usage: ClaudeUsage | None = None
    content: str | list[ClaudeBlock] | None = None


class ClaudeData(Struct, gc=False):
    type: str | None = None
    hookName: str | None = None  # a hook_progress line's hook (claude.RESUME)


_ABSENT = Raw()


class ClaudeLine(Struct, gc=False):
    uuid: str | None = None
    parentUuid: str | None = None  # the log's own key names, as written
    logicalParentUuid: str | None = None
    timestamp: str | int | None = None
    agentId: str | None = None
    isSidechain: bool | None = None
    type: str | None = None
    subtype: str | None = None
    data: ClaudeData | None = None
    message: ClaudeMessage | None = None
    requestId: str | None = None
    version: str | int | None = None  # Claude Code's version (anything else: not kept)
    # Present at all (even null): the line is read in full (a Codex line, a logged cost).
    payload: Raw = _ABSENT
    record_type: Raw = _ABSENT
    instructions: Raw = _ABSENT
    costUSD: Raw = _ABSENT


# ---------------------------------------------------------------- the other agents
#
# A skeleton of the keys a reader looks at, each kept as any JSON value (``Any``: the
# standard library's value, floats through the same ``read_number``), absent when the
# line lacks it (UNSET: ``to_builtins`` leaves it out, so ``"key" in obj`` still
# tells). The texts beside them are skipped, never built. Where a key's value must be
# an object for the keys under it to be picked, a line whose value is not one fails
# the skeleton and is decoded in full: the reader then sees the whole line, as before.


#: The OpenTelemetry attributes Copilot CLI's reader looks at (``copilot._otel``).
COPILOT_ATTRIBUTES = (
    "event.name",
    "gen_ai.operation.name",
    "gen_ai.request.model",
    "gen_ai.response.model",
    "gen_ai.response.id",
    "gen_ai.conversation.id",
    "copilot_chat.session_id",
    "copilot_chat.chat_session_id",
    "session.id",
    "github.copilot.interaction_id",
    "gen_ai.usage.input_tokens",
    "gen_ai.usage.output_tokens",
    "gen_ai.usage.cache_read.input_tokens",
    "gen_ai.usage.cache_creation.input_tokens",
    "gen_ai.usage.cache_write.input_tokens",
    "gen_ai.usage.reasoning.output_tokens",
    "gen_ai.usage.reasoning_tokens",
    "gen_ai.usage.total_tokens",
)
CopilotAttributes = msgspec.defstruct(
    "CopilotAttributes",
    [(f"a{i}", Any, UNSET) for i in range(len(COPILOT_ATTRIBUTES))],
    rename={f"a{i}": key for i, key in enumerate(COPILOT_ATTRIBUTES)},
    gc=False,
)


class CopilotData(Struct, gc=False):
    modelMetrics: Any = UNSET
    # A compaction call's usage, and the model a session selects (copilot._events).
    compactionTokensUsed: Any = UNSET
    selectedModel: Any = UNSET
    newModel: Any = UNSET
    # A session.start's session id: an events.jsonl picked without its folder
    # (copilot._events_session).
    sessionId: Any = UNSET
    # A shutdown's session-wide charge, read where it has no model metrics
    # (copilot_shutdown.charge_alone).
    totalNanoAiu: Any = UNSET


class CopilotLine(Struct, gc=False):
    """Copilot CLI's events.jsonl and OpenTelemetry lines (``copilot.read_copilot``)."""

    type: Any = UNSET
    data: CopilotData | UnsetType = UNSET
    name: Any = UNSET
    kind: Any = UNSET
    body: Any = UNSET
    _body: Any = msgspec.field(default=UNSET, name="_body")
    traceId: Any = UNSET
    spanId: Any = UNSET
    spanContext: Any = UNSET
    timestamp: Any = UNSET
    observedTimestamp: Any = UNSET
    timeUnixNano: Any = UNSET
    endTime: Any = UNSET
    startTime: Any = UNSET
    hrTime: Any = UNSET
    _hrTime: Any = msgspec.field(default=UNSET, name="_hrTime")
    time: Any = UNSET
    attributes: CopilotAttributes | UnsetType = UNSET  # type: ignore[valid-type]


class CopilotKindData(Struct, gc=False):
    modelMetrics: Any = UNSET
    compactionTokensUsed: Any = UNSET


class CopilotKind(Struct, gc=False):
    """An events.jsonl line of a session Copilot CLI's session store bills, what
    ``copilot_store.billed_events`` counts it by: its type, whether its data carries a
    usage, and whether it has OpenTelemetry ``attributes`` (the file is then read in
    full, as an export). A line it does not fit (``data`` no object) is read as before."""

    type: Any = UNSET
    data: CopilotKindData | UnsetType = UNSET
    attributes: Raw | UnsetType = UNSET


def copilot_kind_decoder() -> Callable[[bytes], CopilotKind] | None:
    """The :class:`CopilotKind` line decoder, or None: read with the standard library."""
    return _copilot_kind_decoder() if _enabled() else None


@cache
def _copilot_kind_decoder() -> Callable[[bytes], CopilotKind]:
    return msgspec.json.Decoder(CopilotKind, float_hook=read_number).decode


class AmpMessage(TypedDict, total=False):
    """An Amp thread's message, the keys ``amp._thread`` reads: a dict as the full
    decode gives it, less its ``content`` (most of a thread's bytes), skipped. ``type``
    is Gemini CLI's mark on its messages (``gemini.claims_document``), kept to tell."""

    role: Any
    usage: Any
    messageId: Any
    model: Any
    timestamp: Any
    type: Any


class AmpThread(Struct, forbid_unknown_fields=True, gc=False):
    """An Amp thread's document (``amp.typed_thread``). A key no Amp thread writes fails
    it, so the document is decoded in full and detection sees every key, as before: the
    agents asked before Amp tell their documents by top-level keys of their own
    (Gemini CLI's ``projectHash``, OpenCode's ``sessionID``)."""

    id: Any = None
    messages: list[AmpMessage] | None = None
    usageLedger: Any = None
    v: Any = None
    created: Any = None
    title: Any = None
    env: Any = None
    agentMode: Any = None
    nextMessageId: Any = None
    meta: Any = None
    relationships: Any = None


def amp_decoder() -> Callable[[bytes], AmpThread] | None:
    """The Amp thread decoder, or None: read with the standard library."""
    return _amp_decoder() if _enabled() else None


@cache
def _amp_decoder() -> Callable[[bytes], AmpThread]:
    return msgspec.json.Decoder(AmpThread, float_hook=read_number).decode


SKELETONS: dict[str, type[Struct]] = {
    "copilot-cli": CopilotLine,
}


def skeleton_decoder(kind: str) -> Callable[[bytes], Struct] | None:
    """The line decoder of an agent's skeleton (:data:`SKELETONS`); None: read with the
    standard library."""
    if not _enabled():
        return None
    return _skeleton_decoder(kind)


@cache
def _skeleton_decoder(kind: str) -> Callable[[bytes], Struct]:
    # Made once per kind: building a decoder costs about a millisecond (its type's
    # plan), as much as reading a few hundred lines, and a folder has one per session.
    return msgspec.json.Decoder(SKELETONS[kind], float_hook=read_number).decode


# ---------------------------------------------------------------- records by attribute
#
# A reader's Shape (:mod:`.records`) made a Struct, the shape's own keys and nothing
# else: a key any JSON value (the standard library's, floats through ``read_number``),
# a text ``str`` or null, a count an ``int`` from 0 to 10^12, a nested key its shape's
# struct or null. A value the types refuse fails the line: it is decoded in full and
# made the same record by ``records.record_of``. A missing key is None, ABSENT or 0 as
# the shape says.


@cache
def record_struct(shape: Shape) -> type[Struct]:
    """The struct of a reader's record shape (made once per shape)."""
    fields: list[tuple[str, Any, Any]] = []
    for key in shape.keys:
        sub = shape.under(key)
        kind: Any = Any
        default: Any = ABSENT if key in shape.told else None
        if shape.counts and sub is None:
            kind, default = Count, 0
        elif sub is not None:
            kind = record_struct(sub) | None
        elif key in shape.texts:
            kind = str | None
        fields.append((key, kind, default))
    return msgspec.defstruct(shape.name, fields, rename=dict(shape.keyed) or None, gc=False)


def record_decoder(shape: Shape) -> Callable[[bytes], Struct] | None:
    """The line decoder of a reader's records (:mod:`.records`), or None: read with the
    standard library."""
    return _record_decoder(shape) if _enabled() else None


def _record_decoder(shape: Shape) -> Callable[[bytes], Struct]:
    # Made once per shape and kept on it (Shape.plans, beside record_of's plans), found
    # without hashing it: a folder asks once per session file, and a cache keyed by the
    # shape hashed every field of it, nested shapes too (about 3 µs a file).
    try:
        return shape.plans["decoder"]  # type: ignore[no-any-return]
    except KeyError:
        made = msgspec.json.Decoder(record_struct(shape), float_hook=read_number).decode
        shape.plans["decoder"] = made
        return made


def plain(structs: list[Any]) -> list[Any]:
    """Skeletons as the dicts the full decode would give, with only their keys (None
    stays None: a line to decode in full), in one call for the batch."""
    try:
        return to_builtins(structs, builtin_types=(Decimal,))  # type: ignore[no-any-return]
    except TypeError:  # a number read_number marks as absurd (NonFinite): read in full
        out = []
        for s in structs:
            try:
                out.append(to_builtins(s, builtin_types=(Decimal,)))
            except TypeError:
                out.append(None)
        return out


# ---------------------------------------------------------------- the guards

_T = TypeVar("_T")


def _enabled() -> bool:
    return (
        sys.implementation.name == "cpython"
        and sys.platform != "emscripten"  # the page reads with the standard library
        and sys.version_info[:2] == (3, 11)
        and not os.environ.get("BUDGETCORE_PURE_PYTHON")
    )


def document_decoder() -> Callable[[bytes], Any] | None:
    """The decoder of a whole JSON document (an Amp thread, a Gemini CLI ``.json``
    session), any value as the standard library's ``json.loads`` gives it (floats
    through ``read_number``), or None: read with the standard library. Where the two
    differ, msgspec refuses and the standard library reads: ``NaN`` and ``Infinity``,
    a lone surrogate escape (``"\\ud800"``), a byte-order mark (the caller strips it);
    the guards of :func:`decode_batch` hold the rest (UTF-8, long integers, nesting)."""
    return _document_decoder() if _enabled() else None


@cache
def _document_decoder() -> Callable[[bytes], Any]:
    return msgspec.json.Decoder(float_hook=read_number).decode


def codex_decoder() -> Callable[[bytes], CodexLine] | None:
    """The Codex line decoder, or None: read with the standard library."""
    return _codex_decoder() if _enabled() else None


def claude_decoder() -> Callable[[bytes], ClaudeLine] | None:
    """The Claude Code line decoder, or None: read with the standard library."""
    return _claude_decoder() if _enabled() else None


# Made once each (about a millisecond a decoder: a folder reads a session a file).
@cache
def _codex_decoder() -> Callable[[bytes], CodexLine]:
    return msgspec.json.Decoder(CodexLine).decode


@cache
def _claude_decoder() -> Callable[[bytes], ClaudeLine]:
    return msgspec.json.Decoder(ClaudeLine).decode


def stack_room() -> bool:
    """Whether the stack leaves msgspec room under its guard (else the standard
    library reads: a reader called this deep is none of ours)."""
    depth = 0
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return sys.getrecursionlimit() - depth > DEPTH_MARGIN + 250


def decode_batch(decode: Callable[[bytes], _T], batch: list[bytes]) -> list[_T | None] | None:
    """Each line's struct, None for a line to decode in full; None for the whole batch
    when :func:`batch_ok` says no. Decoded under a recursion limit :data:`DEPTH_MARGIN`
    lower than the reader's full decode of a line has: in CPython 3.11 Python frames
    count against the recursion limit as the decoders' own recursion does, so msgspec
    stops that many levels of nesting sooner than the standard decoder. The limit is
    the interpreter's, every thread's, for the batch: the readers run in one thread."""
    if not batch_ok(batch):
        return None
    # The margin as a limit lowered by it, not as that many frames of calls: the same
    # room (CPython 3.11 counts the limit less the frames in use, and
    # sys.setrecursionlimit moves both alike), where 50 calls cost about 5 µs a batch,
    # once per session file of a folder of small sessions (docs/performance.md).
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit - DEPTH_MARGIN)
    try:
        return _decode_all(decode, batch)
    finally:
        sys.setrecursionlimit(limit)


def _decode_all(decode: Callable[[bytes], _T], batch: list[bytes]) -> list[_T | None]:
    try:
        return [decode(raw) for raw in batch]
    except DECODE_ERRORS:
        pass
    out: list[_T | None] = []
    for raw in batch:  # one of them is read in full: which ones
        try:
            out.append(decode(raw))
        except DECODE_ERRORS:
            out.append(None)
    return out


_TEN_DIGITS = re.compile(rb"[0-9]{10}")


def batch_ok(batch: list[bytes]) -> bool:
    """Whether msgspec may decode these lines: all UTF-8, and no run of digits as long
    as ``int()`` refuses. A run of ``limit + 1`` digits covers at least ten consecutive
    points of a sample taken every ``(limit + 1) // 10`` bytes, so a sample without ten
    digits in a row rules it out (a sample with them sends the batch to the full
    decode, run or not)."""
    data = b"".join(batch)  # every line but the file's last ends in "\n": no byte pairs across
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return False
    limit = sys.get_int_max_str_digits()
    return not (limit and _TEN_DIGITS.search(data[:: (limit + 1) // 10]))
