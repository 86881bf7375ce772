"""The Tune panel drawn (docs/spec.md §16): a K × S map per measure, the choice in
words and its reviewed config. Pure: page state in, markup out.

This module holds the form, the choice and its constraints in words, and the panel;
the maps, and the numbers as text they share with the choice, are
:mod:`budgetcore.ui.tune.maps`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from budgetcore.errors import Problem, ScenarioError
from budgetcore.messages import CATALOGUE, count, t
from budgetcore.ui.drawn import reuse
from budgetcore.ui.markup import Markup, breaks, el, esc, join
from budgetcore.ui.problems import problem_text
from budgetcore.ui.svg.axes import panel_chart_width
from budgetcore.ui.tune.maps import (
    cost_unit,
    cost_value,
    delta_text,
    gap_amount,
    knob_point,
    knob_text,
    maps_html,
    point_text,
    ranked_amount,
)
from budgetcore.ui.tune.state import (
    QUALITY,
    TUNE_FIELDS,
    TuneInputs,
    TuneJob,
    TunePanel,
    default_text,
)
from budgetcore.units import format_int, format_money

if TYPE_CHECKING:  # the tune model loads when the panel first runs, not on boot
    from budgetcore.replay.asrun import AsRun
    from budgetcore.tune.choice import Constraints
    from budgetcore.tune.measures import GridMeasures
    from budgetcore.tune.result import TuneResult
    from budgetcore.tune.whatif import PointCost
    from budgetcore.ui.model import PageState

__all__ = [
    "TuneScreen",
    "render_tune",
    "screen_key",
    "tune_controls_html",
]


@dataclass(frozen=True, slots=True)
class TuneScreen:
    html: dict[str, Markup]  # element id -> innerHTML
    text: dict[str, str]  # element id -> textContent
    field_messages: dict[str, str]  # constraint path -> its issue ("" when valid)
    progress: tuple[int, int]  # (points done, points in all); (0, 0): not running
    focus: int  # the cell in the tab order (-1: no map)
    # The maps and the choice as drawn, with what they were drawn from (ui.drawn).
    drawn: dict[str, tuple[object, object]] = field(default_factory=dict, compare=False)


# ------------------------------------------------------------------ the form (static)


def _field(path: str) -> Markup:
    f = TUNE_FIELDS[path]
    fid = "tn-" + path.split(".", 1)[1].replace("_", "-")
    label = el("label", {"for": fid, "data-i18n": f"label.{path}"}, t(f"label.{path}", "en"))
    msg = el("p", {"class": "msg", "role": "alert", "data-tune-msg": path})
    if f.kind == "bool":
        box = el("input", {"type": "checkbox", "id": fid, "data-tune-input": path})
        return el("div", {"class": "field check"}, box, label, msg)
    if path in QUALITY:
        # Its default and source are parameters, so render_tune writes it (by its id)
        # in the page's language, not data-i18n.
        hint = el("p", {"class": "hint", "id": fid + "-hint"}, quality_hint(path, "en"))
    else:
        hint = el("p", {"class": "hint", "data-i18n": f"hint.{path}"}, t(f"hint.{path}", "en"))
    box = el(
        "input",
        {
            "type": "text",
            "id": fid,
            "data-tune-input": path,
            "value": default_text(path),
            "inputmode": "decimal" if f.kind in ("rate", "ratio") else "numeric",
            "autocomplete": "off",
            "spellcheck": "false",
            "class": "short",
        },
    )
    return el("div", {"class": "field"}, label, box, hint, msg)


def quality_hint(path: str, lang: str) -> str:
    """A quality limit's hint: its default value and that default's source
    (tune.choice.DEFAULT_SOURCES, said in the page's language), and how to switch it
    off."""
    return t(
        f"hint.{path}",
        lang,
        default=default_text(path),
        source=t(f"tune.source.{QUALITY[path]}", lang),
    )


def _quality_hints(lang: str) -> dict[str, str]:
    return {
        "tn-" + p.split(".", 1)[1].replace("_", "-") + "-hint": quality_hint(p, lang)
        for p in QUALITY
    }


def tune_controls_html() -> Markup:
    """The constraint fields (written once; retexted by ``data-i18n``)."""
    return el("div", {"class": "rp-grid"}, *(_field(p) for p in TUNE_FIELDS))


# ------------------------------------------------------------------ the choice


def backtest_html(job: TuneJob, lang: str) -> Markup:
    """The as-run baseline the points are what-ifs on, stated first (docs/spec.md §17):
    "As run: measured $X, modelled $X′ (±r %)" over the replayed sessions, and what
    a backtest that is no baseline (Bedrock) or worse than 5 % means for every point.
    Empty without baselines."""
    from budgetcore.tune.whatif import backtest_sum  # noqa: PLC0415
    from budgetcore.ui.replay.backtest import caveat_text  # noqa: PLC0415

    inputs = job.inputs
    if not inputs.baselines:
        return Markup("")
    skipped = {name for name, _ in job.not_replayed}
    named = [
        (name, b.as_run)
        for (name, _), b in zip(inputs.sessions, inputs.baselines, strict=True)
        if name not in skipped
    ]
    runs = [run for _, run in named]
    measured, modelled, ratio = backtest_sum(runs)
    from budgetcore.ui.replay.backtest import (  # noqa: PLC0415
        as_run_said,
        incomplete_said,
        ratio_said,
    )

    # The measured side counts none of the malformed lines that may have carried a bill,
    # so the sum says so as each session's line does (it looked whole, the twelfth walk).
    incomplete = incomplete_said(sum(run.unread for run in runs), lang)
    line = el(
        "p",
        {
            "class": "rp-asrun-line",
            "data-tune-asrun": "",
            "data-measured-cost": "null" if measured is None else format(measured, "f"),
            "data-modelled-cost": "null" if modelled is None else format(modelled, "f"),
            "data-ratio": "null" if ratio is None else format(ratio, "f"),
        },
        el(
            "strong",
            None,
            as_run_said(measured, modelled, ratio, lang),
        ),
        *incomplete,
        # As the replay's line joins its sentences: a space in English, none in Chinese.
        t("msg.sentence-gap", lang),
        el(
            "span",
            {"data-tune-asrun-scope": ""},
            t(
                "tune.asrun-scope.one" if len(runs) == 1 else "tune.asrun-scope.other",
                lang,
                n=format_int(len(runs)),
            ),
        ),
    )
    notes: list[Markup] = [line]
    elsewhere = sum(run.excluded for run in runs)
    if elsewhere:
        # Each response billed once across the import, as the replay panel's rows:
        # the CLI's table says the same under each session's line.
        said = count("tune.asrun-elsewhere", elsewhere, lang)
        notes.append(el("p", {"class": "note-small", "data-tune-elsewhere": elsewhere}, said))
    several = len(runs) > 1
    caveats = [(name, run) for name, run in named if run.caveat]
    off = [(name, run) for name, run in named if run.trusted is not True and not run.caveat]
    # One note per reason, naming the sessions it holds for: a Gemini CLI session (no
    # cache model for Google) beside a Cline task that names no model was given the
    # Cline task's reason.
    by_reason: dict[str, list[tuple[str, AsRun]]] = {}
    for name, run in caveats:
        by_reason.setdefault(caveat_text(run, lang), []).append((name, run))
    for reason, held in by_reason.items():
        names = t("msg.item-sep", lang).join(n for n, _ in held)
        said = t("tune.sessions-named", lang, names=names) + reason if several else reason
        # Its sessions' paths break after a slash, their ids whole where they fit, as
        # in the replay's table ("…/session_9a9a9a9a-0000-4000-8000-|000000000001/…").
        notes.append(
            el(
                "p",
                {"class": "warn", "data-baseline-untrusted": held[0][1].served_by},
                breaks(said, "/"),
            )
        )
    if off:
        key = (
            "tune.backtest-off"
            if any(r.trusted is False for _, r in named)
            else "tune.backtest-unchecked"
        )
        # Each session named with its own error, never the sum's: the sum is of
        # another scope, and can be within 5 % while one session is not.
        if len(off) > 1:
            key += ".several"
        text = t(key, lang, ratio=ratio_said(off[0][1].ratio, lang))
        if several:
            names = t("msg.item-sep", lang).join(
                t("tune.session-ratio", lang, name=name, ratio=ratio_said(run.ratio, lang))
                if len(off) > 1
                else name
                for name, run in off
            )
            text = t("tune.sessions-named", lang, names=names) + text
        notes.append(el("p", {"class": "warn", "data-backtest-off": ""}, breaks(text, "/")))
    return el("div", {"class": "tune-asrun"}, *notes)


def _backtest_off(job: TuneJob) -> bool:
    """Whether every point's what-if is the model's alone: some session's backtest is no
    baseline, not within 5 %, or unknown."""
    return any(b.as_run.caveat or b.as_run.trusted is not True for b in job.inputs.baselines)


def _chosen_what_if(costs: Sequence[PointCost], i: int, off: bool, lang: str) -> Markup:
    """The chosen point as a what-if on the as-run baseline, marked ⚠ when the backtest
    is no baseline (as the replay's what-if is)."""
    from budgetcore.ui.replay.backtest import OFF_MARK  # noqa: PLC0415

    c = costs[i]
    mark = el("span", {"class": "rp-off"}, " ", OFF_MARK) if off else ""
    return el(
        "p",
        {
            "data-tune-whatif": "",
            "data-value": "null" if c.delta is None else format(c.delta, "f"),
        },
        t("tune.choice.whatif", lang, whatif=delta_text(c, lang)),
        mark,
    )


def _signed(text: str, negative: bool, zero: bool) -> str:
    return ("±" if zero else "−" if negative else "+") + text.lstrip("-")


def _diff(g: GridMeasures, units: int, cost: bool) -> str:
    text = cost_value(g, abs(units)) if cost else format_int(abs(units))
    return _signed(text, units < 0, units == 0)


def _choice_html(
    result: TuneResult, state: PageState, lang: str, job: TuneJob | None = None
) -> Markup:
    head = Markup("") if job is None else backtest_html(job, lang)
    costs = None if job is None else job.point_costs
    # A dollar amount kept whole and a knob's long name broken after its underscores
    # ("−$0.2978285" after its sign in Chinese, CLAUDE_AUTOCOMPACT_PCT_OVERR|IDE, 390 px).
    return breaks(join((head, _choice_body(result, state, lang, costs, job))), "_")


def _choice_body(
    result: TuneResult,
    state: PageState,
    lang: str,
    costs: Sequence[PointCost] | None,
    job: TuneJob | None,
) -> Markup:
    g, choice = result.grid, result.choice
    if choice is None:
        unknown = sum(1 for i in range(g.points) if not g.known(i))
        return el(
            "p",
            {"class": "tune-none", "data-tune-choice": "none"},
            result.none_note(lang)
            or t(
                "tune.choice.none",
                lang,
                counts=t(
                    "tune.choice.none-counts",
                    lang,
                    points=format_int(g.points),
                    broken=format_int(g.points - unknown),
                    unknown=format_int(unknown),
                ),
            ),
        )
    i = choice.index
    unit = t(cost_unit(g), lang)
    scope = (
        t(
            "tune.choice.scope",
            lang,
            eligible=format_int(choice.eligible),
            points=format_int(choice.points),
        )
        if result.constraints.any
        else t("tune.choice.scope-all", lang, points=format_int(choice.points))
    )
    lines = [
        el(
            "p",
            {"data-tune-choice": f"{choice.k},{choice.s}"},
            el(
                "strong",
                None,
                t("tune.choice.head", lang, k=format_int(choice.k), s=format_int(choice.s))
                if result.runtime is None
                else t(
                    "tune.choice.head-knob",
                    lang,
                    knob=knob_point(result, i, lang),
                    k=format_int(choice.k),
                    s=format_int(choice.s),
                ),
            ),
            t("msg.sentence-gap", lang),
            t(
                "tune.choice.best",
                lang,
                scope=scope,
                cost=ranked_amount(result, i, lang),
            ),
        )
    ]
    # The export's own digits or key for the same K (RuntimeAxis.exported_note).
    said = (
        None if result.runtime is None else result.runtime.exported_note(choice.k, choice.s, lang)
    )
    if said is not None:
        lines.append(el("p", {"class": "tune-exported"}, said))
    unseen = g.columns["unseen_tokens"]
    if costs is not None:
        assert job is not None  # costs are job.point_costs
        lines.append(_chosen_what_if(costs, i, _backtest_off(job), lang))
    if choice.runner_up is not None and choice.decided_by is not None:
        r = choice.runner_up
        rk, rs = g.point(r)
        lines.append(
            el(
                "p",
                None,
                t(
                    f"tune.why.{choice.decided_by}",
                    lang,
                    k=format_int(rk),
                    s=format_int(rs),
                    cost=gap_amount(result, r, i, lang),
                    unseen=format_int(unseen[r] - unseen[i]),
                    runs=format_int(g.summary_calls(r) - g.summary_calls(i)),
                ),
            )
        )
    elif choice.runner_up is None:
        lines.append(el("p", None, t("tune.why.only", lang)))
    if choice.unknown:
        lines.append(el("p", None, count("tune.why.unknown", choice.unknown, lang)))
    lines += _binding_html(result, lang)
    own = result.own
    if own.known(0):
        diff = _diff(g, g.cost_units(i) - own.cost_units(0), True)
        cost = diff if g.priced else t("tune.amount", lang, value=diff, unit=unit)
    else:
        cost = t("tune.unknown-usage", lang)
    lines.append(
        el(
            "p",
            None,
            t(
                "tune.versus",
                lang,
                k=format_int(own.ks[0]),
                s=format_int(own.ss[0]),
                cost=cost,
                unseen=_diff(g, unseen[i] - own.columns["unseen_tokens"][0], False),
                runs=_diff(g, g.summary_calls(i) - own.summary_calls(0), False),
                peak=_diff(
                    g, g.columns["peak_full_input"][i] - own.columns["peak_full_input"][0], False
                ),
            ),
        )
    )
    if result.less_unseen is None:
        lines.append(el("p", None, t("tune.trades.none", lang)))
    else:
        j = result.less_unseen
        jk, js = g.point(j)
        lines.append(
            el(
                "p",
                None,
                t(
                    "tune.trades",
                    lang,
                    k=format_int(jk),
                    s=format_int(js),
                    unseen=format_int(unseen[i] - unseen[j]),
                    cost=gap_amount(result, j, i, lang),
                ),
            )
        )
    lines.append(_export_html(state, choice.k, choice.s, lang))
    return el("div", {"class": "tune-choice"}, *lines)


def _binding_html(result: TuneResult, lang: str) -> list[Markup]:
    """Which limits decide the choice (docs/tune.md, "Quality"): a default generations
    limit relaxed to what the grid allows, the limits that exclude the scenario's own
    point and the grid's cheapest point, each with its value there, and a choice on the
    grid's edge, where the best point may lie beyond it (the CLI's ``edge_note``)."""
    g, choice, c = result.grid, result.choice, result.constraints
    assert choice is not None  # only _choice_body asks, past its "no choice" return
    out: list[Markup] = []
    relaxed = result.relaxed_note(lang)  # the CLI's note too (one home)
    if result.relaxed is not None and relaxed is not None:
        out.append(el("p", {"data-tune-relaxed": result.relaxed[2]}, relaxed))
    own = result.own
    if own.known(0) and c.broken(own, 0):
        text = t(
            "tune.binds.own",
            lang,
            k=format_int(own.ks[0]),
            s=format_int(own.ss[0]),
            why=_broken_text(c, own, 0, lang),
        )
        out.append(el("p", {"data-tune-binds": "own"}, text))
    from budgetcore.tune.choice import order_key, ranked  # noqa: PLC0415

    # Among the settings only: pi's off-diagonal points are no choice to speak of. The
    # cheapest by the figure the choice ranks (the map's).
    costs = result.ranked_costs
    known = [
        i
        for i in range(g.points)
        if ranked(g, i, costs) and (c.reachable is None or g.point(i) in c.reachable)
    ]
    cheapest = min(known, key=lambda i: order_key(g, i, costs), default=None)
    if (
        cheapest is not None
        and cheapest not in (choice.index, result.own_index)
        and c.broken(g, cheapest)
    ):
        k, s = g.point(cheapest)
        text = t(
            "tune.binds.cheapest",
            lang,
            k=format_int(k),
            s=format_int(s),
            cost=gap_amount(result, choice.index, cheapest, lang),
            why=_broken_text(c, g, cheapest, lang),
        )
        out.append(el("p", {"data-tune-binds": "cheapest"}, text))
    gap = result.above_as_run
    if gap is not None:
        as_run, below = gap
        text = t(
            "tune.binds.above-as-run" if below else "tune.binds.above-as-run-none",
            lang,
            as_run=format_money(as_run),
            below=format_int(below),
        )
        out.append(el("p", {"data-tune-binds": "above-as-run"}, text))
    ties = result.ties_own_note(lang)  # the CLI's note too (one home)
    if ties is not None:
        out.append(el("p", {"data-tune-binds": "ties-own"}, ties))
    # The ends the result names ("largest K", ...: TuneResult.edges), the CLI's note too.
    edge = result.edge_note(lang)
    if edge is not None:
        out.append(el("p", {"data-tune-edge": ""}, edge))
    at_m = result.at_m_note(lang)
    if at_m is not None:
        out.append(el("p", {"data-tune-binds": "at-m"}, at_m))
    return out


def _broken_text(c: Constraints, g: GridMeasures, i: int, lang: str) -> str:
    """The constraints point ``i`` breaks, each with its value there and the limit."""
    cols = g.columns
    turns = cols["turns"][i]
    reasons = []
    for name in c.broken(g, i):
        value: object = None
        limit: object = None
        if name == "max_generations":
            assert c.max_generations is not None  # broken() names only a limit that is set
            value, limit = format_int(g.generations(i)), format_int(c.max_generations)
        elif name == "max_compression":
            value, limit = _ceil_tenth(g.compression(i)), _limit_text(c.max_compression)
        elif name in ("no_rejected", "max_rejected"):
            value = count("tune.count.turns", cols["rejected"][i], lang)
            limit = format_int(c.max_rejected or 0)
        elif name == "no_refused":
            value = format_int(cols["refusals"][i])
        elif name == "max_unseen":
            assert c.max_unseen is not None
            value, limit = format_int(cols["peak_unseen"][i]), format_int(c.max_unseen)
        elif name == "max_unseen_total":
            assert c.max_unseen_total is not None
            value, limit = format_int(cols["unseen_tokens"][i]), format_int(c.max_unseen_total)
        elif name == "max_runs_per_100":
            rate = Fraction(100 * g.summary_calls(i), turns) if turns else Fraction(0)
            value, limit = _ceil_places(rate, 2), _limit_text(c.max_runs_per_100)
        reasons.append(t(f"tune.broken.{name}", lang, value=value, limit=limit))
    return t("msg.list-sep", lang).join(reasons)


def _ceil_places(ratio: Fraction, places: int) -> str:
    """A ratio rounded up (ceiling) to ``places`` decimals: a value above a limit never
    reads as equal to it."""
    scale = 10**places
    whole = -(-ratio.numerator * scale // ratio.denominator)
    return str(Decimal(whole).scaleb(-places))


def _ceil_tenth(ratio: Fraction | None) -> str:
    return "—" if ratio is None else _ceil_places(ratio, 1)


def _limit_text(value: Decimal | None) -> str:
    """A limit as typed: "10", "12.5" (never "1E+1")."""
    return "" if value is None else format(value.normalize(), "f")


def _export_html(state: PageState, k: int, s: int, lang: str) -> Markup:
    """The chosen point as a reviewed config, through the page's own export (the state
    the point's one event would give, so the file is what the export panel shows
    once the point is set)."""
    from budgetcore.ui.export.view import render_export  # noqa: PLC0415
    from budgetcore.ui.tune.handlers import at_point  # noqa: PLC0415

    at = at_point(state, k, s)
    body, _diff_markup = render_export(at)
    same = (
        state.plan.scenario.config.trigger_tokens,
        state.plan.scenario.config.summary_max_tokens,
    ) == (k, s)
    use = el(
        "button",
        {"type": "button", "data-action": "tune-use", "data-k": k, "data-s": s, "disabled": same},
        t("tune.use", lang),
    )
    download = el(
        "button",
        {"type": "button", "data-action": "tune-download", "data-k": k, "data-s": s},
        t("tune.download", lang),
    )
    if not body:
        # The picked runtime cannot reach the point's K (Cline's fixed line): its reason,
        # as the export panel says it, never an empty file box (the fifth walk).
        return join((el("div", {"class": "row"}, use, download), _refused_html(at, lang)))
    return join(
        (
            el("div", {"class": "row"}, use, download),
            el("p", {"class": "note-small"}, t("tune.export-note", lang)),
            el("pre", {"id": "tune-export", "data-tune-export": "", "tabindex": "0"}, body),
        )
    )


def _refused_html(at: PageState, lang: str) -> Markup:
    """Why the picked runtime has no file for the state ``at`` (a point's)."""
    from budgetcore.ui.export.runtime import runtime_export  # noqa: PLC0415

    try:
        runtime_export(at)
    except ScenarioError as exc:
        items = join(el("li", None, problem_text(p, lang)) for p in exc.problems)
        return el("ul", {"class": "errors", "data-tune-export-refused": ""}, items)
    return Markup("")


# ------------------------------------------------------------------ the panel


def _issue(issue: Problem, lang: str) -> str:
    return problem_text(issue, lang)


def _problems(problems: tuple[Problem, ...], lang: str) -> list[str]:
    return [problem_text(p, lang) for p in problems]


def _sessions_text(inputs: TuneInputs, lang: str) -> str:
    turns = sum(len(x) for _, x in inputs.sessions)
    n = len(inputs.sessions)
    return t(
        "tune.sessions.one" if n == 1 else "tune.sessions.other",
        lang,
        n=format_int(n),
        turns=count("tune.count.turns", turns, lang),
    )


def _errors_html(named: list[tuple[str, tuple[Problem, ...]]], lang: str) -> Markup:
    if not named:
        return Markup("")
    # Each session's path breaks after a slash, as in the replay's table (the nineteenth
    # walk: "…/sessions.db#2|0251124_1" of a Goose home at 390 px).
    items = [
        el(
            "li",
            None,
            breaks(
                t(
                    "tune.not-replayed",
                    lang,
                    name=name,
                    why=t("msg.list-sep", lang).join(_problems(ps, lang)),
                ),
                "/",
            ),
        )
        for name, ps in named
    ]
    return el("ul", {"class": "errors", "role": "alert"}, *items)


def _runtime_notes(job: TuneJob, lang: str) -> Markup:
    """Why a picked runtime's knob is not the grid (it cannot be tuned: the grid is the
    article's K × S), and the knob values at which it never compacts (off the grid)."""
    notes = []
    if job.axis_problems:
        from budgetcore.runtimes import profile  # noqa: PLC0415

        name = job.inputs.runtime
        key = f"tune.not-tunable.{name}"
        # Said from the catalogue where it has the runtime's reason; any other refusal
        # (a default value at which it never compacts) is the problem's own sentence.
        if key in CATALOGUE:
            why = t(key, lang)
            refused = t("tune.runtime-fallback", lang, runtime=profile(name).title, why=why)
        else:
            why = t("msg.list-sep", lang).join(_problems(job.axis_problems, lang))
            title = profile(name).title
            refused = t("tune.runtime-fallback-problem", lang, runtime=title, why=why)
        notes.append(el("p", {"class": "warn", "data-tune-runtime-refused": name}, refused))
    axis = job.axis
    # The knob's values kept off the grid, each set with its reason: never compacts, or
    # compacts above M (runtimes.tune_axis.RuntimeAxis).
    aside = () if axis is None else (("never", axis.never), ("above", axis.above))
    for kind, kept in aside:
        if axis is None or not kept:
            continue
        said = {"m": format_int(axis.safe_input or 0)} if kind == "above" else {}
        values = t("msg.item-sep", lang).join(knob_text(axis, v) for v in kept)
        notes.append(
            el(
                "p",
                {"class": "note-small", f"data-tune-{kind}": ""},
                t(
                    f"tune.runtime-{kind}",
                    lang,
                    runtime=axis.title,
                    knob=axis.knob.name,
                    values=values,
                    **said,
                ),
            )
        )
    return join(notes)


#: The choice and its export, drawn once per (result, scenario, format, language): a
#: hover redraws only the readout.
def screen_key(state: PageState) -> tuple[object, ...]:
    """Everything the panel is drawn from (the shell draws it again when it changes):
    the plan's value (never its id, reused once the plan is freed), the replay and Tune
    panels, the language, the width and the export format."""
    return (
        state.plan,
        state.stale,
        state.replay,
        state.tune,
        state.lang,
        state.width,
        state.export_format,
    )


def render_tune(state: PageState, before: TuneScreen | None = None) -> TuneScreen:
    """The Tune panel of page state ``state`` (its ``tune`` and ``replay`` panels,
    plan, lang, width). It reads what update derived (the inputs, the result); the maps
    and the choice are drawn again only when what they show changed since ``before``
    (a hover redraws only the readout)."""
    was = before.drawn if before is not None else None
    drawn: dict[str, tuple[object, object]] = {}
    panel: TunePanel = state.tune
    lang = state.lang
    messages = {p: "" for p in TUNE_FIELDS}
    for path, issue in panel.issues.items():
        messages[path] = _issue(issue, lang)
    html = {
        "tune-errors": Markup(""),
        "tune-choice": Markup(""),
        "tune-maps": Markup(""),
        "tune-point": Markup(""),
        "tune-point-use": Markup(""),
    }
    text = {"tune-status": "", "tune-sessions": "", **_quality_hints(lang)}
    screen = TuneScreen(html, text, messages, (0, 0), -1, drawn)
    if state.stale:
        text["tune-status"] = t("tune.stale", lang)
        return screen
    inputs = panel.inputs
    if inputs is None:
        text["tune-status"] = t("tune.replay-stale", lang)
        return screen
    if not isinstance(inputs, TuneInputs):
        # No session has a turn: each session's problem, said once (the sessions of a
        # totals-only folder all give the same one).
        html["tune-errors"] = el(
            "ul",
            {"class": "errors", "role": "alert"},
            *(el("li", None, x) for x in dict.fromkeys(_problems(inputs, lang))),
        )
        return screen
    text["tune-sessions"] = _sessions_text(inputs, lang)
    if panel.error:
        html["tune-errors"] = _errors_html([("", panel.error)], lang)
        return screen
    job = panel.job
    if job is None or not job.inputs.same(inputs) or not job.finished:
        fresh = job is None or not job.inputs.same(inputs)
        done, total = (0, 0) if fresh or job is None else (job.done, job.total)
        if total and job is not None:
            text["tune-status"] = t(
                "tune.running-what-if" if job.inputs.baselines else "tune.running",
                lang,
                done=format_int(done),
                total=format_int(total),
                points=format_int(job.points),
            )
        else:
            text["tune-status"] = t("tune.starting", lang)
        return TuneScreen(html, text, messages, (done, max(total, 1)), -1, drawn)
    html["tune-errors"] = join(
        (
            _errors_html([*job.inputs.unreadable, *job.not_replayed], lang),
            _runtime_notes(job, lang),
        )
    )
    result = panel.result
    if result is None:
        text["tune-status"] = t("tune.no-session", lang)
        return screen
    g = result.grid
    if panel.stale:
        text["tune-status"] = t("tune.constraints-stale", lang)
    else:
        text["tune-status"] = t(
            "tune.done",
            lang,
            points=format_int(g.points),
            n_k=format_int(len(g.ks)),
            n_s=format_int(len(g.ss)),
        )
    width = panel_chart_width(state.width, state.panel_width, 280)
    costs = job.point_costs
    html["tune-maps"] = reuse(
        was,
        drawn,
        "maps",
        (result, costs, lang, width),
        lambda: maps_html(result, lang, width, costs),
    )
    key = (result, job, state.plan.scenario, state.export_format, lang)
    html["tune-choice"] = reuse(
        was, drawn, "choice", key, lambda: _choice_html(result, state, lang, job)
    )
    focus = panel.focus if 0 <= panel.focus < g.points else -1
    shown = panel.hover if 0 <= panel.hover < g.points else focus
    if focus < 0:
        focus = result.choice.index if result.choice is not None else 0
    if shown < 0:
        html["tune-point"] = esc(t("tune.point-hint", lang))
    else:
        # Markup, not text: its amounts and the knob's name break only where a reader
        # expects (ui.markup.breaks; "−$0.29962525" and a knob's name were plain text).
        html["tune-point"] = breaks(point_text(g, shown, lang, costs, result), "_")
        k, s = g.point(shown)
        same = (
            state.plan.scenario.config.trigger_tokens,
            state.plan.scenario.config.summary_max_tokens,
        ) == (k, s)
        html["tune-point-use"] = el(
            "button",
            {
                "type": "button",
                "data-action": "tune-use",
                "data-k": k,
                "data-s": s,
                "disabled": same,
            },
            t("tune.use-shown", lang),
        )
    return TuneScreen(html, text, messages, (0, 0), focus, drawn)
