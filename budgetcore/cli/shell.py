"""What every command shares: reading its inputs (size-limited), writing its files
(atomically), the scenario it names, flag types and the one-line error (docs/cli.md)."""

from __future__ import annotations

import argparse
import contextlib
import errno
import gc
import io
import os
import stat
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, BinaryIO, NoReturn, TextIO

from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.inputs.numbers import MAX_SEED, MAX_TOKENS, whole_problem, whole_text
from budgetcore.inputs.text import check_size, limit_of, neutral, read_limited, too_large

if TYPE_CHECKING:
    from budgetcore.core.scenario import Scenario

__all__ = [
    "EXIT_INVALID",
    "LOG_HELP",
    "MEDIUM_ERRORS",
    "OPTIONS_HELP",
    "Parser",
    "Unreadable",
    "check_flag_size",
    "collector_paused",
    "count_flag",
    "ledger_name",
    "neutral_streams",
    "one_shot",
    "open_input",
    "out_flag",
    "read_input",
    "refuse_by_size",
    "scenario_arguments",
    "scenario_of",
    "seed_flag",
    "shown_name",
    "tokens_flag",
    "unreadable_problem",
    "whole_flag",
    "write_failed",
]

_PROCESS = {"one_shot": False, "froze": False}

#: What --log reads, as replay and tune say it (each adds its own use after it).
LOG_HELP = (
    "an agent's session file or database (Claude Code, Codex CLI, pi, Gemini CLI, Qwen Code, "
    "Kimi CLI, OpenCode, Amp, Droid, Goose, Copilot CLI, Cline), or its data folder"
)
#: What --options reads, as replay, tune and report say it.
OPTIONS_HELP = "replay options JSON (start state, cache, prices, ...)"


def scenario_arguments(p: argparse.ArgumentParser) -> None:
    """A command's scenario: a JSON file or standard input, or a page link's fragment."""
    p.add_argument("scenario", nargs="?", help="scenario JSON file, or - for standard input")
    p.add_argument("--fragment", help="a page link's fragment instead of a file")


class _Neutral(io.TextIOBase):
    """A command's stdout or stderr: every text passes :func:`neutral` on its way out,
    so nothing a file held (an entry type, a model name, a file name) reaches the
    terminal as a control sequence or a lone surrogate, whichever code path wrote it."""

    def __init__(self, inner: TextIO) -> None:
        super().__init__()
        self.inner = inner

    def write(self, text: str) -> int:
        self.inner.write(neutral(text))
        return len(text)

    def flush(self) -> None:
        self.inner.flush()

    def fileno(self) -> int:
        return self.inner.fileno()

    def isatty(self) -> bool:
        return self.inner.isatty()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.inner, "encoding", "utf-8")


