"""Hostile files through the page's import paths (issue 41): the config import and the
replay's log files, given what an attacker or a careless user would give them.

Each case goes through the page's pure-Python handlers as the browser shell calls them
(``update.reduce`` with the event the shell sends, then both views), in CPython. Every
one must end in a coded refusal or a correct result: no exception, no traceback text,
and nothing from the file reaching the HTML raw (no live tag, no terminal control
character, no lone surrogate). No timed assertion: a hang fails by never finishing.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from budgetcore.inputs.text import limit_of
from budgetcore.ui.events import (
    FileRefused,
    ImportFileChosen,
    ImportFileLoaded,
    ImportPreviewed,
    JobStep,
    ReplayLogsLoaded,
    ReplaySourceChosen,
    ReplayToggled,
)
from budgetcore.ui.main.view.screen import render
from budgetcore.ui.model import PageState
from budgetcore.ui.replay.view import render_replay
from budgetcore.ui.update import initial_state, reduce

#: Text that would act if it reached a page or a terminal raw: a live script, an
#: attribute break, a terminal retitle and clear, a bidirectional override.
HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>\x1b]0;pwned\x07\x1b[2J\u202e'
_CONTROL = ("\x1b", "\x07", "\x00", "\x08", "\u202e")


def _strings(state: PageState) -> Iterator[str]:
    """Everything both views put on the page for ``state``."""
    screen = render(state)
    yield from screen.html.values()
    yield from screen.text.values()
    # (screen.boxes are text areas' values, set as .value by the shell, never HTML:
    # the import box shows the file's text to be edited, as it is)
    for f in screen.fields.values():
        yield f.message
        yield f.valuetext
    panel = render_replay(reduce(state, JobStep("replay")))
    yield from panel.html.values()
    yield from panel.text.values()
    yield from panel.field_messages.values()


def assert_inert(state: PageState) -> None:
    for text in _strings(state):
        lowered = text.lower()
        assert "<script" not in lowered, text[:300]
        assert "onerror=" not in lowered or "&quot;" in lowered or "&gt;" in lowered, text[:300]
        assert "<img" not in lowered, text[:300]
        assert not any(c in text for c in _CONTROL), ascii(text[:300])
        text.encode("utf-8")  # no lone surrogate: the DOM would get U+FFFD or throw
        assert "Traceback" not in text


def _log_state() -> PageState:
    return reduce(reduce(initial_state(), ReplayToggled(True)), ReplaySourceChosen("log"))


def _load(files: tuple[tuple[str, bytes], ...]) -> PageState:
    state = reduce(_log_state(), ReplayLogsLoaded(files))
    assert_inert(state)
    return state


def _refused(state: PageState) -> tuple[str, ...]:
    """The codes of the log's refusal (empty: it was read)."""
    codes = tuple(p.code for p in state.replay.log_error)
    assert all(codes), state.replay.log_error  # every refusal is coded
    return codes


def _read_or_refused(state: PageState) -> None:
    """A coded refusal, or a log read whose skipped lines are each coded."""
    if _refused(state):
        assert state.replay.log is None
        return
    log = state.replay.log
    assert log is not None
    assert all(p.code for p in log.skipped), log.skipped


# ------------------------------------------------------------------ logs


