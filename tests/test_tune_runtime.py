"""``tune --runtime``: the grid in a runtime's own knob (issue 39, docs/tune.md).

Golden points are worked out by hand from the shared RUNTIMES.md's formulas (each cited
there at its commit), not by the profiles: Codex min(limit, floor(0.9 × W))
(codex-rs/core/src/session/context_window.rs@11237ebb1b, openai_models.rs@0d4367d0e6);
Claude Code min(floor(E × pct / 100), E − 13,000), E = W − min(O, 20,000) (unofficial);
pi T > W − reserveTokens, S = floor(0.8 × reserveTokens) (compaction.ts@83378aad7e);
Gemini CLI T ≥ thr × 1,048,576 (gemini-cli@5411f113ca tokenLimits.ts:20-38).
"""

from __future__ import annotations

import json
import shlex
from decimal import Decimal
from pathlib import Path

import pytest

from budgetcore import cli
from budgetcore.errors import ScenarioError
from budgetcore.runtimes.tune_axis import parse_knob_values, runtime_axis, tune_knob
from tests.helpers import run_cli

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
GEN = '{"turns": 60, "seed": 7, "added": {"dist": "uniform", "low": 1000, "high": 9000}}'


def points(runtime: str, w: int, o: int, values: tuple[object, ...], model: str | None = None):  # type: ignore[no-untyped-def]
    axis = runtime_axis(runtime, w, o, model, values=values, scenario_s=8_192)  # type: ignore[arg-type]
    return [(p.value, p.k, p.s) for p in axis.points], axis


