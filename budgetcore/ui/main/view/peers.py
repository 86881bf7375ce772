"""The peers panel: every system's trigger line for the main model, a chart and a table
(spec §13).

The chart compares lines on one scale, the model's window W (``ui.svg.peers``): a line
beyond W is cut at W's edge with an arrow and its exact value in its label, and says
so under the chart; a system that does not run the model (``registry.peers.runs_model``:
Gemini CLI, whose line is 0.5 × tokenLimit = 524,288 for any model, beside Sonnet;
the Anthropic API's features beside a GPT model) is listed apart under the chart with
its exact line and why, never drawn against this window. The table lists every
system, those marked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from budgetcore.core.plan import Plan
from budgetcore.messages import t
from budgetcore.ui.drawn import Drawn, reuse
from budgetcore.ui.markup import Markup, el, fold, join, td
from budgetcore.ui.model import PageState
from budgetcore.ui.picks import chosen_model_of
from budgetcore.ui.svg.axes import box_swatch
from budgetcore.units import format_int

if TYPE_CHECKING:  # the peers load after the page is ready
    from collections.abc import Sequence

    from budgetcore.registry.peers import Gap, Peer, PeerLine, PeerView, ReferenceLine

__all__ = ["apart_text", "peers_html", "render_peers"]


def render_peers(
    state: PageState,
    was: Drawn | None = None,
    drawn: dict[str, tuple[object, object]] | None = None,
) -> Markup:
    """The peers panel for the main model's W and O: chart, tables, what it is not.
    The shell draws it in the frame after the readouts (like the curves), so an input
    never waits for it; drawn again only when W, O, q, K, o, M, the language, the
    width, the unit or the chosen model change (``was``: the last drawings, ui.drawn)."""
    lang = state.lang
    if state.peers is None:
        return el("p", {"class": "note-small", "data-peers": "loading"}, t("peers.loading", lang))
    name, same = chosen_model_of(state, "main_model")
    model = name if same else ""
    p = state.plan
    # The panel depends on the plan only through W, O, q, K, o and M: typing in any
    # other field redraws nothing.
    sc = p.scenario
    key = (
        sc.main_model,
        sc.main_model_name,  # which peers run it (registry.peers.runs_model)
        sc.config.trigger_tokens,
        sc.config.reply_max_tokens,
        p.main_safe_input,
        state.peers,
        lang,
        state.width,
        state.peers_unit,
        model,
    )
    peers = state.peers
    now = {} if drawn is None else drawn
    width, unit = state.width, state.peers_unit
    return reuse(
        was,
        now,
        "peers",
        key,
        lambda: peers_html(p, peers, lang, width=width, unit=unit, model=model, was=was, drawn=now),
    )


def peers_html(
    p: Plan,
    peers: Sequence[Peer] | None,
    lang: str,
    *,
    width: int = 640,
    unit: str = "tokens",
    model: str = "",
    was: Drawn | None = None,
    drawn: dict[str, tuple[object, object]] | None = None,
) -> Markup:
    """The peers' trigger lines for ``p``'s main model (W = I, O): a chart on one axis,
    a table with every system's exact line and source, this scenario's and the
    article's lines with the room between them, and what the view must not be read as."""
    from budgetcore.registry.peers import peer_lines  # noqa: PLC0415 - loaded after ready
    from budgetcore.ui.svg.peers import peer_percent, peers_chart  # noqa: PLC0415

    main = p.scenario.main_model
    view = peer_lines(
        main.input_tokens, main.output_tokens, p, peers, model=p.scenario.main_model_name
    )
    w, o = format_int(view.window), format_int(view.max_output)
    title = (
        t("peers.title-model", lang, model=model, w=w, o=o)
        if model
        else t("peers.title", lang, w=w, o=o)
    )
    svg = peers_chart(view, lang, width=max(240, width - 26), unit=unit)
    legend = el(
        "ul",
        {"class": "ch-legend"},
        *(
            el(
                "li",
                {"data-legend": f"pr-{c}"},
                box_swatch(f"pr-bar pr-{c}"),
                t(f"peers.legend.{c}", lang),
            )
            for c in ("code", "docs", "reported")
        ),
        *(
            el(
                "li",
                {"data-legend": f"gap-{i}", "data-gap": f"{g.low}-{g.high}"},
                box_swatch(f"pr-gap-{i}"),
                _gap_text(g, view, lang),
            )
            for i, g in enumerate(view.gaps, start=1)
        ),
    )
    # Every system's row depends on W, O, the model's name and the language only (not
    # on K or M): typing K redraws the chart and reuses the table.
    key = (view.window, view.max_output, p.scenario.main_model_name, peers, lang)
    table = reuse(
        was, {} if drawn is None else drawn, "peers-table", key, lambda: _table(view, lang)
    )
    ref_heads_text = t("peers.ref-head", lang).split("|")
    # One row per line: the hard line is both this scenario's and the article's, and is
    # listed once with both sources.
    lines: dict[str, tuple[ReferenceLine, list[str]]] = {}
    for group, refs in (("scenario", view.scenario), ("article", view.article)):
        for ref in refs:
            lines.setdefault(ref.key, (ref, []))[1].append(group)
    ref_rows = []
    for ref, groups in lines.values():
        sources = [t(f"peers.group.{g}", lang) for g in groups]
        source = (
            t("peers.groups", lang, a=sources[0], b=sources[1]) if len(sources) == 2 else sources[0]
        )
        ref_rows.append(
            el(
                "tr",
                {"data-line": ref.key, "data-group": " ".join(groups)},
                el("th", {"scope": "row"}, t(f"peers.line.{ref.key}", lang)),
                td(
                    ref_heads_text[1],
                    {"class": "num", "data-key": ref.data_key},
                    format_int(ref.tokens),
                ),
                td(ref_heads_text[2], {"class": "num"}, peer_percent(ref.share)),
                td(ref_heads_text[3], None, source),
            )
        )
    ref_heads = join(el("th", {"scope": "col"}, h) for h in ref_heads_text)
    refs_table = el(
        "table",
        {"class": "grid stack peers-lines"},
        el("caption", None, t("peers.ref-caption", lang)),
        el("thead", None, el("tr", None, ref_heads)),
        el("tbody", None, *ref_rows),
    )
    # A line beyond W (a peer's, or K) is cut at W's edge: said with what not to read.
    cut = view.line("trigger").tokens > view.window or any(
        r.for_model and r.beyond_window for r in view.rows
    )
    caveat = t("peers.not", lang) + (t("peers.not-cut", lang) if cut else "")
    return el(
        "figure",
        {"class": "ch-figure", "data-figure": "peers", "data-unit": unit},
        el("figcaption", None, el("strong", None, title)),
        svg,
        legend,
        _apart(view, model or p.scenario.main_model_name or "", lang),
        el("p", {"class": "ch-note"}, t("peers.rounding", lang)),
        el("p", {"class": "caveat"}, t("phrase.not", lang), caveat),
        table,
        refs_table,
    )


