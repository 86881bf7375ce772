"""The build's pre-rendered first view (budgetcore.ui.prerender) and the site's headers."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest

from budgetcore import plan
from budgetcore.core.scenario import Scenario
from budgetcore.messages import t
from budgetcore.ui.main.view.types import READOUT_KEYS
from budgetcore.ui.markup import Markup
from budgetcore.ui.prerender import PAGES, Document, boot_texts, first_screen, prerender
from budgetcore.units import format_int
from tests.helpers import load_webserver

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = (ROOT / "web" / "index.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def page() -> Document:
    return Document.parse(prerender(TEMPLATE, first_screen()))


def test_readouts_are_the_default_plans_numbers(page: Document) -> None:
    # Oracle: the plan's own dictionary, formatted here, not the renderer's readouts.
    expected = plan(Scenario()).as_dict()
    for key in READOUT_KEYS:
        (cell,) = page.select("data-key", key)
        value = expected.get(key)
        if isinstance(value, bool):
            assert cell.attrs["data-value"] == ("true" if value else "false"), key
        elif isinstance(value, int):
            assert cell.html() == format_int(value), key
    (m,) = page.select("data-key-summary", "main_safe_input")
    assert m.html() == "936,345"
    (lamp,) = page.select("data-lamp", "admitted")
    assert lamp.attrs["data-value"] == "true"


def test_every_region_of_the_screen_is_written(page: Document) -> None:
    screen = first_screen()
    for rid, markup in screen.html.items():
        assert page.by_id(rid).html() == Document.parse(markup).html(), rid
    for rid, text in screen.text.items():
        assert page.by_id(rid).html() == Document.parse(Markup(text)).html(), rid
    assert "<svg" in page.by_id("chart-funnel").html()


def test_fields_show_the_screens_texts(page: Document) -> None:
    screen = first_screen()
    for path, view in screen.fields.items():
        (node,) = page.select("data-input", path)
        if node.attrs.get("type") == "checkbox":
            assert ("checked" in node.attrs) == (view.text == "true"), path
        else:
            assert node.attrs.get("value") == view.text, path
        for slider in page.select("data-slider", path):
            assert slider.attrs["value"] == str(view.slider), path
    assert page.select("data-input", "main_model.input_tokens")[0].attrs["value"] == "1,048,576"


def test_first_view_is_marked_and_its_controls_wait(page: Document) -> None:
    (html,) = page.find(lambda e: e.tag == "html")
    assert "data-prerendered" in html.attrs
    assert html.attrs["data-state"] == "loading"
    waking = page.select("data-wake")
    assert {e.attrs.get("id") for e in waking} >= {"controls", "lang"}
    assert all("inert" in e.attrs for e in waking)


def test_a_region_missing_from_the_template_is_an_error() -> None:
    template = TEMPLATE.replace('<div id="chart-work" class="chart"></div>', "")
    with pytest.raises(ValueError, match="chart-work"):
        prerender(template, first_screen())


def test_writing_back_keeps_the_document() -> None:
    once = Document.parse(TEMPLATE).html()
    assert Document.parse(once).html() == once
    doc = Document.parse('<p id="x" title="a &amp; &quot;b&quot;">1 &lt; 2</p><br>')
    assert doc.html() == '<p id="x" title="a &amp; &quot;b&quot;">1 &lt; 2</p><br>'
    doc = Document.parse("<script>if (a < b && c) {}</script><!-- note -->")
    assert doc.html() == "<script>if (a < b && c) {}</script><!-- note -->"


def test_serve_caches_hashed_assets_forever_and_revalidates_the_html(tmp_path: Path) -> None:
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "style.0123abcd.css").write_text("p {}")
    (tmp_path / "index.html").write_text("<p>")
    server, url = load_webserver().start_in_thread(root=tmp_path)
    try:
        with urllib.request.urlopen(url + "assets/style.0123abcd.css") as r:
            assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            assert r.headers["Content-Type"] == "text/css"
        for path in ("", "index.html"):
            with urllib.request.urlopen(url + path) as r:
                assert r.headers["Cache-Control"] == "no-cache"
    finally:
        server.shutdown()
        server.server_close()


def test_the_chinese_first_view_is_the_chinese_first_paint() -> None:
    """index.zh.html: what the shell paints first for a Chinese browser, every static
    text in Chinese, the numbers the English page's."""
    zh = Document.parse(prerender(TEMPLATE, first_screen(lang="zh")))
    (html,) = zh.find(lambda e: e.tag == "html")
    assert html.attrs["lang"] == "zh-CN"
    screen = first_screen(lang="zh")
    assert screen.lang == "zh"
    for rid, markup in screen.html.items():
        assert zh.by_id(rid).html() == Document.parse(markup).html(), rid
    texts = zh.select("data-i18n")
    assert len(texts) > 20
    for node in texts:
        key = str(node.attrs["data-i18n"])
        assert node.html() == Document.parse(Markup(t(key, "zh"))).html(), key
    # The names a screen reader says, too ("Scenario inputs" read on the Chinese page
    # until Python was ready, the fifth walk).
    named = zh.select("data-i18n-aria")
    assert len(named) > 5
    for node in named:
        key = str(node.attrs["data-i18n-aria"])
        assert node.attrs["aria-label"] == t(key, "zh"), key
    assert zh.by_id("lang").html().count("selected") == 1
    (m,) = zh.select("data-key-summary", "main_safe_input")
    assert m.html() == "936,345"
    assert PAGES == {"en": "index.html", "zh": "index.zh.html"}  # web/boot.js names them


