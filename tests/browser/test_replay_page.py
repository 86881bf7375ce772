"""The session replay panel, wired: a generated session's summary cells are what
``python -m budgetcore replay`` prints, and an imported Claude Code log's own
compaction is marked on the timeline."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from budgetcore.core.scenario import Scenario
from budgetcore.scenario.dump import scenario_json
from tests.browser.conftest import ROOT, Page

pytestmark = pytest.mark.browser

FIXTURE = ROOT / "tests" / "fixtures" / "claude-session.jsonl"


def _cli_summary(tmp_path: Path, *source: str) -> dict[str, object]:
    scenario = tmp_path / "scenario.json"
    data = scenario_json(Scenario())
    data["config"]["trigger_tokens"] = 30_000
    scenario.write_text(json.dumps(data))
    options = tmp_path / "options.json"
    options.write_text(
        json.dumps({"stable_prefix_tokens": 8000, "cache": True, "summary_ratio": "0.4"})
    )
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "budgetcore",
            "replay",
            str(scenario),
            *source,
            "--options",
            str(options),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    summary = json.loads(out.stdout.splitlines()[-1])["summary"]
    assert isinstance(summary, dict)
    return summary


def _text(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def test_generated_session_matches_the_cli_and_a_log_compaction_is_marked(
    page: Page, tmp_path: Path
) -> None:
    page.open()
    p = page.page
    assert p.locator("#replay").get_attribute("open") is None  # closed: nothing computed
    assert p.locator("[data-chart=replay-timeline]").count() == 0
    page.fill("config.trigger_tokens", "30,000")
    p.click("#replay summary")
    p.wait_for_selector("[data-replay-input='replay.turns']", state="attached")
    for path, text in (("turns", "120"), ("seed", "7"), ("summary_ratio", "0.4")):
        p.fill(f"[data-replay-input='replay.{path}']", text)
    p.set_checked("[data-replay-input='replay.cache']", True)
    spec = {
        "turns": 120,
        "seed": 7,
        "added": {"dist": "uniform", "low": 1000, "high": 9000},
        "burst": {"rate": "0.05", "tokens": 40000},
    }
    summary = _cli_summary(tmp_path, "--generate", json.dumps(spec))
    # The replay after the cache's box, not one before it: the turns' 120 alone showed
    # while the box's change still waited behind the replay's job (a fresh clone's CI
    # read the cache as 0). A page that kept the cache off times out here.
    cached = _text(summary["main_cached_tokens"])
    p.wait_for_selector(
        f"[data-replay-summary=main_cached_tokens][data-value='{cached}']", state="attached"
    )
    page.assert_no_internal_error()
    cells = p.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-replay-summary]')]
             .map(e => [e.dataset.replaySummary, e.dataset.value]))"""
    )
    assert cells == {k: _text(v) for k, v in summary.items()}
    # Scrubbing with the keyboard shows that turn's row and funnel.
    scrub = p.locator("#replay-scrub")
    scrub.focus()
    p.keyboard.press("Home")
    p.wait_for_selector("[data-turn='1']", state="attached")
    assert p.locator("[data-replay-funnel='1']").count() == 1
    assert (scrub.get_attribute("aria-valuetext") or "").startswith("Turn 1 of 120")
    assert page.text("#replay-scrub-out").startswith("Turn 1 of 120")  # shown, not only said

    # A Claude Code session file, read locally: its compaction on the timeline.
    p.check("input[data-replay-source][value=log]")
    p.set_input_files("#replay-file", str(FIXTURE))
    p.wait_for_selector("[data-marks=log_compaction][data-count='1']", state="attached")
    assert p.locator("[data-compaction='3'][data-pre-tokens='7000']").count() == 1
    assert "6, 19" in page.text("[data-replay-skipped]")
    assert "secret" not in (p.content())
    logged = _cli_summary(tmp_path, "--log", str(FIXTURE))
    turns = p.get_attribute("[data-replay-summary=turns]", "data-value")
    assert turns == str(logged["turns"])
    assert page.page.evaluate("document.documentElement.dataset.state") == "ready"
    assert not page.errors


LOGS = ROOT / "tests" / "fixtures" / "logs" / "claude"


