// Adds bytecode for Pyodide's Python to a pure-Python wheel, in place: every module
// compiled by Pyodide's own CPython (from node_modules, the version the page runs) into
// __pycache__/<name>.cpython-3XX.pyc as an unchecked-hash pyc (used without looking at
// the source's mtime, which unpacking a wheel does not keep), listed in RECORD.
// Without it the page compiles budgetcore's sources on every cold boot.
//
//     node scripts/precompile-wheel.mjs path/to/budgetcore-….whl
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const path = process.argv[2];
if (!path) throw new Error("usage: node scripts/precompile-wheel.mjs WHEEL");
const pyodide = await loadPyodide();
pyodide.FS.writeFile("/tmp/in.whl", readFileSync(path));
pyodide.runPython(`
import base64, csv, hashlib, io, os, py_compile, sys, sysconfig, zipfile

SITE = sysconfig.get_path("purelib")  # where Pyodide installs the wheel: the pycs name it
TAG = sys.implementation.cache_tag
STAMP = (1980, 1, 1, 0, 0, 0)  # fixed entry times: the same wheel gives the same bytes

def digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

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
        f.write(data)
    folder, _, module = name.rpartition("/")
    pyc = f"{folder}/__pycache__/{module[:-3]}.{TAG}.pyc"
    py_compile.compile(
        source,
        cfile=f"/tmp/pyc/{pyc}",
        dfile=source,
        doraise=True,
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )
    with open(f"/tmp/pyc/{pyc}", "rb") as f:
        added.append((pyc, f.read()))
rows = [r for r in csv.reader(io.StringIO(dict(entries)[record_name].decode())) if r]
rows = [r for r in rows if r[0] != record_name]
rows += [[n, digest(d), str(len(d))] for n, d in added] + [[record_name, "", ""]]
text = io.StringIO()
csv.writer(text, lineterminator="\\n").writerows(rows)
with zipfile.ZipFile("/tmp/out.whl", "w", zipfile.ZIP_DEFLATED) as out:
    for name, data in [*[(n, d) for n, d in entries if n != record_name], *added]:
        out.writestr(zipfile.ZipInfo(name, STAMP), data, zipfile.ZIP_DEFLATED)
    out.writestr(zipfile.ZipInfo(record_name, STAMP), text.getvalue(), zipfile.ZIP_DEFLATED)
print(f"precompile-wheel: {len(added)} modules compiled for {TAG}")
`);
writeFileSync(path, pyodide.FS.readFile("/tmp/out.whl"));
