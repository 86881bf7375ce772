"""The peers chart on one scale, the model's window (issue 42): for claude-sonnet-4-5
(W 200,000) the Gemini CLI peer's line, 0.5 × tokenLimit = 0.5 × 1,048,576 = 524,288
(google-gemini/gemini-cli@5411f113ca packages/core/src/core/tokenLimits.ts:20-38: the
same for every model, whatever its window), stretched the axis to 600,000 and made every
other bar tiny, though Gemini CLI cannot run Sonnet at all. Now a system that does not
run the model is listed apart, never drawn; a line beyond W is cut at W's edge with an
arrow and its exact value; the axis ends at W."""

from __future__ import annotations

import dataclasses
import html as html_lib
import re

import pytest

from budgetcore.core.contracts import ModelContract
from budgetcore.core.plan import plan
from budgetcore.core.scenario import Config, Scenario
from budgetcore.messages import t
from budgetcore.registry.models import default_registry
from budgetcore.registry.peers import default_peers, peer_lines, runs_model
from budgetcore.ui.main.view.peers import peers_html
from budgetcore.ui.svg.peers import peers_chart

SONNET = "claude-sonnet-4-5"  # LiteLLM: I 200,000, O 64,000


def _scenario(model: str | None, window: int, output: int, k: int = 32_000) -> Scenario:
    contract = ModelContract(input_tokens=window, output_tokens=output, reserves_output=True)
    return dataclasses.replace(
        Scenario(),
        main_model=contract,
        main_model_name=model,
        config=Config(trigger_tokens=k),
    )


def _bars(svg: str) -> dict[str, tuple[int, int, int]]:
    """Each drawn bar: its key -> (x, width, the tokens it stands for)."""
    out = {}
    for m in re.finditer(r"<rect ([^>]*data-peer-bar=[^>]*)>", svg):
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(1)))
        key = attrs["data-peer-bar"]
        if key in out:  # the article's row stacks three parts: its first
            continue
        out[key] = (int(attrs["x"]), int(attrs["width"]), int(attrs["data-peer-tokens"]))
    return out


def _ticks(svg: str) -> list[str]:
    return re.findall(r'<text class="ch-tick"[^>]*>([^<]*)</text>', svg)


def test_sonnet_is_not_drawn_beside_gemini_cli() -> None:
    s = _scenario(SONNET, 200_000, 64_000)
    view = peer_lines(200_000, 64_000, plan(s), default_peers(), model=SONNET)
    apart = {r.peer.id: r.tokens for r in view.rows if not r.for_model}
    assert apart == {"gemini-cli": 524_288}
    svg = str(peers_chart(view, "en", width=900))
    bars = _bars(svg)
    assert "gemini-cli" not in bars
    assert max(tokens for _x, _w, tokens in bars.values()) <= 200_000
    html = str(peers_html(plan(s), default_peers(), "en", width=900, model=SONNET))
    apart_block = re.search(r"<div [^>]*data-peers-apart[^>]*>(.*?)</div>", html, re.S)
    assert apart_block is not None
    assert "do not run claude-sonnet-4-5" in apart_block.group(1)
    assert 'data-peer-apart="gemini-cli"' in apart_block.group(1)
    assert "Gemini CLI core 0.56.0-nightly.20260806: 524,288 tokens, runs Gemini and Gemma" in (
        apart_block.group(1)
    )
    # The table still lists it, marked.
    row = re.search(r'<tr data-peer="gemini-cli".*?</tr>', html, re.S)
    assert row is not None
    assert "does not run this model: not drawn" in row.group(0)


@pytest.mark.parametrize("unit", ["tokens", "percent"])
def test_the_axis_is_the_window_and_every_bar_is_on_its_scale(unit: str) -> None:
    """One scale: the axis ends at W (200,000 tokens, 100 %), and each bar's width is
    min(tokens, W) over W of the window's width, within the one pixel of rounding."""
    s = _scenario(SONNET, 200_000, 64_000)
    view = peer_lines(200_000, 64_000, plan(s), default_peers(), model=SONNET)
    svg = str(peers_chart(view, "en", width=900, unit=unit))
    assert _ticks(svg)[-1] == ("100 %" if unit == "percent" else "200,000")
    bars = _bars(svg)
    left = min(x for x, _w, _t in bars.values())
    edge = re.search(r'<line class="ch-ref pr-line pr-line-window"[^>]*x1="(\d+)"', svg)
    assert edge is not None
    span = int(edge.group(1)) - left  # W's edge
    for key, (_x, width, tokens) in bars.items():
        assert abs(width - min(tokens, 200_000) * span / 200_000) <= 1, key
    codex = bars["codex"]
    assert codex[1] >= span * 0.89  # floor(0.9 W) = 180,000: most of the chart, not tiny


