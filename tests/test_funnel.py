from __future__ import annotations

import pytest

from budgetcore.core.funnel import main_funnel

M = 936_345


def _funnel(f: int = 20_000, a: int = 6_000, ae: int | None = None, h: int = 10_000, io=None):
    return main_funnel(
        M,
        required_tokens=f,
        loader_summary_tokens=a,
        engine_summary_tokens=a if ae is None else ae,
        history_tokens=h,
        io_token_cap=io,
    )


def test_article_request_fits_and_is_admitted() -> None:
    fn = _funnel()
    assert (fn.loader_prefetch_limit, fn.prefetched) == (930_345, 10_000)
    assert (fn.summary_adopted, fn.engine_raw_headroom, fn.raw_selected) == (6_000, 910_345, 10_000)
    assert (fn.full_input, fn.admitted, fn.summary_dropped) == (36_000, True, False)


def test_summary_is_dropped_when_f_plus_a_exceeds_m() -> None:
    fn = _funnel(f=932_000, a=6_000, h=50_000)
    assert fn.summary_adopted == 0
    assert fn.summary_dropped is True
    assert fn.engine_raw_headroom == M - 932_000
    # The loader read only what its own limit allowed; dropping the summary cannot add data.
    assert fn.prefetched == 50_000
    assert fn.raw_selected == M - 932_000
    assert fn.admitted is True


def test_engine_dropping_the_summary_does_not_read_more_history() -> None:
    fn = _funnel(a=930_000, ae=0, h=100_000)
    assert fn.loader_prefetch_limit == 6_345
    assert fn.prefetched == 6_345
    assert fn.engine_raw_headroom == M - 20_000
    assert fn.raw_selected == 6_345


def test_required_input_above_m_is_rejected_even_without_history() -> None:
    fn = _funnel(f=M + 1, h=0)
    assert fn.admitted is False
    assert (fn.engine_raw_headroom, fn.raw_selected, fn.summary_adopted) == (0, 0, 0)
    assert fn.full_input == M + 1


def test_required_input_equal_to_m_is_admitted_with_no_room() -> None:
    fn = _funnel(f=M, h=1_000)
    assert fn.admitted is True
    assert (fn.summary_adopted, fn.raw_selected, fn.full_input) == (0, 0, M)


def test_summary_larger_than_m_leaves_the_loader_no_room() -> None:
    fn = _funnel(a=M + 5)
    assert fn.loader_prefetch_limit == 0
    assert fn.prefetched == 0


@pytest.mark.parametrize(("io", "want"), [(None, 10_000), (4_000, 4_000), (0, 0), (10**6, 10_000)])
def test_io_token_cap_bounds_the_prefetch(io: int | None, want: int) -> None:
    assert _funnel(io=io).prefetched == want
