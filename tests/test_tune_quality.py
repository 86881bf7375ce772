"""Tune's quality beside cost (docs/spec.md §17, docs/tune.md "Quality"): every point
carries generations and compression, the default choice applies stated limits on them,
a choice on the grid's edge says so, and a log's tune stands on its as-run baseline."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from budgetcore import cli
from budgetcore.core.scenario import Scenario
from budgetcore.messages import t
from budgetcore.replay.model import quality_of
from budgetcore.replay.simulate import replay
from budgetcore.replay.turns import generate, parse_generator_json
from budgetcore.tune.choice import (
    DEFAULT_MAX_COMPRESSION,
    DEFAULT_MAX_GENERATIONS,
    Constraints,
)
from budgetcore.tune.result import scenario_at, tune
from budgetcore.units import format_int

GEN = '{"turns": 150, "seed": 5, "added": {"dist": "uniform", "low": 500, "high": 9000}}'
LOGS = Path(__file__).parent / "fixtures" / "logs"


def _turns() -> tuple:
    return tuple(generate(parse_generator_json(GEN)))


def test_every_point_carries_the_replays_generations_and_compression() -> None:
    turns = _turns()
    result = tune(Scenario(), [("g", turns)], ks=(8_000, 40_000), ss=(1_024, 8_192))
    g = result.grid
    for i in range(g.points):
        k, s = g.point(i)
        q = quality_of(replay(scenario_at(Scenario(), k, s), turns).rows)
        assert g.generations(i) == q.generations
        assert g.compression(i) == q.compression
        assert q.generations > 0  # this session's growth makes every point summarise


def test_the_default_choice_keeps_the_stated_quality_limits() -> None:
    turns = _turns()
    ks, ss = (8_000, 16_000, 32_000, 64_000, 128_000), (1_024, 2_048, 4_096, 8_192, 16_384)
    off = tune(
        Scenario(),
        [("g", turns)],
        ks=ks,
        ss=ss,
        constraints=Constraints(max_generations=None, max_compression=None),
    )
    assert off.choice is not None
    # Without limits the cheapest point summarises into the smallest cap: the defect.
    assert off.choice.s == 1_024
    on = tune(Scenario(), [("g", turns)], ks=ks, ss=ss)
    assert on.choice is not None
    i = on.choice.index
    # 150 turns of about 4,750 tokens: no K of this grid summarises at most 5 times, so
    # the default limit becomes what the scenario's own point makes, or the fewest the
    # grid allows where that is more, and the result says so.
    assert on.relaxed is not None
    default, fewest, limit = on.relaxed
    assert default == DEFAULT_MAX_GENERATIONS
    assert fewest == min(on.grid.generations(j) for j in range(on.grid.points))
    assert limit == max(fewest, on.own.generations(0))
    assert on.grid.generations(i) <= limit
    # The cheapest point within it: none cheaper summarises at most ``limit`` times.
    assert all(
        on.grid.cost_units(j) >= on.grid.cost_units(i)
        for j in range(on.grid.points)
        if on.grid.generations(j) <= limit and not on.constraints.broken(on.grid, j)
    )
    comp = on.grid.compression(i)
    assert comp is None or comp <= Fraction(DEFAULT_MAX_COMPRESSION)
    assert on.choice.s > 1_024
    # The relaxed limit is no longer the default: only the compression default is stated.
    assert set(on.constraints.as_dict()["defaults"]) == {"max_compression"}


def test_a_limit_can_be_switched_off_and_is_then_not_stated() -> None:
    c = Constraints(max_generations=None)
    d = c.as_dict()
    assert d["max_generations"] is None
    assert set(d["defaults"]) == {"max_compression"}


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"max_generations": -1}, "max_generations"),
        ({"max_compression": Decimal("0.5")}, "max_compression"),
        ({"max_generations": True}, "max_generations"),
    ],
)
def test_bad_quality_limits_name_the_argument(kwargs: dict, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        Constraints(**kwargs)


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(["tune", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_cli_states_the_limits_and_a_choice_on_the_grid_edge(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sc = tmp_path / "s.json"
    sc.write_text("{}")
    code, out, _ = _cli(
        capsys, str(sc), "--generate", GEN, "--k", "8000,16000", "--s", "4096,8192",
        "--max-generations", "off", "--max-compression", "off", "--format", "jsonl",
    )  # fmt: skip
    assert code == 0
    summary = json.loads(out.splitlines()[-1])["summary"]
    choice = summary["choice"]
    assert summary["constraints"]["max_generations"] is None
    assert choice["on_grid_edge"]  # the cheapest here is a corner of this small grid
    assert "may lie beyond the grid" in choice["edge_note"]
    assert isinstance(choice["generations"], int)
    code, table, _ = _cli(
        capsys, str(sc), "--generate", GEN, "--k", "8000,16000", "--s", "4096,8192",
        "--format", "table",
    )  # fmt: skip
    assert code == 0
    assert "quality: generations" in table
    assert "Compaction Cliff" in table  # the default's source, said


@pytest.mark.parametrize("bad", ["0.5", "x", "-3", "1e400"])
def test_a_bad_compression_flag_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, bad: str
) -> None:
    sc = tmp_path / "s.json"
    sc.write_text("{}")
    with pytest.raises(SystemExit) as exc:
        _cli(capsys, str(sc), "--generate", GEN, "--max-compression", bad)
    assert exc.value.code == 2
    assert "--max-compression" in capsys.readouterr().err


def test_a_bedrock_logs_tune_says_its_backtest_is_no_baseline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # claude/30-asrun-bedrock: within 5 % (±0.0 %), served by Amazon Bedrock, whose
    # cache no rule of the log predicts (docs/replay.md, "No baseline on Bedrock").
    log = next((LOGS / "claude" / "30-asrun-bedrock").rglob("*.jsonl"))
    code, out, err = _cli(capsys, "--log", str(log), "--k", "8000,32000", "--s", "4096")
    assert code == 0, err
    (backtest,) = json.loads(out.splitlines()[-1])["summary"]["as_run"]
    assert backtest["within_5_percent"] is True
    assert backtest["baseline_caveat"].startswith("served by Amazon Bedrock")
    code, out, err = _cli(
        capsys, "--log", str(log), "--k", "8000,32000", "--s", "4096", "--format", "table"
    )
    assert code == 0, err
    line = next(x for x in out.splitlines() if x.startswith("As run: "))
    assert line.endswith(
        f"(±0.0 %)  (no baseline: {backtest['baseline_caveat']}; every figure below is the model's)"
    )


def test_a_logs_tune_prints_its_backtest_first_and_reads_the_logs_clock(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = next((LOGS / "claude" / "12-compact-preserved-2.1").rglob("cccc*.jsonl"))
    code, out, err = _cli(capsys, "--log", str(log), "--k", "8000,32000", "--s", "4096")
    assert code == 0, err
    summary = json.loads(out.splitlines()[-1])["summary"]
    (backtest,) = summary["as_run"]
    assert backtest["session"] == str(log)
    assert Decimal(backtest["measured_cost"]) == Decimal("1.970095")  # the fixture's bill
    assert backtest["baseline_caveat"] is None
    options = tmp_path / "timed.json"
    options.write_text(
        '{"timing": {"duration": {"prefill_tokens_per_s": "20000", "decode_tokens_per_s": "400"}}}'
    )
    # Before: "turn 1 needs gap_ms" (the log's times were never read by tune).
    code, out, err = _cli(
        capsys, "--log", str(log), "--k", "8000", "--s", "4096", "--options", str(options)
    )
    assert code == 0, err
    point = json.loads(out.splitlines()[0])
    assert point["turns"] == 3


def test_a_choice_that_starts_no_summary_call_is_not_on_the_s_edge() -> None:
    """Codex rollout 05 of the public logs: at the chosen K the session never compacts,
    so every S ties, the tie rule takes the grid's smallest, and the choice said "the
    best point may lie beyond the grid" of S, which caps nothing there."""
    turns = generate(parse_generator_json('{"turns": 20, "seed": 3, "added": 800}'))
    result = tune(Scenario(), [("g", turns)], ks=(40_000, 60_000), ss=(1_024, 4_096, 8_192))
    assert result.choice is not None
    assert result.grid.summary_calls(result.choice.index) == 0
    assert result.choice.s == 1_024  # the tie rule (docs/spec.md §13): smaller S
    assert result.edges == ("smallest K",)
    # A choice that does start one keeps its S edge.
    busy = tune(
        Scenario(),
        [("g", generate(parse_generator_json(GEN)))],
        ks=(8_000, 16_000),
        ss=(4_096, 8_192),
        constraints=Constraints(max_generations=None, max_compression=None),
    )
    assert busy.choice is not None
    assert busy.grid.summary_calls(busy.choice.index) > 0
    assert any(e.endswith(" S") for e in busy.edges)


