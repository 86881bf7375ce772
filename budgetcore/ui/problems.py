"""Every problem line the page shows, in the reader's language: the form's issues
(:class:`budgetcore.ui.form.Issue`, ``problem.*`` codes) and core problems (a config
import, pasted samples, a link, a scenario: ``budgetcore.errors.Problem``, ``core.*``
codes), rendered from each one's code and parameters — never by editing the English
rule the CLI prints. Every panel renders its problems through this module."""

from __future__ import annotations

from budgetcore.errors import Problem
from budgetcore.ui.catalogue import CATALOGUE, t
from budgetcore.ui.form import Issue

__all__ = ["issue_text", "problem_sentence", "problem_text", "where_text"]

_MODEL_GROUPS = ("main_model.", "summary_model.")


def where_text(path: str, lang: str, params: dict[str, str] | None = None) -> str:
    """Where a problem is, as the user sees it: a field's label (with the JSON path a
    file or link used), a pasted line, or the key as written."""
    params = params or {}
    if "line" in params:
        line = t("where.line", lang, n=params["line"])
        return f"{line} · {params['key']}" if "key" in params else line
    label = f"label.{path}"
    if label in CATALOGUE:
        text = t(label, lang)
        if path.startswith(_MODEL_GROUPS):
            text = f"{t('group.' + path.split('.', 1)[0], lang)} · {text}"
        return t("where.field", lang, label=text, path=path)
    if f"where.{path}" in CATALOGUE:
        return t(f"where.{path}", lang)
    return f'"{path}"'  # a key as the file or link wrote it


def problem_sentence(problem: Problem, lang: str) -> str:
    """The sentence for ``problem`` in ``lang``."""
    params = dict(problem.params)
    where = where_text(problem.path, lang, params)
    got = "" if problem.value is None else problem.value
    key = f"core.{problem.code}"
    if not problem.code or key not in CATALOGUE:
        # A rule without a code: say where, keep the rule's own words (tests forbid it).
        return f"{where}: {problem.rule}" + (f" ({got})" if got else "")
    for name in ("detail", "why"):
        if name in params:
            params[name] = t(params[name], lang)
    if "other" in params:  # a cross-key rule: both fields by their labels alone
        where = _label(problem.path, lang)
        params["other"] = _label(params["other"], lang)
    dropped = params.pop("dropped", "")
    shown = {k: v for k, v in params.items() if k not in ("line", "key")}
    sentence = t(key, lang, where=where, got=got, **shown)
    if not dropped:
        return sentence
    fields = ", ".join(
        f"{_label(path, lang)} = {value}"
        for path, _, value in (pair.partition("=") for pair in dropped.split(","))
    )
    return t("core.dropped", lang, sentence=sentence, fields=fields)


def _label(path: str, lang: str) -> str:
    key = f"label.{path}"
    return t(key, lang) if key in CATALOGUE else path


def _param(value: str, is_key: bool, lang: str) -> str:
    return t(value, lang) if is_key else value


def issue_text(issue: Issue, lang: str) -> str:
    """An issue's sentence in ``lang``, naming the field as the user sees it."""
    params = {name: _param(v, k, lang) for name, v, k in issue.params}
    first = issue.paths[0] if issue.paths else ""
    label_key = f"label.{first}"
    if label_key in CATALOGUE:
        params.setdefault("field", t(label_key, lang))
    else:
        params.setdefault(
            "field", t(f"field.{first}", lang) if f"field.{first}" in CATALOGUE else first
        )
    return t(issue.code, lang, **params)


def problem_text(problem: Problem, lang: str) -> str:
    """A core problem (config import, pasted samples, a link) in ``lang``."""
    return problem_sentence(problem, lang)
