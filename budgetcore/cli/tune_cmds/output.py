"""``tune``'s three output formats (JSON Lines, CSV, the table) and the choice's lines."""

from __future__ import annotations

import csv
import io
import json
import shlex
from collections.abc import Callable, Iterable
from decimal import Decimal
from fractions import Fraction
from typing import Any

from budgetcore.cli.tune_cmds.runtime import _knob_text, _runtime_dict
from budgetcore.cli.tune_cmds.whatif import _as_run_lines, _edge_note
from budgetcore.messages import t as message
from budgetcore.tune.choice import (
    Constraints,
)
from budgetcore.tune.result import TuneResult
from budgetcore.units import counted, format_int, format_money

Write = Callable[[str], object]


def _marks(result: TuneResult, i: int) -> dict[str, Any]:
    g = result.grid
    return {
        "chosen": result.choice is not None and result.choice.index == i,
        "frontier": i in result.frontier,
        "scenario_point": result.own_index == i,
        "known_usage": g.known(i),
        "broken": list(result.constraints.broken(g, i)),
    }


def point_rows(result: TuneResult) -> Iterable[dict[str, Any]]:
    """One JSON object per point, in grid order (K, then S)."""
    for i in range(result.grid.points):
        row = {**result.grid.as_dict(i), **_marks(result, i)}
        if result.point_what_ifs is not None:  # the point as a what-if (spec §17)
            c = result.point_what_ifs[i]
            row["what_if_cost"] = None if c.modelled is None else format(c.modelled, "f")
            row["delta_from_as_run"] = None if c.delta is None else format(c.delta, "f")
        if result.runtime is not None:  # the point in the runtime's own knob (None: not one)
            at = result.runtime.at(*result.grid.point(i))
            row["runtime_value"] = None if at is None else _knob_text(at.value)
        yield row


def _money(grid: Any, units: int) -> str:
    from budgetcore.replay.model import decimal_of  # noqa: PLC0415

    if not grid.priced:
        return f"{units:,} tokens"
    value = decimal_of(units, grid.places)
    assert value is not None
    return format(value, "f")


def choice_dict(result: TuneResult) -> dict[str, Any] | None:
    """The choice, why, what it trades and how to export it (None: no eligible point)."""
    from budgetcore.scenario.fragment import to_fragment  # noqa: PLC0415

    choice, g = result.choice, result.grid
    if choice is None:
        return None
    i = choice.index
    chosen = result.chosen_scenario()
    assert chosen is not None
    fragment = to_fragment(chosen)
    out: dict[str, Any] = {
        "k": choice.k,
        "s": choice.s,
        "cost_measure": "money" if g.priced else "billed_tokens",
        "cost": _money(g, g.cost_units(i)),
        "reason": {
            "rule": "lowest cost, then fewer unseen tokens, fewer runs, smaller K, smaller S",
            # The cost ranked: each point's what-if on the logs' as-run baselines (the
            # what_if_cost column) when known, else the grid's own (spec §17).
            "ranks": "cost" if result.ranked_costs is None else "what_if_cost",
            "points": choice.points,
            "eligible": choice.eligible,
            "unknown_usage": choice.unknown,
            "broke_constraints": choice.broken,
            "decided_by": choice.decided_by,
            "runner_up": None if choice.runner_up is None else _at(result, choice.runner_up),
        },
        "versus_scenario": _versus(result.own, 0, g, i),
        "trades": None
        if result.less_unseen is None
        else {
            **_at(result, result.less_unseen),
            "fewer_unseen_tokens": g.columns["unseen_tokens"][i]
            - g.columns["unseen_tokens"][result.less_unseen],
            "costs_more": _gap(result, result.less_unseen, i),
        },
        "fragment": fragment,
        "export": _export_command(result, fragment),
        "generations": g.generations(i),
        "compression": None if g.compression(i) is None else str(g.compression(i)),
        "on_grid_edge": list(result.edges),
        "edge_note": _edge_note(result),
        # The scenario's own K and S tie with the choice on every ranked measure: the
        # choice is the smaller by the tie rule, not a better point (None otherwise).
        "ties_own_note": result.ties_own_note("en"),
        # A chosen K of M or above: compaction starts only at the limit (None otherwise).
        "at_m_note": result.at_m_note("en"),
        # Where the chosen what-if costs more than the sessions as run: that cost and how
        # many points cost less (each breaking a limit); None otherwise.
        "above_as_run": None
        if result.above_as_run is None
        else {
            "as_run_cost": str(result.above_as_run[0]),
            "points_below": result.above_as_run[1],
        },
        # The grid's cost is the engine's bill of the replayed series; this is the
        # chosen point as exact what-ifs on the logs' as-run baselines (every series).
        "what_if": result.chosen_what_if,
        "relaxed": None
        if result.relaxed is None
        else {
            "max_generations": result.relaxed[0],
            "fewest_on_grid": result.relaxed[1],
            "relaxed_to": result.relaxed[2],
        },
    }
    return out


