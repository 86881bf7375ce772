"""The experiments panel: its heading and each suggested experiment."""

MESSAGES: dict[str, tuple[str, str]] = {
    "static.experiments-h": ("Boundary experiments", "四个边界实验"),
    "exp.lower_k.title": ("1. Lower only K", "1. 只降低 K"),
    "exp.lower_k.expect": (
        "Only K moves: a summary triggers more easily, and M, S, G and C do not change. If the required input alone is above K it fires every turn: check that there is history to advance, not only the lamp.",
        "只有 K 变化:摘要更容易触发,M、S、G、C 不变。如果必需输入本身就高于 K,摘要可能每轮触发;需检查是否还有可推进的历史,而不是只看触发灯。",
    ),
    "exp.lower_s.title": ("2. S from 16,384 to 8,192", "2. S 从 16,384 降为 8,192"),
    "exp.lower_s.expect": (
        "With a 12,000-token previous summary, lowering S from 16,384 to 8,192 needs a recompress: new raw is 0 for this round and the coverage point c does not move. The old summary keeps being used while it fits.",
        "旧摘要为 12,000 tokens 时,把 S 从 16,384 降为 8,192 会出现重压需求:本轮新增原文为零,覆盖点 c 不变;旧摘要在放得下时继续使用。",
    ),
    "exp.raise_i.title": ("3. Raise only I", "3. 只增大模型 I"),
    "exp.raise_i.expect": (
        "Doubling the main model's input capacity grows M, but not the 2 MiB read allowance, the read time limits or background concurrency: a bigger window does not read more history.",
        "主模型输入能力翻倍时 M 变大,但 2 MiB 读取量、读取时限和后台并发不会自动增长:更大窗口不等于一次读取更多历史。",
    ),
    "exp.f_above_m.title": ("4. F above M, no history", "4. 把 F 提高到超过 M,历史清零"),
    "exp.f_above_m.expect": (
        "Sets the required input F one token above M and the history to 0. The raw space is 0 and the request is rejected although there is no history left to cut: a summary cannot fix an oversized required input.",
        "把必需输入 F 设为比 M 多一个 token,并把历史设为 0。原文空间归零;即使已没有可裁剪的历史,请求也无法发起。摘要不能解决过大的必需输入。",
    ),
    "static.experiments-note": (
        "Each experiment applies to the scenario on screen: it pins the before and shows the after as the current plan. Reset first to start from the article's example.",
        "每个实验都作用于当前场景:固定实验前的方案,实验后显示为当前方案。先点“重置”可从文章示例开始。",
    ),
}
