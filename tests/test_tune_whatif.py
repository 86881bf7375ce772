"""``tune --log F``: every point also as a what-if on the session's as-run baseline
(docs/spec.md §17, "Tune's points are what-ifs against the as-run baseline of each
session ... its delta from the as-run model is shown beside it"): ``what_if_cost`` and
``delta_from_as_run`` on each JSON Lines and CSV row, held to the chosen point's exact
what-if (``choice.what_if``, read from the same per-point pass), and that to the replay's
own what-if of the chosen K and S (``replay --log F``: a full replay with its rows, a
path of its own)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "tests" / "fixtures" / "logs"


def _tune(*args: str, command: str = "tune") -> str:
    out = subprocess.run(
        [sys.executable, "-m", "budgetcore", command, *args],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return out.stdout


def _main_file(fixture: str) -> str:
    return str(min((LOGS / fixture).rglob("*.jsonl"), key=lambda p: (len(p.parts), p)))


@pytest.mark.parametrize("fixture", ["claude/12-compact-preserved-2.1", "codex/compaction"])
def test_every_point_carries_its_what_if_and_its_change_from_the_as_run_model(
    fixture: str,
) -> None:
    lines = [json.loads(x) for x in _tune("--log", _main_file(fixture)).splitlines()]
    rows, summary = lines[:-1], lines[-1]["summary"]
    w = summary["choice"]["what_if"]
    base = Decimal(w["as_run_modelled_cost"])
    assert base == Decimal(summary["as_run"][0]["modelled_cost"])
    deltas = set()
    for row in rows:
        cost, delta = Decimal(row["what_if_cost"]), Decimal(row["delta_from_as_run"])
        assert cost - base == delta  # exact decimals, the same scope as the backtest
        deltas.add(delta)
        if row["chosen"]:
            assert row["what_if_cost"] == w["modelled_cost"]
            assert row["delta_from_as_run"] == w["delta"]["total"]
    assert sum(r["chosen"] for r in rows) == 1
    assert len(rows) == 24 * 16
    assert len(deltas) > 1  # each point its own what-if, never one figure for all


def test_the_csv_has_the_same_two_columns() -> None:
    text = _tune("--log", _main_file("claude/12-compact-preserved-2.1"), "--format", "csv")
    body = "\n".join(x for x in text.splitlines() if not x.startswith("#"))
    rows = list(csv.DictReader(io.StringIO(body)))
    assert len(rows) == 24 * 16
    assert all(r["what_if_cost"] and r["delta_from_as_run"] for r in rows)


def test_turns_without_a_log_have_no_what_if_fields() -> None:
    generated = '{"turns": 20, "seed": 1, "added": {"dist": "uniform", "low": 1000, "high": 9000}}'
    text = _tune("--fragment", "config.trigger_tokens=40000", "--generate", generated)
    row = json.loads(text.splitlines()[0])
    assert "what_if_cost" not in row
    assert "delta_from_as_run" not in row


def test_the_table_shows_each_points_what_if_and_its_change() -> None:
    log = _main_file("claude/12-compact-preserved-2.1")
    table = _tune("--log", log, "--format", "table").splitlines()
    head = next(x for x in table if x.strip().startswith("K "))
    assert head.split()[-4:] == ["what-if", "Δ", "as", "run"]
    summary = json.loads(_tune("--log", log).splitlines()[-1])["summary"]
    total = Decimal(summary["choice"]["what_if"]["delta"]["total"])
    chosen = next(x for x in table if x.startswith("  *"))
    sign = "±" if total == 0 else "+" if total > 0 else "−"
    assert chosen.split()[-1] == f"{sign}${abs(total)}"


def test_no_change_from_the_as_run_model_is_plus_or_minus_zero_in_the_cli() -> None:
    """Walk of December 2026 (issue 42): the CLI's what-if of a point equal to the as-run
    model read "+$0.00 from the as-run model (±0.0 %)" and "+$0.00" for each item, where
    the page says "±$0.00"; so did tune's "Δ as run" column and its choice line."""
    folder = str(LOGS / "claude" / "05-subagents-dir-2.1")
    replayed = _tune("--log", folder, "--format", "table", command="replay")
    (line,) = [x for x in replayed.splitlines() if x.startswith("What if ")]
    assert "±$0.00 from the as-run model (±0.0 %)" in line, line
    assert line.count("±$0.00") == 6, line  # the total and its five items
    assert "+$0.00" not in replayed
    one = _main_file("claude/05-subagents-dir-2.1")
    tuned = _tune("--log", one, "--k", "32000,40000", "--s", "8192", "--format", "table")
    rows = [x for x in tuned.splitlines() if x.strip().endswith("$0.00")]
    assert [r.split()[-1] for r in rows] == ["±$0.00", "±$0.00"], tuned
    assert "$0.06784275, ±$0.00 from the as-run model (±0.0 %)" in tuned
    assert "+$0.00" not in tuned


