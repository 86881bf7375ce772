"""Problems as data, in both languages: the core's ``core.*`` codes
(``budgetcore.errors.Problem.code``, with {where} and {got}), each rule's one sentence,
which the CLI prints and the page says of a field by its label; the page-only
``problem.*`` codes, for the few rules the core does not have ({field} is the label the
user sees); the JSON reader's ``json.*`` and the ``where.*`` names of each input.

A ``problem.*`` entry never restates a ``core.*`` rule: a page field's typed text
breaks a core rule (or its typed variant, ``core.*-typed``, ``core.whole-unit``, ...),
and ``tests/test_ui_catalogue.py`` lists the page-only keys, a list that may only
shrink.
"""

MESSAGES: dict[str, tuple[str, str]] = {
    # Page-only: the curves' sweep is the page's alone (no CLI flag or file has it).
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
        "{where} must be an integer from {low} to {high}; got {got}",
        "{where} 必须是 {low} 到 {high} 之间的整数;收到 {got}",
    ),
    "core.whole-or-null": (
        "{where} must be an integer from {low} to {high} or null; got {got}",
        "{where} 必须是 {low} 到 {high} 之间的整数或 null;收到 {got}",
    ),
    "core.margin": (
        "{where} must be a decimal from 0 (inclusive) to 1 (exclusive), as a string or an exact JSON number, with at most {places} decimal places; got {got}",
        "{where} 必须是不小于 0 且小于 1 的小数,以字符串或精确的 JSON 数字给出,最多 {places} 位小数;收到 {got}",
    ),
    "core.bool": (
        "{where} must be true or false; got {got}",
        "{where} 必须是 true 或 false;收到 {got}",
    ),
    "core.average": (
        "{where} must be a decimal above 0 and at most {high} with at most 6 decimal places, or null; got {got}",
        "{where} 必须是大于 0、不超过 {high}、最多 6 位小数的小数,或 null;收到 {got}",
    ),
    # A typed text's variants of the rules above (a page field, a CLI flag): no JSON
    # shape to name, an empty field is the page's null, and a unit or "off" is said.
    "core.whole-unit": (
        "{where} must be a whole number of {unit} from {low} to {high}; got {got}",
        "{where} 必须是 {low} 到 {high} 之间的整数({unit});收到 {got}",
    ),
    "core.whole-unit-or-empty": (
        "{where} must be a whole number of {unit} from {low} to {high}, or empty ({empty}); got {got}",
        "{where} 必须是 {low} 到 {high} 之间的整数({unit}),或留空({empty});收到 {got}",
    ),
    "core.whole-or-empty": (
        "{where} must be an integer from {low} to {high}, or empty; got {got}",
        "{where} 必须是 {low} 到 {high} 之间的整数,或留空;收到 {got}",
    ),
    "core.whole-or-off": (
        "{where} must be an integer from {low} to {high}, or off; got {got}",
        "{where} 必须是 {low} 到 {high} 之间的整数,或 off;收到 {got}",
    ),
    "core.margin-typed": (
        "{where} must be a decimal from 0 (inclusive) to 1 (exclusive), with at most {places} decimal places (for example 0.10); got {got}",
        "{where} 必须是不小于 0 且小于 1 的小数,最多 {places} 位小数(例如 0.10);收到 {got}",
    ),
    "core.average-typed": (
        "{where} must be a decimal above 0 and at most {high} with at most 6 decimal places, or empty (unknown); got {got}",
        "{where} 必须是大于 0、不超过 {high}、最多 6 位小数的小数,或留空(未知);收到 {got}",
    ),
    "core.decimal-typed": (
        "{where} must be a decimal from {low} to {high} with at most {places} decimal places; got {got}",
        "{where} 必须是 {low} 到 {high} 之间、最多 {places} 位小数的小数;收到 {got}",
    ),
    "core.decimal-or-off": (
        "{where} must be a decimal from {low} to {high} with at most {places} decimal places, or off; got {got}",
        "{where} 必须是 {low} 到 {high} 之间、最多 {places} 位小数的小数,或 off;收到 {got}",
    ),
    "core.decimal-typed-or-empty": (
        "{where} must be a decimal from {low} to {high} with at most {places} decimal places, or empty; got {got}",
        "{where} 必须是 {low} 到 {high} 之间、最多 {places} 位小数的小数,或留空;收到 {got}",
    ),
    "core.ratio-or-off": (
        "{where} must be a ratio X (of X:1) from {low} to {high} with at most {places} decimal places, or off; got {got}",
        "{where} 必须是 {low} 到 {high} 之间、最多 {places} 位小数的比值 X(X:1),或 off;收到 {got}",
    ),
    "core.utf8": (
        "{where} must be UTF-8 text (byte {byte})",
        "{where} 必须是 UTF-8 文本(第 {byte} 字节不是)",
    ),
    "core.json": (
        "{where} is not valid JSON: {detail} at line {at_line} column {at_column}",
        "{where} 不是有效的 JSON:第 {at_line} 行第 {at_column} 列{detail}",
    ),
    "core.json-in-line": (
        "{where} is not valid JSON: {detail} at column {at_column}",
        "{where} 不是有效的 JSON:第 {at_column} 列{detail}",
    ),
    "core.json-deep": (
        "{where} is not valid JSON: nested too deeply",
        "{where} 不是有效的 JSON:嵌套过深",
    ),
    "core.toml": (
        "{where} is not valid TOML: {detail} (at line {at_line}, column {at_column})",
        "{where} 不是有效的 TOML:第 {at_line} 行第 {at_column} 列{detail}",
    ),
    "core.toml-duplicate": (
        "{where} has a duplicate key: {detail} (at line {at_line}, column {at_column})",
        "{where} 有重复的键:第 {at_line} 行第 {at_column} 列{detail}",
    ),
    "core.toml-deep": (
        "{where} is not valid TOML: nested too deeply",
        "{where} 不是有效的 TOML:嵌套过深",
    ),
    "core.toml-digits": (
        "{where} is not valid TOML: a number has too many digits",
        "{where} 不是有效的 TOML:数字位数过多",
    ),
    "core.table": (
        "{where} must be a table/object of overrides; got {got}",
        "{where} 必须是覆盖项的表(或对象);收到 {got}",
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
    "core.path-empty": (
        "{where} must name a file or folder; got {got}",
        "{where} 必须是文件或文件夹的路径;收到 {got}",
    ),
    "core.stdin-twice": (
        "{where} and {other} both read standard input (-), which only one of them can;"
        " give the other a file",
        "{where} 和 {other} 都读取标准输入(-),但只有一个能读到;请给另一个一个文件",
    ),
    "core.flag-twice": (
        "{where} is given more than once; give it once",
        "{where} 给出了不止一次;请只给一次",
    ),
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
        "{where} must be a list like 812:3310,1500:6480 ({chunk} is not {pair}); got {got}",
        '{where} 必须是形如 812:3310,1500:6480 的列表({chunk} 不是 "{pair}" 的形式);收到 {got}',
    ),
    "core.not-field": (
        "{where} is not a scenario field; got {got}",
        "{where} 不是场景输入项;收到 {got}",
    ),
    "core.needs-value": (
        "{where} needs a value: path=value",
        "{where} 需要一个值:path=value",
    ),
    "core.model-contract": (
        "{where} is a model contract value: the runtime's model registry owns it, and this config cannot change it",
        "{where} 是模型合同的值:由运行时的模型注册表管理,此配置不能修改它",
    ),
    "core.work-cap": (
        "{where} is the built-in 64,000-token work cap and is not configurable",
        "{where} 是内置的 64,000 tokens 工作量上限,不可配置",
    ),
    "core.scenario-input": (
        "{where} is a scenario input, not a runtime setting",
        "{where} 是场景输入,不是运行时设置",
    ),
    # "(see the registry)" sent a newcomer to the page's model registry (the eighth
    # walk): the supported overrides are spec §9's table.
    "core.more-keys": (
        "{where} has {n} more keys that are not supported overrides or appear more than once (the first {shown} are named)",
        "{where}还有 {n} 个键不是受支持的覆盖项或出现了不止一次(只列出了前 {shown} 个)",
    ),
    "core.not-override": (
        "{where} is not a supported override (spec §9 lists them); got {got}",
        "{where} 不是受支持的覆盖项(规范 §9 列出了它们);收到 {got}",
    ),
    # A supported override's name under another table, or none ("trigger_tokens = 5").
    "core.not-override-near": (
        "{where} is not a supported override (got {got}): did you mean {near}?",
        "{where} 不是受支持的覆盖项(收到 {got}):是否想写 {near}?",
    ),
    "core.at-most": (
        "{where} ({value}) must be at most {other} ({other_value}): {why}",
        "{where} ({value})必须不大于{other}({other_value}):{why}",
    ),
    "core.less-than": (
        "{where} must be less than {other} ({why}), got {value} >= {other_value}",
        "{where} 必须小于 {other}({why}),收到 {value} >= {other_value}",
    ),
    "core.model-name": (
        "{where} must be a model name of the registry (a string); got {got}",
        "{where} 必须是模型注册表中的模型名(字符串);收到 {got}",
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
    # With a runtime picked the box reads that runtime's own file (YAML, a Python call...).
    "core.import-empty-runtime": (
        "{where} is empty: paste or choose {runtime}'s own file: {settings}. To go back to every default, use Reset.",
        "{where}为空:请粘贴或选择 {runtime} 自己的文件:{settings}。要恢复全部默认值,请用“重置”。",
    ),
    # A runtime's own file imported while the page reads budgetcore's reviewed config
    # (after Reset, say): its keys are no overrides, and the way to read it is the
    # runtime picker (the eighth walk).
    "core.import-runtime-file": (
        "{where} reads as {runtime}'s own file, not budgetcore's reviewed config: choose {runtime} under Runtime, then import it again.",
        "{where}看起来是 {runtime} 自己的文件,而不是 budgetcore 的审阅配置:请在“运行时”中选择 {runtime},再重新导入。",
    ),
    "core.import-runtime-file-either": (
        "{where} reads as {runtime}'s or {other}'s own file (one syntax), not budgetcore's reviewed config: choose the one you run under Runtime, then import it again.",
        "{where}看起来是 {runtime} 或 {other} 自己的文件(二者语法相同),而不是 budgetcore 的审阅配置:请在“运行时”中选择你所用的那个,再重新导入。",
    ),
    "core.page-invalid": (
        "{where} has invalid fields: fix them before importing",
        "{where}有无效的输入项:请先修正再导入",
    ),
    "json.expecting-value": (
        "Expecting value",
        "此处应为一个值",
    ),
    "json.expecting-name": (
        "Expecting property name enclosed in double quotes",
        "此处应为带双引号的键",
    ),
    "json.expecting-colon": (
        "Expecting ':' delimiter",
        "此处应为 ':'",
    ),
    "json.expecting-comma": (
        "Expecting ',' delimiter",
        "此处应为 ','",
    ),
    "json.unterminated-string": (
        # json's own text ends in "at"; the catalogue's line adds "at line N column C".
        "Unterminated string starting",
        "字符串未结束",
    ),
    "json.control-character": (
        "Invalid control character",
        "不允许控制字符",
    ),
    "json.bad-escape": (
        "Invalid \\escape",
        "转义序列无效",
    ),
    "json.extra-data": (
        "Extra data",
        "值之后还有多余内容",
    ),
    # Page-only: a totals-only session has no turn for the replay or Tune (the CLI's
    # core.log-totals-only points at --usage, a flag the page has not).
    "problem.log-totals-only": (
        "{where} keeps only per-session totals ({why}): it cannot be replayed turn by turn; the replay panel shows its measured usage",
        "{where}只保存每个会话的总量({why}):无法逐轮回放;回放面板显示它的实测用量",
    ),
    # Page-only: files of one name picked in the file box (the CLI reads paths, never a
    # pick without its folders).
    "problem.log-same-name": (
        "{n} files picked together are named {name}: a file box gives no folder, so which "
        "session each belongs to cannot be told. Choose the folder that holds them "
        "instead, or one file at a time.",
        "一起选择的 {n} 个文件都名为 {name}:文件框不提供文件夹,无法判断每个文件属于哪个"
        "会话。请改为选择包含它们的文件夹,或一次选择一个文件。",
    ),
    # Page-only: the page's own failure, no input's rule.
    "problem.internal": (
        "Something went wrong on this page ({detail}); nothing was changed. Reset or reload the page.",
        "页面出错({detail}),未做任何更改。请重置或重新加载页面。",
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
        "{where} looks like a file of {agent} but {missing}",
        "{where}看起来是 {agent} 文件,但{missing}",
    ),
    "core.log-named-bad": (
        "{where} is named as {agent} names its session files ({layout}), but it {why}",
        "{where}按名称是 {agent} 的会话文件({layout}),但它{why}",
    ),
    "core.log-named-unread": (
        "{where} is named as {agent} names its session files ({layout}), but is not in the shape {agent} writes them",
        "{where}按名称是 {agent} 的会话文件({layout}),但其格式不是 {agent} 写入的格式",
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
    "core.log-archive": (
        "{where} is a {kind} file (compressed or an archive), not a session log: unpack it and give the files inside (Codex CLI's .jsonl.zst is read as it is)",
        "{where}是 {kind} 文件(压缩文件或归档),不是会话日志:请先解压,再提供其中的文件(Codex CLI 的 .jsonl.zst 可直接读取)",
    ),
    # {why}: the zstd decoder's own words, in English whatever the language (data).
    "core.log-zstd-corrupt": (
        "{where} is zstd-compressed but cannot be decompressed: its data is not a whole, "
        "valid zstd frame (the decoder said: {why})",
        "{where}是 zstd 压缩的,但无法解压:其数据不是完整有效的 zstd 帧(解码器的原话:{why})",
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
    "core.log-database-damaged": (
        "{where} is named as {agent}'s database ({file}), but no table of it can be read: it is truncated or damaged",
        "{where}按名称是 {agent} 的数据库({file}),但其中没有任何表可读:文件已截断或损坏",
    ),
    "core.log-database-tables": (
        "{where} is named as {agent}'s database ({file}), but lacks the tables its reader needs (it has: {tables})",
        "{where}按名称是 {agent} 的数据库({file}),但缺少其读取器所需的表(现有:{tables})",
    ),
    "core.log-wal-not-read": (
        "{where} is the write-ahead log of {agent}'s {file}: its newest rows may be here alone, and the page reads the database without it; close {agent}, which writes them into {file}, or read {file} with budgetcore replay --log",
        "{where}是 {agent} 的数据库 {file} 的预写日志:最新的行可能只在其中,而页面读取数据库时不含此日志;请关闭 {agent}(它会把这些行写入 {file}),或用 budgetcore replay --log 读取 {file}",
    ),
    # Each reason starts with its agent's name: a space before it, as Chinese meets Latin
    # text everywhere else ("它是Kimi Code" was seen in the sixteenth walk).
    "core.log-side-file": (
        "{where} is not a session file: it is {why}",
        "{where}不是会话文件:它是 {why}",
    ),
    "core.log-database-sidecar": (
        "{where} is a file SQLite keeps beside {file}, {agent}'s database, and holds no session of its own: read {file}, with this file beside it",
        "{where}是 SQLite 在 {agent} 的数据库 {file} 旁保存的文件,本身不含会话:请读取 {file},并把此文件留在它旁边",
    ),
    "core.log-database-no-session": (
        "{where} is a database of {agent}, but no session in it has a message (tables: {tables})",
        "{where}是 {agent} 的数据库,但其中没有任何含消息的会话(表:{tables})",
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
    "core.log-goose-last-usage-only": (
        "{where} is a Goose session from before its database whose first line holds only "
        "the last model call's usage (input_tokens, output_tokens), not the session's "
        "totals (accumulated_input_tokens, accumulated_output_tokens), which later Goose "
        "writes",
        "{where}是 Goose 改用数据库之前的会话,其第一行只有最后一次模型调用的用量"
        "(input_tokens、output_tokens),没有较新的 Goose 所写的会话总量"
        "(accumulated_input_tokens、accumulated_output_tokens)",
    ),
    "core.log-empty": ("{where} is empty (no line with an entry)", "{where}为空(没有含条目的行)"),
    "core.log-no-file": ("{where}: no file given", "{where}:未给出文件"),
    "core.log-droid-transcript-alone": (
        "{where} is a Droid transcript: Droid keeps the session's token totals in "
        "<id>.settings.json beside it, which was not given",
        "{where}是 Droid 的对话记录:Droid 把会话的 token 总数记在旁边的 "
        "<id>.settings.json 中,而该文件未提供",
    ),
    "core.log-droid-exec-output": (
        "{where} is the output of droid exec (stream-json), not a Droid session: Droid "
        "keeps each session's token totals in <id>.settings.json in ~/.factory/sessions",
        "{where}是 droid exec 的输出(stream-json),不是 Droid 会话:Droid 把每个会话的 "
        "token 总数记在 ~/.factory/sessions 中的 <id>.settings.json 里",
    ),
    "core.log-codex-one-file": (
        "{where}: a Codex rollout is one file",
        "{where}:一个 Codex 会话记录只有一个文件",
    ),
    "core.log-line-count": (
        "{where} must be an integer from 0 to {high} or null, got {got}",
        "{where}必须是 0 到 {high} 的整数或 null,收到 {got}",
    ),
    "core.log-logged-cost": (
        "{where} must be a number of US dollars, 0 or more, or null, got {got}",
        "{where}必须是不小于 0 的美元金额或 null,收到 {got}",
    ),
    "core.log-total-only": (
        "{where} is a total of {got} tokens with no input, output or cache count beside "
        "it: which were input and which output is not written, so it cannot be priced",
        "{where}是 {got} 个 token 的总数,旁边没有输入、输出或缓存计数:"
        "未写明哪些是输入、哪些是输出,因此无法计价",
    ),
    "core.log-line-counts": (
        "{where} must be an object of token counts, got {got}",
        "{where}必须是 token 计数的对象,收到 {got}",
    ),
    "core.log-line-no-known-count": (
        "{where} holds none of the counts {keys}, got {got}: its tokens are not known",
        "{where}不含 {keys} 中任何一个计数,收到 {got}:其 token 数未知",
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
        "{where} has no usable request in this {format} file: lines read: {lines}, malformed: {malformed}, not requests: {entries}",
        "{where}在这个 {format} 文件中没有可用的请求:读取 {lines} 行,{malformed} 行格式错误,非请求条目:{entries}",
    ),
    "core.log-gemini-stream-output": (
        "{where} is the output of gemini --output-format stream-json (its init and result "
        "events), not a Gemini CLI session: Gemini CLI writes each session, with its token "
        "counts, in ~/.gemini/tmp/<project>/chats/session-*.jsonl",
        "{where}是 gemini --output-format stream-json 的输出(其 init 与 result 事件),"
        "不是 Gemini CLI 会话:Gemini CLI 把每个会话及其 token 数写在 "
        "~/.gemini/tmp/<project>/chats/session-*.jsonl 中",
    ),
    "core.log-opencode-run-output": (
        "{where} is the output of opencode run --format json (its step events), not an "
        "OpenCode session: OpenCode keeps each session's messages, with their token "
        "counts, in ~/.local/share/opencode/opencode.db",
        "{where}是 opencode run --format json 的输出(其 step 事件),不是 OpenCode 会话:"
        "OpenCode 把每个会话的消息及其 token 数保存在 ~/.local/share/opencode/opencode.db 中",
    ),
    "core.log-glued-records": (
        "{where} line {line} holds several JSON records with no newline between them, "
        "records of {agent}: JSON Lines writes one record a line",
        "{where}第 {line} 行包含多条 JSON 记录,中间没有换行,是 {agent} 的记录:"
        "JSON Lines 每行一条记录",
    ),
    "core.log-pi-or-droid": (
        "{where} holds user and assistant messages alone, no header and no usage: a pi "
        "session's without its header, or a Droid transcript (<id>.jsonl, whose totals "
        "Droid keeps in <id>.settings.json beside it); nothing in them tells which",
        "{where}只含用户与助手消息,没有头部行,也没有用量:可能是缺了头部行的 pi 会话,"
        "也可能是 Droid 的对话记录(<id>.jsonl,Droid 把其总量记在旁边的 <id>.settings.json 中);"
        "其中没有任何内容能区分二者",
    ),
    "core.log-pi-json-output": (
        "{where} is the output of pi --mode json (its message_end, turn_end and agent_end "
        "events), not a pi session: pi writes each session's responses, with their token "
        "counts, as message entries in ~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl",
        "{where}是 pi --mode json 的输出(其 message_end、turn_end 与 agent_end 事件),"
        "不是 pi 会话:pi 把每个会话的回复及其 token 数作为 message 条目写在 "
        "~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl 中",
    ),
    "core.log-no-requests-codex": (
        "{where} has no event_msg token_count event that counts a token, where Codex CLI "
        "writes its token counts",
        "{where}中没有计有 token 的 event_msg token_count 事件,而 Codex CLI 的 token 数写在那里",
    ),
    "core.log-no-requests-fork-copy": (
        # A fork's records with usage, each read as its parent's copied history.
        "{where} holds records with usage, {copies} in all, each read as the parent "
        "session's history copied into this fork when it was made, which the parent's own "
        "file bills: none is billed here, so this fork has no request of its own",
        "{where}中有 {copies} 条带用量的记录,都被读作创建此分叉时从父会话复制来的历史,"
        "由父会话自己的文件计费:这里一条也不计费,因此此分叉没有自己的请求",
    ),
    "core.log-no-requests-gemini": (
        "{where} has no response with token counts (Gemini CLI writes them in a response's tokens)",
        "{where}中没有带 token 数的回复(Gemini CLI 把它们写在回复的 tokens 中)",
    ),
    "core.log-gemini-no-type": (
        "{where} is missing: Gemini CLI writes each message's type (user, gemini, info, "
        "error or warning) and a response's tokens on a gemini one, so whether this "
        "message is a response, and what it cost, is unknown",
        "{where}缺失:Gemini CLI 为每条消息写入 type(user、gemini、info、error 或 warning),"
        "回复的 token 数写在 gemini 消息上,因此无法得知这条消息是否为回复,也无法得知其费用",
    ),
    "core.log-cline-no-type": (
        "{where} is missing: Cline (and Roo Code, Kilo Code) writes each message's type, "
        "say or ask, beside its say or ask, so what this message is, and what it cost, "
        "is unknown",
        "{where}缺失:Cline(以及 Roo Code、Kilo Code)为每条消息写入 type(say 或 ask),"
        "与其 say 或 ask 并列,因此无法得知这条消息是什么,也无法得知其费用",
    ),
    "core.log-no-requests-kimi": (
        "{where} has no StatusUpdate token_usage (Kimi CLI) or usage.record (Kimi Code) "
        "that counts a token, where Kimi writes its token counts",
        "{where}中没有计有 token 的 StatusUpdate token_usage(Kimi CLI)或 usage.record"
        "(Kimi Code),而 Kimi 的 token 数写在那里",
    ),
    "core.log-no-requests-elsewhere": (
        # The count after "in all": one copy read "holds 1 records" (the sixteenth walk).
        "{where} holds records with usage, {copies} in all, each of a session another file "
        "of the folder bills ({sources}): none is billed here, and it costs nothing",
        "{where}中有 {copies} 条带用量的记录,都属于由文件夹中另一个文件计费的会话"
        "({sources}):这里一条也不计费,它不花费任何费用",
    ),
    "core.log-no-requests-copilot": (
        "{where} has no session.shutdown with model metrics nor OpenTelemetry call with "
        "usage: Copilot CLI writes a session's token counts only there, its shutdown as "
        "the CLI exits (a session still open, or left with /new, has none)",
        "{where}中没有带模型指标的 session.shutdown,也没有带用量的 OpenTelemetry 调用:"
        "Copilot CLI 只在那里写入会话的 token 数,shutdown 在 CLI 退出时写入"
        "(仍在进行、或以 /new 离开的会话没有)",
    ),
    # A Copilot CLI session.shutdown of the session-wide totalNanoAiu alone, no model
    # metrics (copilot_shutdown.charge_alone), that no billed shutdown holds. Its nano-AIU
    # with thousands separators, as every count the page says: "2340000000 nano-AIU"
    # was ten digits to count (the nineteenth walk).
    "core.log-copilot-charge-alone": (
        "{where} is Copilot's charge alone, {nano} nano-AIU (${dollars}; an AI credit, $0.01, "
        "is 10^9 nano-AIU), with no model metrics: no token count is written, so its tokens "
        "cannot be measured nor priced and its cost is unknown",
        "{where}只是 Copilot 的计费,{nano} nano-AIU(${dollars};一个 AI 额度即 $0.01,"
        "为 10^9 nano-AIU),没有模型指标:没有写入 token 数,因此其 token 无法度量或计价,"
        "费用未知",
    ),
    "core.log-copilot-otel-no-operation": (
        "{where} holds OpenTelemetry records with usage that name no operation "
        "(gen_ai.operation.name chat or invoke_agent, or a span named chat <model>): "
        "Copilot CLI writes a call's usage on its chat span and an agent's total on its "
        "invoke_agent span, so without it none can be billed",
        "{where}中有带用量的 OpenTelemetry 记录,但未写明操作"
        "(gen_ai.operation.name 为 chat 或 invoke_agent,或名为 chat <模型> 的 span):"
        "Copilot CLI 把一次调用的用量写在其 chat span 上,把代理的总量写在其 invoke_agent "
        "span 上,缺少操作则无法计费",
    ),
    "core.log-copilot-export-bills": (
        "{where} holds no usage, and an OpenTelemetry export of the folder bills its "
        "session: it is that session's copy, billed once there (as ccusage bills it), and "
        "costs nothing here",
        "{where}中没有用量,而文件夹中的 OpenTelemetry 导出为其会话计费:它是该会话的副本,"
        "只在那里计费一次(与 ccusage 一致),在这里不花费任何费用",
    ),
    "core.too-large": (
        "{where} is larger than its limit of {limit} ({bytes} bytes)",
        "{where}超过了大小上限 {limit}({bytes} 字节)",
    ),
    # A page field's typed text: refused whole, the field keeps its last valid value.
    "core.too-large-unread": (
        "{where} is {size} bytes, larger than its limit of {limit} ({bytes} bytes): "
        "nothing of it was read",
        "{where}有 {size} 字节,超过了大小上限 {limit}({bytes} 字节):未读取其中任何内容",
    ),
    "where.samples": ("The pasted samples text", "粘贴的样本文本"),
    "where.page-turns": ("The pasted turns text", "粘贴的轮次文本"),
    "where.fragment": ("The link", "链接"),
    "where.query": ("The model search", "模型搜索"),
    "where.options": ("The replay options", "回放选项"),
    "where.generate": ("The generator", "生成器"),
    "where.cases": ("The cases file", "用例文件"),
    "core.decimal": (
        "{where} must be a decimal from {low} to {high} with at most {places} decimal places, as a string or an exact JSON number; got {got}",
        "{where} 必须是 {low} 到 {high} 之间、最多 {places} 位小数的小数,以字符串或精确的 JSON 数字给出;收到 {got}",
    ),
    "core.decimal-or-null": (
        "{where} must be a decimal from {low} to {high} with at most {places} decimal places, as a string or an exact JSON number, or null; got {got}",
        "{where} 必须是 {low} 到 {high} 之间、最多 {places} 位小数的小数,以字符串或精确的 JSON 数字给出,或 null;收到 {got}",
    ),
    "core.price-or-null": (
        "{where} must be a decimal from {low} to {high} (money per token) with at most {places} decimal places, as a string or an exact JSON number, or null; got {got}",
        "{where} 必须是 {low} 到 {high} 之间的小数(每 token 的金额),最多 {places} 位小数,以字符串或精确的 JSON 数字给出,或 null;收到 {got}",
    ),
    "core.prices": (
        "{where} must be a JSON object of per-token prices or null; got {got}",
        "{where} 必须是每 token 价格的 JSON 对象,或 null;收到 {got}",
    ),
    "core.not-price": (
        "{where} is not a price (use {names}); got {got}",
        "{where} 不是价格项(可用:{names});收到 {got}",
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
        '{where} must be an integer or {{"dist": NAME, ...}} (fixed, uniform, triangular, choice); got {got}',
        '{where} 必须是整数或 {{"dist": NAME, ...}}(fixed、uniform、triangular、choice);收到 {got}',
    ),
    "core.not-param": (
        "{where} is not a parameter of {dist}; got {got}",
        "{where} 不是 {dist} 的参数;收到 {got}",
    ),
    "core.choice-values": (
        "{where} must be a list of 1 to {high} integers; got {got}",
        "{where} 必须是 1 到 {high} 个整数的列表;收到 {got}",
    ),
    "core.choice-weights": (
        "{where} must be a list of integers, one per value; got {got}",
        "{where} 必须是整数列表,每个值一个;收到 {got}",
    ),
    "core.weights-zero": ("{where} must not all be 0", "{where} 不能全为 0"),
    "core.burst": (
        '{where} must be {{"rate": ..., "tokens": ...}} or null; got {got}',
        '{where} 必须是 {{"rate": ..., "tokens": ...}} 或 null;收到 {got}',
    ),
    "core.not-burst-key": (
        "{where} is not a burst key; got {got}",
        "{where} 不是突发的键;收到 {got}",
    ),
    "core.not-turn-field": (
        "{where} is not a turn field; got {got}",
        "{where} 不是轮次的字段;收到 {got}",
    ),
    "core.bool-or-null": (
        "{where} must be true, false or null; got {got}",
        "{where} 必须是 true、false 或 null;收到 {got}",
    ),
    "core.changes": (
        "{where} must be a JSON object of supported overrides; got {got}",
        "{where} 必须是受支持覆盖项的 JSON 对象;收到 {got}",
    ),
    "core.no-turns": (
        "{where} has no usable turn line",
        "{where} 没有可用的轮次行",
    ),
    "core.too-many-turns": (
        "{where} must be at most {high} turns",
        "{where} 至多 {high} 轮",
    ),
    "core.one-of": (
        "{where} must be one of {names}; got {got}",
        "{where} 必须是以下之一:{names};收到 {got}",
    ),
    "core.duration-both": (
        "{where} gives fixed_s or the two rates, not both",
        "{where} 只能给 fixed_s 或两个速率,不能同时给",
    ),
    "core.gap-and-time": (
        "{where} gives gap_ms or a log's times (time_ms, reply_end_ms), not both",
        "{where} 只能给 gap_ms 或日志时间(time_ms、reply_end_ms),不能同时给",
    ),
    "core.log-no-times": (
        "{where} has no timestamp on the request of line {request_line}: background timing needs every request's time",
        "{where}第 {request_line} 行的请求没有时间戳:后台计时需要每个请求的时间",
    ),
    "core.log-kimi-config-not-toml": (
        "{where} is not a TOML file ({why})",
        "{where}不是 TOML 文件({why})",
    ),
    "core.runtime-not-tunable": (
        "{where} cannot be tuned: {title} {why}; got {got}",
        "{where}无法调优:{title} {why};收到 {got}",
    ),
    "core.knob-values": (
        "{where} must list {knob} values in {unit}, each above 0, with at most {places} decimal places; got {got}",
        "{where} 须以 {unit} 列出 {knob} 的取值:每个都大于 0,且至多 {places} 位小数;收到 {got}",
    ),
    "core.knob-repeat": (
        "{where} must not repeat a value; got {got}",
        "{where}不得重复同一个值;收到 {got}",
    ),
    "core.knob-many": (
        "{where} must hold at most {high} values; got {got}",
        "{where}至多只能有 {high} 个值;收到 {got}",
    ),
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
    "core.whole-or-none": (
        "{where} must be an integer from {low} to {high} or None; got {got}",
        "{where} 必须是 {low} 到 {high} 之间的整数或 None;收到 {got}",
    ),
    "core.decimal-py": (
        "{where} must be a decimal from {low} to {high} with at most {places} decimal places, as an int or a Decimal; got {got}",
        "{where} 必须是 {low} 到 {high} 之间、最多 {places} 位小数的小数,以 int 或 Decimal 给出;收到 {got}",
    ),
    "core.decimal-py-or-none": (
        "{where} must be a decimal from {low} to {high} with at most {places} decimal places, as an int or a Decimal, or None; got {got}",
        "{where} 必须是 {low} 到 {high} 之间、最多 {places} 位小数的小数,以 int 或 Decimal 给出,或 None;收到 {got}",
    ),
    "core.py-bool": (
        "{where} must be True or False; got {got}",
        "{where} 必须是 True 或 False;收到 {got}",
    ),
    "core.py-bool-or-none": (
        "{where} must be True or False or None; got {got}",
        "{where} 必须是 True、False 或 None;收到 {got}",
    ),
    "core.py-instance": (
        "{where} must be a {what} or None; got {got}",
        "{where} 必须是 {what} 或 None;收到 {got}",
    ),
    "json.bad-unicode-escape": (
        "Invalid \\uXXXX escape",
        "\\uXXXX 转义序列无效",
    ),
    "json.trailing-comma-object": (
        "Illegal trailing comma before end of object",
        "对象结尾前不允许逗号",
    ),
    "json.trailing-comma-array": (
        "Illegal trailing comma before end of array",
        "数组结尾前不允许逗号",
    ),
    "core.unknown-key-spec": (
        "{where} is not a known key (see spec §11); got {got}",
        "{where} 不是已知的键(见规范 §11);收到 {got}",
    ),
    "core.runtime-tokens": (
        "{where} must be a whole number of tokens; got {got}",
        "{where} 必须是整数个 token;收到 {got}",
    ),
    "core.runtime-at-least": (
        "{where} must be at least {low}; got {got}",
        "{where} 必须至少为 {low};收到 {got}",
    ),
    "core.runtime-range": (
        "{where} must be from {low} to {high}; got {got}",
        "{where} 必须在 {low} 到 {high} 之间;收到 {got}",
    ),
    # A key that names the model (Codex's model, Gemini CLI's model.name, ...) holding
    # a number, a list or an object: the runtime's own parser refuses the file.
    "core.runtime-model-name": (
        "{where} must be a model's name (text); got {got}",
        "{where} 必须是模型名称(文本);收到 {got}",
    ),
    "core.runtime-number": (
        "{where} must be a number; got {got}",
        "{where} 必须是数字;收到 {got}",
    ),
    "core.runtime-above-up-to": (
        "{where} must be above {low} up to {high}; got {got}",
        "{where} 必须大于 {low} 且不超过 {high};收到 {got}",
    ),
    "core.runtime-from-up-to": (
        "{where} must be from {low} up to {high}; got {got}",
        "{where} 必须不小于 {low} 且不超过 {high};收到 {got}",
    ),
    "core.runtime-object": (
        "{where} must be an object; got {got}",
        "{where} 必须是对象;收到 {got}",
    ),
    "core.runtime-settings-table": (
        "{where} must be a table of settings; got {got}",
        "{where} 必须是设置项的表;收到 {got}",
    ),
    "core.runtime-qwen-zero": (
        "{where} must be above 0: Qwen Code clamps it to 0, and an auto line of 0 compacts before every send; got {got}",
        "{where} 必须大于 0:Qwen Code 会把它截为 0,而自动线为 0 时每次发送之前都会压缩;收到 {got}",
    ),
    "core.runtime-context-size": (
        '{where} must be ("tokens", n), ("messages", n) or ("fraction", f); got {got}',
        '{where} 必须是 ("tokens", n)、("messages", n) 或 ("fraction", f);收到 {got}',
    ),
    "core.runtime-fraction": (
        "{where} a fraction must be above 0 up to 1; got {got}",
        "{where} 比例必须大于 0 且不超过 1;收到 {got}",
    ),
    "core.runtime-count": (
        "{where} a {kind} count must be a whole number >= 1; got {got}",
        "{where} {kind} 计数必须是 >= 1 的整数;收到 {got}",
    ),
    "core.runtime-literal": (
        "{where} must be a literal to be checked (not an expression); got {got}",
        "{where} 必须是字面量才能检查(不能是表达式);收到 {got}",
    ),
    "core.runtime-edits": (
        "{where} must be a list of objects; got {got}",
        "{where} 必须是对象的列表;收到 {got}",
    ),
    "core.runtime-edits-list": (
        "{where} must be a list of edits; got {got}",
        "{where} 必须是 edits 的列表;收到 {got}",
    ),
    "core.runtime-input-tokens": (
        '{where} must be {{"type": "input_tokens", "value": N}}; got {got}',
        '{where} 必须是 {{"type": "input_tokens", "value": N}};收到 {got}',
    ),
    "core.runtime-python": (
        "{where} is not valid Python: {detail} at line {at_line}",
        "{where} 不是有效的 Python:第 {at_line} 行 {detail}",
    ),
    "core.knob-values-range": (
        "{where} must list {knob} values in {unit}, each above 0 and from {low} to {high}, with at most {places} decimal places; got {got}",
        "{where} 须以 {unit} 列出 {knob} 的取值:每个都大于 0、在 {low} 到 {high} 之间,且至多 {places} 位小数;收到 {got}",
    ),
    "core.unknown-model-none": (
        "{where} must name a chat model of the {release} registry; got {got}",
        "{where} 必须是 {release} 注册表中的对话模型;收到 {got}",
    ),
    "core.margin-or-null": (
        "{where} must be a decimal from 0 (inclusive) to 1 (exclusive), as a string or an exact JSON number, with at most {places} decimal places or null; got {got}",
        "{where} 必须是不小于 0 且小于 1 的小数,以字符串或精确的 JSON 数字给出,最多 {places} 位小数,或 null;收到 {got}",
    ),
    "core.not-override-spec": (
        "{where} is not a supported override (spec §9); got {got}",
        "{where} 不是受支持的覆盖项(见规范 §9);收到 {got}",
    ),
    "core.tiers": (
        "{where} must be a list of at most {high} size tiers or null; got {got}",
        "{where} 必须是至多 {high} 个规模档位的列表,或 null;收到 {got}",
    ),
    "core.tier-object": (
        "{where} must be a JSON object: above and its prices; got {got}",
        "{where} 必须是 JSON 对象:above 及其价格;收到 {got}",
    ),
    "core.tier-order": (
        "{where} must be above the previous tier's; got {got}",
        "{where} 必须大于上一档的值;收到 {got}",
    ),
    "core.duration-required": (
        "{where} is required: fixed_s, or both rates",
        "{where} 是必填项:fixed_s,或两个速率",
    ),
    "core.append-list": (
        "{where} must be a list of at most {high} times in milliseconds; got {got}",
        "{where} 必须是至多 {high} 个毫秒时间的列表;收到 {got}",
    ),
    "core.turn-needs-time": (
        "{where} must carry a time like every turn of a log (time_ms), not a gap",
        "{where} 必须像日志的每一轮那样带有时间(time_ms),而不是间隔",
    ),
    "core.turn-needs-gap": (
        "{where} needs gap_ms (or options.timing.gap_ms for every turn without one)",
        "{where} 需要 gap_ms(或用 options.timing.gap_ms 给出所有未带间隔的轮次的间隔)",
    ),
    "core.py-turn": (
        "{where} must be a Turn; got {got}",
        "{where} 必须是 Turn;收到 {got}",
    ),
    "core.py-append-ms": (
        "{where} must be a tuple of times in milliseconds; got {got}",
        "{where} 必须是以毫秒为单位的时间元组;收到 {got}",
    ),
    "core.py-changes": (
        "{where} must be a tuple of (override key, value) pairs; got {got}",
        "{where} 必须是(覆盖项键, 值)对的元组;收到 {got}",
    ),
    "core.py-turns": (
        "{where} must be a list of Turn values; got {got}",
        "{where} 必须是 Turn 值的列表;收到 {got}",
    ),
    "core.no-turn": (
        "{where} must hold at least one turn",
        "{where} 必须至少包含一轮",
    ),
    "core.turns-need-timing": (
        "{where} carry times: a clock needs options.timing (its duration model)",
        "{where} 带有时间:时钟需要 options.timing(它的时长模型)",
    ),
    "core.py-duration": (
        "{where} must be a Duration; got {got}",
        "{where} 必须是 Duration;收到 {got}",
    ),
    "core.folder-unreadable": (
        "{where} folder cannot be read: {why}; got {got}",
        "{where} 文件夹无法读取:{why};收到 {got}",
    ),
    "core.folder-too-many": (
        "{where} folder holds more than {limit} files",
        "{where} 文件夹中的文件超过 {limit} 个",
    ),
    # {others}: the table of agents' Agent.files (agents.other_suffixes), endings and
    # agents' names in every language.
    "core.folder-no-jsonl": (
        "{where} folder {folder} holds no file to read: sessions are .jsonl files and {others}",
        "{where} 文件夹 {folder} 中没有可读取的文件:会话是 .jsonl 文件以及 {others}",
    ),
    # {why}: why the first file is not read, a catalogue key (layouts.Claim.why).
    "core.folder-no-session": (
        "{where} folder {folder} holds no session log of an agent we read; files not read: "
        "{n} (first: {first}, {why})",
        "{where} 文件夹 {folder} 中没有我们能读取的代理会话日志;未读取的文件:{n} 个"
        "(第一个:{first},{why})",
    ),
    "core.dask-missing": (
        "{where} needs the optional extra budgetcore[dask] ({module} is missing)",
        "{where} 需要可选扩展 budgetcore[dask](缺少 {module})",
    ),
    "core.dask-unreachable": (
        "{where} cannot reach the scheduler ({why}); got {got}",
        "{where} 无法连接调度器({why});收到 {got}",
    ),
    "core.knob-not-axes": (
        "{where} takes its grid from --knob, not --k or --s",
        "{where} 的网格取自 --knob,而不是 --k 或 --s",
    ),
    "core.knob-never": (
        "{where} gives no value at which it compacts; got {got}",
        "{where} 没有给出任何会触发压缩的取值;收到 {got}",
    ),
    "core.knob-above": (
        "{where} gives no value whose trigger is at or below the safe input M = {m}"
        " (a trigger above M sends more than M before it compacts); got {got}",
        "{where} 没有给出任何触发线不高于安全输入 M = {m} 的取值"
        "(触发线高于 M 时,压缩前发送的输入会超过 M);收到 {got}",
    ),
    "core.knob-needs-runtime": (
        "{where} needs --runtime: whose knob it is",
        "{where} 需要 --runtime:说明这是哪个运行时的设置项",
    ),
    "core.one-source": (
        "{where} must come from exactly one of --turns, --generate, --log",
        "{where} 只能给出 --turns、--generate、--log 中的一个",
    ),
    "core.one-source-at-least": (
        "{where} must come from at least one --turns, --generate or --log",
        "{where} 至少给出一个 --turns、--generate 或 --log",
    ),
    "core.series-one-session": (
        "{where} picks a series of one session: give --log that session's file, not a"
        " folder, a database of sessions or several paths; got {got}",
        "{where} 只能选择单个会话的序列:请让 --log 指向该会话的文件,而不是文件夹、会话数据库或多个路径;"
        "收到 {got}",
    ),
    # Several --log paths are one folder's files (cli.log_paths): standard input or a
    # pipe is none, and what is looked at before its read is gone from it.
    "core.log-once-several": (
        "{where} reads standard input or a pipe only as the one --log path: give the"
        " others' sessions in it too, or give it as a file; got {got}",
        "{where} 只有在唯一的 --log 路径时才能读取标准输入或管道:请把其他会话也放进去,"
        "或以文件形式给出;收到 {got}",
    ),
    "core.log-folder-here": (
        "{where} must be one file here, not a folder",
        "{where} 在此处必须是一个文件,而不是文件夹",
    ),
    "core.usage-needs-log": (
        "{where} needs --log",
        "{where} 需要 --log",
    ),
    "core.no-replay": (
        "{where} has no session that could be replayed",
        "{where} 没有可回放的会话",
    ),
    "core.unreadable": (
        "{where} {why}",
        "{where} {why}",
    ),
    "core.scenario-both": (
        "{where} must be a file or --fragment, not both",
        "{where} 只能给文件或 --fragment,不能同时给",
    ),
    "core.scenario-required": (
        "{where} is required: a JSON file, - or --fragment",
        "{where} 是必填项:JSON 文件、- 或 --fragment",
    ),
    "core.scenario-required-log": (
        "{where} is required: a JSON file, - or --fragment (only one --log file or folder may stand in for it, with its own model)",
        "{where} 是必填项:JSON 文件、- 或 --fragment(只有一个 --log 文件或文件夹时可以用它及其模型代替)",
    ),
    "core.scenario-required-models": (
        "{where} is required: a JSON file, - or --fragment (the sessions of this folder ran {count} models, by sessions: {ran}; a tune replays them all under one)",
        "{where} 是必填项:JSON 文件、- 或 --fragment(此文件夹的会话用了 {count} 个模型,按会话数:{ran};调优须在同一场景下回放全部会话)",
    ),
    "core.peers-model": (
        "{where} cannot be given with --window/--max-output: give one or the other",
        "{where} 请给出 --model 或 --window/--max-output",
    ),
    "core.peers-needs": (
        "{where} needs --window and --max-output, or --model",
        "{where} 需要 --window 和 --max-output,或 --model",
    ),
    "core.output-above-window": (
        "{where} must be at most the window W (the output is part of it), got {output} > {window}",
        "{where} 必须不大于窗口 W(输出是窗口的一部分),收到 {output} > {window}",
    ),
    "core.py-scenario": (
        "{where} must be a Scenario (parse_scenario reads one from a dict or JSON); got {got}",
        "{where} 必须是 Scenario(parse_scenario 可从 dict 或 JSON 读取);收到 {got}",
    ),
    "core.py-whole-at-least": (
        "{where} must be a whole number >= {low}; got {got}",
        "{where} 必须是 >= {low} 的整数;收到 {got}",
    ),
    "core.no-session": (
        "{where} must hold at least one session",
        "{where} 必须至少包含一个会话",
    ),
    "core.py-sessions": (
        "{where} must be a list of (name, turns) pairs; got {got}",
        "{where} 必须是 (name, turns) 对的列表;收到 {got}",
    ),
    "core.py-session": (
        "{where} must be a (name, turns) pair with a string name; got {got}",
        "{where} 必须是名称为字符串的 (name, turns) 对;收到 {got}",
    ),
    "core.axis-syntax": (
        "{where} must be a list A,B,C or a range LOW:HIGH:COUNT; got {got}",
        "{where} 必须是列表 A,B,C 或范围 LOW:HIGH:COUNT;收到 {got}",
    ),
    "core.axis-range": (
        "{where} must have 1 <= LOW <= HIGH (a log-spaced range starts at 1 or more); got {got}",
        "{where} 必须满足 1 <= LOW <= HIGH(对数间隔的范围从 1 或更大开始);收到 {got}",
    ),
    "core.axis-many": (
        "{where} must list at most {high} values; got {got}",
        "{where} 至多只能列出 {high} 个值;收到 {got}",
    ),
    "core.axis-zero": (
        "{where} must not start a value with 0 (list 8000,16000: no grouping commas in a list); got {got}",
        "{where} 的值不能以 0 开头(列表写作 8000,16000:列表中不用千位分隔逗号);收到 {got}",
    ),
    "core.axis-empty": (
        "{where} must hold at least one value; got {got}",
        "{where} 必须至少包含一个值;收到 {got}",
    ),
    "core.py-axis": (
        "{where} must be a list of whole token counts; got {got}",
        "{where} 必须是整数 token 数的列表;收到 {got}",
    ),
    "core.grid-many": (
        "{where} must hold at most {high} points, got {ks} K × {ss} S = {points}",
        "{where} 至多只能有 {high} 个点,收到 {ks} 个 K × {ss} 个 S = {points}",
    ),
    "core.nested-deep": (
        "{where} is nested too deeply",
        "{where} 嵌套过深",
    ),
    "core.cases-empty": (
        "{where} is empty: the first line must be the header",
        "{where} 为空:第一行必须是文件头",
    ),
    "core.cases-header": (
        '{where} must be the header {{"format": "{format}", ...}}; got {got}',
        '{where} 必须是文件头 {{"format": "{format}", ...}};收到 {got}',
    ),
    "core.cases-version": (
        "{where} must be a format version this budgetcore reads (1 to {high}); got {got}",
        "{where} 必须是此 budgetcore 能读取的格式版本(1 到 {high});收到 {got}",
    ),
    "core.cases-name": (
        "{where} must be a non-empty string; got {got}",
        "{where} 必须是非空字符串;收到 {got}",
    ),
    "core.cases-name-twice": (
        "{where} appears more than once; got {got}",
        "{where} 出现了不止一次;收到 {got}",
    ),
    "core.and-more": (
        "{where} {rule} (and {more} more)",
        "{where} {rule}(另有 {more} 个问题)",
    ),
    "core.cases-plan-keys": (
        "{where} lacks {missing} of the {keys} spec §11 output keys ({names})",
        "{where} 缺少规范 §11 的 {keys} 个输出键中的 {missing} 个({names})",
    ),
    "core.cases-tags": (
        "{where} must be a list of strings; got {got}",
        "{where} 必须是字符串列表;收到 {got}",
    ),
    "core.cases-count": (
        "{where} header declares {declared} cases, the file has {found}",
        "{where} 文件头声明了 {declared} 个用例,文件中有 {found} 个",
    ),
    "core.cases-none": (
        "{where} has no case after its header: a conformance run needs one",
        "{where} 的文件头之后没有用例:一致性运行至少需要一个",
    ),
    "core.runtime-never-tune": (
        "{where} never compacts in {runtime} at any of its default {knob} values; got {got}",
        "{where} 在 {runtime} 中以 {knob} 的任何默认取值都不会压缩;收到 {got}",
    ),
    "core.too-large-bytes": (
        "{where} is larger than its limit of {bytes} bytes",
        "{where}超过了大小上限 {bytes} 字节",
    ),
    "core.too-large-size-bytes": (
        "{where} is {size} bytes, larger than its limit of {bytes} bytes",
        "{where}有 {size} 字节,超过了大小上限 {bytes} 字节",
    ),
    "core.too-large-least-bytes": (
        "{where} is at least {size} bytes, larger than its limit of {bytes} bytes",
        "{where}至少有 {size} 字节,超过了大小上限 {bytes} 字节",
    ),
    "core.toml-end": (
        "{where} is not valid TOML: {detail} (at end of document)",
        "{where} 不是有效的 TOML:文档末尾{detail}",
    ),
    "core.toml-other": (
        "{where} is not valid TOML: {detail}",
        "{where} 不是有效的 TOML:{detail}",
    ),
    "core.toml-duplicate-end": (
        "{where} has a duplicate key: {detail} (at end of document)",
        "{where} 有重复的键:文档末尾{detail}",
    ),
    "toml.invalid-value": (
        "Invalid value",
        "值无效",
    ),
    "toml.invalid-statement": (
        "Invalid statement",
        "语句无效",
    ),
    "toml.invalid-key": (
        "Invalid initial character for a key part",
        "键的首字符无效",
    ),
    "toml.expected-equals": (
        "Expected '=' after a key in a key/value pair",
        "键值对的键之后应为 '='",
    ),
    "toml.expected-bracket": (
        "Expected ']' at the end of a table declaration",
        "表声明的结尾应为 ']'",
    ),
    "toml.expected-brackets": (
        "Expected ']]' at the end of an array declaration",
        "数组表声明的结尾应为 ']]'",
    ),
    "toml.expected-newline": (
        "Expected newline or end of document after a statement",
        "语句之后应为换行或文档结尾",
    ),
    "toml.overwrite": (
        "Cannot overwrite a value",
        "不能覆盖已有的值",
    ),
    "toml.invalid-date": (
        "Invalid date or datetime",
        "日期或日期时间无效",
    ),
    "toml.invalid-hex": (
        "Invalid hex value",
        "十六进制值无效",
    ),
    "toml.unclosed-array": (
        "Unclosed array",
        "数组未闭合",
    ),
    "toml.unclosed-table": (
        "Unclosed inline table",
        "内联表未闭合",
    ),
    "toml.unterminated-string": (
        "Unterminated string",
        "字符串未结束",
    ),
}
