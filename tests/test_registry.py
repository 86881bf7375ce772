"""The model registry (docs/models-and-peers.md): provenance, the row-by-row
re-extraction from the pinned wheels, exact entries, the resolver, search, scenarios and
the ``models`` command."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import subprocess
import sys
import zipfile
from decimal import Decimal
from functools import cache
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any
from unittest.mock import patch

import pytest

from budgetcore.core.contracts import ModelContract
from budgetcore.core.plan import plan
from budgetcore.errors import ScenarioError
from budgetcore.registry import models as registry_models
from budgetcore.registry.models import (
    DATA_FILE,
    default_registry,
    lookup,
    near_matches,
    parse_registry,
    per_million,
    require,
    resolve,
    search,
)
from budgetcore.registry.picks import picks
from budgetcore.registry.prices import Prices, tier_for
from budgetcore.registry.tiers import PriceTier
from budgetcore.scenario.parse import parse_scenario_json
from budgetcore.ui.main.view.pickers import how_text
from tests import litellm_oracle

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "budgetcore" / "data" / "models.json"
CACHE = ROOT / ".cache" / "litellm"


def _refresh_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "refresh_models", ROOT / "scripts" / "refresh_models.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _pins() -> list[tuple[str, str]]:
    """(version, sha256) of every release in the pin file, read here on its own."""
    text = (ROOT / "scripts" / "litellm-registry.txt").read_text(encoding="utf-8")
    return re.findall(r"^(?:retired )?litellm==(\S+) --hash=sha256:([0-9a-f]{64})$", text, re.M)


@cache
def _wheel(version: str) -> Path:
    """The pinned wheel of ``version`` in .cache/litellm/, its hash checked. scripts/test
    downloads them (scripts/refresh-models --fetch); a missing wheel is a failure."""
    sha = dict(_pins())[version]
    for path in sorted(CACHE.glob(f"litellm-{version}-*.whl")):
        if hashlib.sha256(path.read_bytes()).hexdigest() == sha:
            return path
    pytest.fail(
        f"the pinned litellm {version} wheel is not in .cache/litellm: "
        "run scripts/refresh-models --fetch (scripts/test does)"
    )


@cache
def _source(version: str) -> dict[str, Any]:
    with zipfile.ZipFile(_wheel(version)) as archive:
        (member,) = (
            n
            for n in archive.namelist()
            if re.fullmatch(r"litellm/model_prices_and_context_window[^/]*\.json", n)
        )
        data: dict[str, Any] = json.loads(archive.read(member), parse_float=Decimal)
        return data


class TestProvenance:
    def test_header_counts_and_digest_match_the_rows(self) -> None:
        data = json.loads(DATA.read_bytes())
        rows = data["rows"]
        sel = data["selection"]
        assert sel["kept"] + sel["retired"] == len(rows) > 3_000
        compact = json.dumps(rows, separators=(",", ":"), ensure_ascii=False).encode()
        assert hashlib.sha256(compact).hexdigest() == data["rows_sha256"]
        dropped = sum(sel["dropped"].values())
        assert dropped + sel["kept"] == data["sources"][0]["entries"]
        retired = [r for r in rows if isinstance(r[-1], dict) and "retired" in r[-1]]
        assert len(retired) == sel["retired"]

    def test_rows_are_sorted_unique_and_well_formed(self) -> None:
        data = json.loads(DATA.read_bytes())
        names = [r[0] for r in data["rows"]]
        assert names == sorted(names)
        assert len(set(names)) == len(names)
        price = re.compile(r"\d+(\.\d+)?")
        for row in data["rows"]:
            extra = row[-1] if isinstance(row[-1], dict) else None
            fixed = row[:-1] if extra is not None else row
            assert 4 <= len(fixed) <= 9
            assert 0 <= row[1] < len(data["providers"])
            assert isinstance(row[2], int)
            assert row[2] >= 1
            assert isinstance(row[3], int)
            assert row[3] >= 1
            if extra is None:
                assert row[-1] is not None or len(row) == 4  # trailing nulls are trimmed
            else:
                assert extra  # never an empty object
                assert set(extra) <= {"mode", "tiers", "priority", "flex", "deprecation", "retired"}
            for p in fixed[4:]:
                assert p is None or price.fullmatch(p), row

    def test_header_names_every_pinned_release_newest_first(self) -> None:
        prov = default_registry().provenance
        releases = [(prov.version, prov.wheel_sha256)]
        releases += [(r.version, r.wheel_sha256) for r in prov.retired]
        assert releases == _pins()
        assert prov.label == f"LiteLLM {prov.version}"
        for release in (prov, *prov.retired):
            assert release.wheel.startswith(f"litellm-{release.version}-")
            assert re.fullmatch(
                r"litellm/model_prices_and_context_window[^/]*\.json", release.member
            )
        assert [r.label for r in prov.retired] == [
            "LiteLLM 1.103.6",
            "LiteLLM 1.82.1",
            "LiteLLM 1.74.7",
        ]

    def test_reextracting_the_pinned_wheels_gives_the_same_bytes(self) -> None:
        script = _refresh_script()
        pins = script.pinned()
        wheels = {
            p.version: (_wheel(p.version).name, _wheel(p.version).read_bytes()) for p in pins.all
        }
        text = script.extract(wheels, pins, script.read_aliases())
        assert text.encode("utf-8") == DATA.read_bytes()

    def test_each_release_member_is_the_json_in_its_wheel(self) -> None:
        prov = default_registry().provenance
        for release in (prov, *prov.retired):
            with zipfile.ZipFile(_wheel(release.version)) as archive:
                source = archive.read(release.member)
            assert hashlib.sha256(source).hexdigest() == release.member_sha256


def _expected_names() -> dict[str, str]:
    """Every model the data file must hold, found from the sources here: name ->
    the release it comes from."""

    def usable(e: object) -> bool:
        return (
            isinstance(e, dict)
            and e.get("mode") in ("chat", "responses")
            and isinstance(e.get("max_input_tokens"), int)
            and e["max_input_tokens"] > 0
            and isinstance(e.get("max_output_tokens"), int)
            and e["max_output_tokens"] > 0
        )

    prov = default_registry().provenance
    out = {n: prov.version for n, e in _source(prov.version).items() if usable(e)}
    for release in prov.retired:
        for name in release.models:
            assert name not in out, f"{name} is not retired"
            assert usable(_source(release.version)[name]), name
            out[name] = release.version
    return out


class TestRowByRow:
    """Every row against its source entry, read here from the pinned wheels; prices
    against LiteLLM's calculator's own rules (tests/litellm_oracle.py) at every
    context on either side of each threshold the entry has."""

    def test_the_models_are_exactly_the_chat_responses_and_retired_ones(self) -> None:
        assert set(default_registry().names) == set(_expected_names())

    def test_contract_mode_dates_and_release_equal_the_source(self) -> None:
        for name, version in _expected_names().items():
            entry = _source(version)[name]
            model = lookup(name)
            assert model is not None
            assert model.contract.input_tokens == entry["max_input_tokens"], name
            assert model.contract.output_tokens == entry["max_output_tokens"], name
            assert model.mode == entry["mode"], name
            assert model.provider == entry["litellm_provider"], name
            assert model.deprecation == entry.get("deprecation_date"), name
            current = version == default_registry().provenance.version
            assert model.retired == (None if current else f"LiteLLM {version}"), name

    def test_base_prices_are_the_source_values(self) -> None:
        keys = (
            "input_cost_per_token",
            "output_cost_per_token",
            "cache_read_input_token_cost",
            "cache_creation_input_token_cost",
            "cache_creation_input_token_cost_above_1hr",
        )
        for name, version in _expected_names().items():
            entry = _source(version)[name]
            if "tiered_pricing" in entry:
                continue  # range tables: the first range is the base (next test)
            p = lookup(name)
            assert p is not None
            got = (
                p.prices.input,
                p.prices.output,
                p.prices.cache_read,
                p.prices.cache_write,
                p.prices.cache_write_1h,
            )
            assert got == tuple(entry.get(k) for k in keys), name

    @pytest.mark.parametrize("tier", [None, "priority", "flex"])
    def test_every_request_is_billed_at_litellm_rates(self, tier: str | None) -> None:
        checked = 0
        for name, version in _expected_names().items():
            entry = _source(version)[name]
            model = lookup(name)
            assert model is not None
            prices = model.service_tier(tier)
            edges = litellm_oracle.thresholds(entry)
            contexts = {1, 1_000, model.contract.input_tokens}
            contexts |= {max(1, n + d) for n in edges for d in (-1, 0, 1)}
            for context in sorted(contexts):
                want = litellm_oracle.rates(entry, context, tier)
                got = tier_for(prices, context).billed()
                assert got == want, (name, tier, context)
                checked += 1
        assert checked > 10_000


# Known entries, read from the JSON by hand (prices in USD per token).
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
            cache_write_1h=Decimal("0.000006"),
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
            tiers=(
                PriceTier(
                    above=200_000,
                    input=Decimal("0.0000025"),
                    output=Decimal("0.000015"),
                    cache_read=Decimal("0.00000025"),
                ),
            ),
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
    "gpt-5-codex": (
        "openai",
        272_000,
        128_000,
        Prices(
            input=Decimal("0.00000125"),
            output=Decimal("0.00001"),
            cache_read=Decimal("0.000000125"),
        ),
    ),
    "claude-sonnet-4-20250514": (
        "anthropic",
        1_000_000,
        64_000,
        Prices(
            input=Decimal("0.000003"),
            output=Decimal("0.000015"),
            cache_read=Decimal("0.0000003"),
            cache_write=Decimal("0.00000375"),
            cache_write_1h=Decimal("0.000006"),
            tiers=(
                PriceTier(
                    above=200_000,
                    input=Decimal("0.000006"),
                    output=Decimal("0.0000225"),
                    cache_read=Decimal("0.0000006"),
                    cache_write=Decimal("0.0000075"),
                ),
            ),
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

    @pytest.mark.parametrize(
        "name",
        [
            "gpt-5-codex",
            "gpt-5.1-codex",
            "gpt-5.1-codex-max",
            "gpt-5.1-codex-mini",
            "gpt-5.2-codex",
            "gpt-5.3-codex",
            "gpt-5-pro",
            "o3-pro",
            "codex-mini-latest",
        ],
    )
    def test_every_codex_model_is_a_responses_model_with_prices(self, name: str) -> None:
        model = lookup(name)
        assert model is not None
        assert model.mode == "responses"
        assert model.prices.known

    @pytest.mark.parametrize(
        ("name", "release", "deprecation"),
        [
            ("claude-sonnet-4-20250514", "LiteLLM 1.103.6", "2026-06-15"),
            ("claude-opus-4-20250514", "LiteLLM 1.103.6", "2026-06-15"),
            ("claude-opus-4-1", "LiteLLM 1.103.6", "2026-08-05"),
            ("codex-mini-latest", "LiteLLM 1.103.6", "2026-02-12"),
            ("claude-3-5-sonnet-20241022", "LiteLLM 1.82.1", "2025-10-01"),
            ("claude-3-5-haiku-20241022", "LiteLLM 1.82.1", "2025-10-01"),
            ("claude-3-sonnet-20240229", "LiteLLM 1.74.7", "2025-07-21"),
        ],
    )
    def test_retired_models_carry_their_release_and_date(
        self, name: str, release: str, deprecation: str
    ) -> None:
        model = lookup(name)
        assert model is not None
        assert (model.retired, model.deprecation) == (release, deprecation)

    def test_service_tiers_fall_back_like_litellm(self) -> None:
        model = lookup("gpt-5.4")
        assert model is not None
        priority = model.service_tier("priority")
        assert priority.input == Decimal("0.000005")
        # No priority key above 272k: LiteLLM falls back to the standard tier key.
        assert priority.tiers[0].input == Decimal("0.000005")
        assert model.service_tier("default") == model.prices
        assert model.service_tier("batch") == model.prices

    def test_xai_tiers_start_at_the_threshold_itself(self) -> None:
        model = lookup("xai/grok-4.3")
        assert model is not None
        # LiteLLM bills xAI's tier from 200,000 tokens on (>=): the file says > 199,999.
        assert model.prices.tiers[0].above == 199_999
        assert tier_for(model.prices, 200_000).input == Decimal("0.0000025")
        assert tier_for(model.prices, 199_999).input == Decimal("0.00000125")

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
            parse_registry('{"format": 1}')

    def test_a_parse_decodes_only_the_rows_asked_for(self) -> None:
        """A replay looks up the few models its log names: parsing decodes no row, a
        lookup the one it finds (docs/performance.md, the registry's parse)."""
        reg = parse_registry(DATA.read_bytes())
        made = reg._index._made
        assert made == {}
        assert reg.resolve("anthropic/claude-sonnet-4.5").matched == "claude-sonnet-4-5"
        assert list(made) == ["claude-sonnet-4-5"]

    @pytest.mark.parametrize(
        "layout",
        [
            "refresh_models",  # the shipped file: rows decoded when asked for
            "one line",  # any other layout is decoded whole
            "an escaped name",  # the shipped layout, one name written with an escape
        ],
    )
    def test_every_layout_of_the_file_reads_the_same(self, layout: str) -> None:
        text = DATA.read_text("utf-8")
        whole = parse_registry(text)
        data = json.loads(text, parse_float=Decimal)
        if layout == "one line":
            text = json.dumps(data, default=str)
        elif layout == "an escaped name":
            text = text.replace('\n["gpt-5",', '\n["gpt\\u002d5",', 1)
        reg = parse_registry(text)
        assert reg == whole
        assert reg.rows == whole.rows == tuple(reg._index[r.name] for r in whole.rows)
        assert reg.names == whole.names == tuple(r[0] for r in data["rows"])
        assert reg.lookup("gpt-5") == whole.lookup("gpt-5") is not None


class TestResolver:
    @pytest.mark.parametrize(
        ("written", "matched", "how"),
        [
            ("claude-sonnet-4-5", "claude-sonnet-4-5", "exact"),
            ("gpt-5-codex", "gpt-5-codex", "exact"),
            ("anthropic/claude-sonnet-4-5", "claude-sonnet-4-5", "provider prefix"),
            ("openai/gpt-5.1-codex-max", "gpt-5.1-codex-max", "provider prefix"),
            ("claude-sonnet-4-5@20250929", "claude-sonnet-4-5-20250929", "date suffix"),
            ("claude-sonnet-4@20250514", "claude-sonnet-4-20250514", "date suffix"),
            ("claude-opus-4-6-20990101", "claude-opus-4-6", "date suffix"),
            ("claude-sonnet-4", "claude-sonnet-4-20250514", "alias"),
            ("claude-sonnet-4-0", "claude-sonnet-4-20250514", "alias"),
            ("claude-sonnet-4.5", "claude-sonnet-4-5", "alias"),
            ("anthropic/claude-sonnet-4.5", "claude-sonnet-4-5", "provider prefix + alias"),
            ("claude-sonnet-4-20990101", "claude-sonnet-4-20250514", "date suffix + alias"),
            # A gateway's dashed OpenAI version (seen in a public Codex rollout; ccusage
            # prices it as gpt-5.1-codex too), and Google's.
            ("gpt-5-1-codex", "gpt-5.1-codex", "version separator"),
            ("gpt-5-1-codex-2025-11-13", "gpt-5.1-codex", "date suffix + version separator"),
            ("openai/gpt-5-1-codex", "gpt-5.1-codex", "provider prefix + version separator"),
            ("gemini-2-5-pro", "gemini-2.5-pro", "version separator"),
            # LiteLLM's Bedrock routes as a proxy wrote them in a public Claude Code log.
            (
                "converse/jp.anthropic.claude-haiku-4-5-20251001-v1:0",
                "jp.anthropic.claude-haiku-4-5-20251001-v1:0",
                "route prefix",
            ),
            (
                "bedrock/converse/jp.anthropic.claude-haiku-4-5-20251001-v1:0",
                "jp.anthropic.claude-haiku-4-5-20251001-v1:0",
                "route prefix",
            ),
            (
                "bedrock/jp.anthropic.claude-haiku-4-5-20251001-v1:0",
                "jp.anthropic.claude-haiku-4-5-20251001-v1:0",
                "route prefix",
            ),
        ],
    )
    def test_each_step_and_the_match_it_chose(self, written: str, matched: str, how: str) -> None:
        found = resolve(written)
        assert (found.name, found.matched, found.how) == (written, matched, how)
        assert found.model is not None
        assert (found.source is not None) == ("alias" in how)
        for lang in ("en", "zh"):  # every step has its words in the page's catalogue
            assert how_text(found, lang).count(" + ") == how.count(" + ")

    @pytest.mark.parametrize(
        "written",
        [
            "some-local-model",
            "claude-haiku-4-5-20251001-thinking",  # no step strips a "-thinking"
            "Claude-Sonnet-4-5",  # no case folding
            "claude-opus-4-9",
            "google/gpt-5",  # a prefix that is not the model's provider
            "gpt-5.3-codex-spark",  # only chatgpt/ lists it, and that is another provider
            "gpt-5-3-codex-spark",  # nor written with a dash
            "claude-opus-4.9",  # a version the registry does not have, either way
            "llama-3-1-70b",  # every spelling of its three joints: none is an id
            "converse/gpt-5.1",  # a Bedrock route before a model that is not Bedrock's
            "invoke/claude-sonnet-4-5",
            "",
        ],
    )
    def test_no_match_is_no_model_never_a_guess(self, written: str) -> None:
        found = resolve(written)
        assert (found.model, found.how, found.matched) == (None, "none", None)

    def test_two_ids_a_separator_apart_are_no_match(self) -> None:
        """x-1-2-3 could be x-1.2-3 or x-1-2.3: both in the registry, so neither."""
        data = json.loads(
            resources.files("budgetcore").joinpath(DATA_FILE).read_bytes(), parse_float=Decimal
        )
        row = data["rows"][0]
        data["rows"] = [[name, *row[1:]] for name in ("x-1.2-3", "x-1-2.3", "y-1.2")]
        reg = parse_registry(json.dumps(data, default=str))
        assert reg.resolve("x-1-2-3").model is None
        assert reg.resolve("x-1.2.3").model is None
        assert reg.resolve("y-1-2").matched == "y-1.2"

    def test_a_prefix_must_be_the_models_own_provider(self) -> None:
        assert resolve("azure/claude-sonnet-4-5").model is None
        assert resolve("anthropic/gpt-5").model is None

    def test_a_name_is_resolved_once_per_registry_and_setting(self) -> None:
        """A folder resolves the same name once per session: the second call is the
        first's value, for the narrowed registry too, and the setting is in the key."""
        reg = parse_registry(resources.files("budgetcore").joinpath(DATA_FILE).read_bytes())
        first = reg.resolve("anthropic/claude-sonnet-4.5")
        assert reg.resolve("anthropic/claude-sonnet-4.5") is first
        assert reg.within(reg.rows[:1]).resolve("anthropic/claude-sonnet-4.5") is first
        other = reg.resolve("anthropic/claude-sonnet-4.5", reserves_output=False)
        assert other.model is not None
        assert first.model is not None
        assert (other.model.contract.reserves_output, first.model.contract.reserves_output) == (
            False,
            True,
        )
        assert reg.resolve("no-such-model") is reg.resolve("no-such-model")

    def test_a_registry_keeps_so_many_names_resolved(self) -> None:
        """Past RESOLVED_KEPT names a resolution is made each time, as before the memo
        (the page's picker resolves every text typed into it)."""
        reg = parse_registry(resources.files("budgetcore").joinpath(DATA_FILE).read_bytes())
        with patch.object(registry_models, "RESOLVED_KEPT", 1):
            kept = reg.resolve("claude-sonnet-4-5")
            assert reg.resolve("claude-sonnet-4-5") is kept
            again = reg.resolve("gpt-5")
            assert reg.resolve("gpt-5") is not again
            assert reg.resolve("gpt-5") == again

    def test_the_alias_table_is_reviewed_data(self) -> None:
        reg = default_registry()
        assert 10 <= len(reg.aliases) <= 100
        for alias, (target, source) in reg.aliases.items():
            assert lookup(alias) is None, alias  # an alias never hides a model
            assert lookup(target) is not None, alias
            assert len(source) > 10, alias

    def test_require_takes_the_resolved_model(self) -> None:
        model = require("claude-sonnet-4", "main_model.model")
        assert model.name == "claude-sonnet-4-20250514"


class TestSearch:
    def test_words_match_across_separators(self) -> None:
        names = [m.name for m in search("sonnet 4.5", 5)]
        assert names[0] == "claude-sonnet-4-5"
        assert all("sonnet" in n and re.search(r"4[-.]5", n) for n in names)

    def test_letters_and_digits_without_separators_match(self) -> None:
        assert search("GPT5", 1)[0].name == "gpt-5"
        assert search("gpt5codex", 1)[0].name == "gpt-5-codex"

    def test_exact_name_ranks_first_ignoring_case(self) -> None:
        assert search("GEMINI/Gemini-2.5-Pro", 1)[0].name == "gemini/gemini-2.5-pro"

    def test_name_without_provider_path_ranks_before_longer_names(self) -> None:
        names = [m.name for m in search("gpt-4o", 3)]
        assert names[0] == "gpt-4o"
        assert "azure/gpt-4o" in [m.name for m in search("gpt-4o", 30)]

    def test_codex_models_are_found(self) -> None:
        names = [m.name for m in search("gpt-5-codex", 3)]
        assert names[0] == "gpt-5-codex"
        assert {"gpt-5.1-codex", "gpt-5.2-codex"} <= {m.name for m in search("codex", None)}

    def test_every_result_contains_every_word_or_the_whole_query(self) -> None:
        for query in ("claude", "kimi k2", "glm 5", "deepseek"):
            for m in search(query, None):
                key = re.sub(r"[\s\-_.:@/,]+", " ", f"{m.name} {m.provider}".lower())
                words = all(w in key for w in query.split())
                assert words or query.replace(" ", "") in key.replace(" ", ""), (query, m.name)

    def test_limit_and_empty_query(self) -> None:
        assert len(search("claude", 3)) == 3
        assert len(search("", None)) == len(default_registry())

    def test_no_match_is_empty(self) -> None:
        assert search("zzqqxx") == ()


class TestUnknownNames:
    def test_near_matches_include_the_intended_model(self) -> None:
        assert "claude-sonnet-4-5" in near_matches("claude-sonet-4-5")
        assert near_matches("Claude-Sonnet-4-5")[0] == "claude-sonnet-4-5"

    def test_a_name_close_to_nothing_suggests_nothing(self) -> None:
        """The eighth walk's leftovers (issue 42): "nope" suggested
        opencode_go/gemini-4-argon and baseten/openai/gpt-oss-120b, search hits that
        hold "nope" only across words ("argon" + "opencode", "baseten/openai")."""
        assert near_matches("nope") == ()
        with pytest.raises(ScenarioError) as info:
            require("nope", "main_model.model")
        assert "near matches" not in str(info.value)

    @pytest.mark.parametrize(
        ("typed", "meant"),
        [("sonnet 4.5", "claude-sonnet-4-5"), ("GPT5", "gpt-5"), ("gpt5-codex", "gpt-5-codex")],
    )
    def test_a_search_hit_is_a_near_match_where_what_was_typed_starts_its_words(
        self, typed: str, meant: str
    ) -> None:
        assert near_matches(typed)[0] == meant

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

    def test_a_loose_name_resolves_like_a_log_name(self) -> None:
        s = parse_scenario_json('{"main_model": {"model": "anthropic/claude-sonnet-4.5"}}')
        assert s.main_model.input_tokens == 200_000
        s = parse_scenario_json('{"main_model": {"model": "gpt-5-codex"}}')
        assert (s.main_model.input_tokens, s.main_model.output_tokens) == (272_000, 128_000)

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
        assert "18 retired from LiteLLM 1.103.6, LiteLLM 1.82.1, LiteLLM 1.74.7" in lines[0]
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
            "6",
            "deprecation",
            "2026-11-30",
        ]
        assert len(lines) == 5

    def test_a_codex_model_is_found_first(self) -> None:
        proc = run("models", "gpt-5-codex", "--limit", "2")
        assert proc.returncode == 0, proc.stderr
        first = proc.stdout.splitlines()[2]
        assert first.split()[:2] == ["gpt-5-codex", "openai"]
        assert "responses API" in first

    def test_a_retired_model_says_so_and_its_tiers_are_listed(self) -> None:
        proc = run("models", "claude-sonnet-4-20250514", "--limit", "1")
        assert proc.returncode == 0, proc.stderr
        out = proc.stdout
        assert "retired: last in LiteLLM 1.103.6; deprecation 2026-06-15" in out
        assert (
            "claude-sonnet-4-20250514 above 200,000 context tokens: input 6, output 22.5, "
            "cache read 0.6, cache write 7.5" in out
        )

    def test_a_loose_name_shows_the_match_it_chose(self) -> None:
        proc = run("models", "claude-sonnet-4", "--limit", "2")
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.splitlines()
        assert lines[1].startswith("claude-sonnet-4 -> claude-sonnet-4-20250514: alias; ")
        assert lines[3].split()[0] == "claude-sonnet-4-20250514"

    def test_json_carries_exact_price_strings_tiers_and_the_resolution(self) -> None:
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
            "cache_write_1h": None,
        }
        assert model["tiers"][0]["above"] == 200_000
        assert model["tiers"][0]["input"] == "0.0000025"
        assert model["deprecation_date"] == "2026-12-01"
        assert out["registry"]["version"] == "1.110.2"
        assert [r["version"] for r in out["registry"]["retired"]] == ["1.103.6", "1.82.1", "1.74.7"]
        proc = run("models", "claude-sonnet-4", "--limit", "1", "--json")
        out = json.loads(proc.stdout)
        assert out["resolved"]["name"] == "claude-sonnet-4-20250514"
        assert out["models"][0]["retired"] == "LiteLLM 1.103.6"

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

    def test_a_loose_name_lists_its_match_first(self) -> None:
        p = picks("anthropic/claude-sonnet-4.5", 4)
        assert p.models[0].name == "claude-sonnet-4-5"
        assert p.resolution is not None
        assert p.resolution.how == "provider prefix + alias"

    def test_picks_with_no_match_are_empty_not_an_error(self) -> None:
        p = picks("zzqqxx")
        assert (p.total, p.models, p.resolution) == (0, (), None)


