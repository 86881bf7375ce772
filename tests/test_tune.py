"""Tune (docs/tune.md): the grid's rounding, the kernels' agreement on long sessions, the
choice's tie rules and constraints, and the command line."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from budgetcore import cli
from budgetcore.core.scenario import Scenario
from budgetcore.errors import ScenarioError
from budgetcore.registry.prices import Prices
from budgetcore.registry.tiers import PriceTier
from budgetcore.replay.model import ReplayOptions, Turn
from budgetcore.replay.options import parse_options_json
from budgetcore.replay.prepared import prepare
from budgetcore.replay.simulate import replay
from budgetcore.replay.turns import generate, parse_generator
from budgetcore.tune.choice import Constraints, choose, frontier
from budgetcore.tune.engine import grid_of, numpy_exact
from budgetcore.tune.grid import (
    MAX_AXIS,
    default_k,
    default_s,
    log_spaced,
    parse_axis,
)
from budgetcore.tune.measures import GridMeasures
from budgetcore.tune.result import default_axes, scenario_at, tune
from tests.helpers import run_cli

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "tests" / "fixtures" / "logs" / "claude"

# ------------------------------------------------------------------ the grid


class TestLogSpacedAxes:
    def test_the_golden_scenario_has_exactly_24_k_from_4000_to_m_and_16_s_to_o(self) -> None:
        ks, ss = default_axes(Scenario())
        assert len(ks) == 24
        assert (ks[0], ks[-1]) == (4_000, 936_345)
        assert len(ss) == 16
        assert (ss[0], ss[-1]) == (1_024, 65_536)
        assert ss[5] == 4_096  # 1,024 x 64^(5/15) = 4,096 exactly
        assert ss[10] == 16_384

    def test_values_that_round_onto_each_other_move_up_one_token(self) -> None:
        # 1 x 40^(i/11) is 1, 1.40, 1.96, 2.73, ...: the nearest are 1, 1, 2, 3, 4, 5, 7
        assert log_spaced(1, 40, 12) == (1, 2, 3, 4, 5, 6, 7, 10, 15, 20, 29, 40)

    def test_a_range_of_fewer_whole_tokens_gives_every_one(self) -> None:
        assert log_spaced(4_000, 4_005, 24) == (4_000, 4_001, 4_002, 4_003, 4_004, 4_005)
        assert default_k(4_010) == tuple(range(4_000, 4_010 + 1))

    def test_a_small_m_or_o_makes_a_one_value_axis(self) -> None:
        assert default_k(3_000) == (3_000,)
        assert default_k(0) == (0,)
        assert default_s(512) == (512,)


class TestAxisText:
    def test_a_list_is_sorted(self) -> None:
        assert parse_axis("32000, 8000,16000", "--k") == (8_000, 16_000, 32_000)

    def test_grouped_thousands_are_one_value_as_in_every_number_flag(self) -> None:
        # issue 41 cause 4: "8,000" was K = 0 and K = 8
        assert parse_axis("8,000", "--k") == (8_000,)
        assert parse_axis("1,000,000", "--k") == (1_000_000,)
        assert parse_axis(" 16,384 ", "--k") == (16_384,)
        assert parse_axis("99, 100", "--k") == (99, 100)  # a space: a list

    def test_a_range_is_log_spaced_and_may_end_at_m(self) -> None:
        assert parse_axis("1024:65536:7", "--s") == (
            1_024,
            2_048,
            4_096,
            8_192,
            16_384,
            32_768,
            65_536,
        )
        assert parse_axis("4000:M:24", "--k", ("M", 936_345)) == default_k(936_345)

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("5,5", "--k must not repeat a value, got 5"),
            ("8k", '--k each value must be an integer from 0 to 10^12, got "8k"'),
            ("8,00", "--k each value must not start a value with 0"),  # not 8 and 0
            ("8, 000", "--k each value must not start a value with 0"),
            ("8,000,16,000", "--k each value must not start a value with 0"),
            ("0:10:3", "--k must have 1 <= LOW <= HIGH"),
            ("10:5:3", "--k must have 1 <= LOW <= HIGH"),
            ("1:10:0", f"--k COUNT must be an integer from 1 to {MAX_AXIS}"),
            ("1:10:201", f"--k COUNT must be an integer from 1 to {MAX_AXIS}"),
            ("1:10", "--k must be a list A,B,C or a range LOW:HIGH:COUNT"),
            ("1:O:3", '--k HIGH must be an integer from 0 to 10^12, got "O"'),
            (",".join(map(str, range(201))), "--k must list at most 200 values"),
        ],
    )
    def test_a_bad_axis_is_one_problem_naming_the_flag(
        self, text: str, message: str | None
    ) -> None:
        with pytest.raises(ScenarioError) as exc:
            parse_axis(text, "--k", ("M", 936_345))
        assert len(exc.value.problems) == 1
        assert exc.value.one_line().startswith(message or "--k must not repeat")


# ------------------------------------------------------------------ the kernels

PRICES = Prices(
    input=Decimal("0.000003"),
    output=Decimal("0.000015"),
    cache_read=Decimal("0.0000003"),
    cache_write=Decimal("0.00000375"),
    tiers=(PriceTier(above=200_000, input=Decimal("0.000006"), output=Decimal("0.0000225")),),
)


def _session(turns: int = 500, seed: int = 1) -> tuple[Turn, ...]:
    spec = parse_generator(
        {
            "turns": turns,
            "seed": seed,
            "added": {"dist": "uniform", "low": 500, "high": 9_000},
            "burst": {"rate": "0.05", "tokens": {"dist": "uniform", "low": 10_000, "high": 60_000}},
        }
    )
    return generate(spec)


@pytest.mark.parametrize(
    "options",
    [
        ReplayOptions(),
        ReplayOptions(cache=True, stable_prefix_tokens=8_000, main_prices=PRICES),
        ReplayOptions(
            summary_ratio=Decimal("0.25"),
            summary_wrapper_tokens=200,
            failure_rate=Decimal("0.2"),
            failure_seed=7,
            start_history=300_000,
            start_covered=100_000,
            start_summary=20_000,
            main_prices=PRICES,
            summary_prices=PRICES,
        ),
    ],
)
def test_numpy_and_pure_python_agree_on_a_default_grid_over_500_turns(
    options: ReplayOptions,
) -> None:
    scenario = Scenario()
    ks, ss = default_axes(scenario)
    session = prepare(scenario, _session(), options)
    assert numpy_exact(session, ks, ss)
    assert grid_of(session, ks, ss, engine="numpy") == grid_of(session, ks, ss, engine="python")


def test_a_grid_beyond_int64_runs_in_pure_python_with_the_same_values() -> None:
    """A 30-place size ratio multiplies A + new raw by a 30-digit numerator: past 2^63,
    so the numpy engine stands aside; every point still equals its replay."""
    ratio = Decimal("0.333333333333333333333333333333")
    options = ReplayOptions(summary_ratio=ratio)
    turns = _session(60)
    session = prepare(Scenario(), turns, options)
    ks, ss = (4_000, 50_000), (1_024, 8_192)
    assert not numpy_exact(session, ks, ss)
    grid = grid_of(session, ks, ss, engine="numpy")
    assert grid == grid_of(session, ks, ss, engine="python")
    for i in range(grid.points):
        k, s = grid.point(i)
        r = replay(scenario_at(Scenario(), k, s), turns, options).summary
        assert (grid.columns["runs"][i], grid.columns["final_summary"][i]) == (
            r.runs,
            r.final_summary,
        )


def test_an_empty_session_is_refused_as_replay_refuses_it() -> None:
    with pytest.raises(ScenarioError, match="turns must hold at least one turn"):
        prepare(Scenario(), (), None)


# ------------------------------------------------------------------ the choice


def _grid(points: list[dict[str, int]], ks: tuple[int, ...], ss: tuple[int, ...]) -> GridMeasures:
    """A hand-made priced grid: each point's cost (main units), unseen tokens and runs."""
    n = len(points)
    zero = (0,) * n
    cols = {
        key: zero
        for key in (
            "turns",
            "rejected",
            "recompresses",
            "refusals",
            "discarded",
            "turns_at_or_above_k",
            "turns_with_unseen",
            "main_input_tokens",
            "main_cached_tokens",
            "main_output_tokens",
            "summary_input_tokens",
            "summary_output_tokens",
            "peak_full_input",
            "main_safe_input_at_peak",
            "cost_summary_units",
        )
    }
    cols["turns"] = (100,) * n
    cols["cost_main_units"] = tuple(p["cost"] for p in points)
    cols["unseen_tokens"] = tuple(p.get("unseen", 0) for p in points)
    cols["peak_unseen"] = tuple(p.get("peak", 0) for p in points)
    cols["runs"] = tuple(p.get("runs", 0) for p in points)
    cols["unknown_tries"] = tuple(p.get("unknown", 0) for p in points)
    cols["rejected"] = tuple(p.get("rejected", 0) for p in points)
    return GridMeasures(ks, ss, 1, 0, True, MappingProxyType(cols))