def _gap(result: TuneResult, j: int, i: int) -> str:
    """Point ``j``'s ranked cost minus point ``i``'s: exact money text (what-ifs, or a
    priced grid), else billed tokens."""
    gap = result.cost_gap(j, i)
    return format(gap, "f") if isinstance(gap, Decimal) else _money(result.grid, gap)


def _export_command(result: TuneResult, fragment: str) -> str:
    """How to export the choice: the reviewed config, or with ``--runtime`` that
    runtime's own file (export --runtime turns K back into the same knob value)."""
    if result.runtime is None:
        return f"budgetcore export --fragment {shlex.quote(fragment)}"
    name = result.runtime.runtime
    return f"budgetcore export --runtime {name} --fragment {shlex.quote(fragment)}"


def _ratio_text(r: Fraction) -> str:
    """A ratio to 0.1, half-even (the display's one rounding)."""
    return str((Decimal(r.numerator) / Decimal(r.denominator)).quantize(Decimal("0.1")))


def _quality_limits(result: TuneResult) -> str:
    c = result.constraints
    gen = "off" if c.max_generations is None else f"at most {c.max_generations:,} generations"
    comp = "off" if c.max_compression is None else f"at most {c.max_compression}:1"
    from budgetcore.tune.choice import DEFAULT_SOURCES  # noqa: PLC0415

    in_force = [
        source
        for name, source in DEFAULT_SOURCES.items()
        if getattr(c, name) == getattr(Constraints(), name)
    ]
    said = f" (defaults: {'; '.join(in_force)})" if in_force else ""
    return f"{gen}, compression {comp}{said}"


def _at(result: TuneResult, i: int) -> dict[str, int]:
    k, s = result.grid.point(i)
    return {"k": k, "s": s}


def _versus(own: Any, j: int, g: Any, i: int) -> dict[str, Any]:
    """The chosen point minus the scenario's own (K, S); its cost change is None when
    the scenario's own point has unknown usage."""
    known = own.known(j)
    cost = g.cost_units(i) - own.cost_units(j)
    base = own.cost_units(j)
    return {
        "k": own.ks[0],
        "s": own.ss[0],
        "cost": _money(g, cost) if known else None,
        "cost_ratio": None if base == 0 or not known else str(Fraction(cost, base)),
        "unseen_tokens": g.columns["unseen_tokens"][i] - own.columns["unseen_tokens"][j],
        "runs": g.summary_calls(i) - own.summary_calls(j),
        "peak_full_input": g.columns["peak_full_input"][i] - own.columns["peak_full_input"][j],
    }


