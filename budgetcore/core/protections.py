"""Which runtime protection bites first for the main request's prefetch (docs/spec.md §6-7).

Every protection is turned into the number of history tokens the loader could read
before it stops, using the user's own samples and always the conservative end of
their range (most bytes per token, slowest read). A protection whose samples are
missing is *unknown* and does not narrow anything. The smallest I/O equivalent is
``io_token_cap``, which narrows the funnel (docs/spec.md §4).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from budgetcore.core.samples import Samples, channel_stats
from budgetcore.core.scenario import Limits

__all__ = ["IoVerdict", "LimitRow", "ReadTime", "io_token_cap", "io_verdict", "read_time"]

_SEARCH_CEILING = 10**13  # beyond any token count a scenario may hold


@dataclass(frozen=True, slots=True)
class LimitRow:
    key: str  # "token_budget" or a limits.* name
    limit: int  # the limit in its own unit
    unit: str
    tokens: int | None  # token equivalent; None = unknown (no samples) or never bites
    known: bool  # False when the samples needed to translate it are missing
    basis: str  # how the equivalent was computed, for the reader (English, in the CLI)
    basis_key: str = ""  # the same as a catalogue id (``basis.*`` / ``needs.*``) for the page
    basis_params: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class IoVerdict:
    rows: tuple[LimitRow, ...]
    first_binding: str  # a row key, or "history" when every limit leaves room
    io_token_cap: int | None  # the smallest I/O equivalent; None = no I/O limit known


@dataclass(frozen=True, slots=True)
class ReadTime:
    records: int | None
    sessions: int | None
    message_pages: int | None
    directory_pages: int | None
    read_ms_low: int | None
    read_ms_high: int | None


def _ceil(x: Fraction | int) -> int:
    x = Fraction(x)
    return -(-x.numerator // x.denominator)


def _floor(x: Fraction | int) -> int:
    x = Fraction(x)
    return x.numerator // x.denominator


def _ms_per_byte(samples: Samples) -> tuple[Fraction, Fraction] | None:
    if not samples.read:
        return None
    ratios = [Fraction(r.ms, r.bytes) for r in samples.read]
    return min(ratios), max(ratios)


@dataclass(frozen=True, slots=True)
class _Counts:
    """What reading ``tokens`` of history visits; each count None when an input it
    needs is missing (docs/spec.md §7: records and message pages need tokens per message,
    sessions and directory pages messages per session too)."""

    records: int | None
    sessions: int | None
    message_pages: int | None
    directory_pages: int | None

    def pages(self) -> int | None:
        """Pages the read queries: message pages, plus directory pages when known."""
        if self.message_pages is None:
            return None
        return self.message_pages + (self.directory_pages or 0)


def _counts(tokens: int, samples: Samples, limits: Limits) -> _Counts:
    tpm, mps = samples.tokens_per_message, samples.messages_per_session
    if tpm is None:
        return _Counts(None, None, None, None)
    records = _ceil(Fraction(tokens) / Fraction(tpm))
    message_pages = _ceil(Fraction(records, limits.message_page_size))
    if mps is None:
        return _Counts(records, None, message_pages, None)
    sessions = _ceil(Fraction(records) / Fraction(mps))
    return _Counts(
        records, sessions, message_pages, _ceil(Fraction(sessions, limits.directory_page_size))
    )


def _query_cost(counts: _Counts, query_ms: int, samples: Samples) -> int | None:
    """``query_ms`` for every page read; None when query samples exist but the pages
    cannot be counted (no tokens per message)."""
    if not samples.query_ms:
        return 0
    pages = counts.pages()
    return None if pages is None else pages * query_ms


def _read_time(tokens: int, samples: Samples, limits: Limits) -> ReadTime:
    """Predicted records, sessions, pages and read time for reading ``tokens`` of history:
    bytes x ms per byte, plus one query for every page read (docs/spec.md §7)."""
    counts = _counts(tokens, samples, limits)
    bson = channel_stats(samples.bson)
    speed = _ms_per_byte(samples)
    low = high = None
    q_low = _query_cost(counts, min(samples.query_ms, default=0), samples)
    q_high = _query_cost(counts, max(samples.query_ms, default=0), samples)
    if bson is not None and speed is not None and q_low is not None and q_high is not None:
        low = _floor(_floor(tokens * bson.ratio_min) * speed[0]) + q_low
        high = _ceil(_ceil(tokens * bson.ratio_max) * speed[1]) + q_high
    return ReadTime(
        counts.records,
        counts.sessions,
        counts.message_pages,
        counts.directory_pages,
        low,
        high,
    )


#: Memoised for the plan; the limit search below calls ``_read_time`` directly.
read_time = lru_cache(maxsize=4096)(_read_time)


def _largest(fits: Callable[[int], bool]) -> int | None:
    """The largest token count t with fits(t), fits monotone; None if beyond the ceiling."""
    if not fits(0):
        return 0
    if fits(_SEARCH_CEILING):
        return None
    lo, hi = 0, _SEARCH_CEILING  # fits(lo) and not fits(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo


@lru_cache(maxsize=4096)
def io_verdict(
    loader_prefetch_limit: int, history_tokens: int, samples: Samples, limits: Limits
) -> IoVerdict:
    # The rows do not depend on the history; a session replay plans hundreds of
    # history sizes against the same rows, so they are memoised on their own.
    rows, io_cap = _io_rows(loader_prefetch_limit, samples, limits)
    smallest, index = min((r.tokens, i) for i, r in enumerate(rows) if r.tokens is not None)
    first = rows[index].key if smallest < history_tokens else "history"
    return IoVerdict(rows, first, io_cap)


def io_token_cap(loader_prefetch_limit: int, samples: Samples, limits: Limits) -> int | None:
    """:func:`io_verdict`'s ``io_token_cap`` alone: it does not depend on the history, so
    a session replay asks for it only when M or the loader's summary moves."""
    return _io_rows(loader_prefetch_limit, samples, limits)[1]


