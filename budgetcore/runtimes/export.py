"""Export to the runtime (docs/spec.md §18, docs/runtimes.md): a reviewed K becomes the
runtime's own knob, exactly, in its own file syntax.

The target is ``t = min(K, M)``: the effective trigger for the model must be neither
above the reviewed K nor above M. Each conversion is stated and rounds so that the
runtime's own arithmetic (the profile's trigger) gives ``t`` exactly where the knob
counts tokens, and within the stated step where it is a percentage or a fraction; a
test recomputes every one. A K the runtime cannot reach is refused with the reason and
what would reach it; a knob the runtime lacks (S in Codex) is listed in
``not_settable`` with why, never dropped in silence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from budgetcore._version import __version__
from budgetcore.errors import Problem, ScenarioError
from budgetcore.messages import english_of
from budgetcore.runtimes import profile
from budgetcore.runtimes.libraries import ANTHROPIC_MIN_TRIGGER
from budgetcore.runtimes.model import Profile, Value, ceil_fraction
from budgetcore.runtimes.profiles import (
    CC_BUFFER,
    CC_SUMMARY_RESERVE,
    codex_clamp,
    gemini_token_limit,
)
from budgetcore.runtimes.syntax import decimal_text, dumps_json, toml_value
from budgetcore.units import format_int

__all__ = [
    "CONVERSION_TEXTS",
    "HEADER_TEXTS",
    "NOTE_TEXTS",
    "NOT_SETTABLE_TEXTS",
    "NO_S_TEXTS",
    "REFUSED_TEXTS",
    "Model",
    "NotSettable",
    "Reviewed",
    "RuntimeExport",
    "RuntimeFile",
    "dumps_export",
    "export_as_dict",
    "export_runtime",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Model:
    """The model the export is for: its window W and max output O, and where they came
    from. ``name`` None: no model was named, the contract's I and O stand in (a note says
    so); ``provider`` is the registry's (OpenCode's file is keyed by it)."""

    name: str | None
    provider: str | None
    window: int
    output: int
    source: str  # "--model", "the scenario's main_model.model", "the contract's I and O"
    # The registry's window for the named model where W is a smaller one (the window a
    # runtime runs it at, docs/spec.md §17: still that model, registry.models.still_named);
    # None: W is the registry's, or no model is named.
    registry_window: int | None = None
    # Why W is what it is, where a runtime's rule set it for a model named by name alone
    # (runtimes.check.named_window's evidence); "" where W is the contract's.
    window_source: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Reviewed:
    """The reviewed values an export starts from (M / K / S)."""

    trigger: int  # K
    main_safe_input: int  # M
    summary_cap: int  # S
    article_text: str = ""  # the article runtime's own export (today's TOML or JSON)
    article_settings: tuple[tuple[str, Value], ...] = ()


@dataclass(frozen=True, slots=True)
class NotSettable:
    knob: str  # "S (summary cap)", "K (trigger line)", or a reviewed override's key
    value: int | Decimal | None  # the reviewed value that cannot be written
    why: str


@dataclass(frozen=True, slots=True)
class RuntimeFile:
    name: str  # where it goes: ~/.codex/config.toml
    syntax: str  # toml, json, env, yaml, python
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RuntimeExport:
    runtime: Profile
    model: Model
    reviewed: Reviewed
    target: int  # min(K, M)
    settings: tuple[tuple[str, Value], ...]  # knob -> value as the runtime reads it
    effective_trigger_tokens: int | None
    summary_cap_tokens: int | None
    conversion: str  # the K -> knob arithmetic, stated
    resolution: str  # how close to K the knob can land
    not_settable: tuple[NotSettable, ...]
    notes: tuple[str, ...]
    files: tuple[RuntimeFile, ...]

    @property
    def text(self) -> str:
        """The runtime's file (the first of ``files``)."""
        return self.files[0].text


class _Refused(Exception):
    """K cannot be reached: why, as a catalogue key (``runtime-refused.<key>``, the CLI's
    English in REFUSED_TEXTS) and its parameters, so the page says it in its language."""

    def __init__(self, key: str, value: int, **params: str) -> None:
        super().__init__(key)
        self.key = f"runtime-refused.{key}"
        self.value = value
        self.params = params


def _n(value: int) -> str:
    return format_int(value)


