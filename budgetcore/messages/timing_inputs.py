"""The replay panel's background timing and retries (docs/spec.md §15, issue 22): its
inputs, each run's fate on the timeline, the run-time strip, the summary's waste lines
and what the model assumes. English and Chinese side by side."""

MESSAGES: dict[str, tuple[str, str]] = {
    # -------- the form
    "replay.timing.legend": (
        "Background timing and retries (spec §15)",
        "后台计时与重试(规范 §15)",
    ),
    "replay.timing.intro": (
        "Off: every run publishes at once, as before. On: a run takes time, and an append "
        "to the source before it ends discards it (billed, not published). Times in a log "
        "are its own; other sessions take the gap below.",
        "关闭:每次执行立即发布,与之前相同。开启:执行需要时间,结束前源内容若有追加,候选即被丢弃"
        "(计费但不发布)。日志使用其自身的时间;其他会话使用下面的间隔。",
    ),
    "label.replay.timing": ("Model time (runs take time)", "模拟时间(执行需要时间)"),
    "label.replay.duration": ("Run duration model", "执行时长模型"),
    "replay.duration.fixed": ("fixed seconds", "固定秒数"),
    "replay.duration.rates": ("from prefill and decode rates", "按预填充与解码速率"),
    "label.replay.fixed_s": ("Fixed duration (s, fixed model)", "固定时长(秒,固定模型)"),
    "label.replay.prefill_rate": (
        "Prefill rate (tokens/s, rates model)",
        "预填充速率(tokens/秒,速率模型)",
    ),
    "label.replay.decode_rate": (
        "Decode rate (tokens/s, rates model)",
        "解码速率(tokens/秒,速率模型)",
    ),
    "replay.timeout.limits.model_timeout_s": (
        "Model call timeout (s; the source article's: 30)",
        "模型调用超时(秒;原文取值:30)",
    ),
    "replay.timeout.limits.run_timeout_s": (
        "Execution timeout (s; the source article's: 90)",
        "执行超时(秒;原文取值:90)",
    ),
    "replay.timeout.limits.lease_s": (
        "Lease (s; the source article's: 120)",
        "租约(秒;原文取值:120)",
    ),
    "label.replay.gap": ("Gap per turn (generated and pasted turns)", "每轮间隔(生成与粘贴的轮次)"),
    "label.replay.gap_low": ("Gap: low, or the fixed value (ms)", "间隔:下限或固定值(毫秒)"),
    "label.replay.gap_high": ("Gap: high (ms)", "间隔:上限(毫秒)"),
    "label.replay.gap_seed": ("Gap seed", "间隔抽样种子"),
    "label.replay.format_failure_rate": (
        "Format-check failure rate per try",
        "每次尝试的格式检查失败率",
    ),
    "label.replay.format_failure_seed": (
        "Format-check failure seed",
        "格式检查失败抽样种子",
    ),
    # The choices stay short: a closed select shows its option on one line at 390 px.
    "label.replay.policy": ("Retry policy", "重试策略"),
    "replay.policy.resend": ("resend up to N times", "原样重发,最多 N 次"),
    "replay.policy.breaker": (
        "stop at N failures in a row, any run",
        "任意执行中连续 N 次失败即停止",
    ),
    "label.replay.max_resends": ("Resends N (resend policy)", "重发次数 N(重发策略)"),
    "label.replay.breaker_failures": (
        "Failures in a row that open the breaker (breaker policy)",
        "连续失败多少次打开熔断(熔断策略)",
    ),
    "label.replay.round_up_ms": (
        "Round each try up to (ms; empty: exact)",
        "每次尝试时长向上取整到(毫秒;留空:精确)",
    ),
    "label.replay.run_from": ("A log's run starts at", "日志中执行的开始时间"),
    "replay.run_from.reply": ("the reply's line (spec §15)", "回复所在行(规范 §15)"),
    "replay.run_from.turn": ("the turn's start", "该轮开始时"),
    "label.replay.appends": (
        "A log's lines that discard a run",
        "日志中会使执行被丢弃的行",
    ),
    "replay.appends.any": ("any later line (spec §15)", "之后的任意一行(规范 §15)"),
    "replay.appends.conversation": (
        "user and assistant lines only",
        "仅用户与助手的行",
    ),
    "label.replay.bill_failed_output": (
        "A failed try bills its written output",
        "失败的尝试也按其写出的输出计费",
    ),
    # -------- the timeline
    "replay.fate.published": ("published", "已发布"),
    "replay.fate.discarded": ("discarded (source appended)", "已丢弃(源内容已追加)"),
    "replay.fate.abandoned": ("abandoned (timed out)", "已放弃(超时)"),
    "replay.fate.failed": ("failed (no try passed)", "失败(没有一次尝试通过)"),
    "replay.legend.fate.published": ("published runs: {n}", "已发布的执行:{n}"),
    "replay.legend.fate.discarded": (
        "discarded runs (an append came first): {n}",
        "被丢弃的执行(追加先到):{n}",
    ),
    "replay.legend.fate.abandoned": (
        "abandoned runs (cut by a timeout; usage unknown): {n}",
        "被放弃的执行(超时截断;用量未知):{n}",
    ),
    "replay.legend.fate.failed": (
        "failed runs (no try passed the format check): {n}",
        "失败的执行(没有一次尝试通过格式检查):{n}",
    ),
    "replay.legend.append": (
        "time from a run's start to the next append",
        "从执行开始到下一次追加的时间",
    ),
    "replay.runs.title": (
        "Run duration (bar) against the time to the next append (cross bar), seconds",
        "执行时长(竖条)与到下一次追加的时间(横条),单位秒",
    ),
    "replay.runs.title-1": ("Run duration (bar) against the time", "执行时长(竖条)与"),
    "replay.runs.title-2": (
        "to the next append (cross bar), seconds",
        "到下一次追加的时间(横条),单位秒",
    ),
    "replay.runs.axis": (
        "up: seconds from the run's start; across: the turns above",
        "纵向:自执行开始的秒数;横向:与上图相同的轮次",
    ),
    "replay.runs.later.one": (
        "{n} run's next append is later than {scale} s, the strip's top: marked by a "
        "triangle there (it came after the run ended).",
        "{n} 次执行的下一次追加晚于条带顶端的 {scale} 秒:"
        "以顶端的三角形标出(追加发生在执行结束之后)。",
    ),
    "replay.runs.later.other": (
        "{n} runs' next append is later than {scale} s, the strip's top: marked by a "
        "triangle there (it came after the run ended).",
        "{n} 次执行的下一次追加晚于条带顶端的 {scale} 秒:"
        "以顶端的三角形标出(追加发生在执行结束之后)。",
    ),
    "replay.counts.why": (
        "Three counts, three questions: summary runs ({runs}) are the runs that happened "
        "(K reached, the request admitted, the background conditions held and there was "
        "work); K fires ({fires}) are the turns where K was reached after being below it; "
        "turns at or above K ({at_k}) are every request whose estimate reached K. A long "
        "stretch above K is one K crossing and many runs; a turn at or above K with no "
        "work or no room starts no run.",
        "三个计数回答三个问题:摘要执行({runs})是实际发生的执行(达到 K、请求被接纳、后台条件"
        "满足且有工作可做);K 触发({fires})是从低于 K 变为达到 K 的轮次;达到或超过 K 的轮数"
        "({at_k})是估算达到 K 的全部请求。长时间高于 K 只算一次 K 触发,却可有多次执行;达到 K "
        "但没有工作或没有额度的轮次不启动执行。",
    ),
    "replay.timing.assumes": (
        "What the model assumes: the article's runtime, one revision per append (any entry "
        "appended to the source after a run starts makes its candidate stale), one run at a "
        "time, the reply instant, and the durations and failure rate given above.",
        "模型的假设:文章描述的运行时,每次追加一个修订(执行开始后源内容的任何追加都会使其候选过期),"
        "一次只有一个执行,回答即时完成,时长与失败率取上面给定的值。",
    ),
    "replay.timing.not": (
        "a measured publish rate: it is what these durations would do to this session's "
        "rhythm, and a real runtime that revises less often discards less.",
        "实测的发布率:它只是这些时长作用于本会话节奏的结果;修订不那么频繁的真实运行时丢弃得更少。",
    ),
    "replay.scrub.fate": ("{status} ({fate})", "{status}({fate})"),
    # -------- the summary's waste lines
    "replay.sum.waste": (
        "Background runs over time (spec §15)",
        "随时间运行的后台执行(spec §15)",
    ),
    "replay.sum.unknown": ("unknown (a try timed out)", "未知(有尝试超时)"),
    "replay.sum.candidates": ("candidates (published + discarded)", "候选(已发布 + 已丢弃)"),
    "replay.sum.published": ("published", "已发布"),
    "replay.sum.publish_rate": ("publish rate (of candidates)", "发布率(占候选)"),
    "replay.sum.discarded": ("discarded (an append came first)", "已丢弃(追加先到)"),
    "replay.sum.abandoned": ("abandoned (timed out)", "已放弃(超时)"),
    "replay.sum.failed": ("failed (no try passed)", "失败(没有一次尝试通过)"),
    "replay.sum.in_flight_turns": (
        "turns whose run waited for one in flight",
        "因已有执行在进行而未启动的轮次",
    ),
    "replay.sum.breaker_open_turns": ("turns with the breaker open", "熔断开启的轮次"),
    "replay.sum.tries": ("tries (a timed-out one included)", "尝试次数(含超时的一次)"),
    "replay.sum.unknown_tries": (
        "tries cut by a timeout (usage unknown)",
        "被超时截断的尝试(用量未知)",
    ),
    "replay.sum.summary_tokens": ("summary tokens, every try", "摘要 tokens(全部尝试)"),
    "replay.sum.summary_cost": ("summary cost, every try", "摘要花费(全部尝试)"),
    "replay.sum.discarded_tokens": ("discarded tokens", "被丢弃的 tokens"),
    "replay.sum.discarded_cost": ("discarded cost", "被丢弃的花费"),
    "replay.sum.retry_tokens": (
        "retry tokens (tries after a run's first)",
        "重试 tokens(每次执行首次之后的尝试)",
    ),
    "replay.sum.retry_cost": ("retry cost", "重试花费"),
    "replay.sum.discarded_token_share": (
        "discarded share of summary tokens",
        "被丢弃占摘要 tokens 的比例",
    ),
    "replay.sum.retry_token_share": ("retry share of summary tokens", "重试占摘要 tokens 的比例"),
    "replay.sum.discarded_cost_share": (
        "discarded share of summary spend",
        "被丢弃占摘要花费的比例",
    ),
    "replay.sum.retry_cost_share": ("retry share of summary spend", "重试占摘要花费的比例"),
    # -------- the scrubbed turn's row
    "replay.row.time_ms": ("turn starts at (ms)", "本轮开始时间(毫秒)"),
    "replay.row.run_fate": ("run's fate", "执行结果"),
    "replay.row.run_tries": ("tries", "尝试次数"),
    "replay.row.run_unknown_tries": ("tries cut by a timeout", "被超时截断的尝试"),
    "replay.status.run-in-flight": ("a run is in flight: none starts", "已有执行在进行:不启动"),
    "replay.status.breaker-open": ("breaker open: no run starts", "熔断开启:不启动执行"),
}
