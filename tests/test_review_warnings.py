"""A reviewer's warnings (issue 42): settings the parser allows that defeat their own
purpose, one home (budgetcore.scenario.warnings) for check, export and the page, in
both languages."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from budgetcore.messages import t
from budgetcore.scenario.parse import parse_scenario
from budgetcore.scenario.warnings import review_warnings, runtime_warning
from budgetcore.ui.events import ModelDataLoaded
from budgetcore.ui.export.view import warnings_html
from budgetcore.ui.markup import escape
from tests.helpers import run_cli

SONNET = {"input_tokens": 200_000, "output_tokens": 64_000}


def _codes(doc: dict) -> list[str]:
    return [w.code for w in review_warnings(parse_scenario(doc))]


def test_the_defaults_warn_of_nothing() -> None:
    assert _codes({}) == []


def test_k_at_or_above_m_is_warned() -> None:
    # M = floor(0.9 × (1,048,576 − 8,192)) = 936,345 (docs/spec.md §10).
    assert _codes({"config": {"trigger_tokens": 936_344}}) == []
    assert _codes({"config": {"trigger_tokens": 936_345}}) == ["k-at-or-above-m"]
    assert _codes({"config": {"trigger_tokens": 1_000_000}}) == ["k-at-or-above-m"]


def test_s_at_or_above_k_is_warned_with_the_clamped_s() -> None:
    doc = {"main_model": SONNET, "config": {"trigger_tokens": 40_000, "summary_max_tokens": 39_999}}
    assert "s-at-or-above-k" not in _codes(doc)
    doc["config"]["summary_max_tokens"] = 40_000
    assert "s-at-or-above-k" in _codes(doc)
    # S above the summary model's O is clamped first: 8,192 against K 9,000 is fine.
    small = {"main_model": {"input_tokens": 32_768, "output_tokens": 8_192}}
    small["config"] = {"trigger_tokens": 9_000, "summary_max_tokens": 20_000}
    assert _codes(small) == ["s-above-o"]


def test_k_far_below_every_peer_is_warned() -> None:
    # For a 200,000-token model the lowest peer token line is Gemini CLI's 0.5 × W =
    # 100,000 (PEERS.md); a quarter of it is 25,000.
    doc = {"main_model": SONNET, "config": {"trigger_tokens": 25_000, "summary_max_tokens": 4_096}}
    assert _codes(doc) == []
    doc["config"]["trigger_tokens"] = 24_999
    (w,) = review_warnings(parse_scenario(doc))
    assert w.code == "k-far-below-peers"
    assert "100,000" in w.text("en")
    assert "100,000" in w.text("zh")


def test_the_page_compares_with_the_peers_only_once_they_are_loaded() -> None:
    from budgetcore.registry.peers import default_peers  # noqa: PLC0415

    sc = parse_scenario({"main_model": SONNET, "config": {"trigger_tokens": 10_000}})
    assert 'data-warning="k-far-below-peers"' not in str(warnings_html(sc, "en"))
    assert 'data-warning="k-far-below-peers"' in str(warnings_html(sc, "en", default_peers()))


def test_the_page_shows_every_warning_in_both_languages() -> None:
    sc = parse_scenario({"config": {"trigger_tokens": 1_000_000}})
    en = str(warnings_html(sc, "en"))
    zh = str(warnings_html(sc, "zh"))
    assert 'data-warning="k-at-or-above-m"' in en
    assert "Warning: K = 1,000,000 is at or above M = 936,345" in en
    assert "警告" in zh
    assert "1,000,000" in zh


@pytest.mark.parametrize("command", ["export", "check"])
def test_export_and_check_print_the_warning_and_still_succeed(
    command: str, tmp_path: pytest.TempPathFactory
) -> None:
    if command == "export":
        args = ["export", "-"]
        stdin = '{"config": {"trigger_tokens": 1000000}}'
    else:
        cfg = tmp_path / "c.toml"  # type: ignore[operator]
        cfg.write_text("[config]\ntrigger_tokens = 1000000\n")
        args, stdin = ["check", str(cfg)], ""
    proc = subprocess.run(
        [sys.executable, "-m", "budgetcore", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "warning: K = 1,000,000 is at or above M = 936,345" in proc.stderr


def test_plan_json_carries_every_warning_coded_in_both_languages() -> None:
    """Issue 42: ``plan`` is what a CI job reads; its JSON holds what check and export
    print, as data (the code, its parameters and both sentences), and an empty list for
    a scenario that deserves none."""

    def planned(doc: str) -> Any:
        proc = subprocess.run(
            [sys.executable, "-m", "budgetcore", "plan", "-"],
            input=doc,
            capture_output=True,
            text=True,
            check=True,
        )
        assert proc.stderr == ""
        return json.loads(proc.stdout)

    out = planned('{"config": {"trigger_tokens": 1000000, "summary_max_tokens": 1000000}}')
    big = {"trigger_tokens": 1_000_000, "summary_max_tokens": 1_000_000}
    expected = review_warnings(parse_scenario({"config": big}))
    assert [w["code"] for w in out["warnings"]] == [w.code for w in expected]
    assert {w["code"] for w in out["warnings"]} >= {"s-above-o", "k-at-or-above-m"}
    k_m = next(w for w in out["warnings"] if w["code"] == "k-at-or-above-m")
    assert k_m["params"] == {"k": "1,000,000", "m": "936,345"}
    assert k_m["text"]["en"].startswith("K = 1,000,000 is at or above M = 936,345")
    assert k_m["text"]["zh"] == t("warn.k-at-or-above-m", "zh", k="1,000,000", m="936,345")
    assert k_m["text"]["zh"] != k_m["text"]["en"]
    assert out["main_safe_input"] == 936_345  # beside the numbers, not instead of them
    assert planned("{}")["warnings"] == []


# Which models a runtime runs (runtimes/profiles.py ``runs``, sources in RUNTIMES.md):
# the Anthropic API's compaction is a Messages API feature, Claude models only (§16);
# Gemini CLI's tokenLimit(model) knows Gemini and Gemma models only (§5). Others: any.
NOT_SERVED = [
    ("anthropic-api", "gpt-5", "Anthropic API compaction", "claude-*"),
    ("anthropic-api", "gemini/gemini-2.5-pro", "Anthropic API compaction", "claude-*"),
    ("gemini-cli", "claude-sonnet-4-5", "Gemini CLI", "gemini-* / gemma-*"),
]
SERVED = [
    ("anthropic-api", "claude-sonnet-4-5"),
    ("anthropic-api", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
    ("gemini-cli", "gemini/gemini-2.5-pro"),
    ("codex", "claude-sonnet-4-5"),
    ("article", "gpt-5"),
    ("anthropic-api", None),  # a contract typed by hand names no model: assumed to run
]


@pytest.mark.parametrize(("runtime", "model", "title", "families"), NOT_SERVED)
def test_a_runtime_that_cannot_run_the_model_is_warned(
    runtime: str, model: str, title: str, families: str
) -> None:
    sc = dataclasses.replace(parse_scenario({}), main_model_name=model)
    (w,) = [w for w in review_warnings(sc, None, runtime) if w.code == "runtime-not-for-model"]
    assert w.text("en") == (
        f"The {title} runtime does not serve {model} (it runs {families} models only): "
        "this export would not apply."
    )
    assert (
        w.text("zh") == f"{title} 运行时不提供 {model}(它只运行 {families} 模型):此导出不会生效。"
    )
    assert "runtime-not-for-model" not in [w.code for w in review_warnings(sc, None)]


@pytest.mark.parametrize(("runtime", "model"), SERVED)
def test_a_runtime_that_runs_the_model_is_not_warned(runtime: str, model: str | None) -> None:
    sc = dataclasses.replace(parse_scenario({}), main_model_name=model)
    assert runtime_warning(runtime, model) is None
    assert "runtime-not-for-model" not in [w.code for w in review_warnings(sc, None, runtime)]


def test_the_cli_export_and_check_for_a_runtime_warn_that_it_cannot_run_the_model(
    tmp_path: Path,
) -> None:
    """Issue 42: exporting for the Anthropic API with a GPT model was not flagged."""
    said = "warning: The Anthropic API compaction runtime does not serve gpt-5 (it runs"
    frag = ["--fragment", "config.trigger_tokens=120000"]
    out = run_cli(["export", "--runtime", "anthropic-api", "--model", "gpt-5", *frag])
    assert out.code == 0, out.err
    assert said in out.err
    assert said not in out.out  # the file alone on stdout
    text = run_cli(
        ["export", "--runtime", "anthropic-api", "--model", "gpt-5", "--format", "text", *frag]
    )
    assert said in text.out
    doc = json.loads(
        run_cli(
            ["export", "--runtime", "anthropic-api", "--model", "gpt-5", "--format", "json", *frag]
        ).out
    )
    assert [w["code"] for w in doc["warnings"]] == ["runtime-not-for-model"]
    assert doc["warnings"][0]["params"]["model"] == "gpt-5"
    claude = run_cli(
        ["export", "--runtime", "anthropic-api", "--model", "claude-sonnet-4-5", *frag]
    )
    assert claude.code == 0
    assert "does not serve" not in claude.err
    body = tmp_path / "body.json"
    body.write_text(out.out)
    check = run_cli(["check", "--runtime", "anthropic-api", "--model", "gpt-5", str(body)])
    assert check.code == 0, check.err
    assert said in check.err
    checked = run_cli(
        ["check", "--runtime", "anthropic-api", "--model", "gpt-5", "--format", "json", str(body)]
    )
    assert [w["code"] for w in json.loads(checked.out)["warnings"]] == ["runtime-not-for-model"]
    fine = run_cli(
        ["check", "--runtime", "anthropic-api", "--model", "claude-sonnet-4-5", str(body)]
    )
    assert "does not serve" not in fine.err


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_warns_beside_the_export_and_in_the_key_bar(lang: str) -> None:
    from budgetcore.registry.models import default_registry  # noqa: PLC0415
    from budgetcore.registry.peers import default_peers  # noqa: PLC0415
    from budgetcore.ui.events import ExportRuntimeChosen, LanguageChosen, ModelChosen  # noqa: PLC0415
    from budgetcore.ui.export.view import render_export  # noqa: PLC0415
    from budgetcore.ui.main.view.screen import render  # noqa: PLC0415
    from budgetcore.ui.update import initial_state, reduce  # noqa: PLC0415

    state = reduce(initial_state(), ModelDataLoaded(default_registry(), default_peers()))
    state = reduce(reduce(state, ModelChosen("main_model", "gpt-5")), LanguageChosen(lang))
    picked = reduce(state, ExportRuntimeChosen("anthropic-api"))
    sentence = t(
        "warn.runtime-not-for-model",
        lang,
        runtime="Anthropic API compaction",
        model="gpt-5",
        families="claude-*",
    )
    _text, panel = render_export(picked)
    assert 'data-warning="runtime-not-for-model"' in str(panel)
    assert escape(sentence) in str(panel)
    assert 'data-warning="runtime-not-for-model"' in str(render(picked).html["warnings"])
    for other in (state, reduce(state, ExportRuntimeChosen("codex"))):  # runs any model
        assert "runtime-not-for-model" not in str(render_export(other)[1])
        assert "runtime-not-for-model" not in str(render(other).html["warnings"])


def test_the_chinese_peer_warning_keeps_the_line_apart_from_the_peers_name() -> None:
    """The fourth walk (1440, ZH): "(100,000,Anthropic API context editing)" ran the
    peer's name onto the digits of its line with the same comma that groups them; the
    English has a space after its comma. The Chinese names the peer's line as 的."""
    doc = {"config": {"trigger_tokens": 1_000}}
    (w,) = [w for w in review_warnings(parse_scenario(doc)) if w.code == "k-far-below-peers"]
    zh = w.text("zh")
    assert "100,000,Anthropic" not in zh
    assert "(Anthropic API context editing 的 100,000)" in zh
    assert "(100,000, Anthropic API context editing)" in w.text("en")


