"""Session replay (docs/spec.md §12): golden sessions worked by hand, options parsing, errors."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from budgetcore.core.scenario import Scenario
from budgetcore.errors import ScenarioError
from budgetcore.registry.models import lookup
from budgetcore.registry.prices import Prices
from budgetcore.registry.tiers import PriceTier
from budgetcore.replay.model import ROW_KEYS, ReplayOptions, Turn
from budgetcore.replay.options import parse_options, parse_options_json
from budgetcore.replay.simulate import replay
from budgetcore.scenario.parse import parse_scenario

ARTICLE = Scenario()  # M 936,345, K 32,000, S 8,192, F 20,000, instructions 1,000
PRICES = Prices(
    input=Decimal("0.000003"),
    output=Decimal("0.000015"),
    cache_read=Decimal("0.0000003"),
    cache_write=Decimal("0.00000375"),
)


def fixed(n: int, added: int, **kw: object) -> list[Turn]:
    return [Turn(added=added, **kw) for _ in range(n)]  # type: ignore[arg-type]


class TestArticleSession:
    """5,000 tokens a turn on the article's contract: F 20,000, K 32,000, S 8,192."""

    result = replay(ARTICLE, fixed(8, 5_000))

    def test_the_first_run_is_the_first_turn_at_k(self) -> None:
        rows = self.result.rows
        # Turn 4 sends F 20,000 + 15,000 raw = 35,000 >= K: the first run starts after
        # its reply, when the history holds 20,000 tokens, and consumes all of it.
        assert [r.full_input for r in rows[:4]] == [20_000, 25_000, 30_000, 35_000]
        assert [r.status for r in rows[:4]] == ["below K", "below K", "below K", "run"]
        assert (rows[3].new_raw, rows[3].summary_input, rows[3].written) == (20_000, 21_000, 8_192)
        assert self.result.summary.first_run_turn == 4

    def test_the_next_request_carries_the_summary_instead_of_the_raw(self) -> None:
        row = self.result.rows[4]
        assert (row.history, row.covered, row.summary) == (20_000, 20_000, 8_192)
        assert (row.summary_adopted, row.raw_selected, row.full_input) == (8_192, 0, 28_192)

    def test_every_turn_fits_so_nothing_is_unseen(self) -> None:
        assert all(r.unseen == 0 for r in self.result.rows)
        assert self.result.summary.turns_with_unseen == 0

    def test_without_prices_cost_is_tokens_only(self) -> None:
        assert all(r.cost is None for r in self.result.rows)
        s = self.result.summary
        assert (s.cost, s.cost_per_turn) == (None, None)
        assert s.main_input_tokens == sum(r.full_input for r in self.result.rows)
        assert s.main_output_tokens == 8 * 8_192

    def test_rows_print_every_key(self) -> None:
        d = self.result.rows[0].as_dict()
        assert tuple(d) == ROW_KEYS
        assert d["run"] is False


class TestUnseenHistory:
    def test_history_beyond_m_is_unseen_while_no_summary_runs(self) -> None:
        small = parse_scenario(
            {
                "main_model": {"input_tokens": 60_000, "output_tokens": 8_192},
                "config": {"safety_margin": "0", "trigger_tokens": 10**9},
            }
        )  # M = 60,000 - 8,192 = 51,808; K out of reach
        rows = replay(small, fixed(6, 30_000)).rows
        # Turn 3: H 60,000, headroom 51,808 - 20,000 = 31,808 raw: 28,192 unseen.
        assert rows[2].main_safe_input == 51_808
        assert (rows[2].raw_selected, rows[2].unseen) == (31_808, 28_192)
        assert [r.unseen for r in rows] == [0, 0, 28_192, 58_192, 88_192, 118_192]

    def test_one_bounded_block_per_turn_never_catches_up(self) -> None:
        rows = replay(ARTICLE, fixed(6, 100_000)).rows
        assert [r.new_raw for r in rows] == [0] + [64_000] * 5
        assert [r.uncovered for r in rows] == [0, 100_000, 136_000, 172_000, 208_000, 244_000]


