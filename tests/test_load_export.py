"""One loader for every file the page and ``budgetcore export`` write (issue 42): the
reviewed export, TOML or JSON, English or Chinese header, reads back with
``parse_scenario_text`` as the scenario it was reviewed with, and an unknown key is
still refused by name."""

from __future__ import annotations

import json
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
    parse_scenario,
    parse_scenario_json,
    parse_scenario_text,
    plan,
)
from budgetcore.messages import t
from budgetcore.scenario.export import export_json, export_toml, overrides_of
from budgetcore.scenario.fragment import parse_fragment

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
