"""The Tune constraints' text has one rule (budgetcore/tune/constraints.py) for the CLI's
flags and the page's Tune fields (issue 38: it had a home in each shell)."""

from __future__ import annotations

import argparse
from decimal import Decimal
from pathlib import Path

import pytest

from budgetcore.cli.tune_cmds import command
from budgetcore.errors import ScenarioError
from budgetcore.messages import t
from budgetcore.tune.constraints import constraint_value
from budgetcore.ui.form import IssueError
from budgetcore.ui.problems import problem_text
from budgetcore.ui.tune.state import parse_field_text

#: The CLI's rules (the catalogue's English: core.decimal-or-off, core.ratio-or-off):
#: every limit says that off switches it off.
RATE_RULE = "must be a decimal from 0 to 100 with at most 6 decimal places, or off"
RATIO_RULE = "must be a ratio X (of X:1) from 1 to 1,000,000 with at most 6 decimal places, or off"

PACKAGE = Path(__file__).resolve().parent.parent / "budgetcore"

#: (page field, the CLI's flag type, kind)
PAIRS = [
    ("tune.max_unseen", command._count, "tokens"),
    ("tune.max_runs_per_100", command._rate, "rate"),
    ("tune.max_generations", command._generations, "generations"),
    ("tune.max_compression", command._ratio, "ratio"),
]
TEXTS = [
    "0", "5", " 7 ", "1,048,576", "100", "100.5", "99.999999", "0.0000001", "-1", "-0",
    "x", "off", " OFF ", "10:1", "10 :1", "1000000", "1000001", "0.5", "12", "1e3",
]  # fmt: skip


def _cli(flag: object, text: str) -> object:
    try:
        return flag(text)  # type: ignore[operator]
    except argparse.ArgumentTypeError as e:
        return ("refused", str(e))


def _page(path: str, text: str) -> object:
    try:
        return parse_field_text(path, text)
    except IssueError as e:
        return ("refused", e.issue.code)


@pytest.mark.parametrize(("path", "flag", "kind"), PAIRS)
def test_the_cli_and_the_page_read_a_constraint_alike(path: str, flag: object, kind: str) -> None:
    for text in TEXTS:
        cli, page = _cli(flag, text), _page(path, text)
        if kind in ("tokens", "generations") and text == "1e3":
            # The one difference, the project's: a flag's count is digits only, a
            # field also reads exact decimal text (inputs.numbers.whole_text).
            assert (cli[0], page) == ("refused", 1000)  # type: ignore[index]
            continue
        if isinstance(cli, tuple):
            assert isinstance(page, tuple), (text, page)
        else:
            assert page == cli, text


def test_the_cli_states_the_rule_and_what_it_got() -> None:
    assert _cli(command._rate, "x") == ("refused", f'{RATE_RULE}, got "x"')
    assert _cli(command._ratio, " 0 ") == ("refused", f'{RATIO_RULE}, got " 0 "')
    assert command._ratio("10:1") == Decimal(10)
    assert command._generations("off") is None


def test_the_page_names_its_field_in_the_catalogues_words() -> None:
    with pytest.raises(ScenarioError) as e:
        constraint_value("tune.max_runs_per_100", "rate", "101")
    (p,) = e.value.problems
    assert (p.path, p.code, p.rule) == ("tune.max_runs_per_100", "core.decimal-or-off", RATE_RULE)
    assert p.params == (("low", "0"), ("high", "100"), ("places", "6"), ("got", '"101"'))
    # The page says the core's one sentence of the field, by its label.
    assert (
        problem_text(p, "en") == f'{t("label.tune.max_runs_per_100", "en")} {RATE_RULE}; got "101"'
    )


@pytest.mark.parametrize(("path", "flag", "kind"), PAIRS)
def test_every_limit_takes_off_and_empty_and_its_hint_and_refusal_say_so(
    path: str, flag: object, kind: str
) -> None:
    # The sixth walk: "off" switched the two quality limits off and was refused by the
    # unseen and runs limits, whose hints said only "empty: no limit".
    for text in ("off", " OFF ", "Off"):
        assert _page(path, text) is None, text
        assert _cli(flag, text) is None, text
    assert _page(path, "") is None
    hint = {"en": "off or empty: no limit", "zh": "填 off 或留空:不限制"}
    for lang, words in hint.items():
        shown = t(f"hint.{path}", lang, default="D", source="S")
        assert shown.endswith(words), (lang, shown)
    refused = _page(path, "x")
    assert isinstance(refused, tuple)
    assert t(refused[1], "en").rstrip().endswith("or off; got {got}"), refused
    assert "或 off" in t(refused[1], "zh"), refused
    assert str(_cli(flag, "x")[1]).endswith(', or off, got "x"')  # type: ignore[index]


def test_neither_shell_holds_a_constraint_rule_of_its_own() -> None:
    # The number readers are called in tune/constraints.py, not beside the flags or
    # the fields (where the rules had two homes).
    for shell in ("cli/tune_cmds/command.py", "ui/tune/state.py"):
        text = (PACKAGE / shell).read_text(encoding="utf-8")
        assert "as_decimal(" not in text, shell
        assert "whole_text(" not in text, shell


def test_max_rejected_takes_off_as_every_other_limit() -> None:
    # --max-rejected (CLI only) refused "off" while every other Tune limit took it:
    # the same rule (tune.constraints' tokens kind), the same refusal.
    from tests.helpers import assert_clean, run_cli  # noqa: PLC0415

    base = ["tune", "--fragment", "", "--generate", '{"turns": 3, "added": 1000}', "--k", "8000"]
    r = run_cli([*base, "--max-rejected", "off"])
    assert_clean(r, (0,))
    assert '"max_rejected": null' in r.out
    assert '"max_rejected": 0' in run_cli([*base, "--max-rejected", "0"]).out
    refused = run_cli([*base, "--max-rejected", "x"])
    assert refused.code == 2
    assert ', or off, got "x"' in refused.err, refused.err
    assert "N|off" in run_cli(["tune", "--help"]).out.split("--max-rejected", 1)[1][:12]
