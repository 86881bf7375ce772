"""docs/conformance.md's TypeScript (node:test) snippet, run by Node over the exported cases.

The snippet has no type annotations, so Node runs it as JavaScript; the user's code is
tests/node/budget.js, a JavaScript port of tests/toy_budget.py. Skipped without node.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _project(tmp_path: Path, *, bug: bool) -> Path:
    text = (ROOT / "docs" / "conformance.md").read_text("utf-8")
    match = re.search(r"```typescript\n(.*?)```", text, re.S)
    assert match, "docs/conformance.md lost its TypeScript snippet"
    (tmp_path / "budget.test.mjs").write_text(match.group(1), "utf-8")
    runtime = (ROOT / "tests" / "node" / "budget.js").read_text("utf-8")
    assert "export const BUG = false;" in runtime
    (tmp_path / "budget.js").write_text(
        runtime.replace("export const BUG = false;", f"export const BUG = {str(bug).lower()};")
    )
    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    cases = subprocess.run(
        [sys.executable, "-m", "budgetcore", "cases", "--out", str(tmp_path / "cases.jsonl")],
        check=True,
        capture_output=True,
    )
    assert cases.returncode == 0
    return tmp_path


def _node_test(folder: Path) -> subprocess.CompletedProcess[str]:
    assert NODE is not None
    return subprocess.run(
        [NODE, "--test", "budget.test.mjs"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_the_typescript_snippet_passes_a_correct_runtime(tmp_path: Path) -> None:
    result = _node_test(_project(tmp_path, bug=False))
    assert result.returncode == 0, result.stdout[-2000:]
    assert "# fail 0" in result.stdout
    assert re.search(r"# skipped [1-9]", result.stdout)


def test_the_typescript_snippet_names_the_case_a_rounding_bug_breaks(tmp_path: Path) -> None:
    result = _node_test(_project(tmp_path, bug=True))
    assert result.returncode != 0
    assert "not ok 1 - golden" in result.stdout
    assert "golden: main_safe_input" in result.stdout
