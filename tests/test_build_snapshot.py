"""scripts/build.py's memory-snapshot steps that run in CPython: budgetcore's files in
one blob (web/snapshot.js writes them), the refusal of a snapshot made from other
files, and the trampoline bytes copied out of Pyodide's runtime. The snapshot itself is
restored by the browser tests (tests/browser/test_page.py, test_offline_page.py)."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import ROOT, script_module


def _build() -> Any:
    return script_module("build")


def _wheel(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("budgetcore/sub/", b"")  # a directory entry: no file to write
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def test_the_files_blob_holds_each_file_of_the_wheel_as_the_page_reads_it() -> None:
    """Read as web/snapshot.js reads it: a JSON line of [name, start, length], then the
    bytes; every file of the wheel, byte for byte, and no directory entry."""
    files = {
        "budgetcore/__init__.py": b"x = 1\n",
        "budgetcore/data/models.json": b'{"\\n": "\xc3\xa9"}\n' * 50,
        "budgetcore/__pycache__/a.cpython-314.pyc": bytes(range(256)),
        "budgetcore-0.1.0.dist-info/RECORD": b"",
    }
    blob = gzip.decompress(_build().files_blob(_wheel(files)))
    end = blob.index(b"\n")
    index = json.loads(blob[:end])
    body = blob[end + 1 :]
    read = {name: body[start : start + length] for name, start, length in index}
    assert read == files
    assert sum(length for _, _, length in index) == len(body)


def _vendor(tmp: Path, wheel: bytes, stdlib: bytes, made: dict[str, str]) -> Path:
    (tmp / "budgetcore-0.1.0-py3-none-any.whl").write_bytes(wheel)
    (tmp / "python_stdlib_pyc.zip").write_bytes(stdlib)
    (tmp / "snapshot.bin.gz").write_bytes(gzip.compress(b"heap"))
    asm = (
        "function getWasmTrampolineModule(){return new WebAssembly.Module("
        'hexStringToUTF8Array("0061736d"))}'
    )
    (tmp / "pyodide.asm.mjs").write_text(asm)
    (tmp / "snapshot.bin.gz.json").write_text(json.dumps(made))
    return tmp


def test_a_snapshot_made_from_another_wheel_or_stdlib_is_refused(tmp_path: Path) -> None:
    build = _build()
    wheel, stdlib = _wheel({"budgetcore/__init__.py": b""}), b"zip"
    made = {
        "wheel": "budgetcore-0.1.0-py3-none-any.whl",
        "wheel_sha256": hashlib.sha256(wheel).hexdigest(),
        "stdlib_sha256": hashlib.sha256(stdlib).hexdigest(),
        "site": "/lib/python3.14/site-packages",
    }
    ok = build.snapshot_of(_vendor(tmp_path, wheel, stdlib, made))
    assert ok.site == "/lib/python3.14/site-packages"
    assert gzip.decompress(ok.snapshot) == b"heap"
    assert '"0061736d"' in ok.script  # the trampoline's bytes, in web/snapshot.js
    assert "__TRAMPOLINE__" not in ok.script
    (tmp_path / "python_stdlib_pyc.zip").write_bytes(b"another zip")
    with pytest.raises(SystemExit, match=r"python_stdlib_pyc\.zip"):
        build.snapshot_of(tmp_path)
    (tmp_path / "python_stdlib_pyc.zip").write_bytes(stdlib)
    (tmp_path / "budgetcore-0.1.0-py3-none-any.whl").write_bytes(_wheel({"budgetcore/x.py": b""}))
    with pytest.raises(SystemExit, match=r"budgetcore-0\.1\.0-py3-none-any\.whl"):
        build.snapshot_of(tmp_path)


def test_the_build_stops_when_pyodide_builds_its_trampoline_otherwise() -> None:
    build = _build()
    with pytest.raises(SystemExit, match="trampoline"):
        build.restore_js("function getWasmTrampolineModule(){return makeIt()}")


ASM = ROOT / "node_modules" / "pyodide" / "pyodide.asm.mjs"
NODE = shutil.which("node")


def test_the_page_runtime_compiles_a_table_wrapper_once_per_signature() -> None:
    """Emscripten's convertJsFunctionToWasm as Pyodide ships it (node_modules' pyodide.asm.mjs,
    from ``var uleb128EncodeWithLen`` to ``var addFunction``), patched by page_asm and
    run in Node: each JavaScript function gets its own working wrapper, and three
    functions of two signatures compile two modules (Pyodide's start: about 260
    functions, one compile each before)."""
    if NODE is None or not ASM.exists():
        pytest.skip("node and node_modules' Pyodide are needed")
    asm = ASM.read_text(encoding="utf-8")
    code = _build().page_asm(asm)
    part = code[code.index("var uleb128EncodeWithLen=") : code.index("var addFunction=")]
    script = part + (
        "let compiled=0;const Module=WebAssembly.Module;"
        "WebAssembly.Module=function(b){compiled++;return new Module(b)};"
        "const f=convertJsFunctionToWasm((a)=>a+1,'ii'),g=convertJsFunctionToWasm((a)=>a*2,'ii'),"
        "h=convertJsFunctionToWasm((a,b)=>a-b,'iii');"
        "console.log(JSON.stringify([f(3),g(3),h(7,2),compiled]))"
    )
    out = subprocess.run([NODE, "-e", script], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [4, 6, 5, 2]
    original = asm[asm.index("var uleb128EncodeWithLen=") : asm.index("var addFunction=")]
    out = subprocess.run(
        [NODE, "-e", script.replace(part, original)], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == [4, 6, 5, 3]  # the oracle: one compile per function


def test_the_build_stops_when_pyodide_wraps_javascript_functions_otherwise() -> None:
    with pytest.raises(SystemExit, match="wraps a JavaScript function"):
        _build().page_asm("var convertJsFunctionToWasm=(func,sig)=>{return makeIt(func)};")


def test_the_build_stops_when_pyodide_bootstraps_or_receives_its_instance_otherwise() -> None:
    build = _build()
    with pytest.raises(SystemExit, match="restores its snapshot"):
        build.page_pyodide("function Ae(e,t,n){return e.API.finalizeBootstrap(t)}")
    with pytest.raises(SystemExit, match="finalizes a restored Python"):
        build.finalize_in_steps("API.finalizeBootstrap=function(t,e){let[r,n]=API.rawRun(")
    with pytest.raises(SystemExit, match="receives its instance"):
        build.receive_in_steps("function receiveInstance(instance,module){return instance}")
    with pytest.raises(SystemExit, match="restores its heap"):
        build.copy_in_steps("API.restoreSnapshot=function(t){return Module.HEAP8.set(t)};")


def _page_pyodide(folder: Path) -> Path:
    """The page's pyodide.mjs and pyodide.asm.mjs (page_pyodide, page_asm) written in
    ``folder`` beside links to Pyodide's other files; Pyodide's own folder returned
    (the oracle's). Skips without node or node_modules' Pyodide."""
    if NODE is None or not ASM.exists():
        pytest.skip("node and node_modules' Pyodide are needed")
    build = _build()
    src = ASM.parent
    (folder / "pyodide.mjs").write_text(
        build.page_pyodide((src / "pyodide.mjs").read_text(encoding="utf-8")), encoding="utf-8"
    )
    (folder / "pyodide.asm.mjs").write_text(
        build.page_asm(ASM.read_text(encoding="utf-8")), encoding="utf-8"
    )
    for name in ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        (folder / name).symlink_to(src / name)
    return src


# Restores one memory snapshot with Pyodide's files as shipped, then with the page's
# (argv: the two folders); prints each one's steps and what Python then computes.
RESTORE_IN_STEPS = """
const [plain, patched] = process.argv.slice(1);
const { loadPyodide: make } = await import(plain + "pyodide.mjs");
const maker = await make({ _makeSnapshot: true });
maker.runPython("x = 40 + 2");
const snapshot = maker.makeMemorySnapshot();
const out = {};
for (const [name, dir] of [["plain", plain], ["patched", patched]]) {
  const { loadPyodide } = await import(dir + "pyodide.mjs");
  const create = (await import(dir + "pyodide.asm.mjs")).default;
  const steps = [];
  const pause = (step) => {
    steps.push(step);
    return new Promise((done) => setTimeout(done, 0));
  };
  const pyodide = await loadPyodide({
    indexURL: dir, _loadSnapshot: snapshot, _budgetcorePause: pause,
    createPyodideModule: (settings) => {
      settings._budgetcorePause = pause;  // as web/snapshot.js instantiate
      return create(settings);
    },
  });
  out[name] = [steps, pyodide.runPython("x + 1")];
}
console.log(JSON.stringify(out));
"""


def test_the_page_pyodide_restores_a_snapshot_in_steps(tmp_path: Path) -> None:
    """node_modules' Pyodide makes a memory snapshot in Node; the page's copies of
    pyodide.mjs and pyodide.asm.mjs (page_pyodide, page_asm) restore it with the
    browser's turn between receiveInstance's, the heap copy's slices, the restore's and
    finalizeBootstrap's steps, in that order, and Python then has the snapshot's state;
    Pyodide's own files (the oracle) restore the same snapshot in one go, to the same state."""
    src = _page_pyodide(tmp_path)
    out = subprocess.run(
        [NODE, "--input-type=module", "-e", RESTORE_IN_STEPS, f"{src}/", f"{tmp_path}/"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    found = json.loads(out.stdout)
    assert found["plain"] == [[], 43]
    steps, value = found["patched"]
    assert value == 43
    # The heap's copy: 8 MB slices, a turn between two (copy_in_steps).
    copies = len(steps) - 6
    slices = ["copied"] * copies
    assert steps == [
        "exports",
        "offsets",
        *slices,
        "restored",
        "linked",
        "imported",
        "bootstrapped",
    ]
    assert copies >= 1


# A snapshot whose heap outgrew the runtime's own memory (480 pages of 64 KiB in
# 314.0.7's wasm), restored by the page's copy (argv: Pyodide's folder, the page's).
RESTORE_GROWN = """
const [plain, patched] = process.argv.slice(1);
const { loadPyodide: make } = await import(plain + "pyodide.mjs");
const maker = await make({ _makeSnapshot: true });
maker.runPython("big = bytearray(b'x' * 40_000_000)");
const snapshot = maker.makeMemorySnapshot();
const { loadPyodide } = await import(patched + "pyodide.mjs");
const create = (await import(patched + "pyodide.asm.mjs")).default;
const pause = () => new Promise((done) => setTimeout(done, 0));
const pyodide = await loadPyodide({
  indexURL: patched, _loadSnapshot: snapshot, _budgetcorePause: pause,
  createPyodideModule: (settings) => {
    settings._budgetcorePause = pause;
    return create(settings);
  },
});
console.log(JSON.stringify([snapshot.length, pyodide.runPython("big.count(b'x')")]));
"""


def test_the_page_pyodide_restores_a_heap_larger_than_its_first_memory(tmp_path: Path) -> None:
    """A registry change grew the page's snapshot from 480 to 576 pages, and the page no
    longer booted ("RangeError: offset is out of bounds" in restoreSnapshot): the heap
    was copied into the wasm's own memory, 480 pages, which the loader's INITIAL_MEMORY
    does not size. The page's copy grows the memory first (copy_in_steps)."""
    src = _page_pyodide(tmp_path)
    out = subprocess.run(
        [NODE, "--input-type=module", "-e", RESTORE_GROWN, f"{src}/", f"{tmp_path}/"],
        capture_output=True,
        check=False,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    size, count = json.loads(out.stdout)
    assert size > 480 * 65536 + 40_000_000 // 2  # the heap outgrew the first memory
    assert count == 40_000_000
