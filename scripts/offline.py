"""The self-contained page (``budgetcore.html``): the same page in one file that runs
when opened from disk (``file://``), with no server and no network.

Chromium gives a ``file://`` page an opaque origin: module scripts and ``fetch()`` of
other files are refused. So this file holds everything inline:

- the pre-rendered first view in English, and in Chinese in a ``<template>`` that
  ``FIRST_VIEW`` puts in its place for a Chinese reader before the first frame, and
  their stylesheets (``<style>``);
- ``web/boot.js``, Pyodide's classic ``pyodide.js`` (its ``loadPyodide``), Pyodide's
  ``pyodide.asm.mjs`` made a classic script (its ``export default`` becomes a global
  the loader hands to ``loadPyodide`` as ``createPyodideModule``; its
  ``import.meta.url`` is only read under Node), ``web/snapshot.js`` and
  ``web/offline.js`` (the loader);
- the runtime (``pyodide.asm.wasm``), the page's precompiled stdlib, the lock (the
  budgetcore entry only), ``web/main.py``, the build's memory snapshot of Python and
  budgetcore's files (scripts/build.py ``snapshot_of``), each gzip'd and base64'd in a
  ``<script type="application/octet-stream" data-asset>`` block, which the browser
  neither runs nor fetches.

Each inline script and style is allowed by its sha256 in the page's
Content-Security-Policy, so the policy stays as strict as the served page's (no
``'unsafe-inline'``), and ``connect-src 'none'``: nothing is requested.

PyScript is not in it (nor in the served page, web/start.js): the loader runs
``main.py`` (``budgetcore.ui.snapshot.run_main``) and gives it a ``pyscript`` module with
``document`` and ``window`` (all ``main.py`` imports from PyScript). Its sources are the
build's own inputs (``web/vendor``, from ``package-lock.json`` and ``web/wheels.txt``,
both hash-checked).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from budgetcore.ui.prerender import Document, Element

#: The file's name in the built folder (the README and docs/hosting.md name it).
NAME = "budgetcore.html"

_EXPORT = "export default _createPyodideModule;"
_CSP = (
    "default-src 'none'; script-src {scripts} 'wasm-unsafe-eval' 'unsafe-eval'; "
    "style-src {styles}; img-src data:; connect-src 'none'; worker-src 'none'; "
    "object-src 'none'; base-uri 'none'; form-action 'none'"
)


def script_hash(text: str) -> str:
    """A CSP source that allows exactly this inline script or style."""
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


def _asset(name: str, data: bytes, gzipped: bool = False) -> Element:
    packed = data if gzipped else gzip.compress(data, compresslevel=9, mtime=0)
    packed = base64.b64encode(packed).decode()
    return Element("script", {"type": "application/octet-stream", "data-asset": name}, [packed])


def _trim_lock(lock: dict[str, object], wheel: str) -> bytes:
    """The lock with only budgetcore (what the page loads), its file the wheel's name."""
    packages = lock["packages"]
    assert isinstance(packages, dict)
    entry = dict(packages["budgetcore"])
    entry["file_name"] = wheel
    if entry.get("depends"):
        raise SystemExit(f"build: budgetcore now depends on {entry['depends']} in Pyodide")
    return json.dumps({**lock, "packages": {"budgetcore": entry}}, sort_keys=True).encode()


#: Runs where the first view ends, before anything is painted (the head's render hold
#: names the element after it): in a Chinese reader's file (boot.js marks
#: html[data-first-view]) the English first view is replaced by the Chinese one from
#: its <template>, with the <html> language, boot texts and title that go with it.
FIRST_VIEW = """(() => {
  "use strict";
  const root = document.documentElement;
  const zh = document.getElementById("first-view-zh");
  const end = document.currentScript;
  if (root.dataset.firstView === "zh") {
    while (zh.nextSibling !== end) zh.nextSibling.remove();
    root.lang = zh.dataset.lang;
    root.dataset.bootTexts = zh.dataset.bootTexts;
    document.title = zh.dataset.title;
    zh.replaceWith(zh.content);
  } else {
    zh.remove();
  }
  end.remove();
})();"""

#: The element the first frame waits for (``<link rel="expect">``): the first asset,
#: just after FIRST_VIEW, so no frame shows the English view a Chinese reader loses.
HOLD = "assets"


