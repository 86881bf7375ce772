"""A reviewer's warnings (issue 42): settings the parser allows that defeat their own
purpose, one home (budgetcore.scenario.warnings) for check, export and the page, in
both languages."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from budgetcore.messages import t
from budgetcore.scenario.parse import parse_scenario
from budgetcore.scenario.warnings import review_warnings
from budgetcore.ui.export.view import warnings_html

SONNET = {"input_tokens": 200_000, "output_tokens": 64_000}


def _codes(doc: dict) -> list[str]:
    return [w.code for w in review_warnings(parse_scenario(doc))]


def test_the_defaults_warn_of_nothing() -> None:
    assert _codes({}) == []


def test_k_at_or_above_m_is_warned() -> None:
    # M = floor(0.9 × (1,048,576 − 8,192)) = 936,345 (docs/spec.md §10).
    assert _codes({"config": {"trigger_tokens": 936_344}}) == []
    assert _codes({"config": {"trigger_tokens": 936_345}}) == ["k-at-or-above-m"]
    assert _codes({"config": {"trigger_tokens": 1_000_000}}) == ["k-at-or-above-m"]


def test_s_at_or_above_k_is_warned_with_the_clamped_s() -> None:
    doc = {"main_model": SONNET, "config": {"trigger_tokens": 40_000, "summary_max_tokens": 39_999}}
    assert "s-at-or-above-k" not in _codes(doc)
    doc["config"]["summary_max_tokens"] = 40_000
    assert "s-at-or-above-k" in _codes(doc)
    # S above the summary model's O is clamped first: 8,192 against K 9,000 is fine.
    small = {"main_model": {"input_tokens": 32_768, "output_tokens": 8_192}}
    small["config"] = {"trigger_tokens": 9_000, "summary_max_tokens": 20_000}
    assert _codes(small) == ["s-above-o"]


def test_k_far_below_every_peer_is_warned() -> None:
    # For a 200,000-token model the lowest peer token line is Gemini CLI's 0.5 × W =
    # 100,000 (PEERS.md); a quarter of it is 25,000.
    doc = {"main_model": SONNET, "config": {"trigger_tokens": 25_000, "summary_max_tokens": 4_096}}
    assert _codes(doc) == []
    doc["config"]["trigger_tokens"] = 24_999
    (w,) = review_warnings(parse_scenario(doc))
    assert w.code == "k-far-below-peers"
    assert "100,000" in w.text("en")
    assert "100,000" in w.text("zh")


def test_the_page_compares_with_the_peers_only_once_they_are_loaded() -> None:
    from budgetcore.registry.peers import default_peers  # noqa: PLC0415

    sc = parse_scenario({"main_model": SONNET, "config": {"trigger_tokens": 10_000}})
    assert 'data-warning="k-far-below-peers"' not in str(warnings_html(sc, "en"))
    assert 'data-warning="k-far-below-peers"' in str(warnings_html(sc, "en", default_peers()))


def test_the_page_shows_every_warning_in_both_languages() -> None:
    sc = parse_scenario({"config": {"trigger_tokens": 1_000_000}})
    en = str(warnings_html(sc, "en"))
    zh = str(warnings_html(sc, "zh"))
    assert 'data-warning="k-at-or-above-m"' in en
    assert "Warning: K = 1,000,000 is at or above M = 936,345" in en
    assert "警告" in zh
    assert "1,000,000" in zh


@pytest.mark.parametrize("command", ["export", "check"])
def test_export_and_check_print_the_warning_and_still_succeed(
    command: str, tmp_path: pytest.TempPathFactory
) -> None:
    if command == "export":
        args = ["export", "-"]
        stdin = '{"config": {"trigger_tokens": 1000000}}'
    else:
        cfg = tmp_path / "c.toml"  # type: ignore[operator]
        cfg.write_text("[config]\ntrigger_tokens = 1000000\n")
        args, stdin = ["check", str(cfg)], ""
    proc = subprocess.run(
        [sys.executable, "-m", "budgetcore", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "warning: K = 1,000,000 is at or above M = 936,345" in proc.stderr


def test_plan_json_carries_every_warning_coded_in_both_languages() -> None:
    """Issue 42: ``plan`` is what a CI job reads; its JSON holds what check and export
    print, as data (the code, its parameters and both sentences), and an empty list for
    a scenario that deserves none."""

    def planned(doc: str) -> Any:
        proc = subprocess.run(
            [sys.executable, "-m", "budgetcore", "plan", "-"],
            input=doc,
            capture_output=True,
            text=True,
            check=True,
        )
        assert proc.stderr == ""
        return json.loads(proc.stdout)

    out = planned('{"config": {"trigger_tokens": 1000000, "summary_max_tokens": 1000000}}')
    big = {"trigger_tokens": 1_000_000, "summary_max_tokens": 1_000_000}
    expected = review_warnings(parse_scenario({"config": big}))
    assert [w["code"] for w in out["warnings"]] == [w.code for w in expected]
    assert {w["code"] for w in out["warnings"]} >= {"s-above-o", "k-at-or-above-m"}
    k_m = next(w for w in out["warnings"] if w["code"] == "k-at-or-above-m")
    assert k_m["params"] == {"k": "1,000,000", "m": "936,345"}
    assert k_m["text"]["en"].startswith("K = 1,000,000 is at or above M = 936,345")
    assert k_m["text"]["zh"] == t("warn.k-at-or-above-m", "zh", k="1,000,000", m="936,345")
    assert k_m["text"]["zh"] != k_m["text"]["en"]
    assert out["main_safe_input"] == 936_345  # beside the numbers, not instead of them
    assert planned("{}")["warnings"] == []
