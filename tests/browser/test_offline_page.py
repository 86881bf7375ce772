"""The self-contained page (``budgetcore.html``, scripts/offline.py) opened from disk,
as a user opens it: ``file://``, no server running. The key tests of the served page,
run against it: it reaches "ready", answers input exactly as the CLI, exports, imports
a config and a log, and requests nothing but itself."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import ROOT, Page, _page_at
from tests.golden import GOLDEN
from tests.helpers import cli_readouts

FIXTURE = ROOT / "tests" / "fixtures" / "claude-session.jsonl"

# Two of test_page.py's scenarios (a test module imports no other): another window, and
# a summary model that clamps S.
SCENARIOS = [
    {
        "main_model": {"input_tokens": 200_000, "output_tokens": 64_000},
        "config": {"trigger_tokens": 120_000, "safety_margin": "0.05"},
        "workload": {"required_tokens": 45_000, "history_tokens": 400_000},
    },
    {
        "summary_model": {"input_tokens": 32_768, "output_tokens": 4_096, "reserves_output": False},
        "config": {"summary_max_tokens": 16_384},
        "workload": {"previous_summary_tokens": 12_000, "backlog_tokens": 3_000},
    },
]


@pytest.fixture
def offline(browser: Any, site: Path) -> Iterator[Page]:
    # Page.open goes to base_url + path: the file's own URI, nothing after it.
    yield from _page_at(browser, (site / "budgetcore.html").as_uri(), 1280, 900)


def test_the_file_runs_from_disk_and_requests_nothing_but_itself(offline: Page) -> None:
    offline.open()
    shown = offline.readouts()
    assert {k: shown[k] for k in GOLDEN} == GOLDEN
    offline.fill("config.trigger_tokens", "40,000")
    assert offline.readouts()["trigger_reached"] is False
    assert [u for u in offline.requests if u != "data:,"] == [offline.base_url]
    assert offline.errors == []


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_readout_equals_the_cli_in_the_file(offline: Page, scenario: dict[str, Any]) -> None:
    offline.open()
    offline.apply_scenario(scenario)
    assert offline.readouts() == cli_readouts(scenario)


def test_the_file_exports_and_imports_a_config(offline: Page, tmp_path: Path) -> None:
    offline.open()
    offline.fill("limits.raw_bson_bytes", "4,194,304")
    p = offline.page
    p.check('[data-export-format][value="json"]')
    with p.expect_download() as info:
        p.click('[data-action="download"]')
    path = tmp_path / "o.json"
    info.value.save_as(path)
    assert json.loads(path.read_text())["limits"] == {"raw_bson_bytes": 4_194_304}
    assert path.read_text() == offline.text("#export-text")
    p.fill("#import-text", "[config]\ntrigger_tokens = 50000\n")
    p.click('[data-action="import"]')
    p.click('[data-action="import-apply"]')
    assert p.input_value('[data-input="config.trigger_tokens"]') == "50,000"
    assert offline.readouts()["trigger_reached"] is False


def test_the_file_imports_a_log(offline: Page) -> None:
    offline.open()
    p = offline.page
    p.click("#replay summary")
    p.check("input[data-replay-source][value=log]")
    p.set_input_files("#replay-file", str(FIXTURE))
    p.wait_for_selector("[data-marks=log_compaction][data-count='1']", state="attached")
    assert p.locator("[data-compaction='3'][data-pre-tokens='7000']").count() == 1
    offline.assert_no_internal_error()
    assert offline.errors == []


def test_the_file_allows_each_inline_script_by_its_hash_and_nothing_else(site: Path) -> None:
    """No 'unsafe-inline': each inline script and style is in the policy by its sha256,
    and the policy lets nothing be requested."""
    text = (site / "budgetcore.html").read_text(encoding="utf-8")
    (csp,) = re.findall(r'http-equiv="Content-Security-Policy" content="([^"]*)"', text)
    inline = re.findall(r"<script>(.*?)</script>", text, re.S)
    styles = re.findall(r"<style>(.*?)</style>", text, re.S)
    assert len(inline) == 6  # boot.js, the first view's, Pyodide's two, snapshot.js, offline.js
    assert len(styles) == 1

    def sha(s: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"

    script_src = next(d for d in csp.split("; ") if d.startswith("script-src "))
    assert sorted(script_src.split()[1:-2]) == sorted(sha(s) for s in inline)
    assert "unsafe-inline" not in csp
    assert "connect-src 'none'" in csp
    assert not re.search(r'(?:src|href)="(?!data:|#)', text), "the file refers to another file"


# The first frame, the boot stages shown, and the layout shifts, from before any script.
FIRST_FRAME = """
window.__first = new Promise(done => requestAnimationFrame(() => done({
  lang: document.documentElement.lang, title: document.title,
  h1: document.querySelector('h1').textContent,
  m: document.querySelector('[data-key-summary="main_safe_input"]').textContent,
  views: document.querySelectorAll('template#first-view-zh, #controls').length,
})));
window.__stages = []; window.__shifts = [];
new PerformanceObserver(l => window.__shifts.push(...l.getEntries().map(e => e.value)))
  .observe({ type: 'layout-shift', buffered: true });
document.addEventListener('DOMContentLoaded', () => {
  const el = document.getElementById('boot-stage');
  window.__stages.push(el.textContent);
  new MutationObserver(() => window.__stages.push(el.textContent))
    .observe(el, { childList: true, characterData: true, subtree: true });
});"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_file_s_first_frame_is_in_the_reader_s_language(
    browser: Any, site: Path, lang: str
) -> None:
    """One file, both first views: a Chinese browser's first frame is the Chinese
    pre-render (its title, heading and exact numbers), not English that turns Chinese
    at "ready"; the boot stages are Chinese throughout, nothing moves, and Python takes
    the page over in its language. An English browser gets the English one."""
    locale = "zh-CN" if lang == "zh" else "en-US"
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    try:
        page = Page(context.new_page(), (site / "budgetcore.html").as_uri())
        page.init_script(FIRST_FRAME)
        page.open()
        first = page.page.evaluate("window.__first")
        stages = page.page.evaluate("window.__stages")
        now = page.page.evaluate(
            "[document.documentElement.lang, document.title,"
            " document.querySelectorAll('#controls').length,"
            " document.getElementById('first-view-zh')]"
        )
        shown = page.readouts()
        page.page.wait_for_timeout(300)
        shifts = page.page.evaluate("window.__shifts")
        assert page.page.evaluate("location.pathname").endswith("/budgetcore.html")
        assert page.errors == []
    finally:
        context.close()
    want = {
        "en": ("en", "budgetcore — compaction budget controller", "Compaction budget controller"),
        "zh": ("zh-CN", "budgetcore — 压缩预算控制器", "压缩预算控制器"),
    }[lang]
    assert (first["lang"], first["title"], first["h1"]) == want
    assert first["m"] == f"{GOLDEN['main_safe_input']:,}"
    assert first["views"] == 1  # the chosen view only: no template left, one #controls
    assert now == [want[0], want[1], 1, None]
    assert {k: shown[k] for k in GOLDEN} == GOLDEN
    cjk = [bool(re.search(r"[\u4e00-\u9fff]", s)) for s in stages]
    assert len(stages) >= 3, stages
    assert cjk == [lang == "zh"] * len(stages), stages
    assert sum(shifts) < 0.001, shifts
