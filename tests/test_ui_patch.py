"""A region redrawn as attribute and text changes (the shell's "patch" operation:
``ui.runner``'s ``diff``, run here in Node): the old markup's nodes, patched, are the
new markup's, by the standard library's HTML parser (``tests/patch_helpers.py``); markup
the diff does not read is written whole."""

from __future__ import annotations

import pytest

from budgetcore.ui.events import (
    FieldTyped,
    JobStep,
    LanguageChosen,
    ReplayFieldTyped,
    ReplayToggled,
)
from budgetcore.ui.markup import el
from budgetcore.ui.paint import OP_KINDS, Painted, main_ops, panel_ops
from budgetcore.ui.runner import RUNNER
from budgetcore.ui.update import initial_state, reduce
from tests.patch_helpers import NODE, apply_patch, js_diffs, nodes_of, run_runner

needs_node = pytest.mark.skipif(NODE is None, reason="Node runs the shell's JavaScript")


def _replay_redraws(timing: bool) -> list[tuple[str, str, str]]:
    """The replay panel over 12 inputs (K, and every third S), as the shell paints it:
    (region, its last markup, its new markup) for every "patch" operation."""
    state = reduce(initial_state(width=1200), ReplayToggled(True))
    typed = [("replay.turns", "200")] + ([("replay.timing", "true")] if timing else [])
    for path, text in typed:
        state = reduce(state, ReplayFieldTyped(path, text))
    state = reduce(state, JobStep("replay"))
    ops, painted = panel_ops(state, Painted(), lambda: 900)
    held = {sel: str(value) for sel, how, _, value in ops if how in ("html", "patch")}
    out = []
    for i in range(12):
        if i % 3 == 2:
            event = FieldTyped("config.summary_max_tokens", f"{4_096 + 96 * i:,}")
        else:
            event = FieldTyped("config.trigger_tokens", f"{30_000 + 250 * i:,}")
        state = reduce(reduce(state, event), JobStep("replay"))
        ops, painted = panel_ops(state, painted, lambda: 900)
        for sel, how, _, value in ops:
            assert how in OP_KINDS
            if how == "patch":
                out.append((sel, held[sel], str(value)))
            if how in ("html", "patch"):
                held[sel] = str(value)
    return out


@needs_node
@pytest.mark.parametrize("timing", [False, True])
def test_every_replay_redraw_patched_is_the_new_markup(timing: bool) -> None:
    """Each patch turns the region's last markup into the new one, and the charts and
    tables are patched, not rewritten."""
    redraws = _replay_redraws(timing)
    found = js_diffs([(old, new) for _, old, new in redraws])
    patched = set()
    for (sel, old, new), diff in zip(redraws, found, strict=True):
        if diff is not None:
            assert apply_patch(nodes_of(old), diff, new) == nodes_of(new), sel
            patched.add(sel)
    assert {"#replay-timeline", "#replay-cost", "#replay-summary", "#replay-row"} <= patched


def _main_redraws() -> list[tuple[str, str, str]]:
    """The main screen over the bench's inputs (K, S, F, the history, the margin, the
    last summary, then the language), as the shell paints it: (region, its last markup,
    its new markup) for every "patch" operation."""
    state = initial_state(width=1200)
    ops, painted = main_ops(state, Painted())
    held = {sel: str(value) for sel, how, _, value in ops if how in ("html", "patch")}
    events = [
        FieldTyped(path, text)
        for path, texts in (
            ("config.trigger_tokens", ("40,000", "120,000")),
            ("config.summary_max_tokens", ("8,192", "4,096")),
            ("workload.required_tokens", ("930,000", "50,000")),
            ("workload.history_tokens", ("500,000", "0")),
            ("config.safety_margin", ("0.2", "0.05")),
            ("workload.previous_summary_tokens", ("12,000", "6,000")),
        )
        for text in texts
    ]
    out = []
    for event in [*events, LanguageChosen("zh"), FieldTyped("config.trigger_tokens", "50,000")]:
        state = reduce(state, event)
        ops, painted = main_ops(state, painted)
        for sel, how, _, value in ops:
            if how == "patch" and sel in held:
                out.append((sel, held[sel], str(value)))
            if how in ("html", "patch"):
                held[sel] = str(value)
    return out


@needs_node
def test_every_main_redraw_patched_is_the_new_markup() -> None:
    """The main screen's regions are patched as the replay panel's: each patch turns
    the region's last markup into the new one, and the charts are patched."""
    redraws = _main_redraws()
    found = js_diffs([(old, new) for _, old, new in redraws])
    patched = set()
    for (sel, old, new), diff in zip(redraws, found, strict=True):
        if diff is not None:
            assert apply_patch(nodes_of(old), diff, new) == nodes_of(new), sel
            patched.add(sel)
    assert "#chart-funnel" in patched


