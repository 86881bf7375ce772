"""The built site: its pre-rendered first view is what Python paints, a link's readouts
wait for Python, the controls wake up at "ready", and it runs from a stock server."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from budgetcore.ui.events import LinkOpened
from budgetcore.ui.prerender import PRERENDER_WIDTH, first_screen
from budgetcore.ui.update import initial_state, reduce
from tests.browser.conftest import Page

pytestmark = pytest.mark.browser

# The DOM contract and every region the screen writes, as the browser sees it.
CONTRACT = """(regions) => {
  const all = (sel, f) => [...document.querySelectorAll(sel)].map(f);
  return {
    // The peers panel draws after ready (the registry loads then): not part of the first view.
    keys: all('[data-key]:not([data-key^="peer-"]):not([data-key^="line-"])',
              e => [e.dataset.key, e.textContent, e.dataset.value ?? null]),
    summary: all('[data-key-summary]', e => [e.dataset.keySummary, e.textContent,
                                             e.dataset.value ?? null]),
    lamps: all('[data-lamp]', e => [e.dataset.lamp, e.dataset.value ?? null]),
    inputs: all('[data-input]', e => [e.dataset.input,
                                      e.type === 'checkbox' ? String(e.checked) : e.value]),
    sliders: all('[data-slider]', e => [e.dataset.slider, e.value,
                                        e.getAttribute('aria-valuetext'), e.dataset.empty]),
    regions: regions.map(id => [id, document.getElementById(id).innerHTML]),
    lang: document.documentElement.lang,
  };
}"""

# The pickers say "loading" until the registry loads, after ready: not the first view.
REGIONS = sorted(
    r for r in {*first_screen().html, *first_screen().text} if not r.startswith("picker-")
)


@pytest.fixture
def before_python(browser: Any, base_url: str) -> Iterator[Any]:
    """A page whose start module (web/start.js) never loads: what a visitor sees before
    Python is ready. (Open it with wait_until="commit": the held module keeps
    DOMContentLoaded away.)"""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.route("**/assets/start.*.js", lambda route: None)  # held: never answered
        yield page
    finally:
        context.close()


def test_first_view_is_byte_for_byte_what_python_paints(before_python: Any, page: Page) -> None:
    before_python.goto(page.base_url, wait_until="commit")
    before_python.wait_for_selector('[data-key-summary="main_safe_input"]', state="attached")
    first = before_python.evaluate(CONTRACT, REGIONS)
    assert dict((k, v) for k, v, _ in first["summary"])["main_safe_input"] == "936,345"
    assert any("<svg" in html for rid, html in first["regions"] if rid.startswith("chart-"))
    page.open()
    after = page.page.evaluate(CONTRACT, REGIONS)
    for part in first:
        assert first[part] == after[part], part
    # The shell took the pre-rendered page over without writing it (see the next test):
    # a round trip through the other language makes Python write every text, field and
    # region itself, and that is the pre-rendered view byte for byte too.
    page.page.select_option("#lang", "zh")
    page.page.wait_for_function("document.documentElement.lang === 'zh-CN'")
    page.page.select_option("#lang", "en")
    page.page.wait_for_function("document.documentElement.lang === 'en'")
    again = page.page.evaluate(CONTRACT, REGIONS)
    for part in first:
        assert first[part] == again[part], part
    inner = """() => { const b = document.querySelector('#chart-funnel');
        const s = getComputedStyle(b);
        return b.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); }"""
    assert page.page.evaluate(inner) == PRERENDER_WIDTH
    assert page.errors == []


# Marks every pre-rendered region element and chart before Python runs.
MARK_NODES = """addEventListener('DOMContentLoaded', () => {
  for (const e of document.querySelectorAll('#charts svg, #readouts > *, #controls > *'))
    e.__prerendered = true;
});"""
KEPT = """() => [...document.querySelectorAll('#charts svg, #readouts > *, #controls > *')]
  .map(e => e.__prerendered === true)"""


def test_python_takes_over_the_prerendered_page_without_rewriting_it(page: Page) -> None:
    """The default scenario at desktop width in English is what the build pre-rendered:
    the shell keeps those very nodes (no rewrite, no re-layout at boot) and the page
    still answers an input. A link is another scenario: its page is painted anew."""
    page.init_script(MARK_NODES)
    page.open()
    kept = page.page.evaluate(KEPT)
    assert len(kept) >= 5
    assert all(kept), kept
    page.fill("config.trigger_tokens", "50,000")  # diffed against the adopted screen
    assert page.text('[data-key-summary="trigger_tokens"]') == "50,000"
    assert page.readouts()["trigger_reached"] is False
    assert page.errors == []
    page.page.goto("about:blank")
    page.open("#config.trigger_tokens=40000")
    assert not any(page.page.evaluate(KEPT))


@pytest.mark.parametrize(
    ("width", "locale"), [(1280, "en-US"), (380, "en-US"), (1280, "zh-CN"), (380, "zh-CN")]
)
def test_nothing_moves_from_first_paint_until_the_registry_is_in(
    width: int, locale: str, browser: Any, base_url: str
) -> None:
    """No layout shift while the page boots, when Python takes it over, or when the model
    registry's help line arrives after "ready" (it used to push every field down 36 px),
    on a desktop and a phone, in either language: the boot banner and the picker keep
    room for their lines, and a Chinese reader is given the Chinese pre-render (Python
    replacing English texts with Chinese at "ready" moved 0.24 of the phone's view)."""
    context = browser.new_context(viewport={"width": width, "height": 800}, locale=locale)
    request = context.new_page()
    page = Page(request, base_url)
    page.init_script(
        """window.__shifts = [];
        new PerformanceObserver(l => window.__shifts.push(...l.getEntries().map(e => ({
            value: e.value,
            at: Math.round(e.startTime),
            moved: e.sources.map(x => [
              x.node ? (x.node.id || x.node.className || x.node.nodeName) : "?",
              x.previousRect.y, x.currentRect.y, x.previousRect.height, x.currentRect.height,
            ]),
          }))))
          .observe({ type: 'layout-shift', buffered: true });"""
    )
    try:
        page.open()
        page.page.wait_for_selector('[data-key^="peer-"]', state="attached")  # registry in
        page.page.wait_for_timeout(300)
        shifts = page.page.evaluate("window.__shifts")  # each with what moved, to find it
        assert page.page.evaluate("document.documentElement.lang") == (
            "zh-CN" if locale == "zh-CN" else "en"
        )
    finally:
        context.close()
    assert sum(s["value"] for s in shifts) < 0.001, shifts


# The language of the page's first frame, and whether it shows its readouts as pending.
FIRST_LANG = """window.__firstLang = new Promise(done => requestAnimationFrame(() => done([
  document.documentElement.lang, document.documentElement.hasAttribute('data-link')])));"""


@pytest.mark.parametrize(
    ("locale", "fragment"),
    [
        ("zh-CN", ""),
        ("zh-TW", ""),
        ("en-US", ""),
        ("fr-FR", ""),
        ("en-US", "#lang=zh"),
        ("zh-CN", "#lang=en"),
        ("zh-CN", "#lang=fr"),
        ("en-US", "#lang=%7A%68"),
        ("en-US", "#%6Cang=zh"),
        ("en-US", "#config.trigger_tokens=40000&lang=zh"),
        ("zh-CN", "#lang=en&lang=zh"),
        ("zh-CN", "#lang=ZH"),
        ("en-US", "#lang=%E4"),
        ("en-US", "#lang=%zz&lang=zh"),
        ("zh-CN", "#lang"),
        ("en-US", "#&&lang=zh&"),
    ],
)
def test_the_first_view_is_in_the_language_the_shell_chooses(
    locale: str, fragment: str, browser: Any, base_url: str
) -> None:
    """web/boot.js opens the pre-render (index.html or index.zh.html) in the language the
    shell's own rule (ui.update._link, run here in CPython) gives for this link in this
    browser, before the first frame; and a fragment with only the language is the
    pre-rendered scenario, so its numbers are not hidden as a link's until Python."""
    state = reduce(initial_state(), LinkOpened(fragment, locale))
    where = ("index.zh.html" if state.lang == "zh" else "") + fragment
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    try:
        page = context.new_page()
        page.route("**/core.js", lambda route: None)  # Python never runs
        page.add_init_script(FIRST_LANG)
        page.goto(base_url + fragment, wait_until="commit")
        page.wait_for_url(base_url + where, wait_until="commit", timeout=10_000)
        lang, pending = page.evaluate("window.__firstLang")
    finally:
        context.close()
    assert lang == ("zh-CN" if state.lang == "zh" else "en"), (lang, state.lang)
    others = [p for p in fragment[1:].split("&") if p and unquote(p.partition("=")[0]) != "lang"]
    assert pending == bool(others)


# Resolves in the page's first frame: how far the parser had got.
FIRST_FRAME = """window.__firstFrame = new Promise(done => requestAnimationFrame(() => done({
  nav: document.querySelector('#nav summary')?.textContent ?? null,
  controls: document.getElementById('controls') !== null,
})));"""


def test_the_first_frame_has_the_whole_key_bar_even_on_a_slow_cpu(narrow_page: Page) -> None:
    """The parser may stop anywhere in the body, and a frame painted then shows what it
    has: the phone's fixed #nav with its <details> but no <summary> yet, 17 px too short,
    grew when the rest came (a layout shift before Python, seen under a loaded CI run);
    #boot and the lamps likewise. index.html's <link rel="expect"> holds the first frame
    until the form after the key bar starts. With the CPU 6 times slower (CDP) the first
    frame came inside the key bar on most loads before it."""
    page = narrow_page.page
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 6})
    page.add_init_script(FIRST_FRAME)
    page.goto(narrow_page.base_url, wait_until="commit")
    assert page.evaluate("window.__firstFrame") == {"nav": "Sections", "controls": True}


