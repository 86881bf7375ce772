"""The form's one parse-and-validate step: typed text, slider stops and key nudges."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest

from budgetcore.errors import Problem, render_value
from budgetcore.inputs.numbers import MAX_TOKENS
from budgetcore.ui.form import (
    FIELDS,
    SLIDER_STEPS,
    IssueError,
    format_value,
    nudge,
    parse_text,
    slider_max,
    slider_position,
    slider_value,
)
from budgetcore.ui.problems import problem_text

NUMBER_PATHS = [p for p, ui in FIELDS.items() if ui.kind in ("tokens", "positive")]
SLIDER_PATHS = [p for p, ui in FIELDS.items() if ui.kind not in ("bool", "average")]


class TestTypedText:
    @pytest.mark.parametrize(
        ("text", "value"),
        [
            ("32000", 32_000),
            ("32,000", 32_000),
            (" 1,048,576 ", 1_048_576),
            ("0", 0),
            ("3.2e4", 32_000),  # what the JSON input accepts, the field accepts
            ("3.2E+4", 32_000),
            ("32000.0", 32_000),
            ("+32000", 32_000),
            # A Chinese input method's full-width digits (issue 42): the same number.
            ("３２０００", 32_000),
            ("３２，０００", 32_000),
            ("３．２ｅ４", 32_000),
        ],
    )
    def test_whole_numbers_as_json_or_with_separators(self, text: str, value: int) -> None:
        assert parse_text("config.trigger_tokens", text) == value

    @pytest.mark.parametrize(
        "text", ["", "8k", "-5", "1.5", "1,2,3", "32 000", "1e-3", "١٢", "1e13", "nan", "0x10"]
    )
    def test_refused_naming_the_field_as_the_user_sees_it(self, text: str) -> None:
        with pytest.raises(IssueError) as info:
            parse_text("config.trigger_tokens", text)
        message = problem_text(info.value.issue, "en")
        assert message.startswith("Trigger line K must be a whole number of tokens from 0 to")
        assert "1,000,000,000,000" in message
        assert "config.trigger_tokens" not in message  # the JSON path stays in the CLI
        assert "or null" not in message

    def test_chinese_message_is_rendered_from_the_code(self) -> None:
        with pytest.raises(IssueError) as info:
            parse_text("config.trigger_tokens", "8k")
        assert problem_text(info.value.issue, "zh").startswith("触发线 K")
        assert "必须是" in problem_text(info.value.issue, "zh")

    def test_empty_nullable_field_is_null_and_says_what_empty_means(self) -> None:
        assert parse_text("workload.backlog_tokens", "") is None
        with pytest.raises(IssueError) as info:
            parse_text("workload.backlog_tokens", "-1")
        assert "or empty (empty = at least the budget)" in problem_text(info.value.issue, "en")

    def test_positive_fields_refuse_zero(self) -> None:
        with pytest.raises(IssueError):
            parse_text("main_model.input_tokens", "0")

    def test_margin(self) -> None:
        assert parse_text("config.safety_margin", "0.15") == Decimal("0.15")
        assert parse_text("config.safety_margin", "０．１５") == Decimal("0.15")
        for bad in ("15%", "1", "-0.1", "0.1" + "0" * 27 + "1"):
            with pytest.raises(IssueError) as info:
                parse_text("config.safety_margin", bad)
            text = problem_text(info.value.issue, "en")
            assert text.startswith(
                "Safety margin m must be a decimal from 0 (inclusive) to 1 (exclusive), with"
            )
            assert text.endswith("(for example 0.10); got " + render_value(bad))
            assert "JSON" not in text

    @pytest.mark.parametrize("path", NUMBER_PATHS)
    def test_format_round_trips(self, path: str) -> None:
        for value in (FIELDS[path].minimum, 7, 1_048_576, MAX_TOKENS):
            assert parse_text(path, format_value(path, value)) == value


class TestSliders:
    @pytest.mark.parametrize("path", SLIDER_PATHS)
    def test_every_stop_is_a_valid_value_and_stops_never_go_down(self, path: str) -> None:
        stops = [slider_value(path, i) for i in range(slider_max(path) + 1)]
        for value in stops:
            assert parse_text(path, format_value(path, value)) == value
        assert stops == sorted(stops)  # type: ignore[type-var]

    @pytest.mark.parametrize("path", SLIDER_PATHS)
    def test_home_is_the_valid_minimum(self, path: str) -> None:
        assert slider_value(path, 0) == FIELDS[path].minimum
        assert slider_value(path, -5) == FIELDS[path].minimum  # a stray position clamps

    def test_home_on_input_capacity_is_one_token_not_zero(self) -> None:
        assert slider_value("main_model.input_tokens", 0) == 1

    @pytest.mark.parametrize("path", [p for p in SLIDER_PATHS if FIELDS[p].log])
    def test_position_finds_the_stop_of_its_own_value(self, path: str) -> None:
        for i in (0, 1, 2, 250, 500, 999, SLIDER_STEPS):
            assert slider_value(path, slider_position(path, slider_value(path, i))) == (
                slider_value(path, i)
            )

    def test_margin_ends_are_valid(self) -> None:
        assert slider_value("config.safety_margin", 0) == Decimal(0)
        assert slider_value("config.safety_margin", slider_max("config.safety_margin")) == (
            Decimal("0.99")
        )


class TestNudge:
    @pytest.mark.parametrize(
        ("value", "steps", "after"),
        [(32_000, 1, 33_000), (32_000, -1, 31_000), (32_000, 10, 42_000), (5, 1, 6), (0, -1, 0)],
    )
    def test_about_one_percent_of_the_order_of_magnitude(
        self, value: int, steps: int, after: int
    ) -> None:
        assert nudge("config.trigger_tokens", value, steps) == after

    def test_positive_field_stops_at_one_and_margin_at_its_ends(self) -> None:
        assert nudge("main_model.input_tokens", 1, -1) == 1
        assert nudge("config.safety_margin", Decimal("0.10"), 1) == Decimal("0.11")
        assert nudge("config.safety_margin", Decimal("0.99"), 1) == Decimal("0.99")
        assert nudge("config.safety_margin", Decimal("0"), -1) == Decimal("0")

    def test_empty_nullable_field_starts_from_its_minimum(self) -> None:
        assert nudge("workload.backlog_tokens", None, 1) == 1


def test_full_width_digits_typed_on_the_chinese_page_set_k() -> None:
    """Issue 42: ４００００ typed into K in Chinese was refused; it is 40,000, and the
    replay's own fields read it the same way (one number reader)."""
    from budgetcore.ui.events import FieldTyped, ReplayFieldTyped, ReplayToggled  # noqa: PLC0415
    from budgetcore.ui.update import initial_state, reduce  # noqa: PLC0415

    state = reduce(
        initial_state(lang="zh", lang_chosen=True),
        FieldTyped("config.trigger_tokens", "４００００"),
    )
    assert not state.field_issues
    assert state.plan.scenario.config.trigger_tokens == 40_000
    replay = reduce(reduce(state, ReplayToggled(True)), ReplayFieldTyped("replay.turns", "１２０"))
    assert replay.replay.values["replay.turns"] == 120
    assert "replay.turns" not in replay.replay.issues
    rate = reduce(replay, ReplayFieldTyped("replay.failure_rate", "０．２"))
    assert rate.replay.values["replay.failure_rate"] == Decimal("0.2")