def _pyscript_stages() -> set[str]:
    """The boot stages PyScript reports (py:progress), read off the installed core."""
    dist = ROOT / "node_modules" / "@pyscript" / "core" / "dist"
    found = set()
    for path in dist.glob("*.js"):
        found |= set(re.findall(r'"(Load(?:ing|ed) [A-Za-z ]+)"', path.read_text("utf-8")))
    return found


def test_every_boot_stage_pyscript_reports_has_its_text_in_both_languages() -> None:
    """web/boot.js shows PyScript's stage as the catalogue's ``boot.stage.`` text, keyed
    by the stage in lower case with dashes; the pre-render hands the ``boot.`` texts
    over in the page's language. Before, a Chinese reader watched "Loaded Pyodide"."""
    stages = _pyscript_stages()
    assert {"Loading Pyodide", "Loaded Pyodide", "Loaded packages"} <= stages
    for lang in PAGES:
        (html,) = Document.parse(prerender(TEMPLATE, first_screen(lang=lang))).find(
            lambda e: e.tag == "html"
        )
        texts = json.loads(str(html.attrs["data-boot-texts"]))
        assert texts == json.loads(boot_texts(lang))
        for stage in stages:
            key = "boot.stage." + stage.lower().replace(" ", "-")
            assert texts[key] == t(key, lang), stage
            if lang == "en":
                assert texts[key] == stage
            else:
                assert re.search(r"[\u4e00-\u9fff]", texts[key]), texts[key]
        for key in ("boot.failed", "boot.slow", "boot.file", "boot.drawing", "boot.resource"):
            assert texts[key] == t(key, lang)
    boot = (ROOT / "web" / "boot.js").read_text("utf-8")
    # Every text boot.js shows is the catalogue's: no English sentence of its own.
    assert not re.search(r'"[A-Z][a-z]+ [a-z]+[^"]*"', boot)
    assert not re.search(r"`[A-Z][a-z]+ [a-z]+[^`]*`", boot)


def test_the_template_holds_the_english_boot_texts_for_a_page_opened_from_disk() -> None:
    """web/index.html opened as a file (never built) still says to use scripts/serve:
    it carries the English boot texts the build writes (the catalogue's, checked here;
    to renew: the value of budgetcore.ui.prerender.boot_texts("en"))."""
    (html,) = Document.parse(TEMPLATE).find(lambda e: e.tag == "html")
    assert json.loads(str(html.attrs["data-boot-texts"])) == json.loads(boot_texts("en"))
