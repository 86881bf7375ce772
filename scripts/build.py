"""Write the controller page as a self-contained static folder (see scripts/build).

Input: ``web/`` (the page's sources) and ``web/vendor/`` (Pyodide, PyScript, the wheels
and their lock, the memory snapshot, built by ``ensure_web``). Output, all URLs
relative (works from any subpath, any static host, no CDN)::

    index.html            pre-rendered first view (budgetcore.ui.prerender); revalidate
    index.zh.html         the same in Chinese (web/boot.js goes there for a Chinese reader)
    bare.html             benchmark baseline: the same PyScript boot and one line
    bare-pyodide.html     benchmark floor: loadPyodide() and one line, no PyScript
    bare-pyodide-pyc.html the floor with the page's precompiled stdlib
    budgetcore.html       the same page in one file that runs from disk (scripts/offline.py)
    assets/               every other file, named by its content: cache forever
      start.<h>.js             the page's start (web/start.js)
      pyodide-loader.<h>.js    Pyodide's loadPyodide told this build's file names
      pyodide-loader-stdlib.<h>.js the same, with the page's precompiled stdlib
      pyodide-loader-page.<h>.js   the page's: that, restoring the memory snapshot
      pyodide-snapshot.<h>.bin, budgetcore-files.<h>.bin   the snapshot and the files
      pyodide.<h>.js, pyodide.asm.<h>.js, pyodide-<h>/pyodide.asm.wasm
      pyodide.asm-page.<h>.js  the page's copy of pyodide.asm.js (page_asm)
      pyodide-page.<h>.js      the page's copy of pyodide.mjs (page_pyodide)
      python_stdlib.<h>.zip    Pyodide's stdlib as shipped (the baselines')
      python_stdlib_pyc.<h>.zip    with bytecode for what the page imports
      pyodide-lock.<h>.json, wheels-<h>/<wheel name>.whl
      pyscript-<h>/            PyScript's dist, bare.html's (its chunks import each other)
      style.<h>.css, main.<h>.py, bare-pyodide.<h>.js

Pyodide derives the runtime's, stdlib's and lock's names from ``indexURL``; so each
loader is a generated module that calls Pyodide's own ``loadPyodide`` with the hashed
URLs (``stdLibURL``, ``lockFileURL``, ``packageBaseUrl``) and the already imported
``createPyodideModule``. Only the wasm keeps its fixed name, in a folder named by its
hash. Every name is a ``.js``/``.css``/``.zip``/``.json``/``.wasm``/``.whl``/``.bin``
file, so a stock server's MIME guesses do (``.mjs`` is not guessed everywhere).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import re
import shutil
import sys
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
VENDOR = WEB / "vendor"
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "scripts"))

import offline  # noqa: E402

from budgetcore.ui.prerender import PAGES, Document, Element, first_screen, prerender  # noqa: E402

LOADER = """\
// Written by scripts/build: Pyodide's own loadPyodide, told this build's hashed names.
import {{ loadPyodide as load, version }} from "./{pyodide}";
import createPyodideModule from "./{asm}";
const at = (name) => new URL(name, import.meta.url).href;
export {{ version }};
export const loadPyodide = (options = {{}}) => load({{
  ...options,
  indexURL: at("./{wasm_dir}/"),
  stdLibURL: at("./{stdlib}"),
  lockFileURL: at("./{lock}"),
  packageBaseUrl: at("./"),
  createPyodideModule,
}});
"""

# The page's: the same, restoring the build's memory snapshot instead of starting
# Python (main.py's imports and the shell's first-use costs done, scripts/snapshot.mjs)
# and writing budgetcore's files itself instead of installing the wheel (web/snapshot.js).
PAGE_LOADER = """\
// Written by scripts/build: Pyodide's own loadPyodide, told this build's hashed names,
// restoring the build's memory snapshot of Python (web/snapshot.js, below).
import {{ loadPyodide as load, version }} from "./{pyodide}";
import createPyodideModule from "./{asm}";
{restore}
const at = (name) => new URL(name, import.meta.url).href;
const get = (name) => fetch(at(name)).then(budgetcoreSnapshot.inflate);
export {{ version }};
export const loadPyodide = async ({{ packages = [], ...options }} = {{}}) => {{
  const files = get("./{files}");  // while the runtime and the snapshot load
  const pyodide = await load({{
    ...options,
    packages: packages.filter((name) => name !== "budgetcore"),  // in the snapshot
    indexURL: at("./{wasm_dir}/"),
    stdLibURL: at("./{stdlib}"),
    lockFileURL: at("./{lock}"),
    packageBaseUrl: at("./"),
    createPyodideModule: budgetcoreSnapshot.instantiate(createPyodideModule),
    _budgetcorePause: budgetcoreSnapshot.step,  // the turns of page_pyodide's patch
    _loadSnapshot: get("./{snapshot}"),
  }});
  return budgetcoreSnapshot.ready(pyodide, await files, {site});
}};
"""


def digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(hashlib.sha256(part).digest())
    return h.hexdigest()[:12]


class Site:
    """The folder being written: ``put`` a file under a hashed name, get its URL."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.assets = out / "assets"
        self.assets.mkdir(parents=True)
        self.urls: dict[str, str] = {}  # a source's ./path in web/ -> ./assets/... in the site

    def put(self, data: bytes, stem: str, suffix: str, source: str | None = None) -> str:
        name = f"{stem}.{digest(data)}{suffix}"
        (self.assets / name).write_bytes(data)
        if source is not None:
            self.urls[source] = f"./assets/{name}"
        return name