#: A log's clock with the engine's durations (docs/spec.md §15): the timed what-if.
TIMED = '{"timing": {"duration": {"prefill_tokens_per_s": "20000", "decode_tokens_per_s": "400"}}}'


@pytest.mark.parametrize(
    ("fixture", "timed"),
    [
        ("claude/12-compact-preserved-2.1", False),
        ("codex/compaction", False),
        ("timed", True),
    ],
)
def test_the_chosen_points_what_if_is_the_replays_at_that_k_and_s(
    fixture: str, timed: bool, tmp_path: Path
) -> None:
    """``choice.what_if`` is read from the per-point pass (no log is read again): it is
    what ``replay --log F`` says of the chosen K and S (its scenario is the choice's
    ``fragment``), item by item, with the log's clock when the options give one."""
    log = _main_file(fixture)
    extra: tuple[str, ...] = ()
    if timed:
        opts = tmp_path / "timed.json"
        opts.write_text(TIMED)
        extra = ("--options", str(opts))
    grid = ("--k", "8000,40000,120000", "--s", "2048,8192")
    summary = json.loads(_tune("--log", log, *grid, *extra).splitlines()[-1])["summary"]
    choice = summary["choice"]
    mine = choice["what_if"]
    out = _tune(
        "--log",
        log,
        "--fragment",
        choice["fragment"],
        "--format",
        "jsonl",
        *extra,
        command="replay",
    )
    last = json.loads(out.splitlines()[-1])
    theirs = last.get("summary", last)["what_if"]
    assert (theirs["trigger_tokens"], theirs["summary_max_tokens"]) == (choice["k"], choice["s"])
    assert Decimal(mine["modelled_cost"]) == Decimal(theirs["modelled_cost"])
    assert Decimal(mine["as_run_modelled_cost"]) == Decimal(theirs["as_run_modelled_cost"])
    assert {k: Decimal(v) for k, v in mine["delta"].items()} == {
        k: Decimal(v) for k, v in theirs["delta"].items()
    }
    assert mine["generations"] == theirs["generations"]
    assert mine["sessions"] == 1


def _rank(row: dict[str, Any]) -> tuple[Decimal, int, int, int, int]:
    """The choice's order (docs/spec.md §16) on the what-if's cost, from a row alone."""
    runs = row["runs"] + row["recompresses"]
    return (Decimal(row["what_if_cost"]), row["unseen_tokens"], runs, row["k"], row["s"])


