// The tune grid in Pyodide (the page's Python, from node_modules), in Node: the floor
// (loadPyodide() and one line of Python, as bare-pyodide.html) and the pure-Python
// kernel over a 24 x 16 grid of a 500-turn session, with budgetcore's sources from this
// checkout. Prints one JSON object; scripts/bench_tune.py reports it beside the floor.
//
//     node scripts/bench_tune.mjs ROOT RUNS
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const [root, runs = "5"] = process.argv.slice(2);
const started = performance.now();
const pyodide = await loadPyodide();
pyodide.runPython("1 + 1");
const floorMs = performance.now() - started;

function copy(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === "__pycache__") continue;
    const target = "/src/" + relative(root, path);
    if (statSync(path).isDirectory()) {
      pyodide.FS.mkdirTree(target);
      copy(path);
    } else if (name.endsWith(".py") || name.endsWith(".json") || name.endsWith(".jsonl") || name === "py.typed") {
      pyodide.FS.writeFile(target, readFileSync(path));
    }
  }
}
pyodide.FS.mkdirTree("/src/budgetcore");
copy(join(root, "budgetcore"));
pyodide.FS.writeFile("/src/bench_tune.py", readFileSync(join(root, "scripts", "bench_tune.py")));
const out = pyodide.runPython(`
import json, sys, time, statistics
sys.path.insert(0, "/src")
from bench_tune import page_case, run_grid_python
session, ks, ss = page_case()
run_grid_python(session, ks, ss)  # warm: imports, the memoised capacities
grid_ms, point_ms = [], []
for _ in range(${Number(runs)}):
    t0 = time.perf_counter()
    grid = run_grid_python(session, ks, ss)
    grid_ms.append((time.perf_counter() - t0) * 1000)
from budgetcore.replay.engine import point_counts
for k in ks[::4]:
    for s in ss[::4]:
        t0 = time.perf_counter()
        point_counts(session, k, s)
        point_ms.append((time.perf_counter() - t0) * 1000)
json.dumps({"python": sys.version.split()[0], "grid_ms": grid_ms, "point_ms_max": max(point_ms),
            "points": len(ks) * len(ss), "turns": session.turns, "checksum": sum(grid.columns["runs"])})
`);
console.log(JSON.stringify({ floor_ms: floorMs, ...JSON.parse(out) }));
