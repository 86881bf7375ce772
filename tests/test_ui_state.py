"""The page's behaviour as ``reduce(state, event)``, in CPython: every way a value
arrives goes through one parse-and-validate step, and the plan, the link and the export
always describe what the fields show (or the plan is marked stale)."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from pathlib import Path

import pytest

from budgetcore import Scenario, plan
from budgetcore.core.contracts import ModelContract
from budgetcore.scenario.export import export_toml
from budgetcore.scenario.overrides import parse_config
from budgetcore.ui.events import (
    CurvesToggled,
    ExperimentRun,
    ExportFormatChosen,
    Failed,
    FieldCommitted,
    FieldNudged,
    FieldTyped,
    ImportApplied,
    ImportCancelled,
    ImportFileLoaded,
    ImportPreviewed,
    JobStep,
    LanguageChosen,
    LinkOpened,
    Noticed,
    PeersUnitChosen,
    Pinned,
    PresetChosen,
    Reset,
    SliderMoved,
    SummarySameToggled,
    SweepBoundTyped,
    SweepPathChosen,
    TuneFieldTyped,
    TuneToggled,
    Unpinned,
)
from budgetcore.ui.form import FIELDS, format_value
from budgetcore.ui.main.view.screen import render, render_curves
from budgetcore.ui.model import PageState
from budgetcore.ui.paint import Painted, main_ops
from budgetcore.ui.update import initial_state, reduce
from tests.ui_state_helpers import assert_consistent, fresh


def typed(state: PageState, path: str, text: str) -> PageState:
    return reduce(state, FieldTyped(path, text))


class TestFields:
    def test_defaults_are_the_golden_plan(self) -> None:
        state = fresh()
        assert state.plan.main_safe_input == 936_345
        assert state.texts["config.trigger_tokens"] == "32,000"
        assert_consistent(state)

    def test_a_valid_value_replans(self) -> None:
        state = typed(fresh(), "config.trigger_tokens", "40000")
        assert state.plan.scenario.config.trigger_tokens == 40_000
        assert state.texts["config.trigger_tokens"] == "40000"  # what was typed stays
        state = reduce(state, FieldCommitted("config.trigger_tokens"))
        assert state.texts["config.trigger_tokens"] == "40,000"  # formatted on leaving
        assert_consistent(state)

    def test_a_bad_value_marks_its_field_and_keeps_the_last_plan_stale(self) -> None:
        state = typed(fresh(), "config.trigger_tokens", "8k")
        assert state.stale
        assert state.plan.scenario.config.trigger_tokens == 32_000
        view = render(state)
        assert view.stale
        assert view.fields["config.trigger_tokens"].message.startswith("Trigger line K must be")
        assert view.fields["config.trigger_tokens"].text == "8k"
        state = typed(state, "config.trigger_tokens", "9000")
        assert_consistent(state)

    @pytest.mark.parametrize(
        ("path", "text", "marked"),
        [
            ("limits.raw_records_read", "100", {"limits.message_page_size"}),
            ("limits.model_timeout_s", "100", {"limits.run_timeout_s"}),
            ("limits.lease_s", "60", {"limits.run_timeout_s"}),
            ("limits.run_timeout_s", "1", {"limits.model_timeout_s"}),
            ("limits.directory_sessions_read", "10", {"limits.directory_page_size"}),
        ],
    )
    def test_a_cross_key_conflict_shows_by_both_fields(
        self, path: str, text: str, marked: set[str]
    ) -> None:
        state = typed(fresh(), path, text)
        assert state.stale
        view = render(state)
        for p in {path} | marked:
            assert view.fields[p].message, p
            assert "must be" in view.fields[p].message
        assert "limits." not in view.fields[path].message  # labels, not JSON paths
        # The export and link still describe the last valid plan, which is marked stale.
        assert state.plan.scenario == Scenario()

    @pytest.mark.parametrize(
        "path", [p for p in FIELDS if FIELDS[p].kind not in ("bool", "average")]
    )
    def test_slider_ends_and_nudges_never_make_an_invalid_field(self, path: str) -> None:
        for position in (0, 1_000_000):
            state = reduce(fresh(), SliderMoved(path, position))
            assert path not in state.field_issues
            state = reduce(state, FieldNudged(path, -10))
            assert path not in state.field_issues

    def test_unknown_paths_change_nothing(self) -> None:
        state = fresh()
        assert reduce(state, FieldTyped("config.nope", "1")) is state
        assert reduce(state, SliderMoved("background.idle_slot", 3)) is state

    def test_empty_optional_field_is_null_not_zero(self) -> None:
        state = fresh()
        view = render(state)
        assert view.fields["workload.backlog_tokens"].empty
        assert "empty" in view.fields["workload.backlog_tokens"].valuetext
        state = typed(state, "workload.engine_summary_tokens", "")
        assert state.plan.scenario.workload.engine_summary_tokens is None

    def test_preset_is_derived_from_the_contract(self) -> None:
        state = reduce(fresh(), PresetChosen("w200k"))
        assert state.plan.scenario.main_model.input_tokens == 200_000
        assert render(state).preset == "w200k"
        state = typed(state, "main_model.input_tokens", "200001")
        assert render(state).preset == ""

    def test_own_summary_contract_starts_from_the_main_one(self) -> None:
        state = reduce(fresh(), PresetChosen("w200k"))
        state = reduce(state, SummarySameToggled(False))
        assert state.plan.scenario.summary_model is not None
        assert state.plan.scenario.summary_model.input_tokens == 200_000


class TestLinks:
    @pytest.mark.parametrize(
        "fragment",
        [
            "#limits.lease_s=60",
            "#limits.raw_records_read=100",
            "#limits.directory_sessions_read=10",
            "#limits.run_timeout_s=1",
            "#limits.lease_s=10&limits.model_timeout_s=3600",
            "#config.trigger_tokens=8k&lang=zh",
        ],
    )
    def test_any_link_opens_a_consistent_page_and_says_what_it_dropped(self, fragment: str) -> None:
        state = reduce(fresh(), LinkOpened(fragment, "en"))
        assert state.link_problems
        assert_consistent(state)
        assert render(state).text["link-problems"]

    def test_language_from_the_link_or_the_browser(self) -> None:
        assert reduce(fresh(), LinkOpened("#lang=zh", "en")).lang == "zh"
        assert reduce(fresh(), LinkOpened("", "zh-CN")).lang == "zh"
        state = reduce(fresh(), LinkOpened("", "zh-CN"))
        assert "lang=" not in render(state).fragment  # only a chosen language travels
        state = reduce(state, LanguageChosen("zh"))
        assert render(state).fragment == "lang=zh"

    def test_a_copied_link_keeps_the_pinned_plan(self) -> None:
        # The walk (t5): copy the link while a plan is pinned, open it: the pin was lost.
        state = reduce(typed(fresh(), "config.trigger_tokens", "50000"), Pinned())
        state = typed(state, "config.trigger_tokens", "40000")
        link = render(state).fragment
        opened = reduce(fresh(), LinkOpened("#" + link, "en"))
        assert opened.link_problems == ()
        assert opened.pinned is not None
        assert opened.pinned.scenario.config.trigger_tokens == 50_000
        assert opened.plan.scenario.config.trigger_tokens == 40_000
        assert render(opened).ab
        assert render(opened).fragment == link
        unpinned = reduce(opened, Unpinned())
        assert "pin" not in render(unpinned).fragment

    def test_an_experiment_link_keeps_its_before(self) -> None:
        state = reduce(fresh(), ExperimentRun("f_above_m"))
        opened = reduce(fresh(), LinkOpened("#" + render(state).fragment, "en"))
        assert state.pinned is not None
        assert opened.pinned is not None
        assert opened.pinned.as_dict() == state.pinned.as_dict()
        assert opened.plan.as_dict() == state.plan.as_dict()

    @pytest.mark.parametrize(
        ("lang", "said"),
        [
            (
                "en",
                "Trigger line K (config.trigger_tokens) appears more than once: the first "
                'value, "40000", is used and "50000" is not',
            ),
            (
                "zh",
                '触发线 K(config.trigger_tokens) 出现了不止一次:使用第一个值 "40000",'
                '未使用 "50000"',
            ),
        ],
    )
    def test_a_repeated_key_is_named_in_the_link_banner(self, lang: str, said: str) -> None:
        fragment = "#config.trigger_tokens=40000&config.trigger_tokens=50000"
        state = reduce(fresh(), LinkOpened(fragment, lang))
        assert state.plan.scenario.config.trigger_tokens == 40_000
        assert said in render(state).text["link-problems"]
        assert_consistent(state)

    def test_a_bad_pinned_value_is_named_as_the_pinned_plans(self) -> None:
        state = reduce(fresh(), LinkOpened("#pin=1&pin.config.trigger_tokens=8k", "en"))
        assert state.pinned is not None
        assert state.pinned.scenario.config.trigger_tokens == 32_000  # its default
        banner = render(state).text["link-problems"]
        assert "Pinned plan: Trigger line K (config.trigger_tokens) must be an integer" in banner

    @pytest.mark.parametrize("lang", ["en", "zh"])
    def test_each_link_problem_is_a_line_of_the_banner(self, lang: str) -> None:
        """The December walk: several problems read as one run-on paragraph."""
        link = "#config.trigger_tokens=8k&limits.lease_s=x&main_model.model=nope-1"
        state = reduce(fresh(), LinkOpened(link, lang))
        lines = render(state).text["link-problems"].split("\n")
        assert len(state.link_problems) == 3
        assert len(lines) == 1 + len(state.link_problems)
        assert all(line.startswith("• ") for line in lines[1:])

    @pytest.mark.parametrize(
        ("lang", "said"),
        [
            (
                "en",
                (
                    "Main model contract · Model from the registry (main_model.model) must name",
                    "Pinned plan: Summary model contract · Model from the registry "
                    "(summary_model.model) must name",
                    "Runtime (runtime) must be one of",
                    "Pin this plan (pin) must be 1",
                ),
            ),
            (
                "zh",
                (
                    "主模型合同 · 从模型注册表选择(main_model.model) 必须是",
                    "固定的方案:摘要模型合同 · 从模型注册表选择(summary_model.model) 必须是",
                    "运行时(runtime) 必须是以下之一",
                    "固定此方案(pin) 必须为 1",
                ),
            ),
        ],
    )
    def test_a_link_keys_problem_names_its_field_by_the_pages_label(
        self, lang: str, said: tuple[str, ...]
    ) -> None:
        """The eighth walk's leftovers (issue 42): a bad model in the link read
        '"main_model.model" must name a chat model', the link's key, where the guide
        promises "a clear error naming the field (as the user sees it)"."""
        link = "#main_model.model=nope&pin=2&pin.summary_model.model=zzz&runtime=vim"
        banner = render(reduce(fresh(), LinkOpened(link, lang))).text["link-problems"]
        for words in said:
            assert words in banner
        assert '"main_model.model"' not in banner


class TestImport:
    def test_replace_makes_the_file_the_whole_override_set(self) -> None:
        state = reduce(
            fresh(), ImportPreviewed("[config]\nsummary_max_tokens = 100000\n", "replace")
        )
        state = reduce(state, ImportApplied())
        assert state.plan.scenario.config.summary_max_tokens == 100_000
        state = reduce(state, ImportPreviewed("[config]\ntrigger_tokens = 40000\n", "replace"))
        preview = state.import_preview
        assert preview is not None
        assert ("config.summary_max_tokens", 100_000, 8_192) in preview.changes
        state = reduce(state, ImportApplied())
        assert state.plan.scenario.config.summary_max_tokens == 8_192
        assert state.plan.scenario.config.trigger_tokens == 40_000
        assert_consistent(state)

    def test_merge_keeps_what_the_file_does_not_set(self) -> None:
        state = reduce(fresh(), ImportPreviewed("[config]\nsummary_max_tokens = 100000\n", "merge"))
        state = reduce(state, ImportApplied())
        state = reduce(state, ImportPreviewed("[config]\ntrigger_tokens = 40000\n", "merge"))
        state = reduce(state, ImportApplied())
        assert state.plan.scenario.config.summary_max_tokens == 100_000
        assert state.plan.scenario.config.trigger_tokens == 40_000

    def test_preview_changes_nothing_until_applied(self) -> None:
        state = reduce(fresh(), ImportPreviewed("[config]\ntrigger_tokens = 40000\n", "merge"))
        assert state.plan.scenario == Scenario()
        assert "40,000" in render(state).html["import-result"]
        state = reduce(state, ImportCancelled())
        assert state.import_preview is None

    def test_s_above_o_is_warned(self) -> None:
        state = reduce(fresh(), ImportPreviewed("[config]\nsummary_max_tokens = 100000\n", "merge"))
        assert 'data-warning="s-above-o"' in render(state).html["import-result"]
        state = reduce(state, ImportApplied())
        assert "100,000" in render(state).html["warnings"]

    def test_a_file_that_sets_nothing_says_what_each_mode_does(self) -> None:
        nothing = "# reviewed: every setting at its default\n"
        merge = reduce(fresh(), ImportPreviewed(nothing, "merge"))
        assert "changes nothing" in render(merge).html["import-result"]
        replace = reduce(
            typed(fresh(), "config.trigger_tokens", "40000"), ImportPreviewed(nothing, "replace")
        )
        assert "back to its default" in render(replace).html["import-result"]

    def test_a_file_that_is_not_utf8_is_refused_by_its_first_bad_byte(self) -> None:
        """The browser's File.text() once turned the byte into U+FFFD and imported it."""
        state = typed(fresh(), "config.trigger_tokens", "40000")
        bad = reduce(state, ImportFileLoaded(b"[config]\ntrigger_tokens = 1 # \xff\n", "replace"))
        assert bad.import_preview is not None
        assert [p.code for p in bad.import_preview.problems] == ["utf8"]
        assert "byte" in render(bad).html["import-result"]
        assert reduce(bad, ImportApplied()).plan.scenario.config.trigger_tokens == 40_000
        good = reduce(
            state, ImportFileLoaded(b"\xef\xbb\xbf[config]\ntrigger_tokens = 5000\n", "merge")
        )
        assert good.import_text == "[config]\ntrigger_tokens = 5000\n"  # the box shows it
        assert (
            good.import_preview
            == reduce(
                state, ImportPreviewed("[config]\ntrigger_tokens = 5000\n", "merge")
            ).import_preview
        )

    @pytest.mark.parametrize("mode", ["merge", "replace"])
    @pytest.mark.parametrize("text", ["", "  \n\t"])
    def test_an_empty_box_previews_nothing_and_can_reset_nothing(
        self, mode: str, text: str
    ) -> None:
        """After a refused paste the box is empty: Preview once offered to reset every
        setting, as if the box held a file that sets nothing."""
        state = typed(fresh(), "config.trigger_tokens", "40000")
        preview = reduce(state, ImportPreviewed(text, mode))
        assert preview.import_preview is not None
        assert [p.code for p in preview.import_preview.problems] == ["import-empty"]
        html = render(preview).html["import-result"]
        assert "is empty" in html
        assert "back to its default" not in html
        applied = reduce(preview, ImportApplied())
        assert applied.plan.scenario.config.trigger_tokens == 40_000

    def test_a_bad_file_lists_every_problem_and_changes_nothing(self) -> None:
        state = reduce(
            fresh(),
            ImportPreviewed("[config]\ntrigger_tokens = -1\n[limits]\nlease_s = 0\n", "replace"),
        )
        assert state.plan.scenario == Scenario()
        assert state.import_preview is not None
        assert len(state.import_preview.problems) >= 2

    def test_the_exported_file_imports_back_to_the_same_plan(self) -> None:
        state = typed(fresh(), "config.trigger_tokens", "12345")
        state = typed(state, "limits.lease_s", "200")
        text = export_toml(state.plan.scenario)
        again = reduce(fresh(), ImportPreviewed(text, "replace"))
        again = reduce(again, ImportApplied())
        assert again.plan.scenario == state.plan.scenario
        assert parse_config(text)

    @pytest.mark.parametrize(
        ("lang", "said"),
        [
            ("en", "The config file has 1,000 more keys that are not supported overrides"),
            ("zh", "配置文件还有 1,000 个键不是受支持的覆盖项"),
        ],
    )
    def test_a_preview_of_many_unknown_keys_lists_a_few_and_counts_the_rest(
        self, lang: str, said: str
    ) -> None:
        """The eighth walk's leftovers (issue 42): a 1 MB TOML of unknown keys listed
        every one of its 68,148 problems (1.25 s in CPython, a 5.5 MB list)."""
        from budgetcore.scenario.overrides import MAX_KEY_PROBLEMS  # noqa: PLC0415

        text = "".join(f"x{i} = {i}\n" for i in range(MAX_KEY_PROBLEMS + 1_000))
        state = reduce(reduce(fresh(), LanguageChosen(lang)), ImportPreviewed(text, "replace"))
        preview = state.import_preview
        assert preview is not None
        assert len(preview.problems) == MAX_KEY_PROBLEMS + 1
        shown = render(state).html["import-result"]
        assert shown.count("<li") == MAX_KEY_PROBLEMS + 1
        assert said in shown


