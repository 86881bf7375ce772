"""Core problems (a config import, pasted samples, a link) as sentences in the reader's
language, rendered from each problem's code and parameters."""

from __future__ import annotations

from budgetcore.errors import Problem
from budgetcore.ui.messages import t

__all__ = ["problem_sentence"]


def problem_sentence(problem: Problem, lang: str) -> str:
    """The sentence for ``problem`` in ``lang``."""
    where = problem.path
    got = "" if problem.value is None else problem.value
    return t("problem.core", lang, where=where, rule=problem.rule, got=got)
