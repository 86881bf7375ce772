# Shared setup for scripts/test, scripts/serve and scripts/bench (sourced, not run).
# Everything comes from the package registries; re-running is cheap (stamp files).

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"

log() { printf '[setup] %s\n' "$*" >&2; }

# Create .venv and install budgetcore (editable) with its pinned test/tooling extras.
ensure_venv() {
    if [ ! -x "$PY" ]; then
        log "creating virtual environment .venv"
        python3 -m venv "$VENV"
    fi
    local stamp="$VENV/.budgetcore-stamp" want
    want="$(cat "$ROOT/pyproject.toml" "$ROOT/constraints.txt" | sha256sum | cut -d' ' -f1)"
    if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
        log "installing budgetcore[test] with pinned versions"
        "$PY" -m pip install -q --disable-pip-version-check -c "$ROOT/constraints.txt" -e "$ROOT[test]"
        echo "$want" > "$stamp"
    fi
}

# A Python >= 3.12 for the lock tool: PATH first, then pyenv's installed versions.
find_tool_python() {
    local c
    for c in python3.14 python3.13 python3.12 "$(pyenv root 2>/dev/null)"/versions/3.1[2-9]*/bin/python3; do
        if "$c" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then
            command -v "$c" 2>/dev/null || echo "$c"
            return 0
        fi
    done
    return 1
}

ensure_lock_tool() {
    local tools="$ROOT/.venv-tools" stamp want py
    stamp="$tools/.stamp"
    want="$(sha256sum "$ROOT/scripts/lock-tools.txt" | cut -d' ' -f1)"
    if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then return 0; fi
    local extra=()
    if ! py="$(find_tool_python)"; then
        # pyodide-lock's metadata asks for 3.12, but its add-wheels command runs on 3.11
        # (checked: byte-identical lock file), and only pyodide-cli truly needs 3.12.
        py=python3
        extra=(--ignore-requires-python)
    fi
    log "installing the pyodide lock tool with $("$py" --version)"
    rm -rf "$tools"
    "$py" -m venv "$tools"
    "$tools/bin/python" -m pip install -q --disable-pip-version-check "${extra[@]}" \
        -r "$ROOT/scripts/lock-tools.txt"
    echo "$want" > "$stamp"
}

ensure_node_modules() {
    local stamp="$ROOT/node_modules/.budgetcore-stamp" want
    want="$(sha256sum "$ROOT/package-lock.json" | cut -d' ' -f1)"
    if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
        log "npm ci (Pyodide, PyScript and ccusage at the versions in package-lock.json)"
        (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
        echo "$want" > "$stamp"
    fi
    # ccusage (the log import's differential test and bench) ships its native binary
    # without the exec bit; its own launcher would chmod it on first use.
    local bin
    for bin in "$ROOT"/node_modules/@ccusage/ccusage-*/bin/ccusage; do
        [ -f "$bin" ] && [ ! -x "$bin" ] && chmod +x "$bin"
    done
    return 0
}

# Build web/vendor: Pyodide and PyScript from node_modules, micropip and packaging from
# PyPI, the budgetcore wheel from this checkout, and a pyodide-lock.json that lists
# them with the sha256 of the files actually served. Rebuilt only when an input changed.
ensure_web() {
    ensure_venv
    ensure_node_modules
    local vendor="$ROOT/web/vendor" stamp want
    stamp="$vendor/.stamp"
    want="$( (cat "$ROOT/package-lock.json" "$ROOT/web/wheels.txt" "$ROOT/pyproject.toml" \
        "$ROOT/scripts/_common.sh" "$ROOT/scripts/precompile.mjs" "$ROOT/scripts/snapshot.mjs" \
        "$ROOT/web/main.py"; find "$ROOT/budgetcore" -type f ! -name '*.pyc' -print0 \
        | LC_ALL=C sort -z | xargs -0 cat) | sha256sum | cut -d' ' -f1)"
    if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then return 0; fi
    ensure_lock_tool
    log "building web/vendor"
    local tmp="$ROOT/web/.vendor-tmp" pyodide_dir
    rm -rf "$tmp"
    pyodide_dir="$tmp/pyodide"
    mkdir -p "$pyodide_dir" "$tmp/pyscript"
    cp "$ROOT"/node_modules/pyodide/{pyodide.js,pyodide.mjs,pyodide.asm.mjs,pyodide.asm.wasm,python_stdlib.zip} "$pyodide_dir/"
    cp -R "$ROOT"/node_modules/@pyscript/core/dist/. "$tmp/pyscript/"
    # Pure-Python wheels for Pyodide's Python, whatever Python runs this script.
    # (pip's own HTTP cache makes a rebuild cheap.)
    "$PY" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
        --python-version 3.14 --implementation py --platform any \
        --require-hashes -r "$ROOT/web/wheels.txt" -d "$pyodide_dir"
    "$PY" -m pip wheel -q --disable-pip-version-check --no-deps --no-build-isolation \
        "$ROOT" -w "$pyodide_dir"
    # Bytecode for Pyodide's own Python, in the wheel and in the page's copy of the
    # stdlib: the page does not compile budgetcore, nor the stdlib modules it imports, on
    # every cold boot (measured: imports 280 -> 160 ms in Node; the stdlib's share of a
    # cold boot about 3 s here). The baselines keep Pyodide's python_stdlib.zip as shipped.
    node "$ROOT/scripts/precompile.mjs" "$pyodide_dir"/budgetcore-*.whl \
        "$pyodide_dir/python_stdlib.zip" "$pyodide_dir/python_stdlib_pyc.zip" >/dev/null
    # This is `pyodide lockfile add-wheels`, called through pyodide-lock's own click
    # group so that it also runs where pyodide-cli (Python >= 3.12 only) cannot.
    (cd "$pyodide_dir" && "$ROOT/.venv-tools/bin/python" -c \
        'from pyodide_lock.cli import main; main()' add-wheels \
        --input "$ROOT/node_modules/pyodide/pyodide-lock.json" \
        --output "$pyodide_dir/pyodide-lock.json" ./*.whl >/dev/null)
    # The page's memory snapshot: Python started and main.py's imports done, at build
    # time, from the wheel and the stdlib just written (scripts/snapshot.mjs). With
    # WebAssembly stack switching on, as in the browser: Python records at its start
    # whether run_sync can work, and the page's log import needs it to.
    node --experimental-wasm-stack-switching "$ROOT/scripts/snapshot.mjs" "$pyodide_dir" \
        "$ROOT/web/main.py" \
        "$pyodide_dir/snapshot.bin.gz" >/dev/null
    rm -rf "$vendor"
    mv "$tmp" "$vendor"
    echo "$want" > "$stamp"
}

# Debian's Chromium for the browser tests and the benchmark (Playwright cannot
# download its own browser here).
ensure_chromium() {
    if [ -x /usr/bin/chromium ]; then return 0; fi
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    log "installing Debian's chromium"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q chromium >/dev/null
}

# The pinned LiteLLM wheels (scripts/litellm-registry.txt) in .cache/litellm/ (git-ignored),
# downloaded with --require-hashes: the registry tests re-extract the shipped data file
# from them row by row and fail, never skip, without them.
ensure_litellm_wheels() {
    ensure_venv
    log "LiteLLM wheels pinned for the registry (hash-checked)"
    "$PY" "$ROOT/scripts/refresh_models.py" --fetch >/dev/null
}
