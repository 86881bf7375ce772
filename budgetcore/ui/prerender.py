"""The page's first view, written into ``index.html`` at build time in CPython.

:func:`prerender` fills the page template with exactly what ``web/main.py``'s shell
writes on its first paint (the shell's start-up markup, the language's texts, the
readouts, fields and every region of the :class:`~budgetcore.ui.main.view.types.Screen`), so
the numbers and charts are on screen at first paint and the shell's own first paint
changes nothing the eye can see. It is generic over the screen's regions
(``Screen.html`` and ``Screen.text`` ids): a new panel is pre-rendered as soon as its
id is in the template.

The template is parsed into a small tree with the stdlib's ``html.parser`` and written
back out; no HTML is assembled by hand here (markup comes from ``render``).

>>> doc = Document.parse('<p id="a" class="x">old</p><input data-input="k">')
>>> doc.by_id("a").set_text("1 < 2")
>>> doc.select("data-input", "k")[0].attrs["value"] = "7"
>>> doc.html()
'<p id="a" class="x">1 &lt; 2</p><input data-input="k" value="7">'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html import escape
from html.parser import HTMLParser
from json import dumps

from budgetcore.messages import CATALOGUE, t
from budgetcore.ui.form import FIELDS
from budgetcore.ui.main.view.screen import render
from budgetcore.ui.main.view.shell import language_html, shell_html
from budgetcore.ui.main.view.types import Screen
from budgetcore.ui.markup import Markup
from budgetcore.ui.update import PRERENDER_WIDTH, first_state

__all__ = [
    "PAGES",
    "PRERENDER_WIDTH",
    "Document",
    "Element",
    "boot_texts",
    "first_screen",
    "prerender",
]

#: The pre-rendered first view in each language and the file it is built into: the
#: page in English, the same page in Chinese beside it. ``web/boot.js`` goes to the one
#: in the language the shell will choose (``update._link``) before anything is painted,
#: so a Chinese reader's page does not change language, and move, at "ready".
PAGES = {"en": "index.html", "zh": "index.zh.html"}


_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)
_RAW = frozenset({"script", "style"})


@dataclass(eq=False, slots=True)
class Element:
    """One element: its tag, attributes in order, and children (elements or text)."""

    tag: str
    attrs: dict[str, str | None] = field(default_factory=dict)
    children: list[Element | str | Markup] = field(default_factory=list)
    self_closing: bool = False

    def set_text(self, text: str) -> None:
        """``textContent = text``."""
        self.children = [text] if text else []

    def set_html(self, markup: Markup) -> None:
        """``innerHTML = markup`` (markup built by ``budgetcore.ui.markup``)."""
        self.children = _parse(markup).children

    def iter(self) -> Iterator[Element]:
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.iter()

    def html(self) -> str:
        return "".join(_write(c, self.tag in _RAW) for c in self.children)


class _Raw(str):
    """Text written back verbatim: declarations, comments, script and style bodies."""

    __slots__ = ()


def _attr(value: str) -> str:
    """An attribute value between double quotes: only ``&`` and ``"`` need escaping."""
    return value.replace("&", "&amp;").replace('"', "&quot;")


def _write(node: Element | str, raw: bool) -> str:
    if isinstance(node, _Raw) or (raw and isinstance(node, str)):
        return str(node)
    if isinstance(node, str):
        return escape(node, quote=False)
    attrs = "".join(f" {k}" if v is None else f' {k}="{_attr(v)}"' for k, v in node.attrs.items())
    if node.tag in _VOID:
        return f"<{node.tag}{attrs}>"
    if node.self_closing and not node.children:
        return f"<{node.tag}{attrs}/>"
    return f"<{node.tag}{attrs}>{node.html()}</{node.tag}>"


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#root")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Element(tag, dict(attrs))
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Element(tag, dict(attrs), self_closing=True))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        parent = self.stack[-1]
        parent.children.append(_Raw(data) if parent.tag in _RAW else data)

    def handle_comment(self, data: str) -> None:
        self.stack[-1].children.append(_Raw(f"<!--{data}-->"))

    def handle_decl(self, decl: str) -> None:
        self.stack[-1].children.append(_Raw(f"<!{decl}>"))


def _parse(text: str) -> Element:
    builder = _Builder()
    builder.feed(text)
    builder.close()
    return builder.root


class Document:
    """A parsed page: find elements by id or attribute, change them, write it out."""

    def __init__(self, root: Element) -> None:
        self.root = root

    @classmethod
    def parse(cls, text: str) -> Document:
        return cls(_parse(text))

    def html(self) -> str:
        return self.root.html()

    def find(self, match: Callable[[Element], bool]) -> list[Element]:
        return [e for e in self.root.iter() if match(e)]

    def by_id(self, ident: str) -> Element:
        found = self.find(lambda e: e.attrs.get("id") == ident)
        if len(found) != 1:
            raise ValueError(f"the page template has {len(found)} elements with id {ident!r}")
        return found[0]

    def select(self, attr: str, value: str | None = None) -> list[Element]:
        """Elements carrying ``attr`` (equal to ``value`` when given)."""
        return self.find(lambda e: attr in e.attrs and (value is None or e.attrs[attr] == value))