@pytest.mark.parametrize(
    "fixture",
    ["claude/27-asrun-backtest", "claude/02-streaming-split", "claude/31-asrun-thinking"],
)
def test_the_choice_ranks_the_what_if_the_map_shows(fixture: str) -> None:
    """Over a log the choice ranks each point's what-if on the as-run baseline (spec
    §17), the figure of the ``what_if_cost`` column and the page's cost map, not the
    grid's bill of the main series: on these logs the two disagree (on 27 the grid's
    cheapest allowed point's what-if is $1.80874860, the chosen one's $1.76955915), and
    the chosen row is the cheapest allowed row by its what-if, as is the frontier."""
    lines = [json.loads(x) for x in _tune("--log", _main_file(fixture)).splitlines()]
    rows, summary = lines[:-1], lines[-1]["summary"]
    allowed = [r for r in rows if r["known_usage"] and not r["broken"]]
    by_what_if = min(allowed, key=_rank)
    by_grid = min(allowed, key=lambda r: (Decimal(r["cost"]), *_rank(r)[1:]))
    assert by_grid is not by_what_if  # the fixture tells the two rankings apart
    (chosen,) = (r for r in rows if r["chosen"])
    assert chosen is by_what_if
    assert summary["choice"]["reason"]["ranks"] == "what_if_cost"
    assert summary["choice"]["what_if"]["modelled_cost"] == chosen["what_if_cost"]
    # The frontier: no known point is cheaper by its what-if and leaves fewer unseen.
    known = [r for r in rows if r["known_usage"]]
    front = {(r["k"], r["s"]) for r in rows if r["frontier"]}
    best: set[tuple[int, int]] = set()
    least = None
    for r in sorted(known, key=_rank):
        if least is None or r["unseen_tokens"] < least:
            best.add((r["k"], r["s"]))
            least = r["unseen_tokens"]
    assert front == best


def test_the_cli_says_a_choice_at_m_as_the_page_does() -> None:
    """The fourth walk: on Codex's compaction log Tune chooses K = M (237,427). The
    page's choice says what that K means (tune.binds.at-m); the CLI's table and JSON
    said nothing. Both now carry the page's sentence."""
    from budgetcore.messages import t  # noqa: PLC0415
    from tests.helpers import run_cli  # noqa: PLC0415

    (log,) = (LOGS / "codex" / "compaction").rglob("*.jsonl")
    # Then why it was chosen: on this log it still starts one summary call.
    said = f"{t('tune.binds.at-m', 'en', k='237,427')} {t('tune.binds.at-m-runs.one', 'en')}"
    table = run_cli(["tune", "--log", str(log), "--format", "table"])
    assert table.code == 0, table.err
    assert f"  note: {said}\n" in table.out
    out = run_cli(["tune", "--log", str(log), "--format", "jsonl"])
    choice = json.loads(out.out.splitlines()[-1])["summary"]["choice"]
    assert (choice["k"], choice["at_m_note"]) == (237_427, said)
    other = next((LOGS / "claude" / "01-plain-2.1").rglob("*.jsonl"))
    plain = run_cli(["tune", "--log", str(other)])
    assert "is M, the main request's safe input" not in plain.out


