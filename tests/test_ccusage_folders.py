"""Differential test of whole folders: ccusage 20.0.24 against `replay --log DIR`, where
one response is written in more than one session's file (a resumed session writes the
earlier one's responses again; docs/replay.md, "Folders").

ccusage bills each response (message id and request id) once across the folder, by its
best copy: a main copy before a subagent's, then the larger total, then the file first
in path order. Ours: a main copy, then the larger output (SPEC §12's rule within a
file), then the larger total, then the path. The copies of one response have the same
input counts (a later copy only has more output), so the two rules pick the same copy;
the generated copies keep that (docs/replay.md, "Differences from ccusage", has the
made-up case where they would not). Read one file at a time, as
tests/test_ccusage_diff.py does, a copy is billed in both sessions; a folder's total
counted it twice before. Here every session's measured usage and the folder's total
must equal ccusage's, tokens and cost, on generated folders (one model, whose prices
the two tables share) and on the fixtures that hold such copies.
"""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.ccusage import LOGS
from tests.ccusage import run_ccusage as _run
from tests.helpers import run_cli

MODEL = "claude-sonnet-4-20250514"  # priced alike by ccusage and the registry (PRICED)

#: One response: (message id, request id or None, output, cache read, sidechain).
Response = tuple[str, str | None, int, int, bool]


def _line(sid: str, n: int, parent: str | None, r: Response, minute: int) -> str:
    mid, rid, output, read, side = r
    entry: dict[str, Any] = {
        "parentUuid": parent,
        "isSidechain": side,
        "userType": "external",
        "cwd": "/p",
        "sessionId": sid,
        "version": "1.0.80",
        "type": "assistant",
        "uuid": f"{sid}-{n}",
        "timestamp": f"2026-03-05T10:{minute:02d}:00.000Z",
        "message": {
            "id": mid,
            "type": "message",
            "role": "assistant",
            "model": MODEL,
            "content": [{"type": "text", "text": "x"}],
            "usage": {
                "input_tokens": 4,
                "cache_creation_input_tokens": 10,
                "cache_read_input_tokens": read,
                "output_tokens": output,
            },
        },
    }
    if rid is not None:
        entry["requestId"] = rid
    # ccusage reads only lines holding '"usage":{' (compact JSON).
    return json.dumps(entry, separators=(",", ":"))


def _folder(sessions: dict[str, tuple[list[Response], list[Response]]]) -> dict[str, bytes]:
    """Files under projects/: per session (its id: the file's stem, as ccusage names
    it), its main file's responses and its subagent file's."""
    files: dict[str, bytes] = {}
    for path, (main, agent) in sessions.items():
        stem = path.rsplit("/", 1)[-1]
        for rel, responses in (
            (f"{path}.jsonl", main),
            (f"{path}/subagents/agent-a1.jsonl", agent),
        ):
            if not responses:
                continue
            lines, parent = [], None
            for n, r in enumerate(responses):
                lines.append(_line(stem, n, parent, r, n))
                parent = f"{stem}-{n}"
            files[rel] = ("\n".join(lines) + "\n").encode()
    return files


def _ours(tmp: Path, files: dict[str, bytes]) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    for rel, data in files.items():
        dst = tmp / "projects" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(data)
    found = run_cli(["replay", "--log", str(tmp / "projects"), "--usage", "--format", "jsonl"])
    assert found.code == 0, found.err
    sessions, total = {}, {}
    for text in found.out.splitlines():
        row = json.loads(text, parse_float=Decimal)
        if "total" in row:
            total = row["total"]["measured"]
        else:
            stem = row["session"].rsplit("/", 1)[-1].removesuffix(".jsonl")
            sessions[stem] = row["summary"]["log"]
    return sessions, total


def _tokens(m: dict[str, Any]) -> tuple[int, int, int, int]:
    return (m["input"], m["cache_write_5m"] + m["cache_write_1h"], m["cache_read"], m["output"])


def _theirs(s: dict[str, Any]) -> tuple[int, int, int, int]:
    return (s["inputTokens"], s["cacheCreationTokens"], s["cacheReadTokens"], s["outputTokens"])


def _same_cost(ours: str | None, theirs: Any) -> bool:
    return ours is not None and abs(Decimal(ours) - Decimal(str(theirs))) <= Decimal("1e-9")


def compare(tmp: Path, files: dict[str, bytes]) -> dict[str, dict[str, Any]]:
    """Every session and the total equal ccusage's; our sessions (by stem)."""
    theirs = _run("claude", files)
    ours, total = _ours(tmp, files)
    assert _tokens(total) == _theirs(theirs["totals"])
    assert _same_cost(total["cost"], theirs["totals"]["totalCost"]), (total, theirs["totals"])
    listed = {str(s["sessionId"]): s for s in theirs["sessions"]}
    for stem, log in ours.items():
        m = log["measured"]
        if m["requests"] == 0:  # every response of it billed in another session
            assert stem not in listed
            assert log["billed_elsewhere"]
            continue
        assert _tokens(m) == _theirs(listed[stem]), stem
        assert _same_cost(m["cost"], listed[stem]["totalCost"]), stem
        # What is not billed here is said, session by session.
        on = sum(r["replayed"] + r["abandoned"] for f in log["ledger"] for r in f["requests"])
        assert on - m["requests"] == sum(x["requests"] for x in log["billed_elsewhere"])
    assert set(listed) <= set(ours)
    return ours