class TestChoice:
    def test_the_lowest_cost_wins(self) -> None:
        g = _grid([{"cost": 5}, {"cost": 3}, {"cost": 4}, {"cost": 9}], (1, 2), (10, 20))
        c = choose(g, Constraints())
        assert c is not None
        assert (c.k, c.s, c.decided_by) == (1, 20, "cost")

    @pytest.mark.parametrize(
        ("points", "want", "rule"),
        [
            ([{"cost": 3, "unseen": 5}, {"cost": 3, "unseen": 4}], (1, 20), "unseen_tokens"),
            (
                [{"cost": 3, "unseen": 4, "runs": 2}, {"cost": 3, "unseen": 4, "runs": 1}],
                (1, 20),
                "runs",
            ),
            ([{"cost": 3}, {"cost": 3}], (1, 10), "s"),
        ],
    )
    def test_ties_go_to_fewer_unseen_then_fewer_runs_then_smaller_k_then_s(
        self, points: list[dict[str, int]], want: tuple[int, int], rule: str
    ) -> None:
        c = choose(_grid(points, (1,), (10, 20)), Constraints())
        assert c is not None
        assert ((c.k, c.s), c.decided_by) == (want, rule)

    def test_a_tie_on_everything_else_goes_to_the_smaller_k(self) -> None:
        c = choose(_grid([{"cost": 3}, {"cost": 3}], (1, 2), (10,)), Constraints())
        assert c is not None
        assert ((c.k, c.s), c.decided_by) == ((1, 10), "k")

    def test_a_point_with_unknown_usage_is_never_chosen(self) -> None:
        g = _grid([{"cost": 1, "unknown": 1}, {"cost": 2}], (1,), (10, 20))
        c = choose(g, Constraints())
        assert c is not None
        assert (c.s, c.unknown, c.eligible) == (20, 1, 1)
        assert 0 not in frontier(g)

    def test_constraints_exclude_points_and_say_how_many(self) -> None:
        g = _grid(
            [
                {"cost": 1, "rejected": 1},
                {"cost": 2, "peak": 50},
                {"cost": 3, "runs": 30},
                {"cost": 4, "unseen": 900},
                {"cost": 5},
            ],
            (1,),
            (1, 2, 3, 4, 5),
        )
        strict = Constraints(
            no_rejected=True,
            max_unseen=40,
            max_runs_per_100=Decimal("29.5"),
            max_unseen_total=800,
            max_generations=None,  # quality is tested on its own
            max_compression=None,
        )
        c = choose(g, strict)
        assert c is not None
        assert (c.s, c.broken, c.eligible, c.runner_up) == (5, 4, 1, None)
        assert [strict.broken(g, i) for i in range(4)] == [
            ("no_rejected",),
            ("max_unseen",),
            ("max_runs_per_100",),
            ("max_unseen_total",),
        ]
        assert (
            choose(
                g,
                Constraints(
                    max_unseen_total=0, max_unseen=0, no_rejected=True, max_runs_per_100=Decimal(0)
                ),
            )
            is not None
        )
        assert choose(_grid([{"cost": 1, "rejected": 1}], (1,), (1,)), strict) is None

    def test_the_frontier_is_every_point_nothing_beats_on_both_cost_and_unseen(self) -> None:
        g = _grid(
            [
                {"cost": 1, "unseen": 100},
                {"cost": 2, "unseen": 100},  # beaten by the first
                {"cost": 2, "unseen": 50},
                {"cost": 3, "unseen": 60},  # beaten by the third
                {"cost": 4, "unseen": 0},
            ],
            (1,),
            (1, 2, 3, 4, 5),
        )
        assert frontier(g) == (0, 2, 4)

    def test_the_what_ifs_cost_is_ranked_when_given(self) -> None:
        """Over logs the choice ranks each point's what-if (docs/spec.md §17), the map's
        figure: the grid's cheapest point (cost 1) loses to the cheapest what-if; a
        point whose what-if is unknown is never chosen, nor on the frontier."""
        g = _grid(
            [{"cost": 1, "unseen": 10}, {"cost": 2, "unseen": 10}, {"cost": 3}, {"cost": 4}],
            (1,),
            (1, 2, 3, 4),
        )
        costs = (Decimal("0.50"), Decimal("0.40"), None, Decimal("0.45"))
        grid_choice = choose(g, Constraints())
        assert grid_choice is not None
        assert grid_choice.s == 1
        c = choose(g, Constraints(), costs)
        assert c is not None
        assert (c.s, c.runner_up, c.decided_by, c.unknown, c.eligible) == (2, 3, "cost", 1, 3)
        assert frontier(g, None, costs) == (1, 3)  # 0 is beaten by 1 on both
        assert frontier(g) == (0, 2)


