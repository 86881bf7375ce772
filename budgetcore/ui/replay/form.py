"""The replay panel's form: its static fields (written once by the shell, retexted by
``data-i18n``), and what each field shows now, its text and its problem. Pure.

The background-timing part (docs/spec.md §15) holds the panel's own timing fields and
the scenario's three timeouts; those are the main form's fields (``limits.*``), shown
again here: their text and problem come from the page state, never from the panel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from budgetcore.messages import t
from budgetcore.ui.markup import Markup, el, join
from budgetcore.ui.replay.fields import (
    DISTS,
    GENERATOR_PATHS,
    LIMIT_PATHS,
    OPTION_PATHS,
    REPLAY_FIELDS,
    TIMING_PATHS,
)

if TYPE_CHECKING:
    from budgetcore.ui.model import PageState

__all__ = ["POLICY_CHOICES", "field_messages", "field_values", "replay_controls_html"]

#: The retry policies (``replay.background.POLICIES``; the form is drawn before the
#: background model loads, and a test holds the two equal).
POLICY_CHOICES = ("resend", "breaker")


def _fid(path: str) -> str:
    return "rp-" + path.split(".", 1)[1].replace("_", "-").replace(".", "-")


def _select(fid: str, path: str, choices: tuple[str, ...], default: str, prefix: str) -> Markup:
    options = join(
        el(
            "option",
            {"value": c, "selected": c == default or None, "data-i18n": f"{prefix}.{c}"},
            t(f"{prefix}.{c}", "en"),
        )
        for c in choices
    )
    return el("select", {"id": fid, "data-replay-input": path}, options)


def _text_box(fid: str, path: str, default: str, decimal: bool) -> Markup:
    return el(
        "input",
        {
            "type": "text",
            "id": fid,
            "data-replay-input": path,
            "value": default,
            "inputmode": "decimal" if decimal else "numeric",
            "autocomplete": "off",
            "spellcheck": "false",
            "class": "short",
        },
    )


def _field(path: str) -> Markup:
    fid = _fid(path)
    key = f"replay.timeout.{path}" if path in LIMIT_PATHS else f"label.{path}"
    label = el("label", {"for": fid, "data-i18n": key}, t(key, "en"))
    msg = el("p", {"class": "msg", "role": "alert", "data-replay-msg": path})
    if path in LIMIT_PATHS:  # the scenario's own timeout (seconds), typed here too
        return el("div", {"class": "field"}, label, _text_box(fid, path, "", False), msg)
    f = REPLAY_FIELDS[path]
    if f.kind == "bool":
        box = el("input", {"type": "checkbox", "id": fid, "data-replay-input": path})
        return el("div", {"class": "field check"}, box, label, msg)
    if f.kind == "dist" or path == "replay.gap":
        box = _select(fid, path, DISTS, f.default, "replay.dist")
    elif path == "replay.policy":
        box = _select(fid, path, POLICY_CHOICES, f.default, "replay.policy")
    elif f.kind == "choice":
        box = _select(fid, path, f.choices, f.default, path)
    else:
        decimal = f.kind == "fraction" or path in (
            "replay.fixed_s",
            "replay.prefill_rate",
            "replay.decode_rate",
            "replay.format_failure_rate",
        )
        box = _text_box(fid, path, f.default, decimal)
        if f.kind == "tokens":  # as the main form's fields: the unit beside the box
            unit = el("span", {"class": "unit", "data-i18n": "unit.tokens"}, t("unit.tokens", "en"))
            box = el("span", {"class": "rp-typed"}, box, unit)
    return el("div", {"class": "field"}, label, box, msg)


def replay_controls_html() -> Markup:
    """The generator, options and background-timing fields."""
    gen = join(_field(p) for p in GENERATOR_PATHS)
    opts = join(_field(p) for p in OPTION_PATHS)
    timing = join(_field(p) for p in (*TIMING_PATHS[:5], *LIMIT_PATHS, *TIMING_PATHS[5:]))
    return join(
        (
            el("div", {"class": "rp-grid", "data-replay-part": "generate"}, gen),
            el(
                "fieldset",
                {"class": "rp-grid"},
                el("legend", {"data-i18n": "replay.options"}, t("replay.options", "en")),
                el("p", {"id": "replay-options-note", "class": "note-small rp-wide"}),
                opts,
            ),
            el(
                "fieldset",
                {"class": "rp-grid", "data-replay-timing": ""},
                el(
                    "legend", {"data-i18n": "replay.timing.legend"}, t("replay.timing.legend", "en")
                ),
                el(
                    "p",
                    {"class": "note-small rp-wide", "data-i18n": "replay.timing.intro"},
                    t("replay.timing.intro", "en"),
                ),
                timing,
            ),
        )
    )


def field_messages(state: PageState) -> dict[str, str]:
    """Every field's problem in the reader's language ("" when valid): the panel's own
    from the panel, the timeouts' from the main form (a broken cross-key rule marks
    each of its fields)."""
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    lang = state.lang
    panel = state.replay
    out = {p: "" for p in (*REPLAY_FIELDS, *LIMIT_PATHS)}
    for path, issue in panel.issues.items():
        out[path] = problem_text(issue, lang)
    for path in LIMIT_PATHS:
        limit_issue = state.field_issues.get(path)
        if limit_issue is None:
            limit_issue = next((i for i in state.cross_issues if path in i.paths), None)
        if limit_issue is not None:
            out[path] = problem_text(limit_issue, lang)
    return out


def field_values(state: PageState) -> dict[str, str]:
    """Every field's text as the state holds it (the shell writes a box only when it
    differs: after a reset, a link, or a timeout typed in the main form)."""
    panel = state.replay
    out = {p: panel.texts.get(p, f.default) for p, f in REPLAY_FIELDS.items()}
    out.update({p: state.texts.get(p, "") for p in LIMIT_PATHS})
    return out
