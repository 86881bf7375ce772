"""Problems as data, in both languages: the form's ``problem.*`` codes ({field} is the label
the user sees, {got} the quoted input), the core's ``core.*`` codes
(``budgetcore.errors.Problem.code``, with {where} and {got}), the JSON reader's ``json.*``
and the ``where.*`` names of each input.
"""

MESSAGES: dict[str, tuple[str, str]] = {
    "problem.whole-range": (
        "{field} must be a whole number of {unit} from {low} to {high}; got {got}",
        "{field} 必须是 {low} 到 {high} 之间的整数({unit});收到 {got}",
    ),
    "problem.whole-range-or-empty": (
        "{field} must be a whole number of {unit} from {low} to {high}, or empty ({empty}); got {got}",
        "{field}必须是 {low} 到 {high} 之间的整数({unit}),或留空({empty});收到 {got}",
    ),
    "problem.margin": (
        "{field} must be a decimal from 0 up to but not including 1, with at most {places} decimal places (for example 0.10); got {got}",
        "{field}必须是不小于 0 且小于 1 的小数,最多 {places} 位小数(例如 0.10);收到 {got}",
    ),
    "problem.average": (
        "{field} must be a number above 0 and at most {high}, with at most 6 decimal places, or empty (unknown); got {got}",
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
    "problem.sweep-order": (
        "Sweep: 'from' ({low}) must be below 'to' ({high})",
        "扫描:起点({low})必须小于终点({high})",
    ),
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
    "core.duplicate-first": (
        "{where} appears more than once: the first value, {kept}, is used and {got} is not",
        "{where} 出现了不止一次:使用第一个值 {kept},未使用 {got}",
    ),
    "core.pin-flag": (
        "{where} must be 1 (pin=1 marks a pinned plan); got {got}",
        "{where} 必须为 1(pin=1 表示带有固定的方案);收到 {got}",
    ),
    "where.pinned": ("Pinned plan: {sentence}", "固定的方案:{sentence}"),
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
        "{where} must be one of {channels}; got {got}",
        "{where} 必须是以下之一:{channels};收到 {got}",
    ),
    "core.sample-list": (
        "{where} must be a list like 812:3310,1500:6480; got {got}",
        "{where} 必须是形如 812:3310,1500:6480 的列表;收到 {got}",
    ),
    "core.not-field": (
        "{where} is not a scenario field; got {got}",
        "{where} 不是场景输入项;收到 {got}",
    ),
    "core.needs-value": ("{where} needs a value (path=value)", "{where} 需要一个值(path=value)"),
    "core.model-contract": (
        "{where} is a model contract value: the runtime's model registry owns it, and this config cannot change it",
        "{where} 是模型合同的值:由运行时的模型注册表管理,此配置不能修改它",
    ),
    "core.work-cap": (
        "{where} is the built-in 64,000-token work cap and cannot be configured",
        "{where} 是内置的 64,000 tokens 工作量上限,不可配置",
    ),
    "core.scenario-input": (
        "{where} is a scenario input, not a runtime setting",
        "{where} 是场景输入,不是运行时设置",
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
        "{where} 必须是模型注册表中的模型名;收到 {got}",
    ),
    "core.unknown-model": (
        "{where} must name a chat model of the {release} registry (near matches: {near}); got {got}",
        "{where} 必须是 {release} 注册表中的对话模型(相近的名称:{near});收到 {got}",
    ),
    "core.dropped": (
        "{sentence} (not used from the link: {fields})",
        "{sentence}(链接中未采用:{fields})",
    ),
    "core.link-lang": (
        "{where} must be en or zh; got {got}: the page follows the browser's language",
        "{where}必须是 en 或 zh;收到 {got}:页面使用浏览器的语言",
    ),
    "where.lang": ("The link's language (lang)", "链接的语言(lang)"),
    "core.import-empty": (
        "{where} is empty: paste a TOML or JSON config, or choose a file (to go back to every default, use Reset)",
        "{where}为空:请粘贴 TOML 或 JSON 配置,或选择文件(要恢复全部默认值,请用“重置”)",
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
        "Something went wrong on this page ({detail}); nothing was changed. Reset or reload the page.",
        "页面出错({detail}),未做任何更改。请重置或重新加载页面。",
    ),
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
        "{where} needs at least one pasted turn line",
        "{where} 需要至少粘贴一行轮次",
    ),
    "core.replay-no-log": ("{where} needs a chosen log file", "{where} 需要先选择日志文件"),
    "where.turns": ("Turns", "轮次"),
    "where.log": ("Log file", "日志文件"),
    "core.log-no-branch-requests": (
        "{where} has no request on the replayed branch of series {series} ({abandoned} on abandoned branches)",
        "{where}在序列 {series} 的回放分支上没有请求(废弃分支上有 {abandoned} 个)",
    ),
    "core.log-too-many-requests": (
        "{where} has more than {limit} requests (the most one session may hold)",
        "{where}的请求超过 {limit} 个(单个会话的上限)",
    ),
    "core.log-not-utf8": ("{where} must be UTF-8 text", "{where}必须是 UTF-8 文本"),
    "core.log-unknown-format": (
        "{where} is not a session log of an agent we read ({agents})",
        "{where}不是我们能读取的任何代理的会话日志({agents})",
    ),
    "core.log-utf16": (
        "{where} is UTF-16 text (a byte-order mark or zero bytes); a log is UTF-8 JSON Lines (iconv -f UTF-16 -t UTF-8 converts it)",
        "{where}是 UTF-16 文本(有字节顺序标记或零字节);日志应为 UTF-8 JSON Lines(可用 iconv -f UTF-16 -t UTF-8 转换)",
    ),
    "core.log-document-bad": (
        "{where} is one JSON document (not JSON Lines), and it {why}",
        "{where}是单个 JSON 文档(不是 JSON Lines),并且它{why}",
    ),
    "core.log-document-not-json": ("{where} is not valid JSON", "{where}不是有效的 JSON"),
    "core.log-document-not-utf8": (
        "{where} is not UTF-8 text (byte {byte})",
        "{where}不是 UTF-8 文本(第 {byte} 个字节)",
    ),
    "core.log-looks-like": (
        "{where} looks like a {agent} file but {missing}",
        "{where}看起来是 {agent} 文件,但{missing}",
    ),
    "core.log-unknown-document": (
        "{where} is one JSON document (not JSON Lines) that no agent we read writes ({agents})",
        "{where}是单个 JSON 文档(不是 JSON Lines),我们能读取的代理都不写这种文档({agents})",
    ),
    "core.log-line-total-only": (
        "{where} has totalTokens but no input, output or cache counts (how they split is unknown), got {got}",
        "{where}只有 totalTokens,没有输入、输出或缓存计数(无法得知如何拆分),收到 {got}",
    ),
    "core.log-zstd-no-decoder": (
        "{where} is zstd-compressed (a Codex rollout idle for a week is written as .jsonl.zst), and this Python has no zstd decoder: Python 3.14's compression.zstd, or the backports.zstd package (pip install 'budgetcore[zstd]'), reads it",
        "{where}是 zstd 压缩的(闲置一周的 Codex 会话记录会写成 .jsonl.zst),而此 Python 没有 zstd 解码器:Python 3.14 的 compression.zstd 或 backports.zstd 包(pip install 'budgetcore[zstd]')可以读取",
    ),
    "core.log-zstd-corrupt": (
        "{where} is zstd-compressed but cannot be decompressed ({why})",
        "{where}是 zstd 压缩的,但无法解压({why})",
    ),
    "core.log-zstd-bomb": (
        "{where} is zstd-compressed and decompresses to more than {ratio} times its {size} "
        "bytes (a compression bomb, not a log): refused",
        "{where}是 zstd 压缩的,解压后超过其 {size} 字节的 {ratio} 倍(是压缩炸弹而不是日志):已拒绝",
    ),
    "core.log-unknown-database": (
        "{where} is an SQLite database, but not one of an agent we read (tables: {tables})",
        "{where}是 SQLite 数据库,但不属于我们能读取的任何代理(表:{tables})",
    ),
    "core.log-sqlite-unreadable": (
        "{where} is an SQLite database OpenCode's reader cannot use ({why})",
        "{where}是 OpenCode 读取器无法使用的 SQLite 数据库({why})",
    ),
    "core.log-many-sessions": (
        "{where} holds {sessions} sessions: give it as a folder's file, or with --usage, to read each",
        "{where}包含 {sessions} 个会话:将其放在文件夹中或加 --usage 以逐个读取",
    ),
    "core.log-totals-only": (
        "{where} keeps only per-session totals ({why}): it cannot be replayed turn by turn; --usage measures it",
        "{where}只保存每个会话的总量({why}):无法逐轮回放;--usage 可以度量它",
    ),
    "core.log-no-sqlite": (
        "{where} is an SQLite database, and this Python has no sqlite3 module to read it",
        "{where}是 SQLite 数据库,而此 Python 没有可读取它的 sqlite3 模块",
    ),
    "core.log-sqlite-unreadable-copilot": (
        "{where} is an SQLite database Copilot CLI's reader cannot use ({why})",
        "{where}是 Copilot CLI 读取器无法使用的 SQLite 数据库({why})",
    ),
    "core.log-sqlite-unreadable-goose": (
        "{where} is an SQLite database Goose's reader cannot use ({why})",
        "{where}是 Goose 读取器无法使用的 SQLite 数据库({why})",
    ),
    "core.log-not-a-database": (
        "{where} must be the agent's SQLite database",
        "{where}必须是该代理的 SQLite 数据库",
    ),
    "core.log-empty": ("{where} is empty (no line with an entry)", "{where}为空(没有含条目的行)"),
    "core.log-no-file": ("{where}: no file given", "{where}:未给出文件"),
    "core.log-droid-transcript-alone": (
        "{where} is a Droid transcript: Droid keeps the session's token totals in "
        "<id>.settings.json beside it, which was not given",
        "{where}是 Droid 的对话记录:Droid 把会话的 token 总数记在旁边的 "
        "<id>.settings.json 中,而该文件未提供",
    ),
    "core.log-codex-one-file": (
        "{where}: a Codex rollout is one file",
        "{where}:一个 Codex 会话记录只有一个文件",
    ),
    "core.log-line-count": (
        "{where} must be an integer from 0 to 10^12 or null, got {got}",
        "{where}必须是 0 到 10^12 的整数或 null,收到 {got}",
    ),
    "core.log-line-counts": (
        "{where} must be an object of token counts, got {got}",
        "{where}必须是 token 计数的对象,收到 {got}",
    ),
    "core.log-line-id": (
        "{where} must be a string, an integer or null, got {got}",
        "{where}必须是字符串、整数或 null,收到 {got}",
    ),
    "core.log-line-info": (
        "{where} must be an object or null, got {got}",
        "{where}必须是对象或 null,收到 {got}",
    ),
    "core.log-line-no-usage": (
        "{where} has neither last_token_usage nor total_token_usage",
        "{where}既没有 last_token_usage 也没有 total_token_usage",
    ),
    "core.log-line-too-long": ("{where} is longer than {limit}", "{where}长于 {limit}"),
    "core.log-line-not-utf8": (
        "{where} is not UTF-8 text (byte {byte} of the line)",
        "{where}不是 UTF-8 文本(该行第 {byte} 个字节)",
    ),
    "core.log-line-too-deep": ("{where} is nested too deeply", "{where}嵌套过深"),
    "core.log-line-not-json": ("{where} is not valid JSON", "{where}不是有效的 JSON"),
    "core.log-line-not-object": ("{where} is not a JSON object", "{where}不是 JSON 对象"),
    "core.log-line-codex-in-claude": (
        "{where} is a Codex CLI rollout line in a Claude Code session file",
        "{where}是 Claude Code 会话文件中的一行 Codex CLI 会话记录",
    ),
    "core.log-line-claude-in-codex": (
        "{where} is a Claude Code line in a Codex CLI rollout",
        "{where}是 Codex CLI 会话记录中的一行 Claude Code 记录",
    ),
    "core.log-no-requests": (
        "{where} has no usable request: {lines} lines read, {malformed} malformed, not requests: {entries}",
        "{where}没有可用的请求:读取 {lines} 行,{malformed} 行格式错误,非请求条目:{entries}",
    ),
    "core.too-large": (
        "{where} is larger than its limit of {limit}: nothing of it was read",
        "{where}超过了大小上限 {limit}:未读取其中任何内容",
    ),
    "problem.too-large": (
        "{field} is larger than its limit of {limit}: nothing of it was read",
        "{field}超过了大小上限 {limit}:未读取其中任何内容",
    ),
    "where.samples": ("The pasted samples text", "粘贴的样本文本"),
    "where.page-turns": ("The pasted turns text", "粘贴的轮次文本"),
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
    "core.no-turns": ("{where} has no line that is a usable turn", "{where} 没有一行是可用的轮次"),
    "core.too-many-turns": ("{where} has more than {high} turns", "{where} 超过 {high} 轮"),
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
        "{where} needs every request's time for background timing; this request has no timestamp",
        "{where} 需要每个请求的时间才能做后台计时;该请求没有时间戳",
    ),
    "core.list": ("{where} must be a list; got {got}", "{where} 必须是列表;收到 {got}"),
    "core.log-kimi-config-not-toml": (
        "{where} is not a TOML file ({why})",
        "{where}不是 TOML 文件({why})",
    ),
    "core.runtime-not-tunable": (
        "{where} cannot be tuned: {title} {why}",
        "{where}无法调优:{title} {why}",
    ),
    "core.knob-values": (
        "{where} must list the runtime knob's values in its own unit, each above 0, within "
        "its range and with at most {places} decimal places",
        "{where}须以该运行时设置项自己的单位列出取值:每个都大于 0、在其范围内,且至多 {places} 位小数",
    ),
    "core.knob-repeat": ("{where} must not repeat a value", "{where}不得重复同一个值"),
    "core.knob-many": ("{where} must hold at most {high} values", "{where}至多只能有 {high} 个值"),
    "core.reviewed-table": (
        "{where} must be a table of models; got {got}",
        "{where}必须是模型的表;收到 {got}",
    ),
    "core.reviewed-and-model": (
        "{where} records the reviewed models; the file may not also set a model section",
        "{where}已记录评审时的模型;文件不能再设置模型部分",
    ),
    "core.renamed": (
        "{where} is renamed: give {new} (docs/cli.md, Names and units)",
        "{where} 已改名:请改用 {new}(见 docs/cli.md「名称与单位」)",
    ),
    "core.log-no-conversation-lines": (
        "{where} is conversation, but this log's reader does not tell its conversation lines "
        "from the others (Claude Code and Codex logs do)",
        "{where} 为 conversation,但该日志的读取器无法区分对话行与其他行(Claude Code 与 Codex 日志可以)",
    ),
}
