"""The agents whose logs we read, one entry each (docs/replay.md, "Other agents").

Each entry says how to tell its files (``claims``: from one decoded line of a JSON Lines
log; ``claims_document``: from a whole JSON document), how to read a session
(``read``: the session's files, main file first, to a :class:`ParsedLog` with its
ledger), and whether its log keeps only totals. Detection asks the entries in table
order, line by line: the agents whose lines carry a distinctive key come first, Claude
Code (whose lines say least: any ``message`` object) last.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from budgetcore.replay.logs import gemini, kimi, pi, qwen
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import LineSource, format_of

__all__ = ["AGENTS", "Agent", "agent", "names"]

Reader = Callable[[Sequence[tuple[str, LineSource]]], ParsedLog]


@dataclass(frozen=True, slots=True)
class Agent:
    key: str  # ParsedLog.format, --log-format
    name: str  # as people call it
    claims: Callable[[dict[str, object]], bool] | None
    read: Reader
    claims_document: Callable[[object], bool] | None = None
    # Why a session of this agent cannot be replayed turn by turn ("" when it can).
    totals_only: str = ""
    # A document that resembles this agent's but that it cannot read, and what such a
    # document lacks ("looks like a ... file but ...").
    looks_like: Callable[[object], bool] | None = None
    missing: str = ""


def _read_claude(files: Sequence[tuple[str, LineSource]]) -> ParsedLog:
    from budgetcore.replay.logs.claude import read_claude_code  # noqa: PLC0415

    return read_claude_code(files)


def _read_codex(files: Sequence[tuple[str, LineSource]]) -> ParsedLog:
    from budgetcore.errors import Problem, ScenarioError  # noqa: PLC0415
    from budgetcore.replay.logs.codex import read_codex  # noqa: PLC0415

    if len(files) > 1:
        raise ScenarioError(
            [Problem.coded("log", "a Codex rollout is one file", "log-codex-one-file")]
        )
    return read_codex(*files[0])


AGENTS: tuple[Agent, ...] = (
    Agent("codex", "Codex CLI", lambda o: format_of(o) == "codex", _read_codex),
    Agent("pi", "pi", pi.claims, pi.read_pi),
    Agent(
        "gemini-cli",
        "Gemini CLI",
        gemini.claims,
        gemini.read_gemini,
        claims_document=gemini.claims_document,
        looks_like=lambda d: isinstance(d, dict) and "sessionId" in d and "startTime" in d,
        missing="has no messages list",
    ),
    Agent("qwen-code", "Qwen Code", qwen.claims, qwen.read_qwen),
    Agent("kimi-cli", "Kimi CLI", kimi.claims, kimi.read_kimi),
    Agent("claude-code", "Claude Code", lambda o: format_of(o) == "claude-code", _read_claude),
)
_BY_KEY = {a.key: a for a in AGENTS}


def agent(key: str) -> Agent | None:
    return _BY_KEY.get(key)


def names() -> str:
    """Every agent we read, for messages: "Claude Code, Codex CLI, pi, ..."."""
    return ", ".join(a.name for a in AGENTS)
