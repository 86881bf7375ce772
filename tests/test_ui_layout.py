"""The page's layout, in CPython: the section navigation, folded tables that stack on a
phone, and the form's order (K and S first). Size limits: tests/test_ui_size_limits.py;
the readouts' units: tests/test_ui_readouts.py; the export's comments:
tests/test_load_export.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from budgetcore.messages import CATALOGUE, t
from budgetcore.registry.models import default_registry
from budgetcore.registry.peers import default_peers
from budgetcore.ui.events import (
    ExampleSamples,
    FieldTyped,
    LanguageChosen,
    ModelDataLoaded,
)
from budgetcore.ui.main.view.nav import SECTIONS, nav_html
from budgetcore.ui.main.view.peers import render_peers
from budgetcore.ui.main.view.screen import render
from budgetcore.ui.main.view.shell import shell_html
from budgetcore.ui.model import PageState
from budgetcore.ui.prerender import first_screen, prerender
from budgetcore.ui.update import initial_state, reduce

ROOT = Path(__file__).resolve().parent.parent
INDEX = (ROOT / "web" / "index.html").read_text(encoding="utf-8")


def loaded(**changes: object) -> PageState:
    state = initial_state(**changes)  # type: ignore[arg-type]
    return reduce(state, ModelDataLoaded(default_registry(), default_peers()))


# ------------------------------------------------------------------ navigation


def test_every_nav_section_is_a_panel_of_the_page_in_page_order() -> None:
    ids = re.findall(r'<(?:section|details|main|div)\b[^>]*\bid="([^"]+)"', INDEX)
    positions = [ids.index(section) for section, _ in SECTIONS]  # ValueError: missing
    assert positions == sorted(positions)
    for _section, key in SECTIONS:
        en, zh = CATALOGUE[key]
        assert en
        assert zh
        assert en != zh


def test_the_nav_is_buttons_and_never_a_link() -> None:
    markup = nav_html("zh")
    assert "href" not in markup
    assert markup.count('<button type="button" data-nav=') == len(SECTIONS)
    assert "会话回放" in markup
    assert shell_html()["nav-list"] == nav_html()


def test_the_built_page_has_the_nav_and_a_localised_title() -> None:
    page = prerender(INDEX, first_screen())
    assert re.search(r'<div id="nav-list" class="nav-list"><button type="button" data-nav=', page)
    assert '<title data-i18n="nav.page-title">' in page
    assert t("nav.page-title", "zh") != t("nav.page-title", "en")
    assert "Compact" not in t("static.title", "zh")


# ------------------------------------------------------------------ folded, stacked tables


def _tables(markup: str) -> list[str]:
    return re.findall(r"<table\b.*?</table>", markup, re.S)


def _assert_stacked(table: str) -> None:
    """A table that stacks on a phone: every data cell names its column."""
    assert re.match(r'<table class="[^"]*\bstack\b', table), table[:80]
    cells = re.findall(r"<td\b[^>]*>", table)
    assert cells
    unlabelled = [c for c in cells if "data-label=" not in c]
    assert not unlabelled, unlabelled[:3]


def test_the_peers_every_system_table_is_folded_and_stacks() -> None:
    html = render_peers(loaded())
    folded = re.search(r"<details class=\"fold\"[^>]*>.*?</details>", html, re.S)
    assert folded is not None
    assert " open" not in folded.group(0).split(">", 1)[0]
    (every,) = [tb for tb in _tables(folded.group(0)) if "peers" in tb.split(">", 1)[0]]
    _assert_stacked(every)
    for table in _tables(html):
        _assert_stacked(table)


def test_the_byte_tables_are_folded_and_every_samples_table_stacks() -> None:
    state = reduce(initial_state(), ExampleSamples())
    html = render(state).html["samples-out"]
    assert re.search(r'<details class="fold"', html)
    for table in _tables(html):
        _assert_stacked(table)


def test_k_and_s_come_first_in_the_form() -> None:
    """Issue 42: the configured overrides (K, S, m, o) lead the inputs; the model
    contracts follow them."""
    from budgetcore.ui.main.view.shell import controls_html  # noqa: PLC0415

    form = str(controls_html())
    groups = re.findall(r'data-group="([a-z_]+)"', form)
    assert groups == ["config", "main_model", "summary_model", "workload", "limits"]
    inputs = re.findall(r'data-input="([a-z_.]+)"', form)
    assert inputs[:2] == ["config.trigger_tokens", "config.summary_max_tokens"]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("key", ["lower_k", "lower_s", "raise_i", "f_above_m"])
def test_an_experiment_s_table_stacks_on_a_phone(key: str, lang: str) -> None:
    """Walk of December 2026 (390, ZH): experiment 4's table broke its numbers across
    lines ("1,854,0" over "64"): its five columns do not fit 390 px, and a cell may
    break anywhere. Like every wide table, it stacks on a phone, each cell named."""
    from budgetcore.ui.events import ExperimentRun  # noqa: PLC0415

    state = reduce(reduce(initial_state(), LanguageChosen(lang)), ExperimentRun(key))
    (table,) = _tables(str(render(state).html["experiment-result"]))
    _assert_stacked(table)
    heads = t("phrase.watched", lang).split("|")
    labels = set(re.findall(r'data-label="([^"]*)"', table))
    assert labels == set(heads[1:])


def test_every_legend_swatch_has_its_gap_before_its_label_inside_a_chart_or_not() -> None:
    """Second walk of December 2026: the peers' legend (in ``#peers-out``, no ``.chart``)
    drew its swatches touching their labels ("■read in the code"): the swatch's margin
    was a rule of ``.chart`` only."""
    css = (ROOT / "web" / "style.css").read_text(encoding="utf-8")
    rules = re.findall(r"^([^{}\n]*)\{([^}]*)\}", css, re.M)
    unscoped = [body for sel, body in rules if "svg.ch-swatch" in sel.replace(".chart svg.", "")]
    assert any("margin-right" in body for body in unscoped), unscoped
    peers = re.search(r'<div id="peers-out"([^>]*)>', INDEX)
    assert peers is not None
    assert "chart" not in peers.group(1)  # the case the scoped rule missed
    assert 'class="ch-swatch"' in str(render_peers(loaded()))


def test_a_checkbox_field_sits_at_the_top_of_its_grid_cell() -> None:
    """Walk of December 2026 (issue 42): Tune's "No rejected turn" and the replay's
    checkboxes sat alone in a grid column, centred against the tall hints beside them.
    The grid stretches each cell to its row; a checkbox field keeps to the top of its
    cell (its own box and its flex line), as the other fields' labels do."""
    from budgetcore.ui.replay.form import replay_controls_html  # noqa: PLC0415
    from budgetcore.ui.tune.view import tune_controls_html  # noqa: PLC0415

    css = (ROOT / "web" / "style.css").read_text(encoding="utf-8")
    # The rules every width has: unindented (a media query's are indented).
    rules = dict(re.findall(r"^([.#][^{}\n]*?) \{([^}]*)\}", css, re.M))
    decls = dict(
        (k.strip(), v.strip())
        for k, v in (d.split(":", 1) for d in rules[".field.check"].split(";") if ":" in d)
    )
    assert decls.get("align-self") == "start", decls
    assert decls.get("align-content") == "flex-start", decls
    assert "display: grid" in rules[".rp-grid"]  # the cells that stretch to their row
    for form in (str(tune_controls_html()), str(replay_controls_html())):
        assert re.search(r'class="rp-grid"[^>]*>(?:(?!</div>).)*class="field check"', form, re.S)


