// The page's start (the one module index.html loads): Pyodide restored from the build's
// memory snapshot (the page's loader, scripts/build.py PAGE_LOADER), then main.py on the
// main thread with a `pyscript` module of `document` and `window`, all it takes from
// PyScript. This was PyScript's part until it was measured beside the snapshot: it
// called loadPyodide 0.7 s after the first paint and ran main.py 0.7 s after Pyodide was
// ready, in a 2.4 s boot (docs/performance.md). The one-file page does the same
// (web/offline.js). Stage names as PyScript's (boot.js shows them in the page's language).
import { loadPyodide } from "./vendor/pyodide/pyodide-page.mjs";

const stage = (text) => dispatchEvent(new CustomEvent("py:progress", { detail: text }));
stage("Loading Pyodide");
const main = fetch(new URL("./main.py", import.meta.url)).then((response) => {
  if (!response.ok) throw new Error(`${response.url}: ${response.status}`);
  return response.text();
});
const pyodide = await loadPyodide();
stage("Loaded Pyodide");
pyodide.registerJsModule("pyscript", { document, window: globalThis });
await new Promise((done) => setTimeout(done, 0));  // the browser's turn before main.py
// main.py as compiled at build time when it is this text (budgetcore.ui.snapshot).
const snapshot = pyodide.pyimport("budgetcore.ui.snapshot");
await new Promise((done) => setTimeout(done, 0));  // and before main.py's first step
const awaited = snapshot.run_main(await main);
snapshot.destroy();
if (awaited) await awaited;