def _replay_sessions(folder: Path, *args: str) -> list[dict[str, Any]]:
    out = _tune("--log", str(folder), "--format", "jsonl", *args, command="replay")
    # Each session's summary, with its name (the line's own key) in it.
    lines = map(json.loads, out.splitlines())
    return [
        {**d["summary"], "session": d["session"]}
        for d in lines
        if isinstance(d.get("summary"), dict)
    ]


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("fixture", ["claude/14-resume-copy", "claude/22-crossfile-bigger-wins"])
def test_a_folders_tune_bills_each_response_once_as_its_replay_does(
    fixture: str, jobs: str
) -> None:
    """Issue 40 (the fifteenth walk's leftover): a resumed Claude Code session holds the
    earlier session's responses again. ``replay --log FOLDER`` bills each once (the
    later copy's backtest and what-if leave it out); ``tune --log FOLDER`` backtested
    each session whole, so its as-run line said $0.015999 measured for the resumed
    session of 14 where the replay says $0.006987, and its what-ifs summed the copies
    twice. Tune's as-run entries, its total and its chosen what-if are now the
    replay's, session by session and summed, whether its sessions run here or in
    workers (which send back their ids; the parent runs the resumed one again)."""
    folder = LOGS / fixture
    grid = ("--k", "8000,40000,120000", "--s", "2048,8192")
    out = _tune("--log", str(folder), *grid, "--jobs", jobs)
    summary = json.loads(out.splitlines()[-1])["summary"]
    sessions = _replay_sessions(folder)
    assert [(a["session"], a["measured_cost"], a["modelled_cost"]) for a in summary["as_run"]] == [
        (s["session"], s["as_run"]["measured_cost"], s["as_run"]["modelled_cost"]) for s in sessions
    ]
    assert any(s["as_run"]["requests_billed_elsewhere"] for s in sessions)  # the point
    choice = summary["choice"]
    mine = choice["what_if"]
    theirs = _replay_sessions(folder, "--fragment", choice["fragment"])
    assert all(
        (s["what_if"]["trigger_tokens"], s["what_if"]["summary_max_tokens"])
        == (choice["k"], choice["s"])
        for s in theirs
    )
    assert Decimal(mine["modelled_cost"]) == sum(
        Decimal(s["what_if"]["modelled_cost"]) for s in theirs
    )
    assert Decimal(mine["as_run_modelled_cost"]) == sum(
        Decimal(s["as_run"]["modelled_cost"]) for s in sessions
    )


@pytest.mark.parametrize("fixture", ["claude/14-resume-copy", "claude/22-crossfile-bigger-wins"])
def test_a_folders_tune_says_how_many_requests_another_session_bills(fixture: str) -> None:
    """Issue 40: tune's as-run bill leaves out what another session of the folder bills,
    as the replay's does, and said nothing of it: its figures then read as a session's
    whole bill. Each session's JSON (and CSV) ``as_run`` entry carries the replay's
    ``requests_billed_elsewhere``, and the table says it under that session's line, in
    the page's sentence."""
    folder = LOGS / fixture
    grid = ("--k", "8000,40000", "--s", "2048")
    summary = json.loads(_tune("--log", str(folder), *grid).splitlines()[-1])["summary"]
    sessions = _replay_sessions(folder)
    theirs = [(s["session"], s["as_run"]["requests_billed_elsewhere"]) for s in sessions]
    assert [(a["session"], a["requests_billed_elsewhere"]) for a in summary["as_run"]] == theirs
    assert any(n for _, n in theirs)  # the point: some session's requests are elsewhere
    text = _tune("--log", str(folder), *grid, "--format", "csv")
    said = next(x for x in text.splitlines() if x.startswith("# as_run,"))
    entries = json.loads(said.removeprefix("# as_run,"))
    assert [(a["session"], a["requests_billed_elsewhere"]) for a in entries] == theirs
    table = _tune("--log", str(folder), *grid, "--format", "table").splitlines()
    from budgetcore.messages import count  # noqa: PLC0415

    for name, n in theirs:
        at = next(i for i, x in enumerate(table) if x.startswith(f"As run: {name}: "))
        under = table[at + 1].strip()
        if n:
            assert under == count("tune.asrun-elsewhere", n, "en")
        else:
            assert not under.startswith(count("tune.asrun-elsewhere", 1, "en")[:2])


