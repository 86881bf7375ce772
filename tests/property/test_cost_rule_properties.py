"""One cost rule (docs/models-and-peers.md, "Prices"): a log's measured usage, summed per
model and tier, equals the sum of each request priced on its own, for prices that leave
any cache category unlisted (the review of 2026-12 found the two disagreeing there), and
the replay's integer rates are the same rates scaled.

The oracle is written here from LiteLLM's fallbacks alone: an unlisted cache read or
5-minute write bills at the input price, an unlisted 1-hour write at the 5-minute write
price; a request pays every token at the highest tier its context is strictly above."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.core.contracts import ModelContract
from budgetcore.registry.models import RegistryModel, Resolution
from budgetcore.registry.prices import Prices
from budgetcore.registry.tiers import PriceTier
from budgetcore.replay.logs.model import LogRequest
from budgetcore.replay.logs.usage import KINDS, cost_by_kind, measured_usage
from budgetcore.replay.simulate import price_places, rates_of

listed = st.decimals(min_value="1E-9", max_value="1E-4", places=9)
price = st.one_of(st.none(), listed)


@st.composite
def prices(draw: st.DrawFn) -> Prices:
    tiers = []
    above = 0
    for _ in range(draw(st.integers(0, 2))):
        above += draw(st.integers(1, 300_000))
        tiers.append(
            PriceTier(above=above, input=draw(price), output=draw(price), cache_read=draw(price))
        )
    return Prices(
        # Drawn listed, not filtered: half of price's draws are None, and filtering them
        # out failed Hypothesis's too-much-filtering health check now and then (CI).
        input=draw(listed),
        output=draw(listed),
        cache_read=draw(price),
        cache_write=draw(price),
        cache_write_1h=draw(price),
        tiers=tuple(tiers),
    )


def oracle_rates(p: Prices, context: int) -> tuple[Decimal, ...]:
    """(input, 5-minute write, 1-hour write, cache read, output) per token."""
    flat = {
        "input": p.input,
        "output": p.output,
        "cache_read": p.cache_read,
        "cache_write": p.cache_write,
        "cache_write_1h": p.cache_write_1h,
    }
    # The highest tier the context is strictly above; a price it does not list is the
    # base price (prices.py's docstring, LiteLLM's per-request tiers).
    over = [t for t in p.tiers if context > t.above]
    if over:
        for k in ("input", "output", "cache_read"):
            if getattr(over[-1], k) is not None:
                flat[k] = getattr(over[-1], k)
    i, o = flat["input"], flat["output"]
    assert i is not None
    assert o is not None
    write = i if flat["cache_write"] is None else flat["cache_write"]
    write_1h = write if flat["cache_write_1h"] is None else flat["cache_write_1h"]
    rd = i if flat["cache_read"] is None else flat["cache_read"]
    return i, write, write_1h, rd, o


def oracle(p: Prices, fresh: int, w5: int, w1: int, read: int, output: int) -> Decimal:
    rates = oracle_rates(p, fresh + w5 + w1 + read)
    counts = (fresh, w5, w1, read, output)
    return sum((n * r for n, r in zip(counts, rates, strict=True)), Decimal(0))


usages = st.tuples(*(st.integers(0, 400_000) for _ in range(5)))


@given(prices(), st.lists(usages, min_size=1, max_size=30))
def test_the_measured_cost_is_the_sum_of_each_request_at_litellms_fallbacks(
    p: Prices, parts: list[tuple[int, int, int, int, int]]
) -> None:
    entry = RegistryModel(
        name="m",
        provider="p",
        prices=p,
        contract=ModelContract(input_tokens=1_000_000, output_tokens=8_000, reserves_output=True),
    )
    reqs = [
        LogRequest(
            line=n,
            context=fresh + w5 + w1 + read,
            output=out,
            cache_read=read,
            cache_write=w5 + w1,
            model="m",
            input=fresh,
            cache_write_1h=w1,
        )
        for n, (fresh, w5, w1, read, out) in enumerate(parts, start=1)
    ]
    m = measured_usage(reqs, lambda name: Resolution(name=name, model=entry, how="exact"))
    assert m.cost == sum((oracle(p, *u) for u in parts), Decimal(0))
    assert m.unpriced == 0


@given(prices(), st.booleans())
def test_the_replays_integer_rates_are_the_one_rule_scaled(p: Prices, cache: bool) -> None:
    places = price_places([p])
    tiers = rates_of(p, places, cache)
    assert tiers is not None
    scale = Decimal(10) ** places
    for above, (cold, cached, output, plain) in tiers:
        fresh, w5, _, rd, out = oracle_rates(p, above + 1)
        got = [Decimal(x) / scale for x in (cold, cached, output, plain)]
        assert got == [w5 if cache else fresh, rd, out, fresh]


@given(
    prices(),
    st.lists(st.tuples(st.sampled_from(["m", "n", "x"]), usages), min_size=1, max_size=30),
    st.booleans(),
)
def test_the_what_ifs_cost_by_kind_is_each_request_at_its_tier(
    p: Prices, parts: list[tuple[str, tuple[int, int, int, int, int]]], one_model: bool
) -> None:
    """cost_by_kind (the what-if's itemised delta) against the oracle: each request at
    its own tier, kinds summed; a model without a price ("x") makes every kind it used
    unknown. One model in the base tier is summed column by column, any other mix
    request by request: both are drawn."""
    entry = RegistryModel(
        name="m",
        provider="p",
        prices=p,
        contract=ModelContract(input_tokens=1_000_000, output_tokens=8_000, reserves_output=True),
    )

    def resolver(name: str) -> Resolution:
        return Resolution(name=name, model=None if name == "x" else entry, how="exact")

    if one_model:
        parts = [(parts[0][0], u) for _, u in parts]
    reqs = [
        LogRequest(
            line=n,
            context=fresh + w5 + w1 + read,
            output=out,
            cache_read=read,
            cache_write=w5 + w1,
            model=model,
            input=fresh,
            cache_write_1h=w1,
        )
        for n, (model, (fresh, w5, w1, read, out)) in enumerate(parts, start=1)
    ]
    want: list[Decimal | None] = [Decimal(0)] * 4
    for model, (fresh, w5, w1, read, out) in parts:
        used = (fresh, w5 + w1, read, out)
        if model == "x":
            want = [None if n else w for w, n in zip(want, used, strict=True)]
            continue
        i, r5, r1, rd, o = oracle_rates(p, fresh + w5 + w1 + read)
        costs = (fresh * i, w5 * r5 + w1 * r1, read * rd, out * o)
        want = [None if w is None else w + c for w, c in zip(want, costs, strict=True)]
    got = cost_by_kind(reqs, resolver)
    assert [got[k] for k in KINDS] == want
