"""The model is part of the scenario value, held to one rule (issue 39), and the reviewed
file records it as data so that a re-import restores the reviewed plan (issue 42).

Sonnet 4.5's contract is LiteLLM's registry row (budgetcore/data/models.json):
max_input_tokens 200,000, max_output_tokens 64,000. The expected M is computed here
from spec §3 by hand, not by budgetcore: floor((1 - m) × (I - o)).
"""

from __future__ import annotations

import dataclasses
import json
import tomllib

import pytest

from budgetcore.core.scenario import Scenario
from budgetcore.errors import ScenarioError
from budgetcore.registry.models import default_registry, still_named
from budgetcore.registry.peers import default_peers
from budgetcore.scenario.dump import scenario_json
from budgetcore.scenario.export import export_json, export_toml
from budgetcore.scenario.fragment import parse_fragment, to_fragment
from budgetcore.scenario.overrides import parse_config, read_reviewed
from budgetcore.scenario.parse import parse_scenario
from budgetcore.ui.events import (
    FieldTyped,
    ImportApplied,
    ImportPreviewed,
    LinkOpened,
    ModelChosen,
    ModelDataLoaded,
    Reset,
)
from budgetcore.ui.export.view import import_html, render_export
from budgetcore.ui.main.view.pickers import link_models
from budgetcore.ui.main.view.screen import render
from budgetcore.ui.update import chosen_model_of, initial_state, reduce
from tests.helpers import run_cli

SONNET = "claude-sonnet-4-5"
SONNET_I, SONNET_O = 200_000, 64_000
#: floor(0.85 × (200,000 − 8,192)) = floor(163,036.8)
SONNET_M_AT_15 = (SONNET_I - 8_192) * 85 // 100
#: floor(0.9 × (1,048,576 − 8,192)) = 936,345 (spec §10)
ARTICLE_M = 936_345


def sonnet_review(fmt: str = "toml") -> str:
    result = run_cli(
        [
            "export",
            "--fragment",
            f"main_model.model={SONNET}&config.safety_margin=0.15",
            *(["--format", "json"] if fmt == "json" else []),
        ]
    )
    assert result.code == 0, result.err
    return result.out


def loaded_page():  # type: ignore[no-untyped-def]
    return reduce(initial_state(), ModelDataLoaded(default_registry(), default_peers()))


class TestTheScenarioCarriesTheModel:
    def test_a_named_contract_keeps_its_name_and_round_trips(self) -> None:
        s = parse_scenario({"main_model": {"model": SONNET}})
        assert (s.main_model.input_tokens, s.main_model.output_tokens) == (SONNET_I, SONNET_O)
        assert s.main_model_name == SONNET
        assert parse_scenario(scenario_json(s)) == s

    def test_a_larger_window_or_another_output_makes_it_custom_by_the_one_rule(self) -> None:
        s = parse_scenario({"main_model": {"model": SONNET, "input_tokens": 300_000}})
        assert s.main_model.input_tokens == 300_000
        assert s.main_model_name is None
        assert not still_named(default_registry().lookup(SONNET), s.main_model)
        s = parse_scenario({"main_model": {"model": SONNET, "output_tokens": 32_000}})
        assert s.main_model_name is None

    def test_a_smaller_window_is_still_the_model_as_a_runtime_runs_it(self) -> None:
        """Spec §17: the as-run window is the runtime's, not the registry's API maximum
        (Claude Code runs claude-opus-4-7, 1,000,000 in LiteLLM's registry, at 200,000).
        The model at that window is still the model: named, priced, round-tripped."""
        s = parse_scenario({"main_model": {"model": SONNET, "input_tokens": 100_000}})
        assert s.main_model.input_tokens == 100_000
        assert s.main_model_name == SONNET
        assert parse_scenario(scenario_json(s)) == s
        opus = parse_fragment("main_model.model=claude-opus-4-7&main_model.input_tokens=200000")
        assert opus.scenario.main_model_name == "claude-opus-4-7"
        assert (opus.scenario.main_model.input_tokens, opus.scenario.main_model.output_tokens) == (
            200_000,
            128_000,
        )

    def test_q_is_the_adapters_not_the_models(self) -> None:
        s = parse_scenario({"main_model": {"model": SONNET, "reserves_output": False}})
        assert s.main_model_name == SONNET

    def test_the_link_carries_the_model_and_the_pinned_one(self) -> None:
        s = parse_fragment(f"main_model.model={SONNET}").scenario
        assert s.main_model_name == SONNET
        pinned = dataclasses.replace(Scenario(), main_model_name=None)
        link = to_fragment(s, pinned)
        back = parse_fragment(link)
        assert back.scenario == s
        assert back.pinned == Scenario()
        other = parse_fragment(f"main_model.model={SONNET}&pin=1&pin.main_model.model={SONNET}")
        assert other.pinned is not None
        assert other.pinned.main_model_name == SONNET
        assert f"pin.main_model.model={SONNET}" in to_fragment(other.scenario, other.pinned)