def first_screen(width: int = PRERENDER_WIDTH, lang: str = "en") -> Screen:
    """What the shell paints first for a link without a fragment, at ``width``, in a
    browser whose language is ``lang``."""
    return render(first_state(width, lang))


def _set_value(node: Element, value: str) -> None:
    """``node.value = value`` as markup: an input's value, a select's chosen option."""
    if node.tag == "select":
        for option in node.iter():
            if option.tag == "option":
                option.attrs.pop("selected", None)
                if option.attrs.get("value") == value:
                    option.attrs["selected"] = None
    elif node.tag == "textarea":
        node.set_text(value)
    else:
        node.attrs["value"] = value


def _flag(node: Element, name: str, on: bool) -> None:
    if on:
        node.attrs[name] = None
    else:
        node.attrs.pop(name, None)


def boot_texts(lang: str) -> str:
    """The texts ``web/boot.js`` shows before Python runs (the ``boot.`` keys), in
    ``lang``, as the JSON object it reads off ``html[data-boot-texts]``.

    >>> import json
    >>> json.loads(boot_texts("zh"))["boot.stage.loaded-pyodide"]
    '已加载 Pyodide'
    """
    keys = sorted(k for k in CATALOGUE if k.startswith("boot."))
    return dumps({k: t(k, lang) for k in keys}, ensure_ascii=False, separators=(",", ":"))


def prerender(template: str, screen: Screen) -> str:
    """``template`` with ``screen`` written in, as the shell's first paint writes it
    (``Shell.__init__``, ``retext`` and ``paint`` in ``web/main.py``)."""
    doc = Document.parse(template)
    lang = screen.lang
    for rid, markup in shell_html().items():
        doc.by_id(rid).set_html(markup)
    # retext
    html = doc.find(lambda e: e.tag == "html")[0]
    html.attrs["lang"] = "zh-CN" if lang == "zh" else "en"
    html.attrs["data-prerendered"] = None  # the stylesheet shows the page before "ready"
    html.attrs["data-boot-texts"] = boot_texts(lang)
    _set_value(doc.by_id("lang"), lang)
    for node in doc.select("data-i18n"):
        node.set_text(t(str(node.attrs["data-i18n"]), lang))
    for node in doc.select("data-i18n-aria"):  # what a screen reader says before ready
        node.attrs["aria-label"] = t(str(node.attrs["data-i18n-aria"]), lang)
    # Not data-i18n: the shell's retext would put it back over a later stage.
    doc.by_id("boot-stage").set_text(t("boot.start", lang))
    for rid, markup in language_html(lang).items():
        doc.by_id(rid).set_html(markup)
    # paint
    for rid in ("app", "results"):
        node = doc.by_id(rid)
        node.attrs["data-stale"] = "true" if screen.stale else "false"
        node.attrs["data-ab"] = "on" if screen.ab else "off"
    for path, view in screen.fields.items():
        (node,) = doc.select("data-input", path)
        if FIELDS[path].kind == "bool":
            _flag(node, "checked", view.text == "true")
        else:
            _set_value(node, view.text)
        doc.select("data-msg", path)[0].set_text(view.message)
        if view.message:
            node.attrs["aria-invalid"] = "true"
        for slider in doc.select("data-slider", path):
            slider.attrs["value"] = str(view.slider)
            slider.attrs["aria-valuetext"] = view.valuetext
            slider.attrs["data-empty"] = "true" if view.empty else "false"
    _flag(doc.select("data-toggle", "summary_model")[0], "checked", screen.summary_same)
    _flag(doc.by_id("summary-fields"), "hidden", screen.summary_same)
    _set_value(doc.by_id("preset"), screen.preset)
    _flag(doc.select("data-action", "unpin")[0], "disabled", not screen.ab)
    if not screen.stale:
        for key, (text, value) in screen.readouts.items():
            for cell in (*doc.select("data-key", key), *doc.select("data-key-summary", key)):
                cell.set_text(text)
                if value is not None:
                    cell.attrs["data-value"] = value
            for lamp in doc.select("data-lamp", key):
                if value is not None:
                    lamp.attrs["data-value"] = value
        for key, (a, delta, sign) in screen.ab_cells.items():
            doc.select("data-key-a", key)[0].set_text(a)
            cell = doc.select("data-key-delta", key)[0]
            cell.set_text(delta)
            cell.attrs["data-sign"] = sign
    for rid, markup in screen.html.items():
        doc.by_id(rid).set_html(markup)
    for rid, text in screen.text.items():
        doc.by_id(rid).set_text(text)
    path, low, high = screen.sweep
    for rid, value in (("sweep-path", path), ("sweep-low", low), ("sweep-high", high)):
        _set_value(doc.by_id(rid), value)
    return doc.html()
