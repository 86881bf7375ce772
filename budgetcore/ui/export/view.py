"""The config panel: the import preview, the warnings and the export."""

from __future__ import annotations

from typing import TYPE_CHECKING

from budgetcore.messages import count, said_list, t
from budgetcore.ui.form import (
    FIELDS,
    format_value,
)
from budgetcore.ui.main.view.readouts import bullet_list, model_name
from budgetcore.ui.markup import Markup, el, join, td
from budgetcore.ui.model import PageState
from budgetcore.ui.problems import problem_text, warning_lines
from budgetcore.units import format_int

if TYPE_CHECKING:
    from collections.abc import Sequence

    from budgetcore.core.scenario import Scenario
    from budgetcore.registry.peers import Peer
    from budgetcore.ui.export.state import ImportPreview

__all__ = [
    "CONFIG_TEXTS",
    "config_texts",
    "export_key",
    "import_html",
    "render_export",
    "warnings_html",
]


def _preview_head(p: ImportPreview, mode: str, lang: str) -> str:
    """What the file sets, and how many settings applying it changes: the rows of the
    table under it. They can outnumber the file's overrides (the seventh walk: "sets 1
    override" above K, I and O): a replace puts back the keys the file omits, and a
    recorded main model changes I and O, which the head then names."""
    n = count("count.override", len(p.keys), lang)
    changes = count("count.setting", len(p.changes), lang)
    model = any(key.startswith("main_model.") for key, _now, _after in p.changes)
    if p.keys:
        if not p.changes:
            return t("phrase.import-preview-none", lang, n=n, mode=mode)
        key = "phrase.import-preview-model" if model else "phrase.import-preview"
        return t(key, lang, n=n, mode=mode, changes=changes)
    if model:
        return t("phrase.import-empty-model", lang, mode=mode, changes=changes)
    if p.mode == "merge":
        return t("phrase.import-empty-merge", lang)
    if not p.changes:
        return t("phrase.import-empty-replace-none", lang)
    return t("phrase.import-empty-replace", lang, changes=changes)


def import_html(state: PageState) -> Markup:
    p = state.import_preview
    lang = state.lang
    if p is None:
        return Markup("")
    if p.problems:
        return el(
            "ul",
            {"class": "errors", "id": "import-errors", "role": "alert"},
            bullet_list([problem_text(x, lang) for x in p.problems]),
        )
    keys = said_list(p.keys, lang) if p.keys else t("phrase.none", lang)
    mode = t(f"phrase.import-{p.mode}", lang)
    if p.applied:
        n = count("count.override", len(p.keys), lang)
        msg = t("phrase.import-done", lang, n=n, keys=keys, mode=mode)
        return el("p", {"id": "import-ok", "role": "status", "data-import": "applied"}, msg)
    head = _preview_head(p, mode, lang)
    if p.changes:
        cols = t("phrase.import-head", lang).split("|")
        rows = join(
            el(
                "tr",
                {"data-import-change": key},
                el("th", {"scope": "row"}, _label_with_key(key, lang)),
                td(cols[1], None, format_value(key, now)),
                td(cols[2], None, el("strong", None, format_value(key, after))),
            )
            for key, now, after in p.changes
        )
        heads = join(el("th", {"scope": "col"}, h) for h in cols)
        # Stacked on a phone, as the export's diff: at 390 px it scrolled sideways.
        table: Markup = el(
            "table",
            {"class": "diff stack", "data-import-diff": ""},
            el("thead", None, el("tr", None, heads)),
            el("tbody", None, rows),
        )
    else:
        table = el("p", None, t("phrase.import-no-change", lang))
    warn = warnings_html(p.after, lang, state.peers) if p.after is not None else Markup("")
    restores = restored_html(p, lang)
    buttons = el(
        "div",
        {"class": "row"},
        el(
            "button",
            {"type": "button", "data-action": "import-apply"},
            t("phrase.import-apply", lang),
        ),
        el(
            "button",
            {"type": "button", "data-action": "import-cancel"},
            t("phrase.import-cancel", lang),
        ),
    )
    return el(
        "div", {"data-import": "preview"}, el("p", None, head), restores, table, warn, buttons
    )


def restored_html(p: ImportPreview, lang: str) -> Markup:
    """Which model and plan an import brings: the file's own ([reviewed]), or, for a
    file that records none, the page's, said as kept. A runtime's own file: the model
    it names, restored; one the registry does not have, or none, then the page's, said
    with how to read the file for another model (the sixth walk: after Reset a Codex
    file was read for the article's contract and the preview never said how else)."""
    restored, reviewed, runtime, named = p.restored, p.reviewed, p.runtime, p.named
    if restored is None:
        return Markup("")
    scenario = restored.scenario
    contract = scenario.main_model
    key = "phrase.import-restores" if reviewed else "phrase.import-no-model"
    where = "file" if reviewed else "page"
    if runtime:
        key, where = "phrase.import-runtime", "runtime"
        if named is not None:
            known = p.named_known
            key = "phrase.import-runtime-model" if known else "phrase.import-runtime-unknown"
            where = "runtime-model" if known else "runtime"
            if p.page_first:
                key = "phrase.import-runtime-page-first"
    text = t(
        key,
        lang,
        runtime=runtime,
        model=model_name(scenario, lang, "phrase.custom-contract"),
        input=format_int(contract.input_tokens),
        output=format_int(contract.output_tokens),
        m=format_int(restored.main_safe_input),
        k=format_int(scenario.config.trigger_tokens),
        s=format_int(scenario.config.summary_max_tokens),
        setting=named[0] if named else "",
        named=named[1] if named else "",
        why="" if p.window_why is None else t(p.window_why[0], lang, **dict(p.window_why[1])),
    )
    return el("p", {"data-import-restores": where}, text)


