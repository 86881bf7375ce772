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
