"""The page's events: one small frozen value per way something reaches the page.

Events compare by type and value, never as bare tuples: ``Pinned() != Reset()`` and
``FieldTyped("a", "b") != PickerTyped("a", "b")``. They are built on :class:`Event`, a
slotless base whose one generic ``__init__`` takes the annotated fields in order (so
defining the 50 classes costs less at boot than NamedTuples, and far less than
dataclasses, which compile an ``__init__`` per class); type checkers read them as
frozen dataclasses (``dataclass_transform``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, dataclass_transform

if TYPE_CHECKING:  # the registry and the peers load after the page is ready
    from budgetcore.registry.models import Registry
    from budgetcore.registry.peers import Peer

__all__ = [
    "ActionClicked",
    "AnyEvent",
    "CurvesToggled",
    "EngineDrops",
    "Event",
    "ExampleSamples",
    "ExperimentRun",
    "ExportFormatChosen",
    "ExportRuntimeChosen",
    "Failed",
    "FieldCommitted",
    "FieldNudged",
    "FieldTyped",
    "FileRefused",
    "ImportApplied",
    "ImportCancelled",
    "ImportFileChosen",
    "ImportFileLoaded",
    "ImportPreviewed",
    "ImportTyped",
    "JobStep",
    "LanguageChosen",
    "LinkOpened",
    "ModelChosen",
    "ModelDataLoaded",
    "NoticeExpired",
    "Noticed",
    "PeersUnitChosen",
    "PickerClosed",
    "PickerEntered",
    "PickerMoved",
    "PickerTyped",
    "Pinned",
    "PresetChosen",
    "ReplayFieldTyped",
    "ReplayFilesChosen",
    "ReplayLogChosen",
    "ReplayLogLoaded",
    "ReplayLogModelToggled",
    "ReplayLogsLoaded",
    "ReplayPointed",
    "ReplayScrubbed",
    "ReplaySourceChosen",
    "ReplayToggled",
    "ReplayTurnsTyped",
    "Reset",
    "Resized",
    "SamplesTyped",
    "SliderMoved",
    "SummarySameToggled",
    "SweepBoundTyped",
    "SweepPathChosen",
    "TextRefused",
    "Toggled",
    "TuneFieldTyped",
    "TunePointChosen",
    "TunePointFocused",
    "TuneToggled",
    "Unpinned",
    "failed",
]


@dataclass_transform(frozen_default=True)
class Event:
    """A frozen value whose fields are its class's annotations, in order; defaults are
    class attributes. Equal only to an event of the same type with equal fields."""

    _fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._fields = (*cls._fields, *cls.__annotations__)
        cls.__match_args__ = cls._fields  # type: ignore[attr-defined,misc]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self._fields
        if len(args) > len(names):
            msg = f"{type(self).__name__} takes {len(names)} values; got {len(args)}"
            raise TypeError(msg)
        values = dict(zip(names, args, strict=False))
        for name, value in kwargs.items():
            if name not in names or name in values:
                msg = f"{type(self).__name__}: unexpected or repeated value {name!r}"
                raise TypeError(msg)
            values[name] = value
        missing = [n for n in names if n not in values and not hasattr(type(self), n)]
        if missing:
            msg = f"{type(self).__name__} needs {', '.join(missing)}"
            raise TypeError(msg)
        set_ = object.__setattr__
        for name, value in values.items():
            set_(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        msg = f"{type(self).__name__} is frozen"
        raise AttributeError(msg)

    def __delattr__(self, name: str) -> None:
        msg = f"{type(self).__name__} is frozen"
        raise AttributeError(msg)

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, n) for n in self._fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Event)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._fields)
        return f"{type(self).__name__}({inner})"


class FieldTyped(Event):
    path: str
    text: str


class FieldCommitted(Event):
    path: str  # the field lost focus: a valid value is shown in its canonical form


class SliderMoved(Event):
    path: str
    position: int


class FieldNudged(Event):
    path: str
    steps: int  # +1 ArrowUp, -1 ArrowDown, ×10 with Shift


class Toggled(Event):
    path: str  # a bool field
    checked: bool


class SummarySameToggled(Event):
    checked: bool


class PresetChosen(Event):
    key: str


class EngineDrops(Event):
    """No data: the event is its type."""


class LinkOpened(Event):
    fragment: str
    browser_lang: str = "en"


class LanguageChosen(Event):
    lang: str


class SamplesTyped(Event):
    text: str


class ExampleSamples(Event):
    """No data: the event is its type."""


class ExportFormatChosen(Event):
    fmt: str


class ExportRuntimeChosen(Event):
    runtime: str  # a runtimes.RUNTIME_NAMES name; "article" is the reviewed config


class ImportTyped(Event):
    text: str


class ImportPreviewed(Event):
    text: str
    mode: str  # "replace" or "merge"


class ImportFileChosen(Event):
    """A config file picked in the Export panel's file box, before it is read: named
    beside the box in the page's language (the browser's own "No file chosen" is in
    the browser's)."""

    name: str


class ImportFileLoaded(Event):
    """A config file's bytes, as read: decoded by the one strict UTF-8 rule in update
    (the browser's own File.text() puts U+FFFD for a bad byte, silently)."""

    data: bytes
    mode: str  # "replace" or "merge"


class ImportApplied(Event):
    """No data: the event is its type."""


class ImportCancelled(Event):
    """No data: the event is its type."""


class ExperimentRun(Event):
    key: str


class Pinned(Event):
    """No data: the event is its type."""


class Unpinned(Event):
    """No data: the event is its type."""


class Reset(Event):
    """No data: the event is its type."""


class SweepPathChosen(Event):
    path: str


