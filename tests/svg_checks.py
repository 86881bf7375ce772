"""Reading the page's SVG as a person sees it: each text's box at the page's font
metrics (12 px; a CJK glyph one em, any other 0.62 em), and the checks every chart test
shares: no text touches another, a bar, a panel or a line, and every text fits the width."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from fractions import Fraction

__all__ = [
    "CJK",
    "Rect",
    "assert_fits",
    "assert_no_collisions",
    "chart_of",
    "line_box",
    "lines_of",
    "overlap",
    "parse_svg",
    "rect_box",
    "rects_of",
    "tag",
    "text_px",
    "text_rect",
    "texts_of",
]

CJK = re.compile(r"[\u2e80-\u9fff\uff00-\uffef\u3000-\u303f]")

# ------------------------------------------------------------------ reading the markup


def tag(e: ET.Element) -> str:
    return e.tag.rsplit("}", 1)[-1]


def parse_svg(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def chart_of(figure: ET.Element) -> ET.Element:
    (svg,) = [e for e in figure.iter() if tag(e) == "svg" and e.get("data-chart")]
    return svg


Rect = tuple[Fraction, Fraction, Fraction, Fraction]  # x0, y0, x1, y1


def text_px(text: str) -> Fraction:
    return sum(
        (Fraction(12) if CJK.match(ch) else Fraction(12 * 62, 100) for ch in text), Fraction(0)
    )


def text_rect(e: ET.Element) -> Rect:
    text = "".join(e.itertext())
    x, y = Fraction(e.get("x", "0")), Fraction(e.get("y", "0"))
    w = text_px(text)
    anchor = e.get("text-anchor", "start")
    x0 = x if anchor == "start" else x - w if anchor == "end" else x - w / 2
    return (x0, y - 12, x0 + w, y + 3)


def overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def texts_of(svg: ET.Element) -> list[ET.Element]:
    return [e for e in svg.iter() if tag(e) == "text"]


def rects_of(svg: ET.Element, *attrs: str) -> list[ET.Element]:
    return [e for e in svg.iter() if tag(e) == "rect" and any(e.get(a) for a in attrs)]


def rect_box(e: ET.Element) -> Rect:
    x, y = Fraction(e.get("x", "0")), Fraction(e.get("y", "0"))
    return (x, y, x + Fraction(e.get("width", "0")), y + Fraction(e.get("height", "0")))


def line_box(e: ET.Element) -> Rect:
    x1, x2 = sorted((Fraction(e.get("x1", "0")), Fraction(e.get("x2", "0"))))
    y1, y2 = sorted((Fraction(e.get("y1", "0")), Fraction(e.get("y2", "0"))))
    return (x1 - Fraction(1, 2), y1, x2 + Fraction(1, 2), y2)  # a line is 1 px wide


def lines_of(svg: ET.Element) -> list[ET.Element]:
    return [e for e in svg.iter() if tag(e) == "line"]


def assert_no_collisions(svg: ET.Element) -> None:
    """No text box overlaps another, a bar, a panel, a state band or any line."""
    texts = [(e, text_rect(e)) for e in texts_of(svg)]
    for (a, ra), (b, rb) in itertools.combinations(texts, 2):
        assert not overlap(ra, rb), (a.text, b.text)
    marks = [rect_box(e) for e in svg.iter() if tag(e) == "rect"]
    marks += [line_box(e) for e in lines_of(svg)]
    for e, r in texts:
        for m in marks:
            assert not overlap(r, m), (e.text, m)


def assert_fits(svg: ET.Element, width: int) -> None:
    for e in texts_of(svg):
        x0, _, x1, _ = text_rect(e)
        assert x0 >= 0, e.text
        assert x1 <= width, e.text
