"""Differential test: ccusage 20.0.24 (the most used usage tool; a dev dependency,
run offline from node_modules) against budgetcore's measured usage, session by session,
on every fixture (docs/replay.md, "Differences from ccusage").

Tokens must be equal, except where our contract counts lines ccusage drops (listed in
DIFFERENCES with the exact figures). Cost is compared where the two price tables agree
on every model of the session: ccusage's prices are probed from ccusage itself (one
request of 100,000 tokens per category), ours are the registry's; a session with a
request above 200,000 tokens of context is left out of the cost comparison (ccusage
tiers per category, LiteLLM and we per request context).
"""

from __future__ import annotations

import json
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from budgetcore.errors import ScenarioError
from budgetcore.registry.models import resolve
from budgetcore.replay.logs import read_session
from budgetcore.replay.logs.usage import measured_usage
from tests.ccusage import run_ccusage as _run
from tests.helpers import fixture_sessions

ROOT = Path(__file__).resolve().parents[1]
PROBE = 100_000

#: (kind, fixture, session file) -> (our tokens, ccusage's tokens, why): input, cache
#: write, cache read, output.
DIFFERENCES: dict[tuple[str, str, str], tuple[tuple[int, ...], tuple[int, ...], str]] = {
    (
        "claude",
        "15-skipped-lines",
        "-home-user-proj/ffffffff-ffff-4fff-8fff-ffffffffffff.jsonl",
    ): (
        (30, 0, 0, 180),
        (8, 0, 0, 80),
        "ccusage drops a line holding any of eleven keys with the value null (requestId, "
        "costUSD, model ... even inside a tool input), a version that is not semver, an "
        "empty requestId, a timestamp with microseconds, a missing output_tokens and a "
        "float count; we count every request whose counts are valid and list the rest",
    ),
    ("claude", "21-odd-layouts", "-home-user-proj/synthetic-tokens.jsonl"): (
        (0, 0, 0, 0),
        (30, 0, 0, 30),
        "a <synthetic> entry is written by Claude Code itself, not a request (SPEC); "
        "ccusage counts its tokens",
    ),
    ("claude", "26-no-timestamp", "-home-user-proj/26262626-2626-4626-8626-262626262626.jsonl"): (
        (110, 0, 0, 220),
        (10, 0, 0, 20),
        "ccusage drops an assistant line without a timestamp; a request needs no time to "
        "be billed, so we count it (seen in ccusage's own test transcript)",
    ),
    (
        "codex",
        "spaced-json",
        "2025/11/23/rollout-2025-11-23T21-43-00-019ab000-2222-7000-8000-000000000002.jsonl",
    ): (
        (1800, 0, 400, 80),
        (1200, 0, 0, 50),
        "ccusage reads only Codex lines holding a compact '\"type\":' (the Codex analogue of "
        "its Claude '\"usage\":{' filter): a token_count written with ': ' is dropped",
    ),
    (
        "codex",
        "fork-burst-2s",
        "2025/10/21/rollout-2025-10-21T16-00-00-019a0000-3333-7000-8000-00000000000b.jsonl",
    ): (
        (10000, 0, 30000, 2000),
        (21000, 0, 49000, 3500),
        "a fork's copy of its parent spanning 2.1 s: read without the parent's rollout, "
        "ccusage skips only the copied token_count events of the copy's first clock "
        "second and bills the parent's second request again; we follow the burst by the "
        "gap between lines (at most 1 s) and bill the child's own request only (with the "
        "parent's rollout in the folder, ccusage does too)",
    ),
    (
        "codex",
        "session-meta-model",
        "2026/03/30/rollout-2026-03-30T16-00-00-019d3000-8888-7000-8000-000000000008.jsonl",
    ): (
        (2000, 0, 6000, 400),
        (2000, 0, 6000, 400),
        "a session_meta naming the model (gpt-5.4) beside a turn_context naming none: "
        "ccusage reads no model from session_meta and prices the requests as its gpt-5 "
        "fallback ($0.00725, isFallback); we price the session_meta's model ($0.0125)",
    ),
    ("claude", "19-pricing-probes", "-home-user-proj/probe-30-_synthetic_.jsonl"): (
        (0, 0, 0, 0),
        (1005, 2000, 301000, 1100),
        "a <synthetic> entry is not a request (as above)",
    ),
}


