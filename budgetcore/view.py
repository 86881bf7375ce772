"""What the page shows, as pure functions: control markup, input parsing, readouts, SVG.

The browser glue (``web/main.py``) only moves strings between these functions and the
DOM, so everything here is tested in CPython. Text that reaches ``innerHTML`` is built
from our own constants and formatted integers, always escaped; user-typed text is only
ever written back with ``value``/``textContent``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from html import escape
from typing import Any

from budgetcore.errors import ScenarioError
from budgetcore.geometry import Chart, Segment, branch_chart, funnel_chart, work_chart
from budgetcore.plan import OUTPUT_KEYS, Plan
from budgetcore.scenario import SCENARIO_FIELDS, FieldSpec, Scenario, parse_field
from budgetcore.units import format_int

__all__ = [
    "BOOL_KEYS",
    "FIELD_UI",
    "READOUT_KEYS",
    "FieldUI",
    "charts_svg",
    "controls_html",
    "format_input",
    "parse_input",
    "readouts",
    "scenario_inputs",
    "slider_position",
    "slider_value",
]

SLIDER_STEPS = 1000


@dataclass(frozen=True, slots=True)
class FieldUI:
    label: str
    hint: str
    low: int  # slider range; the exact field accepts anything the rule allows
    high: int
    log: bool = True


_MODEL = {
    "input_tokens": FieldUI("Input capacity I", "tokens the model accepts", 1_000, 10_000_000),
    "output_tokens": FieldUI("Output capacity O", "tokens the model can emit", 256, 1_000_000),
    "reserves_output": FieldUI(
        "Reserves output in the window (q = 1)",
        "the local adapter subtracts the generation budget from I",
        0,
        1,
    ),
}

FIELD_UI: dict[str, FieldUI] = {
    **{f"main_model.{k}": v for k, v in _MODEL.items()},
    **{f"summary_model.{k}": v for k, v in _MODEL.items()},
    "config.trigger_tokens": FieldUI(
        "Trigger line K", "soft: above it, try to summarise later", 1_000, 10_000_000
    ),
    "config.summary_max_tokens": FieldUI(
        "Summary cap S", "clamped by the summary model's O", 256, 1_000_000
    ),
    "config.safety_margin": FieldUI(
        "Safety margin m", "decimal in [0, 1), e.g. 0.10", 0, 50, log=False
    ),
    "config.reply_max_tokens": FieldUI(
        "Reply budget o", "main reply generation budget", 256, 1_000_000
    ),
    "workload.required_tokens": FieldUI(
        "Required input F", "rules, tool schemas, current input, working turn", 100, 10_000_000
    ),
    "workload.summary_tokens": FieldUI(
        "Summary + wrapper A (loader)", "as the loader costs it", 100, 10_000_000
    ),
    "workload.engine_summary_tokens": FieldUI(
        "Summary + wrapper A (engine)",
        "empty = same as loader; 0 = engine drops it",
        100,
        10_000_000,
    ),
    "workload.history_tokens": FieldUI(
        "Uncovered history", "raw history available to the main request", 100, 10_000_000
    ),
    "workload.summary_instruction_tokens": FieldUI(
        "Summary instructions", "instructions and wrapper of the summary call", 100, 1_000_000
    ),
    "workload.previous_summary_tokens": FieldUI(
        "Previous summary", "the current cumulative summary", 100, 1_000_000
    ),
    "workload.backlog_tokens": FieldUI(
        "Backlog from c", "empty = at least the budget", 100, 10_000_000
    ),
    "workload.usage_baseline_tokens": FieldUI(
        "Provider usage baseline", "empty = none (use the local estimate)", 100, 10_000_000
    ),
    "workload.replay_since_baseline_tokens": FieldUI(
        "Replay since baseline", "tokens added after that baseline", 100, 10_000_000
    ),
    "limits.directory_sessions_read": FieldUI("Directory sessions read", "sessions", 1, 100_000),
    "limits.raw_records_read": FieldUI("Raw records read", "records", 1, 1_000_000),
    "limits.directory_page_size": FieldUI("Directory page", "sessions per page", 1, 10_000),
    "limits.message_page_size": FieldUI("Message page", "records per page", 1, 100_000),
    "limits.raw_bson_bytes": FieldUI(
        "Raw BSON admitted", "bytes (2 MiB = 2,097,152)", 1_024, 1_073_741_824
    ),
    "limits.full_read_ms": FieldUI("Full read time", "milliseconds", 10, 600_000),
    "limits.single_query_ms": FieldUI("Single query time", "milliseconds", 10, 600_000),
    "limits.raw_bson_batch": FieldUI("Raw BSON batch", "records per driver batch", 1, 10_000),
    "limits.tool_result_tokens": FieldUI(
        "Tool result cap in summary input", "tokens, each result", 100, 1_000_000
    ),
    "limits.recall_calls_per_request": FieldUI("History recall calls", "per request", 1, 100),
    "limits.recall_pack_tokens": FieldUI("Recall pack", "tokens per returned pack", 100, 1_000_000),
    "limits.recall_slice_code_points": FieldUI(
        "Recall slice", "Unicode code points (not tokens)", 100, 1_000_000
    ),
    "limits.background_runs_per_process": FieldUI("Background runs", "per process", 1, 100),
    "limits.model_timeout_s": FieldUI("Model timeout", "seconds; <= run timeout", 1, 3_600),
    "limits.run_timeout_s": FieldUI("Run timeout", "seconds; < lease", 1, 3_600),
    "limits.lease_s": FieldUI("Lease", "seconds", 1, 3_600),
    "background.billing_recorded": FieldUI("Billing record valid", "", 0, 1),
    "background.idle_slot": FieldUI("Idle background slot", "", 0, 1),
    "background.lease_acquired": FieldUI("Lease acquired", "", 0, 1),
}

_SPECS: dict[str, FieldSpec] = {f.path: f for f in SCENARIO_FIELDS}

# ------------------------------------------------------------------ input text

_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+|\d+", re.ASCII)


def parse_input(path: str, text: str) -> object:
    """Parse what a person typed into the field ``path``.

    Integers may carry thousands separators in the right places ("1,048,576");
    "8k", "1.5" and "1,2,3" are refused with the field's rule. An empty nullable
    field means null. Raises ScenarioError naming the field, the rule and the text.
    """
    spec = _SPECS[path]
    text = text.strip()
    if spec.nullable and text == "":
        return None
    raw: object = text
    if spec.kind in ("tokens", "positive") and _GROUPED.fullmatch(text):
        digits = text.replace(",", "")
        raw = int(digits) if len(digits) <= 40 else Decimal(digits)
    return parse_field(spec, raw)


def format_input(path: str, value: object) -> str:
    """The text a field shows for a valid value: full integers with separators."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return format_int(value)
    return str(value)


