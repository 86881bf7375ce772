"""The model registry (SPEC §13): provenance, exact entries, search, scenarios, CLI."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import subprocess
import sys
import zipfile
from decimal import Decimal
from pathlib import Path
from types import ModuleType

import pytest

from budgetcore.core.contracts import ModelContract
from budgetcore.core.plan import plan
from budgetcore.errors import ScenarioError
from budgetcore.registry.models import (
    default_registry,
    lookup,
    near_matches,
    parse_registry,
    per_million,
    picks,
    require,
    search,
)
from budgetcore.registry.prices import Prices
from budgetcore.scenario.parse import parse_scenario_json

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "budgetcore" / "data" / "models.json"


def _refresh_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "refresh_models", ROOT / "scripts" / "refresh_models.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class TestProvenance:
    def test_header_counts_and_digest_match_the_rows(self) -> None:
        data = json.loads(DATA.read_bytes())
        rows = data["rows"]
        assert data["selection"]["kept"] == len(rows) > 3_000
        compact = json.dumps(rows, separators=(",", ":"), ensure_ascii=False).encode()
        assert hashlib.sha256(compact).hexdigest() == data["rows_sha256"]
        dropped = sum(data["selection"]["dropped"].values())
        assert dropped + len(rows) == data["source"]["entries"]

    def test_rows_are_sorted_unique_and_well_formed(self) -> None:
        data = json.loads(DATA.read_bytes())
        names = [r[0] for r in data["rows"]]
        assert names == sorted(names)
        assert len(set(names)) == len(names)
        price = re.compile(r"\d+(\.\d+)?")
        for row in data["rows"]:
            assert 4 <= len(row) <= 8
            assert 0 <= row[1] < len(data["providers"])
            assert isinstance(row[2], int)
            assert row[2] >= 1
            assert isinstance(row[3], int)
            assert row[3] >= 1
            assert row[-1] is not None or len(row) == 4  # trailing nulls are trimmed
            for p in row[4:]:
                assert p is None or price.fullmatch(p), row

    def test_header_names_the_pinned_release(self) -> None:
        pin = _refresh_script().pinned()
        prov = default_registry().provenance
        assert (prov.package, prov.version, prov.wheel_sha256) == (
            pin.name,
            pin.version,
            pin.sha256,
        )
        assert prov.wheel.startswith(f"litellm-{pin.version}-")
        assert re.fullmatch(r"litellm/model_prices_and_context_window[^/]*\.json", prov.member)
        assert re.fullmatch(r"[0-9a-f]{64}", prov.member_sha256)
        assert prov.label == f"LiteLLM {pin.version}"

    def test_reextracting_the_pinned_wheel_gives_the_same_bytes(self) -> None:
        script = _refresh_script()
        wheel = script.cached_wheel()
        if wheel is None:
            pytest.skip("pinned litellm wheel not in .cache/litellm (scripts/refresh-models)")
        text = script.extract(wheel.read_bytes(), wheel.name, script.pinned())
        assert text.encode("utf-8") == DATA.read_bytes()

    def test_every_row_equals_the_litellm_json_itself(self) -> None:
        script = _refresh_script()
        wheel = script.cached_wheel()
        if wheel is None:
            pytest.skip("pinned litellm wheel not in .cache/litellm (scripts/refresh-models)")
        reg = default_registry()
        with zipfile.ZipFile(wheel) as archive:
            source = archive.read(reg.provenance.member)
        assert hashlib.sha256(source).hexdigest() == reg.provenance.member_sha256
        entries = json.loads(source, parse_float=Decimal)
        keys = (
            "input_cost_per_token",
            "output_cost_per_token",
            "cache_read_input_token_cost",
            "cache_creation_input_token_cost",
        )
        for name in reg.names:
            entry, model = entries[name], lookup(name)
            assert model is not None
            assert entry["mode"] == "chat"
            assert model.contract.input_tokens == entry["max_input_tokens"]
            assert model.contract.output_tokens == entry["max_output_tokens"]
            got = (
                model.prices.input,
                model.prices.output,
                model.prices.cache_read,
                model.prices.cache_write,
            )
            assert got == tuple(entry.get(k) for k in keys), name
        kept = {
            n
            for n, e in entries.items()
            if isinstance(e, dict)
            and e.get("mode") == "chat"
            and isinstance(e.get("max_input_tokens"), int)
            and e["max_input_tokens"] > 0
            and isinstance(e.get("max_output_tokens"), int)
            and e["max_output_tokens"] > 0
        }
        assert kept == set(reg.names)


# Known entries of litellm 1.110.2, read from its JSON by hand (prices in USD per token).
KNOWN = {
    "claude-sonnet-4-5": (
        "anthropic",
        200_000,
        64_000,
        Prices(
            input=Decimal("0.000003"),
            output=Decimal("0.000015"),
            cache_read=Decimal("0.0000003"),
            cache_write=Decimal("0.00000375"),
        ),
    ),
    "gemini/gemini-2.5-pro": (
        "gemini",
        1_048_576,
        65_536,
        Prices(
            input=Decimal("0.00000125"),
            output=Decimal("0.00001"),
            cache_read=Decimal("0.000000125"),
        ),
    ),
    "gpt-4o": (
        "openai",
        128_000,
        16_384,
        Prices(
            input=Decimal("0.0000025"),
            output=Decimal("0.00001"),
            cache_read=Decimal("0.00000125"),
        ),
    ),
}


class TestEntries:
    @pytest.mark.parametrize("name", KNOWN)
    def test_known_entries_come_out_exactly(self, name: str) -> None:
        provider, window, output, prices = KNOWN[name]
        model = lookup(name)
        assert model is not None
        assert model.provider == provider
        assert model.contract == ModelContract(
            input_tokens=window, output_tokens=output, reserves_output=True
        )
        assert model.prices == prices
        for value in (model.prices.input, model.prices.output, model.prices.cache_read):
            assert isinstance(value, Decimal)

    def test_prices_keep_digits_a_float_would_lose(self) -> None:
        model = lookup("claude-sonnet-4-5")
        assert model is not None
        assert model.prices.cache_write is not None
        # 3.75e-06 as a float is 3.7499999999999997e-06; the registry keeps the decimal.
        assert model.prices.cache_write * 1_000_000 == Decimal("3.75")
        assert per_million(model.prices.cache_write) == "3.75"

    def test_q_is_the_callers_choice(self) -> None:
        model = lookup("claude-sonnet-4-5", reserves_output=False)
        assert model is not None
        assert model.contract.reserves_output is False
        assert model.with_reserves_output(True).contract.reserves_output is True

    def test_non_chat_and_windowless_entries_are_left_out(self) -> None:
        assert lookup("text-embedding-3-small") is None  # an embedding model
        assert lookup("sample_spec") is None  # the registry's own documentation entry
        assert lookup("no-such-model") is None

    def test_parse_rejects_another_format(self) -> None:
        with pytest.raises(ValueError, match="format"):
            parse_registry('{"format": 2}')


class TestSearch:
    def test_words_match_across_separators(self) -> None:
        names = [m.name for m in search("sonnet 4.5", 5)]
        assert names[0] == "claude-sonnet-4-5"
        assert all("sonnet" in n and re.search(r"4[-.]5", n) for n in names)

    def test_exact_name_ranks_first_ignoring_case(self) -> None:
        assert search("GEMINI/Gemini-2.5-Pro", 1)[0].name == "gemini/gemini-2.5-pro"

    def test_name_without_provider_path_ranks_before_longer_names(self) -> None:
        names = [m.name for m in search("gpt-4o", 3)]
        assert names[0] == "gpt-4o"
        assert "azure/gpt-4o" in [m.name for m in search("gpt-4o", 30)]

    def test_every_result_contains_every_word(self) -> None:
        for query in ("claude", "kimi k2", "glm 5", "deepseek"):
            for m in search(query, None):
                key = re.sub(r"[\s\-_.:@/,]+", " ", f"{m.name} {m.provider}".lower())
                assert all(w in key for w in query.split()), (query, m.name)

    def test_limit_and_empty_query(self) -> None:
        assert len(search("claude", 3)) == 3
        assert len(search("", None)) == len(default_registry())

    def test_no_match_is_empty(self) -> None:
        assert search("zzqqxx") == ()


class TestUnknownNames:
    def test_near_matches_include_the_intended_model(self) -> None:
        assert "claude-sonnet-4-5" in near_matches("claude-sonet-4-5")
        assert near_matches("Claude-Sonnet-4-5")[0] == "claude-sonnet-4-5"

    def test_require_names_the_field_the_release_and_near_matches(self) -> None:
        with pytest.raises(ScenarioError) as info:
            require("claude-sonet-4-5", "main_model.model")
        text = str(info.value)
        assert text.startswith("main_model.model must name a chat model of the LiteLLM ")
        assert "near matches: claude-sonnet-4-5" in text
        assert text.endswith('got "claude-sonet-4-5"')

    @pytest.mark.parametrize("value", [5, None, "", ["gpt-4o"]])
    def test_require_rejects_non_names(self, value: object) -> None:
        with pytest.raises(ScenarioError, match=r"main_model\.model must be a model name"):
            require(value, "main_model.model")


class TestScenarioNamesAModel:
    def test_registry_contract_with_q_defaulting_to_true(self) -> None:
        s = parse_scenario_json('{"main_model": {"model": "claude-sonnet-4-5"}}')
        assert s.main_model == ModelContract(
            input_tokens=200_000, output_tokens=64_000, reserves_output=True
        )
        # M = floor(0.9 × (200,000 − 8,192)) = 172,627
        assert plan(s).main_safe_input == 172_627

    def test_explicit_fields_win(self) -> None:
        s = parse_scenario_json(
            '{"main_model": {"model": "claude-sonnet-4-5", "output_tokens": 32000,'
            ' "reserves_output": false},'
            ' "summary_model": {"model": "gemini/gemini-2.5-pro", "input_tokens": 500000}}'
        )
        assert s.main_model == ModelContract(
            input_tokens=200_000, output_tokens=32_000, reserves_output=False
        )
        assert s.summary_model == ModelContract(
            input_tokens=500_000, output_tokens=65_536, reserves_output=True
        )

    def test_unknown_name_is_a_problem_with_near_matches(self) -> None:
        with pytest.raises(ScenarioError) as info:
            parse_scenario_json('{"summary_model": {"model": "gpt-4oo"}}')
        (problem,) = info.value.problems
        assert problem.path == "summary_model.model"
        assert "near matches:" in problem.rule
        assert "gpt-4o" in problem.rule

    def test_every_problem_is_reported_together(self) -> None:
        with pytest.raises(ScenarioError) as info:
            parse_scenario_json(
                '{"main_model": {"model": "nope-model", "input_tokens": 0, "extra": 1}}'
            )
        paths = sorted(p.path for p in info.value.problems)
        assert paths == ["main_model.extra", "main_model.input_tokens", "main_model.model"]

    def test_without_a_name_nothing_changes(self) -> None:
        s = parse_scenario_json('{"main_model": {"input_tokens": 4096, "output_tokens": 512}}')
        assert s.main_model.input_tokens == 4_096
        assert s.main_model.reserves_output is True


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "budgetcore", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


class TestModelsCommand:
    def test_lists_matches_with_prices_per_million_tokens(self) -> None:
        proc = run("models", "sonnet", "4.5", "--limit", "3")
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.splitlines()
        assert lines[0].startswith("LiteLLM 1.110.2 registry (")
        assert "3 of " in lines[0]
        assert lines[2].split() == [
            "claude-sonnet-4-5",
            "anthropic",
            "200,000",
            "64,000",
            "3",
            "15",
            "0.3",
            "3.75",
        ]
        assert len(lines) == 5

    def test_json_carries_exact_price_strings(self) -> None:
        proc = run("models", "gemini/gemini-2.5-pro", "--limit", "1", "--json")
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        (model,) = out["models"]
        assert model["name"] == "gemini/gemini-2.5-pro"
        assert model["prices_per_token"] == {
            "input": "0.00000125",
            "output": "0.00001",
            "cache_read": "0.000000125",
            "cache_write": None,
        }
        assert out["registry"]["version"] == "1.110.2"

    def test_no_match_exits_1_with_a_line_on_stderr(self) -> None:
        proc = run("models", "zzqqxx")
        assert (proc.returncode, proc.stdout) == (1, "")
        assert proc.stderr.startswith("no model of the LiteLLM 1.110.2 registry matches")

    def test_bad_limit_exits_2_with_one_line(self) -> None:
        proc = run("models", "gpt", "--limit", "-1")
        assert (proc.returncode, proc.stdout) == (2, "")
        assert len(proc.stderr.splitlines()) == 1
        assert "--limit" in proc.stderr

    def test_plan_accepts_a_named_model(self) -> None:
        proc = subprocess.run(
            [sys.executable, "-m", "budgetcore", "plan", "-"],
            input='{"main_model": {"model": "claude-sonnet-4-5"}}',
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["main_safe_input"] == 172_627

    def test_plan_rejects_an_unknown_name_in_one_line(self) -> None:
        proc = subprocess.run(
            [sys.executable, "-m", "budgetcore", "plan", "-"],
            input='{"main_model": {"model": "claude-sonet-4-5"}}',
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
            check=False,
        )
        assert (proc.returncode, proc.stdout) == (2, "")
        assert len(proc.stderr.splitlines()) == 1
        assert "near matches: claude-sonnet-4-5" in proc.stderr


class TestPicker:
    def test_picks_carry_total_options_and_release(self) -> None:
        p = picks("claude", 4)
        assert len(p.models) == 4
        assert p.total > 4
        assert p.release == default_registry().provenance.label
        assert all(m.contract.reserves_output for m in p.models)

    def test_picks_with_no_match_are_empty_not_an_error(self) -> None:
        p = picks("zzqqxx")
        assert (p.total, p.models) == (0, ())
