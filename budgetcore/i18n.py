"""Chinese and English for every string the page shows. Numbers are never translated:
they are formatted once, identically, by ``budgetcore.units``.

Terminology follows the source article: 触发线 K, 摘要上限 S, 安全余量 m, 主调用安全输入
容量 M, 必需输入 F, 新增原文, 重压 (recompress), 准入 (admission).
"""

from __future__ import annotations

import re

__all__ = ["LANGS", "STATIC", "pick", "translate_problem"]

LANGS = ("en", "zh")


def pick(pair: tuple[str, str], lang: str) -> str:
    """The text of ``pair`` = (English, Chinese) for ``lang``."""
    return pair[1] if lang == "zh" else pair[0]


#: Static page text, by the ``data-i18n`` key of the element that shows it.
STATIC: dict[str, tuple[str, str]] = {
    "title": ("Compaction budget controller", "Compact 预算控制器"),
    "lede": (
        "Move the trigger line K, the summary cap S, the margin and the workload; see what "
        "every other quantity does. All numbers are exact tokens computed locally — no model "
        "call, no network.",
        "调整触发线 K、摘要上限 S、安全余量与工作负载,查看其他各量如何变化。所有数字都是在本地"
        "计算的精确 tokens:不调用模型,不连接网络。",
    ),
    "lang-label": ("Language", "语言"),
    "pin": ("Pin as A", "固定为 A"),
    "unpin": ("Unpin A", "取消固定 A"),
    "copy-link": ("Copy link", "复制链接"),
    "reset": ("Reset", "重置"),
    "stale": (
        "Showing the last valid plan — fix the highlighted field to update it.",
        "正在显示最后一次有效的计算结果:请修正标出的输入项以更新。",
    ),
    "lamp-trigger": ("Trigger reached", "达到触发线"),
    "lamp-admitted": ("Admitted", "准入"),
    "lamp-recompress": ("Recompress needed", "需要重压"),
    "lamp-start": ("Summary will start", "将启动摘要"),
    "start-summary": ("Why a summary does or does not start", "摘要为何启动或不启动"),
    "start-text": (
        "Reaching K never rejects the reply and does not by itself start a summary. All must hold:",
        "达到 K 不会拒绝主回复,也不意味着当场生成摘要。以下条件须同时满足:",
    ),
    "lamp-work": (
        "Uncovered history to consume (or a recompress)",
        "有可推进的未覆盖历史(或需重压)",
    ),
    "experiments-h": ("Boundary experiments", "四个边界实验"),
    "curves-h": ("Capacity curves: sweep one input", "容量曲线:扫描一个输入"),
    "sweep": ("Sweep", "扫描"),
    "from": ("from", "从"),
    "to": ("to", "到"),
    "samples-h": ("Bytes and time from your own samples", "根据自己的样本预测字节与耗时"),
    "samples-note": (
        "Paste paired samples measured on your own store, one JSON object per line: channels "
        "text, bson, json (tokens, bytes), read (bytes, ms) and query (ms). A channel without "
        "samples predicts unknown — never a generic language ratio.",
        "粘贴在自己存储上测得的配对样本,每行一个 JSON 对象:通道 text、bson、json(tokens, bytes),"
        "read(bytes, ms)与 query(ms)。没有样本的通道显示未知,不用通用语言比例代替。",
    ),
    "samples-label": ("Samples (JSON Lines)", "样本(JSON Lines)"),
    "example-samples": ("Load made-up example samples", "载入虚构的示例样本"),
    "avg-tpm": ("Average tokens per message", "每条消息平均 tokens"),
    "avg-mps": ("Messages per session", "每个 Session 的消息数"),
    "config-h": (
        "Reviewed config: supported overrides only",
        "评审后的配置:只含运行端支持的覆盖项",
    ),
    "config-note": (
        "Only K, S, m, o and the runtime protections are runtime settings. Model contracts "
        "belong to the runtime's model registry and are never exported; apply the file by "
        "hand after review.",
        "只有 K、S、m、o 与运行保护是运行端设置。模型合同属于运行端的模型登记,从不导出;"
        "评审后请人工应用该文件。",
    ),
    "download": ("Download", "下载"),
    "copy": ("Copy", "复制"),
    "import-h": ("Import a config", "导入配置"),
    "import-paste": ("Paste TOML or JSON", "粘贴 TOML 或 JSON"),
    "import-file": ("or choose a file", "或选择文件"),
    "import-apply": ("Apply import", "应用导入"),
    "boot-loading": ("Loading the Python runtime:", "正在加载 Python 运行时:"),
}

