"""Display formatting: full integers with separators, decimal k, binary KiB/MiB, percents.

Key values are always shown in full (1,048,576, never "1M"); ``k`` is decimal shorthand
only (1k = 1,000) and binary units are for bytes only (1 MiB = 1,048,576 bytes).
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the log commands import this module; fractions was 11 M instructions of it
    from fractions import Fraction

__all__ = [
    "KIB",
    "MIB",
    "counted",
    "format_bytes",
    "format_int",
    "format_k",
    "format_money",
    "format_money_figures",
    "format_percent",
    "money_text",
    "signed_money_text",
]

KIB = 1_024
MIB = 1_048_576


def counted(n: int, noun: str, plural: str = "") -> str:
    """A count and its noun, singular for one ("1 session", "2 sessions"): the CLI's
    English, where "session(s)" hedged (issue 42).

    >>> counted(1, "session"), counted(1_200, "line"), counted(2, "key", "keys")
    ('1 session', '1,200 lines', '2 keys')
    """
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def format_int(value: int) -> str:
    """Full integer with thousands separators.

    >>> format_int(1_048_576)
    '1,048,576'
    >>> format_int(-60_000)
    '-60,000'
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"format_int needs an int, got {value!r}")
    return f"{value:,}"


#: Significant digits a quotient of money is shown to (the mean cost per turn).
MEAN_DIGITS = 6


def format_mean_money(value: Decimal) -> str:
    """A quotient of money (a mean), for people: rounded half-even to
    :data:`MEAN_DIGITS` significant digits and marked ``≈`` when that dropped digits
    (the division itself has 28); the exact value stays in the data.

    >>> format_mean_money(Decimal("0.2545027797684674751929437707"))
    '≈ $0.254503'
    >>> format_mean_money(Decimal("0.25")), format_mean_money(Decimal("1234567.891"))
    ('$0.25', '≈ $1,234,570.00')
    """
    if not value or value.adjusted() - value.as_tuple().exponent < MEAN_DIGITS:  # type: ignore[operator]
        return format_money(value)
    exponent = value.adjusted() - MEAN_DIGITS + 1
    rounded = value.quantize(Decimal(1).scaleb(exponent), rounding=ROUND_HALF_EVEN)
    return "≈ " + format_money(rounded)


def format_money(value: Decimal) -> str:
    """Dollars exactly, for people: every place the value has (never rounded), at
    least cents, thousands grouped; the places past the cents only where they are
    not zero. One form for the replay, its log usage and the Tune panel.

    >>> format_money(Decimal("0.32539500")), format_money(Decimal("4028.04456"))
    ('$0.325395', '$4,028.04456')
    >>> format_money(Decimal("0")), format_money(Decimal("12.5")), format_money(Decimal("-0.01"))
    ('$0.00', '$12.50', '-$0.01')
    """
    sign = "-" if value < 0 else ""
    whole, _, places = format(abs(value), "f").partition(".")
    places = places.rstrip("0").ljust(2, "0")
    return f"{sign}${int(whole):,}.{places}"


def format_money_figures(value: Decimal, rounding: str, figures: int = 4) -> str:
    """Dollars to ``figures`` significant figures (at least cents), rounded by the named
    ``decimal`` rounding: a colour scale's edges, where eight places ("$79.45439549")
    are noise. ``ROUND_FLOOR`` for a range's low end and ``ROUND_CEILING`` for its high
    end widen the range shown outward, so it always holds the exact one.

    >>> from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN
    >>> format_money_figures(Decimal("79.45439549"), ROUND_FLOOR)
    '$79.45'
    >>> format_money_figures(Decimal("79.45439549"), ROUND_CEILING)
    '$79.46'
    >>> format_money_figures(Decimal("0.000123456"), ROUND_HALF_EVEN)
    '$0.0001235'
    >>> format_money_figures(Decimal("4028.04456"), ROUND_CEILING)
    '$4,028.05'
    >>> format_money_figures(Decimal(0), ROUND_FLOOR)
    '$0.00'
    """
    if value == 0:
        return format_money(value)
    places = max(2, figures - value.adjusted() - 1)
    with localcontext() as ctx:
        ctx.prec = max(ctx.prec, value.adjusted() + places + 2)
        shown = value.quantize(Decimal(1).scaleb(-places), rounding=rounding)
    return format_money(shown)


def money_text(value: Decimal | None) -> str:
    """Dollars for people, exactly (``format_money``, the page's form), or "unknown".

    >>> money_text(Decimal("0.1275")), money_text(None)
    ('$0.1275', 'unknown')
    """
    return "unknown" if value is None else format_money(value)


def signed_money_text(value: Decimal | None) -> str:
    """A change in dollars, exactly, its sign always said; no change is "±$0.00", as a
    percentage of none is "±0.0 %" (the CLI's what-ifs read "+$0.00 (±0.0 %)"); or
    "unknown". The page's what-if and Tune's scale say it alike.

    >>> signed_money_text(Decimal("0.12")), signed_money_text(Decimal("-0.12"))
    ('+$0.12', '−$0.12')
    >>> signed_money_text(Decimal("0E-8")), signed_money_text(None)
    ('±$0.00', 'unknown')
    """
    if value is None:
        return "unknown"
    sign = "±" if value == 0 else "+" if value > 0 else "−"
    return sign + format_money(abs(value))


def format_k(value: int) -> str:
    """Decimal ``k`` shorthand, exact or not shown: 32,000 -> '32k', 8,192 -> '8,192'.

    >>> format_k(32_000), format_k(8_192), format_k(64_000)
    ('32k', '8,192', '64k')
    """
    if value % 1_000 == 0 and value != 0:
        return f"{value // 1_000:,}k"
    return format_int(value)


def _fixed(numerator: int, denominator: int, places: int) -> str:
    with localcontext() as ctx:
        ctx.prec = 60
        ctx.rounding = ROUND_HALF_EVEN
        number = Decimal(numerator) / Decimal(denominator)
        return f"{number.quantize(Decimal(1).scaleb(-places)):,}"


def format_bytes(value: int, places: int = 2, word: str = "bytes") -> str:
    """Bytes in binary units with the exact byte count alongside; ``word`` is the
    unit's name in the reader's language (the page gives its catalogue's).

    >>> format_bytes(2_097_152)
    '2.00 MiB (2,097,152 bytes)'
    >>> format_bytes(1_000)
    '1,000 bytes'
    >>> format_bytes(3_310, word="字节")
    '3.23 KiB (3,310 字节)'
    """
    if value < KIB:
        return f"{format_int(value)} {word}"
    unit, size = ("MiB", MIB) if value >= MIB else ("KiB", KIB)
    return f"{_fixed(value, size, places)} {unit} ({format_int(value)} {word})"


def format_percent(value: Fraction | Decimal | int, places: int = 1) -> str:
    """A ratio as a percent with a stated number of decimals, rounded half-even.

    >>> from fractions import Fraction
    >>> format_percent(Fraction(8_192, 15_000))
    '54.6 %'
    >>> format_percent(Decimal("0.10"), 0)
    '10 %'
    """
    numerator, denominator = value.as_integer_ratio()
    return f"{_fixed(numerator * 100, denominator, places)} %"
