"""The page's charts as SVG markup: pure functions from plan values to ``Markup``.

Drawn at the container's CSS width (``width``), never scaled by a viewBox, so chart
text is 12 px on screen at every width. Bars share one token axis per chart with ticks
at nice steps; a pinned plan A is drawn in the same chart on the same scale, as an
outline under B's filled bar. Every label box is computed (``geometry.text_box``) and
placed where it overlaps no bar, no line and no other label; reference lines are
broken where a label would otherwise sit on them.

One module per chart: ``axes`` (what they share), ``bars`` (funnel, branch, work),
``curves`` (capacity curves) and ``peers`` (the peers' trigger lines). Import from the
module; the names below stay importable from ``budgetcore.ui.svg`` and load their module
on first use, so importing one chart never loads the others.

CSS classes (the page's stylesheet styles them; nothing here depends on it to be
legible): ``ch`` (the svg), ``ch-label`` (row labels), ``ch-tick`` / ``ch-axis`` /
``ch-axis-title`` (axes), ``ch-ref ch-ref-<key>`` and ``ch-ref-label`` (K, M, C lines),
``ch-ref-a`` (A's reference line), ``ch-beyond`` (edge arrow for values beyond the
axis), ``seg seg-<key>`` (B's bars), ``ch-ghost`` (A's outlines), ``ch-panel``,
``curve curve-<key>``, ``ch-marker``, ``ch-dot``, ``ch-here`` (curves), ``state
state-true|false`` (state bands), ``ch-break`` (the 0 | 1 break of a log axis),
``ch-legend`` / ``ch-key ch-key-<key>`` (legend items; the swatch is their ::before) /
``caveat`` / ``ch-note`` (HTML around the svg).
"""

from importlib import import_module

__all__ = [
    "CHART_KEYS",
    "MIN_WIDTH",
    "PEERS_PERCENT_PLACES",
    "ab_legend",
    "chart_svg",
    "curves_chart",
    "funnel_figure",
    "peer_percent",
    "peers_chart",
    "plan_charts",
]

_HOMES = {
    "CHART_KEYS": "bars",
    "MIN_WIDTH": "axes",
    "PEERS_PERCENT_PLACES": "peers",
    "ab_legend": "bars",
    "chart_svg": "axes",
    "curves_chart": "curves",
    "funnel_figure": "bars",
    "peer_percent": "peers",
    "peers_chart": "peers",
    "plan_charts": "bars",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    return getattr(import_module(f"{__name__}.{home}"), name)