class TestLinksNameModels:
    """``main_model.model=NAME`` in a page link goes through the same resolver."""

    def test_a_loose_name_fills_the_contract_and_keeps_what_it_matched(self) -> None:
        from budgetcore.scenario.fragment import parse_fragment  # noqa: PLC0415

        result = parse_fragment("#main_model.model=claude-sonnet-4&config.trigger_tokens=50000")
        assert result.problems == ()
        assert result.scenario.main_model == ModelContract(
            input_tokens=1_000_000, output_tokens=64_000, reserves_output=True
        )
        assert result.models == (("main_model", "claude-sonnet-4", "claude-sonnet-4-20250514"),)

    def test_explicit_numbers_in_the_link_win(self) -> None:
        from budgetcore.scenario.fragment import parse_fragment  # noqa: PLC0415

        result = parse_fragment("#main_model.output_tokens=32000&main_model.model=gpt-5-codex")
        assert (
            result.scenario.main_model.input_tokens,
            result.scenario.main_model.output_tokens,
        ) == (
            272_000,
            32_000,
        )

    def test_an_unknown_name_is_a_problem_and_the_link_still_opens(self) -> None:
        from budgetcore.scenario.fragment import parse_fragment  # noqa: PLC0415

        result = parse_fragment("#summary_model.model=gpt-4oo&config.trigger_tokens=50000")
        (problem,) = result.problems
        assert (problem.path, problem.code) == ("summary_model.model", "unknown-model")
        assert result.scenario.config.trigger_tokens == 50_000
        assert result.models == ()

    def test_the_cli_takes_a_link_with_a_model(self) -> None:
        proc = run("plan", "--fragment", "#main_model.model=anthropic/claude-sonnet-4.5")
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["main_safe_input"] == 172_627

    def test_the_page_writes_the_chosen_model_and_reopens_with_it(self) -> None:
        from budgetcore.registry.peers import default_peers  # noqa: PLC0415
        from budgetcore.ui.events import (  # noqa: PLC0415
            FieldTyped,
            LinkOpened,
            ModelDataLoaded,
            PickerEntered,
            PickerTyped,
        )
        from budgetcore.ui.main.view.screen import render  # noqa: PLC0415
        from budgetcore.ui.update import initial_state, reduce  # noqa: PLC0415

        loaded = reduce(initial_state(), ModelDataLoaded(default_registry(), default_peers()))
        typed = reduce(loaded, PickerTyped("main_model", "claude-sonnet-4"))
        chosen = reduce(typed, PickerEntered("main_model"))
        fragment = render(chosen).fragment
        assert fragment.endswith("&main_model.model=claude-sonnet-4-20250514")
        # Edited by hand, the numbers alone are the link.
        edited = reduce(chosen, FieldTyped("main_model.output_tokens", "32000"))
        assert "main_model.model" not in render(edited).fragment
        # Reopened: the picker shows the model once the registry is in.
        opened = reduce(initial_state(), LinkOpened("#main_model.model=claude-sonnet-4", "en"))
        assert opened.pickers["main_model"].chosen == "claude-sonnet-4-20250514"
        assert "main_model.model=claude-sonnet-4-20250514" in render(opened).fragment
        ready = reduce(opened, ModelDataLoaded(default_registry(), default_peers()))
        info = render(ready).html["picker-main_model-info"]
        assert "“claude-sonnet-4” is claude-sonnet-4-20250514 (alias)" in info