def _copy_pyscript(site: Site) -> str:
    src = VENDOR / "pyscript"
    files = sorted(p for p in src.rglob("*") if p.is_file() and p.suffix != ".map")
    h = digest(*(str(p.relative_to(src)).encode() + b"\0" + p.read_bytes() for p in files))
    folder = f"pyscript-{h}"
    for p in files:
        target = site.assets / folder / p.relative_to(src)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(p, target)
    for name in ("core.js", "core.css"):
        site.urls[f"./vendor/pyscript/{name}"] = f"./assets/{folder}/{name}"
    return folder


def _copy_pyodide(site: Site, made: Snapshot) -> tuple[str, str, str, list[str]]:
    """Pyodide's runtime, stdlibs, wheels, lock and the page's memory snapshot under
    hashed names; the names of the page's loader, of the same without the snapshot (the
    floor with the page's stdlib) and of the baselines' loader; and the page's boot
    files' URLs (for preload hints)."""
    src = VENDOR / "pyodide"
    wasm = (src / "pyodide.asm.wasm").read_bytes()
    wasm_dir = f"pyodide-{digest(wasm)}"
    (site.assets / wasm_dir).mkdir()
    (site.assets / wasm_dir / "pyodide.asm.wasm").write_bytes(wasm)
    names = {
        "pyodide": site.put((src / "pyodide.mjs").read_bytes(), "pyodide", ".js"),
        "asm": site.put((src / "pyodide.asm.mjs").read_bytes(), "pyodide.asm", ".js"),
        "page_pyodide": site.put(
            page_pyodide((src / "pyodide.mjs").read_text(encoding="utf-8")).encode(),
            "pyodide-page",
            ".js",
        ),
        "page_asm": site.put(
            page_asm((src / "pyodide.asm.mjs").read_text(encoding="utf-8")).encode(),
            "pyodide.asm-page",
            ".js",
        ),
        "stdlib": site.put((src / "python_stdlib.zip").read_bytes(), "python_stdlib", ".zip"),
        "wasm_dir": wasm_dir,
    }
    # The page's stdlib has bytecode for the modules it imports (scripts/precompile.mjs);
    # the baselines boot Pyodide's as shipped, so the floor stays what any Pyodide page
    # costs (and the machine-speed yardstick the bench scales by).
    page_stdlib = site.put(
        (src / "python_stdlib_pyc.zip").read_bytes(), "python_stdlib_pyc", ".zip"
    )
    lock = json.loads((src / "pyodide-lock.json").read_text(encoding="utf-8"))
    wheels: dict[str, str] = {}
    for wheel in sorted(src.glob("*.whl")):
        data = wheel.read_bytes()
        folder = site.assets / f"wheels-{digest(data)}"
        folder.mkdir()
        (folder / wheel.name).write_bytes(data)
        wheels[wheel.name] = f"{folder.name}/{wheel.name}"  # Pyodide installs by basename
    for package in lock["packages"].values():
        if package["file_name"] in wheels:
            package["file_name"] = wheels[package["file_name"]]
    text = json.dumps(lock, indent=1, sort_keys=True) + "\n"
    names["lock"] = site.put(text.encode(), "pyodide-lock", ".json")
    loader = site.put(LOADER.format(**names).encode(), "pyodide-loader", ".js")
    site.urls["./vendor/pyodide/pyodide.mjs"] = f"./assets/{loader}"  # bare.toml's
    page_loader = LOADER.format(**{**names, "stdlib": page_stdlib}).encode()
    plain = site.put(page_loader, "pyodide-loader-stdlib", ".js")
    snapshot = site.put(made.snapshot, "pyodide-snapshot", ".bin")
    files = site.put(made.files, "budgetcore-files", ".bin")
    page_loader = PAGE_LOADER.format(
        **{
            **names,
            "stdlib": page_stdlib,
            "asm": names["page_asm"],
            "pyodide": names["page_pyodide"],
        },
        snapshot=snapshot,
        files=files,
        site=json.dumps(made.site),
        restore=made.script,
    ).encode()
    page = site.put(page_loader, "pyodide-loader-page", ".js")
    return (
        page,
        plain,
        loader,
        [
            *(f"./assets/{names[k]}" for k in ("page_pyodide", "page_asm")),
            f"./assets/{wasm_dir}/pyodide.asm.wasm",
            f"./assets/{page_stdlib}",
            f"./assets/{snapshot}",
            f"./assets/{files}",
            f"./assets/{names['lock']}",
        ],
    )


