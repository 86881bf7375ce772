"""Claude Code's export for a model that is not Anthropic's (issue 42): a hard "this
export would not apply" was false (DeepSeek, Zhipu GLM, Alibaba's Qwen and Moonshot's
Kimi document running their models in Claude Code through ANTHROPIC_BASE_URL), and
saying nothing hid two things a reviewer needs: Claude Code reaches the model only
through such an endpoint, and it assumes a 200,000-token window for a name it does not
know, so a model with a smaller window needs CLAUDE_CODE_AUTO_COMPACT_WINDOW."""

from __future__ import annotations

import dataclasses
import json
from decimal import Decimal
from pathlib import Path

import pytest

from budgetcore.messages import t
from budgetcore.runtimes import profile
from budgetcore.runtimes.profiles import CLAUDE_CODE_WINDOWS
from budgetcore.scenario.parse import parse_scenario
from budgetcore.scenario.warnings import review_warnings, runtime_warning
from budgetcore.ui.events import ModelDataLoaded
from budgetcore.ui.markup import escape
from tests.helpers import run_cli

FRAGMENT = ["--fragment", "config.trigger_tokens=32000"]


@pytest.mark.parametrize("model", ["gpt-5.1-codex", "deepseek-chat", "dashscope/qwen3-coder-plus"])
def test_a_model_that_is_not_anthropics_is_reached_through_an_endpoint(model: str) -> None:
    w = runtime_warning("claude-code", model)
    assert w is not None
    assert w.code == "runtime-endpoint"
    en, zh = w.text("en"), w.text("zh")
    for text in (en, zh):
        assert model in text
        assert "ANTHROPIC_BASE_URL" in text
        assert "200,000" in text
        assert "CLAUDE_CODE_AUTO_COMPACT_WINDOW" in text
        assert "DeepSeek" in text
    assert "would not apply" not in en
    assert "不会生效" not in zh
    assert "Zhipu GLM, Alibaba's Qwen and Moonshot's Kimi" in en
    sc = dataclasses.replace(parse_scenario({}), main_model_name=model)
    assert "runtime-endpoint" in [x.code for x in review_warnings(sc, None, "claude-code")]
    assert "runtime-endpoint" not in [x.code for x in review_warnings(sc, None, "codex")]


@pytest.mark.parametrize(
    "model",
    [
        "claude-sonnet-4-5",
        "anthropic/claude-opus-4-1",
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0",  # Bedrock: still Anthropic's
        None,  # a contract typed by hand names no model
    ],
)
def test_an_anthropic_model_is_not_noted(model: str | None) -> None:
    assert runtime_warning("claude-code", model) is None


def test_the_cli_export_and_check_say_it_in_every_format(tmp_path: Path) -> None:
    said = "warning: gpt-5.1-codex is not an Anthropic model: Claude Code reaches it only"
    args = ["export", "--runtime", "claude-code", "--model", "gpt-5.1-codex", *FRAGMENT]
    out = run_cli(args)
    assert out.code == 0, out.err
    assert said in out.err
    assert said not in out.out  # the file alone on stdout
    assert said in run_cli([*args, "--format", "text"]).out
    doc = json.loads(run_cli([*args, "--format", "json"]).out)
    codes = [w["code"] for w in doc["warnings"]]
    assert "runtime-endpoint" in codes
    assert "runtime-not-for-model" not in codes
    sonnet = run_cli(
        ["export", "--runtime", "claude-code", "--model", "claude-sonnet-4-5", *FRAGMENT]
    )
    assert "not an Anthropic model" not in sonnet.err
    file = tmp_path / "settings.json"
    file.write_text(out.out)
    check = run_cli(["check", "--runtime", "claude-code", "--model", "gpt-5.1-codex", str(file)])
    assert check.code == 0, check.err
    assert said in check.err


def test_a_smaller_window_is_written_so_claude_code_compacts_at_k() -> None:
    """deepseek-chat (131,072 in the registry): Claude Code, not knowing the name,
    computes its percentage over a 200,000 window, so the percentage alone compacted at
    about 49,950 for K 32,000; the export writes the model's window beside it."""
    out = run_cli(
        [
            "export",
            "--runtime",
            "claude-code",
            "--model",
            "deepseek-chat",
            "--format",
            "json",
            *FRAGMENT,
        ]
    )
    assert out.code == 0, out.err
    doc = json.loads(out.out)
    settings = doc["settings"]
    assert settings["CLAUDE_CODE_AUTO_COMPACT_WINDOW"] == 131_072
    read = {
        "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": Decimal(
            str(settings["CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"])
        ),
        "CLAUDE_CODE_AUTO_COMPACT_WINDOW": settings["CLAUDE_CODE_AUTO_COMPACT_WINDOW"],
    }
    # As Claude Code runs it: at its assumed window, capped by the setting.
    cc = profile("claude-code")
    assert cc.effective_trigger(CLAUDE_CODE_WINDOWS[0], doc["max_output"], read) == 32_000
    assert "export CLAUDE_CODE_AUTO_COMPACT_WINDOW=131072" in doc["files"][1]["text"]
    # A model at or above the assumed window gets no window setting.
    gpt = json.loads(
        run_cli(
            [
                "export",
                "--runtime",
                "claude-code",
                "--model",
                "gpt-5.1-codex",
                "--format",
                "json",
                *FRAGMENT,
            ]
        ).out
    )
    assert "CLAUDE_CODE_AUTO_COMPACT_WINDOW" not in gpt["settings"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_says_it_beside_the_export_and_in_the_key_bar(lang: str) -> None:
    from budgetcore.registry.models import default_registry  # noqa: PLC0415
    from budgetcore.registry.peers import default_peers  # noqa: PLC0415
    from budgetcore.ui.events import ExportRuntimeChosen, LanguageChosen, ModelChosen  # noqa: PLC0415
    from budgetcore.ui.export.view import render_export  # noqa: PLC0415
    from budgetcore.ui.main.view.screen import render  # noqa: PLC0415
    from budgetcore.ui.update import initial_state, reduce  # noqa: PLC0415

    state = reduce(initial_state(), ModelDataLoaded(default_registry(), default_peers()))
    state = reduce(reduce(state, ModelChosen("main_model", "gpt-5.1-codex")), LanguageChosen(lang))
    picked = reduce(state, ExportRuntimeChosen("claude-code"))
    sentence = t(
        "warn.runtime-endpoint",
        lang,
        runtime="Claude Code",
        model="gpt-5.1-codex",
        window="200,000",
    )
    _text, panel = render_export(picked)
    assert 'data-warning="runtime-endpoint"' in str(panel)
    assert escape(sentence) in str(panel)
    assert 'data-warning="runtime-endpoint"' in str(render(picked).html["warnings"])
    sonnet = reduce(
        reduce(picked, ModelChosen("main_model", "claude-sonnet-4-5")), LanguageChosen(lang)
    )
    assert "runtime-endpoint" not in str(render_export(sonnet)[1])
