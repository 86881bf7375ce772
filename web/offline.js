// The self-contained page's loader (scripts/offline.py inlines it into budgetcore.html,
// after Pyodide's own pyodide.js and pyodide.asm.js). Opened from disk, Chromium
// refuses module scripts and fetch() on file:// (an opaque origin), so nothing here
// imports or fetches: the runtime, the stdlib, the lock, main.py, the memory snapshot
// and budgetcore's files are gzip'd base64 in <script type="application/octet-stream"
// data-asset="<name>"> blocks, and Pyodide gets them through the loadPyodide options
// it has for this (createPyodideModule, lockFileContents, _loadSnapshot; pyodide/pyodide
// src/js/pyodide.ts) and a fetch() that answers its remaining requests (the wasm, the
// stdlib: src/js/compat.ts browser_getBinaryResponse) from memory. PyScript is not loaded:
// the page's main.py only needs `pyscript.document` and `pyscript.window`.
(() => {
  "use strict";
  // Stages as PyScript names them (boot.js shows them in the page's language).
  const stage = (text) => dispatchEvent(new CustomEvent("py:progress", { detail: text }));
  const base = new URL("./budgetcore-offline/", location.href).href;
  const bytesOf = (name) => {
    const node = document.querySelector(`script[data-asset="${name}"]`);
    // Each is read once (Pyodide asks once): the base64 text is not kept twice.
    if (!node) throw new Error(`${name}: read twice`);
    node.remove();
    // Decoded a slice at a time as it is read, and inflated in slices, with the
    // browser's turns (web/snapshot.js): decoded whole, the five assets' base64 (13 MB)
    // was one task of the boot (275 of its 638 profiler samples in a traced load).
    let text = null;
    let at = 0;
    const packed = new ReadableStream({
      async pull(controller) {
        await budgetcoreSnapshot.due();
        text ??= node.textContent;
        const part = text.slice(at, at += 1 << 18);  // a multiple of 4 characters
        controller.enqueue(Uint8Array.fromBase64 ? Uint8Array.fromBase64(part)
          : Uint8Array.from(atob(part), (c) => c.charCodeAt(0)));
        if (at >= text.length) controller.close();
      },
    });
    return budgetcoreSnapshot.inflating(packed);
  };
  const TYPES = { wasm: "application/wasm", json: "application/json" };
  const served = new Map();
  for (const node of document.querySelectorAll("script[data-asset]")) {
    const name = node.dataset.asset;
    const type = TYPES[name.split(".").pop()] || "application/octet-stream";
    served.set(base + name, () => new Response(bytesOf(name), { headers: { "Content-Type": type } }));
  }
  const read = (name) => served.get(base + name)();
  const network = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const make = served.get(String(input instanceof Request ? input.url : input));
    return make ? Promise.resolve(make()) : network(input, init);
  };
  // A failure rejects unhandled: boot.js shows it ("Loading failed: …").
  (async () => {
    stage("Loading Pyodide");
    const lock = read("pyodide-lock.json").json();
    const files = read("budgetcore-files.bin").arrayBuffer();
    // The build's memory snapshot (web/snapshot.js, as the served page's loader):
    // Python started, main.py's imports done; budgetcore's files written beside it.
    const pyodide = await budgetcoreSnapshot.ready(await globalThis.loadPyodide({
      indexURL: base,
      stdLibURL: base + "python_stdlib.zip",
      lockFileContents: lock,
      packageBaseUrl: base,
      createPyodideModule: budgetcoreSnapshot.instantiate(
        globalThis.__budgetcoreCreatePyodideModule),
      _budgetcorePause: budgetcoreSnapshot.step,  // scripts/build.py page_pyodide's turns
      _loadSnapshot: read("snapshot.bin").arrayBuffer(),
    }), await files, JSON.parse(document.getElementById("site").textContent));
    stage("Loaded Pyodide");
    // What PyScript's module gives main.py on the main thread.
    pyodide.registerJsModule("pyscript", { document, window: globalThis });
    const main = read("main.py").text();
    await budgetcoreSnapshot.pause();
    // main.py as compiled at build time when it is this text (budgetcore.ui.snapshot).
    const snapshot = pyodide.pyimport("budgetcore.ui.snapshot");
    const awaited = snapshot.run_main(await main);
    snapshot.destroy();
    if (awaited) await awaited;
  })();
})();
