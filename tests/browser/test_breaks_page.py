"""Where the page's lines break, measured in the browser (the seventeenth walk, on the
sixteenth's leftovers): a dollar amount never after its sign, a knob's long name after
an underscore and only where it fits on no line, a session's path after a slash and
never inside its file's id, and the as-run line's notes at a note's size."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import Page
from tests.browser.conftest import read_folder as _read_folder

pytestmark = pytest.mark.browser

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
#: Agents whose sessions' long reasons (they cannot be replayed) narrow the sessions'
#: column at 1,440 px.
_NARROWING = {"goose": LOGS / "goose", "droid": LOGS / "droid"}

#: Each dollar amount ("−$0.2978285"), share ("+10.5 %") and word of capitals of a
#: name ("OVERRIDE" of CLAUDE_AUTOCOMPACT_PCT_OVERRIDE) that a line break cuts: its text
#: drawn on more than one line. Closed folds and charts are not looked in.
_CUT = """() => {
  const lines = (node, a, b) => { const r = document.createRange(); r.setStart(node, a);
    r.setEnd(node, b); return new Set([...r.getClientRects()].filter(x => x.width > 0)
      .map(x => Math.round(x.bottom))).size; };
  const out = [];
  const walk = document.createTreeWalker(document.getElementById('app'), NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (n.parentElement.closest('svg, details:not([open])')) continue;
    for (const re of [/[−+±]?\\$[0-9][0-9,]*(\\.[0-9]+)?/g, /[−+±]?[0-9][0-9,.]* %/g,
                      /[A-Z][A-Z0-9]{3,}/g])
      for (const m of n.data.matchAll(re))
        if (lines(n, m.index, m.index + m[0].length) > 1) out.push(m[0]);
  }
  return out;
}"""


def _font_px(p: object, selector: str) -> float:
    return float(
        p.evaluate(  # type: ignore[attr-defined]
            "s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)", selector
        )
    )


def test_tunes_amounts_and_knob_names_break_where_a_reader_expects_at_390_px(
    narrow_page: Page,
) -> None:
    """The sixteenth walk's leftovers, Tune over a Claude Code session for Claude Code
    at 390 px in Chinese: "−$0.2978285" broke between its sign and its dollar, and
    CLAUDE_AUTOCOMPACT_PCT_OVERRIDE mid-word ("…_OVERR|IDE"). Found on the way: the
    as-run sum's scope sentence was set at the line's size, run on after its "(±0.0 %)"
    with no stop."""
    page = narrow_page
    page.page.set_viewport_size({"width": 390, "height": 844})
    p = page.open("#lang=zh").page
    _read_folder(p, LOGS / "claude" / "12-compact-preserved-2.1" / "projects")
    p.wait_for_selector("[data-what-if]", state="attached", timeout=60_000)
    p.click("#tune summary")
    p.wait_for_selector("[data-tune-asrun]", state="attached", timeout=120_000)
    p.select_option("#export-runtime", "claude-code")
    p.wait_for_function(
        "document.querySelector('#tune-choice').textContent"
        ".includes('CLAUDE_AUTOCOMPACT_PCT_OVERRIDE = ')",
        timeout=120_000,
    )
    p.wait_for_selector("[data-tune-whatif]", state="attached", timeout=120_000)
    assert "−$" in page.text("#tune-choice")  # the leftover's amount is there to cut
    assert p.evaluate(_CUT) == []
    scope = "[data-tune-asrun] [data-tune-asrun-scope]"
    assert _font_px(p, scope) < _font_px(p, "[data-tune-asrun] strong")
    assert p.evaluate("document.documentElement.scrollWidth") <= 390
    page.assert_no_internal_error()
    assert not page.errors


#: Each character of an element's text: [the character, the bottom of its box (its
#: line), its width], null and 0 where it is not drawn.
_CHARS_OF = """
  const charsOf = b => {
    const chars = []; const walk = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode())
      for (let i = 0; i < n.data.length; i++) {
        const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
        const box = [...r.getClientRects()].find(x => x.width > 0);
        chars.push([n.data[i], box ? Math.round(box.bottom) : null, box ? box.width : 0]);
      }
    return chars;
  };"""


#: For each element of the selector given (a ledger's file heading; by default each
#: session's button in the table), where its lines break: the text around a
#: break that is not after a slash, a database's "#" or a hyphen, nor before a file's
#: extension after its UUID (a word cut, "session|s.db"), and its last part (the file,
#: the id in its name; a database's session id) cut by any break where it has 40
#: characters or fewer (about 330 px in the button's bold face: Codex's 70-character
#: rollout name fits on no line of the column and must break inside).
_CUT_PATHS = (
    """(selector) => {"""
    + _CHARS_OF
    + """
  return [...document.querySelectorAll(selector ?? '[data-replay-session]')].flatMap(b => {
  const chars = charsOf(b);
  const text = chars.map(c => c[0]).join('');
  const last = Math.max(text.lastIndexOf('/'), text.lastIndexOf('#')) + 1;
  const out = [];
  for (let i = 1; i < chars.length; i++) {
    if (chars[i][1] === null || chars[i - 1][1] === null || chars[i][1] === chars[i - 1][1])
      continue;
    const around = text.slice(Math.max(0, i - 12), i) + '|' + text.slice(i, i + 12);
    const extension = text[i] === '.' && /-[0-9a-f]{12}$/.test(text.slice(0, i));
    if (!'/#-'.includes(text[i - 1]) && !extension) out.push(around);
    else if (i > last && text.length - last <= 40) out.push(around);
  }
  return out;
}); }"""
)


@pytest.mark.parametrize("width", [1440, 390])
def test_a_session_s_path_breaks_after_a_slash_not_inside_its_id(
    page: Page, tmp_path: Path, width: int
) -> None:
    """The sixteenth walk's leftover: at 1,440 px the sessions' column is about 380 px
    and a long path broke inside its last part, its file and the id in its name
    ("…/sessions/session|s.db#20260816_1", "…-8ddd-|000000002701.jsonl"), where it
    could break after a slash before it; at 390 px, "opencode.d|b#ses_…"."""
    page.page.set_viewport_size({"width": width, "height": 900})
    p = page.open().page
    # Goose's and Droid's long reasons of the sessions that cannot be replayed, in
    # cells across the other columns, are what narrow the sessions' column.
    copies = {"claude": LOGS / "claude" / "27-asrun-backtest", "opencode": LOGS / "opencode"}
    _read_folder(p, tmp_path / "logs", {**_NARROWING, **copies})
    p.wait_for_selector("[data-as-run]", state="attached", timeout=60_000)
    assert p.locator("[data-replay-session]").count() >= 20
    assert p.evaluate(_CUT_PATHS) == []
    page.assert_no_internal_error()
    assert not page.errors


def test_the_summed_usage_sentence_is_a_note_under_the_as_run_line(page: Page) -> None:
    """The sixteenth walk's leftover: a Cline task's "Measured and modelled both cover
    the replayed requests only: … summed usage … are in neither." was set at the as-run
    line's size (1.05rem), run on after its closing parenthesis."""
    p = page.open().page
    _read_folder(p, LOGS / "cline" / "v3-aggregates")
    p.wait_for_selector("[data-summed-left-out]", state="attached", timeout=60_000)
    line = _font_px(p, "[data-asrun-line] strong")
    said = _font_px(p, "[data-asrun-line] [data-summed-left-out]")
    assert said < line
    assert said == _font_px(p, ".rp-asrun .note-small")
    top = p.evaluate(
        "document.querySelector('[data-asrun-line] [data-summed-left-out]')"
        ".getBoundingClientRect().top"
    )
    bottom = p.evaluate(
        "document.querySelector('[data-asrun-line] strong').getBoundingClientRect().bottom"
    )
    assert top >= bottom - 0.5  # a line of its own, under the figures
    page.assert_no_internal_error()
    assert not page.errors


