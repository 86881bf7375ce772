"""Without a cache model (Google, Moonshot, DashScope, an unknown maker: docs/replay.md,
"As run: the backtest", "The other agents"), the as-run split predicts nothing of any
measured split: held to its oracle on generated requests."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.replay.logs.model import LogRequest
from budgetcore.replay.prompt_cache import _no_cache_model, modelled_split


@given(
    st.lists(
        st.tuples(
            st.integers(0, 10**6), st.integers(0, 10**4), st.integers(0, 10**6), st.booleans()
        ),
        min_size=1,
        max_size=30,
    ),
    st.sampled_from(["google", "moonshot", "dashscope", None]),
)
def test_without_a_cache_model_nothing_of_any_measured_split_is_predicted(
    rows: list[tuple[int, int, int, bool]], provider: str | None
) -> None:
    """Oracle: with no rules, each request is its context as uncached input, its output
    as logged, whatever the log measured (no calibration on the first request)."""
    reqs = [
        LogRequest(
            line=i + 1,
            context=c,
            output=o,
            cache_read=min(r, c),
            cache_write=0 if cut else c - min(r, c),
            model="m",
            started=i * 1_000,
        )
        for i, (c, o, r, cut) in enumerate(rows)
    ]
    out, prefix = modelled_split(reqs, _no_cache_model(provider, "m"))
    assert prefix == 0
    assert [(r.input, r.cache_read, r.cache_write, r.output) for r in out] == [
        (c, 0, 0, o) for c, o, _, _ in rows
    ]
