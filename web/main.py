"""DOM glue for the controller page: DOM events in, ``update`` and ``render``, DOM out.

Everything that decides, validates or formats lives in ``budgetcore.ui`` (tested in
CPython). This file turns DOM events into events, runs the effects ``update`` returns
(``budgetcore.ui.effects``: a job's next step, a download, a copy, a timer), and writes
what changed since the last screen.
"""

import asyncio
import gc
from typing import Any

from pyodide.ffi import create_once_callable, create_proxy, to_js
from pyscript import document, window

# User Timing marks: boot phases show up in DevTools and in scripts/bench.
window.performance.mark("budgetcore:main-start")

from budgetcore.messages import t  # noqa: E402 - after the mark
from budgetcore.ui import dom, hooks  # noqa: E402
from budgetcore.ui import effects as fx  # noqa: E402
from budgetcore.ui import events as E  # noqa: E402
from budgetcore.ui.main.view.shell import shell_html  # noqa: E402
from budgetcore.ui.paint import Op, Painted, main_ops, panel_ops, step_paints_main  # noqa: E402
from budgetcore.ui.runner import RUNNER  # noqa: E402
from budgetcore.ui.update import first_state, initial_state, update  # noqa: E402

window.performance.mark("budgetcore:imported")


def q(selector: str) -> Any:
    return document.querySelector(selector)


def later(ms: int, run: Any) -> Any:
    return window.setTimeout(create_once_callable(run), ms)


def js(value: dict[str, Any]) -> Any:
    return to_js(value, dict_converter=window.Object.fromEntries)


# One call per paint, every operation in one array (budgetcore.ui.runner says why).
run_ops = window.Function(RUNNER)().run
translate = create_proxy(lambda key, lang: t(str(key), str(lang)))


def write(ops: list[Op]) -> None:
    """Every operation, in order, on the elements its selector matches (ui.runner)."""
    if ops:
        run_ops(to_js(ops), translate)


def settle_gc() -> None:
    """Keep the cycle collector off the input path once the page's long-lived data is in:
    the registry and the peers (tens of thousands of objects) were walked by every full
    collection, and a 500-turn redraw set one off every few inputs (10-30 ms pauses).
    Freezing takes them out of later collections; a higher threshold lets a redraw's
    temporaries die by reference count first. The young generations only are collected
    first: a full collection here walked the whole restored heap in one task (244-503 ms
    in traced cold loads, the longest task after the numbers) and, the same steps run in
    CPython, found nothing to free (the boot's temporaries die by reference count)."""
    window.performance.mark("budgetcore:settle-gc-start")
    gc.collect(1)
    gc.freeze()
    gc.set_threshold(20_000)
    # scripts/bench reads the tasks after "ready" by these measures.
    window.performance.measure("budgetcore:settle-gc", "budgetcore:settle-gc-start")