def test_a_line_beyond_the_window_is_cut_at_its_edge_with_its_exact_value() -> None:
    """A peer that runs any model with a fixed line above W (the Anthropic API's
    150,000 beside a 128,000 window, no model named), and K set above W: both drawn to
    W's edge, an arrow past it, the exact value and "beyond W" in the label, and the
    caveat says how to read a cut bar. The other bars keep their scale."""
    s = _scenario(None, 128_000, 16_384, k=1_000_000)
    view = peer_lines(128_000, 16_384, plan(s), default_peers())
    assert all(r.for_model for r in view.rows)
    svg = str(peers_chart(view, "en", width=900))
    bars = _bars(svg)
    edge_x = bars["trigger"][0] + bars["trigger"][1]
    for key in ("anthropic-compaction", "trigger"):
        x, width, _tokens = bars[key]
        assert x + width == edge_x, key
        assert f'data-peer-cut="{key}"' in svg
    assert "Anthropic API server compaction compact_20260112: 150,000 (117.2 %) — beyond W" in svg
    # 781.25 % rounded half-even to one decimal, as every share of the view
    said = "K, this scenario's trigger: 1,000,000 (781.2 %) — beyond W: never reached"
    assert said in html_lib.unescape(svg)
    assert _ticks(svg)[-1] == "120,000"  # the last nice tick within W: the axis ends at W
    k32 = str(
        peers_chart(
            peer_lines(128_000, 16_384, plan(_scenario(None, 128_000, 16_384)), default_peers()),
            "en",
            width=900,
        )
    )
    assert _bars(k32)["codex"] == bars["codex"]  # K above W stretched nothing
    html = html_lib.unescape(str(peers_html(plan(s), default_peers(), "en", width=900)))
    assert t("peers.not-cut", "en").strip() in html
    sonnet = peers_html(plan(_scenario(SONNET, 200_000, 64_000)), default_peers(), "en")
    assert t("peers.not-cut", "en").strip() not in html_lib.unescape(str(sonnet))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_apart_list_is_in_both_languages(lang: str) -> None:
    s = _scenario("gpt-4o", 128_000, 16_384)
    html = str(peers_html(plan(s), default_peers(), lang, model="gpt-4o"))
    apart = re.findall(r'data-peer-apart="([^"]+)"', html)
    assert apart == ["gemini-cli", "anthropic-compaction", "anthropic-context-editing"]
    assert t("peers.apart-head", lang, model="gpt-4o") in html


def test_which_models_a_peer_runs_from_registry_names() -> None:
    """Every registry name of the families: provider prefixes, Bedrock's and Vertex's
    spellings; a contract typed by hand (no name) keeps every line, as before."""
    peers = {p.id: p for p in default_peers()}
    names = [row.name for row in default_registry().rows]
    gemini = [n for n in names if runs_model(peers["gemini-cli"], n)]
    claude = [n for n in names if runs_model(peers["anthropic-compaction"], n)]
    assert "gemini/gemini-2.5-pro" in gemini
    assert "claude-sonnet-4-5" not in gemini
    assert all("gemini" in n.lower() or "gemma" in n.lower() for n in gemini)
    assert SONNET in claude
    assert all("claude" in n for n in claude)
    assert not any("gpt" in n for n in claude + gemini)
    assert all(runs_model(p, None) for p in peers.values())
    assert all(runs_model(p, "gpt-4o") for p in peers.values() if not p.runs)


@pytest.mark.parametrize("width", [340, 360, 900])
def test_the_axis_ends_at_w_on_a_phone_too(width: int) -> None:
    """The walk: at 390 px the token axis of a 1,048,576-token window ran to 1,500,000
    (four nice ticks), a third of the chart empty. The domain is W itself at any width,
    the ticks the nice values within it, and the window's edge the plot's right end."""
    s = _scenario(None, 1_048_576, 65_536)
    view = peer_lines(1_048_576, 65_536, plan(s), default_peers())
    svg = str(peers_chart(view, "en", width=width))
    ticks = [int(v.replace(",", "")) for v in _ticks(svg)]
    assert ticks[0] == 0
    assert max(ticks) <= 1_048_576
    assert max(ticks) >= 1_000_000
    edge = re.search(r'<line class="ch-ref pr-line pr-line-window"[^>]*x1="(\d+)"', svg)
    assert edge is not None
    assert int(edge.group(1)) >= width - 40  # W is the right end, not two thirds of it


#: Chromium's widths of ``.ch-ref-label`` texts (12 px, weight 600, Debian's
#: system-ui), measured by getComputedTextLength in the fourteenth walk.
_BOLD_WIDTHS = {"W (window)": 80.0, "compact": 57.4, "M 936,345": 70.8, "hard": 31.2}


def test_the_bold_estimate_covers_the_bold_labels_drawn() -> None:
    from budgetcore.charts.geometry import text_width  # noqa: PLC0415

    for text, measured in _BOLD_WIDTHS.items():
        assert text_width(text, bold=True) >= measured, text


@pytest.mark.parametrize("width", [314, 358, 600, 924])
def test_the_window_label_under_a_hard_line_at_w_stays_inside_the_chart(width: int) -> None:
    """The fourteenth walk (1440 and 390, English): with no output reserve (q = 0) the
    hard line is W itself, its label "W (window)" went under "hard", centred on W's
    edge, and ran 2 px out of the chart: its box was estimated at 0.62 em per letter,
    and the labels above the plot are bold (about 0.67 em)."""
    from budgetcore.charts.geometry import text_box  # noqa: PLC0415

    contract = ModelContract(input_tokens=1_000_000, output_tokens=128_000, reserves_output=False)
    s = dataclasses.replace(Scenario(), main_model=contract)
    view = peer_lines(1_000_000, 128_000, plan(s), default_peers())
    svg = str(peers_chart(view, "en", width=width))
    labels = re.findall(
        r'<text class="ch-ref-label" x="(\d+)" y="(\d+)" text-anchor="(\w+)">([^<]*)</text>', svg
    )
    assert "W (window)" in [html_lib.unescape(text) for *_, text in labels]
    for x, y, anchor, text in labels:
        box = text_box(int(x), int(y), html_lib.unescape(text), anchor, bold=True)
        assert box.x0 >= 0, (text, box)
        assert box.x1 <= width, (text, box, width)
