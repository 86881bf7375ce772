"""Wiring of the model picker and the peers panel (their behaviour is tested in
tests/test_ui_models.py): real keystrokes in the combobox, a pick, M on screen, and
the peers' data-key lines."""

from __future__ import annotations

import pytest

from tests.browser.conftest import Page

pytestmark = pytest.mark.browser


def test_typing_in_the_picker_and_choosing_a_model_replans(page: Page) -> None:
    page.open()
    page.page.wait_for_selector('[data-figure="peers"]', timeout=60_000)
    assert page.readouts()["main_safe_input"] == 936_345
    picker = page.page.locator('[data-picker="main_model"]')
    picker.press_sequentially("sonnet 4.5", delay=30)
    page.page.wait_for_selector(
        '#picker-main_model-list [data-model="claude-sonnet-4-5"]', timeout=20_000
    )
    assert picker.get_attribute("aria-expanded") == "true"
    picker.press("ArrowDown")
    assert picker.get_attribute("aria-activedescendant") == "picker-main_model-opt-0"
    picker.press("Enter")
    page.page.wait_for_function(
        """() => document.querySelector('[data-input="main_model.input_tokens"]').value
                 === '200,000'""",
        timeout=20_000,
    )
    assert page.page.input_value('[data-input="main_model.output_tokens"]') == "64,000"
    assert picker.get_attribute("aria-expanded") == "false"
    assert page.readouts()["main_safe_input"] == 172_627
    info = page.text("#picker-main_model-info")
    assert "input 3 · output 15 · cache read 0.3 · cache write 3.75" in info
    assert "LiteLLM" in info
    shown = page.readouts(peers=True)
    assert shown["peer-pi"] == 200_000 - 16_384 + 1  # pi's profile: T > W − reserveTokens
    assert shown["line-compact"] == 167_000
    assert shown["line-main_safe_input"] == 172_627
    page.page.check('[data-peers-unit][value="percent"]')
    page.page.wait_for_selector('[data-figure="peers"][data-unit="percent"]')
    assert page.readouts(peers=True)["peer-pi"] == 183_617
    page.fill("main_model.output_tokens", "32000")
    page.page.wait_for_selector('#picker-main_model-info [data-custom="true"]')
    assert page.errors == []


def test_a_loose_name_resolves_in_the_picker_and_the_link_keeps_the_model(page: Page) -> None:
    page.open()
    page.page.wait_for_selector('[data-figure="peers"]', timeout=60_000)
    picker = page.page.locator('[data-picker="main_model"]')
    picker.press_sequentially("claude-sonnet-4", delay=20)
    first = page.page.locator("#picker-main_model-opt-0")
    first.wait_for(timeout=20_000)
    assert first.get_attribute("data-model") == "claude-sonnet-4-20250514"
    assert "(alias)" in (first.text_content() or "")
    picker.press("Enter")
    page.page.wait_for_function(
        """() => document.querySelector('[data-input="main_model.input_tokens"]').value
                 === '1,000,000'""",
        timeout=20_000,
    )
    info = page.text("#picker-main_model-info")
    assert "retired: last listed in LiteLLM 1.103.6" in info
    assert "Above 200,000 context tokens the whole request pays" in info
    page.page.wait_for_function(
        "location.hash.includes('main_model.model=claude-sonnet-4-20250514')", timeout=20_000
    )
    assert page.errors == []


def test_a_link_naming_a_codex_model_opens_with_it_in_chinese(page: Page) -> None:
    page.open("#main_model.model=gpt-5-codex&lang=zh")
    assert page.page.input_value('[data-input="main_model.input_tokens"]') == "272,000"
    assert page.page.input_value('[data-input="main_model.output_tokens"]') == "128,000"
    page.page.wait_for_selector('#picker-main_model-info [data-model-chosen="gpt-5-codex"]')
    assert "仅支持 Responses API" in page.text("#picker-main_model-info")
    shown = page.readouts(peers=True)
    assert shown["peer-codex"] == 244_800  # 0.9 x 272,000
    assert shown["peer-contextbuilder"] == 217_600  # 0.8 x 272,000
    assert page.errors == []
