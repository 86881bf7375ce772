"""The words the log readers write in English about a log's lines, said in the page's
language: the kinds of entry of a ledger (the reader's labels, and the words it puts
around a record's own type name) and of its folded copies, and the parameters of a
log's problem that carry them (a file with no request lists its kinds; one whose usage
another file bills, its copies'). What a file that looks like an agent's
lacks is a catalogue key (``Agent.missing``), said by ``messages.problem_params``.
Shared by every part that shows a log's ledger or
problems (the replay's sessions and ledger, Tune's sessions not replayed), through
:func:`budgetcore.ui.problems.problem_text`: the tenth walk found "(zero usage)" and
"has no messages list" in English on the Chinese page, in the replay and in Tune."""

from __future__ import annotations

import dataclasses

from budgetcore.errors import Problem, shown_text
from budgetcore.messages import t
from budgetcore.replay.logs.cline import HISTORY_MODEL, HISTORY_NO_MODEL, HISTORY_UNNEEDED
from budgetcore.replay.logs.codex import ESTIMATE, ESTIMATE_TOTAL, NO_INFO, WINDOW_FULL
from budgetcore.units import format_int

__all__ = ["COPY_KEYS", "ENTRY_KEYS", "ENTRY_PREFIXES", "ENTRY_SUFFIXES", "entry_kind", "said_in"]

#: Entry labels the reader writes itself (the rest are the log's own type names: data).
ENTRY_KEYS = {
    NO_INFO: "replay.logs.entry.rate-limits-only",
    ESTIMATE: "replay.logs.entry.estimate",
    WINDOW_FULL: "replay.logs.entry.window-full",
    ESTIMATE_TOTAL: "replay.logs.entry.estimate-total",
    HISTORY_MODEL: "replay.logs.entry.cline-history-model",
    HISTORY_NO_MODEL: "replay.logs.entry.cline-history-no-model",
    HISTORY_UNNEEDED: "replay.logs.entry.cline-history-unneeded",
    "legacy rollout line (no token counts)": "replay.logs.entry.legacy",
    "(no type)": "replay.logs.entry.no-type",
    "assistant (<synthetic>)": "replay.logs.entry.synthetic",
    "assistant (no tokens)": "replay.logs.entry.no-tokens",
    "assistant (no usage)": "replay.logs.entry.no-usage",
    "message (Goose keeps no usage per message)": "replay.logs.entry.goose-message",
    "metadata (last call's usage only)": "replay.logs.entry.goose-last-usage-only",
    "message (billed by the usage ledger)": "replay.logs.entry.goose-message-ledger",
    "session (totals in the usage ledger)": "replay.logs.entry.goose-session-ledger",
    "usage row (no tokens)": "replay.logs.entry.goose-usage-row-no-tokens",
    "assistant message in no ledger event (left out)": "replay.logs.entry.amp-unbilled",
    "assistant message (billed by its ledger event)": "replay.logs.entry.amp-billed",
    "usage ledger event (zero tokens)": "replay.logs.entry.amp-zero-event",
    "assistant message (zero usage)": "replay.logs.entry.message-zero-usage",
    "assistant message (zero tokens)": "replay.logs.entry.message-zero-tokens",
    "usage event (no tokens)": "replay.logs.entry.usage-event-no-tokens",
    "otel record (no usage)": "replay.logs.entry.otel-no-usage",
    "event of a session the session store bills": "replay.logs.entry.copilot-by-store",
    "compaction, marked on the store's session": "replay.logs.entry.copilot-store-mark",
    "compaction (no time in its file: not placed)": "replay.logs.entry.copilot-store-unplaced",
    "event of a session an OpenTelemetry export bills": "replay.logs.entry.copilot-by-export",
    "settings (no tokens)": "replay.logs.entry.settings-no-tokens",
    "session (no tokens)": "replay.logs.entry.session-no-tokens",
    "gemini (no tokens)": "replay.logs.entry.gemini-no-tokens",
    "gemini (zero tokens)": "replay.logs.entry.gemini-zero-tokens",
    "message/assistant (no usage)": "replay.logs.entry.pi-no-usage",
    "message/assistant (zero usage)": "replay.logs.entry.pi-zero-usage",
    "assistant (zero usage)": "replay.logs.entry.zero-usage",
    "(no message type)": "replay.logs.entry.no-message-type",
    "compaction part (auto)": "replay.logs.entry.opencode-compaction-auto",
    "compaction part (manual)": "replay.logs.entry.opencode-compaction-manual",
    "compaction part (auto unknown)": "replay.logs.entry.opencode-compaction-unknown",
    "part (no type)": "replay.logs.entry.opencode-part-no-type",
    "compaction message (auto)": "replay.logs.entry.opencode-row-auto",
    "compaction message (manual)": "replay.logs.entry.opencode-row-manual",
    "compaction message (reason unknown)": "replay.logs.entry.opencode-row-unknown",
    "compaction message (failed)": "replay.logs.entry.opencode-row-failed",
    "compaction message (not completed)": "replay.logs.entry.opencode-row-not-completed",
    # A whole JSON document, counted once beside its records (Gemini CLI's, Cline's).
    "session document": "replay.logs.entry.session-document",
    "ui_messages document": "replay.logs.entry.ui-messages-document",
    "document without messages": "replay.logs.entry.document-without-messages",
    "document that is not an Amp thread": "replay.logs.entry.not-amp-thread",
    "document that is not a Cline task": "replay.logs.entry.not-cline-task",
    "document without tokenUsage": "replay.logs.entry.droid-no-token-usage",
    "transcript line": "replay.logs.entry.droid-transcript-line",
}


