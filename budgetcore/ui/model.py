"""The page's model: ``PageState`` and its parts, frozen values replaced by ``update``.

Everything the page shows is derived from one ``PageState``; :mod:`budgetcore.ui.update`
is the only way to a new one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from budgetcore.core.plan import Plan
from budgetcore.errors import Problem
from budgetcore.ui.export.state import ImportPreview
from budgetcore.ui.main.state import SweepState
from budgetcore.ui.picker import PICKER_MIN_CHARS, PICKER_SECTIONS, PICKER_SHOWN, PickerState
from budgetcore.ui.replay.state import (
    ReplayPanel,
    initial_panel,
)
from budgetcore.ui.tune.state import TunePanel, initial_tune

if TYPE_CHECKING:  # the registry and the peers load after the page is ready
    from budgetcore.explore.experiments import Outcome
    from budgetcore.registry.models import Registry
    from budgetcore.registry.peers import Peer
    from budgetcore.ui.markup import Markup
    from budgetcore.ui.replay.imports import LogImport

__all__ = [
    "PICKER_MIN_CHARS",
    "PICKER_SECTIONS",
    "PICKER_SHOWN",
    "PageState",
    "PickerState",
]


def _no_pickers() -> dict[str, PickerState]:
    return {s: PickerState() for s in PICKER_SECTIONS}


@dataclass(frozen=True, slots=True)
class PageState:
    """Everything the page shows. Replaced, never changed, by :func:`reduce`."""

    plan: Plan  # the plan of the last valid scenario (stale while issues exist)
    texts: Mapping[str, str]  # what every field shows, by path
    values: Mapping[str, object]  # the last valid value of every field
    field_issues: Mapping[str, Problem] = field(default_factory=dict)  # typed text problems
    cross_issues: tuple[Problem, ...] = ()  # broken cross-key rules (valid fields only)
    summary_same: bool = True
    samples_text: str = ""
    # The pasted samples, frozen once (ui.main.validate.frozen_lines: SampleLines): the
    # pasted JSON's values, so Any.
    sample_lines: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    sample_problems: tuple[Problem, ...] = ()
    lang: str = "en"
    lang_chosen: bool = False  # kept in the link once the user picks a language
    link_problems: tuple[Problem, ...] = ()
    pinned: Plan | None = None
    outcome: Outcome | None = None  # the last experiment's
    sweep: SweepState = field(default_factory=SweepState)
    import_preview: ImportPreview | None = None
    import_text: str = ""  # the import box, kept so Reset and a repaint agree with it
    import_file: str = ""  # the file picked beside it ("": none; the paint empties it)
    export_format: str = "toml"
    export_runtime: str = "article"  # the runtime picker (ui.export.runtime)
    notice: str = ""  # a transient catalogue key ("msg.copied", ...)
    # What a copied link leaves on the page (catalogue keys), named in its notice.
    notice_items: tuple[str, ...] = ()
    error: str = ""  # an unexpected failure, shown instead of a traceback
    width: int = 640  # the chart column's width in CSS pixels
    # The full-width panels' inner width (replay, Tune: they run across both columns on a
    # wide screen); 0 until the shell measures it, then their charts fill it.
    panel_width: int = 0
    registry: Registry | None = None  # the model registry, once loaded (after ready)
    peers: tuple[Peer, ...] | None = None  # the peers' rules, loaded with the registry
    # Today's date (YYYY-MM-DD) as the shell's clock gave it with the registry; "" while
    # unknown. A deprecation date on or before it is marked as past.
    today: str = ""
    pickers: Mapping[str, PickerState] = field(default_factory=_no_pickers)
    peers_unit: str = "tokens"  # the peers chart's axis: "tokens" or "percent" of W
    replay: ReplayPanel = field(default_factory=initial_panel)  # the session replay panel
    # A log import under way (the "import" job, ui.replay.imports); None: none. The
    # replay panel shows the sessions it read once it is done.
    importing: LogImport | None = field(default=None, compare=False)
    tune: TunePanel = field(default_factory=initial_tune)  # the Tune panel (ui.tune.state)
    # The jobs whose next step the shell was asked for (a Step effect) and has not sent
    # yet: one waits per job, however many events came meanwhile (ui.effects.Step).
    scheduled: frozenset[str] = field(default=frozenset(), compare=False)
    # The export job's result: (what it was made from, the file, its diff's markup);
    # None until the first step, after the page is ready (ui.update, "export").
    export: tuple[object, str, Markup] | None = field(default=None, compare=False)

    @property
    def issues(self) -> tuple[Problem, ...]:
        return (*self.field_issues.values(), *self.cross_issues)

    @property
    def stale(self) -> bool:
        return bool(self.field_issues or self.cross_issues)
