"""The markup builder's fast path (budgetcore.ui.markup: a text or attribute value with
nothing to escape or neutralise is written as it is) against the full path it skips:
html.escape of ``inert``, the stdlib the oracle for the escapes."""

from __future__ import annotations

import html

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.ui.markup import _LONG, _text, el, inert

# Every character class the page must change (the five escapes, C0 and C1 controls,
# bidirectional controls, line separators, lone surrogates), beside ones it must not
# (the newline, the tab, thin and no-break spaces, CJK).
_TRICKY = st.text(
    alphabet=st.sampled_from(
        [
            *"&<>\"'a1,.-_ é中\n\t",
            "\x00",
            "\x1b",
            "\x7f",
            "\x85",
            "\x9f",
            "\u00a0",
            "\u2009",
            "\u200e",
            "\u202e",
            "\u2066",
            "\u2028",
            "\u2029",
            "\ud800",
            "\udfff",
        ]
    ),
    max_size=30,
)


@given(_TRICKY | st.text(max_size=30))
def test_a_text_is_escaped_as_the_full_path_escapes_it(text: str) -> None:
    assert _text(text) == html.escape(inert(text), quote=True)


@given(_TRICKY | st.text(max_size=30), _TRICKY | st.text(max_size=30))
def test_an_element_writes_its_text_and_attribute_as_the_full_path_does(
    value: str, child: str
) -> None:
    full = html.escape(inert(value), quote=True)
    assert el("text", {"x": 3, "class": value}, child) == (
        f'<text x="3" class="{full}">{html.escape(inert(child), quote=True)}</text>'
    )


# A long value (path data, a polyline's points) is checked by another path, over its
# bytes when it is ASCII (budgetcore.ui.markup._unchanged): the same escapes.
_LONG_TEXT = st.builds(
    str.__add__,
    st.text(alphabet="M0123456789 ,.-VHhlz", min_size=_LONG, max_size=2 * _LONG),
    _TRICKY | st.text(max_size=30),
)


@given(_LONG_TEXT)
def test_a_long_text_is_escaped_as_the_full_path_escapes_it(text: str) -> None:
    assert _text(text) == html.escape(inert(text), quote=True)
    assert el("path", {"d": text}) == f'<path d="{html.escape(inert(text), quote=True)}"></path>'


def test_every_ascii_character_of_a_long_value_is_escaped_as_the_full_path_escapes_it() -> None:
    for code in range(128):
        text = "M1 2" * _LONG + chr(code)
        assert _text(text) == html.escape(inert(text), quote=True), hex(code)


@given(
    st.lists(st.integers(min_value=-300_000, max_value=300_000), max_size=40),
    st.integers(min_value=1, max_value=60),
    st.sampled_from(["v10", "m-3 2l6 6m0 -6l-6 6", "m-3 2h6v6h-6z", "m0 1l4 8h-8z"]),
)
def test_the_charts_plain_texts_have_nothing_to_escape(
    values: list[int], turns: int, tail: str
) -> None:
    """The replay charts' path data and point lists are Plain, written without the
    check: they are made of integers and literal path commands, so the check would
    leave them as they are, and an element writes them as it writes the same str."""
    from budgetcore.charts.timeline import slot_middles  # noqa: PLC0415
    from budgetcore.ui.markup import Plain  # noqa: PLC0415
    from budgetcore.ui.replay.chart_text import marks_text, points_text, slot_texts  # noqa: PLC0415

    xs = [v if i % 2 else slot_middles(turns, 300)[v % turns] for i, v in enumerate(values)]
    texts = [marks_text(xs, tail, turns, 300)]
    if values:
        texts += [
            points_text(xs, values[::-1], slot_texts(turns, 300, "", ",")),
            points_text(xs, xs),
        ]
    for text in texts:
        assert type(text) is Plain
        assert _text(text) == text
        assert el("path", {"d": text}) == el("path", {"d": str(text)})
