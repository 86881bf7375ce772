"""The hypothesis properties of tests/test_fast_paths.py, held beside the other properties
(tests/property/), so each obeys the profiles in tests/conftest.py."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetcore.core.scenario import Scenario
from budgetcore.replay.logs import LogRequest
from budgetcore.replay.model import (
    Ints,
    TurnRow,
    columns,
    decimal_of,
    money_text,
    stored_column,
    units_text,
)
from tests.profiles import examples

_BIG = st.integers(min_value=-(2**70), max_value=2**70)


_SMALL = st.integers(min_value=-5, max_value=2**63 - 1)


_INT_VALUE = st.one_of(_SMALL, _BIG, st.none())


_OTHER = {
    "trigger_reached": st.booleans(),
    "admitted": st.booleans(),
    "status": st.sampled_from(["run", "below K"]),
    "run_fate": st.sampled_from([None, "published"]),
    "scenario": st.just(Scenario()),
}


def _row(draw_ints: st.SearchStrategy[object]) -> st.SearchStrategy[tuple[object, ...]]:
    return st.tuples(*(_OTHER.get(k, draw_ints) for k in TurnRow._fields))


_REQUEST_MODELS = st.sampled_from(
    ["claude-sonnet-4-5-20250929", "gpt-5", "claude-sonnet-4-5", "no-such-model-zz", None]
)


@st.composite
def _requests(draw: st.DrawFn) -> list[LogRequest]:
    one = draw(st.booleans())
    model = draw(_REQUEST_MODELS)
    out = []
    for i in range(draw(st.integers(0, 30))):
        fresh, read = draw(st.integers(0, 300_000)), draw(st.integers(0, 300_000))
        write_1h = draw(st.integers(0, 5_000))
        write = write_1h + draw(st.integers(0, 5_000))
        output = draw(st.integers(0, 9_000))
        out.append(
            LogRequest(
                line=i + 1,
                context=fresh + read + write,
                output=output,
                cache_read=read,
                cache_write=write,
                model=model if one else draw(_REQUEST_MODELS),
                input=fresh,
                cache_write_1h=write_1h,
                reasoning=draw(st.integers(0, output)),
                logged_cost=draw(st.sampled_from([None] * 9 + [Decimal("0.01"), Decimal(0)])),
            )
        )
    return out


@settings(max_examples=examples(40), deadline=None)
@given(
    plain=st.lists(_row(_SMALL), min_size=1, max_size=5),
    odd=st.lists(_row(_INT_VALUE), max_size=3),
    at=st.integers(min_value=0, max_value=4_500),
)
def test_the_column_builder_gives_the_plain_transposition(
    plain: list[tuple[object, ...]], odd: list[tuple[object, ...]], at: int
) -> None:
    # Long columns with a None or an integer past int64 somewhere: the columns
    # equal zip(*rows) value for value and type for type.
    rows = [plain[i % len(plain)] for i in range(4_600)]
    for j, r in enumerate(odd):
        rows[(at + 97 * j) % len(rows)] = r
    got = {
        k: stored_column(k, values)
        for k, values in zip(TurnRow._fields, zip(*rows, strict=True), strict=True)
    }
    want = columns([TurnRow(*r) for r in rows])  # type: ignore[arg-type]
    assert list(got) == list(want)
    for key, col in got.items():
        values = tuple(col)
        assert values == want[key], key
        assert [type(v) for v in values] == [type(v) for v in want[key]], key
        if isinstance(col, Ints):
            assert all(type(v) is int and -(2**63) <= v < 2**63 for v in values)


@settings(max_examples=examples(300), deadline=None)
@given(
    units=st.one_of(
        st.none(),
        st.integers(min_value=-(10**6), max_value=10**30),
        st.integers(min_value=10**119, max_value=10**121),
    ),
    places=st.integers(min_value=0, max_value=30),
)
def test_money_text_from_units_is_the_decimals(units: int | None, places: int) -> None:
    try:
        want = decimal_of(units, places)
    except ArithmeticError as exc:  # past MONEY's 120 digits: the same error either way
        with pytest.raises(type(exc)):
            units_text(units, places)
        return
    assert units_text(units, places) == (None if want is None else money_text(want))


@settings(max_examples=examples(300), deadline=None)
@given(_requests())
def test_one_models_usage_summed_by_columns_is_the_loops(reqs: list[LogRequest]) -> None:
    from budgetcore.replay.logs import usage  # noqa: PLC0415

    fast = usage.measured_usage(reqs)
    original = usage._one_model
    try:
        usage._one_model = lambda *_args: None  # type: ignore[assignment]
        assert usage.measured_usage(reqs) == fast
    finally:
        usage._one_model = original


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(_requests(), _requests()), min_size=1, max_size=3))
def test_a_sessions_models_counted_in_c_are_the_loops(
    series: list[tuple[list[LogRequest], list[LogRequest]]],
) -> None:
    from budgetcore.replay.logs import LogSeries, ParsedLog  # noqa: PLC0415

    log = ParsedLog(
        "codex",
        tuple(LogSeries(f"s{i}", tuple(on), (), tuple(off)) for i, (on, off) in enumerate(series)),
        (),
        0,
        None,
    )
    seen: dict[str, None] = {}  # the loops they replace, verbatim
    for s in log.series:
        for r in (*s.requests, *s.abandoned):
            if r.model is not None:
                seen.setdefault(r.model, None)
    assert log.models() == tuple(seen)
    counts: dict[str, int] = {}
    for r in log.main.requests:
        if r.model is not None:
            counts[r.model] = counts.get(r.model, 0) + 1
    top = max(counts.values(), default=0)
    want = next((m for m, n in counts.items() if n == top), None)
    assert log.main_model() == want
