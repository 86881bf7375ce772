"""The page's readouts: every key readout names its unit in the page's language, and the
A/B cells show B minus A with signed separators."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from budgetcore import Scenario, parse_scenario, plan
from budgetcore.messages import t
from budgetcore.ui.main.view.readouts import ab_cells, format_signed
from budgetcore.ui.prerender import first_screen, prerender

ROOT = Path(__file__).resolve().parent.parent
INDEX = (ROOT / "web" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_key_readout_names_its_unit(lang: str) -> None:
    """Walk of December 2026 (1440 and 390, both languages): the key bar's M, K, S, C
    and full input were bare numbers, the one place on the first screen without a unit.
    Each now says "tokens" beside its value, in the page's language, while the value's
    own cell keeps the exact number alone (the DOM contract's ``data-key-summary``)."""
    page = prerender(INDEX, first_screen(lang=lang))
    keybar = re.findall(r'<div class="kv" data-kv="([a-z_]+)">(.*?)</div>', page, re.S)
    numbers = [k for k, _ in keybar if k not in ("admitted", "trigger_reached")]
    assert numbers == [
        "main_safe_input",
        "trigger_tokens",
        "summary_cap",
        "summary_safe_input",
        "full_input",
    ]
    for key, cell in keybar:
        if key in numbers:
            value = re.search(rf'data-key-summary="{key}"[^>]*>([^<]*)<', cell)
            assert value is not None
            assert re.fullmatch(r"[0-9,]+", value.group(1)), (key, value.group(1))
            unit = re.search(r'data-i18n="unit.tokens"[^>]*>([^<]*)<', cell)
            assert unit is not None, key
            assert unit.group(1) == t("unit.tokens", lang)


class TestAB:
    def test_b_minus_a_with_signed_separators(self) -> None:
        a = plan(Scenario())
        b = plan(parse_scenario({"workload": {"required_tokens": 30_000}}))
        cells = ab_cells(a.as_dict(), b.as_dict(), "en")
        assert cells["full_input"] == ("36,000", "+10,000", "up")
        assert cells["engine_raw_headroom"] == ("910,345", "\u221210,000", "down")
        assert cells["main_safe_input"] == ("936,345", "0", "same")
        assert cells["admitted"] == ("yes", "same", "same")

    @pytest.mark.parametrize(("value", "text"), [(0, "0"), (5, "+5"), (-1_234, "\u22121,234")])
    def test_format_signed(self, value: int, text: str) -> None:
        assert format_signed(value) == text
