"""``tune``'s sessions from logs (``--log``: a file with its subagents, a folder, a
database of sessions) and, with no scenario, a log's own scenario."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from budgetcore.cli.tune_cmds.grid import options_read
from budgetcore.cli.tune_cmds.runners import Task
from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem, ScenarioError
from budgetcore.replay.model import ReplayOptions

if TYPE_CHECKING:
    from budgetcore.replay.logs.log_model import LogModel


def _database_tasks(
    path: str,
    shown: str,
    fmt: str | None,
    series: str | None,
    tasks: list[Task],
    *,
    models: list[LogModel] | None = None,
    group: int | None = None,
) -> bool:
    """An agent's database (OpenCode's opencode.db) holds many sessions: each is a task
    of its own, its turns read here (and, into ``models`` where given, each one's model:
    a folder's own scenario), in the import ``group`` (``runners.Task.group``). False
    when ``path`` is not a database."""
    from budgetcore.cli.replay_cmds import _is_database, read_log_sessions  # noqa: PLC0415

    if not _is_database(path):
        return False
    try:
        logs = read_log_sessions(path, fmt, shown)
    except ScenarioError:
        # A database that cannot be read (no agent's, damaged, no session in it): a
        # session of the folder not replayed, named with why by its task (read again
        # where it runs), as any other file of the folder; never the whole tune's end.
        tasks.append(Task(shown, files=(path,), fmt=fmt, series=series, group=group))
        return True
    for log in logs:
        if not log.series or log.totals_only:
            # No request to replay: its task says why (a totals-only session, as any
            # other agent's), never a tune of no session that names none.
            tasks.append(Task(log.name, fmt=fmt, series=series, log=log, group=group))
            continue
        log.pick(series)  # a series the session lacks is refused here, as before
        # The session itself, not its turns alone: it is tuned on its as-run baseline
        # with every point a what-if (spec §17), as a file's session and the page's
        # Tune are (the fourteenth walk: a database's sessions had no backtest here).
        tasks.append(Task(log.name, fmt=fmt, series=series, log=log, group=group))
        if models is not None:
            models.append(_model_of(log))
    return True


def _model_of(log: Any) -> LogModel:
    from budgetcore.replay.asrun import window_of  # noqa: PLC0415
    from budgetcore.replay.logs.session import log_model  # noqa: PLC0415

    return log_model(log, window=window_of(log))  # the runtime's window (spec §17)


def one_folder(args: argparse.Namespace) -> bool:
    """The sessions are one --log folder's alone: with no scenario, its model's."""
    logs = args.log or []
    return len(logs) == 1 and os.path.isdir(logs[0]) and not args.turns and not args.generate


#: The models a refusal names, most sessions first (the rest as one count): a rule is
#: cut at 240 characters (``cli.shell``).
_MODELS_SAID = 3


def _folder_scenario(
    args: argparse.Namespace, tasks: list[Task], models: list[LogModel]
) -> tuple[Scenario, ReplayOptions | None, bytes | None]:
    """No scenario, one folder: the one model its sessions ran (with its runtime's
    window), as one file's own model stands in (docs/tune.md, "Scenario"). ``models``
    holds the database sessions' (read with their turns); every other session is read
    here once for it, and again where its task runs. A session that cannot be read, is
    totals only or names no model has no say: its task says what it is. Sessions that
    ran two models (or one at two windows) need a scenario: the refusal names them."""
    from budgetcore.cli.replay_cmds import read_log_path  # noqa: PLC0415
    from budgetcore.cli.shell import Unreadable  # noqa: PLC0415
    from budgetcore.replay.logs.session import priced_by  # noqa: PLC0415

    found = list(models)
    for task in tasks:
        if task.turns is not None or not task.files:
            continue  # a database's session: its model is in ``models``
        try:
            log = read_log_path(task.files[0], task.fmt, files=list(task.files))
        except (ScenarioError, Unreadable):
            continue
        if not log.totals_only and log.series:
            found.append(_model_of(log))
    seen: dict[tuple[str, int | None], tuple[LogModel, int]] = {}
    for model in found:
        if model.logged is None:
            continue
        assert model.resolution is not None
        key = (model.resolution.matched or model.logged, model.runtime_window)
        first, count = seen.get(key, (model, 0))
        seen[key] = (first, count + 1)
    if len(seen) > 1:
        names = [name for name, _ in seen]
        ranked = sorted(seen.items(), key=lambda kv: -kv[1][1])
        ran = ", ".join(
            f"{name}{'' if names.count(name) == 1 or w is None else f' W={w:,}'} ×{n:,}"
            for (name, w), (_, n) in ranked[:_MODELS_SAID]
        )
        if len(ranked) > _MODELS_SAID:
            ran += f", … ×{sum(n for _, (_, n) in ranked[_MODELS_SAID:]):,}"
        raise ScenarioError(
            [Problem.coded("scenario", "scenario-required-models", count=f"{len(seen):,}", ran=ran)]
        )
    options, text = options_read(args)
    if not seen:
        from budgetcore.replay.logs.log_model import LogModel  # noqa: PLC0415

        return LogModel(None, None).scenario, options, text
    model, _ = next(iter(seen.values()))
    return model.scenario, priced_by(model, options), text


def _log_scenario(
    args: argparse.Namespace, fmt: str | None
) -> tuple[Scenario, ReplayOptions | None, Any, bytes | None]:
    """No scenario: one log file's own model (and its prices), as ``replay --log``, and
    the log as read (standard input or a pipe gives its bytes once: its task replays
    this read, never a second one that would find it empty), and the --options text."""
    from budgetcore.cli.replay_cmds import read_log_shown  # noqa: PLC0415
    from budgetcore.replay.logs.session import log_model, priced_by  # noqa: PLC0415

    logs = args.log or []
    if len(logs) != 1 or args.turns or args.generate:
        raise ScenarioError([Problem.coded("scenario", "scenario-required-log")])
    log = read_log_shown(logs[0], fmt)
    from budgetcore.replay.asrun import window_of  # noqa: PLC0415

    model = log_model(log, window=window_of(log))  # the runtime's window (spec §17)
    options, text = options_read(args)
    return model.scenario, priced_by(model, options), log, text
