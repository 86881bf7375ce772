"""DOM glue for the controller page: read inputs, call budgetcore, write results.

Everything that decides anything lives in budgetcore (tested in CPython); this file
only moves values between the DOM and those pure functions. One immutable State is
replaced on every event and the page is re-rendered from it.
"""

import json
from dataclasses import dataclass, replace
from decimal import Decimal

from pyodide.ffi import create_once_callable, create_proxy, to_js
from pyscript import document, window

# User Timing marks: boot phases show up in DevTools and in scripts/bench.
window.performance.mark("budgetcore:main-start")

from budgetcore import ScenarioError, parse_scenario, plan, view  # noqa: E402 - after the mark
from budgetcore.contracts import ARTICLE_CONTRACT  # noqa: E402
from budgetcore.errors import Problem  # noqa: E402
from budgetcore.fragment import parse_fragment, to_fragment  # noqa: E402
from budgetcore.i18n import MESSAGES, pick, translate_problem  # noqa: E402
from budgetcore.scenario import (  # noqa: E402
    SCENARIO_FIELDS,
    Scenario,
    parse_average,
    parse_sample_lines,
    parse_scenario_json,
    samples_to_lines,
)

SPECS = {f.path: f for f in SCENARIO_FIELDS}
AVERAGES = ("samples.tokens_per_message", "samples.messages_per_session")
window.performance.mark("budgetcore:imported")


@dataclass(frozen=True)
class State:
    values: tuple  # ((path, value), ...): the last valid value of every field
    errors: tuple  # ((path, message), ...): fields whose typed text is invalid now
    summary_same: bool  # summary_model null: the summary shares the main contract
    plan: object  # the plan of the last valid scenario
    export_format: str = "toml"
    samples: tuple = ()  # ((key, value), ...) of the samples section (JSON shape)

    def with_value(self, path, value=None, error=None):
        values, errors = dict(self.values), dict(self.errors)
        if error is None:
            values[path] = value
            errors.pop(path, None)
        else:
            errors[path] = error
        return replace(self, values=tuple(values.items()), errors=tuple(errors.items()))

    def replanned(self):
        """Re-plan when every field is valid; otherwise keep the last valid plan."""
        if self.errors:
            return self
        data = {spec.section: {} for spec in SCENARIO_FIELDS}
        for path, value in self.values:
            if path not in SPECS:
                continue  # the sample averages travel in self.samples
            section, name = path.split(".", 1)
            data[section][name] = str(value) if isinstance(value, Decimal) else value
        if self.summary_same:
            data["summary_model"] = None
        data["samples"] = dict(self.samples)
        return replace(self, plan=plan(parse_scenario(data)))


def q(selector):
    return document.querySelector(selector)


def browser_lang():
    """Chinese when the browser prefers it, English otherwise."""
    return "zh" if str(window.navigator.language).lower().startswith("zh") else "en"


def show_list(selector, lines):
    """Fill a <ul> with one <li> per line, as text (never HTML: lines quote user input)."""
    target = q(selector)
    target.replaceChildren()
    for line in lines:
        item = document.createElement("li")
        item.textContent = line
        target.appendChild(item)


