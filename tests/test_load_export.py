"""One loader for every file the page and ``budgetcore export`` write (issue 42): the
reviewed export, TOML or JSON, English or Chinese header, reads back with
``parse_scenario_text`` as the scenario it was reviewed with, and an unknown key is
still refused by name; the export's comments follow the page's language, the CLI's stay
English."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from decimal import Decimal
from pathlib import Path

import pytest

import budgetcore
from budgetcore import (
    Scenario,
    ScenarioError,
    __version__,
    parse_scenario,
    parse_scenario_json,
    parse_scenario_text,
    plan,
)
from budgetcore.messages import CATALOGUE, t
from budgetcore.scenario.export import HEADER_TEXTS, english, export_json, export_toml, overrides_of
from budgetcore.scenario.fragment import parse_fragment
from budgetcore.ui.events import (
    ExportFormatChosen,
    FieldTyped,
    LanguageChosen,
)
from budgetcore.ui.export.view import render_export
from budgetcore.ui.update import initial_state, reduce

ROOT = Path(__file__).resolve().parent.parent

#: The page walk's review (page-walk-2026-12.md, "Export and round trip"): K 120,000,
#: S 12,288, m 0.15 and a limit, so that every section of the export is written.
REVIEWED = (
    "config.trigger_tokens=120000&config.summary_max_tokens=12288"
    "&config.safety_margin=0.15&limits.background_runs_per_process=3"
)


def _reviewed() -> Scenario:
    read = parse_fragment(REVIEWED)
    assert not read.problems
    return read.scenario


def _zh(key: str, **params: str) -> str:  # the page's own header sentences, in Chinese
    return t(key, "zh", **params)


def _exports() -> list[tuple[str, str]]:
    sc = _reviewed()
    models = {"main_model.model": "claude-sonnet-4-5"}
    return [
        ("cli toml", export_toml(sc)),
        ("cli json", export_json(sc)),
        ("page toml zh", export_toml(sc, _zh, models)),
        ("page json zh", export_json(sc, _zh, models)),
        ("page toml en", export_toml(sc, models=models)),
        ("page json en", export_json(sc, models=models)),
        ("nothing changed json", export_json(Scenario())),
        ("nothing changed toml zh", export_toml(Scenario(), _zh)),
    ]


@pytest.mark.parametrize(("name", "text"), _exports(), ids=[n for n, _ in _exports()])
def test_every_export_reads_back_as_the_reviewed_scenario(name: str, text: str) -> None:
    expected = Scenario() if name.startswith("nothing") else _reviewed()
    loaded = parse_scenario_text(text)
    assert overrides_of(loaded) == overrides_of(expected)
    assert plan(loaded).as_dict() == plan(expected).as_dict()
    assert parse_scenario_text(text.encode()) == loaded  # a file's bytes, as read


def test_the_json_export_is_a_scenario_to_parse_scenario_too() -> None:
    """The walk's trap: ``parse_scenario`` refused the JSON export for its header."""
    text = export_json(_reviewed())
    assert "_generated" in json.loads(text)
    assert parse_scenario_json(text) == _reviewed()
    assert parse_scenario(tomllib.loads(export_toml(_reviewed()))) == _reviewed()


def test_the_cli_export_reads_back_in_both_formats(tmp_path: Path) -> None:
    for fmt in ("toml", "json"):
        done = subprocess.run(
            [sys.executable, "-m", "budgetcore", "export", "--format", fmt, "--fragment", REVIEWED],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        assert parse_scenario_text(done.stdout) == _reviewed(), fmt


def test_a_scenario_file_in_either_format_is_read_too() -> None:
    assert parse_scenario_text('{"workload": {"history_tokens": 5}}').workload.history_tokens == 5
    toml = '[config]\nsafety_margin = "0.2"\n[workload]\nhistory_tokens = 5\n'
    loaded = parse_scenario_text(toml)
    assert (loaded.config.safety_margin, loaded.workload.history_tokens) == (Decimal("0.2"), 5)


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('{"_generated": {}, "config": {"trigger": 1}}', "config.trigger"),
        ('{"_generatd": {}}', "_generatd"),
        ("[config]\ntriger_tokens = 1\n", "config.triger_tokens"),
        # A runtime's own file (export --runtime codex) is the runtime's, not a scenario.
        ("model_auto_compact_token_limit = 120000\n", "model_auto_compact_token_limit"),
    ],
)
def test_an_unknown_key_is_still_refused_by_name(text: str, path: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario_text(text)
    assert [p.path for p in info.value.problems] == [path]
    assert "not a known key" in info.value.one_line()


def test_a_broken_file_is_one_problem_naming_the_scenario() -> None:
    for text in ("[config\n", '{"config": ', b"\xff\xfe["):
        with pytest.raises(ScenarioError) as info:
            parse_scenario_text(text)
        assert [p.path for p in info.value.problems] == ["scenario"], text
    with pytest.raises(ScenarioError, match="scenario"):
        parse_scenario_text("#" * (1024 * 1024 + 1))


def test_the_loader_is_public_and_named_in_the_docs_and_readme() -> None:
    assert "parse_scenario_text" in budgetcore.__all__
    assert "`parse_scenario_text`" in (ROOT / "docs" / "python-api.md").read_text()
    assert "parse_scenario_text" in (ROOT / "README.md").read_text()


def test_a_reviewed_export_restores_its_model_through_the_loader() -> None:
    # The reviewed file records the model it was reviewed with ([reviewed.main_model]):
    # the one loader gives back that model's plan, not the default model's (issue 42:
    # a Sonnet review re-imported after Reset must give Sonnet's M 163,036).
    sonnet = parse_fragment("main_model.model=claude-sonnet-4-5&config.trigger_tokens=40000")
    assert not sonnet.problems
    for text in (export_toml(sonnet.scenario), export_json(sonnet.scenario)):
        back = parse_scenario_text(text)
        assert back.main_model == sonnet.scenario.main_model
        assert plan(back).main_safe_input == plan(sonnet.scenario).main_safe_input
        assert plan(back).main_safe_input != plan(Scenario()).main_safe_input
    both = json.loads(export_json(sonnet.scenario))
    both["main_model"] = {"input_tokens": 200_000, "output_tokens": 64_000}
    with pytest.raises(ScenarioError, match="reviewed"):
        parse_scenario(both)


# ------------------------------------------------------------------ the export's comments


def test_the_cli_s_header_sentences_are_the_catalogue_s_export_entries() -> None:
    """One home: the CLI reads its header's English from the catalogue (english_of), so
    the page and the CLI cannot drift; every entry has its Chinese."""
    assert set(HEADER_TEXTS) == {k for k in CATALOGUE if k.startswith("export.")}
    assert all(CATALOGUE[k][1] and CATALOGUE[k][1] != CATALOGUE[k][0] for k in HEADER_TEXTS)


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