SESSIONS = [
    (kind, name, base, files)
    for kind in ("claude", "codex")
    for name, base, _session, files in fixture_sessions(kind)
]


def _claude_probe(model: str, cat: str, usage: dict[str, Any]) -> bytes:
    return (
        json.dumps(
            {
                "type": "assistant",
                "uuid": "p",
                "sessionId": "p",
                "timestamp": "2026-01-01T00:00:00.000Z",
                "requestId": f"req_{cat}",  # ccusage folds equal ids across files
                "message": {"id": f"msg_{cat}", "model": model, "usage": usage},
            },
            separators=(",", ":"),  # ccusage reads only lines holding '"usage":{'
        )
        + "\n"
    ).encode()


def _codex_probe(model: str, usage: dict[str, int]) -> bytes:
    lines = [
        {
            "timestamp": "2026-01-01T00:00:00.000Z",
            "type": "turn_context",
            "payload": {"model": model},
        },
        {
            "timestamp": "2026-01-01T00:00:01.000Z",
            "type": "event_msg",
            "payload": {"type": "token_count", "info": {"last_token_usage": usage}},
        },
    ]
    return "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines).encode()


@cache
def ccusage_prices(kind: str, model: str) -> dict[str, Decimal]:
    """ccusage's price per token of each category for ``model``, probed."""
    if kind == "claude":
        probes = {
            "input": {"input_tokens": PROBE, "output_tokens": 0},
            "output": {"input_tokens": 0, "output_tokens": PROBE},
            "cache_read": {"input_tokens": 0, "output_tokens": 0, "cache_read_input_tokens": PROBE},
            "cache_write": {
                "input_tokens": 0,
                "output_tokens": 0,
                "cache_creation_input_tokens": PROBE,
            },
            "cache_write_1h": {
                "input_tokens": 0,
                "output_tokens": 0,
                "cache_creation_input_tokens": PROBE,
                "cache_creation": {
                    "ephemeral_5m_input_tokens": 0,
                    "ephemeral_1h_input_tokens": PROBE,
                },
            },
        }
        files = {f"p/{cat}.jsonl": _claude_probe(model, cat, u) for cat, u in probes.items()}
    else:
        probes_x = {
            "input": {"input_tokens": PROBE, "output_tokens": 0},
            "output": {"input_tokens": 0, "output_tokens": PROBE},
            "cache_read": {"input_tokens": PROBE, "cached_input_tokens": PROBE, "output_tokens": 0},
            "cache_write": {
                "input_tokens": PROBE,
                "cache_write_input_tokens": PROBE,
                "output_tokens": 0,
            },
        }
        files = {
            f"2026/01/01/rollout-{cat}.jsonl": _codex_probe(model, u) for cat, u in probes_x.items()
        }
    out = _run(kind, files)
    prices: dict[str, Decimal] = {}
    for s in out["sessions"]:
        cat = str(s["sessionId"]).rsplit("/", 1)[-1].removeprefix("rollout-")
        prices[cat] = Decimal(s["totalCost" if kind == "claude" else "costUSD"]) / PROBE
    return prices


def _agree(ours: Decimal | None, theirs: Decimal | None) -> bool:
    if ours is None or theirs is None:
        return ours is None and theirs is None
    return abs(ours - theirs) <= abs(ours) * Decimal("1e-9")


def _tokens(kind: str, totals: dict[str, Any]) -> tuple[int, ...]:
    return (
        totals["inputTokens"],
        totals["cacheCreationTokens"],
        totals["cacheReadTokens"],
        totals["outputTokens"],
    )