#: What a page may show that its link cannot carry, and the words the notice names it by.
_LEFT_ON_THE_PAGE = [
    (ExperimentRun("lower_s"), "outcome", "the experiment's result", "实验结果"),
    (SweepPathChosen("config.trigger_tokens"), "sweep", "the curves' swept input", "容量曲线"),
    (ExportFormatChosen("json"), "export_format", "the export's format", "导出格式"),
    (PeersUnitChosen("percent"), "peers_unit", "the peers chart's unit", "显示单位"),
]


@pytest.mark.parametrize(("event", "part", "en", "zh"), _LEFT_ON_THE_PAGE)
def test_a_copied_link_names_what_it_leaves_on_the_page(
    event: ExperimentRun | SweepPathChosen | ExportFormatChosen | PeersUnitChosen,
    part: str,
    en: str,
    zh: str,
) -> None:
    """The fourteenth walk (1440, both languages): after boundary experiment 2, "Copy
    link" said "Link copied." alone, and the link's page showed the pinned and current
    plans but no experiment, its statement or its ticks; so for the curves' input, the
    export's format and the peers' unit. The link carries the scenario, the pinned plan,
    the language and the runtime; the notice names what it leaves, as it did for the
    replay's log and turns."""
    shown = reduce(fresh(), event)
    link = reduce(fresh(), LinkOpened("#" + render(shown).fragment, "en"))
    assert getattr(link, part) != getattr(shown, part)  # the link's page lacks it
    copied = reduce(shown, Noticed("msg.link-copied"))
    assert en in render(copied).text["notice"]
    assert zh in render(reduce(copied, LanguageChosen("zh"))).text["notice"]
    assert render(reduce(fresh(), Noticed("msg.link-copied"))).text["notice"] == "Link copied."


