"""A small HTML builder that always escapes: text is text unless it is ``Markup``.

>>> el("td", {"data-key": 'a"b'}, "<1>")
'<td data-key="a&quot;b">&lt;1&gt;</td>'
>>> el("input", {"type": "checkbox", "checked": True, "hidden": False})
'<input type="checkbox" checked>'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

__all__ = ["Markup", "Plain", "breaks", "el", "esc", "fold", "join", "td"]

_VOID = frozenset({"input", "br", "hr", "img", "meta", "link", "col", "wbr"})
Attrs = Mapping[str, object] | None


def escape(text: str) -> str:
    """``html.escape(text, quote=True)``, without importing ``html`` (whose entity table
    costs the page's boot about 50 ms in Pyodide); a property test holds them equal."""
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if '"' in text:
        text = text.replace('"', "&quot;")
    if "'" in text:
        text = text.replace("'", "&#x27;")
    return text


#: What must never reach the DOM as itself, whatever the text's source (a log's entry
#: type, a file name, a model name): C0 and C1 controls but the newline and the tab
#: (ESC sequences), bidirectional controls (a right-to-left override turns a file name
#: around on screen), line and paragraph separators, and lone surrogates (the DOM gets
#: U+FFFD or the conversion throws). Each is written as its ``\uXXXX`` escape, as
#: ``inputs.text.neutral`` writes it for a terminal; unlike neutral, spaces such as
#: U+00A0 and U+2009 stay (the page's numbers are set with them).
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
)


def _escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def inert(text: str) -> str:
    r"""``text`` with every character of :data:`_UNSAFE` as its ``\uXXXX`` escape.

    >>> inert("a\x1b]0;x\x07b"), inert("ok\n"), inert("1\u2009000") == "1\u2009000"
    ('a\\u001b]0;x\\u0007b', 'ok\n', True)
    """
    if text.isascii() and text.isprintable():  # the common case, in C
        return text
    return _UNSAFE.sub(_escaped, text)


#: A character :func:`_text` changes: one of :func:`escape`'s five or :data:`_UNSAFE`'s.
#: Most of a redraw's texts and attribute values (numbers, class names, labels) have
#: none, and one search in C finds that (a 500-turn replay writes some 600 per input).
_CHANGED = re.compile("[&<>\"'" + _UNSAFE.pattern[1:]).search

#: The ASCII characters of :data:`_CHANGED` (its others are not ASCII), as bytes.
_ASCII_CHANGED = bytes([*range(0x09), *range(0x0B, 0x20), 0x7F, *b"&<>\"'"])
#: From this length an ASCII value is checked by deleting those bytes from it, one pass
#: in C: the search's character class costs about 60 instructions a character, and a
#: replay's path data and points (some 24,000 characters per redraw, 2,000 to 4,000
#: each) were half of the markup builder's instructions. A shorter value keeps the one
#: search (the bytes cost more to set up than they save).
_LONG = 64


def _unchanged(value: str) -> bool:
    """Whether :func:`_text` leaves ``value`` as it is."""
    if len(value) < _LONG:
        return _short_unchanged(value)
    if value.isascii():
        data = value.encode()
        return len(data.translate(None, _ASCII_CHANGED)) == len(data)
    return _CHANGED(value) is None


@lru_cache(maxsize=4_096)
def _short_unchanged(value: str) -> bool:
    """:func:`_unchanged` of a short value, by value: most of a redraw's are the same
    few class names, anchors, transforms and labels on every input, and a look-up
    costs about a third of the search (a timed replay redraw checks some 300)."""
    return _CHANGED(value) is None


def _text(value: str) -> str:
    if _unchanged(value):
        return value
    return escape(inert(value))


class Markup(str):
    """Text that is already safe HTML (built by this module)."""

    __slots__ = ()


class Plain(str):
    """Text with no character :func:`_text` would change, by how it is built: the
    replay charts' path data and point lists, made of integers and literal path
    commands only, never of input. As an attribute value it is written as it is,
    without the check (a redraw writes some 20,000 such characters per input, about 14
    instructions each to check; tests/property/test_markup_properties.py holds the
    charts' texts to the check)."""

    __slots__ = ()


def esc(value: object) -> Markup:
    """``value`` as safe HTML: Markup stays, anything else is escaped as text."""
    if isinstance(value, Markup):
        return value
    return Markup(_text(str(value)))


