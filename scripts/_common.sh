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
