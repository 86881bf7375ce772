"""The plan's readouts, the key quantities, the watched values and the sentences that explain
them (spec §3-§8).
"""

MESSAGES: dict[str, tuple[str, str]] = {
    "phrase.not": ("What this must not be read as: ", "不能据此解读为:"),
    "phrase.off-scale": ("(off scale)", "(超出刻度)"),
    "phrase.full-input": ("full input", "完整输入"),
    "phrase.work-input": ("work input", "工作输入"),
    "phrase.engine-drops": (
        "Engine drops the summary (A engine = 0)",
        "Engine 舍弃摘要(A engine = 0)",
    ),
    "phrase.preset": ("Preset", "预设"),
    "phrase.custom": ("custom", "自定义"),
    "phrase.same-contract": ("Same contract as the main model", "与主模型相同的合同"),
    "phrase.slider": (" (coarse)", "(粗调)"),
    "phrase.col-b": ("current", "当前"),
    "phrase.col-a": ("pinned", "固定"),
    "phrase.ratios": ("Bytes per token, per channel", "各通道每 token 字节数"),
    "phrase.channel": ("channel", "通道"),
    "phrase.pooled": ("pooled", "合并"),
    "phrase.predicted": (
        "Predicted bytes: [floor(t × min), ceil(t × max)], ≈ pooled",
        "预测字节:[floor(t × min), ceil(t × max)],≈ 合并比例",
    ),
    "phrase.tokens": ("tokens", "tokens"),
    "phrase.limits-caption": (
        "Prefetch limits as tokens, side by side",
        "预取限制折算为 tokens 并列比较",
    ),
    "phrase.limit": ("limit", "限制"),
    "phrase.value": ("value", "取值"),
    "phrase.equivalent": ("token equivalent", "折算 tokens"),
    "phrase.basis": ("basis", "依据"),
    "phrase.nothing-bites": (
        "Nothing bites: all uncovered history fits within every limit.",
        "没有限制先生效:全部未覆盖历史都在各项限制之内。",
    ),
    # An unknown limit may bite: with one unknown the verdict speaks of the known ones.
    "phrase.nothing-known-bites.one": (
        "No known limit bites: all uncovered history fits within every known limit; "
        "{n} limit is unknown until its samples are given.",
        "已知的限制都不会先生效:全部未覆盖历史都在各项已知限制之内;{n} 项限制在给出样本之前未知。",
    ),
    "phrase.nothing-known-bites.other": (
        "No known limit bites: all uncovered history fits within every known limit; "
        "{n} limits are unknown until their samples are given.",
        "已知的限制都不会先生效:全部未覆盖历史都在各项已知限制之内;{n} 项限制在给出样本之前未知。",
    ),
    "phrase.first-bites": ("First to bite: {name}.", "最先生效的限制:{name}。"),
    "phrase.does-not-bite": ("does not bite", "不会生效"),
    "phrase.time": (
        "Prefetch of {tokens} tokens: {records}, {sessions}, {pages}, {dirs}; {read}.",
        "预取 {tokens} tokens:{records},{sessions},{pages},{dirs};{read}。",
    ),
    # Its own phrase, as count.unknown.* are: "读取耗时未知" runs on, a range keeps its space.
    "phrase.read-time": ("read time {range}", "读取耗时 {range}"),
    "phrase.read-time-unknown": ("read time unknown", "读取耗时未知"),
    "phrase.no-overrides": (
        "No overrides: every supported setting is at its default.",
        "没有覆盖项:所有受支持的设置均为默认值。",
    ),
    "phrase.diff-head": ("key|default|reviewed|unit|meaning", "键|默认值|评审值|单位|含义"),
    "phrase.watched": (
        "watched|pinned (before)|current (after)|expected|holds",
        "观察项|固定(之前)|当前(之后)|预期|成立",
    ),
    "phrase.holds": (
        "The stated outcome holds. The before is pinned, the current plan shows the after.",
        "所述结果成立。实验前的方案已固定,当前方案显示实验后。",
    ),
    "phrase.fails": (
        "The stated outcome does NOT hold. The before is pinned, the current plan shows the after.",
        "所述结果不成立。实验前的方案已固定,当前方案显示实验后。",
    ),
    "phrase.sweeping": (
        "Sweeping {name} from {low} to {high} ({n} points); everything else fixed",
        "扫描{name}:从 {low} 到 {high}({n} 个点),其他输入固定",
    ),
    "phrase.sweeping-own": (
        "Sweeping {name} from {low} to {high} ({n} points: {grid} on the grid and this "
        "plan's own value); everything else fixed",
        "扫描{name}:从 {low} 到 {high}({n} 个点:网格上 {grid} 个,加上本方案自己的取值),"
        "其他输入固定",
    ),
    "phrase.here": ("; here {value}", ";当前 {value}"),
    "phrase.dark-yes": ("(dark = yes)", "(深色 = 是)"),
    "phrase.trigger-reached": ("trigger reached", "达到触发线"),
    "phrase.admitted": ("admitted", "准入"),
    "readout.main_safe_input": ("M — main safe input", "M — 主调用安全输入容量"),
    "readout.summary_cap": ("S — summary cap (effective)", "S — 摘要上限(生效值)"),
    "readout.summary_generation": ("G — summary generation budget", "G — 摘要总生成额度"),
    "readout.summary_safe_input": ("C — summary call safe input", "C — 摘要调用安全输入容量"),
    "readout.summary_new_raw_budget": (
        "New raw budget max(0, min(64,000, C − E))",
        "新增原文额度 max(0, min(64,000, C − E))",
    ),
    "readout.summary_new_raw": ("New raw this round", "本轮新增原文"),
    "readout.summary_work_input": ("Summary work input", "摘要工作输入"),
    "readout.summary_work_total": ("Work input + G", "工作输入 + G"),
    "readout.recompress_needed": ("Recompress needed", "需要重压"),
    "readout.loader_prefetch_limit": ("Loader prefetch limit", "Loader 预取上界"),
    "readout.prefetched": ("Prefetched", "已预取"),
    "readout.summary_adopted": ("Summary adopted by the engine", "Engine 采用的摘要"),
    "readout.engine_raw_headroom": ("Engine raw headroom", "Engine 原文余量"),
    "readout.raw_selected": ("Raw selected", "实际选中原文"),
    "readout.full_input": ("Full input", "完整输入"),
    "readout.admitted": ("Admitted (F ≤ M)", "准入(F ≤ M)"),
    "readout.soft_estimate": ("Soft estimate T", "软判断估算 T"),
    "readout.trigger_reached": ("Trigger reached (T ≥ K)", "达到触发线(T ≥ K)"),
    "readout.summary_cap_clamped": ("S clamped by the summary model", "S 被摘要模型限幅"),
    "readout.summary_dropped": ("Engine dropped the summary", "Engine 舍弃了摘要"),
    "readout.summary_will_start": ("Summary will start", "将启动摘要"),
    "quantity.raw_selected": ("raw selected", "实际选中原文"),
    "quantity.full_input": ("full input", "完整输入"),
    "quantity.summary_work_input": ("summary work input", "摘要工作输入"),
    "quantity.summary_cap": ("S (summary cap)", "S(摘要上限)"),
    "watch.trigger_tokens": ("trigger line K", "触发线 K"),
    "watch.main_safe_input": ("M", "M"),
    "watch.summary_cap": ("S", "S"),
    "watch.summary_generation": ("G", "G"),
    "watch.summary_safe_input": ("C", "C"),
    "watch.trigger_reached": ("trigger reached", "达到触发线"),
    "watch.recompress_needed": ("recompress needed", "需要重压"),
    "watch.summary_new_raw": ("new raw this round", "本轮新增原文"),
    "watch.coverage_advances": ("coverage point c moves", "覆盖点 c 前移"),
    "watch.raw_bson_bytes": ("raw BSON read allowance (bytes)", "原始 BSON 读取量(字节)"),
    "watch.full_read_ms": ("full read time (ms)", "完整读取时限(毫秒)"),
    "watch.single_query_ms": ("single query time (ms)", "单次查询时限(毫秒)"),
    "watch.background_runs_per_process": ("background runs per process", "每进程后台执行数"),
    "watch.admitted": ("admitted", "准入"),
    "watch.engine_raw_headroom": ("engine raw headroom", "Engine 原文余量"),
    "watch.raw_selected": ("raw selected", "实际选中原文"),
    "why.timeouts": ("model timeout <= run timeout < lease", "模型超时 ≤ 执行超时 < 租约"),
    "why.record-page": ("a message page fits within the record cap", "消息页须在记录上限之内"),
    "why.session-page": (
        "a directory page fits within the session cap",
        "目录页须在会话上限之内",
    ),
    "key.main_safe_input": ("M main safe input", "M 主调用安全输入"),
    "key.trigger_tokens": ("K trigger line", "K 触发线"),
    "key.summary_cap": ("S summary cap", "S 摘要上限"),
    "key.summary_safe_input": ("C summary safe input", "C 摘要安全输入"),
    "key.full_input": ("Full input", "完整输入"),
    "key.admitted": ("Admitted", "准入"),
    "key.trigger_reached": ("Trigger reached", "达到触发线"),
    "phrase.readout": ("quantity (tokens)", "数量(tokens)"),
    "phrase.readouts-caption": (
        "Every quantity of the plan, in tokens",
        "计算结果的全部数量(单位 tokens)",
    ),
    "phrase.col-delta": ("current − pinned", "当前 − 固定"),
    "phrase.min": ("min", "最小"),
    "phrase.max": ("max", "最大"),
    "phrase.none": ("none", "无"),
    "phrase.empty": ("empty", "留空"),
    "phrase.ab-diff": (
        "Inputs where the current plan differs from the pinned one (pinned → current):",
        "当前方案与固定方案不同的输入(固定 → 当前):",
    ),
    "phrase.ab-models": (
        "Main model: pinned {a} → current {b}",
        "主模型:固定 {a} → 当前 {b}",
    ),
    # A plan on a preset's contract, named as the preset picker names it.
    "phrase.ab-preset": ("preset “{name}”", "预设“{name}”"),
    "phrase.ab-no-diff": (
        "The current plan has the same inputs as the pinned one: edit a field to compare.",
        "当前方案与固定方案的输入相同:修改输入项即可比较。",
    ),
    "phrase.expect-is": ("is {value}", "应为{value}"),
    "phrase.expect-changes": ("changes", "变化"),
    "phrase.expect-grows": ("grows", "增大"),
    "phrase.expect-same": ("same", "不变"),
    "why.s-clamped": (
        "Why: S is set to {s} but the summary model can emit at most O = {o} tokens, so S is clamped to {o}.",
        "原因:S 设为 {s},但摘要模型最多只能输出 O = {o} tokens,S 被限幅为 {o}。",
    ),
    "why.rejected": (
        "Why: the request is not admitted (F > M), so nothing else can be compared.",
        "原因:请求未获准入(F > M),其他量无从比较。",
    ),
    "why.m-flat": (
        "Why: M did not grow; check the margin and the reply budget o against I.",
        "原因:M 没有增大;请检查安全余量与主回复额度 o 相对 I 的大小。",
    ),
    "why.check": (
        "{name}: expected {expected}, but it went from {before} to {after}.",
        "{name}:预期{expected},实际从 {before} 变为 {after}。",
    ),
    "warn.label": ("Warning", "警告"),
    "warn.k-at-or-above-m": (
        "K = {k} is at or above M = {m}: a request is rejected before the trigger "
        "can reach K, so compaction never starts in time.",
        "K = {k} 不低于 M = {m}:请求在触发线到达 K 之前就会被拒绝,压缩永远来不及开始。",
    ),
    "warn.s-at-or-above-k": (
        "S = {s} is at or above K = {k}: the summary alone fills the trigger line, "
        "so every request after the first summary is above K.",
        "S = {s} 不低于 K = {k}:仅摘要就占满触发线,第一次摘要之后的每个请求都高于 K。",
    ),
    "warn.k-far-below-peers": (
        "K = {k} is below a quarter of the lowest trigger line any other system "
        "uses for this model ({low}, {peer}): it compacts far earlier than any of them.",
        "K = {k} 低于其他系统对该模型所用最低触发线({peer} 的 {low})的四分之一:压缩远早于它们。",
    ),
    # A runtime that cannot run the model (runtimes/profiles.py ``runs``): its settings
    # would never meet this plan.
    "warn.runtime-not-for-model": (
        "The {runtime} runtime does not serve {model} (it runs {families} models only): "
        "this export would not apply.",
        "{runtime} 运行时不提供 {model}(它只运行 {families} 模型):此导出不会生效。",
    ),
    # A runtime that runs the model only through a compatible endpoint (runtimes/
    # profiles.py ``native``; docs/runtimes.md names each provider's own page).
    "warn.runtime-endpoint": (
        "{model} is not an Anthropic model: {runtime} reaches it only through an "
        "Anthropic-compatible endpoint set in ANTHROPIC_BASE_URL (DeepSeek, Zhipu GLM, "
        "Alibaba's Qwen and Moonshot's Kimi document one for their models; a router can "
        "serve others). For a model name it does not know, {runtime} assumes a {window}-token "
        "window (unofficial, from its source): where the model's window is smaller, "
        "CLAUDE_CODE_AUTO_COMPACT_WINDOW must say it (budgetcore's export writes it).",
        "{model} 不是 Anthropic 的模型:{runtime} 只能通过 ANTHROPIC_BASE_URL 指向的 "
        "Anthropic 兼容端点使用它(DeepSeek、智谱 GLM、阿里云通义千问和月之暗面 Kimi "
        "都为自家模型提供了这样的端点;路由服务可接入其他模型)。对不认识的模型名,"
        "{runtime} 假定窗口为 {window} tokens(非官方,来自其源码):模型窗口更小时,"
        "须用 CLAUDE_CODE_AUTO_COMPACT_WINDOW 写明(budgetcore 的导出会写入)。",
    ),
    "warn.s-above-o": (
        "S = {s} is above the summary model's output capacity O = {o}: it is clamped to S = {o}.",
        "S = {s} 超过摘要模型的输出能力 O = {o},将被限幅为 S = {o}。",
    ),
    # No-break spaces: a narrow readout breaks the line at the dot, never inside a half.
    "phrase.key-ab": ("pinned\u00a0{a} · change\u00a0{delta}", "固定\u00a0{a} · 变化\u00a0{delta}"),
    "why.coverage": ("the covered history is part of the history", "已覆盖的历史是历史的一部分"),
}