class TestRefreshScript:
    """scripts/refresh-models: the pin file's rules and what a move to a release prints."""

    PIN = (
        "litellm==2.0.0 --hash=sha256:" + "a" * 64 + "\n"
        "retired litellm==1.9.0 --hash=sha256:" + "b" * 64 + "\n"
        "claude-old\n"
    )

    def test_the_pin_file_names_releases_newest_first_with_their_models(self) -> None:
        pins = _refresh_script().pinned(self.PIN)
        assert [p.version for p in pins.all] == ["2.0.0", "1.9.0"]
        assert pins.retired[0].names == ("claude-old",)

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            (PIN.replace("2.0.0", "1.0.0"), "newest first"),
            (PIN + "claude-old\n", "named twice"),
            ("claude-old\n" + PIN, "outside a retired block"),
            (PIN + "litellm==3.0.0 --hash=sha256:" + "c" * 64 + "\n", "only the first"),
            ("litellm==2.0.0\n", "expected"),
        ],
    )
    def test_a_bad_pin_file_stops_the_script(self, text: str, message: str) -> None:
        with pytest.raises(SystemExit, match=message):
            _refresh_script().pinned(text)

    def test_a_move_prints_models_added_removed_and_changed(self) -> None:
        def data(rows: list[list[Any]]) -> str:
            return json.dumps(
                {
                    "format": 2,
                    "sources": [{"version": "2.0.0"}, {"version": "1.9.0"}],
                    "columns": [
                        "name",
                        "provider",
                        "input_tokens",
                        "output_tokens",
                        "input",
                        "output",
                        "cache_read",
                        "cache_write",
                        "cache_write_1h",
                    ],
                    "providers": ["openai"],
                    "rows": rows,
                }
            )

        old = data([["a", 0, 100, 10, "1"], ["b", 0, 100, 10, "1"], ["c", 0, 100, 10, "1"]])
        new = data(
            [
                ["a", 0, 100, 10, "1"],
                ["b", 0, 200, 10, "2", None, None, None, None, {"retired": 1}],
                ["d", 0, 100, 10, "1"],
            ]
        )
        assert _refresh_script().changes(old, new) == [
            "1 models added, 1 removed, 1 changed",
            "  + d",
            "  - c",
            '  ~ b: input_tokens 100 -> 200; input "1" -> "2"; retired null -> "1.9.0"',
        ]
