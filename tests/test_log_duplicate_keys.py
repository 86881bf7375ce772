"""A key written twice in one log line (``{"usage": {...}, "usage": {...}}``) is read as
every JSON parser we run reads it: the last value wins, in the standard library's
decode (the page's) and in msgspec's (the CLI's fast path) alike, so the CLI and the
page never disagree. ccusage 20.0.24 (Rust, serde) drops such a line instead, when the
key is one it reads: a difference recorded in docs/replay.md ("Duplicate keys")."""

from __future__ import annotations

from decimal import Decimal

import pytest

from budgetcore.replay.logs import claude, codex, read_sessions
from budgetcore.replay.logs.usage import measured_usage
from tests.ccusage import run_ccusage
from tests.log_hostile_helpers import LOGS

_CLAUDE_REL = "-home-user-proj/11111111-1111-4111-8111-111111111111.jsonl"
_CLAUDE = "claude/01-plain-2.1/projects/" + _CLAUDE_REL
_CODEX_REL = "2025/10/05/rollout-2025-10-05T12-00-00-0199b2a0-1111-7000-8000-000000000001.jsonl"
_CODEX = "codex/modern-basic/sessions/" + _CODEX_REL
_BIG = '{"input_tokens":999999,"output_tokens":999999}'


def _twice(fixture: str, line: int, key: str) -> bytes:
    """The fixture with ``key`` written a first time, a huge usage, before its own."""
    lines = (LOGS / fixture).read_text("utf-8").split("\n")
    at = lines[line - 1].index(f'"{key}":')
    lines[line - 1] = lines[line - 1][:at] + f'"{key}":{_BIG},' + lines[line - 1][at:]
    return "\n".join(lines).encode()


def _cost(name: str, data: bytes, module: object, compiled: bool) -> Decimal | None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "compiled_from", lambda line, size=0: compiled)
        (log,) = read_sessions([(name, data)])
    assert not log.skipped
    return measured_usage(log).cost


CASES = [
    ("claude", _CLAUDE, _CLAUDE_REL, 7, "usage", claude, "0.023322", "0.011709"),
    ("codex", _CODEX, _CODEX_REL, 21, "last_token_usage", codex, "0.031875", "0.01525"),
]


@pytest.mark.parametrize(
    ("kind", "fixture", "rel", "line", "key", "module", "ours", "theirs"), CASES
)
def test_the_last_of_a_key_written_twice_wins_in_both_decoders_where_ccusage_drops_the_line(
    kind: str,
    fixture: str,
    rel: str,
    line: int,
    key: str,
    module: object,
    ours: str,
    theirs: str,
) -> None:
    data = _twice(fixture, line, key)
    whole = (LOGS / fixture).read_bytes()
    for compiled in (False, True):
        # The last value is the line's own: the session costs what it costs unmodified.
        assert _cost("s.jsonl", data, module, compiled) == Decimal(ours)
        assert _cost("s.jsonl", whole, module, compiled) == Decimal(ours)
    total = run_ccusage(kind, {rel: data})["totals"]
    assert Decimal(str(total.get("totalCost", total.get("costUSD")))) == Decimal(theirs)
