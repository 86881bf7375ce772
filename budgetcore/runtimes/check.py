"""Check the runtime's own file (docs/spec.md §18, docs/runtimes.md): read it as the
runtime reads it and say which window, trigger and summary cap it means for a model.

Each reader keeps only the runtime's compaction knobs (every other key is counted as
ignored, never silently lost), checks each value's type and range, and reports every
problem at once as coded one-line problems naming the key as the file spells it, the
rule and the value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from budgetcore.errors import NonFinite, Problem, ScenarioError
from budgetcore.runtimes import profile
from budgetcore.runtimes.libraries import ANTHROPIC_MIN_TRIGGER
from budgetcore.runtimes.model import Profile, Value
from budgetcore.runtimes.own_file import RuntimeFile, file_model, model_not_named, parse_file
from budgetcore.runtimes.profiles import (
    claude_code_model_window,
    claude_code_window,
    gemini_token_limit,
)
from budgetcore.runtimes.syntax import (
    NotLiteral,
    read_python_call,
)

if TYPE_CHECKING:
    from budgetcore.registry.models import Resolution

__all__ = [
    "MODEL_ORDER",
    "NamedWindow",
    "ReadFor",
    "RuntimeCheck",
    "RuntimeFile",
    "check_runtime",
    "file_model",
    "named_window",
    "parse_file",
    "read_for",
    "read_settings",
    "runtime_window",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class RuntimeCheck:
    runtime: Profile
    settings: tuple[tuple[str, Value], ...]  # the compaction knobs the file sets
    ignored: tuple[str, ...]  # other keys of the file (not compaction knobs)
    window: int  # W as the runtime takes it for this model
    window_source: str
    output: int
    effective_trigger_tokens: int | None  # K as this runtime means it (None: never)
    summary_cap_tokens: int | None  # S as this runtime means it (None: no cap)
    notes: tuple[str, ...]


def _ascii_digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


class _Reader:
    """Collects the knobs and the problems of one file."""

    def __init__(self, what: str, title: str = "", *, strings: bool = True) -> None:
        self.what = what
        self.title = title
        #: Whether a number written as text ("120000") is read as the number: true for
        #: environment values and YAML, and for readers that coerce (Kimi's pydantic);
        #: false where the runtime's own parser rejects it (Codex's serde i64, pi's
        #: "non-negative safe integers").
        self.strings = strings
        self.settings: dict[str, Value] = {}
        self.problems: list[Problem] = []
        self.ignored: list[str] = []
        self.notes: list[str] = []

    def bad(self, path: str, value: object, code: str, /, **params: object) -> None:
        self.problems.append(Problem.of(path, value, code, **params))

    def tokens(self, knob: str, path: str, raw: object, low: int, high: int | None = None) -> None:
        value = raw
        # ASCII digits only: str.isdigit() holds for "²" (int() then raised: an internal
        # error) and for full-width digits, which no runtime's parseInt or Number reads.
        if self.strings and isinstance(raw, str) and _ascii_digits(raw.strip().lstrip("-")):
            value = int(raw.strip())
        if isinstance(value, bool) or not isinstance(value, int):
            self.bad(path, raw, "runtime-tokens")
            return
        if value < low or (high is not None and value > high):
            if high is None:
                self.bad(path, raw, "runtime-at-least", low=f"{low:,}")
            else:
                self.bad(path, raw, "runtime-range", low=f"{low:,}", high=f"{high:,}")
            return
        self.settings[knob] = value

    def number(
        self, knob: str, path: str, raw: object, low: Decimal, high: Decimal, *, open_low: bool
    ) -> None:
        value: Decimal | None = None
        if isinstance(raw, bool | NonFinite):
            value = None
        elif isinstance(raw, int | Decimal):
            value = Decimal(raw)
        elif isinstance(raw, str) and self.strings and raw.isascii() and "_" not in raw:
            # Decimal reads "１２" as 12 and "1_0" as 10; JavaScript's parseFloat reads
            # NaN and 1 (Claude Code's CLAUDE_AUTOCOMPACT_PCT_OVERRIDE): refused here.
            try:
                value = Decimal(raw.strip())
            except InvalidOperation:
                value = None
            if value is not None and not value.is_finite():
                value = None
        if value is None:
            self.bad(path, raw, "runtime-number")
            return
        below = value <= low if open_low else value < low
        if below or value > high:
            code = "runtime-above-up-to" if open_low else "runtime-from-up-to"
            self.bad(path, raw, code, low=low, high=high)
            return
        self.settings[knob] = value

    def flag(self, knob: str, path: str, raw: object) -> None:
        if isinstance(raw, str) and raw.strip().lower() in ("1", "true", "0", "false"):
            raw = raw.strip().lower() in ("1", "true")
        if not isinstance(raw, bool):
            self.bad(path, raw, "bool")
            return
        self.settings[knob] = raw

    def done(self) -> None:
        if self.problems:
            raise ScenarioError(self.problems)


def _object(r: _Reader, doc: object, path: str) -> Mapping[str, Any]:
    if isinstance(doc, dict):
        dups = getattr(doc, "duplicates", ())
        for key in dups:
            r.bad(f"{path}.{key}" if path else key, key, "runtime-duplicate")
        return doc
    r.bad(path or r.what, doc, "runtime-object")
    return {}


def _walk(
    r: _Reader, doc: Mapping[str, Any], known: Mapping[str, Callable[[str, object], None]]
) -> None:
    """Visit ``known`` dotted keys of a nested document. Every other key on the way (a
    sibling of a known key, at any depth) is listed as ignored, and a key a table sets
    twice is a problem: nothing is dropped in silence."""
    children: dict[str, set[str]] = {}
    for dotted in known:
        parts = dotted.split(".")
        for i in range(len(parts)):
            children.setdefault(".".join(parts[:i]), set()).add(parts[i])
    for prefix, names in children.items():
        node: object = doc
        for part in prefix.split(".") if prefix else ():
            node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, dict):
            if node is not None:
                r.bad(prefix, node, "runtime-settings-table")
            continue
        here = f"{prefix}." if prefix else ""
        for key in getattr(node, "duplicates", ()):
            if prefix:  # the top level's are named by _object
                r.bad(here + key, key, "runtime-duplicate")
        r.ignored.extend(here + key for key in node if key not in names)
    for dotted, visit in known.items():
        value: object = doc
        for part in dotted.split("."):
            value = value.get(part) if isinstance(value, dict) else None
            if value is None:
                break
        else:
            visit(dotted, value)


# ---------------------------------------------------------------- per runtime


def _claude(r: _Reader, f: RuntimeFile, model: str | None) -> None:
    if f.text.lstrip().startswith("{"):
        doc = _object(r, f.document(), "")
        env = doc.get("env", {})
        env = _object(r, env, "env") if "env" in doc else {}
        r.ignored.extend(
            k
            for k in doc
            if k not in ("env", "autoCompactWindow", "autoCompactEnabled", "modelSettings")
        )
        if "autoCompactWindow" in doc and doc["autoCompactWindow"] != "auto":
            r.tokens(
                "autoCompactWindow",
                "autoCompactWindow",
                doc["autoCompactWindow"],
                100_000,
                1_000_000,
            )
        per_model = doc.get("modelSettings")
        if isinstance(per_model, dict) and model is not None:
            entry = per_model.get(model)
            if isinstance(entry, dict) and entry.get("autoCompactWindow", "auto") != "auto":
                # precedence env > per-model > top level (third-party observation)
                r.tokens(
                    "autoCompactWindow",
                    f"modelSettings.{model}.autoCompactWindow",
                    entry["autoCompactWindow"],
                    100_000,
                    1_000_000,
                )
        if "autoCompactEnabled" in doc:
            r.flag("autoCompactEnabled", "autoCompactEnabled", doc["autoCompactEnabled"])
        where = "env."
    else:
        env = f.document()
        where = ""
    for key, raw in env.items():
        if key == "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE":
            r.number(key, where + key, raw, Decimal(1), Decimal(100), open_low=False)
        elif key == "CLAUDE_CODE_AUTO_COMPACT_WINDOW":
            r.tokens(key, where + key, raw, 1)
        elif key == "DISABLE_AUTO_COMPACT":
            r.flag(key, where + key, raw)
        elif key == "CLAUDE_CODE_MAX_OUTPUT_TOKENS":
            r.ignored.append(where + key)
            r.notes.append(
                f"{key} is honoured by compaction since 2.1.69; whether it changes the "
                "min(O, 20,000) reserve is unconfirmed, so the trigger keeps the model's O"
            )
        else:
            r.ignored.append(where + key)


def _codex(r: _Reader, f: RuntimeFile, model: str | None) -> None:
    doc = f.document()

    def limit(key: str, raw: object) -> None:
        r.tokens(key, key, raw, -(2**63), 2**63 - 1)
        value = r.settings.get(key)
        if isinstance(value, int) and value <= 0:
            # Codex reads the key as Option<i64> and never checks it; the trigger is
            # min(limit, floor(0.9 × W)) and fires when T >= it (openai/codex
            # codex-rs/protocol/src/openai_models.rs auto_compact_token_limit,
            # codex-rs/core/src/session/context_window.rs@11237ebb1b), which every T
            # passes: it compacts before every turn. A PR to make 0 mean "off" was
            # closed unmerged (openai/codex#7248). Not a trigger a review means.
            del r.settings[key]
            r.bad(key, raw, "runtime-codex-always", limit=value)

    _walk(
        r,
        doc,
        {
            "model_auto_compact_token_limit": limit,
            "model_context_window": lambda k, v: r.tokens(k, k, v, 1),
        },
    )
    # A knob inside a table is not the top-level knob: one written after a [section]
    # header lands in that section, and a profile's is never read.
    for path in _nested_knobs(doc, ("model_auto_compact_token_limit", "model_context_window")):
        table = path.rsplit(".", 1)[0]
        # A profile has no such field (ConfigProfile, openai/codex
        # codex-rs/config/src/profile_toml.rs@1ce4c6064c and core/src/config/profile.rs
        # @07ca8b3e34): Config takes both keys from the top level only.
        where = (
            "Codex's profiles have no such setting (it is read at the top level only), "
            "so even --profile "
            f"{table.split('.', 1)[1]} ignores it"
            if table.startswith("profiles.")
            else "Codex reads it at the top level, before any [section] header"
        )
        r.notes.append(f"{path} is inside [{table}]: {where}; not applied")


def _nested_knobs(doc: Mapping[str, Any], names: tuple[str, ...], prefix: str = "") -> list[str]:
    found: list[str] = []
    for key, value in doc.items():
        if isinstance(value, dict):
            here = f"{prefix}{key}"
            found += [f"{here}.{n}" for n in names if n in value]
            found += _nested_knobs(value, names, here + ".")
    return found


def _model_entry(
    r: _Reader, models: Mapping[str, Any], model: str | None, path: str
) -> tuple[str, Mapping[str, Any]] | None:
    """The entry of ``model`` in a per-model table, or the only one there is."""
    if model is not None:
        for key, entry in models.items():
            # Kimi CLI keys an entry by its own name and sends the entry's ``model``.
            sent = entry.get("model") if isinstance(entry, dict) else None
            if key == model or key.split("/")[-1] in (model, model.split("/")[-1]) or sent == model:
                return key, _object(r, entry, f"{path}.{key}")
    if len(models) == 1:
        ((key, entry),) = models.items()
        return key, _object(r, entry, f"{path}.{key}")
    if models:
        r.notes.append(
            f"{path} lists {len(models)} models and none is {model or 'named'}: their "
            "limits are not applied"
        )
    return None


def _opencode(r: _Reader, f: RuntimeFile, model: str | None) -> None:
    doc = _object(r, f.document(), "")
    _walk(
        r,
        doc,
        {
            "compaction.auto": lambda k, v: r.flag(k, k, v),
            "compaction.reserved": lambda k, v: r.tokens(k, k, v, 0),
        },
    )
    providers = doc.get("provider")
    if not isinstance(providers, dict):
        return
    found: dict[str, Any] = {}
    for pid, entry in providers.items():
        models = entry.get("models") if isinstance(entry, dict) else None
        if isinstance(models, dict):
            for mid, m in models.items():
                found[f"{pid}/{mid}"] = m
    picked = _model_entry(r, found, model, "provider")
    if picked is None:
        return
    key, entry = picked
    limit = entry.get("limit")
    if isinstance(limit, dict):
        pid, mid = key.split("/", 1)
        base = f"provider.{pid}.models.{mid}.limit"
        for name, low in (("context", 0), ("input", 1), ("output", 0)):
            if name in limit:
                r.tokens(f"limit.{name}", f"{base}.{name}", limit[name], low)


def _pi(r: _Reader, f: RuntimeFile, model: str | None) -> None:
    # Token values are non-negative integers, 0 accepted ("reserveTokens: 0 leaves no
    # response margin"); compaction.modelOverrides, keyed by the exact provider/modelId,
    # wins per token setting (badlogic/pi-mono packages/coding-agent/docs/settings.md
    # @02c721866b, "Per-model compaction overrides").
    doc = _object(r, f.document(), "")
    _walk(
        r,
        doc,
        {
            "compaction.enabled": lambda k, v: r.flag(k, k, v),
            "compaction.reserveTokens": lambda k, v: r.tokens(k, k, v, 0),
            "compaction.keepRecentTokens": lambda k, v: r.tokens(k, k, v, 0),
            "compaction.modelOverrides": lambda k, v: None,  # read below, per model
        },
    )
    compaction = doc.get("compaction")
    overrides = compaction.get("modelOverrides") if isinstance(compaction, dict) else None
    if overrides is None:
        return
    overrides = _object(r, overrides, "compaction.modelOverrides")
    matches = [
        key
        for key in overrides
        if model is not None and (key == model or key.split("/", 1)[-1] == model)
    ]
    if not matches:
        r.notes.append(
            f"compaction.modelOverrides has {len(overrides)} entr"
            f"{'y' if len(overrides) == 1 else 'ies'}, none for "
            f"{model or 'an unnamed model'} (pi matches provider/modelId exactly): not applied"
        )
        return
    key = matches[0]
    path = f"compaction.modelOverrides.{key}"
    entry = _object(r, overrides[key], path)
    for name in ("reserveTokens", "keepRecentTokens"):
        if name in entry:
            r.tokens(f"compaction.{name}", f"{path}.{name}", entry[name], 0)
    r.notes.append(f"{path} applies to {model}: its token settings win over compaction's")


def _gemini(r: _Reader, f: RuntimeFile, model: str | None) -> None:
    doc = _object(r, f.document(), "")
    _walk(
        r,
        doc,
        {
            "model.compressionThreshold": lambda k, v: r.number(
                k, k, v, Decimal(0), Decimal(1), open_low=False
            )
        },
    )
    for legacy in ("chatCompression", "model.chatCompression"):
        node: object = doc
        for part in legacy.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if node is not None:
            r.notes.append(
                f"{legacy} is the setting before Gemini CLI 0.13 (renamed "
                "model.compressionThreshold, google-gemini/gemini-cli#12317): not read here"
            )


def _qwen(r: _Reader, f: RuntimeFile, model: str | None) -> None:
    doc = _object(r, f.document(), "")

    def threshold(key: str, raw: object) -> None:
        _qwen_threshold(r, key, raw)

    def legacy(key: str, raw: object) -> None:
        # The redesign removed it: "has been removed and is now controlled by built-in
        # thresholds", a warning, the value ignored (QwenLM/qwen-code
        # docs/design/auto-compaction-threshold-redesign.md@1f856ba377).
        r.notes.append(
            f"{key} is the legacy setting (T >= threshold × token limit, 0.7 by default); "
            "current Qwen Code ignores it with a warning and reads context.autoCompactThreshold"
        )

    _walk(
        r,
        doc,
        {
            "context.autoCompactThreshold": threshold,
            "model.generationConfig.contextWindowSize": lambda k, v: r.tokens(k, k, v, 1),
            "model.chatCompression.contextPercentageThreshold": legacy,
            "chatCompression.contextPercentageThreshold": legacy,
        },
    )


def _qwen_threshold(r: _Reader, key: str, raw: object) -> None:
    # computeThresholds clamps pct to [0, 1] (chatCompressionService.ts@00b481a304): above
    # 1 it is 1; at or below 0 the auto line is 0 and it compacts before every send.
    r.number(key, key, raw, Decimal(-(10**9)), Decimal(10**9), open_low=False)
    value = r.settings.get(key)
    if not isinstance(value, Decimal):
        return
    if value <= 0:
        del r.settings[key]
        r.bad(key, raw, "runtime-qwen-zero")
    elif value > 1:
        r.settings[key] = Decimal(1)
        r.notes.append(f"{key} = {value}: Qwen Code clamps it to 1")


def _kimi(r: _Reader, f: RuntimeFile, model: str | None) -> None:
    # config.toml, or JSON (--config-file by extension, --config tries JSON first):
    # MoonshotAI/kimi-cli docs/en/configuration/config-files.md
    doc = _object(r, f.document(), "") if f.text.lstrip().startswith("{") else f.document()
    _walk(
        r,
        doc,
        {
            "loop_control.compaction_trigger_ratio": lambda k, v: r.number(
                k, k, v, Decimal("0.5"), Decimal("0.99"), open_low=False
            ),
            "loop_control.reserved_context_size": lambda k, v: r.tokens(k, k, v, 1_000),
            "loop_control.max_preserved_messages": lambda k, v: r.tokens(k, k, v, 0),
        },
    )
    models = doc.get("models")
    if isinstance(models, dict):
        default = doc.get("default_model")
        picked = _model_entry(
            r, models, model or (default if isinstance(default, str) else None), "models"
        )
        if picked is not None and "max_context_size" in picked[1]:
            r.tokens(
                "max_context_size",
                f"models.{picked[0]}.max_context_size",
                picked[1]["max_context_size"],
                1,
            )


def _cline(r: _Reader, f: RuntimeFile, model: str | None) -> None:
    doc = _object(r, f.document(), "")
    _walk(r, doc, {"useAutoCondense": lambda k, v: r.flag(k, k, v)})


def _goose(r: _Reader, f: RuntimeFile, model: str | None) -> None:
    json_like = f.text.lstrip().startswith("{")
    values: Mapping[str, object] = _object(r, f.document(), "") if json_like else f.document()
    for key, raw in values.items():
        if key == "GOOSE_AUTO_COMPACT_THRESHOLD":
            r.number(key, key, raw, Decimal(-(10**9)), Decimal(10**9), open_low=False)
            value = r.settings.get(key)
            if isinstance(value, Decimal) and not 0 < value < 1:
                r.notes.append(f"{key} = {value}: <= 0 or >= 1 turns auto-compaction off")
        elif key == "GOOSE_CONTEXT_LIMIT":
            r.tokens(key, key, raw, 1)
        else:
            r.ignored.append(key)


def _context_size(r: _Reader, path: str, raw: object) -> tuple[object, ...] | None:
    if (
        not isinstance(raw, tuple)
        or len(raw) != 2
        or raw[0] not in ("tokens", "messages", "fraction")
    ):
        r.bad(path, raw, "runtime-context-size")
        return None
    kind, value = raw
    if kind == "fraction":
        if not isinstance(value, Decimal | int) or isinstance(value, bool) or not 0 < value <= 1:
            r.bad(path, raw, "runtime-fraction")
            return None
        return (kind, Decimal(value))
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        r.bad(path, raw, "runtime-count", kind=kind)
        return None
    return (kind, value)


def _call_or_defaults(
    r: _Reader, text: str, names: tuple[str, ...], defaults: str
) -> dict[str, Any]:
    """The keyword arguments of the first call to one of ``names``; Python source without
    such a call configures nothing there, so the runtime's defaults apply (said in a
    note). Source that is not valid Python is still a problem."""
    try:
        return read_python_call(text, r.what, names)
    except ScenarioError as exc:
        if exc.problems[0].code != "runtime-no-call":
            raise
    r.notes.append(f"no {' or '.join(names)} call: {defaults}")
    return {}


def _langchain(r: _Reader, f: RuntimeFile, model: str | None) -> None:
    _summarization(r, f.text, "the middleware is not used: nothing summarises")


def _summarization(r: _Reader, text: str, defaults: str) -> None:
    kwargs = _call_or_defaults(r, text, ("SummarizationMiddleware",), defaults)
    for key, raw in kwargs.items():
        if isinstance(raw, NotLiteral) and key in ("trigger", "keep", "max_tokens_before_summary"):
            r.bad(key, str(raw), "runtime-literal")
            continue
        if key == "max_tokens_before_summary":
            # langchain < 1.1 (summarization.py@01b1122a81): the trigger as a token count.
            r.tokens("trigger", key, raw, 1)
            if "trigger" in r.settings:
                r.settings["trigger"] = ("tokens", r.settings["trigger"])
                r.notes.append("max_tokens_before_summary is the older signature of trigger")
            continue
        if key in ("trigger", "keep"):
            if raw is None:
                r.settings[key] = None
                continue
            items = raw if isinstance(raw, tuple) and raw and isinstance(raw[0], tuple) else (raw,)
            sizes = [
                _context_size(r, f"{key}[{i}]" if len(items) > 1 else key, x)
                for i, x in enumerate(items)
            ]
            if all(s is not None for s in sizes):
                r.settings[key] = tuple(sizes) if len(items) > 1 else sizes[0]
        elif key == "trim_tokens_to_summarize":
            if raw is not None:
                r.tokens(key, key, raw, 1)
        else:
            r.ignored.append(key)


def _deepagents(r: _Reader, f: RuntimeFile, model: str | None) -> None:
    # An agent built with create_deep_agent and no middleware of its own runs the default
    # summarization: ("fraction", 0.85) of the model's max input.
    _summarization(r, f.text, "Deep Agents' defaults apply")


def _openai_agents(r: _Reader, f: RuntimeFile, model: str | None) -> None:
    kwargs = _call_or_defaults(
        r, f.text, ("ModelSettings",), "no server-side compaction is configured"
    )
    for key in kwargs:
        if key != "context_management":
            r.ignored.append(key)
    edits = kwargs.get("context_management")
    if edits is None:
        return
    if isinstance(edits, NotLiteral):
        r.bad("context_management", str(edits), "runtime-literal")
        return
    if not isinstance(edits, tuple):
        r.bad("context_management", edits, "runtime-edits")
        return
    for i, edit in enumerate(edits):
        if (
            isinstance(edit, dict)
            and edit.get("type") == "compaction"
            and "compact_threshold" in edit
        ):
            r.tokens(
                "compact_threshold",
                f"context_management[{i}].compact_threshold",
                edit["compact_threshold"],
                1,
            )


def _anthropic(r: _Reader, f: RuntimeFile, model: str | None) -> None:
    if f.text.lstrip().startswith(("{", "[")):
        doc = _object(r, f.document(), "")
    else:
        # SDK code: client.beta.messages.create(..., context_management={...}); a copy,
        # as the file's model is read from the same document.
        doc = dict(f.document())
        for key, value in list(doc.items()):
            if isinstance(value, tuple):  # a list literal reads as a tuple
                doc[key] = list(value)
        cm = doc.get("context_management")
        if isinstance(cm, dict) and isinstance(cm.get("edits"), tuple):
            doc["context_management"] = {**cm, "edits": list(cm["edits"])}
    r.ignored.extend(k for k in doc if k != "context_management")
    cm = doc.get("context_management")
    if cm is None:
        r.settings["compact"] = False
        r.notes.append("no context_management: the API does not compact this conversation")
        return
    edits = cm.get("edits") if isinstance(cm, dict) else None
    if not isinstance(edits, list):
        r.bad("context_management.edits", edits, "runtime-edits-list")
        return
    for i, edit in enumerate(edits):
        if not isinstance(edit, dict) or edit.get("type") != "compact_20260112":
            r.ignored.append(f"context_management.edits[{i}]")
            continue
        r.settings["compact"] = True
        trigger = edit.get("trigger")
        if trigger is None:
            return  # the default trigger, 150,000
        path = f"context_management.edits[{i}].trigger"
        if not isinstance(trigger, dict) or trigger.get("type") != "input_tokens":
            r.bad(path, trigger, "runtime-input-tokens")
            return
        r.tokens("trigger.value", f"{path}.value", trigger.get("value"), ANTHROPIC_MIN_TRIGGER)
        return
    r.settings["compact"] = False
    r.notes.append("no compact_20260112 edit: the API does not compact this conversation")


def _article(r: _Reader, f: RuntimeFile, model: str | None) -> None:
    from budgetcore.scenario.overrides import parse_config  # noqa: PLC0415

    for key, value in parse_config(f.text.encode("utf-8")).items():
        r.settings[key] = value  # type: ignore[assignment]


_READERS: dict[str, Callable[[_Reader, RuntimeFile, str | None], None]] = {
    "article": _article,
    "claude-code": _claude,
    "codex": _codex,
    "opencode": _opencode,
    "pi": _pi,
    "gemini-cli": _gemini,
    "qwen-code": _qwen,
    "kimi-cli": _kimi,
    "cline": _cline,
    "goose": _goose,
    "langchain": _langchain,
    "deepagents": _deepagents,
    "openai-agents": _openai_agents,
    "anthropic-api": _anthropic,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class NamedWindow:
    """A model named to a runtime by name alone (its file's model key, ``check --runtime
    --model``), as that runtime runs it: the registry's entry at the window the runtime
    gives it (spec §17, §18), with that window's evidence as a catalogue sentence."""

    name: str  # the registry's name
    provider: str
    window: int  # W as the runtime gives it the model
    output: int
    registry_window: int  # the registry's (the API's) window
    reserves_output: bool
    key: str  # the evidence's catalogue key (runtime-window.*)
    params: tuple[tuple[str, str], ...]

    def evidence(self, lang: str = "en") -> str:
        from budgetcore.messages import t  # noqa: PLC0415 - the catalogue, loaded on use

        return t(self.key, lang, **dict(self.params))


