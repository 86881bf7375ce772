"""Reviewer workflow on the page: experiments, A/B, language, link and reset, curves."""

from __future__ import annotations

from typing import Any

import pytest

from budgetcore.ui.main.view.types import READOUT_KEYS
from tests.browser.conftest import Page
from tests.helpers import cli_plan, cli_readouts

pytestmark = pytest.mark.browser


def _signed(text: str) -> int | str:
    if text in ("same", "changed", "相同", "变化"):
        return text
    return int(text.replace("\u2212", "-").replace(",", "").replace("+", ""))


@pytest.mark.parametrize(
    ("key", "after", "same"),
    [
        ("lower_k", {"trigger_tokens_field": "16,000"}, ["main_safe_input", "summary_cap"]),
        ("lower_s", {"recompress_needed": True, "summary_new_raw": 0, "summary_cap": 8_192}, []),
        ("raise_i", {"main_safe_input": 1_880_064}, ["summary_cap"]),
        ("f_above_m", {"admitted": False, "raw_selected": 0, "engine_raw_headroom": 0}, []),
    ],
)
def test_each_experiment_shows_its_stated_outcome(
    page: Page, key: str, after: dict[str, Any], same: list[str]
) -> None:
    page.open()
    page.page.click(f'[data-experiment="{key}"]')
    result = page.page.locator(f'[data-experiment-result="{key}"]')
    assert result.get_attribute("data-holds") == "true"
    assert page.page.locator('[data-check][data-holds="false"]').count() == 0
    assert len(page.text(".expect")) > 40  # the expected outcome, stated in a sentence
    shown = page.readouts()
    for k, v in after.items():
        if k == "trigger_tokens_field":
            assert page.page.input_value('[data-input="config.trigger_tokens"]') == v
        else:
            assert shown[k] == v, k
    for k in same:
        assert page.text(f'[data-key-delta="{k}"]') == "0"
    assert page.page.get_attribute("#results", "data-ab") == "on"


def test_raise_i_highlights_what_did_not_grow(page: Page) -> None:
    page.open()
    page.page.click('[data-experiment="raise_i"]')
    rows = {
        r.get_attribute("data-check"): r.get_attribute("data-holds")
        for r in page.page.locator("[data-check]").all()
    }
    assert rows == {
        "main_safe_input": "true",
        "raw_bson_bytes": "true",
        "full_read_ms": "true",
        "single_query_ms": "true",
        "background_runs_per_process": "true",
        "trigger_tokens": "true",
    }


def test_ab_differences_equal_b_minus_a_from_the_cli(page: Page) -> None:
    page.open("#workload.history_tokens=50000")
    page.page.click('[data-action="pin"]')
    page.fill("workload.required_tokens", "120,000")
    page.fill("config.trigger_tokens", "150,000")
    a = cli_plan({"workload": {"history_tokens": 50_000}})
    b = cli_plan(
        {
            "workload": {"history_tokens": 50_000, "required_tokens": 120_000},
            "config": {"trigger_tokens": 150_000},
        }
    )
    for key in READOUT_KEYS:
        delta = _signed(page.text(f'[data-key-delta="{key}"]'))
        if isinstance(a[key], bool):
            assert delta == ("same" if a[key] == b[key] else "changed"), key
        else:
            assert delta == b[key] - a[key], key
            assert page.text(f'[data-key-a="{key}"]') == f"{a[key]:,}"
    # A is drawn in the same charts, on B's scale, as outlines; the inputs that differ
    # are listed.
    for key in ("funnel", "branch", "work"):
        assert page.page.locator(f"#chart-{key} [data-pinned]").count() > 0, key
    differs = page.page.locator("[data-differs]").evaluate_all(
        "els => els.map(e => e.dataset.differs)"
    )
    assert differs == ["config.trigger_tokens", "workload.required_tokens"]
    page.page.click('[data-action="unpin"]')
    assert page.page.get_attribute("#results", "data-ab") == "off"
    assert page.page.locator("#charts [data-pinned]").count() == 0
    assert page.page.is_disabled('[data-action="unpin"]')