@dataclass(frozen=True)
class Snapshot:
    """The page's memory snapshot (gzip'd), budgetcore's files as the page writes them
    beside it (gzip'd, :func:`files_blob`), and where (site-packages)."""

    snapshot: bytes
    files: bytes
    site: str
    script: str  # web/snapshot.js, with Pyodide's trampoline module in it


def snapshot_of(src: Path) -> Snapshot:
    """The memory snapshot ``ensure_web`` made in ``src`` (scripts/snapshot.mjs),
    refused unless it was made from the wheel and the stdlib beside it (a heap from
    other files would hold modules that are not the files the page writes)."""
    made = json.loads((src / "snapshot.bin.gz.json").read_text(encoding="utf-8"))
    wheel = src / made["wheel"]
    for key, path in (("wheel_sha256", wheel), ("stdlib_sha256", src / "python_stdlib_pyc.zip")):
        if not path.exists() or hashlib.sha256(path.read_bytes()).hexdigest() != made[key]:
            raise SystemExit(
                f"build: the memory snapshot was not made from {path.name}; run scripts/build"
            )
    files = files_blob(wheel.read_bytes())
    script = restore_js((src / "pyodide.asm.mjs").read_text(encoding="utf-8"))
    return Snapshot((src / "snapshot.bin.gz").read_bytes(), files, made["site"], script)


def restore_js(asm: str) -> str:
    """web/snapshot.js with the bytes of Pyodide's WebAssembly trampoline (its
    ``getWasmTrampolineModule``), which the page builds again after the restore. The
    build stops when pyodide.asm.js no longer has it in this shape."""
    found = re.findall(
        r"function getWasmTrampolineModule\(\)\{return new WebAssembly\.Module\("
        r'hexStringToUTF8Array\("([0-9a-f]+)"\)\)\}',
        asm,
    )
    if len(found) != 1:
        raise SystemExit("build: pyodide.asm.mjs no longer builds its trampoline as the page does")
    return (WEB / "snapshot.js").read_text(encoding="utf-8").replace("__TRAMPOLINE__", found[0])


#: Emscripten's ``convertJsFunctionToWasm`` (in Pyodide's pyodide.asm.mjs) compiles a
#: one-function wasm module for each JavaScript function it puts in the function table.
#: The module's bytes depend only on the signature, and Pyodide's start puts about 260
#: functions there: 260 synchronous compiles in one task (a traced cold load: the
#: runtime's start, 0.28 s on a loaded machine; each compile 0.5-16 ms). The page's
#: copy compiles each distinct module once and instantiates it per function.
WRAPPER_COMPILE = "var module=new WebAssembly.Module(bytes);"
WRAPPER_CACHED = (
    "var key=bytes.join(),made=convertJsFunctionToWasm.made??=new Map,module=made.get(key);"
    "if(!module)made.set(key,module=new WebAssembly.Module(bytes));"
)


