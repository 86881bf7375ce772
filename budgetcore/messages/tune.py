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
        "tokens. off or empty: no limit",
        "tokens。填 off 或留空:不限制",
    ),
    "label.tune.max_runs_per_100": (
        "Summary runs per 100 turns at most",
        "每 100 轮的摘要执行至多",
    ),
    "hint.tune.max_runs_per_100": (
        "runs and recompresses. off or empty: no limit",
        "执行与重压合计。填 off 或留空:不限制",
    ),
    # The quality limits (docs/spec.md §17), the CLI's --max-generations N|off and
    # --max-compression X|off; their defaults and sources are tune/choice.py's.
    "label.tune.max_generations": (
        "Summary generations at most",
        "摘要代数至多",
    ),
    "hint.tune.max_generations": (
        "how often the oldest history may be summarised again; default {default}: "
        "{source}. off or empty: no limit",
        "最早的历史至多可被再次摘要的次数;默认 {default}:{source}。填 off 或留空:不限制",
    ),
    "label.tune.max_compression": (
        "Compression at most (X of X:1)",
        "压缩比至多(X:1 中的 X)",
    ),
    "hint.tune.max_compression": (
        "what the largest run reads to what it writes; default {default}:1: {source}. "
        "off or empty: no limit",
        "读入最多的那次执行的读入与写出之比;默认 {default}:1:{source}。填 off 或留空:不限制",
    ),
    # tune.choice.DEFAULT_SOURCES, the same English (a test holds them equal).
    "tune.source.max_generations": (
        "the compaction-quality proposal: 53 % of pinned rules kept after one compaction "
        "round, 10 % after five (Compaction Cliff)",
        "压缩质量提案:一轮压缩后保留 53 % 的固定规则,五轮后仅剩 10 %(Compaction Cliff)",
    ),
    "tune.source.max_compression": (
        "the median of the runtimes that cap their summary, at their defaults on a "
        "200,000 window: Claude Code and Qwen Code 8.35:1, pi 12.5:1, Cline v4 34.7:1 "
        "(median 10.4:1, rounded down)",
        "为摘要设上限的运行时在 200,000 窗口下默认值的中位数:Claude Code 与 Qwen Code 8.35:1,"
        "pi 12.5:1,Cline v4 34.7:1(中位数 10.4:1,向下取整)",
    ),
    # Which limit decides the choice (issue 37): said beside it, with the values.
    "tune.binds.relaxed": (
        "No point makes at most {default} summary generations (the default: {source}), so "
        "the limit is relaxed to the fewest this grid allows, {fewest}.",
        "没有点的摘要代数不超过 {default}(默认值:{source}),因此上限放宽到本网格能做到的最少代数 {fewest}。",
    ),
    "tune.binds.relaxed-own": (
        "No point makes at most {default} summary generations (the default: {source}); the "
        "fewest this grid allows is {fewest}, so the limit is relaxed to {limit}, what the "
        "scenario's own K {k}, S {s} makes: the choice summarises no more often than it.",
        "没有点的摘要代数不超过 {default}(默认值:{source});本网格能做到的最少代数为 {fewest},"
        "因此上限放宽到 {limit},即场景自身的 K {k}、S {s} 的代数:所选点的摘要次数不多于它。",
    ),
    "tune.binds.above-as-run": (
        "No point within the limits costs less than the session as run, {as_run}: "
        "{below} of the grid's points do, and each breaks a limit above. Keeping the "
        "runtime's own settings is cheaper by this model.",
        "限制之内没有点比会话实际运行({as_run})更便宜:网格中有 {below} 个点更便宜,但每个都违反上面的某个限制。"
        "按此模型,保留运行时自身的设置更便宜。",
    ),
    "tune.binds.above-as-run-none": (
        "No point of this grid costs less than the session as run, {as_run}. Keeping the "
        "runtime's own settings is cheaper by this model.",
        "本网格中没有点比会话实际运行({as_run})更便宜。按此模型,保留运行时自身的设置更便宜。",
    ),
    "tune.binds.own": (
        "The scenario's own K {k}, S {s} is excluded: {why}.",
        "场景自身的 K {k}、S {s} 被排除:{why}。",
    ),
    "tune.binds.cheapest": (
        "The grid's cheapest point, K {k}, S {s} ({cost} less), is excluded: {why}.",
        "网格中成本最低的点 K {k}、S {s}(便宜 {cost})被排除:{why}。",
    ),
    # A chosen K of M (the grid's top row): what setting it means, before the review's
    # warning (warn.k-at-or-above-m) says it once it is set.
    "tune.binds.at-m": (
        "K {k} is M, the main request's safe input: compaction starts only once a request "
        "is already at the limit, so a longer session's requests are rejected before a "
        "summary is ready (the review warns of a K at or above M).",
        "K {k} 即 M(主调用安全输入):只有当请求已到上限时压缩才开始,"
        "更长的会话的请求会在摘要就绪之前被拒绝(评审会对不低于 M 的 K 给出警告)。",
    ),
    # After tune.binds.at-m: why such a K was chosen, plainly (the sixth walk: pi's Tune
    # chose K = M and said only the warning). A runtime whose own default line lies
    # above M (pi's reserveTokens 16,384) has its nearest admitted setting at M.
    "tune.binds.at-m-runtime": (
        "{runtime}'s own default, {knob} = {value}, compacts later still, at {line} "
        "tokens, above M: the grid stops at M, so this is the setting nearest that "
        "default which the plan admits.",
        "{runtime} 自身的默认值 {knob} = {value} 压缩得更晚,在 {line} tokens,高于 M:"
        "网格止于 M,所以这是计划允许的、最接近该默认值的设置。",
    ),
    "tune.binds.at-m-never": (
        "On these sessions it never compacts: their largest request, {peak} tokens, stays "
        "below it, so they pay for no summary.",
        "在这些会话上它从不压缩:最大的请求为 {peak} tokens,低于它,因此无需为摘要付费。",
    ),
    "tune.binds.at-m-runs.one": (
        "On these sessions it starts 1 summary call.",
        "在这些会话上它发起 1 次摘要调用。",
    ),
    "tune.binds.at-m-runs.other": (
        "On these sessions it starts {n} summary calls.",
        "在这些会话上它发起 {n} 次摘要调用。",
    ),
    "tune.binds.ties-own": (
        "The scenario's own K {k}, S {s} ties with the choice: the same cost, unseen "
        "tokens and runs on these sessions, which do not tell the two apart. The choice "
        "is the smaller by the tie rule, not a better point: keep yours unless other "
        "sessions say otherwise.",
        "场景自身的 K {k}、S {s} 与所选点打平:在这些会话上成本、未见 tokens 和执行次数"
        "都相同,这些会话无法区分二者。所选点只是按平局规则取了较小值,并非更优:"
        "除非其他会话另有结论,保留您自己的设置即可。",
    ),
    "tune.binds.edge": (
        "The choice sits on the grid's {edges}: the best point may lie beyond the grid.",
        "选中的点位于网格的{edges}:最优点可能在网格之外。",
    ),
    # The CLI's words after tune.binds.edge: what its flags do about it.
    "tune.edge.widen-cli": (
        "Widen --k / --s to see it; a smaller S or K saves tokens only as far as the "
        "quality constraints allow.",
        "用 --k / --s 加宽网格即可看到;更小的 S 或 K 只在质量约束允许的范围内节省 token。",
    ),
    "tune.edge.smallest-k": ("smallest K", "最小 K"),
    "tune.edge.largest-k": ("largest K", "最大 K"),
    "tune.edge.smallest-s": ("smallest S", "最小 S"),
    "tune.edge.largest-s": ("largest S", "最大 S"),
    "tune.broken.max_generations": (
        "it makes {value} summary generations, above the limit {limit}",
        "它有 {value} 代摘要,超过上限 {limit}",
    ),
    "tune.broken.max_compression": (
        "its largest run compresses {value}:1 (rounded up), above the limit {limit}:1",
        "它读入最多的那次执行压缩比为 {value}:1(向上取整),超过上限 {limit}:1",
    ),
    "tune.broken.no_rejected": (
        "it rejects {value}, and none may be",
        "它拒绝了 {value},而一轮都不允许",
    ),
    "tune.broken.max_rejected": (
        "it rejects {value}, above the limit {limit}",
        "它拒绝了 {value},超过上限 {limit}",
    ),
    "tune.broken.no_refused": (
        "it has {value} refusals, and none may be",
        "它有 {value} 次拒答,而一次都不允许",
    ),
    "tune.broken.max_unseen": (
        "it leaves {value} tokens unseen on one turn, above the limit {limit}",
        "它在单轮留下 {value} 个未见 tokens,超过上限 {limit}",
    ),
    "tune.broken.max_unseen_total": (
        "it leaves {value} tokens unseen over all turns, above the limit {limit}",
        "它在所有轮次共留下 {value} 个未见 tokens,超过上限 {limit}",
    ),
    "tune.broken.max_runs_per_100": (
        "it makes {value} summary calls per 100 turns (rounded up), above the limit {limit}",
        "它每 100 轮有 {value} 次摘要调用(向上取整),超过上限 {limit}",
    ),
    "tune.broken.runtime_unreachable": (
        "it is no setting of the runtime",
        "它不是该运行时的设置",
    ),
    "tune.broken.serves_no_turn": (
        "it rejects every turn, so nothing is served and its cost says nothing",
        "它拒绝了每一轮,什么也没有服务,它的花费说明不了什么",
    ),
    "tune.unit.money": ("dollars", "美元"),
    "tune.unit.billed": ("billed tokens", "计费 tokens"),
    "tune.unit.billed-title": ("billed tokens: no prices given", "计费 tokens:未给价格"),
    # A map's value counted (a cell, a legend's band): the plural rule of count().
    "tune.count.calls.one": ("{n} summary call", "{n} 次摘要调用"),
    "tune.count.calls.other": ("{n} summary calls", "{n} 次摘要调用"),
    "tune.count.generations.one": ("{n} generation", "{n} 代"),
    "tune.count.generations.other": ("{n} generations", "{n} 代"),
    "tune.count.tokens.one": ("{n} token", "{n} tokens"),
    "tune.count.tokens.other": ("{n} tokens", "{n} tokens"),
    "tune.amount": ("{value} {unit}", "{value} {unit}"),
    "tune.unknown-usage": (
        "unknown (a try's usage is unknown)",
        "未知(有一次尝试的用量未知)",
    ),
    # {runs}, {recompresses}, {rejected} and {generations} are counted phrases
    # (tune.count.*): "1 run", never "1 runs" (the walk of 6 December).
    "tune.point": (
        "K {k} tokens, S {s} tokens: modelled cost {cost}; unseen history {unseen} tokens "
        "summed over turns (at most {peak_unseen} on one turn); {runs} and "
        "{recompresses}; {rejected}; peak full input {peak} of "
        "M {m} tokens; {generations}, compression {compression}",
        "K {k} tokens,S {s} tokens:模型成本 {cost};未见历史按轮合计 {unseen} tokens(单轮最多 "
        "{peak_unseen});{runs}、{recompresses};{rejected};完整输入"
        "峰值 {peak},M 为 {m} tokens;{generations},压缩比 {compression}",
    ),
    # Over a log: the point's cost is its what-if, said after it (tune.point-whatif).
    "tune.point.what-if": (
        "K {k} tokens, S {s} tokens: unseen history {unseen} tokens "
        "summed over turns (at most {peak_unseen} on one turn); {runs} and "
        "{recompresses}; {rejected}; peak full input {peak} of "
        "M {m} tokens; {generations}, compression {compression}",
        "K {k} tokens,S {s} tokens:未见历史按轮合计 {unseen} tokens(单轮最多 "
        "{peak_unseen});{runs}、{recompresses};{rejected};完整输入"
        "峰值 {peak},M 为 {m} tokens;{generations},压缩比 {compression}",
    ),
    # {value} of tune.broken.*_rejected and {turns} of tune.sessions.*: "1 turn".
    "tune.count.turns.one": ("{n} turn", "{n} 轮"),
    "tune.count.turns.other": ("{n} turns", "{n} 轮"),
    "tune.count.runs.one": ("{n} run", "执行 {n} 次"),
    "tune.count.runs.other": ("{n} runs", "执行 {n} 次"),
    "tune.count.recompresses.one": ("{n} recompress", "重压 {n} 次"),
    "tune.count.recompresses.other": ("{n} recompresses", "重压 {n} 次"),
    "tune.count.rejected.one": ("{n} rejected turn", "被拒绝 {n} 轮"),
    "tune.count.rejected.other": ("{n} rejected turns", "被拒绝 {n} 轮"),
    "tune.count.summary-generations.one": ("{n} summary generation", "摘要代数 {n}"),
    "tune.count.summary-generations.other": ("{n} summary generations", "摘要代数 {n}"),
    "tune.compression": ("{ratio}:1", "{ratio}:1"),
    "tune.no-run": ("no summary run", "没有摘要执行"),
    "tune.map.compression.title": (
        "Compression at each K and S (the run that took the most input: what it read to"
        " what it wrote, floored to a tenth; the default choice allows at most 10:1)",
        "各 K 与 S 下的压缩比(读入最多的那次执行:读入与写出之比,向下取到十分位;默认选择至多允许 10:1)",
    ),
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
    # A map legend's heading says what the colours mean in a line or two; how its bands
    # are cut follows the keys as a note (the eighth walk: eight bold lines at 390 px).
    "tune.scale": (
        "Colour scale, eighths of the points:",
        "色标,每带约八分之一的点:",
    ),
    "tune.scale-money": (
        "Colour scale, eighths of the points; a cell shows its exact cost:",
        "色标,每带约八分之一的点;单元格显示精确成本:",
    ),
    # Fewer bands than eight (the unseen-history map: most points 0, the rest one value):
    # "eighths of the points" over two bands was not what they were (the eighth walk).
    "tune.scale-few": ("Colour scale, {bands}:", "色标,{bands}:"),
    "tune.scale-few-money": (
        "Colour scale, {bands}; a cell shows its exact cost:",
        "色标,{bands};单元格显示精确成本:",
    ),
    "tune.scale-few-why": (
        "{bands}, not eight: bands hold about equal numbers of points, but the last "
        "band's points all hold one value, which no edge can split.",
        "{bands},不足八带:各带的点数大致相等,但最后一带的点都是同一个值,无法再分。",
    ),
    "tune.scale-one-why": (
        "1 band, not eight: every point holds the same value.",
        "1 个色带,不足八带:每个点的值都相同。",
    ),
    "tune.scale-bands": (
        "Each band runs from its low end up to, not including, the next (edges rounded to "
        "3 significant figures, exact).",
        "每带从其下端起,到下一带的下端为止(不含;边界取 3 位有效数字,为精确值)。",
    ),
    "tune.scale-bands-money": (
        "Each band runs from its low end up to, not including, the next (edges rounded to "
        "3 significant figures, exact; the least and greatest cost to 4, widened outward).",
        "每带从其下端起,到下一带的下端为止(不含;边界取 3 位有效数字,为精确值;最低与最高成本取 4 位"
        "有效数字并向外取整)。",
    ),
    "tune.bin": ("{low} to {high}", "{low} 至 {high}"),
    "tune.bin-open": ("{low} to < {high}", "{low} 至 < {high}"),
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
    # Under the maps that are not the cost (unseen history, runs, generations,
    # compression): "tune.not" called each of them "the modelled cost".
    "tune.not-measure": (
        "a forecast for other sessions. Each cell is these sessions replayed under this "
        "scenario's rules at that K and S, modelled, not measured; unseen history is what a "
        "request leaves out, not what is lost.",
        "对其他会话的预测。每个格子是这些会话在本场景规则下以该 K 与 S 重放的结果,是模型计算的,"
        "不是实测;未见历史是请求没有带上的部分,不是丢失的部分。",
    ),
    # Each quality map's own clause: the compression and generations maps said "unseen
    # history is what a request leaves out", of a measure they do not show.
    "tune.not-measure.runs": (
        "a forecast for other sessions. Each cell is these sessions replayed under this "
        "scenario's rules at that K and S, modelled, not measured.",
        "对其他会话的预测。每个格子是这些会话在本场景规则下以该 K 与 S 重放的结果,是模型计算的,"
        "不是实测。",
    ),
    "tune.not-measure.generations": (
        "a forecast for other sessions, nor a measure of what the summaries kept. Each cell "
        "is these sessions replayed under this scenario's rules at that K and S, modelled, "
        "not measured; a generation is one more summary that the oldest history went through.",
        "对其他会话的预测,也不是摘要保留了多少的度量。每个格子是这些会话在本场景规则下以该 K 与 S "
        "重放的结果,是模型计算的,不是实测;每一代表示最早的历史又经过了一次摘要。",
    ),
    "tune.not-measure.compression": (
        "a forecast for other sessions, nor a measure of what the summary kept. Each cell is "
        "these sessions replayed under this scenario's rules at that K and S, modelled, not "
        "measured; the ratio is what one run read to what it wrote, in tokens.",
        "对其他会话的预测,也不是摘要保留了多少的度量。每个格子是这些会话在本场景规则下以该 K 与 S "
        "重放的结果,是模型计算的,不是实测;比值是一次执行的读入与写出之比(按 tokens 计)。",
    ),
    "tune.choice.none-serves": (
        "No point is chosen: each of the {points} points rejects every turn, whatever its K and S, so none serves these sessions and a cost of 0 says nothing. The plan itself rejects them: a turn's required input does not fit under M.",
        "没有选中的点:{points} 个点中的每一个都拒绝了每一轮,与 K 和 S 无关,因此没有一个点服务这些会话,0 花费说明不了什么。是方案本身拒绝了它们:一轮的必需输入放不进 M。",
    ),
    # The page says the counts after "tune.choice.none"; the CLI after its own "Choice:
    # none." (one sentence of counts for both, where the CLI cut the page's head off).
    "tune.choice.none": ("No point is chosen. {counts}", "没有选中的点:{counts}"),
    "tune.choice.none-counts": (
        "Of the {points} points, breaking a constraint: {broken}; of unknown usage: {unknown}.",
        "{points} 个点中,{broken} 个违反约束,{unknown} 个用量未知。",
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
    "tune.why.unknown.one": (
        "{n} point with unknown usage was never a candidate.",
        "{n} 个用量未知的点从未参与选择。",
    ),
    "tune.why.unknown.other": (
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
        "From the session replay: 1 session, {turns}.",
        "来自会话回放:1 个会话,{turns}。",
    ),
    "tune.sessions.other": (
        "From the session replay: {n} sessions, {turns}, added up.",
        "来自会话回放:{n} 个会话,共 {turns},合计。",
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
    # {total} counts replays: each of the grid's {points} points on each session (and,
    # with as-run baselines, its what-if), not points of the grid (the thirteenth walk
    # read "145,778 of 1,536,000 points" of a 384-point grid).
    "tune.running": (
        "Replaying the grid: {done} of {total} replays (each of its {points} points on "
        "each session).",
        "正在重放网格:{done} / {total} 次重放(网格的 {points} 个点在每个会话上各一次)。",
    ),
    "tune.running-what-if": (
        "Replaying the grid: {done} of {total} replays (each of its {points} points on "
        "each session, then its what-if on the session's as-run baseline).",
        "正在重放网格:{done} / {total} 次重放(网格的 {points} 个点在每个会话上各一次,"
        "再各算一次相对该会话按实际运行基准的假设)。",
    ),
    "tune.done": (
        "{points} points ({n_k} K × {n_s} S), each an exact replay.",
        "{points} 个点({n_k} 个 K × {n_s} 个 S),每个都是精确重放。",
    ),
    "tune.no-session": (
        "No session could be replayed.",
        "没有可以重放的会话。",
    ),
    # Each point as a what-if on the log's as-run baseline (docs/spec.md §17).
    "tune.map.delta.title": (
        "Change from the as-run model at each K and S (dollars: the point's what-if, every "
        "series, minus the session as it ran, modelled)",
        "各 K 与 S 下相对按实际运行模型的变化(美元:该点的假设,含所有序列,减去按实际运行建模的会话)",
    ),
    "tune.scale-delta": (
        "Blue saves, red costs more; a cell shows its exact what-if:",
        "蓝色为节省,红色为更贵;单元格显示精确的假设值:",
    ),
    "tune.scale-delta-bands": (
        "One scale for both signs: 0 alone, then bands of the change's size, each about a "
        "quarter of the changed points, from its low end up to, not including, the next "
        "(edges rounded to 3 significant figures, exact; a side's least and greatest change "
        "to 4, widened outward).",
        "正负共用一个色标:0 单独一档,其余按变化大小分带,每带约占有变化的点的四分之一,从其下端起,到下一带的"
        "下端为止(不含;边界取 3 位有效数字,为精确值;每侧最小与最大变化取 4 位有效数字并向外取整)。",
    ),
    "tune.bin-save-open": ("saves {low} to < {high}", "节省 {low} 至 < {high}"),
    "tune.bin-save": ("saves {low} to {high}", "节省 {low} 至 {high}"),
    "tune.bin-more-open": ("{low} to < {high} more", "多花 {low} 至 < {high}"),
    "tune.bin-more": ("{low} to {high} more", "多花 {low} 至 {high}"),
    "tune.bin-save-one": ("saves {value}", "节省 {value}"),
    "tune.bin-more-one": ("{value} more", "多花 {value}"),
    "tune.not-delta": (
        "a forecast, nor a saving on the bill. It is each point's what-if against the "
        "as-run model of these sessions (the same growth and cache rules, the runtime's "
        "trigger replaced by K and S), so it is only as good as the backtest above.",
        "预测,也不是账单上的节省。这是每个点相对这些会话按实际运行模型的假设(相同的增长与缓存规则,"
        "只把运行时的触发换成 K 与 S),因此它只和上面的回测一样可靠。",
    ),
    "tune.delta.unknown": (
        "what-if unknown (a price or a replay is missing)",
        "假设未知(缺少价格或重放)",
    ),
    "tune.delta.value": (
        "what-if {modelled}, {delta} from the as-run model",
        "假设 {modelled},相对按实际运行模型 {delta}",
    ),
    "tune.point-whatif": ("{point}; {whatif}", "{point};{whatif}"),
    "tune.asrun-scope.one": (
        "The points below are what-ifs on this baseline (every series of the session).",
        "下面的点都是基于此基准的假设(含该会话的所有序列)。",
    ),
    "tune.asrun-scope.other": (
        "The points below are what-ifs on this baseline ({n} sessions, every series).",
        "下面的点都是基于此基准的假设({n} 个会话,含所有序列)。",
    ),
    # A response another session of the import bills (replay's requests_billed_elsewhere,
    # a resumed session's copies): said beside the as-run line it is left out of, by the
    # CLI's table (each session's line) and the page's Tune (the sum's).
    "tune.asrun-elsewhere.one": (
        "{n} request is billed in another session of the import (a resumed session writes "
        "the earlier one's responses again): it is left out of this as-run cost and of every "
        "what-if.",
        "{n} 个请求在导入的另一个会话中计费(恢复的会话会再次写入之前会话的响应):"
        "此按实际运行花费与每个假设都不含它。",
    ),
    "tune.asrun-elsewhere.other": (
        "{n} requests are billed in another session of the import (a resumed session writes "
        "the earlier one's responses again): they are left out of this as-run cost and of "
        "every what-if.",
        "{n} 个请求在导入的另一个会话中计费(恢复的会话会再次写入之前会话的响应):"
        "此按实际运行花费与每个假设都不含它们。",
    ),
    "tune.sessions-named": ("{names}: ", "{names}:"),
    "tune.backtest-off": (
        "This backtest is not within 5 % of the bill ({ratio}): every point's what-if, the "
        "chosen one's too, is the model's, not the session's (⚠).",
        "此回测与账单的差距超过 5 %({ratio}):每个点的假设(包括选中的点)都是模型的结果,"
        "不是会话本身的(⚠)。",
    ),
    "tune.backtest-off.several": (
        "These backtests are not within 5 % of their bills: every point's what-if, the "
        "chosen one's too, is the model's, not the sessions' (⚠).",
        "这些回测与各自账单的差距超过 5 %:每个点的假设(包括选中的点)都是模型的结果,"
        "不是会话本身的(⚠)。",
    ),
    "tune.backtest-unchecked.several": (
        "These backtests cannot all be checked (a cost is unknown): every point's what-if "
        "is the model's, not the sessions' (⚠).",
        "这些回测无法全部核对(有花费未知):每个点的假设都是模型的结果,不是会话本身的(⚠)。",
    ),
    "tune.session-ratio": ("{name} ({ratio})", "{name}({ratio})"),
    "tune.backtest-unchecked": (
        "This backtest cannot be checked (a cost is unknown): every point's what-if is the "
        "model's, not the session's (⚠).",
        "此回测无法核对(有花费未知):每个点的假设都是模型的结果,不是会话本身的(⚠)。",
    ),
    "tune.choice.whatif": (
        "As a what-if on the as-run baseline: {whatif}.",
        "作为基于按实际运行基准的假设:{whatif}。",
    ),
    # Tune in the picked runtime's own knob (issue 39; docs/tune.md, "A runtime's knob").
    "tune.axis.knob": (
        "{knob}, the runtime's own setting ({unit}; one row per value, its K in each point's text)",
        "{knob},该运行时自身的设置({unit};每行一个取值,其 K 见各点的说明)",
    ),
    "tune.axis.s-runtime": (
        "S, {runtime}'s own summary cap (tokens; the runtime sets it, not you)",
        "S,{runtime} 自身的摘要上限(tokens;由运行时决定,不由你设置)",
    ),
    "tune.axis.s-scenario": (
        "S, summary cap: not settable in {runtime} (the scenario's S, tokens)",
        "S,摘要上限:在 {runtime} 中不可设置(场景的 S,tokens)",
    ),
    "tune.knob-unit.tokens": ("tokens", "tokens"),
    "tune.knob-unit.percent": ("percent", "百分比"),
    "tune.knob-unit.fraction": ("a fraction", "比例"),
    "tune.knob-unit.trigger": ("tokens", "tokens"),
    "tune.knob-unit.messages": ("messages", "条消息"),
    "tune.knob-unit.bool": ("on or off", "开或关"),
    "tune.knob-unit.choice": ("a choice", "选项"),
    "tune.knob-is": ("{knob} = {value}", "{knob} = {value}"),
    # Tune's value and the runtime export's can differ in their digits for one K: the
    # export aims at the middle of K's token (runtimes/tune_axis.RuntimeAxis.exported).
    # A space after the Chinese semicolon, as after "选中:": the grid's knob is one long
    # word, and the line broke inside "边界" or "设置" before it (390 px).
    "tune.knob-exported": (
        "The runtime export writes {knob} = {value} for this K {k}: aimed at the middle "
        "of that token, so that the runtime's float arithmetic cannot cross its edge; "
        "{grid} reaches the same K.",
        "运行时导出为这个 K {k} 写入 {knob} = {value}:取该 token 的中点,"
        "使运行时的浮点运算不会越过它的边界; {grid} 得到同一个 K。",
    ),
    "tune.knob-exported-other": (
        "The runtime export writes {knob} = {value} for this K {k}, a whole-token setting "
        "that reaches it exactly; {grid} reaches the same K.",
        "运行时导出为这个 K {k} 写入 {knob} = {value},一个以整 token 计、正好得到它的设置; "
        "{grid} 得到同一个 K。",
    ),
    "tune.not-a-setting": (
        "no setting of {runtime} (its knob moves K and S together)",
        "不是 {runtime} 的设置(它的设置同时移动 K 与 S)",
    ),
    "tune.point-knob": ("{knob}: {point}", "{knob}:{point}"),
    # A space after the colon in Chinese too: the knob's name is one long word, and the
    # line may break before it rather than inside "选中" (seen at 390 px).
    "tune.choice.head-knob": (
        "Chosen: {knob} (K {k}, S {s}).",
        "选中: {knob}(K {k},S {s})。",
    ),
    "tune.runtime-fallback": (
        # {why} is the profile's reason, said of the runtime (as a problem says "{title}
        # {why}"): "OpenCode cannot be tuned: moves its line ..." had no subject.
        "{runtime} cannot be tuned: it {why}. The grid is over K and S instead.",
        "{runtime} 无法调优:{why}。因此网格改为按 K 与 S 展开。",
    ),
    # Any other refusal is a problem's own sentence, its subject in it.
    "tune.runtime-fallback-problem": (
        "{runtime} cannot be tuned: {why}. The grid is over K and S instead.",
        "{runtime} 无法调优:{why}。因此网格改为按 K 与 S 展开。",
    ),
    # runtimes.tune_axis.NOT_TUNABLE, the same English (a test holds them equal).
    "tune.not-tunable.cline": (
        "has no threshold setting in v4 (its line is 0.81 × W)",
        "在 v4 中没有阈值设置(其触发线为 0.81 × W)",
    ),
    "tune.not-tunable.opencode": (
        "moves its line with compaction.reserved only when the model sets limit.input; "
        "without it the line is W − min(O, 32,000)",
        "只有在模型设置了 limit.input 时才会随 compaction.reserved 移动触发线;"
        "否则触发线为 W − min(O, 32,000)",
    ),
    "tune.runtime-never": (
        "{runtime} never compacts with {knob} = {values}: those values are not on the grid.",
        "{knob} = {values} 时 {runtime} 从不压缩:这些取值不在网格上。",
    ),
    "tune.runtime-above": (
        "{knob} = {values}: {runtime} would compact above the safe input M = {m}, so"
        " those values are not on the grid (the replay caps a request at M, and would"
        " read them as a session that never summarises).",
        "{knob} = {values} 时 {runtime} 的压缩触发线高于安全输入 M = {m},因此这些取值"
        "不在网格上(回放会把请求截在 M,把它们读成从不摘要的会话)。",
    ),
    "aria.tune-progress": ("Grid progress", "网格进度"),
}