def named_window(
    runtime: str, written: str, resolve: Callable[[str], Resolution]
) -> NamedWindow | None:
    """The model ``written`` names and the window ``runtime`` gives it, by the runtime
    profile's rule, the as-run replay's (Claude Code: 200,000 unless the name asks for
    the 1M-context variant with [1m], ``profiles.claude_code_model_window``; every other
    runtime takes the model's window, its own file's window setting aside); None where
    the registry lacks the model."""
    p = profile(runtime)
    lookup, why = written, ""
    rule = None
    if p.name == "claude-code":
        rule, why, base = claude_code_model_window(written)
        lookup = base or written
    entry = resolve(lookup).model
    if entry is None:
        return None
    registry = entry.contract.input_tokens
    window, key = registry, "runtime-window.registry"
    params: tuple[tuple[str, str], ...] = (("model", entry.name),)
    if rule is not None and rule < registry:
        window, key = rule, "runtime-window.claude-default"
        params += (("registry", f"{registry:,}"),)
    elif rule is not None and why == "suffix" and rule == registry:
        key = "runtime-window.claude-1m"
    return NamedWindow(
        name=entry.name,
        provider=entry.provider,
        window=window,
        output=entry.contract.output_tokens,
        registry_window=registry,
        reserves_output=entry.contract.reserves_output,
        key=key,
        params=params,
    )