# What a Chinese input method types for the decimal point: 。 (U+3002, the ideographic
# full stop, its "." key in Chinese punctuation mode) and ． (U+FF0E, the full-width
# point). Issue 42: "0。15" was refused in the margin.
IME_POINTS = ("。", "．")
# A decimal in range of every decimal field: the first one a field takes is its probe.
PROBES = ("0.5", "0.25", "1.5", "12.5")


def _decimal_fields() -> list[tuple[str, str]]:
    """Every page field that takes a decimal typed with "." (table, path), found by
    asking each field's own parser, so a decimal field added later is covered."""
    from budgetcore.ui.replay.fields import REPLAY_FIELDS  # noqa: PLC0415
    from budgetcore.ui.replay.fields import parse_field_text as replay_parse  # noqa: PLC0415
    from budgetcore.ui.tune.state import TUNE_FIELDS  # noqa: PLC0415
    from budgetcore.ui.tune.state import parse_field_text as tune_parse  # noqa: PLC0415

    tables = (("main", FIELDS, parse_text), ("replay", REPLAY_FIELDS, replay_parse))
    found = []
    for table, paths, parse in (*tables, ("tune", TUNE_FIELDS, tune_parse)):
        for path in paths:
            for probe in PROBES:
                try:
                    value = parse(path, probe)  # type: ignore[operator]
                except IssueError:
                    continue
                if isinstance(value, Decimal) and value != value.to_integral_value():
                    found.append((table, path))
                    break
    return found