def _asked(target: int, reviewed: Reviewed) -> str:
    """The value a runtime is asked to reach, as a refusal names it: K, or min(K, M)
    where M is lower (then K itself is not what was refused)."""
    name = "K" if target == reviewed.trigger else "min(K, M)"
    return f"{name} = {_n(target)}"


def _decimal_near(target: Fraction, scale: int) -> Decimal:
    """A short decimal within 1 / (4 × scale) of ``target`` (digits enough for that), so
    that ``value × scale`` lands within a quarter token of ``target × scale``: the middle
    of a whole token, away from the edges a float product could cross."""
    digits = len(str(4 * scale))
    quantum = 10**digits
    return Decimal(round(target * quantum)) / Decimal(quantum)


# ---------------------------------------------------------------- conversions
#
# Each takes (t, model, reviewed) and returns (settings, conversion as a Said, resolution,
# notes);
# _Refused(key, value, **params) when the runtime cannot reach t (REFUSED_TEXTS).

#: A sentence by its catalogue key and parameters: the CLI says it in English
#: (:func:`english`), the page in its language (the English is the catalogue's: one home).
Said = tuple[str, dict[str, str]]
Conversion = tuple[dict[str, Value], Said, str, list[Said]]

#: Each conversion, stated (``runtime-conversion.<runtime>``; the page's catalogue holds
#: the English is the catalogue's, beside its Chinese: one home).
CONVERSION_TEXTS: Mapping[str, str] = english_of("runtime-conversion")


#: Why a runtime cannot reach K (``runtime-refused.<key>``, said after "K = …" in the
#: problem ``core.runtime-unreachable``; the English is the catalogue's, one home,
#: and its Chinese).
REFUSED_TEXTS: Mapping[str, str] = english_of("runtime-refused")

#: What an export cannot say in its file (``runtime-note.<key>``): the CLI prints each
#: after "note:", the page lists them in its language (the English is the catalogue's).
NOTE_TEXTS: Mapping[str, str] = english_of("runtime-note")


def _said(name: str, **params: str) -> Said:
    return f"runtime-conversion.{name}", params


def _note(name: str, **params: str) -> Said:
    return f"runtime-note.{name}", params


def _article(t: int, m: Model, r: Reviewed) -> Conversion:
    return (
        dict(r.article_settings),
        _said("article"),
        "1 token",
        [],
    )