def _claude_line(text: str, **more: Any) -> bytes:
    """A Claude Code request with ``text`` in every text field the reader reads."""
    entry = {
        "type": "assistant",
        "uuid": text,
        "parentUuid": None,
        "sessionId": text,
        "agentId": text,
        "requestId": text,
        "cwd": text,
        "version": text,
        "timestamp": "2026-03-01T09:00:00.000Z",
        "message": {
            "id": text,
            "model": text,
            "role": "assistant",
            "content": [{"type": "text", "text": text}],
            "usage": {"input_tokens": 10, "output_tokens": 5},
        },
        **more,
    }
    return json.dumps(entry, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n"


def _codex_lines(text: str) -> bytes:
    lines = [
        {"timestamp": "2026-03-01T09:00:00Z", "type": "session_meta", "payload": {"id": text}},
        {"timestamp": "2026-03-01T09:00:00Z", "type": "turn_context", "payload": {"model": text}},
        {"timestamp": "2026-03-01T09:00:01Z", "type": text, "payload": {"type": text}},
        {"timestamp": "2026-03-01T09:00:01Z", "type": "event_msg", "payload": {"type": text}},
        {
            "timestamp": "2026-03-01T09:00:02Z",
            "type": "event_msg",
            "payload": {
                "type": "token_count",
                "info": {
                    "total_token_usage": {"input_tokens": 100, "output_tokens": 10},
                    "last_token_usage": {"input_tokens": 100, "output_tokens": 10},
                    "model_context_window": 200_000,
                },
            },
        },
    ]
    return b"".join(json.dumps(x).encode() + b"\n" for x in lines)


@pytest.mark.parametrize("text", [HOSTILE, "\ud800" + HOSTILE, "a\x00b" + HOSTILE])
def test_hostile_text_in_every_claude_code_field_stays_inert(text: str) -> None:
    body = _claude_line("u1") + _claude_line(text, type=text) + _claude_line(text)
    state = _load(((f"{text}.jsonl".replace("\x00", ""), body),))
    _read_or_refused(state)


def test_hostile_text_in_every_codex_field_stays_inert() -> None:
    state = _load(((f"rollout-{HOSTILE}.jsonl", _codex_lines(HOSTILE)),))
    _read_or_refused(state)
    assert state.replay.log is not None  # the request is read; the odd lines are counted


def _hostile_logs() -> Iterator[tuple[str, bytes]]:
    yield "binary.jsonl", bytes(range(256)) * 64
    yield "nul.jsonl", b"\x00" * 10_000 + b"\n" + b'{"type":"user"}\x00\n'
    yield "deep.jsonl", b"[" * 200_000 + b"]" * 200_000 + b"\n"
    yield "deep-object.jsonl", b'{"a":' * 100_000 + b"1" + b"}" * 100_000 + b"\n"
    yield "not-utf8.jsonl", _claude_line("u1") + b'{"type":"user","x":"\xff\xfe"}\n'
    yield "bom-twice.jsonl", b"\xef\xbb\xbf\xef\xbb\xbf" + _claude_line("u1")
    yield (
        "duplicate-keys.jsonl",
        (
            b'{"type":"assistant","type":"user","uuid":"a","uuid":"b","message":'
            b'{"id":"m","usage":{"input_tokens":5,"input_tokens":7,"output_tokens":1}}}\n'
        ),
    )
    for number in (b"1e999", b"NaN", b"-0", b"-1", b"1e2", b"1.5", b"Infinity", b"10" * 400):
        yield (
            f"number-{number[:8].decode()}.jsonl",
            (
                b'{"type":"assistant","uuid":"a","message":{"id":"m","model":"x",'
                b'"usage":{"input_tokens":' + number + b',"output_tokens":1}}}\n'
            ),
        )
    yield "empty.jsonl", b""
    yield "blank.jsonl", b"\n" * 10_000
    yield "one-long-line.jsonl", b'{"type":"user","x":"' + b"a" * 3_000_000 + b'"}\n'
    yield "a.sqlite", b"SQLite format 3\x00" + b"\x00" * 200  # a header and nothing
    yield "a.jsonl.zst", b"\x28\xb5\x2f\xfd" + bytes(range(256))  # a frame header, garbage


@pytest.mark.parametrize(("name", "data"), list(_hostile_logs()), ids=lambda v: str(v)[:24])
def test_a_hostile_log_file_is_refused_by_code_or_read(name: str, data: bytes) -> None:
    _read_or_refused(_load(((name, data),)))


def test_a_100k_line_log_is_read_with_every_line_accounted_for() -> None:
    """100,000 lines: 99,998 that are not requests (progress, blank, malformed) between
    two requests. Both requests read, every other line in the ledger."""
    lines = [_claude_line("r1")]
    for i in range(99_998):
        kind = i % 3
        if kind == 0:
            lines.append(b'{"type":"progress","data":{"type":"bash_progress"}}\n')
        elif kind == 1:
            lines.append(b"\n")
        else:
            lines.append(b"not json at all <script>alert(1)</script>\n")
    lines.append(_claude_line("r2", parentUuid="r1"))
    state = _load((("big.jsonl", b"".join(lines)),))
    assert not _refused(state)
    log = state.replay.log
    assert log is not None
    assert len(log.main.requests) == 2
    ledger = log.ledger[0]
    assert ledger.lines == 100_000
    assert ledger.lines == ledger.accounted
    assert len(ledger.malformed) == 33_332


def _zstd() -> Any:
    return pytest.importorskip("backports.zstd")


def test_a_zstd_bomb_is_refused_by_code_not_read_for_minutes() -> None:
    """A 3 kB frame of 50 MB of newlines after a real rollout's head: it read for
    minutes, blank line by blank line. Past 1,000 times its size it is refused."""
    zstd = _zstd()
    head = (Path(__file__).parent / "fixtures" / "codex-rollout.jsonl").read_bytes()
    bomb = zstd.compress(head + b"\n" * 50_000_000, level=19)
    assert len(bomb) < 10_000
    state = _load((("rollout-bomb.jsonl.zst", bomb),))
    assert _refused(state) == ("log-zstd-bomb",)
    one_line = zstd.compress(head + b"{" + b" " * 50_000_000 + b"}\n", level=19)
    assert _refused(_load((("rollout-one.jsonl.zst", one_line),))) == ("log-zstd-bomb",)
    # a real rollout, compressed, is read as its plain twin
    plain = _load((("rollout.jsonl", head),)).replay.log
    packed = _load((("rollout.jsonl.zst", zstd.compress(head)),)).replay.log
    assert plain is not None
    assert packed is not None
    assert packed.main.requests == plain.main.requests


def test_a_sqlite_file_with_odd_tables_is_refused_by_code(tmp_path: Path) -> None:
    db = tmp_path / "odd.db"
    con = sqlite3.connect(db)
    con.execute(f'CREATE TABLE "{HOSTILE.replace(chr(34), "")}" (x BLOB, "y<script>" TEXT)')
    con.execute("CREATE TABLE message (id TEXT, data BLOB)")
    con.execute("INSERT INTO message VALUES (?, ?)", (HOSTILE, zlib.compress(b"x" * 1000)))
    con.execute("CREATE TABLE session (id INTEGER)")
    con.execute("INSERT INTO session VALUES (?)", (10**18,))
    con.commit()
    con.close()
    for name in ("odd.db", "opencode.db", f"{HOSTILE}.sqlite"):
        _read_or_refused(_load(((name, db.read_bytes()),)))


def test_a_huge_log_is_refused_by_its_size_before_it_is_read() -> None:
    """The shell refuses files above the page's limit by File.size, unread."""
    state = reduce(_log_state(), FileRefused("page-log", HOSTILE, limit_of("page-log") + 1))
    assert_inert(state)
    assert _refused(state)


# ------------------------------------------------------------------ the config import


def _imported(data: bytes, mode: str = "replace") -> PageState:
    state = reduce(initial_state(), ImportFileLoaded(data, mode))
    assert_inert(state)
    preview = state.import_preview
    assert preview is not None
    assert all(p.code for p in preview.problems), preview.problems
    return state


def _hostile_configs() -> Iterator[bytes]:
    yield bytes(range(256)) * 16
    yield b"\x00" * 1000
    yield b"[config]\ntrigger_tokens = 1\x00\n"
    yield b"[config]\n\xff\xfe"
    yield b"[" * 100_000
    yield b"{" + b'"a":{' * 50_000 + b"}" * 50_001
    yield b'[config]\n"' + HOSTILE.encode() + b'" = 1\n'
    yield b'{"config": {"' + HOSTILE.encode() + b'": 1}}'
    yield b'{"config": {"trigger_tokens": "' + HOSTILE.encode() + b'"}}'
    yield b'{"config": {"trigger_tokens": "\\ud800"}}'
    yield b'{"config": {"trigger_tokens": 1, "trigger_tokens": 2}}'
    yield b"[config]\ntrigger_tokens = 1\ntrigger_tokens = 2\n"
    for number in (b"1e999", b"NaN", b"-0", b"Infinity", b"1" * 5000, b"-1", b"0.5"):
        yield b'{"config": {"trigger_tokens": ' + number + b"}}"
        yield b"[config]\ntrigger_tokens = " + number + b"\n"


@pytest.mark.parametrize("data", list(_hostile_configs()), ids=lambda v: ascii(v[:20]))
def test_a_hostile_config_file_is_refused_by_code_or_previewed(data: bytes) -> None:
    for mode in ("replace", "merge"):
        _imported(data, mode)


def test_a_huge_config_file_is_refused_by_its_size() -> None:
    state = _imported(b" " * (limit_of("config") + 1))
    assert state.import_preview is not None
    assert [p.code for p in state.import_preview.problems] == ["too-large-size"]
    refused = reduce(initial_state(), FileRefused("config", HOSTILE, 10**12))
    assert_inert(refused)


def test_a_valid_config_file_among_them_still_previews() -> None:
    """The walk's control: the same path takes a good file."""
    state = _imported(b"[config]\ntrigger_tokens = 32000\n")
    assert state.import_preview is not None
    assert not state.import_preview.problems
    assert state.import_preview.keys == ("config.trigger_tokens",)


@pytest.mark.parametrize(
    ("data", "code"),
    [(b"\x17\xb0))", "utf8"), (b"a" * (limit_of("config") + 1), "too-large-size")],
    ids=["not-utf8", "too-large"],
)
def test_preview_after_a_refused_file_keeps_its_refusal(data: bytes, code: str) -> None:
    """The fifth walk: a random file picked in the import box was refused ("must be
    UTF-8 text"); "Preview import" then said "The config file is empty: paste a TOML or
    JSON config, or choose a file" beside the box still naming the file."""
    state = reduce(initial_state(), ImportFileChosen("random.bin"))
    state = reduce(state, ImportFileLoaded(data, "replace"))
    state = reduce(state, ImportPreviewed(state.import_text, "replace"))
    assert state.import_preview is not None
    assert [p.code for p in state.import_preview.problems] == [code]
    # An empty file picked next is said to be empty, not the refusal before it.
    empty = reduce(reduce(state, ImportFileChosen("empty.toml")), ImportFileLoaded(b"", "replace"))
    assert empty.import_preview is not None
    assert [p.code for p in empty.import_preview.problems] == ["import-empty"]
    # A box emptied by hand with no file beside it is still said to be empty.
    typed = reduce(initial_state(), ImportPreviewed("", "replace"))
    assert typed.import_preview is not None
    assert [p.code for p in typed.import_preview.problems] == ["import-empty"]


def _archives() -> Iterator[tuple[str, bytes, str]]:
    import bz2  # noqa: PLC0415
    import gzip  # noqa: PLC0415
    import io  # noqa: PLC0415
    import lzma  # noqa: PLC0415
    import zipfile  # noqa: PLC0415

    log = _claude_line("r1") + _claude_line("r2", parentUuid="r1")
    for method in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", method) as z:
            z.writestr("a.jsonl", log)
            z.writestr("b.jsonl", log)
        yield f"logs-{method}.zip", buffer.getvalue(), "zip"
    yield "a.jsonl.gz", gzip.compress(log), "gzip"
    yield "a.jsonl.bz2", bz2.compress(log), "bzip2"
    yield "a.jsonl.xz", lzma.compress(log), "xz"


@pytest.mark.parametrize(("name", "data", "kind"), list(_archives()), ids=lambda v: str(v)[:12])
def test_an_archive_is_refused_as_one_naming_its_kind(name: str, data: bytes, kind: str) -> None:
    """A zip archive whose files are stored (not compressed) was read as one session: the
    lines of its files inside, run together, and its headers two malformed lines; a
    compressed one, or a gzip file, said "not a session log ... line 1 is not UTF-8
    text" (the fifteenth walk). Each is refused as what it is, in the CLI too."""
    from tests.helpers import run_cli  # noqa: PLC0415

    state = _load(((name, data),))
    assert _refused(state) == ("log-archive",)
    (problem,) = state.replay.log_error
    assert dict(problem.params)["kind"] == kind
    result = run_cli(["replay", "--log", "-", "--usage"], stdin=data)
    assert result.code == 2
    assert "archive" in result.err or "compressed" in result.err


def test_an_archive_in_a_folder_is_said_to_be_one() -> None:
    """The sixteenth walk (1440 px, both languages): a folder holding a Codex session
    beside a .zip and a .jsonl.gz of sessions listed both as "no agent we read writes
    such a file as a session", where a file given alone says what an archive is and
    what to do. The folder's plan names them by their endings: an archive or a
    compressed file, to unpack (a Codex .jsonl.zst is still a session)."""
    from budgetcore.messages import t  # noqa: PLC0415
    from budgetcore.replay.logs.folder import plan_folder  # noqa: PLC0415

    archives = [name for name, _, _ in _archives()] + ["logs.tar", "logs.tgz", "logs.7z"]
    paths = ["f/sessions/2025/10/06/rollout-a.jsonl", "f/sessions/b.jsonl.zst"]
    plan = plan_folder([*paths, *(f"f/{n}" for n in archives)])
    assert sorted(s.name for s in plan.sessions) == sorted(paths)
    whys = dict(zip(plan.not_read, plan.why_not_read, strict=True))
    assert set(whys) == {f"f/{n}" for n in archives}
    assert set(whys.values()) == {"replay.not-read.archive"}
    assert "unpack" in t("replay.not-read.archive", "en")
    assert "解压" in t("replay.not-read.archive", "zh")
