"""Byte and time predictions from paired samples, and which protection bites first."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from budgetcore import ScenarioError, parse_scenario, plan
from budgetcore.core.samples import ByteSample, channel_stats, predict
from budgetcore.scenario.dump import scenario_json

LOTS = 10_000_000  # history large enough never to be the first limit


def _plan(data: dict[str, Any]) -> dict[str, Any]:
    return plan(parse_scenario(data)).as_dict()


class TestPredictions:
    def test_golden_bytes_worked_by_hand(self) -> None:
        # Ratios 3310/812 = 4.0763... and 4400/1000 = 4.4; pooled 7710/1812 = 4.2549...
        stats = channel_stats((ByteSample(812, 3310), ByteSample(1000, 4400)))
        assert stats is not None
        assert (stats.ratio_min, stats.ratio_max) == (Fraction(1655, 406), Fraction(22, 5))
        assert stats.ratio_pooled == Fraction(1285, 302)
        p = predict(10_000, stats)
        assert p is not None
        # floor(10,000 x 4.0763...) = 40,763; ceil(44,000) = 44,000; 42,549.6... -> 42,550
        assert (p.low, p.high, p.point) == (40_763, 44_000, 42_550)

    def test_single_sample_range_collapses_to_the_exact_product(self) -> None:
        stats = channel_stats((ByteSample(3, 10),))
        p = predict(3, stats)
        assert p is not None
        assert (p.low, p.high, p.point) == (10, 10, 10)  # the sample itself, exactly
        p = predict(7, stats)
        assert p is not None
        assert (p.low, p.high, p.point) == (23, 24, 23)  # 70/3 = 23.33...

    def test_no_samples_is_unknown_not_a_default_ratio(self) -> None:
        assert channel_stats(()) is None
        assert predict(1_000, None) is None
        out = _plan({})
        for channel in ("text", "bson", "json"):
            assert out["bytes"][channel]["samples"] == 0
            assert set(out["bytes"][channel]["predictions"].values()) == {"unknown"}
        assert out["time"]["read_ms"] == "unknown"

    def test_predictions_cover_raw_selected_full_input_work_input_and_s(self) -> None:
        out = _plan({"samples": {"text": [{"tokens": 1, "bytes": 3}]}})
        preds = out["bytes"]["text"]["predictions"]
        assert preds["raw_selected"] == {"low": 30_000, "high": 30_000, "point": 30_000}
        assert preds["full_input"]["point"] == 108_000
        assert preds["summary_work_input"]["point"] == 213_000
        assert preds["summary_cap"]["point"] == 24_576
        assert out["bytes"]["json"]["predictions"]["full_input"] == "unknown"


# Each protection in turn bites first (defaults: loader prefetch limit 930,345 tokens).
BITES_FIRST = [
    pytest.param(
        {"bson": [{"tokens": 1000, "bytes": 1000}]}, {}, "token_budget", None, id="token-budget"
    ),
    pytest.param(
        {"bson": [{"tokens": 1000, "bytes": 4000}]}, {}, "raw_bson_bytes", 524_288, id="2-MiB-BSON"
    ),
    pytest.param(
        {"bson": [{"tokens": 1, "bytes": 1}], "tokens_per_message": "100"},
        {},
        "raw_records_read",
        200_000,
        id="record-cap",
    ),
    pytest.param(
        {"bson": [{"tokens": 1, "bytes": 1}], "tokens_per_message": 100, "messages_per_session": 5},
        {},
        "directory_sessions_read",
        100_000,
        id="session-cap",
    ),
    pytest.param(
        {"bson": [{"tokens": 1, "bytes": 1}], "read": [{"bytes": 1000, "ms": 10}]},
        {},
        "full_read_ms",
        300_000,
        id="full-read-time",
    ),
    pytest.param(
        {
            "bson": [{"tokens": 1, "bytes": 1}],
            "read": [{"bytes": 1000, "ms": 10}],
            "tokens_per_message": 1000,
        },
        {"raw_records_read": 1_000_000, "message_page_size": 200},
        "single_query_ms",
        0,
        id="single-query-time",
    ),
    pytest.param(
        {"bson": [{"tokens": 1000, "bytes": 4000}]},
        {"raw_bson_bytes": 10**12},
        "token_budget",
        None,
        id="raised-BSON-allowance-gives-way-to-tokens",
    ),
]


@pytest.mark.parametrize(("samples", "limits", "first", "cap_check"), BITES_FIRST)
def test_each_protection_can_bite_first(
    samples: dict[str, Any], limits: dict[str, int], first: str, cap_check: int | None
) -> None:
    out = _plan({"samples": samples, "limits": limits, "workload": {"history_tokens": LOTS}})
    assert out["first_binding_limit"] == first
    rows = {r["key"]: r for r in out["io"]}
    assert next(iter(rows)) == "token_budget"
    if cap_check is not None:
        assert rows[first]["tokens"] == cap_check
        assert out["io_token_cap"] == cap_check
        assert out["prefetched"] == cap_check  # the funnel narrows when I/O binds first
    else:
        assert out["prefetched"] == out["loader_prefetch_limit"] == 930_345


def test_history_smaller_than_every_limit_means_nothing_bites() -> None:
    out = _plan({"samples": {"bson": [{"tokens": 1, "bytes": 4}]}})
    assert out["first_binding_limit"] == "history"
    assert out["prefetched"] == 10_000


def test_unknown_limits_do_not_narrow_the_funnel() -> None:
    out = _plan({"samples": {"text": [{"tokens": 1, "bytes": 1000}]}})
    rows = {r["key"]: r for r in out["io"]}
    assert rows["raw_bson_bytes"]["known"] is False
    assert rows["raw_bson_bytes"]["tokens"] is None
    assert out["io_token_cap"] is None


def test_read_time_records_sessions_and_pages_for_the_prefetch() -> None:
    out = _plan(
        {
            "samples": {
                "bson": [{"tokens": 1, "bytes": 1}],
                "read": [{"bytes": 1000, "ms": 10}],
                "query_ms": [5, 15],
                "tokens_per_message": 100,
                "messages_per_session": 10,
            },
            "workload": {"history_tokens": 50_000},
        }
    )
    # 50,000 tokens = 500 records in 50 sessions = 3 message pages + 1 directory page.
    assert out["time"] == {
        "records": 500,
        "sessions": 50,
        "message_pages": 3,
        "directory_pages": 1,
        "read_ms": {"low": 500 + 4 * 5, "high": 500 + 4 * 15},
    }


READ = {"bson": [{"tokens": 1, "bytes": 1}], "read": [{"bytes": 1000, "ms": 10}]}


def test_tokens_per_message_alone_counts_records_and_message_pages() -> None:
    # docs/spec.md §7: records and message pages need tokens per message only; sessions and
    # directory pages need messages per session too. 50,000 tokens / 100 = 500 records
    # = 3 pages of 200; the read queries those 3 pages at the slowest 15 ms.
    samples = {**READ, "query_ms": [5, 15], "tokens_per_message": 100}
    out = _plan({"samples": samples, "workload": {"history_tokens": 50_000}})
    assert out["time"] == {
        "records": 500,
        "sessions": None,
        "message_pages": 3,
        "directory_pages": None,
        "read_ms": {"low": 500 + 3 * 5, "high": 500 + 3 * 15},
    }


def test_query_samples_without_tokens_per_message_leave_only_the_time_unknown() -> None:
    samples = {**READ, "query_ms": [5]}
    out = _plan({"samples": samples, "workload": {"history_tokens": 50_000}})
    assert out["time"] == {
        "records": None,
        "sessions": None,
        "message_pages": None,
        "directory_pages": None,
        "read_ms": "unknown",
    }
    rows = {r["key"]: r for r in out["io"]}
    assert rows["full_read_ms"]["known"] is False
    assert rows["raw_bson_bytes"]["known"] is True


def test_without_query_samples_the_read_time_is_bytes_alone() -> None:
    out = _plan({"samples": READ, "workload": {"history_tokens": 50_000}})
    assert out["time"]["read_ms"] == {"low": 500, "high": 500}


@pytest.mark.parametrize(
    ("extra", "cap"),
    [
        # 1 ms per 100 bytes, no queries: 3,000 ms reads 300,000 tokens.
        ({}, 300_000),
        # Each page of 200 records x 10 tokens = 2,000 tokens (20 ms) also costs a
        # 100 ms query: a page costs 120 ms, 25 pages fit 3,000 ms = 50,000 tokens.
        ({"query_ms": [100], "tokens_per_message": 10}, 50_000),
        # Directory pages (one per 50 sessions of 4 messages = 2,000 tokens) add a
        # second query per 2,000 tokens: 220 ms each, 13 fit (2,860 ms); a 14th
        # record page's first token costs 2 queries more.
        ({"query_ms": [100], "tokens_per_message": 10, "messages_per_session": 4}, 26_000),
    ],
)
def test_full_read_time_pays_the_slowest_query_for_every_page(
    extra: dict[str, Any], cap: int
) -> None:
    out = _plan(
        {
            "samples": {"bson": [{"tokens": 1, "bytes": 1}], "read": [{"bytes": 100, "ms": 1}]}
            | extra,
            "limits": {"raw_records_read": 10**9, "directory_sessions_read": 10**9},
            "workload": {"history_tokens": LOTS},
        }
    )
    rows = {r["key"]: r for r in out["io"]}
    assert rows["full_read_ms"]["tokens"] == cap


@pytest.mark.parametrize(
    ("samples", "message"),
    [
        (
            {"bson": [{"tokens": 1, "bytes": 1}, {"tokens": 0, "bytes": 5}]},
            "samples.bson[1].tokens must be an integer from 1 to 10^12, got 0",
        ),
        (
            {"text": [{"tokens": 5, "bytes": -1}]},
            "samples.text[0].bytes must be an integer from 0 to 10^15, got -1",
        ),
        (
            {"json": [{"tokens": 1.5, "bytes": 2}]},
            "samples.json[0].tokens must be an integer from 1 to 10^12, got 1.5",
        ),
        ({"json": [{"tokens": 1}]}, "samples.json[0].bytes is required"),
        ({"bson": [[1, 2]]}, "samples.bson[0] must be a JSON object, got [1, 2]"),
        ({"bson": {"tokens": 1}}, 'samples.bson must be a JSON array, got {"tokens": 1}'),
        ({"utf8": []}, "samples.utf8 is not a known key (see spec §11), got []"),
        (
            {"read": [{"bytes": 0, "ms": 3}]},
            "samples.read[0].bytes must be an integer from 1 to 10^15, got 0",
        ),
        ({"query_ms": [3, "x"]}, 'samples.query_ms[1] must be an integer from 0 to 10^9, got "x"'),
        (
            {"tokens_per_message": 0},
            "samples.tokens_per_message must be a decimal above 0 and at most 10^12 with at most"
            " 6 decimal places, or null, got 0",
        ),
    ],
)
def test_bad_samples_are_named_by_index(samples: dict[str, Any], message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario({"samples": samples})
    assert str(info.value) == message


def test_samples_round_trip_through_json() -> None:
    data = {
        "samples": {
            "bson": [{"tokens": 812, "bytes": 3310}],
            "read": [{"bytes": 100, "ms": 1}],
            "query_ms": [4],
            "tokens_per_message": "350.5",
        }
    }
    scenario = parse_scenario(data)
    assert parse_scenario(scenario_json(scenario)) == scenario