def test_a_copied_link_names_tunes_constraints_among_what_it_leaves() -> None:
    shown = reduce(reduce(fresh(), TuneToggled(True)), TuneFieldTyped("tune.max_unseen", "1000"))
    notice = render(reduce(shown, Noticed("msg.link-copied"))).text["notice"]
    assert "Tune's constraints" in notice
    both = reduce(reduce(shown, ExportFormatChosen("json")), Noticed("msg.link-copied"))
    assert "Tune's constraints, the export's format" in render(both).text["notice"]


class TestReviewFlow:
    def test_pin_refused_while_stale_and_said(self) -> None:
        state = reduce(typed(fresh(), "config.trigger_tokens", "x"), Pinned())
        assert state.pinned is None
        assert render(state).text["notice"].startswith("Cannot pin")
        # Styled apart from a success (issue 42: the same green as "Link copied.").
        assert render(state).notice_kind == "refusal"
        assert render(reduce(fresh(), Pinned())).notice_kind == "done"
        assert render(reduce(fresh(), Noticed("msg.link-copied"))).notice_kind == "done"
        css = (Path(__file__).resolve().parents[1] / "web" / "style.css").read_text()
        assert '#notice[data-kind="refusal"]' in css
        # The shell writes the kind with the notice (ui.paint, the shell's one writer).
        assert ("#notice", "attr", "data-kind", "refusal") in main_ops(state, Painted())[0]

    def test_pin_then_edit_lists_the_inputs_that_differ(self) -> None:
        state = reduce(fresh(), Pinned())
        state = typed(state, "config.summary_max_tokens", "16384")
        view = render(state)
        assert view.ab
        assert 'data-differs="config.summary_max_tokens"' in view.html["ab-inputs"]
        assert view.ab_cells["summary_cap"] == ("8,192", "+8,192", "up")

    def test_the_comparison_names_both_plans_models(self) -> None:
        # Issue 42: the comparison never named the two models. A plan on a registry
        # model names it; one on a preset's contract names the preset as its picker
        # does (the walk of 6 December: "pinned custom → current custom" under a
        # picker reading "Article: 1,048,576 / 65,536, q = 1"); any other contract is
        # "custom".
        state = initial_state(Scenario(main_model_name=None))
        state = reduce(state, Pinned())
        view = render(typed(state, "config.summary_max_tokens", "16384"))
        article = "preset “Article: 1,048,576 / 65,536, q = 1”"
        assert f"Main model: pinned {article} → current {article}" in view.html["ab-inputs"]
        view = render(typed(state, "main_model.input_tokens", "1048577"))
        assert f"Main model: pinned {article} → current custom" in view.html["ab-inputs"]
        pinned = plan(Scenario(main_model_name="claude-sonnet-4-5"))
        from budgetcore.ui.main.view.readouts import differing_inputs  # noqa: PLC0415

        both = differing_inputs(pinned, plan(Scenario()), "zh")
        assert "主模型:固定 claude-sonnet-4-5 → 当前 预设“文章: 1,048,576 / 65,536, q = 1”" in both
        contract = ModelContract(input_tokens=100_000, output_tokens=8_000, reserves_output=True)
        hand = dataclasses.replace(Scenario(), main_model=contract)
        assert "→ 当前 自定义" in differing_inputs(pinned, plan(hand), "zh")

    @pytest.mark.parametrize("key", ["lower_k", "lower_s", "raise_i", "f_above_m"])
    def test_experiments_pin_before_and_show_after(self, key: str) -> None:
        state = reduce(fresh(), ExperimentRun(key))
        assert state.pinned is not None
        assert state.outcome.holds
        assert_consistent(state)

    def test_a_failed_experiment_says_why(self) -> None:
        own = reduce(fresh(), SummarySameToggled(False))
        small = typed(own, "summary_model.output_tokens", "4096")  # S can never be 8,192
        state = reduce(small, ExperimentRun("lower_s"))
        assert not state.outcome.holds
        html = render(state).html["experiment-result"]
        assert 'data-why="s-clamped"' in html
        assert "clamped" in html

    def test_reset_clears_everything_including_an_error(self) -> None:
        state = reduce(fresh(), Failed("KeyError: x"))
        assert render(state).text["status"]
        state = reduce(typed(state, "limits.lease_s", "1"), Pinned())
        state = reduce(state, Reset())
        assert state.plan.scenario == Scenario()
        assert not state.stale
        assert state.pinned is None
        assert render(state).text["status"] == ""

    def test_the_next_event_clears_an_error(self) -> None:
        state = reduce(fresh(), Failed("boom"))
        assert reduce(state, FieldTyped("config.trigger_tokens", "1")).error == ""


