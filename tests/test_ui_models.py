"""The page's model pickers and peers panel: CPython tests of ``reduce`` and ``render``.

Picker results are compared with the registry's own ``picks``; the peers panel's
``data-key`` values with ``peer_lines`` and with hand arithmetic from PEERS.md; the
chart's labels with the text-box rules of tests/test_svg.py.
"""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from budgetcore import plan
from budgetcore.messages import t
from budgetcore.registry.models import default_registry, per_million
from budgetcore.registry.peers import default_peers, peer_lines
from budgetcore.registry.picks import picks
from budgetcore.ui.events import (
    ExportFormatChosen,
    FieldTyped,
    LanguageChosen,
    ModelChosen,
    ModelDataLoaded,
    PeersUnitChosen,
    PickerClosed,
    PickerEntered,
    PickerMoved,
    PickerTyped,
    Reset,
    SummarySameToggled,
    Toggled,
)
from budgetcore.ui.main.view.peers import render_peers
from budgetcore.ui.main.view.screen import render
from budgetcore.ui.model import PICKER_MIN_CHARS, PICKER_SHOWN, PageState, PickerState
from budgetcore.ui.update import initial_state, reduce
from budgetcore.units import format_int
from tests.svg_checks import assert_fits, assert_no_collisions

ROOT_ENV = {"PYTHONPATH": "."}


def loaded(**changes: Any) -> PageState:
    state = initial_state(**changes)
    return reduce(state, ModelDataLoaded(default_registry(), default_peers()))


def run(state: PageState, *events: Any) -> PageState:
    for e in events:
        state = reduce(state, e)
    return state


def data_keys(markup: str) -> dict[str, str]:
    return dict(re.findall(r'data-key="([^"]+)"[^>]*>([^<]*)<', markup))


# ------------------------------------------------------------------ boot path


