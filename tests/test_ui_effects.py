"""The page's effects, jobs and DOM operations: what ``update`` asks the shell to do,
how a job starts, steps, finishes and is cancelled, and what the shell writes
(``ui.paint``), all seen in CPython (issue 38: no decision only the browser sees)."""

from __future__ import annotations

from budgetcore.ui.effects import JOBS, ClearNotice, Copy, CopyLink, Download, Step
from budgetcore.ui.events import (
    ActionClicked,
    CurvesToggled,
    FieldTyped,
    JobStep,
    LanguageChosen,
    NoticeExpired,
    Pinned,
    ReplayToggled,
    SweepBoundTyped,
    TuneToggled,
)
from budgetcore.ui.export.view import render_export
from budgetcore.ui.model import PageState
from budgetcore.ui.paint import OP_KINDS, Painted, main_ops, panel_ops
from budgetcore.ui.update import initial_state, reduce, update


def _run(state: PageState, event: object) -> tuple[PageState, list[object]]:
    """``update`` and then every job step it asks for, as the shell would run them:
    the state once nothing is pending, and every effect seen on the way."""
    state, effects = update(state, event)  # type: ignore[arg-type]
    seen: list[object] = list(effects)
    queue = [e.job for e in effects if isinstance(e, Step)]
    while queue:
        state, effects = update(state, JobStep(queue.pop(0)))
        seen += effects
        queue += [e.job for e in effects if isinstance(e, Step)]
    return state, seen


class TestJobs:
    def test_an_open_replay_is_one_step_asked_once_however_many_events(self) -> None:
        state, effects = update(initial_state(), ReplayToggled(True))
        assert Step("replay") in effects
        assert "replay" in state.scheduled
        # a second change before the step ran asks for no second step
        state, effects = update(state, FieldTyped("config.trigger_tokens", "30,000"))
        assert Step("replay") not in effects
        state, effects = update(state, JobStep("replay"))
        assert state.replay.run is not None
        assert state.replay.run.result is not None
        assert "replay" not in state.scheduled
        assert Step("replay") not in effects  # done: the run is for these inputs

    def test_a_change_of_its_inputs_starts_the_job_again(self) -> None:
        state, _ = _run(initial_state(), ReplayToggled(True))
        first = state.replay.run
        state, effects = update(state, FieldTyped("config.trigger_tokens", "30,000"))
        assert Step("replay") in effects
        state, _ = update(state, JobStep("replay"))
        assert state.replay.run is not first
        assert state.replay.run is not None
        assert state.replay.run.scenario == state.plan.scenario

    def test_a_closed_panel_cancels_the_waiting_step(self) -> None:
        state, _ = update(initial_state(), ReplayToggled(True))
        closed, _ = update(state, ReplayToggled(False))
        after, effects = update(closed, JobStep("replay"))
        assert after.replay.run is None
        assert effects == ()

    def test_the_tune_grid_runs_in_several_steps_until_done(self) -> None:
        state, _ = _run(initial_state(), ReplayToggled(True))
        state, seen = _run(state, TuneToggled(True))
        steps = [e for e in seen if e == Step("tune")]
        assert len(steps) > 1  # slices, the browser's turn between each
        job = state.tune.job
        assert job is not None
        assert job.finished
        assert "tune" not in state.scheduled

    def test_the_sweep_is_computed_by_its_job_never_by_the_view(self) -> None:
        state, effects = update(initial_state(), CurvesToggled(True))
        assert Step("sweep") in effects
        assert state.sweep.curves is None
        state, _ = update(state, JobStep("sweep"))
        assert state.sweep.curves is not None
        # new bounds: the curves are computed again
        state, effects = update(state, SweepBoundTyped("high", "60,000"))
        assert Step("sweep") in effects

    def test_the_export_is_a_job_whose_text_is_the_export_panels(self) -> None:
        state, _ = _run(initial_state(), FieldTyped("config.trigger_tokens", "30,000"))
        assert state.export is not None
        assert state.export[1] == render_export(state)[0]

    def test_every_job_is_listed_and_a_step_of_an_unknown_job_changes_nothing(self) -> None:
        assert JOBS == ("import", "replay", "tune", "sweep", "export")
        state = initial_state()
        assert reduce(state, JobStep("nothing")) is state


