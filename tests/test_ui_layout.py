"""The page as a workplace (issue 25), in CPython: the section navigation, folded and
stacked tables, inputs above their size limit refused without keeping their text, and
the export's comments in the page's language."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from budgetcore import __version__
from budgetcore.inputs.text import limit_of
from budgetcore.messages import CATALOGUE, t
from budgetcore.registry.models import default_registry
from budgetcore.registry.peers import default_peers
from budgetcore.scenario.export import HEADER_TEXTS, english, export_toml
from budgetcore.ui.dom import Target, event_of, text_limit
from budgetcore.ui.events import (
    ExampleSamples,
    ExportFormatChosen,
    FieldTyped,
    FileRefused,
    ImportTyped,
    JobStep,
    LanguageChosen,
    ModelDataLoaded,
    ReplaySourceChosen,
    ReplayToggled,
    ReplayTurnsTyped,
    SamplesTyped,
    TextRefused,
)
from budgetcore.ui.export.view import render_export
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


# ------------------------------------------------------------------ size limits


def test_a_paste_above_its_limit_is_refused_and_not_kept() -> None:
    big = "#" * (limit_of("config") + 1)
    state = reduce(initial_state(), ImportTyped(big))
    assert state.import_text == ""  # the box is emptied: no later paint carries it
    assert render(state).boxes["import-text"] == ""
    result = render(state).html["import-result"]
    assert f"{limit_of('config') + 1:,} bytes" in result
    assert "1 MiB" in result


@pytest.mark.parametrize(
    ("what", "region"),
    [("config", "import-result"), ("samples", "sample-errors")],
)
def test_a_paste_refused_by_its_length_says_the_cap_and_the_size(what: str, region: str) -> None:
    size = limit_of(what) * 5
    for lang, words in (("en", f"at least {size:,} bytes"), ("zh", f"至少有 {size:,} 字节")):
        state = reduce(initial_state(lang=lang, lang_chosen=True), TextRefused(what, size))
        screen = render(state)
        assert words in screen.html[region], screen.html[region]
        assert "1 MiB" in screen.html[region]
        assert screen.boxes[{"config": "import-text", "samples": "samples-text"}[what]] == ""


def test_samples_above_their_limit_are_refused_and_not_kept() -> None:
    big = '{"channel": "bson", "tokens": 812, "bytes": 3310}\n' * (limit_of("samples") // 40)
    state = reduce(initial_state(), SamplesTyped(big))
    assert state.samples_text == ""
    assert not state.sample_lines
    assert "1 MiB" in render(state).html["sample-errors"]


def test_pasted_turns_refused_by_their_length_are_not_kept() -> None:
    state = reduce(initial_state(), ReplayToggled(True))
    state = reduce(state, ReplaySourceChosen("turns"))
    state = reduce(state, TextRefused("page-turns", limit_of("page-turns") + 1))
    state = reduce(state, JobStep("replay"))  # the shell's next frame: the run
    from budgetcore.ui.replay.view import render_replay  # noqa: PLC0415

    screen = render_replay(state)
    shown = " ".join([*screen.html.values(), *screen.text.values()])
    assert f"at least {limit_of('page-turns') + 1:,} bytes" in shown
    assert "1 MiB" in shown
    assert state.replay.turns_text == ""


def test_pasted_turns_above_the_page_limit_are_refused_and_not_kept() -> None:
    state = reduce(initial_state(), ReplayToggled(True))
    state = reduce(state, ReplaySourceChosen("turns"))
    big = '{"added": 3000}\n' * (limit_of("page-turns") // 16 + 1)
    state = reduce(state, ReplayTurnsTyped(big))
    assert state.replay.turns_text == ""
    assert render(state).boxes["replay-turns"] == ""


def test_a_file_refused_by_its_size_says_the_cap_and_the_size() -> None:
    size = 30 * 1024 * 1024
    state = reduce(initial_state(), FileRefused("config", "huge.toml", size))
    result = render(state).html["import-result"]
    assert f"{size:,} bytes" in result
    assert "1 MiB" in result


# ------------------------------------------------------------------ the export's comments


def test_the_catalogue_says_the_export_header_as_the_cli_does() -> None:
    for key, english_text in HEADER_TEXTS.items():
        assert CATALOGUE[key][0] == english_text, key


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_the_exported_comments_follow_the_page_language(fmt: str) -> None:
    zh = initial_state(lang="zh", lang_chosen=True)
    for start in (zh, reduce(zh, FieldTyped("config.trigger_tokens", "40000"))):
        state = reduce(start, ExportFormatChosen(fmt))
        body, _diff = render_export(state)
        # The [reviewed.main_model] table's name is data (a key), the same in both languages.
        words = re.sub(r'\[reviewed\.\w+\]|"reviewed"', " ", body)
        english_words = re.findall(r"\b(?:generated|reviewed|supported|overrides|default)\b", words)
        assert not english_words, body
        # The data is the same in both languages: the same values and digest.
        en_body, _ = render_export(reduce(state, LanguageChosen("en")))
        if fmt == "toml":
            assert tomllib.loads(body) == tomllib.loads(en_body)
            digest = re.findall(r"sha256[^0-9a-f]*([0-9a-f]{64})", body)
            assert digest == re.findall(r"sha256: ([0-9a-f]{64})", en_body)
        else:
            ours, theirs = json.loads(body), json.loads(en_body)
            ours["_generated"].pop("note", None)
            theirs["_generated"].pop("note", None)
            assert ours == theirs


def test_the_cli_export_stays_english() -> None:
    lines = export_toml(initial_state().plan.scenario).splitlines()
    assert lines[0] == f"# generated by budgetcore {__version__}"
    assert lines[1] == f"# {english('export.reviewed-default')}"
    assert lines[1] == "# reviewed with the default scenario"


@pytest.mark.parametrize(
    ("attr", "what"),
    [
        ("data-import-text", "config"),
        ("data-samples", "samples"),
        ("data-replay-turns", "page-turns"),
    ],
)
def test_a_paste_box_longer_than_its_limit_is_refused_by_its_length(attr: str, what: str) -> None:
    """The shell reads a box's length first; the table refuses it unread above its limit
    and takes its text within it."""
    assert text_limit({attr: ""}) == limit_of(what)
    over = Target({attr: ""}, "", kind="textarea", length=limit_of(what) + 1)
    assert event_of("input", over) == TextRefused(what, limit_of(what) + 1)
    within = Target({attr: ""}, "x", kind="textarea", length=1)
    assert not isinstance(event_of("input", within), TextRefused)
    assert text_limit({"data-input": "config.trigger_tokens"}) is None


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
def test_every_key_readout_names_its_unit(lang: str) -> None:
    """Walk of December 2026 (1440 and 390, both languages): the key bar's M, K, S, C
    and full input were bare numbers, the one place on the first screen without a unit.
    Each now says "tokens" beside its value, in the page's language, while the value's
    own cell keeps the exact number alone (the DOM contract's ``data-key-summary``)."""
    page = prerender(INDEX, first_screen(lang=lang))
    keybar = re.findall(r'<div class="kv" data-kv="([a-z_]+)">(.*?)</div>', page, re.S)
    numbers = [k for k, _ in keybar if k not in ("admitted", "trigger_reached")]
    assert numbers == [
        "main_safe_input",
        "trigger_tokens",
        "summary_cap",
        "summary_safe_input",
        "full_input",
    ]
    for key, cell in keybar:
        if key in numbers:
            value = re.search(rf'data-key-summary="{key}"[^>]*>([^<]*)<', cell)
            assert value is not None
            assert re.fullmatch(r"[0-9,]+", value.group(1)), (key, value.group(1))
            unit = re.search(r'data-i18n="unit.tokens"[^>]*>([^<]*)<', cell)
            assert unit is not None, key
            assert unit.group(1) == t("unit.tokens", lang)


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
