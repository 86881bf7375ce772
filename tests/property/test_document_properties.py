"""A whole JSON document (an Amp thread, a Gemini CLI ``.json`` session, an OpenCode
message file: ``budgetcore.replay.logs.tally.Document``) decoded by msgspec where it
is offered (``compiled.document_decoder``) is the standard library's value, type for
type, or it is refused and the standard library reads it: so a document reads alike
either way, its problem included.

The oracle is ``json.loads`` itself, as the page and an install without msgspec read
a document (floats through ``read_number``, ``NaN`` and ``Infinity`` marked).
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetcore.errors import NonFinite, Problem
from budgetcore.replay.logs import tally
from tests.property.strategies import json_values

compiled = pytest.importorskip("budgetcore.replay.logs.compiled")
needs_decoder = pytest.mark.skipif(
    compiled.document_decoder() is None,
    reason="the compiled decoder is not offered on this interpreter",
)


def canon(value: object) -> object:
    """A value with its types spelt out (1, True, 1.0 and Decimal 1 all differ), its
    keys in order."""
    if isinstance(value, dict):
        return ("dict", [(k, canon(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [canon(v) for v in value])
    if isinstance(value, NonFinite):
        return ("nonfinite", value.text)
    if isinstance(value, Decimal):
        return ("decimal", str(value))
    if isinstance(value, Problem):
        return ("problem", value)
    return (type(value).__name__, value)


def both(data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object, bool]:
    """The document read by the standard library, then with msgspec from the first
    byte; and whether msgspec's value was the one taken."""
    with monkeypatch.context() as m:
        m.setattr(tally, "compiled_from", lambda line, size=0: False)
        plain = tally.Document.parse(data).value
    with monkeypatch.context() as m:
        m.setattr(tally, "compiled_from", lambda line, size=0: True)
        fast = tally.Document.parse(data).value
        taken = tally._compiled_document(data) is not None
    return plain, fast, taken


# Documents as the agents write them (compact, indented, non-ASCII kept) and odd ones:
# a byte-order mark, whitespace around, text after the value.
LAYOUTS = st.sampled_from(
    [
        lambda v: json.dumps(v).encode(),
        lambda v: json.dumps(v, indent=2, ensure_ascii=False).encode(),
        lambda v: b"\xef\xbb\xbf" + json.dumps(v).encode(),
        lambda v: b" \n" + json.dumps(v, separators=(",", ":")).encode() + b"\r\n",
        lambda v: json.dumps(v).encode() + b" x",
        lambda v: json.dumps(v).encode()[:-1],
    ]
)


@needs_decoder
@given(value=json_values(12, 20), layout=LAYOUTS)
def test_a_document_reads_alike_either_way(value: Any, layout: Any) -> None:
    data = layout(value)
    with pytest.MonkeyPatch.context() as mp:
        plain, fast, _taken = both(data, mp)
    assert canon(fast) == canon(plain)


@needs_decoder
@pytest.mark.parametrize(
    ("data", "taken"),
    [
        (b'{"id": "T-1", "messages": [{"usage": {"inputTokens": 12}}]}', True),
        (b'{"a": 1, "b": 2, "a": 3}', True),  # the last copy, at the first one's place
        (b'{"n": 1.50, "e": 1E+3, "z": -0.0, "big": 1e1000000000000000000}', True),
        (b'{"n": 18446744073709551616, "m": -9223372036854775809}', True),
        (b'\xef\xbb\xbf{"id": "T-1"}', True),  # the mark dropped, as utf-8-sig does
        (b"[NaN, Infinity, -Infinity]", False),  # msgspec refuses; the marks, as before
        (b'"\\ud800 alone"', False),  # a lone surrogate: the standard library's text
        (b'{"n": ' + b"9" * 5000 + b"}", False),  # past int()'s digits: not JSON
        (b'{"t": "\xff"}', False),  # not UTF-8: the byte named
        (b"[" * 100_000 + b"]" * 100_000, False),  # too deep: not JSON
        (b'{"a": 1} {"b": 2}', False),
        (b"null", False),  # msgspec's null is read again: the same null
        (b"", False),
    ],
)
def test_the_documents_at_the_edges_read_alike(
    data: bytes, taken: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain, fast, took = both(data, monkeypatch)
    assert canon(fast) == canon(plain)
    assert took == taken
