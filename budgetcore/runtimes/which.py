"""Which runtime's own file a text is, for an import the reviewed config's reader
refused (after Reset the page reads budgetcore's reviewed config, and a runtime's file
imported then was refused key by key as unsupported overrides: the eighth walk)."""

from __future__ import annotations

import re

from budgetcore.errors import ScenarioError
from budgetcore.runtimes.check import read_settings
from budgetcore.runtimes.model import Knob
from budgetcore.runtimes.profiles import PROFILES

__all__ = ["runtimes_reading"]


def runtimes_reading(text: str) -> tuple[str, ...]:
    """The runtimes (not the article's) whose reader takes ``text`` as their own file
    and finds a compaction setting written in it, for an import of such a file while
    the page reads budgetcore's reviewed config. A setting counts only where its knob's
    name is in the text: a reader's derived value is none (the Anthropic API's reader
    takes any JSON object as a request body that does not compact, and so read
    budgetcore's own ``{"config": ...}``). The likeliest: the fewest keys left unread; a
    tie names all (LangChain's and Deep Agents' calls are one syntax)."""
    found: list[tuple[tuple[int, int], str]] = []
    for name, p in PROFILES.items():
        # A reader parses the whole file: only where a knob of its runtime is named in it
        # (a megabyte of other keys took every reader about 4 to 10 s in CPython).
        if name == "article" or not any(k.name.rsplit(".", 1)[-1] in text for k in p.knobs):
            continue
        try:
            settings, ignored, _notes = read_settings(name, text)
        except ScenarioError as exc:
            # Refused for a value of one of its own knobs (model_auto_compact_token_limit
            # = -5): still that runtime's file, whose reader says what is wrong once it
            # is picked; it was called no supported override (the twelfth walk). Any
            # reader's clean read ranks first.
            if any(_knob_of(problem.path, p.knobs) for problem in exc.problems):
                found.append(((1, 0), name))
            continue
        written = (
            re.search(rf"(?<![\w.-]){re.escape(key.rsplit('.', 1)[-1])}(?![\w-])", text)
            for key in settings
        )
        if any(written):
            found.append(((0, len(ignored)), name))
    best = min((rank for rank, _ in found), default=(0, 0))
    return tuple(name for rank, name in found if rank == best)


def _knob_of(path: str, knobs: tuple[Knob, ...]) -> bool:
    """Whether a problem's ``path`` is one of ``knobs`` as its runtime's file writes it
    (``env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`` is Claude Code's knob of that name)."""
    return any(path == k.name or path.endswith("." + k.name) for k in knobs)