def _attrs(attrs: Attrs) -> str:
    if not attrs:
        return ""
    out = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        if value is True:
            out.append(f" {name}")
        elif (
            type(value) is int or type(value) is Plain or (type(value) is str and _unchanged(value))
        ):
            # digits need no escaping (charts write thousands), nor do a chart's path
            # data (Plain), nor most texts
            out.append(f' {name}="{value}"')
        else:
            out.append(f' {name}="{_text(str(value))}"')
    return "".join(out)


def el(tag: str, attrs: Attrs = None, *children: object) -> Markup:
    """``<tag attrs>children</tag>``; children are escaped unless they are Markup."""
    head = f"<{tag}{_attrs(attrs)}>" if attrs else f"<{tag}>"
    if tag in _VOID:
        return Markup(head)
    # A list, not a generator: join builds one anyway (hundreds of elements per redraw).
    inner = "".join([c if isinstance(c, Markup) else _text(str(c)) for c in children])
    return Markup(f"{head}{inner}</{tag}>")


def join(parts: Iterable[object], sep: str = "") -> Markup:
    """Concatenate, escaping every part that is not already Markup."""
    return Markup(esc(sep).join(esc(p) for p in parts))


def td(label: str, attrs: Attrs = None, *children: object) -> Markup:
    """A data cell that names its column (``data-label``): a table of class ``stack``
    shows each row as "label: value" lines on a narrow screen (web/style.css), never
    columns behind a scroll.

    >>> td("Tokens", {"class": "num"}, "32,000")
    '<td data-label="Tokens" class="num">32,000</td>'
    """
    return el("td", {"data-label": label, **(attrs or {})}, *children)


def fold(summary: object, *children: object) -> Markup:
    """A long reference folded until opened (``<details class="fold">``).

    >>> fold("Every system", "...")
    '<details class="fold"><summary>Every system</summary>...</details>'
    """
    return el("details", {"class": "fold"}, el("summary", None, summary), *children)


#: A tag of markup this module built (its attribute values escaped, so no ``>`` in them).
_TAG = re.compile(r"(<[^>]*>)")
#: A dollar amount with its sign, as ``units.format_money`` and ``signed_money_text``
#: write it ("−$0.2978285", "$1,234.5"): a line may break between the sign and the
#: dollar (two prefix characters, UAX #14), seen at 390 px in Chinese; and a share
#: with its sign, as ``asrun.ratio_text`` writes it ("+10.5 %"), whose space before
#: "%" is a break point (a backtest's note at 390 px in Chinese).
_WHOLE = re.compile(r"[−+±-]?\$[0-9][0-9,]*(?:\.[0-9]+)?|[−+±]?[0-9][0-9,]*(?:\.[0-9]+)? %")
#: A name of words joined by underscores (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE broke as
#: "…_OVERR|IDE" at 390 px): set as an inline block that may break after each
#: underscore, so the line breaks before the name where it fits on the next one, and
#: inside it (after an underscore, not mid-word) only where it fits on none.
_NAME = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+(?![A-Za-z0-9_])")
#: A path's slash before more of it: a break allowed after it (a session's path broke
#: inside its file's id at 1,440 px, "session|s.db#20260816_1").
_SLASH = re.compile(r"(?<=/)(?=[^\s/])")
#: A dotted name's dot before a letter: a break allowed after it (Gemini CLI's
#: ``model.compressionThreshold`` broke as "compressionThres|hold" in the export's
#: table at 390 px, the eighteenth walk).
_DOT = re.compile(r"(?<=[A-Za-z0-9_]\.)(?=[A-Za-z])")
#: In a path, an id a line keeps whole where it holds it: a UUID with the file's
#: extensions and a folder's slash after it, and a timestamp with its separator after
#: it. Codex's rollout names (``rollout-<timestamp>-<uuid>.jsonl``, openai/codex
#: ``codex-rs/core/src/rollout/recorder.rs``), pi's ``<timestamp>_<uuid>.jsonl`` and
#: Kimi's ``session_<uuid>`` folders broke inside their UUID ("…-4444-7000-|8000-…",
#: 1,440 px, the seventeenth walk's leftover); each is an inline block (``span.nb``),
#: broken inside only where it fits on no line, and then first before the extensions
#: (a ``<wbr>``); a colon or a closing mark after it is kept in it (a line broke between
#: a Tune note's ".jsonl" and its ":" at 390 px). A timestamp's seconds and
#: milliseconds never take the digits of a hex id after them (Gemini CLI's
#: ``session-2025-11-24T12-00-33333333.jsonl``).
_ID = re.compile(
    r"(?<![0-9A-Fa-f])([0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12})"
    r"((?:\.[A-Za-z]+)*/?(?![0-9A-Za-z])[:;,)\]、，：；）]*)"
    r"|(?<![0-9])[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}[-:][0-9]{2}"
    r"(?:[-:][0-9]{2}(?![0-9A-Za-z]))?(?:[-.][0-9]{3}Z|Z)?(?![0-9A-Za-z])[-_]?"
)