def _first_view_zh(zh_html: str) -> Element:
    """The Chinese pre-render's body (its scripts left out, as the English one's) in a
    ``<template>``, with what FIRST_VIEW sets on the page beside it."""
    doc = Document.parse(zh_html)
    (root,) = doc.find(lambda e: e.tag == "html")
    (title,) = doc.find(lambda e: e.tag == "title")
    (body,) = doc.find(lambda e: e.tag == "body")
    attrs: dict[str, str | None] = {
        "id": "first-view-zh",
        "data-lang": root.attrs["lang"],
        "data-boot-texts": root.attrs["data-boot-texts"],
        "data-title": "".join(str(c) for c in title.children),
    }
    kept = [c for c in body.children if not (isinstance(c, Element) and c.tag == "script")]
    return Element("template", attrs, kept)


def write(
    out: Path,
    pages: dict[str, str],
    web: Path,
    vendor: Path,
    snapshot: Any,
    *,
    patch: Callable[[str], str] = lambda asm: asm,
    loader_patch: Callable[[str], str] = lambda loader: loader,
) -> Path:
    """Write ``out/budgetcore.html`` from the pre-rendered pages (``{"en": ..., "zh":
    ...}``, their template form, before the build's URL rewriting), the built vendor
    folder and the page's memory snapshot (scripts/build.py ``Snapshot``: the heap and
    budgetcore's files, both gzip'd, and where the files go); ``patch`` makes Pyodide's
    runtime the page's (scripts/build.py ``page_asm``), ``loader_patch`` its
    ``loadPyodide`` (``page_pyodide``)."""
    pyodide = vendor / "pyodide"
    (wheel,) = sorted(pyodide.glob("budgetcore-*.whl"))
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    assets = {
        "pyodide.asm.wasm": (pyodide / "pyodide.asm.wasm").read_bytes(),
        "python_stdlib.zip": (pyodide / "python_stdlib_pyc.zip").read_bytes(),
        "pyodide-lock.json": _trim_lock(lock, wheel.name),
        "main.py": (web / "main.py").read_bytes(),
    }
    styles = [(web / "style.css").read_text(encoding="utf-8")]
    scripts = [
        loader_patch((pyodide / "pyodide.js").read_text(encoding="utf-8")),
        classic_asm(patch((pyodide / "pyodide.asm.mjs").read_text(encoding="utf-8"))),
        snapshot.script,
        (web / "offline.js").read_text(encoding="utf-8"),
    ]
    boot = (web / "boot.js").read_text(encoding="utf-8")
    for text in (*styles, boot, FIRST_VIEW, *scripts):
        if re.search(r"</(script|style)", text, re.I):
            raise SystemExit("build: an inline script or style would end its element early")

    doc = Document.parse(pages["en"])
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
                    continue  # web/start.js: the file's loader is web/offline.js
                elif child.tag == "link" and child.attrs.get("rel") == "expect":
                    child.attrs["href"] = f"#{HOLD}"
                elif child.attrs.get("http-equiv") == "Content-Security-Policy":
                    child.attrs["content"] = _CSP.format(
                        scripts=" ".join(script_hash(s) for s in (boot, FIRST_VIEW, *scripts)),
                        styles=" ".join(script_hash(s) for s in styles),
                    )
            kept.append(node)
        parent.children[:] = kept
    # The Chinese first view (about 83 kB, beside 13 MB of runtime) before the English
    # one, so the script after both can choose.
    body.children[:0] = ["\n", _first_view_zh(pages["zh"])]
    body.children += [Element("script", {}, [FIRST_VIEW]), "\n"]
    for i, (name, data) in enumerate(assets.items()):
        block = _asset(name, data)
        if i == 0:
            block.attrs["id"] = HOLD
        body.children += ["\n", block]
    body.children += ["\n", _asset("snapshot.bin", snapshot.snapshot, gzipped=True)]
    body.children += ["\n", _asset("budgetcore-files.bin", snapshot.files, gzipped=True)]
    site = json.dumps(snapshot.site)
    body.children += ["\n", Element("script", {"type": "application/json", "id": "site"}, [site])]
    for text in scripts:
        body.children += ["\n", Element("script", {}, [text])]
    body.children.append("\n")
    target = out / NAME
    target.write_text(doc.html(), encoding="utf-8")
    return target
