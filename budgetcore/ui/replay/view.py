"""The replay panel drawn: the charts (:mod:`budgetcore.ui.replay.charts`), the session
summary, the scrubbed turn's row and funnel, the form's messages and texts
(:mod:`budgetcore.ui.replay.form`) (docs/spec.md §12 and §15).

Pure and cheap: page state in, markup out. The replay itself was run by the update
step (``replay.state.refreshed``) and sits in the panel (``ReplayPanel.run``); nothing
here replays, generates turns or memoises.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from budgetcore.errors import Problem
from budgetcore.messages import count, t
from budgetcore.replay.model import (
    SUMMARY_KEYS,
    TIMING_SUMMARY_KEYS,
    Replay,
    ReplaySummary,
    TurnRow,
    money_text,
)
from budgetcore.ui.markup import Markup, el, escape
from budgetcore.ui.replay.charts import timeline_figure
from budgetcore.ui.replay.fields import LIMIT_PATHS, SET_BY_BACKTEST
from budgetcore.ui.replay.form import field_messages, field_values, replay_controls_html
from budgetcore.ui.replay.state import ReplayPanel, on_backtest, run_is_current
from budgetcore.ui.svg.axes import panel_chart_width
from budgetcore.units import format_bytes, format_int, format_mean_money, format_money

if TYPE_CHECKING:
    from budgetcore.core.plan import Plan
    from budgetcore.ui.model import PageState

__all__ = [
    "ROW_SHOWN",
    "ReplayScreen",
    "files_status",
    "reading_text",
    "render_replay",
    "replay_controls_html",
    "screen_key",
]


#: A chart column at least this wide is a desktop's: the backtest's per-series table
#: starts open there and folded on a phone (a 390 px screen's column is about 400).
_WIDE = 600

#: The scrubbed turn's row, in this order (exact integers in ``data-value``).
ROW_SHOWN: tuple[str, ...] = (
    "history",
    "covered",
    "uncovered",
    "summary",
    "required",
    "summary_adopted",
    "raw_selected",
    "full_input",
    "unseen",
    "trigger_tokens",
    "main_safe_input",
    "trigger_reached",
    "admitted",
    "added",
    "status",
    "new_raw",
    "summary_input",
    "written",
    "cached_input",
    "cumulative_tokens",
)
#: What the row adds with a clock or retries (docs/spec.md §15): the run's fate and
#: its tries (a try cut by a timeout included, and counted again as unknown).
ROW_TIMED: tuple[str, ...] = ("time_ms", "run_fate", "run_tries", "run_unknown_tries")
#: Summary keys whose None means "unknown" (a try cut by a timeout), never free.
_UNKNOWN_WHEN_NONE = frozenset(
    k for k in (*SUMMARY_KEYS, *TIMING_SUMMARY_KEYS) if k.endswith(("_tokens", "_cost"))
) | {"cost_summary", "cost", "cost_per_turn", "summary_cost"}


@dataclass(frozen=True, slots=True)
class ReplayScreen:
    html: dict[str, Markup]  # element id -> innerHTML
    text: dict[str, str]  # element id -> textContent
    field_messages: dict[str, str]  # replay field path -> its issue ("" when valid)
    scrub: tuple[int, int, str]  # (turns, scrubbed turn, what a screen reader announces)
    values: dict[str, str]  # replay field path -> the text (or "true"/"false") it shows
    fixed: tuple[str, ...] = ()  # fields the source sets whatever they say (disabled)


def screen_key(state: PageState) -> tuple[object, ...]:
    """Everything the screen is a function of (the shell redraws when it changes): the
    panel (its run compares by identity), the language, the width, and the timeouts'
    texts and problems, which the main form owns."""
    return (
        state.replay,
        state.lang,
        state.width,
        state.panel_width,
        tuple(state.texts.get(p) for p in LIMIT_PATHS),
        state.field_issues.keys() & set(LIMIT_PATHS),
        state.cross_issues,
    )


# ------------------------------------------------------------------ numbers as text


def _exact(value: object) -> str:
    """The machine text of a value, as ``python -m budgetcore replay`` prints it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return money_text(value)
    return str(value)


def _shown(value: object, lang: str) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return t("msg.yes" if value else "msg.no", lang)
    if isinstance(value, int):
        return format_int(value)
    if isinstance(value, Fraction):
        if value == 0:
            return "0 %"
        tenths = (value * 1000).numerator * 1 // (value * 1000).denominator  # floor
        return f"{tenths // 10}.{tenths % 10} %"
    if isinstance(value, Decimal):  # every Decimal of a replay is money
        return format_money(value)
    return str(value)