class Shell:
    def __init__(self, state: Any, effects: tuple[fx.Effect, ...], lang: str) -> None:
        """The shell over the first state (``update`` of the link, see :func:`boot`)."""
        root = document.documentElement
        self.state = state
        # The build pre-rendered render(first_state(lang=...)): when that is this state
        # (no fragment, the page's language, desktop width), the page shows what the
        # first paint would write, and nothing is written; adopt() renders the screen to
        # diff the next paint against. Else: the shell's markup and a full first paint.
        self.taking_over = root.hasAttribute("data-prerendered") and self.state == first_state(
            lang=lang
        )
        if not self.taking_over:
            write([(f"#{rid}", "html", "", markup) for rid, markup in shell_html().items()])
        if window.matchMedia("(min-width: 1000px)").matches:
            # Folded on a phone, where results come first; open beside them on a desktop.
            write([("details[data-fold]", "prop", "open", True)])
        # The shell's own record: what was written (ui.paint.Painted), whether the panels
        # wait for a frame, the notice's timer and the packages loading.
        self.painted = Painted()
        self.frame = False
        self.notice_timer: Any = None
        self.tasks: set[Any] = set()
        if not self.taking_over:
            self.paint()
        self.run(effects)

    def adopt(self) -> None:
        """The screen a taken-over page shows (see __init__), rendered once the page is
        ready, with nothing written: the next paint writes only what changed from it."""
        if self.taking_over and self.painted.screen is None:  # else a paint came first
            _ops, self.painted = main_ops(self.state, self.painted)
        self.on_resize(None)  # the full-width panels' width, now that the page is laid out

    @staticmethod
    def box_width(selector: str) -> int:
        # Charts draw at their box's real width (12 px text at any width): its inner
        # width, without its padding.
        box = q(selector)
        style = window.getComputedStyle(box)
        pad = window.parseFloat(style.paddingLeft) + window.parseFloat(style.paddingRight)
        width = int(box.clientWidth - pad)
        return width if width > 0 else 640

    # ---------------------------------------------------------------- events and effects
    def dispatch(self, event: E.Event | None, main: bool = True) -> None:
        """Replace the state with update's, paint, and run its effects. ``main``: False
        for an event that changes only the panels (a job's step, a Tune cell hovered),
        which alone are drawn (ui.paint.step_paints_main: the steps that are not)."""
        if event is None:
            return
        try:
            self.state, effects = update(self.state, event)
            if isinstance(event, E.JobStep) and step_paints_main(event.job, self.state):
                main = True
        except Exception as exc:  # never a traceback, never a half-updated state
            self.state, effects = update(self.state, E.failed(exc))
            main = True
        try:
            self.paint() if main else self.paint_panels()
        except Exception as exc:
            detail = f"{type(exc).__name__}: {exc}"
            q("#status").textContent = t("problem.internal", self.state.lang, detail=detail)
        self.run(effects)

    def run(self, effects: tuple[fx.Effect, ...]) -> None:
        """Each effect, as update described it (Elm's commands)."""
        for effect in effects:
            if isinstance(effect, fx.Step):  # after the browser's turn, the same for every job
                later(0, lambda job=effect.job: self.step(job))
            elif isinstance(effect, fx.ClearNotice):
                if self.notice_timer is not None:
                    window.clearTimeout(self.notice_timer)
                expired = E.NoticeExpired(effect.key)
                self.notice_timer = later(effect.ms, lambda e=expired: self.dispatch(e))
            elif isinstance(effect, fx.Copy | fx.CopyLink):
                text = effect.text if isinstance(effect, fx.Copy) else str(window.location.href)
                window.navigator.clipboard.writeText(text)
            elif isinstance(effect, fx.Download):
                blob = window.Blob.new([effect.body], js({"type": effect.mime}))
                url = window.URL.createObjectURL(blob)
                link = document.createElement("a")
                link.href, link.download = url, effect.filename
                link.click()
                later(1000, lambda url=url: window.URL.revokeObjectURL(url))
            elif isinstance(effect, fx.LoadPackage):
                self.tasks.add(asyncio.ensure_future(self.load_package(effect)))

    async def load_package(self, effect: fx.LoadPackage) -> None:
        try:
            import pyodide_js  # noqa: PLC0415 - the browser's Pyodide, on demand

            await pyodide_js.loadPackage(effect.name)
        except Exception as exc:  # a package the page cannot load: said, never a traceback
            self.dispatch(E.failed(exc))
            return
        self.dispatch(effect.then)

    def step(self, job: str) -> None:
        perf = window.performance
        perf.mark(f"budgetcore:{job}-step")
        self.dispatch(E.JobStep(job), main=False)  # a job's work shows in its panel
        # scripts/bench reads these: a step and its redraw, the replay's Python part,
        # and the moment the grid is finished (no further step of it waits).
        if job in fx.MEASURES:
            perf.measure(fx.MEASURES[job], f"budgetcore:{job}-step")
        if job == "replay":
            perf.measure("budgetcore:replay-python", "budgetcore:replay-step", "budgetcore:ops")
        if job == "tune" and "tune" not in self.state.scheduled:
            perf.mark("budgetcore:tune-done")

    # ---------------------------------------------------------------- painting
    def paint(self) -> None:
        """The main screen now; the panels in the next frame, so the readouts never wait."""
        ops, self.painted = main_ops(self.state, self.painted)
        write(ops)
        if not self.frame:
            self.frame = True
            window.requestAnimationFrame(create_once_callable(self.next_frame))

    def next_frame(self, _t: float) -> None:
        self.frame = False
        self.paint_panels()

    def paint_panels(self) -> None:
        active = document.activeElement  # a Tune cell in hand keeps the focus
        grid = active.closest("[data-tune-map]") if active else None
        cell = active.getAttribute("data-tune-cell") if grid else None
        held = (str(grid.getAttribute("data-tune-map")), str(cell)) if grid and cell else None
        session = active.getAttribute("data-replay-session") if active else None  # a session too
        width = lambda: self.box_width("#curves-out")  # noqa: E731 - measured only to draw
        ops, self.painted = panel_ops(self.state, self.painted, width, held, session)
        window.performance.mark("budgetcore:ops")
        write(ops)

    def load_model_data(self) -> None:
        # The registry and the peers' rules parse after "ready", in three tasks (registry;
        # peers and repaint; the collector), so none holds the page for their sum.
        window.performance.mark("budgetcore:registry-start")
        try:
            from budgetcore.registry.models import default_registry  # noqa: PLC0415

            registry = default_registry()
        except Exception as exc:
            self.dispatch(E.failed(exc))
            return
        # scripts/bench reads this measure: the registry's import, read and parse.
        window.performance.measure("budgetcore:registry-parse", "budgetcore:registry-start")
        later(0, lambda: self.model_data_loaded(registry))

    def model_data_loaded(self, registry: Any) -> None:
        window.performance.mark("budgetcore:model-data-start")
        try:
            import datetime  # noqa: PLC0415 - after ready, off the boot path

            from budgetcore.registry.peers import default_peers  # noqa: PLC0415

            # The clock is the shell's: the page marks deprecation dates already past.
            event: E.Event = E.ModelDataLoaded(
                registry, default_peers(), datetime.date.today().isoformat()
            )
        except Exception as exc:
            event = E.failed(exc)
        self.dispatch(event)
        window.performance.measure("budgetcore:model-data", "budgetcore:model-data-start")
        later(0, settle_gc)

    # ---------------------------------------------------------------- DOM events
    def on_event(self, event: Any) -> None:
        """An input, change or focusout on a control: its event from ui.dom."""
        try:
            target = dom.target_of(event.target)
            limit = dom.text_limit(target.attrs)
            if limit is not None and str(event.type) == "input":  # a paste box: what it holds
                held = target.value if target.length <= limit else None
                self.painted = self.painted.with_box(str(event.target.id), held)
            e = dom.event_of(str(event.type), target)
        except Exception as exc:
            e = E.failed(exc)
        self.dispatch(e)

    def on_paste(self, event: Any) -> None:
        """A paste into a paste box that would take it over its limit is refused before
        the browser inserts it (the box keeps what it had)."""
        box = event.target
        if not event.clipboardData or not box.matches("textarea"):
            return
        target = dom.target_of(box)
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
        grid = event.target.closest("[data-tune-map]")
        target, key = dom.target_of(event.target), str(event.key)
        e = dom.keydown_of(target, dom.target_of(grid) if grid else None, key, bool(event.shiftKey))
        if e is not None:
            event.preventDefault()  # handled: not the key's default
        write(e) if isinstance(e, list) else self.dispatch(e)

    def on_point_over(self, event: Any) -> None:
        cell = event.target.closest(dom.POINT_SELECTOR)
        pointer = str(getattr(event, "pointerType", "") or "")
        target = dom.target_of(cell) if cell else None
        self.dispatch(dom.point_of(str(event.type), pointer, target), main=False)

    def on_click(self, event: Any) -> None:
        nav = event.target.closest("[data-nav]")
        if nav:  # a move on the page only: no page event
            self.go_to(str(nav.getAttribute("data-nav")))
            return
        # closest() gives JsNull (falsy, not None) when nothing matches
        found = [event.target.closest(selector) for selector in dom.CLICK_SELECTORS]
        touch = str(getattr(event, "pointerType", "") or "") == "touch"
        e = dom.click_of(*(dom.target_of(el) if el else None for el in found), touch=touch)
        if e == "import":
            self.dispatch(dom.import_of(dom.target_of(q("#import-text")), self.import_mode()))
        elif isinstance(e, str):
            self.dispatch(E.ActionClicked(e))
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
        # stale plan's note and the warnings): measured now, not guessed in CSS. The
        # scroller's padding, not the section's margin, so that Chromium's scroll anchor
        # is chosen below the bar too (web/style.css says why).
        bar = q("#key")
        sticky = str(window.getComputedStyle(bar).position) == "sticky"
        window.document.documentElement.style.scrollPaddingTop = (
            f"{int(bar.getBoundingClientRect().height) if sticky else 0}px"
        )
        section.style.scrollMarginTop = "8px"
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
                files = event.target.files
                name = str(files.item(0).name) if files.length else ""
                self.dispatch(E.ImportFileChosen(name))
                items = await self.read_files(event, "config")
                if items:
                    self.dispatch(E.ImportFileLoaded(items[0][1], self.import_mode()))
                return
            # One source at a time: the other picker forgets its choice (the paint
            # empties it), so the page never names files ("4 files") that are not the
            # ones shown. Named first, in the page's language, before any is read.
            files = event.target.files
            names = tuple(
                str(f.webkitRelativePath or f.name)
                for f in (files.item(i) for i in range(min(files.length, 10_000)))
            )
            self.dispatch(E.ReplayFilesChosen(str(event.target.id), names))
            items = await self.read_files(event, "page-log")
            if items:  # read in steps, the import job (ui.replay.imports)
                self.dispatch(E.ReplayLogsLoaded(tuple(items)))
        except Exception as exc:
            self.dispatch(E.failed(exc))

    def on_toggle(self, event: Any) -> None:
        self.dispatch(dom.toggled_of(str(event.target.id), bool(event.target.open)))

    def on_replay_pointer(self, event: Any) -> None:
        svg = event.target.closest("[data-chart=replay-timeline]")
        if svg:
            x = int(event.clientX - svg.getBoundingClientRect().left)
            self.dispatch(dom.pointed_of(dom.target_of(svg), x))

    def on_hashchange(self, event: Any) -> None:
        # The event's own URL: a paint between the change and this handler may already
        # have put the state's fragment back (history.replaceState fires no hashchange).
        url = str(event.newURL)
        fragment = url[url.index("#") :] if "#" in url else ""
        self.dispatch(E.LinkOpened(fragment, str(window.navigator.language)))

    def on_resize(self, _event: Any) -> None:
        self.dispatch(E.Resized(self.box_width("#chart-funnel"), self.box_width("#experiments")))


