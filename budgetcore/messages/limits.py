"""How each prefetch limit becomes tokens (budgetcore.core.protections): the limits, their
basis, channels and needs.
"""

MESSAGES: dict[str, tuple[str, str]] = {
    "channel.text": ("UTF-8 text", "UTF-8 正文"),
    "channel.bson": ("BSON", "BSON"),
    "channel.json": ("final model JSON", "最终模型 JSON"),
    "limit.token_budget": ("token budget (loader prefetch limit)", "token 额度(Loader 预取上界)"),
    "limit.raw_bson_bytes": ("raw BSON admitted", "原始 BSON 接纳量"),
    "limit.raw_records_read": ("raw records read", "原文控制记录数"),
    "limit.directory_sessions_read": ("directory sessions read", "目录访问会话数"),
    "limit.full_read_ms": ("full read time", "完整读取时限"),
    "limit.single_query_ms": ("single query time", "单次查询时限"),
    "basis.token_budget": (
        "loader prefetch limit = max(0, M − A loader)",
        "Loader 预取上界 = max(0, M − A loader)",
    ),
    "basis.raw_bson_bytes": (
        "bytes ÷ the most BSON bytes per token seen",
        "字节数 ÷ 样本中每 token 最多的 BSON 字节数",
    ),
    "basis.raw_records_read": ("records × tokens per message", "记录数 × 每条消息 tokens"),
    "basis.directory_sessions_read": (
        "sessions × messages per session × tokens per message",
        "会话数 × 每会话消息数 × 每条消息 tokens",
    ),
    "basis.full_read_ms": (
        "the largest read whose slowest predicted time fits",
        "最慢预测耗时仍在时限内的最大读取量",
    ),
    "basis.full_read_ms-query": (
        "the largest read whose slowest predicted time fits (with the slowest query for every page read)",
        "最慢预测耗时仍在时限内的最大读取量(每读一页计入最慢的一次查询)",
    ),
    "basis.single_query_ms": (
        "one message page takes up to {ms} ms",
        "一个消息页最多耗时 {ms} 毫秒",
    ),
    "needs.bson": ("needs BSON samples", "需要 BSON 样本"),
    "needs.tpm": ("needs tokens per message", "需要每条消息的 tokens"),
    "needs.tpm-mps": (
        "needs tokens per message and messages per session",
        "需要每条消息的 tokens 与每个会话的消息数",
    ),
    "needs.bson-read": (
        "needs BSON samples and (bytes, ms) read samples",
        "需要 BSON 样本与(字节, 毫秒)读取样本",
    ),
    "needs.tpm-pages": (
        "needs tokens per message to count the pages queried",
        "需要每条消息的 tokens 才能计算查询的页数",
    ),
}
