"""The Tune panel's messages (docs/spec.md §16), English and Chinese: part of the one
catalogue (``budgetcore.messages.CATALOGUE``), kept in a module of its own."""

from __future__ import annotations

__all__ = ["MESSAGES"]

MESSAGES: dict[str, tuple[str, str]] = {
    "static.tune-h": (
        "Tune: which K and S for these sessions",
        "调优:这些会话该用哪个 K 和 S",
    ),
    "tune.intro": (
        "Replays the session replay's sessions at every point of a grid of trigger lines K "
        "and summary caps S (spec §16), each point an exact replay, and chooses the cheapest "
        "point that meets your constraints. Click a cell, or press Enter on it, to set K and S.",
        "用会话回放的会话,在触发线 K 与摘要上限 S 网格的每个点上重放(spec §16),每个点都是精确"
        "重放,并选出满足约束的最低成本点。点击某个格子(或在其上按 Enter)即可设定 K 和 S。",
    ),
    "tune.constraints": ("Constraints", "约束"),
    "label.tune.no_rejected": ("No rejected turn", "没有被拒绝的轮次"),
    "label.tune.max_unseen": (
        "Unseen history on any turn at most",
        "任一轮的未见历史至多",
    ),
    "hint.tune.max_unseen": (
        "tokens; empty: no limit",
        "tokens;留空:不限制",
    ),
    "label.tune.max_runs_per_100": (
        "Summary runs per 100 turns at most",
        "每 100 轮的摘要执行至多",
    ),
    "hint.tune.max_runs_per_100": (
        "runs and recompresses; empty: no limit",
        "执行与重压合计;留空:不限制",
    ),
    "problem.tune-rate": (
        "{field} must be a number from 0 to 100 with at most 6 decimal places; got {got}",
        "{field} 必须是 0 到 100 之间、最多 6 位小数的数;收到 {got}",
    ),
    "tune.unit.money": ("dollars", "美元"),
    "tune.unit.billed": ("billed tokens", "计费 tokens"),
    "tune.unit.billed-title": ("billed tokens: no prices given", "计费 tokens:未给价格"),
    "tune.unit.calls": ("summary calls", "次摘要调用"),
    "tune.amount": ("{value} {unit}", "{value} {unit}"),
    "tune.unknown-usage": (
        "unknown (a try's usage is unknown)",
        "未知(有一次尝试的用量未知)",
    ),
    "tune.point": (
        "K {k} tokens, S {s} tokens: modelled cost {cost}; unseen history {unseen} tokens "
        "summed over turns (at most {peak_unseen} on one turn); {runs} runs and "
        "{recompresses} recompresses; {rejected} rejected turns; peak full input {peak} of "
        "M {m} tokens; {generations} summary generations, compression {compression}",
        "K {k} tokens,S {s} tokens:模型成本 {cost};未见历史按轮合计 {unseen} tokens(单轮最多 "
        "{peak_unseen});执行 {runs} 次、重压 {recompresses} 次;被拒绝 {rejected} 轮;完整输入"
        "峰值 {peak},M 为 {m} tokens;摘要代数 {generations},压缩比 {compression}",
    ),
    "tune.compression": ("{ratio}:1", "{ratio}:1"),
    "tune.no-run": ("no summary run", "没有摘要执行"),
    "tune.map.compression.title": (
        "Compression at each K and S (the run that took the most input: what it read to"
        " what it wrote, floored to a tenth; the default choice allows at most 10:1)",
        "各 K 与 S 下的压缩比(读入最多的那次执行:读入与写出之比,向下取到十分位;默认选择至多允许 10:1)",
    ),
    "tune.unit.generations": ("generations", "代"),
    "tune.map.generations.title": (
        "Summary generations at each K and S (how often the oldest history was summarised"
        " again; the default choice allows at most 5)",
        "各 K 与 S 下的摘要代数(最早的历史被再次摘要的次数;默认选择至多允许 5 代)",
    ),
    "tune.cell": ("K {k}, S {s}: {value}", "K {k},S {s}:{value}"),
    "tune.point-hint": (
        "Point at a cell, or focus one (Tab, then the arrow keys), for its exact values.",
        "把指针移到格子上,或用键盘聚焦(Tab,再用方向键),即可看到精确值。",
    ),
    "tune.axis.k": (
        "K, trigger line (tokens, one row per grid value)",
        "K,触发线(tokens,每行一个网格值)",
    ),
    "tune.axis.s": (
        "S, summary cap (tokens, one column per grid value)",
        "S,摘要上限(tokens,每列一个网格值)",
    ),
    "tune.map.cost.title": (
        "Modelled cost at each K and S ({unit})",
        "各 K 与 S 下的模型成本({unit})",
    ),
    "tune.map.unseen.title": (
        "Unseen history at each K and S (tokens, summed over turns)",
        "各 K 与 S 下的未见历史(tokens,按轮合计)",
    ),
    "tune.map.runs.title": (
        "Summary runs at each K and S (runs and recompresses)",
        "各 K 与 S 下的摘要执行(执行与重压合计)",
    ),
    "tune.scale": ("Colour scale (exact ranges):", "色标(精确区间):"),
    "tune.scale-money": (
        "Colour scale (money to 4 significant figures, ranges widened outward; a cell "
        "shows its exact cost):",
        "色标(金额取 4 位有效数字,区间向外取整;单元格显示精确成本):",
    ),
    "tune.bin": ("{low} to {high}", "{low} 至 {high}"),
    "tune.mark.own": (
        "outlined: the scenario's own K {k}, S {s}",
        "描边:场景自身的 K {k}、S {s}",
    ),
    "tune.mark.own-off": (
        " (between grid values, so not on any cell)",
        "(位于网格值之间,不在任何格子上)",
    ),
    "tune.mark.frontier": (
        "circle: the frontier of cost against unseen history (points no other beats on both: {n})",
        "圆点:成本与未见历史的前沿({n} 个点,没有其他点在两者上都更优)",
    ),
    "tune.mark.chosen": ("diamond: the chosen point", "菱形:选中的点"),
    "tune.not": (
        "a forecast for other sessions. It is the modelled cost of these sessions under this "
        "scenario's rules, each point a replay; unseen history is what a request leaves out, "
        "not what is lost.",
        "对其他会话的预测。这是这些会话在本场景规则下的模型成本,每个点都是一次重放;未见历史是请求"
        "没有带上的部分,不是丢失的部分。",
    ),
    "tune.choice.none": (
        "No point is chosen: of {points} points, {broken} break a constraint and {unknown} "
        "have unknown usage.",
        "没有选中的点:{points} 个点中,{broken} 个违反约束,{unknown} 个用量未知。",
    ),
    "tune.choice.scope": (
        "of the {eligible} points (of {points}) that meet the constraints",
        "在满足约束的 {eligible} 个点(共 {points} 个)中",
    ),
    "tune.choice.scope-all": ("of all {points} points", "在全部 {points} 个点中"),
    "tune.choice.head": ("Chosen: K {k}, S {s}.", "选中:K {k},S {s}。"),
    "tune.choice.best": (
        "The lowest modelled cost {scope}: {cost}.",
        "{scope}模型成本最低:{cost}。",
    ),
    "tune.why.cost": (
        "Why: it costs {cost} less than the next point, K {k}, S {s}.",
        "原因:比下一个点(K {k},S {s})少 {cost}。",
    ),
    "tune.why.unseen_tokens": (
        "Why: the same cost as K {k}, S {s}, with {unseen} fewer unseen tokens.",
        "原因:与 K {k}、S {s} 成本相同,未见 tokens 少 {unseen}。",
    ),
    "tune.why.runs": (
        "Why: the same cost and unseen tokens as K {k}, S {s}, with {runs} fewer runs.",
        "原因:与 K {k}、S {s} 成本和未见 tokens 相同,执行少 {runs} 次。",
    ),
    "tune.why.k": (
        "Why: the same cost, unseen tokens and runs as K {k}, S {s}: the smaller K.",
        "原因:与 K {k}、S {s} 成本、未见 tokens 和执行次数相同:K 更小。",
    ),
    "tune.why.s": (
        "Why: the same cost, unseen tokens and runs as K {k}, S {s}: the smaller S.",
        "原因:与 K {k}、S {s} 成本、未见 tokens 和执行次数相同:S 更小。",
    ),
    "tune.why.only": (
        "Why: it is the only point that meets the constraints.",
        "原因:它是唯一满足约束的点。",
    ),
    "tune.why.unknown": (
        "{n} points with unknown usage were never candidates.",
        "{n} 个用量未知的点从未参与选择。",
    ),
    "tune.versus": (
        "Against the scenario's own K {k}, S {s}: cost {cost}, unseen tokens {unseen}, "
        "runs {runs}, peak input {peak}.",
        "与场景自身的 K {k}、S {s} 相比:成本 {cost},未见 tokens {unseen},执行 {runs},"
        "输入峰值 {peak}。",
    ),
    "tune.trades": (
        "What it trades: K {k}, S {s} leaves {unseen} fewer tokens unseen for {cost} more.",
        "取舍:K {k}、S {s} 少留 {unseen} 个未见 tokens,但多花 {cost}。",
    ),
    "tune.trades.none": (
        "What it trades: no point that meets the constraints leaves fewer tokens unseen.",
        "取舍:没有满足约束的点能留下更少的未见 tokens。",
    ),
    "tune.use": ("Set K and S to the chosen point", "把 K 和 S 设为选中的点"),
    "tune.use-shown": ("Set K and S to this point", "把 K 和 S 设为这个点"),
    "tune.download": ("Download its reviewed config", "下载它的审阅配置"),
    "tune.export-note": (
        "The chosen point's reviewed config (spec §9), as the export panel below writes it (its format, or the runtime picked there):",
        "选中点的审阅配置(spec §9),按下方导出面板的写法(其格式,或其中选定的运行时):",
    ),
    "tune.sessions.one": (
        "From the session replay: 1 session, {turns} turns.",
        "来自会话回放:1 个会话,{turns} 轮。",
    ),
    "tune.sessions.other": (
        "From the session replay: {n} sessions, {turns} turns, added up.",
        "来自会话回放:{n} 个会话,共 {turns} 轮,合计。",
    ),
    "tune.not-replayed": ("Not replayed: {name}: {why}", "未重放:{name}:{why}"),
    "tune.stale": (
        "Waiting: fix the highlighted scenario field to tune it.",
        "等待中:请先修正高亮的场景字段。",
    ),
    "tune.replay-stale": (
        "Waiting: fix the highlighted field of the session replay.",
        "等待中:请先修正会话回放中高亮的字段。",
    ),
    "tune.constraints-stale": (
        "The choice waits: fix the highlighted constraint.",
        "选择暂停:请先修正高亮的约束。",
    ),
    "tune.starting": ("Preparing the sessions…", "正在准备会话…"),
    "tune.running": (
        "Replaying the grid: {done} of {total} points.",
        "正在重放网格:{done} / {total} 个点。",
    ),
    "tune.done": (
        "{points} points ({n_k} K × {n_s} S), each an exact replay.",
        "{points} 个点({n_k} 个 K × {n_s} 个 S),每个都是精确重放。",
    ),
    "tune.no-session": (
        "No session could be replayed.",
        "没有可以重放的会话。",
    ),
    "aria.tune-progress": ("Grid progress", "网格进度"),
}