def _status(status: str, lang: str) -> str:
    return t(f"replay.status.{status.replace(' ', '-')}", lang)


def _fate(fate: str | None, lang: str) -> str:
    return "—" if fate is None else t(f"replay.fate.{fate}", lang)


# ------------------------------------------------------------------ tables


@lru_cache(maxsize=256)
def _row_head(key: str, lang: str) -> Markup:
    """A table row's label cell: the same for every redraw in one language."""
    return el("th", {"scope": "row"}, t(key, lang))


#: The summary's rows already written, by value: a new K or S changes about a third of
#: the summary's 45 lines, and the rest were built again on every input. The key is the
#: value's repr (a Decimal's exponent is in its text, and 1 and True differ).
_SUMMARY_ROWS: dict[tuple[str, str, str, bool], Markup] = {}


def _kept(cache: dict[Any, Markup], memo: Any, build: Callable[[], Markup]) -> Markup:
    """``build()``, kept in ``cache`` by ``memo``; bounded: cleared whole at 4,096 rows
    (a long session of inputs)."""
    row = cache.get(memo)
    if row is None:
        if len(cache) >= 4096:
            cache.clear()
        row = cache[memo] = build()
    return row


def _summary_cell(key: str, value: object, s: ReplaySummary, lang: str) -> Markup:
    unknown = value is None and key in _UNKNOWN_WHEN_NONE and bool(s.unknown_tries)
    memo = (key, repr(value), lang, unknown)
    return _kept(_SUMMARY_ROWS, memo, lambda: _summary_row(key, value, lang, unknown))


def _summary_row(key: str, value: object, lang: str, unknown: bool) -> Markup:
    shown = _shown(value, lang)
    if key == "cost_per_turn" and isinstance(value, Decimal):  # a mean: 28 digits
        shown = format_mean_money(value)
    if unknown:
        shown = t("replay.sum.unknown", lang)  # a try cut by a timeout: never free
    return el(
        "tr",
        None,
        _row_head(f"replay.sum.{key}", lang),
        el("td", {"class": "num", "data-replay-summary": key, "data-value": _exact(value)}, shown),
    )


def _summary_table(result: Replay, lang: str, *, logged: bool = False) -> Markup:
    """The session summary; with a clock or retries (docs/spec.md §15) its waste lines
    too, in their own body: candidates, published, the publish rate, discarded and
    retry tokens and cost, and their share of all summary spend. Of a log (``logged``)
    its caption says it is the engine's replay, whose scope the cost chart says."""
    s = result.summary
    bodies = [el("tbody", None, *(_summary_cell(k, getattr(s, k), s, lang) for k in SUMMARY_KEYS))]
    if result.timed:
        waste = (_summary_cell(k, getattr(s, k), s, lang) for k in TIMING_SUMMARY_KEYS)
        bodies.append(
            el(
                "tbody",
                {"data-replay-waste": ""},
                el(
                    "tr",
                    None,
                    el("th", {"colspan": 2, "scope": "rowgroup"}, t("replay.sum.waste", lang)),
                ),
                *waste,
            )
        )
    return el(
        "table",
        {"class": "grid rp-summary"},
        el(
            "caption",
            None,
            t("replay.summary.caption-log" if logged else "replay.summary.caption", lang),
        ),
        *bodies,
    )


#: The scrubbed turn's rows already written, by value (as :data:`_SUMMARY_ROWS`).
_TURN_ROWS: dict[tuple[str, str, str], Markup] = {}


def _turn_cell(key: str, value: object, lang: str) -> Markup:
    return _kept(_TURN_ROWS, (key, repr(value), lang), lambda: _turn_row(key, value, lang))


def _turn_row(key: str, value: object, lang: str) -> Markup:
    if key == "status":
        shown = _status(str(value), lang)
    elif key == "run_fate":
        shown = _fate(None if value is None else str(value), lang)
    else:
        shown = _shown(value, lang)
    return el(
        "tr",
        None,
        _row_head(f"replay.row.{key}", lang),
        el("td", {"class": "num", "data-replay-row": key, "data-value": _exact(value)}, shown),
    )


