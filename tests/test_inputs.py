"""One home per input rule (issues 24 and 27): the size limits, the duplicate-key rule,
the number reader and the coded problems every parser returns, each checked through
every parser that uses it, plus the causes the second input battery found."""

from __future__ import annotations

import copy
import io
import json
import re
import sys
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from budgetcore import cli
from budgetcore.conformance.cases import (
    parse_cases,
    random_cases,
    shipped_cases_text,
)
from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.jsonio import key_problems, load_json
from budgetcore.inputs.numbers import MAX_SEED, bound_text, read_number, read_written, whole_text
from budgetcore.inputs.text import SIZE_LIMITS, check_size, read_limited, size_text
from budgetcore.messages import CATALOGUE
from budgetcore.replay.logs.reader import Malformed, decode_line
from budgetcore.replay.options import parse_options_json
from budgetcore.replay.turns import parse_generator_json, parse_turn_lines
from budgetcore.scenario.fragment import parse_fragment
from budgetcore.scenario.overrides import parse_config
from budgetcore.scenario.parse import parse_sample_lines, parse_scenario_json
from budgetcore.ui.events import (
    FieldTyped,
    ImportPreviewed,
    LinkOpened,
    ReplayFieldTyped,
    ReplayLogLoaded,
    ReplaySourceChosen,
    ReplayToggled,
    ReplayTurnsTyped,
    SamplesTyped,
)
from budgetcore.ui.problems import problem_sentence
from budgetcore.ui.update import initial_state, reduce
from tests.helpers import assert_clean
from tests.helpers import run_cli as run_command


def run_cli(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    saved = sys.stdin, sys.stdout, sys.stderr
    out, err = io.StringIO(), io.StringIO()
    sys.stdin, sys.stdout, sys.stderr = io.TextIOWrapper(io.BytesIO(stdin)), out, err
    try:
        with pytest.raises(SystemExit) as info:
            cli.run(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    assert isinstance(info.value.code, int)
    return info.value.code, out.getvalue(), err.getvalue()


def problems_of(parse: Callable[[], object]) -> tuple[Problem, ...]:
    """The problems ``parse`` reports: raised, or returned beside what it kept."""
    try:
        result = parse()
    except ScenarioError as exc:
        return exc.problems
    if isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], list | tuple):
        return tuple(result[1])
    return ()


# ------------------------------------------------------------------ one duplicate-key rule

PARSERS: dict[str, Callable[[str], object]] = {
    "scenario": parse_scenario_json,
    "config": parse_config,
    "options": parse_options_json,
    "generate": parse_generator_json,
    "samples": parse_sample_lines,
    "turns": parse_turn_lines,
    "fragment": lambda text: ((), parse_fragment(text).problems),
    "cases": parse_cases,
}


