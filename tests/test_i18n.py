"""Both languages for every label, caption and message; numbers untouched."""

from __future__ import annotations

import re

import pytest

from budgetcore import Scenario, ScenarioError, parse_scenario_json, plan, view
from budgetcore.config import parse_config
from budgetcore.experiments import EXPERIMENTS, run
from budgetcore.i18n import MESSAGES, STATIC, translate_problem

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("key", [*STATIC, *view.i18n_keys()])
def test_every_label_has_both_languages(key: str) -> None:
    en, zh = view.text_for(key, "en"), view.text_for(key, "zh")
    assert en
    assert zh
    if not key.startswith("hint:limits.") and key not in ("readout:main_safe_input",):
        assert CJK.search(zh) or zh == en, (key, zh)


def test_messages_have_both_languages() -> None:
    for en, zh in MESSAGES.values():
        assert en
        assert zh


@pytest.mark.parametrize(
    "bad",
    [
        '{"config": {"trigger_tokens": "32k"}}',
        '{"config": {"safety_margin": 2}}',
        '{"main_model": {"reserves_output": 1}}',
        '{"workload": {"backlog_tokens": "x"}}',
        '{"bogus": 1}',
        '{"samples": {"bson": [{"tokens": 0, "bytes": 1}]}}',
        '{"limits": {"model_timeout_s": 100}}',
        "[1]",
        "{",
    ],
)
def test_every_validation_rule_reads_in_chinese(bad: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario_json(bad)
    zh = translate_problem(str(info.value), "zh")
    assert CJK.search(zh), zh
    assert " must " not in zh
    assert " is not " not in zh


def test_config_refusals_read_in_chinese() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_config("[main_model]\ninput_tokens = 5\n[limits]\nwork_cap_tokens = 1\n")
    zh = translate_problem(str(info.value), "zh")
    assert "模型登记" in zh
    assert "64,000" in zh


def test_numbers_are_identical_in_both_languages() -> None:
    p = plan(Scenario())
    numbers = re.compile(r"\d[\d,]*")
    for lang_pair in (
        (view.charts_svg(p, "en"), view.charts_svg(p, "zh")),
        (view.samples_html(p, None, "en"), view.samples_html(p, None, "zh")),
    ):
        en, zh = lang_pair
        assert numbers.findall(str(en)) == numbers.findall(str(zh))
    en_cells = {k: v[0] for k, v in view.readouts(p, None, "en").items()}
    zh_cells = {k: v[0] for k, v in view.readouts(p, None, "zh").items()}
    for key, text in en_cells.items():
        if text not in ("yes", "no"):
            assert zh_cells[key] == text


def test_experiments_in_chinese() -> None:
    for e in EXPERIMENTS:
        html = view.experiment_html(run(e, Scenario()), "zh")
        assert e.title_zh in html
        assert e.expect_zh in html
        assert "grows" not in html
        assert "same<" not in html