def test_several_files_and_a_folder_give_one_row_per_session(page: Page) -> None:
    page.open()
    p = page.page
    p.click("#replay summary")
    p.check("input[data-replay-source][value=log]")
    files = [
        str(next((LOGS / name / "projects" / "-home-user-proj").glob("*.jsonl")))
        for name in ("01-plain-2.1", "04-sidechain-inline-1.0")
    ]
    p.set_input_files("#replay-file", files)
    p.wait_for_selector("[data-sessions='2']", state="attached")
    p.wait_for_selector("[data-chart=replay-timeline]", state="attached")
    assert p.locator("[data-replay-session='0'][aria-pressed='true']").count() == 1
    # The switch gives the scenario back its own model, and the log's again.
    p.uncheck("[data-replay-log-model]")
    p.wait_for_selector("[data-figure='replay-cost'][data-unit='tokens']", state="attached")
    p.check("[data-replay-log-model]")
    p.wait_for_selector("[data-figure='replay-cost'][data-unit='money']", state="attached")
    p.click("[data-replay-session='1']")
    p.wait_for_selector("[data-replay-session='1'][aria-pressed='true']", state="attached")
    assert "sidechain-1" in page.text("#replay-log")
    # A folder: the session file and its subagent files read together.
    p.set_input_files("#replay-folder", str(LOGS / "05-subagents-dir-2.1" / "projects"))
    p.wait_for_selector("[data-ledger-file$='agent-a7e3c1d2b4f5a6b7.jsonl']", state="attached")
    assert p.locator("[data-ledger-file]").count() == 3
    # One source at a time: the file picker forgot its two files.
    count = "(sel) => document.querySelector(sel).files.length"
    assert p.evaluate(count, "#replay-file") == 0
    assert p.evaluate(count, "#replay-folder") > 0
    p.set_input_files("#replay-file", files[:1])
    p.wait_for_selector("[data-ledger-file]:only-of-type", state="attached")
    assert p.evaluate(count, "#replay-folder") == 0
    page.assert_no_internal_error()
    assert not page.errors


def test_background_timing_is_wired_inputs_fates_and_the_shared_timeouts(page: Page) -> None:
    """Wiring only (the behaviour is tested in CPython): the timing box, a timing field,
    a timeout typed in the panel and in the main form, each reaches the page."""
    page.open()
    p = page.page
    page.fill("config.trigger_tokens", "20,000")
    p.click("#replay summary")
    p.wait_for_selector("[data-replay-summary=turns]", state="attached")
    assert p.locator("[data-replay-waste]").count() == 0  # off by default
    p.set_checked("[data-replay-input='replay.timing']", True)
    p.wait_for_selector("[data-replay-waste]", state="attached")
    assert p.locator("[data-legend='fate-published']").count() == 1
    assert p.locator("[data-plot=runs]").count() == 1
    # A bad value by its field, in the page's words; the replay waits.
    p.fill("[data-replay-input='replay.fixed_s']", "abc")
    p.wait_for_selector("[data-replay-msg='replay.fixed_s']:not(:empty)", state="attached")
    assert "Fixed duration" in page.text("[data-replay-msg='replay.fixed_s']")
    p.fill("[data-replay-input='replay.fixed_s']", "40")
    p.wait_for_selector("[data-replay-waste]", state="attached")
    p.wait_for_selector("[data-legend='fate-abandoned']:not([data-count='0'])", state="attached")
    # The model timeout typed in the panel is the scenario's: the main form shows it.
    p.fill("[data-replay-input='limits.model_timeout_s']", "60")
    p.wait_for_selector("[data-legend='fate-abandoned'][data-count='0']", state="attached")
    assert p.input_value('[data-input="limits.model_timeout_s"]') == "60"
    page.fill("limits.model_timeout_s", "30")
    p.wait_for_function(
        "document.querySelector(\"[data-replay-input='limits.model_timeout_s']\").value === '30'"
    )
    page.assert_no_internal_error()
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_loaded_log_keeps_the_phone_page_narrow_and_the_sections_bar_in_view(
    narrow_page: Page, lang: str, tmp_path: Path
) -> None:
    """The measured-usage table once stayed a 920 px table on a phone: the page grew
    to 949 px and the fixed Sections bar left the screen."""
    page = narrow_page.open(f"#lang={lang}")
    p = page.page
    p.click("#replay summary")
    p.check("input[data-replay-source][value=log]")
    files = [
        str(next((LOGS / name / "projects" / "-home-user-proj").glob("*.jsonl")))
        for name in ("10-models", "08-cache-1h")
    ]
    p.set_input_files("#replay-file", files)
    p.wait_for_selector("table.rp-usage", state="attached")
    width = p.evaluate("document.documentElement.clientWidth")
    assert p.evaluate("document.documentElement.scrollWidth") <= width
    nav = p.evaluate("document.getElementById('nav').getBoundingClientRect().bottom")
    assert nav <= p.evaluate("window.innerHeight")
    # A skipped line's long field path once widened the page by 107 px.
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"type":"assistant","uuid":"a","requestId":"r","message":{"id":"m","model":"m",'
        '"usage":{"input_tokens":5,"output_tokens":1}}}\n'
        '{"type":"assistant","uuid":"b","parentUuid":"a","requestId":"r2","message":{"id":"m2",'
        '"usage":{"input_tokens":5,"output_tokens":1,"cache_creation":'
        '{"ephemeral_5m_input_tokens":-1}}}}\n'
    )
    p.set_input_files("#replay-file", str(bad))
    p.wait_for_selector(".rp-skipped li", state="attached")
    assert "ephemeral_5m_input_tokens" in page.text(".rp-skipped")
    assert p.evaluate("document.documentElement.scrollWidth") <= width
    assert not page.errors