class Page:
    def __init__(self):
        self.export_ready = False
        # What the page says in its current language is rebuilt from these on a switch.
        self.sample_problems = []  # English problem texts of the pasted samples
        self.import_problems = []
        self.link_problems = []
        self.outcome = None  # the last experiment's Outcome
        link = parse_fragment(str(window.location.hash))
        ui = dict(link.ui)
        self.lang_chosen = ui.get("lang") in ("en", "zh")  # kept in the link once chosen
        self.lang = ui["lang"] if self.lang_chosen else browser_lang()
        q("#boot-stage").textContent = "Drawing the plan"
        q("#controls").innerHTML = view.controls_html()
        q("#background").innerHTML = view.background_html()
        q("#readouts").innerHTML = view.readouts_html()
        self.fields = {p: q(f'[data-input="{p}"]') for p in SPECS}
        # Only fields that have one (a missing element is JsNull in Pyodide, not None).
        self.sliders = {
            e.getAttribute("data-slider"): e for e in document.querySelectorAll("[data-slider]")
        }
        self.messages = {p: q(f'[data-msg="{p}"]') for p in SPECS}
        for avg in AVERAGES:
            self.fields[avg] = q(f'[data-sample-avg="{avg}"]')
            self.messages[avg] = q(f'[data-msg="{avg}"]')
        self.readouts = {e.dataset.key: e for e in document.querySelectorAll("[data-key]")}
        self.lamps = {e.dataset.lamp: e for e in document.querySelectorAll("[data-lamp]")}
        self.charts = {k: q(f"#chart-{k}") for k in ("funnel", "branch", "work")}
        self.cells_a = {e.dataset.keyA: e for e in document.querySelectorAll("[data-key-a]")}
        self.cells_delta = {
            e.dataset.keyDelta: e for e in document.querySelectorAll("[data-key-delta]")
        }
        self.pinned = None  # the Plan pinned as A, or None
        self.pinned_values = None  # its as_dict(), computed once per pin
        self.charts_a_drawn = None  # (pinned plan, lang) whose charts are on screen
        q("#experiment-buttons").innerHTML = view.experiment_buttons_html()
        self.results = q("#results")
        # The URL fragment is the scenario's difference from the defaults; a bad pair
        # falls back to its default and is named on the page.
        self.link_problems = [str(p) for p in link.problems]
        self.apply_language()
        self.load(link.scenario)

    # ---------------------------------------------------------------- language
    def say(self, key, **values):
        text = pick(MESSAGES[key], self.lang)
        return text.format(**values) if values else text

    def apply_language(self):
        """Retext every static and generated label; dynamic parts re-render."""
        lang = self.lang
        document.documentElement.lang = "zh-CN" if lang == "zh" else "en"
        q("#lang").value = lang
        for el in document.querySelectorAll("[data-i18n]"):
            el.textContent = view.text_for(el.getAttribute("data-i18n"), lang)
        for path, slider in self.sliders.items():
            label = view.text_for(f"label:{path}", lang)
            slider.setAttribute("aria-label", label + view.phrase("slider", lang))
        q("#experiment-buttons").innerHTML = view.experiment_buttons_html(lang)  # ours
        q("#link-problems").textContent = (
            self.say("link-problems")
            + "; ".join(translate_problem(t, lang) for t in self.link_problems)
            if self.link_problems
            else ""
        )
        show_list("#sample-errors", [translate_problem(t, lang) for t in self.sample_problems])
        show_list("#import-errors", [translate_problem(t, lang) for t in self.import_problems])

    def load(self, scenario):
        """Show ``scenario`` in every control and plan it."""
        values = view.scenario_inputs(scenario)
        for path, value in values.items():
            self.show_value(path, value)
        same = scenario.summary_model is None
        q('[data-toggle="summary_model"]').checked = same
        q("#summary-fields").hidden = same
        q("#preset").value = "article" if scenario.main_model == ARTICLE_CONTRACT else ""
        old_format = getattr(getattr(self, "state", None), "export_format", "toml")
        samples = scenario.to_json_dict()["samples"]
        q("#samples-text").value = samples_to_lines(scenario.samples)
        self.sample_problems = []
        show_list("#sample-errors", [])
        for avg in AVERAGES:
            value = samples[avg.split(".", 1)[1]]
            self.fields[avg].value = "" if value is None else value
        self.state = State(
            tuple(values.items()), (), same, plan(scenario), old_format, tuple(samples.items())
        )
        self.render()

    # ---------------------------------------------------------------- writing
    def show_value(self, path, value):
        if SPECS[path].kind == "bool":
            self.fields[path].checked = bool(value)
            return
        self.fields[path].value = view.format_input(path, value)
        self.show_slider(path, value)

    def show_slider(self, path, value):
        if path in self.sliders:
            self.sliders[path].value = str(view.slider_position(path, value))

    def render(self):
        errors = dict(self.state.errors)
        for path, msg in self.messages.items():
            text = translate_problem(errors.get(path, ""), self.lang)
            if msg.textContent != text:
                msg.textContent = text  # text, never HTML: it quotes what was typed
                if text:
                    self.fields[path].setAttribute("aria-invalid", "true")
                else:
                    self.fields[path].removeAttribute("aria-invalid")
        self.results.dataset.stale = "true" if errors else "false"
        if errors:
            return  # the last valid plan stays on screen, marked stale
        values = self.state.plan.as_dict()
        lang = self.lang
        for key, (text, value) in view.readouts(self.state.plan, values, lang).items():
            el = self.readouts.get(key)
            if el is not None and el.textContent != text:
                el.textContent = text
            if value is not None:
                for target in (el, self.lamps.get(key)):
                    if target is not None:
                        target.dataset.value = value
        for key, svg in view.charts_svg(self.state.plan, lang).items():
            # Built by budgetcore.view from our own constants and formatted integers.
            self.charts[key].innerHTML = svg
        q("#samples-out").innerHTML = view.samples_html(self.state.plan, values, lang)  # ours
        self.render_ab(values)
        if self.export_ready:
            self.render_export()
        if q("#curves").open:
            # The 500-point sweep redraws in the next frame, in a frame of its own, so
            # the readouts above never wait for it.
            window.requestAnimationFrame(create_once_callable(lambda _t: self.render_curves()))
        fragment = to_fragment(self.state.plan.scenario, lang=lang if self.lang_chosen else "")
        url = f"#{fragment}" if fragment else window.location.pathname
        if str(window.location.hash) != (f"#{fragment}" if fragment else ""):
            window.history.replaceState(None, "", url)

    # ---------------------------------------------------------------- A/B
    def pin(self, plan_a):
        self.pinned = plan_a
        self.pinned_values = None if plan_a is None else plan_a.as_dict()

    def render_ab(self, values=None):
        """A and B − A on every readout; A's charts only when A or the language changed."""
        self.results.dataset.ab = "on" if self.pinned is not None else "off"
        if self.pinned is None:
            return
        cells = view.ab_cells(
            self.pinned,
            self.state.plan,
            self.lang,
            a_values=self.pinned_values,
            b_values=values,
        )
        for key, (a_text, delta) in cells.items():
            self.cells_a[key].textContent = a_text
            self.cells_delta[key].textContent = delta
        if self.charts_a_drawn == (self.pinned, self.lang):
            return
        self.charts_a_drawn = (self.pinned, self.lang)
        charts = view.charts_svg(self.pinned, self.lang)
        heading = view.phrase("col-a", self.lang)
        q("#charts-a").innerHTML = "".join(  # ours: constants and formatted integers
            f'<h3>{heading}</h3><div class="chart" data-chart-a="{k}">{svg}</div>'
            for k, svg in charts.items()
        )

    def run_experiment(self, key):
        from budgetcore.experiments import BY_KEY, run  # noqa: PLC0415 - on first use

        self.outcome = run(BY_KEY[key], self.state.plan.scenario)
        self.pin(self.outcome.before)
        self.load(self.outcome.after.scenario)
        self.render_outcome()

    def render_outcome(self):
        target = q("#experiment-result")
        if self.outcome is None:
            target.replaceChildren()
        else:
            target.innerHTML = view.experiment_html(self.outcome, self.lang)  # escaped, ours

    # ---------------------------------------------------------------- capacity curves
    def init_curves(self):
        q("#sweep-path").innerHTML = view.sweep_options_html(self.lang)
        self.set_sweep_path("config.summary_max_tokens")
        q("#curves").addEventListener("toggle", create_proxy(lambda _e: self.render_curves()))

    def set_sweep_path(self, path):
        from budgetcore.curves import default_range  # noqa: PLC0415 - on first use

        q("#sweep-path").value = path
        low, high = default_range(self.state.plan.scenario, path)
        self.sweep = (path, low, high)
        q("#sweep-low").value = view.format_input(path, low)
        q("#sweep-high").value = view.format_input(path, high)
        q("#sweep-msg").textContent = ""

    def set_sweep_bound(self, which, text):
        path, low, high = self.sweep
        spec_path = "main_model.input_tokens" if path.startswith("summary_model.") else path
        try:
            value = view.parse_input(spec_path, text)
        except ScenarioError as exc:
            q("#sweep-msg").textContent = view.problem_text(exc, self.lang).replace(
                spec_path, f"sweep {which}"
            )
            return
        low, high = (value, high) if which == "low" else (low, value)
        if not low < high:
            q("#sweep-msg").textContent = self.say("sweep-order")
            return
        q("#sweep-msg").textContent = ""
        self.sweep = (path, low, high)

    def render_curves(self):
        if not q("#curves").open or self.state.errors:
            return
        from budgetcore.curves import sweep, sweep_values  # noqa: PLC0415 - on first use

        path, low, high = self.sweep
        perf = window.performance
        perf.mark("budgetcore:sweep-start")
        values = sweep_values(low, high, path)
        result = sweep(self.state.plan.scenario, path, values)
        q("#curves-out").innerHTML = view.curves_svg(result, self.lang)
        # scripts/bench reads these measures: the sweep's redraw time, in the page.
        perf.measure("budgetcore:sweep", "budgetcore:sweep-start")

    def render_export(self):
        # The config module (hashlib, tomllib, tomli-w) loads on first use, after the
        # page is ready: the plan and its charts do not wait for it.
        self.export_ready = True
        scenario = self.state.plan.scenario
        q("#export-text").textContent = view.export_text(scenario, self.state.export_format)
        q("#export-diff").innerHTML = view.export_diff_html(scenario, self.lang)  # ours

    # ---------------------------------------------------------------- events
    def next_state(self, target):
        """The State after an input event on ``target``, or None if it is not ours."""
        state = self.state
        path = target.getAttribute("data-slider")  # None when absent
        if path:
            value = view.slider_value(path, int(target.value))
            self.fields[path].value = view.format_input(path, value)
            return state.with_value(path, value)
        path = target.getAttribute("data-input")
        if path:
            if path.startswith("main_model."):
                q("#preset").value = ""  # a hand-edited contract is no longer the preset
            if SPECS[path].kind == "bool":
                return state.with_value(path, bool(target.checked))
            try:
                value = view.parse_input(path, target.value)
            except ScenarioError as exc:
                return state.with_value(path, error=view.problem_text(exc))
            self.show_slider(path, value)
            return state.with_value(path, value)
        if target.getAttribute("data-toggle") == "summary_model":
            q("#summary-fields").hidden = bool(target.checked)
            return replace(state, summary_same=bool(target.checked))
        sweep_part = target.getAttribute("data-sweep")
        if sweep_part == "path":
            self.set_sweep_path(str(target.value))
            return state
        if sweep_part in ("low", "high"):
            self.set_sweep_bound(sweep_part, str(target.value))
            return state
        if target.hasAttribute("data-samples"):
            return self.with_sample_lines(state, target.value)
        path = target.getAttribute("data-sample-avg")
        if path:
            text = str(target.value).strip()
            try:
                value = parse_average(text or None, path)
            except ScenarioError as exc:
                return state.with_value(path, error=view.problem_text(exc))
            samples = dict(state.samples)
            samples[path.split(".", 1)[1]] = None if value is None else str(value)
            return replace(state.with_value(path, value), samples=tuple(samples.items()))
        if target.hasAttribute("data-lang"):
            self.lang, self.lang_chosen = str(target.value), True
            self.apply_language()
            path = self.sweep[0]
            q("#sweep-path").innerHTML = view.sweep_options_html(self.lang)
            q("#sweep-path").value = path
            self.render_outcome()
            return state
        if target.hasAttribute("data-export-format"):
            return replace(state, export_format=str(target.value))
        if target.getAttribute("data-preset") == "main_model" and target.value:
            _label, i, o, r = view.PRESETS[target.value]
            for name, value in (("input_tokens", i), ("output_tokens", o), ("reserves_output", r)):
                self.show_value(f"main_model.{name}", value)
                state = state.with_value(f"main_model.{name}", value)
            return state
        return None

    def with_sample_lines(self, state, text):
        """Keep every valid pasted line; list the bad ones by line number."""
        lines, problems = parse_sample_lines(text)
        self.sample_problems = [str(p) for p in problems]
        show_list("#sample-errors", [translate_problem(t, self.lang) for t in self.sample_problems])
        samples = {**dict(state.samples), **lines}
        return replace(state, samples=tuple(samples.items()))

    def on_input(self, event):
        try:
            state = self.next_state(event.target)
            if state is None:
                return
            self.state = state.replanned()
            self.render()
        except Exception as exc:  # never a traceback on the page
            q("#status").textContent = f"{self.say('internal')}{type(exc).__name__}: {exc}"

    def on_click(self, event):
        action = event.target.getAttribute("data-action")
        if action == "engine-drops":
            path = "workload.engine_summary_tokens"
            self.show_value(path, 0)
            self.state = self.state.with_value(path, 0).replanned()
            self.render()
        elif action == "download":
            self.download()
        elif action == "copy":
            text = q("#export-text").textContent
            window.navigator.clipboard.writeText(text)
            q("#copy-status").textContent = self.say("copied")
        elif action == "import":
            self.import_config(q("#import-text").value)
        elif action == "pin":
            if not self.state.errors:
                self.pin(self.state.plan)
                self.render_ab()
        elif action == "unpin":
            self.pin(None)
            self.outcome = None
            self.render_outcome()
            self.render_ab()
        elif action == "copy-link":
            window.navigator.clipboard.writeText(str(window.location.href))
            q("#toolbar-status").textContent = self.say("link-copied")
        elif action == "reset":
            self.pin(None)
            self.outcome = None
            self.render_outcome()
            self.link_problems = []
            q("#link-problems").textContent = ""
            self.load(Scenario())
        elif event.target.hasAttribute("data-experiment"):
            self.run_experiment(event.target.getAttribute("data-experiment"))
        elif action == "example-samples":
            q("#samples-text").value = view.EXAMPLE_SAMPLES
            state = self.with_sample_lines(self.state, view.EXAMPLE_SAMPLES)
            samples = dict(state.samples)
            for avg in AVERAGES:
                name = avg.split(".", 1)[1]
                self.fields[avg].value = view.EXAMPLE_AVERAGES[name]
                samples[name] = view.EXAMPLE_AVERAGES[name]
                state = state.with_value(avg, Decimal(view.EXAMPLE_AVERAGES[name]))
            self.state = replace(state, samples=tuple(samples.items())).replanned()
            self.render()

    def download(self):
        fmt = self.state.export_format
        text = view.export_text(self.state.plan.scenario, fmt)
        mime = "application/toml" if fmt == "toml" else "application/json"
        blob = window.Blob.new(
            [text], to_js({"type": mime}, dict_converter=window.Object.fromEntries)
        )
        url = window.URL.createObjectURL(blob)
        link = document.createElement("a")
        link.href = url
        link.download = f"budgetcore-overrides.{fmt}"
        link.click()
        window.setTimeout(create_once_callable(lambda: window.URL.revokeObjectURL(url)), 1000)

    def import_config(self, text):
        from budgetcore.config import apply_overrides, parse_config  # noqa: PLC0415

        ok = q("#import-ok")
        ok.textContent = ""
        self.import_problems = []
        try:
            overrides = parse_config(text)
            if self.state.errors:
                raise ScenarioError(
                    [Problem("page", "has invalid fields; fix them before importing")]
                )  # translated with the other rules
            scenario = apply_overrides(self.state.plan.scenario, overrides)
        except ScenarioError as exc:
            self.import_problems = [str(p) for p in exc.problems]
            show_list(
                "#import-errors", [translate_problem(t, self.lang) for t in self.import_problems]
            )
            return
        show_list("#import-errors", [])
        self.load(scenario)
        keys = ", ".join(overrides) or "none"
        ok.textContent = self.say("applied", n=str(len(overrides)), keys=keys)

    async def on_file(self, event):
        files = event.target.files
        if files.length:
            text = await files.item(0).text()
            q("#import-text").value = text
            self.import_config(text)