#: Messages the page composes at run time.
MESSAGES: dict[str, tuple[str, str]] = {
    "link-problems": (
        "This link had values that could not be used; those fields show their defaults: ",
        "此链接中有无法使用的值,这些输入项已恢复默认值:",
    ),
    "applied": ("Applied {n} override(s): {keys}.", "已应用 {n} 个覆盖项:{keys}。"),
    "copied": ("Copied.", "已复制。"),
    "link-copied": ("Link copied.", "链接已复制。"),
    "internal": ("Internal error: ", "内部错误:"),
    "sweep-order": ("sweep: 'from' must be below 'to'", "扫描:起点必须小于终点"),
    "yes": ("yes", "是"),
    "no": ("no", "否"),
    "same": ("same", "相同"),
    "changed": ("changed", "变化"),
    "unknown": ("unknown", "未知"),
}

# Rule texts of budgetcore's validation, longest first so a longer rule wins.
_RULES: list[tuple[str, str]] = sorted(
    [
        ("must be an integer from 0 to 10^12 or null", "必须是 0 到 10^12 之间的整数或 null"),
        ("must be an integer from 0 to 10^12", "必须是 0 到 10^12 之间的整数"),
        ("must be an integer from 1 to 10^12", "必须是 1 到 10^12 之间的整数"),
        ("must be an integer from 0 to 10^15", "必须是 0 到 10^15 之间的整数"),
        ("must be an integer from 1 to 10^15", "必须是 1 到 10^15 之间的整数"),
        ("must be an integer from 0 to 10^9", "必须是 0 到 10^9 之间的整数"),
        (
            "must be a decimal from 0 (inclusive) to 1 (exclusive), as a string or an exact "
            "JSON number, with at most 28 decimal places",
            "必须是 [0, 1) 之间的小数(字符串或精确 JSON 数字),最多 28 位小数",
        ),
        (
            "must be a decimal above 0 and at most 10^12 with at most 6 decimal places, or null",
            "必须是大于 0、不超过 10^12、最多 6 位小数的小数,或 null",
        ),
        ("must be true or false", "必须是 true 或 false"),
        ("must be a JSON object", "必须是 JSON 对象"),
        ("must be a JSON array", "必须是 JSON 数组"),
        ("must be a table/object of overrides", "必须是覆盖项的表/对象"),
        ("is not a known key (see SPEC §11)", "不是已知的键(见 SPEC §11)"),
        ("is not a scenario field", "不是场景输入项"),
        ("is not a field of this channel", "不是该通道的字段"),
        ("appears more than once", "出现了不止一次"),
        ("is required", "是必填项"),
        ("needs a value: path=value", "需要一个值:path=value"),
        (
            "is a model contract value: the runtime's model registry owns it, and this config "
            "cannot change it",
            "是模型合同的值:由运行端的模型登记管理,此配置不能修改它",
        ),
        (
            "is the built-in 64,000-token work cap and is not configurable",
            "是内置的 64,000 tokens 工作量上限,不可配置",
        ),
        ("is a scenario input, not a runtime setting", "是场景输入,不是运行端设置"),
        ("is not a supported override (see the registry)", "不是受支持的覆盖项(见登记表)"),
        ("is not valid JSON", "不是有效的 JSON"),
        ("is not valid TOML", "不是有效的 TOML"),
        ("must be UTF-8 text", "必须是 UTF-8 文本"),
        ("must be at most", "必须不大于"),
        ("must be less than", "必须小于"),
        ("has invalid fields; fix them before importing", "有无效的输入项;请先修正再导入"),
        ("channel must be one of", "channel 必须是以下之一:"),
    ],
    key=lambda pair: -len(pair[0]),
)
_GOT = re.compile(r", got ")


def translate_problem(text: str, lang: str) -> str:
    """A validation message in ``lang``: field paths and values stay as they are."""
    if lang != "zh":
        return text
    for en, zh in _RULES:
        text = text.replace(en, zh)
    return _GOT.sub(",收到 ", text)
