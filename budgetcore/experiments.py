"""The article's four boundary experiments (SPEC §10) as presets with stated outcomes.

Each experiment turns the current scenario into a *before* and an *after*, and names
what must change and what must not. ``run`` evaluates both with ``plan`` and checks
every expectation, so the page (and a test) can show whether the outcome holds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from budgetcore.plan import Plan, plan
from budgetcore.scenario import Scenario

__all__ = ["EXPERIMENTS", "Check", "Experiment", "Outcome", "run"]

Getter = Callable[[Plan], object]

#: What an experiment can watch: key -> (English label, Chinese label, getter).
WATCH: dict[str, tuple[str, str, Getter]] = {
    "trigger_tokens": ("trigger line K", "触发线 K", lambda p: p.scenario.config.trigger_tokens),
    "main_safe_input": ("M", "M", lambda p: p.main_safe_input),
    "summary_cap": ("S", "S", lambda p: p.summary.cap),
    "summary_generation": ("G", "G", lambda p: p.summary.generation),
    "summary_safe_input": ("C", "C", lambda p: p.summary.safe_input),
    "trigger_reached": ("trigger reached", "达到触发线", lambda p: p.trigger.reached),
    "recompress_needed": ("recompress needed", "需要重压", lambda p: p.round.recompress_needed),
    "summary_new_raw": ("new raw this round", "本轮新增原文", lambda p: p.round.new_raw),
    "coverage_advances": (
        "coverage point c moves",
        "覆盖点 c 前移",
        lambda p: p.round.coverage_advances,
    ),
    "raw_bson_bytes": (
        "raw BSON read allowance (bytes)",
        "原始 BSON 读取量(bytes)",
        lambda p: p.scenario.limits.raw_bson_bytes,
    ),
    "full_read_ms": (
        "full read time (ms)",
        "完整读取时限(ms)",
        lambda p: p.scenario.limits.full_read_ms,
    ),
    "single_query_ms": (
        "single query time (ms)",
        "单次查询时限(ms)",
        lambda p: p.scenario.limits.single_query_ms,
    ),
    "background_runs_per_process": (
        "background runs per process",
        "每进程后台执行数",
        lambda p: p.scenario.limits.background_runs_per_process,
    ),
    "admitted": ("admitted", "准入", lambda p: p.funnel.admitted),
    "engine_raw_headroom": (
        "engine raw headroom",
        "Engine 原文余量",
        lambda p: p.funnel.engine_raw_headroom,
    ),
    "raw_selected": ("raw selected", "实际选中原文", lambda p: p.funnel.raw_selected),
}


@dataclass(frozen=True, slots=True)
class Experiment:
    key: str
    title_en: str
    title_zh: str
    expect_en: str  # the expected outcome, stated on screen
    expect_zh: str
    before: Callable[[Scenario], Scenario]
    after: Callable[[Scenario], Scenario]
    changes: tuple[tuple[str, object], ...]  # (watch key, value after or CHANGES)
    same: tuple[str, ...]  # watch keys that must not move


CHANGES = object()  # "must differ from before", whatever the value
GROWS = object()  # "must be larger after"


@dataclass(frozen=True, slots=True)
class Check:
    key: str
    label_en: str
    label_zh: str
    before: object
    after: object
    expected: str  # "changes", "grows", "same" or "is <value>"
    holds: bool


@dataclass(frozen=True, slots=True)
class Outcome:
    experiment: Experiment
    before: Plan
    after: Plan
    checks: tuple[Check, ...]

    @property
    def holds(self) -> bool:
        return all(c.holds for c in self.checks)


def _set(scenario: Scenario, section: str, **fields: object) -> Scenario:
    part = dataclasses.replace(getattr(scenario, section), **fields)
    return dataclasses.replace(scenario, **{section: part})


def _main_i(scenario: Scenario, factor: int) -> Scenario:
    main = dataclasses.replace(
        scenario.main_model, input_tokens=scenario.main_model.input_tokens * factor
    )
    return dataclasses.replace(scenario, main_model=main)


def _f_above_m(scenario: Scenario) -> Scenario:
    m = plan(scenario).main_safe_input
    return _set(scenario, "workload", required_tokens=m + 1, history_tokens=0)


def _lower_k(scenario: Scenario) -> Scenario:
    return _set(scenario, "config", trigger_tokens=scenario.config.trigger_tokens // 2)


EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment(
        "lower_k",
        "1. Lower only K",
        "1. 只降低 K",
        "Only K moves: a summary triggers more easily, and M, S, G and C do not change. If "
        "the required input alone is above K it fires every turn: check that there is "
        "history to advance, not only the lamp.",
        "只有 K 变化:摘要更容易触发,M、S、G、C 不变。如果必需输入本身就高于 K,摘要可能每轮触发;"
        "需检查是否还有可推进的历史,而不是只看触发灯。",
        lambda s: s,
        _lower_k,
        (("trigger_tokens", CHANGES),),
        ("main_safe_input", "summary_cap", "summary_generation", "summary_safe_input"),
    ),
    Experiment(
        "lower_s",
        "2. S from 16,384 to 8,192",
        "2. S 从 16,384 降为 8,192",
        "With a 12,000-token previous summary, lowering S from 16,384 to 8,192 needs a "
        "recompress: new raw is 0 for this round and the coverage point c does not move. "
        "The old summary keeps being used while it fits.",
        "旧摘要为 12,000 tokens 时,把 S 从 16,384 降为 8,192 会出现重压需求:本轮新增原文为零,"
        "覆盖点 c 不变;旧摘要在放得下时继续使用。",
        lambda s: _set(
            _set(s, "config", summary_max_tokens=16_384),
            "workload",
            previous_summary_tokens=12_000,
        ),
        lambda s: _set(
            _set(s, "config", summary_max_tokens=8_192),
            "workload",
            previous_summary_tokens=12_000,
        ),
        (
            ("summary_cap", 8_192),
            ("recompress_needed", True),
            ("summary_new_raw", 0),
            ("coverage_advances", False),
        ),
        ("main_safe_input",),
    ),
    Experiment(
        "raise_i",
        "3. Raise only I",
        "3. 只增大模型 I",
        "Doubling the main model's input capacity grows M, but not the 2 MiB read "
        "allowance, the read time limits or background concurrency: a bigger window does "
        "not read more history.",
        "主模型输入能力翻倍时 M 变大,但 2 MiB 读取量、读取时限和后台并发不会自动增长:"
        "更大窗口不等于一次读取更多历史。",
        lambda s: s,
        lambda s: _main_i(s, 2),
        (("main_safe_input", GROWS),),
        (
            "raw_bson_bytes",
            "full_read_ms",
            "single_query_ms",
            "background_runs_per_process",
            "trigger_tokens",
        ),
    ),
    Experiment(
        "f_above_m",
        "4. F above M",
        "4. 把 F 提高到超过 M",
        "With the required input one token above M, the raw space is 0 and the request is "
        "rejected even with no history at all: a summary cannot fix an oversized required "
        "input.",
        "必需输入比 M 多一个 token 时,原文空间归零;即使没有任何历史,请求也无法发起。"
        "摘要不能解决过大的必需输入。",
        lambda s: s,
        _f_above_m,
        (("admitted", False), ("engine_raw_headroom", 0), ("raw_selected", 0)),
        ("main_safe_input",),
    ),
)
BY_KEY = {e.key: e for e in EXPERIMENTS}


def _check(key: str, before: Plan, after: Plan, expected: object) -> Check:
    en, zh, get = WATCH[key]
    b, a = get(before), get(after)
    if expected is CHANGES:
        text, holds = "changes", a != b
    elif expected is GROWS:
        text, holds = "grows", a > b  # type: ignore[operator]
    elif expected == "same":
        text, holds = "same", a == b
    elif isinstance(expected, bool):
        text, holds = f"is {'yes' if expected else 'no'}", a is expected
    else:
        text, holds = f"is {expected:,}", a == expected
    return Check(key, en, zh, b, a, text, holds)


def run(experiment: Experiment, scenario: Scenario) -> Outcome:
    before, after = plan(experiment.before(scenario)), plan(experiment.after(scenario))
    checks = [_check(k, before, after, v) for k, v in experiment.changes]
    checks += [_check(k, before, after, "same") for k in experiment.same]
    return Outcome(experiment, before, after, tuple(checks))
