"""The peers' trigger lines: the panel, its chart and table (spec §13)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "static.peers-h": ("Where other agent systems would compact", "其他 Agent 系统会在哪里压缩"),
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
    # The window's edge on the peers chart: the axis ends there, a longer bar is cut.
    "peers.line-short.window": ("W (window)", "W(窗口)"),
    # Peers that do not run the model (registry.peers.runs_model), listed apart.
    "peers.apart-head": (
        "Not drawn: these systems do not run {model}, so their lines are not about its window.",
        "未画出:这些系统不运行 {model},它们的线与该模型的窗口无关。",
    ),
    "peers.apart-row": ("{name}: {tokens} tokens, {why}", "{name}:{tokens} tokens,{why}"),
    "peers.apart-row-none": ("{name}: {why}", "{name}:{why}"),
    "peers.mark-not-for-model": (
        "does not run this model: not drawn",
        "不运行此模型:未画出",
    ),
    "peers.not-cut": (
        " A bar cut at W with an arrow is a line beyond this model's window: it never "
        "fires here, and its length is W, not its value (the label has the value).",
        "带箭头、在 W 处截断的条是超出此模型窗口的线:它在这里永远不会触发,它的长度是 W,"
        "不是它的值(值见标签)。",
    ),
    "peers.no-line.events": (
        "counts events, not tokens: no token line",
        "按事件计数而非 token:没有 token 线",
    ),
    "peers.no-line.none": ("does not fire by default: no token line", "默认不触发:没有 token 线"),
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
    "peers.groups": ("{a} and the {b}", "{a}与{b}"),
    "peers.rounding": (
        "Token lines are the exact formula values floored to whole tokens; shares of W are rounded half-even to one decimal.",
        "token 线是公式精确值向下取整到整 token;占 W 的百分比按银行家舍入保留一位小数。",
    ),
    "peers.not": (
        "a peer's trigger line is where it starts compacting, not its M or its S; none of these systems separates the main request's safe input M, the trigger K and the summary cap S, and their defaults were not chosen for this scenario.",
        "各系统的触发线只是它们开始压缩的位置,不是它们的 M 或 S;这些系统都没有把主请求安全输入 M、触发线 K 与摘要上限 S 分开,它们的默认值也不是为本场景选的。",
    ),
    "peers.also": (
        "Also fires on counts, not tokens (no token line): {counts}; whichever comes first.",
        "另按计数触发(不是 token,没有 token 线):{counts};以先到者为准。",
    ),
    "peers.mark-counts": (
        "or {n} count triggers (not tokens, not drawn)",
        "或 {n} 个计数触发条件(不是 token,不画出)",
    ),
    "peers.seed": ("(the seed text {seed})", "(种子文本 {seed})"),
    # The room between two peers-panel lines when there is none.
    "peers.gap.no-room.order": (
        "no room: the {high} line lies {short} tokens below the {low} line",
        "没有空间:「{high}」比「{low}」低 {short} tokens",
    ),
    "peers.gap.no-room.reserve": (
        "no room: the reply reserve ({reserve} tokens) is at least the window W "
        "({window} tokens), so there is no hard line",
        "没有空间:回答预留({reserve} tokens)不小于窗口 W({window} tokens),因此没有硬线",
    ),
}