def summary_dict(result: TuneResult) -> dict[str, Any]:
    g = result.grid
    return {
        "sessions": g.sessions,
        "sessions_not_replayed": [
            {"session": r.name, "problems": [str(p) for p in r.problems]} for r in result.failed
        ],
        "turns": g.columns["turns"][0],
        "k": list(g.ks),
        "s": list(g.ss),
        "points": g.points,
        "cost_measure": "money" if g.priced else "billed_tokens",
        "constraints": result.constraints.as_dict(),
        "scenario_point": {
            "on_grid": result.own_index is not None,
            **result.own.as_dict(0),
        },
        "frontier": [_at(result, i) for i in result.frontier],
        "choice": choice_dict(result),
        "runtime": _runtime_dict(result),
        "as_run": [
            {
                "session": name,
                "measured_cost": measured,
                "modelled_cost": modelled,
                "ratio": ratio,
                "within_5_percent": trusted,
                "baseline_caveat": caveat or None,
                # Only where the log has such lines (MeasuredUsage.unread), as replay's.
                **({"unread_billing_lines": unread} if unread else {}),
                # Left out of both costs: another session of the import bills them
                # (replay's as_run.requests_billed_elsewhere, always there as in replay).
                "requests_billed_elsewhere": elsewhere,
            }
            for name, measured, modelled, ratio, trusted, caveat, unread, elsewhere in (
                result.backtests
            )
        ],
    }


def write_tune(result: TuneResult, fmt: str, write: Write) -> None:
    if fmt == "table":
        _table(result, write)
    elif fmt == "csv":
        _csv(result, write)
    else:
        for row in point_rows(result):
            write(json.dumps(row) + "\n")
        write(json.dumps({"summary": summary_dict(result)}, ensure_ascii=False) + "\n")


def _csv(result: TuneResult, write: Write) -> None:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    keys: list[str] | None = None
    for row in point_rows(result):
        if keys is None:
            keys = list(row)
            writer.writerow(keys)
        writer.writerow(_cell(row[k]) for k in keys)
    for key, value in summary_dict(result).items():
        shown = json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else value
        buf.write(f"# {key},{_cell(shown)}\n")
    write(buf.getvalue())


