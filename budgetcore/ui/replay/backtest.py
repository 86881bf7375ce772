"""The replay panel's backtest and what-if drawn (docs/spec.md §17, docs/replay.md "As
run: the backtest" and "What if"): the as-run line first, its runtime, window and
trigger with their evidence, per series, the log's compactions beside the runtime's;
then the scenario's what-if beside the as-run model, its delta item by item and its
quality measures.

Pure: values in, markup out. Both values were computed before the view runs (the
backtest when the log was read, the what-if in the update step, ``replay.state.
refreshed``); every figure carries the CLI's JSON Lines text in ``data-value``, so a
test holds the page to ``replay --log F --format jsonl`` for the same file.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from budgetcore.messages import CATALOGUE, count, provider_name, t
from budgetcore.ui.markup import Markup, breaks, el, join, td
from budgetcore.units import format_int, format_money

if TYPE_CHECKING:
    from budgetcore.replay.asrun import AsRun
    from budgetcore.replay.logs.model import ParsedLog
    from budgetcore.replay.whatif import WhatIf

__all__ = [
    "DELTA_KEYS",
    "OFF_MARK",
    "QUALITY_KEYS",
    "as_run_html",
    "as_run_said",
    "incomplete_said",
    "ratio_said",
    "what_if_html",
    "window_evidence",
]

#: The what-if's delta, item by item, in the order spec §17 names them.
DELTA_KEYS = ("input", "cache_write", "cache_read", "output", "summary_calls", "total")
#: The what-if's quality measures (spec §17), as its ``as_dict`` keys.
QUALITY_KEYS = (
    "summary_calls",
    "generations",
    "compression",
    "turns_with_unseen",
    "peak_unseen",
    "rejected",
)
#: The mark beside every what-if number of a session whose backtest is off.
OFF_MARK = "⚠"


def _money(value: Decimal | None, lang: str) -> str:
    return t("asrun.unknown", lang) if value is None else format_money(value)


def _signed(value: Decimal | None, lang: str) -> str:
    """A change in dollars, its sign said; none is "±$0.00", as the percentage beside it
    ("±0.0 %") and Tune's scale say it (it read "+$0.00 (±0.0 %)")."""
    if value is None:
        return t("asrun.unknown", lang)
    return ("±" if value == 0 else "+" if value > 0 else "−") + format_money(abs(value))


def ratio_said(r: Decimal | None, lang: str) -> str:
    """A backtest's ratio ("+0.4 %"), or "unknown" in the language."""
    from budgetcore.replay.asrun import ratio_text  # noqa: PLC0415

    return t("asrun.unknown", lang) if r is None else ratio_text(r)


def incomplete_said(unread: int, lang: str) -> tuple[object, ...]:
    """After an as-run line (the replay's, Tune's sum): that its measured cost may be
    incomplete, where ``unread`` malformed lines may have carried a bill; nothing else."""
    if not unread:
        return ()
    from budgetcore.replay.logs.usage import incomplete_text  # noqa: PLC0415

    return (
        t("msg.sentence-gap", lang),
        el("span", {"data-unread-billing-lines": unread}, incomplete_text(unread, lang)),
    )


def as_run_said(
    measured: Decimal | None, modelled: Decimal | None, ratio: Decimal | None, lang: str
) -> str:
    """The backtest's line, "As run: measured $X, modelled $X′ (±r %)", the replay's and
    Tune's alike; no ratio where a cost is unknown ("modelled unknown (unknown)")."""
    return t(
        "asrun.line" if ratio is not None else "asrun.line-no-ratio",
        lang,
        measured=_money(measured, lang),
        modelled=_money(modelled, lang),
        ratio=ratio_said(ratio, lang),
    )


def _change(w: WhatIf, lang: str) -> str:
    """A what-if's change from the as-run model, with its ratio where both costs are
    known ("unknown (unknown)" said nothing, the eleventh walk)."""
    from budgetcore.replay.asrun import relative  # noqa: PLC0415

    ratio = relative(w.modelled_cost, w.as_run_cost)
    delta = _signed(w.delta.get("total"), lang)
    if ratio is None:
        return t("whatif.change-no-ratio", lang, delta=delta)
    return t("whatif.change", lang, delta=delta, ratio=ratio_said(ratio, lang))