def test_a_large_log_is_read_with_its_progress_shown(page: Page, tmp_path: Path) -> None:
    """A 12 MB log once froze the tab until it was read: the status now says how far,
    and the browser paints between slices (the status changes while it reads)."""
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_bench_logs.py"), str(tmp_path),
         "--claude-mb", "12", "--codex-requests", "10"],
        check=True,
        capture_output=True,
    )  # fmt: skip
    (log,) = (tmp_path / "claude").rglob("*.jsonl")
    page.open()
    p = page.page
    p.click("#replay summary")
    p.check("input[data-replay-source][value=log]")
    p.evaluate(
        """() => { window.__seen = new Set();
                   const s = document.getElementById('replay-status');
                   new MutationObserver(() => window.__seen.add(s.textContent))
                     .observe(s, { childList: true, characterData: true, subtree: true }); }"""
    )
    p.set_input_files("#replay-file", str(log))
    p.wait_for_selector("table.rp-usage", state="attached", timeout=120_000)
    seen = p.evaluate("[...window.__seen]")
    assert sum("Reading the log" in s for s in seen) >= 2, seen
    # Read: the progress is gone (it used to stay, with this file's size, through the
    # next import and into the other language).
    assert page.text("#replay-status") == ""
    assert not page.errors


def test_a_long_model_name_does_not_break_the_numbers_beside_it(
    browser: Any, base_url: str
) -> None:
    """At 1440 px a proxy's model name took the usage table's width, and its numbers
    wrapped ("17,17 / 8", "$0.02365 / 33")."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    try:
        page = Page(context.new_page(), base_url).open()
        p = page.page
        p.click("#replay summary")
        p.check("input[data-replay-source][value=log]")
        base = LOGS / "25-proxy-model-names" / "projects" / "-tmp-private"
        p.set_input_files("#replay-file", [str(f) for f in base.glob("*.jsonl")])
        p.wait_for_selector("table.rp-usage", state="attached")
        lines = p.evaluate(
            """() => [...document.querySelectorAll('#replay-log td.num')].map(td => {
                 const r = document.createRange(); r.selectNodeContents(td);
                 const tops = [...r.getClientRects()].map(x => Math.round(x.top));
                 return [td.textContent, new Set(tops).size];
               })"""
        )
        assert len(lines) >= 8, lines
        assert all(n <= 1 for _, n in lines), [x for x in lines if x[1] > 1]
        assert not page.errors
    finally:
        context.close()


AGENTS = ROOT / "tests" / "fixtures" / "logs"


def test_an_agent_database_and_a_compressed_rollout_import_and_the_boot_leaves_sqlite3_out(
    page: Page,
) -> None:
    """Issue 40: the page reads an agent's SQLite database (OpenCode's opencode.db: one
    session per session in it, as the CLI) and a Codex .jsonl.zst (Python 3.14's
    compression.zstd), picked through the file inputs; sqlite3 is imported only then
    (Pyodide builds it in: the boot fetches and imports nothing for it)."""
    page.open()
    p = page.page
    imported = "(name) => window.budgetcoreImported(name)"
    assert p.evaluate(imported, "json") is True  # the probe answers
    assert p.evaluate(imported, "sqlite3") is False
    # compression.zstd is imported at boot by Pyodide itself (3.14's zipfile unpacks the
    # wheels with it), so it costs the page nothing more.
    p.click("#replay summary")
    p.check("input[data-replay-source][value=log]")
    p.set_input_files("#replay-folder", str(AGENTS / "opencode" / "db" / "opencode"))
    p.wait_for_selector("[data-sessions='2']", state="attached")
    assert p.evaluate(imported, "sqlite3") is True
    assert "ses_aaaaaaaaaaaaaaaaaaaaaaaaaa" in page.text("#replay-log")
    (rollout,) = (AGENTS / "codex-zst" / "compressed").rglob("*.jsonl.zst")
    p.set_input_files("#replay-file", str(rollout))
    p.wait_for_selector(f"[data-ledger-file='{rollout.name}']", state="attached")
    assert p.locator("[data-sessions]").count() == 0  # one session: no table of them
    page.assert_no_internal_error()
    assert not page.errors


#: Every column header word drawn whole: the client rectangles of each word's text.
_BROKEN_HEADER_WORDS = """() => {
  const out = [];
  for (const th of document.querySelectorAll('#replay table th[scope="col"]')) {
    if (!th.offsetParent) continue;
    const node = th.firstChild;
    if (!node || node.nodeType !== 3) continue;
    for (const m of node.textContent.matchAll(/\\S+/g)) {
      const r = document.createRange();
      r.setStart(node, m.index);
      r.setEnd(node, m.index + m[0].length);
      const rows = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
      if (rows.size > 1) out.push(m[0]);
    }
  }
  return out;
}"""


def test_a_wide_screen_never_breaks_a_column_header_inside_a_word(page: Page) -> None:
    """Walk of December 2026 (1440 EN): the backtest's per-series table drew its
    "requests" header as "request" over "s" while its series column took 435 px: a
    header could break anywhere, so the table shrank it below its own word."""
    page.open()
    p = page.page
    p.click("#replay summary")
    p.check("input[data-replay-source][value=log]")
    p.set_input_files("#replay-folder", str(LOGS / "27-asrun-backtest" / "projects"))
    p.wait_for_selector("[data-asrun-series]", state="attached")
    p.evaluate("document.querySelectorAll('#replay details').forEach(d => d.open = true)")
    assert p.evaluate(_BROKEN_HEADER_WORDS) == []
    page.assert_no_internal_error()
    assert not page.errors


def test_a_wide_screen_never_breaks_a_chinese_column_header_inside_its_word(
    page: Page, tmp_path: Path
) -> None:
    """The eleventh walk (1440 and 1000 px, Chinese): a folder with a Gemini CLI chat
    under its 64-hex project folder and a file no agent writes drew the sessions table's
    "行数" header as "行" over "数": Chinese has no space between words, so a header
    could break between any two of its characters."""
    folder = tmp_path / "logs"
    shutil.copytree(AGENTS / "gemini" / "jsonl" / "tmp", folder / "gemini")
    (folder / "notes.jsonl").write_text('{"hello": 1}\n')
    page.page.set_viewport_size({"width": 1440, "height": 900})
    p = page.open("#lang=zh").page
    p.click("#replay summary")
    p.check("input[data-replay-source][value=log]")
    p.set_input_files("#replay-folder", str(folder))
    p.wait_for_selector("[data-sessions='2']", state="attached")
    assert p.evaluate(_BROKEN_HEADER_WORDS) == []
    page.assert_no_internal_error()
    assert not page.errors
