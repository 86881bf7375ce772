"""What the page asks its shell to do: small frozen values, never done here.

:func:`budgetcore.ui.update.update` returns the next state and a tuple of effects; the
browser shell (``web/main.py``) runs them in one loop, and whatever comes back (a job's
next step, a loaded package, a notice's end) reaches the page as an event like any
other. This is Elm's ``update : Msg -> Model -> (Model, Cmd Msg)`` (the Elm guide,
``book/effects``): the page describes the work, the runtime performs it, and a CPython
test sees every decision as a value.

The jobs (:data:`JOBS`) are the page's slow work: each runs as steps, and the shell
gives the browser its turn (input, paint) before each :class:`Step`, the same way for
all of them (``budgetcore.ui.update``, "jobs and effects").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from budgetcore.ui.events import Event

__all__ = [
    "JOBS",
    "MEASURES",
    "NOTICE_MS",
    "ClearNotice",
    "Copy",
    "CopyLink",
    "Download",
    "Effect",
    "LoadPackage",
    "Step",
]

#: The page's jobs, in the order their steps are asked for (ui.update's _JOBS: what
#: each does): a log import first, since the replay and Tune wait for its sessions.
JOBS = ("import", "replay", "tune", "sweep", "export")

#: The User Timing measure of each job's step and the redraw it causes, in the page
#: (scripts/bench reads them; the export's has none).
MEASURES = {
    "import": "budgetcore:import-step",
    "replay": "budgetcore:replay",
    "tune": "budgetcore:tune-slice",
    "sweep": "budgetcore:sweep",
}

#: How long a notice ("Copied") stays before it clears itself, in milliseconds.
NOTICE_MS = 4000


@dataclass(frozen=True, slots=True)
class Step:
    """Send ``JobStep(job)`` once the browser has had its turn (a frame or a timeout,
    the same for every job): at most one is waiting per job (``PageState.scheduled``)."""

    job: str


@dataclass(frozen=True, slots=True)
class Download:
    """Offer ``body`` as a file named ``filename`` (the reviewed config)."""

    body: str
    filename: str
    mime: str


@dataclass(frozen=True, slots=True)
class Copy:
    """Put ``text`` on the clipboard."""

    text: str


@dataclass(frozen=True, slots=True)
class CopyLink:
    """Put the page's address on the clipboard (the address is the shell's to read:
    the fragment is the state's, the rest is wherever the page is served)."""


@dataclass(frozen=True, slots=True)
class ClearNotice:
    """Send ``NoticeExpired(key)`` after ``ms``: the notice clears unless another came."""

    key: str
    ms: int = NOTICE_MS


@dataclass(frozen=True, slots=True)
class LoadPackage:
    """Load the Pyodide package ``name`` (e.g. ``sqlite3``, which Pyodide ships apart
    from its standard library), then send ``then``; a failure sends ``Failed``. CPython
    has them all: its shell sends ``then`` at once."""

    name: str
    then: Event


Effect = Step | Download | Copy | CopyLink | ClearNotice | LoadPackage
