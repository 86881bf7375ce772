"""The capacity curves: axes, markers and what each sweep must not be read as (after
``phrase.not``).
"""

MESSAGES: dict[str, tuple[str, str]] = {
    "static.curves-h": ("Capacity curves: sweep one input", "容量曲线:扫描一个输入"),
    "static.sweep": ("Sweep", "扫描"),
    "phrase.curves-caveat": (
        "raising the summary cap S can raise the main model's M — it never does; each panel has its own scale.",
        "调高摘要上限 S 可以提高主模型 M(它从不会);每个小图有各自的刻度。",
    ),
    "curves.aria": ("Capacity curves", "容量曲线"),
    "curves.state": ("{name} {dark}", "{name}{dark}"),
    "curves.marker": (
        "Marker: this scenario's {name} = {value}; the numbers beside it are this scenario's exact readouts.",
        "标记:本场景的{name} = {value};旁边的数字是本场景的精确读数。",
    ),
    "curves.outside": (
        "This scenario's {name} ({value}) is outside the swept range, so no marker is drawn.",
        "本场景的{name}({value})不在扫描范围内,因此没有标记。",
    ),
    "curves.scales": (
        "Each panel has its own y scale, from 0, in tokens; the x axis is shared.",
        "每个小图有各自的纵轴刻度,从 0 开始,单位 tokens;横轴共用。",
    ),
    "curves.log-zero": (
        "The x axis is logarithmic from 1; 0 sits apart, left of the break.",
        "横轴从 1 起为对数刻度;0 单独放在断口左侧。",
    ),
    "curves.not.config.summary_max_tokens": (
        "Raising the summary cap S does not raise M: the main request's capacity does not depend on S. S moves only the summary call (G = S, and C when the summary model reserves its output).",
        "调高摘要上限 S 不会提高 M:主请求容量与 S 无关。S 只影响摘要调用(G = S;摘要模型预留输出时还有 C)。",
    ),
    "curves.not.config.trigger_tokens": (
        "Lowering K does not change M, S, G or C, and reaching K does not by itself start a summary: K only moves where the trigger fires.",
        "降低 K 不会改变 M、S、G、C;达到 K 本身也不会启动摘要:K 只改变触发的位置。",
    ),
    "curves.not.main_model.input_tokens": (
        "A bigger main window grows M, not the read protections (2 MiB, read time, records) or background concurrency: the full input stays what was actually read.",
        "主模型窗口变大只会增大 M,不会增大读取保护(2 MiB、读取时限、记录数)和后台并发:完整输入仍是实际读到的内容。",
    ),
    "curves.not.summary_model.input_tokens": (
        "A bigger summary window grows C (and the new raw budget, up to the work cap), not M or S: the summary body stays capped by S.",
        "摘要模型窗口变大只会增大 C(以及新增原文额度,最多到工作上限),不会改变 M 或 S:摘要正文仍受 S 限制。",
    ),
    "curves.not.config.safety_margin": (
        "A smaller margin is not free capacity: M and C shrink as m grows and grow as it falls, because the margin is the room kept for estimate errors. K and S do not move.",
        "更小的安全余量不是白得的容量:m 增大时 M 和 C 变小,m 减小时变大,因为余量是为估算误差保留的空间。K 和 S 不变。",
    ),
    "curves.not.workload.required_tokens": (
        "Raising F does not raise M: above M the request is rejected even with no history, and a summary cannot fix an oversized required input.",
        "提高 F 不会提高 M:F 超过 M 时,即使没有历史,请求也会被拒绝;摘要不能解决过大的必需输入。",
    ),
    "curves.not.workload.previous_summary_tokens": (
        "A longer previous summary does not change M or S, and the main request does not grow with it here; above S it forces a recompress (no new raw that round).",
        "更长的旧摘要不会改变 M 或 S,这里主请求也不会随之变大;超过 S 时需要重压(该轮没有新增原文)。",
    ),
}
