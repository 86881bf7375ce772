"""pi (pi-coding-agent) session JSONL (docs/replay.md, "Other agents"):
``~/.pi/agent/sessions/--<cwd>--/<timestamp>_<uuid>.jsonl``.

The shape, from pi-mono ``packages/coding-agent/docs/session.md`` (session format
version 3) and ccusage ``rust/crates/ccusage/src/adapter/pi/parser.rs`` @5816e640:

- a header ``{"type":"session","version":3,"id","timestamp","cwd"}``;
- entries with ``id`` / ``parentId`` (a tree: the branch replayed is the path to the
  last entry written, as pi's own leaf);
- ``{"type":"message","message":{"role":"assistant","model","provider","usage":{...}}}``
  is one request: ``usage.input`` is the uncached input (cache reads and writes are
  ``cacheRead`` / ``cacheWrite`` beside it), ``usage.cost.total`` pi's own cost;
- ``{"type":"compaction","tokensBefore"}`` a compaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from budgetcore.errors import Problem
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import LineSource, Steps, count_of, millis
from budgetcore.replay.logs.tally import Row, Tally, counts, registry_name

__all__ = ["claims", "read_pi"]

#: The keys this reader looks at, for the compiled decoder (compiled.SKELETONS).
SKELETON = "pi"

_ENTRY_TYPES = frozenset(
    {
        "message",
        "model_change",
        "thinking_level_change",
        "compaction",
        "branch_summary",
        "custom",
        "custom_message",
        "label",
        "session_info",
    }
)
#: Entries a version 1 file (no ids) tells pi by: its message and settings changes.
_V1_ENTRY_TYPES = frozenset({"model_change", "thinking_level_change", "compaction"})
_USAGE = ("input", "cacheRead", "cacheWrite", "output", "totalTokens")


def claims(obj: dict[str, object]) -> bool:
    """A pi line: the header (``type`` session with a ``cwd``), or an entry of pi's
    types with ``id`` and ``parentId`` (Claude Code's are ``uuid`` / ``parentUuid``).

    A version 1 session (pi before the tree, pi-mono's own test fixtures
    ``packages/coding-agent/test/fixtures/large-session.jsonl`` @83378aad) has no
    ``version`` in its header and no ids on its entries: its ``model_change`` and
    ``thinking_level_change`` lines are pi's alone, and a ``message`` line without an
    ``id`` is pi's (a Droid transcript's carry one)."""
    kind = obj.get("type")
    if kind == "session":
        return "cwd" in obj and "id" in obj
    if kind not in _ENTRY_TYPES or "uuid" in obj:
        return False
    if "id" in obj:
        return "parentId" in obj
    return kind in _V1_ENTRY_TYPES or (kind == "message" and isinstance(obj.get("message"), dict))


def _cost(usage: dict[str, object]) -> Decimal | None:
    cost = usage.get("cost")
    total = cost.get("total") if isinstance(cost, dict) else None
    if isinstance(total, int) and not isinstance(total, bool):
        total = Decimal(total)
    if isinstance(total, Decimal) and total.is_finite() and total >= 0:
        return total
    return None


def read_pi(files: Sequence[tuple[str, LineSource]], *, what: str = "log") -> Steps[ParsedLog]:
    tally = Tally("pi")
    seen: set[str] = set()
    # The requests read, handed to the ledger at once (Tally.requests_of: a keyword call
    # of Tally.request per request cost about a microsecond, as for Kimi CLI), before a
    # compaction counts them and at each batch's and file's end: in the order read.
    pending: list[Row] = []

    def hand_over() -> None:
        if pending:
            tally.requests_of("main", pending)
            pending.clear()

    for name, stream in files:
        here = tally.open(name)
        for number, obj in tally.lines(stream, what, SKELETON, steps=True):
            if not number:  # a batch's end (Tally.lines): the import may stop here
                hand_over()
                yield
                continue
            kind = obj.get("type")
            node = obj.get("id")
            parent = obj.get("parentId")
            time = millis(obj.get("timestamp"))
            if kind == "session":
                tally.entry("session")
                continue
            if not isinstance(kind, str):
                tally.entry("(no type)")
                continue
            tree = isinstance(node, str) and (parent is None or isinstance(parent, str))
            if tree:
                assert isinstance(node, str)
                if node in seen:
                    tally.duplicate("entry written again (same id)")
                    continue
                seen.add(node)
                tally.node("main", node, parent if isinstance(parent, str) else None)
            key = node if tree and isinstance(node, str) else None
            tally.time("main", time, key)
            if kind == "compaction":
                tally.entry("compaction")
                before = count_of(obj.get("tokensBefore"))
                hand_over()
                tally.compaction(number, pre_tokens=before or None, time=time, node=key)
                continue
            message = obj.get("message")
            if kind != "message" or not isinstance(message, dict):
                tally.entry(kind)
                continue
            role = message.get("role")
            usage = message.get("usage")
            if role != "assistant":
                tally.entry(f"message/{role}" if isinstance(role, str) else "message")
                continue
            if usage is None:
                tally.entry("message/assistant (no usage)")
                continue
            found = counts(usage, _USAGE, "message.usage")
            if isinstance(found, Problem):
                tally.malformed(number, found)
                continue
            fresh, read, write, output, total = found
            if not (fresh or read or write or output):
                if total:
                    tally.malformed(
                        number,
                        Problem.of(
                            "message.usage",
                            total,
                            "log-line-total-only",
                        ),
                    )
                else:
                    tally.entry("message/assistant (zero usage)")
                continue
            model = message.get("model")
            if isinstance(model, str) and model:
                # ccusage prices a name its table lacks by a loose match; the registry
                # id of the message's provider, then of the name's maker, stands in.
                provider = message.get("provider")
                model = registry_name(model, (provider,) if isinstance(provider, str) else ())
            assert isinstance(usage, dict)
            pending.append(
                (
                    number,
                    fresh,
                    read,
                    output,
                    0,
                    model if isinstance(model, str) and model else None,
                    time,
                    key,
                    here,
                    write,
                    _cost(usage),
                )
            )
        hand_over()
    return tally.session(files[0][0] if files else "")
