"""Each runtime's effective trigger, written from the shared RUNTIMES.md alone.

This is the held-out check of issue 39 run ahead of time: it imports nothing from
budgetcore and was written from RUNTIMES.md's formulas (the section of each is named
beside it), not from ``budgetcore/runtimes``. It answers three questions about an
export:

- ``trigger``: the first whole T at which the runtime compacts under the exported
  settings (its own comparison folded in, so "compacts" is ``T >= trigger``), exactly
  (``Fraction``) or as the runtime computes it in IEEE doubles (``floats=True``: the
  runtimes read decimals as doubles in JavaScript, Rust and Python);
- ``settings_from_file``: the same settings read back from the exported file with the
  format's standard parser (``tomllib``, ``json``, a JSONC strip where the runtime
  accepts comments, ``ast`` for Python, ``KEY=value`` lines, YAML);
- ``reachable``: the reviewed K values the runtime's knobs can put its trigger on, from
  the ranges RUNTIMES.md records, and the nearest one to a K outside them (what a
  refusal must name).

Values are as a JSON reader with ``parse_float=Decimal`` gives them: ``int`` tokens,
``Decimal`` fractions and percentages, ``bool``, lists for LangChain's ContextSize.
"""

from __future__ import annotations

import ast
import json
import math
import re
import tomllib
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction

import yaml

__all__ = [
    "RESOLUTION",
    "Reach",
    "gemini_token_limit",
    "reachable",
    "settings_from_file",
    "strip_jsonc",
    "trigger",
]

#: RUNTIMES.md §5: tokenLimit(model) is 1,048,576 for every Gemini model and any unknown
#: one, 256,000 for Gemma 4 (gemini-cli packages/core/src/core/tokenLimits.ts@5411f113ca
#: switches on the exact names of config/models.ts: gemma-4-31b-it, gemma-4-26b-a4b-it).
GEMINI_TOKEN_LIMIT = 1_048_576
GEMMA_4 = {"gemma-4-31b-it": 256_000, "gemma-4-26b-a4b-it": 256_000}

#: How close to K each runtime's knob can put its trigger (tokens): one token for a token
#: knob, and for the percentages and fractions here a decimal with enough digits reaches
#: every token too. Cline 4 has no trigger knob at all (None: it is fixed).
RESOLUTION: dict[str, int | None] = {
    "article": 1,
    "claude-code": 1,
    "codex": 1,
    "opencode": 1,
    "pi": 1,
    "gemini-cli": 1,
    "qwen-code": 1,
    "kimi-cli": 1,
    "cline": None,
    "goose": 1,
    "langchain": 1,
    "deepagents": 1,
    "openai-agents": 1,
    "anthropic-api": 1,
}


def gemini_token_limit(model: str | None) -> int:
    name = (model or "").rsplit("/", 1)[-1]
    return GEMMA_4.get(name, GEMINI_TOKEN_LIMIT)


def _num(value: object) -> Fraction:
    if isinstance(value, bool):
        raise TypeError(f"a switch is not a number: {value!r}")
    if isinstance(value, int | Decimal):
        return Fraction(value)
    if isinstance(value, str):
        return Fraction(Decimal(value.strip()))
    raise TypeError(f"not a number: {value!r}")


def _int(value: object) -> int:
    f = _num(value)
    if f.denominator != 1:
        raise TypeError(f"not whole tokens: {value!r}")
    return f.numerator


def _flag(value: object) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true")
    return value is True


def _first_at_or_above(line: Fraction | float) -> int:
    """The first whole T that a ``T >= line`` test passes."""
    return math.ceil(line)