SHIPPED = shipped_cases_text().splitlines()
T1 = '{"added": 1}\n'  # a valid first turn line, so the second's problems are listed
#: name: (parser, text, the path of the repeated key)
DUPLICATES: dict[str, tuple[str, str, str]] = {
    "scenario": (
        "scenario",
        '{"config": {"trigger_tokens": 1, "trigger_tokens": 2}}',
        "config.trigger_tokens",
    ),
    "scenario section": ("scenario", '{"config": {}, "config": {}}', "config"),
    "scenario sample": (
        "scenario",
        '{"samples": {"bson": [{"tokens": 1, "tokens": 2, "bytes": 3}]}}',
        "samples.bson[0].tokens",
    ),
    "config": (
        "config",
        '{"config": {"trigger_tokens": 1, "trigger_tokens": 2}}',
        "config.trigger_tokens",
    ),
    "config dotted and nested": (
        "config",
        '{"config": {"trigger_tokens": 1}, "config.trigger_tokens": 2}',
        "config.trigger_tokens",
    ),
    "config bad, then again": (
        "config",
        '{"config.trigger_tokens": -1, "config": {"trigger_tokens": 2}}',
        "config.trigger_tokens",
    ),
    "config sections": ("config", '{"config": {}, "config": {}}', "config"),
    "options": ("options", '{"cache": true, "cache": false}', "options.cache"),
    "prices": (
        "options",
        '{"main_prices": {"input": "1", "input": "2"}}',
        "options.main_prices.input",
    ),
    "generator": ("generate", '{"turns": 10, "added": 1, "turns": 5}', "generate.turns"),
    "distribution": (
        "generate",
        '{"turns": 1, "added": {"dist": "uniform", "low": 1, "high": 9, "low": 3}}',
        "generate.added.low",
    ),
    "burst": (
        "generate",
        '{"turns": 1, "added": 1, "burst": {"rate": "0.1", "rate": "0.2", "tokens": 1}}',
        "generate.burst.rate",
    ),
    "turn line": ("turns", T1 + '{"added": 1, "added": 2}\n', "line 2: added"),
    "set": (
        "turns",
        T1 + '{"added": 1, "set": {"config": {"trigger_tokens": 1, "trigger_tokens": 2}}}\n',
        "line 2: set.config.trigger_tokens",
    ),
    "set dotted and nested": (
        "turns",
        T1 + '{"added": 1, "set": {"config.trigger_tokens": 1, "config": {"trigger_tokens": 2}}}',
        "line 2: set.config.trigger_tokens",
    ),
    "samples line": (
        "samples",
        '{"channel": "bson", "tokens": 1, "tokens": 2, "bytes": 3}',
        "line 1: tokens",
    ),
    "link": (
        "fragment",
        "#config.trigger_tokens=1&config.trigger_tokens=2",
        "config.trigger_tokens",
    ),
    "cases file": (
        "cases",
        SHIPPED[0] + "\n" + SHIPPED[1].replace('"tags":', '"tags":[],"tags":', 1),
        "line 2: tags",
    ),
}


@pytest.mark.parametrize("name", DUPLICATES)
def test_a_key_given_twice_is_refused_by_every_parser(name: str) -> None:
    parser, text, path = DUPLICATES[name]
    problems = problems_of(lambda: PARSERS[parser](text))
    found = [p for p in problems if p.rule.startswith("appears more than once")]
    assert [p.path for p in found] == [path], problems
    # A link goes on with the first value and says which it ignored (the banner names
    # both); every other input is refused. One rule, inputs.jsonio.duplicate, either way.
    code = "duplicate-first" if parser == "fragment" else "duplicate"
    assert all(p.code == code for p in found)


def test_the_generator_of_the_issue_no_longer_gives_five_turns() -> None:
    code, out, err = run_cli(
        ["replay", "--fragment", "", "--generate", '{"turns":10,"added":1,"turns":5}']
    )
    assert (code, out) == (2, "")
    assert err == "generate.turns appears more than once\n"


def test_the_key_rule_reports_each_repeated_key_once_and_unknown_keys_by_value() -> None:
    obj = load_json('{"a": 1, "a": 2, "a": 3, "zz": 4}')
    problems = key_problems(obj, "line 7", {"a"}, line=7, code="not-turn-field")
    assert [str(p) for p in problems] == [
        "line 7: a appears more than once",
        "line 7: zz is not a turn field, got 4",
    ]
    assert [dict(p.params) for p in problems] == [
        {"line": "7", "key": "a"},
        {"line": "7", "key": "zz"},
    ]


# ------------------------------------------------------------------ config tables


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("[config]\nsafety_margin = {}\n", "config.safety_margin must be a decimal"),
        ('{"config": {"safety_margin": {}}}', "config.safety_margin must be a decimal"),
        ('{"config": {"trigger_tokens": {}}}', "config.trigger_tokens must be an integer"),
        ("a" + ".a" * 10_000 + " = 1\n", "a.a is not a supported override"),
        (
            "[config.x.y]\nz = 1\n",
            'config.x is not a supported override (spec §9 lists them), got {"y"',
        ),
    ],
)
def test_a_table_where_a_value_belongs_is_refused_never_an_empty_section(
    text: str, line: str
) -> None:
    code, out, err = run_cli(["check", "-"], stdin=text.encode())
    assert (code, out) == (2, "")
    assert line in err
    assert "RecursionError" not in err
    code, _out, err = run_cli(["plan", "--fragment", "", "--config", "-"], stdin=text.encode())
    assert code == 2
    assert line in err