def test_a_link_shows_its_readouts_as_pending_until_python_planned_it(
    before_python: Any, page: Page
) -> None:
    link = "#config.trigger_tokens=50000"
    before_python.goto(page.base_url + link, wait_until="commit")
    before_python.wait_for_selector('[data-key-summary="trigger_tokens"]', state="attached")
    assert before_python.evaluate("document.documentElement.hasAttribute('data-link')")
    color = before_python.evaluate(
        "getComputedStyle(document.querySelector('[data-key-summary=\"trigger_tokens\"]')).color"
    )
    assert color == "rgba(0, 0, 0, 0)"  # the default's 32,000 is not shown as the link's
    charts = "getComputedStyle(document.querySelector('#charts')).visibility"
    assert before_python.evaluate(charts) == "hidden"
    assert before_python.is_visible(".boot-link")
    page.open(link)
    assert page.text('[data-key-summary="trigger_tokens"]') == "50,000"
    color = page.page.evaluate(
        "getComputedStyle(document.querySelector('[data-key-summary=\"trigger_tokens\"]')).color"
    )
    assert color != "rgba(0, 0, 0, 0)"


def test_controls_wake_up_at_ready(before_python: Any, page: Page) -> None:
    before_python.goto(page.base_url, wait_until="commit")
    before_python.wait_for_selector("#controls", state="attached")
    assert before_python.evaluate("document.querySelector('#controls').inert")
    assert before_python.is_visible(".boot-waking")
    page.open()
    assert page.page.evaluate("document.querySelectorAll('[data-wake][inert]').length") == 0
    assert not page.page.is_visible("#boot")
    page.fill("config.trigger_tokens", "50,000")
    assert page.readouts()["trigger_reached"] is False


