"""The page's file boxes in the page's language (issue 42): the replay's file and
folder boxes and the Export panel's import file. The browser writes its own "Choose
Files" / "No file chosen" in the browser's language, so the page hides the browser's
button under its own label, and says what the box holds from the catalogue, in both
languages."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from budgetcore.messages import CATALOGUE, said_list, t
from budgetcore.ui.events import (
    FieldTyped,
    ImportFileChosen,
    ReplayFilesChosen,
    ReplaySourceChosen,
    ReplayToggled,
    Reset,
)
from budgetcore.ui.main.view.screen import render
from budgetcore.ui.model import PageState
from budgetcore.ui.paint import Painted, main_ops, panel_ops
from budgetcore.ui.replay.state import FILE_BOXES
from budgetcore.ui.replay.view import render_replay
from budgetcore.ui.update import initial_state, reduce
from tests.helpers import ROOT, run_cli, shown

INDEX = (ROOT / "web" / "index.html").read_text("utf-8")
STYLE = (ROOT / "web" / "style.css").read_text("utf-8")


class _Elements(HTMLParser):
    """Every start tag's attributes, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags() -> list[tuple[str, dict[str, str | None]]]:
    parser = _Elements()
    parser.feed(INDEX)
    return parser.tags


def _page(lang: str = "en") -> PageState:
    return reduce(initial_state(lang=lang, lang_chosen=True), ReplayToggled(True))


class _Status(HTMLParser):
    """A status's text and its title (the whole list of names)."""

    def __init__(self) -> None:
        super().__init__()
        self.text = ""
        self.title: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.title = dict(attrs).get("title", self.title)

    def handle_data(self, data: str) -> None:
        self.text += data


def _read(markup: str) -> _Status:
    parser = _Status()
    parser.feed(markup)
    parser.close()
    return parser


def _status(state: PageState) -> dict[str, str]:
    html = render_replay(state).html
    return {box: _read(html[f"{box}-status"]).text for box in FILE_BOXES}


@pytest.mark.parametrize("box", [*FILE_BOXES, "import-file"])
def test_each_box_has_the_pages_own_button_and_status(box: str) -> None:
    """The input is the page's (its id and data attribute, which the browser tests
    give files to), transparent over a label styled as a button whose text is the
    catalogue's, in both languages; a status beside it, which the input names."""
    tags = _tags()
    (attrs,) = [a for tag, a in tags if tag == "input" and a.get("id") == box]
    assert attrs["type"] == "file"
    assert ("data-import-file" if box == "import-file" else "data-replay-file") in attrs
    assert attrs.get("class") == "file-input"
    assert attrs.get("aria-describedby") == f"{box}-status"
    buttons = [a for tag, a in tags if tag == "label" and a.get("for") == box]
    (button,) = [a for a in buttons if a.get("class") == "file-button"]
    key = str(button["data-i18n"])
    assert CATALOGUE[key][0]
    assert CATALOGUE[key][1] != CATALOGUE[key][0]  # said in Chinese on the Chinese page
    (status,) = [a for tag, a in tags if a.get("id") == f"{box}-status"]
    assert status.get("aria-live") == "polite"
    # The input lies right before its button, inside the same box: the CSS shows its
    # focus on the button (input:focus-visible + .file-button).
    box_html = re.search(rf'<input type="file" id="{box}"[^>]*><label for="{box}" class', INDEX)
    assert box_html is not None


def _accepts(accept: str, name: str) -> bool:
    """Whether a file box's ``accept`` lets a file picker offer ``name``: by its
    extension tokens (HTML's "valid file type specifiers"; a MIME type such as
    text/plain maps to extensions by the operating system, which a .db or .zst file
    has no common one for)."""
    tokens = [tok.strip().lower() for tok in accept.split(",")]
    return any(tok.startswith(".") and name.lower().endswith(tok) for tok in tokens)


LOG_FILES = ROOT / "tests" / "fixtures" / "logs"


#: One log file of each kind the fixtures hold (by its last extension; .md, .py are
#: notes and generators), and the agents' databases by the names they have.
_KINDS = {
    p.suffix: p.name
    for p in sorted(LOG_FILES.rglob("*"))
    if p.is_file() and p.suffix not in (".md", ".py")
}


