"""The samples panel: paste, unknown until sampled, the highlighted first limit."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import Page
from tests.helpers import cli_plan

pytestmark = pytest.mark.browser


def test_every_prediction_is_unknown_until_a_channel_has_samples(page: Page) -> None:
    page.open()
    cells = page.page.locator("[data-bytes]")
    assert cells.count() == 12
    assert all(c == "unknown" for c in cells.all_text_contents())
    page.page.fill("#samples-text", '{"channel": "bson", "tokens": 1000, "bytes": 4000}')
    assert page.text('[data-bytes="bson.raw_selected"]').startswith("39.06 KiB (40,000 bytes)")
    assert page.text('[data-bytes="text.raw_selected"]') == "unknown"
    assert page.text('[data-bytes="json.full_input"]') == "unknown"


def test_paste_keeps_valid_lines_and_names_each_bad_line(page: Page) -> None:
    page.open()
    page.page.fill(
        "#samples-text",
        "\n".join(
            [
                '{"channel": "bson", "tokens": 812, "bytes": 3310}',
                '{"channel": "bson", "tokens": 0, "bytes": 5}',
                "not json",
                '{"channel": "utf8", "tokens": 1, "bytes": 1}',
                '{"channel": "text", "tokens": 100, "bytes": -3}',
                '{"channel": "text", "tokens": 100, "bytes": 300}',
            ]
        ),
    )
    errors = page.page.locator("#sample-errors li").all_text_contents()
    assert [e.split(" ")[1].rstrip(":") for e in errors] == ["2", "3", "4", "5"]
    assert all(e.startswith("line ") for e in errors)
    # core.whole, the CLI's sentence too (one home since issue 38), its bound in digits
    # as the page's fields write it (the CLI says 10^12)
    assert "tokens must be an integer from 1 to 1,000,000,000,000; got 0" in errors[0]
    rows = {
        r: page.text(f'[data-channel="{r}"] td:nth-of-type(1)') for r in ("text", "bson", "json")
    }
    assert rows == {"text": "1", "bson": "1", "json": "0"}
    assert page.page.get_attribute("#results", "data-stale") == "false"


def test_the_first_binding_limit_is_highlighted_and_narrows_the_funnel(page: Page) -> None:
    page.open("#workload.history_tokens=3000000")
    page.page.click('[data-action="example-samples"]')
    binding = page.page.locator('[data-limit][data-binding="true"]')
    assert binding.count() == 1
    assert binding.get_attribute("data-limit") == "raw_bson_bytes"
    assert page.page.get_attribute("[data-verdict]", "data-verdict") == "raw_bson_bytes"
    # The page's numbers equal the CLI given the same samples.
    lines = page.page.input_value("#samples-text").splitlines()
    samples: dict[str, list[object]] = {
        "text": [],
        "bson": [],
        "json": [],
        "read": [],
        "query_ms": [],
    }
    for line in lines:
        if line.startswith("{"):
            obj = json.loads(line)
            channel = obj.pop("channel")
            if channel == "query":
                samples["query_ms"].append(obj["ms"])
            else:
                samples[channel].append(obj)
    data = {
        "workload": {"history_tokens": 3_000_000},
        "samples": {**samples, "tokens_per_message": "350", "messages_per_session": "40"},
    }
    want = cli_plan(data)
    shown = page.readouts()
    assert shown["prefetched"] == want["prefetched"] == want["io_token_cap"] == 485_451
    assert {k: shown[k] for k in ("raw_selected", "full_input")} == {
        k: want[k] for k in ("raw_selected", "full_input")
    }
    # The link now carries the samples: reopening it reproduces the verdict.
    fragment = page.page.evaluate("location.hash")
    assert "samples.bson=812:3310,1500:6480" in fragment
    page.open(fragment)
    assert page.page.get_attribute("[data-verdict]", "data-verdict") == "raw_bson_bytes"


def test_bad_average_is_named_inline(page: Page) -> None:
    page.open()
    page.page.fill('[data-sample-avg="samples.tokens_per_message"]', "-3")
    assert "Average tokens per message must be a decimal above 0" in page.text(
        '[data-msg="samples.tokens_per_message"]'
    )
    assert page.page.get_attribute("#results", "data-stale") == "true"
    page.page.fill('[data-sample-avg="samples.tokens_per_message"]', "")
    assert page.page.get_attribute("#results", "data-stale") == "false"


def test_a_fold_the_user_opened_stays_open_when_its_region_is_redrawn(page: Page) -> None:
    """The redraw round (6 December 2026) patched the main screen's regions: a region the
    diff cannot patch (it holds a <details>) is written whole, and a new F, which
    redraws the samples' tables, closed the fold the user was reading. The runner keeps
    each fold as the user left it, unless the view itself opens or closes it."""
    page.open()
    page.page.click('[data-action="example-samples"]')
    folds = page.page.locator("#samples-out details")
    assert folds.count() >= 2
    before = page.text("#samples-out")
    folds.first.locator("summary").click()
    assert folds.first.evaluate("d => d.open") is True
    assert folds.nth(1).evaluate("d => d.open") is False
    page.fill("workload.required_tokens", "12345")
    page.page.wait_for_function(
        "t => document.querySelector('#samples-out').textContent !== t", arg=before
    )
    assert folds.first.evaluate("d => d.open") is True
    assert folds.nth(1).evaluate("d => d.open") is False
