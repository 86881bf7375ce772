"""The single entry point shared by the CLI, the page and the tests: scenario -> plan."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from budgetcore.core.capacity import SummaryCapacity, main_safe_input, summary_capacity
from budgetcore.core.funnel import Funnel, main_funnel
from budgetcore.core.protections import IoVerdict, ReadTime, io_verdict, read_time
from budgetcore.core.resize import SummaryRound, summary_round
from budgetcore.core.samples import BYTE_CHANNELS, ChannelStats, Samples, channel_stats, predict
from budgetcore.core.scenario import Scenario
from budgetcore.core.trigger import SummaryStart, Trigger, soft_trigger, summary_start
from budgetcore.errors import Problem, ScenarioError

__all__ = ["OUTPUT_KEYS", "READOUT_KEYS", "Plan", "check_scenario", "plan", "request_stages"]

#: The output keys of docs/spec.md §11, in contract order. Names and meanings never change.
OUTPUT_KEYS: tuple[str, ...] = (
    "main_safe_input",
    "summary_cap",
    "summary_generation",
    "summary_safe_input",
    "summary_new_raw_budget",
    "summary_new_raw",
    "summary_work_input",
    "summary_work_total",
    "recompress_needed",
    "loader_prefetch_limit",
    "prefetched",
    "summary_adopted",
    "engine_raw_headroom",
    "raw_selected",
    "full_input",
    "admitted",
    "soft_estimate",
    "trigger_reached",
)

#: Every value a review reads off a plan, in table order: the §11 keys, then three the
#: plan derives for the reader (the page's readouts and the report's table alike).
READOUT_KEYS: tuple[str, ...] = (
    *OUTPUT_KEYS,
    "summary_cap_clamped",
    "summary_dropped",
    "summary_will_start",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    scenario: Scenario
    main_safe_input: int  # M
    summary: SummaryCapacity  # S, G, C, new raw budget
    round: SummaryRound  # recompress, new raw, work input/total
    funnel: Funnel
    trigger: Trigger
    io: IoVerdict  # which protection bites first; its cap narrows the funnel

    # Details computed on first use (from memoised functions), so a capacity curve's
    # 500 plans pay only for what the curve draws.
    @property
    def start(self) -> SummaryStart:
        bg = self.scenario.background
        return summary_start(
            self.trigger,
            has_work=self.round.recompress_needed or self.round.new_raw > 0,
            billing_recorded=bg.billing_recorded,
            idle_slot=bg.idle_slot,
            lease_acquired=bg.lease_acquired,
        )

    # Every key of the CLI's JSON and the page's readouts is an attribute of the same
    # name (issue 42: `result.summary_safe_input` raised AttributeError in a user's
    # pytest): one name for one value, wherever it is read.
    @property
    def summary_cap(self) -> int:
        return self.summary.cap

    @property
    def summary_generation(self) -> int:
        return self.summary.generation

    @property
    def summary_safe_input(self) -> int:
        return self.summary.safe_input

    @property
    def summary_new_raw_budget(self) -> int:
        return self.summary.new_raw_budget

    @property
    def summary_new_raw(self) -> int:
        return self.round.new_raw

    @property
    def summary_work_input(self) -> int:
        return self.round.work_input

    @property
    def summary_work_total(self) -> int:
        return self.round.work_total

    @property
    def recompress_needed(self) -> bool:
        return self.round.recompress_needed

    @property
    def loader_prefetch_limit(self) -> int:
        return self.funnel.loader_prefetch_limit

    @property
    def prefetched(self) -> int:
        return self.funnel.prefetched

    @property
    def summary_adopted(self) -> int:
        return self.funnel.summary_adopted

    @property
    def engine_raw_headroom(self) -> int:
        return self.funnel.engine_raw_headroom

    @property
    def raw_selected(self) -> int:
        return self.funnel.raw_selected

    @property
    def full_input(self) -> int:
        return self.funnel.full_input

    @property
    def admitted(self) -> bool:
        return self.funnel.admitted

    @property
    def soft_estimate(self) -> int:
        return self.trigger.soft_estimate

    @property
    def trigger_reached(self) -> bool:
        return self.trigger.reached

    @property
    def summary_cap_clamped(self) -> bool:
        return self.summary.clamped

    @property
    def summary_dropped(self) -> bool:
        return self.funnel.summary_dropped

    @property
    def summary_will_start(self) -> bool:
        return self.start.will_start

    # The page's key bar shows K, and its lamps whether there is work: by the page's
    # names, as every number and flag it and the JSON show (README, pytest).
    @property
    def trigger_tokens(self) -> int:
        return self.scenario.config.trigger_tokens

    @property
    def has_work(self) -> bool:
        return self.start.has_work

    # The JSON's names for the first binding protection (``io``).
    @property
    def io_token_cap(self) -> int | None:
        return self.io.io_token_cap

    @property
    def first_binding_limit(self) -> str:
        return self.io.first_binding

    @property
    def read(self) -> ReadTime:
        """Predicted records, sessions, pages and read time of the prefetch."""
        return read_time(self.funnel.prefetched, self.scenario.samples, self.scenario.limits)

    @property
    def channels(self) -> tuple[tuple[str, ChannelStats | None], ...]:
        """Bytes per token, per channel."""
        return _channels(self.scenario.samples)

    def predicted_tokens(self) -> dict[str, int]:
        """The token counts whose bytes are predicted."""
        return {
            "raw_selected": self.funnel.raw_selected,
            "full_input": self.funnel.full_input,
            "summary_work_input": self.round.work_input,
            "summary_cap": self.summary.cap,
        }

    def bytes_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, stats in self.channels:
            preds: dict[str, Any] = {}
            for key, tokens in self.predicted_tokens().items():
                p = predict(tokens, stats)
                preds[key] = (
                    "unknown" if p is None else {"low": p.low, "high": p.high, "point": p.point}
                )
            out[name] = {
                "samples": 0 if stats is None else stats.count,
                "ratio_min": None if stats is None else _ratio(stats.ratio_min),
                "ratio_max": None if stats is None else _ratio(stats.ratio_max),
                "ratio_pooled": None if stats is None else _ratio(stats.ratio_pooled),
                "predictions": preds,
            }
        return out

    def as_dict(self) -> dict[str, Any]:
        """The CLI's JSON object: every docs/spec.md §11 key, then added keys."""
        s, r, f, t = self.summary, self.round, self.funnel, self.trigger
        return {
            "main_safe_input": self.main_safe_input,
            "summary_cap": s.cap,
            "summary_generation": s.generation,
            "summary_safe_input": s.safe_input,
            "summary_new_raw_budget": s.new_raw_budget,
            "summary_new_raw": r.new_raw,
            "summary_work_input": r.work_input,
            "summary_work_total": r.work_total,
            "recompress_needed": r.recompress_needed,
            "loader_prefetch_limit": f.loader_prefetch_limit,
            "prefetched": f.prefetched,
            "summary_adopted": f.summary_adopted,
            "engine_raw_headroom": f.engine_raw_headroom,
            "raw_selected": f.raw_selected,
            "full_input": f.full_input,
            "admitted": f.admitted,
            "soft_estimate": t.soft_estimate,
            "trigger_reached": t.reached,
            # Added keys (docs/spec.md §11 allows additions).
            "summary_cap_clamped": s.clamped,
            "summary_dropped": f.summary_dropped,
            "summary_will_start": self.start.will_start,
            "io_token_cap": self.io.io_token_cap,
            "first_binding_limit": self.io.first_binding,
            "bytes": self.bytes_dict(),
            "time": {
                "records": self.read.records,
                "sessions": self.read.sessions,
                "message_pages": self.read.message_pages,
                "directory_pages": self.read.directory_pages,
                "read_ms": "unknown"
                if self.read.read_ms_low is None
                else {"low": self.read.read_ms_low, "high": self.read.read_ms_high},
            },
            "io": [
                {
                    "key": r.key,
                    "limit": r.limit,
                    "unit": r.unit,
                    "tokens": r.tokens,
                    "known": r.known,
                    "basis": r.basis,
                }
                for r in self.io.rows
            ],
        }


