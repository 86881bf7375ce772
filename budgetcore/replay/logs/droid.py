"""Factory Droid sessions (docs/replay.md, "Other agents"):
``~/.factory/sessions/**/<id>.settings.json`` beside the transcript ``<id>.jsonl``.

Droid keeps per-session totals only: the settings file's ``tokenUsage``
(``inputTokens`` uncached, ``cacheCreationTokens``, ``cacheReadTokens``,
``outputTokens``, ``thinkingTokens`` billed as output), its ``model`` and
``providerLock`` (ccusage ``rust/crates/ccusage/src/adapter/droid/parser.rs``
@5816e640). So a Droid session is measured, never replayed turn by turn, and no
request is counted for it. The transcript's lines hold no usage: each is an entry of
the ledger, by its type. A settings file without ``model`` (older Droid wrote none)
takes the model its transcript's system reminder names (``Model: <name> [<provider>]``
in one of its first 500 lines), as ccusage's ``extract_model_from_sidecar_jsonl``
does.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from operator import attrgetter

from budgetcore.errors import Problem, ScenarioError
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import (
    MAX_LINE_BYTES,
    LineSource,
    Replayed,
    decoded_lines,
    millis,
)
from budgetcore.replay.logs.records import Shape
from budgetcore.replay.logs.tally import (
    NOT_A_DOCUMENT,
    Tally,
    counts,
    document_of,
    registry_name,
)

__all__ = [
    "LINE",
    "TOTALS_WHY",
    "claims",
    "claims_document",
    "custom_models",
    "exec_output",
    "model_name",
    "read_droid",
]

TOTALS_WHY = "Droid records each session's token totals, not its requests"
_USAGE = ("inputTokens", "cacheCreationTokens", "cacheReadTokens", "outputTokens", "thinkingTokens")

#: A transcript line, read for its ``type`` alone: its kind in the ledger (a text; any
#: other value, or none, is a line of no kind).
LINE = Shape("DroidLine", ("type",), texts=frozenset({"type"}))
_TYPE = attrgetter("type")


def claims(obj: dict[str, object]) -> bool:
    """A line of a Droid transcript (``<id>.jsonl``): its first, ``session_start``
    (agent-sessions' Droid fixtures; ccusage reads the settings file only; pi's header is
    ``type: session`` with ``cwd`` and ``version``). Its other lines look like pi's
    entries (``type: message``, ``id``, ``parentId``), but a Droid message is its role
    and content alone, where pi stamps every message with its epoch milliseconds
    (``message.timestamp``, pi-mono ``packages/ai/src/types.ts`` @83378aad): a
    ``message`` line that pi does not claim (:func:`.pi.claims`, asked first: one with
    ``parentId`` stays pi's) whose message has a role and content, no stamp and no
    usage, is Droid's (a session indexer's Droid test writes a transcript of one such
    user line and no settings file, code index id 60317082424, held out in round 10d:
    "no usable request in this pi file"). Or a line of ``droid exec``'s output
    (:func:`exec_output`), told apart so that it is named."""
    kind = obj.get("type")
    if kind == "session_start":
        return "id" in obj and "uuid" not in obj
    if kind == "message" and "uuid" not in obj:
        message = obj.get("message")
        return (
            isinstance(message, dict)
            and message.get("role") in ("user", "assistant")
            and "content" in message
            and "timestamp" not in message
            and "usage" not in message
        )
    return exec_output(obj)


def exec_output(obj: dict[str, object]) -> bool:
    """A line of ``droid exec --output-format stream-json``'s output (captured from its
    standard output: not a session of the data folder): its ``completion`` line with
    ``finalText``, or its ``system`` / ``init`` line with ``reasoning_effort``
    (jazzyalex/agent-sessions ``Resources/Fixtures/stage0/agents/droid/stream_json_*``
    @651e854f). The init line names its session ``sessionId`` as Claude Code's lines do,
    so without this it was read as a Claude Code file."""
    kind = obj.get("type")
    if kind == "completion":
        return "finalText" in obj
    return (
        kind == "system"
        and obj.get("subtype") == "init"
        and "reasoning_effort" in obj
        and "uuid" not in obj
    )


def claims_document(doc: object) -> bool:
    """A Droid settings file: a ``tokenUsage`` object."""
    return isinstance(doc, dict) and isinstance(doc.get("tokenUsage"), dict)


def model_name(raw: str) -> str:
    """Droid's model name as the registry spells it (ccusage's
    ``normalize_droid_model_name``): no ``custom:`` prefix nor bracketed parts, lower
    case, dots and spaces as single dashes."""
    text = re.sub(r"\[[^\]]*\]", "", raw.removeprefix("custom:")).strip().rstrip("-").lower()
    return re.sub(r"[.\s-]+", "-", text)


#: How far into a transcript its model is looked for: ccusage's 500 lines, read whole
#: as format detection reads a line, while fewer than this many bytes are held.
_MODEL_LINES = 500
_MODEL_BYTES = 8 << 20
_MODEL_AT = re.compile(rb'Model:([^"\\\[]*)')


def transcript_model(stream: LineSource) -> tuple[str | None, LineSource]:
    """The model a transcript's first lines name (``Model: Claude Opus 4.5 Thinking
    [Anthropic]`` in a system reminder: the name up to a quote, a backslash or a
    bracket, as ccusage reads it), and the stream to read the transcript from, those
    lines given again. Only the name is kept; the lines are read again for their
    types."""
    head: list[bytes] = []
    held = 0
    found: str | None = None
    while len(head) < _MODEL_LINES and held < _MODEL_BYTES:
        raw = stream.readline(MAX_LINE_BYTES + 1)  # the reader says what is too long
        if not raw:
            break
        head.append(raw)
        held += len(raw)
        at = _MODEL_AT.search(raw)
        if at is not None:
            name = model_name(at.group(1).decode("utf-8", "replace"))
            if name:
                found = name
                break
        if not raw.endswith(b"\n"):
            break  # the last line, or one too long: its rest is the stream's
    return found, Replayed(head, stream)


def _priced_name(name: str) -> str:
    """The registry id of a Droid model name; a name the registry does not know with
    Droid's ``Thinking`` suffix (its display name for a model run with extended
    thinking, billed at the model's prices) is priced as the model."""
    from budgetcore.registry.models import resolve  # noqa: PLC0415 - a model only

    priced = registry_name(name)
    if name.endswith("-thinking") and resolve(priced).model is None:
        bare = registry_name(name.removesuffix("-thinking"))
        if resolve(bare).model is not None:
            return bare
    return priced