def _id(match: re.Match[str]) -> str:
    uuid, rest = match.group(1, 2)
    if uuid is None:  # a timestamp
        return f'<span class="nb">{match.group()}</span>'
    # Before a file's extensions, not before a folder's slash.
    wbr = "<wbr>" if rest.startswith(".") else ""
    return f'<span class="nb">{uuid}{wbr}{rest}</span>'


def _name(match: re.Match[str]) -> str:
    return '<span class="nb">' + match.group().replace("_", "_<wbr>") + "</span>"


def breaks(html: object, after: str = "") -> Markup:
    """``html`` (text is escaped first, Markup kept) with its text's line breaks where a
    reader expects them: a dollar amount or a share ("+10.5 %") in a sentence never
    broken (a ``span.nw``: no wrap; one alone in its element is left to that element's
    rule), and, by
    ``after``, a break allowed after a path's slashes (``"/"``, ``<wbr>``; its UUIDs
    and timestamps each an inline block ``span.nb``, kept whole), a dotted name's dots
    (``"."``) or a name's
    underscores (``"_"``, the name an inline block ``span.nb``), so that
    ``overflow-wrap: anywhere`` cuts a word only where it has no such point. Only text
    between tags changes; the text content stays the same.

    >>> breaks("−$0.25 of CLAUDE_AUTOCOMPACT", "_")
    '<span class="nw">−$0.25</span> of <span class="nb">CLAUDE_<wbr>AUTOCOMPACT</span>'
    >>> breaks("(+1.5 %)")
    '(<span class="nw">+1.5 %</span>)'
    >>> breaks(el("b", {"title": "a/b"}, "x/y $1"), "/")
    '<b title="a/b">x/<wbr>y <span class="nw">$1</span></b>'
    >>> breaks(join((el("pre", None, "a_b = $1"), " a_b")), "_")
    '<pre>a_b = $1</pre> <span class="nb">a_<wbr>b</span>'
    >>> breaks("model.compressionThreshold", ".")
    'model.<wbr>compressionThreshold'
    >>> breaks("rollout-2025-11-02T09-00-00-019a1000-4444-7000-8000-000000000004.jsonl", "/")
    ... # doctest: +NORMALIZE_WHITESPACE
    'rollout-<span class="nb">2025-11-02T09-00-00-</span><span
    class="nb">019a1000-4444-7000-8000-000000000004<wbr>.jsonl</span>'
    """
    parts = _TAG.split(esc(html))
    pre = False
    for i in range(0, len(parts), 2):  # the text runs (the tags are at odd places)
        if i:
            tag = parts[i - 1][:5].lower()
            pre = tag.startswith("<pre") or (pre and not tag.startswith("</pre"))
        if pre:
            continue  # a file's text (an export) sets its own lines; copied as it is
        text = parts[i]
        # Before the money's spans, whose closing tags hold a slash.
        if "/" in after:
            if "/" in text:
                text = _SLASH.sub("<wbr>", text)
            if "-" in text:
                text = _ID.sub(_id, text)
        if "_" in after and "_" in text:
            text = _NAME.sub(_name, text)
        if "." in after and "." in text:
            text = _DOT.sub("<wbr>", text)
        # An amount alone in its element is left as it is: the element is its box (a
        # what-if's figure, a table's cell, each set whole by its own rule).
        if ("$" in text or "%" in text) and not _WHOLE.fullmatch(text):
            text = _WHOLE.sub(r'<span class="nw">\g<0></span>', text)
        parts[i] = text
    return Markup("".join(parts))
