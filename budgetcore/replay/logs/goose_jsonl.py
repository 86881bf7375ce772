"""Goose's sessions from before its database (docs/replay.md, "Other agents"): one JSON
Lines file a session, ``~/.local/share/goose/sessions/<id>.jsonl`` (Goose before 1.0.x
moved them into ``sessions.db``).

The shape, from block/goose ``crates/goose/src/session/storage.rs`` @01a262b2: the
first line is the session's metadata (``SessionMetadata``: ``working_dir``,
``description``, ``schedule_id``, ``message_count``, ``total_tokens``,
``input_tokens``, ``output_tokens``, ``accumulated_total_tokens``,
``accumulated_input_tokens``, ``accumulated_output_tokens``), each line after it a
message (``role``, ``created``, ``content``), which carries no usage. The
``accumulated_*`` counts are the session's totals ("accumulated across all messages
(useful for tracking cost over an entire session)"); the bare ``input_tokens`` /
``output_tokens`` / ``total_tokens`` are "retrieved from the provider's last usage":
one call's, not the session's. So a file with the accumulated counts is a totals-only
session, as a database session before the usage ledger is (goose.py): its input holds
the cache reads (Goose's input is cache-inclusive, and this file keeps no cache count),
the total beyond input and output is reasoning, billed as output. The file names no
model (the metadata has none), so its cost is unknown, never 0. A file with the last
call's counts alone (older Goose wrote no accumulated ones) says it lacks the session's
totals. ccusage 20.0.24 reads ``sessions.db`` alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from budgetcore.errors import Problem
from budgetcore.replay.logs.goose import TOTALS_WHY
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import LineSource
from budgetcore.replay.logs.records import counts
from budgetcore.replay.logs.tally import Tally

__all__ = ["claims", "no_request_of", "read_goose_jsonl"]

_ACCUMULATED = ("accumulated_input_tokens", "accumulated_output_tokens", "accumulated_total_tokens")
_LAST = ("input_tokens", "output_tokens", "total_tokens")

#: The metadata line's kinds in the ledger.
LAST_ONLY = "metadata (last call's usage only)"
NO_TOKENS = "session (no tokens)"
MESSAGE = "message (Goose keeps no usage per message)"
#: What such a file lacks (ParsedLog.lacks): the model, so the cost.
LACKS_MODEL = "replay.log.lacks.goose-jsonl-no-model"


def claims(obj: dict[str, object]) -> bool:
    """Goose's session metadata line: ``description`` and ``message_count`` (the keys
    storage.rs requires of it), with one of its token counts or ``working_dir``, or
    ``extension_data``: Goose's own loader of these files (``session/legacy.rs``) fills
    the line in as its ``Session``, whose tests write one without the others."""
    return (
        "description" in obj
        and "message_count" in obj
        and any(k in obj for k in ("working_dir", "extension_data", *_LAST, *_ACCUMULATED))
    )


def no_request_of(kinds: dict[str, int]) -> str:
    """Why a Goose JSON Lines session has no usage: its metadata holds the last call's
    counts alone, not the session's."""
    return "log-goose-last-usage-only" if LAST_ONLY in kinds else ""


def read_goose_jsonl(files: Sequence[tuple[str, LineSource]], *, what: str = "log") -> ParsedLog:
    tally = Tally("goose")
    for name, stream in files:
        tally.open(name)
        for number, obj in tally.lines(stream, what):
            if not claims(obj):  # a message: Goose wrote its usage on none
                tally.entry(MESSAGE)
                continue
            found = counts(obj, _ACCUMULATED, "metadata")
            if isinstance(found, Problem):
                tally.malformed(number, found)
                continue
            fresh, output, total = found
            if not any(k in obj and obj[k] is not None for k in _ACCUMULATED):
                last = counts(obj, _LAST, "metadata")
                has_last = not isinstance(last, Problem) and any(last)
                tally.entry(LAST_ONLY if has_last else NO_TOKENS)
                continue
            if not (fresh or output or total):
                tally.entry(NO_TOKENS)
                continue
            reasoning = max(0, total - fresh - output)
            tally.lacks = LACKS_MODEL
            tally.total(
                number,
                why=TOTALS_WHY,
                input=fresh,
                output=output + reasoning,
                reasoning=reasoning,
                model=None,
            )
    return tally.session(files[0][0] if files else "")