def trigger(
    runtime: str,
    s: Mapping[str, object],
    w: int,
    o: int,
    model: str | None = None,
    *,
    floats: bool = False,
) -> int | None:
    """The first T at which ``runtime`` compacts for a model of window ``w`` and max
    output ``o`` under settings ``s`` (absent knob: the runtime's default); None when it
    never compacts by tokens. A line at or below 0 compacts at once: 0."""

    def frac(value: object) -> Fraction | float:
        return float(_num(value)) if floats else _num(value)

    if runtime == "article":  # spec §5: T_soft >= K
        return _int(s.get("config.trigger_tokens", 32_000))
    if runtime == "claude-code":  # §1 (unofficial autoCompact.ts)
        if _flag(s.get("DISABLE_AUTO_COMPACT")) or s.get("autoCompactEnabled") is False:
            return None
        window = s.get("CLAUDE_CODE_AUTO_COMPACT_WINDOW", s.get("autoCompactWindow"))
        w2 = w if window in (None, "auto") else min(_int(window), w)
        e = w2 - min(o, 20_000)  # MAX_OUTPUT_TOKENS_FOR_SUMMARY
        line = e - 13_000  # AUTOCOMPACT_BUFFER_TOKENS
        if s.get("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE") is not None:
            pct = frac(s["CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"])
            floored = math.floor(e * pct / 100)
            # The source is not public: in doubles, either order of the arithmetic must
            # land on the same token for a value to be safe to write.
            assert not floats or floored == math.floor(e * (pct / 100)), (e, pct)
            line = min(floored, line)  # can only lower it
        return max(0, line)
    if runtime == "codex":  # §2: T >= min(limit, floor(W * 9 / 10)), Rust i64
        w2 = _int(s.get("model_context_window", w))
        clamp = w2 * 9 // 10
        limit = s.get("model_auto_compact_token_limit")
        line = clamp if limit is None else min(_int(limit), clamp)
        return max(0, line)  # T >= a negative limit holds for every T
    if runtime == "opencode":  # §3: overflow.ts@08f74b9bb5
        if s.get("compaction.auto") is False or s.get("limit.context") == 0:
            return None
        # maxOutputTokens(model) is ProviderTransform's Math.min(limit.output, 32_000)
        # || 32_000 (packages/opencode/src/provider/transform.ts, OUTPUT_TOKEN_MAX).
        max_out = min(_int(s.get("limit.output", o)), 32_000) or 32_000
        reserved = _int(s.get("compaction.reserved", min(20_000, max_out)))
        if s.get("limit.input") is not None:
            return max(0, _int(s["limit.input"]) - reserved)
        return max(0, _int(s.get("limit.context", w)) - max_out)
    if runtime == "pi":  # §4: T > W - reserveTokens (strict)
        if s.get("compaction.enabled") is False:
            return None
        return max(0, w - _int(s.get("compaction.reserveTokens", 16_384)) + 1)
    if runtime == "gemini-cli":  # §5: compresses unless T < thr * tokenLimit(model)
        thr: Fraction | float = frac(s.get("model.compressionThreshold", Decimal("0.5")))
        if thr == 0:  # 0 is treated as unset
            thr = frac(Decimal("0.5"))
        return _first_at_or_above(thr * gemini_token_limit(model))
    if runtime == "qwen-code":  # §6: auto = min(pct W, E - 13,000), E = W - 20,000
        w2 = _int(s.get("model.generationConfig.contextWindowSize", w))
        pct = frac(s.get("context.autoCompactThreshold", Decimal("0.85")))
        e = max(0, w2 - 20_000)
        auto = min(pct * w2, e - 13_000) if e - 13_000 > 0 else pct * w2
        return _first_at_or_above(auto)
    if runtime == "kimi-cli":  # §7: T >= ratio W or T + reserved >= W
        w2 = _int(s.get("max_context_size", w))
        ratio = frac(s.get("loop_control.compaction_trigger_ratio", Decimal("0.85")))
        reserved = _int(s.get("loop_control.reserved_context_size", 50_000))
        return max(0, min(_first_at_or_above(w2 * ratio), w2 - reserved))
    if runtime == "cline":  # §8 v4: K = 0.9 E, E = 0.9 W for a window-only model
        if s.get("useAutoCondense") is False:
            return None
        if floats:
            return _first_at_or_above(w * 0.9 * 0.9)
        return _first_at_or_above(Fraction(9, 10) * Fraction(9, 10) * w)
    if runtime == "goose":  # §9: T / W > thr (strict); <= 0 or >= 1 turns it off
        thr_exact = _num(s.get("GOOSE_AUTO_COMPACT_THRESHOLD", Decimal("0.8")))
        if not 0 < thr_exact < 1:
            return None
        w2 = _int(s.get("GOOSE_CONTEXT_LIMIT", w))
        first = math.floor(thr_exact * w2) + 1
        if not floats:
            return first
        thr_f = float(thr_exact)
        passing = [t for t in range(max(0, first - 2), first + 3) if t / w2 > thr_f]
        return passing[0]
    if runtime in ("langchain", "deepagents"):  # §13-14: ContextSize, any one fires
        default = None if runtime == "langchain" else ["fraction", Decimal("0.85")]
        size = s.get("trigger", default)
        if size is None:
            return None
        assert isinstance(size, list | tuple)
        sizes = list(size) if size and isinstance(size[0], list | tuple) else [size]
        lines = []
        for kind, value in sizes:
            if kind == "tokens":
                lines.append(_int(value))
            elif kind == "fraction":
                lines.append(max(1, math.floor(w * frac(value))))
        return min(lines) if lines else None
    if runtime == "openai-agents":  # §15: server-side compact_threshold; off unless set
        value = s.get("compact_threshold")
        return None if value is None else _int(value)
    if runtime == "anthropic-api":  # §16: input tokens >= trigger.value, default 150,000
        if s.get("compact") is False:
            return None
        return _int(s.get("trigger.value", 150_000))
    raise KeyError(runtime)


# ---------------------------------------------------------------- reading files back