class SweepBoundTyped(Event):
    which: str  # "low" or "high"
    text: str


class CurvesToggled(Event):
    open: bool


class Noticed(Event):
    key: str  # a catalogue key, e.g. "msg.copied"; "" clears it


class Resized(Event):
    width: int
    panel_width: int = 0  # a full-width panel's inner width (0: not measured)


class Failed(Event):
    detail: str  # an unexpected exception, as the shell caught it


class ModelDataLoaded(Event):
    registry: Registry  # the shell parses the shipped data after "ready"
    peers: tuple[Peer, ...]
    today: str = ""  # the shell's date, YYYY-MM-DD (the core reads no clock); "": unknown


class PickerTyped(Event):
    section: str  # main_model or summary_model
    text: str


class PickerMoved(Event):
    section: str
    steps: int  # +1 ArrowDown, -1 ArrowUp


class PickerEntered(Event):
    section: str  # Enter: choose the highlighted option


class PickerClosed(Event):
    section: str  # Escape, or focus left the picker


class ModelChosen(Event):
    section: str
    name: str  # a registry model name (an option clicked)


class PeersUnitChosen(Event):
    unit: str  # "tokens" or "percent"


class ReplayToggled(Event):
    open: bool


class ReplaySourceChosen(Event):
    source: str  # "generate", "turns" or "log"


class ReplayFieldTyped(Event):
    path: str  # a replay field ("replay.turns", ...)
    text: str


class ReplayTurnsTyped(Event):
    text: str  # JSON Lines turns, pasted


class ReplayLogLoaded(Event):
    text: str  # the file's text: parsed at once, never kept
    name: str


class FileRefused(Event):
    what: str  # "config" (the import's file) or "page-log": a key of inputs.text.SIZE_LIMITS
    name: str
    size: int | None = None  # its bytes (File.size), when the shell knows them


class TextRefused(Event):
    """A paste box's text above its limit, refused by its length before the shell read
    it into Python (a textarea's textLength: UTF-16 code units, never more than its
    UTF-8 bytes)."""

    what: str  # "config" (the import box), "samples" or "page-turns" (SIZE_LIMITS keys)
    length: int


class ReplayFilesChosen(Event):
    """Files picked in the replay's file or folder box, before they are read: the
    status beside the box names them in the page's language (the browser's own "No
    file chosen" is in the browser's)."""

    box: str  # the input's id: "replay-file" or "replay-folder"
    names: tuple[str, ...]  # each file's name (a folder's: its path in the folder)


class ReplayLogsLoaded(Event):
    files: tuple[tuple[str, bytes], ...]  # (path in the folder or file name, bytes)


class ReplayLogChosen(Event):
    session: int  # the session the charts replay (its index in the import)


class ReplayLogModelToggled(Event):
    on: bool  # the scenario takes the log's main model (its I and O, and its prices)


class ReplayScrubbed(Event):
    turn: int


class ReplayPointed(Event):
    x: int  # pointer position in the plot, CSS px from its left edge
    plot_width: int
    turns: int


class JobStep(Event):
    """One step of a job (``ui.effects.JOBS``): the shell sends it for a ``Step`` effect
    once the browser has had its turn; the job's work is done here, never in a view."""

    job: str  # "replay", "tune", "sweep" or "export"


class NoticeExpired(Event):
    key: str  # the notice a ClearNotice effect was for: cleared unless another came


class ActionClicked(Event):
    action: str  # a button the page answers with an effect: "download", "copy", ...


class TuneToggled(Event):
    open: bool  # the Tune panel (docs/tune.md): nothing is computed while it is closed


class TuneFieldTyped(Event):
    path: str  # a constraint field ("tune.max_unseen", ...)
    text: str


class TunePointFocused(Event):
    cell: int  # the point focused or hovered (its exact values are shown)
    hover: bool = False  # the pointer: shows the values, leaves the tab stop where it is


class TunePointChosen(Event):
    k: int  # a cell clicked (or Enter on it), or the chosen point's button
    s: int


AnyEvent = (
    FieldTyped
    | FieldCommitted
    | SliderMoved
    | FieldNudged
    | Toggled
    | SummarySameToggled
    | PresetChosen
    | EngineDrops
    | LinkOpened
    | LanguageChosen
    | SamplesTyped
    | ExampleSamples
    | ExportFormatChosen
    | ExportRuntimeChosen
    | ImportTyped
    | ImportPreviewed
    | ImportApplied
    | ImportCancelled
    | ExperimentRun
    | Pinned
    | Unpinned
    | Reset
    | SweepPathChosen
    | SweepBoundTyped
    | CurvesToggled
    | Noticed
    | Resized
    | ReplayToggled
    | ReplaySourceChosen
    | ReplayFieldTyped
    | ReplayTurnsTyped
    | ReplayLogLoaded
    | FileRefused
    | TextRefused
    | ReplayFilesChosen
    | ReplayLogsLoaded
    | ReplayLogChosen
    | ReplayLogModelToggled
    | ReplayScrubbed
    | ReplayPointed
    | JobStep
    | NoticeExpired
    | ActionClicked
    | Failed
    | ModelDataLoaded
    | PickerTyped
    | PickerMoved
    | PickerEntered
    | PickerClosed
    | ModelChosen
    | PeersUnitChosen
    | TuneToggled
    | TuneFieldTyped
    | TunePointFocused
    | TunePointChosen
)


def failed(exc: BaseException) -> Failed:
    """The one translation of an unexpected exception the shell caught into the event
    that shows it (never a traceback, never a half-updated state)."""
    return Failed(f"{type(exc).__name__}: {exc}")
