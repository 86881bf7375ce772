"""DOM glue for the controller page: DOM events in, ``reduce`` and ``render``, DOM out.

Everything that decides, validates or formats lives in ``budgetcore.ui`` (tested in
CPython). This file turns DOM events into events, replaces the one page state, and
writes what changed since the last screen.
"""

import asyncio
import gc
import json
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from pyodide.ffi import can_run_sync, create_once_callable, create_proxy, run_sync, to_js
from pyscript import document, window

# User Timing marks: boot phases show up in DevTools and in scripts/bench.
window.performance.mark("budgetcore:main-start")

from budgetcore import ScenarioError, parse_scenario_json, plan  # noqa: E402 - after the mark
from budgetcore.inputs.text import limit_of  # noqa: E402
from budgetcore.messages import t  # noqa: E402
from budgetcore.ui import tune_panel as TP  # noqa: E402
from budgetcore.ui.dom import (  # noqa: E402
    CLICK_SELECTORS,
    POINT_SELECTOR,
    FocusCell,
    Target,
    cell_key_of,
    click_of,
    event_of,
    paste_refused,
    text_limit,
)
from budgetcore.ui.events import (  # noqa: E402
    CurvesToggled,
    Event,
    Failed,
    FileRefused,
    ImportFileLoaded,
    ImportPreviewed,
    LinkOpened,
    ModelDataLoaded,
    Noticed,
    ReplayLogsLoaded,
    ReplayPointed,
    ReplayRefreshed,
    ReplayToggled,
    Resized,
    TextRefused,
    TuneStep,
    TuneToggled,
)
from budgetcore.ui.form import FIELDS  # noqa: E402
from budgetcore.ui.model import PageState  # noqa: E402
from budgetcore.ui.update import first_state, initial_state, reduce  # noqa: E402
from budgetcore.ui.view.config import render_export  # noqa: E402
from budgetcore.ui.view.peers import render_peers  # noqa: E402
from budgetcore.ui.view.pickers import link_models  # noqa: E402
from budgetcore.ui.view.screen import render, render_curves  # noqa: E402
from budgetcore.ui.view.shell import language_html, shell_html  # noqa: E402
from budgetcore.ui.view.types import Screen  # noqa: E402

if TYPE_CHECKING:  # loaded with the replay and Tune panels, not on boot
    from budgetcore.ui.replay_view import ReplayScreen
    from budgetcore.ui.tune_view import TuneScreen

window.performance.mark("budgetcore:imported")
NOTICE_MS = 4000
#: The longest an import reads before the browser gets a frame (input, paint, progress).
SLICE_MS = 12


def target_of(element: Any) -> Target:
    """What ``budgetcore.ui.dom`` reads off a DOM element: its data-* attributes, value,
    checked state and input type (a missing property raises AttributeError in Pyodide)."""
    attrs = {}
    for js_name in element.getAttributeNames():
        name = str(js_name)
        if name.startswith("data-"):
            attrs[name] = str(element.getAttribute(name))
    limit = text_limit(attrs)
    if limit is not None:
        # A paste box: its length first (a number; the text stays in the page), and
        # its text only when within its limit (reading it copies the whole text).
        length = int(element.textLength)
        text = str(element.value) if length <= limit else ""
        return Target(attrs, text, False, "textarea", length)
    value = getattr(element, "value", None)
    return Target(
        attrs,
        "" if value is None else str(value),
        bool(getattr(element, "checked", False)),
        str(getattr(element, "type", "") or ""),
    )


def q(selector: str) -> Any:
    return document.querySelector(selector)


def write_html(regions: Mapping[str, str]) -> None:
    """``innerHTML`` of each element (by id): markup built by budgetcore.ui.markup, escaped."""
    for rid, markup in regions.items():
        q(f"#{rid}").innerHTML = markup


class Regions(Protocol):
    """A screen's regions: markup and text by element id (the page's or the replay's)."""

    @property
    def html(self) -> Mapping[str, str]: ...

    @property
    def text(self) -> Mapping[str, str]: ...


