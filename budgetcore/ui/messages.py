"""The one message catalogue: every user-visible string of the page, in both languages.

Keys are stable ids (``label.config.trigger_tokens``, ``problem.whole-range``); values
are (English, Chinese) with named ``{parameters}``. Numbers are formatted before they
reach a message (``budgetcore.units``), identically in both languages. Plurals are
rules (``count``), never string surgery, and a problem is data (a code and
parameters) rendered here in the reader's language.

Terminology follows the source article: 触发线 K, 摘要上限 S, 安全余量 m, 主调用安全输入
容量 M, 必需输入 F, 新增原文, 重压 (recompress), 准入 (admission).
"""

from __future__ import annotations

__all__ = ["CATALOGUE", "LANGS", "count", "t"]

LANGS = ("en", "zh")


def t(key: str, lang: str, **params: object) -> str:
    """The message ``key`` in ``lang`` with its parameters filled in.

    >>> t("msg.yes", "zh")
    '是'
    """
    text = CATALOGUE[key][1 if lang == "zh" else 0]
    return text.format(**params) if params else text


def count(key: str, n: int, lang: str, **params: object) -> str:
    """A counted phrase with the plural rule of ``lang`` (``{n}`` is formatted).

    >>> count("count.override", 1, "en"), count("count.override", 3, "en")
    ('1 override', '3 overrides')
    """
    form = "one" if n == 1 and lang != "zh" else "other"
    return t(f"{key}.{form}", lang, n=f"{n:,}", **params)


