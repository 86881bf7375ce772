"""The compiled decoders of the other agents' lines (docs/replay.md, "Speed": a
skeleton, ``budgetcore.replay.logs.compiled.SKELETONS``, or a record of
``budgetcore.replay.logs.records`` that Gemini CLI, Qwen Code, Kimi CLI, OpenCode and pi
read by attribute) against the standard library's full decode: every fixture of pi,
Gemini CLI, Qwen Code, Kimi CLI, Droid, Copilot CLI and OpenCode (its database's
messages) read both ways gives the same session, ledger and all
(tests/property/test_skeleton_properties.py and test_records_properties.py hold any
line alike).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from budgetcore.replay.logs import opencode, read_sessions, reader, tally
from budgetcore.replay.logs.folder import plan_folder

compiled = pytest.importorskip("budgetcore.replay.logs.compiled")

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
AGENTS = ("pi", "gemini", "qwen", "kimi", "droid", "opencode", "copilot")
#: Where the readers ask for the compiled decoder: the skeleton's dicts, or the records
#: read by attribute (reader.record_batches, given a reader's records.Shape).
ASKERS = ((tally, "skeleton_batches"), (tally, "record_batches"), (opencode, "record_batches"))


def _sessions(agent: str) -> list[tuple[Path, tuple[str, ...]]]:
    out = []
    for case in sorted((LOGS / agent).iterdir()):
        if case.is_dir():
            paths = sorted(p.relative_to(case).as_posix() for p in case.rglob("*") if p.is_file())
            out += [(case, s.files) for s in plan_folder(paths).sessions]
    return out


def _read(base: Path, files: tuple[str, ...]) -> Any:
    streams = [(f, (base / f).open("rb")) for f in files]
    try:
        return read_sessions(streams)
    finally:
        for _f, s in streams:
            s.close()


@pytest.mark.parametrize("agent", AGENTS)
def test_every_fixture_reads_the_same_through_the_skeleton_as_in_full(
    agent: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = _sessions(agent)
    assert sessions
    # msgspec is loaded (this module's import): the readers would use it at once.
    for module, asks in ASKERS:
        monkeypatch.setattr(module, asks, lambda kind: None)
    full = [_read(base, files) for base, files in sessions]
    asked: list[object] = []

    def counted(kind: Any) -> Any:
        asked.append(kind)
        if isinstance(kind, str):
            return reader.skeleton_batches(kind)
        return reader.record_batches(kind)

    # From the first line on (not past the import's threshold): every line through it.
    for module, asks in ASKERS:
        monkeypatch.setattr(module, "compiled_from", lambda line, size=0: True)
        monkeypatch.setattr(module, asks, counted)
    fast = [_read(base, files) for base, files in sessions]
    assert asked  # the compiled decoder was used
    assert fast == full
