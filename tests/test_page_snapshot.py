"""budgetcore.ui.snapshot.prepare: what the page's build-time memory snapshot runs
(scripts/snapshot.mjs) after main.py's imports. The snapshot itself is made and
restored by the build and the browser tests (tests/browser/test_site.py)."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import ROOT


def test_prepare_runs_the_shell_s_boot_and_leaves_the_model_data_parsed() -> None:
    """In a fresh interpreter, as the build runs it: the shell's boot in both languages
    without an error, the registry and the peers parsed once (the page's "after ready"
    task then finds them), and nothing of the browser's imported (a snapshot cannot
    hold a JavaScript reference)."""
    code = """
import sys
from budgetcore.registry.models import default_registry
from budgetcore.registry.peers import default_peers
from budgetcore.ui.snapshot import prepare
assert default_registry.cache_info().currsize == 0
prepare()
assert default_registry.cache_info().currsize == 1
assert default_peers.cache_info().currsize == 1
assert not {"js", "pyodide", "pyscript"} & {m.split(".")[0] for m in sys.modules}
import budgetcore.ui.update as u
print(len([m for m in sys.modules if m.startswith("budgetcore.")]))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 40  # the views and handlers the first paint reaches


def test_run_main_runs_the_code_kept_for_its_source_and_compiles_any_other() -> None:
    """The page runs main.py from the code the build compiled when the text it loaded is
    that text; another text (a build whose snapshot is older than its main.py) is
    compiled then, never run as the kept one."""
    code = """
import __main__
from budgetcore.ui import snapshot
snapshot.keep_main("ran = 'kept'")
snapshot._COMPILED["ran = 'kept'"] = compile("ran = 'from the build'", "main.py", "exec")
snapshot.run_main("ran = 'kept'")
first = __main__.ran
snapshot.run_main("ran = 'other'")
awaited = snapshot.run_main("import asyncio\\nawait asyncio.sleep(0)\\nran = 'awaited'")
import asyncio, inspect
assert inspect.iscoroutine(awaited)
asyncio.run(awaited)
print(first, __main__.ran)
"""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["from", "the", "build", "awaited"]