def strip_jsonc(text: str) -> str:
    """``//`` and ``/* */`` comments outside strings and trailing commas removed."""
    out, i, in_string = [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                break
            continue
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 2
            continue
        else:
            out.append(c)
        i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def _flatten(doc: Mapping[str, object], prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in doc.items():
        if isinstance(value, dict):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def _literal(node: ast.expr, source: str) -> object:
    if isinstance(node, ast.Constant) and isinstance(node.value, float):
        return Decimal(ast.get_source_segment(source, node) or repr(node.value))
    if isinstance(node, ast.Tuple | ast.List):
        return [_literal(e, source) for e in node.elts]
    if isinstance(node, ast.Dict):
        return {
            _literal(k, source): _literal(v, source)  # type: ignore[arg-type]
            for k, v in zip(node.keys, node.values, strict=True)
        }
    return ast.literal_eval(node)


def _call_kwargs(source: str, name: str) -> dict[str, object]:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if called == name:
                return {
                    kw.arg: _literal(kw.value, source)
                    for kw in node.keywords
                    if kw.arg is not None and kw.arg != "model"
                }
    raise AssertionError(f"no call to {name}")


def settings_from_file(runtime: str, syntax: str, text: str) -> dict[str, object]:
    """The compaction knobs an exported file sets, read with the format's standard
    parser, named as RUNTIMES.md names them (a table's key as ``table.key``)."""
    if syntax == "toml":
        return _flatten(tomllib.loads(text, parse_float=Decimal))
    if syntax == "env":  # export KEY=value lines (Claude Code, Goose)
        found: dict[str, object] = {}
        for raw in text.splitlines():
            line = raw.strip()
            if line and not line.startswith("#"):
                key, _, value = line.removeprefix("export ").partition("=")
                found[key] = value
        return found
    if syntax == "yaml":
        # BaseLoader keeps every scalar as its text: the threshold stays exact.
        doc = yaml.load(text, Loader=yaml.BaseLoader)
        return {k: Decimal(v) for k, v in doc.items()}
    if syntax == "python":
        if runtime == "openai-agents":
            (edit,) = _call_kwargs(text, "ModelSettings")["context_management"]  # type: ignore[misc]
            assert edit["type"] == "compaction"
            return {"compact_threshold": edit["compact_threshold"]}
        return _call_kwargs(text, "SummarizationMiddleware")
    assert syntax == "json"
    jsonc = runtime in ("opencode", "gemini-cli", "qwen-code")  # RUNTIMES.md: JSONC there
    doc = json.loads(strip_jsonc(text) if jsonc else text, parse_float=Decimal)
    if runtime == "claude-code":
        return dict(doc["env"])
    if runtime == "anthropic-api":
        edits = [e for e in doc["context_management"]["edits"] if e["type"] == "compact_20260112"]
        (edit,) = edits
        assert edit["trigger"]["type"] == "input_tokens"
        return {"compact": True, "trigger.value": edit["trigger"]["value"]}
    if runtime == "opencode":
        settings = {f"compaction.{k}": v for k, v in doc.get("compaction", {}).items()}
        models = [m for p in doc.get("provider", {}).values() for m in p["models"].values()]
        if models:
            (entry,) = models
            settings.update({f"limit.{k}": v for k, v in entry.get("limit", {}).items()})
        return settings
    return _flatten(doc)


# ---------------------------------------------------------------- reach


class Reach:
    """The reviewed K values a runtime's knobs reach exactly, [low, high], for one model;
    Cline 4's single fixed trigger is ``fixed`` (an export is fine at or above it)."""

    def __init__(self, low: int, high: int | None, fixed: int | None = None) -> None:
        self.low, self.high, self.fixed = low, high, fixed

    @property
    def empty(self) -> bool:
        """No K at all is reachable for this model (a window too small for the runtime)."""
        return self.fixed is None and self.high is not None and self.high < self.low

    def holds(self, k: int) -> bool:
        if self.fixed is not None:
            return k >= self.fixed
        return self.low <= k and (self.high is None or k <= self.high)

    def nearest(self, k: int) -> int:
        """The reachable K a refusal of ``k`` must name."""
        if self.fixed is not None:
            return self.fixed
        if k < self.low:
            return self.low
        assert self.high is not None
        return self.high


def reachable(runtime: str, w: int, o: int, model: str | None = None) -> Reach:
    """From the knobs' ranges in RUNTIMES.md (each section's config table)."""
    if runtime == "claude-code":  # pct 1-100 of E, and it can only lower E - 13,000
        e = w - min(o, 20_000)
        return Reach(max(1, e // 100), e - 13_000)
    if runtime == "codex":  # never 0 (compacts at once); min(limit, floor(0.9 W))
        return Reach(1, w * 9 // 10)
    if runtime in ("opencode", "pi", "goose"):  # a reserve or a fraction of W
        return Reach(1, w)
    if runtime == "gemini-cli":  # a fraction of tokenLimit(model)
        return Reach(1, gemini_token_limit(model))
    if runtime == "qwen-code":  # W - 33,000 wins over any fraction when positive
        return Reach(1, w - 33_000 if w - 33_000 > 0 else w)
    if runtime == "kimi-cli":  # reserved >= 1,000, ratio <= 0.99
        return Reach(1, min(w - 1_000, math.ceil(Fraction(99, 100) * w)))
    if runtime == "cline":
        return Reach(0, None, fixed=math.ceil(Fraction(81, 100) * w))
    if runtime == "anthropic-api":  # minimum 50,000
        return Reach(50_000, None)
    assert runtime in ("article", "langchain", "deepagents", "openai-agents")
    return Reach(1, None)
