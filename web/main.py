"""DOM glue for the controller page: DOM events in, ``update`` and ``render``, DOM out.

Everything that decides, validates or formats lives in ``budgetcore.ui`` (tested in
CPython). This file turns DOM events into events, runs the effects ``update`` returns
(``budgetcore.ui.effects``: a job's next step, a download, a copy, a timer), and writes
what changed since the last screen.
"""

import asyncio
import gc
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from pyodide.ffi import can_run_sync, create_once_callable, create_proxy, run_sync, to_js
from pyscript import document, window

# User Timing marks: boot phases show up in DevTools and in scripts/bench.
window.performance.mark("budgetcore:main-start")

from budgetcore import ScenarioError, parse_scenario_json, plan  # noqa: E402 - after the mark
from budgetcore.messages import t  # noqa: E402
from budgetcore.ui import dom  # noqa: E402
from budgetcore.ui.dom import Target  # noqa: E402
from budgetcore.ui.effects import (  # noqa: E402
    ClearNotice,
    Copy,
    CopyLink,
    Download,
    Effect,
    LoadPackage,
    Step,
)
from budgetcore.ui.events import (  # noqa: E402
    ActionClicked,
    Event,
    ImportFileLoaded,
    JobStep,
    LinkOpened,
    ModelDataLoaded,
    NoticeExpired,
    ReplayLogsLoaded,
    ReplayPointed,
    Resized,
    failed,
)
from budgetcore.ui.form import FIELDS  # noqa: E402
from budgetcore.ui.update import first_state, initial_state, update  # noqa: E402
from budgetcore.ui.view.config import export_key, render_export  # noqa: E402
from budgetcore.ui.view.peers import render_peers  # noqa: E402
from budgetcore.ui.view.screen import curves_key, render, render_curves  # noqa: E402
from budgetcore.ui.view.shell import language_html, shell_html  # noqa: E402
from budgetcore.ui.view.types import Screen  # noqa: E402

if TYPE_CHECKING:
    from budgetcore.ui.model import PageState

window.performance.mark("budgetcore:imported")
#: The longest an import reads before the browser gets a frame (input, paint, progress).
SLICE_MS = 12
#: Each job's step as scripts/bench reads it (a step and the redraw it causes).
MEASURES = {
    "replay": "budgetcore:replay",
    "tune": "budgetcore:tune-slice",
    "sweep": "budgetcore:sweep",
}


def target_of(element: Any) -> Target:
    """What ``budgetcore.ui.dom`` reads off a DOM element: its data-* attributes, value,
    checked state and input type (a missing property raises AttributeError in Pyodide)."""
    attrs = {}
    for js_name in element.getAttributeNames():
        name = str(js_name)
        if name.startswith("data-"):
            attrs[name] = str(element.getAttribute(name))
    limit = dom.text_limit(attrs)
    if limit is not None:
        # A paste box: its length first (a number; the text stays in the page), and
        # its text only when within its limit (reading it copies the whole text).
        length = int(element.textLength)
        return Target(
            attrs, str(element.value) if length <= limit else "", False, "textarea", length
        )
    value = getattr(element, "value", None)
    kind = str(getattr(element, "type", "") or "")
    return Target(
        attrs, "" if value is None else str(value), bool(getattr(element, "checked", False)), kind
    )


def q(selector: str) -> Any:
    return document.querySelector(selector)


def later(ms: int, run: Any) -> Any:
    return window.setTimeout(create_once_callable(run), ms)


def js(value: dict[str, Any]) -> Any:
    return to_js(value, dict_converter=window.Object.fromEntries)


def write_html(regions: Mapping[str, str]) -> None:
    """``innerHTML`` of each element (by id): markup built by budgetcore.ui.markup, escaped."""
    for rid, markup in regions.items():
        q(f"#{rid}").innerHTML = markup


class Regions(Protocol):
    """A screen's regions: markup and text by element id (the page's or a panel's)."""

    @property
    def html(self) -> Mapping[str, str]: ...

    @property
    def text(self) -> Mapping[str, str]: ...


