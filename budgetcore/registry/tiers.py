"""A model's price tier (docs/models-and-peers.md, "Prices"): its prices above a context
size. Apart from :mod:`.prices` so that a read whose models have no tiers does not
build the class: 0.5 ms of the start-up (docs/performance.md, issue 40's fourteenth
session). ``registry.prices`` still names it; ``prices.tier_for`` applies it.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

__all__ = ["PriceTier"]


@dataclass(frozen=True, slots=True, kw_only=True)
class PriceTier:
    """Prices for requests whose context is strictly above ``above`` tokens; a price
    that is None is the base price."""

    above: int
    input: Decimal | None = None
    output: Decimal | None = None
    cache_read: Decimal | None = None
    cache_write: Decimal | None = None
    cache_write_1h: Decimal | None = None
