"""What the page's memory snapshot holds besides main.py's imports (scripts/snapshot.mjs
makes it at build time): the shell's boot, run once per language at the pre-render
width, so that its first-use costs are paid at build time and not in the reader's
browser.

Measured in Node on the snapshot: the shell's first state, link and main paint took
362 + 230 ms the first time and 17 + 20 ms the second (lazy imports inside the
handlers and views, the message catalogue, memoised plan stages). The registry and the
peers are parsed here too (both ``functools.cache``'d): the page's "after ready" task
then finds them. Everything here is a pure function of values (the same wheel's data,
no clock, no JavaScript), so what it leaves behind is what the page would compute.
"""

from __future__ import annotations

import ast
from types import CodeType
from typing import Any

__all__ = ["keep_main", "prepare", "run_main"]

#: web/main.py compiled at build time, by its source (compiling it took 0.3 s in the
#: page): the page runs the code of the source it loaded, compiled here or then.
_COMPILED: dict[str, CodeType] = {}

#: Bound on the job steps followed per language (the export's few steps at boot).
_MAX_STEPS = 64


def prepare() -> None:
    """Run the shell's boot (``web/main.py``: the first state, the link, the main and
    panel paints, the jobs' steps it schedules, the model data after ready) once per
    language, discarding the results: the memos and lazy imports stay."""
    from budgetcore.registry.models import default_registry  # noqa: PLC0415
    from budgetcore.registry.peers import default_peers  # noqa: PLC0415
    from budgetcore.ui import effects as fx  # noqa: PLC0415
    from budgetcore.ui import events as E  # noqa: PLC0415
    from budgetcore.ui.main.view.shell import shell_html  # noqa: PLC0415
    from budgetcore.ui.paint import Painted, main_ops, panel_ops  # noqa: PLC0415
    from budgetcore.ui.update import (  # noqa: PLC0415
        PRERENDER_WIDTH,
        first_state,
        initial_state,
        update,
    )

    shell_html()
    registry, peers = default_registry(), default_peers()
    # Its rows are made on first use (a replay looks up a few): here, for the pickers.
    len(registry.rows)
    for lang in ("en", "zh"):
        first_state(lang=lang)
        state, effects = update(initial_state(width=PRERENDER_WIDTH), E.LinkOpened("", lang))
        painted = Painted()
        for event in (None, E.ModelDataLoaded(registry, peers, "")):
            if event is not None:
                state, effects = update(state, event)
            _ops, painted = main_ops(state, painted)
            _ops, painted = panel_ops(state, painted, lambda: PRERENDER_WIDTH)
            steps = [e.job for e in effects if isinstance(e, fx.Step)]
            for _ in range(_MAX_STEPS):
                if not steps:
                    break
                state, effects = update(state, E.JobStep(steps.pop(0)))
                _ops, painted = panel_ops(state, painted, lambda: PRERENDER_WIDTH)
                steps += [e.job for e in effects if isinstance(e, fx.Step)]


def _compile(source: str) -> CodeType:
    # As Pyodide's runPythonAsync compiles: a top-level await is allowed.
    code: CodeType = compile(source, "main.py", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    return code


def keep_main(source: str) -> None:
    """Compile ``web/main.py`` at build time, into the snapshot."""
    _COMPILED[source] = _compile(source)


def run_main(source: str) -> Any:
    """Run ``source`` (the page's main.py) as the page's ``__main__``, from the code the
    build compiled when it is that source; the coroutine of a top-level await, if any,
    for the caller to await."""
    import __main__  # noqa: PLC0415 - the interpreter's, as main.py's globals

    code = _COMPILED.get(source) or _compile(source)
    return eval(code, vars(__main__))  # the page's own main.py, never input
