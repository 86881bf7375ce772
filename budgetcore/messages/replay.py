"""The session replay panel (spec §12): its form, charts, tables and summary."""

MESSAGES: dict[str, tuple[str, str]] = {
    "static.replay-h": ("Session replay: a conversation over time", "会话回放:随时间推进的对话"),
    "replay.intro": (
        "Runs a whole session through this scenario, one plan per turn: where the trigger fires, what each summary run consumes, what the model never sees, what it costs. Computed only while this panel is open.",
        "用本场景逐轮回放整个会话(每轮一次规划):触发线在哪里触发、每次摘要消耗多少、模型看不到哪些历史、花费多少。只在本面板打开时计算。",
    ),
    "replay.source": ("Turns from", "轮次来源"),
    "replay.source.generate": ("Seeded generator", "带种子的生成器"),
    "replay.source.turns": ("JSON Lines turns (paste)", "JSON Lines 轮次(粘贴)"),
    "replay.source.log": ("Agent log file", "智能体日志文件"),
    "replay.turns-label": (
        'Turns, one JSON object per line: {"added": N, "required": N, "output": N}',
        '轮次,每行一个 JSON 对象:{"added": N, "required": N, "output": N}',
    ),
    "replay.file-label": (
        "Claude Code session JSONL or Codex CLI rollout JSONL (read on this device; only token counts are kept)",
        "Claude Code 会话 JSONL 或 Codex CLI rollout JSONL(在本机读取;只保留 token 数)",
    ),
    "replay.scrub-label": ("Turn shown below", "下方显示的轮次"),
    "replay.options": ("Replay options", "回放选项"),
    # A log's backtest sets two options (docs/spec.md §17): their fields would otherwise
    # stand unticked and at 8,000 while the replay used the log's own (the eighth walk).
    # What it set is said once (backtest.sets*), by the page's note and the CLI's.
    "backtest.sets": (
        "This log's backtest sets the prompt cache and the stable prefix: cache on, stable prefix {prefix} tokens (what the session's first request read).",
        "此日志的回测设定了提示缓存与稳定前缀:缓存开启,稳定前缀 {prefix} tokens(会话第一个请求读取的量)。",
    ),
    # For a provider with no recorded cache rules (Google, Moonshot, ...): the as-run
    # model predicts no cache (prompt_cache._no_cache_model), the replay's own rule
    # (docs/spec.md §12 step 4) still reads what a request shares with the one before.
    "backtest.sets.no-rules": (
        "This log's backtest sets the prompt cache and the stable prefix, but no cache rules of this provider ({provider}) are recorded: the backtest itself models every request's context as uncached input, with no prefix cached by earlier sessions (stable prefix 0 tokens). The replay and its what-ifs price their requests the same way (prompt cache off), so a what-if's change is the change of K and S alone.",
        "此日志的回测设定了提示缓存与稳定前缀,但没有记录该提供方({provider})的缓存规则:回测本身把每个请求的上下文都按未缓存输入建模,不计更早会话缓存的前缀(稳定前缀 0 tokens)。回放及其假设也按同样方式计价(提示缓存关闭),所以假设的变化只来自 K 与 S 的改变。",
    ),
    # No provider to look up: the log names no model, or a model of no known maker.
    "backtest.sets.no-model": (
        "This log's backtest sets the prompt cache and the stable prefix, but the log names no model, so no provider's cache rules apply: the backtest itself models every request's context as uncached input, with no prefix cached by earlier sessions (stable prefix 0 tokens). The replay and its what-ifs price their requests the same way (prompt cache off), so a what-if's change is the change of K and S alone.",
        "此日志的回测设定了提示缓存与稳定前缀,但日志没有写明模型,没有可套用的提供方缓存规则:回测本身把每个请求的上下文都按未缓存输入建模,不计更早会话缓存的前缀(稳定前缀 0 tokens)。回放及其假设也按同样方式计价(提示缓存关闭),所以假设的变化只来自 K 与 S 的改变。",
    ),
    "backtest.sets.no-maker": (
        "This log's backtest sets the prompt cache and the stable prefix, but the maker of {model} is not known, so no provider's cache rules apply: the backtest itself models every request's context as uncached input, with no prefix cached by earlier sessions (stable prefix 0 tokens). The replay and its what-ifs price their requests the same way (prompt cache off), so a what-if's change is the change of K and S alone.",
        "此日志的回测设定了提示缓存与稳定前缀,但不知道 {model} 出自哪家,没有可套用的提供方缓存规则:回测本身把每个请求的上下文都按未缓存输入建模,不计更早会话缓存的前缀(稳定前缀 0 tokens)。回放及其假设也按同样方式计价(提示缓存关闭),所以假设的变化只来自 K 与 S 的改变。",
    ),
    "backtest.sets.each": (
        "Each log's backtest sets the prompt cache and the stable prefix of its replay: cache on, stable prefix what that session's first request read.",
        "每个日志的回测都设定了其回放的提示缓存与稳定前缀:缓存开启,稳定前缀为该会话第一个请求读取的量。",
    ),
    "replay.options.backtest": (
        "{sets} Those two fields apply to generated and pasted turns.",
        "{sets}这两个字段只用于生成的与粘贴的轮次。",
    ),
    "backtest.options-unused": (
        "{sets} Not used from --options: {options}.",
        "{sets}未使用 --options 中的:{options}。",
    ),
    "label.replay.turns": ("Turns", "轮数"),
    "label.replay.seed": ("Seed", "种子"),
    "label.replay.dist": ("Added tokens per turn", "每轮新增 token"),
    "label.replay.low": ("Added: low, or the fixed value", "新增:下限或固定值"),
    "label.replay.high": ("Added: high", "新增:上限"),
    "label.replay.burst_rate": (
        "Tool-output burst chance per turn (empty: none)",
        "每轮工具输出突增概率(留空:无)",
    ),
    "label.replay.burst_tokens": ("Burst size", "突增大小"),
    "label.replay.summary_ratio": (
        "Summary size ratio r (empty: a run writes S, or what it read if less)",
        "摘要大小比例 r(留空:写满 S,读入不足 S 时写读入量)",
    ),
    "label.replay.failure_rate": (
        "Failure rate of idle slot and lease (empty: the scenario's flags)",
        "空闲槽位与租约的失败率(留空:使用场景开关)",
    ),
    "label.replay.failure_seed": ("Failure seed", "失败抽样种子"),
    "label.replay.cache": ("Prompt cache on", "开启提示缓存"),
    "label.replay.stable_prefix": ("Stable prefix (part of F)", "稳定前缀(F 的一部分)"),
    "label.replay.wrapper": ("Summary wrapper", "摘要包装"),
    "replay.dist.fixed": ("fixed", "固定"),
    "replay.dist.uniform": ("uniform", "均匀分布"),
    "replay.dist.triangular": ("triangular", "三角分布"),
    "replay.stale": (
        "The replay waits for valid inputs: fix the highlighted field.",
        "回放等待有效输入:请修正标出的字段。",
    ),
    "replay.timeline.title": ("Full input per turn against K and M", "每轮完整输入与 K、M 的对比"),
    "replay.timeline.not": (
        "a prediction of a real session's sizes: each turn is this scenario's plan of the turns given, and a log's own compactions are what that agent did, not what these settings would do to it.",
        "对真实会话大小的预测:每一轮都是本场景对给定轮次的规划;日志里的压缩是那个智能体实际做的,不是这些设置会对它做的。",
    ),
    "replay.reading": ("Reading the log: {done} of {total} …", "正在读取日志:{done} / {total} …"),
    "replay.axis": ("turn (across), tokens (up)", "轮次(横轴),tokens(纵轴)"),
    "replay.mark.row": ("{name}: {n}", "{name}:{n}"),
    "replay.mark.run": ("summary runs", "摘要执行"),
    "replay.mark.recompress": ("recompresses", "重压"),
    "replay.mark.refused": ("refused runs (input above C)", "被拒绝的执行(输入超过 C)"),
    "replay.mark.trigger": ("this scenario's K fires", "本场景 K 触发"),
    "replay.mark.log_compaction": ("the log's own compactions", "日志自身的压缩"),
    "replay.mark.peer": ("{name} would fire", "{name} 会触发"),
    "replay.legend.full_input": ("full input per turn", "每轮完整输入"),
    "replay.legend.summary": ("summary size A (area)", "摘要大小 A(面积)"),
    "replay.legend.unseen": ("unseen history (area)", "未被看到的历史(面积)"),
    "replay.legend.trigger": ("K = {value}", "K = {value}"),
    "replay.legend.main_safe_input": ("M = {value}", "M = {value}"),
    "replay.legend.off.main_safe_input": ("M", "M"),
    # A label at the right end of the timeline's peer lines (charts/line_labels.py): one
    # line, or a run too close to label apart with its range.
    "chart.line-label.one": ("{name} {tokens}", "{name} {tokens}"),
    "chart.line-label.all": ("{names} {low}–{high}", "{names} {low}–{high}"),
    "chart.line-label.some": (
        "{names} and {more} more {low}–{high}",
        "{names} 等另 {more} 个 {low}–{high}",
    ),
    "chart.line-label.count": ("{n} systems {low}–{high}", "{n} 个系统 {low}–{high}"),
    "chart.line-label.n": ("{n} systems", "{n} 个系统"),
    "replay.legend.peers": (
        "where other agents would compact, tokens (dotted, top to bottom; on the chart, "
        'lines too close to name apart share one label, "N systems" where no more fits): '
        "{names}",
        "其他智能体会压缩的位置,tokens(点线,自上而下;图中靠得太近的线共用一个标签,"
        "放不下时只写“N 个系统”):{names}",
    ),
    "replay.legend.log_context": ("the log's measured context", "日志实测的上下文"),
    "replay.legend.cost": ("billed per turn", "每轮计费"),
    "replay.legend.cumulative": (
        "cumulative (its own axis, on the right)",
        "累计(独立刻度,见右侧坐标轴)",
    ),
    # The peers that do not run the log's model (registry.peers.runs_model, as the
    # peers chart lists them apart): no mark on the timeline, each said here with why.
    "replay.note.peers-apart": (
        "Not marked: these systems do not run {model}, so their lines say nothing about "
        "this session: {rows}.",
        "未标出:这些系统不运行 {model},它们的线与本会话无关:{rows}。",
    ),
    "replay.note.off-scale": (
        "Far above the data, so not drawn (tokens): {names}.",
        "远高于数据,因此未绘制(tokens):{names}。",
    ),
    "replay.cost.title": ("Cost per turn and cumulative", "每轮花费与累计"),
    "replay.cost.unit-tokens": ("tokens billed", "计费 tokens"),
    "replay.cost.unit-money": ("dollars", "美元"),
    "replay.cost.axis": (
        "{unit} per turn, the tallest bar {top}; cumulative total {total}",
        "每轮{unit},最高的柱 {top};累计 {total}",
    ),
    # The same title on two lines, where one line is wider than a phone's chart.
    "replay.cost.axis-turn": (
        "{unit} per turn, the tallest bar {top}",
        "每轮{unit},最高的柱 {top}",
    ),
    "replay.cost.axis-total": ("cumulative total {total}", "累计 {total}"),
    "replay.cost.tokens-cut": (
        "Tokens only: the model has prices, but summary tries cut by a timeout used tokens no one knows ({n}), so the cost is unknown.",
        "只显示 tokens:模型有价格,但被超时截断的摘要尝试用量无人知晓({n} 次),因此花费未知。",
    ),
    "replay.cost.tokens-only": (
        "Tokens only: this scenario names no model with prices, so no money is shown.",
        "仅 tokens:本场景未指定带价格的模型,因此不显示金额。",
    ),
    "replay.cost.priced": (
        "Priced with the model's per-token prices.",
        "按模型的每 token 价格计价。",
    ),
    "replay.cost.not": (
        "an invoice: a turn with a summary call shows its whole bill, not spread over the turns it serves, and billed tokens are this model of the requests.",
        "账单:有摘要调用的轮次显示其全部费用,不分摊到它服务的轮次;计费 tokens 来自本模型对请求的推算。",
    ),
    "replay.summary.caption": ("Session summary", "会话汇总"),
    "replay.summary.caption-log": (
        "Session summary: the engine's replay of the replayed branch (its scope above the "
        "cost chart)",
        "会话汇总:引擎对回放分支的重放(口径见花费图上方)",
    ),
    # Of a log: what the engine's own replay covers, said once, before its figures.
    "replay.cost.scope-log": (
        "This chart and the session summary below are the engine's own replay of the "
        "replayed branch with K {k} and S {s} (spec §12), one turn per request of that "
        "branch, numbered as the backtest's requests: its main requests and the summary "
        "calls it models, cached by its own layout. That is another scope than the "
        "backtest and the what-if above (every series, the runtime's cache rules): what K "
        "and S change on this session is the what-if's.",
        "本图与下方的会话汇总是引擎自身对回放分支的重放,K {k}、S {s}(spec §12),该分支每个请求一轮,"
        "编号与回测的请求相同:只含其主请求"
        "与它推算的摘要调用,缓存按引擎自身的布局计算。这与上方回测和假设的口径(所有序列、运行时"
        "的缓存规则)不同:K 与 S 对本会话的影响请看假设。",
    ),
    "replay.sum.turns": ("turns", "轮数"),
    "replay.sum.runs": ("summary runs (consumed raw)", "摘要执行(消耗原文)"),
    "replay.sum.recompresses": ("recompresses", "重压次数"),
    "replay.sum.refusals": ("refused runs", "被拒绝的执行"),
    "replay.sum.rejected": ("requests rejected (F > M)", "被拒绝的请求(F > M)"),
    "replay.sum.first_run_turn": ("first summary call at turn", "首次摘要调用所在轮次"),
    "replay.sum.peak_full_input": ("peak full input", "完整输入峰值"),
    "replay.sum.peak_turn": ("at turn", "所在轮次"),
    "replay.sum.main_safe_input_at_peak": ("M at the peak", "峰值时的 M"),
    "replay.sum.turns_at_or_above_k": ("turns at or above K", "达到或超过 K 的轮数"),
    "replay.sum.turns_with_unseen": ("turns with unseen history", "存在未见历史的轮数"),
    "replay.sum.peak_unseen": ("most unseen history", "未见历史最大值"),
    "replay.sum.main_input_tokens": ("main input tokens billed", "主请求输入计费 tokens"),
    "replay.sum.main_output_tokens": ("main output tokens billed", "主请求输出计费 tokens"),
    "replay.sum.main_cached_tokens": ("main input read from cache", "主请求缓存读取"),
    "replay.sum.summary_input_tokens": ("summary input tokens billed", "摘要输入计费 tokens"),
    "replay.sum.summary_output_tokens": ("summary output tokens billed", "摘要输出计费 tokens"),
    "replay.sum.cost_main": ("cost of main calls", "主请求花费"),
    "replay.sum.cost_summary": ("cost of summary calls", "摘要调用花费"),
    "replay.sum.cost": ("total cost", "总花费"),
    "replay.sum.cost_per_turn": ("cost per turn", "每轮花费"),
    "replay.sum.cache_share": ("cache share of main input", "主请求输入的缓存占比"),
    "replay.sum.final_history": ("history at the end", "结束时的历史"),
    "replay.sum.final_covered": ("covered by the summary at the end", "结束时摘要覆盖的历史"),
    "replay.sum.final_summary": ("summary size at the end", "结束时的摘要大小"),
    "replay.row.caption": ("Turn {turn}", "第 {turn} 轮"),
    "replay.row.history": ("history H (at plan time)", "历史 H(规划时)"),
    "replay.row.covered": ("covered c", "已覆盖 c"),
    "replay.row.uncovered": ("uncovered H − c", "未覆盖 H − c"),
    "replay.row.summary": ("summary A", "摘要 A"),
    "replay.row.required": ("required F", "必需输入 F"),
    "replay.row.summary_adopted": ("summary adopted", "采用的摘要"),
    "replay.row.raw_selected": ("raw selected", "选中的原文"),
    "replay.row.full_input": ("full input", "完整输入"),
    "replay.row.unseen": ("unseen history", "未见历史"),
    "replay.row.trigger_tokens": ("K", "K"),
    "replay.row.main_safe_input": ("M", "M"),
    "replay.row.trigger_reached": ("trigger reached", "达到触发线"),
    "replay.row.admitted": ("admitted", "已接纳"),
    "replay.row.added": ("added after the reply", "回答后新增"),
    "replay.row.status": ("background", "后台结果"),
    "replay.row.new_raw": ("new raw consumed", "消耗的新原文"),
    "replay.row.summary_input": ("summary call input", "摘要调用输入"),
    "replay.row.written": ("summary written", "写出的摘要"),
    "replay.row.cached_input": ("input read from cache", "缓存读取的输入"),
    "replay.row.cumulative_tokens": ("billed tokens so far", "累计计费 tokens"),
    "replay.status.run": ("summary run", "执行摘要"),
    "replay.status.recompress": ("recompress", "重压"),
    "replay.status.refused": ("run refused (input above C)", "执行被拒(输入超过 C)"),
    "replay.status.rejected": ("request rejected: nothing starts", "请求被拒:不启动任何任务"),
    "replay.status.below-K": ("below K: no run", "低于 K:不执行"),
    "replay.status.no-work": ("no work", "没有可做的工作"),
    "replay.status.no-room": ("no room for new raw", "没有新增原文额度"),
    "replay.status.no-billing": ("no billing record", "没有计费记录"),
    "replay.status.no-idle-slot": ("no idle slot", "没有空闲槽位"),
    "replay.status.no-lease": ("no lease", "没有租约"),
    "replay.scrub.value": (
        "Turn {turn} of {n}: full input {full} tokens, {status}",
        "第 {turn} / {n} 轮:完整输入 {full} tokens,{status}",
    ),
    "replay.file-label-many": ("Log files", "日志文件"),
    "replay.folder-label": ("or a folder of sessions", "或一个会话文件夹"),
    # The file boxes' own buttons and statuses: the browser's ("Choose Files", "No file
    # chosen") are in the browser's language whatever the page's (issue 42).
    "replay.file-button": ("Choose files", "选择文件"),
    "replay.folder-button": ("Choose a folder", "选择文件夹"),
    "replay.file-none": ("No file chosen", "未选择文件"),
    "replay.folder-none": ("No folder chosen", "未选择文件夹"),
    "replay.folder-empty-status": ("the folder chosen holds no file", "所选文件夹中没有文件"),
    "replay.files-picked.one": ("{n} file: {names}", "{n} 个文件:{names}"),
    "replay.files-picked.other": ("{n} files: {names}", "{n} 个文件:{names}"),
    "replay.folder-picked.one": ("folder {folder}: {n} file", "文件夹 {folder}:{n} 个文件"),
    "replay.folder-picked.other": ("folder {folder}: {n} files", "文件夹 {folder}:{n} 个文件"),
    "replay.names-more": ("{names} and {n} more", "{names} 等另外 {n} 个"),
    # The status's short list: two names, then how many more ("a.jsonl, b.jsonl, +1").
    "replay.names-plus": ("{names}, +{n}", "{names} 及另外 {n} 个"),
    "replay.mark.peer-count": (
        "{name} would fire on a count, not tokens ({what})",
        "{name} 会按计数触发,不是 token({what})",
    ),
    "replay.note.uncounted": (
        "Not evaluated, as this log does not count them: {rules}.",
        "未评估,因为此日志不记录这些计数:{rules}。",
    ),
}
