"""Properties of the other agents' readers against independent oracles (docs/replay.md,
"Other agents"): whatever a session holds, every line has one place in the ledger, each
response is measured once, and the branch replayed is the path to the last entry.

The oracles are written from the agents' formats alone (pi-mono's session.md, gemini-
cli's chat recording: a record written again replaces the earlier copy, ``$rewindTo``
drops a message and the ones after it), not from the readers.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.replay.logs import parse_log
from budgetcore.replay.logs.tally import Tally

COUNTS = st.integers(min_value=0, max_value=10**6)
USAGE = st.tuples(COUNTS, COUNTS, COUNTS, COUNTS)  # input, cacheRead, cacheWrite, output


@st.composite
def pi_sessions(draw: st.DrawFn) -> tuple[list[dict[str, Any]], dict[str, tuple[int, ...]]]:
    """A pi tree: each entry's parent is any earlier entry (a branch) or the one just
    before; assistant messages carry usage. Returns the lines and each assistant
    entry's usage by id."""
    n = draw(st.integers(min_value=1, max_value=25))
    lines: list[dict[str, Any]] = [
        {"type": "session", "version": 3, "id": "s", "timestamp": "t", "cwd": "/"}
    ]
    usage: dict[str, tuple[int, ...]] = {}
    for i in range(n):
        node = f"e{i:04d}"
        parent = None if i == 0 else f"e{draw(st.integers(0, i - 1)):04d}"
        if draw(st.booleans()):
            u = draw(USAGE)
            usage[node] = u
            message = {
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "usage": {"input": u[0], "cacheRead": u[1], "cacheWrite": u[2], "output": u[3]},
            }
        else:
            message = {"role": "user", "content": "x"}
        lines.append({"type": "message", "id": node, "parentId": parent, "message": message})
    return lines, usage


def _jsonl(lines: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(x) + "\n" for x in lines).encode()


@given(pi_sessions())
def test_pi_measures_every_assistant_usage_once_and_replays_the_path_to_the_last_entry(
    drawn: tuple[list[dict[str, Any]], dict[str, tuple[int, ...]]],
) -> None:
    lines, usage = drawn
    billed = {k: u for k, u in usage.items() if any(u)}
    if not billed:
        return  # no request: the reader says so (tests/test_agents_cli.py)
    log = parse_log(_jsonl(lines))
    parents = {x["id"]: x["parentId"] for x in lines[1:]}

    def path_from(node: str | None) -> set[str]:
        path = set()
        while node is not None:
            path.add(node)
            node = parents[node]
        return path

    path = path_from(lines[-1]["id"])
    if not any(k in path for k in billed):
        # The last entry's path holds no request (the user went back and sent nothing
        # more): the path of the last request is replayed, as Claude Code's.
        path = path_from(next(x["id"] for x in reversed(lines[1:]) if x["id"] in billed))
    by_line = {i + 1: x["id"] for i, x in enumerate(lines)}
    on = sorted(k for k in billed if k in path)
    (series,) = log.series
    assert sorted(by_line[r.line] for r in series.requests) == on
    assert sorted(by_line[r.line] for r in series.abandoned) == sorted(set(billed) - set(on))
    every = series.requests + series.abandoned
    assert sum(r.input for r in every) == sum(u[0] for u in billed.values())
    assert sum(r.cache_read for r in every) == sum(u[1] for u in billed.values())
    assert sum(r.output for r in every) == sum(u[3] for u in billed.values())
    assert all(r.context == r.input + r.cache_read + r.cache_write for r in every)
    (ledger,) = log.ledger
    assert ledger.accounted == ledger.lines == len(lines)


