"""scripts/offline.py, the self-contained page's build steps that run in CPython (the
page itself is opened from disk by tests/browser/test_offline_page.py)."""

from __future__ import annotations

from typing import Any

import pytest

from budgetcore.ui.prerender import Document, first_screen, prerender
from tests.helpers import ROOT, script_module


def _offline() -> Any:
    return script_module("offline")


def test_pyodide_s_runtime_module_becomes_a_classic_script_or_the_build_stops() -> None:
    offline = _offline()
    module = 'var x=1;async function _createPyodideModule(){return new URL("a",import.meta.url)}'
    text = offline.classic_asm(module + "export default _createPyodideModule;")
    assert "import.meta" not in text
    assert "export" not in text
    assert text.endswith("globalThis.__budgetcoreCreatePyodideModule=_createPyodideModule;")
    with pytest.raises(SystemExit, match="default export"):
        offline.classic_asm(module + "export{_createPyodideModule as default};")
    with pytest.raises(SystemExit, match="module syntax"):
        offline.classic_asm('import "x";\n' + module + "export default _createPyodideModule;")


def test_the_chinese_first_view_is_the_chinese_pre_render_s_body_in_a_template() -> None:
    """What FIRST_VIEW swaps in for a Chinese reader: the zh pre-render's body without
    its scripts, and the <html> language, boot texts and title of that page."""
    offline = _offline()
    template = (ROOT / "web" / "index.html").read_text("utf-8")
    zh = prerender(template, first_screen(lang="zh"))
    view = offline._first_view_zh(zh)
    assert view.tag == "template"
    assert view.attrs["id"] == "first-view-zh"
    assert view.attrs["data-lang"] == "zh-CN"
    assert "正在加载" in view.attrs["data-boot-texts"] or "已加载" in view.attrs["data-boot-texts"]
    assert view.attrs["data-title"] == Document.parse(zh).find(lambda e: e.tag == "title")[0].html()
    assert not [e for e in view.iter() if e.tag == "script"]
    ids = {e.attrs.get("id") for e in view.iter()}
    assert {"controls", "key-readouts", "boot-stage", "app"} <= ids
    (lang,) = [e for e in view.iter() if e.attrs.get("id") == "lang"]
    assert [o.attrs.get("value") for o in lang.iter() if "selected" in o.attrs] == ["zh"]


def test_the_render_hold_names_the_element_just_after_the_first_view_s_script() -> None:
    offline = _offline()
    assert "document.currentScript" in offline.FIRST_VIEW
    assert offline.HOLD == "assets"


def test_the_served_page_carries_boot_js_inline_allowed_by_its_hash() -> None:
    """web/boot.js must run before the first paint; as a file it was one blocking
    request between the HTML and the numbers (docs/performance.md, "A quiet run").
    The build writes it into the page, and the CSP allows exactly that text."""
    import base64  # noqa: PLC0415
    import hashlib  # noqa: PLC0415

    build = script_module("build")
    boot = (ROOT / "web" / "boot.js").read_text("utf-8")
    template = (ROOT / "web" / "index.html").read_text("utf-8")
    doc = Document.parse(template)
    build._inline_boot(doc, boot)
    scripts = doc.find(lambda e: e.tag == "script")
    assert not [e for e in scripts if e.attrs.get("src") == "./boot.js"]
    (inline,) = [e for e in scripts if "src" not in e.attrs]
    assert inline.children == [boot]
    (csp,) = doc.find(lambda e: e.attrs.get("http-equiv") == "Content-Security-Policy")
    digest = base64.b64encode(hashlib.sha256(boot.encode()).digest()).decode()
    assert f"script-src 'self' 'sha256-{digest}'" in (csp.attrs["content"] or "")
    # A policy without the clause the hash joins stops the build.
    other = Document.parse(template.replace("script-src 'self'", "script-src 'none'"))
    with pytest.raises(SystemExit, match="script-src 'self' once"):
        build._inline_boot(other, boot)