async def turn() -> None:
    """The browser's turn (Pyodide's event loop runs a ready callback in a timer): the
    boot's Python ran as one task of 0.25-0.45 s on a loaded machine (scripts/bench's
    longest after the numbers are visible), the first use of each path compiling the
    interpreter's code on the way."""
    await asyncio.sleep(0)


async def boot() -> None:
    lang = "zh" if document.documentElement.lang == "zh-CN" else "en"
    q("#boot-stage").textContent = t("boot.drawing", lang)
    await turn()  # main.py's top and the first state were one task of 80-190 ms (traced)
    state = initial_state(width=Shell.box_width("#chart-funnel"))
    await turn()
    link = E.LinkOpened(str(window.location.hash), str(window.navigator.language))
    state, effects = update(state, link)
    await turn()
    shell = Shell(state, effects, lang)
    window.performance.mark("budgetcore:rendered")
    await turn()
    for selector, kind, handler in dom.LISTENERS:
        node = window if selector == "window" else q(selector)
        node.addEventListener(kind, create_proxy(getattr(shell, handler)))
    for name, hook in hooks.HOOKS.items():  # the tests' and the bench's hooks
        setattr(window, name, create_proxy(hook))
    for node in document.querySelectorAll("[data-wake]"):
        node.removeAttribute("inert")  # the controls wake up
    document.documentElement.dataset.state = "ready"
    later(0, shell.adopt)  # before anything paints
    later(0, shell.load_model_data)


# A top-level await: run_main (budgetcore.ui.snapshot) hands the coroutine to start.js,
# which awaits it, as Pyodide's runPythonAsync would.
try:
    await boot()  # type: ignore[top-level-await]  # noqa: F704, PLE1142
except Exception as exc:  # a readable error instead of a traceback
    document.documentElement.dataset.state = "error"
    q("#boot-error").textContent = f"Start-up failed: {type(exc).__name__}: {exc}"