@pytest.mark.parametrize("model", ["gpt-5.1-codex", "gemini-2.5-pro", "claude-sonnet-4-5"])
def test_k_far_below_the_peers_is_against_the_systems_that_run_the_model(model: str) -> None:
    """The sixth walk: a Codex log's model (gpt-5.1-codex) and K 1,000 were warned
    against "Anthropic API context editing" at 100,000, a feature of the Anthropic API
    that the replay's own timeline leaves unmarked for that model (it serves Claude
    models only). The warning's line is the lowest the peers panel draws for the model
    (``registry.peers.peer_lines``: a system that cannot run it is listed apart)."""
    from budgetcore import plan  # noqa: PLC0415
    from budgetcore.registry.peers import peer_lines  # noqa: PLC0415

    sc = parse_scenario({"main_model": {"model": model}, "config": {"trigger_tokens": 1_000}})
    main = sc.main_model
    view = peer_lines(main.input_tokens, main.output_tokens, plan(sc), model=model)
    drawn = [r for r in view.rows if r.for_model and r.tokens]
    low = min(drawn, key=lambda r: r.tokens or 0)
    (w,) = [w for w in review_warnings(sc) if w.code == "k-far-below-peers"]
    assert dict(w.params)["peer"] == low.peer.name
    assert dict(w.params)["low"] == f"{low.tokens:,}"


def test_check_for_a_runtime_warns_of_a_k_far_below_the_peers_as_its_export_does(
    tmp_path: Path,
) -> None:
    """The sixth walk: ``export --runtime codex`` of K 1,000 for gpt-5.1-codex warned
    that it compacts far earlier than any peer; ``check --runtime codex`` of the very
    file it wrote said nothing. The K a runtime's file means for the model is held to
    the same peers' lines."""
    said = "warning: K = 1,000 is below a quarter of the lowest trigger line"
    args = ["--runtime", "codex", "--model", "gpt-5.1-codex"]
    out = run_cli(["export", *args, "--fragment", "config.trigger_tokens=1000"])
    assert out.code == 0, out.err
    assert said in out.err
    body = tmp_path / "config.toml"
    body.write_text(out.out)
    check = run_cli(["check", *args, str(body)])
    assert check.code == 0, check.err
    assert said in check.err
    doc = json.loads(run_cli(["check", *args, "--format", "json", str(body)]).out)
    assert [w["code"] for w in doc["warnings"]] == ["k-far-below-peers"]
    # A K the peers reach is not warned of.
    body.write_text("model_auto_compact_token_limit = 200000\n")
    assert "warning:" not in run_cli(["check", *args, str(body)]).err
