"""The log import's fidelity (docs/replay.md): every shape real files have, the ledger
that accounts for every line, measured usage and its cost, and the reader's limits.

Fixtures: tests/fixtures/logs/{claude,codex}/<shape>/ are a Claude Code projects folder
and a Codex sessions folder each (placeholder text only); the small inline logs below
are built here so each test shows the one shape it is about.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from budgetcore.cli.replay_cmds import with_subagents
from budgetcore.core.contracts import ModelContract
from budgetcore.errors import ScenarioError
from budgetcore.registry.models import RegistryModel, Resolution, resolve
from budgetcore.registry.prices import Prices, request_cost
from budgetcore.registry.tiers import PriceTier
from budgetcore.replay.logs import claude as claude_mod
from budgetcore.replay.logs import parse_claude_code, parse_codex, parse_log, read_session
from budgetcore.replay.logs.claude_advisor import ADVISOR
from budgetcore.replay.logs.folder import plan_folder
from budgetcore.replay.logs.model import LogRequest
from budgetcore.replay.logs.reader import millis
from budgetcore.replay.logs.session import log_model, run_session
from budgetcore.replay.logs.usage import measured_usage
from tests.helpers import fixture_sessions, spied_stream

LOGS = Path(__file__).parent / "fixtures" / "logs"
ROOT = Path(__file__).resolve().parents[1]


def sessions(kind: str) -> list[tuple[str, Path, tuple[str, ...]]]:
    return [(f"{fx}:{name}", base, files) for fx, base, name, files in fixture_sessions(kind)]


def read(base: Path, files: tuple[str, ...]) -> Any:
    return read_session([(f, (base / f).read_bytes()) for f in files], require=False)


def jl(*objs: dict[str, Any]) -> bytes:
    return "".join(json.dumps(o) + "\n" for o in objs).encode()


def user(uuid: str, parent: str | None, **extra: Any) -> dict[str, Any]:
    return {
        "type": "user",
        "uuid": uuid,
        "parentUuid": parent,
        "message": {"content": "x"},
        **extra,
    }


def assistant(
    uuid: str, parent: str | None, mid: str, ctx: int = 100, out: int = 10, **extra: Any
) -> dict[str, Any]:
    usage = {"input_tokens": ctx, "output_tokens": out}
    return {
        "type": "assistant",
        "uuid": uuid,
        "parentUuid": parent,
        "requestId": f"r-{mid}",
        "message": {"id": mid, "model": "claude-sonnet-4-5", "usage": usage},
        **extra,
    }


ALL = sessions("claude") + sessions("codex")


@pytest.mark.parametrize(("name", "base", "files"), ALL, ids=[a[0] for a in ALL])
def test_every_line_of_every_fixture_is_accounted_for(
    name: str, base: Path, files: tuple[str, ...]
) -> None:
    log = read(base, files)
    for f, path in zip(log.ledger, files, strict=True):
        lines = len((base / path).read_bytes().split(b"\n")) - 1
        assert f.lines == lines
        assert f.accounted == f.lines, f
    counted = sum(f.request_count for f in log.ledger)
    # Claude Code's advisor calls are requests at their response's line, which the
    # ledger counts once, as that response (docs/replay.md, "Advisor calls").
    advised = sum(len(s.abandoned) for s in log.series if s.name == ADVISOR)
    assert counted == len(log.all_requests()) - advised


class TestClaudeShapes:
    def test_inline_subagent_runs_without_agent_id_are_each_their_own_series(self) -> None:
        # Claude Code 1.0.x: Task runs written inline, isSidechain true, no agentId.
        objs = [user("u1", None), assistant("a1", "u1", "m1")]
        for run in range(3):
            root = f"s{run}"
            objs.append(user(root, None, isSidechain=True))
            objs.append(assistant(f"{root}a", root, f"m{run}a", isSidechain=True))
            objs.append(user(f"{root}u", f"{root}a", isSidechain=True))
            objs.append(assistant(f"{root}b", f"{root}u", f"m{run}b", isSidechain=True))
        objs += [user("u2", "a1"), assistant("a2", "u2", "m2")]
        log = parse_claude_code(jl(*objs))
        assert [(s.name, len(s.requests), len(s.abandoned)) for s in log.series] == [
            ("main", 2, 0),
            ("sidechain-1", 2, 0),
            ("sidechain-2", 2, 0),
            ("sidechain-3", 2, 0),
        ]
        assert len(log.all_requests()) == 8

    def test_a_preserved_segment_keeps_the_history_before_the_boundary(self) -> None:
        # Claude Code 2.1: the preserved entries are written again after the boundary,
        # the head relinked to the summary (claude-code-log's preserved fixture).
        boundary = {
            "type": "system",
            "subtype": "compact_boundary",
            "uuid": "cb",
            "parentUuid": None,
            "logicalParentUuid": "a2",
            "compactMetadata": {
                "trigger": "auto",
                "preTokens": 5_000,
                "preservedSegment": {"headUuid": "u2", "anchorUuid": "sum", "tailUuid": "a2"},
            },
        }
        log = parse_claude_code(
            jl(
                user("u1", None),
                assistant("a1", "u1", "m1", ctx=1_000),
                user("u2", "a1"),
                assistant("a2", "u2", "m2", ctx=2_000),
                boundary,
                user("sum", "cb", isCompactSummary=True),
                user("u2", "sum"),  # the preserved head, written again
                assistant("a2", "u2", "m2", ctx=2_000),
                user("u3", "a2"),
                assistant("a3", "u3", "m3", ctx=900),
            )
        )
        main = log.main
        assert [r.context for r in main.requests] == [1_000, 2_000, 900]
        assert [(c.after_turn, c.pre_tokens) for c in main.compactions] == [(2, 5_000)]
        assert log.ledger[0].duplicates == (("copy of a request", 1),)

    def test_the_fixture_preserved_segment_is_placed_after_its_requests(self) -> None:
        base = LOGS / "claude" / "12-compact-preserved-2.1" / "projects"
        files = next(f for n, b, f in ALL if n.startswith("12-"))
        log = read(base, files)
        assert [r.line for r in log.main.requests] == [2, 4, 11]
        assert [c.after_turn for c in log.main.compactions] == [2]
        assert [s.name for s in log.series] == ["main", "sidechain:acompact-5e6f7a8b"]

    def test_entries_without_parent_links_are_one_branch_in_file_order(self) -> None:
        objs = [
            {
                k: v
                for k, v in assistant(f"a{i}", None, f"m{i}", ctx=100 * i).items()
                if k != "parentUuid"
            }
            for i in range(1, 4)
        ]
        log = parse_claude_code(jl(*objs) + b"{broken\n")
        assert [r.context for r in log.main.requests] == [100, 200, 300]
        assert log.ledger[0].malformed == (4,)

    def test_a_parent_on_a_half_written_line_continues_from_the_entry_before(self) -> None:
        text = (
            jl(user("u1", None), assistant("a1", "u1", "m1"))
            + b'{"type":"user","uuid":"u2","parentUuid":"a1","mess\n'
            + jl(assistant("a2", "u2", "m2"), user("u3", "a2"), assistant("a3", "u3", "m3"))
        )
        log = parse_claude_code(text)
        assert [r.line for r in log.main.requests] == [2, 4, 6]
        assert log.ledger[0].orphans == (4,)
        assert log.ledger[0].malformed == (3,)

    def test_a_rewind_leaves_its_requests_abandoned_but_billed(self) -> None:
        log = parse_claude_code(
            jl(
                user("u1", None),
                assistant("a1", "u1", "m1"),
                user("u2", "a1"),
                assistant("a2", "u2", "m2", out=7),  # abandoned by the rewind
                user("u2b", "a1"),
                assistant("a3", "u2b", "m3"),
            )
        )
        assert [r.line for r in log.main.requests] == [2, 6]
        assert [r.line for r in log.main.abandoned] == [4]
        assert log.ledger[0].requests == (("main", 2, 1),)
        assert measured_usage(log).requests == 3

    def test_a_new_root_last_leaves_the_branch_to_the_last_request(self) -> None:
        """The last entry is a new root with no reply (Claude Code 1.0.x): the path to it
        holds no request, so the replayed branch is the one that leads to the last
        request, and a rewind before that still leaves its request abandoned."""
        log = parse_claude_code(
            jl(
                user("u1", None),
                assistant("a1", "u1", "m1"),
                user("u2", "a1"),
                assistant("a2", "u2", "m2"),  # abandoned by the rewind
                user("u2b", "a1"),
                assistant("a3", "u2b", "m3"),
                user("u9", None),
            )
        )
        assert [r.line for r in log.main.requests] == [2, 6]
        assert [r.line for r in log.main.abandoned] == [4]
        assert log.ledger[0].requests == (("main", 2, 1),)
        # A new root whose own chain has a request is the branch, as before.
        log = parse_claude_code(
            jl(user("u1", None), assistant("a1", "u1", "m1"), user("u9", None))
            + jl(assistant("a9", "u9", "m9"), user("u10", "a9"))
        )
        assert [r.line for r in log.main.requests] == [4]
        assert [r.line for r in log.main.abandoned] == [2]

    def test_streaming_copies_fold_into_one_request_with_both_times(self) -> None:
        base = LOGS / "claude" / "02-streaming-split" / "projects"
        files = next(f for n, b, f in ALL if n.startswith("02-"))
        log = read(base, files)
        first, second = log.main.requests
        assert (first.output, second.output) == (183, 159)
        # 2026-03-01T10:31:40.000Z and the line with the final count, 10:31:43.399Z
        assert (second.started, second.finished) == (1772361100000, 1772361103399)
        assert log.main.times[0] == 1763592780000  # 2025-11-19T22:53:00.000Z
        assert log.ledger[0].duplicates == (("copy of a request", 3),)

    def test_messages_and_tool_result_characters_before_each_request(self) -> None:
        tool = {
            "type": "user",
            "uuid": "t1",
            "parentUuid": "a1",
            "message": {
                "content": [
                    {"type": "tool_result", "content": "abcde"},
                    {"type": "tool_result", "content": [{"type": "text", "text": "\u2028xy"}]},
                ]
            },
        }
        log = parse_claude_code(
            jl(user("u1", None), assistant("a1", "u1", "m1"), tool, assistant("a2", "t1", "m2"))
        )
        assert [(r.messages, r.tool_result_chars) for r in log.main.requests] == [(1, 0), (3, 8)]

    def test_a_subagent_replaying_a_main_response_is_a_copy_the_main_one_wins(self) -> None:
        base = LOGS / "claude" / "07-btw-sidechain-replay" / "projects"
        files = next(f for n, b, f in ALL if n.startswith("07-"))
        log = read(base, files)
        u = measured_usage(log).usage
        assert (u.input, u.cache_write_5m + u.cache_write_1h, u.cache_read) == (6, 500, 720)
        assert log.ledger[1].duplicates == (("copy of a main request", 1),)

    def test_an_entry_with_no_tokens_is_not_a_turn(self) -> None:
        error = assistant("e", "u2", "me", ctx=0, out=0, isApiErrorMessage=True)
        log = parse_claude_code(
            jl(
                user("u1", None),
                assistant("a1", "u1", "m1", ctx=5_000),
                user("u2", "a1"),
                error,
                user("u3", "e"),
                assistant("a2", "u3", "m2", ctx=5_200),
            )
        )
        assert [t.added for t in log.main.turns()] == [200, 10]
        assert dict(log.ledger[0].entries)["assistant (no tokens)"] == 1

    def test_synthetic_entries_are_not_requests(self) -> None:
        syn = assistant("s", "a1", "ms")
        syn["message"]["model"] = "<synthetic>"
        log = parse_claude_code(jl(user("u1", None), assistant("a1", "u1", "m1"), syn))
        assert len(log.all_requests()) == 1
        assert dict(log.ledger[0].entries)["assistant (<synthetic>)"] == 1


class TestCodexShapes:
    def test_totals_only_events_are_requests_by_difference(self) -> None:
        log = read(*next((b, f) for n, b, f in ALL if n.startswith("totals-only")))
        assert [(r.context, r.cache_read, r.output) for r in log.main.requests] == [
            (1_200, 200, 500),
            (800, 100, 300),
        ]
        assert log.ledger[0].duplicates == (("token_count repeating the previous totals", 1),)

    def test_a_fork_does_not_count_the_parents_turns_again(self) -> None:
        for shape in ("fork:", "fork-burst-across-second:"):
            found = [(b, f) for n, b, f in ALL if n.startswith(shape) and f[0].endswith("b.jsonl")]
            log = read(*found[0])
            assert [(r.context, r.output) for r in log.main.requests] == [(40_000, 2_000)]
            assert dict(log.ledger[0].duplicates)["token_count copied from the parent session"] == 2

    def test_each_request_has_its_own_model(self) -> None:
        log = read(*next((b, f) for n, b, f in ALL if n.startswith("model-switch")))
        assert [r.model for r in log.main.requests] == ["gpt-5.1-codex-max", "gpt-5.1-codex-mini"]
        lines = [
            {"type": "turn_context", "payload": {"model": "gpt-5"}},
            {
                "type": "event_msg",
                "payload": {
                    "type": "token_count",
                    "info": {
                        "model": "gpt-5-mini",
                        "last_token_usage": {"input_tokens": 10, "output_tokens": 2},
                    },
                },
            },
            {
                "type": "event_msg",
                "payload": {
                    "type": "token_count",
                    "info": {"last_token_usage": {"input_tokens": 20, "output_tokens": 2}},
                },
            },
        ]
        log = parse_codex(jl(*lines))
        assert [r.model for r in log.main.requests] == ["gpt-5-mini", "gpt-5"]

    def test_a_compaction_without_a_size_adds_the_reply(self) -> None:
        log = read(*next((b, f) for n, b, f in ALL if n.startswith("compaction")))
        (comp,) = log.main.compactions
        assert comp.pre_tokens is None
        assert comp.after_turn == 1
        turns = log.main.turns()
        assert turns[0].added == log.main.requests[0].output


class TestReader:
    @pytest.mark.parametrize("fmt", ["claude-code", "codex"])
    def test_a_line_above_the_line_limit_is_one_malformed_line_read_in_pieces(
        self, fmt: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from budgetcore.replay.logs import reader  # noqa: PLC0415

        monkeypatch.setattr(reader, "MAX_LINE_BYTES", 400)
        long = b'{"type":"user","x":"' + b"y" * 1000 + b'"}\n'
        good = jl(assistant("a2", None, "m2"))
        if fmt == "codex":
            good = (
                b'{"type":"event_msg","payload":{"type":"token_count","info":'
                b'{"last_token_usage":{"input_tokens":10,"output_tokens":5}}}}\n'
            )
        stream, reads = spied_stream(long + good)
        log = parse_log(stream.read(), fmt)
        assert [str(p) for p in log.skipped] == ["line 1 is longer than 400 bytes"]
        assert log.ledger[0].malformed == (1,)
        assert log.ledger[0].lines == log.ledger[0].accounted == 2
        stream.seek(0)
        lines = list(reader.numbered_lines(stream))
        assert [n for n, _ in lines] == [1, 2]
        assert max(reads) <= 401  # never more than the line limit in one read

    def test_a_huge_exponent_is_a_malformed_line_not_a_crash(self) -> None:
        bad = (
            b'{"type":"assistant","uuid":"a1","message":{"id":"m","model":"x","usage":'
            b'{"input_tokens":1e1000000000000000000,"output_tokens":5}}}\n'
        )
        log = parse_log(bad + jl(assistant("a2", None, "m2")))
        assert [str(p) for p in log.skipped] == [
            "line 1: message.usage.input_tokens must be an integer from 0 to 10^12 or null, "
            "got 1e1000000000000000000"
        ]
        codex = (
            b'{"type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":'
            b'{"input_tokens":1e1000000000000000000,"output_tokens":5}}}}\n'
        )
        with pytest.raises(ScenarioError, match="no usable request"):
            parse_codex(codex)

    def test_line_separators_inside_strings_stay_in_their_line(self) -> None:
        text = (
            jl(
                user("u1", None, message={"content": "a\u2028b\u2029c\u0085d"}),
                assistant("a1", "u1", "m1"),
            )
            .replace(b"\\u2028", "\u2028".encode())
            .replace(b"\\u2029", "\u2029".encode())
        )
        text = text.replace(b"\\u0085", "\u0085".encode())
        assert "\u2028".encode() in text
        log = parse_log(text)
        assert log.ledger[0].lines == 2
        assert [r.line for r in log.main.requests] == [2]
        assert log.skipped == ()

    def test_a_byte_that_is_not_utf8_spoils_only_its_line(self) -> None:
        text = (
            jl(user("u1", None)) + b'{"type":"user","x":"\xff"}\n' + jl(assistant("a1", "u1", "m1"))
        )
        log = parse_log(text)
        assert [str(p) for p in log.skipped] == ["line 2 is not UTF-8 text (byte 21 of the line)"]
        assert len(log.main.requests) == 1

    def test_lines_of_the_other_format_are_listed_not_ignored(self) -> None:
        codex_line = {"type": "event_msg", "payload": {"type": "token_count", "info": None}}
        log = parse_log(jl(user("u1", None), codex_line, assistant("a1", "u1", "m1")))
        assert [str(p) for p in log.skipped] == [
            "line 2 is a Codex CLI rollout line in a Claude Code session file"
        ]
        claude_line = user("u1", None)
        tc = {
            "type": "event_msg",
            "payload": {
                "type": "token_count",
                "info": {"last_token_usage": {"input_tokens": 5, "output_tokens": 1}},
            },
        }
        log = parse_log(jl(tc, claude_line))
        assert [str(p) for p in log.skipped] == [
            "line 2 is a Claude Code line in a Codex CLI rollout"
        ]

    def test_odd_values_where_names_belong_are_entries_not_crashes(self) -> None:
        lines = [
            {"type": ["x"], "payload": {"type": {"a": 1}}},
            {"type": "event_msg", "payload": {"type": ["token_count"]}},
            {
                "type": "event_msg",
                "payload": {
                    "type": "token_count",
                    "info": {"last_token_usage": {"input_tokens": 5, "output_tokens": 1}},
                },
            },
        ]
        log = parse_codex(jl(*lines))
        assert log.ledger[0].accounted == 3
        assert len(log.main.requests) == 1

    def test_timestamps_are_exact_milliseconds_like_datetimes(self) -> None:
        rng = random.Random(7)
        epoch = datetime(1970, 1, 1, tzinfo=UTC)
        for _ in range(2_000):
            ms = rng.randrange(0, 4_000_000_000_000)
            when = epoch + timedelta(milliseconds=ms)
            text = when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"
            assert millis(text) == ms
        assert millis("2026-01-01T10:00:00+09:00") == 1_767_229_200_000
        assert millis("2026-01-01T10:00:00.123456Z") == 1_767_261_600_123  # a floor
        for bad in ("2026-01-01T24:00:00.000Z", "2026-01-01T10:00:0a.000Z", "x", None, True):
            assert millis(bad) is None

    def test_too_many_requests_is_a_clear_error(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(claude_mod, "MAX_LOG_REQUESTS", 2)
        objs = [assistant(f"a{i}", None, f"m{i}") for i in range(3)]
        with pytest.raises(ScenarioError, match="has more than 2 requests"):
            parse_claude_code(jl(*objs))

    def test_a_stream_is_read_line_by_line(self) -> None:
        class Lines(io.BytesIO):
            def read(self, *_: object) -> bytes:  # pragma: no cover - must not be called
                raise AssertionError("read the whole stream")

        log = parse_log(Lines(jl(user("u1", None), assistant("a1", "u1", "m1"))))
        assert len(log.main.requests) == 1


class TestMeasuredUsage:
    def test_priced_per_request_from_the_registry_unknown_is_unknown(self) -> None:
        a = assistant("a1", "u1", "m1", ctx=1_000, out=100)
        a["message"]["usage"].update(
            cache_read_input_tokens=20_000, cache_creation_input_tokens=500
        )
        b = assistant("a2", "a1", "m2", ctx=10, out=1)
        b["message"]["model"] = "claude-totally-unknown-9"
        log = parse_claude_code(jl(user("u1", None), a, b))
        m = measured_usage(log)
        sonnet = resolve("claude-sonnet-4-5").model
        assert sonnet is not None
        want = request_cost(sonnet.prices, log.main.requests[0].usage)
        assert want is not None
        assert want > 0
        by = {x.model: x for x in m.models}
        assert by["claude-sonnet-4-5"].cost == want
        assert by["claude-totally-unknown-9"].cost is None
        assert by["claude-totally-unknown-9"].resolved is None
        assert m.cost is None
        assert m.known_cost == want
        assert (m.usage.input, m.usage.cache_write_5m, m.usage.cache_read) == (1_010, 500, 20_000)

    def test_sums_per_tier_equal_the_sum_of_each_requests_cost(self) -> None:
        prices = Prices(
            input=Decimal("3E-6"),
            output=Decimal("1.5E-5"),
            cache_read=Decimal("3E-7"),
            cache_write=Decimal("3.75E-6"),
            cache_write_1h=Decimal("6E-6"),
            tiers=(
                PriceTier(above=200_000, input=Decimal("6E-6"), output=Decimal("2.25E-5")),
                PriceTier(above=272_000, cache_read=Decimal("1E-6")),
            ),
        )
        entry = RegistryModel(
            name="m",
            provider="p",
            prices=prices,
            contract=ModelContract(input_tokens=400_000, output_tokens=8_000, reserves_output=True),
        )
        rng = random.Random(4)
        reqs = []
        for i in range(300):
            parts = [rng.choice((0, rng.randint(0, 150_000))) for _ in range(4)]
            fresh, w5, w1, read = parts
            reqs.append(
                LogRequest(
                    line=i,
                    context=sum(parts),
                    output=rng.randint(0, 9_000),
                    cache_read=read,
                    cache_write=w5 + w1,
                    model="m",
                    input=fresh,
                    cache_write_1h=w1,
                )
            )
        m = measured_usage(reqs, lambda name: Resolution(name=name, model=entry, how="exact"))
        want = sum((request_cost(prices, r.usage) or Decimal(0) for r in reqs), Decimal(0))
        assert m.cost == want
        assert {_tier(r.context) for r in reqs} == {0, 1, 2}

    def test_one_hour_cache_writes_are_counted_apart(self) -> None:
        base = LOGS / "claude" / "08-cache-1h" / "projects"
        files = next(f for n, b, f in ALL if n.startswith("08-"))
        u = measured_usage(read(base, files)).usage
        assert u.cache_write_5m + u.cache_write_1h == 48_030
        assert u.cache_write_1h > 0

    def test_a_logged_cost_is_summed_beside_ours(self) -> None:
        base = LOGS / "claude" / "16-costusd-legacy" / "projects"
        files = next(f for n, b, f in ALL if n.startswith("16-"))
        m = measured_usage(read(base, files))
        assert m.logged_cost == Decimal("0.0412")
        assert m.logged_requests == 1

    def test_codex_input_excludes_cached_and_reasoning_is_shown(self) -> None:
        log = read(*next((b, f) for n, b, f in ALL if n.startswith("modern-basic")))
        u = measured_usage(log).usage
        assert (u.input, u.cache_read, u.output, u.reasoning) == (14_000, 11_000, 1_300, 500)
        gpt5 = measured_usage(
            parse_codex(
                jl(
                    {"type": "turn_context", "payload": {"model": "gpt-5"}},
                    {
                        "type": "event_msg",
                        "payload": {
                            "type": "token_count",
                            "info": {
                                "last_token_usage": {
                                    "input_tokens": 1_000,
                                    "cached_input_tokens": 400,
                                    "output_tokens": 10,
                                }
                            },
                        },
                    },
                )
            )
        )
        # gpt-5: 1.25 $/M input, 0.125 $/M cache read, 10 $/M output
        assert gpt5.cost == Decimal("0.00075") + Decimal("0.00005") + Decimal("0.0001")


def _tier(context: int) -> int:
    return 0 if context <= 200_000 else 1 if context <= 272_000 else 2


class TestNoScenario:
    def test_the_default_scenario_takes_the_logs_main_model(self) -> None:
        objs = [
            user("u1", None),
            assistant("a1", "u1", "m1"),
            user("u2", "a1"),
            assistant("a2", "u2", "m2"),
        ]
        log = parse_claude_code(jl(*objs))
        choice = log_model(log)
        entry = resolve("claude-sonnet-4-5").model
        assert entry is not None
        assert choice.known
        assert choice.scenario.main_model.input_tokens == entry.contract.input_tokens
        run = run_session("s", log, scenario=None, options=None)
        assert run.result is not None
        assert run.result.options.main_prices == entry.prices
        assert run.result.summary.cost is not None

    def test_an_unknown_model_keeps_the_default_scenario_and_says_so(self) -> None:
        a = assistant("a1", None, "m1")
        a["message"]["model"] = "claude-totally-unknown-9"
        choice = log_model(parse_claude_code(jl(a)))
        assert not choice.known
        assert choice.logged == "claude-totally-unknown-9"
        assert choice.scenario.main_model.input_tokens == 1_048_576


def cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "budgetcore", *args], capture_output=True, cwd=ROOT, check=False
    )


class TestCli:
    def test_replay_of_a_log_needs_no_scenario_and_names_the_model(self) -> None:
        log = LOGS / "claude" / "01-plain-2.1" / "projects" / "-home-user-proj"
        proc = cli("replay", "--log", str(next(log.glob("*.jsonl"))))
        assert proc.returncode == 0, proc.stderr
        summary = json.loads(proc.stdout.splitlines()[-1])["summary"]
        assert summary["scenario_model"]["registry"] == "claude-sonnet-4-5-20250929"
        assert summary["log"]["measured"]["requests"] == 2
        (ledger,) = summary["log"]["ledger"]
        assert ledger["accounted"] == ledger["lines"] == 12

    def test_a_session_file_is_read_with_its_subagent_files(self) -> None:
        log = LOGS / "claude" / "05-subagents-dir-2.1" / "projects" / "-home-user-proj"
        proc = cli("replay", "--log", str(next(log.glob("*.jsonl"))), "--format", "table")
        assert proc.returncode == 0, proc.stderr
        text = proc.stdout.decode()
        assert "(Claude Code, 3 files)" in text
        assert "subagents/agent-a7e3c1d2b4f5a6b7.jsonl: 4 lines" in text
        assert "This session cost" in text
        assert "as logged" in text

    def test_a_session_file_given_alone_is_read_with_what_its_folder_plans(self) -> None:
        # One rule (replay.logs.folder) for a file given alone and for its folder: the
        # file's subagents are the files the folder's plan groups with it.
        project = LOGS / "claude" / "05-subagents-dir-2.1" / "projects" / "-home-user-proj"
        main = next(project.glob("*.jsonl"))
        alone = [Path(p).relative_to(project).as_posix() for p in with_subagents(str(main))]
        walked = [p.relative_to(project).as_posix() for p in project.rglob("*") if p.is_file()]
        (session,) = plan_folder(walked).sessions
        assert alone == list(session.files)
        assert len(alone) == 3  # the session, a subagent, a workflow's subagent
        assert with_subagents("-") == ["-"]

    def test_the_cli_finds_a_files_subagents_in_one_place(self) -> None:
        # tune --log FILE and replay --log FILE both call log_paths.with_subagents (in
        # replay_cmds until it passed 40 kB): no second copy of the rule may come back
        # in another command.
        users = [
            p.relative_to(ROOT).as_posix()
            for p in sorted((ROOT / "budgetcore" / "cli").rglob("*.py"))
            if "subagents_of" in p.read_text(encoding="utf-8")
            or "subagents_beside" in p.read_text(encoding="utf-8")
        ]
        assert users == ["budgetcore/cli/log_paths.py"]

    def test_a_folder_gives_one_result_per_session_and_a_total(self) -> None:
        proc = cli("replay", "--log", str(LOGS / "codex" / "fork" / "sessions"))
        assert proc.returncode == 0, proc.stderr
        lines = [json.loads(x) for x in proc.stdout.splitlines()]
        summaries = [x for x in lines if "summary" in x and "turn" not in x]
        assert len(summaries) == 2
        total = lines[-1]["total"]
        assert total["sessions"] == 2
        assert total["requests"] == 3
        assert total["measured"]["cache_read"] == 49_000

    def test_usage_alone_does_not_replay(self) -> None:
        proc = cli("replay", "--log", str(LOGS / "claude" / "10-models" / "projects"), "--usage")
        assert proc.returncode == 0, proc.stderr
        lines = [json.loads(x) for x in proc.stdout.splitlines()]
        assert "turns" not in lines[0]["summary"]
        assert lines[-1]["total"]["measured"]["requests"] == 9


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", "log-empty"),
        (b"\n  \r\n\t\n", "log-empty"),
        (b"hello\n", "log-unknown-format"),
        (b"\n" * 300 + b"{}\n", "log-unknown-format"),  # past the lines sniffed: not known empty
    ],
)
def test_an_empty_log_says_it_is_empty(data: bytes, code: str) -> None:
    from budgetcore.errors import ScenarioError  # noqa: PLC0415
    from budgetcore.replay.logs import read_session  # noqa: PLC0415

    with pytest.raises(ScenarioError) as caught:
        read_session([("f.jsonl", data)])
    assert caught.value.problems[0].code == code


def test_the_table_shows_the_exact_cost_in_the_pages_form() -> None:
    """The CLI table once rounded to cents ("$0.19", "$0.0069") where the page shows
    every place: both now print units.format_money of the exact cost."""
    from decimal import Decimal  # noqa: PLC0415

    from budgetcore.units import format_money  # noqa: PLC0415

    log = next((LOGS / "claude" / "08-cache-1h" / "projects").rglob("*.jsonl"))
    machine = json.loads(cli("replay", "--log", str(log), "--usage").stdout, parse_float=Decimal)
    table = cli("replay", "--log", str(log), "--format", "table").stdout.decode()
    cost = Decimal(machine["summary"]["log"]["measured"]["cost"])
    assert f"{format_money(cost)}" in table
