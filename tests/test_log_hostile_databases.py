"""A damaged agent database whose text is not UTF-8 (a flipped byte inside a row: SQLite
then raises "Could not decode to UTF-8 column 'data'" as the row is fetched) is
refused with that reason, or read where the cell is never asked for: never an
internal error. The bad-input walk of issue 40 found OpenCode's messages and Copilot
CLI's session store ending in one (exit 1), read by replay, tune and a folder's read."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import run_cli

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
DATABASES = sorted(str(p.relative_to(LOGS)) for p in LOGS.rglob("*.db"))


def _cells(path: Path) -> list[tuple[str, str]]:
    db = sqlite3.connect(path)
    try:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return [(t, r[1]) for t in tables for r in db.execute(f"PRAGMA table_info('{t}')")]
    finally:
        db.close()


def _every_path(path: Path, folder: Path) -> Iterator[tuple[list[str], Any]]:
    """A damaged database through every CLI path that reads one (the file's replay,
    its folder's usage, tune), each argv with its result."""
    for argv in (
        ["replay", "--log", str(path), "--format", "table"],
        ["replay", "--log", str(folder), "--usage", "--format", "jsonl"],
        ["tune", "--log", str(path), "--format", "jsonl"],
    ):
        yield argv, run_cli(argv)


@pytest.mark.parametrize("fixture", DATABASES)
def test_a_text_that_is_not_utf8_in_any_column_is_no_internal_error(
    tmp_path: Path, fixture: str
) -> None:
    source = LOGS / fixture
    for table, column in _cells(source):
        folder = tmp_path / f"{table}.{column}"
        folder.mkdir()
        path = folder / source.name
        shutil.copy(source, path)
        db = sqlite3.connect(path)
        try:
            db.execute(
                f'UPDATE "{table}" SET "{column}" = CAST(x\'7b22ff22\' AS TEXT) '
                f'WHERE rowid = (SELECT MIN(rowid) FROM "{table}")'
            )
            db.commit()
        except sqlite3.Error:  # a column that cannot hold it (a key): nothing to damage
            continue
        finally:
            db.close()
        for argv, result in _every_path(path, folder):
            assert result.code in (0, 2), (table, column, argv[0], result.err)
            assert "internal error" not in result.err, (table, column, result.err)
            if "UTF-8" in result.err:
                # SQLite's own message where a query decodes the cell, or the reader's
                # malformed line where it reads the cell's bytes (a message's JSON, which
                # tune reads as a log since the fourteenth walk, as replay does).
                assert (
                    "cannot use (Could not decode to UTF-8 column" in result.err
                    or "is not UTF-8 text (byte" in result.err
                ), result.err


@pytest.mark.parametrize("fixture", DATABASES)
def test_a_schema_whose_text_is_not_utf8_is_refused_as_damaged(
    tmp_path: Path, fixture: str
) -> None:
    """SQLite's message about a damaged schema quotes it; a quote that is not UTF-8 is
    raised by Python's sqlite3 as a UnicodeDecodeError, no SQLite error: the shell's
    read-only open and the table list let it through (exit 1)."""
    folder = tmp_path / "d"
    folder.mkdir()
    path = folder / (LOGS / fixture).name
    shutil.copy(LOGS / fixture, path)
    db = sqlite3.connect(path)
    try:
        # A first table whose name is not UTF-8 and whose SQL is cut: SQLite calls the
        # schema malformed and quotes the name.
        db.execute("PRAGMA writable_schema=ON")
        db.execute(
            "UPDATE sqlite_master SET name = CAST(x'ff61' AS TEXT), sql = 'CREATE TABLE' "
            "WHERE rowid = (SELECT MIN(rowid) FROM sqlite_master WHERE type = 'table')"
        )
        db.commit()
    finally:
        db.close()
    for argv, result in _every_path(path, folder):
        assert result.code in (0, 2), (argv[0], result.err)
        assert "internal error" not in result.err, result.err
