"""Peers' token lines for any window and output, against integer arithmetic written
separately from the formula evaluator and the runtime profiles (RUNTIMES.md and PEERS.md
read directly)."""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.core.contracts import ModelContract
from budgetcore.core.plan import plan
from budgetcore.core.scenario import Scenario
from budgetcore.registry.models import default_registry, search
from budgetcore.registry.peers import peer_lines

windows = st.one_of(
    st.integers(1, 4_000_000),
    st.sampled_from([8_192, 16_384, 32_768, 64_000, 128_000, 200_000, 1_048_576, 10**12]),
)
outputs = st.one_of(st.integers(1, 200_000), st.sampled_from([8_192, 20_000, 32_000, 65_536]))


def oracle(w: int, o: int) -> dict[str, int | None]:
    """The first T at which each system compacts, in plain integers: the runtimes by
    the formulas of the shared RUNTIMES.md (their profiles at their defaults), the
    other systems by PEERS.md. floor(a/b × w) == a·w // b, ceil == -(-a·w // b); a
    ">" rule first fires one above its line; negatives shown as 0."""

    def clamp(x: int) -> int:
        return max(0, x)

    def ceil(a: int, b: int) -> int:
        return -(-a * w // b)

    qwen_room = max(0, w - 20_000) - 13_000  # SUMMARY_RESERVE, AUTOCOMPACT_BUFFER
    qwen = min(ceil(85, 100), qwen_room) if qwen_room > 0 else ceil(85, 100)
    return {
        "pi": clamp(w - 16_384 + 1),  # T > W − reserveTokens
        "codex": 9 * w // 10,  # (context_window * 9) / 10 in Rust integers, T >= it
        "claude-code": clamp(w - min(o, 20_000) - 13_000),
        "opencode": clamp(w - min(o, 32_000)),  # no limit.input: reserved unused
        "qwen-code": clamp(qwen),
        "gemini-cli": 1_048_576 // 2,  # tokenLimit of every Gemini model, whatever W
        "kimi-cli": clamp(min(ceil(85, 100), w - 50_000)),
        "cline": ceil(81, 100),  # v4: 0.9 × 0.9 W, T >= it
        "langchain-summarization": None,
        "deepagents": max(1, 85 * w // 100),  # max(1, int(max_input_tokens × 0.85)), T >= it
        "anthropic-compaction": 150_000,
        "goose": 8 * w // 10 + 1,  # T / W > 0.8
        "openai-agents": None,
        "anthropic-context-editing": 100_000,
        "contextbuilder": 4 * w // 5,  # its count triggers have no token line
        "openhands": None,
    }


@given(windows, outputs, st.booleans())
def test_peer_lines_match_the_integer_oracle(w: int, o: int, q: bool) -> None:
    scenario = dataclasses.replace(
        Scenario(), main_model=ModelContract(input_tokens=w, output_tokens=o, reserves_output=q)
    )
    p = plan(scenario)
    view = peer_lines(w, o, p)
    assert {r.peer.id: r.tokens for r in view.rows} == oracle(w, o)
    assert view.line("clean").tokens == 7 * w // 10
    assert view.line("compact").tokens == 835 * w // 1000
    assert view.line("hard").tokens == max(0, w - (8_192 if q else 0))
    assert view.line("main_safe_input").tokens == p.main_safe_input
    for r in view.rows:
        assert (r.tokens is None) == (r.share is None)
        if r.tokens is not None and r.share is not None:
            assert r.share * w == r.tokens


names = st.sampled_from(default_registry().names)


@given(names)
def test_every_name_finds_itself_first(name: str) -> None:
    assert search(name, 1)[0].name == name


@given(names, st.integers(1, 5))
def test_a_fragment_of_a_name_finds_that_name(name: str, cut: int) -> None:
    tail = name.rsplit("/", 1)[-1]
    fragment = tail[: max(1, len(tail) - cut)]
    assert name in [m.name for m in search(fragment, None)]