def test_every_request_is_a_relative_hashed_asset(page: Page) -> None:
    page.open()
    paths = [u.removeprefix(page.base_url) for u in page.requests if u != "data:,"]
    assert paths[0] == ""  # the page itself, below the server's root
    assert all(p.startswith("assets/") for p in paths[1:]), paths
    assert len(paths) == len(set(paths)), "a preload hint did not match its fetch"


# Every text #boot-stage shows while the page boots, in order.
# From its first text as parsed (the start module runs before DOMContentLoaded).
STAGES = """window.__stages = [];
new MutationObserver((_, parsing) => {
  const el = document.getElementById('boot-stage');
  if (!el || !el.firstChild) return;
  parsing.disconnect();
  window.__stages.push(el.textContent);
  new MutationObserver(() => window.__stages.push(el.textContent))
    .observe(el, {childList: true, characterData: true, subtree: true});
}).observe(document, {childList: true, subtree: true});"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_boot_stages_are_told_in_the_page_s_language(
    browser: Any, base_url: str, lang: str
) -> None:
    """The start's stages (py:progress, named as PyScript named them) and the shell's
    last one, as the reader's language has them: a Chinese page said "Loaded Pyodide"
    while Python loaded."""
    locale = "zh-CN" if lang == "zh" else "en-US"
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    try:
        page = Page(context.new_page(), base_url)
        page.init_script(STAGES)
        page.open()
        assert page.page.evaluate("document.documentElement.lang") == (
            "zh-CN" if lang == "zh" else "en"
        )
        stages = page.page.evaluate("window.__stages")
    finally:
        context.close()
    assert len(stages) >= 3, stages  # the start, the loader's stages, the shell's
    want = {
        "en": ("starting Python", "Drawing the plan"),
        "zh": ("正在启动 Python", "正在绘制方案"),
    }
    assert (stages[0], stages[-1]) == want[lang]
    assert want[lang][0] not in stages[1:], stages  # never back to the start (a retext)
    cjk = [bool(re.search(r"[\u4e00-\u9fff]", s)) for s in stages]
    assert cjk == [lang == "zh"] * len(stages), stages
    if lang == "en":
        assert "Loaded Pyodide" in stages or "Loading Pyodide" in stages, stages


def test_the_page_boots_a_stdlib_with_bytecode_and_the_floor_the_shipped_one(
    site: Path,
) -> None:
    """Pyodide ships its stdlib as sources, compiled on every boot; the page's copy has
    bytecode, for Pyodide's Python, in place of the sources of what the page imports.
    Everything else is byte-identical, and the benchmark floor keeps the shipped zip."""
    (stock_path,) = site.glob("assets/python_stdlib.*.zip")
    (page_path,) = site.glob("assets/python_stdlib_pyc.*.zip")
    with zipfile.ZipFile(stock_path) as stock, zipfile.ZipFile(page_path) as ours:
        compiled = {n[:-1] for n in ours.namelist() if n.endswith(".pyc")}
        # budgetcore's own stdlib imports, and PyScript's
        assert {"fractions.py", "decimal.py", "dataclasses.py", "json/__init__.py"} <= compiled
        assert {"asyncio/__init__.py", "pathlib/__init__.py"} <= compiled
        assert not any(n.endswith(".pyc") for n in stock.namelist())
        assert set(ours.namelist()) == {n + "c" if n in compiled else n for n in stock.namelist()}
        for name in stock.namelist():
            if name not in compiled:
                assert ours.read(name) == stock.read(name), name
        (wheel,) = site.glob("assets/wheels-*/budgetcore-*.whl")
        with zipfile.ZipFile(wheel) as w:
            magic = w.read(next(n for n in w.namelist() if n.endswith(".pyc")))[:4]
        for name in compiled:
            head = ours.read(name + "c")[:8]
            assert head[:4] == magic, name  # compiled by the Python the page runs
            assert int.from_bytes(head[4:8], "little") == 0b01, name  # hash-based, unchecked
    (page_loader,) = site.glob("assets/pyodide-loader-page.*.js")
    assert page_path.name in page_loader.read_text()
    assert f"./assets/{page_loader.name}" in (site / "index.html").read_text()  # interpreter
    (floor,) = site.glob("assets/bare-pyodide.*.js")
    (loader,) = re.findall(r"\./(pyodide-loader[-a-z]*\.[0-9a-f]+\.js)", floor.read_text())
    assert stock_path.name in (site / "assets" / loader).read_text()