def test_the_clis_relaxed_limit_and_edge_notes_are_the_pages_sentences(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """One home: the CLI printed its own wording of the page's catalogue notes ("no point
    summarises at most 5 times ...", "the choice sits on the grid's smallest K: ...");
    it prints the catalogue's English sentence, as for "no point beats the session"."""
    sc = tmp_path / "s.json"
    sc.write_text("{}")
    ks, ss = (8_000, 16_000, 32_000, 64_000, 128_000), (1_024, 2_048, 4_096, 8_192, 16_384)
    on = tune(Scenario(), [("g", _turns())], ks=ks, ss=ss)
    assert on.relaxed is not None
    default, fewest, limit = on.relaxed
    relaxed = t(
        "tune.binds.relaxed" if limit == fewest else "tune.binds.relaxed-own",
        "en",
        default=format_int(default),
        fewest=format_int(fewest),
        limit=format_int(limit),
        k=format_int(on.own.ks[0]),
        s=format_int(on.own.ss[0]),
        source=t("tune.source.max_generations", "en"),
    )
    code, table, _ = _cli(
        capsys, str(sc), "--generate", GEN, "--k", ",".join(map(str, ks)),
        "--s", ",".join(map(str, ss)), "--format", "table",
    )  # fmt: skip
    assert code == 0
    assert f"  note: {relaxed}" in table.splitlines()
    off = Constraints(max_generations=None, max_compression=None)
    corner = tune(
        Scenario(), [("g", _turns())], ks=(8_000, 16_000), ss=(4_096, 8_192), constraints=off
    )
    assert corner.edges
    where = t("msg.list-sep", "en").join(
        t(f"tune.edge.{'-'.join(e.lower().split())}", "en") for e in corner.edges
    )
    edge = f"{t('tune.binds.edge', 'en', edges=where)} {t('tune.edge.widen-cli', 'en')}"
    code, table, _ = _cli(
        capsys, str(sc), "--generate", GEN, "--k", "8000,16000", "--s", "4096,8192",
        "--max-generations", "off", "--max-compression", "off", "--format", "table",
    )  # fmt: skip
    assert code == 0
    assert f"  note: {edge}" in table.splitlines()


def test_a_choice_that_ties_the_scenarios_own_point_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The tenth walk: a pi session whose largest request is 6,450 tokens was told
    "K = 6,536, S = 1,024", every point from there up costing the same, the scenario's
    own K = 32,000 among them: the tie rule (docs/spec.md §16) takes the smaller, which
    read as advice to move. The CLI, its JSON and the page now say the two tie."""
    from budgetcore.ui.tune.view import _binding_html  # noqa: PLC0415

    short = tuple(generate(parse_generator_json('{"turns": 6, "seed": 1, "added": 500}')))
    ks, ss = (4_000, 8_000, 16_000, 32_000), (1_024, 8_192)
    result = tune(Scenario(), [("g", short)], ks=ks, ss=ss)
    assert result.choice is not None
    assert (result.choice.k, result.choice.s) != (result.own.ks[0], result.own.ss[0])
    said = t("tune.binds.ties-own", "en", k="32,000", s="8,192")
    assert result.ties_own_note("en") == said
    zh = "".join(str(m) for m in _binding_html(result, "zh"))
    assert 'data-tune-binds="ties-own"' in zh
    assert t("tune.binds.ties-own", "zh", k="32,000", s="8,192") in zh
    sc = tmp_path / "s.json"
    sc.write_text("{}")
    gen = '{"turns": 6, "seed": 1, "added": 500}'
    args = ("--generate", gen, "--k", ",".join(map(str, ks)), "--s", ",".join(map(str, ss)))
    code, table, _ = _cli(capsys, str(sc), *args, "--format", "table")
    assert code == 0
    assert f"  note: {said}" in table.splitlines()
    code, out, _ = _cli(capsys, str(sc), *args)
    summary = json.loads(out.splitlines()[-1])["summary"]
    assert summary["choice"]["ties_own_note"] == said
    # A session the scenario's own point compacts differently: no tie, no sentence.
    busy = tune(Scenario(), [("g", _turns())], ks=(8_000, 16_000), ss=(4_096, 8_192))
    assert busy.ties_own_note("en") is None