def page_asm(asm: str) -> str:
    """Pyodide's pyodide.asm.mjs as the page runs it: its JavaScript functions' table
    wrappers compiled once per signature (:data:`WRAPPER_COMPILE`). The build stops when
    the runtime no longer has that line in that function. The floors keep Pyodide's own
    file (what any Pyodide page costs)."""
    start = asm.find("var convertJsFunctionToWasm=(func,sig)=>{")
    at = asm.find(WRAPPER_COMPILE, start)
    if start < 0 or asm.count(WRAPPER_COMPILE) != 1 or at - start > 400:
        raise SystemExit(
            "build: pyodide.asm.mjs no longer wraps a JavaScript function as the page expects"
        )
    asm = asm.replace(WRAPPER_COMPILE, WRAPPER_CACHED)
    return copy_in_steps(receive_in_steps(finalize_in_steps(asm)))


#: Emscripten's ``receiveInstance`` (in pyodide.asm.mjs's ``createWasm``): the instance's
#: exports merged, converted and assigned, the global offset table filled
#: (``updateGOT``), then the JavaScript functions the wasm imports put in its table
#: (``loadDylibs`` -> ``reportUndefinedSymbols`` -> ``addFunction``). One task of 86-156
#: ms in traced cold loads (226 ms profiled), split in three: its caller's
#: ``instantiateWasm`` callback resolves a promise with its result, which adopts one.
RECEIVE = (
    "function receiveInstance(instance,module){wasmExports=instance.exports;",
    "updateGOT(origExports);LDSO.init();loadDylibs();updateMemoryViews();return wasmExports}",
)
#: The page's turn in the runtime's own code: Emscripten's ``Module`` is the settings
#: object web/snapshot.js ``instantiate`` gives ``_budgetcorePause``.
RECEIVE_PAUSE = "await(Module._budgetcorePause??(()=>{}))"


def receive_in_steps(asm: str) -> str:
    """``receiveInstance`` made async, with the browser's turn before the offset table
    and before the table's JavaScript functions. The build stops unless both anchors are
    found once, in that order, within 700 characters."""
    start, end = (asm.find(part) for part in RECEIVE)
    if any(asm.count(part) != 1 for part in RECEIVE) or not 0 < end - start < 700:
        raise SystemExit(
            "build: pyodide.asm.mjs no longer receives its instance as the page expects"
        )
    return asm.replace(RECEIVE[0], f"async {RECEIVE[0]}").replace(
        RECEIVE[1],
        f'{RECEIVE_PAUSE}("exports");updateGOT(origExports);LDSO.init();'
        f'{RECEIVE_PAUSE}("offsets");loadDylibs();updateMemoryViews();return wasmExports}}',
    )


#: Pyodide's ``restoreSnapshot`` (pyodide.asm.mjs; pyodide/pyodide src/js/snapshot.ts at
#: 314.0.7): the header checked, then the heap copied into the runtime's memory in one
#: ``HEAP8.set`` (the page's 31 MB: 80 ms in a traced cold load, 102 of the task's 107
#: samples). The page's copies it 8 MB at a time with the browser's turn between.
RESTORE = (
    "API.restoreSnapshot=function(t){",
    "l=JSON.parse(s);return Module.HEAP8.set(t),l};",
)
#: The copy first grows the runtime's memory to the heap's size where the snapshot's heap
#: outgrew it: the memory is the wasm's own (480 pages of 64 KiB, 30 MB, in 314.0.7's
#: pyodide.asm.wasm), which the loader's ``INITIAL_MEMORY`` does not size, so a heap of
#: 576 pages failed to boot with "RangeError: offset is out of bounds" (issue 40's
#: fourteenth session: a registry change grew the heap). ``growMemory`` is Emscripten's
#: own (the module's scope), which updates the views.
RESTORE_SLICED = (
    "l=JSON.parse(s);if(t.length>Module.HEAP8.length)growMemory(t.length);"
    "for(let c=0;c<t.length;c+=1<<23){Module.HEAP8.set(t.subarray(c,c+(1<<23)),c);"
    'if(c+(1<<23)<t.length){await(API.config._budgetcorePause??(()=>{}))("copied")}}return l};'
)


