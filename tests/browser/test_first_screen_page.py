"""Issue 42's first-walk defects that only a browser shows: where the runtime picker
sits on the first screen, the two runtime pickers moving as one, and the replay's file
boxes in the page's language, by mouse and by keyboard."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import ROOT, _page_at

pytestmark = pytest.mark.browser

_BOX = """(s) => { const r = document.querySelector(s).getBoundingClientRect();
  return [r.top, r.bottom, r.left, r.right]; }"""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("width", "height"), [(1440, 900), (390, 844)])
def test_the_runtime_picker_is_on_the_first_screen_beside_the_model(
    browser: Any, base_url: str, width: int, height: int, lang: str
) -> None:
    """Users pick their model and runtime first: the runtime picker is on the first
    1440 x 900 screen whole, with K and S still above it, and on a phone no further
    than a screen and a half down, right above the model picker; its line says what
    the runtime changes."""
    for page in _page_at(browser, base_url, width, height):
        page.open("#lang=zh" if lang == "zh" else "")
        runtime = page.page.evaluate(_BOX, "#runtime")
        s_field = page.page.evaluate(_BOX, '[data-input="config.summary_max_tokens"]')
        model = page.page.evaluate(_BOX, "#picker-main_model")
        assert s_field[1] <= runtime[0] <= model[0]
        assert runtime[1] <= (height if width > 1000 else 1.5 * height), runtime
        assert runtime[2] >= 0
        assert runtime[3] <= width
        assert page.text("#runtime-effect").strip() != ""


def test_the_two_runtime_pickers_are_one_value(page: Any) -> None:
    """Picked on the first screen, the Export panel's picker shows it and exports that
    runtime's file; picked in Export, the first screen's shows it; the link carries
    it and Reset puts both back to budgetcore's own config."""
    page.open()
    page.page.select_option("#runtime", "codex")
    page.page.wait_for_function("document.getElementById('export-runtime').value === 'codex'")
    page.page.wait_for_selector('[data-runtime-table="codex"]', state="attached")
    assert "model_auto_compact_token_limit" in page.text("#export-text")
    assert "Codex CLI compacts at T ≥ 32,000" in page.text("#runtime-effect")
    page.page.wait_for_function("location.hash.includes('runtime=codex')")
    page.page.select_option("#export-runtime", "pi")
    page.page.wait_for_function("document.getElementById('runtime').value === 'pi'")
    assert page.text("#runtime-effect").startswith("pi compacts at T ≥ 32,000")
    page.page.click('[data-action="reset"]')
    page.page.wait_for_function(
        "document.getElementById('runtime').value === 'article'"
        " && document.getElementById('export-runtime').value === 'article'"
    )
    assert not page.page.evaluate("location.hash.includes('runtime=')")
    page.assert_no_internal_error()