class TestEffects:
    def test_copy_puts_the_export_on_the_clipboard_and_says_so(self) -> None:
        state, effects = update(initial_state(), ActionClicked("copy"))
        assert state.notice == "msg.copied"
        assert Copy(render_export(state)[0]) in effects
        assert ClearNotice("msg.copied") in effects

    def test_copy_link_leaves_the_address_to_the_shell(self) -> None:
        state, effects = update(initial_state(), ActionClicked("copy-link"))
        assert CopyLink() in effects
        assert state.notice.startswith("msg.link-copied")

    def test_download_offers_the_reviewed_config_in_the_chosen_format(self) -> None:
        _state, effects = update(initial_state(), ActionClicked("download"))
        (download,) = [e for e in effects if isinstance(e, Download)]
        assert download.filename == "budgetcore-overrides.toml"
        assert download.mime == "application/toml"
        assert download.body == render_export(initial_state())[0]

    def test_with_a_runtime_picked_both_downloads_are_its_own_file(self) -> None:
        # Issue 39: the export and the Tune panel's chosen point are saved as the picked
        # runtime's own file (Codex: config.toml), never as budgetcore-overrides.
        from budgetcore.ui.events import ExportRuntimeChosen, ReplayFieldTyped  # noqa: PLC0415

        state = reduce(initial_state(), ExportRuntimeChosen("codex"))
        state = reduce(state, ReplayFieldTyped("replay.turns", "40"))
        state = reduce(state, TuneToggled(True))
        while (after := reduce(state, JobStep("tune"))) is not state:
            state = after
        for action in ("download", "tune-download"):
            _state, effects = update(state, ActionClicked(action))
            (download,) = [e for e in effects if isinstance(e, Download)]
            assert download.filename == "codex-settings.toml", action
            assert download.mime == "application/toml"
            assert "model_auto_compact_token_limit" in download.body

    def test_a_notice_clears_itself_unless_another_came(self) -> None:
        state, effects = update(
            reduce(initial_state(), FieldTyped("config.trigger_tokens", "x")), Pinned()
        )
        assert ClearNotice(state.notice) in effects
        assert reduce(state, NoticeExpired(state.notice)).notice == ""
        assert reduce(state, NoticeExpired("msg.copied")).notice == state.notice