def test_nothing_of_the_registry_or_the_peers_loads_before_ready() -> None:
    code = (
        "import sys\n"
        "from budgetcore.ui.events import PickerTyped\n"
        "from budgetcore.ui.update import initial_state, reduce\n"
        "from budgetcore.ui.main.view.peers import render_peers\n"
        "from budgetcore.ui.main.view.screen import render\n"
        "screen = render(reduce(initial_state(), PickerTyped('main_model', 'gpt')))\n"
        "print('budgetcore.registry.models' in sys.modules,"
        " 'budgetcore.registry.peers' in sys.modules)\n"
        "print(screen.text['picker-main_model-status'])\n"
        "print(render_peers(initial_state()))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout.splitlines()
    assert out[0] == "False False"
    assert out[1] == "Loading the model registry…"
    assert 'data-peers="loading"' in out[2]


def test_before_loading_the_picker_lists_nothing_and_choosing_changes_nothing() -> None:
    state = initial_state()
    typed = run(state, PickerTyped("main_model", "sonnet"), PickerMoved("main_model", 1))
    assert render(typed).html["picker-main_model-list"] == ""
    assert not render(typed).pickers["main_model"].expanded
    assert reduce(typed, PickerEntered("main_model")) == typed
    assert reduce(typed, ModelChosen("main_model", "claude-sonnet-4-5")) == typed


# ------------------------------------------------------------------ searching


@pytest.mark.parametrize("query", ["sonnet 4.5", "gpt-4o", "gemini 2.5 pro", "zzzz-none"])
def test_the_options_are_the_registry_best_matches_capped(query: str) -> None:
    state = run(loaded(), PickerTyped("main_model", query))
    screen = render(state)
    expected = picks(query, PICKER_SHOWN)
    names = re.findall(r'data-model="([^"]+)"', screen.html["picker-main_model-list"])
    assert names == [m.name for m in expected.models]
    assert len(names) <= PICKER_SHOWN
    status = screen.text["picker-main_model-status"]
    if expected.total == 0:
        assert status == f"No model matches “{query}”."
        assert not screen.pickers["main_model"].expanded
    elif expected.total > PICKER_SHOWN:
        assert f"{PICKER_SHOWN} of {expected.total:,}" in status
    assert screen.pickers["main_model"].active_id == ""  # nothing highlighted yet


def test_one_character_does_not_search() -> None:
    screen = render(run(loaded(), PickerTyped("main_model", "g")))
    assert screen.html["picker-main_model-list"] == ""
    assert screen.text["picker-main_model-status"].startswith("Type 2 letters or more")
    assert "LiteLLM" in screen.text["picker-main_model-status"]


def test_arrows_move_wrap_and_escape_closes() -> None:
    state = run(loaded(), PickerTyped("main_model", "sonnet 4.5"))
    n = len(picks("sonnet 4.5", PICKER_SHOWN).models)
    down = reduce(state, PickerMoved("main_model", 1))
    assert down.pickers["main_model"].active == 0
    assert render(down).pickers["main_model"].active_id == "picker-main_model-opt-0"
    assert (
        'id="picker-main_model-opt-0" role="option" aria-selected="true"'
        in (render(down).html["picker-main_model-list"])
    )
    up = reduce(state, PickerMoved("main_model", -1))
    assert up.pickers["main_model"].active == n - 1
    wrapped = run(down, *[PickerMoved("main_model", 1)] * n)
    assert wrapped.pickers["main_model"].active == 0
    closed = reduce(down, PickerClosed("main_model"))
    assert not closed.pickers["main_model"].open
    assert not render(closed).pickers["main_model"].expanded
    assert reduce(closed, PickerEntered("main_model")) == closed  # Enter on a closed list
    reopened = reduce(closed, PickerMoved("main_model", 1))
    assert reopened.pickers["main_model"].open
    assert reopened.pickers["main_model"].active == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_text_left_in_the_box_that_chose_no_model_says_so_once_closed(lang: str) -> None:
    """The twelfth walk: "gpt-5 tokens" typed in the model box said "No model matches"
    while the list was open; once the focus left, the box kept the text and its line
    went back to the help ("Type 2 letters or more..."), or, with a model chosen before,
    said nothing beside that model's line: nothing said the text chose no model."""
    status = "picker-main_model-status"
    fresh = run(loaded(lang=lang), PickerTyped("main_model", "gpt-5 tokens"))
    assert render(fresh).text[status] == t("picker.none", lang, query="gpt-5 tokens")
    closed = reduce(fresh, PickerClosed("main_model"))
    assert closed.pickers["main_model"].query == "gpt-5 tokens"
    assert render(closed).text[status] == t(
        "picker.unchosen", lang, query="gpt-5 tokens", n=PICKER_MIN_CHARS
    )
    chosen = run(
        loaded(lang=lang),
        PickerTyped("main_model", "sonnet 4.5"),
        PickerEntered("main_model"),
        PickerTyped("main_model", "gpt-5 tokens"),
        PickerClosed("main_model"),
    )
    assert chosen.pickers["main_model"].chosen == "claude-sonnet-4-5"
    said = t("picker.unchosen-kept", lang, query="gpt-5 tokens", model="claude-sonnet-4-5")
    assert render(chosen).text[status] == said
    # A chosen model's own name, and an emptied box, leave the line as it was.
    kept = run(
        loaded(lang=lang), PickerTyped("main_model", "sonnet 4.5"), PickerEntered("main_model")
    )
    assert render(kept).text[status] == ""
    emptied = run(closed, PickerTyped("main_model", " "), PickerClosed("main_model"))
    assert render(emptied).text[status] == render(loaded(lang=lang)).text[status]


# ------------------------------------------------------------------ choosing


def test_enter_chooses_sets_i_and_o_keeps_q_and_replans() -> None:
    state = run(loaded(), Toggled("main_model.reserves_output", checked=False))
    state = run(
        state,
        PickerTyped("main_model", "sonnet 4.5"),
        PickerMoved("main_model", 1),
        PickerEntered("main_model"),
    )
    model = default_registry().lookup("claude-sonnet-4-5")
    assert model is not None
    assert state.values["main_model.input_tokens"] == model.contract.input_tokens == 200_000
    assert state.values["main_model.output_tokens"] == model.contract.output_tokens == 64_000
    assert state.texts["main_model.input_tokens"] == "200,000"
    assert state.values["main_model.reserves_output"] is False  # q stays the user's
    scenario = state.plan.scenario
    assert scenario.main_model.input_tokens == 200_000
    assert not scenario.main_model.reserves_output
    expected = plan(
        dataclasses.replace(
            initial_state().plan.scenario,
            main_model=dataclasses.replace(
                scenario.main_model, input_tokens=200_000, output_tokens=64_000
            ),
        )
    )
    assert state.plan.main_safe_input == expected.main_safe_input
    picker = state.pickers["main_model"]
    assert (picker.query, picker.open, picker.chosen) == ("claude-sonnet-4-5", False, model.name)
    info = render(state).html["picker-main_model-info"]
    p = model.prices
    assert per_million(p.input) == "3"
    for price in (p.input, p.output, p.cache_read, p.cache_write):
        assert per_million(price) in info
    assert (
        "USD per 1,000,000 tokens: input 3 · output 15 · cache read 0.3 · cache write 3.75" in info
    )
    assert 'data-release="LiteLLM ' in info
    assert 'data-custom="false"' in info


@pytest.mark.parametrize(
    ("lang", "write"), [("en", "cache write not in the registry"), ("zh", "缓存写入 注册表未列出")]
)
def test_a_price_the_registry_lacks_is_said_missing_not_a_dash(lang: str, write: str) -> None:
    # Walk of December 2026: gpt-5-codex read "cache read 0.125 · cache write -", a dash
    # that reads as free. LiteLLM 1.110.2 lists no cache write price for it (OpenAI bills
    # none); the picker says the registry lacks it.
    model = default_registry().lookup("gpt-5-codex")
    assert model is not None
    assert model.prices.cache_write is None
    state = reduce(loaded(), ModelChosen("main_model", "gpt-5-codex"))
    if lang != "en":
        state = reduce(state, LanguageChosen(lang))
    info = render(state).html["picker-main_model-info"]
    assert write in info
    assert " -<" not in info
    assert not info.rstrip().endswith("-")


def test_a_click_chooses_by_name_and_unknown_names_change_nothing() -> None:
    state = loaded()
    chosen = reduce(state, ModelChosen("main_model", "gemini-2.5-pro"))
    model = default_registry().lookup("gemini-2.5-pro")
    assert model is not None
    assert chosen.values["main_model.input_tokens"] == model.contract.input_tokens
    assert chosen.values["main_model.output_tokens"] == model.contract.output_tokens
    assert reduce(state, ModelChosen("main_model", "no-such-model")) == state
    assert reduce(state, ModelChosen("nowhere", "gemini-2.5-pro")) == state


def test_editing_i_or_o_by_hand_shows_custom_derived_not_stored() -> None:
    state = reduce(loaded(), ModelChosen("main_model", "claude-sonnet-4-5"))
    edited = reduce(state, FieldTyped("main_model.output_tokens", "32000"))
    info = render(edited).html["picker-main_model-info"]
    assert 'data-custom="true"' in info
    assert "Custom" in info
    assert "claude-sonnet-4-5" in info
    back = reduce(edited, FieldTyped("main_model.output_tokens", "64,000"))
    assert 'data-custom="false"' in render(back).html["picker-main_model-info"]
    broken = reduce(state, FieldTyped("main_model.output_tokens", "64k"))
    assert 'data-custom="true"' in render(broken).html["picker-main_model-info"]


def test_the_summary_picker_fills_the_summary_contract_only_when_it_has_its_own() -> None:
    state = loaded()
    assert reduce(state, ModelChosen("summary_model", "gpt-4o-mini")) == state
    own = run(state, SummarySameToggled(checked=False))
    chosen = reduce(own, ModelChosen("summary_model", "gpt-4o-mini"))
    model = default_registry().lookup("gpt-4o-mini")
    assert model is not None
    contract = chosen.plan.scenario.summary_contract
    assert (contract.input_tokens, contract.output_tokens) == (
        model.contract.input_tokens,
        model.contract.output_tokens,
    )
    assert chosen.plan.scenario.main_model == own.plan.scenario.main_model
    assert "gpt-4o-mini" in render(chosen).html["picker-summary_model-info"]


def test_reset_keeps_the_loaded_data_and_empties_the_pickers() -> None:
    state = reduce(loaded(), ModelChosen("main_model", "claude-sonnet-4-5"))
    fresh = reduce(state, Reset())
    assert fresh.registry is state.registry
    assert fresh.peers is state.peers
    assert fresh.pickers["main_model"] == PickerState()


def test_reset_keeps_todays_date_so_a_past_deprecation_stays_marked() -> None:
    # Walk of December 2026: after Reset, gpt-5-codex (deprecated 2026-07-23 in LiteLLM
    # 1.110.2) read "deprecation date 2026-07-23" again, as if still ahead.
    data = ModelDataLoaded(default_registry(), default_peers(), "2026-12-05")
    state = reduce(initial_state(), data)
    state = reduce(state, Reset())
    assert state.today == "2026-12-05"
    state = reduce(state, ModelChosen("main_model", "gpt-5-codex"))
    info = render(state).html["picker-main_model-info"]
    assert "deprecated since 2026-07-23 (already past)" in info


def test_chinese_picker_texts() -> None:
    state = run(loaded(lang="zh"), PickerTyped("main_model", "sonnet 4.5"))
    assert "共 42 个匹配" in render(state).text["picker-main_model-status"]
    chosen = reduce(state, PickerEntered("main_model"))
    assert "每 1,000,000 tokens 美元价格" in render(chosen).html["picker-main_model-info"]


# ------------------------------------------------------------------ peers panel


def with_model(i: str, o: str, **changes: Any) -> PageState:
    return run(
        loaded(**changes),
        FieldTyped("main_model.input_tokens", i),
        FieldTyped("main_model.output_tokens", o),
    )


# Hand arithmetic, written apart from the profiles and peers.json: the runtimes by the
# shared RUNTIMES.md's formulas (the first T that compacts: "> line" is line + 1, ">= a
# fraction" its ceiling, -(-a // b)), the other systems by PEERS.md.
HAND = {
    (200_000, 32_000): {
        "pi": 200_000 - 16_384 + 1,
        "codex": 200_000 * 9 // 10,
        "qwen-code": min(-(-200_000 * 85 // 100), 200_000 - 20_000 - 13_000),
        "gemini-cli": 1_048_576 // 2,  # tokenLimit, whatever W
        "kimi-cli": min(-(-200_000 * 85 // 100), 200_000 - 50_000),
        "anthropic-compaction": 150_000,
        "anthropic-context-editing": 100_000,
    },
    (1_048_576, 65_536): {
        "pi": 1_048_576 - 16_384 + 1,
        "codex": 1_048_576 * 9 // 10,
        "qwen-code": min(-(-1_048_576 * 85 // 100), 1_048_576 - 20_000 - 13_000),
        "gemini-cli": 1_048_576 // 2,
        "kimi-cli": min(-(-1_048_576 * 85 // 100), 1_048_576 - 50_000),
        "anthropic-compaction": 150_000,
        "anthropic-context-editing": 100_000,
    },
}


@pytest.mark.parametrize(("w", "o"), [(200_000, 32_000), (1_048_576, 65_536)])
def test_peer_data_keys_are_the_exact_lines_of_peer_lines(w: int, o: int) -> None:
    state = with_model(str(w), str(o))
    html = render_peers(state)
    keys = data_keys(html)
    view = peer_lines(w, o, state.plan)
    for row in view.rows:
        if row.tokens is None:
            assert f"peer-{row.peer.id}" not in keys  # never a 0
            assert f'data-peer="{row.peer.id}"' in html
            assert f'data-peer-bar="{row.peer.id}"' not in html
        else:
            assert keys[f"peer-{row.peer.id}"] == format_int(row.tokens)
    for peer_id, tokens in HAND[(w, o)].items():
        assert keys[f"peer-{peer_id}"] == format_int(tokens), peer_id
    for ref in (*view.scenario, *view.article):
        assert keys[f"line-{ref.key}"] == format_int(ref.tokens)
    assert html.count('data-key="line-hard"') == 1
    assert keys["line-clean"] == format_int(w * 70 // 100)
    assert keys["line-compact"] == format_int(w * 835 // 1000)
    assert keys["line-main_safe_input"] == format_int(state.plan.main_safe_input)
    assert keys["line-trigger"] == format_int(state.plan.scenario.config.trigger_tokens)
    assert f"W = {w:,}, O = {o:,}" in html


@pytest.mark.parametrize(
    ("lang", "source"),
    [
        ("en", "this scenario and the context-layers article"),
        ("zh", "本场景与上下文分层文章"),
    ],
)
def test_the_lines_table_lists_each_line_once(lang: str, source: str) -> None:
    # The walk: "Hard line 1,040,384" twice, under "this scenario" and the article.
    html = render_peers(loaded(lang=lang))
    table = html[html.index('class="grid stack peers-lines"') :]
    lines = re.findall(r'<tr data-line="([^"]+)"', table)
    assert (
        sorted(lines)
        == sorted(set(lines))
        == sorted(["trigger", "main_safe_input", "hard", "clean", "compact"])
    )
    row = re.search(r'<tr data-line="hard"[^>]*>(.*?)</tr>', table)
    assert row is not None
    assert f">{source}</td>" in row.group(1)
    assert "1,040,384" in row.group(1)


def test_rows_link_their_sources_and_reported_rows_are_marked() -> None:
    html = render_peers(loaded())
    for peer in default_peers():
        if peer.url:
            assert f'<a href="{peer.url}" rel="noopener">{peer.name}</a>' in html
        if peer.reported:
            assert f'data-peer="{peer.id}" data-confidence="reported"' in html
            assert re.search(rf'class="pr-bar pr-reported"[^>]*data-peer-bar="{peer.id}"', html)
    assert "reported only" in html
    assert "What this must not be read as:" in html
    assert "not its M or its S" in html


def test_percent_mode_changes_the_axis_not_the_values() -> None:
    state = with_model("200000", "32000")
    tokens_html = render_peers(state)
    percent = reduce(state, PeersUnitChosen("percent"))
    html = render_peers(percent)
    assert render(percent).peers_unit == "percent"
    assert 'data-unit="percent"' in html
    assert data_keys(html) == data_keys(tokens_html)
    ticks = re.findall(r'data-tick="(\d+)"[^>]*>([^<]*)<', html)
    assert ticks
    assert all(text == f"{v} %" for v, text in ticks)
    assert ("100", "100 %") in ticks
    # percent first, tokens beside it; the label names the profile's version
    assert "Claude Code 2.1.x: 83.5 % (167,000)" in html
    assert "Claude Code 2.1.x: 167,000 (83.5 %)" in tokens_html
    assert reduce(state, PeersUnitChosen("furlongs")) == state


def test_peers_panel_in_chinese() -> None:
    html = render_peers(with_model("200000", "32000", lang="zh"))
    assert "当前主模型的触发线:W = 200,000,O = 64,000" not in html
    assert "当前主模型的触发线:W = 200,000,O = 32,000" in html
    assert "按事件计数而非 token:没有 token 线" in html
    assert "不能据此解读为:" in html


def test_the_title_names_the_chosen_model_while_it_is_not_custom() -> None:
    chosen = reduce(loaded(), ModelChosen("main_model", "claude-sonnet-4-5"))
    assert "Trigger lines for claude-sonnet-4-5: W = 200,000, O = 64,000" in (render_peers(chosen))
    edited = reduce(chosen, FieldTyped("main_model.output_tokens", "32000"))
    assert "this main model: W = 200,000, O = 32,000" in render_peers(edited)


def _peers_svg(html: str) -> ET.Element:
    svg = re.search(r"<svg [^>]*data-chart=\"peers\".*?</svg>", html, re.S)
    assert svg is not None
    root = ET.fromstring(svg.group(0))
    for defs in [e for e in root if e.tag.endswith("defs")]:
        root.remove(defs)  # the hatch pattern's tile is not a mark
    return root


@pytest.mark.parametrize("width", [320, 390, 640, 1440])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("unit", ["tokens", "percent"])
@pytest.mark.parametrize(("i", "o"), [("200000", "32000"), ("1048576", "65536"), ("32768", "8192")])
def test_chart_labels_fit_and_never_touch_marks(
    width: int, lang: str, unit: str, i: str, o: str
) -> None:
    state = with_model(i, o, lang=lang, width=width)
    state = reduce(state, PeersUnitChosen(unit))
    svg = _peers_svg(render_peers(state))
    drawn = int(svg.get("width", "0"))
    assert drawn == width - 26
    assert svg.get("font-size") == "12"
    assert_fits(svg, drawn)
    assert_no_collisions(svg)


@pytest.mark.parametrize(
    "keys",
    [
        "claude sonnet 4.5",
        "gpt-4o-mini",
        "Gemini 2.5 PRO",
        "llama-3.1/70b",
    ],
)
def test_typing_and_deleting_narrows_to_exactly_the_registry_answer(keys: str) -> None:
    """Each text typed (then deleted) key by key shows what the registry itself says."""
    texts = [keys[:i] for i in range(1, len(keys) + 1)]
    texts += texts[-2::-1]  # backspace back to one character
    state = loaded()
    for text in texts:
        state = reduce(state, PickerTyped("main_model", text))
        shown = state.pickers["main_model"].found
        if len(text.strip()) < PICKER_MIN_CHARS:
            assert shown is None
            continue
        expected = picks(text, PICKER_SHOWN)
        assert shown is not None
        assert ([m.name for m in shown.models], shown.total) == (
            [m.name for m in expected.models],
            expected.total,
        ), text


def test_the_status_line_before_loading_idle_and_after_choosing() -> None:
    assert render(initial_state()).text["picker-main_model-status"] == (
        "Loading the model registry…"
    )
    idle = render(loaded()).text["picker-main_model-status"]
    assert idle.startswith(
        "Type 2 letters or more to search 3,344 models (LiteLLM 1.110.2, 18 of them "
    )
    chosen = reduce(loaded(), ModelChosen("main_model", "claude-sonnet-4-5"))
    assert render(chosen).text["picker-main_model-status"] == ""
    assert render(chosen).html["picker-summary_model-list"] == ""


# ------------------------------------------------------------------ issue 26: what the picker says


def test_codex_models_are_listed_as_responses_only() -> None:
    state = run(loaded(), PickerTyped("main_model", "gpt-5-codex"))
    html = render(state).html["picker-main_model-list"]
    first = html.split("</li>")[0]
    assert 'data-model="gpt-5-codex"' in first
    assert "Responses API only · deprecation date 2026-07-23" in first
    zh = run(loaded(lang="zh"), PickerTyped("main_model", "gpt-5-codex"))
    assert "仅支持 Responses API · 弃用日期 2026-07-23" in render(zh).html["picker-main_model-list"]


def test_a_loose_name_lists_its_match_first_and_says_how() -> None:
    state = run(loaded(), PickerTyped("main_model", "claude-sonnet-4"))
    html = render(state).html["picker-main_model-list"]
    first = html.split("</li>")[0]
    assert 'data-model="claude-sonnet-4-20250514"' in first
    assert 'data-retired="true"' in first
    assert "retired: last listed in LiteLLM 1.103.6" in first
    assert "“claude-sonnet-4” is claude-sonnet-4-20250514 (alias)" in first
    chosen = reduce(state, PickerEntered("main_model"))
    assert chosen.values["main_model.input_tokens"] == 1_000_000
    info = render(chosen).html["picker-main_model-info"]
    assert "“claude-sonnet-4” is claude-sonnet-4-20250514 (alias)" in info
    assert "retired: last listed in LiteLLM 1.103.6 · deprecation date 2026-06-15" in info
    # Prices as last published, with the tier and the 1-hour write.
    assert "cache write 3.75 · 1-hour cache write 6" in info
    assert (
        "Above 200,000 context tokens the whole request pays: input 6 · output 22.5 · "
        "cache read 0.6 · cache write 7.5" in info
    )
    assert 'data-release="LiteLLM 1.110.2"' in info
    assert "From the LiteLLM 1.103.6 registry" in info
    zh = render(dataclasses.replace(chosen, lang="zh")).html["picker-main_model-info"]
    assert "“claude-sonnet-4”即 claude-sonnet-4-20250514(别名)" in zh
    assert "已退役:最后收录于 LiteLLM 1.103.6 · 弃用日期 2026-06-15" in zh
    assert "上下文超过 200,000 tokens 时整个请求按此计价:输入 6" in zh


def test_a_provider_prefix_and_a_dotted_version_both_show() -> None:
    state = run(loaded(), PickerTyped("main_model", "anthropic/claude-sonnet-4.5"))
    first = render(state).html["picker-main_model-list"].split("</li>")[0]
    assert 'data-model="claude-sonnet-4-5"' in first
    assert 'data-resolved="provider prefix + alias"' in first
    assert "(provider prefix + alias)" in first


def test_gpt5_without_separators_finds_gpt_5() -> None:
    state = run(loaded(), PickerTyped("main_model", "GPT5"))
    assert 'data-model="gpt-5"' in render(state).html["picker-main_model-list"].split("</li>")[0]


@pytest.mark.parametrize(
    ("lang", "table_text", "chart_text"),
    [
        (
            "en",
            "Also fires on counts, not tokens (no token line): more than 40 messages · more "
            "than 50,000 characters of tool results so far; whichever comes first.",
            "or 2 count triggers (not tokens, not drawn)",
        ),
        (
            "zh",
            "另按计数触发(不是 token,没有 token 线):消息数超过 40 条 · 累计工具结果超过 50,000 "
            "个字符;以先到者为准。",
            "或 2 个计数触发条件(不是 token,不画出)",
        ),
    ],
)
def test_the_contextbuilder_row_marks_its_count_triggers(
    lang: str, table_text: str, chart_text: str
) -> None:
    html = render_peers(with_model("200000", "32000", lang=lang))
    row = html.split('data-peer="contextbuilder"')[1].split("</tr>")[0]
    assert table_text in row
    assert "contextbuilder-tutorial.zh.txt" in row
    assert 'data-key="peer-contextbuilder">160,000<' in row
    assert chart_text in html


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_the_export_records_the_links_own_fragment_with_its_model(fmt: str) -> None:
    """A chosen registry model is in the link (main_model.model=…): the export's
    recorded fragment once left it out, so reopening it gave an unnamed contract."""
    from budgetcore.ui.export.view import render_export  # noqa: PLC0415

    state = run(
        loaded(),
        ModelChosen("main_model", "claude-sonnet-4-5"),
        ExportFormatChosen(fmt),
    )
    link = render(state).fragment
    assert "main_model.model=claude-sonnet-4-5" in link
    body, _diff = render_export(state)
    if fmt == "toml":
        assert f"# reviewed with scenario fragment: #{link}\n" in body
    else:
        assert json.loads(body)["_generated"]["scenario_fragment"] == link


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_deprecation_date_already_past_is_marked_as_past(lang: str) -> None:
    """Issue 42: gpt-5-codex's 2026-07-23 read like a future date on 2026-12-05. The
    date comes from the shell's clock with the registry; without one nothing is marked."""
    from budgetcore.registry.models import default_registry  # noqa: PLC0415
    from budgetcore.registry.peers import default_peers  # noqa: PLC0415
    from budgetcore.ui.events import LanguageChosen, ModelDataLoaded, PickerTyped  # noqa: PLC0415
    from budgetcore.ui.main.view.screen import render  # noqa: PLC0415
    from budgetcore.ui.update import initial_state, reduce  # noqa: PLC0415

    registry = default_registry()
    model = registry.lookup("gpt-5-codex")
    assert model is not None
    assert model.deprecation == "2026-07-23"  # LiteLLM's deprecation_date, as shipped

    def listed(today: str) -> str:
        state = reduce(initial_state(), LanguageChosen(lang))
        state = reduce(state, ModelDataLoaded(registry, default_peers(), today))
        state = reduce(state, PickerTyped("main_model", "gpt-5-codex"))
        return str(render(state).html["picker-main_model-list"])

    past = {"en": "deprecated since 2026-07-23 (already past)", "zh": "已于 2026-07-23 弃用"}
    future = {"en": "deprecation date 2026-07-23", "zh": "弃用日期 2026-07-23"}
    assert past[lang] in listed("2026-12-05")
    assert past[lang] in listed("2026-07-23")  # on the day itself: deprecated
    assert future[lang] in listed("2026-07-22")
    assert future[lang] in listed("")  # no clock: never claimed past
    assert future[lang] in listed("not a date")


def test_a_query_is_shown_as_typed_with_its_invisible_characters_escaped() -> None:
    """The fifth walk: "\u202egpt" in the picker read 'No model matches “”.tpg' (the
    override reversed the rest of the line), and 100 kB pasted into it said only the
    search's limit, not its size."""
    state = run(loaded(), PickerTyped("main_model", "\u202egpt"))
    status = render(state).text["picker-main_model-status"]
    assert status == "No model matches “\\u202egpt”.", ascii(status)
    state = run(loaded(), PickerTyped("main_model", "x" * 102_400))
    status = render(state).text["picker-main_model-status"]
    assert status == ("The model search is 102,400 bytes, larger than its limit of 256 bytes"), (
        status
    )


def test_a_full_width_query_finds_what_its_ascii_finds() -> None:
    """The fifth walk (Chinese): an IME in full-width mode typed "ｇｐｔ－５" and the
    picker said no model matches; every typed field reads full-width as ASCII."""
    wide = render(run(loaded(lang="zh"), PickerTyped("main_model", "ｇｐｔ－５")))
    ascii_ = render(run(loaded(lang="zh"), PickerTyped("main_model", "gpt-5")))
    names = re.findall(r'data-model="([^"]+)"', wide.html["picker-main_model-list"])
    assert names
    assert names == re.findall(r'data-model="([^"]+)"', ascii_.html["picker-main_model-list"])