def copy_in_steps(asm: str) -> str:
    """``restoreSnapshot`` made async, copying the heap in 8 MB slices with the
    browser's turn between them (page_pyodide awaits it). The build stops unless both
    anchors are found once, in that order, within 600 characters."""
    start, end = (asm.find(part) for part in RESTORE)
    if any(asm.count(part) != 1 for part in RESTORE) or not 0 < end - start < 600:
        raise SystemExit("build: pyodide.asm.mjs no longer restores its heap as the page expects")
    if asm.count("var growMemory=") != 1:
        raise SystemExit("build: pyodide.asm.mjs no longer grows its memory as the page expects")
    return asm.replace(RESTORE[0], "API.restoreSnapshot=async function(t){").replace(
        RESTORE[1], RESTORE_SLICED
    )


#: Pyodide's ``finalizeBootstrap`` (pyodide.asm.mjs; pyodide/pyodide src/core/api.js at
#: 314.0.7) after a restore: the runtime's JavaScript side linked to the heap
#: (``syncUpSnapshotLoad1``), Python's first imports (``_pyodide_core``, importlib, sys,
#: os, ``__main__``, builtins), then the snapshot's JavaScript references and
#: Pyodide's own modules. One task of 135-244 ms in traced cold loads of the file page,
#: most of it V8's lazy compiles (``wasm.CompileLazy``, about 800 functions).
FINALIZE_START = re.compile(
    r"API\.finalizeBootstrap=function\(t,e\)\{t&&([\w$]+)\(\);let\[r,n\]=API\.rawRun\("
)
FINALIZE_GLOBALS = re.compile(r"API\.globals=[\w$]+\(i,s\);(?=let l=API\._pyodide\._importhook,)")
#: ``loadPyodide``'s configuration is ``API.config``; its ``_budgetcorePause`` is the
#: page's turn (page_pyodide).
FINALIZE_PAUSE = "await(API.config._budgetcorePause??(()=>{}))"


def finalize_in_steps(asm: str) -> str:
    """``finalizeBootstrap`` made async, with the browser's turn after the runtime's
    link to the restored heap and after Python's first imports (page_pyodide awaits
    it). The build stops unless both anchors are found once, the second within the
    function's first 600 characters."""
    start = FINALIZE_START.findall(asm)
    found = FINALIZE_START.search(asm)
    globals_ = list(FINALIZE_GLOBALS.finditer(asm))
    if (
        len(start) != 1
        or found is None
        or len(globals_) != 1
        or not 0 < globals_[0].start() - found.start() < 600
    ):
        raise SystemExit(
            "build: pyodide.asm.mjs no longer finalizes a restored Python as the page expects"
        )
    link = start[0]
    asm = FINALIZE_GLOBALS.sub(lambda m: f'{m[0]}{FINALIZE_PAUSE}("imported");', asm)
    return FINALIZE_START.sub(
        lambda _: (
            f"API.finalizeBootstrap=async function(t,e){{"
            f't&&({link}(),{FINALIZE_PAUSE}("linked"));let[r,n]=API.rawRun('
        ),
        asm,
    )


#: Pyodide's ``bootstrapPyodide`` (in pyodide.mjs and pyodide.js, minified names aside):
#: the restore (the snapshot's 31 MB copy into the heap) and ``finalizeBootstrap``
#: (Python's first calls), then ``loadPyodide`` runs ``finalizeSetup``, all in one task:
#: 103-234 ms in traced cold loads, most of it V8's lazy compiles of the interpreter's
#: functions at their first call (pyodide/pyodide src/js/pyodide.ts at 314.0.7).
BOOTSTRAP = re.compile(
    r"function ([\w$]+)\(([\w$]+),([\w$]+),([\w$]+)\)\{let ([\w$]+)=\2\.API,([\w$]+);"
    r"return \3&&\(\6=\5\.restoreSnapshot\(\3\)\),"
    r"\5\.finalizeBootstrap\(\6,\4\._snapshotDeserializer\)\}"
)
#: The end of ``loadPyodide``: ``let a=bootstrapPyodide(r,s,t);return await
#: finalizeSetup(a,t)}``, ``t`` its configuration (the options, ``Object.assign``'d).
LOAD_END = re.compile(
    r"let ([\w$]+)=([\w$]+)\(([\w$]+),([\w$]+),([\w$]+)\);return await ([\w$]+)\(\1,\5\)\}"
)
#: The option that carries the page's turn (web/snapshot.js ``step``); absent (Node),
#: a step is a microtask.
PAUSE = "(c=>c._budgetcorePause??(()=>{}))"


