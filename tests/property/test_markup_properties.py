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
