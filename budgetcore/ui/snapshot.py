"""What the page's memory snapshot holds (``web/snapshot.js``): the modules ``main.py``
imports, warmed by painting the first screen once at the pre-render width.

A snapshot is the interpreter's memory after :func:`prepare`; a repeat visit restores
it instead of starting Python and importing these modules again. Nothing here may touch
JavaScript (a snapshot can only hold what it can name), so the shell's own imports
(``pyscript``, ``pyodide.ffi``) stay in ``main.py``.
"""

from __future__ import annotations

__all__ = ["prepare"]


def prepare() -> None:
    """Import what ``main.py`` imports and render the first screen once, so the memoised
    plan stages and the compiled paths of the first paint are in the snapshot too."""
    import json  # noqa: F401, PLC0415

    import budgetcore  # noqa: F401, PLC0415
    from budgetcore.ui import render, state  # noqa: F401, PLC0415
    from budgetcore.ui.form import FIELDS  # noqa: F401, PLC0415
    from budgetcore.ui.messages import t  # noqa: F401, PLC0415
    from budgetcore.ui.prerender import first_screen  # noqa: PLC0415

    first_screen()
    render.shell_html()