@contextlib.contextmanager
def neutral_streams() -> Iterator[None]:
    """stdout and stderr through :class:`_Neutral` while a command runs (then the
    caller's streams again: tests run commands in-process)."""
    saved = sys.stdout, sys.stderr
    if sys.stdout is not None:
        sys.stdout = _Neutral(sys.stdout)
    if sys.stderr is not None:
        sys.stderr = _Neutral(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


@contextlib.contextmanager
def one_shot() -> Iterator[None]:
    """The command runs in a process that ends with it (:func:`budgetcore.cli.run`, the
    process entry, says so): a log read then freezes what it leaves alive
    (:func:`collector_paused`). When the command returns instead (a test calling
    ``run``), what was frozen goes back to the collector (``gc.unfreeze``)."""
    before = _PROCESS["one_shot"]
    _PROCESS["one_shot"] = True
    try:
        yield
    finally:
        _PROCESS["one_shot"] = before
        if not before and _PROCESS["froze"]:
            _PROCESS["froze"] = False
            gc.unfreeze()


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No cycle collection while a log is read (docs/replay.md, "Speed"): the reader
    keeps one small object per request, all alive to the end, and every collection
    would walk them again for nothing (about a tenth of a 200,000-request read). The
    reader makes no cycle it leaves behind (the Claude Code reader breaks its own).
    After the read, within :func:`one_shot`, what is alive is handed to the permanent
    generation (``gc.freeze``): the first collections after the read would walk all of
    it once more, for the output alone. Elsewhere (a library, a test) the collector is
    back as it was, nothing frozen."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if _PROCESS["one_shot"]:
            gc.freeze()
            _PROCESS["froze"] = True
        if was:
            gc.enable()


EXIT_INVALID = 2
#: The longest argparse message kept whole; longer ones quote what the user typed.
_MAX_USAGE = 300


class _Once(argparse.Action):
    """An option that takes a value, given once: argparse keeps the last of two
    (``--log a.jsonl --log b.jsonl`` read b alone), and a repeated key is an error in
    every other input (docs/cli.md). Options meant to repeat say ``action="append"``."""

    _filled: argparse.Namespace | None = None

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        # One parse fills one namespace: a second call with the same one is a repeat.
        if option_string is not None and self._filled is namespace:
            if isinstance(values, str):
                problem = Problem.of("", values, "flag-twice")
            else:
                problem = Problem.coded("", "flag-twice")
            raise argparse.ArgumentError(self, str(problem))
        self._filled = namespace
        setattr(namespace, self.dest, values)


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` gives it (``COLUMNS`` when a
    positive integer, else standard output's terminal, else 80), without importing
    ``shutil``: argparse makes a help formatter for every argument it adds, and its
    default width imported ``shutil`` (with ``bz2``, ``lzma`` and ``fnmatch``), 7.5 M
    instructions of every command's start-up (docs/performance.md)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _Formatter(argparse.HelpFormatter):
    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        # argparse's own default: the terminal's columns less 2.
        width = _columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)


class Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        self.register("action", None, _Once)
        self.register("action", "store", _Once)

    def error(self, message: str) -> NoReturn:
        # argparse prints usage over several lines; the contract is one line on stderr,
        # and a line that quotes a 10,000-letter argument is not one a person reads.
        if len(message) > _MAX_USAGE or not message.isprintable():
            message = " ".join(message[: _MAX_USAGE * 4].split())
            message = message.encode("utf-8", "backslashreplace").decode("utf-8")
            if len(message) > _MAX_USAGE:
                message = message[: _MAX_USAGE - 1] + "…"
        self.exit(EXIT_INVALID, f"{self.prog}: {message} (see --help)\n")

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # argparse quotes a rejected choice whole (repr): show it shortened instead.
        if action.choices is not None and value not in action.choices:
            choices = ", ".join(map(str, action.choices))
            message = f"must be one of {choices}, got {render_value(value)}"
            raise argparse.ArgumentError(action, message)


class Unreadable(Exception):
    """A file that cannot be read or written: one line, exit 2 (the path is wrong), or
    ``code`` 1 when the medium failed (a full disk: docs/cli.md's exit codes)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def unreadable_problem(exc: Unreadable) -> Problem:
    """A session's file that cannot be read, as the session's problem: ``log file X
    cannot be read: …`` (the problem's path is "log": never "log log file")."""
    # The reason is the shell's own line (a path and the system's words for what
    # failed): data for the sentence, shown as it came.
    return Problem.coded("log", "unreadable", why=str(exc).removeprefix("log "))


#: Errors of the medium rather than of the path: the output cannot be written (exit 1).
MEDIUM_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def write_failed(what: str, exc: OSError) -> Unreadable:
    """The one line of a file that cannot be written, with its exit code."""
    code = 1 if exc.errno in MEDIUM_ERRORS else EXIT_INVALID
    return Unreadable(f"{what} cannot be written: {exc.strerror}", code)


@contextlib.contextmanager
def open_input(source: str, what: str) -> Iterator[BinaryIO]:
    """The file (or ``-``, standard input) a command reads ``what`` from, as a binary
    stream; every way it cannot be opened or read is one :class:`Unreadable` line."""
    if source == "-":
        if sys.stdin is None:  # started with standard input closed (<&-)
            raise Unreadable(f"{what}: standard input is closed")
        try:
            yield sys.stdin.buffer
        except OSError as exc:
            raise Unreadable(f"{what}: standard input cannot be read: {exc.strerror}") from None
        return
    try:
        fh = open(source, "rb")  # noqa: SIM115 - closed below, errors mapped in one place
    except OSError as exc:
        raise Unreadable(
            f"{what} file {shown_name(source)} cannot be read: {exc.strerror}"
        ) from None
    try:
        with fh:
            yield fh
    except OSError as exc:
        raise Unreadable(
            f"{what} file {shown_name(source)} cannot be read: {exc.strerror}"
        ) from None


def read_input(source: str, what: str) -> bytes:
    """All of input ``what`` (a key of ``inputs.text.SIZE_LIMITS``), or the too-large
    error naming its limit as soon as it holds more: a device such as /dev/zero ends
    there, not when the memory runs out; a file above it, by its size, before a byte of
    it is read."""
    with open_input(source, what) as stream:
        if source != "-":
            refuse_by_size(stream, what)
        return read_limited(stream, what)


def refuse_by_size(stream: BinaryIO, what: str) -> None:
    """The too-large error of input ``what`` with its size, when ``stream`` is a regular
    file larger than its limit (a pipe or a device has no size to tell: its read stops
    at the limit instead)."""
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError):
        return
    if stat.S_ISREG(st.st_mode) and st.st_size > limit_of(what):
        raise too_large(what, size=st.st_size)


def ledger_name(path: str) -> str:
    """A file's name in the ledger: as given (quoted only when it cannot be printed)."""
    return path if path.isprintable() else render_value(path)


def shown_name(path: str) -> str:
    """A file name for a one-line message: as given, or quoted and shortened (and
    quoted when it is empty or starts or ends with a space, which would not show)."""
    plain = 0 < len(path) <= 80 and path.isprintable() and path == path.strip()
    return path if plain else render_value(path)


def out_flag(text: str) -> str:
    """An argparse type for a path to write: never empty, which ``Path("")`` reads as
    the current folder (``report --out ''`` wrote its files there)."""
    if not text:
        raise argparse.ArgumentTypeError(str(Problem.of("", text, "path-empty")))
    return text


out_flag.__name__ = "path"


def scenario_of(args: argparse.Namespace) -> Scenario:
    """The scenario of a command: a file, or a fragment (strict: any problem fails)."""
    if getattr(args, "fragment", None) is not None:
        if args.scenario is not None:
            raise ScenarioError([Problem.coded("scenario", "scenario-both")])
        from budgetcore.scenario.fragment import parse_fragment  # noqa: PLC0415

        result = parse_fragment(args.fragment)
        if result.problems:
            raise ScenarioError(list(result.problems))
        return result.scenario
    if args.scenario is None:
        raise ScenarioError([Problem.coded("scenario", "scenario-required")])
    from budgetcore.scenario.parse import parse_scenario_json  # noqa: PLC0415 - with a scenario

    return parse_scenario_json(read_input(args.scenario, "scenario"))


def check_flag_size(text: str, what: str = "field") -> None:
    """An argparse refusal of a flag's text above the size limit of ``what``: its rule
    with the text's size, as a typed value's says (the one size check of every flag)."""
    try:
        check_size(text, what)
    except ScenarioError as exc:
        raise argparse.ArgumentTypeError(exc.problems[0].rule) from None


def whole_flag(low: int, high: int, what: str = "field") -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` in digits (grouping
    commas allowed: ``inputs.numbers.whole_text``), its text within the size limit of
    ``what``."""

    def flag(text: str) -> int:
        check_flag_size(text, what)
        value = whole_text(text, high, plain=True)
        if value is None or value < low:
            # The problem without a path: its rule and what it got.
            raise argparse.ArgumentTypeError(str(whole_problem("", text, low, high)))
        return value

    flag.__name__ = "integer"  # argparse names the type in its own messages
    return flag


tokens_flag = whole_flag(1, MAX_TOKENS)
count_flag = whole_flag(0, MAX_TOKENS)
seed_flag = whole_flag(0, MAX_SEED)
