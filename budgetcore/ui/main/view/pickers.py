"""The model pickers: their matches, the chosen model's contract and prices, and the models
the link names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from budgetcore.errors import shown_text
from budgetcore.inputs.text import limit_of, too_large, utf8_size_above
from budgetcore.messages import count, t
from budgetcore.ui.main.view.types import PickerView
from budgetcore.ui.markup import Markup, el, join
from budgetcore.ui.model import PICKER_MIN_CHARS, PageState
from budgetcore.ui.picks import chosen_model_of, link_models
from budgetcore.ui.problems import problem_text
from budgetcore.units import format_int

if TYPE_CHECKING:  # the registry loads after the page is ready
    from decimal import Decimal

    from budgetcore.registry.models import RegistryModel, Resolution


__all__ = [
    "how_text",
    "link_models",
    "picker_parts",
]


def picker_parts(state: PageState, section: str) -> tuple[PickerView, tuple[Markup, Markup, str]]:
    """The picker's input state, its options, what it has chosen and its status line."""
    lang = state.lang
    ps = state.pickers[section]
    registry = state.registry
    found = ps.found if ps.open else None
    options: list[Markup] = []
    active_id = ""
    if found is not None:
        active = min(ps.active, len(found.models) - 1)
        for i, m in enumerate(found.models):
            oid = f"picker-{section}-opt-{i}"
            if i == active:
                active_id = oid
            meta = t(
                "picker.meta",
                lang,
                provider=m.provider,
                i=format_int(m.contract.input_tokens),
                o=format_int(m.contract.output_tokens),
            )
            marks = _model_marks(m, lang, state.today)
            resolved = found.resolution if i == 0 else None
            options.append(
                el(
                    "li",
                    {
                        "id": oid,
                        "role": "option",
                        "aria-selected": "true" if i == active else "false",
                        "data-model": m.name,
                        "data-picker-option": section,
                        **({"data-retired": "true"} if m.retired else {}),
                    },
                    el("span", {"class": "picker-name"}, m.name),
                    " ",
                    el("span", {"class": "picker-meta"}, meta),
                    *(
                        [el("span", {"class": "picker-marks", "data-marks": m.name}, marks)]
                        if marks
                        else []
                    ),
                    *(
                        [
                            el(
                                "span",
                                {"class": "picker-resolved", "data-resolved": resolved.how},
                                _resolution_text(resolved, lang),
                            )
                        ]
                        if resolved is not None
                        else []
                    ),
                )
            )
    expanded = bool(options)
    # Text the list closed on without choosing from it: the box keeps it, so its line
    # says it chose nothing (it went back to the help, or said nothing beside the model
    # chosen before: the twelfth walk).
    left = ps.query.strip()
    unchosen = not ps.open and left and left not in (ps.chosen, ps.written)
    if registry is None:
        status = t("picker.loading", lang) if ps.open or section == "main_model" else ""
    elif unchosen and ps.chosen:
        status = t("picker.unchosen-kept", lang, query=shown_text(left), model=ps.chosen)
    elif unchosen:
        status = t("picker.unchosen", lang, query=shown_text(left), n=PICKER_MIN_CHARS)
    elif not ps.open and ps.chosen:
        status = ""  # the chosen model's line says it all
    elif ps.open and utf8_size_above(ps.query, limit_of("query")):  # never searched (update)
        size = len(ps.query.encode("utf-8", "surrogatepass"))
        status = problem_text(too_large("query", size=size).problems[0], lang)
    elif found is None:  # closed with nothing chosen, or fewer letters than a search needs
        status = t(
            "picker.type",
            lang,
            n=PICKER_MIN_CHARS,
            total=format_int(len(registry)),
            release=registry.provenance.label,
            retired=format_int(registry.provenance.retired_models),
        )
    elif found.total == 0:
        status = t("picker.none", lang, query=shown_text(ps.query.strip()))
    elif found.total > len(found.models):
        status = t("picker.some", lang, shown=len(found.models), total=format_int(found.total))
    else:
        status = count("picker.all", found.total, lang)
    view = PickerView(ps.query, expanded, active_id if expanded else "")
    return view, (join(options), _chosen_html(state, section), status)


