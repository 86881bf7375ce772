"""The replay panel's agent logs: the import's sources and formats (``replay.log.*``), the
read sessions' table, the ledger of where every line went, and the measured usage and its
cost (``replay.logs.*``).
"""

MESSAGES: dict[str, tuple[str, str]] = {
    "replay.log.none": ("Choose a log file to replay it.", "请选择要回放的日志文件。"),
    "replay.log.unusable": ("This file cannot be replayed ({name}):", "无法回放此文件({name}):"),
    "replay.log.totals-only": (
        "No backtest: this session keeps only per-session totals ({why}), so it cannot be "
        "replayed turn by turn; the measured usage below is all it records.",
        "无回测:此会话只保存每个会话的总量({why}),无法逐轮回放;下面的实测用量就是它记录的全部。",
    ),
    # Why a reader keeps totals only (its TOTALS_WHY, the CLI's English word for word,
    # held equal by tests/test_ui_messages.py), by the log's format.
    "replay.log.totals-why.droid": (
        "Droid records each session's token totals, not its requests",
        "Droid 只记录每个会话的 token 总量,不记录各个请求",
    ),
    "replay.log.totals-why.goose": (
        "Goose records each session's token totals, not its requests",
        "Goose 只记录每个会话的 token 总量,不记录各个请求",
    ),
    "replay.log.totals-why.cline": (
        "Cline's task holds only messages that sum several requests' usage, no request",
        "Cline 的任务只含汇总多个请求用量的消息,没有单个请求",
    ),
    "replay.log.totals-why.copilot-cli": (
        "Copilot CLI's events.jsonl records token totals at each shutdown, not requests",
        "Copilot CLI 的 events.jsonl 在每次退出时记录 token 总量,不记录各个请求",
    ),
    "replay.log.read": (
        "{name}: {fmt}, {requests} in the main series, {duplicates} repeated entries dropped.",
        "{name}:{fmt},主序列 {requests},丢弃重复条目 {duplicates} 个。",
    ),
    "replay.log.format.claude-code": ("Claude Code session", "Claude Code 会话"),
    "replay.log.format.codex": ("Codex CLI rollout", "Codex CLI 会话记录"),
    "replay.log.format.pi": ("pi session", "pi 会话"),
    "replay.log.format.gemini-cli": ("Gemini CLI chat recording", "Gemini CLI 聊天记录"),
    "replay.log.format.qwen-code": ("Qwen Code session", "Qwen Code 会话"),
    "replay.log.format.kimi-cli": ("Kimi CLI wire", "Kimi CLI wire 记录"),
    "replay.log.format.copilot-cli": ("Copilot CLI session", "Copilot CLI 会话"),
    "replay.log.format.opencode": ("OpenCode session", "OpenCode 会话"),
    "replay.log.format.kilo-cli": ("Kilo CLI session", "Kilo CLI 会话"),
    "replay.log.format.amp": ("Amp thread", "Amp 对话线程"),
    "replay.log.format.cline": ("Cline task", "Cline 任务"),
    "replay.log.format.roo-code": ("Roo Code task", "Roo Code 任务"),
    "replay.log.format.kilo-code": ("Kilo Code task", "Kilo Code 任务"),
    "replay.log.format.droid": ("Droid session", "Droid 会话"),
    "replay.log.format.goose": ("Goose session", "Goose 会话"),
    "replay.log.model-assumed.config": (
        "The model is assumed where Kimi CLI's wire names none: the default model of today's config.toml prices those requests (a session run with --model, or before the configuration changed, used another).",
        "凡 Kimi CLI 的 wire 记录未写模型之处,模型为假定:这些请求按当前 config.toml 的默认模型计价(以 --model 运行或在配置更改之前运行的会话使用的是其他模型)。",
    ),
    "replay.log.model-assumed.guess": (
        "The model is assumed where Kimi CLI's wire names none and no config.toml was read: those requests are priced as ccusage prices kimi-for-coding (kimi-k2.5 before 2026-04-20 16:48 UTC, kimi-k2.6 from then on).",
        "凡 Kimi CLI 的 wire 记录未写模型且未读取 config.toml 之处,模型为假定:这些请求按 ccusage 对 kimi-for-coding 的计价(2026-04-20 16:48 UTC 之前为 kimi-k2.5,之后为 kimi-k2.6)。",
    ),
    # What a session's file lacks that its agent writes elsewhere (ParsedLog.lacks).
    "replay.log.lacks.opencode-messages-alone": (
        "This OpenCode database holds its message table alone, without the session and "
        "part tables OpenCode writes beside it: the sessions' titles and parents are "
        "missing (a subagent's session is read as a session of its own, not as a series "
        "of its parent's), and so is who asked for each compaction.",
        "此 OpenCode 数据库只有 message 表,缺少 OpenCode 写在它旁边的 session 表和 part "
        "表:会话的标题和父会话都缺失(子代理的会话按独立会话读取,而不是作为其父会话的一个序列),"
        "每次压缩由谁发起也无从得知。",
    ),
    "replay.log.lacks.goose-jsonl-no-model": (
        "This Goose session is a JSON Lines file from before Goose's database, whose first "
        "line keeps the session's token totals but names no model: its cost is unknown.",
        "此 Goose 会话是 Goose 改用数据库之前的 JSON Lines 文件,其第一行记录了会话的 token 总量,"
        "但没有写模型:其费用未知。",
    ),
    "replay.log.other-series": (
        "Other series, each on its own branch (this replay is of the main one; the ledger counts them): {names}",
        "其他序列,各在自己的分支上(此处回放的是主序列;台账计入它们):{names}",
    ),
    # {calls} is count("count.request"); {models} the advisor's models as the log names them.
    "replay.log.advisor": (
        "Advisor calls (Claude Code's advisor tool): {calls} at {models}, each billed at its own model beside the response that made it, in the measured usage; never a turn of the replay.",
        "顾问调用(Claude Code 的 advisor 工具):{models} 上的 {calls},各按其自身模型的价格计费,计入所在响应旁的实测用量;从不作为回放的轮次。",
    ),
    "replay.log.advisor-no-model": ("a model the log does not name", "日志未写明的模型"),
    "replay.log.skipped": (
        "Malformed lines skipped: {n}, by line number: {lines}",
        "跳过 {n} 行格式错误的内容,行号:{lines}",
    ),
    "replay.logs.skipped-more": (
        "… and {n} more (budgetcore replay --log lists every one)",
        "……另有 {n} 行(budgetcore replay --log 会逐一列出)",
    ),
    "replay.log.compaction": (
        "line {line}: compacted {when} ({trigger}; {pre})",
        "第 {line} 行:{when}压缩({trigger};{pre})",
    ),
    # A Codex rollout's compacted line records neither (issue 42: "trigger —" read as
    # a missing value of ours).
    "replay.log.compaction-bare": (
        "line {line}: compacted {when} (the log records neither what triggered it nor the token count before it)",
        "第 {line} 行:{when}压缩(日志既没有记录触发方式,也没有记录压缩前的 token 数)",
    ),
    # Where a compaction sits among the replayed requests, in the backtest's words
    # (asrun.after-requests.one: "turn 3" there read as another place than "request
    # 3", the eighth walk); "after turn 0" read as a turn.
    "replay.log.compaction-when.after": ("after request {request}", "第 {request} 个请求之后"),
    "replay.log.compaction-when.first": ("before the first request", "第一个请求之前"),
    "replay.log.compaction-when.totals": (
        "in a session of totals, which lists no request",
        "在只有总量、不列出逐个请求的会话中",
    ),
    # The log's own trigger words (Claude Code's compactMetadata.trigger, OpenCode's
    # part.auto), said in the reader's language; any other word stays the log's.
    "replay.log.trigger.auto": ("automatic", "自动"),
    "replay.log.trigger.manual": ("manual", "手动"),
    "replay.log.trigger.word": ("trigger {word}", "触发方式 {word}"),
    "replay.log.trigger.none": ("trigger not recorded", "触发方式未记录"),
    # The log's count before the compaction (Claude Code's preTokens), said as what it
    # is rather than by the log's field name.
    "replay.log.pre": ("{tokens} tokens before it", "压缩前 {tokens} tokens"),
    "replay.log.pre.none": (
        "the count before it not recorded",
        "压缩前的 token 数未记录",
    ),
    "replay.log.kept": (
        "Only token counts and the model name were kept; message text was dropped as the file was read and nothing was sent anywhere.",
        "只保留了 token 数与模型名;读取时已丢弃消息文本,没有发送任何内容。",
    ),
    "replay.logs.read": (
        "{name}: {fmt}, {files}; on the replayed branch: {requests}; on abandoned branches: {abandoned}; in other series (subagents): {other}; copies folded: {copies}.",
        "{name}:{fmt},{files};回放分支上 {requests},废弃分支上 {abandoned} 个,其他序列(子代理)中 {other} 个;合并重复副本 {copies} 个。",
    ),
    # A totals-only session (Goose, Droid, Copilot CLI) holds totals, not requests: no
    # branch, replayed or abandoned, as the CLI's ledger says ("session totals (not requests)").
    "replay.logs.read-totals": (
        "{name}: {fmt}, {files}; per-model totals, not requests (none replayed): {totals}; copies folded: {copies}.",
        "{name}:{fmt},{files};按模型的合计(不是请求,不回放){totals} 条;合并重复副本 {copies} 个。",
    ),
    "replay.logs.series-totals": ("session totals in {lines}", "会话合计,共 {lines}"),
    "replay.logs.unknown": ("unknown", "未知"),
    "replay.logs.copy.request": ("the same response written again", "同一响应的再次写入"),
    "replay.logs.copy.main": ("a subagent replaying a main response", "子代理重放的主会话响应"),
    "replay.logs.copy.same-totals": (
        "token_count repeating the previous totals",
        "重复上一累计值的 token_count",
    ),
    "replay.logs.copy.parent": (
        "token_count copied from the parent session",
        "从父会话复制的 token_count",
    ),
    "replay.logs.copy.pi-parent": (
        "response copied from the parent session",
        "从父会话复制的响应",
    ),
    "replay.logs.copy.entry-again": ("entry written again (same id)", "同一条目再次写入(相同 id)"),
    "replay.logs.copy.record-again-id": (
        "record written again (same id)",
        "同一记录再次写入(相同 id)",
    ),
    "replay.logs.copy.record-again-uuid": (
        "record written again (same uuid)",
        "同一记录再次写入(相同 uuid)",
    ),
    # Copilot CLI's four OpenTelemetry sources, each folded into a higher one that
    # holds the same request (replay/logs/copilot.py, _SOURCE_NAMES).
    "replay.logs.copy.copilot-chat": (
        "chat span covered by a higher source",
        "chat 跨度,已由更高优先级的来源计入",
    ),
    "replay.logs.copy.copilot-inference": (
        "inference log covered by a higher source",
        "推理日志,已由更高优先级的来源计入",
    ),
    "replay.logs.copy.copilot-turn": (
        "agent turn log covered by a higher source",
        "智能体轮次日志,已由更高优先级的来源计入",
    ),
    "replay.logs.copy.copilot-agent": (
        "invoke_agent span covered by a higher source",
        "invoke_agent 跨度,已由更高优先级的来源计入",
    ),
    # A Copilot CLI export's record of a session another source of the folder bills
    # (layouts.plan_copilot: its events.jsonl, its session store).
    "replay.logs.copy.copilot-by-events": (
        "a session its events.jsonl bills",
        "该会话由其 events.jsonl 计费",
    ),
    "replay.logs.copy.copilot-by-store": (
        "a session the session store bills",
        "该会话由会话库(session-store.db)计费",
    ),
    "replay.logs.copy.kimi-subagent-step": (
        "a subagent's step, in its own wire and the session's",
        "子代理的一步,同时写在它自己的 wire 与会话的 wire 中",
    ),
    "replay.logs.at-least": ("unknown (at least {cost})", "未知(至少 {cost})"),
    "replay.logs.unnamed": ("(unnamed)", "(未命名)"),
    "replay.logs.unusable-short": ("cannot be replayed", "无法回放"),
    "replay.logs.unusable-why": ("cannot be replayed: {why}", "无法回放:{why}"),
    "replay.logs.unusable-more": (
        "{why} (and other problems: {n}; choose it to see them)",
        "{why}(另有其他问题:{n} 个;选中它可查看)",
    ),
    "replay.logs.total": ("total of {n} sessions", "{n} 个会话合计"),
    "replay.logs.total-unusable": (
        "total of {n} sessions ({bad} cannot be replayed)",
        "{n} 个会话合计(其中 {bad} 个无法回放)",
    ),
    "replay.logs.total-row": ("total", "合计"),
    "replay.logs.sessions": (
        "Sessions (choose one to replay it below)",
        "会话(选择一个在下方回放)",
    ),
    "replay.logs.col.session": ("session", "会话"),
    # A mixed import's one total per agent (the CLI's "By agent", `agents` in JSON Lines).
    "replay.logs.by-agent": ("By agent: one total each", "按代理:每个代理一个合计"),
    "replay.logs.col.agent": ("agent", "代理"),
    "replay.logs.col.sessions": ("sessions", "会话数"),
    "replay.logs.agent-unread": ("not read (agent unknown)", "未读取(代理未知)"),
    "replay.logs.agent-sessions-unread": ("{n} ({unread} not read)", "{n}(其中 {unread} 个未读取)"),
    "replay.logs.col.lines": ("lines", "行数"),
    # Why a JSON document could not be read, set into the sentence that names the file
    # (core.log-named-bad, core.log-document-bad): a rule of its own, in either language.
    "replay.logs.why-not-json": ("is not valid JSON", "不是有效的 JSON"),
    "replay.logs.why-not-utf8": (
        "is not UTF-8 text (byte {byte})",
        "不是 UTF-8 文本(第 {byte} 个字节)",
    ),
    "replay.logs.col.replayed": ("requests replayed", "回放的请求"),
    "replay.logs.col.other": ("other requests billed", "其他计费请求"),
    # The logged usage at the registry's prices, as the CLI's "measured cost": the log's
    # own cost, where it writes one, is another figure (the usage table's note).
    "replay.logs.col.measured": ("measured cost", "实测花费"),
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
        "The log's model {model} is not in the registry: the scenario keeps its own model, and the measured cost is unknown.",
        "日志中的模型 {model} 不在注册表中:场景保留自己的模型,实测花费未知。",
    ),
    "replay.logs.use-model": (
        "Give the scenario the log's model: {model} (registry {entry}, {how}), I {i} (the window its runtime ran it at), O {o}. M, C and the peers' lines follow from them; K and S stay yours.",
        "让场景使用日志中的模型:{model}(注册表 {entry},{how}),I {i}(其运行时实际使用的窗口),O {o}。M、C 与其他系统的线由它们得出;K 与 S 仍是你设定的。",
    ),
    "replay.logs.main": ("main", "主会话"),
    "replay.logs.entry.estimate": (
        "event_msg/token_count (estimate, all zero)",
        "event_msg/token_count(估算,全为 0)",
    ),
    "replay.logs.entry.cline-history-model": (
        "conversation history (its model named)",
        "对话历史(写明了其模型)",
    ),
    "replay.logs.entry.cline-history-no-model": (
        "conversation history (no one model named)",
        "对话历史(没有写明唯一的模型)",
    ),
    "replay.logs.entry.cline-history-unneeded": (
        "conversation history (not needed)",
        "对话历史(无需读取)",
    ),
    "replay.logs.entry.estimate-total": (
        "event_msg/token_count (estimate: a total alone)",
        "event_msg/token_count(估算:只有总数)",
    ),
    "replay.logs.entry.window-full": (
        "event_msg/token_count (window full: a total alone)",
        "event_msg/token_count(窗口已满:只有总数)",
    ),
    "replay.logs.entry.legacy": (
        "legacy rollout line (no token counts)",
        "旧版会话记录行(无 token 计数)",
    ),
    "replay.logs.entry.no-type": ("(no type)", "(无类型)"),
    # After a record's own type name (data): the reader's words about it.
    "replay.logs.entry-suffix.no-tokens-yet": ("{kind} (no tokens yet)", "{kind}(尚无 token)"),
    "replay.logs.entry-suffix.no-token-usage": ("{kind} (no token usage)", "{kind}(无 token 用量)"),
    "replay.logs.entry-prefix.transcript": ("transcript {kind}", "对话记录中的 {kind}"),
    "replay.logs.entry.droid-transcript-line": (
        "transcript line",
        "对话记录中的行(无类型)",
    ),
    "replay.logs.entry-suffix.zero-usage": ("{kind} (zero usage)", "{kind}(用量为零)"),
    # Copilot CLI's compaction call, whose usage a shutdown after it sums (copilot.py).
    "replay.logs.entry-suffix.in-shutdown-totals": (
        "{kind} (in shutdown totals)",
        "{kind}(计入退出时的总量)",
    ),
    "replay.logs.entry-suffix.message": ("{kind} message", "{kind} 消息"),
    "replay.logs.entry-suffix.part": ("{kind} part", "{kind} 部件"),
    "replay.logs.entry.synthetic": ("assistant (<synthetic>)", '助手条目(模型 "<synthetic>")'),
    "replay.logs.entry.no-tokens": ("assistant (no tokens)", "助手条目(token 全为 0)"),
    "replay.logs.entry.no-usage": ("assistant (no usage)", "助手条目(无用量)"),
    # The other readers' own labels (amp, cline, copilot, droid, gemini, goose, kimi, pi,
    # qwen): words, not the log's type names.
    "replay.logs.entry.amp-unbilled": (
        "assistant message in no ledger event (left out)",
        "助手消息(不在任何账本事件中,未计入)",
    ),
    "replay.logs.entry.amp-billed": (
        "assistant message (billed by its ledger event)",
        "助手消息(由其账本事件计费)",
    ),
    "replay.logs.entry.amp-zero-event": (
        "usage ledger event (zero tokens)",
        "用量账本事件(零 token)",
    ),
    "replay.logs.entry.message-zero-usage": (
        "assistant message (zero usage)",
        "助手消息(用量为零)",
    ),
    "replay.logs.entry.message-zero-tokens": (
        "assistant message (zero tokens)",
        "助手消息(零 token)",
    ),
    "replay.logs.entry.usage-event-no-tokens": ("usage event (no tokens)", "用量事件(无 token)"),
    # A Copilot CLI OpenTelemetry record with no usage attribute (a tool's span, a metric).
    "replay.logs.entry.otel-no-usage": (
        "otel record (no usage)",
        "OpenTelemetry 记录(无用量)",
    ),
    # A line of no usage in a Copilot CLI events.jsonl whose session the session store
    # beside it bills (layouts.plan_copilot).
    "replay.logs.entry.copilot-by-store": (
        "event of a session the session store bills",
        "由会话库(session-store.db)计费的会话中的事件",
    ),
    # Such a file's session.compaction_start: marked on the store's session at its time
    # or its order among the file's events, or not placed (no line of the file has a
    # time: copilot_store.store_marks).
    "replay.logs.entry.copilot-store-mark": (
        "compaction, marked on the store's session",
        "压缩,已标记在会话库(session-store.db)的该会话上",
    ),
    "replay.logs.entry.copilot-store-unplaced": (
        "compaction (no time in its file: not placed)",
        "压缩(其文件中没有时间:无法定位)",
    ),
    # A line of a Copilot CLI events.jsonl without usage whose session an OpenTelemetry
    # export of the folder bills (copilot._session_events).
    "replay.logs.entry.copilot-by-export": (
        "event of a session an OpenTelemetry export bills",
        "由 OpenTelemetry 导出计费的会话中的事件",
    ),
    "replay.logs.entry.settings-no-tokens": ("settings (no tokens)", "设置(无 token)"),
    "replay.logs.entry.session-no-tokens": ("session (no tokens)", "会话(无 token)"),
    "replay.logs.entry.gemini-no-tokens": ("gemini (no tokens)", "gemini 条目(无 token)"),
    "replay.logs.entry.gemini-zero-tokens": ("gemini (zero tokens)", "gemini 条目(零 token)"),
    "replay.logs.entry.pi-no-usage": (
        "message/assistant (no usage)",
        "message/assistant 条目(无用量)",
    ),
    "replay.logs.entry.pi-zero-usage": (
        "message/assistant (zero usage)",
        "message/assistant 条目(用量为零)",
    ),
    "replay.logs.entry.zero-usage": ("assistant (zero usage)", "助手条目(用量为零)"),
    "replay.logs.entry.no-message-type": ("(no message type)", "(无消息类型)"),
    # OpenCode's parts of the messages a summary names (opencode.py): who asked.
    "replay.logs.entry.opencode-compaction-auto": (
        "compaction part (auto)",
        "压缩部件(自动)",
    ),
    "replay.logs.entry.opencode-compaction-manual": (
        "compaction part (manual)",
        "压缩部件(手动)",
    ),
    "replay.logs.entry.opencode-compaction-unknown": (
        "compaction part (auto unknown)",
        "压缩部件(未说明是否自动)",
    ),
    "replay.logs.entry.opencode-part-no-type": ("part (no type)", "部件(无类型)"),
    # OpenCode's newer session_message compaction rows (opencode.py): who asked, or why
    # the row is no compaction.
    "replay.logs.entry.opencode-row-auto": ("compaction message (auto)", "压缩消息(自动)"),
    "replay.logs.entry.opencode-row-manual": ("compaction message (manual)", "压缩消息(手动)"),
    "replay.logs.entry.opencode-row-unknown": (
        "compaction message (reason unknown)",
        "压缩消息(原因未知)",
    ),
    "replay.logs.entry.opencode-row-failed": ("compaction message (failed)", "压缩消息(失败)"),
    "replay.logs.entry.opencode-row-not-completed": (
        "compaction message (not completed)",
        "压缩消息(未完成)",
    ),
    "replay.logs.entry.session-document": ("session document", "会话文档"),
    "replay.logs.entry.ui-messages-document": ("ui_messages document", "ui_messages 文档"),
    "replay.logs.entry.document-without-messages": (
        "document without messages",
        "没有消息的文档",
    ),
    "replay.logs.entry.not-amp-thread": (
        "document that is not an Amp thread",
        "不是 Amp 线程的文档",
    ),
    "replay.logs.entry.not-cline-task": (
        "document that is not a Cline task",
        "不是 Cline 任务的文档",
    ),
    "replay.logs.entry.droid-no-token-usage": (
        "document without tokenUsage",
        "没有 tokenUsage 的文档",
    ),
    "replay.logs.entry.goose-last-usage-only": (
        "metadata (last call's usage only)",
        "元数据(只有最后一次调用的用量)",
    ),
    "replay.logs.entry.goose-message": (
        "message (Goose keeps no usage per message)",
        "消息(Goose 不按消息记录用量)",
    ),
    # A Goose database with a usage_ledger (schema 15 on, goose.py): its rows bill the
    # calls; the session's totals and the messages' own usage copy them.
    "replay.logs.entry.goose-message-ledger": (
        "message (billed by the usage ledger)",
        "消息(由用量台账计费)",
    ),
    "replay.logs.entry.goose-session-ledger": (
        "session (totals in the usage ledger)",
        "会话(总量已在用量台账中)",
    ),
    "replay.logs.entry.goose-usage-row-no-tokens": (
        "usage row (no tokens)",
        "用量行(无 token)",
    ),
    "replay.logs.entry.rate-limits-only": (
        "event_msg/token_count (rate limits only)",
        "event_msg/token_count(仅有速率限制)",
    ),
    "replay.logs.series": ("{name} {on} replayed, {off} abandoned", "{name} 回放 {on},废弃 {off}"),
    "replay.logs.bad-lines": ("{n} (line numbers: {lines})", "{n}(第 {lines} 行)"),
    "replay.logs.ledger": ("Ledger: where every line went", "台账:每一行的去向"),
    "replay.logs.ledger.lines": ("lines read", "读取行数"),
    "replay.logs.ledger.requests": ("requests", "请求"),
    "replay.logs.ledger.billed": ("billed, not requests", "计费但不是请求"),
    "replay.logs.ledger.copies": ("copies folded", "合并的副本"),
    "replay.logs.ledger.entries": ("not requests, by type", "非请求条目(按类型)"),
    "replay.logs.ledger.blank": ("blank", "空行"),
    "replay.logs.ledger.malformed": ("malformed", "格式错误"),
    "replay.logs.ledger.orphans": (
        "parent not in the file, continued from the entry before (lines)",
        "父条目不在文件中,接续前一条目(行号)",
    ),
    "replay.logs.adds-up": ("The counts add up to the lines read.", "各项计数之和等于读取的行数。"),
    "replay.logs.mismatch": (
        "The counts do not add up to the lines read: please report this file's shape.",
        "各项计数之和与读取的行数不符:请报告此文件的格式。",
    ),
    "replay.logs.measured": ("Measured usage and its cost", "实测用量与花费"),
    "replay.logs.measured-note": (
        "What the log says every billed request used (abandoned branches and subagents included, each response once), priced per request at the registry's prices; a model without a price makes the cost unknown, never 0.",
        "日志记录的每个计费请求的用量(含废弃分支与子代理,每个响应计一次),按注册表价格逐个请求计价;没有价格的模型使花费未知,而不是 0。",
    ),
    "replay.logs.measured-note-totals": (
        "What the log says the session used in all: it records per-session token totals, not requests, so the request count is unknown; the totals are priced at the registry's prices; a model without a price makes the cost unknown, never 0.",
        "日志记录的本会话总用量:它只记录每个会话的 token 合计,不记录请求,因此请求数未知;合计按注册表价格计价;没有价格的模型使花费未知,而不是 0。",
    ),
    "replay.logs.elsewhere": (
        "Not billed here: requests of this session billed in session {session}: {n} (the same response in both files, as a resumed session writes the earlier one's again).",
        "不在此计费:本会话在会话 {session} 中计费的请求:{n} 个(两个文件中是同一个响应,恢复的会话会再次写入之前会话的响应)。",
    ),
    "replay.logs.elsewhere-total": (
        "Requests found in more than one session (a resumed session writes the earlier one's responses again): {n}. Each is billed once, in the row of the session that bills it and in the total.",
        "出现在多个会话中的请求(恢复的会话会再次写入之前会话的响应):{n} 个。每个只计费一次:计入为其计费的会话的那一行与合计。",
    ),
    "replay.logs.costs-nothing-total": (
        "Sessions that cannot be replayed but hold nothing that may carry a bill (every line read, none a response or a usage record): {n}. The total counts them as $0.",
        "无法回放、但其中没有任何可能计费之条目的会话(每一行都已读取,没有回复或用量记录):{n} 个。合计将其计为 $0。",
    ),
    # Records that sum several requests' usage (Cline's deleted_api_reqs and
    # subagent_usage, Goose's spend carried into its usage ledger: ModelUsage.summed),
    # billed in the measured usage, no requests. The CLI's table says the same.
    "replay.logs.summed": (
        "Of these tokens, {tokens} are of records that sum several requests' usage (Cline's deleted_api_reqs and subagent_usage, Goose's spend carried into its usage ledger): billed, counted as no request, not replayed.",
        "其中 {tokens} 个 token 来自汇总多个请求用量的记录(Cline 的 deleted_api_reqs 与 subagent_usage、Goose 结转进用量账本的花费):计费,但不算作请求,也不回放。",
    ),
    # The log's own cost (Claude Code's costUSD, pi's usage.cost.total, OpenCode's and
    # Cline's cost, Copilot CLI's nano AIU): one sentence, no agent's field name.
    # {requests} is count("count.request").
    "replay.logs.logged-cost-summed": (
        "The log's own cost on {requests} and on the summed-usage messages sums to {cost} (shown beside ours, never used for it).",
        "日志在 {requests}及汇总用量的消息上自带的费用合计 {cost}(仅作对照,不参与我们的计算)。",
    ),
    "replay.logs.logged-cost-totals": (
        "The log's own cost, of totals that count no request, is {cost} (shown beside ours, never used for it).",
        "日志自带的费用(属于不计请求的总计)为 {cost}(仅作对照,不参与我们的计算)。",
    ),
    "replay.logs.series-summed": (
        "summed usage (not replayed) in {lines}",
        "汇总用量(不回放),共 {lines}",
    ),
    "replay.logs.logged-cost": (
        "The log's own cost on {requests} sums to {cost} (shown beside ours, never used for it).",
        "日志在 {requests}上自带的费用合计 {cost}(仅作对照,不参与我们的计算)。",
    ),
    # The measured cost of a session with malformed lines that may have carried a bill
    # (MeasuredUsage.unread, docs/replay.md "Malformed lines and the measured cost"):
    # said wherever that cost is. {lines} is count("count.line").
    "replay.logs.incomplete": (
        "The measured cost may be incomplete: {lines} could not be read and may have carried a bill (malformed, in the ledger); it counts none of them.",
        "实测花费可能不完整:有 {lines}无法读取,可能带有计费(格式错误,见台账);花费未计入它们。",
    ),
    "replay.logs.cost-incomplete": ("{cost} (may be incomplete)", "{cost}(可能不完整)"),
    # A folder picked with nothing to read, as the CLI refuses it (core.folder-no-jsonl,
    # core.folder-no-session): {others} is agents.other_suffixes().
    "replay.logs.folder-empty": (
        "The folder chosen holds no file to read: sessions are .jsonl files and {others}.",
        "所选文件夹中没有可读取的文件:会话是 .jsonl 文件以及 {others}。",
    ),
    # {why}: why the first file is not read (layouts.Claim.why, said in the language):
    # an archive-only folder said what it held but not why none of it was read.
    "replay.logs.no-session": (
        "The folder {folder} holds no session log of an agent we read; files not read: {n} "
        "(first: {first}, {why}).",
        "文件夹 {folder} 中没有我们能读取的代理会话日志;未读取的文件:{n} 个"
        "(第一个:{first},{why})。",
    ),
    # What a file that looks like an agent's lacks (Agent.missing holds the key; the
    # CLI and the page say it through messages.problem_params: core.log-looks-like).
    "replay.log.missing.codex": (
        "no line is one of its records (session_meta, turn_context, event_msg, "
        "response_item, compacted)",
        "没有一行是它的记录(session_meta、turn_context、event_msg、response_item、compacted)",
    ),
    "replay.log.missing.gemini-cli": ("has no messages list", "没有 messages 列表"),
    "replay.log.missing.gemini-cli-type": (
        "its messages have no type (user, gemini, info, error or warning), where Gemini "
        "CLI says which message is a response, with its tokens",
        "它的消息没有 type(user、gemini、info、error 或 warning),"
        "而 Gemini CLI 以此标明哪条消息是回复及其 token 数",
    ),
    "replay.log.missing.cline": (
        "its messages have no type (say or ask), which Cline, Roo Code and Kilo Code "
        "write on each beside its say or ask",
        "它的消息没有 type(say 或 ask),而 Cline、Roo Code 与 Kilo Code "
        "在每条消息的 say 或 ask 旁都会写入它",
    ),
    "replay.log.missing.kimi-cli": (
        "is its context (context.jsonl): the usage is in the wire.jsonl beside it",
        "这是它的上下文(context.jsonl):用量在旁边的 wire.jsonl 中",
    ),
    "replay.log.missing.copilot-cli": (
        "its events have no data object, where Copilot CLI writes their fields",
        "它的事件没有 data 对象,而 Copilot CLI 把事件的字段写在那里",
    ),
    "replay.log.missing.opencode": ("has no role and time", "没有 role 与 time"),
    "replay.log.missing.opencode-session": (
        "has no sessionID (OpenCode writes the session's id on every message)",
        "没有 sessionID(OpenCode 在每条消息上写入会话的 id)",
    ),
    "replay.log.missing.amp": (
        "has neither a usageLedger with events nor an assistant message with usage "
        "(where Amp writes a thread's token counts)",
        "既没有带 events 的 usageLedger,也没有带 usage 的 assistant 消息"
        "(Amp 把 thread 的 token 计数写在那里)",
    ),
    "replay.log.missing.droid": ("has no tokenUsage", "没有 tokenUsage"),
    # A database's tables where SQLite could read none (its ``tables`` parameter).
    "replay.log.tables-none": ("none readable", "无可读的表"),
    "replay.logs.not-read": (
        "Files of the import not read as sessions: {n}, by why:",
        "导入中有 {n} 个文件未作为会话读取,原因如下:",
    ),
    # One reason under replay.logs.not-read: its first file, how many more, why.
    "replay.logs.not-read-group": ("{first} ({why})", "{first}({why})"),
    "replay.logs.not-read-group-more": (
        "{first} and {more} more ({why})",
        "{first} 等另外 {more} 个文件({why})",
    ),
}
