"""What the packed-session tests compare (tests/test_folder_memory.py and
tests/property/test_packed_properties.py): a log and the same log packed
(``replay.logs.packed``), field by field, each value's type included."""

from __future__ import annotations

from typing import Any

from budgetcore.replay.logs.model import LogRequest, ParsedLog

__all__ = ["assert_same", "typed"]


def typed(values: Any) -> list[Any]:
    """Each value beside its type: 1 and True, or Decimal("0") and Decimal("0.00"),
    read alike by ``==`` and not alike here."""
    return [
        (tuple((type(v), str(v)) for v in x) if isinstance(x, tuple) else (type(x), str(x)))
        for x in values
    ]


def assert_same(log: ParsedLog, back: ParsedLog) -> None:
    assert len(back.series) == len(log.series)
    for s, b in zip(log.series, back.series, strict=True):
        for name in ("requests", "abandoned", "times"):
            before, after = list(getattr(s, name)), list(getattr(b, name))
            assert after == before, name
            assert typed(after) == typed(before), name
            assert len(getattr(b, name)) == len(before)
        assert all(type(r) is LogRequest for r in b.requests)
        assert (b.compactions, b.counts, b.notified) == (s.compactions, s.counts, s.notified)
    assert list(back.ids) == list(log.ids)
    assert typed(back.ids) == typed(log.ids)
    assert (back.ledger, back.skipped, back.name, back.format) == (
        log.ledger,
        log.skipped,
        log.name,
        log.format,
    )
    assert back.models() == log.models()
    if log.series:
        assert back.main_model() == log.main_model()
    assert back.all_requests() == log.all_requests()