def _row_table(row: TurnRow, lang: str, timed: bool) -> Markup:
    keys = (*ROW_SHOWN, *ROW_TIMED) if timed else ROW_SHOWN
    cells = [_turn_cell(key, getattr(row, key), lang) for key in keys]
    return el(
        "table",
        {"class": "grid rp-row", "data-turn": row.turn},
        el("caption", None, t("replay.row.caption", lang, turn=format_int(row.turn))),
        el("tbody", None, *cells),
    )


def _log_html(panel: ReplayPanel, lang: str, state_wide: bool) -> Markup:
    if panel.source != "log":
        return Markup("")
    from budgetcore.ui.replay.logs import logs_html  # noqa: PLC0415 - only with a log

    return logs_html(panel, lang, wide=state_wide)


def _source_errors(
    panel: ReplayPanel,
    lang: str,
    error: tuple[Problem, ...],
    skipped: tuple[Problem, ...],
    *,
    force: bool = False,
) -> Markup:
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    if panel.source == "log" and not force:  # the log part lists a log's own problems
        return Markup("")
    items = [problem_text(p, lang) for p in (*error, *skipped)]
    if not items:
        return Markup("")
    return el(
        "ul",
        {"class": "errors", "role": "alert", "data-replay-error": panel.source},
        *(el("li", None, x) for x in items),
    )


# ------------------------------------------------------------------ the panel


def _set_by_backtest(panel: ReplayPanel, lang: str) -> tuple[tuple[str, ...], Markup]:
    """The fields a log's backtest sets (its replay reads neither box: the cache is on,
    the stable prefix its first request's), and the note that says what it set."""
    run = panel.run
    if not on_backtest(panel) or run is None or run.options is None:
        return (), Markup("")
    from budgetcore.replay.whatif import backtest_sets_text  # noqa: PLC0415

    sets = backtest_sets_text(
        panel.chosen.as_run if panel.chosen else None, run.options.stable_prefix_tokens, lang
    )
    return SET_BY_BACKTEST, Markup(escape(t("replay.options.backtest", lang, sets=sets)))


def render_replay(state: PageState) -> ReplayScreen:
    """The replay panel of page state ``state`` (its ``replay`` panel and its run, the
    language, the width). Draws the run the update step stored; replays nothing."""
    panel: ReplayPanel = state.replay
    lang = state.lang
    messages = field_messages(state)
    values = field_values(state)
    run = panel.run
    fixed, note = _set_by_backtest(panel, lang)
    if fixed and run is not None and run.options is not None:
        # A disabled box shows what the backtest set, not the value it stands in for:
        # "Prompt cache on" unchecked beside a note saying the cache is on read as off
        # (the nineteenth walk). The panel's own values come back when it sets neither.
        values = {
            **values,
            "replay.cache": "true" if run.options.cache else "false",
            "replay.stable_prefix": str(run.options.stable_prefix_tokens),
        }
    html: dict[str, Markup] = {
        "replay-log": _log_html(panel, lang, state.width >= _WIDE),
        **files_status(panel, lang),
        "replay-options-note": note,
    }
    text = {"replay-status": "", "replay-scrub-out": ""}
    blank = dict.fromkeys(
        ("replay-errors", "replay-timeline", "replay-cost", "replay-summary", "replay-row"),
        Markup(""),
    )
    empty = ReplayScreen(
        {**html, **blank, "replay-funnel": Markup("")}, text, messages, (1, 1, ""), values, fixed
    )
    if run is None:  # not refreshed yet (the shell refreshes before it draws)
        return empty
    if run.paused:
        text["replay-status"] = t("replay.stale", lang)
        return empty
    source = run.source
    error = source.error or run.error
    # The log part lists a log's own problems; the clock's (a log without times, a
    # session the replay refused) are the replay's, listed here for every source.
    timing = bool(run.error) or any(p.code == "log-no-times" for p in error)
    html["replay-errors"] = _source_errors(panel, lang, error, source.problems, force=timing)
    result = run.result
    if result is None or (panel.source == "log" and not run_is_current(panel)):
        # (a log's rows drawn with another log's series indexed past its requests)
        return ReplayScreen({**empty.html, **html}, text, messages, (1, 1, ""), values, fixed)
    n = len(result.rows)
    scrub = panel.scrub if 1 <= panel.scrub <= n else result.summary.peak_turn
    row = result.rows[scrub - 1]
    series = panel.log.main if panel.source == "log" and panel.log is not None else None
    # The peers' lines take the scenario's model, like K and M (with the switch on, the
    # log's own model): never a window from the log mixed with another model's K.
    window = result.scenario.main_model.input_tokens
    width = panel_chart_width(state.width, state.panel_width, 240)
    timeline, cost = timeline_figure(
        result,
        lang,
        width=width,
        scrub=scrub,
        log=series,
        window=window,
        model=state.plan.scenario.main_model_name,
    )
    if series is not None:
        from budgetcore.ui.replay.logs import logs_html  # noqa: PLC0415

        html["replay-log"] = logs_html(panel, lang, what_if=run.what_if, wide=state.width >= _WIDE)
    html["replay-timeline"] = timeline
    html["replay-cost"] = cost
    html["replay-summary"] = _summary_table(result, lang, logged=series is not None)
    html["replay-row"] = _row_table(row, lang, result.timed)
    funnel = _funnel(row.plan, lang, width)
    html["replay-funnel"] = el("div", {"data-replay-funnel": scrub}, funnel)
    status = _status(row.status, lang)
    if row.run_fate is not None:
        status = t("replay.scrub.fate", lang, status=status, fate=_fate(row.run_fate, lang))
    valuetext = t(
        "replay.scrub.value",
        lang,
        turn=format_int(scrub),
        n=format_int(n),
        full=format_int(row.full_input),
        status=status,
    )
    text["replay-scrub-out"] = valuetext  # beside the slider: the turn while dragging
    return ReplayScreen(html, text, messages, (n, scrub, valuetext), values, fixed)


