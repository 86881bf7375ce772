"""Issue 39's hidden check, run ahead of time: ``export --runtime NAME --format json``
through the CLI (in-process) for every runtime over generated windows, models, K and S,
held to the reference of ``tests/oracles/runtime_triggers.py`` (written from the shared
RUNTIMES.md alone, importing nothing from budgetcore).

For every export the reference's trigger for the exported ``settings``, and for the
settings read back from the exported ``text`` with the format's standard parser, is
``effective_trigger_tokens``, never above K (nor M), and within the runtime's
resolution of min(K, M); the runtime's own float arithmetic lands on the same token; each
written value lies in the knob's range. A K the runtime cannot reach is refused in one
line naming the reason and the nearest K that it does reach. ``not_settable`` names
every reviewed knob the runtime lacks.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import run_cli
from tests.oracle import oracle_plan
from tests.oracles import runtime_triggers as ref
from tests.profiles import examples

RUNTIMES = tuple(ref.RESOLUTION)

#: Registry models across the providers the runtimes run (name, W, O as LiteLLM gives
#: them), and Gemma 4, whose Gemini CLI token limit is 256,000 (RUNTIMES.md §5).
MODELS = {
    "claude-sonnet-4-5": (200_000, 64_000),
    "claude-3-haiku-20240307": (200_000, 4_096),
    "gpt-5-codex": (272_000, 128_000),
    "gpt-4o-mini": (128_000, 16_384),
    "gpt-4.1": (1_047_576, 32_768),
    "gemini-2.5-pro": (1_048_576, 65_535),
    "gemini/gemma-4-31b-it": (262_144, 32_768),
    "deepseek/deepseek-chat": (131_072, 8_192),
}


def _format(n: int) -> str:
    return f"{n:,}"


@st.composite
def cases(draw: st.DrawFn) -> dict[str, Any]:
    """A fragment: a registry model or a contract of its own, K, S, margin and reply."""
    pairs: dict[str, object] = {}
    if draw(st.booleans(), label="registry model"):
        name = draw(st.sampled_from(sorted(MODELS)), label="model")
        w, o = MODELS[name]
        pairs["main_model.model"] = name
    else:
        name = None
        w = draw(
            st.one_of(
                st.integers(1_000, 2_000_000),
                st.sampled_from([8_192, 32_000, 128_000, 200_000, 262_144, 1_048_576]),
            ),
            label="W",
        )
        o = draw(st.integers(1, min(w, 200_000)), label="O")
        pairs["main_model.input_tokens"] = w
        pairs["main_model.output_tokens"] = o
    reply = draw(st.sampled_from([8_192, 0, 1_000, 32_000]), label="reply")
    margin = draw(st.sampled_from(["0.10", "0", "0.05", "0.25"]), label="margin")
    pairs["config.reply_max_tokens"] = reply
    pairs["config.safety_margin"] = margin
    k = draw(
        st.one_of(st.integers(1, w + 1_000), st.sampled_from([50_000, 120_000, 150_000])),
        label="K",
    )
    pairs["config.trigger_tokens"] = k
    pairs["config.summary_max_tokens"] = draw(st.integers(1, o), label="S")
    scenario = {
        "main_model": {"input_tokens": w, "output_tokens": o},
        "config": {"reply_max_tokens": reply, "safety_margin": margin},
    }
    m = oracle_plan(scenario)["main_safe_input"]
    fragment = "&".join(f"{key}={value}" for key, value in pairs.items())
    return {"fragment": fragment, "model": name, "w": w, "o": o, "k": k, "m": m, "pairs": pairs}


def _export(runtime: str, fragment: str) -> tuple[int, str, str]:
    r = run_cli(["export", "--runtime", runtime, "--fragment", fragment, "--format", "json"])
    return r.code, r.out, r.err


#: Each written knob's range, from RUNTIMES.md's config tables (low, high, inclusive).
RANGES: dict[str, tuple[Decimal | int | None, Decimal | int | None]] = {
    "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": (1, 100),
    "model_auto_compact_token_limit": (1, None),  # never 0: it compacts at once
    "compaction.reserved": (0, None),
    "compaction.reserveTokens": (1, None),
    "model.compressionThreshold": (0, 1),  # above 0: 0 means unset
    "context.autoCompactThreshold": (0, 1),
    "loop_control.reserved_context_size": (1_000, None),
    "loop_control.compaction_trigger_ratio": (Decimal("0.5"), Decimal("0.99")),
    "GOOSE_AUTO_COMPACT_THRESHOLD": (0, 1),  # strictly between: <= 0 or >= 1 is off
    "compact_threshold": (1, None),
    "trigger.value": (50_000, None),
}
#: Ranges open at the low end (a 0 there means unset or off), or at both ends.
OPEN_LOW = {"model.compressionThreshold", "context.autoCompactThreshold"}
OPEN = {"GOOSE_AUTO_COMPACT_THRESHOLD"}


def _in_range(key: str, value: object) -> bool:
    low, high = RANGES.get(key, (None, None))
    if low is None and high is None:
        return True
    assert isinstance(value, int | Decimal), (key, value)
    assert not isinstance(value, bool), (key, value)
    if low is not None and (value <= low if key in OPEN_LOW | OPEN else value < low):
        return False
    return high is None or (value < high if key in OPEN else value <= high)


@pytest.mark.parametrize("runtime", RUNTIMES)
@settings(max_examples=examples(60))
@given(case=cases())
def test_every_export_meets_the_reference(runtime: str, case: dict[str, Any]) -> None:
    code, out, err = _export(runtime, case["fragment"])
    k, m, w, o, model = case["k"], case["m"], case["w"], case["o"], case["model"]
    target = k if runtime == "article" else min(k, m)
    reach = ref.reachable(runtime, w, o, model)
    if code != 0:
        assert code == 2
        assert out == ""
        line = err.strip()
        assert "\n" not in line, err
        assert "Traceback" not in err
        assert line.startswith("config.trigger_tokens "), line
        if target < 1:
            assert "must be at least 1" in line
            return
        assert not reach.holds(target), (line, target)
        assert "cannot be set in " in line
        assert "…" not in line, "the reason is whole, not shortened"
        if reach.empty:
            assert "reaches no K" in line, line
            return
        # ... with the reason and what would reach it: the nearest K it does reach.
        assert _format(reach.nearest(target)) in line, (line, reach.nearest(target))
        if runtime == "codex":
            assert f"model_context_window >= {_format(-(-target * 10 // 9))}" in line
        return
    assert reach.holds(target), (runtime, target, "reachable by the reference")
    doc = json.loads(out, parse_float=Decimal)
    assert doc["runtime"] == runtime
    assert {"text", "settings", "effective_trigger_tokens", "not_settable"} <= set(doc)
    assert (doc["window"], doc["max_output"], doc["model"]) == (w, o, model)
    effective = doc["effective_trigger_tokens"]
    settings_ = doc["settings"]
    expected = ref.trigger(runtime, settings_, w, o, model)
    assert effective == expected, (settings_, expected)
    assert effective is not None
    assert effective <= k
    if runtime != "article":
        assert effective <= m
    resolution = ref.RESOLUTION[runtime]
    if resolution is None:  # Cline 4: fixed, and K is named as not settable
        assert effective == reach.fixed
    else:
        assert target - effective < resolution
    # The runtime's own IEEE-double arithmetic lands on the same token.
    assert ref.trigger(runtime, settings_, w, o, model, floats=True) == effective
    for key, value in settings_.items():
        assert _in_range(key, value), (key, value)
    # The step each written knob states (what a reader holds the export to) is the
    # resolution the export reaches.
    for knob in doc["knobs"]:
        if knob["unit"] != "bool":
            assert knob["step"].startswith("1 token"), knob
    # The file itself, read with the format's standard parser, means the same.
    for f in doc["files"]:
        back = ref.settings_from_file(runtime, f["syntax"], f["text"])
        if runtime == "article":
            assert back.get("config.trigger_tokens", 32_000) == k
            continue
        assert ref.trigger(runtime, back, w, o, model) == effective, (f["syntax"], back)
    _names_every_knob_it_lacks(runtime, doc, case["pairs"])


def _names_every_knob_it_lacks(runtime: str, doc: dict[str, Any], pairs: dict[str, object]) -> None:
    named = {n["knob"]: n for n in doc["not_settable"]}
    for entry in doc["not_settable"]:
        assert entry["why"]
    if runtime == "article":
        assert named == {}
        return
    s = named["S (summary cap)"]
    assert s["value"] == pairs["config.summary_max_tokens"]
    if runtime == "cline":
        assert named["K (trigger line)"]["value"] == pairs["config.trigger_tokens"]
    # The margin and reply only shape M, which the target already respects; a reviewed
    # value other than the default is still named, never dropped in silence.
    for key, default in (("config.safety_margin", "0.10"), ("config.reply_max_tokens", 8_192)):
        if str(pairs[key]) != str(default):
            assert key in named, (key, named)
    assert set(named) <= {
        "S (summary cap)",
        "K (trigger line)",
        "config.safety_margin",
        "config.reply_max_tokens",
    }


@pytest.mark.parametrize("k", [2_007, 2_011, 128_002, 131_068])
def test_gemma_4s_threshold_lands_on_k_in_javascripts_doubles(k: int) -> None:
    # Gemini CLI compares T < threshold × 256,000 in doubles for Gemma 4 (RUNTIMES.md §5).
    # For these K the exact decimal K / 256,000 makes the double product land above K
    # (2,007 / 256,000 × 256,000 = 2,007.0000000000002): written that way the runtime
    # would first compress at K + 1.
    assert float(Decimal(2_007) / 256_000) * 256_000 > 2_007
    fragment = f"main_model.model=gemini/gemma-4-31b-it&config.trigger_tokens={k}"
    code, out, err = _export("gemini-cli", fragment)
    assert code == 0, err
    doc = json.loads(out, parse_float=Decimal)
    assert doc["effective_trigger_tokens"] == k
    assert ref.trigger("gemini-cli", doc["settings"], 262_144, 32_768, doc["model"]) == k
    floats = ref.trigger("gemini-cli", doc["settings"], 262_144, 32_768, doc["model"], floats=True)
    assert floats == k


# ---------------------------------------------------------------- any settings
#
# Beyond what an export writes: every knob at any value in its range (as `check` reads
# a person's file), the profile's trigger against the reference's.

_tokens = st.integers(0, 3_000_000)


def _decimal(low: str, high: str, places: int = 6) -> st.SearchStrategy[Decimal]:
    scale = 10**places
    return st.integers(int(Decimal(low) * scale), int(Decimal(high) * scale)).map(
        lambda n: Decimal(n) / scale
    )


def _optional(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), strategy)


SETTINGS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "claude-code": {
        "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": _optional(_decimal("1", "100", 3)),
        "CLAUDE_CODE_AUTO_COMPACT_WINDOW": _optional(st.integers(100_000, 1_000_000)),
        "autoCompactEnabled": _optional(st.booleans()),
    },
    "codex": {
        "model_auto_compact_token_limit": _optional(st.integers(-1_000, 3_000_000)),
        "model_context_window": _optional(st.integers(1, 3_000_000)),
    },
    "opencode": {
        "compaction.reserved": _optional(st.integers(0, 200_000)),
        "compaction.auto": _optional(st.booleans()),
        "limit.input": _optional(st.integers(1, 2_000_000)),
        "limit.context": _optional(st.integers(0, 2_000_000)),
        "limit.output": _optional(st.integers(0, 200_000)),
    },
    "pi": {
        "compaction.reserveTokens": _optional(st.integers(0, 500_000)),
        "compaction.enabled": _optional(st.booleans()),
    },
    "gemini-cli": {"model.compressionThreshold": _optional(_decimal("0", "1"))},
    "qwen-code": {
        "context.autoCompactThreshold": _optional(_decimal("0.000001", "1")),
        "model.generationConfig.contextWindowSize": _optional(st.integers(1, 2_000_000)),
    },
    "kimi-cli": {
        "loop_control.compaction_trigger_ratio": _optional(_decimal("0.5", "0.99", 4)),
        "loop_control.reserved_context_size": _optional(st.integers(1_000, 500_000)),
        "max_context_size": _optional(st.integers(1, 2_000_000)),
    },
    "cline": {"useAutoCondense": _optional(st.booleans())},
    "goose": {
        "GOOSE_AUTO_COMPACT_THRESHOLD": _optional(_decimal("-1", "2")),
        "GOOSE_CONTEXT_LIMIT": _optional(st.integers(1, 2_000_000)),
    },
    "langchain": {
        "trigger": _optional(
            st.one_of(
                st.tuples(st.just("tokens"), st.integers(1, 2_000_000)),
                st.tuples(st.just("fraction"), _decimal("0.000001", "1")),
                st.tuples(st.just("messages"), st.integers(1, 100)),
            )
        )
    },
    "openai-agents": {"compact_threshold": _optional(st.integers(1, 2_000_000))},
    "anthropic-api": {
        "trigger.value": _optional(st.integers(50_000, 2_000_000)),
        "compact": _optional(st.booleans()),
    },
}
SETTINGS["deepagents"] = SETTINGS["langchain"]


@pytest.mark.parametrize("runtime", sorted(SETTINGS))
@settings(max_examples=examples(80))
@given(data=st.data(), w=st.integers(1, 3_000_000), o=st.integers(0, 200_000))
def test_every_profile_agrees_with_the_reference_at_any_setting(
    runtime: str, data: st.DataObject, w: int, o: int
) -> None:
    from budgetcore.runtimes import profile  # noqa: PLC0415 - the code under test

    drawn = {key: data.draw(strategy, label=key) for key, strategy in SETTINGS[runtime].items()}
    given_settings = {key: value for key, value in drawn.items() if value is not None}
    model = data.draw(st.sampled_from([None, "gemini-2.5-pro", "gemini/gemma-4-31b-it"]))
    ours = profile(runtime).effective_trigger(w, o, given_settings, model=model)
    # The reference reads settings as JSON gives them (a ContextSize is a list).
    as_json = {k: list(v) if isinstance(v, tuple) else v for k, v in given_settings.items()}
    assert ours == ref.trigger(runtime, as_json, w, o, model), (given_settings, w, o)