# ------------------------------------------------------------------ sliders


def _nice(value: Decimal) -> int:
    """Round to 3 significant digits so slider stops read as round numbers."""
    with localcontext() as ctx:
        ctx.prec = 3
        return int(+value)


def _log_stop(ui: FieldUI, position: int) -> int:
    # Stop 1 is ui.low and stop SLIDER_STEPS is ui.high, evenly spaced in log space.
    # Decimal ln/exp in a local context: slider stops are coarse by design, and the
    # exact field beside each slider takes any integer. The two ends are exact.
    if position <= 1:
        return ui.low
    if position >= SLIDER_STEPS:
        return ui.high
    with localcontext() as ctx:
        ctx.prec = 30
        lo, hi = Decimal(ui.low).ln(), Decimal(ui.high).ln()
        return _nice(((hi - lo) * (position - 1) / (SLIDER_STEPS - 1) + lo).exp())


def slider_value(path: str, position: int) -> object:
    """The value of slider stop ``position`` (0..SLIDER_STEPS); stop 0 is 0 tokens."""
    ui = FIELD_UI[path]
    if not ui.log:  # the margin: hundredths
        return Decimal(position) / 100 if position else Decimal(0)
    position = max(0, min(SLIDER_STEPS, position))
    return 0 if position == 0 else _log_stop(ui, position)


def slider_position(path: str, value: object) -> int:
    """The stop nearest ``value`` (values beyond the slider's range pin to its ends)."""
    ui = FIELD_UI[path]
    if value is None:
        return 0
    if not ui.log:
        assert isinstance(value, Decimal)
        return max(0, min(ui.high, int(value * 100)))
    assert isinstance(value, int)
    if value <= 0:
        return 0
    if value <= ui.low:
        return 1
    if value >= ui.high:
        return SLIDER_STEPS
    with localcontext() as ctx:
        ctx.prec = 30
        lo, hi = Decimal(ui.low).ln(), Decimal(ui.high).ln()
        guess = int((Decimal(value).ln() - lo) / (hi - lo) * (SLIDER_STEPS - 1)) + 1
    candidates = range(max(1, guess - 1), min(SLIDER_STEPS, guess + 1) + 1)
    return min(candidates, key=lambda i: abs(_log_stop(ui, i) - value))


def scenario_inputs(scenario: Scenario) -> dict[str, object]:
    """Every field's value by JSON path, for filling the form from a scenario."""
    data = scenario.to_json_dict()
    out: dict[str, object] = {}
    for spec in SCENARIO_FIELDS:
        section = data[spec.section]
        if section is None:  # summary_model null: show the main contract
            section = data["main_model"]
        value = section[spec.name]
        out[spec.path] = Decimal(value) if spec.kind == "margin" else value
    return out


# ------------------------------------------------------------------ controls

_GROUPS = (
    ("main_model", "Main model contract"),
    ("summary_model", "Summary model contract"),
    ("config", "Configured overrides"),
    ("workload", "Workload (scenario inputs)"),
    ("limits", "Runtime protections"),
)

PRESETS: dict[str, tuple[str, int, int, bool]] = {
    "article": ("Article example: 1,048,576 / 65,536, q = 1", 1_048_576, 65_536, True),
    "w200k": ("200,000 / 64,000, q = 1", 200_000, 64_000, True),
    "w128k": ("131,072 / 16,384, q = 0", 131_072, 16_384, False),
    "w32k": ("32,768 / 8,192, q = 1", 32_768, 8_192, True),
}


def _control(spec: FieldSpec) -> str:
    ui = FIELD_UI[spec.path]
    fid = "in-" + spec.path.replace(".", "-")
    path = escape(spec.path)
    msg = f'<p class="msg" id="{fid}-msg" role="alert" data-msg="{path}"></p>'
    hint = (
        f'<span class="hint" id="{fid}-hint" data-i18n="hint:{path}">{escape(ui.hint)}</span>'
        if ui.hint
        else ""
    )
    if spec.kind == "bool":
        return (
            f'<div class="field check"><input type="checkbox" id="{fid}" data-input="{path}">'
            f'<label for="{fid}" data-i18n="label:{path}">{escape(ui.label)}</label>'
            f"{hint}{msg}</div>"
        )
    mode = "decimal" if spec.kind == "margin" else "numeric"
    slider = (
        f'<input type="range" min="0" max="{ui.high if not ui.log else SLIDER_STEPS}" step="1" '
        f'data-slider="{path}" aria-label="{escape(ui.label)} (coarse)" tabindex="-1">'
    )
    return (
        f'<div class="field"><label for="{fid}" data-i18n="label:{path}">'
        f"{escape(ui.label)}</label>{hint}"
        f'<div class="pair">{slider}<input type="text" id="{fid}" data-input="{path}" '
        f'inputmode="{mode}" autocomplete="off" spellcheck="false" '
        f'aria-describedby="{fid}-hint {fid}-msg"></div>{msg}</div>'
    )