#: The Factory folder's files that list custom models (layouts.plan_droid): its
#: ``settings.json`` (``customModels``, camelCase) and the legacy ``config.json``
#: (``custom_models``, snake case), settings.json first where both name one
#: (docs.factory.ai/cli/byok/overview: "Both files are loaded and merged, with
#: settings.json taking priority").
_CONFIGS = {
    "settings.json": ("customModels", "displayName", "settings.json (customModels)"),
    "config.json": ("custom_models", "model_display_name", "config.json (custom_models)"),
}


_WHITE = re.compile(r"\s+")


def custom_models(doc: object, name: str) -> dict[str, str]:
    """A Factory config's custom models: each one's id -> the model name it sends to its
    provider (its ``model``). Droid names a custom model ``custom:<display name, each
    run of white space a dash>-<its index in the list>`` (its ``buildCustomModelId``, as
    droid-patch's custom-model manager rebuilds the ids in ~/.factory/settings.json,
    code index id 13085327585) and writes that id as a session's ``model``; newer
    settings write it beside the entry too (``id``, ``index``), and an entry's own
    ``id`` is taken first."""
    key, display, _label = _CONFIGS[name]
    listed = doc.get(key) if isinstance(doc, dict) else None
    found: dict[str, str] = {}
    for position, entry in enumerate(listed if isinstance(listed, list) else []):
        if not isinstance(entry, dict):
            continue
        model = entry.get("model")
        if not isinstance(model, str) or not model.strip():
            continue
        own = entry.get("id")
        if isinstance(own, str) and own.strip():
            found.setdefault(own.strip(), model.strip())
        shown = entry.get(display)
        index = entry.get("index")
        at = index if type(index) is int and index >= 0 else position
        if isinstance(shown, str) and shown.strip():
            dashed = _WHITE.sub("-", shown.strip())
            found.setdefault(f"custom:{dashed}-{at}", model.strip())
    return found


