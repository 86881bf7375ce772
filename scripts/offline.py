"""The self-contained page (``budgetcore.html``): the same page in one file that runs
when opened from disk (``file://``), with no server and no network.

Chromium gives a ``file://`` page an opaque origin: module scripts and ``fetch()`` of
other files are refused. So this file holds everything inline:

- the pre-rendered English first view and its stylesheets (``<style>``);
- ``web/boot.js``, Pyodide's classic ``pyodide.js`` (its ``loadPyodide``), Pyodide's
  ``pyodide.asm.mjs`` made a classic script (its ``export default`` becomes a global
  the loader hands to ``loadPyodide`` as ``createPyodideModule``; its
  ``import.meta.url`` is only read under Node), and ``web/offline.js`` (the loader);
- the runtime (``pyodide.asm.wasm``), the page's precompiled stdlib, the lock (the
  budgetcore entry only) and the budgetcore wheel, and ``web/main.py``, each gzip'd and
  base64'd in a ``<script type="application/octet-stream" data-asset>`` block, which
  the browser neither runs nor fetches.

Each inline script and style is allowed by its sha256 in the page's
Content-Security-Policy, so the policy stays as strict as the served page's (no
``'unsafe-inline'``), and ``connect-src 'none'``: nothing is requested.

PyScript is not in it: the loader runs ``main.py`` with ``pyodide.runPythonAsync`` and
gives it a ``pyscript`` module with ``document`` and ``window`` (all ``main.py`` imports
from PyScript). Its sources are the build's own inputs (``web/vendor``, from
``package-lock.json`` and ``web/wheels.txt``, both hash-checked).
"""

from __future__ import annotations

import ast
import base64
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from budgetcore.ui.prerender import Document, Element

#: The file's name in the built folder (the README and docs/hosting.md name it).
NAME = "budgetcore.html"

_EXPORT = "export default _createPyodideModule;"
_CSP = (
    "default-src 'none'; script-src {scripts} 'wasm-unsafe-eval' 'unsafe-eval'; "
    "style-src {styles}; img-src data:; connect-src 'none'; worker-src 'none'; "
    "object-src 'none'; base-uri 'none'; form-action 'none'"
)


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def classic_asm(module: str) -> str:
    """Pyodide's ``pyodide.asm.mjs`` as a classic script: the one export becomes a
    global, ``import.meta.url`` (read only under Node, and by a ``locateFile`` fallback
    Pyodide overrides) becomes the page's URL. Fails loudly when Pyodide's shape
    changes."""
    if module.count(_EXPORT) != 1 or not module.rstrip().endswith(_EXPORT):
        raise SystemExit("build: pyodide.asm.mjs no longer ends in its default export")
    text = module.replace(
        _EXPORT, "globalThis.__budgetcoreCreatePyodideModule=_createPyodideModule;"
    )
    text = text.replace("import.meta.url", "location.href")
    if re.search(r"\bimport\.meta\b|^\s*(import|export)\b", text, re.M):
        raise SystemExit("build: pyodide.asm.mjs has module syntax the file cannot run")
    return text


def _asset(name: str, data: bytes) -> Element:
    packed = base64.b64encode(gzip.compress(data, compresslevel=9, mtime=0)).decode()
    return Element("script", {"type": "application/octet-stream", "data-asset": name}, [packed])


def boot_modules(main_py: str, root: Path) -> list[list[str]]:
    """What ``main.py``'s top-level imports load, in the order their imports finish
    (CPython's ``-X importtime``: a module's imports finish before it does), in groups
    of about 5 ms of CPython import time. The loader imports one group per task before
    it runs ``main.py``, which then finds them loaded: the imports (about 0.2-0.5 s in
    Pyodide) no longer hold the page in one task. A module CPython loads and Pyodide
    lacks is skipped by the loader; one Pyodide loads and CPython does not is imported
    by ``main.py`` as before."""
    lines = [
        ast.get_source_segment(main_py, node) or ""
        for node in ast.parse(main_py).body
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]
    # The browser's modules (PyScript's, Pyodide's FFI) are not CPython's to load.
    wanted = [line for line in lines if not re.search(r"\b(pyscript|pyodide)\b", line)]

    def loaded(code: str) -> list[tuple[str, int]]:
        found = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", code],
            cwd=root,
            env={**os.environ, "PYTHONPATH": str(root)},
            capture_output=True,
            text=True,
            check=True,
        ).stderr
        pattern = r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)$"
        return [(m[2], int(m[1])) for m in re.finditer(pattern, found, re.M)]

    started = {name for name, _ in loaded("pass")}  # the interpreter's own start
    groups: list[list[str]] = [[]]
    spent = 0
    for name, micros in loaded("\n".join(wanted)):
        if name in started:
            continue
        groups[-1].append(name)
        spent += micros
        if spent >= 5000:  # microseconds
            groups.append([])
            spent = 0
    return [g for g in groups if g]