class TestTheKnobAsPoints:
    def test_codex_clamps_a_limit_above_09_w(self) -> None:
        got, axis = points("codex", 272_000, 128_000, (80_000, 244_800, 300_000))
        # floor(0.9 × 272,000) = 244,800: 300,000 is silently the same line in Codex.
        assert got == [
            (80_000, 80_000, 8_192),
            (244_800, 244_800, 8_192),
            (300_000, 244_800, 8_192),
        ]
        assert axis.ks == (80_000, 244_800)
        assert axis.summary == "scenario"  # no summary cap in Codex

    def test_claude_codes_percentage_only_lowers(self) -> None:
        got, _ = points("claude-code", 200_000, 32_000, (50, Decimal("75.5"), 95))
        e = 200_000 - min(32_000, 20_000)  # 180,000
        assert got == [
            (50, e * 50 // 100, 8_192),  # 90,000
            (Decimal("75.5"), e * 755 // 1000, 8_192),  # 135,900
            (95, e - 13_000, 8_192),  # 171,000 is above the default 167,000: the default
        ]

    def test_pis_reserve_moves_k_and_s_together(self) -> None:
        got, axis = points("pi", 200_000, 64_000, (8_192, 16_384, 65_536))
        assert got == [
            (8_192, 200_000 - 8_192 + 1, 8 * 8_192 // 10),
            (16_384, 200_000 - 16_384 + 1, 8 * 16_384 // 10),
            (65_536, 200_000 - 65_536 + 1, 8 * 65_536 // 10),
        ]
        assert axis.summary == "runtime"
        assert len(axis.ks) * len(axis.ss) == 9
        assert len(axis.reachable) == 3  # the product is not pi's: only its diagonal

    def test_geminis_fraction_is_of_1048576_whatever_the_window(self) -> None:
        got, _ = points("gemini-cli", 200_000, 32_000, (Decimal("0.1"), Decimal("0.5")))
        assert got == [
            (Decimal("0.1"), -(-1_048_576 // 10), 8_192),  # ceil(104,857.6)
            (Decimal("0.5"), 524_288, 8_192),
        ]

    @pytest.mark.parametrize("runtime", ["cline", "opencode"])
    def test_a_runtime_without_a_trigger_knob_is_refused_with_why(self, runtime: str) -> None:
        with pytest.raises(ScenarioError) as caught:
            tune_knob(runtime)
        (problem,) = caught.value.problems
        assert problem.path == "--runtime"
        assert "cannot be tuned" in problem.rule

    @pytest.mark.parametrize(
        ("runtime", "text"),
        [
            ("claude-code", "50.123"),  # a percentage has two decimals at most
            ("claude-code", "101"),
            ("gemini-cli", "1.5"),
            ("gemini-cli", "0.5,0.5"),
            ("kimi-cli", "0.3"),  # compaction_trigger_ratio is 0.5 to 0.99
            ("goose", "x"),
        ],
    )
    def test_bad_knob_values_name_the_flag(self, runtime: str, text: str) -> None:
        _profile, knob = tune_knob(runtime)
        with pytest.raises(ScenarioError) as caught:
            parse_knob_values(text, knob)
        assert [p.path for p in caught.value.problems] == ["--knob"]


def _tune(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict, str]:  # type: ignore[type-arg]
    code = cli.main(["tune", *args, "--format", "jsonl"])
    out = capsys.readouterr()
    summary = json.loads(out.out.splitlines()[-1])["summary"] if code == 0 else {}
    return code, summary, out.err


class TestTheCommand:
    def test_pi_chooses_only_a_reserve_it_can_set_and_exports_it(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        frag = "main_model.model=claude-sonnet-4-5"
        code, summary, err = _tune(
            capsys, "--fragment", frag, "--generate", GEN, "--runtime", "pi",
            "--knob", "8192,16384,32768,65536",
        )  # fmt: skip
        assert code == 0, err
        runtime = summary["runtime"]
        assert runtime["knob"] == "compaction.reserveTokens"
        reachable = {(p["k"], p["s"]) for p in runtime["points"]}
        choice = summary["choice"]
        assert (choice["k"], choice["s"]) in reachable
        value = runtime["chosen"]
        assert (choice["k"], choice["s"]) == (200_000 - value + 1, 8 * value // 10)
        # The printed export writes that same value in pi's own file.
        argv = shlex.split(choice["export"])[1:]
        exported = run_cli([*argv, "--format", "json"])
        assert exported.code == 0, exported.err
        settings = dict(json.loads(exported.out)["settings"])
        assert settings["compaction.reserveTokens"] == value

    def test_codex_exports_the_chosen_limit(self, capsys: pytest.CaptureFixture[str]) -> None:
        frag = "main_model.model=gpt-5-codex"
        code, summary, err = _tune(
            capsys, "--fragment", frag, "--generate", GEN, "--runtime", "codex",
            "--knob", "20000,40000,80000,120000",
        )  # fmt: skip
        assert code == 0, err
        chosen = summary["runtime"]["chosen"]
        assert summary["choice"]["k"] == chosen
        assert summary["choice"]["export"].startswith("budgetcore export --runtime codex ")
        exported = run_cli([*shlex.split(summary["choice"]["export"])[1:], "--format", "json"])
        assert dict(json.loads(exported.out)["settings"])["model_auto_compact_token_limit"] == (
            chosen
        )

    def test_a_log_is_tuned_on_its_as_run_baseline_in_the_runtimes_unit(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        log = next((LOGS / "claude" / "12-compact-preserved-2.1").rglob("cccc*.jsonl"))
        code, summary, err = _tune(
            capsys, "--log", str(log), "--runtime", "claude-code", "--knob", "40,60,80"
        )
        assert code == 0, err
        assert len(summary["as_run"]) == 1  # the backtest first (spec §17)
        assert [p["value"] for p in summary["runtime"]["points"]] == [40, 60, 80]
        assert summary["runtime"]["unit"] == "percent"

    @pytest.mark.parametrize(
        ("args", "flag"),
        [
            (("--runtime", "codex", "--k", "8000"), "--runtime"),
            (("--knob", "8000"), "--knob"),
            (("--runtime", "cline"), "--runtime"),
            (("--runtime", "nope"), "runtime"),
        ],
    )
    def test_misuse_is_one_line_and_exit_2(
        self, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], flag: str
    ) -> None:
        code = cli.main(["tune", "--fragment", "", "--generate", GEN, *args])
        err = capsys.readouterr().err
        assert code == 2
        assert flag in err
        assert len(err.strip().splitlines()) == 1


def test_each_jsonl_point_names_its_knob_value(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(
        [
            "tune", "--fragment", "main_model.model=claude-sonnet-4-5", "--generate", GEN,
            "--runtime", "pi", "--knob", "16384,32768,65536", "--format", "jsonl",
        ]
    )  # fmt: skip
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    assert code == 0
    points = [json.loads(line) for line in out[:-1]]
    by_point = {(p["k"], p["s"]): p["runtime_value"] for p in points}
    # pi: K = W − r + 1, S = floor(0.8 r); the product's other corners are no setting.
    # pi's default 16,384 on Sonnet's 200,000 fires at 183,617, above M = 172,627: kept
    # aside and said, not on the grid.
    assert by_point[(200_000 - 32_768 + 1, 8 * 32_768 // 10)] == 32_768
    assert by_point[(200_000 - 65_536 + 1, 8 * 65_536 // 10)] == 65_536
    assert sorted(v for v in by_point.values() if v is not None) == [32_768, 65_536]
    assert json.loads(out[-1])["summary"]["runtime"]["above_safe_input"] == [16_384]
    assert "compaction.reserveTokens = 16384" in captured.err
    assert "M = 172,627" in captured.err
    assert sum(v is None for v in by_point.values()) == 2
    unreachable = [p for p in points if p["runtime_value"] is None]
    assert all("runtime_unreachable" in p["broken"] for p in unreachable)


def test_pis_default_grid_spans_k_to_m_and_its_choice_exports_as_said(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The walk: pi's default reserves ran 4,000 to M, so K ran from W − M up, mostly
    above M; the choice was K 937,841 above M 936,345, "reserveTokens = 110,736", while
    the export wrote 112,232 (K capped at M). The default reserves are now W + 1 − K for
    the default K spread (4,000 to M), and the chosen value is the export's."""
    from budgetcore.runtimes.tune_axis import default_token_values  # noqa: PLC0415
    from budgetcore.tune.grid import default_k  # noqa: PLC0415

    ks = default_k(936_345)
    reserves = default_token_values("pi", 1_048_576, ks)
    assert sorted(1_048_576 + 1 - r for r in reserves) == sorted(ks)
    assert default_token_values("codex", 1_048_576, ks) == tuple(ks)
    code = cli.main(["tune", "--fragment", "", "--generate", GEN, "--runtime", "pi",
                     "--format", "jsonl"])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0
    summary = json.loads(captured.out.splitlines()[-1])["summary"]
    choice, runtime = summary["choice"], summary["runtime"]
    assert choice["k"] <= 936_345
    assert max(p["k"] for p in runtime["points"]) <= 936_345
    assert runtime["above_safe_input"] == []
    fragment = f"config.trigger_tokens={choice['k']}&config.summary_max_tokens={choice['s']}"
    assert cli.main(["export", "--runtime", "pi", "--fragment", fragment]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["compaction"]["reserveTokens"] == runtime["chosen"]


@pytest.mark.parametrize(
    ("runtime", "key"),
    [
        ("goose", "GOOSE_AUTO_COMPACT_THRESHOLD"),
        ("claude-code", "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"),
        ("qwen-code", "autoCompactThreshold"),
        ("kimi-cli", "compaction_trigger_ratio"),
        ("codex", "model_auto_compact_token_limit"),
    ],
)
def test_the_choice_says_the_digits_its_export_writes(
    runtime: str, key: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The last stop's leftover: Tune chose Goose's 0.5 (K 100,001) and the export it
    printed wrote 0.500002 for the same K, unsaid. The choice now names the export's
    value where its digits differ (``runtime.exported``), read back from the export
    command it prints; None where the two are one value."""
    code = cli.main(["tune", "--fragment", "", "--generate", GEN, "--runtime", runtime,
                     "--format", "jsonl"])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0
    summary = json.loads(captured.out.splitlines()[-1])["summary"]
    said = summary["runtime"]
    assert said["knob"].endswith(key)
    argv = shlex.split(summary["choice"]["export"])[1:]
    assert cli.main([*argv, "--format", "json"]) == 0
    settings = json.loads(capsys.readouterr().out, parse_float=Decimal)["settings"]
    if said["exported"] is None:
        assert Decimal(str(settings[said["knob"]])) == Decimal(str(said["chosen"]))
    else:
        knob, value = said["exported"]["knob"], said["exported"]["value"]
        assert Decimal(str(settings[knob])) == Decimal(str(value))
        assert (knob, str(value)) != (said["knob"], str(said["chosen"]))
    assert (said["exported"] is None) == (runtime == "codex")
    table = ["tune", "--fragment", "", "--generate", GEN, "--runtime", runtime, "--format", "table"]
    assert cli.main(table) == 0
    note = [x for x in capsys.readouterr().out.splitlines() if "The runtime export writes" in x]
    assert len(note) == (0 if said["exported"] is None else 1)