class TestResize:
    def test_lowering_s_mid_session_recompresses_once_without_new_raw(self) -> None:
        opts = ReplayOptions(start_history=100_000, start_covered=90_000, start_summary=12_000)
        turns = [
            Turn(added=1_000, changes=(("config.summary_max_tokens", 16_384),)),
            Turn(added=1_000),
            Turn(added=1_000, changes=(("config.summary_max_tokens", 8_192),)),
            Turn(added=1_000),
        ]
        rows = replay(ARTICLE, turns, opts).rows
        assert rows[0].status == "run"  # 12,000 <= 16,384: an ordinary run
        assert rows[0].written == 16_384  # S: the run read 12,000 + its new raw, more than S
        third = rows[2]
        assert third.summary_cap == 8_192
        assert third.status == "recompress"
        assert (third.new_raw, third.covered_after) == (0, third.covered)
        assert third.summary_input == 1_000 + 16_384
        assert third.summary_after == 8_192
        assert rows[1].status == "run"
        assert (rows[3].summary, rows[3].full_input) == (8_192, 29_192)

    def test_a_recompress_above_c_is_refused_and_changes_nothing(self) -> None:
        tiny_summary = parse_scenario(
            {"summary_model": {"input_tokens": 10_000, "output_tokens": 65_536}}
        )  # C = floor(0.9 x (10,000 - 8,192)) = 1,627
        opts = ReplayOptions(start_history=50_000, start_covered=40_000, start_summary=12_000)
        row = replay(tiny_summary, [Turn(added=1_000)], opts).rows[0]
        assert row.plan.summary.safe_input == 1_627
        assert row.status == "refused"
        assert (row.summary_after, row.covered_after, row.summary_input_billed) == (
            12_000,
            40_000,
            0,
        )

    def test_no_budget_is_no_room(self) -> None:
        tiny_summary = parse_scenario(
            {"summary_model": {"input_tokens": 10_000, "output_tokens": 65_536}}
        )
        opts = ReplayOptions(start_history=50_000, start_covered=40_000, start_summary=5_000)
        assert replay(tiny_summary, [Turn(added=1)], opts).rows[0].status == "no room"


class TestConditions:
    def test_a_rejected_request_is_not_billed_and_starts_nothing(self) -> None:
        row = replay(ARTICLE, [Turn(added=1_000, required=2_000_000)]).rows[0]
        assert (row.admitted, row.status) == (False, "rejected")
        assert (row.main_input_billed, row.main_output_billed) == (0, 0)

    def test_background_flags_per_turn_override_the_scenario(self) -> None:
        turns = [Turn(added=40_000), Turn(added=1_000, lease_acquired=False), Turn(added=1)]
        rows = replay(ARTICLE, turns).rows
        assert [r.status for r in rows] == ["below K", "no lease", "run"]

    def test_failure_rate_one_always_fails_and_zero_never(self) -> None:
        turns = fixed(5, 40_000)
        always = replay(ARTICLE, turns, ReplayOptions(failure_rate=Decimal(1)))
        assert {r.status for r in always.rows[1:]} == {"no idle slot"}
        never = replay(ARTICLE, turns, ReplayOptions(failure_rate=Decimal(0)))
        assert [r.status for r in never.rows] == ["below K", "run", "run", "below K", "run"]

    def test_failure_draws_are_seeded(self) -> None:
        turns = fixed(40, 40_000)
        a = replay(ARTICLE, turns, ReplayOptions(failure_rate=Decimal("0.5"), failure_seed=7))
        b = replay(ARTICLE, turns, ReplayOptions(failure_rate=Decimal("0.5"), failure_seed=7))
        assert [r.status for r in a.rows] == [r.status for r in b.rows]
        assert {r.status for r in a.rows} >= {"run", "no idle slot"}

    def test_summary_ratio_writes_a_share_of_what_it_read(self) -> None:
        opts = ReplayOptions(summary_ratio=Decimal("0.1"))
        row = replay(ARTICLE, fixed(4, 5_000), opts).rows[3]
        assert row.written == 2_000  # ceil(0.1 x (0 + 20,000))
        big = replay(ARTICLE, fixed(4, 50_000), ReplayOptions(summary_ratio=Decimal("0.5")))
        assert big.rows[1].written == 8_192  # ceil(0.5 x 64,000) is capped at S


