"""The single entry point shared by the CLI, the page and the tests: scenario -> plan."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from budgetcore.capacity import SummaryCapacity, main_safe_input, summary_capacity
from budgetcore.funnel import Funnel, main_funnel
from budgetcore.resize import SummaryRound, summary_round
from budgetcore.scenario import Scenario
from budgetcore.trigger import SummaryStart, Trigger, soft_trigger, summary_start

__all__ = ["OUTPUT_KEYS", "Plan", "plan"]

#: The output keys of SPEC §11, in contract order. Names and meanings never change.
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


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    scenario: Scenario
    main_safe_input: int  # M
    summary: SummaryCapacity  # S, G, C, new raw budget
    round: SummaryRound  # recompress, new raw, work input/total
    funnel: Funnel
    trigger: Trigger
    start: SummaryStart

    def as_dict(self) -> dict[str, Any]:
        """The CLI's JSON object: every SPEC §11 key, then added keys."""
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
            # Added keys (SPEC §11 allows additions).
            "summary_cap_clamped": s.clamped,
            "summary_dropped": f.summary_dropped,
            "summary_will_start": self.start.will_start,
        }


def plan(scenario: Scenario) -> Plan:
    """Evaluate a validated scenario: M, S/G/C, the summary round, the funnel, the trigger."""
    cfg, work, bg = scenario.config, scenario.workload, scenario.background
    m = main_safe_input(scenario.main_model, cfg.reply_max_tokens, cfg.safety_margin)
    capacity = summary_capacity(
        scenario.summary_contract,
        cfg.summary_max_tokens,
        cfg.safety_margin,
        previous_summary_tokens=work.previous_summary_tokens,
        instruction_tokens=work.summary_instruction_tokens,
    )
    rnd = summary_round(
        capacity,
        previous_summary_tokens=work.previous_summary_tokens,
        instruction_tokens=work.summary_instruction_tokens,
        backlog_tokens=work.backlog_tokens,
    )
    engine_summary = (
        work.summary_tokens if work.engine_summary_tokens is None else work.engine_summary_tokens
    )
    funnel = main_funnel(
        m,
        required_tokens=work.required_tokens,
        loader_summary_tokens=work.summary_tokens,
        engine_summary_tokens=engine_summary,
        history_tokens=work.history_tokens,
    )
    trigger = soft_trigger(
        cfg.trigger_tokens,
        full_input=funnel.full_input,
        usage_baseline_tokens=work.usage_baseline_tokens,
        replay_since_baseline_tokens=work.replay_since_baseline_tokens,
    )
    start = summary_start(
        trigger,
        has_work=rnd.recompress_needed or rnd.new_raw > 0,
        billing_recorded=bg.billing_recorded,
        idle_slot=bg.idle_slot,
        lease_acquired=bg.lease_acquired,
    )
    return Plan(
        scenario=scenario,
        main_safe_input=m,
        summary=capacity,
        round=rnd,
        funnel=funnel,
        trigger=trigger,
        start=start,
    )