def compare(kind: str, fixture: str, base: Path, files: tuple[str, ...]) -> bool:
    """Assert tokens (and cost where the tables agree); True when cost was compared."""
    theirs = _run(kind, {f: (base / f).read_bytes() for f in files})
    try:
        log = read_session([(f, (base / f).read_bytes()) for f in files])
    except ScenarioError:
        log = None  # no request at all (e.g. a rollout from before token counts)
    m = None if log is None else measured_usage(log)
    u = None if m is None else m.usage
    ours = (
        (0, 0, 0, 0)
        if u is None
        else (u.input, u.cache_write_5m + u.cache_write_1h, u.cache_read, u.output)
    )
    want = _tokens(kind, theirs["totals"])
    known = DIFFERENCES.get((kind, fixture, files[0]))
    if known is not None:
        assert (ours, want) == known[:2], known[2]
        return False
    assert ours == want
    if kind == "codex" and u is not None:
        assert u.reasoning == theirs["totals"]["reasoningOutputTokens"]
    if log is None or m is None or any(r.context > 200_000 for r in log.all_requests()):
        return False
    for row in m.models:
        if row.model is None:
            return False
        entry = resolve(row.model).model
        if entry is None:
            assert row.cost is None  # unknown, never 0 (ccusage: 0 and missingPricing)
            return False
        cc = ccusage_prices(kind, row.model)
        p = entry.prices
        used = {
            "input": (row.usage.input, p.input),
            "output": (row.usage.output, p.output),
            "cache_read": (row.usage.cache_read, p.cache_read),
            "cache_write": (row.usage.cache_write_5m, p.cache_write),
            "cache_write_1h": (row.usage.cache_write_1h, p.cache_write_1h),
        }
        if not all(_agree(price, cc.get(cat)) for cat, (n, price) in used.items() if n):
            return False  # the tables differ for this model: tokens only
    assert m.cost is not None
    total = theirs["totals"]["totalCost" if kind == "claude" else "costUSD"]
    assert abs(m.cost - Decimal(total)) <= Decimal("1e-9"), (m.cost, total)
    return True


@pytest.mark.parametrize(
    ("kind", "fixture", "base", "files"),
    SESSIONS,
    ids=[f"{k}:{fx}:{f[0]}" for k, fx, _, f in SESSIONS],
)
def test_measured_usage_equals_ccusage(
    kind: str, fixture: str, base: Path, files: tuple[str, ...]
) -> None:
    compare(kind, fixture, base, files)


#: Fixtures with at least one session whose every model has the same prices in both
#: tables (no request above 200k context): its cost must have been compared, to within
#: $0.000000001. The others are compared in tokens only; docs/models-and-peers.md lists why.
PRICED = [
    ("claude", "01-plain-2.1"),
    ("claude", "02-streaming-split"),
    ("claude", "03-no-requestid"),
    ("claude", "04-sidechain-inline-1.0"),
    ("claude", "05-subagents-dir-2.1"),
    ("claude", "06-agent-flat-2.0"),
    ("claude", "07-btw-sidechain-replay"),
    ("claude", "08-cache-1h"),
    ("claude", "11-api-error-synthetic"),
    ("claude", "12-compact-preserved-2.1"),
    ("claude", "13-agent-progress-2.1"),
    ("claude", "14-resume-copy"),
    ("claude", "16-costusd-legacy"),
    ("claude", "17-sonnet-4-20250514"),
    ("claude", "18-nested-session-dir"),
    ("claude", "20-agent-progress-only"),
    ("claude", "21-odd-layouts"),
    ("claude", "22-crossfile-bigger-wins"),
    ("codex", "cache-write-2026"),
    ("codex", "fork"),
    ("codex", "fork-burst-across-second"),
    ("codex", "model-switch"),
    ("codex", "modern-basic"),
    ("codex", "subagent"),
    ("codex", "tier-threshold"),
    ("codex", "window-full"),
]


@pytest.mark.parametrize(("kind", "fixture"), PRICED)
def test_cost_is_compared_where_the_tables_agree(kind: str, fixture: str) -> None:
    found = [x for x in SESSIONS if x[0] == kind and x[1] == fixture]
    assert found
    assert any(compare(*x) for x in found)


def test_the_differential_covers_both_formats() -> None:
    assert {k for k, *_ in SESSIONS} == {"claude", "codex"}
    assert len(SESSIONS) >= 90
