"""ccusage, the usage tool users compare with (20.0.24, a dev dependency run offline
from node_modules), as the differential tests run it: tests/test_ccusage_diff.py and
tests/test_ccusage_folders.py."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "tests" / "fixtures" / "logs"
CCUSAGE = ROOT / "node_modules" / "@ccusage" / "ccusage-linux-x64" / "bin" / "ccusage"


def run_ccusage(kind: str, files: dict[str, bytes]) -> dict[str, Any]:
    """ccusage's per-session JSON for exactly ``files`` (paths inside projects/ or
    sessions/), offline, with an empty HOME and cwd, in UTC."""
    if not os.access(CCUSAGE, os.X_OK):
        pytest.fail(
            f"ccusage is not installed at {CCUSAGE}: run scripts/test (it sets up node_modules)"
        )
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        sub = "projects" if kind == "claude" else "sessions"
        for rel, data in files.items():
            dst = t / "cfg" / sub / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(data)
        (t / "home").mkdir()
        (t / "cwd").mkdir()
        env = {"PATH": "/usr/bin:/bin", "HOME": str(t / "home"), "TZ": "UTC", "LOG_LEVEL": "0"}
        if kind == "claude":
            env["CLAUDE_CONFIG_DIR"] = str(t / "cfg")
            argv = [str(CCUSAGE), "claude", "session", "--json", "--offline", "--mode", "calculate"]
        else:
            env["CODEX_HOME"] = str(t / "cfg")
            argv = [str(CCUSAGE), "codex", "session", "--json", "--offline"]
        proc = subprocess.run(argv, env=env, cwd=t / "cwd", capture_output=True, check=False)
        assert proc.returncode == 0, proc.stderr
        out: dict[str, Any] = json.loads(proc.stdout, parse_float=Decimal)
        return out


#: agent folder under tests/fixtures/logs -> (ccusage's command, its data-dir variable,
#: the fixture's data folder inside each fixture folder).
AGENT_DIRS: dict[str, tuple[str, str, str]] = {
    "pi": ("pi", "PI_AGENT_DIR", "sessions"),
    "gemini": ("gemini", "GEMINI_DATA_DIR", "tmp"),
    "qwen": ("qwen", "QWEN_DATA_DIR", "."),
    "kimi": ("kimi", "KIMI_DATA_DIR", "."),
    "opencode": ("opencode", "OPENCODE_DATA_DIR", "opencode"),
    "amp": ("amp", "AMP_DATA_DIR", "amp"),
    "droid": ("droid", "DROID_SESSIONS_DIR", "sessions"),
    "goose": ("goose", "GOOSE_PATH_ROOT", "goose"),
    # ccusage reads Copilot's OpenTelemetry export (a file) here; its session-state
    # events.jsonl (COPILOT_HOME) in test_agents_ccusage's events test.
    "copilot": ("copilot", "COPILOT_OTEL_FILE_EXPORTER_PATH", "otel"),
}


def agent_sessions(agent: str, fixture: str, mode: str = "calculate") -> list[dict[str, Any]]:
    """ccusage's sessions of ``tests/fixtures/logs/<agent>/<fixture>``, read as that
    agent's data folder (``ccusage <agent> session --json --offline``)."""
    if not os.access(CCUSAGE, os.X_OK):
        pytest.fail(
            f"ccusage is not installed at {CCUSAGE}: run scripts/test (it sets up node_modules)"
        )
    command, variable, sub = AGENT_DIRS[agent]
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        (t / "home").mkdir()
        (t / "cwd").mkdir()
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": str(t / "home"),
            "TZ": "UTC",
            "LOG_LEVEL": "0",
            variable: str((LOGS / agent / fixture / sub).resolve()),
        }
        if variable.endswith("_PATH"):  # a file, not a folder: the one file in it
            (only,) = sorted(p for p in (LOGS / agent / fixture / sub).rglob("*") if p.is_file())
            env[variable] = str(only.resolve())
        argv = [str(CCUSAGE), command, "session", "--json", "--offline", "--mode", mode]
        proc = subprocess.run(argv, env=env, cwd=t / "cwd", capture_output=True, check=False)
    assert proc.returncode == 0, proc.stderr
    out: dict[str, Any] = json.loads(proc.stdout, parse_float=Decimal)
    sessions: list[dict[str, Any]] = out["sessions"]
    return sessions
