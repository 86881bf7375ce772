"""``replay --log A --log B``: several paths read as one import, the one folder holding
them all (issue 40; docs/replay.md, "Several paths"). ``replay`` took one ``--log``
(argparse kept the last one given, the others unread without a word), so a resumed
Claude Code session in one folder and its parent in another could only be replayed
together from one folder."""

from __future__ import annotations

import json
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from budgetcore.ui.events import ReplayLogsLoaded, ReplaySourceChosen
from budgetcore.ui.update import initial_state, reduce
from tests.helpers import assert_clean, run_cli

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
FIXTURES = ("claude/14-resume-copy", "claude/22-crossfile-bigger-wins")


def _split(fixture: str, tmp_path: Path) -> tuple[Path, list[Path], list[Path]]:
    """The fixture's session files, each under a folder of its own (a, b) of one folder
    holding both (the agent's layout kept under each): that folder, the files, the
    two folders."""
    both = tmp_path / "both"
    files, folders = [], []
    for i, f in enumerate(sorted((LOGS / fixture).rglob("*.jsonl"))):
        home = both / "ab"[i]
        at = home / f.relative_to(LOGS / fixture)
        at.parent.mkdir(parents=True)
        at.write_bytes(f.read_bytes())
        files.append(at)
        folders.append(home)
    return both, files, folders


def _replay(paths: list[Path], *args: str) -> tuple[str, str]:
    result = run_cli(["replay", *(a for p in paths for a in ("--log", str(p))), *args])
    assert_clean(result, (0,))
    return result.out, result.err


def _measured(out: str) -> list[tuple[int, Decimal, int]]:
    """Each session's measured requests and cost, and the requests another bills, of
    ``replay --format jsonl``'s output (one session's, or a folder's)."""
    logs = [
        d["summary"]["log"]
        for d in map(json.loads, out.splitlines())
        if isinstance(d.get("summary"), dict)
    ]
    return [
        (
            x["measured"]["requests"],
            Decimal(x["measured"]["cost"]),
            sum(b["requests"] for b in x["billed_elsewhere"]),
        )
        for x in logs
    ]


@pytest.mark.parametrize("layout", ["files", "folders", "file-and-folder"])
@pytest.mark.parametrize("fixture", FIXTURES)
def test_several_paths_read_as_the_one_folder_holding_them(
    fixture: str, layout: str, tmp_path: Path
) -> None:
    """Byte for byte what ``replay --log`` says of one folder holding every path, in
    every format, with --usage too, whatever order the paths come in: each session
    named by its path in that folder, each response billed once across them (the
    resumed session's copy of its parent's response is billed by the parent)."""
    both, files, folders = _split(fixture, tmp_path)
    paths = {
        "files": files,
        "folders": folders,
        "file-and-folder": [files[0], folders[1]],
    }[layout]
    for fmt in ("jsonl", "csv", "table"):
        for usage in ((), ("--usage",)):
            want, _ = _replay([both], "--format", fmt, *usage)
            for order in (paths, paths[::-1]):
                got, err = _replay(order, "--format", fmt, *usage)
                assert got == want, (fmt, usage)
                assert "read once" not in err
    together = _measured(_replay(paths, "--format", "jsonl")[0])
    alone = [m for f in files for m in _measured(_replay([f], "--format", "jsonl")[0])]
    # The point: a response in both paths, billed once across them (another session
    # bills it), where each file read alone bills it.
    assert sum(n for n, _, _ in together) < sum(n for n, _, _ in alone)
    assert any(e for _, _, e in together)
    assert not any(e for _, _, e in alone)