def _trim_lock(lock: dict[str, object], wheel: str) -> bytes:
    """The lock with only budgetcore (what the page loads), its file the wheel's name."""
    packages = lock["packages"]
    assert isinstance(packages, dict)
    entry = dict(packages["budgetcore"])
    entry["file_name"] = wheel
    if entry.get("depends"):
        raise SystemExit(f"build: budgetcore now depends on {entry['depends']} in Pyodide")
    return json.dumps({**lock, "packages": {"budgetcore": entry}}, sort_keys=True).encode()


def write(out: Path, page_html: str, web: Path, vendor: Path) -> Path:
    """Write ``out/budgetcore.html`` from the pre-rendered English page (its template
    form, before the build's URL rewriting) and the built vendor folder."""
    pyodide = vendor / "pyodide"
    (wheel,) = sorted(pyodide.glob("budgetcore-*.whl"))
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    assets = {
        "pyodide.asm.wasm": (pyodide / "pyodide.asm.wasm").read_bytes(),
        "python_stdlib.zip": (pyodide / "python_stdlib_pyc.zip").read_bytes(),
        "pyodide-lock.json": _trim_lock(lock, wheel.name),
        wheel.name: wheel.read_bytes(),
        "main.py": (web / "main.py").read_bytes(),
    }
    styles = [
        (vendor / "pyscript" / "core.css").read_text(encoding="utf-8"),
        (web / "style.css").read_text(encoding="utf-8"),
    ]
    scripts = [
        (pyodide / "pyodide.js").read_text(encoding="utf-8"),
        classic_asm((pyodide / "pyodide.asm.mjs").read_text(encoding="utf-8")),
        (web / "offline.js").read_text(encoding="utf-8"),
    ]
    boot = (web / "boot.js").read_text(encoding="utf-8")
    for text in (*styles, boot, *scripts):
        if re.search(r"</(script|style)", text, re.I):
            raise SystemExit("build: an inline script or style would end its element early")

    doc = Document.parse(page_html)
    (root,) = doc.find(lambda e: e.tag == "html")
    root.attrs["data-offline"] = ""  # boot.js: runs from file://, no language redirect
    (head,) = doc.find(lambda e: e.tag == "head")
    (body,) = doc.find(lambda e: e.tag == "body")
    style_nodes = iter(styles)
    for parent in (head, body):
        kept: list[Element | str] = []
        for child in parent.children:
            node = child
            if isinstance(child, Element):
                if child.tag == "link" and child.attrs.get("rel") == "stylesheet":
                    node = Element("style", {}, [next(style_nodes)])
                elif child.tag == "script" and child.attrs.get("src") == "./boot.js":
                    node = Element("script", {}, [boot])
                elif child.tag == "script":
                    continue  # PyScript's core.js and main.py's <script type="py">
                elif child.attrs.get("http-equiv") == "Content-Security-Policy":
                    child.attrs["content"] = _CSP.format(
                        scripts=" ".join(_hash(s) for s in (boot, *scripts)),
                        styles=" ".join(_hash(s) for s in styles),
                    )
            kept.append(node)
        parent.children[:] = kept
    for name, data in assets.items():
        body.children += ["\n", _asset(name, data)]
    modules = json.dumps(boot_modules((web / "main.py").read_text(encoding="utf-8"), web.parent))
    body.children += [
        "\n",
        Element("script", {"type": "application/json", "id": "boot-modules"}, [modules]),
    ]
    for text in scripts:
        body.children += ["\n", Element("script", {}, [text])]
    body.children.append("\n")
    target = out / NAME
    target.write_text(doc.html(), encoding="utf-8")
    return target