def _model_marks(model: RegistryModel, lang: str, today: str = "") -> str:
    """What only some models are, in one line: Responses API only, retired (with the
    release it comes from), the deprecation date, marked as past when it is on or
    before ``today`` (YYYY-MM-DD; "" unknown: never marked)."""
    marks = []
    if model.mode == "responses":
        marks.append(t("picker.mark.responses", lang))
    if model.retired:
        marks.append(t("picker.mark.retired", lang, release=model.retired))
    if model.deprecation:
        # ISO dates compare as text; the shell's date is the only clock.
        past = bool(today) and model.deprecation <= today
        key = "picker.mark.deprecated" if past else "picker.mark.deprecation"
        marks.append(t(key, lang, date=model.deprecation))
    return " · ".join(marks)


def how_text(found: Resolution, lang: str) -> str:
    """How the registry mapped a written name, in ``lang``: "exact id", or its steps."""
    steps = found.steps or ("exact",)
    return " + ".join(t(f"picker.how.{step}", lang) for step in steps)


def _resolution_text(found: Resolution, lang: str) -> str:
    how = how_text(found, lang)
    return t("picker.resolved", lang, written=found.name, name=found.matched or "", how=how)


def _chosen_html(state: PageState, section: str) -> Markup:
    name, same = chosen_model_of(state, section)
    lang = state.lang
    if not name or state.registry is None:
        return Markup("")
    from budgetcore.registry.models import per_million as money  # noqa: PLC0415 - after ready

    release = state.registry.provenance.label
    if not same:
        return el(
            "span",
            {"data-model-chosen": name, "data-custom": "true"},
            t("picker.custom", lang, name=name),
        )
    model = state.registry.lookup(name)
    assert model is not None
    p = model.prices

    def per_million(price: Decimal | None) -> str:
        # The registry's "-" (the CLI's table cell) read as a free price here: a price
        # the registry lacks is said to be missing (a request that needs it is unpriced).
        return t("picker.price-unlisted", lang) if price is None else money(price)

    prices = t(
        "picker.prices",
        lang,
        input=per_million(p.input),
        output=per_million(p.output),
        read=per_million(p.cache_read),
        write=per_million(p.cache_write),
    )
    if p.cache_write_1h is not None:
        prices += t("picker.prices-1h", lang, write_1h=per_million(p.cache_write_1h))
    tiers = [
        el(
            "span",
            {"data-tier": tier.above},
            t(
                "picker.tier",
                lang,
                above=format_int(tier.above),
                input=per_million(p.input if tier.input is None else tier.input),
                output=per_million(p.output if tier.output is None else tier.output),
                read=per_million(p.cache_read if tier.cache_read is None else tier.cache_read),
                write=per_million(p.cache_write if tier.cache_write is None else tier.cache_write),
            ),
        )
        for tier in p.tiers
    ]
    marks = _model_marks(model, lang, state.today)
    # Still this model at a smaller window (a log's runtime's, spec §17): said, since
    # the contract shown is the registry's.
    typed_i = state.values.get(f"{section}.input_tokens")
    window: list[Markup | str] = []
    if isinstance(typed_i, int) and typed_i < model.contract.input_tokens:
        i, w = format_int(model.contract.input_tokens), format_int(typed_i)
        window = [
            el("br"),
            el("span", {"data-window": str(typed_i)}, t("picker.window", lang, w=w, i=i)),
        ]
    written = state.pickers[section].written
    resolved = state.registry.resolve(written) if written and written != name else None
    return el(
        "span",
        {"data-model-chosen": name, "data-custom": "false"},
        el("strong", None, name),
        " ",
        t(
            "picker.contract",
            lang,
            provider=model.provider,
            i=format_int(model.contract.input_tokens),
            o=format_int(model.contract.output_tokens),
        ),
        *window,
        *(
            [el("br"), el("span", {"class": "picker-marks", "data-marks": name}, marks)]
            if marks
            else []
        ),
        *(
            [
                el("br"),
                el(
                    "span",
                    {"class": "picker-resolved", "data-resolved": resolved.how},
                    _resolution_text(resolved, lang),
                ),
            ]
            if resolved is not None and resolved.matched == name
            else []
        ),
        el("br"),
        el("span", {"data-prices": name}, prices),
        *(x for tier in tiers for x in (el("br"), tier)),
        el("br"),
        el(
            "span",
            {"class": "hint", "data-release": release},
            t("picker.release", lang, release=model.retired or release),
        ),
    )