# ------------------------------------------------------------------ the library call


def test_a_tune_adds_sessions_up_and_marks_the_scenario_point() -> None:
    scenario = Scenario()
    sessions = [("a", _session(80, 1)), ("b", _session(40, 2))]
    off = Constraints(max_generations=None, max_compression=None)  # quality apart
    result = tune(scenario, sessions, ks=(8_000, 32_000), ss=(4_096, 8_192), constraints=off)
    assert result.own_index == result.grid.index(32_000, 8_192)
    i = result.own_index
    assert i is not None
    total_runs = sum(replay(scenario, t).summary.runs for _, t in sessions)
    assert result.grid.columns["runs"][i] == result.own.columns["runs"][0] == total_runs
    assert result.sessions == ("a", "b")
    assert result.choice is not None
    chosen = result.chosen_scenario()
    assert chosen is not None
    assert (chosen.config.trigger_tokens, chosen.config.summary_max_tokens) == (
        result.choice.k,
        result.choice.s,
    )


# ------------------------------------------------------------------ the command line

GEN = '{"turns": 120, "seed": 3, "added": {"dist": "uniform", "low": 500, "high": 9000}}'
OPTIONS = (
    '{"cache": true, "stable_prefix_tokens": 8000, "main_prices": {"input": "0.000003", '
    '"output": "0.000015", "cache_read": "0.0000003", "cache_write": "0.00000375"}}'
)