#: Which model a runtime's own file is read for, the first that applies winning (the
#: CLI's ``check --runtime`` and the page's import alike, docs/cli.md): the CLI's
#: ``--model``; the scenario's named main model (the page's: its model picker's); the
#: model the file names, where the registry has it; else the contract's I and O.
MODEL_ORDER = ("--model", "scenario", "file", "contract")


@dataclass(frozen=True, slots=True, kw_only=True)
class ReadFor:
    source: str  # one of MODEL_ORDER
    named: tuple[str, str] | None  # the model the file names: (its key, the name written)
    model: NamedWindow | None  # the file's model where it is the one read for (source "file")


def read_for(
    runtime: str,
    text: str | RuntimeFile,
    *,
    flag: bool,
    scenario: bool,
    resolve: Callable[[str], Resolution] | None,
) -> ReadFor:
    """Which model (:data:`MODEL_ORDER`) a runtime's own file is read for: ``flag``, a
    ``--model`` was given; ``scenario``, the scenario names its main model; ``resolve``
    None, no registry (the page's has not loaded yet): the file's model is not known."""
    named = file_model(runtime, text)
    if flag or scenario:
        return ReadFor(source="--model" if flag else "scenario", named=named, model=None)
    found = None
    if named is not None and resolve is not None:
        found = named_window(runtime, named[1], resolve)
    return ReadFor(source="contract" if found is None else "file", named=named, model=found)


