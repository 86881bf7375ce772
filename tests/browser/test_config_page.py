"""The config panel and the URL fragment, as a person uses them."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from budgetcore import parse_scenario
from budgetcore.scenario.export import export_toml
from tests.browser.conftest import Page
from tests.helpers import cli_readouts

pytestmark = pytest.mark.browser


def test_export_panel_follows_the_settings_live(page: Page) -> None:
    page.open()
    assert "no overrides" in page.text("#export-text")
    assert "every supported setting is at its default" in page.text("#export-diff")
    page.fill("config.trigger_tokens", "40,000")
    page.fill("main_model.input_tokens", "2,000,000")  # a model contract: never exported
    text = page.text("#export-text")
    data = tomllib.loads(text)
    assert data.pop("config") == {"trigger_tokens": 40_000}
    # The contract is recorded as the reviewed one, never set as an override.
    assert data == {
        "reviewed": {
            "main_model": {
                "input_tokens": 2_000_000,
                "output_tokens": 65_536,
                "reserves_output": True,
            }
        }
    }
    assert "input_tokens" not in text.split("\n\n", 1)[1].partition("[reviewed.")[0]
    assert page.page.is_visible('[data-override="config.trigger_tokens"]')
    same = parse_scenario(
        {"config": {"trigger_tokens": 40_000}, "main_model": {"input_tokens": 2_000_000}}
    )
    assert text == export_toml(same)


def test_download_gives_the_shown_file(page: Page, tmp_path: Path) -> None:
    page.open()
    page.fill("limits.raw_bson_bytes", "4,194,304")
    page.page.check('[data-export-format][value="json"]')
    with page.page.expect_download() as info:
        page.page.click('[data-action="download"]')
    download = info.value
    assert download.suggested_filename == "budgetcore-overrides.json"
    path = tmp_path / "o.json"
    download.save_as(path)
    doc = json.loads(path.read_text())
    assert doc["limits"] == {"raw_bson_bytes": 4_194_304}
    assert path.read_text() == page.text("#export-text")


def test_import_applies_to_controls_plan_and_fragment(page: Page) -> None:
    page.open()
    page.page.fill("#import-text", "[config]\ntrigger_tokens = 50000\n[limits]\nlease_s = 300\n")
    page.page.click('[data-action="import"]')
    preview = page.text("#import-result")
    assert "The file sets 2 overrides (replace)" in preview
    assert page.readouts()["trigger_reached"] is True  # nothing applied before Apply
    page.page.click('[data-action="import-apply"]')
    assert "the file set 2 overrides: config.trigger_tokens, limits.lease_s" in page.text(
        "#import-ok"
    )
    assert page.page.input_value('[data-input="config.trigger_tokens"]') == "50,000"
    assert page.page.input_value('[data-input="limits.lease_s"]') == "300"
    assert page.readouts()["trigger_reached"] is False
    assert page.page.evaluate("location.hash") == "#config.trigger_tokens=50000&limits.lease_s=300"


def test_import_lists_every_problem_inline_and_changes_nothing(page: Page) -> None:
    page.open()
    before = page.readouts()
    page.page.fill(
        "#import-text",
        '[config]\ntrigger_tokens = "32k"\n[main_model]\ninput_tokens = 5\n'
        "[limits]\nmodel_timeout_s = 100\n<b>x</b> = 1\n",
    )
    page.page.click('[data-action="import"]')
    items = page.page.locator("#import-errors li").all_text_contents()
    assert len(items) == 1  # the bare <b> line makes the file invalid TOML
    assert "not valid TOML" in items[0]
    page.page.fill(
        "#import-text",
        '[config]\ntrigger_tokens = "32k"\n[main_model]\ninput_tokens = 5\n'
        "[limits]\nmodel_timeout_s = 100\n",
    )
    page.page.click('[data-action="import"]')
    items = page.page.locator("#import-errors li").all_text_contents()
    # Each names the setting as the page labels it (with the file's key where it helps).
    assert items[0].startswith("Trigger line K (config.trigger_tokens) must be"), items[0]
    assert "(main_model.input_tokens)" in items[1], items[1]
    assert items[2].startswith("Model timeout (100) must be at most Run timeout (90)"), items[2]
    assert "model registry" in items[1]
    assert page.readouts() == before
    assert page.page.locator("#import-ok").count() == 0


def test_import_from_a_file(page: Page, tmp_path: Path) -> None:
    page.open()
    path = tmp_path / "c.json"
    path.write_text('{"config": {"summary_max_tokens": 4096}}')
    page.page.set_input_files("#import-file", str(path))
    page.page.wait_for_selector('[data-action="import-apply"]')
    page.page.click('[data-action="import-apply"]')
    page.page.wait_for_selector("#import-ok")
    assert page.readouts()["summary_cap"] == 4_096
    # The box shows the file's text; a file with a byte that is not UTF-8 is refused.
    assert "4096" in page.page.input_value("#import-text")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"[config]\ntrigger_tokens = 9000 # \xff\n")
    page.page.set_input_files("#import-file", str(bad))
    page.page.wait_for_function(
        "document.getElementById('import-result').textContent.includes('UTF-8')"
    )
    assert page.page.locator('[data-action="import-apply"]').count() == 0


def test_a_link_reproduces_the_page_exactly(page: Page) -> None:
    fragment = (
        "#config.trigger_tokens=40000&workload.required_tokens=900000"
        "&summary_model.input_tokens=131072&summary_model.output_tokens=4096"
        "&summary_model.reserves_output=false&config.safety_margin=0.2"
    )
    page.open(fragment)
    data = {
        "config": {"trigger_tokens": 40_000, "safety_margin": "0.2"},
        "workload": {"required_tokens": 900_000},
        "summary_model": {
            "input_tokens": 131_072,
            "output_tokens": 4_096,
            "reserves_output": False,
        },
    }
    assert page.readouts() == cli_readouts(data)
    assert page.page.is_visible('[data-input="summary_model.input_tokens"]')
    assert page.text("#link-problems") == ""


def test_a_bad_pair_in_a_link_falls_back_and_is_named(page: Page) -> None:
    page.open("#config.trigger_tokens=8k&workload.required_tokens=900000&nonsense=1")
    problems = page.text("#link-problems")
    assert (
        # core.whole, the CLI's sentence too (one home since issue 38), its bound in
        # digits as the page's fields write it (the CLI says 10^12)
        "Trigger line K (config.trigger_tokens) must be an integer from 0 to "
        '1,000,000,000,000; got "8k"'
    ) in problems
    assert '"nonsense" is not a scenario field' in problems
    assert page.readouts() == cli_readouts({"workload": {"required_tokens": 900_000}})
    assert page.page.input_value('[data-input="config.trigger_tokens"]') == "32,000"


def test_the_runtime_picker_renames_the_knobs_exports_and_imports_its_file(
    page: Page, tmp_path: Path
) -> None:
    """Issue 39: pick Codex CLI beside Export; K becomes its token limit, S is named as
    not settable, the text is `export --runtime codex`'s, and the import box reads a
    Codex config.toml (as `check --runtime codex`)."""
    from tests.helpers import run_cli  # noqa: PLC0415

    page.open("#main_model.input_tokens=272000&main_model.output_tokens=128000"
              "&config.trigger_tokens=120000")  # fmt: skip
    page.page.select_option("#export-runtime", "codex")
    page.page.wait_for_selector('[data-runtime-table="codex"]', timeout=20_000)
    k_row = page.text('[data-runtime-row="k"]')
    assert "model_auto_compact_token_limit" in k_row
    assert "120000" in k_row
    assert "not settable in Codex CLI" in page.text('[data-runtime-row="s"]')
    cli = run_cli(
        [
            "export",
            "--runtime",
            "codex",
            "--fragment",
            "main_model.input_tokens=272000&main_model.output_tokens=128000"
            "&config.trigger_tokens=120000",
        ]
    )
    assert page.text("#export-text") == cli.out
    with page.page.expect_download() as info:
        page.page.click('[data-action="download"]')
    assert info.value.suggested_filename == "codex-settings.toml"
    page.page.fill("#import-text", "model_auto_compact_token_limit = 90000\n")
    page.page.click('[data-action="import"]')
    page.page.wait_for_selector('[data-import-restores="runtime"]')
    page.page.click('[data-action="import-apply"]')
    page.page.wait_for_function(
        """() => document.querySelector('[data-input="config.trigger_tokens"]').value
                 === '90,000'""",
        timeout=20_000,
    )
    page.page.set_viewport_size({"width": 390, "height": 844})
    width = page.page.evaluate("document.querySelector('#config').scrollWidth")
    assert width <= 390
    assert page.errors == []


def test_a_reviewed_file_reimports_to_the_reviewed_plan_after_reset(page: Page) -> None:
    """Issue 42: after Reset, importing a Sonnet review gave the default model's M
    (884,326); the file records the model now, and the preview says which plan."""
    from tests.helpers import run_cli  # noqa: PLC0415

    review = run_cli(
        ["export", "--fragment", "main_model.model=claude-sonnet-4-5&config.safety_margin=0.15"]
    ).out
    page.open()
    page.page.click('[data-action="reset"]')
    page.page.fill("#import-text", review)
    page.page.click('[data-action="import"]')
    restores = page.text('[data-import-restores="file"]')
    # floor(0.85 × (200,000 − 8,192)) = 163,036 (LiteLLM's Sonnet 4.5: I 200,000, O 64,000)
    assert "claude-sonnet-4-5 (I 200,000, O 64,000): M 163,036" in restores
    page.page.click('[data-action="import-apply"]')
    page.page.wait_for_function(
        """() => document.querySelector('[data-input="main_model.input_tokens"]').value
                 === '200,000'""",
        timeout=20_000,
    )
    assert page.readouts()["main_safe_input"] == 163_036
    assert "main_model.model=claude-sonnet-4-5" in page.page.evaluate("location.hash")
    assert page.errors == []
