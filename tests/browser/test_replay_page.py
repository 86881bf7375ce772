"""The session replay panel, wired: a generated session's summary cells are what
``python -m budgetcore replay`` prints, and an imported Claude Code log's own
compaction is marked on the timeline."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from budgetcore.scenario.dump import scenario_json
from budgetcore.scenario.model import Scenario
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
    p.wait_for_selector("[data-replay-summary=turns][data-value='120']", state="attached")
    page.assert_no_internal_error()
    cells = p.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-replay-summary]')]
             .map(e => [e.dataset.replaySummary, e.dataset.value]))"""
    )
    spec = {
        "turns": 120,
        "seed": 7,
        "added": {"dist": "uniform", "low": 1000, "high": 9000},
        "burst": {"rate": "0.05", "tokens": 40000},
    }
    summary = _cli_summary(tmp_path, "--generate", json.dumps(spec))
    assert cells == {k: _text(v) for k, v in summary.items()}
    # Scrubbing with the keyboard shows that turn's row and funnel.
    scrub = p.locator("#replay-scrub")
    scrub.focus()
    p.keyboard.press("Home")
    p.wait_for_selector("[data-turn='1']", state="attached")
    assert p.locator("[data-replay-funnel='1']").count() == 1
    assert (scrub.get_attribute("aria-valuetext") or "").startswith("Turn 1 of 120")

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