CATALOGUE: dict[str, tuple[str, str]] = {
    # -------- static
    "static.title": (
        "Compaction budget controller",
        "Compact 预算控制器",
    ),
    "static.lede": (
        "Move the trigger line K, the summary cap S, the margin and the workload; see what every other quantity does. All numbers are exact tokens computed locally — no model call, no network.",
        "调整触发线 K、摘要上限 S、安全余量与工作负载,查看其他各量如何变化。所有数字都是在本地计算的精确 tokens:不调用模型,不连接网络。",
    ),
    "static.lang-label": (
        "Language",
        "语言",
    ),
    "static.pin": (
        "Pin as A",
        "固定为 A",
    ),
    "static.unpin": (
        "Unpin A",
        "取消固定 A",
    ),
    "static.copy-link": (
        "Copy link",
        "复制链接",
    ),
    "static.reset": (
        "Reset",
        "重置",
    ),
    "static.stale": (
        "Showing the last valid plan — fix the highlighted field to update it.",
        "正在显示最后一次有效的计算结果:请修正标出的输入项以更新。",
    ),
    "static.lamp-trigger": (
        "Trigger reached",
        "达到触发线",
    ),
    "static.lamp-admitted": (
        "Admitted",
        "准入",
    ),
    "static.lamp-recompress": (
        "Recompress needed",
        "需要重压",
    ),
    "static.lamp-start": (
        "Summary will start",
        "将启动摘要",
    ),
    "static.start-summary": (
        "Why a summary does or does not start",
        "摘要为何启动或不启动",
    ),
    "static.start-text": (
        "Reaching K never rejects the reply and does not by itself start a summary. All must hold:",
        "达到 K 不会拒绝主回复,也不意味着当场生成摘要。以下条件须同时满足:",
    ),
    "static.lamp-work": (
        "Uncovered history to consume (or a recompress)",
        "有可推进的未覆盖历史(或需重压)",
    ),
    "static.experiments-h": (
        "Boundary experiments",
        "四个边界实验",
    ),
    "static.curves-h": (
        "Capacity curves: sweep one input",
        "容量曲线:扫描一个输入",
    ),
    "static.sweep": (
        "Sweep",
        "扫描",
    ),
    "static.from": (
        "from",
        "从",
    ),
    "static.to": (
        "to",
        "到",
    ),
    "static.samples-h": (
        "Bytes and time from your own samples",
        "根据自己的样本预测字节与耗时",
    ),
    "static.samples-note": (
        "Paste paired samples measured on your own store, one JSON object per line: channels text, bson, json (tokens, bytes), read (bytes, ms) and query (ms). A channel without samples predicts unknown — never a generic language ratio.",
        "粘贴在自己存储上测得的配对样本,每行一个 JSON 对象:通道 text、bson、json(tokens, bytes),read(bytes, ms)与 query(ms)。没有样本的通道显示未知,不用通用语言比例代替。",
    ),
    "static.samples-label": (
        "Samples (JSON Lines)",
        "样本(JSON Lines)",
    ),
    "static.example-samples": (
        "Load made-up example samples",
        "载入虚构的示例样本",
    ),
    "label.samples.tokens_per_message": (
        "Average tokens per message",
        "每条消息平均 tokens",
    ),
    "label.samples.messages_per_session": (
        "Messages per session",
        "每个 Session 的消息数",
    ),
    "static.config-h": (
        "Reviewed config: supported overrides only",
        "评审后的配置:只含运行端支持的覆盖项",
    ),
    "static.config-note": (
        "Only K, S, m, o and the runtime protections are runtime settings. Model contracts belong to the runtime's model registry and are never exported; apply the file by hand after review.",
        "只有 K、S、m、o 与运行保护是运行端设置。模型合同属于运行端的模型登记,从不导出;评审后请人工应用该文件。",
    ),
    "static.download": (
        "Download",
        "下载",
    ),
    "static.copy": (
        "Copy",
        "复制",
    ),
    "static.import-h": (
        "Import a config",
        "导入配置",
    ),
    "static.import-paste": (
        "Paste TOML or JSON",
        "粘贴 TOML 或 JSON",
    ),
    "static.import-file": (
        "or choose a file",
        "或选择文件",
    ),
    "static.import-apply": (
        "Apply import",
        "应用导入",
    ),
    "static.boot-loading": (
        "Loading the Python runtime:",
        "正在加载 Python 运行时:",
    ),
    # -------- msg
    "msg.link-problems": (
        "This link had values that could not be used; those fields show their defaults: ",
        "此链接中有无法使用的值,这些输入项已恢复默认值:",
    ),
    "msg.applied": (
        "Applied {n} override(s): {keys}.",
        "已应用 {n} 个覆盖项:{keys}。",
    ),
    "msg.copied": (
        "Copied.",
        "已复制。",
    ),
    "msg.link-copied": (
        "Link copied.",
        "链接已复制。",
    ),
    "msg.internal": (
        "Internal error: ",
        "内部错误:",
    ),
    "msg.sweep-order": (
        "sweep: 'from' must be below 'to'",
        "扫描:起点必须小于终点",
    ),
    "msg.list-sep": (
        "; ",
        "；",
    ),
    "msg.yes": (
        "yes",
        "是",
    ),
    "msg.no": (
        "no",
        "否",
    ),
    "msg.same": (
        "same",
        "相同",
    ),
    "msg.changed": (
        "changed",
        "变化",
    ),
    "msg.unknown": (
        "unknown",
        "未知",
    ),
    # -------- phrase
    "phrase.not": (
        "What this must not be read as: ",
        "不能据此解读为:",
    ),
    "phrase.off-scale": (
        "(off scale)",
        "(超出刻度)",
    ),
    "phrase.full-input": (
        "full input",
        "完整输入",
    ),
    "phrase.work-input": (
        "work input",
        "工作输入",
    ),
    "phrase.engine-drops": (
        "Engine drops the summary (A engine = 0)",
        "Engine 舍弃摘要(A engine = 0)",
    ),
    "phrase.preset": (
        "Preset",
        "预设",
    ),
    "phrase.custom": (
        "custom",
        "自定义",
    ),
    "phrase.same-contract": (
        "Same contract as the main model",
        "与主模型相同的合同",
    ),
    "phrase.slider": (
        " (coarse)",
        "(粗调)",
    ),
    "phrase.col-b": (
        "B (editing)",
        "B(编辑中)",
    ),
    "phrase.col-a": (
        "A (pinned)",
        "A(已固定)",
    ),
    "phrase.ratios": (
        "Bytes per token, per channel",
        "各通道每 token 字节数",
    ),
    "phrase.channel": (
        "channel",
        "通道",
    ),
    "phrase.samples": (
        "samples",
        "样本数",
    ),
    "phrase.pooled": (
        "pooled",
        "合并",
    ),
    "phrase.predicted": (
        "Predicted bytes: [floor(t × min), ceil(t × max)], ≈ pooled",
        "预测字节:[floor(t × min), ceil(t × max)],≈ 合并比例",
    ),
    "phrase.tokens": (
        "tokens",
        "tokens",
    ),
    "phrase.limits-caption": (
        "Prefetch limits as tokens, side by side",
        "预取限制折算为 tokens 并列比较",
    ),
    "phrase.limit": (
        "limit",
        "限制",
    ),
    "phrase.value": (
        "value",
        "取值",
    ),
    "phrase.equivalent": (
        "token equivalent",
        "折算 tokens",
    ),
    "phrase.basis": (
        "basis",
        "依据",
    ),
    "phrase.nothing-bites": (
        "Nothing bites: all uncovered history fits within every limit.",
        "没有限制先生效:全部未覆盖历史都在各项限制之内。",
    ),
    "phrase.first-bites": (
        "First to bite: {name}.",
        "最先生效的限制:{name}。",
    ),
    "phrase.does-not-bite": (
        "does not bite",
        "不会生效",
    ),
    "phrase.time": (
        "Prefetch of {tokens} tokens: {records}, {sessions}, {pages}, {dirs}; read time {read}.",
        "预取 {tokens} tokens:{records},{sessions},{pages},{dirs};读取耗时 {read}。",
    ),
    "phrase.no-overrides": (
        "No overrides: every supported setting is at its default.",
        "没有覆盖项:所有受支持的设置均为默认值。",
    ),
    "phrase.diff-head": (
        "key|default|reviewed|unit|meaning",
        "键|默认值|评审值|单位|含义",
    ),
    "phrase.watched": (
        "watched|A before|B after|expected|holds",
        "观察项|A 之前|B 之后|预期|成立",
    ),
    "phrase.holds": (
        "The stated outcome holds. A is pinned as the before, B shows the after.",
        "所述结果成立。A 固定为实验前,B 显示实验后。",
    ),
    "phrase.fails": (
        "The stated outcome does NOT hold. A is pinned as the before, B shows the after.",
        "所述结果不成立。A 固定为实验前,B 显示实验后。",
    ),
    "phrase.sweeping": (
        "Sweeping {name} from {low} to {high} ({n} points); everything else fixed",
        "扫描{name}:从 {low} 到 {high}({n} 个点),其他输入固定",
    ),
    "phrase.curves-caveat": (
        "raising the summary cap S can raise the main model's M — it never does; each panel has its own scale.",
        "调高摘要上限 S 可以提高主模型 M(它从不会);每个小图有各自的刻度。",
    ),
    "phrase.here": (
        "; here {value}",
        ";当前 {value}",
    ),
    "phrase.dark-yes": (
        "(dark = yes)",
        "(深色 = 是)",
    ),
    "phrase.trigger-reached": (
        "trigger reached",
        "达到触发线",
    ),
    "phrase.admitted": (
        "admitted",
        "准入",
    ),
    # -------- label
    "label.main_model.input_tokens": (
        "Input capacity I",
        "输入能力 I",
    ),
    # -------- hint
    "hint.main_model.input_tokens": (
        "tokens the model accepts",
        "模型可接收的 tokens",
    ),
    # -------- label
    "label.main_model.output_tokens": (
        "Output capacity O",
        "输出能力 O",
    ),
    # -------- hint
    "hint.main_model.output_tokens": (
        "tokens the model can emit",
        "模型可生成的 tokens",
    ),
    # -------- label
    "label.main_model.reserves_output": (
        "Reserves output in the window (q = 1)",
        "在窗口内预留生成额度(q = 1)",
    ),
    # -------- hint
    "hint.main_model.reserves_output": (
        "the local adapter subtracts the generation budget from I",
        "本地适配合同从 I 中扣除生成额度",
    ),
    # -------- label
    "label.summary_model.input_tokens": (
        "Input capacity I",
        "输入能力 I",
    ),
    # -------- hint
    "hint.summary_model.input_tokens": (
        "tokens the model accepts",
        "模型可接收的 tokens",
    ),
    # -------- label
    "label.summary_model.output_tokens": (
        "Output capacity O",
        "输出能力 O",
    ),
    # -------- hint
    "hint.summary_model.output_tokens": (
        "tokens the model can emit",
        "模型可生成的 tokens",
    ),
    # -------- label
    "label.summary_model.reserves_output": (
        "Reserves output in the window (q = 1)",
        "在窗口内预留生成额度(q = 1)",
    ),
    # -------- hint
    "hint.summary_model.reserves_output": (
        "the local adapter subtracts the generation budget from I",
        "本地适配合同从 I 中扣除生成额度",
    ),
    # -------- label
    "label.config.trigger_tokens": (
        "Trigger line K",
        "触发线 K",
    ),
    # -------- hint
    "hint.config.trigger_tokens": (
        "soft: above it, try to summarise later",
        "软线:超过后在之后尝试摘要",
    ),
    # -------- label
    "label.config.summary_max_tokens": (
        "Summary cap S",
        "摘要上限 S",
    ),
    # -------- hint
    "hint.config.summary_max_tokens": (
        "clamped by the summary model's O",
        "受摘要模型输出能力 O 限幅",
    ),
    # -------- label
    "label.config.safety_margin": (
        "Safety margin m",
        "安全余量 m",
    ),
    # -------- hint
    "hint.config.safety_margin": (
        "decimal in [0, 1), e.g. 0.10",
        "[0, 1) 之间的小数,如 0.10",
    ),
    # -------- label
    "label.config.reply_max_tokens": (
        "Reply budget o",
        "主回复生成额度 o",
    ),
    # -------- hint
    "hint.config.reply_max_tokens": (
        "main reply generation budget",
        "主回复的总生成额度",
    ),
    # -------- label
    "label.workload.required_tokens": (
        "Required input F",
        "必需输入 F",
    ),
    # -------- hint
    "hint.workload.required_tokens": (
        "rules, tool schemas, current input, working turn",
        "规则、工具 schema、本轮输入与工作轮",
    ),
    # -------- label
    "label.workload.summary_tokens": (
        "Summary + wrapper A (loader)",
        "摘要及包装 A(Loader)",
    ),
    # -------- hint
    "hint.workload.summary_tokens": (
        "as the loader costs it",
        "Loader 预留的成本",
    ),
    # -------- label
    "label.workload.engine_summary_tokens": (
        "Summary + wrapper A (engine)",
        "摘要及包装 A(Engine)",
    ),
    # -------- hint
    "hint.workload.engine_summary_tokens": (
        "empty = same as loader; 0 = engine drops it",
        "留空 = 与 Loader 相同;0 = Engine 舍弃摘要",
    ),
    # -------- label
    "label.workload.history_tokens": (
        "Uncovered history",
        "未覆盖历史",
    ),
    # -------- hint
    "hint.workload.history_tokens": (
        "raw history available to the main request",
        "主请求可用的原文历史",
    ),
    # -------- label
    "label.workload.summary_instruction_tokens": (
        "Summary instructions",
        "摘要指令",
    ),
    # -------- hint
    "hint.workload.summary_instruction_tokens": (
        "instructions and wrapper of the summary call",
        "摘要调用的指令与包装",
    ),
    # -------- label
    "label.workload.previous_summary_tokens": (
        "Previous summary",
        "旧摘要",
    ),
    # -------- hint
    "hint.workload.previous_summary_tokens": (
        "the current cumulative summary",
        "当前的累计摘要",
    ),
    # -------- label
    "label.workload.backlog_tokens": (
        "Backlog from c",
        "c 之后的积压",
    ),
    # -------- hint
    "hint.workload.backlog_tokens": (
        "empty = at least the budget",
        "留空 = 至少为额度",
    ),
    # -------- label
    "label.workload.usage_baseline_tokens": (
        "Provider usage baseline",
        "Provider 输入基准",
    ),
    # -------- hint
    "hint.workload.usage_baseline_tokens": (
        "empty = none (use the local estimate)",
        "留空 = 无(使用本地估算)",
    ),
    # -------- label
    "label.workload.replay_since_baseline_tokens": (
        "Replay since baseline",
        "基准之后的重放",
    ),
    # -------- hint
    "hint.workload.replay_since_baseline_tokens": (
        "tokens added after that baseline",
        "基准之后新增的 tokens",
    ),
    # -------- label
    "label.limits.directory_sessions_read": (
        "Directory sessions read",
        "目录访问 Session 数",
    ),
    # -------- hint
    "hint.limits.directory_sessions_read": (
        "sessions a full read may visit",
        "一次完整读取可访问的 Session 数",
    ),
    # -------- label
    "label.limits.raw_records_read": (
        "Raw records read",
        "原文控制记录数",
    ),
    # -------- hint
    "hint.limits.raw_records_read": (
        "raw message records a full read may admit",
        "一次完整读取可接纳的原文记录数",
    ),
    # -------- label
    "label.limits.directory_page_size": (
        "Directory page",
        "目录页",
    ),
    # -------- hint
    "hint.limits.directory_page_size": (
        "sessions per page",
        "每页 Session 数",
    ),
    # -------- label
    "label.limits.message_page_size": (
        "Message page",
        "消息页",
    ),
    # -------- hint
    "hint.limits.message_page_size": (
        "records per page",
        "每页记录数",
    ),
    # -------- label
    "label.limits.raw_bson_bytes": (
        "Raw BSON admitted",
        "原始 BSON 接纳量",
    ),
    # -------- hint
    "hint.limits.raw_bson_bytes": (
        "bytes (2 MiB = 2,097,152)",
        "字节(2 MiB = 2,097,152 字节)",
    ),
    # -------- label
    "label.limits.full_read_ms": (
        "Full read time",
        "完整读取时限",
    ),
    # -------- hint
    "hint.limits.full_read_ms": (
        "milliseconds",
        "毫秒",
    ),
    # -------- label
    "label.limits.single_query_ms": (
        "Single query time",
        "单次查询时限",
    ),
    # -------- hint
    "hint.limits.single_query_ms": (
        "milliseconds",
        "毫秒",
    ),
    # -------- label
    "label.limits.raw_bson_batch": (
        "Raw BSON batch",
        "原始 BSON 批量",
    ),
    # -------- hint
    "hint.limits.raw_bson_batch": (
        "records per driver batch",
        "驱动每批的记录数",
    ),
    # -------- label
    "label.limits.tool_result_tokens": (
        "Tool result cap in summary input",
        "摘要输入中的工具结果上限",
    ),
    # -------- hint
    "hint.limits.tool_result_tokens": (
        "tokens, each result",
        "tokens,每条结果",
    ),
    # -------- label
    "label.limits.recall_calls_per_request": (
        "History recall calls",
        "历史回查次数",
    ),
    # -------- hint
    "hint.limits.recall_calls_per_request": (
        "per request",
        "每个请求",
    ),
    # -------- label
    "label.limits.recall_pack_tokens": (
        "Recall pack",
        "回查返回包",
    ),
    # -------- hint
    "hint.limits.recall_pack_tokens": (
        "tokens per returned pack",
        "每个返回包的 tokens",
    ),
    # -------- label
    "label.limits.recall_slice_code_points": (
        "Recall slice",
        "回查单片段",
    ),
    # -------- hint
    "hint.limits.recall_slice_code_points": (
        "Unicode code points (not tokens)",
        "Unicode code points(不是 tokens)",
    ),
    # -------- label
    "label.limits.background_runs_per_process": (
        "Background runs",
        "后台执行数",
    ),
    # -------- hint
    "hint.limits.background_runs_per_process": (
        "per process",
        "每进程",
    ),
    # -------- label
    "label.limits.model_timeout_s": (
        "Model timeout",
        "模型超时",
    ),
    # -------- hint
    "hint.limits.model_timeout_s": (
        "seconds; <= run timeout",
        "秒;≤ 执行超时",
    ),
    # -------- label
    "label.limits.run_timeout_s": (
        "Run timeout",
        "执行超时",
    ),
    # -------- hint
    "hint.limits.run_timeout_s": (
        "seconds; < lease",
        "秒;< 租约",
    ),
    # -------- label
    "label.limits.lease_s": (
        "Lease",
        "租约",
    ),
    # -------- hint
    "hint.limits.lease_s": (
        "seconds",
        "秒",
    ),
    # -------- label
    "label.background.billing_recorded": (
        "Billing record valid",
        "原请求账单有效",
    ),
    "label.background.idle_slot": (
        "Idle background slot",
        "有空闲后台名额",
    ),
    "label.background.lease_acquired": (
        "Lease acquired",
        "已获得租约",
    ),
    # -------- group
    "group.main_model": (
        "Main model contract",
        "主模型合同",
    ),
    "group.summary_model": (
        "Summary model contract",
        "摘要模型合同",
    ),
    "group.config": (
        "Configured overrides",
        "配置覆盖项",
    ),
    "group.workload": (
        "Workload (scenario inputs)",
        "工作负载(场景输入)",
    ),
    "group.limits": (
        "Runtime protections",
        "运行保护",
    ),
    # -------- readout
    "readout.main_safe_input": (
        "M — main safe input",
        "M — 主调用安全输入容量",
    ),
    "readout.summary_cap": (
        "S — summary cap (effective)",
        "S — 摘要上限(生效值)",
    ),
    "readout.summary_generation": (
        "G — summary generation budget",
        "G — 摘要总生成额度",
    ),
    "readout.summary_safe_input": (
        "C — summary call safe input",
        "C — 摘要调用安全输入容量",
    ),
    "readout.summary_new_raw_budget": (
        "New raw budget max(0, min(64,000, C − E))",
        "新增原文额度 max(0, min(64,000, C − E))",
    ),
    "readout.summary_new_raw": (
        "New raw this round",
        "本轮新增原文",
    ),
    "readout.summary_work_input": (
        "Summary work input",
        "摘要工作输入",
    ),
    "readout.summary_work_total": (
        "Work input + G",
        "工作输入 + G",
    ),
    "readout.recompress_needed": (
        "Recompress needed",
        "需要重压",
    ),
    "readout.loader_prefetch_limit": (
        "Loader prefetch limit",
        "Loader 预取上界",
    ),
    "readout.prefetched": (
        "Prefetched",
        "已预取",
    ),
    "readout.summary_adopted": (
        "Summary adopted by the engine",
        "Engine 采用的摘要",
    ),
    "readout.engine_raw_headroom": (
        "Engine raw headroom",
        "Engine 原文余量",
    ),
    "readout.raw_selected": (
        "Raw selected",
        "实际选中原文",
    ),
    "readout.full_input": (
        "Full input",
        "完整输入",
    ),
    "readout.admitted": (
        "Admitted (F ≤ M)",
        "准入(F ≤ M)",
    ),
    "readout.soft_estimate": (
        "Soft estimate T",
        "软判断估算 T",
    ),
    "readout.trigger_reached": (
        "Trigger reached (T ≥ K)",
        "达到触发线(T ≥ K)",
    ),
    "readout.summary_cap_clamped": (
        "S clamped by the summary model",
        "S 被摘要模型限幅",
    ),
    "readout.summary_dropped": (
        "Engine dropped the summary",
        "Engine 舍弃了摘要",
    ),
    "readout.summary_will_start": (
        "Summary will start",
        "将启动摘要",
    ),
    # -------- chart
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
    # -------- seg
    "seg.main_safe_input": (
        "M",
        "M",
    ),
    "seg.loader_prefetch_limit": (
        "loader prefetch limit",
        "Loader 预取上界",
    ),
    "seg.prefetched": (
        "prefetched",
        "已预取",
    ),
    "seg.engine_raw_headroom": (
        "engine raw headroom",
        "Engine 原文余量",
    ),
    "seg.raw_selected": (
        "raw selected",
        "实际选中原文",
    ),
    "seg.required": (
        "F required",
        "必需输入 F",
    ),
    "seg.loader_reserve": (
        "A loader reserve",
        "Loader 预留 A",
    ),
    "seg.summary_adopted": (
        "A engine adopted",
        "Engine 采用 A",
    ),
    "seg.full_required": (
        "F",
        "F",
    ),
    "seg.full_summary": (
        "A",
        "A",
    ),
    "seg.full_raw": (
        "R",
        "R",
    ),
    "seg.instructions": (
        "instructions",
        "指令",
    ),
    "seg.previous_summary": (
        "previous summary",
        "旧摘要",
    ),
    "seg.new_raw": (
        "new raw",
        "新增原文",
    ),
    "seg.generation": (
        "G = S",
        "G = S",
    ),
    "seg.trigger": (
        "K",
        "K",
    ),
    "seg.summary_safe_input": (
        "C",
        "C",
    ),
    # -------- channel
    "channel.text": (
        "UTF-8 text",
        "UTF-8 正文",
    ),
    "channel.bson": (
        "BSON",
        "BSON",
    ),
    "channel.json": (
        "final model JSON",
        "最终模型 JSON",
    ),
    # -------- quantity
    "quantity.raw_selected": (
        "raw selected",
        "实际选中原文",
    ),
    "quantity.full_input": (
        "full input",
        "完整输入",
    ),
    "quantity.summary_work_input": (
        "summary work input",
        "摘要工作输入",
    ),
    "quantity.summary_cap": (
        "S (summary cap)",
        "S(摘要上限)",
    ),
    # -------- limit
    "limit.token_budget": (
        "token budget (loader prefetch limit)",
        "token 额度(Loader 预取上界)",
    ),
    "limit.raw_bson_bytes": (
        "raw BSON admitted",
        "原始 BSON 接纳量",
    ),
    "limit.raw_records_read": (
        "raw records read",
        "原文控制记录数",
    ),
    "limit.directory_sessions_read": (
        "directory sessions read",
        "目录访问 Session 数",
    ),
    "limit.full_read_ms": (
        "full read time",
        "完整读取时限",
    ),
    "limit.single_query_ms": (
        "single query time",
        "单次查询时限",
    ),
    # -------- sweep
    "sweep.config.summary_max_tokens": (
        "summary cap S",
        "摘要上限 S",
    ),
    "sweep.config.trigger_tokens": (
        "trigger line K",
        "触发线 K",
    ),
    "sweep.main_model.input_tokens": (
        "main model I",
        "主模型 I",
    ),
    "sweep.summary_model.input_tokens": (
        "summary model I",
        "摘要模型 I",
    ),
    "sweep.config.safety_margin": (
        "safety margin m",
        "安全余量 m",
    ),
    "sweep.workload.required_tokens": (
        "required input F",
        "必需输入 F",
    ),
    "sweep.workload.previous_summary_tokens": (
        "previous summary",
        "旧摘要",
    ),
    # -------- series
    "series.main_safe_input": (
        "M",
        "M",
    ),
    "series.full_input": (
        "full input",
        "完整输入",
    ),
    "series.summary_safe_input": (
        "C",
        "C",
    ),
    "series.summary_new_raw_budget": (
        "new raw budget",
        "新增原文额度",
    ),
    "series.summary_cap": (
        "S",
        "S",
    ),
    "series.summary_generation": (
        "G",
        "G",
    ),
    # -------- preset
    "preset.article": (
        "Article example: 1,048,576 / 65,536, q = 1",
        "文章示例: 1,048,576 / 65,536, q = 1",
    ),
    "preset.w200k": (
        "200,000 / 64,000, q = 1",
        "200,000 / 64,000, q = 1",
    ),
    "preset.w128k": (
        "131,072 / 16,384, q = 0",
        "131,072 / 16,384, q = 0",
    ),
    "preset.w32k": (
        "32,768 / 8,192, q = 1",
        "32,768 / 8,192, q = 1",
    ),
    # -------- override
    "override.config.trigger_tokens": (
        "Trigger line K: soft line above which a summary is tried later",
        "触发线 K:超过后尝试在之后缩减上下文的软线",
    ),
    "override.config.summary_max_tokens": (
        "Summary cap S: the most the cumulative summary may be (clamped by the summary model's output)",
        "摘要上限 S:累计摘要正文的最大值(受摘要模型输出能力限幅)",
    ),
    "override.config.safety_margin": (
        "Safety margin m applied to every safe input",
        "安全余量 m,作用于每个安全输入容量",
    ),
    "override.config.reply_max_tokens": (
        "Reply budget o: the main reply's generation budget",
        "主回复总生成额度 o",
    ),
    "override.limits.directory_sessions_read": (
        "Directory sessions a full read may visit",
        "一次完整读取可访问的目录 Session 数",
    ),
    "override.limits.raw_records_read": (
        "Raw message records a full read may admit",
        "一次完整读取可接纳的原文控制记录数",
    ),
    "override.limits.directory_page_size": (
        "Sessions per directory page",
        "目录每页 Session 数",
    ),
    "override.limits.message_page_size": (
        "Records per message page",
        "消息每页记录数",
    ),
    "override.limits.raw_bson_bytes": (
        "Raw BSON admitted before decoding (2 MiB = 2,097,152 bytes)",
        "解码前累计接纳的原始 BSON 字节数(2 MiB = 2,097,152 bytes)",
    ),
    "override.limits.full_read_ms": (
        "Time allowed for the whole prefetch read",
        "完整读取时限",
    ),
    "override.limits.single_query_ms": (
        "Time allowed for one query",
        "单次查询时限",
    ),
    "override.limits.raw_bson_batch": (
        "Raw BSON driver batch size",
        "原始 BSON 批量",
    ),
    "override.limits.tool_result_tokens": (
        "Cap on each tool result in the summary input",
        "摘要输入中每条工具结果的上限",
    ),
    "override.limits.recall_calls_per_request": (
        "History recall calls per real request",
        "每个真实请求的历史回查次数",
    ),
    "override.limits.recall_pack_tokens": (
        "Tokens per history recall return pack",
        "每次回查完整返回包的 tokens 上限",
    ),
    "override.limits.recall_slice_code_points": (
        "Unicode code points per recall slice (not tokens)",
        "单片段 Unicode code points 上限(不是 tokens)",
    ),
    "override.limits.background_runs_per_process": (
        "Background summary runs per process",
        "每进程后台执行数",
    ),
    "override.limits.model_timeout_s": (
        "Summary model call timeout (<= run timeout)",
        "摘要模型调用超时(≤ 执行超时)",
    ),
    "override.limits.run_timeout_s": (
        "Background run timeout (< lease)",
        "后台执行超时(< 租约)",
    ),
    "override.limits.lease_s": (
        "Compaction lease duration",
        "压缩租约期限",
    ),
    # -------- exp
    "exp.lower_k.title": (
        "1. Lower only K",
        "1. 只降低 K",
    ),
    "exp.lower_k.expect": (
        "Only K moves: a summary triggers more easily, and M, S, G and C do not change. If the required input alone is above K it fires every turn: check that there is history to advance, not only the lamp.",
        "只有 K 变化:摘要更容易触发,M、S、G、C 不变。如果必需输入本身就高于 K,摘要可能每轮触发;需检查是否还有可推进的历史,而不是只看触发灯。",
    ),
    "exp.lower_s.title": (
        "2. S from 16,384 to 8,192",
        "2. S 从 16,384 降为 8,192",
    ),
    "exp.lower_s.expect": (
        "With a 12,000-token previous summary, lowering S from 16,384 to 8,192 needs a recompress: new raw is 0 for this round and the coverage point c does not move. The old summary keeps being used while it fits.",
        "旧摘要为 12,000 tokens 时,把 S 从 16,384 降为 8,192 会出现重压需求:本轮新增原文为零,覆盖点 c 不变;旧摘要在放得下时继续使用。",
    ),
    "exp.raise_i.title": (
        "3. Raise only I",
        "3. 只增大模型 I",
    ),
    "exp.raise_i.expect": (
        "Doubling the main model's input capacity grows M, but not the 2 MiB read allowance, the read time limits or background concurrency: a bigger window does not read more history.",
        "主模型输入能力翻倍时 M 变大,但 2 MiB 读取量、读取时限和后台并发不会自动增长:更大窗口不等于一次读取更多历史。",
    ),
    "exp.f_above_m.title": (
        "4. F above M",
        "4. 把 F 提高到超过 M",
    ),
    "exp.f_above_m.expect": (
        "With the required input one token above M, the raw space is 0 and the request is rejected even with no history at all: a summary cannot fix an oversized required input.",
        "必需输入比 M 多一个 token 时,原文空间归零;即使没有任何历史,请求也无法发起。摘要不能解决过大的必需输入。",
    ),
    # -------- watch
    "watch.trigger_tokens": (
        "trigger line K",
        "触发线 K",
    ),
    "watch.main_safe_input": (
        "M",
        "M",
    ),
    "watch.summary_cap": (
        "S",
        "S",
    ),
    "watch.summary_generation": (
        "G",
        "G",
    ),
    "watch.summary_safe_input": (
        "C",
        "C",
    ),
    "watch.trigger_reached": (
        "trigger reached",
        "达到触发线",
    ),
    "watch.recompress_needed": (
        "recompress needed",
        "需要重压",
    ),
    "watch.summary_new_raw": (
        "new raw this round",
        "本轮新增原文",
    ),
    "watch.coverage_advances": (
        "coverage point c moves",
        "覆盖点 c 前移",
    ),
    "watch.raw_bson_bytes": (
        "raw BSON read allowance (bytes)",
        "原始 BSON 读取量(字节)",
    ),
    "watch.full_read_ms": (
        "full read time (ms)",
        "完整读取时限(毫秒)",
    ),
    "watch.single_query_ms": (
        "single query time (ms)",
        "单次查询时限(毫秒)",
    ),
    "watch.background_runs_per_process": (
        "background runs per process",
        "每进程后台执行数",
    ),
    "watch.admitted": (
        "admitted",
        "准入",
    ),
    "watch.engine_raw_headroom": (
        "engine raw headroom",
        "Engine 原文余量",
    ),
    "watch.raw_selected": (
        "raw selected",
        "实际选中原文",
    ),
}