DECIMAL_FIELDS = _decimal_fields()


def test_the_decimal_fields_are_all_found() -> None:
    """The probe finds the decimal fields of every panel (a probe that found none would
    make the test below pass over nothing)."""
    paths = {path for _, path in DECIMAL_FIELDS}
    assert {
        "config.safety_margin",
        "samples.tokens_per_message",
        "replay.failure_rate",
        "replay.burst_rate",
        "replay.fixed_s",
        "replay.format_failure_rate",
        "tune.max_runs_per_100",
        "tune.max_compression",
    } <= paths
    assert "config.trigger_tokens" not in paths


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("table", "path"), DECIMAL_FIELDS)
def test_an_ime_decimal_point_reads_as_the_point(table: str, path: str, lang: str) -> None:
    """Every decimal field, typed on either page, takes 。 and ． (with half- or
    full-width digits) for the point: the same value as typed with "."."""
    from budgetcore.ui.events import (  # noqa: PLC0415
        FieldTyped,
        ReplayFieldTyped,
        ReplayToggled,
        TuneFieldTyped,
    )
    from budgetcore.ui.update import initial_state, reduce  # noqa: PLC0415

    start = initial_state(lang=lang, lang_chosen=True)
    if table == "replay":
        start = reduce(start, ReplayToggled(True))

    def typed_in(text: str) -> object:
        if table == "main":
            state = reduce(start, FieldTyped(path, text))
            assert path not in state.field_issues, text
            return state.values[path]
        if table == "replay":
            state = reduce(start, ReplayFieldTyped(path, text))
            assert path not in state.replay.issues, text
            return state.replay.values[path]
        state = reduce(start, TuneFieldTyped(path, text))
        assert path not in state.tune.issues, text
        return state.tune.values[path]

    for probe in PROBES:
        try:
            expected = typed_in(probe)
        except AssertionError:
            continue
        assert isinstance(expected, Decimal)
        if expected == expected.to_integral_value():
            continue
        full_width_digits = probe.translate({c: c + 0xFEE0 for c in range(0x30, 0x3A)})
        for point in IME_POINTS:
            assert typed_in(probe.replace(".", point)) == expected, (probe, point)
            assert typed_in(full_width_digits.replace(".", point)) == expected
        return
    pytest.fail(f"{path}: no probe accepted on the page")


