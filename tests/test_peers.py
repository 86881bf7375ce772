"""Peers' trigger lines (docs/spec.md §13, shared PEERS.md), checked against arithmetic by hand."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from budgetcore.core.contracts import ModelContract
from budgetcore.core.plan import plan
from budgetcore.core.scenario import Config, Scenario
from budgetcore.registry.peers import (
    FormulaError,
    default_peers,
    evaluate,
    parse_peers,
    peer_lines,
    view_as_dict,
)

ROOT = Path(__file__).resolve().parent.parent

# Every row worked out by hand (None: the rule has no token line). The agent runtimes
# are their profiles at their defaults, by the formulas of the shared RUNTIMES.md (each
# cited there at a commit): the first T at which the runtime compacts (a ">" rule
# first fires one token above its line; a ">=" rule over a fraction at its ceiling).
# Where PEERS.md disagreed, docs/models-and-peers.md ("Peers") records the decision.
# W = 200,000, O = 32,000
BY_HAND_200K = {
    "pi": 183_617,  # T > 200,000 − 16,384 (compaction.ts@83378aad7e)
    "codex": 180_000,  # floor(9 × 200,000 / 10) (openai_models.rs@0d4367d0e6)
    "claude-code": 167_000,  # 200,000 − min(32,000, 20,000) − 13,000 (unofficial)
    "opencode": 168_000,  # W − min(O, 32,000), no limit.input (overflow.ts@08f74b9bb5)
    "qwen-code": 167_000,  # min(170,000, 200,000 − 20,000 − 13,000)
    "gemini-cli": 524_288,  # 0.5 × tokenLimit = 0.5 × 1,048,576 (tokenLimits.ts:20-38)
    "kimi-cli": 150_000,  # min(170,000, 200,000 − 50,000)
    "cline": 162_000,  # v4: 0.9 × (0.9 × 200,000) (compaction-shared.ts:13-21)
    "langchain-summarization": None,  # none by default
    "deepagents": 170_000,  # int(200,000 × 0.85)
    "anthropic-compaction": 150_000,
    "goose": 160_001,  # T / W > 0.8: T > 160,000
    "openai-agents": None,  # off unless compact_threshold is set
    "anthropic-context-editing": 100_000,
    "contextbuilder": 160_000,  # 0.8 × 200,000 (or 40 messages, or 50,000 characters)
    "openhands": None,  # counts events
}
# W = 1,048,576, O = 65,536
BY_HAND_1M = {
    "pi": 1_032_193,  # T > 1,048,576 − 16,384
    "codex": 943_718,  # floor(943,718.4)
    "claude-code": 1_015_576,  # 1,048,576 − 20,000 − 13,000
    "opencode": 1_016_576,  # 1,048,576 − 32,000
    "qwen-code": 891_290,  # T ≥ 891,289.6 first at 891,290 (below 1,015,576)
    "gemini-cli": 524_288,
    "kimi-cli": 891_290,  # T ≥ 891,289.6 first at 891,290 (below 998,576)
    "cline": 849_347,  # T ≥ 849,346.56 first at 849,347
    "langchain-summarization": None,
    "deepagents": 891_289,  # int(891,289.6): Python truncates, then T ≥
    "anthropic-compaction": 150_000,
    "goose": 838_861,  # T > 838,860.8
    "openai-agents": None,
    "anthropic-context-editing": 100_000,
    "contextbuilder": 838_860,  # 838,860.8 floored
    "openhands": None,
}


def view_for(window: int, max_output: int, **config: Any) -> Any:
    scenario = dataclasses.replace(
        Scenario(),
        main_model=ModelContract(
            input_tokens=window, output_tokens=max_output, reserves_output=True
        ),
        config=Config(**config),
    )
    return peer_lines(window, max_output, plan(scenario))


class TestPeersMdByHand:
    @pytest.mark.parametrize(
        ("window", "max_output", "expected"),
        [(200_000, 32_000, BY_HAND_200K), (1_048_576, 65_536, BY_HAND_1M)],
    )
    def test_every_row_matches_the_hand_arithmetic(
        self, window: int, max_output: int, expected: dict[str, int | None]
    ) -> None:
        view = view_for(window, max_output)
        assert {r.peer.id: r.tokens for r in view.rows} == expected
        for r in view.rows:
            if r.tokens is not None:
                assert r.share == Fraction(r.tokens, window)

    def test_one_row_per_system_of_peers_md_in_its_order(self) -> None:
        assert [p.id for p in default_peers()] == list(BY_HAND_200K)

    def test_summary_caps_only_where_the_source_sets_one(self) -> None:
        caps = {r.peer.id: r.summary_cap for r in view_for(200_000, 32_000).rows}
        assert caps.pop("pi") == 13_107  # floor(0.8 × 16,384)
        assert caps.pop("qwen-code") == 20_000
        assert caps.pop("cline") == 4_096  # the v4 summarizer's maxOutputTokens default
        assert set(caps.values()) == {None}

    def test_rules_without_a_token_line_are_never_zero(self) -> None:
        rows = {r.peer.id: r for r in view_for(200_000, 32_000).rows}
        for pid, kind in (("openhands", "events"), ("langchain-summarization", "none")):
            row = rows[pid]
            assert row.peer.kind == kind
            assert (row.tokens, row.share, row.exact) == (None, None, None)
            assert row.no_line is not None
            assert "no token line" in row.no_line.en

    def test_only_claude_code_is_reported(self) -> None:
        assert [p.id for p in default_peers() if p.reported] == ["claude-code"]

    def test_every_row_links_its_source(self) -> None:
        for p in default_peers():
            if p.url is None:  # read in a shared seed text, which has no public address
                assert p.seed == "contextbuilder-tutorial.zh.txt"
                continue
            assert p.url.startswith("https://")
            assert p.evidence.en
            assert p.evidence.zh
            assert p.keeps.zh


class TestCountTriggers:
    """The ContextBuilder tutorial's rule: tokens, messages or tool-result characters,
    whichever comes first (the seed contextbuilder-tutorial.zh.txt, section 4)."""

    def test_contextbuilder_has_a_token_line_and_two_count_triggers(self) -> None:
        rows = {r.peer.id: r for r in view_for(200_000, 32_000).rows}
        row = rows["contextbuilder"]
        assert (row.peer.kind, row.peer.compare, row.tokens) == ("tokens", ">=", 160_000)
        assert [(a.count, a.compare, a.value) for a in row.peer.also] == [
            ("messages", ">", 40),
            ("tool_result_chars", ">", 50_000),
        ]
        assert row.peer.also[0].fires(41)
        assert not row.peer.also[0].fires(40)
        assert [p.id for p in default_peers() if p.also] == ["contextbuilder"]

    def test_the_dict_form_marks_them_as_counts(self) -> None:
        out = view_as_dict(view_for(200_000, 32_000))
        (cb,) = [p for p in out["peers"] if p["id"] == "contextbuilder"]
        assert [a["kind"] for a in cb["also"]] == ["count, not tokens"] * 2
        assert cb["also"][1]["value"] == 50_000

    @pytest.mark.parametrize(
        "also",
        [
            [],
            [{"count": "turns", "compare": ">", "value": 1, "text": {"en": "x", "zh": "x"}}],
            [{"count": "messages", "compare": "<", "value": 1, "text": {"en": "x", "zh": "x"}}],
            [{"count": "messages", "compare": ">", "value": -1, "text": {"en": "x", "zh": "x"}}],
        ],
    )
    def test_bad_count_triggers_are_refused(self, also: object) -> None:
        data = json.loads((ROOT / "budgetcore" / "data" / "peers.json").read_text("utf-8"))
        (cb,) = [p for p in data["peers"] if p["id"] == "contextbuilder"]
        cb["trigger"]["also"] = also
        with pytest.raises(FormulaError, match="also"):
            parse_peers(json.dumps(data))


class TestAwkwardRules:
    @pytest.mark.parametrize(
        ("window", "expected"),
        [
            (64_000, 51_840),  # 0.81 × 64,000: v4 has no v3 table (cline@21cb8d2525)
            (128_000, 103_680),
            (200_000, 162_000),
            (200_001, 162_001),  # 162,000.81: the first whole T at or above it
        ],
    )
    def test_cline_v4_is_081_w(self, window: int, expected: int) -> None:
        rows = {r.peer.id: r.tokens for r in view_for(window, 8_192).rows}
        assert rows["cline"] == expected

    @pytest.mark.parametrize(
        ("max_output", "expected"),
        [
            (8_192, 128_000 - 8_192),  # usable = W − maxOutputTokens (reserved unused)
            (25_000, 128_000 - 25_000),
            (64_000, 128_000 - 32_000),  # maxOut clamped to 32,000
        ],
    )
    def test_opencode_reserves_the_output_only(self, max_output: int, expected: int) -> None:
        rows = {r.peer.id: r.tokens for r in view_for(128_000, max_output).rows}
        assert rows["opencode"] == expected

    def test_claude_code_reserve_follows_a_small_output(self) -> None:
        rows = {r.peer.id: r.tokens for r in view_for(200_000, 8_192).rows}
        assert rows["claude-code"] == 200_000 - 8_192 - 13_000

    def test_fixed_counts_above_a_small_window_are_marked(self) -> None:
        rows = {r.peer.id: r for r in view_for(128_000, 16_384).rows}
        assert rows["anthropic-compaction"].beyond_window
        assert rows["anthropic-compaction"].share == Fraction(150_000, 128_000)
        assert not rows["anthropic-context-editing"].beyond_window

    def test_a_reserve_larger_than_the_window_floors_at_zero_and_says_so(self) -> None:
        rows = {r.peer.id: r for r in view_for(8_000, 4_096).rows}
        assert rows["pi"].tokens == 0
        assert rows["pi"].clamped
        assert rows["pi"].exact == 0  # max(0, 8,000 − 16,384 + 1): compacts at once
        assert not rows["codex"].clamped


class TestReferenceLines:
    def test_scenario_and_article_lines_at_200k(self) -> None:
        view = view_for(200_000, 32_000)
        assert view.line("trigger").tokens == 32_000
        assert view.line("main_safe_input").tokens == 172_627  # floor(0.9 × 191,808)
        assert view.line("hard").tokens == 191_808  # 200,000 − o (q = 1)
        assert view.line("clean").tokens == 140_000
        assert view.line("compact").tokens == 167_000
        assert [(g.low, g.high, g.tokens) for g in view.gaps] == [
            ("clean", "compact", 27_000),
            ("compact", "hard", 24_808),
        ]
        assert view.line("compact").share == Fraction(835, 1000)

    def test_article_lines_floor_at_1m(self) -> None:
        view = view_for(1_048_576, 65_536)
        assert view.line("clean").tokens == 734_003  # 734,003.2
        assert view.line("compact").tokens == 875_560  # 875,560.96
        assert view.line("hard").tokens == 1_048_576 - 8_192

    def test_hard_line_is_the_window_when_the_adapter_does_not_reserve(self) -> None:
        scenario = dataclasses.replace(
            Scenario(),
            main_model=ModelContract(
                input_tokens=200_000, output_tokens=32_000, reserves_output=False
            ),
        )
        view = peer_lines(200_000, 32_000, plan(scenario))
        assert view.line("hard").tokens == 200_000

    def test_no_room_when_the_hard_line_falls_below_the_compact_line(self) -> None:
        # Issue 25: the room came out as -3,500, shown as if it were room.
        view = view_for(100_000, 32_000, reply_max_tokens=20_000)
        assert view.line("hard").tokens == 80_000
        gap = view.gaps[1]
        assert (gap.tokens, gap.no_room, gap.short) == (0, "order", 83_500 - 80_000)
        assert gap.label.en == "no room: the hard line lies 3,500 tokens below the compact line"
        assert "3,500" in gap.label.zh
        assert view.gaps[0].no_room is None
        assert view.gaps[0].tokens == 83_500 - 70_000

    @pytest.mark.parametrize("reserve", [8_192, 6_000])  # above W, and W itself
    def test_no_room_and_no_hard_line_when_the_reply_reserve_takes_the_window(
        self, reserve: int
    ) -> None:
        view = view_for(6_000, 4_000, reply_max_tokens=reserve)
        gap = view.gaps[1]
        assert (gap.tokens, gap.no_room, gap.short) == (0, "reserve", 0)
        assert gap.label.en == (
            f"no room: the reply reserve ({reserve:,} tokens) is at least the window W "
            "(6,000 tokens), so there is no hard line"
        )
        assert "none" in view.line("hard").label.en
        data = view_as_dict(view)
        assert (view.reserve, data["reply_reserve"]) == (reserve, reserve)
        assert data["gaps"][1] == {
            "from": "compact",
            "to": "hard",
            "tokens": 0,
            "no_room": "reserve",
            "short": 0,
            "label": gap.label.en,
        }

    def test_room_is_never_negative(self) -> None:
        for window in (1_000, 6_000, 20_000, 100_000, 200_000, 1_048_576):
            for reserve in (0, 1, 4_096, 8_192, 20_000, 65_536, 2_000_000):
                view = view_for(window, min(window, 4_000), reply_max_tokens=reserve)
                for gap in view.gaps:
                    assert gap.tokens >= 0
                    assert gap.short >= 0
                    # Room plus shortfall is the signed distance, unless the hard line
                    # does not exist at all.
                    if gap.no_room != "reserve":
                        low, high = view.line(gap.low).tokens, view.line(gap.high).tokens
                        assert gap.tokens - gap.short == high - low

    def test_data_keys_are_stable(self) -> None:
        view = view_for(200_000, 32_000)
        assert view.rows[0].data_key == "peer-pi"
        assert [r.data_key for r in view.article] == ["line-clean", "line-compact", "line-hard"]

    def test_dict_form_is_exact_and_complete(self) -> None:
        out = view_as_dict(view_for(1_048_576, 65_536), lang="zh")
        codex = next(p for p in out["peers"] if p["id"] == "codex")
        assert codex["tokens"] == 943_718
        assert codex["exact"] == "943718/1"  # integer division in Codex, exact
        assert codex["share"] == "471859/524288"
        json.dumps(out)  # JSON-ready


class TestFormulas:
    def test_evaluation_is_exact(self) -> None:
        assert evaluate({"mul": ["0.9", "W"]}, 1_048_576, 1) == Fraction(4_718_592, 5)
        assert evaluate({"sub": ["W", "O", 1]}, 10, 3) == 6
        assert evaluate({"add": ["0.1", "0.2"]}, 1, 1) == Fraction(3, 10)

    @pytest.mark.parametrize(
        "line",
        [
            {"pow": ["W", 2]},
            "__import__('os')",
            True,
            {"mul": []},
            {"sub": ["W"]},
            {"min": ["W"], "max": ["W"]},
            {"case": {"on": "X", "when": [], "else": 1}},
            {"case": {"on": "W", "when": [[1.5, 1]], "else": 1}},
            "1e3",
        ],
    )
    def test_anything_outside_the_grammar_is_refused(self, line: object) -> None:
        peer = {
            "id": "x",
            "name": "x",
            "version": None,
            "repo": None,
            "path": None,
            "url": "https://example.org",
            "confidence": "code",
            "evidence": {"en": "e", "zh": "e"},
            "trigger": {
                "kind": "tokens",
                "compare": ">=",
                "line": line,
                "text": {"en": "t", "zh": "t"},
            },
            "summary_cap": None,
            "keeps": {"en": "k", "zh": "k"},
        }
        with pytest.raises(FormulaError, match=r"peers\[0\]\.trigger\.line"):
            parse_peers(json.dumps({"format": 2, "peers": [peer]}))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "budgetcore", "peers", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


class TestPeersCommand:
    def test_json_table_matches_the_hand_arithmetic(self) -> None:
        proc = run("--window", "200000", "--max-output", "32000", "--json")
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        assert {p["id"]: p["tokens"] for p in out["peers"]} == BY_HAND_200K

    def test_text_table_marks_reported_rows_and_lines_without_tokens(self) -> None:
        proc = run("--window", "1048576", "--max-output", "65536")
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.splitlines()
        claude = next(ln for ln in lines if ln.startswith("Claude Code*"))
        assert "1,015,576" in claude
        openhands = next(ln for ln in lines if ln.startswith("OpenHands"))
        assert " events " in openhands
        assert " 0 " not in openhands
        assert any(ln.startswith("* reported only") for ln in lines)
        assert any("compact line (83.5 %) 875,560" in ln for ln in lines)

    def test_text_and_json_say_no_room_not_a_negative_number(self) -> None:
        proc = run("--window", "20000", "--max-output", "8000")
        assert proc.returncode == 0, proc.stderr
        between = next(ln for ln in proc.stdout.splitlines() if ln.startswith("Between them"))
        assert between.endswith(
            "compact -> hard, no room: the hard line lies 4,892 tokens below the compact line"
        )
        assert "-4,892" not in proc.stdout
        proc = run("--window", "6000", "--max-output", "4000", "--json")
        gaps = json.loads(proc.stdout)["gaps"]
        assert [(g["tokens"], g["no_room"]) for g in gaps] == [(810, None), (0, "reserve")]

    def test_model_name_gives_the_same_table_as_its_numbers(self) -> None:
        by_name = run("--model", "claude-sonnet-4-5", "--json")
        by_numbers = run("--window", "200000", "--max-output", "64000", "--json")
        assert by_name.returncode == 0, by_name.stderr
        named = json.loads(by_name.stdout)
        assert named.pop("model")["name"] == "claude-sonnet-4-5"
        numbers = json.loads(by_numbers.stdout)
        # The name says which systems run it: Gemini CLI does not run Sonnet (its line
        # is tokenLimit's 524,288, not this window's); numbers alone name no model.
        apart = [p["id"] for p in named["peers"] if not p["for_model"]]
        assert apart == ["gemini-cli"]
        assert all(p["for_model"] for p in numbers["peers"])
        for p in named["peers"]:
            p["for_model"] = True
        assert named == numbers
        text = run("--model", "claude-sonnet-4-5").stdout
        (gemini,) = [ln for ln in text.splitlines() if ln.startswith("Gemini CLI")]
        assert "524,288" in gemini
        assert "(does not run this model)" in gemini

    def test_a_codex_model_is_found_and_shown(self) -> None:
        proc = run("--model", "gpt-5-codex")
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.splitlines()
        assert lines[0] == "model gpt-5-codex (responses API; deprecation 2026-07-23)"
        assert lines[1].startswith("Trigger lines for W = 272,000, O = 128,000")
        codex = next(ln for ln in lines if ln.startswith("OpenAI Codex CLI"))
        assert "244,800" in codex  # 0.9 x 272,000

    def test_a_loose_name_shows_the_match_it_chose(self) -> None:
        proc = run("--model", "claude-sonnet-4", "--json")
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        assert out["model"]["name"] == "claude-sonnet-4-20250514"
        assert (out["model"]["how"], out["model"]["retired"]) == ("alias", "LiteLLM 1.103.6")
        assert (out["window"], out["max_output"]) == (1_000_000, 64_000)
        text = run("--model", "claude-sonnet-4").stdout.splitlines()[0]
        assert text.startswith("claude-sonnet-4 -> claude-sonnet-4-20250514: alias; ")
        assert text.endswith("(retired: last in LiteLLM 1.103.6; deprecation 2026-06-15)")

    def test_scenario_file_gives_its_model_k_and_m(self, tmp_path: Path) -> None:
        path = tmp_path / "s.json"
        path.write_text(
            '{"main_model": {"model": "gpt-4o", "reserves_output": false},'
            ' "config": {"trigger_tokens": 50000}}',
            encoding="utf-8",
        )
        proc = run("--scenario", str(path), "--json")
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        assert (out["window"], out["max_output"]) == (128_000, 16_384)
        lines = {r["key"]: r["tokens"] for r in out["scenario"]}
        # q = 0: M = floor(0.9 × 128,000) and the hard line is the whole window
        assert lines == {"trigger": 50_000, "main_safe_input": 115_200, "hard": 128_000}

    @pytest.mark.parametrize(
        "args",
        [
            ("--window", "0", "--max-output", "1"),
            ("--window", "2e5", "--max-output", "1"),
            (
                "--window",
                "200000",
            ),
            ("--model", "clade-sonnet"),
            ("--model", "gpt-4o", "--window", "1", "--max-output", "1"),
            (),
        ],
    )
    def test_bad_input_exits_2_with_one_line(self, args: tuple[str, ...]) -> None:
        proc = run(*args)
        assert (proc.returncode, proc.stdout) == (2, "")
        assert len(proc.stderr.splitlines()) == 1


class TestPagePeersSayNoRoom:
    """The page's peers legend reads the gap's no-room state (issue 25), never a room."""

    @pytest.mark.parametrize("lang", ["en", "zh"])
    def test_the_legend_names_why_there_is_no_room(self, lang: str) -> None:
        from budgetcore.messages import t  # noqa: PLC0415
        from budgetcore.registry.peers import default_peers  # noqa: PLC0415
        from budgetcore.ui.main.view.peers import peers_html  # noqa: PLC0415

        scenario = dataclasses.replace(
            Scenario(),
            main_model=ModelContract(
                input_tokens=100_000, output_tokens=32_000, reserves_output=True
            ),
            config=Config(reply_max_tokens=20_000),
        )
        html = str(peers_html(plan(scenario), default_peers(), lang))
        high = t("peers.line-short.hard", lang)
        low = t("peers.line-short.compact", lang)
        expected = t("peers.gap.no-room.order", lang, low=low, high=high, short="3,500")
        assert expected in html
        assert "-3,500" not in html
        assert "−3,500" not in html


class TestPeersAreTheProfiles:
    """Issue 39: the peers table is the runtime profiles at their defaults, not a
    second table (docs/models-and-peers.md, "Peers")."""

    def test_every_runtime_but_the_articles_is_a_peer(self) -> None:
        from budgetcore.runtimes import RUNTIME_NAMES  # noqa: PLC0415

        named = {p.profile for p in default_peers() if p.profile is not None}
        assert named == set(RUNTIME_NAMES) - {"article"}

    @pytest.mark.parametrize(
        ("window", "max_output"), [(8_000, 4_096), (200_000, 32_000), (1_048_576, 65_536)]
    )
    def test_a_runtime_peers_line_is_its_profiles_effective_trigger(
        self, window: int, max_output: int
    ) -> None:
        from budgetcore.runtimes import profile  # noqa: PLC0415

        for row in view_for(window, max_output).rows:
            if row.peer.profile is None:
                continue
            first = profile(row.peer.profile).effective_trigger(window, max_output)
            assert row.tokens == first, row.peer.id
            assert row.peer.version is not None
            assert row.peer.version in profile(row.peer.profile).version

    def test_a_model_keyed_limit_reaches_the_peers_line(self) -> None:
        # Gemini CLI's tokenLimit: 1,048,576 for Gemini models, 256,000 for Gemma 4
        # (gemini-cli@5411f113ca packages/core/src/core/tokenLimits.ts:20-38, on the
        # exact names of config/models.ts).
        scenario = Scenario()
        rows = peer_lines(256_000, 8_192, plan(scenario), model="gemma-4-31b-it").rows
        gemini = next(r for r in rows if r.peer.id == "gemini-cli")
        assert gemini.tokens == 128_000

    @pytest.mark.parametrize(
        ("key", "value"),
        [("confidence", "code"), ("summary_cap", 1), ("version", "9.9.9")],
    )
    def test_a_profile_peer_cannot_restate_the_profiles_facts(
        self, key: str, value: object
    ) -> None:
        data = json.loads((ROOT / "budgetcore" / "data" / "peers.json").read_text("utf-8"))
        (codex,) = [p for p in data["peers"] if p["id"] == "codex"]
        codex[key] = value
        with pytest.raises(FormulaError, match=rf"peers\[1\]\.{key}"):
            parse_peers(json.dumps(data))

    def test_a_profile_peer_has_no_formula_of_its_own(self) -> None:
        data = json.loads((ROOT / "budgetcore" / "data" / "peers.json").read_text("utf-8"))
        (codex,) = [p for p in data["peers"] if p["id"] == "codex"]
        codex["trigger"]["line"] = {"mul": ["0.9", "W"]}
        with pytest.raises(FormulaError, match="the profile's own line"):
            parse_peers(json.dumps(data))


def test_which_models_a_runtime_peer_runs_is_its_profiles_fact() -> None:
    """One home: a runtime's families are its profile's (runtimes/profiles.py, the
    export's warning reads them); peers.json gives only the sentence, both languages."""
    from budgetcore.runtimes import PROFILES  # noqa: PLC0415

    peers = {
        p.id: p for p in parse_peers((ROOT / "budgetcore" / "data" / "peers.json").read_text())
    }
    assert peers["gemini-cli"].runs == PROFILES["gemini-cli"].runs == ("gemini", "gemma")
    assert peers["anthropic-compaction"].runs == PROFILES["anthropic-api"].runs == ("claude",)
    assert peers["codex"].runs == PROFILES["codex"].runs == ()
    data = json.loads((ROOT / "budgetcore" / "data" / "peers.json").read_text("utf-8"))
    gemini = next(p for p in data["peers"] if p["id"] == "gemini-cli")
    gemini["runs"]["families"] = ["gemini"]
    with pytest.raises(FormulaError, match="the profile's own"):
        parse_peers(json.dumps(data))
    del gemini["runs"]
    with pytest.raises(FormulaError, match=r"runs\.text"):
        parse_peers(json.dumps(data))
