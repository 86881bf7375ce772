"""Runtime profiles' problems (``budgetcore.runtimes``: export and check a runtime's own
file, docs/runtimes.md), in both languages. {where} is the key as the file spells it,
{got} the value received."""

MESSAGES: dict[str, tuple[str, str]] = {
    "core.runtime-never": (
        "{where} never compacts in that runtime as this file sets it; got {got}",
        "{where} 按此文件的设置,该运行时永远不会压缩;收到 {got}",
    ),
    # The export panel's runtime picker (ui.runtime_picker).
    "runtime.label": ("Runtime", "运行时"),
    "runtime.article": (
        "budgetcore (the design article's runtime)",
        "budgetcore(设计文章的运行时)",
    ),
    "runtime.head": (
        "plan|setting in {runtime}|value there|in tokens",
        "方案|{runtime} 中的设置|那里的取值|折合 tokens",
    ),
    "runtime.k": ("K, trigger line", "K,触发线"),
    "runtime.s": ("S, summary cap", "S,摘要上限"),
    "runtime.m": ("M, main safe input", "M,主调用安全输入容量"),
    "runtime.plan-only": ("the plan's own (no setting)", "方案自身的值(不是设置)"),
    "runtime.not-settable": ("not settable in {runtime}", "在 {runtime} 中无法设置"),
    "runtime.effective": ("compacts at T ≥ {tokens}", "在 T ≥ {tokens} 时压缩"),
    "runtime.plan-stays": (
        "The plan stays in M / K / S; only the names and units are {runtime}'s.",
        "方案仍以 M / K / S 表示;只有名称与单位换成 {runtime} 的。",
    ),
    "runtime.file": (
        "{runtime} reads it from {file}; the import box reads that file too. Conversion:",
        "{runtime} 从 {file} 读取它;导入框也读取该文件。换算:",
    ),
    "core.runtime-unknown": (
        "{where} must be one of the runtimes budgetcore knows; got {got}",
        "{where} 必须是 budgetcore 已知的运行时之一;收到 {got}",
    ),
    # The reason is the raise site's English ({reason}): a per-runtime sentence with
    # the numbers that would reach K.
    "core.runtime-unreachable": (
        "{where} cannot be set in {runtime}: K = {k} {reason}; got {got}",
        "{where} 无法在 {runtime} 中设置:K = {k},{reason};收到 {got}",
    ),
    "core.runtime-target": (
        "{where} must be at least 1 to export to {runtime}: min(K, M) = {target} would "
        "compact on every request; got {got}",
        "{where} 导出到 {runtime} 时必须至少为 1:min(K, M) = {target} 会让每个请求都压缩;"
        "收到 {got}",
    ),
    "core.runtime-format": (
        "{where} toml is not {runtime}'s syntax ({syntax}); use json or text; got {got}",
        "{where} toml 不是 {runtime} 的语法({syntax});请用 json 或 text;收到 {got}",
    ),
    "core.runtime-key": (
        "{where} is not a valid setting; got {got}",
        "{where} 不是有效的设置;收到 {got}",
    ),
    "core.runtime-key-type": (
        "{where} has the wrong type for this runtime; got {got}",
        "{where} 的类型不符合该运行时;收到 {got}",
    ),
    "core.runtime-key-range": (
        "{where} is outside the range this runtime accepts; got {got}",
        "{where} 超出该运行时接受的范围;收到 {got}",
    ),
    "core.runtime-duplicate": (
        "{where} is set twice; got {got}",
        "{where} 被设置了两次;收到 {got}",
    ),
    "core.runtime-env-line": (
        "{where} must be KEY=value or export KEY=value; got {got}",
        "{where} 必须是 KEY=value 或 export KEY=value;收到 {got}",
    ),
    "core.runtime-yaml-line": (
        "{where} must be KEY: value; got {got}",
        "{where} 必须是 KEY: value;收到 {got}",
    ),
    "core.runtime-file-syntax": (
        "{where} is not valid {syntax}",
        "{where} 不是有效的 {syntax}",
    ),
    "core.runtime-no-call": (
        "{where} holds no call to {names}",
        "{where} 中没有对 {names} 的调用",
    ),
}
