"""A region's new markup as the few attribute and text changes from its last markup.

A replay redraw rewrote some 40 kB of markup into four regions for each input, of which
a few dozen attribute values and texts had changed (the trigger line's points, the
marks' paths, the summary's numbers): the browser parsed all of it again, built every
node anew and laid the panel out from scratch in the next frame. When the new markup has
the same elements in the same order as the last (the same tags, the same text runs),
:func:`patch_of` says what to change instead: for an element (by its index among the
region's elements in document order) an attribute set or removed, for a text run (by
its index among the region's text nodes) its new text. The shell applies it
(``web/main.py``) after checking that the region holds as many elements and text nodes
as the last markup had, and writes the markup whole when it does not.

Only markup this package writes (:mod:`budgetcore.ui.markup`) is diffed: every ``<``
in it opens a tag, every attribute value is quoted with ``"`` and escaped, and no text
holds a character the HTML parser would change (a carriage return, an entity other
than :func:`budgetcore.ui.markup.escape`'s five). Anything else (an unknown entity, a
quote in a text run, a form control or a ``<details>`` whose state the user holds) is
written whole, as before.
"""

from __future__ import annotations

import re
from itertools import accumulate, compress, count, repeat
from operator import ne

__all__ = ["Patch", "patch_of", "unescape"]

#: A start tag's name (after its "<") and its attributes (``name="value"`` or bare).
_NAME = re.compile(r"[a-zA-Z][^\s/>]*")
_ATTR = re.compile(r'\s([^\s="/>]+)(?:="([^"]*)")?')
#: Written whole: elements whose state the user holds or whose text the parser changes,
#: declarations, a "<" that opens no tag; self-closed tags (not this package's). Two
#: searches, not one: an alternation that does not start with "<" is tried at every
#: character.
_WHOLE = re.compile(
    r"<(?:(?:details|input|select|option|textarea|pre|script|style|template)\b|!|(?![a-zA-Z/]))"
)
_SELF_CLOSED = re.compile("/>")
_ENTITY = re.compile(r"&([^;&\s]*);?")
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "#x27": "'"}

#: (elements, text nodes, changes): the region's element and text-node counts after
#: the last markup, then flat quadruples (kind, index, attribute name, value): kind 0
#: an element's attribute (value None removes it), kind 1 a text node's text.
Patch = tuple[int, int, tuple[object, ...]]


def unescape(text: str) -> str | None:
    """The text the HTML parser makes of ``text`` (an attribute value or a text run of
    :mod:`budgetcore.ui.markup`), or None when it holds anything else than the five
    entities :func:`budgetcore.ui.markup.escape` writes.

    >>> unescape("a &amp; b &lt;1&gt; &quot;c&quot; &#x27;"), unescape("&nbsp;")
    ('a & b <1> "c" \\'', None)
    """
    if "&" not in text:
        return text
    names = _ENTITY.findall(text)
    if any(name not in _ENTITIES for name in names) or text.count(";") < len(names):
        return None
    return _ENTITY.sub(lambda m: _ENTITIES[m.group(1)], text)


def _attr_changes(element: int, was: str, now: str) -> list[object] | None:
    """An element's attribute changes from start tag ``was`` to ``now`` (each without
    its "<" and ">"; flat, as :data:`Patch` holds them), None when they name different
    elements or either is not this package's markup."""
    name, before = _NAME.match(now), _NAME.match(was)
    if name is None or before is None or name.group() != before.group():
        return None
    olds, news = _ATTR.findall(was), _ATTR.findall(now)
    names = [key for key, _ in news]
    if len(set(names)) != len(names):
        return None  # the parser keeps the first of two; not this package's markup
    changes: list[object] = []
    if names == [key for key, _ in olds]:  # the common case: values changed
        for (key, value), (_, new_value) in zip(olds, news, strict=True):
            if value != new_value:
                plain = unescape(new_value)
                if plain is None:
                    return None
                changes += (0, element, key, plain)
        return changes
    kept = dict(olds)
    if len(kept) != len(olds):
        return None
    for key, value in news:
        plain = unescape(value)
        if plain is None:
            return None
        if kept.get(key) != value:
            changes += (0, element, key, plain)
    changes += [x for key in kept if key not in names for x in (0, element, key, None)]
    return changes


def _readable(markup: str) -> bool:
    return not (
        _WHOLE.search(markup) or _SELF_CLOSED.search(markup) or "\r" in markup or "\0" in markup
    )


def patch_of(old: str, new: str) -> Patch | None:
    """The changes that turn the DOM parsed from ``old`` into the DOM parsed from
    ``new``, or None when the two differ in structure (or either is markup this
    function does not read; the shell then writes ``new`` whole).

    >>> patch_of('<p class="a">1</p>', '<p class="b">2</p>')
    (1, 1, (0, 0, 'class', 'b', 1, 0, '', '2'))
    >>> patch_of("<p>1</p>", "<p>1</p><p>2</p>") is None
    True
    """
    # Pieces at each "<": a tag's body, its ">", then the text up to the next tag (the
    # first piece: the text before any tag). Every walk over them is in C; only the
    # pieces that differ are read in Python.
    # The old markup is not searched: its pieces that equal the new ones are the new
    # ones, and every other names the same element (or there is no patch).
    was, now = old.split("<"), new.split("<")
    if len(was) != len(now) or not _readable(new):
        return None
    ends = list(accumulate(map(str.startswith, now, repeat("/")), initial=0))
    tagged = list(accumulate(map(str.endswith, now, repeat(">")), initial=0))
    # Before piece i (i >= 1): its elements, the i - 1 tags less the end tags; its text
    # runs, the first piece's and every piece's not ending at its ">" (piece 0 is a
    # text, whatever it starts or ends with).
    lead = 1 if now[0] else 0
    changes: list[object] = []
    for i in compress(count(), map(ne, was, now)):
        a, b = was[i], now[i]
        if i == 0:
            plain = unescape(b)
            if not a or not b or plain is None:
                return None
            changes += (1, 0, "", plain)
            continue
        if a.count(">") != 1 or b.count(">") != 1:
            return None  # a ">" in a value or a text: not this package's
        (tag_a, text_a), (tag_b, text_b) = a.split(">"), b.split(">")
        if tag_a != tag_b:
            if tag_a[:1] == "/" or tag_b[:1] == "/" or tag_a[-1:] == "/":
                return None  # end tags differ (the structure does), or a self-closed one
            found = _attr_changes(i - 1 - ends[i] + ends[1], tag_a, tag_b)
            if found is None:
                return None
            changes += found
        if text_a != text_b:
            plain = unescape(text_b)
            if not text_a or not text_b or plain is None:
                return None  # a text run where there was none, or the reverse
            changes += (1, lead + (i - 1) - tagged[i] + tagged[1], "", plain)
    n = len(now)
    return n - 1 - ends[n] + ends[1], lead + (n - 1) - tagged[n] + tagged[1], tuple(changes)