def controls_html() -> str:
    """The form's fieldsets, one control per scenario input except the background flags
    (those sit beside the 'summary will start' lamp)."""
    parts = []
    for section, title in _GROUPS:
        body = "".join(_control(s) for s in SCENARIO_FIELDS if s.section == section)
        extra = ""
        if section == "main_model":
            options = "".join(
                f'<option value="{k}" data-i18n="preset:{k}">{escape(v[0])}</option>'
                for k, v in PRESETS.items()
            )
            extra = (
                '<div class="field"><label for="preset" data-i18n="phrase:preset">Preset</label>'
                f'<select id="preset" data-preset="main_model">'
                f'<option value="" data-i18n="phrase:custom">custom</option>{options}'
                "</select></div>"
            )
        if section == "summary_model":
            extra = (
                '<div class="field check"><input type="checkbox" id="summary-same" '
                'data-toggle="summary_model" checked>'
                '<label for="summary-same" data-i18n="phrase:same-contract">'
                "Same contract as the main model</label></div>"
            )
            body = f'<div id="summary-fields" hidden>{body}</div>'
        if section == "workload":
            extra = (
                '<div class="field"><button type="button" id="engine-drops" '
                'data-action="engine-drops" data-i18n="phrase:engine-drops">'
                "Engine drops the summary (A engine = 0)</button></div>"
            )
        parts.append(
            f'<fieldset data-group="{section}"><legend data-i18n="group:{section}">'
            f"{escape(title)}</legend>"
            f"{extra}{body}</fieldset>"
        )
    return "".join(parts)


def background_html() -> str:
    return "".join(_control(s) for s in SCENARIO_FIELDS if s.section == "background")


# ------------------------------------------------------------------ readouts

READOUT_LABELS: dict[str, str] = {
    "main_safe_input": "M — main safe input",
    "summary_cap": "S — summary cap (effective)",
    "summary_generation": "G — summary generation budget",
    "summary_safe_input": "C — summary call safe input",
    "summary_new_raw_budget": "New raw budget max(0, min(64,000, C − E))",
    "summary_new_raw": "New raw this round",
    "summary_work_input": "Summary work input",
    "summary_work_total": "Work input + G",
    "recompress_needed": "Recompress needed",
    "loader_prefetch_limit": "Loader prefetch limit",
    "prefetched": "Prefetched",
    "summary_adopted": "Summary adopted by the engine",
    "engine_raw_headroom": "Engine raw headroom",
    "raw_selected": "Raw selected",
    "full_input": "Full input",
    "admitted": "Admitted (F ≤ M)",
    "soft_estimate": "Soft estimate T",
    "trigger_reached": "Trigger reached (T ≥ K)",
    "summary_cap_clamped": "S clamped by the summary model",
    "summary_dropped": "Engine dropped the summary",
    "summary_will_start": "Summary will start",
}
READOUT_KEYS: tuple[str, ...] = tuple(READOUT_LABELS)
assert READOUT_KEYS[: len(OUTPUT_KEYS)] == OUTPUT_KEYS
BOOL_KEYS = frozenset(
    {
        "recompress_needed",
        "admitted",
        "trigger_reached",
        "summary_cap_clamped",
        "summary_dropped",
        "summary_will_start",
    }
)


def _yes(value: bool, lang: str) -> str:
    from budgetcore.i18n import MESSAGES, pick  # noqa: PLC0415

    return pick(MESSAGES["yes" if value else "no"], lang)


def readouts_html() -> str:
    """The readouts table; the A and B − A columns show only while A is pinned."""
    rows = "".join(
        f'<tr><th scope="row" data-i18n="readout:{key}">{escape(label)}</th>'
        f'<td class="num" data-key="{key}"{" data-value" if key in BOOL_KEYS else ""}></td>'
        f'<td class="num ab" data-key-a="{key}"></td>'
        f'<td class="num ab delta" data-key-delta="{key}"></td></tr>'
        for key, label in READOUT_LABELS.items()
    )
    head = (
        '<thead class="ab"><tr><th scope="col"></th>'
        '<th scope="col" data-i18n="phrase:col-b">B (editing)</th>'
        '<th scope="col" data-i18n="phrase:col-a">A (pinned)</th>'
        '<th scope="col">B − A</th></tr></thead>'
    )
    return f'<table class="readouts">{head}<tbody>{rows}</tbody></table>'


def readouts(
    p: Plan, values: dict[str, Any] | None = None, lang: str = "en"
) -> dict[str, tuple[str, str | None]]:
    """key -> (text, data-value). Integers in full with separators; booleans yes/no.
    ``values`` is ``p.as_dict()`` when the caller already has it."""
    out: dict[str, tuple[str, str | None]] = {}
    values = p.as_dict() if values is None else values
    for key in READOUT_KEYS:
        value = values[key]
        if isinstance(value, bool):
            out[key] = (_yes(value, lang), "true" if value else "false")
        else:
            out[key] = (format_int(value), None)
    out["has_work"] = (
        _yes(p.start.has_work, lang),
        "true" if p.start.has_work else "false",
    )
    return out


# ------------------------------------------------------------------ SVG

CHART_TEXT: dict[str, tuple[str, str]] = {
    "funnel": (
        "Main request funnel: M → loader → engine (areas proportional to tokens)",
        "Room on this chart does not mean I/O can actually read that much history.",
    ),
    "branch": (
        "Summary branch joining F and the raw tail into the full input",
        "The summary is a separate branch, not an extra layer of capacity after the funnel.",
    ),
    "work": (
        "Summary call: work input beside its generation budget G = S",
        "Work input is not the body cap, and budgets are not what the call actually spends.",
    ),
}

SEGMENT_LABELS: dict[str, str] = {
    "main_safe_input": "M",
    "loader_prefetch_limit": "loader prefetch limit",
    "prefetched": "prefetched",
    "engine_raw_headroom": "engine raw headroom",
    "raw_selected": "raw selected",
    "required": "F required",
    "loader_reserve": "A loader reserve",
    "summary_adopted": "A engine adopted",
    "full_required": "F",
    "full_summary": "A",
    "full_raw": "R",
    "instructions": "instructions",
    "previous_summary": "previous summary",
    "new_raw": "new raw",
    "generation": "G = S",
    "trigger": "K",
    "summary_safe_input": "C",
}