def page_pyodide(loader: str) -> str:
    """Pyodide's pyodide.mjs or pyodide.js as the page runs it: ``loadPyodide`` gives
    the browser a turn after the restore and after ``finalizeBootstrap``, through the
    ``_budgetcorePause`` option (called with the step's name). The build stops unless
    each anchor is found once, in the shape above. The floors keep Pyodide's own file."""
    boot = BOOTSTRAP.findall(loader)
    end = LOAD_END.findall(loader)
    if len(boot) != 1 or len(end) != 1 or end[0][1] != boot[0][0]:
        raise SystemExit(
            "build: Pyodide's loadPyodide no longer restores its snapshot as the page expects"
        )

    def bootstrap(m: re.Match[str]) -> str:
        name, module, snapshot, config, api, restored = m.groups()
        return (
            f"async function {name}({module},{snapshot},{config}){{"
            f"let {api}={module}.API,{restored};if({snapshot}){{"
            f"{restored}=await {api}.restoreSnapshot({snapshot});"
            f'await {PAUSE}({config})("restored")}}'
            f"return {api}.finalizeBootstrap({restored},{config}._snapshotDeserializer)}}"
        )

    def end_of_load(m: re.Match[str]) -> str:
        made, name, module, snapshot, config, setup = m.groups()
        return (
            f"let {made}=await {name}({module},{snapshot},{config});"
            f'await {PAUSE}({config})("bootstrapped");return await {setup}({made},{config})}}'
        )

    return LOAD_END.sub(end_of_load, BOOTSTRAP.sub(bootstrap, loader))


def files_blob(wheel: bytes) -> bytes:
    """The wheel's files in one gzip'd blob: a JSON line of ``[name, start, length]``,
    then their bytes one after the other (web/snapshot.js writes them)."""
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        entries = [(i.filename, archive.read(i)) for i in archive.infolist() if not i.is_dir()]
    index, start = [], 0
    for name, data in entries:
        index.append([name, start, len(data)])
        start += len(data)
    head = json.dumps(index, separators=(",", ":")).encode() + b"\n"
    return gzip.compress(head + b"".join(d for _, d in entries), compresslevel=9, mtime=0)


def _config_json(path: Path, site: Site) -> str:
    """The page's PyScript config, inline as JSON: no fetch and no TOML parser at boot."""
    config = tomllib.loads(path.read_text(encoding="utf-8"))
    config["interpreter"] = site.urls[config["interpreter"]]
    # An index list (unused: packages pass straight to loadPyodide) keeps PyScript from
    # importing its package-graph module (19 kB) just to warn about unknown packages.
    config.setdefault("index_urls", [])
    return json.dumps(config, separators=(",", ":"))


def _link(rel: str, href: str, **attrs: str | None) -> Element:
    # No rel yet: boot.js sets it after the first paint (data-later), so the runtime's
    # downloads start early without competing with the pre-rendered first view.
    return Element("link", {"data-later": rel, "href": href, **attrs})


def _inline_boot(doc: Document, boot: str) -> None:
    """``web/boot.js`` written into the page, allowed by its sha256 in the CSP (as
    budgetcore.html has it): it must run before the first paint, and as a file it was
    one blocking request between the HTML and the numbers (70-130 ms under load,
    docs/performance.md, "A quiet run")."""
    (node,) = doc.find(lambda e: e.tag == "script" and e.attrs.get("src") == "./boot.js")
    node.attrs.pop("src")
    node.children[:] = [boot]
    (csp,) = doc.find(lambda e: e.attrs.get("http-equiv") == "Content-Security-Policy")
    policy = csp.attrs["content"] or ""
    if policy.count("script-src 'self'") != 1:
        raise SystemExit("build: web/index.html's CSP should have script-src 'self' once")
    csp.attrs["content"] = policy.replace(
        "script-src 'self'", f"script-src 'self' {offline.script_hash(boot)}"
    )