@pytest.mark.parametrize(
    "name", sorted({*_KINDS.values(), "opencode.db", "sessions.db", "session-store.db"})
)
def test_the_log_file_box_offers_every_file_the_readers_take(name: str) -> None:
    """The file box's accept list filters the browser's file picker (on macOS a file
    outside it cannot be picked at all): it listed .jsonl and .json only, so OpenCode's
    opencode.db, Goose's sessions.db, Copilot CLI's session-store.db and a Codex
    rollout compressed to .jsonl.zst, each of which the replay reads as a single file
    (docs/replay.md), were hidden from the picker (the fourth walk)."""
    (attrs,) = [a for tag, a in _tags() if tag == "input" and a.get("id") == "replay-file"]
    assert _accepts(str(attrs["accept"]), name), attrs["accept"]


def test_the_browsers_own_file_box_is_never_shown() -> None:
    """The input is transparent and lets a click through to its label, keeps its box
    (so it stays the 40 px tap target) and shows its focus on the label."""
    rule = re.search(r"\.file-input \{([^}]*)\}", STYLE)
    assert rule is not None
    for part in ("position: absolute", "inset: 0", "opacity: 0", "pointer-events: none"):
        assert part in rule.group(1)
    assert ".file-input:focus-visible + .file-button { outline:" in STYLE
    assert "display: none" not in rule.group(1)  # out of the tab order


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_status_says_what_each_box_holds_in_the_pages_language(lang: str) -> None:
    state = _page(lang)
    assert _status(state) == {
        "replay-file": t("replay.file-none", lang),
        "replay-folder": t("replay.folder-none", lang),
    }
    one = _status(reduce(state, ReplayFilesChosen("replay-file", ("a.jsonl",))))
    two = _status(reduce(state, ReplayFilesChosen("replay-file", ("a.jsonl", "b.jsonl"))))
    five = _status(reduce(state, ReplayFilesChosen("replay-file", tuple("abcde"))))
    folder = _status(
        reduce(
            state,
            ReplayFilesChosen("replay-folder", ("projects/x/1.jsonl", "projects/x/2.jsonl")),
        )
    )
    if lang == "en":
        assert one["replay-file"] == "1 file: a.jsonl"
        assert two["replay-file"] == "2 files: a.jsonl, b.jsonl"
        assert five["replay-file"] == "5 files: a, b, +3"
        assert folder == {
            "replay-file": "No file chosen",
            "replay-folder": "folder projects: 2 files",
        }
        assert two["replay-folder"] == "No folder chosen"
    else:
        assert one["replay-file"] == "1 个文件:a.jsonl"
        assert two["replay-file"] == "2 个文件:a.jsonl、b.jsonl"
        assert five["replay-file"] == "5 个文件:a、b 及另外 3 个"
        assert folder == {"replay-file": "未选择文件", "replay-folder": "文件夹 projects:2 个文件"}
    for text in (*one.values(), *two.values(), *five.values(), *folder.values()):
        assert "chosen" not in text or lang == "en"
        assert "Choose" not in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_three_long_names_make_a_short_status_with_every_name_in_its_title(lang: str) -> None:
    """Issue 42's last walk: three Claude Code session files (36-character UUIDs) wrapped
    the status to about five lines at 390 px. It shows two names cut in the middle and
    how many more; its title lists them all."""
    names = (
        "0f3c9a2e-7b41-4d8e-9c55-1a2b3c4d5e6f.jsonl",
        "8e7d6c5b-4a39-4281-b7f6-e5d4c3b2a190.jsonl",
        "c0ffee00-1234-4abc-8def-0123456789ab.jsonl",
    )
    state = reduce(_page(lang), ReplayFilesChosen("replay-file", names))
    status = _read(render_replay(state).html["replay-file-status"])
    if lang == "en":
        assert status.text == "3 files: 0f3c9a2e-…5e6f.jsonl, 8e7d6c5b-…a190.jsonl, +1"
        assert status.title == ", ".join(names)
    else:
        assert status.text == "3 个文件:0f3c9a2e-…5e6f.jsonl、8e7d6c5b-…a190.jsonl 及另外 1 个"
        assert status.title == "、".join(names)
    assert len(status.text) <= 60  # was 134 characters: every name whole
    # A pick of 10,000 names titles 50 of them and how many more, never all.
    many = tuple(f"{i:05}.jsonl" for i in range(10_000))
    big = _read(
        render_replay(reduce(_page(lang), ReplayFilesChosen("replay-file", many))).html[
            "replay-file-status"
        ]
    )
    assert big.title is not None
    assert "00049.jsonl" in big.title
    assert "00050" not in big.title
    assert big.title.endswith(t("replay.names-more", lang, names="", n="9,950").strip())


