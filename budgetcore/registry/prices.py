"""Per-token prices of a model and the cost of one request (docs/models-and-peers.md,
"Prices"): exact Decimals, never floats.

One shape shared by the model registry (which fills it from LiteLLM's data), the
session replay (which bills its modelled requests with it) and a log's measured usage
(which bills what each logged request used).

Prices as LiteLLM's own cost calculator applies them, per request:

- **Tiers.** A model may list higher prices above a context size (``*_above_200k_tokens``,
  ``*_above_272k_tokens`` ...). A request whose context (every input token: uncached,
  cache writes and cache reads) is *strictly above* a tier's threshold has *all* of its
  tokens, output included, billed at that tier; of several tiers the highest one it
  exceeds applies; a price the tier does not list is the base price.
- **Cache writes** have a 5-minute price and, where listed, a 1-hour price
  (``cache_creation_input_token_cost_above_1hr``): a log that says which TTL it wrote
  (Claude Code's ``cache_creation.ephemeral_1h_input_tokens``) is billed by it.
- **What the data does not list.** As LiteLLM's calculator bills it: a cache read or a
  cache write without a price is billed at the input price (a provider that publishes
  no cache price bills cached tokens as ordinary input), and a 1-hour write without its
  own price at the 5-minute write price. A model without an input or output price
  prices nothing: a request that uses it has no cost (``None``), never a cost of 0.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Context, Decimal, Inexact, Rounded
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from budgetcore.registry.tiers import PriceTier

__all__ = [
    "MONEY",
    "Prices",
    "Rates",
    "Usage",
    "rates_for",
    "request_cost",
    "tier_for",
    "tier_rates",
]

#: Money is exact: products and sums of token counts (at most 10^12) and prices (at most
#: 28 significant digits) never need rounding at this precision, and the traps make sure
#: none ever happens silently.
MONEY = Context(prec=120, traps=[Inexact, Rounded])


@dataclass(frozen=True, slots=True, kw_only=True)
class Prices:
    """Money per single token (USD in LiteLLM's registry), exact."""

    input: Decimal | None = None
    output: Decimal | None = None
    cache_read: Decimal | None = None
    cache_write: Decimal | None = None  # a 5-minute cache write (LiteLLM's base key)
    cache_write_1h: Decimal | None = None
    tiers: tuple[PriceTier, ...] = ()  # ascending ``above``

    @property
    def known(self) -> bool:
        """Whether there is enough to price a request (an input and an output price)."""
        return self.input is not None and self.output is not None

    def billed(self) -> Rates | None:
        """The rates a request pays at these flat prices (tiers aside), with LiteLLM's
        fallbacks for unlisted cache prices; None when the input or output price is
        missing. The one place the fallbacks are decided."""
        if self.input is None or self.output is None:
            return None
        write = self.input if self.cache_write is None else self.cache_write
        write_1h = write if self.cache_write_1h is None else self.cache_write_1h
        read = self.input if self.cache_read is None else self.cache_read
        return Rates(self.input, write, write_1h, read, self.output)


class Rates(NamedTuple):
    """What one token of each kind costs a request, every fallback resolved (the one cost
    rule: the measured usage, the replay and tune all bill through it). The field order
    is :class:`Usage`'s billed order."""

    input: Decimal
    cache_write_5m: Decimal
    cache_write_1h: Decimal
    cache_read: Decimal
    output: Decimal


def tier_for(prices: Prices, context: int) -> Prices:
    """The flat prices a request of ``context`` input tokens pays.

    >>> from budgetcore.registry.tiers import PriceTier
    >>> p = Prices(input=Decimal("3E-6"), output=Decimal("1.5E-5"),
    ...            tiers=(PriceTier(above=200_000, input=Decimal("6E-6")),))
    >>> tier_for(p, 200_000).input, tier_for(p, 200_001).input, tier_for(p, 200_001).output
    (Decimal('0.000003'), Decimal('0.000006'), Decimal('0.000015'))
    """
    chosen: PriceTier | None = None
    for tier in prices.tiers:
        if context > tier.above:
            chosen = tier
    if chosen is None:
        return prices if not prices.tiers else replace(prices, tiers=())

    def pick(name: str) -> Decimal | None:
        value: Decimal | None = getattr(chosen, name)
        return getattr(prices, name) if value is None else value

    return Prices(
        input=pick("input"),
        output=pick("output"),
        cache_read=pick("cache_read"),
        cache_write=pick("cache_write"),
        cache_write_1h=pick("cache_write_1h"),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Usage:
    """What one request used, as its provider billed it. ``input`` is the uncached
    input only; ``reasoning`` is the part of ``output`` spent on reasoning (shown, not
    billed twice)."""

    input: int = 0
    cache_write_5m: int = 0
    cache_write_1h: int = 0
    cache_read: int = 0
    output: int = 0
    reasoning: int = 0

    @property
    def context(self) -> int:
        """Every input token of the request: what a tier's threshold is compared with."""
        return self.input + self.cache_write_5m + self.cache_write_1h + self.cache_read

    def as_dict(self) -> dict[str, int]:
        """The counts by their JSON keys, in the order the tables show them: the one
        shape of a usage in the measured usage's and the backtest's JSON."""
        return {
            "input": self.input,
            "cache_write_5m": self.cache_write_5m,
            "cache_write_1h": self.cache_write_1h,
            "cache_read": self.cache_read,
            "output": self.output,
            "reasoning": self.reasoning,
        }

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input=self.input + other.input,
            cache_write_5m=self.cache_write_5m + other.cache_write_5m,
            cache_write_1h=self.cache_write_1h + other.cache_write_1h,
            cache_read=self.cache_read + other.cache_read,
            output=self.output + other.output,
            reasoning=self.reasoning + other.reasoning,
        )


def request_cost(prices: Prices | None, usage: Usage) -> Decimal | None:
    """The exact cost of one request at the tier its context falls in, or None when the
    model has no input or output price.

    >>> p = Prices(input=Decimal("3E-6"), output=Decimal("1.5E-5"),
    ...            cache_read=Decimal("3E-7"), cache_write=Decimal("3.75E-6"),
    ...            cache_write_1h=Decimal("6E-6"))
    >>> request_cost(p, Usage(input=10, cache_write_1h=1000, cache_read=20000, output=500))
    Decimal('0.0195300')
    >>> request_cost(p, Usage(input=10)), request_cost(None, Usage(input=10))
    (Decimal('0.000030'), None)
    >>> request_cost(Prices(input=Decimal("2E-6"), output=Decimal("8E-6")), Usage(cache_read=5))
    Decimal('0.000010')
    """
    rates = rates_for(prices, usage.context)
    if rates is None:
        return None
    total = Decimal(0)
    for tokens, price in zip(
        (usage.input, usage.cache_write_5m, usage.cache_write_1h, usage.cache_read, usage.output),
        rates,
        strict=True,
    ):
        if tokens:
            total = MONEY.add(total, MONEY.multiply(price, Decimal(tokens)))
    return total


def rates_for(prices: Prices | None, context: int) -> Rates | None:
    """The rates a request of ``context`` input tokens pays (its tier, fallbacks
    resolved); None when there is no input or output price."""
    return None if prices is None else tier_for(prices, context).billed()


def tier_rates(prices: Prices | None) -> tuple[tuple[int, Rates], ...] | None:
    """Every tier's rates, ascending, each with the context it applies strictly above
    (the base tier: -1); None when there is no input or output price. For loops that
    price many requests: a request pays the last tier whose threshold its context is
    strictly above.

    >>> from budgetcore.registry.tiers import PriceTier
    >>> p = Prices(input=Decimal("2E-6"), output=Decimal("8E-6"),
    ...            tiers=(PriceTier(above=200_000, input=Decimal("4E-6")),))
    >>> [(above, str(r.input), str(r.cache_read)) for above, r in tier_rates(p)]
    [(-1, '0.000002', '0.000002'), (200000, '0.000004', '0.000004')]
    """
    if prices is None or prices.billed() is None:
        return None
    out = []
    for above in (-1, *(t.above for t in prices.tiers)):
        rates = tier_for(prices, above + 1).billed()
        assert rates is not None  # a tier never removes a base price
        out.append((above, rates))
    return tuple(out)