@st.composite
def gemini_sessions(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A Gemini CLI chat recording: messages written once or again (an upsert), with
    rewinds in between."""
    out: list[dict[str, Any]] = [{"sessionId": "s", "projectHash": "h", "startTime": "t"}]
    ids: list[str] = []
    for i in range(draw(st.integers(min_value=1, max_value=30))):
        action = draw(st.sampled_from(["new", "new", "again", "rewind"]))
        if action == "rewind" and ids:
            out.append({"$rewindTo": draw(st.sampled_from(ids))})
            continue
        if action == "again" and ids:
            mid = draw(st.sampled_from(ids))
        else:
            mid = f"m{i}"
            ids.append(mid)
        tokens = draw(st.none() | st.tuples(COUNTS, COUNTS, COUNTS))
        record: dict[str, Any] = {"id": mid, "type": "gemini", "model": "gemini-2.5-flash"}
        if tokens is not None:
            fresh, output, thoughts = tokens
            record["tokens"] = {
                "input": fresh,
                "output": output,
                "cached": 0,
                "thoughts": thoughts,
                "tool": 0,
                "total": fresh + output + thoughts,
            }
        out.append(record)
    return out


def _gemini_oracle(lines: list[dict[str, Any]]) -> tuple[dict[str, tuple[int, int]], set[str]]:
    """Each message's last written tokens (input, output + thoughts), and the ids on the
    replayed branch: those left in the conversation after the rewinds (gemini-cli's own
    rule: a rewind drops the target and what follows it; an unknown target clears all),
    or, when none of them was billed (a rewind with nothing after), the path of the last
    billed message (by first appearance) to the start, each message's parent the one
    before it where it last joined the conversation (one written again after a rewind
    dropped it moves to its new place)."""
    last: dict[str, tuple[int, int]] = {}
    order: list[str] = []
    parent: dict[str, str | None] = {}
    for x in lines[1:]:
        if "$rewindTo" in x:
            target = x["$rewindTo"]
            order = order[: order.index(target)] if target in order else []
            continue
        if x["id"] not in order:
            parent[x["id"]] = order[-1] if order else None
            order.append(x["id"])
        if "tokens" in x:
            t = x["tokens"]
            last[x["id"]] = (t["input"], t["output"] + t["thoughts"])
    billed = {k: v for k, v in last.items() if any(v)}
    if billed and not any(k in order for k in billed):
        first = [x["id"] for x in lines[1:] if "id" in x]
        node: str | None = max(billed, key=first.index)
        path: set[str] = set()
        while node is not None and node not in path:
            path.add(node)
            node = parent[node]
        return billed, path
    return billed, set(order)


@given(gemini_sessions())
def test_gemini_bills_each_message_once_with_its_last_copy_and_rewinds_leave_the_branch(
    lines: list[dict[str, Any]],
) -> None:
    billed, kept = _gemini_oracle(lines)
    if not billed:
        return
    log = parse_log(_jsonl(lines))
    (series,) = log.series
    every = series.requests + series.abandoned
    assert len(every) == len(billed)
    assert sum(r.input for r in every) == sum(v[0] for v in billed.values())
    assert sum(r.output for r in every) == sum(v[1] for v in billed.values())
    first_line = {}
    for i, x in enumerate(lines, start=1):
        if "id" in x:
            first_line.setdefault(x["id"], i)
    on = {k for k in billed if k in kept}
    assert {r.line for r in series.requests} == {first_line[k] for k in on}
    (ledger,) = log.ledger
    assert ledger.accounted == ledger.lines == len(lines)


@st.composite
def trees(draw: st.DrawFn) -> tuple[dict[str, str | None], str]:
    """Tree entries in the order read (often a chain, each the child of the one before,
    now and then a branch, a dangling or looping parent) and the leaf to replay to."""
    keys = draw(st.lists(st.text(alphabet="abcdefgh", min_size=1, max_size=2), unique=True))
    parents: dict[str, str | None] = {}
    for i, key in enumerate(keys):
        chained = keys[i - 1] if i else None
        parents[key] = draw(st.sampled_from([chained, chained, None, "zz"]) | st.sampled_from(keys))
    leaf = draw(st.sampled_from(keys[-1:] * 3 + keys + ["zz"]))
    return parents, leaf


def _path_oracle(parents: dict[str, str | None], leaf: str) -> set[str]:
    path: set[str] = set()
    node: str | None = leaf
    while node is not None and node not in path:
        path.add(node)
        node = parents.get(node)
    return path


@given(trees())
def test_the_branch_replayed_is_the_path_from_the_leaf_to_its_root(
    drawn: tuple[dict[str, str | None], str],
) -> None:
    parents, leaf = drawn
    t = Tally("pi")
    t.parents.update(parents)
    t.last_node["main"] = leaf
    assert t._branch("main") == _path_oracle(parents, leaf)
