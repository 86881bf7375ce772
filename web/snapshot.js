// The page's Pyodide loader (the PyScript config's interpreter): Pyodide's own
// loadPyodide, plus a memory snapshot for repeat visits. Hand-written on purpose: it runs
// before Python exists, and Pyodide's snapshot API is JavaScript only.
//
// First visit: an ordinary boot; once the page has been ready and idle for a few
// seconds, a worker boots a second Pyodide with `_makeSnapshot`, unpacks this build's
// budgetcore wheel (sha256-checked against the lock), imports and warms what main.py
// uses (budgetcore.ui.snapshot.prepare) and stores the interpreter's memory in Cache
// Storage under this file's URL, which is named by its content, so a new build never
// restores an old heap. Next visit: `_loadSnapshot` skips the interpreter's start and
// the imports; PyScript installs the wheel's files and runs main.py as always. Any
// failure falls back to an ordinary boot and forgets the snapshot.
import { loadPyodide as load, version } from "./vendor/pyodide/pyodide.mjs";

export { version };

const CACHE = "budgetcore-snapshot";
const KEY = import.meta.url;
const WORKER = new URL("./snapshot-worker.js", import.meta.url).href;
const IDLE_MS = 5000; // after "ready": the page's own after-ready work comes first
const root = globalThis.document?.documentElement;
const PREPARE = `
import importlib, sysconfig, zipfile
zipfile.ZipFile("/tmp/budgetcore.whl").extractall(sysconfig.get_path("purelib"))
importlib.invalidate_caches()
from budgetcore.ui.snapshot import prepare
prepare()
`;

const store = () => (globalThis.caches ? caches.open(CACHE) : null);

async function stored() {
  try {
    const hit = await (await store())?.match(KEY);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch {
    return null; // no Cache Storage (an insecure origin) or it is unreadable: boot cold
  }
}

async function forget() {
  try {
    await (await store())?.delete(KEY);
  } catch {
    // nothing stored, nothing to forget
  }
}

function whenReady(then) {
  const check = (obs) => {
    const state = root.dataset.state;
    if (state !== "loading") obs?.disconnect();
    if (state === "ready" || state === "error") then(state);
    return state !== "loading";
  };
  if (!check(null)) {
    new MutationObserver((_, obs) => check(obs))
      .observe(root, { attributes: true, attributeFilter: ["data-state"] });
  }
}

function makeLater() {
  if (!globalThis.caches || !globalThis.Worker) return;
  whenReady((state) => {
    if (state !== "ready") return;
    setTimeout(() => requestIdleCallback(() => {
      const worker = new Worker(WORKER, { type: "module" });
      worker.onmessage = ({ data }) => {
        worker.terminate();
        root.dataset.snapshot = typeof data === "number" ? "stored" : "failed";
        if (typeof data !== "number") console.warn("budgetcore: no memory snapshot:", data);
      };
      worker.postMessage(KEY);
      root.dataset.snapshot = "making";
    }), IDLE_MS);
  });
}

export async function loadPyodide(options = {}) {
  const bytes = await stored();
  if (bytes) {
    try {
      const pyodide = await load({ ...options, _loadSnapshot: bytes });
      root.dataset.boot = "snapshot";
      performance.mark("budgetcore:snapshot-restored");
      whenReady((state) => state === "error" && forget()); // never restore a failing heap twice
      return pyodide;
    } catch (error) {
      console.warn("budgetcore: memory snapshot not restored, booting cold:", error);
      await forget();
    }
  }
  const pyodide = await load(options);
  root.dataset.boot = "cold";
  makeLater();
  return pyodide;
}

// In the worker (snapshot-worker.js): returns the snapshot's size in bytes.
export async function makeSnapshot() {
  const pyodide = await load({ _makeSnapshot: true });
  const wheel = pyodide.lockfile.packages.budgetcore;
  const response = await fetch(new URL(wheel.file_name, pyodide.lockfileBaseUrl));
  const data = new Uint8Array(await response.arrayBuffer());
  const sha = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  const hex = Array.from(sha, (b) => b.toString(16).padStart(2, "0")).join("");
  if (hex !== wheel.sha256) throw new Error(`budgetcore wheel sha256 ${hex} is not the lock's`);
  pyodide.FS.writeFile("/tmp/budgetcore.whl", data);
  pyodide.runPython(PREPARE);
  const snapshot = pyodide.makeMemorySnapshot();
  const cache = await store();
  for (const old of await cache.keys()) await cache.delete(old); // earlier builds' heaps
  await cache.put(KEY, new Response(snapshot));
  return snapshot.length;
}
