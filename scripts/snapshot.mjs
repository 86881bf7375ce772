// The page's memory snapshot, made at build time: Pyodide's own interpreter (the
// version the page runs, from node_modules) started on the page's precompiled stdlib,
// the budgetcore wheel installed where Pyodide installs it, and every module main.py
// imports at its top imported, and the shell's boot run once per language
// (budgetcore.ui.snapshot.prepare: its lazy imports and memos, the registry and the
// peers parsed), and main.py compiled (budgetcore.ui.snapshot.keep_main); then
// Pyodide's `makeMemorySnapshot` copies the interpreter's memory. The page restores it
// (`_loadSnapshot`, web/snapshot.js) instead of starting Python and importing.
//
// Pyodide's snapshot API is private (`_makeSnapshot`, `_loadSnapshot`: pyodide/pyodide
// src/js/snapshot.ts, src/js/pyodide.ts); a snapshot is refused by another runtime
// build (its BUILD_ID is in the header). What it cannot hold: a JavaScript reference
// other than a path from globalThis ("Unexpected hiwire entry"), so nothing here calls
// loadPackage or touches the DOM; and the files Python reads later (the heap holds the
// modules, not the file system): the page still writes the wheel's files where they
// were here (the sidecar's `site`), and mounts the same stdlib zip, whose directory
// zipimport has cached in the heap.
//
//     node scripts/snapshot.mjs PYODIDE_DIR MAIN_PY OUT
//
// PYODIDE_DIR is web/vendor/pyodide being built (python_stdlib_pyc.zip and the wheel);
// OUT gets the snapshot gzip'd, and OUT.json the sha256 of the inputs it was made from
// (scripts/build.py refuses a snapshot made from other files).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { loadPyodide, version } from "../node_modules/pyodide/pyodide.mjs";

const [dir, mainPy, out] = process.argv.slice(2);
if (!out) throw new Error("usage: node scripts/snapshot.mjs PYODIDE_DIR MAIN_PY OUT");
// Python records at its start whether WebAssembly stack switching (JSPI) works; a heap
// made without it has run_sync disabled in every browser ("not supported in this
// JavaScript runtime"), and the page's log import runs on it. Node 20 has it behind
// --experimental-wasm-stack-switching (the old API; the browser's is the new one).
if (!("Suspending" in WebAssembly || "Suspender" in WebAssembly)) {
  throw new Error("snapshot: run node with --experimental-wasm-stack-switching (JSPI)");
}
const wheelName = readdirSync(dir).find((n) => /^budgetcore-.*\.whl$/.test(n));
const wheel = readFileSync(`${dir}/${wheelName}`);
const stdlib = `${dir}/python_stdlib_pyc.zip`;
const sha = (data) => createHash("sha256").update(data).digest("hex");

const pyodide = await loadPyodide({ indexURL: `${dir}/`, stdLibURL: stdlib, _makeSnapshot: true });
pyodide.FS.writeFile("/tmp/budgetcore.whl", wheel);
pyodide.FS.writeFile("/tmp/main.py", readFileSync(mainPy));
const imported = pyodide.runPython(`
def _prepare():
    import ast, importlib, sys, sysconfig, zipfile

    with zipfile.ZipFile("/tmp/budgetcore.whl") as whl:
        whl.extractall(sysconfig.get_path("purelib"))
    importlib.invalidate_caches()
    with open("/tmp/main.py", encoding="utf-8") as f:
        tree = ast.parse(f.read())
    before = set(sys.modules)
    for node in tree.body:
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # "from a import b": b may be a submodule; importing a.b when it is one
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        for name in names:
            # The browser's modules (PyScript's; Pyodide's FFI holds JavaScript
            # references a snapshot cannot keep) are main.py's to import.
            if name.split(".")[0] in ("pyscript", "pyodide", "js"):
                continue
            try:
                importlib.import_module(name)
            except ModuleNotFoundError as exc:
                if exc.name != name:  # a missing dependency, not a name that is no module
                    raise
    # The shell's boot once per language (its first-use costs), then the garbage out.
    from budgetcore.ui.snapshot import keep_main, prepare

    prepare()
    with open("/tmp/main.py", encoding="utf-8") as f:
        keep_main(f.read())  # main.py compiled (the page runs it with run_main)
    import gc

    gc.collect()
    return len(set(sys.modules) - before)
_n = _prepare()
del _prepare
_n
`);
const site = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
pyodide.runPython("del _n, sysconfig");  // __main__ as a fresh interpreter has it
pyodide.FS.unlink("/tmp/budgetcore.whl");
pyodide.FS.unlink("/tmp/main.py");
const snapshot = pyodide.makeMemorySnapshot();
const packed = gzipSync(snapshot, { level: 9 });
writeFileSync(out, packed);
writeFileSync(`${out}.json`, `${JSON.stringify({
  pyodide: version,
  wheel: wheelName,
  wheel_sha256: sha(wheel),
  stdlib_sha256: sha(readFileSync(stdlib)),
  main_py_sha256: sha(readFileSync(mainPy)),
  site,  // where the page writes the wheel's files (scripts/build.py files_blob)
  bytes: snapshot.length,
}, null, 1)}\n`);
console.log(`snapshot: ${imported} modules, ${snapshot.length} bytes (${packed.length} gzip'd)`);