def test_an_ime_point_refused_still_quotes_the_text_as_typed() -> None:
    """A refused text names what the person typed, not its ASCII reading."""
    from budgetcore.ui.tune.state import parse_field_text as tune_parse  # noqa: PLC0415

    with pytest.raises(IssueError) as info:
        parse_text("config.safety_margin", "1。5")
    assert problem_text(info.value.issue, "zh").endswith(render_value("1。5"))
    with pytest.raises(IssueError) as info:
        tune_parse("tune.max_runs_per_100", "１。５ｘ")
    assert problem_text(info.value.issue, "en").endswith(render_value("１。５ｘ"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_range_the_page_says_is_written_in_digits(lang: str) -> None:
    """Walk of 6 December 2026 (1440 EN): a typed K said "from 0 to 1,000,000,000,000",
    while the same rule from an imported file said "from 0 to 10^12", and the replay's
    seed field "from 0 to 2^63 - 1". The page writes every bound in digits, as its
    fields do (the CLI keeps its own notation)."""
    from budgetcore.ui.events import ImportPreviewed, ReplayFieldTyped, ReplayToggled  # noqa: PLC0415
    from budgetcore.ui.update import initial_state, reduce  # noqa: PLC0415

    state = reduce(initial_state(), ImportPreviewed("[config]\ntrigger_tokens = -5\n", "replace"))
    assert state.import_preview is not None
    (imported,) = state.import_preview.problems
    assert imported.rule.endswith("from 0 to 10^12")  # the CLI's English is unchanged
    said = problem_text(imported, lang)
    assert "1,000,000,000,000" in said, said
    assert "10^12" not in said, said
    state = reduce(initial_state(), ReplayToggled(True))
    state = reduce(state, ReplayFieldTyped("replay.seed", "x"))
    said = problem_text(state.replay.issues["replay.seed"], lang)
    assert "9,223,372,036,854,775,807" in said, said
    assert "2^63" not in said, said
    bad = Problem.of("config.trigger_tokens", "x", "whole", low="0", high="10^9")
    typed = problem_text(bad, lang)
    assert "1,000,000,000" in typed, typed
    assert "10^9" not in typed, typed


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_logs_bad_count_names_its_limit_in_digits_on_the_page(lang: str) -> None:
    """The third walk (6 December 2026): a log's count out of range said "from 0 to
    10^12" on the page, where the limit was written into the catalogue sentence itself
    and not a parameter the page could write in digits."""
    from budgetcore.replay.logs import read_session  # noqa: PLC0415

    line = (
        b'{"type":"assistant","uuid":"a","sessionId":"s","timestamp":"2026-01-01T00:00:00Z",'
        b'"message":{"id":"m","model":"claude-sonnet-4-5","role":"assistant","content":[],'
        b'"usage":{"input_tokens":-5,"output_tokens":1,"cache_creation_input_tokens":0,'
        b'"cache_read_input_tokens":0}}}\n'
    )
    log = read_session([("s.jsonl", io.BytesIO(line))], None, require=False)
    (problem,) = log.skipped
    assert problem.rule == "must be an integer from 0 to 10^12 or null"  # the CLI's
    said = problem_text(problem, lang)
    assert "1,000,000,000,000" in said, said
    assert "10^12" not in said, said


@pytest.mark.parametrize("sneaky", ["\u202e123", "12\u200b3", "\u2066123\u2069", "1\ufeff23"])
def test_a_refused_value_shows_its_invisible_characters_escaped(sneaky: str) -> None:
    """The fifth walk: "\u202e123" typed into K was refused with the override quoted as
    is, so the page showed 'got "321' reversed: a bidirectional control or a zero-width
    character in a quoted value is written as its escape, in the field's message as in
    the CLI's."""
    from budgetcore.ui.events import FieldTyped  # noqa: PLC0415
    from budgetcore.ui.update import initial_state, reduce  # noqa: PLC0415

    state = reduce(initial_state(), FieldTyped("config.trigger_tokens", sneaky))
    for lang in ("en", "zh"):
        text = problem_text(state.field_issues["config.trigger_tokens"], lang)
        assert text.isprintable(), ascii(text)
        escaped = sneaky.encode("unicode_escape").decode("ascii")
        assert text.endswith(f'"{escaped}"'), ascii(text)


def test_a_key_the_input_chose_is_shown_with_its_invisible_characters_escaped() -> None:
    """The fifth walk: a pasted turn with the key "\u202eadded" read 'line 1 ·
    dedda is not a turn field' (the key is a parameter of the sentence, not its path
    or quoted value, which were escaped)."""
    from budgetcore.ui.events import (  # noqa: PLC0415
        ReplaySourceChosen,
        ReplayToggled,
        ReplayTurnsTyped,
    )
    from budgetcore.ui.update import initial_state, reduce  # noqa: PLC0415

    state = reduce(reduce(initial_state(), ReplayToggled(True)), ReplaySourceChosen("paste"))
    state = reduce(state, ReplayTurnsTyped('{"\u202eadded": 5}\n'))
    said = [problem_text(p, lang) for p in state.replay.pasted.error for lang in ("en", "zh")]
    assert any("\\u202eadded" in s for s in said), said
    assert all(s.isprintable() for s in said), [ascii(s) for s in said]