def _n(value: Fraction) -> str:
    """Pixels with at most two decimals, rounded half up (far below a screen pixel)."""
    num, den = value.numerator, value.denominator
    whole, hundredths = divmod((num * 200 + den) // (2 * den), 100)
    return str(whole) if not hundredths else f"{whole}.{hundredths:02d}".rstrip("0")


def chart_svg(chart: Chart, lang: str = "en") -> str:
    """SVG for one chart: every rect first, then every label, so no bar hides a label.

    Rows holding several segments (stacked) get one total label and a legend line
    listing each part's exact tokens.
    """
    title, caption = (CHART_TEXT_ZH if lang == "zh" else CHART_TEXT)[chart.key]
    seg_labels = SEGMENT_ZH if lang == "zh" else SEGMENT_LABELS
    stacked = {"branch": phrase("full-input", lang), "work": phrase("work-input", lang)}
    pad_top = 18
    h = chart.height + pad_top + 8
    rows: dict[Fraction, list[Segment]] = {}
    for seg in chart.segments:
        rows.setdefault(seg.y, []).append(seg)
    rects, labels, legend = [], [], []
    for y0, segs in rows.items():
        y = y0 + pad_top
        for seg in segs:
            label = f"{seg_labels[seg.key]} {format_int(seg.tokens)}"
            rects.append(
                f'<rect class="seg seg-{seg.key}" x="{_n(seg.x)}" y="{_n(y)}" '
                f'width="{_n(seg.width)}" height="{_n(seg.height)}" data-segment="{seg.key}" '
                f'data-tokens="{seg.tokens}"><title>{escape(label)}</title></rect>'
            )
        if len(segs) == 1:
            text = f"{seg_labels[segs[0].key]} {format_int(segs[0].tokens)}"
        else:
            total = sum(seg.tokens for seg in segs)
            text = f"{stacked[chart.key]} {format_int(total)}"
            legend.append(
                " + ".join(
                    f'<span class="key key-{seg.key}"></span>'
                    f"{escape(seg_labels[seg.key])} {format_int(seg.tokens)}"
                    for seg in segs
                )
            )
        labels.append(
            f'<text class="lbl" x="4" y="{_n(y + segs[0].height / 2 + 4)}">{escape(text)}</text>'
        )
    for m in chart.markers:
        rects.append(
            f'<line class="mark mark-{m.key}" x1="{_n(m.x)}" x2="{_n(m.x)}" y1="12" y2="{h}"/>'
        )
        labels.append(
            f'<text class="mlbl" x="{_n(min(m.x, Fraction(chart.width - 90)))}" y="10">'
            f"{escape(seg_labels.get(m.key, m.key))} {format_int(m.tokens)}</text>"
        )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {chart.width} {h}" '
        f'role="img" aria-label="{escape(title)}" data-chart="{chart.key}">'
        f"{''.join(rects)}{''.join(labels)}</svg>"
    )
    extra = [f'<p class="legend">{line}</p>' for line in legend]
    extra += [
        f'<p class="note">{escape(seg_labels.get(k, k))} = {format_int(t)} '
        f"{phrase('off-scale', lang)}</p>"
        for k, t in chart.notes
    ]
    return (
        f"<figure><figcaption><strong>{escape(title)}</strong></figcaption>{svg}"
        f'{"".join(extra)}<p class="caveat">{phrase("not", lang)}{escape(caption)}</p></figure>'
    )


def charts_svg(p: Plan, lang: str = "en") -> dict[str, str]:
    return {c.key: chart_svg(c, lang) for c in (funnel_chart(p), branch_chart(p), work_chart(p))}


def problem_text(exc: ScenarioError, lang: str = "en") -> str:
    from budgetcore.i18n import translate_problem  # noqa: PLC0415

    return translate_problem("; ".join(str(pr) for pr in exc.problems), lang)


# ------------------------------------------------------------------ config export / import


def export_text(scenario: Scenario, fmt: str) -> str:
    from budgetcore.config import export_json, export_toml  # noqa: PLC0415 - avoid a cycle

    return export_toml(scenario) if fmt == "toml" else export_json(scenario)


def export_diff_html(scenario: Scenario, lang: str = "en") -> str:
    """The overrides against their defaults, one row each; says so when there are none."""
    from budgetcore.config import REGISTRY, overrides_of  # noqa: PLC0415

    changed = overrides_of(scenario)
    if not changed:
        return f'<p class="diff-empty">{phrase("no-overrides", lang)}</p>'
    rows = "".join(
        f'<tr data-override="{escape(o.key)}"><th scope="row"><code>{escape(o.key)}</code></th>'
        f"<td>{escape(format_input(o.key, o.default))}</td>"
        f"<td><strong>{escape(format_input(o.key, changed[o.key]))}</strong></td>"
        f"<td>{escape(o.unit)}</td>"
        f"<td>{escape(o.meaning_zh if lang == 'zh' else o.meaning_en)}</td></tr>"
        for o in REGISTRY
        if o.key in changed
    )
    heads = "".join(f'<th scope="col">{h}</th>' for h in phrase("diff-head", lang).split("|"))
    return f'<table class="diff"><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>'


# ------------------------------------------------------------------ samples panel

EXAMPLE_SAMPLES = """# Made-up example samples: replace them with pairs measured on your own store.
{"channel": "text", "tokens": 812, "bytes": 2950}
{"channel": "text", "tokens": 1500, "bytes": 5720}
{"channel": "bson", "tokens": 812, "bytes": 3310}
{"channel": "bson", "tokens": 1500, "bytes": 6480}
{"channel": "json", "tokens": 812, "bytes": 3620}
{"channel": "json", "tokens": 1500, "bytes": 6900}
{"channel": "read", "bytes": 1048576, "ms": 38}
{"channel": "read", "bytes": 262144, "ms": 12}
{"channel": "query", "ms": 9}
{"channel": "query", "ms": 21}"""
EXAMPLE_AVERAGES = {"tokens_per_message": "350", "messages_per_session": "40"}

CHANNEL_LABELS = {"text": "UTF-8 text", "bson": "BSON", "json": "final model JSON"}
QUANTITY_LABELS = {
    "raw_selected": "raw selected",
    "full_input": "full input",
    "summary_work_input": "summary work input",
    "summary_cap": "S (summary cap)",
}
LIMIT_LABELS = {
    "token_budget": "token budget (loader prefetch limit)",
    "raw_bson_bytes": "raw BSON admitted",
    "raw_records_read": "raw records read",
    "directory_sessions_read": "directory sessions read",
    "full_read_ms": "full read time",
    "single_query_ms": "single query time",
}


def _ratio_text(value: str | None) -> str:
    if value is None:
        return "—"
    exact = Fraction(value)
    with localcontext() as ctx:
        ctx.prec = 28
        approx = Decimal(exact.numerator) / Decimal(exact.denominator)
    return f'<span title="exactly {escape(value)}">{approx:.4f}</span>'


