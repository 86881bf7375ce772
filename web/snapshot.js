// The build's memory snapshot of Python (scripts/snapshot.mjs), restored. Shared text:
// scripts/build.py writes it into the served page's loader (a module) and
// scripts/offline.py inlines it before web/offline.js (a classic script), so it has no
// import or export.
const budgetcoreSnapshot = {
  // The browser's turn between the boot's steps: restore, files, Python, main.py ran
  // as one task of 0.5-1.5 s on a loaded machine (scripts/bench's longest task).
  pause: () => (globalThis.scheduler?.yield
    ? scheduler.yield() : new Promise((done) => setTimeout(done, 0))),
  // A named step of Pyodide's loadPyodide (the page's copy, scripts/build.py
  // page_pyodide: after the restore, after finalizeBootstrap), marked for traces.
  step: (name) => {
    performance.mark(`budgetcore:${name}`);
    return budgetcoreSnapshot.pause();
  },
  // A pause only once `budget` ms have passed since the last one (a loop's turns).
  budget: 30,
  since: 0,
  async due() {
    if (performance.now() - budgetcoreSnapshot.since < budgetcoreSnapshot.budget) return;
    await budgetcoreSnapshot.pause();
    budgetcoreSnapshot.since = performance.now();
  },
  // Pyodide's createPyodideModule, with the browser's turn between its steps, each of
  // which was one task with the next (a trace of a cold load, docs/performance.md):
  // the wasm's instance made (the end of the streaming compile, instantiate), then
  // Emscripten's receiveInstance (its dynamic-linking table); the runtime's start
  // (Emscripten runs it in a timer when `setStatus` is set, its own hook for a status
  // line); then the restore and Python's settling, inside loadPyodide.
  instantiate: (create) => async (settings) => {
    const wasm = settings.instantiateWasm;  // Pyodide's: streaming, with its imports
    if (wasm) {
      settings.instantiateWasm = (imports, received) => wasm(imports, (instance, module) => {
        budgetcoreSnapshot.pause().then(() => received(instance, module));
      });
    }
    settings.setStatus ??= () => {};
    settings._budgetcorePause = budgetcoreSnapshot.step;  // receiveInstance's (page_asm)
    const module = await create(settings);
    await budgetcoreSnapshot.pause();
    return module;
  },
  // Gzip'd bytes from a stream, inflated as they come, a slice at a time with the
  // browser's turn between slices: DecompressionStream inflates on the main thread,
  // and a pipe ran as microtasks of one task (the 6.7 MB snapshot: tasks of 140-210 ms
  // in a traced cold load; the one-file page's runtime and snapshot from its base64,
  // 206-266 ms). Small slices: the heap is mostly zeros, and 64 kB of them inflate to
  // up to 64 MB (one slice took 87 ms). A failure errors the stream its reader holds.
  inflating(source) {
    const inflater = new DecompressionStream("gzip");
    const writer = inflater.writable.getWriter();
    (async () => {
      const reader = source.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        for (let at = 0; at < read.value.length; at += 1 << 12) {
          await writer.write(read.value.subarray(at, at + (1 << 12)));
          await budgetcoreSnapshot.due();
        }
      }
      await writer.close();
    })().catch((error) => writer.abort(error).catch(() => {}));
    return inflater.readable;
  },
  // A gzip'd response's bytes, inflated in slices (`inflating`).
  inflate: async (response) => {
    if (!response.ok) throw new Error(`${response.url}: ${response.status}`);
    return new Response(budgetcoreSnapshot.inflating(response.body)).arrayBuffer();
  },
  // After the restore, before any other Python runs. The heap holds the modules main.py
  // imports, not the files: budgetcore's files go where the snapshot had them (`site`),
  // for what the page imports later and the data files it reads. Written here from one
  // blob (scripts/build.py files_blob): Pyodide's wheel install took 1.4 s of a boot.
  // Then the import system is told, and the global random generator seeded again (the
  // snapshot's state would be every reader's).
  async ready(pyodide, files, site) {
    await budgetcoreSnapshot.pause();  // after the restore
    const bytes = new Uint8Array(files);
    const end = bytes.indexOf(10);
    const index = JSON.parse(new TextDecoder().decode(bytes.subarray(0, end)));
    for (const [name, start, length] of index) {
      const path = `${site}/${name}`;
      pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      pyodide.FS.writeFile(path, bytes.subarray(end + 1 + start, end + 1 + start + length));
      await budgetcoreSnapshot.due();  // some hundred files: 0.1-0.16 s in one task
    }
    budgetcoreSnapshot.trampoline(pyodide._module);
    await budgetcoreSnapshot.pause();
    pyodide.runPython("import importlib, sys\nimportlib.invalidate_caches()\n"
      + "if 'random' in sys.modules: sys.modules['random'].seed()\ndel importlib, sys");
    performance.mark("budgetcore:snapshot-restored");
    return pyodide;
  },
  // How Python calls a function pointer: Pyodide's start builds a WebAssembly
  // trampoline where the engine can (getPyEMTrampolinePtr in pyodide.asm.js) and
  // stores its table index in _PyRuntime, which the restore then overwrites with the
  // build's value: 0, the JavaScript trampoline, as Node cannot build this one. Through
  // JavaScript frames no call can suspend (JSPI), and the log import's run_sync died
  // ("trying to suspend JS frames"). So the page's own is built again here, from the
  // same module (the build copies its bytes out of pyodide.asm.js), where Pyodide would.
  trampoline(M) {
    const slot = (M.__PyRuntime + M.HEAP32[M.__PyEM_EMSCRIPTEN_TRAMPOLINE_OFFSET >>> 2]) >>> 2;
    const ios = globalThis.navigator && (/iPad|iPhone|iPod/.test(navigator.userAgent)
      || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1));
    if (M.HEAP32[slot] !== 0 || ios) return;  // Pyodide keeps JavaScript's on iOS
    let instance;
    try {
      const hex = "__TRAMPOLINE__";
      const bytes = new Uint8Array(hex.length / 2);
      for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
      instance = new WebAssembly.Instance(new WebAssembly.Module(bytes),
        { env: { __indirect_function_table: M.wasmTable, memory: M.memory } });
    } catch {
      return;  // an engine without it: the JavaScript trampoline, as Pyodide's start
    }
    M.HEAP32[slot] = M.addFunction(instance.exports.trampoline_call);
  },
};