# ---------------------------------------------------------------- hooks for tests and users
def plan_json(text):
    """Plan a scenario JSON text with the very code the page runs."""
    try:
        return json.dumps(plan(parse_scenario_json(text)).as_dict())
    except ScenarioError as exc:
        return json.dumps({"error": exc.one_line()})


def plan_batch_json(text):
    """Plan a JSON array of scenarios; a JSON array of plans (or errors) comes back."""
    return json.dumps([json.loads(plan_json(json.dumps(item))) for item in json.loads(text)])


def boot():
    page = Page()
    window.performance.mark("budgetcore:rendered")
    page.init_curves()
    app = q("#app")
    app.addEventListener("input", create_proxy(page.on_input))
    app.addEventListener("click", create_proxy(page.on_click))
    q("#import-file").addEventListener("change", create_proxy(page.on_file))
    q("#lang").addEventListener("input", create_proxy(page.on_input))  # in the header
    window.budgetcorePlan = create_proxy(plan_json)
    window.budgetcorePlanBatch = create_proxy(plan_batch_json)
    document.documentElement.dataset.state = "ready"
    window.setTimeout(create_once_callable(page.render_export), 0)


try:
    boot()
except Exception as exc:  # a readable error instead of a traceback
    document.documentElement.dataset.state = "error"
    q("#boot-error").textContent = f"Start-up failed: {type(exc).__name__}: {exc}"
