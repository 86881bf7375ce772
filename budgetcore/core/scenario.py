"""Scenario values (docs/spec.md section 11): contracts, config, workload, background,
limits and samples, with their defaults. ``Scenario()`` is the article's worked example.

Values only: reading them is ``scenario.parse``, writing them ``scenario.dump``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from budgetcore.core.contracts import ARTICLE_CONTRACT, ModelContract
from budgetcore.core.samples import Samples

__all__ = [
    "MAX_MARGIN_PLACES",
    "SECTIONS",
    "Background",
    "Config",
    "Kind",
    "Limits",
    "Scenario",
    "Workload",
]

#: A margin finer than this is not a reviewable setting (and keeps arithmetic small).
MAX_MARGIN_PLACES = 28

Kind = Literal["tokens", "positive", "margin", "bool"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    """The supported runtime overrides that shape the plan (docs/spec.md §9)."""

    trigger_tokens: int = 32_000
    summary_max_tokens: int = 8_192
    safety_margin: Decimal = Decimal("0.10")
    reply_max_tokens: int = 8_192


@dataclass(frozen=True, slots=True, kw_only=True)
class Workload:
    """Scenario inputs: what this request and this summary round actually carry."""

    required_tokens: int = 20_000
    summary_tokens: int = 6_000
    engine_summary_tokens: int | None = None
    history_tokens: int = 10_000
    summary_instruction_tokens: int = 1_000
    previous_summary_tokens: int = 6_000
    backlog_tokens: int | None = None
    usage_baseline_tokens: int | None = None
    replay_since_baseline_tokens: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Background:
    """Conditions besides the trigger that a background summary needs (docs/spec.md §5)."""

    billing_recorded: bool = True
    idle_slot: bool = True
    lease_acquired: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Runtime I/O protections (docs/spec.md §6). Raising I grows M but none of these."""

    directory_sessions_read: int = 200  # sessions a full read may visit
    raw_records_read: int = 2_000  # raw message records a full read may admit
    directory_page_size: int = 50  # sessions per directory page
    message_page_size: int = 200  # records per message page
    raw_bson_bytes: int = 2_097_152  # raw BSON admitted before decoding (2 MiB)
    full_read_ms: int = 3_000  # whole prefetch read time
    single_query_ms: int = 1_000  # one query
    raw_bson_batch: int = 16  # driver batch size
    tool_result_tokens: int = 5_000  # each tool result in the summary input
    recall_calls_per_request: int = 4
    recall_pack_tokens: int = 8_192  # one history-recall return pack
    recall_slice_code_points: int = 8_192  # one slice, in Unicode code points
    background_runs_per_process: int = 2
    model_timeout_s: int = 30  # model timeout <= run timeout < lease
    run_timeout_s: int = 90
    lease_s: int = 120


@dataclass(frozen=True, slots=True, kw_only=True)
class Scenario:
    """A complete, validated scenario. ``Scenario()`` is the article's worked example."""

    main_model: ModelContract = ARTICLE_CONTRACT
    summary_model: ModelContract | None = None
    config: Config = field(default_factory=Config)
    workload: Workload = field(default_factory=Workload)
    background: Background = field(default_factory=Background)
    limits: Limits = field(default_factory=Limits)
    samples: Samples = field(default_factory=Samples)
    # The registry models the contracts are (a scenario's ``"model"``, a link's
    # ``main_model.model``, the page's picker); None: the contract's numbers alone.
    # Kept only while the contract still is that model's (registry.models.still_named,
    # applied where a name is read), so an export and a link can carry it as data.
    main_model_name: str | None = None
    summary_model_name: str | None = None

    @property
    def summary_contract(self) -> ModelContract:
        """The summary model's contract; ``None`` means the main model's."""
        return self.main_model if self.summary_model is None else self.summary_model

    def model_name(self, section: str) -> str | None:
        """The registry name of ``section``'s contract (``"main_model"`` or
        ``"summary_model"``); a summary model that is the main model's has the main's."""
        if section == "summary_model" and self.summary_model is None:
            return self.main_model_name
        return self.main_model_name if section == "main_model" else self.summary_model_name

    def model_names(self) -> dict[str, str]:
        """``{"main_model.model": NAME, ...}``: the names the link and the reviewed file
        carry (a summary model of its own only)."""
        out = {}
        if self.main_model_name:
            out["main_model.model"] = self.main_model_name
        if self.summary_model is not None and self.summary_model_name:
            out["summary_model.model"] = self.summary_model_name
        return out


SECTIONS: dict[str, type] = {
    "main_model": ModelContract,
    "summary_model": ModelContract,
    "config": Config,
    "workload": Workload,
    "background": Background,
    "limits": Limits,
}
