"""A region redrawn as attribute and text changes (``ui.patch``, written by the shell's
"patch" operation): the old markup's nodes, patched, are the new markup's, by the
standard library's HTML parser (``tests/patch_helpers.py``); markup the patch does not
read is written whole."""

from __future__ import annotations

import pytest

from budgetcore.ui.events import FieldTyped, JobStep, ReplayFieldTyped, ReplayToggled
from budgetcore.ui.markup import Markup, el
from budgetcore.ui.paint import OP_KINDS, Painted, panel_ops
from budgetcore.ui.patch import patch_of, unescape
from budgetcore.ui.update import initial_state, reduce
from tests.patch_helpers import apply_patch, nodes_of


def _patched(old: str, new: str) -> bool:
    """Whether ``patch_of`` gave a patch, and (asserted) that it is right."""
    found = patch_of(old, new)
    if found is None:
        return False
    assert apply_patch(nodes_of(old), (*found, new)) == nodes_of(new)
    return True


class TestReplayPanel:
    @pytest.mark.parametrize("timing", [False, True])
    def test_every_redraw_patched_is_the_new_markup(self, timing: bool) -> None:
        """The replay panel over 12 inputs (K, and every third S), as the shell paints
        it: each "patch" turns the region's last markup into the new one, and the
        charts and tables are patched, not rewritten."""
        state = reduce(initial_state(width=1200), ReplayToggled(True))
        typed = [("replay.turns", "200")] + ([("replay.timing", "true")] if timing else [])
        for path, text in typed:
            state = reduce(state, ReplayFieldTyped(path, text))
        state = reduce(state, JobStep("replay"))
        ops, painted = panel_ops(state, Painted(), lambda: 900)
        held = {sel: value for sel, how, _, value in ops if how == "html"}
        patched: set[str] = set()
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
                    assert isinstance(value, tuple)
                    assert apply_patch(nodes_of(str(held[sel])), value) == nodes_of(value[-1])
                    patched.add(sel)
                    held[sel] = value[-1]
                elif how == "html":
                    held[sel] = value
        assert {"#replay-timeline", "#replay-cost", "#replay-summary", "#replay-row"} <= patched


class TestPatchOf:
    def test_attributes_changed_added_and_removed(self) -> None:
        old = el("svg", {"width": 10}, el("path", {"d": "M0 0", "class": "a"}))
        new = el("svg", {"width": 12}, el("path", {"d": "M1 1", "data-n": 3}))
        assert patch_of(old, new) == (
            2,
            0,
            (0, 0, "width", "12", 0, 1, "d", "M1 1", 0, 1, "data-n", "3", 0, 1, "class", None),
        )
        assert _patched(old, new)

    def test_texts_as_the_parser_reads_them(self) -> None:
        old = el("p", None, "a < b", el("b", None, "x"), "tail")
        new = el("p", None, "a & b's", el("b", None, 'say "y"'), "tail")
        assert patch_of(old, new) == (2, 3, (1, 0, "", "a & b's", 1, 1, "", 'say "y"'))
        assert _patched(old, new)

    def test_the_same_markup_changes_nothing(self) -> None:
        markup = el("ul", None, el("li", {"data-k": "1"}, "one"))
        assert patch_of(markup, markup) == (2, 1, ())

    @pytest.mark.parametrize(
        ("old", "new"),
        [
            ("<p>1</p>", "<p>1</p><p>2</p>"),  # another element
            ("<p>1</p>", "<div>1</div>"),  # another tag
            ("<p>1</p>", "<p><b>1</b></p>"),  # a text became an element
            ("<p></p>", "<p>1</p>"),  # a text run where there was none
            ("<p>1</p>", "<p>&nbsp;</p>"),  # an entity this package never writes
            ('<p title="1">a</p>', '<p title="&copy;">a</p>'),
            ("<details>1</details>", "<details>2</details>"),  # the user holds its state
            ('<input value="1">', '<input value="2">'),
            ("<pre>1</pre>", "<pre>2</pre>"),  # the parser drops a leading newline
            ("<p>1</p>", "<p>1\r2</p>"),  # the parser turns it into a newline
            ("<p>1<br/></p>", "<p>2<br/></p>"),  # a self-closed tag: not this package's
            ('<p a="1" a="2">x</p>', '<p a="1" a="3">x</p>'),  # the parser keeps the first
            ("<p>1 < 2</p>", "<p>1 < 3</p>"),  # a "<" that opens no tag
            ('<p title="a>b">1</p>', '<p title="a>c">1</p>'),  # a ">" in a value splits it
        ],
    )
    def test_written_whole(self, old: str, new: str) -> None:
        assert patch_of(old, new) is None

    def test_unescape_is_the_parser_s_for_the_package_s_escapes(self) -> None:
        text = "&<>\"' and more"
        written = el("p", {"title": text}, text)
        (element,) = nodes_of(written).elements
        assert unescape(written[len('<p title="') : written.index('">')]) == element[2]["title"]
        assert unescape("&amp;lt;") == "&lt;"
        assert unescape("a &amp b") is None  # no ";": the parser's own rules
        assert isinstance(written, Markup)


def test_the_shell_s_runner_handles_every_kind() -> None:
    """The runner the shell compiles (``ui.runner``) has a branch for every kind of
    operation ``ui.paint`` makes; the browser tests run it."""
    from budgetcore.ui.runner import RUN_OPS  # noqa: PLC0415

    assert [k for k in OP_KINDS if f'how === "{k}"' not in RUN_OPS] == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("<p>1<br/></p>", "<p>2<br></p>"),  # the old markup's self-closed tag
        ("<p>1</p>", "<b>1</b>"),
        ("<p>1</p><!-- x -->", "<p>2</p><!-- y -->"),
        ("<>1</>", "<>2</>"),
        ("<p>1</p>", "<p>1</p><"),
    ],
)
def test_old_markup_not_this_package_s_is_written_whole(old: str, new: str) -> None:
    """The old markup is not searched: what it holds that the new does not is found
    where they differ."""
    assert patch_of(old, new) is None