LOG = ROOT / "tests" / "fixtures" / "logs" / "claude" / "01-plain-2.1"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("width", "height"), [(1440, 900), (390, 844)])
def test_the_file_boxes_speak_the_pages_language_and_open_by_key_and_click(
    browser: Any, base_url: str, width: int, height: int, lang: str
) -> None:
    """The browser's own button ("Choose Files") never shows: the input is transparent
    over the page's label, the same box; the label and the status are the catalogue's.
    A click on the label opens the chooser, Enter and Space reach the focused input
    unprevented; the focus ring shows on the label; a file given to the input is named
    beside it."""
    zh = lang == "zh"
    for page in _page_at(browser, base_url, width, height):
        p = page.open("#lang=zh" if zh else "").page
        p.click("#replay summary")
        p.check("input[data-replay-source][value=log]")
        p.wait_for_selector("#replay-file-status:not(:empty)", state="visible")
        for box, button, none in (
            (
                "replay-file",
                "选择文件" if zh else "Choose files",
                "未选择文件" if zh else "No file chosen",
            ),
            (
                "replay-folder",
                "选择文件夹" if zh else "Choose a folder",
                "未选择文件夹" if zh else "No folder chosen",
            ),
        ):
            label = f'label.file-button[for="{box}"]'
            assert page.text(label) == button
            assert page.text(f"#{box}-status") == none
            assert p.evaluate(f"getComputedStyle(document.getElementById('{box}')).opacity") == "0"
            input_box = p.evaluate(
                f"(() => {{ const r = document.getElementById('{box}').getBoundingClientRect();"
                " return [r.x, r.y, r.width, r.height]; })()"
            )
            label_box = p.evaluate(
                f"(() => {{ const r = document.querySelector('{label}').getBoundingClientRect();"
                " return [r.x, r.y, r.width, r.height]; })()"
            )
            assert [round(v) for v in input_box] == [round(v) for v in label_box]
            assert label_box[3] >= (40 if width < 1000 else 24)
            with p.expect_file_chooser():  # a click on the label opens the input's
                p.click(label)
        # Reached by Tab, the input shows the ring on its label.
        p.focus("input[data-replay-source][value=log]")
        p.keyboard.press("Tab")
        assert p.evaluate("document.activeElement.id") == "replay-file"
        ring = p.evaluate(
            "getComputedStyle(document.querySelector('label.file-button[for=replay-file]'))"
            ".outlineStyle"
        )
        assert ring == "solid"
        # Enter and Space reach the focused input with their default (the browser's:
        # open the chooser) untouched by the page's key handler. A synthetic key runs
        # the page's handlers but no default, so no chooser is left open.
        prevented = p.evaluate(
            """() => ['Enter', ' '].map(key => {
                 const e = new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true});
                 document.getElementById('replay-file').dispatchEvent(e);
                 return e.defaultPrevented; })"""
        )
        assert prevented == [False, False]
        # The Export panel's import file box: the same, in the page's language.
        assert page.text('label.file-button[for="import-file"]') == (
            "选择文件" if zh else "Choose a file"
        )
        assert page.text("#import-file-status") == ("未选择文件" if zh else "No file chosen")
        name = sorted(LOG.rglob("*.jsonl"))[0]
        p.set_input_files("#replay-file", str(name))
        # A long name is cut in its middle (its title holds it whole).
        short = f"{name.name[:9]}…{name.name[-10:]}"
        want = f"1 个文件:{short}" if zh else f"1 file: {short}"
        p.wait_for_function(
            f"document.getElementById('replay-file-status').textContent === {want!r}"
        )
        page.assert_no_internal_error()


_FIRST_DRAWN = """window.__skipped = [];
document.addEventListener('contentvisibilityautostatechange',
  e => window.__skipped.push([e.target.id, e.skipped]), true);"""

# Each panel's height while it stands in (before any scroll), then once drawn.
_DRAWN_HEIGHTS = """async (ids) => {
  const height = (id) => document.getElementById(id).getBoundingClientRect().height;
  const before = ids.map(height);
  for (const id of ids) {
    document.getElementById(id).scrollIntoView({ block: 'center' });
    for (let i = 0; i < 3; i++) await new Promise(done => requestAnimationFrame(done));
  }
  return ids.map((id, i) => [id, before[i], height(id)]);
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)])
def test_the_open_panels_below_both_columns_wait_for_a_scroll_at_about_their_height(
    browser: Any, base_url: str, width: int, height: int, lang: str
) -> None:
    """The numbers' first frame does not lay out Experiments, Samples and Export (about
    200 boxes, screens below the first); each stands in at about its own height, so
    the page hardly moves when a scroll first draws it (docs/performance.md, "The first
    frame's boxes")."""
    for page in _page_at(browser, base_url, width, height):
        page.init_script(_FIRST_DRAWN)
        page.open("#lang=zh" if lang == "zh" else "")
        panels = ["experiments", "samples", "config"]
        first = dict(reversed(page.page.evaluate("window.__skipped")))
        assert {p: first.get(p) for p in panels} == dict.fromkeys(panels, True)
        for panel, before, drawn in page.page.evaluate(_DRAWN_HEIGHTS, panels):
            assert abs(drawn - before) <= 32, (panel, before, drawn)
        page.assert_no_internal_error()