class TestCacheAndCost:
    result = replay(
        ARTICLE,
        fixed(7, 5_000),
        ReplayOptions(cache=True, stable_prefix_tokens=5_000, main_prices=PRICES),
    )

    def test_cached_prefix_follows_the_layout(self) -> None:
        cached = [r.cached_input for r in self.result.rows]
        # cold; prefix + raw tail of 5,000; of 10,000; of 15,000; after the turn-4
        # summary: prefix only; then prefix + summary (the raw tail of turn 5 was empty).
        assert cached == [0, 5_000, 10_000, 15_000, 5_000, 13_192, 5_000]

    def test_cost_is_exact_decimal(self) -> None:
        first = self.result.rows[0]
        # 20,000 cold tokens at the cache-write price + 8,192 output tokens.
        assert first.cost == Decimal("0.075") + Decimal("0.12288")
        fourth = self.result.rows[3]
        main = 20_000 * Decimal("0.00000375") + 15_000 * Decimal("0.0000003")
        main += 8_192 * Decimal("0.000015")
        summary = 21_000 * Decimal("0.000003") + 8_192 * Decimal("0.000015")
        assert (fourth.cost_main, fourth.cost_summary) == (main, summary)
        assert self.result.rows[-1].cumulative_cost == sum(
            (r.cost for r in self.result.rows if r.cost is not None), Decimal(0)
        )

    def test_summary_totals(self) -> None:
        s = self.result.summary
        assert s.main_cached_tokens == 53_192
        assert s.cache_share == Fraction(53_192, s.main_input_tokens)
        assert s.cost == (s.cost_main or 0) + (s.cost_summary or 0)
        assert s.cost_per_turn is not None
        assert s.as_dict()["cache_share"] == str(s.cache_share)

    def test_without_caching_every_input_token_is_at_the_input_price(self) -> None:
        plain = replay(ARTICLE, fixed(1, 5_000), ReplayOptions(main_prices=PRICES)).rows[0]
        assert plain.cost == 20_000 * Decimal("0.000003") + 8_192 * Decimal("0.000015")


class TestSizeTiers:
    """A request pays the tier its context (full input) is strictly above, all of it."""

    TIERED = Prices(
        input=Decimal("0.000003"),
        output=Decimal("0.000015"),
        tiers=(PriceTier(above=25_000, input=Decimal("0.000006"), output=Decimal("0.0000225")),),
    )

    def test_each_request_pays_its_own_tier(self) -> None:
        rows = replay(ARTICLE, fixed(3, 5_000), ReplayOptions(main_prices=self.TIERED)).rows
        # full input 20,000 / 25,000 (not above: base) / 30,000 (above: the tier)
        assert [r.full_input for r in rows] == [20_000, 25_000, 30_000]
        assert rows[1].cost_main == 25_000 * Decimal("0.000003") + 8_192 * Decimal("0.000015")
        assert rows[2].cost_main == 30_000 * Decimal("0.000006") + 8_192 * Decimal("0.0000225")

    def test_a_summary_call_pays_the_tier_of_its_own_input(self) -> None:
        opts = ReplayOptions(main_prices=self.TIERED)
        row = replay(ARTICLE, fixed(4, 5_000), opts).rows[3]
        assert row.status == "run"
        assert row.summary_input == 21_000  # below 25,000: base prices
        assert row.cost_summary == 21_000 * Decimal("0.000003") + 8_192 * Decimal("0.000015")

    def test_registry_prices_with_tiers_replay_exactly(self) -> None:
        model = lookup("gpt-5.4")  # above 272,000 context tokens: 5 / 22.5 / 0.5 per million
        assert model is not None
        row = replay(
            ARTICLE, [Turn(added=0, required=300_000)], ReplayOptions(main_prices=model.prices)
        ).rows[0]
        assert row.full_input == 300_000
        assert row.cost == 300_000 * Decimal("0.000005") + 8_192 * Decimal("0.0000225")

    def test_tiers_parse_from_options(self) -> None:
        opts = parse_options(
            {
                "main_prices": {
                    "input": "0.000003",
                    "output": "0.000015",
                    "cache_write_1h": "0.000006",
                    "tiers": [{"above": 200_000, "input": "0.000006"}],
                }
            }
        )
        assert opts.main_prices is not None
        assert opts.main_prices.tiers == (PriceTier(above=200_000, input=Decimal("0.000006")),)
        assert opts.main_prices.cache_write_1h == Decimal("0.000006")

    @pytest.mark.parametrize(
        ("tiers", "message"),
        [
            ("many", r"options.main_prices.tiers must be a list of at most 16"),
            ([{"above": -1}], r"options.main_prices.tiers\[0\].above must be an integer"),
            ([{"above": 5, "inptu": "1"}], r"options.main_prices.tiers\[0\].inptu is not a price"),
            (
                [{"above": 5}, {"above": 5}],
                r"options.main_prices.tiers\[1\].above must be above the previous",
            ),
        ],
    )
    def test_bad_tiers_are_named(self, tiers: object, message: str) -> None:
        with pytest.raises(ScenarioError, match=message):
            parse_options({"main_prices": {"input": "1", "output": "1", "tiers": tiers}})


