// Benchmark floor (scripts/bench): loadPyodide() and one line of Python, no PyScript.
import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";

const pyodide = await loadPyodide();
pyodide.runPython("import js; js.document.documentElement.dataset.state = 'ready'");