class TestTheReviewedFile:
    @pytest.mark.parametrize("fmt", ["toml", "json"])
    def test_export_records_the_model_as_data(self, fmt: str) -> None:
        text = sonnet_review(fmt)
        data = tomllib.loads(text) if fmt == "toml" else json.loads(text)
        assert data["reviewed"] == {
            "main_model": {
                "model": SONNET,
                "input_tokens": SONNET_I,
                "output_tokens": SONNET_O,
                "reserves_output": True,
            }
        }
        overrides, models = read_reviewed(text)
        assert overrides == parse_config(text)
        assert models.present
        assert models.main_model_name == SONNET
        restored = models.applied(Scenario())
        assert restored.main_model.input_tokens == SONNET_I

    def test_an_own_summary_model_is_recorded_too(self) -> None:
        s = parse_scenario({"summary_model": {"model": SONNET}})
        _, models = read_reviewed(export_toml(s))
        assert models.applied(Scenario()) == s

    @pytest.mark.parametrize(
        ("table", "path"),
        [
            ("[reviewed]\nmain_model = 3\n", "reviewed.main_model"),
            ("[reviewed.main_model]\ninput_tokens = -1\n", "reviewed.main_model.input_tokens"),
            ("[reviewed]\nother = 1\n", "reviewed.other"),
            ('[reviewed.main_model]\nmodel = "no-such-model-xyz"\n', "reviewed.main_model.model"),
        ],
    )
    def test_a_bad_table_is_a_problem_naming_its_key(self, table: str, path: str) -> None:
        with pytest.raises(ScenarioError) as caught:
            read_reviewed(table)
        assert path in [p.path for p in caught.value.problems]

    def test_check_says_which_model_and_plan_the_file_restores(self, tmp_path) -> None:  # type: ignore[no-untyped-def]
        f = tmp_path / "reviewed.toml"
        f.write_text(sonnet_review())
        result = run_cli(["check", str(f)])
        assert result.code == 0
        assert (
            f"reviewed with main model {SONNET} (I 200,000, O 64,000): "
            f"M {SONNET_M_AT_15:,}, K 32,000, S 8,192"
        ) in result.out


class TestThePageRestoresTheReviewedPlan:
    @pytest.mark.parametrize("fmt", ["toml", "json"])
    def test_reset_then_import_a_sonnet_review_gives_sonnets_m(self, fmt: str) -> None:
        page = reduce(loaded_page(), Reset())
        state = reduce(page, ImportPreviewed(sonnet_review(fmt), "replace"))
        preview = str(import_html(state))
        assert 'data-import-restores="file"' in preview
        assert f"main model {SONNET} (I 200,000, O 64,000): M {SONNET_M_AT_15:,}" in preview
        # ... and the contract's own rows beside the overrides it changes.
        changes = {key: (now, after) for key, now, after in state.import_preview.changes}
        assert changes["main_model.input_tokens"] == (1_048_576, SONNET_I)
        assert changes["main_model.output_tokens"] == (65_536, SONNET_O)
        state = reduce(state, ImportApplied())
        assert state.plan.main_safe_input == SONNET_M_AT_15 == 163_036
        assert state.plan.scenario.main_model_name == SONNET
        assert chosen_model_of(state, "main_model") == (SONNET, True)
        # ... and its export is the reviewed file again, byte for byte.
        assert render_export(state)[0] == sonnet_review()

    def test_a_file_without_models_keeps_the_pages_and_says_so(self) -> None:
        state = reduce(loaded_page(), ModelChosen("main_model", SONNET))
        state = reduce(state, ImportPreviewed("[config]\ntrigger_tokens = 40000\n", "replace"))
        preview = str(import_html(state))
        assert 'data-import-restores="page"' in preview
        assert f"keeps its own, {SONNET}" in preview
        state = reduce(state, ImportApplied())
        assert state.plan.scenario.main_model_name == SONNET

    def test_the_chinese_preview_names_the_model_too(self) -> None:
        state = reduce(loaded_page(), LinkOpened("lang=zh"))
        state = reduce(state, ImportPreviewed(sonnet_review(), "replace"))
        preview = str(import_html(state))
        assert f"主模型 {SONNET}" in preview
        assert f"M {SONNET_M_AT_15:,}" in preview

    def test_raising_i_by_hand_drops_the_name_everywhere(self) -> None:
        state = reduce(loaded_page(), ModelChosen("main_model", SONNET))
        assert state.plan.scenario.main_model_name == SONNET
        assert link_models(state) == {"main_model.model": SONNET}
        raised = reduce(state, FieldTyped("main_model.input_tokens", "250000"))
        assert raised.plan.scenario.main_model_name is None
        assert link_models(raised) == {}
        assert chosen_model_of(raised, "main_model") == (SONNET, False)
        assert "model =" not in render_export(raised)[0]
        # A smaller window is the model as a runtime runs it (spec §17): still named,
        # and the picker says at which window.
        lowered = reduce(state, FieldTyped("main_model.input_tokens", "150000"))
        assert lowered.plan.scenario.main_model_name == SONNET
        assert chosen_model_of(lowered, "main_model") == (SONNET, True)
        assert f'model = "{SONNET}"' in render_export(lowered)[0]
        info = render(lowered).html["picker-main_model-info"]
        assert 'data-window="150000"' in info
        assert (
            "run at a window of 150,000 (a runtime&#x27;s window, below the model&#x27;s 200,000)"
            in info
        )

    def test_a_linked_model_unknown_to_the_registry_is_dropped_once_it_loads(self) -> None:
        state = reduce(initial_state(), LinkOpened(f"main_model.model={SONNET}"))
        assert state.plan.scenario.main_model_name == SONNET
        edited = dataclasses.replace(state.pickers["main_model"], chosen="not-a-registry-model")
        state = dataclasses.replace(state, pickers={**state.pickers, "main_model": edited})
        state = reduce(state, ModelDataLoaded(default_registry(), default_peers()))
        assert state.plan.scenario.main_model_name is None


def test_the_page_and_the_cli_write_the_same_reviewed_file() -> None:
    state = reduce(loaded_page(), ModelChosen("main_model", SONNET))
    state = reduce(state, FieldTyped("config.safety_margin", "0.15"))
    assert render_export(state)[0] == sonnet_review()
    assert export_json(state.plan.scenario) == sonnet_review("json")
