"""The replay timeline's peer lines named at their ends, as Chromium draws them (issue
42): the labels' real text boxes, not the geometry's estimate, touch no other label, no
peer line, no K or M line and no series' segment, at 1440 and 390 px, in English and
Chinese."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import _page_at
from tests.growth_log_helpers import growing_claude_log
from tests.helpers import segment_meets_box

pytestmark = pytest.mark.browser

# Every label's box, every peer line's y and every series' points, in page pixels.
_SHAPES = """() => {
  const svg = document.querySelector('[data-chart=replay-timeline]');
  const at = (el, p) => {
    const m = el.getScreenCTM();
    return [m.a * p.x + m.c * p.y + m.e, m.b * p.x + m.d * p.y + m.f];
  };
  const labels = [...svg.querySelectorAll('.rp-peer-label')].map(el => {
    const r = el.getBoundingClientRect();
    return {keys: el.dataset.lines, text: el.textContent,
            box: [r.left, r.top, r.right, r.bottom]};
  });
  const peers = [...svg.querySelectorAll('line.rp-peer')].map(el => ({
    key: el.dataset.line, y: at(el, {x: 0, y: el.y1.baseVal.value})[1]}));
  const series = [...svg.querySelectorAll('[data-plot=timeline] polyline, '
                                          + '[data-plot=timeline] polygon')].map(el => ({
    key: el.dataset.series, points: [...el.points].map(p => at(el, p))}));
  return {labels, peers, series};
}"""


def _exact(v: float) -> Fraction:
    return Fraction(str(v))


def _crosses(box: tuple[Fraction, ...], a: list[float], b: list[float]) -> bool:
    """Whether the segment a-b (Chromium's pixels, read exactly) meets the box."""
    x0, y0, x1, y1 = map(_exact, (*a, *b))
    left, top, right, bottom = box
    return segment_meets_box((x0, y0), (x1, y1), (left, top, right, bottom))


@pytest.mark.parametrize(("width", "height"), [(1440, 900), (390, 844)])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_peer_label_touches_another_label_or_a_line(
    browser: Any, base_url: str, tmp_path: Path, width: int, height: int, lang: str
) -> None:
    log = tmp_path / "growing.jsonl"
    log.write_text(growing_claude_log(60, 190_000))
    for page in _page_at(browser, base_url, width, height):
        p = page.open(f"#lang={lang}").page
        p.click("#replay summary")
        p.check("input[data-replay-source][value=log]")
        p.set_input_files("#replay-file", str(log))
        p.wait_for_selector("line.rp-peer", state="attached")
        p.wait_for_selector(".rp-peer-label", state="attached")
        shapes = p.evaluate(_SHAPES)
        labels = [(x["text"], tuple(map(_exact, x["box"]))) for x in shapes["labels"]]
        named = sorted(k for x in shapes["labels"] for k in x["keys"].split())
        assert named == sorted(x["key"] for x in shapes["peers"])  # each line, once
        for (at, a), (bt, b) in itertools.combinations(labels, 2):
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (at, bt)
        for text, box in labels:
            for peer in shapes["peers"]:
                assert not box[1] <= _exact(peer["y"]) <= box[3], (text, peer["key"])
            for s in shapes["series"]:
                for a, b in itertools.pairwise(s["points"]):
                    assert not _crosses(box, a, b), (text, s["key"], a, b)
        assert not page.errors
