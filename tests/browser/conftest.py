"""Fixtures for the browser tests: the built site (scripts/build) served from a subpath
by the stock ``http.server`` (no custom MIME table, no headers: what any static host
gives), one Chromium per session, a fresh context (cold page) per test."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import shutil
import subprocess
import threading
import warnings
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page as PlaywrightPage
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright

from tests.helpers import load_webserver

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.browser


WEBSERVER = load_webserver()
CHROMIUM: str = WEBSERVER.CHROMIUM
CHROMIUM_ARGS: list[str] = WEBSERVER.CHROMIUM_ARGS


#: Where the built site sits below the server's root: every URL must be relative.
SUBPATH = "budgetcore/"


class _StockHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet; nothing else differs from `python3 -m http.server`


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built from *this* checkout (web/vendor is rebuilt when budgetcore
    changed; a stamp makes that instant otherwise), even under bare pytest."""
    out = tmp_path_factory.mktemp("www") / SUBPATH
    # Under pytest-xdist each worker builds its own site; web/vendor is shared, so one
    # build at a time (the first rebuilds a stale wheel, the rest find it fresh).
    with open(ROOT / "web" / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        setup = subprocess.run(
            ["bash", "scripts/build", "--out", str(out)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
    if setup.returncode != 0:
        pytest.fail(f"scripts/build failed:\n{setup.stderr[-2000:]}")
    return out


@pytest.fixture(scope="session")
def base_url(site: Path) -> Iterator[str]:
    handler = functools.partial(_StockHandler, directory=str(site.parent))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/{SUBPATH}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: scripts/test installs Debian's chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _machine() -> str:
    """Memory available, Chromium's processes and the load, for a crash's warning."""
    meminfo = Path("/proc/meminfo").read_text(encoding="ascii").splitlines()
    available = next((line.split()[1] for line in meminfo if line.startswith("MemAvailable")), "?")
    chromium = 0
    for stat in Path("/proc").glob("[0-9]*/comm"):
        with contextlib.suppress(OSError):
            chromium += stat.read_text(encoding="utf-8").startswith("chrom")
    return f"{available} kB available, {chromium} Chromium processes, load {os.getloadavg()[0]:.1f}"


class Page:
    """A loaded controller page with what it logged and requested."""

    def __init__(self, page: Any, base_url: str) -> None:
        self.base_url = base_url
        self.requests: list[str] = []
        self.errors: list[str] = []
        self._scripts: list[str] = []
        self._listen(page)

    def _listen(self, page: Any) -> None:
        self.page = page
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on(
            "console",
            lambda m: self.errors.append(m.text) if m.type == "error" else None,
        )

    def init_script(self, script: str) -> None:
        """A script run before the page's own, kept for a page booted again."""
        self._scripts.append(script)
        self.page.add_init_script(script)

    def open(self, path: str = "") -> Page:
        try:
            return self._open(path)
        except PlaywrightError as exc:
            if "Target crashed" not in str(exc):
                raise
        # Chromium's renderer died while the page booted: seen late in two whole-suite
        # runs out of about ten, on one xdist worker's browser, never in 340 boots of one
        # browser alone (the seventeenth stop), so not yet explained. Boot once more in a
        # new page, and say so with what the machine had then; a second crash fails.
        said = f"Chromium's renderer crashed at boot ({_machine()}); booted again"
        with warnings.catch_warnings():  # the suite's filter makes warnings errors
            warnings.simplefilter("default")
            warnings.warn(said, stacklevel=2)
        crashed = self.page
        self._listen(crashed.context.new_page())
        with contextlib.suppress(PlaywrightError):
            crashed.close()
        for script in self._scripts:
            self.page.add_init_script(script)
        return self._open(path)

    def _open(self, path: str) -> Page:
        self.page.goto(self.base_url + path)
        self.page.wait_for_function(
            "document.documentElement.dataset.state !== 'loading'", timeout=90_000
        )
        state = self.page.evaluate("document.documentElement.dataset.state")
        assert state == "ready", self.page.text_content("#boot-error")
        # The export panel renders just after "ready", off the boot's critical path.
        self.page.wait_for_selector("#export-text:not(:empty)", state="attached")
        # So do the peers, whose chart and list grew their panel from one line to
        # 1,000-1,900 px (measured at 390, 721 and 1,440 px) and moved every panel below
        # it: a click aimed at the replay's summary before that landed beside it (the
        # walk tests' panel that stayed closed under load, the fifteenth stop). Their box
        # now waits at about its final height (within 6 %, web/style.css), not exactly.
        self.page.wait_for_selector("[data-peers=loading]", state="detached")
        return self

    # --- reading
    def readouts(self, *, peers: bool = False) -> dict[str, Any]:
        """data-key -> int (from the separated text) or bool (from data-value). The
        peers panel's lines (peer-<id>, line-<key>) come only with ``peers=True``: they
        appear once the registry has loaded, after "ready"."""
        self.assert_no_internal_error()
        raw = self.page.evaluate(
            """() => Object.fromEntries([...document.querySelectorAll('[data-key]')].map(
                 e => [e.dataset.key, [e.textContent, e.dataset.value ?? null]]))"""
        )
        raw = {k: v for k, v in raw.items() if peers or not k.startswith(("peer-", "line-"))}
        out: dict[str, Any] = {}
        for key, (text, value) in raw.items():
            if value is not None:
                out[key] = value == "true"
            else:
                assert text == f"{int(text.replace(',', '')):,}", (key, text)
                out[key] = int(text.replace(",", ""))
        return out

    def assert_no_internal_error(self) -> None:
        assert self.text("#status") == "", self.text("#status")

    def text(self, selector: str) -> str:
        return str(self.page.text_content(selector) or "")

    # --- writing through the controls
    def fill(self, path: str, text: str) -> None:
        self.page.fill(f'[data-input="{path}"]', text)
        self.assert_no_internal_error()

    def set_checked(self, path: str, checked: bool) -> None:
        self.page.set_checked(f'[data-input="{path}"]', checked)
        self.assert_no_internal_error()

    def apply_scenario(self, data: dict[str, Any]) -> None:
        """Type a docs/spec.md §11 scenario into the form, field by field."""
        summary = data.get("summary_model", "absent")
        if isinstance(summary, dict):
            self.page.set_checked('[data-toggle="summary_model"]', False)
        for section, fields in data.items():
            if not isinstance(fields, dict):
                continue
            for name, value in fields.items():
                path = f"{section}.{name}"
                if isinstance(value, bool):
                    self.set_checked(path, value)
                elif value is None:
                    self.fill(path, "")
                elif isinstance(value, int):
                    self.fill(path, f"{value:,}")
                else:
                    self.fill(path, str(value))


def read_folder(p: PlaywrightPage, folder: Path, copies: dict[str, Path] | None = None) -> None:
    """Open the replay, choose logs, and pick ``folder`` in the folder box; ``copies``
    (a name under ``folder`` for each fixture) are laid out there first, as one folder
    of several agents."""
    for name, source in (copies or {}).items():
        shutil.copytree(source, folder / name)
    p.click("#replay summary")
    # On a loaded machine the panel was seen still closed after this click, right after
    # "ready" (twice in the whole suite after the eleventh walk's merge, never alone:
    # the radio below "not visible" for 30 s). The likely cause: the peers panel grew
    # 1,175 px after "ready" at this width and moved the summary (Page.open now waits
    # for it). Not reproduced, so a click that did not open it is still given once
    # more, and the panel must then be open.
    try:
        p.wait_for_selector("#replay[open]", state="attached", timeout=5000)
    except PlaywrightTimeout:
        p.click("#replay summary")
        p.wait_for_selector("#replay[open]", state="attached", timeout=5000)
    p.check("input[data-replay-source][value=log]")
    p.set_input_files("#replay-folder", str(folder))


def _page_at(browser: Any, base_url: str, width: int, height: int) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        yield Page(context.new_page(), base_url)
    finally:
        context.close()


@pytest.fixture
def page(browser: Any, base_url: str) -> Iterator[Page]:
    yield from _page_at(browser, base_url, 1280, 900)


@pytest.fixture
def narrow_page(browser: Any, base_url: str) -> Iterator[Page]:
    yield from _page_at(browser, base_url, 380, 800)


# Each visible <select>'s options wider than the select (its arrow and padding about
# 2.2em): what a closed select shows is cut ("resend up to N tin" in a 181 px field).
CUT_OPTIONS = """() => {
  const ctx = document.createElement('canvas').getContext('2d');
  const out = [];
  for (const s of document.querySelectorAll('#app select')) {
    const box = s.getBoundingClientRect();
    if (box.width === 0) continue;
    const style = getComputedStyle(s);
    ctx.font = `${style.fontSize} ${style.fontFamily}`;
    const room = s.clientWidth - 2.2 * parseFloat(style.fontSize);
    for (const o of s.options) {
      const w = ctx.measureText(o.textContent).width;
      if (w > room) out.push([s.dataset.replayInput || s.id, o.textContent, w, room]);
    }
  }
  return out;
}"""
