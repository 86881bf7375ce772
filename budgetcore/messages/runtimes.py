"""Runtime profiles' problems (``budgetcore.runtimes``: export and check a runtime's own
file, docs/runtimes.md), in both languages. {where} is the key as the file spells it,
{got} the value received."""

MESSAGES: dict[str, tuple[str, str]] = {
    "core.runtime-unknown": (
        "{where} must be one of the runtimes budgetcore knows; got {got}",
        "{where} 必须是 budgetcore 已知的运行时之一;收到 {got}",
    ),
    "core.runtime-unreachable": (
        "{where} cannot be set in this runtime: it cannot compact at {got} tokens",
        "{where} 无法在该运行时中设置:它不能在 {got} token 处压缩",
    ),
    "core.runtime-format": (
        "{where}: this runtime's file is not in that format; got {got}",
        "{where}:该运行时的文件不是这种格式;收到 {got}",
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
