"""A log import as the page's ``import`` job (issue 38): it starts with a pick, steps
with the browser's turn between steps, shows how far it is, is done when the panel
shows the sessions, and is cancelled by another pick or another turn source. Its
result is the one-shot read's (tests/property/test_ui_import_properties.py holds it
for any step)."""

from __future__ import annotations

import json

from budgetcore.ui.effects import Step
from budgetcore.ui.events import (
    FieldTyped,
    JobStep,
    ReplayLogsLoaded,
    ReplaySourceChosen,
    ReplayToggled,
    failed,
)
from budgetcore.ui.model import PageState
from budgetcore.ui.paint import Painted, panel_ops, step_paints_main
from budgetcore.ui.replay.imports import STEP_BYTES
from budgetcore.ui.replay.state import with_logs
from budgetcore.ui.update import initial_state, reduce, update


def _request(uuid: str, parent: str | None, tokens: int) -> dict[str, object]:
    return {
        "type": "assistant",
        "uuid": uuid,
        "parentUuid": parent,
        "sessionId": "s",
        "requestId": f"r-{uuid}",
        "timestamp": "2026-03-01T09:00:00.000Z",
        "message": {
            "id": f"m-{uuid}",
            "model": "claude-sonnet-4-5",
            "role": "assistant",
            "usage": {"input_tokens": tokens, "output_tokens": 5},
        },
    }


def _big_log(requests: int = 400, filler: int = 3_000) -> bytes:
    """A Claude Code log of ``requests`` requests with ``filler`` lines that are not
    requests between them: several import steps' worth (about 0.4 MB)."""
    lines: list[bytes] = []
    parent = None
    for i in range(requests):
        lines.append(json.dumps(_request(f"u{i}", parent, 1_000 + i)).encode() + b"\n")
        parent = f"u{i}"
        filler_line = b'{"type":"progress","data":{"type":"bash_progress","n":%d}}\n' % i
        lines += [filler_line] * (filler // requests)
    return b"".join(lines)


FILES = (("big.jsonl", _big_log()),)


def _log_panel() -> PageState:
    return reduce(reduce(initial_state(), ReplayToggled(True)), ReplaySourceChosen("log"))


def _status(state: PageState, painted: Painted) -> tuple[str | None, Painted]:
    """What the paint writes into the replay status now (None: nothing)."""
    ops, painted = panel_ops(state, painted, lambda: 640)
    texts = [value for sel, how, _, value in ops if sel == "#replay-status" and how == "text"]
    return (str(texts[-1]) if texts else None), painted


class TestImportJob:
    def test_a_pick_is_read_in_several_steps_showing_how_far(self) -> None:
        assert len(FILES[0][1]) > 4 * STEP_BYTES
        state = _log_panel()
        _, painted = panel_ops(state, Painted(), lambda: 640)
        state, effects = update(state, ReplayLogsLoaded(FILES))
        assert Step("import") in effects
        assert state.replay.logs == ()  # nothing shown before the import is done
        shown: list[str] = []
        steps = 0
        while state.importing is not None:
            assert "import" in state.scheduled
            assert not step_paints_main("import", state)
            state, effects = update(state, JobStep("import"))
            steps += 1
            text, painted = _status(state, painted)
            if text is not None:
                shown.append(text)
        assert steps >= len(FILES[0][1]) // STEP_BYTES  # a step reads about STEP_BYTES
        assert sum("Reading the log" in s for s in shown) >= 3
        assert shown[-1] == ""  # done: the screen's own status (the progress is gone)
        assert step_paints_main("import", state)  # the last step: the log's model
        assert "replay" in state.scheduled  # the replay of the sessions read is next
        assert state.replay.logs == with_logs(_log_panel().replay, FILES).logs
        log = state.replay.log
        assert log is not None
        assert len(log.main.requests) == 400
        assert log.ledger[0].lines == log.ledger[0].accounted == 400 + 400 * 7

    def test_what_is_typed_between_steps_applies_at_once(self) -> None:
        state = reduce(_log_panel(), FieldTyped("config.trigger_tokens", "30,000"))
        state, _ = update(state, ReplayLogsLoaded(FILES))
        state, _ = update(state, JobStep("import"))
        state, _ = update(state, FieldTyped("config.trigger_tokens", "40,000"))
        assert state.texts["config.trigger_tokens"] == "40,000"
        assert state.importing is not None  # and the import goes on
        while state.importing is not None:
            state, _ = update(state, JobStep("import"))
        assert state.texts["config.trigger_tokens"] == "40,000"
        assert state.replay.log is not None

    def test_another_turn_source_cancels_the_import_mid_way(self) -> None:
        before = reduce(_log_panel(), ReplayLogsLoaded((("a.jsonl", _big_log(3, 3)),)))
        state, _ = update(before, ReplayLogsLoaded(FILES))
        state, _ = update(state, JobStep("import"))
        assert state.importing is not None
        state, _ = update(state, ReplaySourceChosen("generate"))
        assert state.importing is None
        after, effects = update(state, JobStep("import"))  # the step asked before: nothing
        assert after.importing is None
        assert Step("import") not in effects
        assert after.replay.logs == before.replay.logs  # the log shown before stays

    def test_another_pick_replaces_the_import_under_way(self) -> None:
        state, _ = update(_log_panel(), ReplayLogsLoaded(FILES))
        state, _ = update(state, JobStep("import"))
        other = (("small.jsonl", _big_log(3, 3)),)
        state, _ = update(state, ReplayLogsLoaded(other))
        while state.importing is not None:
            state, _ = update(state, JobStep("import"))
        assert [item.name for item in state.replay.logs] == ["small.jsonl"]
        log = state.replay.log
        assert log is not None
        assert len(log.main.requests) == 3

    def test_a_step_that_failed_ends_the_import_said(self) -> None:
        state, _ = update(_log_panel(), ReplayLogsLoaded(FILES))
        state, _ = update(state, failed(RuntimeError("a reader's bug")))
        assert state.importing is None
        assert "a reader's bug" in state.error
        state, effects = update(state, JobStep("import"))
        assert effects == ()

    def test_reduce_reads_an_import_to_its_end(self) -> None:
        state = reduce(_log_panel(), ReplayLogsLoaded(FILES))
        assert state.importing is None
        assert state.replay.logs == with_logs(_log_panel().replay, FILES).logs