class TestErrors:
    def test_no_turns(self) -> None:
        with pytest.raises(ScenarioError, match="turns must hold at least one turn"):
            replay(ARTICLE, [])

    def test_a_bad_change_names_its_turn(self) -> None:
        turns = [Turn(added=1), Turn(added=1, changes=(("limits.run_timeout_s", 500),))]
        with pytest.raises(ScenarioError, match=r"turn 2: limits.run_timeout_s"):
            replay(ARTICLE, turns)

    @pytest.mark.parametrize(
        ("options", "message"),
        [
            (
                {"start_history": 5, "start_covered": 6},
                r"options.start_covered \(6\) must be at most",
            ),
            ({"start_history": -1}, "options.start_history must be an integer from 0"),
            ({"cache": "yes"}, "options.cache must be true or false"),
            ({"failure_rate": "1.5"}, "options.failure_rate must be a decimal from 0 to 1"),
            ({"summary_ratio": 0.5}, "options.summary_ratio must be a decimal"),  # a float
            ({"summary_ratio": "0.5"}, None),
            ({"main_prices": {"input": "-1"}}, "options.main_prices.input must be a decimal"),
            ({"main_prices": {"inptu": "1"}}, "options.main_prices.inptu is not a price"),
            ({"colour": 1}, "options.colour is not a replay option"),
        ],
    )
    def test_options_are_strict(self, options: dict[str, object], message: str | None) -> None:
        if message is None:
            parse_options(options)
            return
        with pytest.raises(ScenarioError, match=message):
            parse_options(options)

    def test_options_json_parses_numbers_exactly(self) -> None:
        opts = parse_options_json('{"main_prices": {"input": 0.000003, "output": "1.5E-5"}}')
        assert opts.main_prices == Prices(input=Decimal("0.000003"), output=Decimal("1.5E-5"))


def test_the_option_token_fields_are_one_list_for_the_file_and_the_value() -> None:
    """ReplayOptions' own checks and an --options file's keys take the token fields from
    one tuple (replay.model and replay.options each wrote it); each field is refused
    below 0 by both, named."""
    from budgetcore.replay import model, options  # noqa: PLC0415

    assert options.OPTION_TOKENS is model.OPTION_TOKENS
    for name in model.OPTION_TOKENS:
        with pytest.raises(ScenarioError, match=f"options.{name} must be an integer"):
            parse_options({name: -1})
        with pytest.raises(ScenarioError, match=f"ReplayOptions.{name} must be an integer"):
            ReplayOptions(**{name: -1})
