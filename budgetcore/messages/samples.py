"""Pasted samples (spec §7), the import preview and the export (spec §9)."""

MESSAGES: dict[str, tuple[str, str]] = {
    "static.copy-link": ("Copy link", "复制链接"),
    "static.samples-h": ("Bytes and time from your own samples", "根据自己的样本预测字节与耗时"),
    "static.samples-note": (
        "Paste paired samples measured on your own store, one JSON object per line: channels text, bson, json (tokens, bytes), read (bytes, ms) and query (ms). A channel without samples predicts unknown — never a generic language ratio.",
        '粘贴在自己存储上测得的配对样本,每行一个 JSON 对象:通道 text、bson、json(字段 "tokens" 与 "bytes"),read("bytes" 与 "ms")与 query("ms")。没有样本的通道显示未知,不用通用语言比例代替。',
    ),
    "static.samples-label": ("Samples (JSON Lines)", "样本(JSON Lines)"),
    "static.example-samples": ("Load made-up example samples", "载入虚构的示例样本"),
    # The first line of the made-up samples, a comment the samples reader skips.
    "samples.example-comment": (
        "Made-up example samples: replace them with pairs measured on your own store.",
        "虚构的示例样本:请换成在自己存储上测得的配对样本。",
    ),
    "label.samples.tokens_per_message": ("Average tokens per message", "每条消息平均 tokens"),
    "label.samples.messages_per_session": ("Messages per session", "每个会话的消息数"),
    "static.download": ("Download", "下载"),
    "static.copy": ("Copy", "复制"),
    "static.import-h": ("Import a config", "导入配置"),
    "static.import-paste": ("Paste TOML or JSON", "粘贴 TOML 或 JSON"),
    "static.import-file": ("or choose a file", "或选择文件"),
    # The import file box's own button and status: the browser's are in its language.
    "static.import-file-button": ("Choose a file", "选择文件"),
    "static.import-file-none": ("No file chosen", "未选择文件"),
    "static.import-apply": ("Apply import", "应用导入"),
    "phrase.samples": ("samples", "样本数"),
    "phrase.import-replace": ("replace", "替换"),
    "phrase.import-merge": ("merge", "合并"),
    "phrase.import-mode": ("How to apply", "应用方式"),
    "phrase.import-mode-replace": (
        "Replace: the file becomes the whole override set (keys it omits go back to defaults)",
        "替换:文件即全部覆盖项(文件未写的键恢复默认值)",
    ),
    "phrase.import-mode-merge": (
        "Merge: only the keys in the file change",
        "合并:只修改文件中出现的键",
    ),
    "phrase.import-check": ("Preview import", "预览导入"),
    # {n} counts the file's overrides, {changes} the table's rows (count.setting): a
    # replace also puts back keys the file omits, and a recorded model changes I and O.
    "phrase.import-preview": (
        "The file sets {n} ({mode}). Applying it changes {changes}:",
        "文件设置了 {n}({mode})。应用后将变化 {changes}:",
    ),
    "phrase.import-preview-model": (
        "The file sets {n} and records its main model ({mode}). Applying it changes {changes}:",
        "文件设置了 {n},并记录了其主模型({mode})。应用后将变化 {changes}:",
    ),
    "phrase.import-preview-none": (
        "The file sets {n} ({mode}).",
        "文件设置了 {n}({mode})。",
    ),
    "phrase.import-empty-replace": (
        "The file sets no overrides: replacing puts every supported setting back to its default. Applying it changes {changes}:",
        "文件没有任何覆盖项:替换会把所有受支持的设置恢复为默认值。应用后将变化 {changes}:",
    ),
    "phrase.import-empty-replace-none": (
        "The file sets no overrides: replacing puts every supported setting back to its default.",
        "文件没有任何覆盖项:替换会把所有受支持的设置恢复为默认值。",
    ),
    "phrase.import-empty-model": (
        "The file sets no overrides and records its main model ({mode}). Applying it changes {changes}:",
        "文件没有任何覆盖项,但记录了其主模型({mode})。应用后将变化 {changes}:",
    ),
    "phrase.import-empty-merge": (
        "The file sets no overrides: merging it changes nothing.",
        "文件没有任何覆盖项:合并不会改变任何设置。",
    ),
    "phrase.import-no-change": ("Nothing changes.", "没有任何变化。"),
    "phrase.import-restores": (
        "It restores the reviewed plan: main model {model} (I {input}, O {output}): "
        "M {m}, K {k}, S {s}.",
        "它恢复评审时的方案:主模型 {model}(I {input},O {output}):M {m},K {k},S {s}。",
    ),
    "phrase.import-no-model": (
        "The file records no model (written before files did): the page keeps its own, "
        "{model} (I {input}, O {output}): M {m}, K {k}, S {s}.",
        "文件未记录模型(较早版本写出):页面保留当前模型 {model}(I {input},O {output}):"
        "M {m},K {k},S {s}。",
    ),
    # Where {model} has no registry name: "the page's main model with a custom contract".
    "phrase.custom-contract": ("with a custom contract", "自定义合同"),
    # A runtime's own file: it names no model (the page's export writes the model in a
    # comment only), names one the registry has (restored), or one it does not.
    "phrase.import-runtime": (
        "Read as {runtime}'s own file, which names no model, for the page's main model "
        "{model} (I {input}, O {output}): M {m}, K {k}, S {s}. For another model, choose "
        "it in the main model picker first, then import the file again.",
        "按 {runtime} 自己的文件读取;文件未指定模型,因此用于页面的主模型 {model}"
        "(I {input},O {output}):M {m},K {k},S {s}。如需用于其他模型,请先在主模型选择器中"
        "选择它,再重新导入文件。",
    ),
    "phrase.import-runtime-model": (
        "Read as {runtime}'s own file, whose {setting} names {named}: it restores that main "
        "model, {model} (I {input}, O {output}): M {m}, K {k}, S {s}. I is the window "
        "{runtime} gives it: {why}.",
        "按 {runtime} 自己的文件读取,其 {setting} 指定了 {named}:导入后恢复该主模型 {model}"
        "(I {input},O {output}):M {m},K {k},S {s}。I 为 {runtime} 给它的窗口:{why}。",
    ),
    # The page's named main model comes first (runtimes.check.MODEL_ORDER, as check
    # --runtime's scenario): the file's model is said, not restored.
    "phrase.import-runtime-page-first": (
        "Read as {runtime}'s own file, whose {setting} names {named}, for the page's main "
        "model {model} (I {input}, O {output}), which comes first: M {m}, K {k}, S {s}. "
        "For {named} at the window {runtime} gives it, Reset, then import the file again.",
        "按 {runtime} 自己的文件读取,其 {setting} 指定了 {named};页面的主模型 {model}"
        "(I {input},O {output})优先,因此用于它:M {m},K {k},S {s}。如需按 {runtime} 给 "
        "{named} 的窗口读取,请先重置,再重新导入文件。",
    ),
    "phrase.import-runtime-unknown": (
        "Read as {runtime}'s own file, whose {setting} names {named}, a model the registry "
        "does not list: it is read for the page's main model {model} (I {input}, O "
        "{output}) instead: M {m}, K {k}, S {s}. For {named}, type its I and O in the "
        "main model's fields, then import the file again.",
        "按 {runtime} 自己的文件读取,其 {setting} 指定了 {named},但模型注册表中没有该模型:"
        "因此改为用于页面的主模型 {model}(I {input},O {output}):M {m},K {k},S {s}。"
        "如需用于 {named},请在主模型的字段中填入它的 I 和 O,再重新导入文件。",
    ),
    "phrase.import-head": ("key|now|after import", "键|当前|导入后"),
    "phrase.import-apply": ("Apply", "应用"),
    "phrase.import-cancel": ("Cancel", "取消"),
    "phrase.import-done": (
        "Applied ({mode}): the file set {n}: {keys}.",
        "已应用({mode}):文件设置了 {n}:{keys}。",
    ),
    "aria.export-format": ("Export format", "导出格式"),
    "aria.exported": ("Exported overrides", "导出的覆盖项"),
}