def test_language_switch_changes_text_and_no_number(page: Page) -> None:
    page.open("#config.trigger_tokens=40000")
    numbers_en = page.readouts()
    svg_numbers_en = page.page.locator("[data-tokens]").evaluate_all(
        "els => els.map(e => e.getAttribute('data-tokens'))"
    )
    label_en = page.text('[data-i18n="label.config.trigger_tokens"]')
    page.page.select_option("#lang", "zh")
    assert page.text('[data-i18n="label.config.trigger_tokens"]') == "触发线 K"
    assert page.text('[data-i18n="label.config.trigger_tokens"]') != label_en
    assert page.text('[data-i18n="readout.main_safe_input"]') == "M — 主调用安全输入容量"
    assert page.page.evaluate("document.documentElement.lang") == "zh-CN"
    assert page.page.evaluate("location.hash") == "#config.trigger_tokens=40000&lang=zh"
    numbers_zh = {
        k: v
        for k, v in page.page.evaluate(
            """() => Object.fromEntries([...document.querySelectorAll('[data-key]')]
                 .map(e => [e.dataset.key, e.dataset.value ?? e.textContent]))"""
        ).items()
    }
    for key, value in numbers_en.items():
        shown = numbers_zh[key]
        assert shown == (str(value).lower() if isinstance(value, bool) else f"{value:,}"), key
    svg_numbers_zh = page.page.locator("[data-tokens]").evaluate_all(
        "els => els.map(e => e.getAttribute('data-tokens'))"
    )
    assert svg_numbers_zh == svg_numbers_en
    # Error messages are in Chinese too, naming the field by its label; the typed value stays.
    page.fill("config.trigger_tokens", "8k")
    assert page.text('[data-msg="config.trigger_tokens"]') == (
        '触发线 K 必须是 0 到 1,000,000,000,000 之间的整数(tokens);收到 "8k"'
    )
    # The choice travels with the link.
    page.open("#config.trigger_tokens=40000&lang=zh")
    assert page.page.input_value("#lang") == "zh"
    assert page.text('[data-i18n="static.title"]') == "压缩预算控制器"


def test_language_defaults_to_the_browser(browser: Any, base_url: str) -> None:
    context = browser.new_context(locale="zh-CN")
    try:
        p = Page(context.new_page(), base_url).open()
        assert p.page.input_value("#lang") == "zh"
        assert p.page.evaluate("location.hash") == ""  # not chosen, so not in the link
    finally:
        context.close()


def test_copy_link_and_reset(browser: Any, base_url: str) -> None:
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        p = Page(context.new_page(), base_url).open()
        p.fill("config.trigger_tokens", "50,000")
        p.page.click('[data-action="copy-link"]')
        copied = p.page.evaluate("navigator.clipboard.readText()")
        assert copied == base_url + "#config.trigger_tokens=50000"
        p.page.click('[data-action="reset"]')
        assert p.page.evaluate("location.hash") == ""
        assert p.readouts() == cli_readouts({})
    finally:
        context.close()


def test_capacity_curves_redraw_with_the_current_value_marked(page: Page) -> None:
    page.open()
    page.page.click("#curves summary")
    page.page.select_option("#sweep-path", "config.trigger_tokens")
    chart = page.page.locator("[data-chart=curves]")
    chart.wait_for(state="attached")
    assert chart.get_attribute("data-points") == "501"  # 500 grid points and K itself
    assert page.page.get_attribute("[data-current]", "data-current") == "32000"
    assert page.page.locator("polyline[data-series]").count() == 6
    page.fill("config.trigger_tokens", "100,000")
    page.page.wait_for_selector('[data-current="100000"]', state="attached")
    # Past the full input of 36,000 the trigger band is off: two runs, on then off.
    runs = page.page.locator('[data-state-of="trigger_reached"]').evaluate_all(
        "els => els.map(e => e.getAttribute('class'))"
    )
    assert runs == ["state state-true", "state state-false"]
    page.page.fill("#sweep-low", "8k")
    assert page.text("#sweep-msg").startswith("Sweep from must be a whole number of tokens")
    # The bad bound has the red outline, the other none (wiring of Screen.sweep_invalid).
    assert page.page.get_attribute("#sweep-low", "aria-invalid") == "true"
    assert page.page.get_attribute("#sweep-high", "aria-invalid") is None
    page.page.fill("#sweep-low", "400,000")  # above "to" (320,000)
    assert page.text("#sweep-msg").startswith("Sweep: 'from'")
    assert page.page.get_attribute("#sweep-high", "aria-invalid") == "true"
    page.page.fill("#sweep-low", "10,000")
    assert page.text("#sweep-msg") == ""
    assert page.page.get_attribute("#sweep-low", "aria-invalid") is None
    page.page.wait_for_selector("text=from 10,000 to 320,000", state="attached")
