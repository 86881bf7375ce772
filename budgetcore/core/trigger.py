"""The soft trigger line K and the conditions a background summary needs (docs/spec.md §5)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

__all__ = ["SummaryStart", "Trigger", "soft_trigger", "summary_start"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Trigger:
    soft_estimate: int  # T_soft
    from_baseline: bool  # provider usage baseline + replay, rather than the local estimate
    reached: bool  # T_soft >= K; never rejects the main reply


@lru_cache(maxsize=4096)
def soft_trigger(
    trigger_tokens: int,
    full_input: int,
    usage_baseline_tokens: int | None,
    replay_since_baseline_tokens: int,
) -> Trigger:
    """T_soft = baseline + replay when a provider baseline exists, else the local full input."""
    if usage_baseline_tokens is None:
        estimate = full_input
    else:
        estimate = usage_baseline_tokens + replay_since_baseline_tokens
    return Trigger(
        soft_estimate=estimate,
        from_baseline=usage_baseline_tokens is not None,
        reached=estimate >= trigger_tokens,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class SummaryStart:
    trigger_reached: bool
    has_work: bool  # uncovered contiguous history to consume, or a recompress to do
    billing_recorded: bool  # a valid billing record for the originating request
    idle_slot: bool  # a free background run slot in this process
    lease_acquired: bool

    @property
    def will_start(self) -> bool:
        """Reaching K alone does not start a summary: every condition must hold."""
        return all(
            (
                self.trigger_reached,
                self.has_work,
                self.billing_recorded,
                self.idle_slot,
                self.lease_acquired,
            )
        )


def summary_start(
    trigger: Trigger,
    *,
    has_work: bool,
    billing_recorded: bool,
    idle_slot: bool,
    lease_acquired: bool,
) -> SummaryStart:
    return SummaryStart(
        trigger_reached=trigger.reached,
        has_work=has_work,
        billing_recorded=billing_recorded,
        idle_slot=idle_slot,
        lease_acquired=lease_acquired,
    )
