"""A runtime's own file, parsed once (docs/runtimes.md, "Check the runtime's own
file"): the document its settings reader (:mod:`budgetcore.runtimes.check`) reads, and
the model the file names, read from the same parse (each parsed the text apart)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from budgetcore.errors import ScenarioError
from budgetcore.runtimes import profile
from budgetcore.runtimes.syntax import (
    read_env,
    read_json,
    read_python_call,
    read_toml,
    read_yaml_flat,
)

__all__ = ["RuntimeFile", "file_model", "model_not_named", "parse_file"]


@dataclass(frozen=True, slots=True, eq=False)
class RuntimeFile:
    """A runtime's own file parsed once: its settings (:func:`read_settings`) and the
    model it names (:func:`file_model`) are read from the one document, where each
    parsed the text again. ``doc`` is None for a runtime whose reader takes the text
    itself (a Python call, the article's config), and where ``error`` says why the
    file cannot be parsed (raised by :meth:`document`, as the parse raised it)."""

    runtime: str  # the profile's name
    text: str
    doc: Any = None
    error: ScenarioError | None = None

    def document(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.doc


def _strict_json(text: str, what: str, title: str) -> object:
    return read_json(text, what, comments=False, runtime=title)


def _jsonc(text: str, what: str, title: str) -> object:
    return read_json(text, what, comments=True)


def _claude_parse(text: str, what: str, title: str) -> object:
    # settings.json, or the shell's export lines (an env file)
    if text.lstrip().startswith("{"):
        return _strict_json(text, what, title)
    return read_env(text, what)


def _codex_parse(text: str, what: str, title: str) -> object:
    return read_toml(text, what)


def _kimi_parse(text: str, what: str, title: str) -> object:
    # config.toml, or JSON (--config-file by extension, --config tries JSON first):
    # MoonshotAI/kimi-cli docs/en/configuration/config-files.md
    if text.lstrip().startswith("{"):
        return _strict_json(text, what, title)
    return read_toml(text, what)


def _goose_parse(text: str, what: str, title: str) -> object:
    if text.lstrip().startswith("{"):
        # JSON is YAML (a flow mapping): Goose would read its top-level keys.
        return _strict_json(text, what, title)
    return read_env(text, what) if _env_like(text) else read_yaml_flat(text, what)


def _anthropic_parse(text: str, what: str, title: str) -> object:
    if text.lstrip().startswith(("{", "[")):
        return _strict_json(text, what, title)
    # SDK code: client.beta.messages.create(..., context_management={...})
    return read_python_call(text, what, ("create", "stream", "count_tokens"))


#: How each runtime's file is parsed, once (:func:`parse_file`); a runtime absent here
#: has a reader that reads the text itself.
_PARSERS: dict[str, Callable[[str, str, str], object]] = {
    "claude-code": _claude_parse,
    "codex": _codex_parse,
    "opencode": _jsonc,
    "pi": _strict_json,
    "gemini-cli": _jsonc,
    "qwen-code": _jsonc,
    "kimi-cli": _kimi_parse,
    "cline": _strict_json,
    "goose": _goose_parse,
    "anthropic-api": _anthropic_parse,
}


def parse_file(runtime: str, text: str | RuntimeFile, what: str = "config") -> RuntimeFile:
    """``text`` (a runtime's own file) parsed once, as that runtime's reader reads it;
    a file already parsed as it is."""
    if isinstance(text, RuntimeFile):
        return text
    p = profile(runtime)
    parse = _PARSERS.get(p.name)
    if parse is None:
        return RuntimeFile(p.name, text)
    try:
        return RuntimeFile(p.name, text, parse(text, what, p.title))
    except ScenarioError as exc:
        return RuntimeFile(p.name, text, error=exc)


def _env_like(text: str) -> bool:
    """Whether a Goose file is shell-style KEY=value lines (else YAML): every line that
    is not blank or a comment has an ``=`` before any ``:``."""
    lines = [x.strip() for x in text.split("\n") if x.strip() and not x.strip().startswith("#")]
    return bool(lines) and all("=" in x and ":" not in x.split("=", 1)[0] for x in lines)


def _at(doc: object, path: tuple[str, ...]) -> object:
    for part in path:
        doc = doc.get(part) if isinstance(doc, dict) else None
    return doc


def _string_at(doc: object, path: tuple[str, ...]) -> str | None:
    doc = _at(doc, path)
    return doc.strip() if isinstance(doc, str) and doc.strip() else None


def _claude_doc(f: RuntimeFile) -> object:
    # ANTHROPIC_MODEL wins over settings.json's model (Claude Code's model configuration:
    # /model, then --model, then ANTHROPIC_MODEL, then the settings file's model).
    return f.doc if f.text.lstrip().startswith("{") else {"env": f.doc}


def _kimi_doc(f: RuntimeFile) -> object:
    # config.toml, or JSON (as _kimi reads it). default_model names a key of [models]
    # (Config's validator: "Default model {x} not found in models"), and that entry's
    # model is the name sent to the provider: MoonshotAI/kimi-cli src/kimi_cli/config.py
    # @4a550effdfcb29a25a5d325bf935296cc50cd417 (Config.default_model, LLMModel.model;
    # docs/en/configuration/config-files.md at the same commit). The entry is read as
    # the path models.<default_model>.model, as the file spells it.
    doc = f.doc
    if not isinstance(doc, dict):
        return doc
    default = doc.get("default_model")
    models = doc.get("models")
    entry = models.get(default) if isinstance(models, dict) and isinstance(default, str) else None
    if isinstance(entry, dict) and isinstance(entry.get("model"), str):
        return {f"models.{default}.model": entry["model"]}
    return {"default_model": default}  # no such entry (Kimi CLI refuses the file), or none


def _as_parsed(f: RuntimeFile) -> object:
    return f.doc


#: Where a runtime's own file names the model it runs, as the runtime reads it: how to
#: read the file, then the keys that may name it, the first found winning. Runtimes
#: absent here name none in the file the page reads (Cline's state; LangChain's and Deep
#: Agents' ``model=`` is the summariser's; the OpenAI Agents SDK's ModelSettings has
#: none).
_MODEL_KEYS: dict[str, tuple[Callable[[RuntimeFile], object], tuple[tuple[str, ...], ...]]] = {
    # codex-rs config: the top-level model (a [profiles.x] model applies with --profile)
    "codex": (_as_parsed, (("model",),)),
    "claude-code": (_claude_doc, (("env", "ANTHROPIC_MODEL"), ("model",))),
    # opencode.json's model is "provider/model", in its providers' ids
    "opencode": (_as_parsed, (("model",),)),
    # pi's settings.json: defaultModel beside defaultProvider (badlogic/pi-mono
    # packages/coding-agent/src/core/settings-manager.ts@02c721866b, Settings)
    "pi": (_as_parsed, (("defaultModel",),)),
    # Gemini CLI's settings.json: model.name (docs/get-started/configuration.md)
    "gemini-cli": (_as_parsed, (("model", "name"),)),
    "goose": (_as_parsed, (("GOOSE_MODEL",),)),
    # Qwen Code's settings.json: model.name, "The model to use for conversations."
    # (QwenLM/qwen-code packages/cli/src/config/settingsSchema.ts
    # @2e4531140b52798b0dede8cf7b21f78ed950bb58), JSONC as _qwen reads it
    "qwen-code": (_as_parsed, (("model", "name"),)),
    "kimi-cli": (_kimi_doc, ()),  # no fixed key: the reader finds it (its one entry)
    "anthropic-api": (_as_parsed, (("model",),)),  # the Messages API request's model
}


def _model_doc(
    runtime: str, text: str | RuntimeFile
) -> tuple[RuntimeFile, object, tuple[tuple[str, ...], ...]] | None:
    """The file, the document its model keys are read from, and those keys' paths;
    None where the runtime's file names no model or the file cannot be read."""
    f = parse_file(runtime, text)
    known = _MODEL_KEYS.get(f.runtime)
    if known is None or f.error is not None:
        return None
    read, paths = known
    return f, read(f), paths


def file_model(runtime: str, text: str | RuntimeFile) -> tuple[str, str] | None:
    """The model a runtime's own file names (the key as the file spells it, the name as
    written), or None: the file names none, the runtime's file has no such key, or the
    file cannot be read (:func:`check_runtime` says why). ``text``: the file, or the
    file as :func:`parse_file` read it, whose settings are read from the same parse."""
    found = _model_doc(runtime, text)
    if found is None:
        return None
    f, doc, paths = found
    if not paths and isinstance(doc, dict):
        # A reader that finds the key itself (Kimi CLI's indirection): its one entry.
        ((where, name),) = doc.items()
        named = name.strip() if isinstance(name, str) else ""
        return (where, named) if named else None
    for path in paths:
        name = _string_at(doc, path)
        if name is not None:
            where = ".".join(path)
            # The shell's export lines name the variable alone, as the file spells it.
            return (
                path[-1] if not f.text.lstrip().startswith("{") and path[0] == "env" else where
            ), name
    return None


def model_not_named(runtime: str, text: str | RuntimeFile) -> tuple[str, object] | None:
    """A key that names the model holding something that is no name (``model = 7``):
    its path and value, which the runtime's own parser refuses (codex-rs's ``model`` is
    an ``Option<String>``; the others' schemas type it as a string). It was listed as
    an ignored key, as if the file named no model; None where every such key is text
    or absent."""
    found = _model_doc(runtime, text)
    if found is None:
        return None
    _, doc, paths = found
    for path in paths:
        value = _at(doc, path)
        if value is not None and not isinstance(value, str):
            return ".".join(path), value
    return None
