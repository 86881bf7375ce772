"""Codex CLI rollout JSONL (docs/replay.md, "Codex"): one request per ``token_count``
event whose totals advance.

- ``last_token_usage`` is the request; without it (the earliest rollouts), the
  difference of ``total_token_usage`` from the previous totals (never below 0).
- An event repeating the previous totals (written again when rate limits arrive) is a
  copy; ``info: null``, all-zero estimates and the window-full mark (every count 0
  beside a ``total_tokens``: a refused request) are not requests.
- A forked or subagent rollout starts with the parent's history copied in one burst
  (a second ``session_meta``, then the parent's items within milliseconds; a fork may
  copy them right after its own ``session_meta``, with no second one): those events
  only move the totals' baseline.
- Each request's model is ``info.model`` where given, else the latest
  ``turn_context`` (or ``thread_settings_applied``) model, else the rollout's own
  ``session_meta`` ``model`` where it has one.
- Each request's compaction count as Codex itself computes it (``LogSeries.counts``):
  its total tokens plus Codex's estimate of the reasoning items the history carries
  (docs/replay.md, "Predicted compactions").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import count as counting
from itertools import repeat
from typing import TYPE_CHECKING, Any

from budgetcore.errors import Problem
from budgetcore.inputs.numbers import MAX_TOKENS
from budgetcore.replay.logs.compaction import LogCompaction
from budgetcore.replay.logs.model import (
    FileLedger,
    LogRequest,
    LogSeries,
    ParsedLog,
    new_request,
)
from budgetcore.replay.logs.reader import (
    BLANK,
    MAX_LOG_REQUESTS,
    LineSource,
    Malformed,
    Steps,
    at_line,
    compiled_batches,
    compiled_from,
    count_of,
    decode_line,
    finish,
    format_of,
    millis,
    millis_of,
    numbered_batches,
    too_many_requests,
)
from budgetcore.replay.logs.shapes import response_item, token_count
from budgetcore.replay.logs.tally import counts
from budgetcore.replay.logs.tally import label as cut_label

if TYPE_CHECKING:
    from budgetcore.replay.logs.compiled import CodexLine


__all__ = [
    "ESTIMATE",
    "ESTIMATE_TOTAL",
    "FORK_BURST_MS",
    "NO_INFO",
    "WINDOW_FULL",
    "read_codex",
]

_FIELDS = (
    "input_tokens",
    "cached_input_tokens",
    "output_tokens",
    "reasoning_output_tokens",
    "cache_write_input_tokens",
)
#: A copied parent history is written in one go: consecutive lines of the burst are at
#: most this far apart. The child's own first request ends it (a model call takes longer).
FORK_BURST_MS = 1000

SAME_TOTALS = "token_count repeating the previous totals"
PARENT_COPY = "token_count copied from the parent session"


def _label(kind: object, payload: dict[str, Any]) -> str:
    if not isinstance(kind, str):
        return "(no type)"
    sub = payload.get("type")
    label = (
        f"{kind}/{sub}" if kind in ("event_msg", "response_item") and isinstance(sub, str) else kind
    )
    return cut_label(label)


def _counts(raw: object, path: str) -> tuple[int, ...] | Problem:
    return counts(raw, _FIELDS, path)


def _zero_kind(raw: bytes) -> str:
    """The label of a token_count line whose request counts are all 0: the window-full
    mark where the running totals are a ``total_tokens`` alone, an estimate of a total
    where the last usage holds one, else an all-zero estimate. Rare, so the line is
    decoded again whatever path read it."""
    obj = decode_line(raw)
    payload = obj.get("payload") if isinstance(obj, dict) else None
    info = payload.get("info") if isinstance(payload, dict) else None
    info = info if isinstance(info, dict) else {}
    totals = info.get("total_token_usage")
    if (
        isinstance(totals, dict)
        and count_of(totals.get("total_tokens"))
        and not any(count_of(totals.get(key)) for key in _FIELDS)
    ):
        return WINDOW_FULL
    last = info.get("last_token_usage")
    if isinstance(last, dict) and count_of(last.get("total_tokens")):
        return ESTIMATE_TOTAL
    return ESTIMATE


_HEAD = b'{"timestamp":"'
NO_INFO = "event_msg/token_count (rate limits only)"
ESTIMATE = "event_msg/token_count (estimate, all zero)"
#: Codex's mark that a request overflowed the window (openai/codex protocol.rs,
#: TokenUsageInfo::fill_to_context_window, on ContextWindowExceeded): the running
#: totals' counts reset to 0 beside a ``total_tokens`` (the window), the last usage
#: what was left of it. The request was refused: no bill, as ccusage reads it (its
#: counts are 0).
WINDOW_FULL = "event_msg/token_count (window full: a total alone)"
#: Codex's estimate of its history (after a compaction, recompute_token_usage): the last
#: usage's counts 0 beside its ``total_tokens``, the running totals left as they were.
ESTIMATE_TOTAL = "event_msg/token_count (estimate: a total alone)"
#: The event_msg types a compiled line does not take: their handling reads more of the
#: payload than its struct holds, so they are decoded in full.
_READ_IN_FULL = frozenset(
    {"context_compacted", "thread_settings_applied", "task_started", "turn_started"}
)


_ITEM = b'","type":"response_item","payload":{"type":"'
_TOKENS = b'","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":'


_ENCRYPTED = b'"encrypted_content":'
#: A sanitized rollout (madshn/localpush's fixtures, redacted by their author) keeps an
#: encrypted payload's length in its placeholder: the length is all Codex's estimate reads.
_REDACTED = b"[REDACTED_ENCRYPTED_CONTENT len="
#: Codex's own estimate of a reasoning item (openai/codex, codex-rs/core/src/
#: context_manager/history.rs, estimate_reasoning_length and estimate_item_token_count,
#: commit 023fad268e08c252b94e4a95cb3c7f2f08c2a972): the encrypted payload's bytes times
#: 3/4 (floor) less 650, then 4 bytes a token (ceiling).
REASONING_OVERHEAD = 650


def reasoning_estimate(raw: bytes) -> int:
    """Codex's token estimate of one reasoning item, from its rollout line's bytes
    (base64 holds no quote and no escape: the payload's length is its bytes'). 0
    without an encrypted payload (Codex counts only items that carry one)."""
    at = raw.find(_ENCRYPTED)
    if at < 0:
        return 0
    start = at + len(_ENCRYPTED)
    while raw[start : start + 1] == b" ":
        start += 1
    if raw[start : start + 1] != b'"':
        return 0  # null: no payload
    start += 1
    end = raw.find(b'"', start)
    if end < 0:
        return 0
    size = end - start
    if raw.startswith(_REDACTED, start):
        digits = raw[start + len(_REDACTED) : end].split(b" ", 1)[0]
        # At most 12 digits: a length, never a number that could not be a line's.
        size = int(digits) if digits.isdigit() and len(digits) <= 12 else size
    visible = max(size * 3 // 4 - REASONING_OVERHEAD, 0)
    return -(-visible // 4)


#: Response items the model writes (openai/codex history.rs is_model_generated_item): the
#: items Codex adds after the last of them are estimated apart (their bytes / 4).
_MODEL_ITEMS = frozenset(
    {
        "reasoning",
        "function_call",
        "custom_tool_call",
        "web_search_call",
        "local_shell_call",
        "image_generation_call",
        "tool_search_call",
    }
)
#: The tool outputs Codex records after a response, before it checks its count.
_OUTPUT_ITEMS = frozenset({"function_call_output", "custom_tool_call_output", "tool_search_output"})
_PAYLOAD = b'"payload":'


def payload_tokens(raw: bytes) -> int:
    """Codex's estimate of an item it has not sent yet: its serialized bytes, 4 a token
    (ceiling; history.rs estimate_item_token_count). The rollout line's payload is that
    serialization (the payload is the line's last key)."""
    at = raw.find(_PAYLOAD)
    if at < 0:
        return 0
    size = len(raw.rstrip()) - 1 - (at + len(_PAYLOAD))
    return -(-max(size, 0) // 4)


def _stamp(raw: bytes, cut: int) -> str | None:
    """The timestamp of a line that opens with one, when its bytes are its text
    (printable ASCII without a backslash); else None (the line is decoded)."""
    text = raw[14:cut]
    if not text.isascii():
        return None
    stamp = text.decode("ascii")
    return stamp if stamp.isprintable() and "\\" not in stamp else None


def _tail(raw: bytes) -> bytes | None:
    """The line from the end of its timestamp on (Codex writes the timestamp first)."""
    if not raw.startswith(_HEAD):
        return None
    cut = raw.find(b'"', 14)
    return raw[cut:] if cut > 0 else None


def _read(
    name: str,
    batches: Iterable[tuple[int, list[bytes]]],
    *,
    shaped: bool = True,
    decoder: Callable[[bytes], CodexLine] | None = None,
    compiled: bool = False,
) -> ParsedLog:
    """:func:`_steps`, every step at once."""
    return finish(_steps(name, batches, shaped=shaped, decoder=decoder, compiled=compiled))


def _steps(
    name: str,
    batches: Iterable[tuple[int, list[bytes]]],
    *,
    shaped: bool = True,
    decoder: Callable[[bytes], CodexLine] | None = None,
    compiled: bool = False,
) -> Steps[ParsedLog]:
    """The rollout's session from its lines (:func:`numbered_batches`), a step per
    batch. ``compiled``:
    read with the compiled decoder (:mod:`.compiled`) from :func:`~.reader.compiled_from`
    on, where installed; ``decoder``: that one from the first line; ``shaped`` False
    decodes every line in full (the fast paths' oracle in tests/test_log_reader.py)."""
    problems: list[Problem] = []
    malformed: list[int] = []
    kinds: dict[str, int] = {}
    dups: dict[str, int] = {}
    blank = 0
    count = 0
    model: str | None = None
    window: int | None = None
    own_id: str | None = None
    version = ""  # the session's cli_version (its own session_meta, the first one)
    forked = False
    replay_until: int | None = None  # in the parent's copied burst: its last time so far
    prev_totals: tuple[int, ...] | None = None
    requests: list[LogRequest] = []
    compactions: list[LogCompaction] = []
    pending: list[tuple[int, int | None]] = []
    times: list[int] = []
    # The runtime's own compaction count (docs/replay.md, "Predicted compactions"):
    # Codex compares the last response's total tokens plus its estimate of the
    # reasoning items before the last user message (openai/codex, codex-rs/core/src/
    # context_manager/history.rs, get_total_token_usage and
    # get_non_last_reasoning_items_tokens): ``carried`` is that estimate, ``since`` the
    # reasoning written after the last user message, carried once the next one arrives.
    counts: list[int] = []
    carried = 0
    since = 0
    # A user message since the last request: the next one starts a user turn, before
    # which OpenAI drops the earlier turns' reasoning items (docs/replay.md, "As run").
    asked = False
    prompted: list[int] = []
    # Codex also counts the items recorded after the last one the model wrote (the tool
    # outputs of the last response, written after its token_count): they are added to
    # the last request's count until the model writes again.
    tail = False
    talk: list[int] = []  # the response items' times: the conversation lines
    request_since_compaction = True
    # The previous token_count line from its timestamp on, and what it was: a line with
    # the very same bytes is the same event again (written as rate limits arrive), so
    # it needs no decoding (docs/replay.md, "Speed"). Only a line of the
    # token_count shape sets it: its tail holds no second timestamp (a decoded line's
    # tail might, and the later copy of a key is the one JSON keeps).
    repeat_tail: bytes | None = None
    repeat_kind = ""
    labels: dict[tuple[object, object], str] = {}
    item_labels: dict[str, str] = {}  # a response_item shape's payload type -> its label
    compiled_labels: dict[tuple[str, str | None], str] = {}
    same_totals = 0  # compiled lines repeating the previous totals (added to dups at the end)
    decode_batch = None if decoder is None else compiled_batches("codex", decoder)
    astuple: Callable[[Any], tuple[int, ...]] = tuple
    if decode_batch is not None:
        from budgetcore.replay.logs.compiled import astuple  # noqa: PLC0415
    nothing = repeat(None)

    def note(label: str) -> None:
        kinds[label] = kinds.get(label, 0) + 1

    kind: object
    payload: dict[str, Any] = {}
    label = ""
    named: object = None
    last: tuple[int, ...] | None
    totals: tuple[int, ...] | None
    w_raw: object
    for first, batch in batches:
        count = first + len(batch) - 1
        if compiled and compiled_from(first, sum(map(len, batch))):
            compiled = False
            decode_batch = compiled_batches("codex")
            if decode_batch is not None:
                from budgetcore.replay.logs.compiled import astuple  # noqa: PLC0415
        decoded = None if decode_batch is None else decode_batch(batch)
        if decoded is None:
            rows: Iterable[tuple[int, bytes, CodexLine | None, int | None]]
            rows = zip(counting(first), batch, nothing, nothing)
        else:
            stamps = [None if d is None else d.timestamp for d in decoded]
            rows = zip(counting(first), batch, decoded, millis_of(stamps))
        for number, raw, line, at_time in rows:
            # shape (docs/replay.md, "Speed"): 0 decoded in full; 1 an entry counted by
            # its label; 2 a token_count shape; 3 a compiled token_count; 4 a compiled
            # turn_context.
            shape = 0
            time = at_time
            if line is not None:
                found_kind, p = line.type, line.payload
                if p is None:
                    pass
                elif found_kind == "response_item" or (
                    found_kind == "event_msg"
                    and p.type != "token_count"
                    and p.type not in _READ_IN_FULL
                ):
                    # An entry counted by its label, as the full decode counts it.
                    if found_kind == "response_item":
                        if p.type == "reasoning":
                            since += reasoning_estimate(raw)
                            tail = False
                        elif p.type in _OUTPUT_ITEMS:
                            if tail and replay_until is None:
                                counts[-1] += payload_tokens(raw)
                        elif p.type in _MODEL_ITEMS:
                            tail = False
                    elif p.type == "user_message":
                        carried, since = carried + since, 0
                        asked = True
                    if replay_until is None:
                        if time is not None:
                            times.append(time)
                            if found_kind == "response_item":
                                talk.append(time)
                    elif time is None or time - replay_until > FORK_BURST_MS:
                        replay_until = None  # the parent's copied history ended
                        if time is not None:
                            times.append(time)
                            if found_kind == "response_item":
                                talk.append(time)
                    else:
                        replay_until = max(replay_until, time)
                    label = compiled_labels.get((found_kind, p.type), "")
                    if not label:
                        label = _label(found_kind, {"type": p.type})
                        compiled_labels[(found_kind, p.type)] = label
                    kinds[label] = kinds.get(label, 0) + 1
                    continue
                elif found_kind == "event_msg":
                    info = p.info
                    if info is not None:
                        lu, tu = info.last_token_usage, info.total_token_usage
                        if lu is not None and tu is not None and replay_until is None:
                            # The common line, all its steps here, in the order below.
                            if time is not None:
                                times.append(time)
                            repeat_tail = None
                            totals = astuple(tu)
                            if totals == prev_totals:
                                same_totals += 1
                                continue
                            prev_totals = totals
                            w = info.model_context_window
                            if w is not None and 0 < w <= MAX_TOKENS:
                                window = w
                            inp, cached, output, reasoning, write = astuple(lu)
                            if not (inp or cached or output or reasoning or write):
                                note(_zero_kind(raw))
                                continue
                            cached = cached if cached < inp else inp
                            write = write if write < inp - cached else inp - cached
                            if len(requests) >= MAX_LOG_REQUESTS:
                                raise too_many_requests(MAX_LOG_REQUESTS)
                            request = new_request(
                                (
                                    number,
                                    inp,
                                    output,
                                    cached,
                                    write,
                                    info.model or info.model_name or model,
                                    None,
                                    None,
                                    inp - cached - write,
                                    0,
                                    reasoning if reasoning < output else output,
                                    time,
                                    time,
                                    0,
                                    None,
                                    None,  # sent: a rollout does not say
                                )
                            )
                            if pending:
                                for at, when in pending:
                                    compactions.append(
                                        LogCompaction(at, len(requests), None, None, inp, 0, when)
                                    )
                                pending.clear()
                            request_since_compaction = True
                            if asked:
                                prompted.append(len(requests))
                                asked = False
                            requests.append(request)
                            counts.append(inp + output + carried)
                            tail = True
                            continue
                        if lu is not None or tu is not None:
                            shape = 3
                            last = None if lu is None else astuple(lu)
                            totals = None if tu is None else astuple(tu)
                            w_raw = info.model_context_window
                            named = info.model or info.model_name
                elif found_kind == "turn_context":
                    shape, named = 4, p.model
            elif shaped and raw.startswith(_HEAD):
                cut = raw.find(b'"', 14)
                if (
                    cut > 0
                    and repeat_tail is not None
                    and replay_until is None
                    and len(raw) - cut == len(repeat_tail)
                    and raw.endswith(repeat_tail)
                    and (again := _stamp(raw, cut)) is not None
                ):
                    time = millis(again)
                    if time is not None:
                        times.append(time)
                    if repeat_kind:
                        note(repeat_kind)
                    else:
                        dups[SAME_TOTALS] = dups.get(SAME_TOTALS, 0) + 1
                    continue
                if cut < 0:
                    pass
                elif raw.startswith(_ITEM, cut):
                    item = response_item(raw)
                    if item is not None:  # the common line
                        shape, time = 1, millis(item[0])
                        label = item_labels.get(item[1], "")
                        if not label:
                            label = _label("response_item", {"type": item[1]})
                            item_labels[item[1]] = label
                elif raw.startswith(_TOKENS, cut):
                    event = token_count(raw)
                    if event is not None:
                        shape = 2
                        stamp, last, totals, w_raw = event
                        time = millis(stamp)
                        named = None  # the shape has no model
            if not shape:
                obj = decode_line(raw)
                if obj is BLANK:
                    blank += 1
                    continue
                if isinstance(obj, Malformed):
                    malformed.append(number)
                    problems.append(at_line("", number, obj.problem))
                    continue
                assert isinstance(obj, dict)
                kind = obj.get("type")
                found_payload = obj.get("payload")
                if not isinstance(found_payload, dict):
                    if format_of(obj) == "claude-code":
                        malformed.append(number)
                        problems.append(
                            at_line(
                                "",
                                number,
                                Problem.coded(
                                    "",
                                    "log-line-claude-in-codex",
                                ),
                            )
                        )
                        continue
                    note(
                        "legacy rollout line (no token counts)"
                        if kind != "event_msg"
                        else "event_msg"
                    )
                    continue
                payload = found_payload
                time = millis(obj.get("timestamp"))
            if replay_until is not None:
                if time is None or time - replay_until > FORK_BURST_MS:
                    replay_until = None  # the parent's copied history ended
                else:
                    replay_until = max(replay_until, time)
            if time is not None and replay_until is None:
                times.append(time)
                if shape == 1 or (not shape and kind == "response_item"):
                    talk.append(time)
            if shape == 1:
                kinds[label] = kinds.get(label, 0) + 1
                found_type = item[1] if item is not None else ""
                if found_type == "reasoning":
                    since += reasoning_estimate(raw)
                    tail = False
                elif found_type in _OUTPUT_ITEMS:
                    if tail and replay_until is None:
                        counts[-1] += payload_tokens(raw)
                elif found_type in _MODEL_ITEMS:
                    tail = False
                continue
            if shape == 4:
                kinds["turn_context"] = kinds.get("turn_context", 0) + 1
                model = named if isinstance(named, str) and named else model
                continue
            if shape:
                repeat_tail = None
            else:
                if kind == "session_meta":
                    note("session_meta")
                    sid = payload.get("id")
                    if own_id is None:
                        own_id = sid if isinstance(sid, str) else ""
                        cli = payload.get("cli_version")
                        # At most 40 characters: a version, never a whole text.
                        version = cli if isinstance(cli, str) and 0 < len(cli) <= 40 else ""
                        # Some rollouts name the model here (codex-rs' SessionMeta has no
                        # model; a turn_context without one left it unknown): the
                        # session's model until a turn_context names one.
                        named_ = payload.get("model")
                        model = named_ if isinstance(named_, str) and named_ else model
                        source = payload.get("source")
                        forked = isinstance(payload.get("forked_from_id"), str) or (
                            isinstance(source, dict) and "subagent" in source
                        )
                        if isinstance(payload.get("forked_from_id"), str) and time is not None:
                            # A fork's copy of its parent may follow at once, with no
                            # copy of the parent's session_meta to announce it (issue
                            # 40): the burst is watched from the fork's own line.
                            replay_until = time
                    elif forked and sid != own_id and time is not None:
                        replay_until = time  # the parent's history follows, copied
                    continue
                if kind == "turn_context":
                    note("turn_context")
                    name_ = payload.get("model")
                    model = name_ if isinstance(name_, str) and name_ else model
                    continue
                if kind == "compacted" or (
                    kind == "event_msg" and payload.get("type") == "context_compacted"
                ):
                    note(_label(kind, payload))
                    # The history is replaced by the summary and the user messages:
                    # no reasoning item survives it.
                    carried = since = 0
                    tail = False
                    if replay_until is None and request_since_compaction:
                        pending.append((number, time))
                        request_since_compaction = False
                    continue
                if kind != "event_msg" or payload.get("type") != "token_count":
                    if kind == "event_msg":
                        sub = payload.get("type")
                        if sub == "thread_settings_applied":
                            settings = payload.get("thread_settings")
                            found = settings.get("model") if isinstance(settings, dict) else None
                            model = found if isinstance(found, str) and found else model
                        elif sub in ("task_started", "turn_started"):
                            w = count_of(payload.get("model_context_window"))
                            window = w if w else window
                        elif sub == "user_message":
                            carried, since = carried + since, 0
                            asked = True
                    elif kind == "response_item":
                        raw_type = payload.get("type")
                        found_type = raw_type if isinstance(raw_type, str) else ""
                        if found_type == "reasoning":
                            since += reasoning_estimate(raw)
                            tail = False
                        elif found_type in _OUTPUT_ITEMS:
                            if tail and replay_until is None:
                                counts[-1] += payload_tokens(raw)
                        elif found_type in _MODEL_ITEMS:
                            tail = False
                    sub = payload.get("type")
                    key = (kind, sub) if type(kind) is str and type(sub) is str else None
                    label_ = None if key is None else labels.get(key)
                    if label_ is None:
                        label_ = _label(kind, payload)
                        if key is not None:
                            labels[key] = label_
                    kinds[label_] = kinds.get(label_, 0) + 1
                    continue
                info_ = payload.get("info")
                repeat_tail = None
                if info_ is None:
                    note(NO_INFO)
                    continue
                if not isinstance(info_, dict):
                    malformed.append(number)
                    problems.append(
                        at_line(
                            "",
                            number,
                            Problem.of("info", info_, "log-line-info"),
                        )
                    )
                    continue
                last_raw = info_.get("last_token_usage")
                total_raw = info_.get("total_token_usage")
                last_v = None if last_raw is None else _counts(last_raw, "info.last_token_usage")
                totals_v = (
                    None if total_raw is None else _counts(total_raw, "info.total_token_usage")
                )
                bad = next((x for x in (last_v, totals_v) if isinstance(x, Problem)), None)
                if bad is None and last_v is None and totals_v is None:
                    bad = Problem.coded(
                        "info",
                        "log-line-no-usage",
                    )
                if bad is not None:
                    malformed.append(number)
                    problems.append(at_line("", number, bad))
                    continue
                assert not isinstance(last_v, Problem)
                assert not isinstance(totals_v, Problem)
                last, totals = last_v, totals_v
                w_raw = info_.get("model_context_window")
                named = info_.get("model")
                if not isinstance(named, str) or not named:
                    named = info_.get("model_name")
            if totals is not None and totals == prev_totals:
                dups[SAME_TOTALS] = dups.get(SAME_TOTALS, 0) + 1
                repeat_tail, repeat_kind = (_tail(raw) if shape == 2 else None), ""
                continue
            if replay_until is not None:
                prev_totals = totals if totals is not None else prev_totals
                dups[PARENT_COPY] = dups.get(PARENT_COPY, 0) + 1
                continue
            if last is None:
                assert totals is not None
                base = prev_totals or (0, 0, 0, 0, 0)
                last = tuple(max(0, t - b) for t, b in zip(totals, base, strict=True))
            if totals is not None:
                prev_totals = totals
            w = count_of(w_raw)
            window = w if w else window
            inp, cached, output, reasoning, write = last
            if not (inp or cached or output or reasoning or write):
                note(_zero_kind(raw))
                continue
            cached = cached if cached < inp else inp
            write = min(write, inp - cached)
            req_model = named if isinstance(named, str) and named else model
            if len(requests) >= MAX_LOG_REQUESTS:
                raise too_many_requests(MAX_LOG_REQUESTS)
            request = new_request(
                (
                    number,
                    inp,
                    output,
                    cached,
                    write,
                    req_model,
                    None,  # messages, tool_result_chars: a rollout does not let us count
                    None,
                    inp - cached - write,
                    0,  # cache_write_1h
                    min(reasoning, output),
                    time,
                    time,
                    0,  # file
                    None,  # logged_cost
                    None,  # sent: a rollout does not say
                )
            )
            if pending:
                for at, when in pending:
                    compactions.append(LogCompaction(at, len(requests), None, None, inp, 0, when))
                pending.clear()
            request_since_compaction = True
            if asked:
                prompted.append(len(requests))
                asked = False
            requests.append(request)
            counts.append(inp + output + carried)
            tail = True
            if totals is not None and shape == 2:
                repeat_tail, repeat_kind = _tail(raw), ""
        yield  # a batch taken in: the import may stop here
    if same_totals:
        dups[SAME_TOTALS] = dups.get(SAME_TOTALS, 0) + same_totals
    for at, when in pending:
        compactions.append(LogCompaction(at, len(requests), None, None, None, 0, when))
    series = (
        LogSeries(
            "main",
            tuple(requests),
            tuple(compactions),
            (),
            tuple(times),
            tuple(counts),
            conversation_times=tuple(talk),
            prompted=tuple(prompted),
        ),
    )
    ledger = FileLedger(
        name=name,
        lines=count,
        blank=blank,
        malformed=tuple(malformed),
        requests=(("main", len(requests), 0),) if requests else (),
        duplicates=tuple(sorted(dups.items())),
        entries=tuple(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))),
    )
    return ParsedLog(
        "codex",
        series if requests else (),
        tuple(problems),
        sum(dups.values()),
        window,
        (ledger,),
        name,
        (name,),
        version=version,
    )


def read_codex(name: str, stream: LineSource, *, what: str = "log") -> Steps[ParsedLog]:
    """A Codex CLI rollout (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``), in steps."""
    return _steps(name, numbered_batches(stream, what), compiled=True)