def _exact(value: object) -> str:
    """The CLI's JSON Lines text of a value (``null``, ``true``, a decimal string)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return format(value, "f")  # positional, as the CLI writes money ("0E-7" never)
    return str(value)


def _rule_text(a: AsRun, lang: str) -> str:
    """The runtime's trigger rule in the page's language where it is its profile's own
    and a variant (an old Claude Code's reserve, an unknown O) from the catalogue
    sentences the backtest wrote it with; any other rule as the backtest wrote it."""
    if a.trigger_rule_parts:
        return "".join(t(part, lang, **dict(params)) for part, params in a.trigger_rule_parts)
    key = f"runtime-rule.{a.runtime}"
    if key in CATALOGUE and t(key, "en") == a.trigger_rule:
        return t(key, lang)
    return a.trigger_rule


def _numbers(values: Sequence[int], lang: str) -> str:
    """The requests a compaction followed, named as requests ("after requests 2, 5"),
    or "none"."""
    if not values:
        return t("asrun.none", lang)
    numbers = t("msg.item-sep", lang).join(format_int(n) for n in values)
    return count("asrun.after-requests", len(values), lang, requests=numbers)


#: The clouds a Claude Code log's message ids can name (budgetcore/replay/logs/claude.py
#: GATEWAYS), each with its catalogue line.
SERVED_BY = {"bedrock": "asrun.served.bedrock", "vertex": "asrun.served.vertex"}
#: AsRun.caveat's causes, by cloud (budgetcore.replay.asrun.UNPREDICTABLE_CACHE's keys).
UNTRUSTED = {"bedrock": "asrun.untrusted.bedrock"}


def caveat_text(a: AsRun, lang: str) -> str:
    """Why no what-if may rest on this backtest (:attr:`AsRun.caveat`), in the page's
    language: a cloud's cache, no cache model for the model's provider, or a session
    whose models have several providers."""
    if a.served_by in UNTRUSTED:
        return t(UNTRUSTED[a.served_by], lang)
    if not a.cache.known:
        return _no_cache_text(a, "asrun.untrusted", "asrun.untrusted.no-cache", lang)
    return t("asrun.untrusted.providers", lang, provider=provider_name(a.cache.provider, lang))


def _no_cache_text(a: AsRun, prefix: str, recorded: str, lang: str) -> str:
    """Why no cache is predicted (``prefix`` the caveat's keys or the cache line's): the
    provider's rules are not recorded (``recorded``), or what is missing to know the
    provider (a Cline 3.x task read "no cache rules of this provider (unknown)")."""
    missing = a.cache.missing
    if missing == "no-maker":
        return t(f"{prefix}.no-maker", lang, model=a.cache.model)
    if missing.startswith("no-model"):
        text = t(f"{prefix}.no-model", lang)
        if missing == "no-model-cline-v3":
            text += (" " if lang != "zh" else "") + t("asrun.no-model.cline-v3", lang)
        return text
    return t(recorded, lang, provider=provider_name(a.cache.provider, lang))


def window_evidence(a: AsRun, log: ParsedLog, lang: str) -> str:
    """Why the window is what it is, in the page's language: the same evidence the
    CLI prints (``AsRun.window_source``), read from the values it was decided on."""
    from budgetcore.runtimes.profiles import CLAUDE_CODE_WINDOWS  # noqa: PLC0415

    if a.window is None:
        return t("asrun.window.unknown", lang)
    if log.format == "kimi-cli" and log.window is not None and a.window == log.window:
        return t("asrun.window.kimi-log", lang)
    if a.runtime == "gemini-cli":
        return t("asrun.window.gemini", lang)
    if log.format not in ("codex", "claude-code"):
        return t("asrun.window.registry-runtime", lang, runtime=a.runtime_title)
    if log.format == "codex":
        if log.window is None:
            return t("asrun.window.registry", lang)
        if a.window == log.window:
            return t("asrun.window.codex-log", lang)
        if a.window * 95 // 100 == log.window and a.window * 95 % 100 == 0:
            # Exactly 95 % of a whole number: Codex's effective window of it, whatever
            # the registry's (docs/replay.md, "Runtime, window, trigger").
            return t(
                "asrun.window.codex-95-whole",
                lang,
                logged=format_int(log.window),
                whole=format_int(a.window),
            )
        return t(
            "asrun.window.codex-95",
            lang,
            logged=format_int(log.window),
            registry=format_int(a.window),
        )
    small = CLAUDE_CODE_WINDOWS[0]
    peak = max((r.context for s in log.series for r in s.requests), default=0)
    if peak > small:
        return t("asrun.window.claude-large", lang, peak=format_int(peak), small=format_int(small))
    return t("asrun.window.claude-default", lang, peak=format_int(peak))


def _off_note(a: AsRun, lang: str) -> Markup:
    """What a backtest worse than 5 % (or unknown) means for every what-if; empty when
    it holds."""
    if a.caveat:
        # A cloud whose cache no rule predicts: no baseline, whatever the error.
        return el(
            "p",
            {"class": "warn", "data-baseline-untrusted": a.served_by},
            caveat_text(a, lang),
        )
    if a.trusted is True:
        return Markup("")
    if a.trusted is None:
        text = t("asrun.unchecked", lang)
    else:
        text = t("asrun.off", lang, ratio=ratio_said(a.ratio, lang))
    return el("p", {"class": "warn", "data-backtest-off": _exact(a.trusted)}, text)


def _series_cache_rules(a: AsRun, lang: str) -> list[Markup | str]:
    """Each series whose first request set its cache aside from the provider's rules
    (``SeriesAsRun.cache_rule_part``), said after the rules, which would otherwise read
    as applied to it."""
    out: list[Markup | str] = []
    for s in a.series:
        part = s.cache_rule_part()
        if part is None:
            continue
        key, params = part
        name = t("replay.logs.main", lang) if s.name == "main" else s.name
        shown = {k: format_int(v) for k, v in params.items()}
        out += [
            t("msg.sentence-gap", lang),
            el("span", {"data-cache-rule": s.name}, t(key, lang, name=name, **shown)),
        ]
    return out


def _series_table(a: AsRun, lang: str, wide: bool) -> Markup:
    from budgetcore.replay.asrun import error_stats, relative  # noqa: PLC0415

    keys: tuple[str, ...] = ("series", "requests", "prefix", "measured", "modelled", "error")
    keys += ("cache-median", "cache-max")
    label = {k: t(f"asrun.col.{k}", lang) for k in keys}
    rows = []
    for s in a.series:
        med, top = error_stats(s.cache_errors)
        error = relative(s.modelled.cost, s.measured.cost)
        # The main series by its word, a subagent's by the log's own id (as the log part).
        name = t("replay.logs.main", lang) if s.name == "main" else s.name
        if s.billed_as_logged:
            name = t("asrun.as-logged", lang, name=name)
        cells = (
            ("requests", format_int(s.requests), s.requests),
            ("prefix", format_int(s.stable_prefix), s.stable_prefix),
            ("measured", _money(s.measured.cost, lang), s.measured.cost),
            ("modelled", _money(s.modelled.cost, lang), s.modelled.cost),
            ("error", ratio_said(error, lang), error),
            ("cache-median", "—" if med is None else format_int(med), med),
            ("cache-max", "—" if top is None else format_int(top), top),
        )
        rows.append(
            el(
                "tr",
                {"data-asrun-series": s.name},
                el("th", {"scope": "row"}, name),
                *(
                    td(label[k], {"class": "num", "data-col": k, "data-value": _exact(v)}, shown)
                    for k, shown, v in cells
                ),
            )
        )
    head = el("tr", None, *(el("th", {"scope": "col"}, label[k]) for k in keys))
    table = el(
        "table",
        {"class": "grid stack rp-asrun-series"},
        el("caption", None, t("asrun.series", lang)),
        el("thead", None, head),
        el("tbody", None, *rows),
    )
    # Open beside the charts on a wide screen; folded on a phone, where the line above
    # it says what matters.
    return el(
        "details",
        {"class": "fold", "data-asrun-fold": "", "open": wide},
        el("summary", None, t("asrun.series", lang)),
        table,
    )


def _trigger_text(a: AsRun, lang: str) -> str:
    from budgetcore.replay.asrun import NO_PROFILE  # noqa: PLC0415

    if a.trigger is not None:
        return format_int(a.trigger)
    if a.runtime in NO_PROFILE:
        return t("asrun.no-profile", lang, runtime=a.runtime_title)
    return t("asrun.unknown", lang)


def _lifetime_ms(a: AsRun) -> int:
    """The main series' cache lifetime: 1 hour where it writes 1-hour entries."""
    main = next((s for s in a.series if s.name == "main"), None)
    one_hour = main is not None and main.one_hour and a.cache.lifetime_1h_ms is not None
    return a.cache.lifetime_1h_ms if one_hour and a.cache.lifetime_1h_ms else a.cache.lifetime_ms


def as_run_html(
    a: AsRun,
    log: ParsedLog,
    lang: str,
    *,
    wide: bool = True,
    what_if: WhatIf | None = None,
    session: str = "",
) -> Markup:
    """The backtest and the what-if in the order of docs/spec.md §17: first the
    backtest's line, "As run: measured $X, modelled $X′ (±r %)", with the requests both
    figures cover; then the what-if against the as-run model with its itemised change
    (``what_if``, when there is one); then how the backtest modelled the session: the
    runtime, window and trigger with their evidence, the cache rules, each series, and
    the log's compactions beside the runtime's. The sixth walk found the what-if after
    a screen of that evidence, and the engine's own bill beside it. ``session``: the
    chosen session's name, said first when the import holds several (the seventh walk:
    of 11 sessions, only a ▸ in the table said which one the figures were of)."""
    line = el(
        "p",
        {
            "class": "rp-asrun-line",
            "data-asrun-line": "",
            "data-measured-cost": _exact(a.measured_cost),
            "data-modelled-cost": _exact(a.modelled_cost),
            "data-ratio": _exact(a.ratio),
            "data-within": _exact(a.trusted),
        },
        el(
            "strong",
            None,
            as_run_said(a.measured_cost, a.modelled_cost, a.ratio, lang),
        ),
        *(
            (
                t("msg.sentence-gap", lang),
                el(
                    "span",
                    {"data-summed-left-out": a.summed_left_out},
                    t("asrun.summed-left-out", lang, tokens=format_int(a.summed_left_out)),
                ),
            )
            if a.summed_left_out
            else ()
        ),
        *incomplete_said(a.unread, lang),
    )
    unknown = t("asrun.unknown", lang)
    runtime = el(
        "p",
        {
            "class": "note-small",
            "data-asrun-runtime": a.runtime,
            "data-window": _exact(a.window),
            "data-trigger": _exact(a.trigger),
        },
        t(
            "asrun.runtime",
            lang,
            runtime=a.runtime_title,
            window=unknown if a.window is None else format_int(a.window),
            evidence=window_evidence(a, log, lang),
            trigger=_trigger_text(a, lang),
        ),
        t("msg.sentence-gap", lang),
        t("asrun.rule", lang),
        " ",
        el("code", None, _rule_text(a, lang)),
    )
    cache = el(
        "p",
        {"class": "note-small", "data-asrun-cache": a.cache.provider},
        t(
            "asrun.cache",
            lang,
            provider=provider_name(a.cache.provider, lang),
            minutes=format_int(_lifetime_ms(a) // 60_000),
        )
        if a.cache.known
        else _no_cache_text(a, "asrun.cache-none", "asrun.cache-none", lang),
        *(
            (" ", el("span", {"data-served-by": a.served_by}, t(SERVED_BY[a.served_by], lang)))
            if a.served_by in SERVED_BY
            else ()
        ),
        *_series_cache_rules(a, lang),
    )
    compactions = [
        el(
            "p",
            {
                "data-asrun-compactions": "",
                "data-logged": ",".join(map(str, a.logged_compactions)),
                "data-predicted": ",".join(map(str, a.predicted_compactions)),
            },
            t(
                "asrun.compactions",
                lang,
                logged=_numbers(a.logged_compactions, lang),
                predicted=_numbers(a.predicted_compactions, lang),
            ),
        )
    ]
    if a.manual_compactions:
        compactions.append(
            el(
                "p",
                {"class": "note-small", "data-manual": ",".join(map(str, a.manual_compactions))},
                t("asrun.compactions-manual", lang, manual=_numbers(a.manual_compactions, lang)),
            )
        )
    series = len(a.series)
    scope = el(
        "p",
        {"class": "note-small", "data-asrun-scope": a.requests},
        t(
            "asrun.scope",
            lang,
            requests=count("count.request", a.requests, lang),
            series=count("count.series", series, lang),
        ),
    )
    head = el(
        "section",
        {"class": "rp-asrun", "data-as-run": a.runtime},
        el("h3", None, t("asrun.h", lang)),
        (
            el(
                "p",
                {"class": "note-small rp-asrun-session", "data-asrun-session": session},
                # Its path breaks after a slash, its ids whole where they fit (as the
                # table's; "019a1000-4444-|7000-…" at 390 px).
                breaks(t("asrun.session", lang, name=session), "/"),
            )
            if session
            else Markup("")
        ),
        line,
        scope,
        _off_note(a, lang),
    )
    how = el(
        "section",
        {"class": "rp-asrun-how", "data-asrun-how": a.runtime},
        el("h3", None, t("asrun.how-h", lang)),
        runtime,
        cache,
        _series_table(a, lang, wide),
        *compactions,
    )
    # A dollar amount kept whole ("−$0.2978285" broke after its sign at 390 px, Chinese).
    return breaks(join((head, Markup("") if what_if is None else what_if_html(what_if, lang), how)))


def _cell(text: str, key: str, value: object, off: str, lang: str) -> Markup:
    """A what-if number with its exact value; with the ⚠ mark, titled with why (``off``:
    its catalogue key, "" when the backtest is a baseline)."""
    mark = el("span", {"class": "rp-off", "title": t(off, lang)}, " ", OFF_MARK) if off else ""
    return el("span", {"data-whatif": key, "data-value": _exact(value)}, text, mark)


def what_if_html(w: WhatIf, lang: str) -> Markup:
    """The what-if beside the as-run model: the two costs side by side, the change
    item by item, the quality measures; every number marked when the backtest is off."""
    # Why every number is marked: no baseline at all (Bedrock), else a backtest off by
    # more than 5 %; "" when the backtest holds.
    off = (
        "asrun.off-mark-caveat"
        if w.baseline_caveat
        else ("asrun.off-mark" if w.backtest_trusted is not True else "")
    )
    k, s = format_int(w.trigger), format_int(w.summary_cap)
    side = el(
        "div",
        {"class": "rp-side"},
        el(
            "div",
            {"class": "rp-figure", "data-side": "as-run"},
            el("span", {"class": "rp-figure-h"}, t("whatif.as-run", lang)),
            el(
                "span",
                {"class": "rp-figure-v"},
                _cell(_money(w.as_run_cost, lang), "as_run_modelled_cost", w.as_run_cost, "", lang),
            ),
        ),
        el(
            "div",
            {"class": "rp-figure", "data-side": "what-if"},
            el("span", {"class": "rp-figure-h"}, t("whatif.what-if", lang, k=k, s=s)),
            el(
                "span",
                {"class": "rp-figure-v"},
                _cell(_money(w.modelled_cost, lang), "modelled_cost", w.modelled_cost, off, lang),
            ),
            el(
                "span",
                {"class": "note-small"},
                _change(w, lang),
            ),
        ),
    )
    col_item, col_delta = t("whatif.col.item", lang), t("whatif.col.delta", lang)
    delta_rows = [
        el(
            "tr",
            {"class": "rp-total"} if key == "total" else None,
            el("th", {"scope": "row"}, t(f"whatif.kind.{key}", lang)),
            td(
                col_delta,
                {"class": "num"},
                _cell(_signed(w.delta.get(key), lang), f"delta.{key}", w.delta.get(key), off, lang),
            ),
        )
        for key in DELTA_KEYS
    ]
    delta = el(
        "table",
        {"class": "grid rp-whatif-delta"},  # two columns fit a phone: never stacked
        el("caption", None, t("whatif.delta", lang)),
        el(
            "thead",
            None,
            el(
                "tr",
                None,
                el("th", {"scope": "col"}, col_item),
                el("th", {"scope": "col"}, col_delta),
            ),
        ),
        el("tbody", None, *delta_rows),
    )
    d = w.as_dict()
    shown = {
        "summary_calls": format_int(w.summary_calls),
        "generations": format_int(w.generations),
        "compression": "—" if d["compression"] is None else str(d["compression"]),
        "turns_with_unseen": format_int(w.turns_with_unseen),
        "peak_unseen": format_int(w.peak_unseen),
        "rejected": format_int(w.rejected),
    }
    quality = el(
        "table",
        {"class": "grid rp-whatif-quality"},
        el("caption", None, t("whatif.quality", lang)),
        el(
            "tbody",
            None,
            *(
                el(
                    "tr",
                    None,
                    el("th", {"scope": "row"}, t(f"whatif.q.{key}", lang)),
                    el("td", {"class": "num"}, _cell(shown[key], key, d[key], off, lang)),
                )
                for key in QUALITY_KEYS
            ),
        ),
    )
    return el(
        "section",
        {
            "class": "rp-whatif",
            "data-what-if": "",
            "data-k": w.trigger,
            "data-s": w.summary_cap,
            "data-backtest-within": _exact(w.backtest_trusted),
        },
        el("h3", None, t("whatif.h", lang)),
        el(
            "p",
            {"class": "note-small"},
            t("whatif.intro", lang, k=k, s=s, m=w.margin),
        ),
        side,
        el("div", {"class": "rp-whatif-tables"}, delta, quality),
    )