def samples_html(p: Plan, values: dict[str, Any] | None = None, lang: str = "en") -> str:
    """Ratio ranges, byte predictions, the limits verdict and the read time."""
    from budgetcore.units import format_bytes  # noqa: PLC0415 - keeps the import list short

    out = p.as_dict() if values is None else values
    by = out["bytes"]
    zh = lang == "zh"
    channels = CHANNEL_ZH if zh else CHANNEL_LABELS
    quantities = QUANTITY_ZH if zh else QUANTITY_LABELS
    limit_labels = LIMIT_ZH if zh else LIMIT_LABELS
    unknown = "未知" if zh else "unknown"
    rows = "".join(
        f'<tr data-channel="{c}"><th scope="row">{channels[c]}</th>'
        f"<td>{by[c]['samples']}</td><td>{_ratio_text(by[c]['ratio_min'])}</td>"
        f"<td>{_ratio_text(by[c]['ratio_max'])}</td><td>{_ratio_text(by[c]['ratio_pooled'])}</td></tr>"
        for c in by
    )
    ratios = (
        f'<table class="grid"><caption>{phrase("ratios", lang)}</caption><thead><tr>'
        f'<th scope="col">{phrase("channel", lang)}</th>'
        f'<th scope="col">{phrase("samples", lang)}</th><th scope="col">min</th>'
        f'<th scope="col">max</th><th scope="col">{phrase("pooled", lang)}</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )
    cells = []
    for q, tokens in p.predicted_tokens().items():
        tds = []
        for c in by:
            pred = by[c]["predictions"][q]
            if pred == "unknown":
                tds.append(f'<td data-bytes="{c}.{q}" data-unknown="true">{unknown}</td>')
            else:
                tds.append(
                    f'<td data-bytes="{c}.{q}">{escape(format_bytes(pred["low"]))} – '
                    f"{escape(format_bytes(pred['high']))}<br><small>≈ "
                    f"{escape(format_bytes(pred['point']))}</small></td>"
                )
        cells.append(
            f'<tr><th scope="row">{quantities[q]} {format_int(tokens)} tokens</th>'
            f"{''.join(tds)}</tr>"
        )
    heads = "".join(f'<th scope="col">{channels[c]}</th>' for c in by)
    predictions = (
        f'<table class="grid"><caption>{escape(phrase("predicted", lang))}</caption>'
        '<thead><tr><th scope="col">tokens</th>'
        f"{heads}</tr></thead><tbody>{''.join(cells)}</tbody></table>"
    )
    first = out["first_binding_limit"]
    limit_rows = "".join(
        f'<tr data-limit="{r["key"]}"{_binding_attr(r["key"] == first)}>'
        f'<th scope="row">{limit_labels[r["key"]]}</th>'
        f"<td>{format_int(r['limit'])} {escape(r['unit'])}</td>"
        f"<td>{_tokens_text(r, lang)}</td><td>{escape(r['basis'])}</td></tr>"
        for r in out["io"]
    )
    verdict = (
        phrase("nothing-bites", lang)
        if first == "history"
        else phrase("first-bites", lang, name=limit_labels[first])
    )
    limits = (
        f'<table class="grid limits"><caption>{phrase("limits-caption", lang)}</caption>'
        f'<thead><tr><th scope="col">{phrase("limit", lang)}</th>'
        f'<th scope="col">{phrase("value", lang)}</th>'
        f'<th scope="col">{phrase("equivalent", lang)}</th>'
        f'<th scope="col">{phrase("basis", lang)}</th></tr></thead>'
        f'<tbody>{limit_rows}</tbody></table><p class="verdict" data-verdict="{first}">'
        f"{escape(verdict)}</p>"
    )
    t = out["time"]

    def num(v: int | None) -> str:
        return unknown if v is None else format_int(v)

    read_ms = t["read_ms"]
    read = (
        unknown
        if read_ms == "unknown"
        else f"{format_int(read_ms['low'])} – {format_int(read_ms['high'])} ms"
    )
    sentence = phrase(
        "time",
        lang,
        tokens=format_int(p.funnel.prefetched),
        records=num(t["records"]),
        sessions=num(t["sessions"]),
        pages=num(t["message_pages"]),
        dirs=num(t["directory_pages"]),
        read=read,
    )
    time = f'<p class="time" data-time>{escape(sentence)}</p>'
    return ratios + predictions + limits + time


def _binding_attr(binding: bool) -> str:
    return ' data-binding="true"' if binding else ""


def _tokens_text(row: dict[str, Any], lang: str = "en") -> str:
    if not row["known"]:
        return "未知" if lang == "zh" else "unknown"
    if row["tokens"] is None:
        return phrase("does-not-bite", lang)
    return format_int(row["tokens"])


# ------------------------------------------------------------------ capacity curves

SWEEP_LABELS = {
    "config.summary_max_tokens": "summary cap S",
    "config.trigger_tokens": "trigger line K",
    "main_model.input_tokens": "main model I",
    "summary_model.input_tokens": "summary model I",
    "config.safety_margin": "safety margin m",
    "workload.required_tokens": "required input F",
    "workload.previous_summary_tokens": "previous summary",
}
SERIES_LABELS = {
    "main_safe_input": "M",
    "full_input": "full input",
    "summary_safe_input": "C",
    "summary_new_raw_budget": "new raw budget",
    "summary_cap": "S",
    "summary_generation": "G",
}


def sweep_options_html(lang: str = "en") -> str:
    labels = SWEEP_ZH if lang == "zh" else SWEEP_LABELS
    return "".join(f'<option value="{k}">{escape(v)}</option>' for k, v in labels.items())


def curves_svg(s: Any, lang: str = "en") -> str:
    """Small multiples sharing the x axis, then the trigger and admission states."""
    from budgetcore.curves import (  # noqa: PLC0415 - only when the curves panel is open
        CURVE_WIDTH,
        PANEL_HEIGHT,
        STATE_HEIGHT,
        curve_panels,
        state_runs,
    )

    panels, current_x = curve_panels(s)
    series_labels = SERIES_ZH if lang == "zh" else SERIES_LABELS
    gap, label_h = 8, 14
    row = PANEL_HEIGHT + label_h + gap
    height = row * len(panels) + 2 * (STATE_HEIGHT + label_h) + 4
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CURVE_WIDTH} {height}" '
        f'role="img" aria-label="Capacity curves" data-chart="curves" '
        f'data-points="{len(s.values)}">'
    ]
    for i, panel in enumerate(panels):
        top = i * row + label_h
        label = (
            f"{series_labels[panel.key]}: {format_int(panel.low)} – {format_int(panel.high)}"
            + (
                phrase("here", lang, value=format_int(panel.current))
                if current_x is not None
                else ""
            )
        )
        pts = " ".join(f"{x},{y + top}" for x, y in panel.points)
        parts.append(
            f'<text class="lbl" x="2" y="{top - 3}">{escape(label)}</text>'
            f'<rect class="panel-bg" x="0" y="{top}" width="{CURVE_WIDTH}" '
            f'height="{PANEL_HEIGHT}"/>'
            f'<polyline class="curve curve-{panel.key}" data-series="{panel.key}" points="{pts}"/>'
        )
    top = len(panels) * row + label_h
    for key, title in (
        ("trigger_reached", phrase("trigger-reached", lang)),
        ("admitted", phrase("admitted", lang)),
    ):
        for x0, x1, flag in state_runs(s.states[key]):
            parts.append(
                f'<rect class="state state-{str(flag).lower()}" data-state-of="{key}" '
                f'x="{x0}" y="{top}" width="{x1 - x0}" height="{STATE_HEIGHT}"/>'
            )
        parts.append(
            f'<text class="lbl" x="2" y="{top - 3}">{title} {phrase("dark-yes", lang)}</text>'
        )
        top += STATE_HEIGHT + label_h
    if current_x is not None:
        parts.append(
            f'<line class="mark" data-current="{escape(str(s.current))}" x1="{current_x}" '
            f'x2="{current_x}" y1="0" y2="{height}"/>'
        )
    parts.append("</svg>")
    first, last = s.values[0], s.values[-1]

    def fmt(v: Any) -> str:
        return format_int(v) if isinstance(v, int) else str(v)

    name = (SWEEP_ZH if lang == "zh" else SWEEP_LABELS)[s.path]
    n = str(len(s.values))
    title = phrase("sweeping", lang, name=name, low=fmt(first), high=fmt(last), n=n)
    return (
        f"<figure><figcaption><strong>{escape(title)}</strong></figcaption>{''.join(parts)}"
        f'<p class="caveat">{phrase("not", lang)}{escape(phrase("curves-caveat", lang))}</p>'
        "</figure>"
    )


