"""A small HTML builder that always escapes: text is text unless it is ``Markup``.

>>> el("td", {"data-key": 'a"b'}, "<1>")
'<td data-key="a&quot;b">&lt;1&gt;</td>'
>>> el("input", {"type": "checkbox", "checked": True, "hidden": False})
'<input type="checkbox" checked>'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["Markup", "el", "esc", "fold", "join", "td"]

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


class Markup(str):
    """Text that is already safe HTML (built by this module)."""

    __slots__ = ()


def esc(value: object) -> Markup:
    """``value`` as safe HTML: Markup stays, anything else is escaped as text."""
    if isinstance(value, Markup):
        return value
    return Markup(escape(str(value)))


def _attrs(attrs: Attrs) -> str:
    if not attrs:
        return ""
    out = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        if value is True:
            out.append(f" {name}")
        elif type(value) is int:  # digits need no escaping (charts write thousands)
            out.append(f' {name}="{value}"')
        else:
            out.append(f' {name}="{escape(str(value))}"')
    return "".join(out)


def el(tag: str, attrs: Attrs = None, *children: object) -> Markup:
    """``<tag attrs>children</tag>``; children are escaped unless they are Markup."""
    head = f"<{tag}{_attrs(attrs)}>" if attrs else f"<{tag}>"
    if tag in _VOID:
        return Markup(head)
    # A list, not a generator: join builds one anyway (hundreds of elements per redraw).
    inner = "".join([c if isinstance(c, Markup) else escape(str(c)) for c in children])
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
