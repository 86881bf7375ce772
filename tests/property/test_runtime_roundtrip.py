"""Export then check, for every runtime over generated windows and K (docs/runtimes.md).

The oracle below is written from the shared RUNTIMES.md's formulas in plain integers
and ``Fraction``, without importing the profiles: it must agree with
``effective_trigger_tokens``, never exceed K (nor M), land within the runtime's
resolution of K (one token for every knob here), and a K it says is reachable is never
refused. Where a runtime parses its fraction as a float (JavaScript, Rust ``f64``), the
test also runs that float arithmetic, to show the written decimal lands on K there too.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from budgetcore.errors import ScenarioError
from budgetcore.runtimes import RUNTIME_NAMES
from budgetcore.runtimes.check import check_runtime
from budgetcore.runtimes.export import Model, Reviewed, export_runtime

windows = st.one_of(
    st.integers(1_000, 4_000_000),
    st.sampled_from([8_192, 128_000, 200_000, 262_144, 272_000, 1_000_000, 1_048_576]),
)
outputs = st.one_of(st.integers(1, 200_000), st.sampled_from([8_192, 20_000, 32_000, 64_000]))
GEMINI_LIMIT = 1_048_576  # tokenLimits.ts: every Gemini model


def _f(value: object) -> Fraction:
    assert isinstance(value, int | Decimal)
    assert not isinstance(value, bool)
    return Fraction(value)


def oracle(runtime: str, s: dict[str, object], w: int, o: int) -> int | None:
    """The first T at which the runtime compacts, from RUNTIMES.md (sections 1-16)."""
    if runtime == "article":
        return int(s.get("config.trigger_tokens", 32_000))
    if runtime == "claude-code":  # §1: E = W' − min(O, 20k); min(floor(E·pct/100), E − 13k)
        e = w - min(o, 20_000)
        line = e - 13_000
        if "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE" in s:
            line = min(math.floor(e * _f(s["CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"]) / 100), line)
        return line
    if runtime == "codex":  # §2: min(limit, floor(0.9 W)), T >= L
        return min(int(s["model_auto_compact_token_limit"]), w * 9 // 10)
    if runtime == "opencode":  # §3: limit.input − reserved when limit.input is set
        return int(s["limit.input"]) - int(s["compaction.reserved"])
    if runtime == "pi":  # §4: T > W − reserveTokens
        return w - int(s["compaction.reserveTokens"]) + 1
    if runtime == "gemini-cli":  # §5: T >= thr · 1,048,576
        return math.ceil(_f(s["model.compressionThreshold"]) * GEMINI_LIMIT)
    if runtime == "qwen-code":  # §6: min(pct·W, W − 20k − 13k), T >= auto
        auto = _f(s["context.autoCompactThreshold"]) * w
        if w - 33_000 > 0:
            auto = min(auto, Fraction(w - 33_000))
        return math.ceil(auto)
    if runtime == "kimi-cli":  # §7: T >= ratio·W or T + reserved >= W
        ratio = _f(s.get("loop_control.compaction_trigger_ratio", Decimal("0.85")))
        return min(math.ceil(ratio * w), w - int(s["loop_control.reserved_context_size"]))
    if runtime == "cline":  # §8 v4: 0.9 · 0.9 W
        return math.ceil(Fraction(81, 100) * w)
    if runtime == "goose":  # §9: T / W > thr
        return math.floor(_f(s["GOOSE_AUTO_COMPACT_THRESHOLD"]) * w) + 1
    if runtime in ("langchain", "deepagents"):  # §13-14: ("tokens", n), T >= n
        kind, n = s["trigger"]
        assert kind == "tokens"
        return int(n)
    if runtime == "openai-agents":  # §15
        return int(s["compact_threshold"])
    assert runtime == "anthropic-api"  # §16
    return int(s["trigger.value"])


def reachable(runtime: str, k: int, w: int, o: int) -> bool:
    """Whether RUNTIMES.md's knobs can put the runtime's trigger at exactly K."""
    e = w - min(o, 20_000)
    return {
        "article": True,
        "claude-code": 100 * k >= e and k <= e - 13_000,  # pct 1..100, only lowers
        "codex": k <= w * 9 // 10,
        "opencode": k <= w,
        "pi": k <= w,
        "gemini-cli": k <= GEMINI_LIMIT,
        "qwen-code": k <= w and (w - 33_000 <= 0 or k <= w - 33_000),
        "kimi-cli": k <= w - 1_000 and k <= math.ceil(Fraction(99, 100) * w),
        "cline": k >= math.ceil(Fraction(81, 100) * w),
        "goose": k <= w,
        "langchain": True,
        "deepagents": True,
        "openai-agents": True,
        "anthropic-api": k >= 50_000,
    }[runtime]


def _export(runtime: str, w: int, o: int, k: int, m: int = 10**12) -> object:
    model = Model(name=None, provider=None, window=w, output=o, source="test")
    reviewed = Reviewed(
        trigger=k,
        main_safe_input=m,
        summary_cap=8_192,
        article_text=f"[config]\ntrigger_tokens = {k}\n",
        article_settings=(("config.trigger_tokens", k),),
    )
    try:
        return export_runtime(runtime, model, reviewed)
    except ScenarioError as exc:
        return exc


@pytest.mark.parametrize("runtime", RUNTIME_NAMES)
@given(w=windows, o=outputs, data=st.data())
def test_export_lands_on_k_by_the_oracle_and_check_reads_it_back(
    runtime: str, w: int, o: int, data: st.DataObject
) -> None:
    k = data.draw(st.integers(1, w), label="K")
    x = _export(runtime, w, o, k)
    if isinstance(x, ScenarioError):
        assert not reachable(runtime, k, w, o), x.one_line()
        assert x.problems[0].path == "config.trigger_tokens"
        return
    settings = dict(x.settings)
    effective = x.effective_trigger_tokens
    expected = oracle(runtime, settings, w, o)
    assert effective == expected
    assert effective is not None
    assert effective <= k
    if runtime != "cline":  # every other knob here counts to the token
        assert effective == k
    back = check_runtime(runtime, x.text, window=w, output=o)
    assert dict(back.settings) == settings
    assert back.effective_trigger_tokens == effective


@pytest.mark.parametrize("runtime", [n for n in RUNTIME_NAMES if n != "article"])
@given(w=windows, o=outputs, data=st.data())
def test_the_target_is_min_of_k_and_m(runtime: str, w: int, o: int, data: st.DataObject) -> None:
    m = data.draw(st.integers(1, w), label="M")
    k = data.draw(st.integers(m, 2 * w), label="K")
    x = _export(runtime, w, o, k, m)
    if isinstance(x, ScenarioError):
        return
    effective = x.effective_trigger_tokens
    assert effective is not None
    assert effective <= m


@given(w=windows, o=outputs, data=st.data())
def test_the_written_fractions_land_on_k_in_float_arithmetic_too(
    w: int, o: int, data: st.DataObject
) -> None:
    # The runtimes read these settings as IEEE doubles (JavaScript, Rust f64): the test
    # runs that arithmetic to show each written decimal is robust to it.
    k = data.draw(st.integers(1, w), label="K")
    e = w - min(o, 20_000)
    claude = _export("claude-code", w, o, k)
    if not isinstance(claude, ScenarioError):
        pct = float(dict(claude.settings)["CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"])
        assert math.floor(e * pct / 100) == k
    qwen = _export("qwen-code", w, o, k)
    if not isinstance(qwen, ScenarioError):
        pct = float(dict(qwen.settings)["context.autoCompactThreshold"])
        assert math.ceil(pct * w) == k
    goose = _export("goose", w, o, k)
    if not isinstance(goose, ScenarioError):
        thr = float(dict(goose.settings)["GOOSE_AUTO_COMPACT_THRESHOLD"])
        assert math.floor(thr * w) + 1 == k
    assume(k <= GEMINI_LIMIT)
    gemini = _export("gemini-cli", w, o, k)
    assert not isinstance(gemini, ScenarioError)
    thr = float(dict(gemini.settings)["model.compressionThreshold"])
    assert math.ceil(thr * GEMINI_LIMIT) == k