def _rewrite(html: str, site: Site, preloads: list[Element], boot: str | None = None) -> str:
    """Point every ./ reference at the site's hashed files; inline the PyScript config
    and ``boot`` (web/boot.js's text, for the page itself); add preload hints at the
    top of <head>."""
    doc = Document.parse(html)
    if boot is not None:
        _inline_boot(doc, boot)
    for node in doc.find(lambda e: "src" in e.attrs or "href" in e.attrs):
        for attr in ("src", "href"):
            url = node.attrs.get(attr)
            if url is not None and url in site.urls:
                node.attrs[attr] = site.urls[url]
    for node in doc.find(lambda e: e.tag == "script" and e.attrs.get("type") == "py"):
        config = node.attrs.get("config")
        if config:
            node.attrs["config"] = _config_json(WEB / config, site)
    head = doc.find(lambda e: e.tag == "head")[0]
    at = next(i for i, c in enumerate(head.children) if isinstance(c, Element) and c.tag == "title")
    for i, link in enumerate(preloads):
        head.children[at + 1 + 2 * i : at + 1 + 2 * i] = ["\n", link]
    return doc.html()


def build(out: Path) -> None:
    if not (VENDOR / "pyodide" / "pyodide-lock.json").exists():
        raise SystemExit("build: web/vendor is missing; run scripts/build (it builds it)")
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    site = Site(tmp)
    _copy_pyscript(site)  # bare.html's, the PyScript baseline
    made = snapshot_of(VENDOR / "pyodide")
    loader, plain_loader, baseline_loader, runtime = _copy_pyodide(site, made)
    for name, stem, suffix in (("style.css", "style", ".css"), ("main.py", "main", ".py")):
        site.put((WEB / name).read_bytes(), stem, suffix, source=f"./{name}")
    # The page's start: its imports and fetches are relative to itself, in assets/.
    start = (WEB / "start.js").read_text(encoding="utf-8")
    for was, now in (("./vendor/pyodide/pyodide-page.mjs", loader), ("./main.py", None)):
        target = now or site.urls[was].removeprefix("./assets/")
        if start.count(f'"{was}"') != 1:
            raise SystemExit(f"build: web/start.js should name {was} once")
        start = start.replace(f'"{was}"', f'"./{target}"')
    site.put(start.encode(), "start", ".js", source="./start.js")
    bare_js = (WEB / "bare-pyodide.js").read_text(encoding="utf-8")
    bare_js = bare_js.replace("./vendor/pyodide/pyodide.mjs", f"./{baseline_loader}")
    site.put(bare_js.encode(), "bare-pyodide", ".js", source="./bare-pyodide.js")
    # The same floor with the page's precompiled stdlib: what the page adds or saves
    # beyond it is its own start (scripts/bench prints it beside the floor).
    bare_js = bare_js.replace(f"./{baseline_loader}", f"./{plain_loader}")
    bare_pyc = site.put(bare_js.encode(), "bare-pyodide-pyc", ".js")
    fetch = {"as": "fetch", "crossorigin": "anonymous"}
    hints = [_link("modulepreload", f"./assets/{loader}")]
    hints += [_link("modulepreload", url) for url in runtime[:2]]
    hints += [_link("preload", url, **fetch) for url in runtime[2:]]
    hints += [_link("preload", site.urls["./main.py"], **fetch)]
    template = (WEB / "index.html").read_text(encoding="utf-8")
    for lang, name in PAGES.items():  # boot.js opens the one in the reader's language
        page = prerender(template, first_screen(lang=lang))
        boot = (WEB / "boot.js").read_text(encoding="utf-8")
        (tmp / name).write_text(_rewrite(page, site, hints, boot), encoding="utf-8")
    for name in ("bare.html", "bare-pyodide.html"):
        html = (WEB / name).read_text(encoding="utf-8")
        (tmp / name).write_text(_rewrite(html, site, []), encoding="utf-8")
    html = (WEB / "bare-pyodide.html").read_text(encoding="utf-8")
    html = html.replace("./bare-pyodide.js", f"./assets/{bare_pyc}")
    html = html.replace("</title>", " (the page's stdlib)</title>")
    (tmp / "bare-pyodide-pyc.html").write_text(_rewrite(html, site, []), encoding="utf-8")
    pages = {lang: prerender(template, first_screen(lang=lang)) for lang in PAGES}
    offline.write(tmp, pages, WEB, VENDOR, made, patch=page_asm, loader_patch=page_pyodide)
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="folder (default dist/)")
    args = parser.parse_args(argv)
    build(args.out.resolve())
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