@pytest.mark.parametrize("fixture", FIXTURES)
def test_a_file_given_twice_or_beside_its_folder_is_read_once_and_said(
    fixture: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _split(fixture, tmp_path)
    monkeypatch.chdir(tmp_path)
    both = Path("both")
    files = sorted(both.rglob("*.jsonl"))
    a, b = both / "a", both / "b"
    want, _ = _replay([both], "--format", "jsonl")
    said = "note: --log {} gives 1 of the files --log {} gave: each is read once\n"
    for paths, note in (
        ([files[0], files[0], b], said.format(files[0], files[0])),
        ([both, files[1]], said.format(files[1], both)),
        ([b, both], said.format(both, b)),
        (
            [a, b, a],
            "note: --log both/a gives 1 of the files --log both/a gave: each is read once\n",
        ),
    ):
        got, err = _replay(paths, "--format", "jsonl")
        assert got == want
        assert err == note


def test_a_file_no_layout_places_is_read_as_given_alone(tmp_path: Path) -> None:
    """A file given is read by its content, whatever its name, as it is alone: a
    Gemini CLI chat (.json) and an OpenCode database named x.db beside a Claude Code
    folder, where one folder holding them would leave both out as files no agent
    writes."""
    _both, files, _folders = _split(FIXTURES[0], tmp_path)
    chat = next((LOGS / "gemini" / "json").rglob("*.json"))
    shutil.copy(chat, tmp_path / "chat.json")
    shutil.copy(LOGS / "opencode" / "v2" / "opencode" / "opencode.db", tmp_path / "x.db")
    given = [tmp_path / "chat.json", tmp_path / "x.db", files[0]]
    out, err = _replay(given, "--format", "jsonl")
    assert "not read" not in err
    names = [
        d["session"]
        for d in map(json.loads, out.splitlines())
        if isinstance(d.get("summary"), dict)
    ]
    assert names == [
        "both/a/projects/-home-user-proj/eeeeeeee-eeee-4eee-8eee-eeeeeeeeeee1.jsonl",
        "chat.json",
        "x.db#ses_ffffffffffffffffffffffffff",
    ]
    alone = [_measured(_replay([p], "--format", "jsonl")[0]) for p in given]
    assert _measured(out) == [alone[2][0], alone[0][0], alone[1][0]]


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["-"], "--log reads standard input or a pipe only as the one --log path"),
        (["missing.jsonl"], "log file missing.jsonl cannot be read: No such file or directory"),
    ],
)
def test_what_cannot_be_one_of_several_paths_is_refused(
    given: list[str], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _both, files, _folders = _split(FIXTURES[0], tmp_path)
    monkeypatch.chdir(tmp_path)
    args = [a for p in (str(files[0]), *given) for a in ("--log", p)]
    result = run_cli(["replay", *args, "--format", "jsonl"])
    assert_clean(result, (2,))
    assert result.err.startswith(said), result.err
    series = run_cli(["replay", "--log", str(files[0]), "--log", str(files[1]), "--series", "x"])
    assert_clean(series, (2,))
    assert "not a folder, a database of sessions or several paths" in series.err


def test_the_help_says_log_is_repeatable_for_replay_and_not_for_report() -> None:
    replay = run_cli(["replay", "--help"])
    assert "repeatable: several paths are read as one folder holding them all" in " ".join(
        replay.out.split()
    )
    report = run_cli(["report", "--help"])
    assert "repeatable" not in report.out


@pytest.mark.parametrize("fixture", FIXTURES)
def test_the_pages_files_picked_together_are_the_clis_several_paths(
    fixture: str, tmp_path: Path
) -> None:
    """The page's files picked together (the file box: names alone) are one import as
    the CLI's several --log paths are: each session's measured usage, cost and the
    requests another session bills are the same on both."""
    _both, files, _folders = _split(fixture, tmp_path)
    state = reduce(initial_state(), ReplaySourceChosen("log"))
    state = reduce(state, ReplayLogsLoaded(tuple((f.name, f.read_bytes()) for f in files)))
    page = [
        (x.measured.requests, x.measured.cost, sum(n for _, n in x.elsewhere))
        for x in state.replay.logs
        if x.measured is not None
    ]
    assert page == _measured(_replay(files, "--format", "jsonl")[0])
    assert any(e for _, _, e in page)
