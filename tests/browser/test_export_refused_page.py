"""A runtime that cannot reach the plan's K writes no file (third walk of December
2026, 1440 EN, Cline): the panel said why, yet showed an empty grey file box under the
reason, Download saved an empty cline-settings.json and Copy said "Copied." in the
notice of a success. What only a browser shows: the empty box is gone, and Copy and
Download answer with the refusal's notice (the update's side is
tests/test_ui_runtime_picker.py's)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import Page

pytestmark = pytest.mark.browser


def test_a_refused_runtime_shows_no_empty_file_and_refuses_copy_and_download(
    page: Page,
) -> None:
    page.open()
    # Cline compacts at 0.81 × W, 849,347 tokens of the article's 1,048,576: K 32,000 is
    # out of its reach.
    page.page.select_option("#export-runtime", "cline")
    page.page.wait_for_selector("[data-runtime-refused]")
    assert page.text("#export-text") == ""
    assert not page.page.is_visible("#export-text")
    downloads: list[str] = []
    page.page.on("download", lambda d: downloads.append(d.suggested_filename))
    for action in ("copy", "download"):
        page.page.click(f'#config [data-action="{action}"]')
        page.page.wait_for_selector('#notice[data-kind="refusal"]')
        assert "Nothing to save or copy" in page.text("#notice")
    page.page.wait_for_timeout(300)
    assert downloads == []
    # A runtime that can write its file shows it again.
    page.page.select_option("#export-runtime", "codex")
    page.page.wait_for_selector("#export-text:not(:empty)")
    assert page.page.is_visible("#export-text")
    assert "model_auto_compact_token_limit" in page.text("#export-text")
    assert page.errors == []
