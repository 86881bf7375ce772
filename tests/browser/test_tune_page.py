"""The Tune panel, wired: the grid runs in slices once the panel opens, a click on a
cell sets K and S in the fields and the link as one change, the keyboard moves the
focus between cells and Enter chooses one. What the panel computes and draws is
tested in CPython (tests/test_ui_tune.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Page

pytestmark = pytest.mark.browser


def test_a_cell_sets_k_and_s_in_the_fields_and_the_link(page: Page) -> None:
    page.open()
    p = page.page
    assert p.locator("[data-tune-map]").count() == 0  # closed: nothing computed
    p.click("#tune summary")
    p.wait_for_selector("[data-tune-map=cost] [data-tune-cell]", state="attached", timeout=60_000)
    page.assert_no_internal_error()
    cell = p.locator("[data-tune-map=cost] [data-tune-cell='37']")  # K index 2, S index 5
    k, s = cell.get_attribute("data-k"), cell.get_attribute("data-s")
    cell.click()
    p.wait_for_function(
        f"location.hash.includes('config.trigger_tokens={k}')"
        f" && location.hash.includes('config.summary_max_tokens={s}')"
    )
    assert p.input_value("[data-input='config.trigger_tokens']") == f"{int(str(k)):,}"
    assert p.input_value("[data-input='config.summary_max_tokens']") == f"{int(str(s)):,}"
    # The keyboard: the cell in the tab order, an arrow to its right, Enter chooses it.
    p.wait_for_selector(
        "[data-tune-map=cost] [data-tune-cell='37'][tabindex='0']", state="attached"
    )
    p.focus("[data-tune-map=cost] [data-tune-cell='37']")
    p.keyboard.press("ArrowRight")
    assert p.evaluate("document.activeElement.getAttribute('data-tune-cell')") == "38"
    s2 = p.get_attribute("[data-tune-map=cost] [data-tune-cell='38']", "data-s")
    p.wait_for_function("document.querySelector('#tune-point').textContent.includes('S ')")
    p.keyboard.press("Enter")
    p.wait_for_function(f"location.hash.includes('config.summary_max_tokens={s2}')")
    assert p.evaluate("document.activeElement.getAttribute('data-tune-cell')") == "38"
    page.assert_no_internal_error()
    assert not page.errors


def _tap_where_it_rests(p: Any, target: Any) -> None:
    """Tap ``target`` as a finger does: on screen, where it is once the page has drawn.

    Scrolling can change the layout in the frames after it (a panel with
    content-visibility: auto brought near the screen takes its real height), so a tap
    aimed right after the scroll may land where the target no longer is. Scroll first,
    let the frames that follow settle the target's box, then tap it there."""
    target.scroll_into_view_if_needed()
    box = None
    for _ in range(20):
        p.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        now = target.bounding_box()
        if now is not None and now == box:
            break
        box = now
    target.tap()


def test_a_tap_on_a_cell_shows_the_point_and_its_own_button_sets_it(
    browser: Any, base_url: str
) -> None:
    """A 14 px cell under a finger: a tap shows the point (a tap off by a cell sets
    nothing) and the 40 px button beside the readout sets K and S."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    try:
        page = Page(context.new_page(), base_url).open()
        p = page.page
        # A finger opens the panel too: a mouse click would leave a mouse pointer over
        # the page, and when the layout moves a cell under it, its hover shows that
        # cell's point instead of the tapped one (a phone has no such pointer).
        _tap_where_it_rests(p, p.locator("#tune summary"))
        p.wait_for_selector(
            "[data-tune-map=cost] [data-tune-cell]", state="attached", timeout=60_000
        )
        p.wait_for_selector("#tune-progress[hidden]", state="attached", timeout=60_000)
        before = p.evaluate("location.hash")
        cell = p.locator("[data-tune-map=cost] [data-tune-cell='37']")
        _tap_where_it_rests(p, cell)
        use = p.locator("#tune-point-use [data-action=tune-use]")
        use.wait_for(state="attached")
        k, s = cell.get_attribute("data-k"), cell.get_attribute("data-s")
        assert (use.get_attribute("data-k"), use.get_attribute("data-s")) == (k, s)
        assert p.evaluate("location.hash") == before  # shown, not set
        box = use.bounding_box()
        assert box is not None
        assert box["height"] >= 40
        _tap_where_it_rests(p, use)
        p.wait_for_function(
            f"location.hash.includes('config.trigger_tokens={k}')"
            f" && location.hash.includes('config.summary_max_tokens={s}')"
        )
        assert not page.errors
    finally:
        context.close()


LOG = (
    Path(__file__).resolve().parents[2]
    / "tests"
    / "fixtures"
    / "logs"
    / "claude"
    / "12-compact-preserved-2.1"
    / "projects"
)


def test_over_a_log_the_maps_are_what_ifs_and_a_runtime_is_its_knob(page: Page) -> None:
    """A log read locally: the backtest line above the choice and the cost map's change
    from the as-run model (cells on both sides of 0); a runtime picked beside Export
    turns the grid into its knob (one column for Claude Code's percentage)."""
    page.open()
    p = page.page
    p.click("#replay summary")
    p.check("input[data-replay-source][value=log]")
    p.set_input_files("#replay-folder", str(LOG))
    p.wait_for_selector("[data-what-if]", state="attached", timeout=60_000)
    p.click("#tune summary")
    p.wait_for_selector("[data-tune-asrun]", state="attached", timeout=120_000)
    assert p.locator("[data-tune-whatif]").count() == 1
    assert p.locator("[data-tune-map=cost] .tdp1, [data-tune-map=cost] .tdp4").count() > 0
    assert p.locator("[data-tune-map=cost] .tdn1").count() > 0
    p.select_option("#export-runtime", "claude-code")
    p.wait_for_selector("[data-tune-map=cost][data-n-s='1']", state="attached", timeout=120_000)
    assert p.locator("[data-tune-map=cost] [data-tune-cell]").count() == 10
    assert "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE = " in page.text("#tune-choice")
    lacking = p.locator('[data-runtime-not-settable="claude-code"] [data-not-settable]')
    assert lacking.count() >= 1  # S at least, beside the export
    # The walk: with this log (claude-opus-4-7, run at Claude Code's 200,000, not the
    # registry's 1,000,000) and Codex picked, Tune's export said "no model named" once
    # the registry was in, and the link lost main_model.model. Both name it now, and
    # the header says which window it assumed.
    p.select_option("#export-runtime", "codex")
    named = (
        "model claude-opus-4-7: W = 200,000 (the scenario's window, below the "
        "registry's 1,000,000), O = 128,000"
    )
    for where in ("#export-text", "#tune-export"):
        p.wait_for_function(
            "([sel, s]) => (document.querySelector(sel)?.textContent ?? '').includes(s)",
            arg=[where, named],
            timeout=120_000,
        )
        assert "no model named" not in page.text(where)
    assert "main_model.model=claude-opus-4-7" in p.evaluate("location.hash")
    page.assert_no_internal_error()
    assert not page.errors