def test_a_pick_empties_the_other_box_and_reset_empties_both() -> None:
    """One source at a time: the paint empties the box the state says holds nothing
    (the other box's pick, a Reset), so a status never names files a box lacks; a
    box that is not the replay's is not a pick."""
    state = _page()

    def emptied(s: PageState) -> set[str]:
        ops = panel_ops(s, Painted(), lambda: 600)[0]
        return {
            sel[1:]
            for sel, kind, name, value in ops
            if (kind, name, value) == ("prop", "value", "") and sel[1:] in FILE_BOXES
        }

    picked = reduce(state, ReplayFilesChosen("replay-folder", ("p/a.jsonl",)))
    assert emptied(picked) == {"replay-file"}
    assert emptied(reduce(picked, ReplayFilesChosen("replay-file", ("a.jsonl",)))) == {
        "replay-folder"
    }
    reset = reduce(picked, Reset())
    assert emptied(reset) == set(FILE_BOXES)
    assert _status(reset)["replay-folder"] == "No folder chosen"
    assert reduce(state, ReplayFilesChosen("import-file", ("x.toml",))) == state


def test_a_paint_that_does_not_change_the_pick_leaves_the_boxes_alone() -> None:
    """A box's files are read by an async handler, a task after its change event. The
    paint emptied every box the state said held nothing on every paint, so a paint in
    between (the log source chosen just before the pick, a job's step) emptied the box
    the user had just filled and the pick read nothing (the browser test choosing a log
    right after the source failed on a loaded machine). Only a change of the pick
    empties a box now."""
    state = _page()

    def emptied(s: PageState, painted: Painted) -> tuple[set[str], Painted]:
        ops, after = panel_ops(s, painted, lambda: 600)
        boxes = {
            sel[1:]
            for sel, kind, name, value in ops
            if (kind, name, value) == ("prop", "value", "") and sel[1:] in FILE_BOXES
        }
        return boxes, after

    first, painted = emptied(state, Painted())
    assert first == set(FILE_BOXES)  # the first paint: nothing is picked
    log = reduce(state, ReplaySourceChosen("log"))
    again, painted = emptied(log, painted)
    assert again == set()  # the source changed, the pick did not
    picked = reduce(log, ReplayFilesChosen("replay-file", ("a.jsonl",)))
    after_pick, painted = emptied(picked, painted)
    assert after_pick == {"replay-folder"}
    reset, _ = emptied(reduce(picked, Reset()), painted)
    assert reset == set(FILE_BOXES)


def test_a_pick_keeps_as_many_names_as_an_import_reads() -> None:
    """Every input has a size limit: 10,000 names of at most 500 characters each."""
    state = reduce(_page(), ReplayFilesChosen("replay-file", ("n" * 600,) * 20_000))
    box, names = state.replay.files_picked
    assert box == "replay-file"
    assert len(names) == 10_000
    assert {len(n) for n in names} == {500}
    assert _status(state)["replay-file"].startswith("10,000 files: ")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_import_file_box_says_what_it_holds(lang: str) -> None:
    """The Export panel's file box: "No file chosen" from the catalogue until a file is
    picked, then its name; Reset empties the box and says so again."""
    state = initial_state(lang=lang, lang_chosen=True)
    none = t("static.import-file-none", lang)
    assert render(state).text["import-file-status"] == none
    assert none == ("No file chosen" if lang == "en" else "未选择文件")
    picked = reduce(state, ImportFileChosen("reviewed.toml"))
    assert render(picked).text["import-file-status"] == "reviewed.toml"
    empty_box = ("#import-file", "prop", "value", "")
    assert empty_box not in main_ops(picked, Painted())[0]
    # A paint that leaves the status as it was leaves the box alone: its files are read
    # a task after the pick, and a paint in between (any input) emptied it first.
    ops, painted = main_ops(state, Painted())
    assert empty_box in ops
    typed = reduce(state, FieldTyped("config.trigger_tokens", "40000"))
    assert empty_box not in main_ops(typed, painted)[0]
    reset = reduce(picked, Reset())
    assert render(reset).text["import-file-status"] == none
    assert empty_box in main_ops(reset, Painted())[0]
    assert empty_box in main_ops(reset, main_ops(picked, Painted())[1])[0]
    assert len(reduce(state, ImportFileChosen("x" * 900)).import_file) == 500