@lru_cache(maxsize=256)
def _channels(samples: Samples) -> tuple[tuple[str, ChannelStats | None], ...]:
    return tuple((c, channel_stats(samples.channel(c))) for c in BYTE_CHANNELS)


def _ratio(value: Fraction) -> str:
    """An exact ratio as text: "4" or "1655/406"."""
    return str(value)


def check_scenario(scenario: object, what: str = "scenario") -> None:
    """A public entry point's scenario argument: a :class:`Scenario` (what
    ``parse_scenario`` returns), never a dict that fails later on an attribute."""
    if not isinstance(scenario, Scenario):
        raise ScenarioError([Problem.of(what, scenario, "py-scenario")])


def plan(scenario: Scenario) -> Plan:
    """Evaluate a validated scenario: M, S/G/C, the summary round, the funnel, the trigger.

    The stage functions are pure functions of frozen, hashable values and are memoised
    (``functools.lru_cache``): a capacity curve re-plans 500 scenarios that differ in
    one input, and only the stages that input reaches are computed again.
    """
    check_scenario(scenario)
    cfg, work = scenario.config, scenario.workload
    m = main_safe_input(scenario.main_model, cfg.reply_max_tokens, cfg.safety_margin)
    capacity = summary_capacity(
        scenario.summary_contract,
        cfg.summary_max_tokens,
        cfg.safety_margin,
        previous_summary_tokens=work.previous_summary_tokens,
        instruction_tokens=work.summary_instruction_tokens,
    )
    verdict = io_verdict(
        max(0, m - work.summary_tokens), work.history_tokens, scenario.samples, scenario.limits
    )
    rnd, funnel, trigger = request_stages(
        m,
        capacity,
        cfg.trigger_tokens,
        work.required_tokens,
        work.summary_tokens,
        work.summary_tokens if work.engine_summary_tokens is None else work.engine_summary_tokens,
        work.history_tokens,
        work.previous_summary_tokens,
        work.summary_instruction_tokens,
        work.backlog_tokens,
        work.usage_baseline_tokens,
        work.replay_since_baseline_tokens,
        verdict.io_token_cap,
    )
    return Plan(
        scenario=scenario,
        main_safe_input=m,
        summary=capacity,
        round=rnd,
        funnel=funnel,
        trigger=trigger,
        io=verdict,
    )