def test_a_backtest_s_share_stays_whole_in_its_note_at_390_px(narrow_page: Page) -> None:
    """The seventeenth walk, 390 px in Chinese: a Cline task's backtest note said
    "…差距超过 5 %(+10.5" and "%)…" on the next line: a share breaks at the space
    before its "%"."""
    page = narrow_page
    page.page.set_viewport_size({"width": 390, "height": 844})
    p = page.open("#lang=zh").page
    _read_folder(p, LOGS / "cline" / "v3-aggregates")
    p.wait_for_selector("[data-what-if] .rp-whatif-delta", state="attached", timeout=60_000)
    assert "+10.5 %" in page.text("[data-as-run]")
    assert p.evaluate(_CUT) == []
    page.assert_no_internal_error()
    assert not page.errors


#: For each session's button and the backtest's session note: each UUID, timestamp or
#: hash of 32 hex digits or more in its text (a folder's UUID with its slash, kept with
#: it) that is drawn on more than one line though it is narrower than its box (its
#: characters' widths summed).
_CUT_IDS = (
    """() => {"""
    + _CHARS_OF
    + """
  return [...document.querySelectorAll('[data-replay-session], [data-asrun-session]')]
  .flatMap(b => {
  const chars = charsOf(b);
  const text = chars.map(c => c[0]).join('');
  const room = b.getBoundingClientRect().width;
  const ids = new RegExp('[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/?' +
    '|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9-]{5,8}|[0-9a-f]{32,}', 'g');
  const out = [];
  for (const m of text.matchAll(ids)) {
    const run = chars.slice(m.index, m.index + m[0].length);
    const lines = new Set(run.map(c => c[1]).filter(x => x !== null));
    const width = run.reduce((sum, c) => sum + c[2], 0);
    if (lines.size > 1 && width < room) out.push(m[0]);
  }
  return out;
}); }"""
)