#: The names a file box's status shows before "+N", and each name's length there: three
#: long session names (a Claude Code log is a 36-character UUID) wrapped the status to
#: about five lines at 390 px (issue 42); the whole list is its title.
_NAMES_SHOWN = 2
_NAME_CHARS = 20
#: The names its title lists before "and N more" (a pick holds up to 10,000).
_NAMES_TITLED = 50


def _short_name(name: str) -> str:
    """A file name cut in its middle to ``_NAME_CHARS`` characters, keeping its start
    and its end (the extension, and the end of an id that tells sessions apart)."""
    if len(name) <= _NAME_CHARS:
        return name
    head = (_NAME_CHARS - 1) // 2
    return f"{name[:head]}…{name[len(name) - (_NAME_CHARS - 1 - head) :]}"


def files_status(panel: ReplayPanel, lang: str) -> dict[str, Markup]:
    """What each file box holds, beside it, in the page's language (the browser's own
    "No file chosen" is in the browser's, whatever the page's): "No file chosen",
    "3 files: a.jsonl, b.jsonl, +1" (the whole list in its title), "folder projects:
    82 files". Only the box last picked in holds files (the paint empties the other)."""
    box, names = panel.files_picked
    out = {
        "replay-file-status": el("span", None, t("replay.file-none", lang)),
        "replay-folder-status": el("span", None, t("replay.folder-none", lang)),
    }
    if box == "replay-folder" and not names:
        out[f"{box}-status"] = el("span", None, t("replay.folder-empty-status", lang))
    elif box == "replay-folder" and names:
        folder = names[0].split("/", 1)[0]
        said = count("replay.folder-picked", len(names), lang, folder=folder)
        out[f"{box}-status"] = el("span", None, said)
    elif box == "replay-file" and names:
        sep = t("msg.item-sep", lang)
        shown = sep.join(_short_name(n) for n in names[:_NAMES_SHOWN])
        if len(names) > _NAMES_SHOWN:
            more = format_int(len(names) - _NAMES_SHOWN)
            shown = t("replay.names-plus", lang, names=shown, n=more)
        every = sep.join(names[:_NAMES_TITLED])
        if len(names) > _NAMES_TITLED:
            more = format_int(len(names) - _NAMES_TITLED)
            every = t("replay.names-more", lang, names=every, n=more)
        said = count("replay.files-picked", len(names), lang, names=shown)
        out[f"{box}-status"] = el("span", {"title": every}, said)
    return out


def reading_text(done: int, total: int, lang: str) -> str:
    """The status while a log is read: how far, of how much (never past the whole)."""
    word = t("unit.bytes", lang)
    done_text = format_bytes(min(done, total), word=word)
    return t("replay.reading", lang, done=done_text, total=format_bytes(total, word=word))


def _funnel(p: Plan, lang: str, width: int) -> Markup:
    """The funnel chart of one turn's plan (``plan_charts``' first chart, drawn alone)."""
    from budgetcore.ui.svg.bars import funnel_figure  # noqa: PLC0415

    return funnel_figure(p, lang, width)