# ------------------------------------------------------------------ size limits


def test_every_limit_is_stated_once_in_bytes() -> None:
    assert set(SIZE_LIMITS) == {
        "scenario", "config", "options", "generate", "samples", "turns", "page-turns",
        "cases", "fragment", "log", "log-line", "page-log", "query", "field", "axis",
    }  # fmt: skip
    # A seed is a typed value: the largest, grouped, fits a field with room to spare.
    assert SIZE_LIMITS["field"] >= len(f"{MAX_SEED:,}")
    assert [size_text(SIZE_LIMITS[k]) for k in ("scenario", "log", "query")] == [
        "1 MiB",
        "1 GiB",
        "256 bytes",
    ]


class _Endless(io.RawIOBase):
    """A stream that never ends, like /dev/zero, counting what was read."""

    def __init__(self) -> None:
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        self.read_bytes += len(buffer)
        return len(buffer)


def test_a_read_stops_one_byte_past_the_limit() -> None:
    stream = _Endless()
    with pytest.raises(ScenarioError, match=r"^config is larger than its limit of 1 MiB"):
        read_limited(io.BufferedReader(stream), "config")
    assert stream.read_bytes <= SIZE_LIMITS["config"] + io.DEFAULT_BUFFER_SIZE + 1


@pytest.mark.parametrize("what", sorted(PARSERS))
def test_every_parser_refuses_text_above_its_limit_with_the_one_message(
    what: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("budgetcore.inputs.text.SIZE_LIMITS", {**SIZE_LIMITS, what: 100})
    at_limit = problems_of(lambda: PARSERS[what](" " * 100))
    assert all(not p.code.startswith("too-large") for p in at_limit)
    problems = problems_of(lambda: PARSERS[what](" " * 50 + "é" * 26))  # 102 bytes, 76 chars
    # Below a whole KiB the limit is said in bytes alone (1 MiB: "1 MiB (1,048,576 bytes)").
    # Its size too, in UTF-8 bytes (the sixth walk: a link above 64 KiB said only the
    # limit, where a typed value and a file said their size).
    assert [(p.path, p.code, dict(p.params)) for p in problems] == [
        (what, "too-large-size-bytes", {"size": "102", "bytes": "100"})
    ]
    assert str(problems[0]) == f"{what} is 102 bytes, larger than its limit of 100 bytes"


def test_check_size_counts_utf8_bytes_and_names_the_input_as_shown() -> None:
    check_size("é" * 128, "query")  # 256 bytes: at the limit
    with pytest.raises(
        ScenarioError, match=r"^--model is 257 bytes, larger than its limit of 256 bytes$"
    ):
        check_size("é" * 128 + "x", "query", "--model")
    with pytest.raises(ScenarioError):
        check_size(b"x" * 257, "query")


@pytest.mark.parametrize(
    ("event", "where"),
    [
        (lambda t: ImportPreviewed(t, "replace"), "import_preview"),
        (SamplesTyped, "sample_problems"),
        (ReplayTurnsTyped, "turns"),
        (lambda t: ReplayLogLoaded(t, "x.jsonl"), "log"),
        (LinkOpened, "link_problems"),
    ],
    ids=["import", "samples", "turns", "log", "link"],
)
def test_the_page_refuses_a_paste_above_its_limit_as_the_cli_does(
    event: Callable[[str], Any], where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    kind = {"import_preview": "config", "sample_problems": "samples", "link_problems": "fragment"}
    what = kind.get(where, where)
    monkeypatch.setattr("budgetcore.inputs.text.SIZE_LIMITS", {**SIZE_LIMITS, what: 100})
    state = reduce(initial_state(lang="zh"), event("x" * 101))
    problems: tuple[Problem, ...]
    if where == "import_preview":
        assert state.import_preview is not None
        problems = state.import_preview.problems
    elif where == "turns":
        problems = state.replay.pasted.error
    elif where == "log":
        problems = state.replay.log_error
    else:
        problems = getattr(state, where)
    # Every paste says its exact size (a link, a log and pasted turns said only the
    # limit; the sixth walk).
    assert [(p.path, p.code) for p in problems] == [(what, "too-large-size-bytes")]
    sentence = problem_sentence(problems[0], "zh")
    assert "超过了大小上限 100 字节" in sentence, sentence
    assert "101 字节" in sentence, sentence


def test_a_typed_value_above_its_limit_is_refused_by_the_field() -> None:
    state = reduce(initial_state(), FieldTyped("config.trigger_tokens", "1" * 2_000))
    issue = state.field_issues["config.trigger_tokens"]
    # Its size stands for the value, too long to quote (the fifth walk pasted 100 kB
    # into K and read only the limit).
    assert (issue.code, issue.params) == (
        "core.too-large-unread",
        (("size", "2,000"), ("limit", "1 KiB"), ("bytes", "1,024")),
    )
    assert problem_sentence(issue, "en") == (
        "Trigger line K is 2,000 bytes, larger than its limit of 1 KiB (1,024 bytes): "
        "nothing of it was read"
    )
    assert "有 2,000 字节" in problem_sentence(issue, "zh")
    # A seed is a typed value like any other (the sixth walk): above a field's size,
    # the same sentence; 40 digits break its integer rule (the tests below).
    seed = reduce(initial_state(), ReplayFieldTyped("replay.seed", "9" * 2_000))
    assert seed.replay.issues["replay.seed"].params == issue.params


# ------------------------------------------------------------------ long input, short lines


@pytest.mark.parametrize(
    "argv",
    [
        ["models", "x" * 10_000],
        ["cases", "--random", "3", "--seed", "9" * 5_000],
        ["cases", "--random", "9" * 5_000],
        ["models", "--limit", "9" * 5_000],
        ["peers", "--window", "9" * 5_000, "--max-output", "1"],
        ["peers", "--model", "x" * 10_000],
        ["export", "--fragment", "", "--format", "x" * 10_000],
        ["plan", "--fragment", "", *["x"] * 5_000],
    ],
    ids=lambda a: " ".join(a)[:40],
)
def test_a_long_argument_is_one_short_line(argv: list[str]) -> None:
    code, out, err = run_cli(argv)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1
    assert len(err) <= 400, len(err)


def test_the_query_of_the_issue_names_its_limit() -> None:
    assert run_cli(["models", "x" * 10_000]) == (
        2,
        "",
        "query is 10,000 bytes, larger than its limit of 256 bytes\n",
    )


# ------------------------------------------------------------------ seeds


@pytest.mark.parametrize("seed", ["-1", str(MAX_SEED + 1), "1e3", "0x10"])
def test_a_seed_out_of_range_is_refused_not_folded(seed: str) -> None:
    code, out, err = run_cli(["cases", "--random", "3", "--seed", seed])
    assert (code, out) == (2, "")
    assert "argument --seed: must be an integer from 0 to 2^63 - 1" in err


#: 40 digits: past every integer field's range (2^63 - 1 has 19), within a field's size.
FORTY_DIGITS = "1" * 40


def _page_integer_fields() -> list[tuple[str, Callable[[str, str], object]]]:
    from budgetcore.ui.form import FIELDS, parse_text  # noqa: PLC0415
    from budgetcore.ui.replay.fields import REPLAY_FIELDS  # noqa: PLC0415
    from budgetcore.ui.replay.fields import parse_field_text as replay_text  # noqa: PLC0415
    from budgetcore.ui.tune.state import TUNE_FIELDS  # noqa: PLC0415
    from budgetcore.ui.tune.state import parse_field_text as tune_text  # noqa: PLC0415

    main = [(p, parse_text) for p, f in FIELDS.items() if f.kind in ("tokens", "positive")]
    replay_kinds = ("count", "tokens", "seed")
    replay = [(p, replay_text) for p, f in REPLAY_FIELDS.items() if f.kind in replay_kinds]
    replay += [(p, replay_text) for p in ("replay.gap_seed", "replay.format_failure_seed")]
    tune = [(p, tune_text) for p, f in TUNE_FIELDS.items() if f.kind in ("tokens", "generations")]
    return main + replay + tune


@pytest.mark.parametrize(("path", "parse"), _page_integer_fields())
def test_forty_digits_in_any_integer_field_of_the_page_break_its_integer_rule(
    path: str, parse: Callable[[str, str], object]
) -> None:
    # The sixth walk: the replay's seeds said "Seed is 40 bytes, larger than its limit
    # of 32 bytes", where every other integer field says its range and the value.
    from budgetcore.ui.form import IssueError  # noqa: PLC0415
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    with pytest.raises(IssueError) as e:
        parse(path, FORTY_DIGITS)
    issue = e.value.issue
    assert issue.code.startswith("core.whole"), issue.code
    said = problem_text(issue, "en")
    assert said.startswith(CATALOGUE[f"label.{path}"][0]), said  # the field, by its label
    assert "an integer from" in said or "a whole number of" in said, said  # the rule
    assert f'got "{FORTY_DIGITS}"' in said


@pytest.mark.parametrize(
    "argv",
    [
        ["cases", "--random", "1", "--seed", FORTY_DIGITS],
        ["tune", "--fragment", "", "--max-unseen", FORTY_DIGITS],
        ["tune", "--fragment", "", "--max-generations", FORTY_DIGITS],
        ["tune", "--fragment", "", "--jobs", FORTY_DIGITS],
    ],
)
def test_forty_digits_in_an_integer_flag_break_its_integer_rule(argv: list[str]) -> None:
    code, out, err = run_cli(argv)
    assert (code, out) == (2, "")
    assert "must be an integer from 0 to" in err, err
    assert "larger than its limit" not in err


def test_the_same_seed_range_everywhere() -> None:
    assert random_cases(1, MAX_SEED)
    for bad in (-1, MAX_SEED + 1):
        with pytest.raises(ValueError, match=r"^seed must be an integer from 0 to 2\^63 - 1"):
            random_cases(1, bad)
        for parse in (
            lambda s: parse_generator_json(f'{{"turns": 1, "added": 1, "seed": {s}}}'),
            lambda s: parse_options_json(f'{{"failure_seed": {s}}}'),
        ):
            with pytest.raises(ScenarioError, match=r"must be an integer from 0 to 2\^63 - 1"):
                parse(bad)


# ------------------------------------------------------------------ the number reader


def test_whole_text_reads_what_a_person_types_and_nothing_else() -> None:
    assert [whole_text(t) for t in ("1,048,576", " 7 ", "1e3", "32000.0", "+5")] == [
        1_048_576,
        7,
        1_000,
        32_000,
        5,
    ]
    for text in ("-0", "-1", "1,04", "1_000", "NaN", "1e1000000000000000000", "9" * 500):
        assert whole_text(text) is None, text
    # What a Chinese input method types (issue 42): full-width digits, comma and point.
    assert [
        whole_text(t) for t in ("４００００", "１，０４８，５７６", "３．２ｅ４", "　１２　")
    ] == [
        40_000,
        1_048_576,
        32_000,
        12,
    ]
    assert whole_text("１２", plain=True) == 12
    assert [whole_text(t) for t in ("－１", "１２ｋ", "一二")] == [None, None, None]
    assert whole_text("2e5", plain=True) is None
    assert whole_text(str(MAX_SEED), MAX_SEED, plain=True) == MAX_SEED


def test_range_ends_read_as_the_rules_write_them() -> None:
    assert [bound_text(x) for x in (10**12, 10**15, 10**9, MAX_SEED, 100_000, Decimal("1"))] == [
        "10^12",
        "10^15",
        "10^9",
        "2^63 - 1",
        "100,000",
        "1",
    ]


# ------------------------------------------------------------------ coded problems


BAD_REPLAY_INPUTS: list[Callable[[], object]] = [
    lambda: parse_turn_lines(
        '{"added": 1}\n{"added": "x"}\n{"added": 1, "added": 2}\n{"added": 1, "zz": 3}\n'
        '{"added": 1, "set": {"config.trigger_tokens": -1}}\n{"added": 1, "idle_slot": 3}\n'
        '[1]\n{\n{"added": 1, "set": 5}\n{"added": 1, "set": {"x.y": 1}}\n{"required": 1}\n'
    ),
    lambda: parse_turn_lines('{"added": "x"}\n'),
    lambda: parse_turn_lines(b"\xff"),
    lambda: parse_generator_json(
        '{"turns": 0, "seed": -1, "zz": 1, "added": {"dist": "uniform", "low": 5, "high": 1}}'
    ),
    lambda: parse_generator_json('{"turns": 1, "added": {"dist": "x"}}'),
    lambda: parse_generator_json('{"turns": 1, "added": {"dist": "fixed", "value": 1, "zz": 1}}'),
    lambda: parse_generator_json('{"turns": 1, "added": [1]}'),
    lambda: parse_generator_json('{"turns": 1, "added": {"dist": "choice", "values": []}}'),
    lambda: parse_generator_json(
        '{"turns": 1, "added": {"dist": "choice", "values": [1], "weights": [1, 2]}}'
    ),
    lambda: parse_generator_json(
        '{"turns": 1, "added": {"dist": "choice", "values": [1], "weights": [0]}}'
    ),
    lambda: parse_generator_json('{"turns": 1, "added": 1, "burst": 5}'),
    lambda: parse_generator_json(
        '{"turns": 1, "added": 1, "burst": {"rate": "2", "zz": 1, "tokens": 1}}'
    ),
    lambda: parse_generator_json('{"seed": 1}'),
    lambda: parse_generator_json("[]"),
    lambda: parse_options_json(
        '{"start_history": -1, "summary_ratio": "2", "failure_seed": -1, "cache": 1, "zz": 1,'
        ' "main_prices": {"input": "-1", "x": 1}, "summary_prices": 5}'
    ),
    lambda: parse_options_json('{"start_history": 1, "start_covered": 2}'),
    lambda: parse_options_json("[]"),
]


def test_every_replay_problem_has_a_catalogue_sentence_in_both_languages() -> None:
    seen: set[str] = set()
    for parse in BAD_REPLAY_INPUTS:
        problems = problems_of(parse)
        assert problems, parse
        for problem in problems:
            assert f"core.{problem.code}" in CATALOGUE, problem
            seen.add(problem.code)
            for lang in ("en", "zh"):
                problem_sentence(problem, lang)  # every parameter its sentence needs
    assert len(seen) >= 25, sorted(seen)


def test_a_pasted_turn_problem_is_chinese_on_a_chinese_page() -> None:
    state = initial_state(lang="zh")
    state = reduce(reduce(state, ReplayToggled(True)), ReplaySourceChosen("turns"))
    state = reduce(state, ReplayTurnsTyped('{"added": 1}\n{"added": "x"}\n'))
    (problem,) = state.replay.pasted.problems
    assert problem_sentence(problem, "zh") == (
        '第 2 行 · added 必须是 0 到 1,000,000,000,000 之间的整数;收到 "x"'
    )


def test_a_line_separator_inside_a_string_splits_no_pasted_line() -> None:
    """U+2028, U+2029 and U+0085 are valid raw inside a JSON string: a pasted line holding
    one is one line, and every later line keeps its number."""
    for sep in ("\u2028", "\u2029", "\u0085"):
        _turns, problems = parse_turn_lines(
            f'{{"added": 1, "set": {{"x{sep}y": 1}}}}\n{{"added": "x"}}\n{{"added": 2}}\n'
        )
        assert [dict(p.params)["line"] for p in problems] == ["1", "2"]
        _samples, found = parse_sample_lines(
            f'{{"channel": "bson", "tokens": 1, "bytes": 2, "n{sep}": 1}}\n{{"channel": "x"}}'
        )
        assert [dict(p.params)["line"] for p in found] == ["1", "2"]


# ------------------------------------------------------------------ the CLI's arguments

# The commands below read a Result (tests.helpers.run_cli, imported as run_command:
# this module's own run_cli returns a tuple).
GEN = '{"turns": 3, "added": 1000}'


# ------------------------------------------------------------------ tune's axes


def test_tune_k_with_a_grouping_comma_is_one_value() -> None:
    """Cause 4: ``--k 8,000`` was K = 0 and K = 8, exit 0."""
    r = run_command(["tune", "--fragment", "", "--generate", GEN, "--k", "8,000", "--s", "1024"])
    assert_clean(r)
    assert r.code == 0
    points = [json.loads(line) for line in r.out.splitlines()[:-1]]  # the last: the summary
    assert [p["k"] for p in points] == [8_000]


def test_tune_k_with_a_mistyped_group_is_refused() -> None:
    r = run_command(["tune", "--fragment", "", "--generate", GEN, "--k", "8,00", "--s", "1024"])
    assert r.code == 2
    assert "--k each value must not start a value with 0" in r.err


def test_tune_s_above_o_is_warned_never_clamped_in_silence() -> None:
    """Cause 5: three S above O gave identical points and no word."""
    r = run_command(
        ["tune", "--fragment", "", "--generate", GEN, "--k", "8000", "--s", "65536,70000,100000"]
    )
    assert r.code == 0
    assert r.err.startswith("warning: --s 70,000, 100,000 are above the summary model's output")
    assert "clamped to S = 65,536" in r.err
    below = run_command(["tune", "--fragment", "", "--generate", GEN, "--k", "8000", "--s", "1024"])
    assert "warning" not in below.err


def test_tune_names_which_turns_file_is_bad(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cause 17: with several --turns, the error did not say which one."""
    monkeypatch.chdir(tmp_path)
    Path("good.jsonl").write_text('{"added": 5}\n', "utf-8")
    Path("bad.jsonl").write_text('{"added": -5}\n', "utf-8")
    args = ["tune", "--fragment", "", "--k", "8000", "--s", "1024"]
    r = run_command([*args, "--turns", "good.jsonl", "--turns", "bad.jsonl"])
    assert_clean(r)
    assert r.code == 2
    assert r.err.startswith(
        "bad.jsonl: turns has no usable turn line; bad.jsonl: line 1: added must"
    )


def test_tune_names_which_generator_is_bad() -> None:
    args = ["tune", "--fragment", "", "--k", "8000", "--s", "1024"]
    r = run_command([*args, "--generate", GEN, "--generate", '{"turns": -1, "added": 5}'])
    assert r.code == 2
    assert r.err.startswith("--generate 2: generate.turns must be")


# ------------------------------------------------------------------ spaces and signs

#: docs/spec.md §11, "One rule for spaces and signs": every path refuses a minus sign,
#: on zero too, and names the value as written.
SIGNED_ZERO: list[tuple[list[str], bytes, str]] = [
    (["plan", "-"], b'{"config": {"trigger_tokens": -0}}', "config.trigger_tokens must be"),
    (["plan", "-"], b'{"config": {"safety_margin": -0.0}}', "config.safety_margin must be"),
    (["plan", "-"], b'{"config": {"safety_margin": "-0"}}', "config.safety_margin must be"),
    (["check", "-"], b"[config]\ntrigger_tokens = -0\n", "config.trigger_tokens must be"),
    (["check", "-"], b'{"config.trigger_tokens": -0}', "config.trigger_tokens must be"),
    (
        ["replay", "--fragment", "", "--generate", GEN, "--options", "-"],
        b'{"summary_ratio": -0}',
        "options.summary_ratio must be",
    ),
    (["replay", "--fragment", "", "--turns", "-"], b'{"added": -0}\n', "turns has no usable"),
    (["replay", "--fragment", "", "--generate", "-"], b'{"turns": 3, "added": -0}', "generate"),
]


@pytest.mark.parametrize(("argv", "stdin", "start"), SIGNED_ZERO)
def test_a_signed_zero_is_refused_on_every_path(argv: list[str], stdin: bytes, start: str) -> None:
    r = run_command(argv, stdin)
    assert_clean(r)
    assert r.code == 2
    assert start in r.err
    assert re.search(r"got \"?-0", r.err), r.err


@pytest.mark.parametrize(
    "argv",
    [
        ["models", "--limit", "-0", "claude"],
        ["peers", "--window", "-0", "--max-output", "8192"],
        ["tune", "--fragment", "", "--generate", GEN, "--max-runs-per-100", "-0"],
        ["tune", "--fragment", "", "--generate", GEN, "--max-unseen", "-0"],
    ],
)
def test_a_typed_signed_zero_is_refused(argv: list[str]) -> None:
    r = run_command(argv)
    assert r.code == 2
    assert 'got "-0"' in r.err


@pytest.mark.parametrize(
    "argv",
    [
        ["models", "--limit", " 5", "claude"],
        ["peers", "--window", " 200000", "--max-output", " 8192"],
        ["tune", "--fragment", "", "--generate", GEN, "--k", "8000", "--max-runs-per-100", " 5"],
    ],
)
def test_typed_numbers_are_read_trimmed(argv: list[str]) -> None:
    r = run_command(argv)
    assert_clean(r, (0,))


def test_a_file_value_is_exact_text() -> None:
    r = run_command(["plan", "-"], b'{"config": {"safety_margin": " 0.1"}}')
    assert r.code == 2
    assert "config.safety_margin must be a decimal" in r.err


@pytest.mark.parametrize(
    ("written", "path", "document"),
    [
        ("1e400", "config.trigger_tokens", '{{"config": {{"trigger_tokens": {}}}}}'),
        ("25E-1", "config.summary_max_tokens", '{{"config": {{"summary_max_tokens": {}}}}}'),
        ("1.5e2", "config.safety_margin", '{{"config": {{"safety_margin": {}}}}}'),
        ("1e400", "config.trigger_tokens", "[config]\ntrigger_tokens = {}\n"),
    ],
)
def test_a_refused_number_is_quoted_as_it_was_written(
    written: str, path: str, document: str
) -> None:
    """Fourth walk of December 2026: a pasted ``1e400`` came back as "got 1E+400"
    (Decimal's normal form), not as the user wrote it. The CLI's scenario, the page's
    import preview (both languages) and a config override all quote the text."""
    text = document.format(written)
    if text.startswith("{"):
        with pytest.raises(ScenarioError) as refused:
            parse_scenario_json(text)
        assert str(refused.value).endswith(f"got {written}"), str(refused.value)
    for lang in ("en", "zh"):
        state = reduce(initial_state(lang=lang), ImportPreviewed(text, "replace"))
        assert state.import_preview is not None
        sentences = [problem_sentence(p, lang) for p in state.import_preview.problems]
        assert [p.path for p in state.import_preview.problems] == [path]
        assert written in sentences[0], sentences
        assert str(Decimal(written)) not in sentences[0], sentences


def test_a_number_written_with_an_exponent_is_still_the_decimal_it_equals() -> None:
    """The written text rides along for messages only: the value, its hash, its copy and
    its arithmetic are Decimal's. The log readers' numbers stay plain Decimals (the
    compiled decoders take no subclass: a line would be decoded twice)."""
    assert type(read_number("1e3")) is Decimal
    value = read_written("1e3")
    assert value == Decimal(1000)
    assert hash(value) == hash(Decimal(1000))
    assert str(value) == "1E+3"
    assert repr(value) == "Decimal('1E+3')"
    assert type(value + 1) is Decimal
    assert copy.deepcopy(value) == value


def test_a_byte_that_is_not_utf8_is_counted_from_1_in_a_file_as_in_a_log_line() -> None:
    """The fifth walk: the same random file read "byte 1" in the config import and "byte 2
    of the line" in the replay, and the Chinese "第 0 字节" for a file's first byte."""
    raw = b"ab\xff"
    with pytest.raises(ScenarioError) as caught:
        parse_config(raw)
    (problem,) = caught.value.problems
    assert dict(problem.params)["byte"] == "3"
    assert str(problem) == "config must be UTF-8 text (byte 3)"
    assert problem_sentence(problem, "zh").endswith("(第 3 字节不是)")
    line = decode_line(raw)
    assert isinstance(line, Malformed)
    assert dict(line.problem.params)["byte"] == "3"
