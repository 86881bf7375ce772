"""Paired samples and what they predict (docs/spec.md §7): bytes per token per channel, read time.

A sample pairs a token count with the bytes of the same batch. Each channel — UTF-8
text, BSON, final model JSON — has its own ratio range [min, max] and pooled ratio
(sum bytes / sum tokens). A channel with no samples predicts *unknown*: never a
generic language ratio. Everything is exact: ratios are Fractions, lower bounds
floor, upper bounds ceil, point estimates round half to even.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

__all__ = [
    "BYTE_CHANNELS",
    "ByteSample",
    "ChannelStats",
    "Prediction",
    "ReadSample",
    "Samples",
    "channel_stats",
    "predict",
]

#: The byte channels, in display order.
BYTE_CHANNELS: tuple[str, ...] = ("text", "bson", "json")


@dataclass(frozen=True, slots=True)
class ByteSample:
    tokens: int  # >= 1
    bytes: int  # >= 0


@dataclass(frozen=True, slots=True)
class ReadSample:
    bytes: int  # raw BSON bytes read, >= 1
    ms: int  # how long the read took


@dataclass(frozen=True, slots=True, kw_only=True)
class Samples:
    """Measurements from the user's own store. Empty by default: nothing is assumed."""

    text: tuple[ByteSample, ...] = ()
    bson: tuple[ByteSample, ...] = ()
    json: tuple[ByteSample, ...] = ()
    read: tuple[ReadSample, ...] = ()
    query_ms: tuple[int, ...] = ()  # single-query latencies (fixed cost per query)
    tokens_per_message: Decimal | None = None  # average, same batch
    messages_per_session: Decimal | None = None

    def channel(self, name: str) -> tuple[ByteSample, ...]:
        value: tuple[ByteSample, ...] = getattr(self, name)
        return value


@dataclass(frozen=True, slots=True)
class ChannelStats:
    count: int
    ratio_min: Fraction  # bytes per token
    ratio_max: Fraction
    ratio_pooled: Fraction  # sum bytes / sum tokens


@dataclass(frozen=True, slots=True)
class Prediction:
    low: int  # floor(t * min)
    high: int  # ceil(t * max)
    point: int  # t * pooled, rounded half to even


@lru_cache(maxsize=4096)
def channel_stats(samples: tuple[ByteSample, ...]) -> ChannelStats | None:
    """Ratio range and pooled ratio; None without samples (the channel is unknown)."""
    if not samples:
        return None
    ratios = [Fraction(s.bytes, s.tokens) for s in samples]
    pooled = Fraction(sum(s.bytes for s in samples), sum(s.tokens for s in samples))
    return ChannelStats(len(samples), min(ratios), max(ratios), pooled)


def _floor(x: Fraction) -> int:
    return x.numerator // x.denominator


def _ceil(x: Fraction) -> int:
    return -(-x.numerator // x.denominator)


def predict(tokens: int, stats: ChannelStats | None) -> Prediction | None:
    """Bytes for ``tokens``: [floor(t·min), ceil(t·max)] and the pooled point; None = unknown.

    >>> s = channel_stats((ByteSample(812, 3310), ByteSample(1000, 4000)))
    >>> predict(10_000, s)
    Prediction(low=40000, high=40764, point=40342)
    """
    if stats is None:
        return None
    return Prediction(
        _floor(tokens * stats.ratio_min),
        _ceil(tokens * stats.ratio_max),
        round(tokens * stats.ratio_pooled),
    )