@lru_cache(maxsize=4096)
def _io_rows(
    loader_prefetch_limit: int, samples: Samples, limits: Limits
) -> tuple[tuple[LimitRow, ...], int | None]:
    bson = channel_stats(samples.bson)
    speed = _ms_per_byte(samples)
    tpm, mps = samples.tokens_per_message, samples.messages_per_session
    rows = [
        LimitRow(
            "token_budget",
            loader_prefetch_limit,
            "tokens",
            loader_prefetch_limit,
            True,
            "loader prefetch limit = max(0, M - A loader)",
            "basis.token_budget",
        )
    ]

    def row(
        key: str,
        unit: str,
        tokens: int | None,
        basis: str,
        *,
        known: bool = True,
        basis_key: str = "",
        params: tuple[tuple[str, str], ...] = (),
    ) -> None:
        basis_key = basis_key or f"basis.{key}"
        rows.append(
            LimitRow(key, getattr(limits, key), unit, tokens, known, basis, basis_key, params)
        )

    needs_key = {
        "BSON samples": "needs.bson",
        "tokens per message": "needs.tpm",
        "tokens per message and messages per session": "needs.tpm-mps",
        "BSON samples and (bytes, ms) read samples": "needs.bson-read",
        "tokens per message to count the pages queried": "needs.tpm-pages",
    }

    def unknown(key: str, unit: str, needs: str) -> None:
        row(key, unit, None, f"needs {needs}", known=False, basis_key=needs_key[needs])

    # 2 MiB of raw BSON, at the most bytes per token seen.
    if bson is None:
        unknown("raw_bson_bytes", "bytes", "BSON samples")
    else:
        tokens = None if bson.ratio_max == 0 else _floor(limits.raw_bson_bytes / bson.ratio_max)
        row("raw_bson_bytes", "bytes", tokens, "bytes / max BSON bytes per token")
    if tpm is None:
        unknown("raw_records_read", "records", "tokens per message")
    else:
        tokens = _floor(limits.raw_records_read * Fraction(tpm))
        row("raw_records_read", "records", tokens, "records x tokens per message")
    if tpm is None or mps is None:
        unknown(
            "directory_sessions_read", "sessions", "tokens per message and messages per session"
        )
    else:
        tokens = _floor(limits.directory_sessions_read * Fraction(mps) * Fraction(tpm))
        row(
            "directory_sessions_read",
            "sessions",
            tokens,
            "sessions x messages per session x tokens per message",
        )
    if bson is None or speed is None:
        unknown("full_read_ms", "ms", "BSON samples and (bytes, ms) read samples")
        unknown("single_query_ms", "ms", "BSON samples and (bytes, ms) read samples")
    else:
        query = max(samples.query_ms, default=0)
        if samples.query_ms and tpm is None:
            unknown("full_read_ms", "ms", "tokens per message to count the pages queried")
        else:

            def fits(t: int) -> bool:
                slowest = _read_time(t, samples, limits).read_ms_high
                assert slowest is not None  # samples and page counts are present here
                return slowest <= limits.full_read_ms

            basis, key = "largest read whose slowest predicted time fits", "basis.full_read_ms"
            if samples.query_ms:
                basis += " (with the slowest query for every page read)"
                key = "basis.full_read_ms-query"
            row("full_read_ms", "ms", _largest(fits), basis, basis_key=key)
        if tpm is None:
            unknown("single_query_ms", "ms", "tokens per message")
        else:
            page_tokens = _ceil(limits.message_page_size * Fraction(tpm))
            page_ms = _ceil(_ceil(page_tokens * bson.ratio_max) * speed[1]) + query
            # One page over the single-query time stops the read at its first query.
            bites = page_ms > limits.single_query_ms
            row(
                "single_query_ms",
                "ms",
                0 if bites else None,
                f"one message page takes up to {page_ms:,} ms",
                params=(("ms", f"{page_ms:,}"),),
            )
    io_known = [r.tokens for r in rows[1:] if r.tokens is not None]
    return tuple(rows), (min(io_known) if io_known else None)
