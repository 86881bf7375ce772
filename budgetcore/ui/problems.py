"""Every problem line the page shows, in the reader's language, from one type
(:class:`budgetcore.errors.Problem`) and this one renderer: a core problem (a config
import, pasted samples, a link, a log, a scenario: ``code`` is a ``core.*`` key without
its prefix, ``where`` the field as the user sees it) and a page field's problem
(:meth:`Problem.page`, ``code`` a whole catalogue key: a field's typed text breaking a
core rule, ``core.*``, or one of the few page-only rules, ``problem.*``; ``where`` and
``field`` are its first field's label). Each is rendered from its code and
parameters; the CLI's English rule (``Problem.rule``) is the same catalogue entry."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from budgetcore.errors import Problem
from budgetcore.inputs.numbers import MAX_SEED
from budgetcore.messages import CATALOGUE, problem_params, said_list, t
from budgetcore.scenario.fragment import PIN_PREFIX
from budgetcore.ui.markup import Markup, el, join

if TYPE_CHECKING:
    from collections.abc import Sequence

    from budgetcore.scenario.warnings import ReviewWarning

__all__ = ["problem_sentence", "problem_text", "warning_lines", "where_text"]

_MODEL_GROUPS = ("main_model.", "summary_model.")
#: Link keys whose control's label is another message than ``label.<path>``: a problem
#: names the field as the user sees it (the guide), never by the link's key alone.
_LABELS = {
    "main_model.model": "picker.label",
    "summary_model.model": "picker.label",
    "runtime": "runtime.label",
    "pin": "static.pin",
}


def _digits(params: dict[str, str]) -> dict[str, str]:
    """A range's ends in digits, as the page's fields write them ("from 0 to
    1,000,000,000,000"): the CLI's rules write 10^12 and 2^63 - 1 (``bound_text``), which
    beside a field's own sentence read as two different limits."""
    out = dict(params)
    for name in ("low", "high"):
        text = out.get(name, "")
        if text == "2^63 - 1":
            out[name] = f"{MAX_SEED:,}"
        elif text.startswith("10^") and text[3:].isdigit():
            out[name] = f"{10 ** int(text[3:]):,}"
    return out


def where_text(path: str, lang: str, params: dict[str, str] | None = None) -> str:
    """Where a problem is, as the user sees it: a field's label (with the JSON path a
    file or link used), a pasted line, or the key as written."""
    params = params or {}
    if "line" in params:
        line = t("where.line", lang, n=params["line"])
        if "file" in params:  # a log's subagent file
            line = f"{params['file']} · {line}"
        return f"{line} · {params['key']}" if "key" in params else line
    label = _LABELS.get(path, f"label.{path}")
    if label in CATALOGUE:
        text = t(label, lang)
        if path.startswith(_MODEL_GROUPS):
            text = f"{t('group.' + path.split('.', 1)[0], lang)} · {text}"
        return t("where.field", lang, label=text, path=path)
    if f"where.{path}" in CATALOGUE:
        return t(f"where.{path}", lang)
    return f'"{path}"'  # a key as the file or link wrote it, verbatim


def problem_sentence(problem: Problem, lang: str) -> str:
    """The sentence for ``problem`` in ``lang``."""
    if "." in problem.code:  # a whole catalogue key: a problem only the page has
        return _page_sentence(problem, lang)
    if problem.code.startswith("log-"):
        from budgetcore.ui.log_words import said_in  # noqa: PLC0415 - a log's problem

        problem = said_in(problem, lang)
    if problem.path.startswith(PIN_PREFIX):
        # A link's pinned plan (``pin.config.x``): the field's own sentence, said of it.
        inner = dataclasses.replace(problem, path=problem.path[len(PIN_PREFIX) :])
        return t("where.pinned", lang, sentence=problem_sentence(inner, lang))
    key = f"core.{problem.code}"
    own = CATALOGUE[key][0] if key in CATALOGUE else ""
    # A sentence that names a line's place itself ("{where} line {line} holds several
    # JSON records") is said of its file: its place said the line again ("line 1 line 1").
    placed = {k: v for k, v in problem.params if f"{{{k}}}" not in own}
    where = where_text(problem.path, lang, placed)
    got = "" if problem.value is None else problem.value
    if key not in CATALOGUE:  # a code without its sentence (tests forbid it): say it as data
        return f"{where}: {problem.code}" + (f" ({got})" if got else "")
    # A parameter whose text is a catalogue key is said in the language; any other text
    # is data (a zstd library's own message about a corrupt frame), shown as it came.
    params = problem_params(_digits(dict(problem.params)), lang)
    for name, items in problem.lists:  # a list, said with the language's separator
        params[name] = said_list(items, lang)
    if "other" in params:  # a cross-key rule: both fields by their labels alone
        where = _label(problem.path, lang)
        params["other"] = _label(params["other"], lang)
    dropped = params.pop("dropped", "")
    # A line's place (its line, key and subagent file) is said in ``where``; a sentence
    # that names one of them itself keeps it (a database's {file}: "is named as
    # OpenCode's database (opencode.db)" stopped the page with a KeyError).
    shown = {
        k: v for k, v in params.items() if k not in ("line", "key", "file") or f"{{{k}}}" in own
    }
    sentence = t(key, lang, where=where, got=got, **shown)
    if not dropped:
        return sentence
    fields = t("msg.item-sep", lang).join(
        f"{_label(path, lang)} = {value}"
        for path, _, value in (pair.partition("=") for pair in dropped.split(","))
    )
    return t("core.dropped", lang, sentence=sentence, fields=fields)


def _label(path: str, lang: str) -> str:
    key = f"label.{path}"
    return t(key, lang) if key in CATALOGUE else path


def _page_sentence(problem: Problem, lang: str) -> str:
    params = _digits(
        {name: t(value, lang) if name in problem.keys else value for name, value in problem.params}
    )
    for name, items in problem.lists:  # a list, said with the language's separator
        params[name] = said_list(items, lang)
    label_key = f"label.{problem.path}"
    if label_key in CATALOGUE:
        params.setdefault("field", t(label_key, lang))
    elif f"field.{problem.path}" in CATALOGUE:
        params.setdefault("field", t(f"field.{problem.path}", lang))
    else:
        params.setdefault("field", problem.path)
    # A field's typed text breaking a core rule: the core's one sentence, said of the
    # field by its label (the CLI says the same sentence of its path or flag).
    params.setdefault("where", params["field"])
    return t(problem.code, lang, **params)


def problem_text(problem: Problem, lang: str) -> str:
    """Any problem the page shows, in ``lang``."""
    return problem_sentence(problem, lang)


def warning_lines(found: Sequence[ReviewWarning], lang: str) -> Markup:
    """A reviewer's warnings (``scenario.warnings``), one ``.warn`` line each, labelled,
    in the page's language: the key bar's and the export panel's."""
    if not found:
        return Markup("")
    label = t("warn.label", lang)
    colon = ":" if lang == "zh" else ": "
    return join(
        el("p", {"class": "warn", "data-warning": w.code}, f"{label}{colon}{w.text(lang)}")
        for w in found
    )