def _imported(state: PageState, files: tuple[tuple[str, bytes], ...]) -> PageState:
    """``files`` picked and read to the end, as the shell runs the import job."""
    from budgetcore.ui.events import JobStep, ReplayLogsLoaded  # noqa: PLC0415

    state = reduce(state, ReplayFilesChosen("replay-folder", tuple(n for n, _ in files)))
    state = reduce(state, ReplayLogsLoaded(files))
    while state.importing is not None:
        state = reduce(state, JobStep("import"))
    return state


def _log_source(lang: str) -> PageState:
    return reduce(_page(lang), ReplaySourceChosen("log"))


_PI = ROOT / "tests" / "fixtures" / "logs" / "pi" / "basic" / "sessions"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_empty_folder_says_so_and_forgets_the_import_before_it(lang: str) -> None:
    """The tenth walk (1440 px, English): after a folder of pi sessions, an empty folder
    picked gave the box "No folder chosen" and left the pi folder's sessions, backtest
    and what-if on screen, as if they were the empty folder's. The browser gives no
    file of an empty folder: the page says it holds none, and what would be read, as
    the CLI does ("holds no file to read: sessions are .jsonl files and ...")."""
    from budgetcore.replay.logs.agents import other_suffixes  # noqa: PLC0415

    files = tuple(
        (f"sessions/{p.relative_to(_PI).as_posix()}", p.read_bytes())
        for p in sorted(_PI.rglob("*.jsonl"))
    )
    state = _imported(_log_source(lang), files)
    assert state.replay.logs
    empty = reduce(state, ReplayFilesChosen("replay-folder", ()))
    assert empty.replay.logs == ()
    assert empty.importing is None
    screen = render_replay(empty).html
    assert "data-as-run" not in screen["replay-log"]
    said = t("replay.logs.folder-empty", lang, others=said_list(other_suffixes(), lang))
    assert said in screen["replay-log"].replace("&#x27;", "'")
    assert _status(empty)["replay-folder"] == t("replay.folder-empty-status", lang)
    # No file picked in the file box at all is no import either.
    none = reduce(state, ReplayFilesChosen("replay-file", ()))
    assert none.replay.logs == ()
    assert t("replay.log.none", lang) in render_replay(none).html["replay-log"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_folder_of_archives_alone_says_why_none_of_them_was_read(lang: str) -> None:
    """The sixteenth walk's leftover: a folder holding only a .zip and a .tar.gz said
    "holds no session log of an agent we read; files not read: 2 (first: logs/a.zip)",
    not that they are archives to unpack (the list of files not read, which says it,
    is shown only beside sessions). The CLI's refusal says it too."""
    files = (("logs/a.zip", b"PK\x03\x04"), ("logs/b.tar.gz", b"\x1f\x8b\x08"))
    state = _imported(_log_source(lang), files)
    assert state.replay.logs == ()
    screen = render_replay(state).html["replay-log"].replace("&#x27;", "'")
    why = t("replay.not-read.archive", lang)
    assert why in screen
    said = t("replay.logs.no-session", lang, folder="logs", n="2", first="logs/a.zip", why=why)
    assert said in screen


def test_the_cli_says_why_a_folder_of_archives_alone_was_not_read(tmp_path: Path) -> None:
    (tmp_path / "a.zip").write_bytes(b"PK\x03\x04")
    result = run_cli(["replay", "--log", str(tmp_path)])
    assert result.code == 2
    assert (
        "files not read: 1 (first: a.zip, an archive or a compressed file, by its name: "
        "unpack it and give the files inside" in result.err
    ), result.err


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_folder_of_no_agent_s_files_is_no_session_of_each(lang: str) -> None:
    """The tenth walk (1440 and 390 px, both languages): a folder holding a README, a
    CSV, a PNG and a JSON settings file read as "total of 4 sessions (4 cannot be
    replayed)", each file a session; the CLI refuses such a folder ("holds no session
    log of an agent we read; files not read: 4 (first: README.md)"). Files picked one
    by one stay sessions of any name (a log saved as .txt)."""
    files = (
        ("stuff/README.md", b"# notes\n"),
        ("stuff/config.json", b'{"theme": "dark"}\n'),
        ("stuff/data.csv", b"a,b\n1,2\n"),
        ("stuff/image.png", bytes(range(256))),
    )
    state = _imported(_log_source(lang), files)
    assert state.replay.logs == ()
    assert state.replay.log_not_read == tuple((n, "replay.not-read.unknown") for n, _ in files)
    screen = render_replay(state).html["replay-log"]
    assert "data-sessions" not in screen
    why = t("replay.not-read.unknown", lang)
    said = t(
        "replay.logs.no-session", lang, folder="stuff", n="4", first="stuff/README.md", why=why
    )
    assert said in screen
    # The same files picked in the file box, with no folder: each is tried as a log.
    picked = tuple((n.split("/")[1], data) for n, data in files)
    state = reduce(_log_source(lang), ReplayFilesChosen("replay-file", ()))
    from budgetcore.ui.events import JobStep, ReplayLogsLoaded  # noqa: PLC0415

    state = reduce(state, ReplayLogsLoaded(picked))
    while state.importing is not None:
        state = reduce(state, JobStep("import"))
    assert len(state.replay.logs) == 4


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_files_of_one_name_picked_together_are_refused_by_their_name(lang: str) -> None:
    """The tenth walk, files picked one by one (a dialog's search or recent files gives
    several of one name): three Copilot CLI sessions' events.jsonl read as one session,
    the two others lost without a word. A file box gives no folder, so which session
    each belongs to cannot be told (read apart, Cline's task metadata paired with
    another task's messages): the pick says so and names the folder box."""
    from budgetcore.ui.events import JobStep, ReplayLogsLoaded  # noqa: PLC0415

    logs = ROOT / "tests" / "fixtures" / "logs" / "copilot"
    picked = [
        next((logs / case).glob("session-state/*/events.jsonl"))
        for case in ("events", "events-nano-aiu", "events-resumed")
    ]
    names = ("events.jsonl",) * 3
    state = reduce(_log_source(lang), ReplayFilesChosen("replay-file", names))
    state = reduce(state, ReplayLogsLoaded(tuple(("events.jsonl", p.read_bytes()) for p in picked)))
    while state.importing is not None:
        state = reduce(state, JobStep("import"))
    ((only),) = state.replay.logs
    assert only.log is None
    said = t("problem.log-same-name", lang, n="3", name="events.jsonl")
    assert said in render_replay(state).html["replay-log"]
    # Of one file each, or a folder (its paths differ), every file is read.
    one = reduce(_log_source(lang), ReplayFilesChosen("replay-file", names[:1]))
    one = reduce(one, ReplayLogsLoaded((("events.jsonl", picked[0].read_bytes()),)))
    while one.importing is not None:
        one = reduce(one, JobStep("import"))
    assert one.replay.logs[0].log is not None


def test_a_gemini_project_hash_is_shortened_in_the_table_its_path_the_title() -> None:
    """The seventeenth walk's leftover: Gemini CLI's project folder, the SHA-256 of the
    project's root (64 hex digits), fits on no line of the sessions' column at 390 px
    and broke anywhere. The table shows its first 8 digits and "…", the whole path (as
    the CLI says it) in the button's title; a Codex rollout's UUID and timestamp are
    each kept whole where they fit (``span.nb``)."""
    from tests.helpers import folder_files, shown  # noqa: PLC0415

    logs = ROOT / "tests" / "fixtures" / "logs"
    files = tuple(
        (f"{agent}/{name}", data)
        for agent, base in (
            ("gemini", logs / "gemini" / "jsonl"),
            ("codex", logs / "codex" / "compaction"),
        )
        for name, data in folder_files(base)
    )
    table = render_replay(_imported(_log_source("en"), files)).html["replay-log"]
    full = "gemini/tmp/" + "0f" * 32 + "/chats/session-2025-11-24T12-00-33333333.jsonl"
    button = re.search(r"<button [^>]*title=\"([^\"]*)\"[^>]*>(.*?)</button>", table)
    assert button is not None
    assert button.group(1) == full
    assert shown(button.group(2)) == full.replace("0f" * 32, "0f0f0f0f…")
    assert '<span class="nb">019a1000-4444-7000-8000-000000000004<wbr>.jsonl</span>' in table
    assert '<span class="nb">2025-11-02T09-00-00-</span>' in table


def test_a_file_not_read_breaks_its_path_as_a_sessions() -> None:
    """The eighteenth walk (390 px): the line naming Kimi's ``state.json``, not read
    beside its wire, broke inside the session folder's UUID
    ("…/session_9a9a9a9|a-0000-4000-…"); it breaks after a slash, its UUID whole where it
    fits, as a session's path in the table. Its text is unchanged."""
    from tests.helpers import folder_files, shown  # noqa: PLC0415

    files = folder_files(ROOT / "tests" / "fixtures" / "logs" / "kimi" / "code")
    log = render_replay(_imported(_log_source("en"), files)).html["replay-log"]
    item = re.search(r'<ul class="not-read"><li>(.*?)</li>', log)
    assert item is not None
    path = "sessions/wd_0f0f0f0f/session_9a9a9a9a-0000-4000-8000-000000000001/state.json"
    assert shown(item.group(1)).startswith(path)
    assert '<span class="nb">9a9a9a9a-0000-4000-8000-000000000001/</span>' in item.group(1)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_file_that_cannot_be_replayed_is_named_by_a_path_broken_after_a_slash(
    lang: str,
) -> None:
    """The nineteenth walk (390 px): "This file cannot be replayed (<path>):" named a
    Copilot CLI session's events.jsonl by a plain path, free to break inside the UUID of
    its session-state folder, where the sessions' table and the not-read list break
    theirs after a slash and keep each UUID whole where it fits (``ui.markup.breaks``).
    Its text is unchanged."""
    fixture = ROOT / "tests" / "fixtures" / "logs" / "copilot" / "events-nano-aiu-alone"
    files = tuple(
        (f"nano/{p.relative_to(fixture).as_posix()}", p.read_bytes())
        for p in sorted(fixture.rglob("events.jsonl"))
    )
    state = _imported(_log_source(lang), files)
    screen = render_replay(state).html["replay-log"]
    (line,) = re.findall(r'data-replay-error="log"><p>(.*?)</p>', screen)
    name = "nano/session-state/cccccccc-0000-4000-8000-000000000009/events.jsonl"
    assert shown(line) == t("replay.log.unusable", lang, name=name)
    assert '<span class="nb">cccccccc-0000-4000-8000-000000000009/</span>' in line


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_line_that_says_what_was_read_breaks_its_path_after_a_slash(lang: str) -> None:
    """The nineteenth walk (390 px, Chinese): the line under the backtest that says what
    was read ("<path>: Goose session, 1 file; …") broke its plain path at a hyphen and
    after the database's "#" ("goose-|home/…/sessions.db#|20251124_1:"). Now it breaks
    as the sessions' table does, after a slash; its text is unchanged."""
    fixture = ROOT / "tests" / "fixtures" / "logs" / "goose" / "totals" / "goose"
    files = tuple(
        (f"goose-home/{p.relative_to(fixture).as_posix()}", p.read_bytes())
        for p in sorted(fixture.rglob("*"))
        if p.is_file()
    )
    state = _imported(_log_source(lang), files)
    screen = render_replay(state).html["replay-log"]
    (line,) = re.findall(r"<p data-replay-log=[^>]*>(.*?)</p>", screen)
    assert shown(line).startswith("goose-home/data/sessions/sessions.db#20251124_1:")
    assert "sessions/<wbr>sessions.db#20251124_1" in line