# ------------------------------------------------------------------ A/B and experiments


def format_signed(value: int) -> str:
    """A signed difference: '+1,234', '−1,234' (a real minus sign) or '0'."""
    if value > 0:
        return f"+{format_int(value)}"
    if value < 0:
        return f"\u2212{format_int(-value)}"
    return "0"


def ab_cells(
    a: Plan,
    b: Plan,
    lang: str = "en",
    *,
    a_values: dict[str, Any] | None = None,
    b_values: dict[str, Any] | None = None,
) -> dict[str, tuple[str, str]]:
    """key -> (A's text, B − A): integers as signed differences, booleans same/changed.
    ``a_values``/``b_values`` are the plans' ``as_dict()`` when the caller has them."""
    av = a.as_dict() if a_values is None else a_values
    bv = b.as_dict() if b_values is None else b_values
    out = {}
    for key in READOUT_KEYS:
        x, y = av[key], bv[key]
        if isinstance(x, bool):
            if lang == "zh":
                change = "相同" if x == y else "变化"
            else:
                change = "same" if x == y else "changed"
            out[key] = (_yes(x, lang), change)
        else:
            out[key] = (format_int(x), format_signed(y - x))
    return out


def _shown(value: object, lang: str = "en") -> str:
    if isinstance(value, bool):
        return _yes(value, lang)
    if isinstance(value, int):
        return format_int(value)
    return escape(str(value))


def experiment_html(outcome: Any, lang: str = "en") -> str:
    """The expected outcome as a sentence, then what changed and what did not."""
    e = outcome.experiment
    zh = lang == "zh"
    rows = "".join(
        f'<tr data-check="{c.key}" data-holds="{str(c.holds).lower()}">'
        f'<th scope="row">{escape(c.label_zh if zh else c.label_en)}</th>'
        f"<td>{_shown(c.before, lang)}</td>"
        f"<td>{_shown(c.after, lang)}</td><td>{escape(_expected(c.expected, lang))}</td>"
        f"<td>{'✓' if c.holds else '✗'}</td></tr>"
        for c in outcome.checks
    )
    verdict = phrase("holds" if outcome.holds else "fails", lang)
    heads = "".join(f'<th scope="col">{h}</th>' for h in phrase("watched", lang).split("|"))
    return (
        f'<div data-experiment-result="{e.key}" data-holds="{str(outcome.holds).lower()}">'
        f"<h3>{escape(e.title_zh if zh else e.title_en)}</h3>"
        f'<p class="expect">{escape(e.expect_zh if zh else e.expect_en)}</p>'
        f'<table class="grid"><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>'
        f'<p class="verdict">{escape(verdict)}</p></div>'
    )


_EXPECTED_ZH = {"changes": "变化", "grows": "增大", "same": "不变"}


def _expected(text: str, lang: str) -> str:
    if lang != "zh":
        return text
    if text.startswith("is "):
        return "为 " + _shown_text(text[3:], lang)
    return _EXPECTED_ZH.get(text, text)


def _shown_text(text: str, lang: str) -> str:
    return {"yes": _yes(True, lang), "no": _yes(False, lang)}.get(text, text)


def experiment_buttons_html(lang: str = "en") -> str:
    from budgetcore.experiments import EXPERIMENTS  # noqa: PLC0415

    return "".join(
        f'<button type="button" data-experiment="{e.key}">'
        f"{escape(e.title_zh if lang == 'zh' else e.title_en)}</button>"
        for e in EXPERIMENTS
    )


# ------------------------------------------------------------------ Chinese