def _tune(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(["tune", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def _scenario_file(tmp_path: Path, data: dict[str, Any] | None = None) -> str:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(data or {}), encoding="utf-8")
    return str(path)


def test_jsonl_prints_every_point_as_its_replay_then_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    opts = tmp_path / "options.json"
    opts.write_text(OPTIONS, encoding="utf-8")
    sc = _scenario_file(tmp_path)
    code, out, _ = _tune(
        capsys,
        sc,
        "--generate",
        GEN,
        "--options",
        str(opts),
        "--k",
        "8000:M:4",
        "--s",
        "2048,8192",
        "--format",
        "jsonl",
    )
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    points, summary = lines[:-1], lines[-1]["summary"]
    assert len(points) == 8
    assert summary["k"] == [8_000, 39_133, 191_420, 936_345]
    assert summary["cost_measure"] == "money"
    turns = generate(parse_generator(json.loads(GEN)))
    options = parse_options_json(OPTIONS)
    for p in points:
        r = replay(scenario_at(Scenario(), p["k"], p["s"]), turns, options).summary
        assert (p["runs"], p["unseen_tokens"] >= 0, p["cost"]) == (r.runs, True, str(r.cost))
        assert Fraction(p["summary_share"]) == Fraction(r.cost_summary) / Fraction(r.cost)
    chosen = [p for p in points if p["chosen"]]
    assert len(chosen) == 1
    assert (chosen[0]["k"], chosen[0]["s"]) == (summary["choice"]["k"], summary["choice"]["s"])
    assert summary["choice"]["export"].startswith("budgetcore export --fragment ")
    assert summary["scenario_point"]["on_grid"] is False


def test_the_export_line_writes_the_chosen_k_and_s(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _tune(capsys, _scenario_file(tmp_path), "--generate", GEN, "--format", "jsonl")
    assert code == 0
    choice = json.loads(out.splitlines()[-1])["summary"]["choice"]
    argv = choice["export"].split(" ", 1)[1]
    assert cli.main(shlex.split(argv)) == 0
    toml = capsys.readouterr().out
    assert f"trigger_tokens = {choice['k']}" in toml
    if choice["s"] != 8_192:  # an export lists only what differs from the defaults
        assert f"summary_max_tokens = {choice['s']}" in toml


def test_the_table_shows_the_grid_the_choice_and_what_it_must_not_be_read_as(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _tune(
        capsys,
        _scenario_file(tmp_path),
        "--generate",
        GEN,
        "--k",
        "8000,32000",
        "--s",
        "8192",
        "--format",
        "table",
        "--max-unseen",
        "0",
        "--max-generations",
        "off",
    )
    assert code == 0
    assert "2 K × 1 S = 2 points" in out
    assert "Choice: K = " in out
    assert "against the scenario's own K = 32,000, S = 8,192" in out
    assert "What this must not be read as: a forecast for other sessions" in out
    assert "Not:" not in out
    own = next(line for line in out.splitlines() if "32,000" in line and "8,192" in line)
    assert own.split()[0].endswith("o")  # the scenario's own K and S is marked


def test_csv_has_a_header_the_points_and_the_summary_as_comments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _tune(
        capsys,
        _scenario_file(tmp_path),
        "--generate",
        GEN,
        "--k",
        "8000,32000",
        "--s",
        "8192",
        "--format",
        "csv",
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("k,s,turns,")
    assert len([x for x in lines[1:] if not x.startswith("#")]) == 2
    assert any(x.startswith("# choice,") for x in lines)


def test_sessions_of_a_folder_add_up_and_an_unreadable_one_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "projects"
    folder.mkdir()
    for name in ("01-plain-2.1", "02-streaming-split", "08-cache-1h"):
        shutil.copy(next((LOGS / name).rglob("*.jsonl")), folder / f"{name}.jsonl")
    (folder / "broken.jsonl").write_text('{"type": "user"}\n', encoding="utf-8")
    sc = _scenario_file(tmp_path)
    code, out, err = _tune(capsys, sc, "--log", str(folder), "--k", "1000,4000", "--s", "1024")
    assert code == 0
    summary = json.loads(out.splitlines()[-1])["summary"]
    assert summary["sessions"] == 3
    assert [s["session"] for s in summary["sessions_not_replayed"]] == ["broken.jsonl"]
    assert "not replayed: broken.jsonl" in err
    code2, out2, _ = _tune(
        capsys, sc, "--log", str(folder), "--k", "1000,4000", "--s", "1024", "--jobs", "2"
    )
    assert code2 == 0
    assert out2 == out  # two processes, the same bytes


def test_one_log_without_a_scenario_takes_its_model(capsys: pytest.CaptureFixture[str]) -> None:
    log = next((LOGS / "01-plain-2.1").rglob("*.jsonl"))
    code, out, _ = _tune(capsys, "--log", str(log), "--k", "1000", "--s", "1024")
    assert code == 0
    summary = json.loads(out.splitlines()[-1])["summary"]
    assert summary["cost_measure"] == "money"  # the registry's prices for the log's model


def _points(out: str) -> list[dict[str, Any]]:
    """The grid's points, without the session names (a folder names its files relative)."""
    return [json.loads(line) for line in out.splitlines()[:-1]]


def test_a_folder_of_one_model_stands_in_for_the_scenario_as_one_file_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/tune.md, "Scenario": a folder whose sessions all ran one model (at one
    window) is tuned under that model, as one file is; the same points as the file."""
    folder = tmp_path / "projects"
    folder.mkdir()
    log = next((LOGS / "01-plain-2.1").rglob("*.jsonl"))
    shutil.copy(log, folder / "a.jsonl")
    grid = ("--k", "1000,4000,9000", "--s", "1024,2048")
    code, out, err = _tune(capsys, "--log", str(folder), *grid)
    assert code == 0, err
    code1, out1, _ = _tune(capsys, "--log", str(log), *grid)
    assert code1 == 0
    assert _points(out) == _points(out1)
    summary = json.loads(out.splitlines()[-1])["summary"]
    assert summary["cost_measure"] == "money"
    # Two sessions of that model (08's) add up under it: no scenario asked for.
    shutil.copy(next((LOGS / "08-cache-1h").rglob("*.jsonl")), folder / "b.jsonl")
    code2, out2, err2 = _tune(capsys, "--log", str(folder), *grid)
    assert code2 == 0, err2
    assert json.loads(out2.splitlines()[-1])["summary"]["sessions"] == 2


def test_a_folder_of_several_models_is_refused_naming_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "projects"
    folder.mkdir()
    for i, name in enumerate(("01-plain-2.1", "08-cache-1h", "17-sonnet-4-20250514")):
        shutil.copy(next((LOGS / name).rglob("*.jsonl")), folder / f"{i}.jsonl")
    code, out, err = _tune(capsys, "--log", str(folder), "--k", "1000", "--s", "1024")
    assert (code, out) == (2, "")
    assert (
        "ran 2 models, by sessions: claude-sonnet-4-5-20250929 ×2, claude-sonnet-4-20250514 ×1"
        in err
    )
    assert "a JSON file, - or --fragment" in err


def test_a_database_of_totals_only_sessions_names_each_not_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Goose database keeps each session's totals: each session is named as not
    replayed, and why; "must hold at least one session" named none of them."""
    folder = ROOT / "tests" / "fixtures" / "logs" / "goose" / "totals"
    code, out, err = _tune(
        capsys, _scenario_file(tmp_path), "--log", str(folder), "--k", "1000", "--s", "1024"
    )
    assert (code, out) == (2, "")
    assert err.count("keeps only per-session totals (Goose records") == 2, err
    assert "at least one session" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("-", "--generate", GEN, "--k", "5,5"), "--k must not repeat a value"),
        (("-", "--generate", GEN, "--s", "0:9:3"), "--s must have 1 <= LOW <= HIGH"),
        (
            ("-", "--generate", GEN, "--k", "1:200:200", "--s", "1:200:200"),
            "grid must hold at most",
        ),
        (("-", "--generate", GEN, "--jobs", "-1"), "--jobs: must be an integer from 0 to 256"),
        (
            ("-", "--generate", GEN, "--max-runs-per-100", "x"),
            "--max-runs-per-100: must be a decimal",
        ),
        (("-", "--generate", GEN, "--max-unseen", "1.5"), "--max-unseen: must be an integer"),
        (("-",), "must come from at least one --turns, --generate or --log"),
        (("--generate", GEN), "scenario is required"),
        (("-", "--generate", '{"turns": 0, "added": 1}'), "turns must be an integer from 1"),
    ],
)
def test_every_bad_flag_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "budgetcore", "tune", *args],
        input="{}",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, lines
    assert message in lines[0]


def test_report_draws_a_map_per_measure_and_the_frontier(tmp_path: Path) -> None:
    turns = tmp_path / "t.jsonl"
    turns.write_text("\n".join('{"added": 9000}' for _ in range(40)), encoding="utf-8")
    out = tmp_path / "review"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "budgetcore",
            "report",
            "-",
            "--turns",
            str(turns),
            "--out",
            str(out),
        ],
        input="{}",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    for name in ("tune-cost", "tune-unseen", "tune-runs", "tune-frontier"):
        assert (out / f"{name}.png").stat().st_size > 0
        assert (out / f"{name}.svg").stat().st_size > 0
    summary = (out / "summary.md").read_text(encoding="utf-8")
    section = summary.partition("## Tune: the K × S map\n")[2]
    assert "384 points (24 K × 16 S)" in section
    assert "| chosen point | value |" in section
    assert section.count("*What this must not be read as: a forecast for other sessions") == 4
    assert "Not:" not in summary
    svg = (out / "tune-cost.svg").read_text(encoding="utf-8")
    assert "billed tokens (no prices given)" in svg  # the colour scale says its unit