@pytest.mark.parametrize("layout", ["files", "folders"])
@pytest.mark.parametrize("fixture", ["claude/14-resume-copy", "claude/22-crossfile-bigger-wins"])
def test_several_log_paths_are_one_import_billed_as_one_folder(
    fixture: str, layout: str, tmp_path: Path
) -> None:
    """Issue 40: each ``--log`` path was an import of its own, so a resumed session in
    one folder and the session it resumed in another (or the two files given one by
    one) both billed the responses they share: the resumed session's as-run line said
    its whole bill, and every what-if summed the copies twice. The paths of one tune
    are now one import: each session's as-run entry is what ``replay --log`` says of it
    in one folder holding them all (``replay`` takes one ``--log``), billed elsewhere
    included, whatever order the paths are given in."""
    files = sorted((LOGS / fixture).rglob("*.jsonl"))
    both = tmp_path / "both"
    paths = []
    for i, f in enumerate(files):
        # Each file in a folder of its own (a, b), the agent's layout kept under it.
        home = tmp_path / "ab"[i]
        at = home / f.relative_to(LOGS / fixture)
        at.parent.mkdir(parents=True)
        at.write_bytes(f.read_bytes())
        (both / "ab"[i] / f.relative_to(LOGS / fixture)).parent.mkdir(parents=True)
        (both / "ab"[i] / f.relative_to(LOGS / fixture)).write_bytes(f.read_bytes())
        paths.append(str(at if layout == "files" else home))
    grid = ("--k", "8000,40000", "--s", "2048", "--fragment", "main_model.model=claude-sonnet-4-5")
    sessions = _replay_sessions(both)
    want = [
        (
            s["as_run"]["measured_cost"],
            s["as_run"]["modelled_cost"],
            s["as_run"]["requests_billed_elsewhere"],
        )
        for s in sessions
    ]
    assert any(n for _, _, n in want)  # the point: a response is in both paths
    for order in (paths, paths[::-1]):
        args = [a for p in order for a in ("--log", p)]
        summary = json.loads(_tune(*args, *grid).splitlines()[-1])["summary"]
        got = [
            (a["measured_cost"], a["modelled_cost"], a["requests_billed_elsewhere"])
            for a in summary["as_run"]
        ]
        assert got == (want if order == paths else want[::-1])
        mine = summary["choice"]["what_if"]
        theirs = _replay_sessions(both, "--fragment", summary["choice"]["fragment"])
        assert Decimal(mine["modelled_cost"]) == sum(
            Decimal(s["what_if"]["modelled_cost"]) for s in theirs
        )


def test_a_session_another_bills_runs_again_in_the_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 40: a session another of its import bills responses of is run again for its
    backtest and what-ifs with them left out. The parent ran each of those one after
    another while the workers waited: a folder of 20 sessions, 10 of them resumed, spent
    10.9 s of CPU in the parent of 23.6 (``--jobs 2``, docs/tune.md "Speed"). They now
    run in the workers, the grid kept, with the same results as in one process."""
    import os  # noqa: PLC0415

    from budgetcore.cli.tune_cmds import runners  # noqa: PLC0415
    from budgetcore.core.scenario import Scenario  # noqa: PLC0415

    calls = tmp_path / "calls"
    real = runners.work

    def work(*args: Any) -> Any:
        task = args[0]
        again = len(args) > 2 or getattr(task, "grid", None) is not None
        with calls.open("a", encoding="utf-8") as f:  # a worker's memory is its own
            f.write(f"{os.getpid()} {int(again)}\n")
        return real(*args)

    monkeypatch.setattr(runners, "work", work)
    # Two resumed sessions (one alone would run here: a pool of one saves nothing).
    files = [
        f
        for fixture in ("14-resume-copy", "22-crossfile-bigger-wins")
        for f in sorted((LOGS / "claude" / fixture).rglob("*.jsonl"))
    ]
    tasks = [runners.Task(f.name, files=(str(f),), group=0) for f in files]
    job = runners.Job(Scenario(), None, (8_000, 40_000), (2_048,), (32_000, 8_192))
    here = runners.run_tasks(tasks, job)
    calls.unlink()
    workers = runners.run_tasks(tasks, job, jobs=2)
    said = [line.split() for line in calls.read_text(encoding="utf-8").splitlines()]
    assert workers == here
    elsewhere = [d.backtest[-1] for d in workers if d.backtest]
    assert sorted(elsewhere) == [0, 0, 1, 1]
    assert [again for _, again in said].count("1") == 2  # each resumed session, once
    assert all(pid != str(os.getpid()) for pid, _ in said)  # none in this process
