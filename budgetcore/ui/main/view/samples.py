"""The samples panel: ratio ranges, byte predictions, the limits verdict and the read time
(spec §6-§7).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from budgetcore.core.plan import Plan
from budgetcore.messages import count, t
from budgetcore.ui.drawn import Drawn, reuse
from budgetcore.ui.markup import Markup, el, fold, join, td
from budgetcore.units import format_bytes, format_int

if TYPE_CHECKING:
    from budgetcore.core.protections import LimitRow

__all__ = [
    "samples_html",
]


def _ratio_text(value: str | None) -> Markup:
    if value is None:
        return Markup("—")
    exact = Fraction(value)
    with localcontext() as ctx:
        ctx.prec = 28
        approx = Decimal(exact.numerator) / Decimal(exact.denominator)
    return el("span", {"title": value}, f"{approx:.4f}")


def _key(*parts: object) -> str:
    return json.dumps(parts, sort_keys=True, default=str)


def samples_html(
    p: Plan,
    out: dict[str, Any],
    lang: str,
    was: Drawn | None = None,
    drawn: dict[str, tuple[object, object]] | None = None,
) -> Markup:
    """Ratio ranges, byte predictions, the limits verdict and the read time, each part
    drawn again only when what it shows changed (``was``, the last render's drawings):
    a new history or F moves the predictions and the limits, never the ratios, and the
    whole panel was some hundred elements built again for each new value. ``out``:
    the plan's values (``p.as_dict()`` and more)."""
    now = {} if drawn is None else drawn
    by = out["bytes"]
    ratio_key = _key({c: [by[c][k] for k in _RATIO_KEYS] for c in by})
    ratios = reuse(was, now, "samples-ratios", (ratio_key, lang), lambda: _ratios(by, lang))
    tokens = p.predicted_tokens()
    predicted_key = _key({c: by[c]["predictions"] for c in by}, tokens)
    predictions = reuse(
        was,
        now,
        "samples-predictions",
        (predicted_key, lang),
        lambda: _predictions(by, tokens, lang),
    )
    first = out["first_binding_limit"]
    limits = reuse(
        was,
        now,
        "samples-limits",
        (_key(out["io"], first), p.io.rows, lang),
        lambda: _limits(out["io"], p.io.rows, first, lang),
    )
    time = reuse(
        was,
        now,
        "samples-time",
        (_key(out["time"], p.funnel.prefetched), lang),
        lambda: _time(out["time"], p.funnel.prefetched, lang),
    )
    return join((ratios, predictions, limits, time))


_RATIO_KEYS = ("samples", "ratio_min", "ratio_max", "ratio_pooled")


def _ratios(by: dict[str, Any], lang: str) -> Markup:
    ratio_heads = [
        t(k, lang)
        for k in ("phrase.channel", "phrase.samples", "phrase.min", "phrase.max", "phrase.pooled")
    ]
    # The two bytes tables are long references: folded until opened.
    ratios_caption = t("phrase.ratios", lang)
    return fold(
        ratios_caption,
        el(
            "table",
            {"class": "grid stack"},
            el("caption", None, ratios_caption),
            el(
                "thead", None, el("tr", None, *(el("th", {"scope": "col"}, h) for h in ratio_heads))
            ),
            el(
                "tbody",
                None,
                *(
                    el(
                        "tr",
                        {"data-channel": c},
                        el("th", {"scope": "row"}, t(f"channel.{c}", lang)),
                        td(ratio_heads[1], None, str(by[c]["samples"])),
                        td(ratio_heads[2], None, _ratio_text(by[c]["ratio_min"])),
                        td(ratio_heads[3], None, _ratio_text(by[c]["ratio_max"])),
                        td(ratio_heads[4], None, _ratio_text(by[c]["ratio_pooled"])),
                    )
                    for c in by
                ),
            ),
        ),
    )


def _predictions(by: dict[str, Any], predicted: dict[str, int], lang: str) -> Markup:
    unknown = t("msg.unknown", lang)
    word = t("unit.bytes", lang)
    channels = {c: t(f"channel.{c}", lang) for c in by}
    rows = []
    for q, tokens in predicted.items():
        tds = []
        for c in by:
            pred = by[c]["predictions"][q]
            if pred == "unknown":
                tds.append(
                    td(channels[c], {"data-bytes": f"{c}.{q}", "data-unknown": "true"}, unknown)
                )
            else:
                tds.append(
                    td(
                        channels[c],
                        {"data-bytes": f"{c}.{q}"},
                        f"{format_bytes(pred['low'], word=word)} – "
                        f"{format_bytes(pred['high'], word=word)}",
                        el("br"),
                        el("small", None, f"≈ {format_bytes(pred['point'], word=word)}"),
                    )
                )
        rows.append(
            el(
                "tr",
                None,
                el(
                    "th",
                    {"scope": "row"},
                    t(f"quantity.{q}", lang),
                    " ",
                    format_int(tokens),
                    " ",
                    t("unit.tokens", lang),
                ),
                *tds,
            )
        )
    predicted_caption = t("phrase.predicted", lang)
    return fold(
        predicted_caption,
        el(
            "table",
            {"class": "grid stack"},
            el("caption", None, predicted_caption),
            el(
                "thead",
                None,
                el(
                    "tr",
                    None,
                    el("th", {"scope": "col"}, t("unit.tokens", lang)),
                    *(el("th", {"scope": "col"}, channels[c]) for c in by),
                ),
            ),
            el("tbody", None, *rows),
        ),
    )


def _limits(io: list[Any], io_rows: Sequence[LimitRow], first: str, lang: str) -> Markup:
    unknown = t("msg.unknown", lang)
    limit_heads = [
        t(k, lang) for k in ("phrase.limit", "phrase.value", "phrase.equivalent", "phrase.basis")
    ]
    limit_rows = []
    for r, limit_row in zip(io, io_rows, strict=True):
        if not r["known"]:
            equivalent = unknown
        elif r["tokens"] is None:
            equivalent = t("phrase.does-not-bite", lang)
        else:
            equivalent = format_int(r["tokens"])
        limit_rows.append(
            el(
                "tr",
                {"data-limit": r["key"], "data-binding": "true" if r["key"] == first else None},
                el("th", {"scope": "row"}, t(f"limit.{r['key']}", lang)),
                td(
                    limit_heads[1], None, format_int(r["limit"]), " ", t(_unit_key(r["unit"]), lang)
                ),
                td(limit_heads[2], None, equivalent),
                td(limit_heads[3], None, _basis(limit_row, lang)),
            )
        )
    unknowns = sum(not r["known"] for r in io)
    if first != "history":
        verdict = t("phrase.first-bites", lang, name=t(f"limit.{first}", lang))
    elif unknowns:  # an unknown limit may bite: never "every limit" (spec §7)
        verdict = count("phrase.nothing-known-bites", unknowns, lang)
    else:
        verdict = t("phrase.nothing-bites", lang)
    return join(
        (
            el(
                "table",
                {"class": "grid stack limits"},
                el("caption", None, t("phrase.limits-caption", lang)),
                el(
                    "thead",
                    None,
                    el("tr", None, *(el("th", {"scope": "col"}, h) for h in limit_heads)),
                ),
                el("tbody", None, *limit_rows),
            ),
            el("p", {"class": "verdict", "data-verdict": first}, verdict),
        )
    )


def _time(tm: dict[str, Any], prefetched: int, lang: str) -> Markup:
    def num(v: int | None, key: str) -> str:
        return t(f"count.unknown.{key}", lang) if v is None else count(f"count.{key}", v, lang)

    read_ms = tm["read_ms"]
    read = (
        t("phrase.read-time-unknown", lang)
        if read_ms == "unknown"
        else t(
            "phrase.read-time",
            lang,
            range=f"{format_int(read_ms['low'])} – {format_int(read_ms['high'])} "
            + t("unit.ms", lang),
        )
    )
    sentence = t(
        "phrase.time",
        lang,
        tokens=format_int(prefetched),
        records=num(tm["records"], "record"),
        sessions=num(tm["sessions"], "session"),
        pages=num(tm["message_pages"], "message-page"),
        dirs=num(tm["directory_pages"], "directory-page"),
        read=read,
    )
    return el("p", {"class": "time", "data-time": ""}, sentence)


_UNIT_KEYS = {
    "tokens": "unit.tokens",
    "bytes": "unit.bytes",
    "records": "unit.records",
    "sessions": "unit.sessions",
    "ms": "unit.ms",
}


def _basis(row: LimitRow, lang: str) -> str:
    return t(row.basis_key, lang, **dict(row.basis_params))


def _unit_key(unit: str) -> str:
    return _UNIT_KEYS.get(unit, "unit.tokens")