@pytest.mark.parametrize("width", [1440, 390])
def test_a_sessions_uuid_timestamp_and_hash_are_not_cut_where_they_fit(
    page: Page, tmp_path: Path, width: int
) -> None:
    """The seventeenth walk's leftover: Codex's 70-character rollout names broke inside
    their UUID ("…-4444-7000-|8000-…" at 1,440 px beside Goose's and Droid's long
    reasons), Kimi's ``session_<uuid>`` folders too, and Gemini CLI's 64-digit project
    hash anywhere. Now each UUID and timestamp is whole where it fits, and the hash is
    its first 8 digits and "…", the whole path the button's title."""
    page.page.set_viewport_size({"width": width, "height": 900})
    p = page.open().page
    copies = {
        "codex": LOGS / "codex" / "compaction",
        "gemini": LOGS / "gemini" / "jsonl",
        "kimi": LOGS / "kimi" / "code",
        "pi": LOGS / "pi",
    }
    _read_folder(p, tmp_path / "logs", {**_NARROWING, **copies})
    p.wait_for_selector("[data-as-run]", state="attached", timeout=60_000)
    rollout = p.locator("[data-replay-session]", has_text="rollout-2025-11-02T09-00-00")
    rollout.first.click()
    p.wait_for_selector("[data-asrun-session*=rollout]", state="attached", timeout=60_000)
    assert p.evaluate(_CUT_IDS) == []
    gemini = p.locator("[data-replay-session]", has_text="/chats/session-2025-11-24T12-00")
    assert gemini.count() == 1
    full = "logs/gemini/tmp/" + "0f" * 32 + "/chats/session-2025-11-24T12-00-33333333.jsonl"
    assert gemini.get_attribute("title") == full
    assert gemini.text_content() == full.replace("0f" * 32, "0f0f0f0f…")
    assert p.evaluate("document.documentElement.scrollWidth") <= width
    page.assert_no_internal_error()
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_ledger_s_file_breaks_after_a_slash_not_inside_its_id_at_390_px(
    narrow_page: Page, tmp_path: Path, lang: str
) -> None:
    """The nineteenth walk, 390 px: the ledger's heading of each file, a plain path,
    broke where its bold text ran out ("…/sessions/sessions.|db#20251124_1" of a Goose
    home), where the sessions' table above breaks the same path after a slash. Now it
    breaks as the table's button does (its last part whole where it fits)."""
    page = narrow_page
    page.page.set_viewport_size({"width": 390, "height": 844})
    p = page.open(f"#lang={lang}").page
    _read_folder(p, tmp_path / "goose-home", {"goose": LOGS / "goose" / "totals" / "goose"})
    p.wait_for_selector("[data-ledger-file]", state="attached", timeout=60_000)
    heading = p.locator("[data-ledger-file] > strong").first.text_content()
    assert heading == "goose-home/goose/data/sessions/sessions.db#20251124_1"
    assert p.evaluate(_CUT_PATHS, "[data-ledger-file] > strong") == []
    assert p.evaluate("document.documentElement.scrollWidth") <= 390
    page.assert_no_internal_error()
    assert not page.errors
