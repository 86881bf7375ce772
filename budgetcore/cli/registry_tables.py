"""The registry's CLI tables (``models``, ``peers``): the registry package returns values
(``RegistryModel``, ``Resolution``, ``PeerView``) and these lines render them for a
terminal. The page renders the same values in ``ui/main/view``."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from budgetcore.registry.models import (
    Provenance,
    RegistryModel,
    Resolution,
    per_million,
)
from budgetcore.registry.peers import PeerView, ReferenceLine
from budgetcore.registry.tiers import PriceTier
from budgetcore.units import format_int, format_percent

__all__ = ["render_models", "render_table", "resolution_line"]


def _notes(m: RegistryModel) -> str:
    notes = []
    if m.mode != "chat":
        notes.append(f"{m.mode} API")
    if m.prices.tiers:
        notes.append("size tiers")
    if m.service_tiers:
        notes.append("/".join(name for name, _ in m.service_tiers))
    if m.retired:
        notes.append(f"retired: last in {m.retired}")
    if m.deprecation:
        notes.append(f"deprecation {m.deprecation}")
    return "; ".join(notes)


def _tier_line(name: str, tier: PriceTier) -> str:
    parts = [
        f"{label} {per_million(value)}"
        for label, value in (
            ("input", tier.input),
            ("output", tier.output),
            ("cache read", tier.cache_read),
            ("cache write", tier.cache_write),
            ("1h cache write", tier.cache_write_1h),
        )
        if value is not None
    ]
    return f"  {name} above {tier.above:,} context tokens: " + ", ".join(parts)


def resolution_line(resolution: Resolution) -> str:
    """How a written name matched, in one line (the CLI shows it beside the result)."""
    if resolution.model is None:
        return f"{resolution.name!r} names no model of the registry (no price, no contract)"
    via = f"; {resolution.source}" if resolution.source else ""
    return f"{resolution.name} -> {resolution.model.name}: {resolution.how}{via}"


def render_models(
    models: Sequence[RegistryModel],
    total: int,
    provenance: Provenance,
    query: str,
    resolution: Resolution | None = None,
) -> list[str]:
    """The CLI's table of matches: contract, then USD per 1,000,000 tokens, then what
    only some models have (API mode, size tiers, service tiers, retired, deprecation);
    each shown model's size tiers below the table; the query as a resolved name first
    when it names a model other than by its exact id."""
    shown = f"{len(models):,} of {total:,}" if total > len(models) else f"{total:,}"
    what = f"matching {query!r}" if query.strip() else "in total"
    retired = (
        f", {provenance.retired_models:,} retired from "
        + ", ".join(r.label for r in provenance.retired)
        if provenance.retired
        else ""
    )
    out = [
        f"{provenance.label} registry ({provenance.kept:,} models{retired}): {shown} {what}; "
        "prices in USD per 1,000,000 tokens"
    ]
    if resolution is not None and not resolution.exact:
        out.append(resolution_line(resolution))
    header = (
        "model",
        "provider",
        "I",
        "O",
        "input",
        "output",
        "cache read",
        "cache write",
        "1h write",
        "notes",
    )
    rows = [
        (
            m.name,
            m.provider,
            f"{m.contract.input_tokens:,}",
            f"{m.contract.output_tokens:,}",
            per_million(m.prices.input),
            per_million(m.prices.output),
            per_million(m.prices.cache_read),
            per_million(m.prices.cache_write),
            per_million(m.prices.cache_write_1h),
            _notes(m),
        )
        for m in models
    ]
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    for r in (header, *rows):
        cells = [r[0].ljust(widths[0]), r[1].ljust(widths[1])]
        cells += [c.rjust(w) for c, w in zip(r[2:-1], widths[2:-1], strict=True)]
        cells.append(r[-1])
        out.append("  ".join(cells).rstrip())
    tiers = [_tier_line(m.name, t) for m in models for t in m.prices.tiers]
    if tiers:
        out.append("Size tiers (a request whose context is above the line pays all of it so):")
        out += tiers
    return out


def render_table(view: PeerView) -> list[str]:
    """The CLI's table: one line per peer, then this scenario's and the article's lines."""
    w, o = format_int(view.window), format_int(view.max_output)
    out = [f"Trigger lines for W = {w}, O = {o} (exact values floored to whole tokens)"]
    rows = []
    for r in view.rows:
        line: str
        share: str
        mark = "*" if r.peer.reported else ""
        if r.tokens is None:
            line, share = r.peer.kind, "-"
        else:
            line, share = format_int(r.tokens), format_percent(r.share or Fraction(0))
            if r.beyond_window:
                share += " (beyond W)"
            if not r.for_model:  # the page lists it apart, never drawn on this window
                share += " (does not run this model)"
        rows.append(
            (
                f"{r.peer.name}{mark}",
                r.peer.version or "-",
                r.peer.confidence,
                line,
                share,
                r.peer.rule.en,
            )
        )
    header = ("system", "version", "confidence", "line", "% of W", "rule")
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(5)]
    for row in (header, *rows):
        cells = [
            row[0].ljust(widths[0]),
            row[1].ljust(widths[1]),
            row[2].ljust(widths[2]),
            row[3].rjust(widths[3]),
            row[4].rjust(widths[4]),
            row[5],
        ]
        out.append("  ".join(cells))
    if any(r.peer.reported for r in view.rows):
        out.append("* reported only: not read in the system's source or documentation")
    no_line = [r for r in view.rows if r.no_line is not None]
    for r in no_line:
        out.append(f"{r.peer.name}: {r.no_line.en if r.no_line else ''}")
    for r in view.rows:
        if r.peer.also:
            counts = " or ".join(a.text.en for a in r.peer.also)
            out.append(
                f"{r.peer.name}: also fires on {counts}, whichever comes first "
                "(counts, not tokens: no token line for these)"
            )

    no_hard = any(g.no_room == "reserve" for g in view.gaps)

    def refs(lines: tuple[ReferenceLine, ...]) -> str:
        return ", ".join(
            r.label.en
            if r.key == "hard" and no_hard
            else f"{r.label.en} {format_int(r.tokens)} ({format_percent(r.share)})"
            for r in lines
        )

    out.append(f"This scenario: {refs(view.scenario)}")
    out.append(f"Context-layers article: {refs(view.article)}")
    out.append(
        "Between them: "
        + ", ".join(
            f"{g.low} -> {g.high}"
            + (f", {g.label.en}" if g.no_room else f" {format_int(g.tokens)} ({g.label.en})")
            for g in view.gaps
        )
    )
    return out