def write_regions(screen: Regions, last: Regions | None) -> None:
    """Write each region (by element id) whose markup or text changed since ``last``."""
    write_html(
        {rid: m for rid, m in screen.html.items() if last is None or last.html.get(rid) != m}
    )
    for rid, text in screen.text.items():
        if last is None or last.text.get(rid) != text:
            q(f"#{rid}").textContent = text


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
        lang = "zh" if document.documentElement.lang == "zh-CN" else "en"
        q("#boot-stage").textContent = t("boot.drawing", lang)
        state = initial_state(width=self.chart_width(), panel_width=self.panel_width())
        self.state = reduce(
            state, LinkOpened(str(window.location.hash), str(window.navigator.language))
        )
        # The build pre-rendered render(first_state(lang=...)): when that is this state
        # (no fragment, the page's language, desktop width), the page shows what the
        # first paint would write, and nothing is written; adopt() renders the screen to
        # diff the next paint against. Else: the shell's markup and a full first paint.
        root = document.documentElement
        self.taking_over = root.hasAttribute("data-prerendered") and self.state == first_state(
            lang="zh" if root.lang == "zh-CN" else "en"
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
        self.cells = {e.dataset.key: e for e in document.querySelectorAll("[data-key]")}
        self.key_cells = {
            e.getAttribute("data-key-summary"): e
            for e in document.querySelectorAll("[data-key-summary]")
        }
        self.lamps = {e.dataset.lamp: e for e in document.querySelectorAll("[data-lamp]")}
        self.cells_a = {e.dataset.keyA: e for e in document.querySelectorAll("[data-key-a]")}
        self.cells_d = {
            e.dataset.keyDelta: e for e in document.querySelectorAll("[data-key-delta]")
        }
        if window.matchMedia("(min-width: 1000px)").matches:
            # Folded on a phone, where results come first; open beside them on a desktop.
            for node in document.querySelectorAll("details[data-fold]"):
                node.open = True
        self.last: Screen | None = None
        self.lang: str | None = None
        self.export_ready = False
        # What each deferred panel was last drawn from: drawn again when it changes.
        self.export_written: object = None
        self.curves_written: object = None
        self.peers_written: object = None
        self.notice_timer: Any = None
        self.replay_written: object = None
        self.replay_last: ReplayScreen | None = None
        self.frames: set[str] = set()  # the redraws waiting for the next frame
        self.replay_source: str | None = None
        self.tune_written: object = None
        # Events sent while an import gives the browser its turn (None: no import).
        self.waiting: list[Event] | None = None
        self.tune_last: TuneScreen | None = None
        self.tune_timer: Any = None
        # Each paste box's text as last written or sent (None: unknown, write it).
        self.boxes_seen: dict[str, str | None] = {}
        if not self.taking_over:
            self.paint()

    def adopt(self) -> None:
        """The screen a taken-over page shows (see __init__), rendered once the page is
        ready, with nothing written: the next paint writes only what changed from it."""
        if self.taking_over and self.last is None:  # else a paint came first and did it
            self.last = render(self.state)
            self.lang = self.last.lang

    # ---------------------------------------------------------------- state
    def chart_width(self) -> int:
        return self.box_width("#chart-funnel")

    def panel_width(self) -> int:
        # Replay and Tune run across both columns on a wide screen; #experiments is a
        # panel like them that is never folded, so it has a width while they are closed.
        return self.box_width("#experiments")

    def box_width(self, selector: str) -> int:
        # Charts draw at their box's real width (12 px text at any width): its inner
        # width, without its padding.
        box = q(selector)
        style = window.getComputedStyle(box)
        pad = window.parseFloat(style.paddingLeft) + window.parseFloat(style.paddingRight)
        width = int(box.clientWidth - pad)
        return width if width > 0 else 640

    def dispatch(self, event: Event) -> None:
        """Replace the state with reduce(state, event); a failure changes nothing but
        the message that says so. During an import that gives the browser its turn
        (read_logs), an event waits for the import's state."""
        if self.waiting is not None:
            self.waiting.append(event)
            return
        self.apply(event)

    def apply(self, event: Event) -> None:
        try:
            self.state = reduce(self.state, event)
        except Exception as exc:  # never a traceback, never a half-updated state
            self.state = reduce(self.state, Failed(f"{type(exc).__name__}: {exc}"))
        try:
            self.paint()
        except Exception as exc:
            q("#status").textContent = t(
                "problem.internal", self.state.lang, detail=f"{type(exc).__name__}: {exc}"
            )

    # ---------------------------------------------------------------- painting
    def retext(self, lang: str) -> None:
        document.documentElement.lang = "zh-CN" if lang == "zh" else "en"
        q("#lang").value = lang
        for node in document.querySelectorAll("[data-i18n]"):
            node.textContent = t(node.getAttribute("data-i18n"), lang)
        for node in document.querySelectorAll("[data-i18n-aria]"):
            node.setAttribute("aria-label", t(node.getAttribute("data-i18n-aria"), lang))
        write_html(language_html(lang))

    def paint(self) -> None:
        screen = render(self.state)
        last = self.last
        if screen.lang != self.lang:
            self.retext(screen.lang)
            self.lang = screen.lang
            last = None  # every text below is in the new language
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
            for key, (text, value) in screen.readouts.items():
                for cell in (self.cells.get(key), self.key_cells.get(key)):
                    if cell is not None and cell.textContent != text:
                        cell.textContent = text
                    if cell is not None and value is not None:
                        cell.dataset.value = value
                lamp = self.lamps.get(key)
                if lamp is not None and value is not None:
                    lamp.dataset.value = value
            for key, (a, delta, sign) in screen.ab_cells.items():
                self.cells_a[key].textContent = a
                self.cells_d[key].textContent = delta
                self.cells_d[key].dataset.sign = sign
        write_regions(screen, last)
        self.paint_pickers(screen)  # after the lists above are written
        if screen.text["notice"] and (last is None or last.text["notice"] != screen.text["notice"]):
            q("#notice").dataset.kind = screen.notice_kind  # a refusal is styled apart
            self.clear_notice_later()
        for rid, value in screen.boxes.items():
            # What the box holds is what was written or what it sent: never read back
            # (reading a box copies its whole text into Python on every paint).
            if self.boxes_seen.get(rid) != value:
                q(f"#{rid}").value = value
                self.boxes_seen[rid] = value
        for key, text in screen.key_ab.items():
            q(f'[data-key-ab="{key}"]').textContent = text
        path, low, high = screen.sweep
        for sel, value in (("#sweep-path", path), ("#sweep-low", low), ("#sweep-high", high)):
            if q(sel).value != value:
                q(sel).value = value
        for which in ("low", "high"):  # the red outline the main fields get
            if which in screen.sweep_invalid:
                q(f"#sweep-{which}").setAttribute("aria-invalid", "true")
            else:
                q(f"#sweep-{which}").removeAttribute("aria-invalid")
        self.last = screen
        if self.export_ready:
            self.paint_export()
        # The peers, the 500-point sweep, the replay (a plan per turn) and the Tune panel
        # redraw in the next frame, so the readouts never wait for them.
        self.next_frame(self.paint_peers)
        if self.state.sweep.open:
            self.next_frame(self.paint_curves)
        if self.state.replay.open:
            self.next_frame(self.paint_replay)
        if self.state.tune.open:
            self.next_frame(self.paint_tune)
        url = f"#{screen.fragment}" if screen.fragment else window.location.pathname
        if str(window.location.hash) != (f"#{screen.fragment}" if screen.fragment else ""):
            window.history.replaceState(None, "", url)

    def next_frame(self, paint: Any) -> None:
        """``paint`` in the next frame, once however many inputs came before it: a 20,000-
        request log's replay once ran for every key typed while it ran (31 s for five)."""
        if paint.__name__ in self.frames:
            return
        self.frames.add(paint.__name__)

        def run(_t: float) -> None:
            self.frames.discard(paint.__name__)
            paint()

        window.requestAnimationFrame(create_once_callable(run))

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
            if view.message:
                node.setAttribute("aria-invalid", "true")
            else:
                node.removeAttribute("aria-invalid")
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
            if view.active_id:
                option = q(f"#{view.active_id}")
                if option:  # JsNull is falsy
                    option.scrollIntoView(
                        to_js({"block": "nearest"}, dict_converter=window.Object.fromEntries)
                    )

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
            self.dispatch(Failed(f"{type(exc).__name__}: {exc}"))
            return
        window.setTimeout(create_once_callable(lambda: self.model_data_loaded(registry)), 0)

    def model_data_loaded(self, registry: Any) -> None:
        try:
            import datetime  # noqa: PLC0415 - after ready, off the boot path

            from budgetcore.registry.peers import default_peers  # noqa: PLC0415

            # The clock is the shell's: the page marks deprecation dates already past.
            today = datetime.date.today().isoformat()
            event: Event = ModelDataLoaded(registry, default_peers(), today)
        except Exception as exc:
            event = Failed(f"{type(exc).__name__}: {exc}")
        self.dispatch(event)
        window.setTimeout(create_once_callable(settle_gc), 0)

    def paint_peers(self) -> None:
        markup = render_peers(self.state)
        if markup != self.peers_written:
            q("#peers-out").innerHTML = markup  # ours, escaped
            self.peers_written = markup

    def paint_curves(self) -> None:
        state = self.state
        if not state.sweep.open or state.stale:
            return
        key = (state.plan, state.sweep, state.lang, state.width)  # the plan itself: an id is reused
        if self.curves_written == key:
            return
        perf = window.performance
        perf.mark("budgetcore:sweep-start")
        width = self.box_width("#curves-out")
        q("#curves-out").innerHTML = render_curves(state, width)  # ours, escaped
        # scripts/bench reads this measure: the sweep's redraw time, in the page.
        perf.measure("budgetcore:sweep", "budgetcore:sweep-start")
        self.curves_written = key

    def paint_replay(self) -> None:
        if not self.state.replay.open:
            return
        from budgetcore.ui import replay_view as RV  # noqa: PLC0415 - with the panel, not on boot

        perf = window.performance
        perf.mark("budgetcore:replay-start")
        # The update step runs the replay when its inputs changed (a frame after the
        # readouts, so they never wait for it); scripts/bench's measure includes it.
        try:
            self.state = reduce(self.state, ReplayRefreshed())
        except Exception as exc:
            self.state = reduce(self.state, Failed(f"{type(exc).__name__}: {exc}"))
        state = self.state
        key = RV.screen_key(state)
        if self.replay_written == key:
            return
        if self.replay_last is None:
            q("#replay-fields").innerHTML = RV.replay_controls_html()  # ours, escaped
            self.replay_source = None  # new nodes: show the chosen source's part again
            for node in q("#replay-fields").querySelectorAll("[data-i18n]"):
                node.textContent = t(node.getAttribute("data-i18n"), state.lang)
        screen = RV.render_replay(state)
        perf.measure("budgetcore:replay-python", "budgetcore:replay-start")
        last = self.replay_last
        write_regions(screen, last)
        for path, message in screen.field_messages.items():
            if last is not None and last.field_messages.get(path) == message:
                continue  # each DOM call crosses into JavaScript: skip what did not change
            node = q(f'[data-replay-msg="{path}"]')
            if node and node.textContent != message:
                node.textContent = message
            box = q(f'[data-replay-input="{path}"]')
            if box:
                if message:
                    box.setAttribute("aria-invalid", "true")
                else:
                    box.removeAttribute("aria-invalid")
        for path, value in screen.values.items():
            if last is not None and last.values.get(path) == value:
                continue
            box = q(f'[data-replay-input="{path}"]')
            if box and box.type == "checkbox":
                box.checked = value == "true"
            elif box and box.value != value:
                box.value = value
        if self.replay_source != state.replay.source:
            for node in document.querySelectorAll("[data-replay-part]"):
                node.hidden = node.getAttribute("data-replay-part") != state.replay.source
            self.replay_source = state.replay.source
        turns, turn, valuetext = screen.scrub
        scrub = q("#replay-scrub")
        scrub.max = str(turns)
        scrub.value = str(turn)
        scrub.setAttribute("aria-valuetext", valuetext)
        self.replay_last = screen
        self.replay_written = key
        # scripts/bench reads this measure: the replay's re-run and redraw, in the page.
        perf.measure("budgetcore:replay", "budgetcore:replay-start")

    def dispatch_tune(self, event: Event) -> None:
        """An event that changes only the Tune panel (a slice of the grid, a cell
        hovered or focused): the same reduce, and only that panel is painted."""
        if self.waiting is not None:  # an import is giving the browser its turn
            self.waiting.append(event)
            return
        before = self.state
        try:
            self.state = reduce(self.state, event)
        except Exception as exc:
            self.dispatch(Failed(f"{type(exc).__name__}: {exc}"))
            return
        if self.state is not before:
            self.paint_tune()

    def schedule_tune(self) -> None:
        """The next slice after the browser has handled input (a timeout, not a loop):
        typing while a grid runs is an event like any other, and the next slice sees
        the new inputs and starts again (ui.tune_panel.step)."""
        if self.tune_timer is None and TP.pending(self.state.tune, TP.tune_inputs(self.state)):
            self.tune_timer = window.setTimeout(create_once_callable(self.step_tune), 0)

    def step_tune(self) -> None:
        self.tune_timer = None
        perf = window.performance
        perf.mark("budgetcore:tune-slice-start")
        self.dispatch_tune(TuneStep())
        # scripts/bench reads these: one slice of the grid (its reduce and paint), and
        # the moment the grid is finished (no further slice is scheduled).
        perf.measure("budgetcore:tune-slice", "budgetcore:tune-slice-start")
        if self.tune_timer is None:
            perf.mark("budgetcore:tune-done")

    def paint_tune(self) -> None:
        state = self.state
        if not state.tune.open:
            return
        key = (
            state.plan,  # the value, never its id (reused once the plan is freed)
            state.stale,
            state.replay,
            state.tune,
            state.lang,
            state.width,
            state.panel_width,
            state.export_format,
        )
        if self.tune_written != key:
            self.write_tune(state)
            self.tune_written = key
        self.schedule_tune()

    def write_tune(self, state: PageState) -> None:
        from budgetcore.ui import tune_view as TV  # noqa: PLC0415 - with the panel, not on boot

        perf = window.performance
        perf.mark("budgetcore:tune-start")
        if self.tune_last is None:
            q("#tune-fields").innerHTML = TV.tune_controls_html()  # ours, escaped
            for node in q("#tune-fields").querySelectorAll("[data-i18n]"):
                node.textContent = t(node.getAttribute("data-i18n"), state.lang)
        screen = TV.render_tune(state)
        last = self.tune_last
        # A cell in hand keeps focus when the maps are written again (its own point moved).
        active = document.activeElement
        held = None
        if active and active.hasAttribute("data-tune-cell"):
            held = (
                active.closest("[data-tune-map]").getAttribute("data-tune-map"),
                active.getAttribute("data-tune-cell"),
            )
        write_regions(screen, last)
        for path, message in screen.field_messages.items():
            if last is not None and last.field_messages.get(path) == message:
                continue
            q(f'[data-tune-msg="{path}"]').textContent = message
            box = q(f'[data-tune-input="{path}"]')
            if message:
                box.setAttribute("aria-invalid", "true")
            else:
                box.removeAttribute("aria-invalid")
        done, total = screen.progress
        bar = q("#tune-progress")
        bar.hidden = total == 0
        bar.max = str(max(total, 1))
        bar.value = str(done)
        for node in q("#tune-maps").querySelectorAll('[data-tune-cell][tabindex="0"]'):
            node.setAttribute("tabindex", "-1")
        for node in q("#tune-maps").querySelectorAll(f'[data-tune-cell="{screen.focus}"]'):
            node.setAttribute("tabindex", "0")  # one tab stop per map: the arrows move it
        if held is not None and not document.activeElement.hasAttribute("data-tune-cell"):
            cell = q(f'[data-tune-map="{held[0]}"] [data-tune-cell="{held[1]}"]')
            if cell:
                cell.focus()
        self.tune_last = screen
        # scripts/bench reads this measure: a slice or a redraw of the panel, in the page.
        perf.measure("budgetcore:tune", "budgetcore:tune-start")

    def paint_export(self) -> None:
        # The config module (hashlib, tomllib) loads on first use, after the page is
        # ready: the plan and its charts do not wait for it.
        self.export_ready = True
        state = self.state
        models = tuple(sorted(link_models(state).items()))  # the link's models: its fragment
        key = (state.plan.scenario, state.export_format, state.export_runtime, state.lang, models)
        if self.export_written == key:
            return
        body, diff = render_export(state)
        q("#export-text").textContent = body
        q("#export-diff").innerHTML = diff  # ours, escaped
        self.export_written = key

    def clear_notice_later(self) -> None:
        if self.notice_timer is not None:
            window.clearTimeout(self.notice_timer)
        notice = self.state.notice

        def clear() -> None:
            self.notice_timer = None
            if self.state.notice == notice:
                self.dispatch(Noticed(""))

        self.notice_timer = window.setTimeout(create_once_callable(clear), NOTICE_MS)

    # ---------------------------------------------------------------- events
    def on_input(self, event: Any) -> None:
        try:
            target = target_of(event.target)
            limit = text_limit(target.attrs)
            if limit is not None:  # a paste box: what it holds now (None: too long, unread)
                within = target.length <= limit
                self.boxes_seen[str(event.target.id)] = target.value if within else None
            e = event_of("input", target)
        except Exception as exc:
            e = Failed(f"{type(exc).__name__}: {exc}")
        if e is not None:
            self.dispatch(e)

    def on_paste(self, event: Any) -> None:
        """A paste into a paste box that would take it over its limit is refused before
        the browser inserts it (the box keeps what it had)."""
        box = event.target
        if not event.clipboardData or not box.matches("textarea"):
            return
        target = target_of(box)
        if text_limit(target.attrs) is None:
            return
        pasted = len(str(event.clipboardData.getData("text")))
        selected = int(box.selectionEnd or 0) - int(box.selectionStart or 0)
        e = paste_refused(target.attrs, target.length, selected, pasted)
        if e is not None:
            event.preventDefault()
            self.dispatch(e)

    def on_change(self, event: Any) -> None:
        e = event_of("change", target_of(event.target))
        if e is not None:
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
        if target.has("data-tune-cell"):
            self.on_cell_key(event, target)
            return
        e = event_of("keydown", target, key=str(event.key), shift=bool(event.shiftKey))
        if e is not None:
            event.preventDefault()  # Enter would submit the form, arrows move the caret
            self.dispatch(e)

    def on_cell_key(self, event: Any, cell: Target) -> None:
        """A key on a Tune map's cell (ui.dom.cell_key_of): a point chosen, or the focus
        moved to a neighbouring cell of the same map, which then holds the tab stop."""
        grid = event.target.closest("[data-tune-map]")
        e = cell_key_of(cell, target_of(grid), str(event.key)) if grid else None
        if e is None:
            return
        event.preventDefault()  # the arrows would scroll, Space too
        if isinstance(e, FocusCell):
            node = grid.querySelector(f'[data-tune-cell="{e.cell}"]')
            if node:
                event.target.setAttribute("tabindex", "-1")
                node.setAttribute("tabindex", "0")
                node.focus()
        else:
            self.dispatch(e)

    def on_point_over(self, event: Any) -> None:
        kind = str(event.type)
        if kind == "pointerover":
            if str(event.pointerType) == "touch":
                return  # a finger does not hover: the tap's own focus shows the point
            kind = "mouseover"
        cell = event.target.closest(POINT_SELECTOR)
        e = event_of(kind, target_of(cell)) if cell else None
        if e is not None:
            self.dispatch_tune(e)

    def on_click(self, event: Any) -> None:
        nav = event.target.closest("[data-nav]")
        if nav:  # a move on the page only: no page event
            self.go_to(str(nav.getAttribute("data-nav")))
            return
        # closest() gives JsNull (falsy, not None) when nothing matches
        found = [event.target.closest(selector) for selector in CLICK_SELECTORS]
        touch = str(getattr(event, "pointerType", "") or "") == "touch"
        e = click_of(*(target_of(el) if el else None for el in found), touch=touch)
        if isinstance(e, str):
            self.shell_action(e)
        elif e is not None:
            self.dispatch(e)

    def shell_action(self, action: str) -> None:
        if action == "import":
            box = target_of(q("#import-text"))  # its length first, as on input
            if box.length > limit_of("config"):
                self.dispatch(TextRefused("config", box.length))
            else:
                self.preview_import(box.value)
        elif action == "download":
            self.download()
        elif action == "tune-download":  # the Tune panel's export of its chosen point
            self.download(str(q("#tune-export").textContent))
        elif action == "copy":
            window.navigator.clipboard.writeText(q("#export-text").textContent)
            self.dispatch(Noticed("msg.copied"))
        elif action == "copy-link":
            window.navigator.clipboard.writeText(str(window.location.href))
            self.dispatch(Noticed("msg.link-copied"))

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
        clear = int(bar.getBoundingClientRect().height) + 8 if sticky else 8
        section.style.scrollMarginTop = f"{clear}px"  # CSSOM, which the CSP allows
        entries = window.Object.fromEntries
        section.scrollIntoView(to_js({"block": "start"}, dict_converter=entries))
        heading.focus(to_js({"preventScroll": True}, dict_converter=entries))
        if not window.matchMedia("(min-width: 1000px)").matches:
            q("#nav .nav-menu").open = False  # the phone's menu closes behind the move

    def on_mousedown(self, event: Any) -> None:
        if event.target.closest("[data-model]"):
            event.preventDefault()  # the picker keeps focus, so its list stays for the click

    def on_focusout(self, event: Any) -> None:
        e = event_of("focusout", target_of(event.target))
        if e is not None:
            self.dispatch(e)

    def preview_import(self, text: str) -> None:
        mode = q("[data-import-mode]:checked")
        self.dispatch(ImportPreviewed(text, str(mode.value) if mode else "replace"))

    async def read_files(self, event: Any, what: str) -> list[tuple[str, bytes]]:
        """The chosen files' bytes (a folder's with their relative paths), or none when
        together they are above ``what``'s limit: refused unread, by their sizes."""
        files = event.target.files
        chosen = [files.item(i) for i in range(files.length)]
        names = [str(f.webkitRelativePath or f.name) for f in chosen]
        total = sum(int(f.size) for f in chosen)
        if chosen and total > limit_of(what):
            self.dispatch(FileRefused(what, names[0], total))
            return []
        # Bytes, never File.text(): it puts U+FFFD for a byte that is not UTF-8, silently.
        return [(n, (await f.arrayBuffer()).to_bytes()) for n, f in zip(names, chosen, strict=True)]

    async def on_file(self, event: Any) -> None:
        try:
            items = await self.read_files(event, "config")
            mode = q("[data-import-mode]:checked")
            if items:
                self.dispatch(ImportFileLoaded(items[0][1], str(mode.value) if mode else "replace"))
        except Exception as exc:
            self.dispatch(Failed(f"{type(exc).__name__}: {exc}"))

    async def on_replay_file(self, event: Any) -> None:
        # One source at a time: the other picker forgets its choice, so the page never
        # names files ("4 files") that are not the ones shown.
        for other in ("replay-file", "replay-folder"):
            if other != str(event.target.id):
                q(f"#{other}").value = ""
        try:
            items = await self.read_files(event, "page-log")
            if items:
                total = sum(len(data) for _, data in items)
                self.read_logs(ReplayLogsLoaded(tuple(items)), total)
        except Exception as exc:
            self.dispatch(Failed(f"{type(exc).__name__}: {exc}"))

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
            last = self.replay_last
            status.textContent = last.text["replay-status"] if last is not None else ""
            waiting, self.waiting = self.waiting, None
        for later in waiting:
            self.dispatch(later)

    def on_replay_toggle(self, _event: Any) -> None:
        self.dispatch(ReplayToggled(bool(q("#replay").open)))

    def on_replay_pointer(self, event: Any) -> None:
        svg = event.target.closest("[data-chart=replay-timeline]")
        if not svg:
            return
        box = svg.getBoundingClientRect()
        left = int(svg.getAttribute("data-plot-left"))
        x = int(event.clientX - box.left) - left
        self.dispatch(
            ReplayPointed(
                x, int(svg.getAttribute("data-plot-width")), int(svg.getAttribute("data-turns"))
            )
        )

    def on_tune_toggle(self, _event: Any) -> None:
        self.dispatch(TuneToggled(bool(q("#tune").open)))

    def on_toggle(self, _event: Any) -> None:
        self.dispatch(CurvesToggled(bool(q("#curves").open)))

    def on_resize(self, _event: Any) -> None:
        self.dispatch(Resized(self.chart_width(), self.panel_width()))

    def download(self, body: str | None = None) -> None:
        """The reviewed config as a file: the export panel's, or ``body`` (the Tune
        panel's of its chosen point, in the same format)."""
        runtime = "article" if body is not None else self.state.export_runtime
        if body is None:
            body, _diff = render_export(self.state)
        fmt = self.state.export_format
        if runtime != "article":  # the picked runtime's own file
            from budgetcore.runtimes import profile  # noqa: PLC0415 - picked: loaded

            fmt = profile(runtime).syntax
        mime = "application/toml" if fmt == "toml" else "application/json"
        blob = window.Blob.new(
            [body], to_js({"type": mime}, dict_converter=window.Object.fromEntries)
        )
        url = window.URL.createObjectURL(blob)
        link = document.createElement("a")
        link.href = url
        link.download = (
            f"budgetcore-overrides.{fmt}" if runtime == "article" else f"{runtime}-settings.{fmt}"
        )
        link.click()
        window.setTimeout(create_once_callable(lambda: window.URL.revokeObjectURL(url)), 1000)


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
    app.addEventListener("input", create_proxy(shell.on_input))
    app.addEventListener("keydown", create_proxy(shell.on_keydown))
    app.addEventListener("paste", create_proxy(shell.on_paste))
    app.addEventListener("change", create_proxy(shell.on_change))
    app.addEventListener("click", create_proxy(shell.on_click))
    app.addEventListener("mousedown", create_proxy(shell.on_mousedown))
    app.addEventListener("focusout", create_proxy(shell.on_focusout))
    q("#import-file").addEventListener("change", create_proxy(shell.on_file))
    q("#curves").addEventListener("toggle", create_proxy(shell.on_toggle))
    q("#replay").addEventListener("toggle", create_proxy(shell.on_replay_toggle))
    q("#tune").addEventListener("toggle", create_proxy(shell.on_tune_toggle))
    app.addEventListener("focusin", create_proxy(shell.on_point_over))
    app.addEventListener("pointerover", create_proxy(shell.on_point_over))
    q("#replay-file").addEventListener("change", create_proxy(shell.on_replay_file))
    q("#replay-folder").addEventListener("change", create_proxy(shell.on_replay_file))
    q("#replay-timeline").addEventListener("click", create_proxy(shell.on_replay_pointer))
    q("#lang").addEventListener("input", create_proxy(shell.on_input))  # in the header
    window.addEventListener("resize", create_proxy(shell.on_resize))
    window.budgetcorePlan = create_proxy(plan_json)
    window.budgetcorePlanBatch = create_proxy(plan_batch_json)
    # Whether a module is imported (the browser tests hold what the boot leaves out,
    # such as sqlite3, imported only when an agent's database is picked).
    window.budgetcoreImported = create_proxy(lambda name: str(name) in sys.modules)
    for node in document.querySelectorAll("[data-wake]"):
        node.removeAttribute("inert")  # the controls wake up
    document.documentElement.dataset.state = "ready"
    window.setTimeout(create_once_callable(shell.adopt), 0)  # before anything paints
    window.setTimeout(create_once_callable(shell.paint_export), 0)
    window.setTimeout(create_once_callable(shell.load_model_data), 0)


try:
    boot()
except Exception as exc:  # a readable error instead of a traceback
    document.documentElement.dataset.state = "error"
    q("#boot-error").textContent = f"Start-up failed: {type(exc).__name__}: {exc}"
