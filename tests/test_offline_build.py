"""scripts/offline.py, the self-contained page's build steps that run in CPython (the
page itself is opened from disk by tests/browser/test_offline_page.py)."""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

import pytest

from tests.helpers import ROOT


def _offline() -> Any:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        spec = importlib.util.spec_from_file_location("offline", ROOT / "scripts" / "offline.py")
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "scripts"))


def test_main_py_s_imports_come_leaves_first_in_small_groups() -> None:
    """Each module after the modules it imports, so that importing a group runs only
    that group's own bodies; nothing of the browser's (pyscript, pyodide)."""
    groups = _offline().boot_modules((ROOT / "web" / "main.py").read_text("utf-8"), ROOT)
    order = [name for group in groups for name in group]
    assert len(order) == len(set(order))
    assert len(groups) > 10
    for before, after in [
        ("budgetcore.ui.model", "budgetcore.ui.update"),
        ("budgetcore.messages", "budgetcore.ui.update"),
        ("fractions", "budgetcore.ui.update"),
        ("budgetcore.ui.main.view.types", "budgetcore.ui.paint"),
    ]:
        assert order.index(before) < order.index(after), (before, after)
    assert not {n.split(".")[0] for n in order} & {"pyscript", "pyodide", "js"}
    assert "budgetcore.ui.tune.state" in order


def test_pyodide_s_runtime_module_becomes_a_classic_script_or_the_build_stops() -> None:
    offline = _offline()
    module = 'var x=1;async function _createPyodideModule(){return new URL("a",import.meta.url)}'
    text = offline.classic_asm(module + "export default _createPyodideModule;")
    assert "import.meta" not in text
    assert "export" not in text
    assert text.endswith("globalThis.__budgetcoreCreatePyodideModule=_createPyodideModule;")
    with pytest.raises(SystemExit, match="default export"):
        offline.classic_asm(module + "export{_createPyodideModule as default};")
    with pytest.raises(SystemExit, match="module syntax"):
        offline.classic_asm('import "x";\n' + module + "export default _createPyodideModule;")