def _claude_code(t: int, m: Model, r: Reviewed) -> Conversion:
    effective = m.window - min(m.output, CC_SUMMARY_RESERVE)
    default = effective - CC_BUFFER
    # floor(E × pct / 100) = t needs E × pct / 100 in [t, t + 1): aim at t + 1/2, or at
    # the range's edge where pct = 1 still floors to t (E / 100 in [t, t + 1/2)).
    lowest = max(1, effective // 100)
    if default < lowest:
        raise _Refused("claude-code-none", t, default=_n(default), effective=_n(effective))
    if t > default:
        raise _Refused("claude-code-above", t, default=_n(default))
    if t < lowest:
        raise _Refused("claude-code-below", t, effective=_n(effective), lowest=_n(lowest))
    pct = _decimal_near(Fraction(2 * t + 1, 2) * 100 / effective, effective)
    if pct < 1:
        pct = Decimal(1)
    settings: dict[str, Value] = {"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": pct}
    notes = [_note("claude-code-env")]
    cc = profile("claude-code")
    assumed = cc.assumed_window
    if m.name is not None and not cc.native_to(m.name) and m.window < assumed:
        # A name Claude Code does not know runs at its assumed window: the percentage
        # would be of that window's E, not of this model's (the trigger past its window).
        low = int(cc.knob("CLAUDE_CODE_AUTO_COMPACT_WINDOW").low or 0)
        if m.window >= low:
            settings["CLAUDE_CODE_AUTO_COMPACT_WINDOW"] = m.window
        else:
            notes.append(
                _note("claude-code-window", assumed=_n(assumed), low=_n(low), w=_n(m.window))
            )
    return (
        settings,
        _said("claude-code", pct=decimal_text(pct), e=_n(effective)),
        "1 token",
        notes,
    )


def _codex(t: int, m: Model, r: Reviewed) -> Conversion:
    clamp = codex_clamp(m.window)
    if clamp < 1:
        raise _Refused("codex-none", t, w=_n(m.window), clamp=_n(clamp))
    if t > clamp:
        needed = ceil_fraction(Fraction(t * 10, 9))
        raise _Refused("codex-above", t, clamp=_n(clamp), w=_n(m.window), needed=_n(needed))
    return (
        {"model_auto_compact_token_limit": t},
        _said("codex", k=_n(t), clamp=_n(clamp)),
        "1 token",
        [],
    )


def _opencode(t: int, m: Model, r: Reviewed) -> Conversion:
    if t > m.window:
        raise _Refused("above-window", t, w=_n(m.window))
    reserved = m.window - t
    return (
        {
            "limit.context": m.window,
            "limit.input": m.window,
            "limit.output": m.output,
            "compaction.reserved": reserved,
        },
        _said("opencode", w=_n(m.window), k=_n(t)),
        "1 token",
        _opencode_notes(m),
    )


def _opencode_notes(m: Model) -> list[Said]:
    if not m.name:
        return [_note("opencode-no-model")]
    if m.provider is not None and m.provider not in OPENCODE_PROVIDERS:
        return [_note("opencode-provider", provider=repr(m.provider))]
    return []


#: OpenCode keys a model by models.dev's provider id, not LiteLLM's provider name (OpenCode
#: docs "Providers": its catalogue is models.dev's; the ids as OpenCode's provider registry
#: lists them, e.g. "google", "google-vertex", "amazon-bedrock", "fireworks-ai").
OPENCODE_PROVIDERS: Mapping[str, str] = {
    "anthropic": "anthropic",
    "openai": "openai",
    "gemini": "google",
    "vertex_ai-language-models": "google-vertex",
    "vertex_ai-anthropic_models": "google-vertex-anthropic",
    "bedrock": "amazon-bedrock",
    "bedrock_converse": "amazon-bedrock",
    "azure": "azure",
    "azure_ai": "azure",
    "openrouter": "openrouter",
    "groq": "groq",
    "mistral": "mistral",
    "deepseek": "deepseek",
    "xai": "xai",
    "together_ai": "togetherai",
    "fireworks_ai": "fireworks-ai",
    "moonshot": "moonshotai",
    "dashscope": "alibaba",
    "github_copilot": "github-copilot",
    "cerebras": "cerebras",
    "deepinfra": "deepinfra",
    "minimax": "minimax",
    "perplexity": "perplexity",
}


def opencode_ids(provider: str | None, model: str | None) -> tuple[str, str]:
    """The (provider, model) keys of ``opencode.json`` for a registry model: models.dev's
    provider id and the model's id without LiteLLM's routing prefix
    (``gemini/gemini-2.5-pro`` is ``google`` / ``gemini-2.5-pro``). A provider OpenCode's
    catalogue does not name keeps LiteLLM's name (the export's notes say so)."""
    pid = "PROVIDER" if provider is None else OPENCODE_PROVIDERS.get(provider, provider)
    mid = model or "MODEL"
    for prefix in (f"{provider}/", "bedrock/", "vertex_ai/", "gemini/", "azure/"):
        if provider is not None and mid.startswith(prefix):
            mid = mid[len(prefix) :]
            break
    return pid, mid


def _pi(t: int, m: Model, r: Reviewed) -> Conversion:
    if t > m.window:
        raise _Refused("above-window", t, w=_n(m.window))
    reserve = m.window - t + 1
    return (
        {"compaction.reserveTokens": reserve},
        _said("pi", reserve=_n(reserve)),
        "1 token",
        [],
    )


def _gemini(t: int, m: Model, r: Reviewed) -> Conversion:
    limit = gemini_token_limit(m.name)
    if t > limit:
        raise _Refused("gemini-cli-above", t, limit=_n(limit))
    notes = [_note("gemini-cli", limit=_n(limit), w=_n(m.window))]
    if limit & (limit - 1) == 0:
        # A power of 2: K / limit is a double exactly, so JavaScript's threshold × limit
        # is K exactly and compresses first at K.
        value = Decimal(t) / Decimal(limit)
        said = _said("gemini-cli", limit=_n(limit), value=decimal_text(value))
    else:
        # Gemma 4's 256,000: K / 256,000 is a finite decimal but not a double, and the
        # double product can land just above K (first compressing at K + 1). Aim at
        # K − 1/2 instead, a quarter token clear of both edges.
        value = _decimal_near(Fraction(2 * t - 1, 2) / limit, limit)
        said = _said("gemini-cli-near", limit=_n(limit), value=decimal_text(value))
    return (
        {"model.compressionThreshold": value},
        said,
        "1 token",
        notes,
    )


def _qwen(t: int, m: Model, r: Reviewed) -> Conversion:
    effective = max(0, m.window - 20_000)
    if effective - 13_000 > 0 and t > effective - 13_000:
        raise _Refused("qwen-code-above", t, highest=_n(effective - 13_000))
    if t > m.window:
        raise _Refused("above-window", t, w=_n(m.window))
    pct = _decimal_near(Fraction(2 * t - 1, 2) / m.window, m.window)
    return (
        {"context.autoCompactThreshold": pct},
        _said("qwen-code", pct=decimal_text(pct)),
        "1 token",
        [_note("qwen-code")],
    )


def _kimi(t: int, m: Model, r: Reviewed) -> Conversion:
    # reserved_context_size >= 1,000 and compaction_trigger_ratio <= 0.99 (config.py:88-92):
    # the trigger is min(ceil(ratio × W), W − reserved), so K reaches at most both.
    highest = min(m.window - 1_000, ceil_fraction(Fraction(99, 100) * m.window))
    if highest < 1:
        raise _Refused("kimi-cli-none", t, w=_n(m.window))
    if t > highest:
        raise _Refused("kimi-cli-above", t, w=_n(m.window), highest=_n(highest))
    settings: dict[str, Value] = {"loop_control.reserved_context_size": m.window - t}
    said = _said("kimi-cli", reserve=_n(m.window - t))
    if ceil_fraction(Fraction(85, 100) * m.window) < t:
        # The smallest two-decimal ratio that reaches K, within the runtime's 0.5-0.99.
        ratio = min(Decimal(ceil_fraction(Fraction(t * 100, m.window))) / 100, Decimal("0.99"))
        settings["loop_control.compaction_trigger_ratio"] = ratio
        said = _said("kimi-cli-ratio", reserve=_n(m.window - t), ratio=decimal_text(ratio))
    return (
        settings,
        said,
        "1 token",
        # Kimi's W is the model's [models.<name>] max_context_size in the same file, not
        # the registry's: the reserve lands on K only where they agree.
        [_note("kimi-cli", w=_n(m.window))],
    )


def _cline(t: int, m: Model, r: Reviewed) -> Conversion:
    default = ceil_fraction(Fraction(81, 100) * m.window)
    if default > t:
        raise _Refused("cline-below", t, trigger=_n(default))
    return (
        {"useAutoCondense": True},
        _said("cline", line=_n(default)),
        f"none: the trigger is fixed at {_n(default)}",
        [_note("cline")],
    )


def _goose(t: int, m: Model, r: Reviewed) -> Conversion:
    if t > m.window:
        raise _Refused("above-window", t, w=_n(m.window))
    # floor(thr × W) + 1 = t needs thr × W in [t − 1, t): aim at t − 1/2.
    thr = _decimal_near(Fraction(2 * t - 1, 2) / m.window, m.window)
    return (
        {"GOOSE_AUTO_COMPACT_THRESHOLD": thr},
        _said("goose", thr=decimal_text(thr)),
        "1 token",
        [_note("goose-window", w=_n(m.window)), _note("goose-env", thr=decimal_text(thr))],
    )


def _tokens_trigger(t: int, m: Model, r: Reviewed) -> Conversion:
    return (
        {"trigger": ("tokens", t)},
        _said("tokens-trigger", k=str(t)),
        "1 token",
        [],
    )


def _openai_agents(t: int, m: Model, r: Reviewed) -> Conversion:
    return (
        {"compact_threshold": t},
        _said("openai-agents", k=_n(t)),
        "1 token",
        [_note("openai-agents")],
    )


def _anthropic(t: int, m: Model, r: Reviewed) -> Conversion:
    if t < ANTHROPIC_MIN_TRIGGER:
        raise _Refused("anthropic-api-below", t, minimum=_n(ANTHROPIC_MIN_TRIGGER))
    return (
        {"compact": True, "trigger.value": t},
        _said("anthropic-api", k=_n(t)),
        "1 token",
        [_note("anthropic-api")],
    )


_CONVERT: dict[str, Callable[[int, Model, Reviewed], Conversion]] = {
    "article": _article,
    "claude-code": _claude_code,
    "codex": _codex,
    "opencode": _opencode,
    "pi": _pi,
    "gemini-cli": _gemini,
    "qwen-code": _qwen,
    "kimi-cli": _kimi,
    "cline": _cline,
    "goose": _goose,
    "langchain": _tokens_trigger,
    "deepagents": _tokens_trigger,
    "openai-agents": _openai_agents,
    "anthropic-api": _anthropic,
}

# ---------------------------------------------------------------- S, where it cannot go

#: Why S cannot be written there (``runtime-no-s.<runtime>``; the catalogue holds the
#: English is the catalogue's, beside its Chinese).
NO_S_TEXTS: Mapping[str, str] = english_of("runtime-no-s")
_NO_S = frozenset(key.removeprefix("runtime-no-s.") for key in NO_S_TEXTS)

#: Why a reviewed knob other than S cannot be written (``runtime-not-settable.<key>``;
#: the catalogue holds the English is the catalogue's, beside its Chinese).
NOT_SETTABLE_TEXTS: Mapping[str, str] = english_of("runtime-not-settable")


def _not_settable(
    p: Profile, r: Reviewed, effective: int | None, say: Say
) -> tuple[NotSettable, ...]:
    """Every reviewed knob this runtime has no setting for, with why: K where the
    trigger is fixed (Cline), S where there is no cap setting, and any other setting
    the reviewed config changes from its default (its margin, reply, protections)."""
    if p.name == "article":
        return ()
    out: list[NotSettable] = []
    if p.name == "cline":
        fixed = say("runtime-not-settable.never") if effective is None else _n(effective)
        why = say("runtime-not-settable.cline-k", fixed=fixed)
        out.append(NotSettable("K (trigger line)", r.trigger, why))
    if p.name in _NO_S:
        out.append(NotSettable("S (summary cap)", r.summary_cap, say(f"runtime-no-s.{p.name}")))
    for key, value in r.article_settings:
        if key in ("config.trigger_tokens", "config.summary_max_tokens"):
            continue
        if key in ("config.safety_margin", "config.reply_max_tokens"):
            why = say("runtime-not-settable.shapes-m", runtime=p.title, m=_n(r.main_safe_input))
        else:
            why = say("runtime-not-settable.protection", runtime=p.title)
        shown = value if isinstance(value, int | Decimal) and not isinstance(value, bool) else None
        out.append(NotSettable(key, shown, why))
    return tuple(out)


# ---------------------------------------------------------------- files


#: The header's sentences as the CLI writes them; the page says them in its language
#: (the English is the catalogue's: one home), as the reviewed
#: config's header does (scenario.export.HEADER_TEXTS).
HEADER_TEXTS: Mapping[str, str] = english_of("runtime-export")

#: A header sentence by key, with its parameters (English unless the caller, the page,
#: gives its own).
Say = Callable[..., str]


#: Every sentence of a runtime export, by its catalogue key: the CLI's English.
_ENGLISH: Mapping[str, str] = {
    **HEADER_TEXTS,
    **CONVERSION_TEXTS,
    **NO_S_TEXTS,
    **REFUSED_TEXTS,
    **NOT_SETTABLE_TEXTS,
    **NOTE_TEXTS,
}


def english(key: str, **params: str) -> str:
    return _ENGLISH[key].format(**params)


def _header(p: Profile, m: Model, t: int, prefix: str, say: Say = english) -> str:
    model = m.name or say("runtime-export.no-model")
    source = f"{m.source}; W: {m.window_source}" if m.window_source else m.source
    sizes = {"model": model, "w": _n(m.window), "o": _n(m.output), "source": source}
    if m.registry_window is None or m.window_source:
        said = say("runtime-export.model", **sizes)
    else:  # the window assumed, said: a runtime's, not the registry's (spec §17)
        said = say("runtime-export.model-window", registry=_n(m.registry_window), **sizes)
    lines = [
        say("runtime-export.generated", version=__version__, runtime=p.title, release=p.version),
        said,
        say("runtime-export.compacts", tokens=_n(t)),
    ]
    return "".join(f"{prefix} {line}\n" for line in lines)


def _nested(settings: Mapping[str, Value]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in settings.items():
        node = out
        *parents, last = key.split(".")
        for part in parents:
            child = node.setdefault(part, {})
            assert isinstance(child, dict)
            node = child
        node[last] = value
    return out


def _py_value(value: Value) -> str:
    if isinstance(value, tuple):
        inner = ", ".join(_py_value(v) for v in value)  # type: ignore[arg-type]
        return f"({inner})"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, Decimal):
        return decimal_text(value)
    return str(value)


def _files(
    p: Profile, m: Model, s: dict[str, Value], t: int, r: Reviewed, *, say: Say = english
) -> list[RuntimeFile]:
    name = p.name
    if name == "article":
        return [RuntimeFile(p.file, "toml", r.article_text)]
    if name == "claude-code":
        env = {k: decimal_text(v) if isinstance(v, Decimal) else str(v) for k, v in s.items()}
        shell = _header(p, m, t, "#", say) + "".join(f"export {k}={v}\n" for k, v in env.items())
        return [
            RuntimeFile("~/.claude/settings.json", "json", dumps_json({"env": env}) + "\n"),
            RuntimeFile("shell profile (export lines)", "env", shell),
        ]
    if name in ("codex", "kimi-cli"):
        body = _header(p, m, t, "#", say)
        roots = {k: v for k, v in s.items() if "." not in k}
        body += "".join(f"{k} = {toml_value(v)}\n" for k, v in roots.items())
        tables: dict[str, dict[str, Value]] = {}
        for key, value in s.items():
            if "." in key:
                table, leaf = key.rsplit(".", 1)
                tables.setdefault(table, {})[leaf] = value
        for table, rows in tables.items():
            body += f"\n[{table}]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in rows.items())
        return [RuntimeFile(p.file, "toml", body)]
    if name == "opencode":
        limit = {k.split(".", 1)[1]: v for k, v in s.items() if k.startswith("limit.")}
        provider, model_id = opencode_ids(m.provider, m.name)
        doc = {
            "$schema": "https://opencode.ai/config.json",
            "compaction": {"reserved": s["compaction.reserved"]},
            "provider": {provider: {"models": {model_id: {"limit": limit}}}},
        }
        return [RuntimeFile("opencode.json", "json", dumps_json(doc) + "\n")]
    if name in ("pi", "gemini-cli", "qwen-code", "cline"):
        return [RuntimeFile(p.file, "json", dumps_json(_nested(s)) + "\n")]
    if name == "goose":
        body = _header(p, m, t, "#", say) + "".join(
            f"{k}: {decimal_text(v) if isinstance(v, Decimal) else v}\n" for k, v in s.items()
        )
        return [RuntimeFile(p.file, "yaml", body)]
    if name in ("langchain", "deepagents"):
        module = (
            "langchain.agents.middleware"
            if name == "langchain"
            else "deepagents.middleware.summarization"
        )
        model = repr(m.name or "MODEL")
        body = (
            _header(p, m, t, "#", say)
            + f"from {module} import SummarizationMiddleware\n\n"
            + "summarization = SummarizationMiddleware(\n"
            + f"    model={model},\n"
            + "".join(f"    {k}={_py_value(v)},\n" for k, v in s.items())
            + ")\n"
        )
        return [RuntimeFile(p.file, "python", body)]
    if name == "openai-agents":
        body = (
            _header(p, m, t, "#", say)
            + "from agents import ModelSettings\n\n"
            + "model_settings = ModelSettings(\n"
            + "    context_management=[\n"
            + f'        {{"type": "compaction", "compact_threshold": {s["compact_threshold"]}}},\n'
            + "    ],\n)\n"
        )
        return [RuntimeFile(p.file, "python", body)]
    if name == "anthropic-api":
        edit = {
            "type": "compact_20260112",
            "trigger": {"type": "input_tokens", "value": s["trigger.value"]},
        }
        doc = {"context_management": {"edits": [edit]}}
        return [RuntimeFile("request body fragment", "json", dumps_json(doc) + "\n")]
    raise AssertionError(name)  # pragma: no cover - every profile has a writer


# ---------------------------------------------------------------- export


def export_runtime(
    runtime: str, model: Model, reviewed: Reviewed, say: Say = english
) -> RuntimeExport:
    """The reviewed K and S written as ``runtime``'s own settings for ``model``; a
    ScenarioError naming ``config.trigger_tokens`` when the runtime cannot reach them."""
    p = profile(runtime)
    target = (
        reviewed.trigger if p.name == "article" else min(reviewed.trigger, reviewed.main_safe_input)
    )
    if p.name != "article" and target < 1:
        raise ScenarioError(
            [
                Problem.of(
                    "config.trigger_tokens",
                    target,
                    "runtime-target",
                    runtime=p.title,
                    target=target,
                )
            ]
        )
    try:
        settings, said, resolution, noted = _CONVERT[p.name](target, model, reviewed)
    except _Refused as refused:
        # The reason is a catalogue key with its own parameters beside the problem's,
        # so the page says it in its language (ui.problems); the CLI, in English.
        raise ScenarioError(
            [
                Problem.coded(
                    "config.trigger_tokens",
                    "runtime-unreachable",
                    runtime=p.title,
                    k=_asked(refused.value, reviewed),
                    reason=refused.key,
                    **refused.params,
                )
            ]
        ) from None
    effective = p.effective_trigger(model.window, model.output, settings, model=model.name)
    if p.name != "article":
        # Every conversion lands at or below min(K, M); a test recomputes each one.
        assert effective is not None, p.name
        assert effective <= target, (p.name, effective, target)
    if model.name is None:
        noted = [_note("no-model", w=_n(model.window), o=_n(model.output)), *noted]
    elif model.registry_window is not None and not model.window_source:
        sizes = {"w": _n(model.window), "registry": _n(model.registry_window)}
        noted = [_note("window-below", model=model.name, **sizes), *noted]
    notes = [say(key, **params) for key, params in noted]
    not_settable = _not_settable(p, reviewed, effective, say)
    conversion = say(said[0], **said[1])
    return RuntimeExport(
        runtime=p,
        model=model,
        reviewed=reviewed,
        target=target,
        settings=tuple(settings.items()),
        effective_trigger_tokens=effective,
        summary_cap_tokens=p.summary_cap(settings),
        conversion=conversion,
        resolution=resolution,
        not_settable=not_settable,
        notes=tuple(notes),
        files=tuple(_files(p, model, settings, target, reviewed, say=say)),
    )


def knob_written(
    runtime: str, *, window: int, output: int, model: str | None, k: int, s: int
) -> dict[str, Value]:
    """The settings :func:`export_runtime` writes for K = ``k`` on a model of window W
    and output O (tune's choice in a runtime's own unit is said beside the export it
    prints); empty where the runtime cannot reach K."""
    m = Model(name=model, provider=None, window=window, output=output, source="")
    reviewed = Reviewed(trigger=k, main_safe_input=k, summary_cap=s)
    try:
        return _CONVERT[profile(runtime).name](k, m, reviewed)[0]
    except _Refused:
        return {}


def _json_value(value: Value) -> object:
    if isinstance(value, tuple):
        return [_json_value(v) for v in value]  # type: ignore[arg-type]
    return value


def export_as_dict(x: RuntimeExport) -> dict[str, object]:
    """The JSON form (``export --runtime NAME --format json``)."""
    return {
        "runtime": x.runtime.name,
        "title": x.runtime.title,
        "version": x.runtime.version,
        "model": x.model.name,
        "provider": x.model.provider,
        "model_source": x.model.source,
        "window": x.model.window,
        "max_output": x.model.output,
        "reviewed": {
            "trigger_tokens": x.reviewed.trigger,
            "main_safe_input": x.reviewed.main_safe_input,
            "summary_max_tokens": x.reviewed.summary_cap,
            "target": x.target,
        },
        "settings": {k: _json_value(v) for k, v in x.settings},
        # Where each written knob lives and what it means, for a reader that renames
        # K to the runtime's own knob (the page's picker, a person).
        "knobs": [
            {
                "name": k.name,
                "where": k.where,
                "unit": k.unit,
                "default": _json_value(k.default),
                "low": k.low,
                "high": k.high,
                "step": k.step,
                "version": k.version,
                "source": k.source,
                "confidence": k.confidence,
            }
            for k in x.runtime.knobs
            if k.name in dict(x.settings)
        ],
        "effective_trigger_tokens": x.effective_trigger_tokens,
        "compare": x.runtime.compare,
        "rule": x.runtime.rule,
        "conversion": x.conversion,
        "resolution": x.resolution,
        "summary_cap_tokens": x.summary_cap_tokens,
        "not_settable": [{"knob": n.knob, "value": n.value, "why": n.why} for n in x.not_settable],
        "notes": list(x.notes),
        "file": x.files[0].name,
        "syntax": x.files[0].syntax,
        "text": x.text,
        "files": [{"name": f.name, "syntax": f.syntax, "text": f.text} for f in x.files],
        "source": x.runtime.trigger_source,
        "confidence": x.runtime.trigger_confidence,
    }


def dumps_export(x: RuntimeExport) -> str:
    """The JSON form as text, decimals exact."""
    return dumps_json(export_as_dict(x)) + "\n"
