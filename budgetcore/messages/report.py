"""The review report and the tune command: titles and what their figures must not be
read as (issue 25; ``budgetcore.report``, ``budgetcore.report_tune``, ``tune``)."""

MESSAGES: dict[str, tuple[str, str]] = {
    # The tune maps' line is tune.not (the tune area), shared with the page's panel.
    "report.replay-timeline.title": (
        "Session replay: full input per turn against K and M",
        "会话重放:每轮完整输入与 K、M 的对比",
    ),
    "report.replay-timeline.not": (
        "a forecast of a real session: every turn is this scenario's plan of the given "
        "turns; unseen history is what the request leaves out, not what is lost; a "
        "summary run marked here is billed, and its output size is the size model's.",
        "对真实会话的预测:每一轮都是本场景对给定轮次的规划;未被看到的历史是请求没有带上的"
        "部分,不是丢失的部分;这里标出的摘要执行会计费,其输出大小来自大小模型。",
    ),
    "report.replay-cost.title": (
        "Session replay: cost per turn and cumulative",
        "会话重放:每轮花费与累计",
    ),
    "report.replay-cost.not": (
        "an invoice: prices are per-token list prices applied to the replay's modelled "
        "tokens, and a turn with a summary run carries that call's whole cost.",
        "账单:价格是按每 token 标价乘以重放推算的 tokens;有摘要执行的轮次承担该调用的全部费用。",
    ),
    "report.curves.title": (
        "Sweeping {name} over {n} points, everything else fixed",
        "扫描{name}({n} 个点),其他不变",
    ),
    "report.curves.axis": (
        "{name} ({unit}); dotted line: this scenario, {value}",
        "{name}({unit});虚线:本场景,{value}",
    ),
    "report.curves.here": ("{name}: {value} at this scenario", "{name}:本场景为 {value}"),
    "report.unit.margin": ("a fraction of the window", "窗口的比例"),
}