class TestSweep:
    def test_k_from_zero_is_accepted_and_drawn(self) -> None:
        state = reduce(fresh(), SweepPathChosen("config.trigger_tokens"))
        state = reduce(state, SweepBoundTyped("low", "0"))
        assert state.sweep.issue is None
        assert state.sweep.low == 0
        state = reduce(reduce(state, CurvesToggled(True)), JobStep("sweep"))
        svg = render_curves(state)
        assert 'data-current="32000"' in svg

    def test_bounds_follow_the_fields_rule_and_order(self) -> None:
        state = reduce(fresh(), SweepPathChosen("config.trigger_tokens"))
        bad = reduce(state, SweepBoundTyped("low", "8k"))
        assert render(bad).text["sweep-msg"].startswith("Sweep from must be a whole number")
        wrong = reduce(state, SweepBoundTyped("low", "10000000"))
        assert render(wrong).text["sweep-msg"].startswith("Sweep: 'from'")

    def test_a_bad_bound_is_named_and_marked_whichever_bound_was_typed_last(self) -> None:
        # The walk: from = -1, then to = 20000. The message quoted "-1" but named "to".
        state = reduce(fresh(), SweepPathChosen("config.trigger_tokens"))
        state = reduce(state, SweepBoundTyped("low", "-1"))
        state = reduce(state, SweepBoundTyped("high", "20000"))
        screen = render(state)
        assert screen.text["sweep-msg"].startswith("Sweep from must be a whole number")
        assert screen.text["sweep-msg"].endswith('got "-1"')
        assert "Sweep to" not in screen.text["sweep-msg"]
        assert screen.sweep_invalid == ("low",)
        state = reduce(state, SweepBoundTyped("low", "0"))
        assert render(state).sweep_invalid == ()
        assert render(state).text["sweep-msg"] == ""

    def test_both_bad_bounds_are_named_and_marked(self) -> None:
        state = reduce(fresh(), SweepPathChosen("config.trigger_tokens"))
        state = reduce(state, SweepBoundTyped("low", "x"))
        state = reduce(state, SweepBoundTyped("high", "y"))
        screen = render(state)
        assert screen.sweep_invalid == ("low", "high")
        assert screen.text["sweep-msg"].startswith("Sweep to must be")
        assert "Sweep from must be" in screen.text["sweep-msg"]
        # The walk of 6 December: the two sentences ran on with a bare space
        # ('… got "" Sweep from must be …'); they are a list, as every other.
        assert 'got "y"; Sweep from must be' in screen.text["sweep-msg"]
        zh = render(reduce(state, LanguageChosen("zh"))).text["sweep-msg"]
        assert '收到 "y"；' in zh, zh

    def test_bounds_out_of_order_mark_both_bounds(self) -> None:
        state = reduce(fresh(), SweepPathChosen("config.trigger_tokens"))
        state = reduce(state, SweepBoundTyped("high", "10"))
        assert render(state).sweep_invalid == ("low", "high")

    def test_margin_sweep(self) -> None:
        state = reduce(fresh(), SweepPathChosen("config.safety_margin"))
        assert state.sweep.low == Decimal(0)
        assert format_value("config.safety_margin", state.sweep.high) == "0.5"


def test_plans_equal_the_cli_plan() -> None:
    state = typed(fresh(), "workload.required_tokens", "900000")
    assert state.plan.as_dict() == plan(state.plan.scenario).as_dict()


def test_a_link_with_an_unknown_language_names_it_and_follows_the_browser() -> None:
    state = reduce(initial_state(), LinkOpened("#lang=xx&config.trigger_tokens=40000", "zh-CN"))
    assert state.lang == "zh"
    assert state.lang_chosen is False
    assert [p.code for p in state.link_problems] == ["link-lang"]
    assert state.plan.scenario.config.trigger_tokens == 40_000
    assert '"xx"' in render(state).text["link-problems"]