def _r(mid: str, output: int, read: int = 1000, rid: str | None = "same", side: bool = False):  # type: ignore[no-untyped-def]
    return (mid, f"req-{mid}" if rid == "same" else rid, output, read, side)


CASES: dict[str, dict[str, tuple[list[Response], list[Response]]]] = {
    # A resumed session: the first one's response again, then its own.
    "resumed": {"-p/aaaa": ([_r("m1", 100)], []), "-p/bbbb": ([_r("m1", 100), _r("m2", 7)], [])},
    # Equal copies: the file first in path order bills it, whatever its time.
    "equal, later file first": {"-p/bbbb": ([_r("m1", 100)], []), "-p/aaaa": ([_r("m1", 100)], [])},
    "path order across projects": {
        "-q/aaaa": ([_r("m1", 100)], []),
        "-p/bbbb": ([_r("m1", 100)], []),
    },
    "path order, dash before slash": {
        "a/aaaa": ([_r("m1", 100)], []),
        "a-b/bbbb": ([_r("m1", 100)], []),
    },
    "the larger output wins": {"-p/aaaa": ([_r("m1", 10)], []), "-p/bbbb": ([_r("m1", 500)], [])},
    "a subagent's larger copy loses to a main one": {
        "-p/bbbb": ([_r("m1", 100)], []),
        "-p/aaaa": ([_r("m0", 3)], [_r("m1", 300, side=True)]),
    },
    "no request id: never across files": {
        "-p/aaaa": ([_r("m1", 100, rid=None)], []),
        "-p/bbbb": ([_r("m1", 100, rid=None)], []),
    },
    "the same message, another request": {
        "-p/aaaa": ([_r("m1", 100, rid="r1")], []),
        "-p/bbbb": ([_r("m1", 100, rid="r2")], []),
    },
    "copies within a file and across": {
        "-p/aaaa": ([_r("m1", 10), _r("m1", 100)], []),
        "-p/bbbb": ([_r("m1", 300), _r("m1", 10)], []),
    },
    "three sessions, a chain of resumes": {
        "-p/aaaa": ([_r("m1", 10), _r("m2", 20)], []),
        "-p/bbbb": ([_r("m1", 10), _r("m2", 20), _r("m3", 30)], []),
        "-p/cccc": ([_r("m1", 10), _r("m2", 20), _r("m3", 30), _r("m4", 40)], []),
    },
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_folder_bills_each_response_once_as_ccusage_does(case: str, tmp_path: Path) -> None:
    ours = compare(tmp_path, _folder(CASES[case]))
    if case == "resumed":
        assert ours["bbbb"]["billed_elsewhere"] == [{"session": "-p/aaaa.jsonl", "requests": 1}]
        assert ours["aaaa"]["billed_elsewhere"] == []


def _random_folder(rng: random.Random) -> dict[str, tuple[list[Response], list[Response]]]:
    pool = [f"m{i}" for i in range(5)]
    # A response has a request id in every copy or in none (a gateway writes none), and
    # the same input counts in every copy (only the output grows as it streams).
    rids = {mid: rng.choice(["same", "same", "same", None]) for mid in pool}
    reads = {mid: rng.choice([0, 1000, 5000]) for mid in pool}
    sessions = {}
    for name in rng.sample(["-p/aaaa", "-p/bbbb", "-q/cccc", "-p/dddd"], rng.randint(2, 4)):

        def some() -> list[Response]:
            return [
                _r(
                    mid,
                    rng.choice([10, 100, 100, 300]),
                    read=reads[mid],
                    rid=rids[mid],
                )
                for mid in rng.choices(pool, k=rng.randint(1, 4))  # copies within a file too
            ]

        agent = some() if rng.random() < 0.3 else []
        sessions[name] = (some(), [(m, r, o, c, True) for m, r, o, c, _ in agent])
    return sessions


@pytest.mark.parametrize("seed", range(30))
def test_generated_folders_bill_as_ccusage_does(seed: int, tmp_path: Path) -> None:
    compare(tmp_path, _folder(_random_folder(random.Random(seed))))


@pytest.mark.parametrize("fixture", ["14-resume-copy", "22-crossfile-bigger-wins"])
def test_the_fixture_folders_with_copies_bill_as_ccusage_does(fixture: str, tmp_path: Path) -> None:
    base = LOGS / "claude" / fixture / "projects"
    files = {p.relative_to(base).as_posix(): p.read_bytes() for p in base.rglob("*.jsonl")}
    theirs = _run("claude", files)
    ours, total = _ours(tmp_path, files)
    assert _tokens(total) == _theirs(theirs["totals"])
    assert _same_cost(total["cost"], theirs["totals"]["totalCost"])
    assert any(log["billed_elsewhere"] for log in ours.values())
