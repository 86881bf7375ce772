// The self-contained page's loader (scripts/offline.py inlines it into budgetcore.html,
// after Pyodide's own pyodide.js and pyodide.asm.js). Opened from disk, Chromium
// refuses module scripts and fetch() on file:// (an opaque origin), so nothing here
// imports or fetches: the runtime, the stdlib, the lock, the wheel and main.py are
// gzip'd base64 in <script type="application/octet-stream" data-asset="<name>">
// blocks, and Pyodide gets them through the loadPyodide options it has for this
// (createPyodideModule, lockFileContents; pyodide/pyodide src/js/pyodide.ts) and a
// fetch() that answers its remaining requests (the wasm, the stdlib, the wheel:
// src/js/compat.ts browser_getBinaryResponse) from memory. PyScript is not loaded:
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
    const text = node.textContent;
    node.remove();
    const packed = Uint8Array.fromBase64 ? Uint8Array.fromBase64(text)
      : Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    return new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"));
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
    const pyodide = await globalThis.loadPyodide({
      indexURL: base,
      stdLibURL: base + "python_stdlib.zip",
      lockFileContents: lock,
      packageBaseUrl: base,
      createPyodideModule: globalThis.__budgetcoreCreatePyodideModule,
      packages: ["budgetcore"],
    });
    stage("Loaded Pyodide");
    // What PyScript's module gives main.py on the main thread.
    pyodide.registerJsModule("pyscript", { document, window: globalThis });
    const main = read("main.py").text();
    // main.py's imports, a few modules per task (the build lists them in the order
    // their imports finish, scripts/offline.py boot_modules): in one task they held the
    // page for 0.2-0.5 s. main.py then finds them loaded.
    const pause = () => (globalThis.scheduler?.yield
      ? scheduler.yield() : new Promise((r) => setTimeout(r, 0)));
    const importer = pyodide.runPython(
      "def _load(names):\n"
      + "    import importlib\n"
      + "    for name in names:\n"
      + "        try:\n"
      + "            importlib.import_module(name)\n"
      + "        except ImportError:\n"
      + "            pass  # CPython's module, not in Pyodide: main.py imports what it needs\n"
      + "_load", { globals: pyodide.toPy({}) });  // its own namespace, not main.py's
    for (const group of JSON.parse(document.getElementById("boot-modules").textContent)) {
      importer(group);
      await pause();
    }
    importer.destroy();
    await pyodide.runPythonAsync(await main, { filename: "main.py" });
  })();
})();
