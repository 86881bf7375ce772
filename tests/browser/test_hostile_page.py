"""A few hostile files through the real page (issue 41), once: the same cases
tests/test_ui_hostile_files.py walks through the page's handlers in CPython, here
through the file inputs, Pyodide and the DOM. Each ends in a coded refusal or a read
log, with no script run, no tag added, no raw control character in the text and no
error in the console."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser.conftest import Page

pytestmark = pytest.mark.browser

HOSTILE = (
    '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">\x1b]0;x\x07\u202e'
)


def _claude(text: str) -> str:
    entry = {
        "type": "assistant",
        "uuid": "a",
        "requestId": text,
        "agentId": text,
        "message": {"id": "m", "model": text, "usage": {"input_tokens": 10, "output_tokens": 5}},
    }
    odd = {"type": text, "uuid": "b", "parentUuid": "a"}
    return json.dumps(entry) + "\n" + json.dumps(odd) + "\n"


def _clean(page: Page) -> None:
    p = page.page
    assert p.evaluate("window.__pwned === undefined")
    assert p.evaluate("document.querySelectorAll('img[src=x], body script:not([src])').length") == 0
    text = p.evaluate("document.body.innerText")
    assert not any(c in text for c in ("\x1b", "\x07", "\u202e"))
    assert not page.errors


def test_hostile_logs_through_the_real_page(page: Page, tmp_path: Path) -> None:
    page.open()
    p = page.page
    p.click("#replay summary")
    p.check("input[data-replay-source][value=log]")
    # every text field of a log, and its file name
    log = tmp_path / "s<b>x.jsonl"
    log.write_text(_claude(HOSTILE), encoding="utf-8")
    p.set_input_files("#replay-file", str(log))
    p.wait_for_selector("table.rp-usage", state="attached", timeout=120_000)
    _clean(page)
    # a corrupt zstd frame: a coded refusal (it raised KeyError in the panel)
    bad = tmp_path / "rollout.jsonl.zst"
    bad.write_bytes(b"\x28\xb5\x2f\xfd" + bytes(range(256)))
    p.set_input_files("#replay-file", str(bad))
    p.wait_for_selector("[data-replay-error=log] li", state="attached", timeout=120_000)
    assert "cannot be decompressed" in page.text("[data-replay-error=log]")
    _clean(page)
    # binary bytes: refused by code
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(bytes(range(256)) * 64)
    p.set_input_files("#replay-file", str(binary))
    p.wait_for_selector("[data-replay-error=log] li", state="attached", timeout=120_000)
    _clean(page)


def test_a_hostile_config_file_through_the_real_import(page: Page, tmp_path: Path) -> None:
    page.open()
    p = page.page
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"config": {HOSTILE: 1, "trigger_tokens": 1e300}}))
    p.set_input_files("#import-file", str(config))
    p.wait_for_selector("#import-errors li", state="attached", timeout=60_000)
    _clean(page)
