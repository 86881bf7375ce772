"""The replay panel's imported logs drawn (docs/replay.md, "The page"): one row per
session and a total, then the chosen session's model switch, ledger, measured usage
and its cost beside the modelled one. Pure: panel in, markup out.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING

from budgetcore.messages import CATALOGUE, count, t
from budgetcore.replay.logs.claude_advisor import ADVISOR, advisor_text
from budgetcore.replay.logs.model import folder_lines
from budgetcore.replay.logs.tally import SUMMED, TOTALS
from budgetcore.ui.log_words import COPY_KEYS, entry_kind
from budgetcore.ui.main.view.pickers import how_text
from budgetcore.ui.markup import Markup, breaks, el, join, td
from budgetcore.ui.replay.state import LoadedLog, ReplayPanel
from budgetcore.units import format_int, format_money

if TYPE_CHECKING:
    from budgetcore.replay.logs.compaction import LogCompaction
    from budgetcore.replay.logs.model import ParsedLog
    from budgetcore.replay.logs.usage import MeasuredUsage, ModelUsage
    from budgetcore.replay.whatif import WhatIf

__all__ = [
    "COPY_KEYS",
    "logs_html",
    "money",
    "series_name",
]


def money(value: Decimal | None, lang: str) -> str:
    """Dollars exactly (every place the value has), or "unknown"; the exact value is
    in ``data-value`` too."""
    if value is None:
        return t("replay.logs.unknown", lang)
    return format_money(value)


def _exact(value: Decimal | None) -> str:
    return "null" if value is None else str(value)


def _cost_cell(m: MeasuredUsage | None, lang: str) -> Markup:
    label = t("replay.logs.col.measured", lang)
    if m is None:
        return td(label, {"class": "num"}, "—")
    text = money(m.cost, lang)
    if m.partly_priced:
        text = t("replay.logs.at-least", lang, cost=money(m.known_cost, lang))
    return td(label, {"class": "num", "data-value": _exact(m.cost)}, m.cost_mark(text, lang))


def _requests(log: ParsedLog) -> tuple[int, int, int]:
    main = log.main
    # Summed-usage messages are billed, but no requests (the usage table's note says them).
    other = sum(
        len(s.requests) + len(s.abandoned) for s in log.series if s is not main and s.name != SUMMED
    )
    return len(main.requests), len(main.abandoned), other


def _billed_text(log: ParsedLog, billed: int) -> str:
    """The requests a session billed beside the replayed ones: unknown ("—") for a
    session of per-session totals, whose totals sit in the reader's abandoned column
    and are no requests (the usage table counts none, as the CLI's; it read "1")."""
    return "—" if log.totals_only else format_int(billed)


def _unusable_why(item: LoadedLog, lang: str) -> str:
    """Why a session of an import cannot be replayed, in its row: its first problem
    (all of them when it is chosen)."""
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    if not item.error:
        return t("replay.logs.unusable-short", lang)
    why = problem_text(item.error[0], lang)
    more = len(item.error) - 1
    if more:
        why = t("replay.logs.unusable-more", lang, why=why, n=format_int(more))
    return t("replay.logs.unusable-why", lang, why=why)


def _total_label(panel: ReplayPanel, lang: str) -> str:
    n = format_int(len(panel.logs))
    bad = sum(1 for x in panel.logs if x.log is None)
    if not bad:
        return t("replay.logs.total", lang, n=n)
    return t("replay.logs.total-unusable", lang, n=n, bad=format_int(bad))


#: A folder named by a hash of 40 hex digits or more: Gemini CLI's project folder under
#: ``~/.gemini/tmp``, the SHA-256 of the project's root (google-gemini/gemini-cli
#: ``packages/core/src/config/storage.ts``, before its short registry ids), 64
#: characters with no place to break, which fit on no line of the sessions' column at
#: 390 px nor at 1,440 px beside long reasons, and broke anywhere (the seventeenth
#: walk's leftover). Shown as its first 8 digits and "…"; the whole path is the
#: button's title, as the CLI writes it.
_HASH = re.compile(r"(?<![^/])([0-9a-f]{8})[0-9a-f]{32,}(?=/)")


def _session_name(name: str, *, short: bool = True) -> Markup:
    """A session's path in its row, broken only after a slash, its last part (the file
    and the id in its name, or a database's session id after its ``#``) on one line
    where the cell holds it (``span.rp-id``, an inline block): at 1,440 px
    "…/sessions/session|s.db#20260816_1" and "…-8ddd-|000000002701.jsonl" broke inside
    the id (the sixteenth walk's leftover), at 390 px "opencode.d|b#ses_…". A UUID or a
    timestamp in it is kept whole where it fits (``ui.markup.breaks``), a folder's long
    hash shortened (:data:`_HASH`) where ``short`` (a ledger's heading, with no title
    to hold the whole path, keeps it)."""
    if short:
        name = _HASH.sub("\\1…", name)
    cut = max(name.rfind("/"), name.rfind("#")) + 1
    last = el("span", {"class": "rp-id"}, breaks(name[cut:], "/"))
    if not cut:
        return last
    return join((breaks(name[:cut], "/"), Markup("<wbr>"), last))


def _sessions_table(panel: ReplayPanel, lang: str) -> Markup:
    from budgetcore.replay.logs.session import folder_usage  # noqa: PLC0415

    rows = []
    chosen = panel.chosen
    col = {k: t(f"replay.logs.col.{k}", lang) for k in ("lines", "replayed", "other")}
    for i, item in enumerate(panel.logs):
        pressed = "true" if item is chosen else "false"
        button = el(
            "button",
            {
                "type": "button",
                "class": "link",
                "data-replay-session": i,
                "aria-pressed": pressed,
                "title": item.name if _HASH.search(item.name) else None,
            },
            _session_name(item.name) if item.name else t("replay.logs.unnamed", lang),
        )
        if item.log is None:
            shown = "—" if item.lines is None else format_int(item.lines)
            cells = [
                td(col["lines"], {"class": "num"}, shown),
                el("td", {"colspan": 3}, _unusable_why(item, lang)),
            ]
        else:
            on, off, other = _requests(item.log)
            lines = sum(f.lines for f in item.log.ledger)
            cells = [
                td(col["lines"], {"class": "num"}, format_int(lines)),
                td(col["replayed"], {"class": "num"}, format_int(on)),
                td(col["other"], {"class": "num"}, _billed_text(item.log, off + other)),
                _cost_cell(item.measured, lang),
            ]
        rows.append(el("tr", {"data-session-row": i}, el("th", {"scope": "row"}, button), *cells))
    ok = [x for x in panel.logs if x.log is not None]
    # The CLI's folder total (one rule): unknown, the priced part kept beside, while a
    # session could not be read and may have cost something (it showed the sum of the
    # others as the folder's cost).
    total = folder_usage(panel.logs)
    lines = folder_lines(x.log for x in ok)
    lines += sum(x.lines or 0 for x in panel.logs if x.log is None)
    on = sum(_requests(x.log)[0] for x in ok if x.log is not None)
    rest = sum(sum(_requests(x.log)[1:]) for x in ok if x.log is not None)
    totals_only = any(x.log is not None and x.log.totals_only for x in ok)
    rows.append(
        el(
            "tr",
            {"class": "rp-total", "data-session-row": "total"},
            el("th", {"scope": "row"}, _total_label(panel, lang)),
            td(col["lines"], {"class": "num"}, format_int(lines)),
            td(col["replayed"], {"class": "num"}, format_int(on)),
            td(col["other"], {"class": "num"}, "—" if totals_only else format_int(rest)),
            _cost_cell(total, lang),
        )
    )
    head = el(
        "tr",
        None,
        *(
            el("th", {"scope": "col"}, t(f"replay.logs.col.{k}", lang))
            for k in ("session", "lines", "replayed", "other", "measured")
        ),
    )
    table = el(
        "table",
        {"class": "grid stack rp-sessions", "data-sessions": len(panel.logs)},
        el("caption", None, t("replay.logs.sessions", lang)),
        el("thead", None, head),
        el("tbody", None, *rows),
    )
    notes = [table]
    by_agent = _agents_table(panel, lang)
    if by_agent is not None:
        notes.append(by_agent)
    copies = sum(n for x in ok for _, n in x.elsewhere)
    if copies:
        note = t("replay.logs.elsewhere-total", lang, n=format_int(copies))
        notes.append(el("p", {"class": "note-small", "data-elsewhere": copies}, note))
    # Why the total stays known beside a session that cannot be replayed (the CLI's
    # table says it too): session.folder_usage's one rule.
    free = sum(1 for x in panel.logs if x.log is None and x.costs_nothing)
    if free:
        note = t("replay.logs.costs-nothing-total", lang, n=format_int(free))
        notes.append(el("p", {"class": "note-small", "data-costs-nothing": free}, note))
    return notes[0] if len(notes) == 1 else join(notes)


def _agents_table(panel: ReplayPanel, lang: str) -> Markup | None:
    """One total per agent of an import of several agents' sessions, and one of the
    sessions not read, as the CLI's "By agent" (``session.agent_totals``, one rule): the
    walk of issue 40 found a folder of pi, Gemini CLI and Claude Code sessions given one
    unknown total, with nothing to say which agent's cost was known. None for one agent."""
    from budgetcore.replay.logs.agents import agent  # noqa: PLC0415
    from budgetcore.replay.logs.session import agent_totals  # noqa: PLC0415

    groups = agent_totals(panel.logs)
    if len(groups) < 2:
        return None
    col = {k: t(f"replay.logs.col.{k}", lang) for k in ("agent", "sessions", "requests")}
    rows = []
    for key, n, unread, m in groups:
        found = agent(key) if key else None
        sessions = format_int(n)
        if unread and key:
            said = {"n": sessions, "unread": format_int(unread)}
            sessions = t("replay.logs.agent-sessions-unread", lang, **said)
        name = t("replay.logs.agent-unread", lang) if not key else found.name if found else key
        requests = t("replay.logs.unknown", lang) if m.requests is None else format_int(m.requests)
        rows.append(
            el(
                "tr",
                {"data-agent-row": key or "unread"},
                el("th", {"scope": "row"}, name),
                td(col["sessions"], {"class": "num"}, sessions),
                td(col["requests"], {"class": "num"}, requests),
                _cost_cell(m, lang),
            )
        )
    head = el(
        "tr",
        None,
        *(
            el("th", {"scope": "col"}, t(f"replay.logs.col.{k}", lang))
            for k in ("agent", "sessions", "requests", "measured")
        ),
    )
    return el(
        "table",
        {"class": "grid stack rp-agents", "data-agent-totals": len(groups)},
        el("caption", None, t("replay.logs.by-agent", lang)),
        el("thead", None, head),
        el("tbody", None, *rows),
    )


def _not_read(files: tuple[tuple[str, str], ...], lang: str) -> Markup:
    """The files not read, by why: each reason once, after its first file and how many
    more, one to a line, as the CLI's note says them (cli.replay_cmds.not_read_note)."""
    from budgetcore.replay.logs.folder import by_why  # noqa: PLC0415

    items = []
    for why, paths in by_why(files):
        reason = t(why, lang)
        if len(paths) == 1:
            said = t("replay.logs.not-read-group", lang, first=paths[0], why=reason)
        else:
            more = format_int(len(paths) - 1)
            said = t("replay.logs.not-read-group-more", lang, first=paths[0], more=more, why=reason)
        # Its path breaks as a session's does (Kimi's "…/session_9a9a9a9|a-0000-…/
        # state.json" broke inside its UUID at 390 px, the eighteenth walk).
        items.append(el("li", None, breaks(said, "/")))
    return el(
        "div",
        {"class": "note-small", "data-not-read": len(files)},
        el("p", None, t("replay.logs.not-read", lang, n=format_int(len(files)))),
        el("ul", {"class": "not-read"}, *items),
    )


def _nothing_read(panel: ReplayPanel, lang: str) -> Markup:
    """An import without a session: none picked yet, or a folder with nothing to read
    in it (empty, or only files no agent writes), said as the CLI refuses it."""
    if panel.log_not_read:
        first, why = panel.log_not_read[0]
        said = t(
            "replay.logs.no-session",
            lang,
            folder=first.split("/", 1)[0],
            n=format_int(len(panel.log_not_read)),
            first=first,
            why=t(why, lang),
        )
    elif panel.files_picked == ("replay-folder", ()):
        from budgetcore.messages import said_list  # noqa: PLC0415
        from budgetcore.replay.logs.agents import other_suffixes  # noqa: PLC0415

        said = t("replay.logs.folder-empty", lang, others=said_list(other_suffixes(), lang))
    else:
        return el("p", {"class": "note-small"}, t("replay.log.none", lang))
    return el("div", {"class": "errors", "role": "alert", "data-replay-error": "folder"}, said)


def _model_switch(item: LoadedLog, panel: ReplayPanel, lang: str) -> Markup:
    m = item.model
    if m is None or m.logged is None:
        return el(
            "p", {"class": "note-small", "data-log-model": "none"}, t("replay.logs.no-model", lang)
        )
    res = m.resolution
    if not m.known or res is None or res.model is None:
        return el(
            "p",
            {"class": "warn", "data-log-model": "unknown"},
            t("replay.logs.model-unknown", lang, model=m.logged),
        )
    i_tokens, o_tokens = m.window  # the runtime's window, as the switch sets it
    attrs: dict[str, object] = {"type": "checkbox", "data-replay-log-model": ""}
    if panel.log_model:
        attrs["checked"] = ""
    label = t(
        "replay.logs.use-model",
        lang,
        model=m.logged,
        entry=res.model.name,
        how=how_text(res, lang),
        i=format_int(i_tokens),
        o=format_int(o_tokens),
    )
    return el(
        "p",
        {"class": "rp-switch", "data-log-model": res.model.name},
        el("label", None, el("input", attrs), " ", label),
    )


def _copy_kind(kind: str, lang: str) -> str:
    key = COPY_KEYS.get(kind)
    return kind if key is None else t(key, lang)


def _totals_why(log: ParsedLog, lang: str) -> str:
    """Why a session keeps totals only, in the page's language: the reader's English
    is the catalogue's for its format; a reason the catalogue lacks stays as written."""
    key = f"replay.log.totals-why.{log.format}"
    return t(key, lang) if key in CATALOGUE else log.totals_only


def series_name(name: str, lang: str) -> str:
    """A series as the reader sees it: the main one by its word, a subagent's by the
    log's own id (``sidechain:<agentId>``)."""
    return t("replay.logs.main", lang) if name == "main" else name


def _ledger(log: ParsedLog, lang: str) -> Markup:
    rows = []
    sep = t("msg.item-sep", lang)
    for f in log.ledger:
        reqs = t("msg.list-sep", lang).join(
            t(
                "replay.logs.series",
                lang,
                name=series_name(s, lang),
                on=format_int(on),
                off=format_int(off),
            )
            for s, on, off in f.requests
            if s not in (TOTALS, SUMMED)
        )
        # Billed and not requests (a totals-only agent's per-model totals; messages
        # summing several requests' usage): a line of their own, as the CLI's ledger,
        # never under "requests" (the fourteenth walk's "requests: session totals (not
        # requests)").
        billed = t("msg.list-sep", lang).join(
            t(
                "replay.logs.series-totals" if s == TOTALS else "replay.logs.series-summed",
                lang,
                lines=count("count.line", on + off, lang),
            )
            for s, on, off in f.requests
            if s in (TOTALS, SUMMED)
        )
        copies = sep.join(f"{_copy_kind(k, lang)} {format_int(n)}" for k, n in f.duplicates)
        copies = copies or "0"
        entries = sep.join(f"{entry_kind(k, lang)} {format_int(n)}" for k, n in f.entries)
        entries = entries or "0"
        bad = (
            t(
                "replay.logs.bad-lines",
                lang,
                n=format_int(len(f.malformed)),
                lines=sep.join(format_int(x) for x in f.malformed[:12])
                + (" …" if len(f.malformed) > 12 else ""),
            )
            if f.malformed
            else "0"
        )
        cells = [
            ("lines", format_int(f.lines)),
            ("requests", reqs or "0"),
            *((("billed", billed),) if billed else ()),
            ("copies", copies),
            ("entries", entries),
            ("blank", format_int(f.blank)),
            ("malformed", bad),
        ]
        if f.orphans:
            orphans = sep.join(format_int(x) for x in f.orphans[:12])
            cells.append(("orphans", orphans))
        items = [
            el(
                "li",
                {"data-ledger": k},
                el("span", {"class": "rp-key"}, t(f"replay.logs.ledger.{k}", lang) + ":"),
                " ",
                v,
            )
            for k, v in cells
        ]
        adds = f.accounted == f.lines
        rows.append(
            el(
                "li",
                {"data-ledger-file": f.name, "data-lines": f.lines, "data-accounted": f.accounted},
                # Broken as the sessions' table breaks the path (the nineteenth walk:
                # "…/sessions/sessions.|db#20251124_1" at 390 px).
                el(
                    "strong",
                    None,
                    _session_name(f.name, short=False)
                    if f.name
                    else t("replay.logs.unnamed", lang),
                ),
                el("ul", None, *items),
                el(
                    "p",
                    {"class": "note-small" if adds else "warn"},
                    t("replay.logs.adds-up" if adds else "replay.logs.mismatch", lang),
                ),
            )
        )
    return el(
        "div",
        {"class": "rp-ledger"},
        el("h3", None, t("replay.logs.ledger", lang)),
        el("ul", {"class": "plain"}, *rows),
    )


#: Skipped lines explained one by one; the rest are counted.
_SKIPPED_SHOWN = 8


def _skipped(log: ParsedLog, lang: str) -> Markup:
    """Each skipped line with its field, rule and value, as the CLI lists them."""
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    shown = log.skipped[:_SKIPPED_SHOWN]
    items = [el("li", None, problem_text(p, lang)) for p in shown]
    if len(log.skipped) > len(shown):
        rest = format_int(len(log.skipped) - len(shown))
        items.append(el("li", None, t("replay.logs.skipped-more", lang, n=rest)))
    return el("ul", {"class": "rp-skipped note-small", "data-skipped": len(log.skipped)}, *items)


def _usage(m: MeasuredUsage, lang: str) -> Markup:
    keys = ("input", "cache_write_5m", "cache_write_1h", "cache_read", "output", "reasoning")
    head = el(
        "tr",
        None,
        el("th", {"scope": "col"}, t("replay.logs.col.model", lang)),
        el("th", {"scope": "col"}, t("replay.logs.col.requests", lang)),
        *(el("th", {"scope": "col"}, t(f"replay.logs.col.{k}", lang)) for k in keys),
        el("th", {"scope": "col"}, t("replay.logs.col.cost", lang)),
    )
    label = {k: t(f"replay.logs.col.{k}", lang) for k in ("requests", *keys, "cost")}
    rows = []
    for row in (*m.models, None):
        part: MeasuredUsage | ModelUsage = m if row is None else row
        if row is None:
            name = t("replay.logs.total-row", lang)
        else:
            name = row.model or t("replay.logs.no-model-row", lang)
            if row.resolved is None and row.model is not None:  # "(no model)" says it all
                name = t("replay.logs.not-in-registry", lang, model=name)
            elif row.resolved != row.model:
                name = f"{name} → {row.resolved}"
        usage, reqs, cost = part.usage, part.requests, part.cost
        shown = money(cost, lang)
        if part.partly_priced:
            shown = t("replay.logs.at-least", lang, cost=money(part.known_cost, lang))
        # A totals-only session's count is unknown, as its cost would be (it read 0).
        count = t("replay.logs.unknown", lang) if reqs is None else format_int(reqs)
        rows.append(
            el(
                "tr",
                {"data-usage-model": "total" if row is None else (row.model or "")},
                el("th", {"scope": "row"}, name),
                td(label["requests"], {"class": "num", "data-usage": "requests"}, count),
                *(
                    td(label[k], {"class": "num", "data-usage": k}, format_int(getattr(usage, k)))
                    for k in keys
                ),
                td(
                    label["cost"],
                    {"class": "num", "data-usage": "cost", "data-value": _exact(cost)},
                    shown,
                ),
            )
        )
    parts = [
        el("h3", None, t("replay.logs.measured", lang)),
        # A totals-only session (Goose, Droid) holds no request: its totals are priced.
        el(
            "p",
            {"class": "note-small"},
            t(
                "replay.logs.measured-note"
                if m.requests is not None
                else "replay.logs.measured-note-totals",
                lang,
            ),
        ),
        el(
            "table",
            {"class": "grid stack rp-usage"},
            el("thead", None, head),
            el("tbody", None, *rows),
        ),
    ]
    if m.logged_cost is not None:
        parts.append(
            el(
                "p",
                {"class": "note-small", "data-logged-cost": str(m.logged_cost)},
                m.logged_cost_text(money(m.logged_cost, lang), lang),
            )
        )
    if m.summed:
        parts.append(
            el(
                "p",
                {"class": "note-small", "data-summed-tokens": m.summed},
                t("replay.logs.summed", lang, tokens=format_int(m.summed)),
            )
        )
    if m.unread:
        parts.append(
            el(
                "p",
                {"class": "note-small", "data-unread-billing-lines": m.unread},
                m.incomplete_text(lang),
            )
        )
    return el("div", {"class": "rp-measured"}, *parts)


def _model_assumed(log: ParsedLog, lang: str) -> Markup:
    """Why the session's model is an assumption (ParsedLog.model_assumed: a Kimi CLI wire
    names none), in the page's language: the configured default, or ccusage's guess."""
    from budgetcore.replay.logs.kimi import GUESSED  # noqa: PLC0415

    which = "guess" if log.model_assumed == GUESSED else "config"
    return el(
        "p",
        {"class": "note-small", "data-model-assumed": which},
        t(f"replay.log.model-assumed.{which}", lang),
    )


def logs_html(
    panel: ReplayPanel,
    lang: str,
    *,
    what_if: WhatIf | None = None,
    wide: bool = True,
) -> Markup:
    """The sessions, and the chosen one's backtest line first, then its what-if against
    the as-run model (``what_if``, computed by the update step), then how the backtest
    modelled it (docs/spec.md §17); its switch, its measured usage and ledger. The
    engine's own replay of the session is the panel's charts and summary, its scope said
    there, never a figure beside these. ``wide``: the per-series table starts open
    (folded on a phone)."""
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    if not panel.logs:
        return _nothing_read(panel, lang)
    parts = []
    if len(panel.logs) > 1:
        parts.append(_sessions_table(panel, lang))
    if panel.log_not_read:
        parts.append(_not_read(panel.log_not_read, lang))
    item = panel.chosen
    assert item is not None
    if item.log is None:
        parts.append(
            el(
                "div",
                {"class": "errors", "role": "alert", "data-replay-error": "log"},
                # Its path breaks as the table's (the nineteenth walk, 390 px).
                el("p", None, breaks(t("replay.log.unusable", lang, name=item.name), "/")),
                el("ul", None, *(el("li", None, problem_text(p, lang)) for p in item.error)),
            )
        )
        return join(parts)
    log = item.log
    main = log.main
    if log.totals_only:  # no request to replay: why there is no "As run" line
        parts.append(
            el(
                "p",
                {"class": "note", "data-replay-totals-only": log.format},
                t("replay.log.totals-only", lang, why=_totals_why(log, lang)),
            )
        )
    if item.as_run is not None:
        from budgetcore.ui.replay.backtest import as_run_html  # noqa: PLC0415

        session = item.name if len(panel.logs) > 1 else ""
        parts.append(
            as_run_html(item.as_run, log, lang, wide=wide, what_if=what_if, session=session)
        )
    on, off, other = _requests(log)
    copies = log.duplicates
    fmt = t(f"replay.log.format.{log.format}", lang)
    files = count("count.file", len(log.files), lang)
    if log.totals_only:
        # Its totals sit in the abandoned column of the reader's series (never turns):
        # said as what they are, not as branches.
        read = t(
            "replay.logs.read-totals",
            lang,
            name=item.name,
            fmt=fmt,
            files=files,
            totals=format_int(on + off + other),
            copies=format_int(copies),
        )
    else:
        read = t(
            "replay.logs.read",
            lang,
            name=item.name,
            fmt=fmt,
            files=files,
            requests=count("count.request", on, lang),
            abandoned=format_int(off),
            other=format_int(other),
            copies=format_int(copies),
        )
    # Its path breaks as the table's ("goose-|home/…/sessions.db#|20251124_1:" at 390 px,
    # the nineteenth walk).
    parts.append(el("p", {"data-replay-log": log.format, "data-requests": on}, breaks(read, "/")))
    if log.model_assumed:
        parts.append(_model_assumed(log, lang))
    if log.lacks:
        parts.append(
            el("p", {"class": "note-small", "data-log-lacks": log.lacks}, t(log.lacks, lang))
        )
    if not log.totals_only:
        # Totals have no request to replay with the log's model, and their models are
        # the usage table's rows: "The log names no model" there was false.
        parts.append(_model_switch(item, panel, lang))
    # Summed-usage messages are no series of requests: the usage table says them; the
    # advisor calls are billed beside their responses, said on their own.
    others = [s for s in log.series if s is not main and s.name not in (SUMMED, ADVISOR)]
    calls, advised = advisor_text(log, lang)
    if calls:
        parts.append(el("p", {"class": "note-small", "data-advisor-calls": calls}, advised))
    if others:
        parts.append(
            el(
                "p",
                {"class": "note-small"},
                t(
                    "replay.log.other-series",
                    lang,
                    names=t("msg.item-sep", lang).join(
                        f"{s.name} ({len(s.requests) + len(s.abandoned)})" for s in others
                    ),
                ),
            )
        )
    if log.skipped:
        parts.append(
            el(
                "p",
                {"class": "warn", "data-replay-skipped": len(log.skipped)},
                t(
                    "replay.log.skipped",
                    lang,
                    n=format_int(len(log.skipped)),
                    lines=_line_numbers(log, lang),
                ),
            )
        )
        parts.append(_skipped(log, lang))
    if main.compactions:
        items = [
            el(
                "li",
                {"data-compaction": c.after_turn, "data-pre-tokens": _exact_int(c.pre_tokens)},
                _compaction_text(c, lang, totals=bool(log.totals_only)),
            )
            for c in main.compactions
        ]
        parts.append(el("ul", {"class": "rp-compactions"}, *items))
    if item.measured is not None:
        parts.append(_usage(item.measured, lang))
    for name, n in item.elsewhere:
        note = t("replay.logs.elsewhere", lang, n=format_int(n), session=name)
        parts.append(el("p", {"class": "note-small", "data-elsewhere": n}, note))
    parts.append(_ledger(log, lang))
    parts.append(el("p", {"class": "note-small"}, t("replay.log.kept", lang)))
    return join(parts)


def _compaction_text(c: LogCompaction, lang: str, *, totals: bool = False) -> str:
    """A logged compaction, saying what the log did not record rather than a bare dash
    (a Codex rollout records neither its trigger nor its count before), and where it
    sits among the turns: never "after turn 0" (Copilot CLI's compaction in a session
    of totals read so, in the second walk of December 2026)."""
    line = format_int(c.line)
    if totals:
        when = t("replay.log.compaction-when.totals", lang)
    elif c.after_turn == 0:
        when = t("replay.log.compaction-when.first", lang)
    else:
        when = t("replay.log.compaction-when.after", lang, request=format_int(c.after_turn))
    if c.trigger is None and c.pre_tokens is None:
        return t("replay.log.compaction-bare", lang, line=line, when=when)
    pre = (
        t("replay.log.pre.none", lang)
        if c.pre_tokens is None
        else t("replay.log.pre", lang, tokens=format_int(c.pre_tokens))
    )
    return t(
        "replay.log.compaction",
        lang,
        line=line,
        when=when,
        trigger=_trigger_word(c.trigger, lang),
        pre=pre,
    )


def _trigger_word(trigger: str | None, lang: str) -> str:
    if not trigger:
        return t("replay.log.trigger.none", lang)
    key = f"replay.log.trigger.{trigger}"
    if key in CATALOGUE and trigger not in ("word", "none"):
        return t(key, lang)
    return t("replay.log.trigger.word", lang, word=trigger)


def _exact_int(value: int | None) -> str:
    return "null" if value is None else str(value)


def _line_numbers(log: ParsedLog, lang: str) -> str:
    nums = []
    for p in log.skipped:
        params = dict(p.params)
        if "line" in params and "file" in params:
            # A line of a session's other file: its file, then the line in the language
            # (the path's English "… line 1" stood in the Chinese sentence).
            nums.append(f"{params['file']} {t('where.line', lang, n=params['line'])}")
            continue
        head = p.path.split(":", 1)[0]
        nums.append(head[5:] if head.startswith("line ") else head)
    shown = t("msg.item-sep", lang).join(nums[:30])
    return shown + (" …" if len(nums) > 30 else "")
