"""What a person sees on the served page, compared with the CLI."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from budgetcore import parse_scenario, plan
from budgetcore.core.plan import OUTPUT_KEYS
from tests.browser.conftest import ROOT, Page
from tests.golden import GOLDEN
from tests.helpers import cli_plan, cli_readouts

pytestmark = pytest.mark.browser


SCENARIOS = [
    pytest.param({}, id="article-default"),
    pytest.param(
        {
            "main_model": {"input_tokens": 200_000, "output_tokens": 64_000},
            "config": {"trigger_tokens": 120_000, "safety_margin": "0.05"},
            "workload": {"required_tokens": 45_000, "history_tokens": 400_000},
        },
        id="200k-window",
    ),
    pytest.param(
        {
            "summary_model": {
                "input_tokens": 32_768,
                "output_tokens": 4_096,
                "reserves_output": False,
            },
            "config": {"summary_max_tokens": 16_384},
            "workload": {"previous_summary_tokens": 12_000, "backlog_tokens": 3_000},
        },
        id="small-summary-model-clamps-S-and-recompresses",
    ),
    pytest.param(
        {
            "workload": {
                "required_tokens": 930_000,
                "summary_tokens": 9_000,
                "engine_summary_tokens": 9_000,
                "history_tokens": 50_000,
                "usage_baseline_tokens": 25_000,
                "replay_since_baseline_tokens": 4_000,
            }
        },
        id="engine-drops-summary-baseline-below-K",
    ),
    pytest.param(
        {"main_model": {"reserves_output": False}, "config": {"safety_margin": "0"}},
        id="q0-no-margin",
    ),
]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_readout_equals_the_cli_for_a_scenario_typed_into_the_controls(
    page: Page, scenario: dict[str, Any]
) -> None:
    page.open()
    page.apply_scenario(scenario)
    assert page.readouts() == cli_readouts(scenario)
    assert page.page.get_attribute("#results", "data-stale") == "false"


def test_default_page_shows_the_golden_plan_with_separators(page: Page) -> None:
    page.open()
    shown = page.readouts()
    assert {k: shown[k] for k in GOLDEN} == GOLDEN
    assert page.text('[data-key="main_safe_input"]') == "936,345"
    assert page.page.input_value('[data-input="main_model.input_tokens"]') == "1,048,576"
    assert page.page.get_attribute('[data-lamp="trigger_reached"]', "data-value") == "true"
    assert page.page.get_attribute('[data-lamp="admitted"]', "data-value") == "true"
    assert page.errors == []


def test_no_request_leaves_the_origin(page: Page) -> None:
    page.open()
    page.fill("config.trigger_tokens", "40,000")
    outside = [u for u in page.requests if not u.startswith(page.base_url) and u != "data:,"]
    assert outside == []
    # budgetcore comes with the build's memory snapshot and its files, not a wheel install
    loaded = [u.rsplit("/", 1)[-1].split(".")[0] for u in page.requests]
    assert {"pyodide-snapshot", "budgetcore-files"} <= set(loaded), loaded
    assert not any(u.endswith(".whl") for u in page.requests)


@pytest.mark.parametrize("how", ["field", "slider"])
def test_moving_k_changes_the_trigger_and_nothing_of_m_s_g_c(page: Page, how: str) -> None:
    page.open()
    before = page.readouts()
    if how == "field":
        page.fill("config.trigger_tokens", "40000")
    else:
        page.page.fill('[data-slider="config.trigger_tokens"]', "700")
    after = page.readouts()
    assert before["trigger_reached"] is True
    assert after["trigger_reached"] is False
    assert page.page.get_attribute('[data-lamp="trigger_reached"]', "data-value") == "false"
    for key in ("main_safe_input", "summary_cap", "summary_generation", "summary_safe_input"):
        assert after[key] == before[key], key
    if how == "slider":
        typed = page.page.input_value('[data-input="config.trigger_tokens"]')
        k = int(typed.replace(",", ""))
        assert k > 36_000
        assert after == cli_readouts({"config": {"trigger_tokens": k}})


@pytest.mark.parametrize(
    ("path", "text", "rule"),
    [
        ("config.trigger_tokens", "", "Trigger line K must be a whole number of tokens from 0"),
        ("config.trigger_tokens", "-5", "Trigger line K must be a whole number of tokens from 0"),
        ("config.summary_max_tokens", "8k", "Summary cap S must be a whole number of tokens"),
        ("config.trigger_tokens", "1,000,000,000,001", "to 1,000,000,000,000"),
        (
            "main_model.input_tokens",
            "0",
            "Input capacity I must be a whole number of tokens from 1",
        ),
        (
            "config.safety_margin",
            "1.5",
            "Safety margin m must be a decimal from 0 (inclusive) to 1",
        ),
        ("workload.required_tokens", "1,2,3", "Required input F must be a whole number of tokens"),
    ],
)
def test_bad_input_shows_the_rule_and_keeps_the_last_valid_plan_marked_stale(
    page: Page, path: str, text: str, rule: str
) -> None:
    page.open()
    page.fill("config.trigger_tokens", "33000")  # a valid change first
    valid = page.readouts()
    page.fill(path, text)
    message = page.text(f'[data-msg="{path}"]')
    assert path not in message  # the field as the page labels it; the path is for the CLI
    assert rule in message
    assert page.page.get_attribute(f'[data-input="{path}"]', "aria-invalid") == "true"
    assert page.page.get_attribute("#results", "data-stale") == "true"
    assert page.page.is_visible("#stale")
    assert page.readouts() == valid
    body = page.text("body")
    assert "NaN" not in body
    assert "Traceback" not in body
    # Fixing the field clears the message and the stale mark.
    page.fill(path, "900" if "margin" not in path else "0.2")
    assert page.text(f'[data-msg="{path}"]') == ""
    assert page.page.get_attribute("#results", "data-stale") == "false"


def test_typed_text_is_shown_as_text_never_as_html(page: Page) -> None:
    page.open()
    page.fill("config.trigger_tokens", "<img src=x onerror=alert(1)>")
    assert page.page.query_selector("#controls img") is None
    assert "<img" in page.text('[data-msg="config.trigger_tokens"]')


def test_own_summary_model_contract_moves_c_and_not_m(page: Page) -> None:
    page.open()
    page.page.set_checked('[data-toggle="summary_model"]', False)
    assert page.page.is_visible('[data-input="summary_model.input_tokens"]')
    page.fill("summary_model.input_tokens", "131,072")
    shown = page.readouts()
    assert shown["main_safe_input"] == 936_345
    assert shown["summary_safe_input"] == (9 * (131_072 - 8_192)) // 10


def test_engine_drops_the_summary_button(page: Page) -> None:
    page.open()
    page.page.click('[data-action="engine-drops"]')
    assert page.page.input_value('[data-input="workload.engine_summary_tokens"]') == "0"
    shown = page.readouts()
    assert shown["summary_adopted"] == 0
    assert shown["full_input"] == 30_000
    assert shown["loader_prefetch_limit"] == 930_345  # the loader still reserved A


def test_preset_fills_the_main_contract(page: Page) -> None:
    page.open()
    page.page.select_option("#preset", "w200k")
    assert page.page.input_value('[data-input="main_model.input_tokens"]') == "200,000"
    assert (
        page.readouts()["main_safe_input"]
        == cli_plan({"main_model": {"input_tokens": 200_000, "output_tokens": 64_000}})[
            "main_safe_input"
        ]
    )


def test_background_toggles_stop_the_summary_start(page: Page) -> None:
    page.open()
    page.set_checked("background.lease_acquired", False)
    assert page.page.get_attribute('[data-lamp="summary_will_start"]', "data-value") == "false"
    assert page.readouts()["trigger_reached"] is True


def _random_scenario(rng: random.Random) -> dict[str, Any]:
    def tokens() -> int:
        return rng.choice([0, 1, rng.randint(0, 2_000_000), rng.randint(0, 10**12)])

    def contract() -> dict[str, Any]:
        return {
            "input_tokens": rng.randint(1, 4_000_000),
            "output_tokens": rng.randint(1, 200_000),
            "reserves_output": rng.random() < 0.5,
        }

    return {
        "main_model": contract(),
        "summary_model": rng.choice([None, contract()]),
        "config": {
            "trigger_tokens": tokens(),
            "summary_max_tokens": tokens(),
            "safety_margin": rng.choice(["0", "0.1", "0.05", "0.333", "0.999999"]),
            "reply_max_tokens": tokens(),
        },
        "workload": {
            "required_tokens": tokens(),
            "summary_tokens": tokens(),
            "engine_summary_tokens": rng.choice([None, tokens()]),
            "history_tokens": tokens(),
            "summary_instruction_tokens": tokens(),
            "previous_summary_tokens": tokens(),
            "backlog_tokens": rng.choice([None, tokens()]),
            "usage_baseline_tokens": rng.choice([None, tokens()]),
            "replay_since_baseline_tokens": tokens(),
        },
    }


def test_pyodide_gives_exactly_the_cpython_results(page: Page) -> None:
    """The golden table and 300 generated scenarios, evaluated by budgetcore inside
    Pyodide, equal CPython's results key by key."""
    page.open()
    rng = random.Random(20261129)
    batch: list[Any] = [{}] + [_random_scenario(rng) for _ in range(300)]
    batch.append({"config": {"trigger_tokens": "32k"}})  # errors must match too
    got = json.loads(page.page.evaluate("(t) => window.budgetcorePlanBatch(t)", json.dumps(batch)))
    assert {k: got[0][k] for k in GOLDEN} == GOLDEN
    for data, result in zip(batch[:-1], got[:-1], strict=True):
        assert result == plan(parse_scenario(data)).as_dict()
    assert got[-1] == {
        "error": 'config.trigger_tokens must be an integer from 0 to 10^12, got "32k"'
    }
    version = page.page.evaluate("() => window.budgetcorePlan('{}')")
    assert json.loads(version)["main_safe_input"] == 936_345
    assert all(k in got[1] for k in OUTPUT_KEYS)


