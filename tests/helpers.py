"""Helpers the test modules share (never imported from another test module)."""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass

import pytest

from budgetcore import cli

__all__ = ["Result", "run_cli"]


@dataclass(frozen=True)
class Result:
    code: int
    out: str
    err: str


def run_cli(argv: list[str], stdin: bytes = b"") -> Result:
    """``python -m budgetcore ARGV`` in-process, with its exit code and both streams."""
    saved = sys.stdin, sys.stdout, sys.stderr
    out, err = io.StringIO(), io.StringIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    sys.stdout, sys.stderr = out, err
    try:
        with pytest.raises(SystemExit) as info:
            cli.run(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    code = info.value.code
    return Result(code if isinstance(code, int) else 0, out.getvalue(), err.getvalue())