def _cell(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ";".join(map(str, value))
    return value


def _percent(share: Fraction | None) -> str:
    """A share as a percentage for people, to 0.1 % (half to even); the exact fraction is
    in the JSON output. None (unknown usage): a dash."""
    if share is None:
        return "—"
    tenths = round(share * 1000)
    sign = "-" if tenths < 0 else ""
    tenths = abs(tenths)
    return f"{sign}{tenths // 10}.{tenths % 10}%"


def _table(result: TuneResult, write: Write) -> None:
    from budgetcore.units import money_text, signed_money_text  # noqa: PLC0415

    g = result.grid
    c = g.columns

    def cost(i: int) -> str:
        if not g.known(i):
            return "unknown"  # a try was cut by a timeout: never shown as free
        return money_text(g.cost(i)) if g.priced else f"{g.cost_units(i):,}"

    for line in _as_run_lines(result):  # the backtest first (docs/spec.md §17)
        write(line + "\n")
    n_sessions = g.sessions
    write(
        f"Tune: {n_sessions:,} session{'s' if n_sessions != 1 else ''}, "
        f"{c['turns'][0]:,} turns; {len(g.ks):,} K × {len(g.ss):,} S = {g.points:,} points, "
        f"each replayed exactly (spec §12{' and §15' if g.timed else ''})\n"
    )
    unit = "cost" if g.priced else "billed tokens"
    head = [
        "",
        "K",
        "S",
        unit,
        "summary",
        "peak input",
        "M at peak",
        "rejected",
        "turns unseen",
        "unseen tokens",
        "runs",
        "recompress",
        "refused",
        "discarded",
    ]
    what_ifs = result.point_what_ifs
    if what_ifs is not None:  # each point as a what-if on the as-run baseline (spec §17)
        head += ["what-if", "Δ as run"]
    rows = []
    for i in range(g.points):
        k, s = g.point(i)
        mark = (
            ("*" if result.choice is not None and result.choice.index == i else "")
            + ("f" if i in result.frontier else "")
            + ("o" if result.own_index == i else "")
            + ("x" if result.constraints.broken(g, i) else "")
        )
        rows.append(
            [
                mark,
                f"{k:,}",
                f"{s:,}",
                cost(i),
                _percent(g.summary_share(i)),
                f"{c['peak_full_input'][i]:,}",
                f"{c['main_safe_input_at_peak'][i]:,}",
                f"{c['rejected'][i]:,}",
                f"{c['turns_with_unseen'][i]:,}",
                f"{c['unseen_tokens'][i]:,}",
                f"{c['runs'][i]:,}",
                f"{c['recompresses'][i]:,}",
                f"{c['refusals'][i]:,}",
                f"{c['discarded'][i]:,}",
            ]
        )
        if what_ifs is not None:
            w = what_ifs[i]
            rows[-1] += [money_text(w.modelled), signed_money_text(w.delta)]
    from budgetcore.cli.replay_table import _grid  # noqa: PLC0415 - the replay's table layout

    _grid(head, rows, write, left=1)
    write(
        "  * chosen, f on the frontier of cost against unseen tokens, o the scenario's own "
        "K and S, x breaks a constraint; summary: the summary calls' share of the cost\n"
    )
    if what_ifs is not None:
        write(
            "  what-if: the point on the as-run baseline (every series, the as-run cache "
            "model); Δ as run: its change from the as-run model, not from the bill\n"
        )
    for line in choice_lines(result):
        write(line + "\n")


def choice_lines(result: TuneResult) -> list[str]:
    """The choice in words: what, why, what it trades, and the export command."""
    from budgetcore.units import money_text, signed_money_text  # noqa: PLC0415

    g = result.grid
    choice = result.choice
    own = result.own
    measure = "cost" if g.priced else "billed tokens"

    def amount(units: int) -> str:
        if not g.priced:
            return f"{units:,} tokens"
        from budgetcore.replay.model import decimal_of  # noqa: PLC0415

        return money_text(decimal_of(units, g.places))

    lines = []
    if choice is None:
        unknown = sum(1 for i in range(g.points) if not g.known(i))
        # The page's sentence: "1 break a constraint" read wrong, so the counts follow
        # a colon (the walk of 6 December 2026).
        counts = message(
            "tune.choice.none-counts",
            "en",
            points=f"{g.points:,}",
            broken=f"{g.points - unknown:,}",
            unknown=f"{unknown:,}",
        )
        lines.append(f"Choice: none. {counts}")
        note = result.none_note("en")
        if note is not None:
            lines.append(note)
        return lines
    i = choice.index
    scope = (
        f"of the {choice.eligible:,} points (of {choice.points:,}) that meet the constraints"
        if result.constraints.any
        else f"of all {choice.points:,} points"
    )
    costs = result.ranked_costs
    best = "the lowest cost" if g.priced else "the fewest billed tokens (no prices given)"
    value = amount(g.cost_units(i))
    if costs is not None:  # the figure the what-if column shows (spec §17)
        best, value = "the lowest what-if cost on the as-run baseline", money_text(costs[i])
    lines.append(f"Choice: K = {choice.k:,}, S = {choice.s:,} — {best} {scope}: {value}")

    def gap(j: int, k: int) -> str:
        moved = result.cost_gap(j, k)
        return money_text(moved) if isinstance(moved, Decimal) else amount(moved)

    unseen = g.columns["unseen_tokens"]
    if choice.runner_up is not None:
        r = choice.runner_up
        rk, rs = g.point(r)
        by = {
            "cost": f"{gap(r, i)} less than the next, K = {rk:,}, S = {rs:,}",
            "unseen_tokens": f"the same {measure} as K = {rk:,}, S = {rs:,}, with "
            f"{unseen[r] - unseen[i]:,} fewer unseen tokens",
            "runs": f"the same {measure} and unseen tokens as K = {rk:,}, S = {rs:,}, with "
            f"{g.summary_calls(r) - g.summary_calls(i):,} fewer runs",
            "k": f"the same {measure}, unseen tokens and runs as K = {rk:,}, S = {rs:,}: "
            "the smaller K",
            "s": f"the same {measure}, unseen tokens and runs as K = {rk:,}, S = {rs:,}: "
            "the smaller S",
        }
        assert choice.decided_by is not None
        lines.append(f"  why: {by[choice.decided_by]}")
    if choice.unknown:
        never = "was never a candidate" if choice.unknown == 1 else "were never candidates"
        lines.append(f"  {counted(choice.unknown, 'point')} with unknown usage {never}")
    base = own.cost_units(0)
    diff = g.cost_units(i) - base
    rel = "" if base == 0 else f" ({'+' if diff > 0 else ''}{_percent(Fraction(diff, base))})"
    sign = "+" if diff > 0 else "-" if diff < 0 else "±"
    change = amount(abs(diff)) if g.priced else f"{abs(diff):,}"
    if not own.known(0):  # its usage is unknown: no cost to compare with
        sign, change, rel = "", "unknown at the scenario's own point", ""
    lines.append(
        f"  against the scenario's own K = {own.ks[0]:,}, S = {own.ss[0]:,}: {measure} "
        f"{sign}{change}{rel}, unseen tokens "
        f"{g.columns['unseen_tokens'][i] - own.columns['unseen_tokens'][0]:+,}, runs "
        f"{g.summary_calls(i) - own.summary_calls(0):+,}, peak input "
        f"{g.columns['peak_full_input'][i] - own.columns['peak_full_input'][0]:+,}"
    )
    if result.less_unseen is None:
        lines.append("  trades: no eligible point leaves fewer tokens unseen")
    else:
        j = result.less_unseen
        jk, js = g.point(j)
        lines.append(
            f"  trades: K = {jk:,}, S = {js:,} leaves "
            f"{g.columns['unseen_tokens'][i] - g.columns['unseen_tokens'][j]:,} fewer tokens "
            f"unseen for {gap(j, i)} more"
        )
    d = choice_dict(result)
    assert d is not None
    comp = d["compression"]
    shown = "—" if comp is None else f"{_ratio_text(Fraction(comp))}:1"
    lines.append(
        f"  quality: generations {d['generations']:,}, compression {shown} (constraints: "
        f"{_quality_limits(result)})"
    )
    relaxed = result.relaxed_note("en")  # the page's sentence (one home: the catalogue)
    if relaxed is not None:
        lines.append(f"  note: {relaxed}")
    if d["ties_own_note"] is not None:
        lines.append(f"  note: {d['ties_own_note']}")
    if d["edge_note"] is not None:
        lines.append(f"  note: {d['edge_note']}")
    if d["at_m_note"] is not None:  # the page's sentence (one home: the catalogue)
        lines.append(f"  note: {d['at_m_note']}")
    above = result.above_as_run
    if above is not None:
        # The page's sentence (one home: the catalogue), in English.
        as_run, below = above
        key = "tune.binds.above-as-run" if below else "tune.binds.above-as-run-none"
        said = message(key, "en", as_run=format_money(as_run), below=format_int(below))
        lines.append(f"  note: {said}")
    w = result.chosen_what_if
    if w is not None:
        total = None if w["modelled_cost"] is None else Decimal(w["modelled_cost"])
        moved = w["delta"].get("total")
        lines.append(
            f"  as a what-if on the as-run baseline (every series, the as-run cache model): "
            f"{money_text(total)}, "
            f"{signed_money_text(None if moved is None else Decimal(moved))} from the as-run "
            f"model ({w['delta_text']})"
        )
    runtime = _runtime_dict(result)
    if runtime is not None and runtime["chosen"] is not None:
        lines.append(
            f"  in {result.runtime.title}: {runtime['knob']} = {runtime['chosen']} "
            f"({runtime['unit']}; S: {runtime['summary_cap']})"
        )
        said = result.runtime.exported_note(d["k"], d["s"], "en")
        if said is not None:
            lines.append(f"  note: {said}")
    lines.append(f"  export: {d['export']}")
    from budgetcore.messages import t  # noqa: PLC0415 - the one catalogue, on use only

    lines.append("  " + t("phrase.not", "en") + t("tune.not", "en"))
    return lines
