"""The CLI's progress line on a terminal (issue 41's causes): how far and how long, and
a long tune shows it."""

from __future__ import annotations

import io
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

from budgetcore.cli.progress import Progress
from tests.helpers import ROOT


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_line_says_how_far_and_how_long() -> None:
    """Cause 11: a timed grid ran for minutes with no progress and no estimate."""
    clock = iter([0.0, 0.2, 1.0, 3.0, 3.1]).__next__
    tty = _Tty()
    progress = Progress("tune", 1_000, "points", stream=tty, now=clock)  # type: ignore[arg-type]
    progress.advance(100)  # at 0.2 s: too soon to show
    assert tty.getvalue() == ""
    progress.advance(150)  # at 1.0 s: 250 done in 1 s, 750 left: about 3 s -> 5 s
    assert tty.getvalue() == "\r\x1b[Ktune: 250 of 1,000 points (25 %), about 5 s left"
    progress.advance(250)  # at 3.0 s: 500 done in 3 s
    assert tty.getvalue().endswith("\r\x1b[Ktune: 500 of 1,000 points (50 %), about 5 s left")
    progress.close()
    assert tty.getvalue().endswith("\r\x1b[K")
    quiet = io.StringIO()  # not a terminal: nothing, ever
    piped = Progress("tune", 10, "points", stream=quiet)
    piped.advance(10)
    piped.close()
    assert quiet.getvalue() == ""


def test_a_long_tune_shows_progress_on_a_terminal(tmp_path: Path) -> None:
    options = tmp_path / "timed.json"
    options.write_text('{"timing": {"gap_ms": 5000, "duration": {"fixed_s": "20"}}}', "utf-8")
    spec = '{"turns": 3000, "added": {"dist": "uniform", "low": 1, "high": 9000}}'
    argv = ["tune", "--fragment", "", "--generate", spec, "--options", str(options)]
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "budgetcore", *argv, "--k", "4000:M:24", "--s", "1024:O:16"],
        stdout=subprocess.DEVNULL,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
    )
    os.close(slave)
    seen = b""
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    data = os.read(master, 4096)
                except OSError:  # the other end closed: the command ended
                    break
                if not data:
                    break
                seen += data
            elif proc.poll() is not None:
                break
        proc.wait(timeout=300)
    finally:
        os.close(master)
        proc.kill()
    assert proc.returncode == 0
    text = seen.decode()
    assert re.search(r"tune: [\d,]+ of 385 points \(\d+ %\), about [\w ]+ left", text), text
    assert text.endswith("\r\x1b[K")  # the line is cleared at the end
