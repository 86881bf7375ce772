"""The section navigation, the page's title and the texts of the page's layout (issue 25).

English and Chinese side by side; ``nav.<section>`` names a section's button.
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "nav.page-title": ("budgetcore — compaction budget controller", "budgetcore — 压缩预算控制器"),
    "nav.aria": ("Sections", "页面分区"),
    "nav.menu": ("Sections", "跳到分区"),
    "nav.plan": ("Plan", "计算结果"),
    "nav.peers": ("Peers", "其他系统"),
    "nav.experiments": ("Experiments", "边界实验"),
    "nav.curves": ("Curves", "容量曲线"),
    "nav.replay": ("Replay", "会话回放"),
    "nav.tune": ("Tune", "调参"),
    "nav.samples": ("Samples", "样本"),
    "nav.export": ("Export", "导出"),
}