_MODEL_ZH = {
    "input_tokens": ("输入能力 I", "模型可接收的 tokens"),
    "output_tokens": ("输出能力 O", "模型可生成的 tokens"),
    "reserves_output": ("在窗口内预留生成额度(q = 1)", "本地适配合同从 I 中扣除生成额度"),
}
FIELD_ZH: dict[str, tuple[str, str]] = {
    **{f"main_model.{k}": v for k, v in _MODEL_ZH.items()},
    **{f"summary_model.{k}": v for k, v in _MODEL_ZH.items()},
    "config.trigger_tokens": ("触发线 K", "软线:超过后在之后尝试摘要"),
    "config.summary_max_tokens": ("摘要上限 S", "受摘要模型输出能力 O 限幅"),
    "config.safety_margin": ("安全余量 m", "[0, 1) 之间的小数,如 0.10"),
    "config.reply_max_tokens": ("主回复生成额度 o", "主回复的总生成额度"),
    "workload.required_tokens": ("必需输入 F", "规则、工具 schema、本轮输入与工作轮"),
    "workload.summary_tokens": ("摘要及包装 A(Loader)", "Loader 预留的成本"),
    "workload.engine_summary_tokens": (
        "摘要及包装 A(Engine)",
        "留空 = 与 Loader 相同;0 = Engine 舍弃摘要",
    ),
    "workload.history_tokens": ("未覆盖历史", "主请求可用的原文历史"),
    "workload.summary_instruction_tokens": ("摘要指令", "摘要调用的指令与包装"),
    "workload.previous_summary_tokens": ("旧摘要", "当前的累计摘要"),
    "workload.backlog_tokens": ("c 之后的积压", "留空 = 至少为额度"),
    "workload.usage_baseline_tokens": ("Provider 输入基准", "留空 = 无(使用本地估算)"),
    "workload.replay_since_baseline_tokens": ("基准之后的重放", "基准之后新增的 tokens"),
    "limits.directory_sessions_read": ("目录访问 Session 数", "sessions"),
    "limits.raw_records_read": ("原文控制记录数", "records"),
    "limits.directory_page_size": ("目录页", "每页 sessions"),
    "limits.message_page_size": ("消息页", "每页 records"),
    "limits.raw_bson_bytes": ("原始 BSON 接纳量", "bytes(2 MiB = 2,097,152)"),
    "limits.full_read_ms": ("完整读取时限", "毫秒"),
    "limits.single_query_ms": ("单次查询时限", "毫秒"),
    "limits.raw_bson_batch": ("原始 BSON 批量", "每批 records"),
    "limits.tool_result_tokens": ("摘要输入中的工具结果上限", "tokens,每条结果"),
    "limits.recall_calls_per_request": ("历史回查次数", "每个请求"),
    "limits.recall_pack_tokens": ("回查返回包", "每个返回包的 tokens"),
    "limits.recall_slice_code_points": ("回查单片段", "Unicode code points(不是 tokens)"),
    "limits.background_runs_per_process": ("后台执行数", "每进程"),
    "limits.model_timeout_s": ("模型超时", "秒;≤ 执行超时"),
    "limits.run_timeout_s": ("执行超时", "秒;< 租约"),
    "limits.lease_s": ("租约", "秒"),
    "background.billing_recorded": ("原请求账单有效", ""),
    "background.idle_slot": ("有空闲后台名额", ""),
    "background.lease_acquired": ("已获得租约", ""),
}
GROUPS_ZH = {
    "main_model": "主模型合同",
    "summary_model": "摘要模型合同",
    "config": "配置覆盖项",
    "workload": "工作负载(场景输入)",
    "limits": "运行保护",
}
READOUT_ZH = {
    "main_safe_input": "M — 主调用安全输入容量",
    "summary_cap": "S — 摘要上限(生效值)",
    "summary_generation": "G — 摘要总生成额度",
    "summary_safe_input": "C — 摘要调用安全输入容量",
    "summary_new_raw_budget": "新增原文额度 max(0, min(64,000, C − E))",
    "summary_new_raw": "本轮新增原文",
    "summary_work_input": "摘要工作输入",
    "summary_work_total": "工作输入 + G",
    "recompress_needed": "需要重压",
    "loader_prefetch_limit": "Loader 预取上界",
    "prefetched": "已预取",
    "summary_adopted": "Engine 采用的摘要",
    "engine_raw_headroom": "Engine 原文余量",
    "raw_selected": "实际选中原文",
    "full_input": "完整输入",
    "admitted": "准入(F ≤ M)",
    "soft_estimate": "软判断估算 T",
    "trigger_reached": "达到触发线(T ≥ K)",
    "summary_cap_clamped": "S 被摘要模型限幅",
    "summary_dropped": "Engine 舍弃了摘要",
    "summary_will_start": "将启动摘要",
}
CHART_TEXT_ZH = {
    "funnel": (
        "主请求原文漏斗:M → Loader → Engine(面积对应 tokens)",
        "图上有空间,不代表 I/O 一定能读满这么多历史。",
    ),
    "branch": (
        "摘要独立分支:与必需输入和原文尾部汇合为完整输入",
        "摘要是独立分支,不是漏斗末尾额外增加的一层容量。",
    ),
    "work": (
        "摘要调用:工作输入与生成额度 G = S 分开展示",
        "输入大小不等于正文上限,额度也不等于实际消耗。",
    ),
}
SEGMENT_ZH = {
    "main_safe_input": "M",
    "loader_prefetch_limit": "Loader 预取上界",
    "prefetched": "已预取",
    "engine_raw_headroom": "Engine 原文余量",
    "raw_selected": "实际选中原文",
    "required": "必需输入 F",
    "loader_reserve": "Loader 预留 A",
    "summary_adopted": "Engine 采用 A",
    "full_required": "F",
    "full_summary": "A",
    "full_raw": "R",
    "instructions": "指令",
    "previous_summary": "旧摘要",
    "new_raw": "新增原文",
    "generation": "G = S",
    "trigger": "K",
    "summary_safe_input": "C",
}
CHANNEL_ZH = {"text": "UTF-8 正文", "bson": "BSON", "json": "最终模型 JSON"}
QUANTITY_ZH = {
    "raw_selected": "实际选中原文",
    "full_input": "完整输入",
    "summary_work_input": "摘要工作输入",
    "summary_cap": "S(摘要上限)",
}
LIMIT_ZH = {
    "token_budget": "token 额度(Loader 预取上界)",
    "raw_bson_bytes": "原始 BSON 接纳量",
    "raw_records_read": "原文控制记录数",
    "directory_sessions_read": "目录访问 Session 数",
    "full_read_ms": "完整读取时限",
    "single_query_ms": "单次查询时限",
}
SWEEP_ZH = {
    "config.summary_max_tokens": "摘要上限 S",
    "config.trigger_tokens": "触发线 K",
    "main_model.input_tokens": "主模型 I",
    "summary_model.input_tokens": "摘要模型 I",
    "config.safety_margin": "安全余量 m",
    "workload.required_tokens": "必需输入 F",
    "workload.previous_summary_tokens": "旧摘要",
}
SERIES_ZH = {
    "main_safe_input": "M",
    "full_input": "完整输入",
    "summary_safe_input": "C",
    "summary_new_raw_budget": "新增原文额度",
    "summary_cap": "S",
    "summary_generation": "G",
}
# Sentences the renderers compose: (English, Chinese), with {placeholders}.
PHRASES: dict[str, tuple[str, str]] = {
    "not": ("Not: ", "不能据此推断:"),
    "off-scale": ("(off scale)", "(超出刻度)"),
    "full-input": ("full input", "完整输入"),
    "work-input": ("work input", "工作输入"),
    "engine-drops": ("Engine drops the summary (A engine = 0)", "Engine 舍弃摘要(A engine = 0)"),
    "preset": ("Preset", "预设"),
    "custom": ("custom", "自定义"),
    "same-contract": ("Same contract as the main model", "与主模型相同的合同"),
    "slider": (" (coarse)", "(粗调)"),
    "col-b": ("B (editing)", "B(编辑中)"),
    "col-a": ("A (pinned)", "A(已固定)"),
    "ratios": ("Bytes per token, per channel", "各通道每 token 字节数"),
    "channel": ("channel", "通道"),
    "samples": ("samples", "样本数"),
    "pooled": ("pooled", "合并"),
    "predicted": (
        "Predicted bytes: [floor(t × min), ceil(t × max)], ≈ pooled",
        "预测字节:[floor(t × min), ceil(t × max)],≈ 合并比例",
    ),
    "tokens": ("tokens", "tokens"),
    "limits-caption": ("Prefetch limits as tokens, side by side", "预取限制折算为 tokens 并列比较"),
    "limit": ("limit", "限制"),
    "value": ("value", "取值"),
    "equivalent": ("token equivalent", "折算 tokens"),
    "basis": ("basis", "依据"),
    "nothing-bites": (
        "Nothing bites: all uncovered history fits within every limit.",
        "没有限制先生效:全部未覆盖历史都在各项限制之内。",
    ),
    "first-bites": ("First to bite: {name}.", "最先生效的限制:{name}。"),
    "does-not-bite": ("does not bite", "不会生效"),
    "time": (
        "Prefetch of {tokens} tokens: {records} records, {sessions} sessions, {pages} message "
        "pages, {dirs} directory pages; read time {read}.",
        "预取 {tokens} tokens:{records} 条记录,{sessions} 个 Session,{pages} 个消息页,"
        "{dirs} 个目录页;读取耗时 {read}。",
    ),
    "no-overrides": (
        "No overrides: every supported setting is at its default.",
        "没有覆盖项:所有受支持的设置均为默认值。",
    ),
    "diff-head": ("key|default|reviewed|unit|meaning", "键|默认值|评审值|单位|含义"),
    "watched": ("watched|A before|B after|expected|holds", "观察项|A 之前|B 之后|预期|成立"),
    "holds": (
        "The stated outcome holds. A is pinned as the before, B shows the after.",
        "所述结果成立。A 固定为实验前,B 显示实验后。",
    ),
    "fails": (
        "The stated outcome does NOT hold. A is pinned as the before, B shows the after.",
        "所述结果不成立。A 固定为实验前,B 显示实验后。",
    ),
    "sweeping": (
        "Sweeping {name} from {low} to {high} ({n} points); everything else fixed",
        "扫描{name}:从 {low} 到 {high}({n} 个点),其他输入固定",
    ),
    "curves-caveat": (
        "raising the summary cap S can raise the main model's M — it never does; each panel "
        "has its own scale.",
        "调高摘要上限 S 可以提高主模型 M(它从不会);每个小图有各自的刻度。",
    ),
    "here": ("; here {value}", ";当前 {value}"),
    "dark-yes": ("(dark = yes)", "(深色 = 是)"),
    "trigger-reached": ("trigger reached", "达到触发线"),
    "admitted": ("admitted", "准入"),
}