def test_the_core_imports_neither_numpy_nor_dask() -> None:
    """The page's Python has no numpy: the pure kernel, the grid, the choice and the
    result import none, and a pure-Python grid runs without it."""
    code = (
        "import sys\n"
        "import budgetcore.tune.result, budgetcore.replay.engine, budgetcore.tune.grid\n"
        "from budgetcore.core.scenario import Scenario\n"
        "from budgetcore.replay.model import Turn\n"
        "r = budgetcore.tune.result.tune(Scenario(), [('a', (Turn(added=9000),) * 20)],"
        " engine='python')\n"
        "print(sorted(m for m in ('numpy', 'dask', 'distributed') if m in sys.modules))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert proc.stdout.strip() == "[]"


TIMED = (
    '{"timing": {"gap_ms": {"dist": "uniform", "low": 2000, "high": 60000}, "duration": '
    '{"prefill_tokens_per_s": "20000", "decode_tokens_per_s": "400"}}, "retries": '
    '{"failure_rate": "0.1", "failure_seed": 3}, "main_prices": {"input": "0.000003", "output": '
    '"0.000015"}}'
)


def test_a_timed_tune_prints_fates_and_never_chooses_unknown_usage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With a clock, S = 20,643 makes every run's try outlast the 30 s model timeout
    (71,000 / 20,000 + 20,643 / 400 s): those points' cost is unknown, shown as null,
    and never chosen."""
    opts = tmp_path / "timed.json"
    opts.write_text(TIMED, encoding="utf-8")
    sc = _scenario_file(tmp_path)
    args = ("--generate", GEN, "--options", str(opts), "--k", "8000,40000", "--s", "2048,20643")
    args = (*args, "--max-generations", "off", "--max-compression", "off")  # quality apart
    code, out, _ = _tune(capsys, sc, *args, "--format", "jsonl")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    points, summary = lines[:-1], lines[-1]["summary"]
    turns = generate(parse_generator(json.loads(GEN)))
    options = parse_options_json(TIMED)
    for p in points:
        r = replay(scenario_at(Scenario(), p["k"], p["s"]), turns, options).summary
        assert (p["published"], p["discarded"], p["abandoned"], p["tries"]) == (
            r.published,
            r.discarded,
            r.abandoned,
            r.tries,
        )
        assert p["cost"] == (None if r.cost is None else str(r.cost))
        assert p["known_usage"] == (r.unknown_tries == 0)
    unknown = [p for p in points if not p["known_usage"]]
    assert {p["s"] for p in unknown} == {20_643}
    assert all(p["cost"] is None and p["billed_tokens"] is None for p in unknown)
    assert summary["choice"]["s"] == 2_048
    assert summary["choice"]["reason"]["unknown_usage"] == 2
    code, table, _ = _tune(capsys, sc, *args, "--format", "table")
    assert "each replayed exactly (spec §12 and §15)" in table
    assert "unknown" in table
    assert "2 points with unknown usage were never candidates" in table


#: A tune whose required input F 1,000,000 lies above M 936,345: every point rejects
#: every turn (the third walk).
_REJECTING = [
    "tune",
    "--fragment",
    "workload.required_tokens=1000000",
    "--generate",
    '{"turns": 3, "added": {"dist": "fixed", "value": 100}}',
]


def test_no_point_that_rejects_every_turn_is_chosen() -> None:
    """The third walk (6 December 2026): with F 1,000,000 above M 936,345, every point
    of the grid rejects every turn, bills 0 tokens, and Tune chose K 4,000, S 1,024 "at
    0 billed tokens". Such a point serves nothing: it is never chosen, and the choice
    says the plan itself rejects the turns."""
    argv = _REJECTING
    done = run_cli(argv)
    assert done.code == 0, done.err
    lines = [json.loads(line) for line in done.out.splitlines()]
    points, summary = lines[:-1], lines[-1]["summary"]
    assert len(points) == 384
    assert all(p["rejected"] == p["turns"] == 3 for p in points)
    assert all("serves_no_turn" in p["broken"] for p in points)
    assert summary["choice"] is None
    table = run_cli([*argv, "--format", "table"]).out
    assert "No point is chosen: each of the 384 points rejects every turn" in table
    # The counts after a colon: "1 break a constraint" read wrong (the third walk).
    none = "Choice: none. Of the 384 points, breaking a constraint: 384; of unknown usage: 0."
    assert none in table
    # One point that serves a turn is enough for a choice: F 900,000 fits under M.
    served = run_cli([*argv[:2], "workload.required_tokens=900000", *argv[3:]])
    chosen = json.loads(served.out.splitlines()[-1])["summary"]["choice"]
    assert chosen is not None


def test_the_cli_and_the_page_count_an_empty_choice_in_one_sentence() -> None:
    """The CLI's "Choice: none." took the page's sentence and cut its head off with
    ``removeprefix``: a reworded head would have left the page's words in the CLI. The
    counts are one catalogue sentence that both put after their own head."""
    from budgetcore.messages import t  # noqa: PLC0415

    counts = {"points": "384", "broken": "384", "unknown": "0"}
    said = t("tune.choice.none-counts", "en", **counts)
    assert said == "Of the 384 points, breaking a constraint: 384; of unknown usage: 0."
    assert t("tune.choice.none", "en", counts=said) == f"No point is chosen. {said}"
    zh = t("tune.choice.none", "zh", counts=t("tune.choice.none-counts", "zh", **counts))
    assert zh == "没有选中的点:384 个点中,384 个违反约束,0 个用量未知。"
    argv = [*_REJECTING, "--format", "table"]
    assert f"Choice: none. {said}" in run_cli(argv).out