# Units, counts, problems and the second edition's page texts.
CATALOGUE.update(
    {
        # -------- units (after a number; the field's unit in problems)
        "unit.tokens": ("tokens", "tokens"),
        "unit.records": ("records", "条记录"),
        "unit.sessions": ("sessions", "个 Session"),
        "unit.bytes": ("bytes", "字节"),
        "unit.ms": ("ms", "毫秒"),
        "unit.s": ("seconds", "秒"),
        "unit.calls": ("calls", "次调用"),
        "unit.runs": ("runs", "次执行"),
        "unit.code-points": ("code points", "个码点"),
        "unit.fraction": ("", ""),  # the margin: a bare decimal, no unit
        "unit.per-page": ("per page", "每页"),
        # -------- counts: .one / .other
        "count.override.one": ("{n} override", "{n} 个覆盖项"),
        "count.override.other": ("{n} overrides", "{n} 个覆盖项"),
        "count.session.one": ("{n} session", "{n} 个 Session"),
        "count.session.other": ("{n} sessions", "{n} 个 Session"),
        "count.record.one": ("{n} record", "{n} 条记录"),
        "count.record.other": ("{n} records", "{n} 条记录"),
        "count.message-page.one": ("{n} message page", "{n} 个消息页"),
        "count.message-page.other": ("{n} message pages", "{n} 个消息页"),
        "count.directory-page.one": ("{n} directory page", "{n} 个目录页"),
        "count.directory-page.other": ("{n} directory pages", "{n} 个目录页"),
        "count.unknown.record": ("records unknown", "记录数未知"),
        "count.unknown.session": ("sessions unknown", "Session 数未知"),
        "count.unknown.message-page": ("message pages unknown", "消息页数未知"),
        "count.unknown.directory-page": ("directory pages unknown", "目录页数未知"),
        "count.line.one": ("{n} line", "{n} 行"),
        "count.line.other": ("{n} lines", "{n} 行"),
        # -------- problems: {field} is the label the user sees; {got} is quoted input
        "problem.whole-range": (
            "{field} must be a whole number of {unit} from {low} to {high}; got {got}",
            "{field} 必须是 {low} 到 {high} 之间的整数({unit});收到 {got}",
        ),
        "problem.whole-range-or-empty": (
            "{field} must be a whole number of {unit} from {low} to {high}, or empty "
            "({empty}); got {got}",
            "{field}必须是 {low} 到 {high} 之间的整数({unit}),或留空({empty});收到 {got}",
        ),
        "problem.margin": (
            "{field} must be a decimal from 0 up to but not including 1, with at most "
            "{places} decimal places (for example 0.10); got {got}",
            "{field}必须是不小于 0 且小于 1 的小数,最多 {places} 位小数(例如 0.10);收到 {got}",
        ),
        "problem.average": (
            "{field} must be a number above 0 and at most {high}, with at most 6 decimal "
            "places, or empty (unknown); got {got}",
            "{field}必须是大于 0、不超过 {high}、最多 6 位小数的数,或留空(未知);收到 {got}",
        ),
        "problem.bool": ("{field} must be on or off; got {got}", "{field} 必须是开或关;收到 {got}"),
        "problem.at-most": (
            "{field} ({value}) must be at most {other} ({other_value}): {why}",
            "{field} ({value})必须不大于{other}({other_value}):{why}",
        ),
        "problem.less-than": (
            "{field} ({value}) must be less than {other} ({other_value}): {why}",
            "{field} ({value})必须小于{other}({other_value}):{why}",
        ),
        "why.timeouts": (
            "model timeout <= run timeout < lease",
            "模型超时 ≤ 执行超时 < 租约",
        ),
        "why.record-page": ("a message page fits within the record cap", "消息页须在记录上限之内"),
        "why.session-page": (
            "a directory page fits within the session cap",
            "目录页须在 Session 上限之内",
        ),
        "problem.sweep-order": (
            "Sweep: 'from' ({low}) must be below 'to' ({high})",
            "扫描:起点({low})必须小于终点({high})",
        ),
        # -------- the page's second edition
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
        "phrase.col-delta": ("B − A", "B − A"),
        "phrase.min": ("min", "最小"),
        "phrase.max": ("max", "最大"),
        "phrase.none": ("none", "无"),
        "phrase.empty": ("empty", "留空"),
        "phrase.ab-diff": ("Inputs where B differs from A (A → B):", "B 与 A 不同的输入(A → B):"),
        "phrase.ab-no-diff": (
            "B has the same inputs as A: edit a field to compare.",
            "B 与 A 的输入相同:修改输入项即可比较。",
        ),
        "phrase.expect-is": ("is {value}", "为 {value}"),
        "phrase.expect-changes": ("changes", "变化"),
        "phrase.expect-grows": ("grows", "增大"),
        "phrase.expect-same": ("same", "不变"),
        "why.s-clamped": (
            "Why: S is set to {s} but the summary model can emit at most O = {o} tokens, so S is "
            "clamped to {o}.",
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
        "phrase.import-replace": ("replace", "替换"),
        "phrase.import-merge": ("merge", "合并"),
        "phrase.import-mode": ("How to apply", "应用方式"),
        "phrase.import-mode-replace": (
            "Replace: the file becomes the whole override set (keys it omits go back to defaults)",
            "替换:文件即全部覆盖项(文件未写的键恢复默认值)",
        ),
        "phrase.import-mode-merge": (
            "Merge: only the keys in the file change",
            "合并:只修改文件中出现的键",
        ),
        "phrase.import-check": ("Preview import", "预览导入"),
        "phrase.import-preview": (
            "The file sets {n} ({mode}). Applying it changes:",
            "文件设置了 {n}({mode})。应用后将变化:",
        ),
        "phrase.import-empty-replace": (
            "The file sets no overrides: replacing puts every supported setting back to its "
            "default. Applying it changes:",
            "文件没有任何覆盖项:替换会把所有受支持的设置恢复为默认值。应用后将变化:",
        ),
        "phrase.import-empty-merge": (
            "The file sets no overrides: merging it changes nothing.",
            "文件没有任何覆盖项:合并不会改变任何设置。",
        ),
        "phrase.import-no-change": ("Nothing changes.", "没有任何变化。"),
        "phrase.import-head": ("key|now|after import", "键|当前|导入后"),
        "phrase.import-apply": ("Apply", "应用"),
        "phrase.import-cancel": ("Cancel", "取消"),
        "phrase.import-done": (
            "Applied ({mode}): the file set {n}: {keys}.",
            "已应用({mode}):文件设置了 {n}:{keys}。",
        ),
        "warn.s-above-o": (
            "Warning: S = {s} is above the summary model's output capacity O = {o}: it is "
            "clamped to S = {o}.",
            "警告:S = {s} 超过摘要模型的输出能力 O = {o},将被限幅为 S = {o}。",
        ),
        "msg.fix-first": (
            "Fix the highlighted fields first: the plan on screen is stale.",
            "请先修正标出的输入项:当前显示的结果已过期。",
        ),
        "msg.pin-stale": (
            "Cannot pin while the plan is stale: fix the highlighted fields first.",
            "结果已过期时不能固定:请先修正标出的输入项。",
        ),
        "msg.pinned": (
            "Pinned as A. Edit any field to compare B with it.",
            "已固定为 A。修改任意输入项即可与 B 比较。",
        ),
        "field.sweep.low": ("Sweep from", "扫描起点"),
        "field.sweep.high": ("Sweep to", "扫描终点"),
        "static.key-h": ("Key results", "关键结果"),
        "static.results-h": ("All results", "全部结果"),
        "static.inputs-h": ("Inputs", "输入"),
        "static.charts-h": ("Charts", "图表"),
        "static.ab-h": ("Compare: pin A, then edit B", "对比:固定 A,再编辑 B"),
        "static.experiments-note": (
            "Each experiment applies to the scenario on screen: it pins the before as A and "
            "shows the after as B. Reset first to start from the article's example.",
            "每个实验都作用于当前场景:实验前固定为 A,实验后显示为 B。先点“重置”可从文章示例开始。",
        ),
        "aria.lamps": ("Lamps", "指示灯"),
        "aria.inputs": ("Scenario inputs", "场景输入"),
        "aria.plan": ("Plan", "计算结果"),
        "aria.export-format": ("Export format", "导出格式"),
        "aria.exported": ("Exported overrides", "导出的覆盖项"),
        "aria.loading": ("Loading", "加载中"),
        "phrase.key-ab": ("A {a} · B − A {delta}", "A {a} · B − A {delta}"),
        # -------- how each prefetch limit becomes tokens (budgetcore.core.protections)
        "basis.token_budget": (
            "loader prefetch limit = max(0, M − A loader)",
            "Loader 预取上界 = max(0, M − A loader)",
        ),
        "basis.raw_bson_bytes": (
            "bytes ÷ the most BSON bytes per token seen",
            "字节数 ÷ 样本中每 token 最多的 BSON 字节数",
        ),
        "basis.raw_records_read": ("records × tokens per message", "记录数 × 每条消息 tokens"),
        "basis.directory_sessions_read": (
            "sessions × messages per session × tokens per message",
            "Session 数 × 每 Session 消息数 × 每条消息 tokens",
        ),
        "basis.full_read_ms": (
            "the largest read whose slowest predicted time fits",
            "最慢预测耗时仍在时限内的最大读取量",
        ),
        "basis.full_read_ms-query": (
            "the largest read whose slowest predicted time fits (with the slowest query for every page read)",
            "最慢预测耗时仍在时限内的最大读取量(每读一页计入最慢的一次查询)",
        ),
        "basis.single_query_ms": (
            "one message page takes up to {ms} ms",
            "一个消息页最多耗时 {ms} 毫秒",
        ),
        "needs.bson": ("needs BSON samples", "需要 BSON 样本"),
        "needs.tpm": ("needs tokens per message", "需要每条消息的 tokens"),
        "needs.tpm-mps": (
            "needs tokens per message and messages per session",
            "需要每条消息的 tokens 与每个 Session 的消息数",
        ),
        "needs.bson-read": (
            "needs BSON samples and (bytes, ms) read samples",
            "需要 BSON 样本与(字节, 毫秒)读取样本",
        ),
        "needs.tpm-pages": (
            "needs tokens per message to count the pages queried",
            "需要每条消息的 tokens 才能计算查询的页数",
        ),
        # -------- core problems (budgetcore.errors.Problem.code), {where} and {got}
        "where.field": ("{label} ({path})", "{label}({path})"),
        "where.line": ("line {n}", "第 {n} 行"),
        "where.scenario": ("The scenario", "场景"),
        "where.config": ("The config file", "配置文件"),
        "where.page": ("The page", "页面"),
        "core.whole": (
            "{where} must be a whole number from {low} to {high}; got {got}",
            "{where} 必须是 {low} 到 {high} 之间的整数;收到 {got}",
        ),
        "core.whole-or-null": (
            "{where} must be a whole number from {low} to {high}, or empty; got {got}",
            "{where} 必须是 {low} 到 {high} 之间的整数,或留空;收到 {got}",
        ),
        "core.margin": (
            "{where} must be a decimal from 0 up to but not including 1, with at most 28 decimal places; got {got}",
            "{where} 必须是不小于 0 且小于 1 的小数,最多 28 位小数;收到 {got}",
        ),
        "core.bool": (
            "{where} must be true or false; got {got}",
            "{where} 必须是 true 或 false;收到 {got}",
        ),
        "core.average": (
            "{where} must be a number above 0 and at most {high}, with at most 6 decimal places, or empty; got {got}",
            "{where} 必须是大于 0、不超过 {high}、最多 6 位小数的数,或留空;收到 {got}",
        ),
        "core.utf8": (
            "{where} must be UTF-8 text (byte {byte} is not)",
            "{where} 必须是 UTF-8 文本(第 {byte} 字节不是)",
        ),
        "core.json": (
            "{where} is not valid JSON: {detail} at line {at_line}, column {at_column}",
            "{where} 不是有效的 JSON:第 {at_line} 行第 {at_column} 列{detail}",
        ),
        "core.json-deep": (
            "{where} is not valid JSON: nested too deeply",
            "{where} 不是有效的 JSON:嵌套过深",
        ),
        "core.toml": (
            "{where} is not valid TOML at line {at_line}, column {at_column}",
            "{where} 不是有效的 TOML:第 {at_line} 行第 {at_column} 列有误",
        ),
        "core.toml-duplicate": ("{where} sets the same key twice", "{where} 重复设置了同一个键"),
        "core.toml-deep": (
            "{where} is not valid TOML: nested too deeply",
            "{where} 不是有效的 TOML:嵌套过深",
        ),
        "core.toml-digits": (
            "{where} is not valid TOML: a number has too many digits",
            "{where} 不是有效的 TOML:数字位数过多",
        ),
        "core.table": (
            "{where} must be a table of overrides; got {got}",
            "{where} 必须是覆盖项的表;收到 {got}",
        ),
        "core.object": (
            "{where} must be a JSON object; got {got}",
            "{where} 必须是 JSON 对象;收到 {got}",
        ),
        "core.array": (
            "{where} must be a JSON array; got {got}",
            "{where} 必须是 JSON 数组;收到 {got}",
        ),
        "core.duplicate": ("{where} appears more than once", "{where} 出现了不止一次"),
        "core.unknown-key": (
            "{where} is not a known key; got {got}",
            "{where} 不是已知的键;收到 {got}",
        ),
        "core.required": ("{where} is required", "{where} 是必填项"),
        "core.not-channel-field": (
            "{where} is not a field of this channel; got {got}",
            "{where} 不是该通道的字段;收到 {got}",
        ),
        "core.channel": (
            "{where}: the channel must be one of {channels}; got {got}",
            "{where}:channel 必须是以下之一:{channels};收到 {got}",
        ),
        "core.sample-list": (
            "{where} must be a list like 812:3310,1500:6480; got {got}",
            "{where} 必须是形如 812:3310,1500:6480 的列表;收到 {got}",
        ),
        "core.not-field": (
            "{where} is not a scenario field; got {got}",
            "{where} 不是场景输入项;收到 {got}",
        ),
        "core.needs-value": (
            "{where} needs a value (path=value)",
            "{where} 需要一个值(path=value)",
        ),
        "core.model-contract": (
            "{where} is a model contract value: the runtime's model registry owns it, and this config cannot change it",
            "{where} 是模型合同的值:由运行端的模型登记管理,此配置不能修改它",
        ),
        "core.work-cap": (
            "{where} is the built-in 64,000-token work cap and cannot be configured",
            "{where} 是内置的 64,000 tokens 工作量上限,不可配置",
        ),
        "core.scenario-input": (
            "{where} is a scenario input, not a runtime setting",
            "{where} 是场景输入,不是运行端设置",
        ),
        "core.not-override": (
            "{where} is not a supported override; got {got}",
            "{where} 不是受支持的覆盖项;收到 {got}",
        ),
        "core.at-most": (
            "{where} ({value}) must be at most {other} ({other_value}): {why}",
            "{where} ({value})必须不大于{other}({other_value}):{why}",
        ),
        "core.less-than": (
            "{where} ({value}) must be less than {other} ({other_value}): {why}",
            "{where} ({value})必须小于{other}({other_value}):{why}",
        ),
        "core.model-name": (
            "{where} must be a model name of the registry; got {got}",
            "{where} 必须是模型登记中的模型名;收到 {got}",
        ),
        "core.unknown-model": (
            "{where} must name a chat model of the {release} registry (near matches: {near}); got {got}",
            "{where} 必须是 {release} 登记中的对话模型(相近的名称:{near});收到 {got}",
        ),
        "core.dropped": (
            "{sentence} (not used from the link: {fields})",
            "{sentence}(链接中未采用:{fields})",
        ),
        "core.page-invalid": (
            "The page has invalid fields: fix them before importing",
            "页面有无效的输入项:请先修正再导入",
        ),
        "json.expecting-value": ("a value was expected", "此处应为一个值"),
        "json.expecting-name": ("a key in double quotes was expected", "此处应为带双引号的键"),
        "json.expecting-colon": ("':' was expected", "此处应为 ':'"),
        "json.expecting-comma": ("',' was expected", "此处应为 ','"),
        "json.unterminated-string": ("a string is not closed", "字符串未结束"),
        "json.control-character": ("a control character is not allowed", "不允许控制字符"),
        "json.bad-escape": ("an escape sequence is invalid", "转义序列无效"),
        "json.extra-data": ("there is more after the value", "值之后还有多余内容"),
        "json.trailing-comma": ("a comma before the end is not allowed", "结尾前不允许逗号"),
        "json.other": ("the text cannot be read", "无法解析该文本"),
        "problem.internal": (
            "Something went wrong on this page ({detail}); nothing was changed. Reset or "
            "reload the page.",
            "页面出错({detail}),未做任何更改。请重置或重新加载页面。",
        ),
    }
)


# Chart texts of budgetcore.ui.svg (axes, legends, A/B, caveats per swept input).
CATALOGUE.update(
    {
        "axis.tokens": ("tokens", "tokens"),
        "axis.swept": ("{name} ({unit})", "{name}({unit})"),
        # -------- bars, reference lines and the A/B legend
        "chart.value": ("{name} {value}", "{name} {value}"),
        "chart.value.ab": ("{name} {value} (A {a})", "{name} {value}(A {a})"),
        "chart.ref.a": ("{name} (A) {value}", "{name}(A){value}"),
        "chart.stack": ("{name} {value} = {parts}", "{name} {value} = {parts}"),
        "chart.legend.a": ("A (pinned, outline)", "A(已固定,轮廓)"),
        "chart.legend.b": ("B (editing, filled)", "B(编辑中,实心)"),
        "chart.beyond": ("{name} {value}: beyond the axis →", "{name} {value}:超出坐标轴 →"),
        "chart.beyond.legend": (
            "{name} {value} lies beyond the axis end ({end} tokens): its arrow is not drawn "
            "to scale.",
            "{name} {value} 超出坐标轴终点({end} tokens):箭头不按比例绘制。",
        ),
        # -------- capacity curves
        "curves.aria": ("Capacity curves", "容量曲线"),
        "curves.state": ("{name} {dark}", "{name}{dark}"),
        "curves.marker": (
            "Marker: this scenario's {name} = {value}; the numbers beside it are this "
            "scenario's exact readouts.",
            "标记:本场景的{name} = {value};旁边的数字是本场景的精确读数。",
        ),
        "curves.outside": (
            "This scenario's {name} ({value}) is outside the swept range, so no marker is drawn.",
            "本场景的{name}({value})不在扫描范围内,因此没有标记。",
        ),
        "curves.scales": (
            "Each panel has its own y scale, from 0, in tokens; the x axis is shared.",
            "每个小图有各自的纵轴刻度,从 0 开始,单位 tokens;横轴共用。",
        ),
        "curves.log-zero": (
            "The x axis is logarithmic from 1; 0 sits apart, left of the break.",
            "横轴从 1 起为对数刻度;0 单独放在断口左侧。",
        ),
        # -------- what each sweep must not be read as (after phrase.not)
        "curves.not.config.summary_max_tokens": (
            "Raising the summary cap S does not raise M: the main request's capacity does "
            "not depend on S. S moves only the summary call (G = S, and C when the summary "
            "model reserves its output).",
            "调高摘要上限 S 不会提高 M:主请求容量与 S 无关。S 只影响摘要调用(G = S;"
            "摘要模型预留输出时还有 C)。",
        ),
        "curves.not.config.trigger_tokens": (
            "Lowering K does not change M, S, G or C, and reaching K does not by itself "
            "start a summary: K only moves where the trigger fires.",
            "降低 K 不会改变 M、S、G、C;达到 K 本身也不会启动摘要:K 只改变触发的位置。",
        ),
        "curves.not.main_model.input_tokens": (
            "A bigger main window grows M, not the read protections (2 MiB, read time, "
            "records) or background concurrency: the full input stays what was actually read.",
            "主模型窗口变大只会增大 M,不会增大读取保护(2 MiB、读取时限、记录数)和后台"
            "并发:完整输入仍是实际读到的内容。",
        ),
        "curves.not.summary_model.input_tokens": (
            "A bigger summary window grows C (and the new raw budget, up to the work cap), "
            "not M or S: the summary body stays capped by S.",
            "摘要模型窗口变大只会增大 C(以及新增原文额度,最多到工作上限),不会改变 M 或 S:"
            "摘要正文仍受 S 限制。",
        ),
        "curves.not.config.safety_margin": (
            "A smaller margin is not free capacity: M and C shrink as m grows and grow as "
            "it falls, because the margin is the room kept for estimate errors. K and S do "
            "not move.",
            "更小的安全余量不是白得的容量:m 增大时 M 和 C 变小,m 减小时变大,因为余量是为"
            "估算误差保留的空间。K 和 S 不变。",
        ),
        "curves.not.workload.required_tokens": (
            "Raising F does not raise M: above M the request is rejected even with no "
            "history, and a summary cannot fix an oversized required input.",
            "提高 F 不会提高 M:F 超过 M 时,即使没有历史,请求也会被拒绝;摘要不能解决过大"
            "的必需输入。",
        ),
        "curves.not.workload.previous_summary_tokens": (
            "A longer previous summary does not change M or S, and the main request does not "
            "grow with it here; above S it forces a recompress (no new raw that round).",
            "更长的旧摘要不会改变 M 或 S,这里主请求也不会随之变大;超过 S 时需要重压(该轮"
            "没有新增原文)。",
        ),
    }
)

# -------- Model pickers (LiteLLM registry) and the peers' trigger lines (issue 11, page)
CATALOGUE.update(
    {
        "picker.label": ("Model from the registry", "从模型注册表选择"),
        "picker.meta": ("{provider} · I {i} · O {o}", "{provider} · I {i} · O {o}"),
        "picker.loading": ("Loading the model registry…", "正在加载模型注册表……"),
        "picker.type": (
            "Type {n} letters or more to search {total} models ({release}, {retired} of them "
            "retired models from older releases); ↑ ↓ move, Enter chooses, Esc closes.",
            "输入至少 {n} 个字符,在 {total} 个模型中搜索({release},其中 {retired} 个是取自旧版本的"
            "已退役模型);↑ ↓ 移动,Enter 选择,Esc 关闭。",
        ),
        "picker.none": ("No model matches “{query}”.", "没有与“{query}”匹配的模型。"),
        "picker.some": (
            "The best {shown} of {total} matches: type more to narrow them.",
            "共 {total} 个匹配,显示最相关的 {shown} 个:继续输入可缩小范围。",
        ),
        "picker.all.one": ("{n} match.", "{n} 个匹配。"),
        "picker.all.other": ("{n} matches.", "{n} 个匹配。"),
        "picker.custom": (
            "Custom: I or O edited by hand after choosing {name}.",
            "自定义:选择 {name} 后手动修改了 I 或 O。",
        ),
        "picker.contract": ("({provider}): I {i}, O {o}", "({provider}):I {i},O {o}"),
        "picker.prices": (
            "USD per 1,000,000 tokens: input {input} · output {output} · cache read {read} · "
            "cache write {write}",
            "每 1,000,000 tokens 美元价格:输入 {input} · 输出 {output} · 缓存读取 {read} · "
            "缓存写入 {write}",
        ),
        "picker.release": (
            "From the {release} registry; q (output reserve) stays your choice.",
            "数据来自 {release} 注册表;q(输出预留)仍由你决定。",
        ),
        "static.peers-h": (
            "Where other agent systems would compact",
            "其他 Agent 系统会在哪里压缩",
        ),
        "static.peers-unit": ("Show lines in", "显示单位"),
        "static.peers-tokens": ("tokens", "tokens"),
        "static.peers-percent": ("% of the window", "窗口百分比"),
        "peers.loading": ("Loading the peers' rules…", "正在加载各系统的规则……"),
        "peers.h": ("Peers' trigger lines", "各系统的触发线"),
        "peers.title": (
            "Trigger lines for this main model: W = {w}, O = {o}",
            "当前主模型的触发线:W = {w},O = {o}",
        ),
        "peers.title-model": (
            "Trigger lines for {model}: W = {w}, O = {o}",
            "{model} 的触发线:W = {w},O = {o}",
        ),
        "peers.row": ("{name}: {value} ({other})", "{name}:{value}({other})"),
        "peers.row-none": ("{name}: {why}", "{name}:{why}"),
        "peers.article-row": (
            "Context-layers article: clean {clean}, compact {compact}, hard {hard}",
            "上下文分层文章:清理 {clean},压缩 {compact},硬线 {hard}",
        ),
        "peers.line.trigger": ("K, this scenario's trigger", "K,本场景的触发线"),
        "peers.line.main_safe_input": ("M, main safe input", "M,主调用安全输入容量"),
        "peers.line.hard": ("Hard line (W − output reserve)", "硬线(W − 输出预留)"),
        "peers.line.clean": ("Clean line (70 % of W)", "清理线(W 的 70 %)"),
        "peers.line.compact": ("Compact line (83.5 % of W)", "压缩线(W 的 83.5 %)"),
        "peers.line-short.clean": ("clean", "清理"),
        "peers.line-short.compact": ("compact", "压缩"),
        "peers.line-short.hard": ("hard", "硬线"),
        "peers.no-line.events": (
            "counts events, not tokens: no token line",
            "按事件计数而非 token:没有 token 线",
        ),
        "peers.no-line.none": (
            "does not fire by default: no token line",
            "默认不触发:没有 token 线",
        ),
        "peers.mark-reported": ("reported only", "仅为转述"),
        "peers.mark-beyond": ("beyond W: never reached", "超过 W:永远达不到"),
        "peers.mark-clamped": ("below 0: fires at once", "低于 0:立即触发"),
        "peers.axis-percent": ("% of the window W", "占窗口 W 的百分比"),
        "peers.legend.code": ("read in the code", "读自代码"),
        "peers.legend.docs": ("read in the docs", "读自文档"),
        "peers.legend.reported": (
            "reported only (hatched): not read in source or docs",
            "仅为转述(斜线):未在源码或文档中读到",
        ),
        "peers.gap": (
            "{low} → {high}: {tokens} tokens, {what}",
            "{low} → {high}:{tokens} tokens,{what}",
        ),
        "peers.gap.clean": ("room for several steps before compacting", "压缩前还能再走几步"),
        "peers.gap.compact": ("room for the summary call and the reply", "留给摘要调用与回答"),
        "peers.head": (
            "System|Evidence|Trigger line (tokens)|% of W|Rule|Keeps verbatim",
            "系统|依据|触发线(tokens)|占 W|规则|原样保留",
        ),
        "peers.cap": ("summary cap {cap} tokens", "摘要上限 {cap} tokens"),
        "peers.caption": ("Every system, with its source", "各系统及其来源"),
        "peers.ref-caption": ("This scenario's and the article's lines", "本场景与文章的各条线"),
        "peers.ref-head": ("Line|Tokens|% of W|From", "线|Tokens|占 W|来自"),
        "peers.group.scenario": ("this scenario", "本场景"),
        "peers.group.article": ("context-layers article", "上下文分层文章"),
        "peers.rounding": (
            "Token lines are the exact formula values floored to whole tokens; shares of W "
            "are rounded half-even to one decimal.",
            "token 线是公式精确值向下取整到整 token;占 W 的百分比按银行家舍入保留一位小数。",
        ),
        "peers.not": (
            "a peer's trigger line is where it starts compacting, not its M or its S; none "
            "of these systems separates the main request's safe input M, the trigger K and "
            "the summary cap S, and their defaults were not chosen for this scenario.",
            "各系统的触发线只是它们开始压缩的位置,不是它们的 M 或 S;这些系统都没有把主请求"
            "安全输入 M、触发线 K 与摘要上限 S 分开,它们的默认值也不是为本场景选的。",
        ),
    }
)


# -------- instant first view (the build's pre-rendered page, before Python is ready)
CATALOGUE.update(
    {
        "static.boot-waking": (
            "The numbers below are exact; the controls wake up when it is ready.",
            "下方数字已是精确值;运行时就绪后即可操作控件。",
        ),
        "static.boot-link": (
            "The readouts wait for this link's scenario.",
            "读数正在等待此链接的场景。",
        ),
    }
)

# -------- session replay panel (docs/spec.md §12): the replay panel's form, charts and tables
CATALOGUE.update(
    {
        "static.replay-h": (
            "Session replay: a conversation over time",
            "会话回放:随时间推进的对话",
        ),
        "replay.intro": (
            "Runs a whole session through this scenario, one plan per turn: where the "
            "trigger fires, what each summary run consumes, what the model never sees, "
            "what it costs. Computed only while this panel is open.",
            "用本场景逐轮回放整个会话(每轮一次规划):触发线在哪里触发、每次摘要消耗多少、"
            "模型看不到哪些历史、花费多少。只在本面板打开时计算。",
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
            "Claude Code session JSONL or Codex CLI rollout JSONL (read on this device; "
            "only token counts are kept)",
            "Claude Code 会话 JSONL 或 Codex CLI rollout JSONL(在本机读取;只保留 token 数)",
        ),
        "replay.scrub-label": ("Turn shown below", "下方显示的轮次"),
        "replay.options": ("Replay options", "回放选项"),
        "label.replay.turns": ("Turns", "轮数"),
        "label.replay.seed": ("Seed", "种子"),
        "label.replay.dist": ("Added tokens per turn", "每轮新增 token"),
        "label.replay.low": ("Added: low (or the fixed value)", "新增:下限(或固定值)"),
        "label.replay.high": ("Added: high", "新增:上限"),
        "label.replay.burst_rate": (
            "Tool-output burst chance per turn (empty: none)",
            "每轮工具输出突增概率(留空:无)",
        ),
        "label.replay.burst_tokens": ("Burst size", "突增大小"),
        "label.replay.summary_ratio": (
            "Summary size ratio r (empty: a run writes S)",
            "摘要大小比例 r(留空:每次写满 S)",
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
        "unit.turns": ("turns", "轮"),
        "problem.replay-dist": (
            "{field} must be fixed, uniform or triangular; got {got}",
            "{field}必须是固定、均匀分布或三角分布;收到 {got}",
        ),
        "problem.replay-fraction": (
            "{field} must be a decimal from 0 to 1 with at most 30 decimal places, or empty; got {got}",
            "{field}必须是 0 到 1 之间、最多 30 位小数的小数,或留空;收到 {got}",
        ),
        "problem.replay-seed": (
            "{field} must be a whole number from 0 to {high}; got {got}",
            "{field}必须是 0 到 {high} 之间的整数;收到 {got}",
        ),
        "problem.replay-order": (
            "{field} ({high}) must be at least the low value ({low})",
            "{field}({high})必须不小于下限({low})",
        ),
        "core.replay-no-turns": (
            "{where}: paste at least one turn line",
            "{where}:请至少粘贴一行轮次",
        ),
        "core.replay-no-log": ("{where}: choose a log file", "{where}:请选择日志文件"),
        "where.turns": ("Turns", "轮次"),
        "where.log": ("Log file", "日志文件"),
        "replay.stale": (
            "The replay waits for valid inputs: fix the highlighted field.",
            "回放等待有效输入:请修正标出的字段。",
        ),
        "replay.timeline.title": (
            "Full input per turn against K and M",
            "每轮完整输入与 K、M 的对比",
        ),
        "replay.timeline.not": (
            "a prediction of a real session's sizes: each turn is this scenario's plan of "
            "the turns given, and a log's own compactions are what that agent did, not what "
            "these settings would do to it.",
            "对真实会话大小的预测:每一轮都是本场景对给定轮次的规划;日志里的压缩是那个智能体"
            "实际做的,不是这些设置会对它做的。",
        ),
        "replay.axis": ("turn", "轮次"),
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
        "replay.legend.log_context": ("the log's measured context", "日志实测的上下文"),
        "replay.legend.cost": ("billed per turn", "每轮计费"),
        "replay.legend.cumulative": ("cumulative (own scale)", "累计(独立刻度)"),
        "replay.note.off-scale": (
            "Far above the data, so not drawn (tokens): {names}.",
            "远高于数据,因此未绘制(tokens):{names}。",
        ),
        "replay.cost.title": ("Cost per turn and cumulative", "每轮花费与累计"),
        "replay.cost.unit-tokens": ("tokens billed", "计费 tokens"),
        "replay.cost.unit-money": ("money", "金额"),
        "replay.cost.axis": (
            "{unit} per turn; cumulative total {total}",
            "每轮{unit};累计 {total}",
        ),
        # The same title on two lines, where one line is wider than a phone's chart.
        "replay.cost.axis-turn": ("{unit} per turn", "每轮{unit}"),
        "replay.cost.axis-total": ("cumulative total {total}", "累计 {total}"),
        "replay.cost.tokens-only": (
            "Tokens only: this scenario names no model with prices, so no money is shown.",
            "仅 tokens:本场景未指定带价格的模型,因此不显示金额。",
        ),
        "replay.cost.priced": (
            "Priced with the model's per-token prices.",
            "按模型的每 token 价格计价。",
        ),
        "replay.cost.not": (
            "an invoice: a turn with a summary call shows its whole bill, not spread over "
            "the turns it serves, and billed tokens are this model of the requests.",
            "账单:有摘要调用的轮次显示其全部费用,不分摊到它服务的轮次;计费 tokens 来自本模型"
            "对请求的推算。",
        ),
        "replay.summary.caption": ("Session summary", "会话汇总"),
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
        "replay.log.none": ("Choose a log file to replay it.", "请选择要回放的日志文件。"),
        "replay.log.unusable": (
            "This file cannot be replayed ({name}):",
            "无法回放此文件({name}):",
        ),
        "replay.log.read": (
            "{name}: {fmt}, {requests} in the main series, {duplicates} repeated entries dropped.",
            "{name}:{fmt},主序列 {requests},丢弃重复条目 {duplicates} 个。",
        ),
        "replay.log.format.claude-code": ("Claude Code session", "Claude Code 会话"),
        "replay.log.format.codex": ("Codex CLI rollout", "Codex CLI rollout"),
        "replay.log.other-series": (
            "Other series (not replayed here): {names}",
            "其他序列(此处不回放):{names}",
        ),
        "replay.log.skipped": (
            "{n} malformed lines skipped, by line number: {lines}",
            "跳过 {n} 行格式错误的内容,行号:{lines}",
        ),
        "replay.log.compaction": (
            "line {line}: compacted after turn {turn} (trigger {trigger}, preTokens {pre})",
            "第 {line} 行:第 {turn} 轮后压缩(触发方式 {trigger},preTokens {pre})",
        ),
        "replay.log.kept": (
            "Only token counts and the model name were kept; message text was dropped as "
            "the file was read and nothing was sent anywhere.",
            "只保留了 token 数与模型名;读取时已丢弃消息文本,没有发送任何内容。",
        ),
        # ---- logs and measured usage (issue 21)
        "replay.file-label-many": ("Log files", "日志文件"),
        "replay.folder-label": ("or a folder of sessions", "或一个会话文件夹"),
        "count.file.one": ("{n} file", "{n} 个文件"),
        "count.file.other": ("{n} files", "{n} 个文件"),
        "replay.logs.read": (
            "{name}: {fmt}, {files}; {requests} on the replayed branch, {abandoned} on "
            "abandoned branches, {other} in other series (subagents); {copies} copies folded.",
            "{name}:{fmt},{files};回放分支上 {requests},废弃分支上 {abandoned} 个,其他序列"
            "(子代理)中 {other} 个;合并重复副本 {copies} 个。",
        ),
        "replay.logs.unknown": ("unknown", "未知"),
        "replay.logs.copy.request": ("the same response written again", "同一响应的再次写入"),
        "replay.logs.copy.main": (
            "a subagent replaying a main response",
            "子代理重放的主会话响应",
        ),
        "replay.logs.copy.same-totals": (
            "token_count repeating the previous totals",
            "重复上一累计值的 token_count",
        ),
        "replay.logs.copy.parent": (
            "token_count copied from the parent session",
            "从父会话复制的 token_count",
        ),
        "replay.logs.at-least": ("unknown (at least {cost})", "未知(至少 {cost})"),
        "replay.logs.unnamed": ("(unnamed)", "(未命名)"),
        "replay.logs.unusable-short": ("cannot be replayed", "无法回放"),
        "replay.logs.total": ("total of {n} sessions", "{n} 个会话合计"),
        "replay.logs.total-row": ("total", "合计"),
        "replay.logs.sessions": (
            "Sessions (choose one to replay it below)",
            "会话(选择一个在下方回放)",
        ),
        "replay.logs.col.session": ("session", "会话"),
        "replay.logs.col.lines": ("lines", "行数"),
        "replay.logs.col.replayed": ("requests replayed", "回放的请求"),
        "replay.logs.col.other": ("other requests billed", "其他计费请求"),
        "replay.logs.col.measured": ("cost as logged", "日志实测花费"),
        "replay.logs.col.model": ("model", "模型"),
        "replay.logs.col.requests": ("requests", "请求"),
        "replay.logs.col.input": ("input", "输入"),
        "replay.logs.col.cache_write_5m": ("cache write 5 min", "缓存写入 5 分钟"),
        "replay.logs.col.cache_write_1h": ("cache write 1 h", "缓存写入 1 小时"),
        "replay.logs.col.cache_read": ("cache read", "缓存读取"),
        "replay.logs.col.output": ("output", "输出"),
        "replay.logs.col.reasoning": ("of which reasoning", "其中推理"),
        "replay.logs.col.cost": ("cost", "花费"),
        "replay.logs.no-model": ("The log names no model.", "日志没有写明模型。"),
        "replay.logs.no-model-row": ("(no model)", "(无模型)"),
        "replay.logs.not-in-registry": ("{model} (not in the registry)", "{model}(注册表中没有)"),
        "replay.logs.model-unknown": (
            "The log's model {model} is not in the registry: the scenario keeps its own "
            "model, and the measured cost is unknown.",
            "日志中的模型 {model} 不在注册表中:场景保留自己的模型,实测花费未知。",
        ),
        "replay.logs.use-model": (
            "Use the log's model for K, M and the peers' lines: {model} (registry {entry}, "
            "{how}), I {i}, O {o}",
            "K、M 与同类系统的线使用日志中的模型:{model}(注册表 {entry},{how}),I {i},O {o}",
        ),
        "replay.logs.series": (
            "{name} {on} replayed, {off} abandoned",
            "{name} 回放 {on},废弃 {off}",
        ),
        "replay.logs.bad-lines": ("{n} (lines {lines})", "{n}(第 {lines} 行)"),
        "replay.logs.ledger": (
            "Ledger: where every line went",
            "台账:每一行的去向",
        ),
        "replay.logs.ledger.lines": ("lines read", "读取行数"),
        "replay.logs.ledger.requests": ("requests", "请求"),
        "replay.logs.ledger.copies": ("copies folded", "合并的副本"),
        "replay.logs.ledger.entries": ("not requests, by type", "非请求条目(按类型)"),
        "replay.logs.ledger.blank": ("blank", "空行"),
        "replay.logs.ledger.malformed": ("malformed", "格式错误"),
        "replay.logs.ledger.orphans": (
            "parent not in the file, continued from the entry before (lines)",
            "父条目不在文件中,接续前一条目(行号)",
        ),
        "replay.logs.adds-up": (
            "The counts add up to the lines read.",
            "各项计数之和等于读取的行数。",
        ),
        "replay.logs.mismatch": (
            "The counts do not add up to the lines read: please report this file's shape.",
            "各项计数之和与读取的行数不符:请报告此文件的格式。",
        ),
        "replay.logs.measured": ("Measured usage and its cost", "实测用量与花费"),
        "replay.logs.measured-note": (
            "What the log says every billed request used (abandoned branches and subagents "
            "included, each response once), priced per request at the registry's prices; a "
            "model without a price makes the cost unknown, never 0.",
            "日志记录的每个计费请求的用量(含废弃分支与子代理,每个响应计一次),按注册表价格逐个"
            "请求计价;没有价格的模型使花费未知,而不是 0。",
        ),
        "replay.logs.logged-cost": (
            "The log's own costUSD on {n} request(s): {cost} (beside ours, never used for it).",
            "日志自带的 costUSD({n} 个请求):{cost}(仅作对照,不参与我们的计算)。",
        ),
        "replay.logs.not-read": (
            "{n} file(s) of the import are not session logs and were not read (first: {first}).",
            "导入中有 {n} 个文件不是会话日志,未读取(第一个:{first})。",
        ),
        "replay.logs.cost": (
            "As logged, this session cost {measured}; with K {k} and S {s} the model says "
            "{modelled}.",
            "按日志实测,此会话花费 {measured};在 K {k}、S {s} 下模型给出 {modelled}。",
        ),
        "replay.logs.cost-tokens": (
            "As logged, this session cost {measured}; with K {k} and S {s} the model bills "
            "{tokens} main tokens (no prices for the scenario's model).",
            "按日志实测,此会话花费 {measured};在 K {k}、S {s} 下模型计费主请求 {tokens} "
            "tokens(场景模型没有价格)。",
        ),
        "core.log-no-branch-requests": (
            "{where} has no request on the replayed branch of series {series} ({abandoned} on "
            "abandoned branches)",
            "{where}在序列 {series} 的回放分支上没有请求(废弃分支上有 {abandoned} 个)",
        ),
        "core.log-too-many-requests": (
            "{where} has more than {limit} requests (the most one session may hold)",
            "{where}的请求超过 {limit} 个(单个会话的上限)",
        ),
        "count.request.one": ("{n} request", "{n} 个请求"),
        "count.request.other": ("{n} requests", "{n} 个请求"),
        "core.log-not-utf8": ("{where} must be UTF-8 text", "{where}必须是 UTF-8 文本"),
        "core.log-unknown-format": (
            "{where} is neither a Claude Code session JSONL nor a Codex CLI rollout JSONL",
            "{where}既不是 Claude Code 会话 JSONL,也不是 Codex CLI rollout JSONL",
        ),
        "core.log-no-requests": (
            "{where} has no usable request (every line was malformed or carried no token usage)",
            "{where}没有可用的请求(每一行都格式错误或没有 token 用量)",
        ),
    }
)

# ---- registry, picker and peers (issue 26)
CATALOGUE.update(
    {
        "picker.mark.responses": ("Responses API only", "仅支持 Responses API"),
        "picker.mark.retired": (
            "retired: last listed in {release}",
            "已退役:最后收录于 {release}",
        ),
        "picker.mark.deprecation": ("deprecation date {date}", "弃用日期 {date}"),
        "picker.resolved": (
            "“{written}” is {name} ({how})",
            "“{written}”即 {name}({how})",
        ),
        "picker.how.exact": ("exact id", "精确 id"),
        "picker.how.provider prefix": ("provider prefix", "去掉服务商前缀"),
        "picker.how.date suffix": ("date suffix", "日期后缀"),
        "picker.how.alias": ("alias", "别名"),
        "picker.prices-1h": (" · 1-hour cache write {write_1h}", " · 1 小时缓存写入 {write_1h}"),
        "peers.also": (
            "Also fires on counts, not tokens (no token line): {counts}; whichever comes first.",
            "另按计数触发(不是 token,没有 token 线):{counts};以先到者为准。",
        ),
        "replay.mark.peer-count": (
            "{name} would fire on a count, not tokens ({what})",
            "{name} 会按计数触发,不是 token({what})",
        ),
        "replay.note.uncounted": (
            "Not evaluated, as this log does not count them: {rules}.",
            "未评估,因为此日志不记录这些计数:{rules}。",
        ),
        "peers.mark-counts": (
            "or {n} count triggers (not tokens, not drawn)",
            "或 {n} 个计数触发条件(不是 token,不画出)",
        ),
        "peers.seed": ("(the seed text {seed})", "(种子文本 {seed})"),
        "picker.tier": (
            "Above {above} context tokens the whole request pays: input {input} · output "
            "{output} · cache read {read} · cache write {write}",
            "上下文超过 {above} tokens 时整个请求按此计价:输入 {input} · 输出 {output} · "
            "缓存读取 {read} · 缓存写入 {write}",
        ),
    }
)

# ---- input limits and reliability (issue 24)
# Every input's size limit, and the problems of the replay's inputs (turn lines, the
# generator, options and prices) as data, so a Chinese page says them in Chinese.
CATALOGUE.update(
    {
        "core.too-large": (
            "{where} is larger than its limit of {limit}: nothing of it was read",
            "{where}超过了大小上限 {limit}:未读取其中任何内容",
        ),
        "problem.too-large": (
            "{field} is larger than its limit of {limit}: nothing of it was read",
            "{field}超过了大小上限 {limit}:未读取其中任何内容",
        ),
        "where.samples": ("The pasted samples", "粘贴的样本"),
        "where.fragment": ("The link", "链接"),
        "where.query": ("The model search", "模型搜索"),
        "where.options": ("The replay options", "回放选项"),
        "where.generate": ("The generator", "生成器"),
        "where.cases": ("The cases file", "用例文件"),
        "core.decimal": (
            "{where} must be a decimal from {low} to {high} with at most {places} decimal places; got {got}",
            "{where} 必须是 {low} 到 {high} 之间、最多 {places} 位小数的小数;收到 {got}",
        ),
        "core.decimal-or-null": (
            "{where} must be a decimal from {low} to {high} with at most {places} decimal places, or empty; got {got}",
            "{where} 必须是 {low} 到 {high} 之间、最多 {places} 位小数的小数,或留空;收到 {got}",
        ),
        "core.price-or-null": (
            "{where} must be a price per token from {low} to {high} with at most {places} decimal places, or empty; got {got}",
            "{where} 必须是每 token 价格,{low} 到 {high} 之间、最多 {places} 位小数,或留空;收到 {got}",
        ),
        "core.prices": (
            "{where} must be an object of per-token prices, or empty; got {got}",
            "{where} 必须是每 token 价格的对象,或留空;收到 {got}",
        ),
        "core.not-price": (
            "{where} is not a price (input, output, cache_read, cache_write); got {got}",
            "{where} 不是价格项(input、output、cache_read、cache_write);收到 {got}",
        ),
        "core.not-option": (
            "{where} is not a replay option; got {got}",
            "{where} 不是回放选项;收到 {got}",
        ),
        "why.coverage": (
            "the covered history is part of the history",
            "已覆盖的历史是历史的一部分",
        ),
        "core.at-least": (
            "{where} ({value}) must be at least {other} ({other_value})",
            "{where}({value})必须不小于{other}({other_value})",
        ),
        "core.not-generator-key": (
            "{where} is not a generator key; got {got}",
            "{where} 不是生成器的键;收到 {got}",
        ),
        "core.dist": (
            "{where} must be a whole number or a distribution (fixed, uniform, triangular, choice); got {got}",
            "{where} 必须是整数或分布(fixed、uniform、triangular、choice);收到 {got}",
        ),
        "core.dist-name": (
            "{where} must be one of {names}; got {got}",
            "{where} 必须是以下之一:{names};收到 {got}",
        ),
        "core.not-param": (
            "{where} is not a parameter of the {dist} distribution; got {got}",
            "{where} 不是 {dist} 分布的参数;收到 {got}",
        ),
        "core.choice-values": (
            "{where} must be a list of 1 to {high} whole numbers; got {got}",
            "{where} 必须是 1 到 {high} 个整数的列表;收到 {got}",
        ),
        "core.choice-weights": (
            "{where} must be a list of whole numbers, one per value; got {got}",
            "{where} 必须是整数列表,每个值一个;收到 {got}",
        ),
        "core.weights-zero": ("{where} must not all be 0", "{where} 不能全为 0"),
        "core.burst": (
            "{where} must be an object with a rate and tokens, or empty; got {got}",
            "{where} 必须是包含 rate 与 tokens 的对象,或留空;收到 {got}",
        ),
        "core.not-burst-key": (
            "{where} is not a burst key (rate, tokens); got {got}",
            "{where} 不是突发的键(rate、tokens);收到 {got}",
        ),
        "core.not-turn-field": (
            "{where} is not a turn field; got {got}",
            "{where} 不是轮次的字段;收到 {got}",
        ),
        "core.bool-or-null": (
            "{where} must be true, false or empty; got {got}",
            "{where} 必须是 true、false 或留空;收到 {got}",
        ),
        "core.changes": (
            "{where} must be an object of supported overrides; got {got}",
            "{where} 必须是受支持覆盖项的对象;收到 {got}",
        ),
        "core.no-turns": (
            "{where}: no line is a usable turn",
            "{where}:没有一行是可用的轮次",
        ),
        "core.too-many-turns": (
            "{where}: more than {high} turns",
            "{where}:超过 {high} 轮",
        ),
    }
)

# ---- background timing and retries (issue 22)
CATALOGUE.update(
    {
        "core.one-of": (
            "{where} must be one of {names}; got {got}",
            "{where} 必须是以下之一:{names};收到 {got}",
        ),
        "core.duration-both": (
            "{where} gives a fixed duration or the two rates, not both",
            "{where} 只能给固定时长或两个速率,不能同时给",
        ),
        "core.gap-and-time": (
            "{where} gives a gap or a log's times, not both",
            "{where} 只能给间隔或日志时间,不能同时给",
        ),
        "core.log-no-times": (
            "{where}: the request of line {line} has no timestamp; background timing needs every request's time",
            "{where}:第 {line} 行的请求没有时间戳;后台计时需要每个请求的时间",
        ),
        "core.list": ("{where} must be a list; got {got}", "{where} 必须是列表;收到 {got}"),
    }
)
# Until the catalogue is split by area: the navigation's area (issue 25).
from budgetcore.ui.catalogue.nav import MESSAGES as _NAV  # noqa: E402

CATALOGUE.update(_NAV)