class TestPaint:
    def test_every_operation_is_of_a_known_kind(self) -> None:
        state, _ = _run(initial_state(), ReplayToggled(True))
        ops, painted = main_ops(state, Painted())
        more, _ = panel_ops(state, painted, lambda: 600)
        assert {op[1] for op in ops + more} <= set(OP_KINDS)

    def test_an_unchanged_screen_writes_no_field_readout_or_region_again(self) -> None:
        state = initial_state()
        _ops, painted = main_ops(state, Painted())
        again, _ = main_ops(state, painted)
        assert not [op for op in again if op[1] in ("html", "text", "i18n")]

    def test_a_typed_value_writes_its_field_and_the_readouts_it_moves(self) -> None:
        state = initial_state()
        _ops, painted = main_ops(state, Painted())
        typed = reduce(state, FieldTyped("config.trigger_tokens", "30,000"))
        ops, _ = main_ops(typed, painted)
        assert ('[data-input="config.trigger_tokens"]', "value", "value", "30,000") in ops
        assert ('[data-key="trigger_tokens"]', "text", "", "30,000") in ops
        assert ("", "url", "", "config.trigger_tokens=30000") in ops

    def test_a_new_language_translates_every_catalogue_text(self) -> None:
        state = initial_state()
        _ops, painted = main_ops(state, Painted())
        ops, _ = main_ops(reduce(state, LanguageChosen("zh")), painted)
        assert ("[data-i18n]", "i18n", "data-i18n", "zh") in ops
        assert ("html", "prop", "lang", "zh-CN") in ops

    def test_a_panel_is_drawn_once_per_change_and_its_controls_once(self) -> None:
        state, _ = _run(initial_state(), ReplayToggled(True))
        ops, painted = panel_ops(state, Painted(), lambda: 600)
        assert ("#replay-fields", "html") in [op[:2] for op in ops]
        again, painted = panel_ops(state, painted, lambda: 600)
        assert again == []
        moved, _ = _run(state, FieldTyped("config.trigger_tokens", "30,000"))
        ops, _ = panel_ops(moved, painted, lambda: 600)
        assert ops
        assert ("#replay-fields", "html") not in [op[:2] for op in ops]

    def test_the_curves_box_is_measured_only_to_draw(self) -> None:
        measured: list[int] = []

        def width() -> int:
            measured.append(1)
            return 500

        state, _ = _run(initial_state(), CurvesToggled(True))
        ops, painted = panel_ops(state, Painted(), width)
        assert ("#curves-out", "html") in [op[:2] for op in ops]
        panel_ops(state, painted, width)
        assert len(measured) == 1

    def test_a_tune_cell_in_hand_keeps_the_focus_when_the_maps_are_rewritten(self) -> None:
        state, _ = _run(initial_state(), ReplayToggled(True))
        state, _ = _run(state, TuneToggled(True))
        ops, _ = panel_ops(state, Painted(), lambda: 600, held=("cost", "3"))
        assert ops[-1] == ('[data-tune-map="cost"] [data-tune-cell="3"]', "focus", "", None)

    def test_a_session_chosen_from_the_keyboard_keeps_the_focus(self) -> None:
        """The eleventh walk, keyboard only: Enter on a session of the sessions table
        chose it and rewrote the table, and the focus fell to the page's body (the next
        Tab went back to the table's first session, whatever was chosen)."""
        from pathlib import Path  # noqa: PLC0415

        from budgetcore.ui.events import (  # noqa: PLC0415
            ReplayLogChosen,
            ReplayLogsLoaded,
            ReplaySourceChosen,
        )
        from tests.helpers import picked_folder  # noqa: PLC0415

        logs = Path(__file__).resolve().parent / "fixtures" / "logs" / "pi" / "malformed-line"
        state, _ = _run(initial_state(), ReplayToggled(True))
        state, _ = _run(state, ReplaySourceChosen("log"))
        state, _ = _run(state, ReplayLogsLoaded(picked_folder(logs)))
        _ops, painted = panel_ops(state, Painted(), lambda: 600)
        state, _ = _run(state, ReplayLogChosen(1))
        ops, painted = panel_ops(state, painted, lambda: 600, session="1")
        log = [i for i, op in enumerate(ops) if op[0] == "#replay-log"]  # html or a patch
        focus = ops.index(('[data-replay-session="1"]', "focus", "", None))
        assert log
        assert log[0] < focus
        # Nothing rewritten, nothing focused: a keystroke elsewhere keeps its place.
        again, _ = panel_ops(state, painted, lambda: 600, session="1")
        assert again == []


class TestShellWiring:
    def test_every_listener_is_a_handler_of_the_shell_on_an_element_of_the_page(self) -> None:
        import ast  # noqa: PLC0415
        from pathlib import Path  # noqa: PLC0415

        from budgetcore.ui.dom import LISTENERS  # noqa: PLC0415

        root = Path(__file__).resolve().parents[1]
        tree = ast.parse((root / "web" / "main.py").read_text(encoding="utf-8"))
        (shell,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Shell"]
        methods = {
            n.name for n in shell.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        page = (root / "web" / "index.html").read_text(encoding="utf-8")
        for selector, kind, handler in LISTENERS:
            assert handler in methods, (selector, kind, handler)
            if selector != "window":
                assert f'id="{selector.removeprefix("#")}"' in page, selector

    def test_the_shell_stays_a_shell(self) -> None:
        from pathlib import Path  # noqa: PLC0415

        main = Path(__file__).resolve().parents[1] / "web" / "main.py"
        assert len(main.read_text(encoding="utf-8").splitlines()) <= 450  # issue 38
