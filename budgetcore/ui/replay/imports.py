"""A log import as the page's ``import`` job (docs/page.md, "Effects and jobs").

The files' sessions are read by the same generator as an import at once
(:func:`budgetcore.ui.replay.state.import_steps`), a step of about :data:`STEP_BYTES`
at a time: the shell gives the browser its turn between steps, as for every job, so a
large log never holds the tab, and what is typed meanwhile applies at once. The job
*starts* with a pick of files (:func:`start`), *steps* (:func:`step`), is *done* when
the generator returns the sessions (the panel then shows them), and is *cancelled* by
dropping it (another pick, another turn source): nothing it read is kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from budgetcore.replay.logs.reader import STEP_BYTES

if TYPE_CHECKING:
    from budgetcore.ui.replay.state import Imported, ImportSteps

__all__ = ["STEP_BYTES", "LogImport", "start", "step"]


@dataclass(frozen=True, slots=True, eq=False)
class LogImport:
    """An import under way: its steps, the bytes it reads in all, and how far it is.

    ``steps`` is the one moving part of the page's model: a step advances it, so a
    state is stepped once (update sends each JobStep once) and an import that is
    dropped is never resumed. Compared by identity, like the replay's run."""

    steps: ImportSteps[Imported]
    total: int  # bytes of every file picked
    done: int = 0  # bytes read so far


def start(
    files: tuple[tuple[str, bytes], ...],
    step_bytes: int = STEP_BYTES,
    *,
    picked_folder: bool = False,
) -> LogImport:
    """The import of ``files`` (name, bytes), nothing read yet; ``picked_folder``: they
    are a folder's (state.import_steps)."""
    from budgetcore.ui.replay.state import import_steps  # noqa: PLC0415 - with a pick

    steps = import_steps(files, step_bytes, picked_folder=picked_folder)
    return LogImport(steps, sum(len(data) for _, data in files))


def step(job: LogImport, budget: int = STEP_BYTES) -> LogImport | Imported:
    """Read on until ``budget`` more bytes are read (the readers stop only between
    their batches, so a step may read a batch more): the job further on, or what the
    import read once it is done."""
    done = job.done
    try:
        while done - job.done < budget:
            done = next(job.steps)
    except StopIteration as end:
        imported: Imported = end.value
        return imported
    return LogImport(job.steps, job.total, done)
