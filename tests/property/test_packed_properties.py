"""Any requests, times and ids a session holds read back from its bytes as they were
read (``replay.logs.packed``; docs/performance.md, "A folder's sessions let go once
measured"): counts past 64 bits, None, model names, and a logged Decimal cost (which
``marshal`` cannot write: that part stays as read)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.replay.logs.model import LogRequest, LogSeries, ParsedLog
from budgetcore.replay.logs.packed import SMALL, Packed, packed
from tests.packed_helpers import assert_same

_COUNT = st.one_of(st.integers(0, 2**40), st.integers(-(2**70), 2**70))
_MODEL = st.one_of(st.none(), st.sampled_from(["claude-sonnet-4-5", "gpt-5", "é-model"]))


@st.composite
def _requests(draw: st.DrawFn) -> LogRequest:
    ints = [draw(_COUNT) for _ in range(5)]
    return LogRequest(
        line=draw(st.integers(1, 10**9)),
        context=ints[0],
        output=ints[1],
        cache_read=ints[2],
        cache_write=ints[3],
        model=draw(_MODEL),
        messages=draw(st.one_of(st.none(), st.integers(0, 10**6))),
        tool_result_chars=draw(st.one_of(st.none(), _COUNT)),
        input=ints[4],
        cache_write_1h=draw(st.sampled_from([0, 1, 2**64])),
        reasoning=draw(st.integers(0, 10**6)),
        started=draw(st.one_of(st.none(), st.integers(-(2**63), 2**63 - 1))),
        finished=draw(st.one_of(st.none(), st.integers(0, 2**45))),
        file=draw(st.integers(0, 3)),
        logged_cost=draw(st.one_of(st.none(), st.sampled_from([Decimal(0), Decimal("0.00")]))),
    )


@given(
    st.lists(_requests(), max_size=12),
    st.lists(_requests(), max_size=12),
    st.lists(st.one_of(st.integers(0, 2**45), st.integers(-(2**80), 2**80)), max_size=12),
    st.lists(
        st.tuples(
            st.integers(0, 3),
            st.integers(1, 10**6),
            st.text(max_size=6),
            st.sampled_from(["req_1", "opencode", "copilot"]),
        ),
        max_size=12,
    ),
)
def test_any_requests_times_and_ids_read_back_as_they_were(
    requests: list[LogRequest],
    abandoned: list[LogRequest],
    times: list[int],
    ids: list[tuple[int, int, str, str]],
) -> None:
    series = LogSeries("main", tuple(requests), (), tuple(abandoned), tuple(times))
    log = ParsedLog("claude-code", (series,), (), 0, None, ids=tuple(ids))
    back = packed(log)
    assert_same(log, back)
    costs = [r.logged_cost for r in (*requests, *abandoned)]
    for part, before in ((back.main.requests, requests), (back.main.abandoned, abandoned)):
        # A Decimal (a logged cost) is not marshal's: those requests stay as read, as
        # do fewer than SMALL (not worth a blob).
        stays = len(before) < SMALL or any(r.logged_cost is not None for r in before)
        assert isinstance(part, Packed) is not stays
    assert costs == [r.logged_cost for r in back.all_requests()]