def test_the_samples_tables_follow_the_plan_with_no_samples_pasted() -> None:
    """The predicted-bytes table's rows name the plan's token counts, also when every
    prediction is unknown (no samples): drawn again from the last render's drawings,
    the rows kept the first plan's counts while only the predictions were compared."""
    from budgetcore.units import format_int  # noqa: PLC0415

    state = initial_state(width=1200)
    before = render(state)
    state = reduce(state, FieldTyped("workload.required_tokens", "930,000"))
    html = render(state, before).html["samples-out"]
    for q, tokens in state.plan.predicted_tokens().items():
        assert f"{t(f'quantity.{q}', 'en')} {format_int(tokens)} " in html, q


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("zh", ["应为8,192", "应为是", "应为0", "应为否"]),
        ("en", ["is 8,192", "is yes", "is 0", "is no"]),
    ],
)
def test_an_experiment_s_expected_value_reads_as_a_phrase(lang: str, expected: list[str]) -> None:
    """The eighteenth walk (390, ZH): a check expected "is no" read "为 否" under the
    column "预期", a fragment; it now reads "应为否" ("should be no"), the English
    unchanged. Experiment ``lower_s`` expects four values (its table's third column)."""
    from budgetcore.ui.events import ExperimentRun  # noqa: PLC0415

    state = reduce(reduce(initial_state(), LanguageChosen(lang)), ExperimentRun("lower_s"))
    (table,) = _tables(str(render(state).html["experiment-result"]))
    cells = re.findall(r'<td data-label="[^"]*">([^<]*)</td>', table)
    assert cells[2::4][:4] == expected, cells