def phrase(key: str, lang: str, **values: str) -> str:
    text = PHRASES[key][1 if lang == "zh" else 0]
    return text.format(**values) if values else text


def text_for(key: str, lang: str) -> str:
    """The text of a ``data-i18n`` key: static page text, a field's label or hint, a
    fieldset title or a readout label."""
    from budgetcore.i18n import STATIC, pick  # noqa: PLC0415

    kind, _, rest = key.partition(":")
    if kind == "label":
        return FIELD_ZH[rest][0] if lang == "zh" else FIELD_UI[rest].label
    if kind == "hint":
        return FIELD_ZH[rest][1] if lang == "zh" else FIELD_UI[rest].hint
    if kind == "group":
        return GROUPS_ZH[rest] if lang == "zh" else dict(_GROUPS)[rest]
    if kind == "readout":
        return READOUT_ZH[rest] if lang == "zh" else READOUT_LABELS[rest]
    if kind == "phrase":
        return phrase(rest, lang)
    if kind == "preset":
        label = PRESETS[rest][0]
        return label.replace("Article example", "文章示例") if lang == "zh" else label
    return pick(STATIC[key], lang)


def i18n_keys() -> tuple[str, ...]:
    """Every data-i18n key the generated markup uses (for tests)."""
    return (
        *(f"label:{p}" for p in FIELD_UI),
        *(f"hint:{p}" for p in FIELD_UI if FIELD_UI[p].hint),
        *(f"group:{g}" for g, _ in _GROUPS),
        *(f"readout:{k}" for k in READOUT_LABELS),
    )