def test_narrow_screen_has_no_horizontal_scroll_and_every_control_is_labelled(
    narrow_page: Page,
) -> None:
    narrow_page.open()
    width = narrow_page.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 380
    unlabelled = narrow_page.page.evaluate(
        """() => [...document.querySelectorAll('input, select, button')]
             .filter(e => !e.hidden && e.offsetParent !== null)
             .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
                          && !e.getAttribute('aria-labelledby') && !e.textContent.trim())
             .map(e => e.outerHTML)"""
    )
    assert unlabelled == []


def test_keyboard_reaches_the_fields_in_order(page: Page) -> None:
    page.open()
    page.page.focus('[data-input="config.trigger_tokens"]')
    page.page.keyboard.press("Control+a")
    page.page.keyboard.type("50000")
    page.page.keyboard.press("Tab")
    # The next field's slider is in the tab order too, announcing its value.
    assert page.page.evaluate("document.activeElement.dataset.slider") == (
        "config.summary_max_tokens"
    )
    assert (
        page.page.evaluate("document.activeElement.getAttribute('aria-valuetext')")
        == "8,192 tokens"
    )
    page.page.keyboard.press("Tab")
    focused = page.page.evaluate("document.activeElement.dataset.input")
    assert focused == "config.summary_max_tokens"
    assert page.readouts()["trigger_reached"] is False
    # ArrowUp nudges a number field (about 1 % of its order of magnitude).
    page.page.keyboard.press("ArrowUp")
    assert page.page.input_value('[data-input="config.summary_max_tokens"]') == "8,292"


def test_opening_the_file_directly_says_to_use_scripts_serve(browser: Any) -> None:
    context = browser.new_context()
    try:
        p = context.new_page()
        p.goto((ROOT / "web" / "index.html").as_uri())
        p.wait_for_function("document.documentElement.dataset.state === 'error'", timeout=30_000)
        said = p.text_content("#boot-error") or ""
        # The page from disk names the file that does run there (budgetcore.html).
        assert "scripts/serve" in said
        assert "budgetcore.html" in said
    finally:
        context.close()