def _label_with_key(key: str, lang: str) -> Markup:
    """A setting as the page labels it, with the key a config file uses."""
    return join((t(f"label.{key}", lang), " ", el("code", None, key)))


def warnings_html(
    scenario: Scenario,
    lang: str,
    peers: Sequence[Peer] | None = None,
    runtime: str | None = None,
) -> Markup:
    """Every reviewer warning (budgetcore.scenario.warnings, the CLI's too), one line
    each, in the page's language; the peers' one once their rules are loaded (after
    ready: the boot loads no registry); with ``runtime``, whether it runs the model."""
    from budgetcore.scenario.warnings import review_warnings  # noqa: PLC0415

    return warning_lines(review_warnings(scenario, peers, runtime), lang)


#: The panel's texts that say what it writes (web/index.html): selector -> the reviewed
#: config's static key, read by the language switch while no runtime is picked.
CONFIG_TEXTS = {
    "#config-h": "static.config-h",
    "#config-note": "static.config-note",
    "#import-h": "static.import-h",
    'label[for="import-text"]': "static.import-paste",
}


def config_texts(runtime: str, lang: str) -> dict[str, tuple[str | None, str]]:
    """The heading, intro and import labels of the panel: (the static key the language
    switch translates, None where the text is the runtime's; the text). With a runtime
    picked they say what the panel writes for it and where that goes (it kept the
    reviewed config's "Reviewed config: supported overrides only" and "Paste TOML or
    JSON" above Codex's ~/.codex/config.toml)."""
    if runtime == "article":
        return {sel: (key, t(key, lang)) for sel, key in CONFIG_TEXTS.items()}
    from budgetcore.runtimes import profile  # noqa: PLC0415 - loaded with a runtime picked
    from budgetcore.ui.export.runtime import file_text  # noqa: PLC0415

    prof = profile(runtime)
    where = {"runtime": prof.title, "file": file_text(prof.file, lang)}
    return {
        "#config-h": (None, t("runtime.config-h", lang, **where)),
        "#config-note": (None, t("runtime.config-note", lang, **where)),
        "#import-h": (None, t("runtime.import-h", lang, **where)),
        'label[for="import-text"]': (None, t("runtime.import-paste", lang, **where)),
    }


def export_key(state: PageState) -> object:
    """What the export panel is drawn from (the shell draws it again when this changes):
    the scenario, the format, the runtime picked, the language and the models the link
    names."""
    from budgetcore.ui.picks import link_models  # noqa: PLC0415

    models = tuple(sorted(link_models(state).items()))
    return (state.plan.scenario, state.export_format, state.export_runtime, state.lang, models)


def render_export(state: PageState) -> tuple[str, Markup]:
    """The exported override file and its diff against the defaults."""
    from budgetcore.scenario.export import export_json, export_toml, overrides_of  # noqa: PLC0415
    from budgetcore.scenario.overrides import OVERRIDES  # noqa: PLC0415

    if state.export_runtime != "article":  # the runtime picker: that runtime's own file
        from budgetcore.ui.export.runtime import runtime_export_html  # noqa: PLC0415

        return runtime_export_html(state)
    scenario = state.plan.scenario
    lang = state.lang

    def say(key: str, **params: str) -> str:  # the file's comments in the page's language
        return t(key, lang, **params)

    from budgetcore.ui.picks import link_models  # noqa: PLC0415

    export = export_toml if state.export_format == "toml" else export_json
    # The fragment it records is the link's own: the registry models it names too.
    body = export(scenario, say, link_models(state))
    changed = overrides_of(scenario)
    if not changed:
        return body, el("p", {"class": "diff-empty"}, t("phrase.no-overrides", lang))
    cols = t("phrase.diff-head", lang).split("|")
    rows = join(
        el(
            "tr",
            {"data-override": o.key},
            el("th", {"scope": "row"}, el("code", None, o.key)),
            td(cols[1], None, format_value(o.key, o.default)),
            td(cols[2], None, el("strong", None, format_value(o.key, changed[o.key]))),
            td(cols[3], None, t(FIELDS[o.key].unit, lang)),
            td(cols[4], None, t(f"override.{o.key}", lang)),
        )
        for o in OVERRIDES
        if o.key in changed
    )
    heads = join(el("th", {"scope": "col"}, h) for h in cols)
    # Stacked rows on a phone, each cell with its column's name: five columns with
    # config.trigger_tokens in the first scrolled sideways, hidden, at 390 px.
    return body, el(
        "table",
        {"class": "diff stack", "data-export-diff": ""},
        el("thead", None, el("tr", None, heads)),
        el("tbody", None, rows),
    )
