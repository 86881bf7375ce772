"""scripts/chromium.py: the one launch of Chromium in a fresh on-disk profile that
scripts/bench.py, scripts/bench_tune_page.py and scripts/trace_boot.py share, with
webserver.py's executable and flags; checked with a stand-in for Playwright (no
browser starts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.helpers import ROOT, script_module

SCRIPTS = ROOT / "scripts"


def _script(name: str) -> Any:
    return script_module(name)


class _Context:
    closed = False

    def close(self) -> None:
        self.closed = True


class _Chromium:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.context = _Context()

    def launch_persistent_context(self, profile: str, **options: Any) -> _Context:
        assert Path(profile).is_dir()
        self.calls.append((profile, options))
        return self.context


class _Playwright:
    def __init__(self) -> None:
        self.chromium = _Chromium()


def test_only_the_helper_launches_a_persistent_context() -> None:
    launching = sorted(
        path.name
        for path in SCRIPTS.glob("*.py")
        if "launch_persistent_context" in path.read_text(encoding="utf-8")
    )
    assert launching == ["chromium.py"]
    for name in ("bench.py", "bench_tune_page.py", "trace_boot.py"):
        assert "fresh_profile(" in (SCRIPTS / name).read_text(encoding="utf-8"), name


def test_a_fresh_profile_has_the_servers_flags_and_is_removed_after() -> None:
    chromium, webserver = _script("chromium"), _script("webserver")
    p = _Playwright()
    with chromium.fresh_profile(p, "bench-profile-", {"width": 1280, "height": 900}) as c:
        assert c is p.chromium.context
        assert not c.closed
    ((profile, options),) = p.chromium.calls
    assert Path(profile).name.startswith("bench-profile-")
    assert not Path(profile).exists()
    assert c.closed
    assert options == {
        "executable_path": webserver.CHROMIUM,
        "args": webserver.CHROMIUM_ARGS,
        "viewport": {"width": 1280, "height": 900},
    }
    # No viewport given: Playwright's own default, as bench_tune_page's floor had.
    q = _Playwright()
    with chromium.fresh_profile(q, "bench-profile-"):
        pass
    assert q.chromium.calls[0][1]["viewport"] is None
