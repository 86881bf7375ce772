"""The plan's bar charts (funnel, branch, work): titles, segments, series, axes, reference
lines and the pinned/current legend.

The pinned plan is "pinned" and the edited one "current", never A and B: A is the
summary size (A loader, A engine) in every label.
"""

MESSAGES: dict[str, tuple[str, str]] = {
    "chart.funnel.title": (
        "Main request funnel: M → loader → engine (areas proportional to tokens)",
        "主请求原文漏斗:M → Loader → Engine(面积对应 tokens)",
    ),
    "chart.funnel.not": (
        "Room on this chart does not mean I/O can actually read that much history.",
        "图上有空间,不代表 I/O 一定能读满这么多历史。",
    ),
    "chart.branch.title": (
        "Summary branch joining F and the raw tail into the full input",
        "摘要独立分支:与必需输入和原文尾部汇合为完整输入",
    ),
    "chart.branch.not": (
        "The summary is a separate branch, not an extra layer of capacity after the funnel.",
        "摘要是独立分支,不是漏斗末尾额外增加的一层容量。",
    ),
    "chart.work.title": (
        "Summary call: work input beside its generation budget G = S",
        "摘要调用:工作输入与生成额度 G = S 分开展示",
    ),
    "chart.work.not": (
        "Work input is not the body cap, and budgets are not what the call actually spends.",
        "输入大小不等于正文上限,额度也不等于实际消耗。",
    ),
    "seg.main_safe_input": ("M", "M"),
    "seg.loader_prefetch_limit": ("loader prefetch limit", "Loader 预取上界"),
    "seg.prefetched": ("prefetched", "已预取"),
    "seg.engine_raw_headroom": ("engine raw headroom", "Engine 原文余量"),
    "seg.raw_selected": ("raw selected", "实际选中原文"),
    "seg.required": ("F required", "必需输入 F"),
    "seg.loader_reserve": ("A loader reserve", "Loader 预留 A"),
    "seg.summary_adopted": ("A engine adopted", "Engine 采用 A"),
    "seg.full_required": ("F", "F"),
    "seg.full_summary": ("A", "A"),
    "seg.full_raw": ("R", "R"),
    "seg.instructions": ("instructions", "指令"),
    "seg.previous_summary": ("previous summary", "旧摘要"),
    "seg.new_raw": ("new raw", "新增原文"),
    "seg.generation": ("G = S", "G = S"),
    "seg.trigger": ("K", "K"),
    "seg.summary_safe_input": ("C", "C"),
    "series.main_safe_input": ("M", "M"),
    "series.full_input": ("full input", "完整输入"),
    "series.summary_safe_input": ("C", "C"),
    "series.summary_new_raw_budget": ("new raw budget", "新增原文额度"),
    "series.summary_cap": ("S", "S"),
    "series.summary_generation": ("G", "G"),
    "axis.tokens": ("tokens", "tokens"),
    "axis.swept": ("{name} ({unit})", "{name}({unit})"),
    "chart.value": ("{name} {value}", "{name} {value}"),
    "chart.value.ab": ("{name} {value} (pinned {a})", "{name} {value}(固定 {a})"),
    "chart.value.same": ("{name} {value} (= pinned)", "{name} {value}(= 固定)"),
    "chart.pinned-value": ("(pinned {a})", "(固定 {a})"),
    "chart.ref.a": ("{name} (pinned) {value}", "{name}(固定){value}"),
    "chart.pinned-name": ("{name} (pinned)", "{name}(固定)"),
    "chart.stack": ("{name} {value} = {parts}", "{name} {value} = {parts}"),
    "chart.legend.a": ("pinned plan (outline)", "固定的方案(轮廓)"),
    "chart.legend.b": ("current plan (filled)", "当前方案(实心)"),
    "chart.beyond": ("{name} {value}: beyond the axis →", "{name} {value}:超出坐标轴 →"),
    "chart.beyond.legend": (
        "{name} {value} lies beyond the axis end ({end} tokens): its arrow is not drawn to scale.",
        "{name} {value} 超出坐标轴终点({end} tokens):箭头不按比例绘制。",
    ),
}
