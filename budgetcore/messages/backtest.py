"""The replay panel's backtest and what-if (docs/spec.md §17, issue 37): the as-run line,
its evidence, per-series figures and compactions, then the what-if beside it."""

MESSAGES: dict[str, tuple[str, str]] = {
    "asrun.h": ("Backtest: the session as it ran, modelled", "回测:按实际运行方式建模的会话"),
    "asrun.line": (
        "As run: measured {measured}, modelled {modelled} ({ratio})",
        "按实际运行:实测 {measured},模型 {modelled}({ratio})",
    ),
    # A cost unknown on either side: no ratio to give ("unknown (unknown)" said nothing).
    "asrun.line-no-ratio": (
        "As run: measured {measured}, modelled {modelled}",
        "按实际运行:实测 {measured},模型 {modelled}",
    ),
    # The backtest leaves out what the measured usage bills of summed-usage messages
    # (AsRun.summed_left_out): both sides are the replayed requests'.
    # The backtest's scope, said once under its line (the what-if says it is the same).
    "asrun.session": (
        "Session {name} (the one chosen in the table above)",
        "会话 {name}(上表中选中的那一个)",
    ),
    "asrun.scope": (
        "Both figures cover the same {requests} in {series} of the session (each series below).",
        "两个数字覆盖会话中相同的 {requests}(共 {series},下方逐个列出)。",
    ),
    "asrun.how-h": ("How the backtest modelled the session", "回测如何为该会话建模"),
    "asrun.summed-left-out": (
        "Measured and modelled both cover the replayed requests only: the {tokens} tokens of summed usage (billed in the measured usage) are in neither.",
        "实测与模型都只含回放的请求:汇总用量的 {tokens} 个 token(计入实测用量)不在两者之中。",
    ),
    "asrun.runtime": (
        "Runtime {runtime}; window {window} ({evidence}); its trigger {trigger}; settings: the runtime's defaults (no config file of it given).",
        "运行时 {runtime};窗口 {window}({evidence});其触发线 {trigger};设置:该运行时的默认值(未提供它的配置文件)。",
    ),
    "asrun.rule": ("The runtime's rule:", "该运行时的规则:"),
    # Each runtime profile's trigger rule (runtimes/profiles.py Profile.rule, its English
    # word for word, held equal by tests/test_ui_messages.py), for the backtest's line.
    "runtime-rule.article": (
        "T_soft >= K (config.trigger_tokens)",
        "T_soft >= K(config.trigger_tokens)",
    ),
    "runtime-rule.claude-code": (
        "T >= K, K = E − 13,000 with E = W' − min(O, 20,000), W' = min(window setting, W); with the percentage: min(floor(E × pct / 100), E − 13,000)",
        "T >= K,K = E − 13,000,其中 E = W' − min(O, 20,000),W' = min(窗口设置, W);设置百分比时:min(floor(E × pct / 100), E − 13,000)",
    ),
    # The variants the backtest writes beside a profile's rule (replay/asrun.py
    # _rule_of: the English there is these sentences).
    "runtime-rule.claude-code-32k": (
        "T >= K, K = W − min(O, 32,000) − 13,000: Claude Code {version} (before 2.1.21)"
        " reserved up to 32,000 output tokens, not 20,000",
        "T >= K,K = W − min(O, 32,000) − 13,000:Claude Code {version}(2.1.21 之前)"
        "最多为输出预留 32,000 个 token,而不是 20,000",
    ),
    "runtime-rule.o-unknown": (
        " (O unknown: taken as at least {floor})",
        "(O 未知:按至少 {floor} 计)",
    ),
    "runtime-rule.o-unknown-opencode": (
        " (O unknown: OpenCode's own 32,000)",
        "(O 未知:取 OpenCode 自己的 32,000)",
    ),
    # The old reserve's source: its prose in the page's language, the citations as
    # written (the Chinese page showed the English sentence inside its own).
    "runtime-rule.claude-code-32k-source": (
        "; changelog 2.1.21; the 45,000-token autocompact buffer of 2.0.x's /context (anthropics/claude-code#10266, #15435)",
        ";来源:changelog 2.1.21;2.0.x 的 /context 显示的 45,000 token 自动压缩缓冲(anthropics/claude-code#10266、#15435)",
    ),
    "runtime-rule.codex": (
        "T >= min(model_auto_compact_token_limit, floor(0.9 × W))",
        "T >= min(model_auto_compact_token_limit, floor(0.9 × W))",
    ),
    "runtime-rule.opencode": (
        "T >= usable; usable = limit.input − reserved when the model's limit.input is set, else W − min(O, 32,000); reserved = compaction.reserved or min(20,000, maxOut)",
        "T >= usable;设置了模型的 limit.input 时 usable = limit.input − reserved,否则 W − min(O, 32,000);reserved = compaction.reserved,未设置时为 min(20,000, maxOut)",
    ),
    "runtime-rule.pi": (
        "T > W − compaction.reserveTokens",
        "T > W − compaction.reserveTokens",
    ),
    "runtime-rule.gemini-cli": (
        "T >= model.compressionThreshold × tokenLimit(model), tokenLimit = 1,048,576 for every Gemini model",
        "T >= model.compressionThreshold × tokenLimit(model),每个 Gemini 模型的 tokenLimit 都是 1,048,576",
    ),
    "runtime-rule.qwen-code": (
        "T >= min(pct × W, W − 33,000), pct = context.autoCompactThreshold",
        "T >= min(pct × W, W − 33,000),pct = context.autoCompactThreshold",
    ),
    "runtime-rule.kimi-cli": (
        "T >= ratio × W or T + reserved_context_size >= W",
        "T >= ratio × W 或 T + reserved_context_size >= W",
    ),
    "runtime-rule.cline": (
        "T >= 0.9 × E, E = 0.9 × W for a window-only model (0.81 × W); no threshold setting",
        "T >= 0.9 × E,只有窗口的模型 E = 0.9 × W(即 0.81 × W);没有阈值设置",
    ),
    "runtime-rule.goose": (
        "T / W > GOOSE_AUTO_COMPACT_THRESHOLD (checked at user-turn boundaries)",
        "T / W > GOOSE_AUTO_COMPACT_THRESHOLD(在用户轮次的边界检查)",
    ),
    "runtime-rule.langchain": (
        'total_tokens >= n for ("tokens", n); >= int(max_input_tokens × f) for ("fraction", f); off by default',
        '("tokens", n) 时 total_tokens >= n;("fraction", f) 时 >= int(max_input_tokens × f);默认不触发',
    ),
    "runtime-rule.deepagents": (
        'total_tokens >= int(max_input_tokens × 0.85) by default ("fraction", 0.85); ("tokens", 170000) for a model without a profile',
        '默认 total_tokens >= int(max_input_tokens × 0.85)("fraction", 0.85);没有 profile 的模型为 ("tokens", 170000)',
    ),
    "runtime-rule.openai-agents": (
        "server-side: context tokens >= compact_threshold; off unless set",
        "服务端:上下文 tokens >= compact_threshold;未设置时不触发",
    ),
    "runtime-rule.anthropic-api": (
        "input tokens >= trigger.value (default 150,000, minimum 50,000)",
        "输入 tokens >= trigger.value(默认 150,000,最小 50,000)",
    ),
    # The agents read without a runtime profile (replay/asrun.py NO_PROFILE, its English
    # word for word): why their backtest predicts no trigger.
    "runtime-rule.amp": (
        "no runtime profile for Amp: no trigger predicted (Amp removed compaction for "
        "Handoff, ampcode.com/news/handoff)",
        "Amp 没有运行时配置档:不预测触发线(Amp 已用 Handoff 取代压缩,ampcode.com/news/handoff)",
    ),
    "runtime-rule.droid": (
        "no runtime profile for Droid: no trigger predicted (no documented threshold, "
        "docs.factory.ai/factory-cli/configuration/settings)",
        "Droid 没有运行时配置档:不预测触发线(没有公开文档记载的阈值,"
        "docs.factory.ai/factory-cli/configuration/settings)",
    ),
    "runtime-rule.copilot-cli": (
        "no runtime profile for Copilot CLI: no trigger predicted (no user-facing "
        "threshold; github/copilot-cli#3026, #1761)",
        "Copilot CLI 没有运行时配置档:不预测触发线(没有面向用户的阈值;"
        "github/copilot-cli#3026、#1761)",
    ),
    "runtime-rule.roo-code": (
        "no runtime profile for Roo Code: no trigger predicted (its own rule, "
        "autoCondenseContextPercent or 90 % of the window less the output reserve, is "
        "not modelled; RooCodeInc/Roo-Code src/core/context-management/index.ts)",
        "Roo Code 没有运行时配置档:不预测触发线(其自身规则,即 autoCondenseContextPercent"
        "或窗口的 90 % 减去输出预留,未建模;RooCodeInc/Roo-Code "
        "src/core/context-management/index.ts)",
    ),
    "runtime-rule.kilo-code": (
        "no runtime profile for Kilo Code: no trigger predicted (a fork of Roo Code, "
        "whose rule is not modelled; RooCodeInc/Roo-Code "
        "src/core/context-management/index.ts)",
        "Kilo Code 没有运行时配置档:不预测触发线(它是 Roo Code 的分支,其规则未建模;"
        "RooCodeInc/Roo-Code src/core/context-management/index.ts)",
    ),
    "asrun.window.claude-default": (
        "Claude Code's default window; no request exceeds it, the largest is {peak}",
        "Claude Code 的默认窗口;没有请求超过它,最大为 {peak}",
    ),
    "asrun.window.claude-large": (
        "a request's context ({peak}) exceeds {small}, so the 1M-context window",
        "有请求的上下文({peak})超过 {small},因此是 1M 上下文窗口",
    ),
    "asrun.window.codex-log": (
        "the log's own model_context_window",
        "日志自身的 model_context_window",
    ),
    "asrun.window.codex-95": (
        "the log's model_context_window {logged} is 95 % of the registry's {registry} (Codex's effective_context_window_percent)",
        "日志的 model_context_window {logged} 是注册表 {registry} 的 95 %(Codex 的 effective_context_window_percent)",
    ),
    "asrun.window.codex-95-whole": (
        "the log's model_context_window {logged} is exactly 95 % of {whole} (Codex's effective_context_window_percent)",
        "日志的 model_context_window {logged} 恰好是 {whole} 的 95 %(Codex 的 effective_context_window_percent)",
    ),
    "asrun.served.bedrock": (
        "Served by Amazon Bedrock (its message ids): before Claude Code 2.1.86 its tool descriptions changed mid-session there, restarting the whole cache at moments the log does not record; the model does not see those restarts.",
        "由 Amazon Bedrock 提供服务(据其消息 id):Claude Code 2.1.86 之前,其工具描述会在会话中途变化,在日志未记录的时刻使整个缓存重新开始;模型看不到这些重启。",
    ),
    "asrun.served.vertex": (
        "Served by Google Vertex AI (its message ids): before Claude Code 2.1.86 its tool descriptions changed mid-session there, restarting the whole cache at moments the log does not record; the model does not see those restarts.",
        "由 Google Vertex AI 提供服务(据其消息 id):Claude Code 2.1.86 之前,其工具描述会在会话中途变化,在日志未记录的时刻使整个缓存重新开始;模型看不到这些重启。",
    ),
    "asrun.window.registry": (
        "the registry's input tokens of the log's model",
        "注册表中日志模型的输入 tokens",
    ),
    "asrun.window.kimi-log": (
        "the log's own max_context_tokens (Kimi CLI's max_context_size for the model)",
        "日志自身的 max_context_tokens(Kimi CLI 为该模型设定的 max_context_size)",
    ),
    "asrun.window.gemini": (
        "Gemini CLI's tokenLimit of the model, whatever the model's own window",
        "Gemini CLI 给该模型的 tokenLimit,与模型自身的窗口无关",
    ),
    "asrun.window.registry-runtime": (
        "the registry's window of the log's model: {runtime} takes it from its own model table, and the log does not state it",
        "注册表中日志模型的窗口:{runtime} 从它自己的模型表取得,日志未写明",
    ),
    "asrun.no-profile": (
        "none predicted ({runtime} has no runtime profile)",
        "不预测({runtime} 没有运行时配置档)",
    ),
    "asrun.cache-none": (
        "No cache model for this provider ({provider}): the measured cache split is not predicted; every request's context is modelled as uncached input, never with another provider's rules.",
        "没有该提供方({provider})的缓存模型:不预测实测的缓存拆分;每个请求的上下文都按未缓存输入建模,从不套用其他提供方的规则。",
    ),
    "asrun.untrusted.no-cache": (
        "This backtest is no baseline for a what-if, whatever its error: no cache rules of this provider ({provider}) are recorded, so the model does not predict its cache. Every what-if of this session is the model's, not the session's (each is marked ⚠).",
        "无论误差多少,此回测都不能作为假设的基准:没有记录该提供方({provider})的缓存规则,模型不预测其缓存。本会话的每个假设都是模型的结果,不是会话本身的(均以 ⚠ 标出)。",
    ),
    "asrun.untrusted.no-model": (
        "This backtest is no baseline for a what-if, whatever its error: the log names no model, so whose cache rules apply (which provider's) is unknown, and the model does not predict its cache. Every what-if of this session is the model's, not the session's (each is marked ⚠).",
        "无论误差多少,此回测都不能作为假设的基准:日志没有写明模型,无从知道适用哪个提供方的缓存规则,模型不预测其缓存。本会话的每个假设都是模型的结果,不是会话本身的(均以 ⚠ 标出)。",
    ),
    "asrun.untrusted.no-maker": (
        "This backtest is no baseline for a what-if, whatever its error: the maker of {model} is not known, so no provider's cache rules apply, and the model does not predict its cache. Every what-if of this session is the model's, not the session's (each is marked ⚠).",
        "无论误差多少,此回测都不能作为假设的基准:不知道 {model} 出自哪家,没有可套用的提供方缓存规则,模型不预测其缓存。本会话的每个假设都是模型的结果,不是会话本身的(均以 ⚠ 标出)。",
    ),
    "asrun.cache-none.no-model": (
        "No cache model: the log names no model, so whose cache rules apply (which provider's) is unknown; the measured cache split is not predicted, and every request's context is modelled as uncached input.",
        "没有缓存模型:日志没有写明模型,无从知道适用哪个提供方的缓存规则;不预测实测的缓存拆分,每个请求的上下文都按未缓存输入建模。",
    ),
    "asrun.cache-none.no-maker": (
        "No cache model: the maker of {model} is not known, so no provider's cache rules apply; the measured cache split is not predicted, and every request's context is modelled as uncached input.",
        "没有缓存模型:不知道 {model} 出自哪家,没有可套用的提供方缓存规则;不预测实测的缓存拆分,每个请求的上下文都按未缓存输入建模。",
    ),
    "asrun.no-model.cline-v3": (
        "Cline 3.x names a request's model in its message's modelInfo, or in the model_usage of the task_metadata.json beside ui_messages.json; this task has neither.",
        "Cline 3.x 把请求的模型写在该消息的 modelInfo 中,或写在 ui_messages.json 旁边 task_metadata.json 的 model_usage 中;这个任务两者都没有。",
    ),
    "asrun.untrusted.providers": (
        "This backtest is no baseline for a what-if, whatever its error: the session's models have more than one provider, and the main model's ({provider}) cache rules are applied to every request. Every what-if of this session is the model's, not the session's (each is marked ⚠).",
        "无论误差多少,此回测都不能作为假设的基准:会话中的模型来自不止一个提供方,所有请求都套用了主模型({provider})的缓存规则。本会话的每个假设都是模型的结果,不是会话本身的(均以 ⚠ 标出)。",
    ),
    "asrun.window.unknown": (
        "the log states none and the registry has no entry",
        "日志未写明,注册表中也没有条目",
    ),
    "asrun.cache": (
        "Prompt cache predicted from {provider}'s rules (a {minutes}-minute lifetime from the log's own times, a compaction keeps only the stable prefix, a long gap starts cold), never from a request's own measured split; calibrated only on each series' first request (the stable prefix it read).",
        "提示缓存按 {provider} 的规则预测(按日志自身的时间计 {minutes} 分钟有效期,压缩后只保留稳定前缀,长时间间隔后从冷缓存开始),从不取自请求自身的实测拆分;只在每个序列的第一个请求上校准(它读取的稳定前缀)。",
    ),
    # The registry's provider keys as the companies write their names.
    "provider.anthropic": ("Anthropic", "Anthropic"),
    "provider.openai": ("OpenAI", "OpenAI"),
    "provider.google": ("Google", "Google"),
    "provider.moonshot": ("Moonshot AI", "月之暗面"),
    "provider.dashscope": ("Alibaba Cloud DashScope", "阿里云百炼"),
    "asrun.series": ("Per series: measured against modelled", "逐序列:实测与模型对比"),
    "asrun.col.series": ("series", "序列"),
    "asrun.col.requests": ("requests", "请求"),
    "asrun.col.prefix": ("stable prefix", "稳定前缀"),
    "asrun.col.measured": ("measured", "实测"),
    "asrun.col.modelled": ("modelled", "模型"),
    "asrun.col.error": ("error", "误差"),
    "asrun.col.cache-median": ("cache error, median (tokens)", "缓存误差中位数(tokens)"),
    "asrun.col.cache-max": ("cache error, largest (tokens)", "缓存误差最大值(tokens)"),
    # A series whose first request shows how it used the cache (asrun.cache_off,
    # asrun.writes_unbilled): said under the series table, or "Prompt cache predicted
    # from Anthropic's rules" would read as applied to it.
    "asrun.series.cache-off": (
        "Series {name} is modelled without the cache: its first request, {least} tokens or more, neither read nor wrote it.",
        "序列“{name}”按不用缓存建模:它的第一个请求不少于 {least} 个 token,既未读取也未写入缓存。",
    ),
    "asrun.series.writes-unbilled": (
        "Series {name} is modelled with no cache writes: its first request logged none of what it did not read from the cache.",
        "序列“{name}”按不写缓存建模:它的第一个请求未从缓存读取的部分没有记录任何写入。",
    ),
    "asrun.as-logged": ("{name} (a summary call, billed as logged)", "{name}(摘要调用,按日志计费)"),
    "asrun.compactions": (
        "Automatic compactions (main series): in the log, {logged}; by the runtime's rule, {predicted}.",
        "自动压缩(主序列):日志中,{logged};按该运行时的规则预测,{predicted}。",
    ),
    "asrun.compactions-manual": (
        "Manual compactions (the user's, only shown): {manual}.",
        "手动压缩(用户发起,仅展示):{manual}。",
    ),
    # A bare "2" after "automatic ones" read as a count; the requests are named as such.
    "asrun.after-requests.one": ("after request {requests}", "第 {requests} 个请求之后"),
    "asrun.after-requests.other": ("after requests {requests}", "第 {requests} 个请求之后"),
    "asrun.none": ("none", "无"),
    "asrun.unknown": ("unknown", "未知"),
    "asrun.off": (
        "This backtest is not within 5 % of the session's bill ({ratio}): every what-if of this session is the model's, not the session's (each is marked ⚠).",
        "此回测与会话账单的差距超过 5 %({ratio}):本会话的每个假设都是模型的结果,不是会话本身的(均以 ⚠ 标出)。",
    ),
    "asrun.unchecked": (
        "This backtest cannot be checked: the measured or the modelled cost is unknown, so every what-if of this session is marked ⚠.",
        "此回测无法核对:实测或模型花费未知,因此本会话的每个假设都以 ⚠ 标出。",
    ),
    "asrun.untrusted.bedrock": (
        "This backtest is no baseline for a what-if, whatever its error: Amazon Bedrock's cross-Region inference sends each request to a Region the log does not record, and AWS says it may lead to more cache writes; no rule of the log predicts which request finds which cache. Every what-if of this session is the model's, not the session's (each is marked ⚠).",
        "无论误差多少,此回测都不能作为假设的基准:Amazon Bedrock 的跨区域推理把每个请求发往日志未记录的区域,AWS 说明这可能导致更多缓存写入;日志中没有任何规则能预测哪个请求命中哪个缓存。本会话的每个假设都是模型的结果,不是会话本身的(均以 ⚠ 标出)。",
    ),
    "asrun.off-mark": ("backtest not within 5 %", "回测误差超过 5 %"),
    "asrun.off-mark-caveat": (
        "no baseline: the log cannot show which cache each request found",
        "无基线:日志无法显示每个请求命中了哪个缓存",
    ),
    "whatif.h": (
        "What if: this scenario's K and S on the same session",
        "假设:本场景的 K 与 S 用于同一会话",
    ),
    "whatif.intro": (
        "The backtest's requests, growth, stable prefix and cache rules, with the runtime's trigger replaced by K {k}, S {s} and margin {m}; compared with the as-run model, never with the bill.",
        "与回测相同的请求、增长、稳定前缀与缓存规则,只把运行时的触发换成 K {k}、S {s}、余量 {m};与按实际运行的模型比较,而不是与账单比较。",
    ),
    "whatif.as-run": ("As run (the model)", "按实际运行(模型)"),
    "whatif.what-if": ("What if K {k}, S {s}", "假设 K {k}、S {s}"),
    "whatif.change": (
        "{delta} ({ratio}) from the as-run model",
        "相对按实际运行模型 {delta}({ratio})",
    ),
    "whatif.change-no-ratio": ("{delta} from the as-run model", "相对按实际运行模型 {delta}"),
    "whatif.delta": ("Change from the as-run model, item by item", "相对按实际运行模型的变化,逐项"),
    "whatif.col.item": ("item", "项目"),
    "whatif.col.delta": ("change", "变化"),
    "whatif.kind.input": ("uncached input", "未缓存输入"),
    "whatif.kind.cache_write": ("cache writes", "缓存写入"),
    "whatif.kind.cache_read": ("cache reads", "缓存读取"),
    "whatif.kind.output": ("output", "输出"),
    "whatif.kind.summary_calls": ("summary calls", "摘要调用"),
    "whatif.kind.total": ("total", "合计"),
    "whatif.quality": ("Quality beside cost", "与花费并列的质量"),
    "whatif.q.summary_calls": ("summary calls", "摘要调用次数"),
    "whatif.q.generations": (
        "generations (most summaries any history token went through)",
        "代数(任一历史 token 经过摘要的最多次数)",
    ),
    "whatif.q.compression": (
        "compression (largest run input to what it wrote)",
        "压缩比(单次执行的输入与写出之比的最大值)",
    ),
    "whatif.q.turns_with_unseen": ("turns with unseen history", "存在未见历史的轮数"),
    "whatif.q.peak_unseen": ("most unseen history (tokens)", "未见历史最大值(tokens)"),
    "whatif.q.rejected": ("requests rejected", "被拒绝的请求"),
    "whatif.none": (
        "No what-if: the main series has no request to replay.",
        "没有假设:主序列没有可回放的请求。",
    ),
}
