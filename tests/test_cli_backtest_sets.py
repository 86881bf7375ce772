"""A log's backtest sets the replay's prompt cache and stable prefix (docs/spec.md §17):
the CLI says which values of an options file it therefore did not use, never silently
(issue 42, the eighth walk's leftovers)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run_cli

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
_CLAUDE = LOGS / "claude" / "27-asrun-backtest" / "projects" / "-home-user-proj"
#: A Claude Code session whose first request read 17,000 tokens from the cache.
CLAUDE = _CLAUDE / "dddddddd-dddd-4ddd-8ddd-000000002701.jsonl"
OPTIONS = {"cache": False, "stable_prefix_tokens": 1}


def _options(tmp_path: Path, obj: object) -> str:
    path = tmp_path / "options.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    return str(path)


def run(*argv: str) -> tuple[int, str, str]:
    result = run_cli(list(argv))
    return result.code, result.out, result.err


def _notes(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("note: ")]


@pytest.mark.parametrize("command", ["replay", "tune"])
def test_options_a_logs_backtest_sets_are_named_as_not_used(command: str, tmp_path: Path) -> None:
    """`replay --log F --options FILE` with {"cache": false, "stable_prefix_tokens": 1}
    printed exactly what it printed without them, and said nothing (the eighth walk)."""
    plain = run(command, "--log", str(CLAUDE), "--format", "jsonl")
    given = run(
        command, "--log", str(CLAUDE), "--options", _options(tmp_path, OPTIONS), "--format", "jsonl"
    )
    assert given[0] == plain[0] == 0, given[2]
    assert given[1] == plain[1]  # the backtest's cache and prefix, whatever given
    assert _notes(plain[2]) == []
    assert _notes(given[2]) == [
        "note: This log's backtest sets the prompt cache and the stable prefix: cache on, "
        "stable prefix 17,000 tokens (what the session's first request read). "
        'Not used from --options: "cache": false, "stable_prefix_tokens": 1.'
    ]


@pytest.mark.parametrize(
    ("given", "named"),
    [
        ({"cache": False}, '"cache": false'),
        ({"stable_prefix_tokens": 8_000}, '"stable_prefix_tokens": 8000'),
        ({"cache": True, "stable_prefix_tokens": 1}, '"stable_prefix_tokens": 1'),
        # What the backtest sets anyway is no value left unused.
        ({"cache": True}, None),
        ({"stable_prefix_tokens": 17_000}, None),
        ({"failure_rate": 0}, None),
    ],
)
def test_only_the_values_the_backtest_sets_otherwise_are_named(
    given: dict[str, object], named: str | None, tmp_path: Path
) -> None:
    code, _out, err = run("replay", "--log", str(CLAUDE), "--options", _options(tmp_path, given))
    assert code == 0, err
    if named is None:
        assert _notes(err) == []
        return
    (note,) = _notes(err)
    assert note.endswith(f"Not used from --options: {named}.")


def test_a_folder_says_each_session_sets_its_own(tmp_path: Path) -> None:
    proc = run("replay", "--log", str(_CLAUDE), "--options", _options(tmp_path, OPTIONS))
    assert proc[0] == 0, proc[2]
    (note,) = _notes(proc[2])
    assert "Each log's backtest sets" in note
    assert note.endswith('Not used from --options: "cache": false, "stable_prefix_tokens": 1.')


def test_a_provider_with_no_cache_rules_is_said_as_such(tmp_path: Path) -> None:
    gemini = next((LOGS / "gemini" / "jsonl").rglob("*.jsonl"))
    code, _out, err = run("replay", "--log", str(gemini), "--options", _options(tmp_path, OPTIONS))
    assert code == 0, err
    (note,) = _notes(err)
    assert "no cache rules of this provider (Google) are recorded" in note
    assert "cache on, stable prefix 0 tokens" not in note


@pytest.mark.parametrize("command", ["replay", "tune"])
@pytest.mark.parametrize(("given", "named"), [({"cache": True}, True), ({"cache": False}, False)])
def test_a_provider_with_no_cache_rules_is_replayed_with_the_cache_off(
    command: str, given: dict[str, bool], named: bool, tmp_path: Path
) -> None:
    """A Gemini CLI log is backtested with every context uncached (no cache rules of
    Google are recorded), and its replay now prices its requests the same way: it ran
    with the cache on, a figure of another scope beside the backtest's. So a written
    ``"cache": true`` is the value not used, and ``false`` is what the backtest set."""
    log = next((LOGS / "gemini" / "jsonl").rglob("session-*.jsonl"))
    code, out, err = run(
        command, "--log", str(log), "--options", _options(tmp_path, given), "--format", "jsonl"
    )
    assert code == 0, err
    assert any('"cache": true' in n for n in _notes(err)) is named
    if command == "replay":
        rows = [json.loads(line) for line in out.splitlines()]
        assert [r["cached_input"] for r in rows if "turn" in r] == [0, 0]