@needs_node
def test_attributes_changed_added_removed_and_texts_as_the_parser_reads_them() -> None:
    cases = [
        (
            el("svg", {"width": 10}, el("path", {"d": "M0 0", "class": "a"})),
            el("svg", {"width": 12}, el("path", {"d": "M1 1", "data-n": 3})),
            [
                2,
                0,
                [0, 0, "width", "12", 0, 1, "d", "M1 1", 0, 1, "data-n", "3", 0, 1, "class", None],
            ],
        ),
        (
            el("p", None, "a < b", el("b", None, "x"), "tail"),
            el("p", None, "a & b's", el("b", None, 'say "y"'), "tail"),
            [2, 3, [1, 0, "", "a & b's", 1, 1, "", 'say "y"']],
        ),
        ("lead<p>1</p>", "LEAD<p>1</p>", [1, 2, [1, 0, "", "LEAD"]]),
        (
            '<p title="&lt;a&gt;">1</p>',
            '<p title="&quot;b&#x27;">1</p>',
            [1, 1, [0, 0, "title", "\"b'"]],
        ),
        (el("ul", None, el("li", {"data-k": "1"}, "one")),) * 2 + ([2, 1, []],),
    ]
    found = js_diffs([(old, new) for old, new, _ in cases])
    for (old, new, expected), diff in zip(cases, found, strict=True):
        assert diff == expected, (old, new)
        assert apply_patch(nodes_of(old), diff, new) == nodes_of(new)


@needs_node
def test_written_whole() -> None:
    cases = [
        ("<p>1</p>", "<p>1</p><p>2</p>"),  # another element
        ("<p>1</p>", "<div>1</div>"),  # another tag
        ("<p>1</p>", "<p><b>1</b></p>"),  # a text became an element
        ("<p></p>", "<p>1</p>"),  # a text run where there was none
        ("<p>1</p>", "<p></p>"),
        ("<p>1</p>", "<p>&nbsp;</p>"),  # an entity this package never writes
        ("<p>1</p>", "<p>&amp</p>"),  # one without its ";"
        ('<p title="1">a</p>', '<p title="&copy;">a</p>'),
        ("<details>1</details>", "<details>2</details>"),  # the user holds its state
        ('<input value="1">', '<input value="2">'),
        ("<pre>1</pre>", "<pre>2</pre>"),  # the parser drops a leading newline
        ("<p>1</p>", "<p>1\r2</p>"),  # the parser turns it into a newline
        ("<p>1<br/></p>", "<p>2<br/></p>"),  # a self-closed tag: not this package's
        ("<p>1<br/></p>", "<p>2<br></p>"),  # the old markup's, found where they differ
        ('<p a="1" a="2">x</p>', '<p a="1" a="3">x</p>'),  # the parser keeps the first
        ("<p>1 < 2</p>", "<p>1 < 3</p>"),  # a "<" that opens no tag
        ('<p title="a>b">1</p>', '<p title="a>c">1</p>'),  # a ">" in a value
        ("<p>1</p><!-- x -->", "<p>2</p><!-- y -->"),
        ("<p>1</p>", "<b>1</b>"),
    ]
    assert js_diffs(cases) == [None] * len(cases)


def test_the_runner_handles_every_kind() -> None:
    """The runner has a branch for every kind of operation ``ui.paint`` makes; the
    browser tests run it."""
    assert [k for k in OP_KINDS if f'how === "{k}"' not in RUNNER] == []


_RUN_WRITES = """
const fs = require("fs");
const writes = [];
// Two elements as the page holds them: a property and an attribute each, and a record of
// every write the runner makes to them.
const node = (id) => {
  const attrs = new Map([["data-stale", "false"]]);
  let hidden = false;
  return {
    get hidden() { return hidden; },
    set hidden(v) { writes.push([id, "hidden", v]); hidden = v; },
    hasAttribute: (name) => attrs.has(name),
    getAttribute: (name) => (attrs.has(name) ? attrs.get(name) : null),
    setAttribute: (name, v) => { writes.push([id, name, String(v)]); attrs.set(name, String(v)); },
    removeAttribute: (name) => { writes.push([id, name, null]); attrs.delete(name); },
  };
};
const nodes = { "#a": node("a"), "#b": node("b") };
globalThis.document = { querySelectorAll: (sel) => (nodes[sel] ? [nodes[sel]] : []) };
const { run } = new Function(fs.readFileSync(process.argv[1], "utf8"))();
run(JSON.parse(fs.readFileSync(0, "utf8")), null);
process.stdout.write(JSON.stringify(writes));
"""


@needs_node
def test_the_runner_writes_no_property_or_attribute_an_element_holds() -> None:
    """A "prop" or "attr" operation of the value the element holds writes nothing (the
    main screen's paint repeats a dozen of them on every input); another value, or a
    held attribute removed, is written."""
    ops = [
        ("#a", "prop", "hidden", False),  # held
        ("#a", "attr", "data-stale", "false"),  # held
        ("#a", "attr", "data-ab", None),  # absent, removed: nothing to do
        ("#b", "prop", "hidden", True),
        ("#b", "attr", "data-stale", "true"),
        ("#b", "attr", "data-ab", "on"),
        ("#b", "attr", "data-ab", "on"),  # held now
        ("#b", "attr", "data-stale", None),
    ]
    assert run_runner(_RUN_WRITES, ops) == [
        ["b", "hidden", True],
        ["b", "data-stale", "true"],
        ["b", "data-ab", "on"],
        ["b", "data-stale", None],
    ]