def apart_text(r: PeerLine, lang: str) -> str:
    """A system that does not run the model, as the chart's note lists it: its name, its
    exact line (or none) and why (the peer's own ``runs`` text). The replay timeline's
    note says the same of the peers it does not mark."""
    name = r.peer.name + (f" {r.peer.version}" if r.peer.version else "")
    why = "" if r.peer.runs_text is None else r.peer.runs_text.get(lang)
    if r.tokens is None:
        return t("peers.apart-row-none", lang, name=name, why=why)
    return t("peers.apart-row", lang, name=name, tokens=format_int(r.tokens), why=why)


def _apart(view: PeerView, model: str, lang: str) -> Markup:
    """The systems that do not run this model, under the chart: each with its exact
    line (or why it has none) and why it is not drawn (the peer's own ``runs`` text)."""
    apart = [r for r in view.rows if not r.for_model]
    if not apart:
        return Markup("")
    items = [
        el("li", {"data-peer-apart": r.peer.id, "data-peer-tokens": r.tokens}, apart_text(r, lang))
        for r in apart
    ]
    return el(
        "div",
        {"class": "note-small peers-apart", "data-peers-apart": ""},
        el("p", None, t("peers.apart-head", lang, model=model)),
        el("ul", None, *items),
    )


def _table(view: PeerView, lang: str) -> Markup:
    from budgetcore.ui.svg.peers import peer_percent  # noqa: PLC0415

    names = t("peers.head", lang).split("|")
    heads = join(el("th", {"scope": "col"}, h) for h in names)
    rows = []
    for r in view.rows:
        peer = r.peer
        name: Markup | str = peer.name
        if peer.url:
            name = el("a", {"href": peer.url, "rel": "noopener"}, peer.name)
        elif peer.seed:
            name = join((peer.name, " ", t("peers.seed", lang, seed=peer.seed)))
        version = f" {peer.version}" if peer.version else ""
        if r.tokens is None or r.share is None:
            line: Markup = td(
                names[2],
                {"class": "pr-noline", "colspan": 2},
                t(f"peers.no-line.{peer.kind}", lang),
            )
        else:
            marks = [t("peers.mark-beyond", lang)] if r.beyond_window else []
            if r.clamped:
                marks.append(t("peers.mark-clamped", lang))
            if not r.for_model:
                marks.append(t("peers.mark-not-for-model", lang))
            line = join(
                (
                    td(names[2], {"class": "num", "data-key": r.data_key}, format_int(r.tokens)),
                    td(
                        names[3],
                        {"class": "num"},
                        peer_percent(r.share),
                        *(f" ({m})" for m in marks),
                    ),
                )
            )
        cap = (
            t("peers.cap", lang, cap=format_int(r.summary_cap)) if r.summary_cap is not None else ""
        )
        rows.append(
            el(
                "tr",
                {"data-peer": peer.id, "data-confidence": peer.confidence},
                el("th", {"scope": "row"}, name, version),
                td(
                    names[1],
                    {"class": f"pr-conf pr-conf-{peer.confidence}"},
                    peer.evidence.get(lang),
                    *((" — ", t("peers.mark-reported", lang)) if peer.reported else ()),
                ),
                line,
                td(
                    names[4],
                    None,
                    peer.rule.get(lang),
                    *(
                        (
                            el("br"),
                            el(
                                "span",
                                {"class": "pr-counts", "data-counts": peer.id},
                                t(
                                    "peers.also",
                                    lang,
                                    counts=" · ".join(a.text.get(lang) for a in peer.also),
                                ),
                            ),
                        )
                        if peer.also
                        else ()
                    ),
                ),
                td(names[5], None, peer.keeps.get(lang), el("br") if cap else "", cap),
            )
        )
    # A long reference: folded until opened, its caption the summary.
    caption = t("peers.caption", lang)
    table = el(
        "table",
        {"class": "grid stack peers"},
        el("caption", None, caption),
        el("thead", None, el("tr", None, heads)),
        el("tbody", None, *rows),
    )
    return fold(caption, table)


def _gap_text(g: Gap, view: PeerView, lang: str) -> str:
    """The room between two article lines, or why there is none (never a negative room)."""
    low = t(f"peers.line-short.{g.low}", lang)
    high = t(f"peers.line-short.{g.high}", lang)
    if g.no_room == "reserve":
        return t(
            "peers.gap.no-room.reserve",
            lang,
            reserve=format_int(view.reserve),
            window=format_int(view.window),
        )
    if g.no_room == "order":
        return t("peers.gap.no-room.order", lang, low=low, high=high, short=format_int(g.short))
    return t(
        "peers.gap",
        lang,
        low=low,
        high=high,
        tokens=format_int(g.tokens),
        what=t(f"peers.gap.{g.low}", lang),
    )