def request_stages(  # noqa: PLR0917 - positional: a replay calls it every turn
    m: int,
    capacity: SummaryCapacity,
    trigger_tokens: int,
    required_tokens: int,
    summary_tokens: int,
    engine_summary_tokens: int,
    history_tokens: int,
    previous_summary_tokens: int,
    instruction_tokens: int,
    backlog_tokens: int | None,
    usage_baseline_tokens: int | None,
    replay_since_baseline_tokens: int,
    io_token_cap: int | None,
) -> tuple[SummaryRound, Funnel, Trigger]:
    """The stages of one request once M, the summary capacity and the I/O token cap are
    known: the summary round, the funnel and the trigger.

    :func:`plan` is M, the capacity, the I/O verdict and these stages. A session replay
    calls this directly with each turn's numbers (M and the capacity change only with
    the config or the summary's size, the I/O cap only with M or the summary), so 500
    turns build no per-turn scenario and no per-turn I/O verdict it would not show; each
    row can still rebuild its turn's :class:`Plan` with :func:`plan`, and a property test
    holds the two equal. Positional, because a replay calls it hundreds of times per
    input.
    """
    # Positional calls: an lru_cache key from keywords costs about three times as much,
    # and a replay makes three of these lookups per turn.
    rnd = summary_round(capacity, previous_summary_tokens, instruction_tokens, backlog_tokens)
    funnel = main_funnel(
        m,
        required_tokens,
        summary_tokens,
        engine_summary_tokens,
        history_tokens,
        io_token_cap,
    )
    trigger = soft_trigger(
        trigger_tokens, funnel.full_input, usage_baseline_tokens, replay_since_baseline_tokens
    )
    return rnd, funnel, trigger