def write_regions(screen: Regions, last: Regions | None) -> None:
    """Write each region (by element id) whose markup or text changed since ``last``."""
    write_html({r: m for r, m in screen.html.items() if last is None or last.html.get(r) != m})
    for rid, text in screen.text.items():
        if last is None or last.text.get(rid) != text:
            q(f"#{rid}").textContent = text


def write_fields(kind: str, screen: Any, last: Any) -> None:
    """A panel's field messages (and the red outline), then its values, where changed."""
    for path, message in screen.field_messages.items():
        if last is not None and last.field_messages.get(path) == message:
            continue  # each DOM call crosses into JavaScript: skip what did not change
        node, box = q(f'[data-{kind}-msg="{path}"]'), q(f'[data-{kind}-input="{path}"]')
        if node and node.textContent != message:
            node.textContent = message
        if box:
            box.setAttribute("aria-invalid", "true") if message else box.removeAttribute(
                "aria-invalid"
            )
    for path, value in getattr(screen, "values", {}).items():
        box = q(f'[data-{kind}-input="{path}"]')
        if (last is not None and last.values.get(path) == value) or not box:
            continue
        if box.type == "checkbox":
            box.checked = value == "true"
        elif box.value != value:
            box.value = value


def settle_gc() -> None:
    """Keep the cycle collector off the input path once the page's long-lived data is in.

    The registry and the peers (tens of thousands of objects, alive as long as the page)
    were walked by every full collection, and a 500-turn redraw set one off every few
    inputs (10-30 ms pauses). Freezing takes what is alive now out of later collections;
    a higher threshold lets a redraw's temporaries die by reference count first.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000)


class Shell:
    def __init__(self) -> None:
        root = document.documentElement
        lang = "zh" if root.lang == "zh-CN" else "en"
        q("#boot-stage").textContent = t("boot.drawing", lang)
        state = initial_state(width=self.box_width("#chart-funnel"))
        link = LinkOpened(str(window.location.hash), str(window.navigator.language))
        self.state, effects = update(state, link)
        # The build pre-rendered render(first_state(lang=...)): when that is this state
        # (no fragment, the page's language, desktop width), the page shows what the
        # first paint would write, and nothing is written; adopt() renders the screen to
        # diff the next paint against. Else: the shell's markup and a full first paint.
        self.taking_over = root.hasAttribute("data-prerendered") and self.state == first_state(
            lang=lang
        )
        if not self.taking_over:
            write_html(shell_html())
        self.inputs = {p: q(f'[data-input="{p}"]') for p in FIELDS}
        self.sliders = {
            p: q(f'[data-slider="{p}"]')
            for p in FIELDS
            if FIELDS[p].kind not in ("bool", "average")
        }
        self.msgs = {p: q(f'[data-msg="{p}"]') for p in FIELDS}
        self.cells = {
            (attr, str(e.getAttribute(attr))): e
            for attr in (
                "data-key",
                "data-key-summary",
                "data-lamp",
                "data-key-a",
                "data-key-delta",
            )
            for e in document.querySelectorAll(f"[{attr}]")
        }
        if window.matchMedia("(min-width: 1000px)").matches:
            # Folded on a phone, where results come first; open beside them on a desktop.
            for node in document.querySelectorAll("details[data-fold]"):
                node.open = True
        # The one record of the shell's own: what each region was last written from (a
        # screen to diff against, or a panel's key), the paste boxes' texts as written
        # or sent (None: unknown, write it), the notice's timer, and the events sent
        # while an import gives the browser its turn (None: no import).
        self.last: Screen | None = None
        self.lang: str | None = None
        self.written: dict[str, Any] = {}
        self.boxes_seen: dict[str, str | None] = {}
        self.notice_timer: Any = None
        self.waiting: list[Event] | None = None
        self.tasks: set[Any] = set()  # the packages loading (held until they are in)
        if not self.taking_over:
            self.paint()
        self.run(effects)

    def adopt(self) -> None:
        """The screen a taken-over page shows (see __init__), rendered once the page is
        ready, with nothing written: the next paint writes only what changed from it."""
        if self.taking_over and self.last is None:  # else a paint came first and did it
            self.last = render(self.state)
            self.lang = self.last.lang

    def box_width(self, selector: str) -> int:
        # Charts draw at their box's real width (12 px text at any width): its inner
        # width, without its padding.
        box = q(selector)
        style = window.getComputedStyle(box)
        pad = window.parseFloat(style.paddingLeft) + window.parseFloat(style.paddingRight)
        width = int(box.clientWidth - pad)
        return width if width > 0 else 640

    # ---------------------------------------------------------------- events and effects
    def dispatch(self, event: Event | None, main: bool = True) -> None:
        """Replace the state with update's and run its effects; a failure changes
        nothing but the message that says so. During an import that gives the browser
        its turn (read_logs), an event waits for the import's state. ``main``: False for
        an event that changes only the Tune panel (a cell hovered), which alone is drawn."""
        if event is None:
            return
        if self.waiting is not None:
            self.waiting.append(event)
            return
        self.apply(event, main)

    def apply(self, event: Event, main: bool = True) -> None:
        try:
            self.state, effects = update(self.state, event)
        except Exception as exc:  # never a traceback, never a half-updated state
            self.state, effects = update(self.state, failed(exc))
        try:
            self.paint() if main or self.state.error else self.paint_panels()
        except Exception as exc:
            detail = f"{type(exc).__name__}: {exc}"
            q("#status").textContent = t("problem.internal", self.state.lang, detail=detail)
        self.run(effects)

    def run(self, effects: tuple[Effect, ...]) -> None:
        """Each effect, as update described it (Elm's commands)."""
        for effect in effects:
            if isinstance(effect, Step):  # after the browser's turn, the same for every job
                later(0, lambda job=effect.job: self.step(job))
            elif isinstance(effect, ClearNotice):
                if self.notice_timer is not None:
                    window.clearTimeout(self.notice_timer)
                self.notice_timer = later(
                    effect.ms, lambda key=effect.key: self.dispatch(NoticeExpired(key))
                )
            elif isinstance(effect, Copy | CopyLink):
                text = effect.text if isinstance(effect, Copy) else str(window.location.href)
                window.navigator.clipboard.writeText(text)
            elif isinstance(effect, Download):
                blob = window.Blob.new([effect.body], js({"type": effect.mime}))
                url = window.URL.createObjectURL(blob)
                link = document.createElement("a")
                link.href, link.download = url, effect.filename
                link.click()
                later(1000, lambda url=url: window.URL.revokeObjectURL(url))
            elif isinstance(effect, LoadPackage):
                self.tasks.add(asyncio.ensure_future(self.load_package(effect)))

    async def load_package(self, effect: LoadPackage) -> None:
        try:
            import pyodide_js  # noqa: PLC0415 - the browser's Pyodide, on demand

            await pyodide_js.loadPackage(effect.name)
        except Exception as exc:  # a package the page cannot load: said, never a traceback
            self.dispatch(failed(exc))
            return
        self.dispatch(effect.then)

    def step(self, job: str) -> None:
        perf = window.performance
        perf.mark(f"budgetcore:{job}-step")
        self.dispatch(JobStep(job), main=False)  # a job's work shows in its panel
        # scripts/bench reads these: a step and its redraw, and the moment the grid is
        # finished (no further step of it waits).
        if job in MEASURES:
            perf.measure(MEASURES[job], f"budgetcore:{job}-step")
        if job == "tune" and "tune" not in self.state.scheduled:
            perf.mark("budgetcore:tune-done")

    # ---------------------------------------------------------------- painting
    def paint(self) -> None:
        screen = render(self.state)
        last = self.last
        if screen.lang != self.lang:
            root, lang = document.documentElement, screen.lang
            root.lang = "zh-CN" if lang == "zh" else "en"
            q("#lang").value = lang
            for node in document.querySelectorAll("[data-i18n]"):
                node.textContent = t(node.getAttribute("data-i18n"), lang)
            for node in document.querySelectorAll("[data-i18n-aria]"):
                node.setAttribute("aria-label", t(node.getAttribute("data-i18n-aria"), lang))
            write_html(language_html(lang))
            self.lang, last = lang, None  # every text below is in the new language
        for node in (q("#app"), q("#results")):
            node.dataset.stale = "true" if screen.stale else "false"
            node.dataset.ab = "on" if screen.ab else "off"
        self.paint_fields(screen, last)
        q('[data-toggle="summary_model"]').checked = screen.summary_same
        q("#summary-fields").hidden = screen.summary_same
        q("#preset").value = screen.preset
        for node in document.querySelectorAll("[data-peers-unit]"):
            node.checked = node.value == screen.peers_unit
        q('[data-action="unpin"]').disabled = not screen.ab
        if not screen.stale:
            cells = self.cells
            for key, (text, value) in screen.readouts.items():
                for cell in (cells.get(("data-key", key)), cells.get(("data-key-summary", key))):
                    if cell is not None and cell.textContent != text:
                        cell.textContent = text
                    if cell is not None and value is not None:
                        cell.dataset.value = value
                lamp = cells.get(("data-lamp", key))
                if lamp is not None and value is not None:
                    lamp.dataset.value = value
            for key, (a, delta, sign) in screen.ab_cells.items():
                cells["data-key-a", key].textContent = a
                cells["data-key-delta", key].textContent = delta
                cells["data-key-delta", key].dataset.sign = sign
        write_regions(screen, last)
        self.paint_pickers(screen)  # after the lists above are written
        if screen.text["notice"] and (last is None or last.text["notice"] != screen.text["notice"]):
            q("#notice").dataset.kind = screen.notice_kind  # a refusal is styled apart
        for rid, value in screen.boxes.items():
            # What the box holds is what was written or what it sent: never read back
            # (reading a box copies its whole text into Python on every paint).
            if self.boxes_seen.get(rid) != value:
                q(f"#{rid}").value = value
                self.boxes_seen[rid] = value
        for key, text in screen.key_ab.items():
            q(f'[data-key-ab="{key}"]').textContent = text
        path, low, high = screen.sweep
        for which, value in (("path", path), ("low", low), ("high", high)):
            node = q(f"#sweep-{which}")
            if node.value != value:
                node.value = value
            if which in screen.sweep_invalid:  # the red outline the main fields get
                node.setAttribute("aria-invalid", "true")
            elif which != "path":
                node.removeAttribute("aria-invalid")
        self.last = screen
        self.paint_panels()
        url = f"#{screen.fragment}" if screen.fragment else window.location.pathname
        if str(window.location.hash) != (f"#{screen.fragment}" if screen.fragment else ""):
            window.history.replaceState(None, "", url)

    def paint_fields(self, screen: Screen, last: Screen | None) -> None:
        for path, view in screen.fields.items():
            if last is not None and last.fields[path] == view:
                continue
            node = self.inputs[path]
            if FIELDS[path].kind == "bool":
                node.checked = view.text == "true"
            elif node.value != view.text:
                node.value = view.text
            msg = self.msgs[path]
            if msg.textContent != view.message:
                msg.textContent = view.message  # text, never HTML: it quotes what was typed
            node.setAttribute("aria-invalid", "true") if view.message else node.removeAttribute(
                "aria-invalid"
            )
            slider = self.sliders.get(path)
            if slider is not None:
                slider.value = str(view.slider)
                slider.setAttribute("aria-valuetext", view.valuetext)
                slider.dataset.empty = "true" if view.empty else "false"

    def paint_pickers(self, screen: Screen) -> None:
        for section, view in screen.pickers.items():
            node = q(f'[data-picker="{section}"]')
            if node.value != view.query:
                node.value = view.query
            node.setAttribute("aria-expanded", "true" if view.expanded else "false")
            if view.active_id:
                node.setAttribute("aria-activedescendant", view.active_id)
            else:
                node.removeAttribute("aria-activedescendant")
            q(f"#picker-{section}-list").hidden = not view.expanded
            option = q(f"#{view.active_id}") if view.active_id else None
            if option:  # JsNull is falsy
                option.scrollIntoView(js({"block": "nearest"}))

    def changed(self, region: str, key: object) -> bool:
        """Whether ``region`` is to be drawn again: its key (from budgetcore.ui) moved."""
        if self.written.get(region, self) == key:
            return False
        self.written[region] = key
        return True

    def paint_panels(self) -> None:
        """The panels drawn apart from the main screen, each when its key changed: the
        peers, the export (once the page is ready), the curves, the replay and Tune."""
        state = self.state
        markup = render_peers(state)
        if self.changed("peers", markup):
            q("#peers-out").innerHTML = markup  # ours, escaped
        if "export" in self.written and self.changed("export", export_key(state)):
            body, diff = render_export(state)
            q("#export-text").textContent = body
            q("#export-diff").innerHTML = diff  # ours, escaped
        curves = curves_key(state)
        if curves is not None and self.changed("curves", (curves, state.width)):
            width = self.box_width("#curves-out")
            q("#curves-out").innerHTML = render_curves(state, width)  # ours, escaped
        if state.replay.open:
            self.paint_replay(state)
        if state.tune.open:
            self.paint_tune(state)

    def first_controls(self, region: str, markup: str) -> bool:
        """A panel's controls, written the first time it is drawn (translated)."""
        if region in self.written:
            return False
        q(f"#{region}").innerHTML = markup  # ours, escaped
        for node in q(f"#{region}").querySelectorAll("[data-i18n]"):
            node.textContent = t(node.getAttribute("data-i18n"), self.state.lang)
        return True

    def paint_replay(self, state: "PageState") -> None:
        from budgetcore.ui import replay_view as RV  # noqa: PLC0415 - with the panel, not on boot

        if not self.changed("replay", RV.screen_key(state)):
            return
        perf = window.performance
        perf.mark("budgetcore:replay-start")
        if self.first_controls("replay-fields", RV.replay_controls_html()):
            self.written["replay-source"] = None  # new nodes: show the chosen source's part
        screen = RV.render_replay(state)
        perf.measure("budgetcore:replay-python", "budgetcore:replay-start")
        last = self.written.get("replay-screen")
        write_regions(screen, last)
        write_fields("replay", screen, last)
        if self.changed("replay-source", state.replay.source):
            for node in document.querySelectorAll("[data-replay-part]"):
                node.hidden = node.getAttribute("data-replay-part") != state.replay.source
        turns, turn, valuetext = screen.scrub
        scrub = q("#replay-scrub")
        scrub.max, scrub.value = str(turns), str(turn)
        scrub.setAttribute("aria-valuetext", valuetext)
        self.written["replay-screen"] = screen

    def paint_tune(self, state: "PageState") -> None:
        from budgetcore.ui import tune_view as TV  # noqa: PLC0415 - with the panel, not on boot

        if not self.changed("tune", TV.screen_key(state)):
            return
        perf = window.performance
        perf.mark("budgetcore:tune-start")
        self.first_controls("tune-fields", TV.tune_controls_html())
        screen = TV.render_tune(state)
        last = self.written.get("tune-screen")
        # A cell in hand keeps focus when the maps are written again (its own point moved).
        active = document.activeElement
        held = None
        if active and active.hasAttribute("data-tune-cell"):
            grid = active.closest("[data-tune-map]").getAttribute("data-tune-map")
            cell = active.getAttribute("data-tune-cell")
            held = f'[data-tune-map="{grid}"] [data-tune-cell="{cell}"]'
        write_regions(screen, last)
        write_fields("tune", screen, last)
        done, total = screen.progress
        bar = q("#tune-progress")
        bar.hidden, bar.max, bar.value = total == 0, str(max(total, 1)), str(done)
        for node in q("#tune-maps").querySelectorAll('[data-tune-cell][tabindex="0"]'):
            node.setAttribute("tabindex", "-1")
        for node in q("#tune-maps").querySelectorAll(f'[data-tune-cell="{screen.focus}"]'):
            node.setAttribute("tabindex", "0")  # one tab stop per map: the arrows move it
        if held is not None and not document.activeElement.hasAttribute("data-tune-cell"):
            cell = q(held)
            if cell:
                cell.focus()
        self.written["tune-screen"] = screen
        # scripts/bench reads this measure: a slice or a redraw of the panel, in the page.
        perf.measure("budgetcore:tune", "budgetcore:tune-start")

    def export_ready(self) -> None:
        # The config module (hashlib, tomllib) loads on first use, after the page is
        # ready: the plan and its charts do not wait for it.
        self.written.setdefault("export", None)
        self.paint_panels()

    def load_model_data(self) -> None:
        # The registry and the peers' rules parse after "ready", in three tasks (registry;
        # peers and repaint; the collector), so none holds the page for their sum.
        try:
            perf = window.performance
            perf.mark("budgetcore:registry-start")
            from budgetcore.registry.models import default_registry  # noqa: PLC0415

            registry = default_registry()
            # scripts/bench reads this measure: the registry's import, read and parse.
            perf.measure("budgetcore:registry-parse", "budgetcore:registry-start")
        except Exception as exc:
            self.dispatch(failed(exc))
            return
        later(0, lambda: self.model_data_loaded(registry))

    def model_data_loaded(self, registry: Any) -> None:
        try:
            import datetime  # noqa: PLC0415 - after ready, off the boot path

            from budgetcore.registry.peers import default_peers  # noqa: PLC0415

            # The clock is the shell's: the page marks deprecation dates already past.
            event: Event = ModelDataLoaded(
                registry, default_peers(), datetime.date.today().isoformat()
            )
        except Exception as exc:
            event = failed(exc)
        self.dispatch(event)
        later(0, settle_gc)

    # ---------------------------------------------------------------- DOM events
    def on_event(self, event: Any) -> None:
        """An input, change or focusout on a control: its event from ui.dom."""
        try:
            target = target_of(event.target)
            limit = dom.text_limit(target.attrs)
            if limit is not None and str(event.type) == "input":  # a paste box: what it holds
                self.boxes_seen[str(event.target.id)] = (
                    target.value if target.length <= limit else None
                )
            e = dom.event_of(str(event.type), target)
        except Exception as exc:
            e = failed(exc)
        self.dispatch(e)

    def on_paste(self, event: Any) -> None:
        """A paste into a paste box that would take it over its limit is refused before
        the browser inserts it (the box keeps what it had)."""
        box = event.target
        if not event.clipboardData or not box.matches("textarea"):
            return
        target = target_of(box)
        pasted = len(str(event.clipboardData.getData("text")))
        selected = int(box.selectionEnd or 0) - int(box.selectionStart or 0)
        e = dom.paste_refused(target.attrs, target.length, selected, pasted)
        if e is not None:
            event.preventDefault()
            self.dispatch(e)

    def on_keydown(self, event: Any) -> None:
        menu = event.target.closest(".nav-menu")
        if menu and str(event.key) == "Escape" and menu.open:
            # The phone's Sections menu closes as a disclosure does; the focus goes back
            # to its summary, so the next Tab starts where the menu was.
            menu.open = False
            menu.querySelector("summary").focus()
            return
        target = target_of(event.target)
        if target.has("data-tune-cell"):  # a key on a Tune map's cell: a point, or a move
            grid = event.target.closest("[data-tune-map]")
            e = dom.cell_key_of(target, target_of(grid), str(event.key)) if grid else None
            if e is not None:
                event.preventDefault()  # the arrows would scroll, Space too
            if isinstance(e, dom.FocusCell):
                node = grid.querySelector(f'[data-tune-cell="{e.cell}"]')
                if node:  # the neighbour then holds the map's one tab stop
                    event.target.setAttribute("tabindex", "-1")
                    node.setAttribute("tabindex", "0")
                    node.focus()
            else:
                self.dispatch(e)
            return
        e = dom.event_of("keydown", target, key=str(event.key), shift=bool(event.shiftKey))
        if e is not None:
            event.preventDefault()  # Enter would submit the form, arrows move the caret
            self.dispatch(e)

    def on_point_over(self, event: Any) -> None:
        kind = str(event.type)
        if kind == "pointerover":
            if str(event.pointerType) == "touch":
                return  # a finger does not hover: the tap's own focus shows the point
            kind = "mouseover"
        cell = event.target.closest(dom.POINT_SELECTOR)
        self.dispatch(dom.event_of(kind, target_of(cell)) if cell else None, main=False)

    def on_click(self, event: Any) -> None:
        nav = event.target.closest("[data-nav]")
        if nav:  # a move on the page only: no page event
            self.go_to(str(nav.getAttribute("data-nav")))
            return
        # closest() gives JsNull (falsy, not None) when nothing matches
        found = [event.target.closest(selector) for selector in dom.CLICK_SELECTORS]
        touch = str(getattr(event, "pointerType", "") or "") == "touch"
        e = dom.click_of(*(target_of(el) if el else None for el in found), touch=touch)
        if e == "import":
            self.dispatch(dom.import_of(target_of(q("#import-text")), self.import_mode()))
        elif isinstance(e, str):
            self.dispatch(ActionClicked(e))
        else:
            self.dispatch(e)

    def go_to(self, section_id: str) -> None:
        """The navigation: scroll a section into view and move the focus to its heading
        (a folded panel opens, as a click on its summary would). Scrolling only: the
        location's fragment holds the scenario and is never touched."""
        section = q(f"#{section_id}")
        if not section:
            return
        if section.tagName == "DETAILS" and not section.open:
            section.open = True  # its toggle event then opens the panel's model
        heading = section.querySelector(":scope > summary, :scope > h2") or section
        if not heading.matches("summary, [tabindex]"):
            heading.setAttribute("tabindex", "-1")  # focusable by script, not in the tab order
        # Clear of the key bar where it sticks (its height changes with the width, a
        # stale plan's note and the warnings): measured now, not guessed in CSS.
        bar = q("#key")
        sticky = str(window.getComputedStyle(bar).position) == "sticky"
        section.style.scrollMarginTop = (
            f"{int(bar.getBoundingClientRect().height) + 8 if sticky else 8}px"
        )
        section.scrollIntoView(js({"block": "start"}))
        heading.focus(js({"preventScroll": True}))
        if not window.matchMedia("(min-width: 1000px)").matches:
            q("#nav .nav-menu").open = False  # the phone's menu closes behind the move

    def on_mousedown(self, event: Any) -> None:
        if event.target.closest("[data-model]"):
            event.preventDefault()  # the picker keeps focus, so its list stays for the click

    def import_mode(self) -> str:
        mode = q("[data-import-mode]:checked")
        return str(mode.value) if mode else "replace"

    async def read_files(self, event: Any, what: str) -> list[tuple[str, bytes]]:
        """The chosen files' bytes (a folder's with their relative paths), or none when
        together they are above ``what``'s limit: refused unread, by their sizes."""
        files = event.target.files
        chosen = [files.item(i) for i in range(files.length)]
        names = [str(f.webkitRelativePath or f.name) for f in chosen]
        refused = dom.files_refused(what, names, sum(int(f.size) for f in chosen))
        if refused is not None:
            self.dispatch(refused)
            return []
        # Bytes, never File.text(): it puts U+FFFD for a byte that is not UTF-8, silently.
        return [(n, (await f.arrayBuffer()).to_bytes()) for n, f in zip(names, chosen, strict=True)]

    async def on_file(self, event: Any) -> None:
        try:
            if str(event.target.id) == "import-file":
                items = await self.read_files(event, "config")
                if items:
                    self.dispatch(ImportFileLoaded(items[0][1], self.import_mode()))
                return
            # One source at a time: the other picker forgets its choice, so the page
            # never names files ("4 files") that are not the ones shown.
            for other in ("replay-file", "replay-folder"):
                if other != str(event.target.id):
                    q(f"#{other}").value = ""
            items = await self.read_files(event, "page-log")
            if items:
                self.read_logs(ReplayLogsLoaded(tuple(items)), sum(len(data) for _, data in items))
        except Exception as exc:
            self.dispatch(failed(exc))

    def read_logs(self, event: Event, total: int) -> None:
        """The import, giving the browser a frame every SLICE_MS (JSPI; without it, at
        once): the status says how far; events sent meanwhile wait, then apply in order
        on the state the import leaves (docs/page.md)."""
        from budgetcore.replay.logs.progress import Paced, listening  # noqa: PLC0415
        from budgetcore.ui.replay_view import reading_text  # noqa: PLC0415

        if not can_run_sync() or self.waiting is not None:  # no JSPI, or one import at a time
            self.dispatch(event)
            return
        status = q("#replay-status")

        def pause(done: int) -> None:
            status.textContent = reading_text(done, total, self.state.lang)
            run_sync(asyncio.sleep(0))

        self.waiting = []
        try:
            with listening(Paced(window.performance.now, pause, SLICE_MS)):
                self.apply(event)
        finally:  # the paint diffs against its last screen, which never had the progress
            last = self.written.get("replay-screen")
            status.textContent = last.text["replay-status"] if last is not None else ""
            waiting, self.waiting = self.waiting, None
        for later_event in waiting:
            self.dispatch(later_event)

    def on_toggle(self, event: Any) -> None:
        self.dispatch(dom.toggled_of(str(event.target.id), bool(event.target.open)))

    def on_replay_pointer(self, event: Any) -> None:
        svg = event.target.closest("[data-chart=replay-timeline]")
        if svg:
            x = int(event.clientX - svg.getBoundingClientRect().left) - int(
                svg.getAttribute("data-plot-left")
            )
            size = (int(svg.getAttribute("data-plot-width")), int(svg.getAttribute("data-turns")))
            self.dispatch(ReplayPointed(x, *size))

    def on_resize(self, _event: Any) -> None:
        self.dispatch(Resized(self.box_width("#chart-funnel")))


# ---------------------------------------------------------------- hooks for tests and users
def plan_json(text: str) -> str:
    """Plan a scenario JSON text with the very code the page runs."""
    try:
        return json.dumps(plan(parse_scenario_json(text)).as_dict())
    except ScenarioError as exc:
        return json.dumps({"error": exc.one_line()})


def plan_batch_json(text: str) -> str:
    """Plan a JSON array of scenarios; a JSON array of plans (or errors) comes back."""
    return json.dumps([json.loads(plan_json(json.dumps(item))) for item in json.loads(text)])


def boot() -> None:
    shell = Shell()
    window.performance.mark("budgetcore:rendered")
    app = q("#app")
    handlers = {
        "input": shell.on_event,
        "change": shell.on_event,
        "focusout": shell.on_event,
        "keydown": shell.on_keydown,
        "paste": shell.on_paste,
        "click": shell.on_click,
        "mousedown": shell.on_mousedown,
        "focusin": shell.on_point_over,
        "pointerover": shell.on_point_over,
    }
    for kind, handler in handlers.items():
        app.addEventListener(kind, create_proxy(handler))
    for box in ("import-file", "replay-file", "replay-folder"):
        q(f"#{box}").addEventListener("change", create_proxy(shell.on_file))
    for panel in ("curves", "replay", "tune"):
        q(f"#{panel}").addEventListener("toggle", create_proxy(shell.on_toggle))
    q("#replay-timeline").addEventListener("click", create_proxy(shell.on_replay_pointer))
    q("#lang").addEventListener("input", create_proxy(shell.on_event))  # in the header
    window.addEventListener("resize", create_proxy(shell.on_resize))
    window.budgetcorePlan = create_proxy(plan_json)
    window.budgetcorePlanBatch = create_proxy(plan_batch_json)
    for node in document.querySelectorAll("[data-wake]"):
        node.removeAttribute("inert")  # the controls wake up
    document.documentElement.dataset.state = "ready"
    later(0, shell.adopt)  # before anything paints
    later(0, shell.export_ready)
    later(0, shell.load_model_data)


try:
    boot()
except Exception as exc:  # a readable error instead of a traceback
    document.documentElement.dataset.state = "error"
    q("#boot-error").textContent = f"Start-up failed: {type(exc).__name__}: {exc}"