#: The ledger's kinds of folded copies (docs/replay.md, "The ledger"), by catalogue key.
COPY_KEYS = {
    "copy of a request": "replay.logs.copy.request",
    "copy of a main request": "replay.logs.copy.main",
    "token_count repeating the previous totals": "replay.logs.copy.same-totals",
    "token_count copied from the parent session": "replay.logs.copy.parent",
    "response copied from the parent session": "replay.logs.copy.pi-parent",
    "entry written again (same id)": "replay.logs.copy.entry-again",
    "record written again (same id)": "replay.logs.copy.record-again-id",
    "record written again (same uuid)": "replay.logs.copy.record-again-uuid",
    "chat span covered by a higher source": "replay.logs.copy.copilot-chat",
    "inference log covered by a higher source": "replay.logs.copy.copilot-inference",
    "agent turn log covered by a higher source": "replay.logs.copy.copilot-turn",
    "invoke_agent span covered by a higher source": "replay.logs.copy.copilot-agent",
    "a session its events.jsonl bills": "replay.logs.copy.copilot-by-events",
    "a session the session store bills": "replay.logs.copy.copilot-by-store",
    "a subagent's step, in its own wire and the session's": "replay.logs.copy.kimi-subagent-step",
}


#: What a reader appends to a record's own type name (``f"{label} (no tokens yet)"``):
#: the name is the log's data, the words after it the reader's, said in the language.
ENTRY_SUFFIXES = {
    " (no tokens yet)": "replay.logs.entry-suffix.no-tokens-yet",
    " (no token usage)": "replay.logs.entry-suffix.no-token-usage",
    " (zero usage)": "replay.logs.entry-suffix.zero-usage",
    " (in shutdown totals)": "replay.logs.entry-suffix.in-shutdown-totals",
    # Cline's, Amp's and OpenCode's "<role> message": the role is the log's.
    " message": "replay.logs.entry-suffix.message",
    # OpenCode's "<type> part" ("text part", "step-start part"): the type is the log's.
    " part": "replay.logs.entry-suffix.part",
}


#: What a reader puts before a record's own type name (Droid's ``f"transcript {type}"``:
#: a line of the transcript beside the settings file), said in the language.
ENTRY_PREFIXES = {"transcript ": "replay.logs.entry-prefix.transcript"}


def entry_kind(kind: str, lang: str) -> str:
    """A ledger entry's kind in ``lang``: the reader's own label, or the log's type name
    with the reader's words around it said in the language (the name stays as written)."""
    key = ENTRY_KEYS.get(kind)
    if key is not None:
        return t(key, lang)
    for prefix, key in ENTRY_PREFIXES.items():
        if kind.startswith(prefix):
            return t(key, lang, kind=kind[len(prefix) :])
    for suffix, key in ENTRY_SUFFIXES.items():
        if kind.endswith(suffix):
            return t(key, lang, kind=kind[: -len(suffix)])
    return kind


def said_in(p: Problem, lang: str) -> Problem:
    """``p`` with the parameters a reader wrote in English said in ``lang``: a file with
    no request's kinds of entry (``replay.logs.no_requests``: "message/user 2,
    message/assistant (zero usage) 1"), each as the ledger says it and joined by the
    language's separator, from the kinds and counts the problem carries (never the
    English split back); a file whose usage another file bills, the kinds of its copies
    (``replay.logs.copy.*``: "a session the session store bills: 1"). Any other problem
    as it is."""
    if p.code == "log-no-requests-elsewhere" and p.counts:
        params = dict(p.params)
        params["sources"] = t("msg.item-sep", lang).join(
            f"{t(COPY_KEYS[k], lang) if k in COPY_KEYS else shown_text(k)}: {format_int(n)}"
            for k, n in p.counts
        )
        return dataclasses.replace(p, params=tuple(params.items()))
    if p.code != "log-no-requests":
        return p
    params = dict(p.params)
    # A file of malformed lines alone holds no kind of entry: the reader's "none" is
    # English (it read "非请求条目:none").
    params["entries"] = t("msg.item-sep", lang).join(
        f"{shown_text(entry_kind(k, lang))} {format_int(n)}" for k, n in p.counts
    ) or t("phrase.none", lang)
    return dataclasses.replace(p, params=tuple(params.items()))
