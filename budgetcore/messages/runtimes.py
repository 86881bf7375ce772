"""Runtime profiles' problems (``budgetcore.runtimes``: export and check a runtime's own
file, docs/runtimes.md), in both languages. {where} is the key as the file spells it,
{got} the value received."""

MESSAGES: dict[str, tuple[str, str]] = {
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