def read_settings(
    runtime: str, text: str | RuntimeFile, model: str | None = None, what: str = "config"
) -> tuple[dict[str, Value], tuple[str, ...], tuple[str, ...]]:
    """(settings, ignored keys, notes) of a runtime's file (or the file as
    :func:`parse_file` read it); ScenarioError with every problem. ``model`` picks a
    per-model entry where the file has them."""
    p = profile(runtime)
    r = _Reader(what, p.title, strings=p.name not in ("codex", "pi"))
    parsed = parse_file(p.name, text, what)
    _READERS[p.name](r, parsed, model)
    unnamed = model_not_named(p.name, parsed)
    if unnamed is not None:
        r.bad(unnamed[0], unnamed[1], "runtime-model-name")
    r.done()
    return r.settings, tuple(r.ignored), tuple(r.notes)


def runtime_window(
    p: Profile,
    window: int,
    settings: Mapping[str, Value],
    model: str | None,
    source: str = "the model's window",
) -> tuple[int, str]:
    """W as the runtime takes it for this model, and from where (``source``: where
    ``window`` came from, said where the file does not change it)."""
    overrides = {
        "codex": "model_context_window",
        "opencode": "limit.context",
        "qwen-code": "model.generationConfig.contextWindowSize",
        "kimi-cli": "max_context_size",
        "goose": "GOOSE_CONTEXT_LIMIT",
    }
    if p.name == "gemini-cli":
        return gemini_token_limit(model), "Gemini CLI's tokenLimit(model), whatever the window"
    if p.name == "claude-code":
        used = claude_code_window(window, settings)
        asked = settings.get("CLAUDE_CODE_AUTO_COMPACT_WINDOW", settings.get("autoCompactWindow"))
        if isinstance(asked, int) and not isinstance(asked, bool) and asked > window:
            # "capped at the model's actual context window" (CLAUDE_CODE_AUTO_COMPACT_WINDOW)
            return used, f"the model's window (the file's {asked:,} is capped at it)"
        return used, (source if used == window else "the auto-compact window setting")
    key = overrides.get(p.name)
    value = settings.get(key) if key else None
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value, f"the file's {key}"
    return window, source


def check_runtime(
    runtime: str,
    text: str | RuntimeFile,
    *,
    window: int,
    output: int,
    model: str | None = None,
    window_source: str = "the model's window",
) -> RuntimeCheck:
    p = profile(runtime)
    settings, ignored, notes = read_settings(p.name, text, model)
    used, source = runtime_window(p, window, settings, model, window_source)
    return RuntimeCheck(
        runtime=p,
        settings=tuple(settings.items()),
        ignored=ignored,
        window=used,
        window_source=source,
        output=output,
        effective_trigger_tokens=p.effective_trigger(window, output, settings, model=model),
        summary_cap_tokens=p.summary_cap(settings),
        notes=notes,
    )
