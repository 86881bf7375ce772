"""``tune``'s sessions from logs (``--log``: a file with its subagents, a folder, a
database of sessions) and, with no scenario, a log's own scenario."""

from __future__ import annotations

import argparse
import os
from typing import Any

from budgetcore.cli.tune_cmds.grid import options_read
from budgetcore.cli.tune_cmds.runners import Task
from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem, ScenarioError
from budgetcore.replay.model import ReplayOptions


def _database_tasks(
    path: str, shown: str, fmt: str | None, series: str | None, tasks: list[Task]
) -> bool:
    """An agent's database (OpenCode's opencode.db) holds many sessions: each is a task
    of its own, its turns read here. False when ``path`` is not a database."""
    from budgetcore.cli.replay_cmds import _is_database, read_log_sessions  # noqa: PLC0415

    if not _is_database(path):
        return False
    try:
        logs = read_log_sessions(path, fmt, shown)
    except ScenarioError:
        # A database that cannot be read (no agent's, damaged, no session in it): a
        # session of the folder not replayed, named with why by its task (read again
        # where it runs), as any other file of the folder; never the whole tune's end.
        tasks.append(Task(shown, files=(path,), fmt=fmt, series=series))
        return True
    for log in logs:
        if not log.series or log.totals_only:
            continue  # no request to replay (replay --log lists and measures it)
        chosen = log.pick(series)
        tasks.append(Task(log.name, turns=chosen.turns()))
    return True


def _log_scenario(
    args: argparse.Namespace, fmt: str | None
) -> tuple[Scenario, ReplayOptions | None, Any, bytes | None]:
    """No scenario: one log file's own model (and its prices), as ``replay --log``, and
    the log as read (standard input or a pipe gives its bytes once: its task replays
    this read, never a second one that would find it empty), and the --options text."""
    from budgetcore.cli.replay_cmds import read_log_shown  # noqa: PLC0415
    from budgetcore.replay.logs.session import log_model, priced_by  # noqa: PLC0415

    logs = args.log or []
    if len(logs) != 1 or os.path.isdir(logs[0]) or args.turns or args.generate:
        raise ScenarioError([Problem.coded("scenario", "scenario-required-log")])
    log = read_log_shown(logs[0], fmt)
    from budgetcore.replay.asrun import window_of  # noqa: PLC0415

    model = log_model(log, window=window_of(log))  # the runtime's window (spec §17)
    options, text = options_read(args)
    return model.scenario, priced_by(model, options), log, text
