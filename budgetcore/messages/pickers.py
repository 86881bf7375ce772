"""The model pickers over the LiteLLM registry: matches, marks, prices and how a name was
resolved.
"""

MESSAGES: dict[str, tuple[str, str]] = {
    "picker.label": ("Model from the registry", "从模型注册表选择"),
    "picker.meta": ("{provider} · I {i} · O {o}", "{provider} · I {i} · O {o}"),
    "picker.loading": ("Loading the model registry…", "正在加载模型注册表……"),
    "picker.type": (
        "Type {n} letters or more to search {total} models ({release}, {retired} of them retired models from older releases); ↑ ↓ move, Enter chooses, Esc closes.",
        "输入至少 {n} 个字符,在 {total} 个模型中搜索({release},其中 {retired} 个是取自旧版本的已退役模型);↑ ↓ 移动,Enter 选择,Esc 关闭。",
    ),
    "picker.none": ("No model matches “{query}”.", "没有与“{query}”匹配的模型。"),
    # Text left in the box when the list closed without a choice (the twelfth walk).
    "picker.unchosen": (
        "“{query}” chose no model: the plan keeps its own I and O. Type {n} letters or more and choose one from the list.",
        "“{query}”没有选中任何模型:方案保留自己的 I 与 O。输入至少 {n} 个字符,再从列表中选择一个。",
    ),
    "picker.unchosen-kept": (
        "“{query}” chose no model: the plan keeps {model}.",
        "“{query}”没有选中任何模型:方案保留 {model}。",
    ),
    "picker.some": (
        "The best {shown} of {total} matches: type more to narrow them.",
        "共 {total} 个匹配,显示最相关的 {shown} 个:继续输入可缩小范围。",
    ),
    "picker.all.one": ("{n} match.", "{n} 个匹配。"),
    "picker.all.other": ("{n} matches.", "{n} 个匹配。"),
    "picker.custom": (
        "Custom: O edited, or I raised above the model's window, by hand after choosing {name}.",
        "自定义:选择 {name} 后手动修改了 O,或把 I 调到了模型窗口之上。",
    ),
    "picker.contract": ("({provider}): I {i}, O {o}", "({provider}):I {i},O {o}"),
    # A registry model run at a smaller window than its own (a runtime's, spec §17).
    "picker.window": (
        "run at a window of {w} (a runtime's window, below the model's {i})",
        "以 {w} 的窗口运行(运行时给的窗口,小于模型的 {i})",
    ),
    "picker.prices": (
        "USD per 1,000,000 tokens: input {input} · output {output} · cache read {read} · cache write {write}",
        "每 1,000,000 tokens 美元价格:输入 {input} · 输出 {output} · 缓存读取 {read} · 缓存写入 {write}",
    ),
    "picker.release": (
        "From the {release} registry; q (output reserve) stays your choice.",
        "数据来自 {release} 注册表;q(输出预留)仍由你决定。",
    ),
    "picker.mark.responses": ("Responses API only", "仅支持 Responses API"),
    "picker.mark.retired": ("retired: last listed in {release}", "已退役:最后收录于 {release}"),
    "picker.mark.deprecation": ("deprecation date {date}", "弃用日期 {date}"),
    "picker.mark.deprecated": (
        "deprecated since {date} (already past)",
        "已于 {date} 弃用(日期已过)",
    ),
    "picker.resolved": ("“{written}” is {name} ({how})", "“{written}”即 {name}({how})"),
    "picker.how.exact": ("exact id", "精确 id"),
    "picker.how.provider prefix": ("provider prefix", "去掉服务商前缀"),
    "picker.how.date suffix": ("date suffix", "日期后缀"),
    "picker.how.alias": ("alias", "别名"),
    "picker.how.version separator": ("version separator", "版本号分隔符"),
    "picker.how.route prefix": ("route prefix", "去掉路由前缀"),
    "picker.price-unlisted": ("not in the registry", "注册表未列出"),
    "picker.prices-1h": (" · 1-hour cache write {write_1h}", " · 1 小时缓存写入 {write_1h}"),
    "picker.tier": (
        "Above {above} context tokens the whole request pays: input {input} · output {output} · cache read {read} · cache write {write}",
        "上下文超过 {above} tokens 时整个请求按此计价:输入 {input} · 输出 {output} · 缓存读取 {read} · 缓存写入 {write}",
    ),
}
