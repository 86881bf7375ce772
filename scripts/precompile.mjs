// Bytecode for Pyodide's own Python (from node_modules: the version the page runs),
// compiled by that Python with py_compile as unchecked-hash pycs (used without looking
// at a source's mtime, which neither a wheel nor a zip keeps). Two outputs:
//
// - the budgetcore wheel, in place: __pycache__/<name>.cpython-3XX.pyc beside each
//   module, listed in RECORD. Without it the page compiles budgetcore on every boot.
// - the page's stdlib zip: Pyodide ships python_stdlib.zip as sources only, so every
//   cold boot compiles each module it imports, in WebAssembly before V8 has optimised
//   the interpreter (measured: ~3 s of a ~5 s boot on this machine). The modules the
//   page imports (Pyodide's start, every budgetcore module, PyScript's own imports)
//   become .pyc in place of their .py, which zipimport loads first; the rest stay
//   sources, so the zip grows by ~0.75 MB instead of doubling. Which modules are hot is
//   found by importing them here, not listed by hand.
//
//     node scripts/precompile.mjs WHEEL STDLIB_IN STDLIB_OUT
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const [wheel, stdlibIn, stdlibOut] = process.argv.slice(2);
if (!stdlibOut) throw new Error("usage: node scripts/precompile.mjs WHEEL STDLIB_IN STDLIB_OUT");
const pyodide = await loadPyodide();
pyodide.FS.writeFile("/tmp/in.whl", readFileSync(wheel));
pyodide.FS.writeFile("/tmp/stdlib.zip", readFileSync(stdlibIn));
pyodide.runPython(`
import base64, csv, hashlib, importlib, io, os, pkgutil, py_compile, sys, sysconfig, zipfile

SITE = sysconfig.get_path("purelib")  # where Pyodide installs the wheel: the pycs name it
TAG = sys.implementation.cache_tag
STAMP = (1980, 1, 1, 0, 0, 0)  # fixed entry times: the same input gives the same bytes
ZIP = next(p for p in sys.path if p.endswith(".zip"))  # where Pyodide mounts the stdlib
# What PyScript's own Python imports at start (its package ships inside its JavaScript,
# so it cannot be imported here); a module missing from this list only costs time.
PYSCRIPT = ["asyncio", "base64", "binascii", "inspect", "json", "pathlib", "pyodide.code",
            "pyodide.ffi", "pyodide.http"]

def digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

def pyc(source, path):
    """The unchecked-hash pyc of the source file at path; tracebacks name path."""
    py_compile.compile(source, cfile="/tmp/out.pyc", dfile=path, doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    with open("/tmp/out.pyc", "rb") as f:
        return f.read()

def write_zip(path, entries):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in entries:
            out.writestr(zipfile.ZipInfo(name, STAMP), data, zipfile.ZIP_DEFLATED)

# The wheel.
with zipfile.ZipFile("/tmp/in.whl") as src:
    entries = [(info.filename, src.read(info)) for info in src.infolist()]
record_name = next(n for n, _ in entries if n.endswith(".dist-info/RECORD"))
added = []
for name, data in entries:
    if not name.endswith(".py") or name.startswith(record_name.split("/")[0]):
        continue
    source = f"{SITE}/{name}"  # the path the page imports it from (in tracebacks too)
    os.makedirs(os.path.dirname(source), exist_ok=True)
    with open(source, "wb") as f:
        f.write(data)  # installed here as Pyodide would: imported below
    folder, _, module = name.rpartition("/")
    added.append((f"{folder}/__pycache__/{module[:-3]}.{TAG}.pyc", pyc(source, source)))
rows = [r for r in csv.reader(io.StringIO(dict(entries)[record_name].decode())) if r]
rows = [r for r in rows if r[0] != record_name]
rows += [[n, digest(d), str(len(d))] for n, d in added] + [[record_name, "", ""]]
text = io.StringIO()
csv.writer(text, lineterminator="\\n").writerows(rows)
write_zip("/tmp/out.whl", [*[(n, d) for n, d in entries if n != record_name], *added,
                           (record_name, text.getvalue().encode())])

# The hot stdlib modules: loaded by Pyodide's start, by budgetcore and by PyScript.
importlib.invalidate_caches()
import budgetcore
for info in pkgutil.walk_packages(budgetcore.__path__, "budgetcore."):
    if info.name.endswith("__main__"):
        continue  # runs the CLI
    try:
        importlib.import_module(info.name)
    except ImportError:
        pass  # the CPython-only extras (report: matplotlib; pytest_plugin: pytest)
for name in PYSCRIPT:
    importlib.import_module(name)
hot = {m.__spec__.origin[len(ZIP) + 1:] for m in list(sys.modules.values())
       if getattr(m, "__spec__", None) and (m.__spec__.origin or "").startswith(ZIP + "/")}
with zipfile.ZipFile("/tmp/stdlib.zip") as src:
    stdlib = [(info.filename, src.read(info)) for info in src.infolist()]
out, compiled = [], 0
for name, data in stdlib:
    if name in hot:
        with open("/tmp/source.py", "wb") as f:
            f.write(data)
        out.append((name + "c", pyc("/tmp/source.py", f"{ZIP}/{name}")))
        compiled += 1
    else:
        out.append((name, data))
write_zip("/tmp/stdlib-out.zip", out)
print(f"precompile: {len(added)} budgetcore modules and {compiled} stdlib modules for {TAG}")
`);
writeFileSync(wheel, pyodide.FS.readFile("/tmp/out.whl"));
writeFileSync(stdlibOut, pyodide.FS.readFile("/tmp/stdlib-out.zip"));