def read_droid(files: Sequence[tuple[str, LineSource]], *, what: str = "log") -> ParsedLog:
    """``files[0]`` the settings file, then the transcript (when there is one) and the
    Factory folder's ``settings.json`` and ``config.json`` (where the planner found
    them). A transcript alone has no usage: said so, naming the file that holds it. A
    session's ``custom:`` model is priced at the model its custom model sends
    (:func:`custom_models`); one no config names stays as written, unpriced where the
    registry does not know it (never $0)."""
    if files and files[0][0].endswith(".jsonl"):
        # Which of the two Droid files with no usage of a session this is: the first
        # line either claims says.
        code = "log-droid-transcript-alone"
        for _number, obj in decoded_lines(files[0][1], what):
            if isinstance(obj, dict) and claims(obj):
                code = "log-droid-exec-output" if exec_output(obj) else code
                break
        raise ScenarioError([Problem.coded(what, code)])
    tally = Tally("droid")
    files = list(files)
    # The custom models first: the configs that name them are read before the totals
    # they price, settings.json's ids taking priority over config.json's.
    configs: dict[int, object] = {}
    customs: dict[str, str] = {}
    for base in _CONFIGS:
        for k, (name, stream) in enumerate(files):
            if k > 0 and name.rsplit("/", 1)[-1] == base:
                doc = document_of(stream, what)
                configs[k] = doc
                if not isinstance(doc, Problem):
                    for key, model in custom_models(doc, base).items():
                        customs.setdefault(key, model)
    for i, (name, stream) in enumerate(files):
        tally.open(name)
        if i in configs:  # one record each, in the ledger in the files' order
            tally.record()
            value = configs[i]
            if isinstance(value, Problem):
                tally.malformed(1, value)
            else:
                tally.entry(_CONFIGS[name.rsplit("/", 1)[-1]][2])
            continue
        if i > 0:  # the transcript: no usage in it
            # Its lines counted by type a batch at a time, in C: a Python step per line
            # was most of a Droid folder's read (its transcripts are most of its bytes).
            for _numbers, records in tally.record_batches(stream, what, LINE):
                tally.entries_of(
                    (f"transcript {kind}" if kind is not None else "transcript line", n)
                    for kind, n in Counter(map(_TYPE, records)).items()
                )
            continue
        doc = tally.document(stream, what)
        if doc is NOT_A_DOCUMENT:
            continue
        if not claims_document(doc):
            tally.entry("document without tokenUsage")
            continue
        found = counts(doc["tokenUsage"], _USAGE, "tokenUsage")
        if isinstance(found, Problem):
            tally.malformed(1, found)
            continue
        fresh, write, read, output, thinking = found
        if not (fresh or write or read or output or thinking):
            tally.entry("settings (no tokens)")
            continue
        model = doc.get("model")
        if isinstance(model, str) and model.strip() in customs:
            model = customs[model.strip()]
        named = model_name(model) if isinstance(model, str) and model.strip() else None
        transcript = next((k for k in range(1, len(files)) if k not in configs), None)
        if named is None and transcript is not None:
            named, rest = transcript_model(files[transcript][1])
            files[transcript] = (files[transcript][0], rest)
        tally.total(
            1,
            why=TOTALS_WHY,
            input=fresh,
            cache_read=read,
            cache_write=write,
            output=output + thinking,
            reasoning=thinking,
            model=None if named is None else _priced_name(named),
            time=millis(doc.get("providerLockTimestamp")),
        )
    return tally.session(files[0][0] if files else "")
