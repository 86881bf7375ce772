"""Agent log parsers (docs/spec.md §12) on small hand-made fixtures in both formats.

tests/fixtures/claude-session.jsonl, line by line: 1 user; 2-3 one response written
twice (output 50, then 120: the second is kept); 4 tool result; 5 request; 6 a broken
line; 7-8 a branch abandoned by a rewind; 9-10 the rewound branch (a null cache field);
11 a <synthetic> entry; 12 compact_boundary (auto, preTokens 7,000) linked through
logicalParentUuid; 13 the compact summary; 14 request; 15-16 a subagent (sidechain);
17-18 request; 19 an entry with a bad output_tokens (skipped, still linked); 20 the last
entry. tests/fixtures/codex-rollout.jsonl: 3 info null; 4 request; 5 the same totals
again; 7 request; 8 broken; 9 compacted; 10 request; 11 a negative count; 12 request.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from budgetcore.errors import ScenarioError
from budgetcore.messages import said_list
from budgetcore.replay.logs import (
    detect_format,
    parse_claude_code,
    parse_codex,
    parse_log,
)
from budgetcore.replay.logs.compaction import LogCompaction
from budgetcore.replay.logs.tally import Tally
from budgetcore.replay.model import Turn

FIXTURES = Path(__file__).parent / "fixtures"
CLAUDE = (FIXTURES / "claude-session.jsonl").read_bytes()
CODEX = (FIXTURES / "codex-rollout.jsonl").read_bytes()


class TestClaudeCode:
    log = parse_claude_code(CLAUDE)

    def test_requests_of_the_last_branch_deduplicated(self) -> None:
        main = self.log.main
        assert main.name == "main"
        # line: (context = input + cache creation + cache read, output)
        assert [(r.line, r.context, r.output) for r in main.requests] == [
            (2, 5_010, 120),  # the first copy's place, the largest output_tokens
            (5, 6_020, 80),
            (10, 6_025, 90),  # null cache_creation_input_tokens counts as 0
            (14, 3_010, 60),
            (18, 3_520, 40),
        ]
        assert self.log.duplicates == 1
        assert main.requests[2].cache_read == 6_020

    def test_compaction_with_pre_tokens_and_the_measured_size_after(self) -> None:
        assert self.log.main.compactions == (
            LogCompaction(
                line=12, after_turn=3, trigger="auto", pre_tokens=7_000, post_tokens=3_010
            ),
        )

    def test_turns_are_context_growth_and_the_last_adds_its_output(self) -> None:
        assert self.log.main.turns() == (
            Turn(added=1_010, output=120),
            Turn(added=5, output=80),
            Turn(added=975, output=90),  # preTokens 7,000 - 6,025 across the compaction
            Turn(added=510, output=60),
            Turn(added=40, output=40),
        )

    def test_sidechains_are_a_separate_series(self) -> None:
        assert [s.name for s in self.log.series] == ["main", "sidechain-1"]
        side = self.log.pick("sidechain-1")
        assert [(r.context, r.output, r.model) for r in side.requests] == [
            (100, 10, "claude-haiku-4-5")
        ]
        with pytest.raises(ScenarioError, match="series must be one of main, sidechain-1"):
            self.log.pick("other")

    def test_malformed_lines_are_listed_by_number(self) -> None:
        assert [str(p) for p in self.log.skipped] == [
            "line 6 is not valid JSON",
            "line 19: message.usage.output_tokens must be an integer from 0 to 10^12 or null, "
            'got "many"',
        ]

    def test_no_message_text_is_kept(self) -> None:
        text = repr(self.log)
        assert "secret" not in text
        assert "summary of the conversation" not in text
        assert self.log.models() == ("claude-sonnet-4-5", "claude-haiku-4-5")

    def test_a_compaction_without_pre_tokens_adds_the_reply(self) -> None:
        lines = [
            '{"type":"assistant","uuid":"a","parentUuid":null,"message":{"id":"m1","usage":'
            '{"input_tokens":100,"output_tokens":5}}}',
            '{"type":"system","subtype":"compact_boundary","uuid":"b","parentUuid":null,'
            '"logicalParentUuid":"a","compactMetadata":{"trigger":"manual"}}',
            '{"type":"assistant","uuid":"c","parentUuid":"b","message":{"id":"m2","usage":'
            '{"input_tokens":40,"output_tokens":7}}}',
        ]
        log = parse_claude_code("\n".join(lines))
        assert log.main.compactions[0].trigger == "manual"
        assert log.main.turns() == (Turn(added=5, output=5), Turn(added=7, output=7))


class TestCodex:
    log = parse_codex(CODEX)

    def test_requests_skip_null_info_and_repeated_totals(self) -> None:
        assert [(r.line, r.context, r.cache_read, r.output) for r in self.log.main.requests] == [
            (4, 8_000, 0, 300),
            (7, 9_000, 8_000, 200),
            (10, 3_000, 0, 100),
            (12, 3_500, 3_000, 50),
        ]
        assert self.log.duplicates == 1
        assert self.log.window == 272_000
        assert self.log.models() == ("gpt-5-codex",)

    def test_compacted_line_is_a_compaction(self) -> None:
        (comp,) = self.log.main.compactions
        assert (comp.line, comp.after_turn, comp.pre_tokens, comp.post_tokens) == (
            9,
            2,
            None,
            3_000,
        )

    def test_turns(self) -> None:
        assert [(t.added, t.output) for t in self.log.main.turns()] == [
            (1_000, 300),
            (200, 200),  # no preTokens in a rollout: the reply is the least that was added
            (500, 100),
            (50, 50),
        ]

    def test_malformed_lines_are_listed(self) -> None:
        assert [p.path.split(":")[0] for p in self.log.skipped] == ["line 8", "line 11"]
        assert "secret" not in repr(self.log)


class TestFiles:
    def test_format_is_detected(self) -> None:
        assert detect_format(CLAUDE) == "claude-code"
        assert detect_format(CODEX) == "codex"
        assert parse_log(CODEX).format == "codex"

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            (b"", "is empty"),
            (b"not json\n[1, 2]\n", "not a session log of an agent we read"),
            (b"\xff\xfe", "is UTF-16 text"),  # a UTF-16 byte-order mark
            # a line that is not UTF-8 is malformed
            (b"\xff\xfd\n", "not a session log of an agent we read"),
            (b'{"type": "user", "uuid": "u"}\n', "has no usable request in this Claude Code file"),
            (
                b'{"type": "event_msg", "payload": {"type": "token_count", "info": null}}\n',
                "has no usable request in this Codex CLI file",
            ),
        ],
    )
    def test_an_unusable_file_is_an_error(self, text: bytes, message: str) -> None:
        with pytest.raises(ScenarioError, match=message):
            parse_log(text)

    def test_no_usable_line_names_the_first_problem(self) -> None:
        with pytest.raises(ScenarioError) as info:
            parse_claude_code(b'{"broken\n{"type": "user", "uuid": "u"}\n')
        assert info.value.one_line() == (
            "log has no usable request in this Claude Code file: lines read: 2, malformed: 1, "
            "not requests: user 1; line 1 is not valid JSON"
        )
        first, line = info.value.problems
        assert (first.code, dict(first.params)) == (
            "log-no-requests",
            {"format": "Claude Code", "lines": "2", "malformed": "1", "entries": "user 1"},
        )
        assert (line.code, dict(line.params)) == ("log-line-not-json", {"line": "1"})

    def test_a_file_without_a_tree_is_read_in_order(self) -> None:
        lines = [
            '{"type":"assistant","message":{"usage":{"input_tokens":10,"output_tokens":1}}}',
            '{"type":"assistant","message":{"usage":{"input_tokens":30,"output_tokens":2}}}',
        ]
        log = parse_claude_code("\n".join(lines))
        assert [t.added for t in log.main.turns()] == [20, 2]


def test_a_utf16_file_says_so_and_an_unknown_one_names_its_first_line() -> None:
    from budgetcore.replay.logs.agents import names  # noqa: PLC0415 - every agent we read

    with pytest.raises(ScenarioError) as info:
        parse_log('{"type":"user","uuid":"u"}\n'.encode("utf-16"))
    assert [p.code for p in info.value.problems] == ["log-utf16"]
    with pytest.raises(ScenarioError) as info:
        parse_log(b"\n\nhello\n")
    assert info.value.one_line() == (
        f"log is not a session log of an agent we read ({said_list(names(), 'en')}); "
        "line 3 is not valid JSON"
    )
    with pytest.raises(ScenarioError) as info:  # a JSON object of neither format
        parse_log(b'{"a": 1}\n')
    assert [p.code for p in info.value.problems] == ["log-unknown-format"]


def test_a_one_file_session_s_ledger_counts_its_requests_without_a_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A session of one file (most sessions) counts its requests on and off the branch
    from the lists the series are made of; the count by file and place, a pass over
    every request, is for sessions of several files (docs/performance.md, issue 40's
    per-session round). The counts are the pass's: on the branch and abandoned."""
    from budgetcore.replay.logs import tally as tally_module  # noqa: PLC0415

    def built(files: int) -> Tally:
        t = tally_module.Tally("pi")
        for f in range(files):
            t.open(f"f{f}.jsonl")
        t.node("main", "a", None)
        t.node("main", "b", "a")
        t.node("main", "c", "a")  # b's branch is abandoned: the leaf is c
        for line, node in ((1, "a"), (2, "b"), (3, "c")):
            t.request(line, input=10, output=1, model="m", node=node, file=files - 1)
        return t

    counter = tally_module.Counter

    def spied(*args: object) -> object:
        assert not args or not isinstance(args[0], zip), "a pass over every request"
        return counter(*args)

    monkeypatch.setattr(tally_module, "Counter", spied)
    log = built(1).session("f0.jsonl")
    assert [f.requests for f in log.ledger] == [(("main", 2, 1),)]
    monkeypatch.setattr(tally_module, "Counter", counter)
    two = built(2).session("f0.jsonl")
    assert [f.requests for f in two.ledger] == [(), (("main", 2, 1),)]
