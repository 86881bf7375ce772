"""The one number reader: every parser (scenario, config, links, options, turns, logs,
the page's fields and the CLI's flags) reads its numbers here, exactly.

Two steps, kept apart. *Reading* turns text into a number without ever evaluating an
absurd one (:func:`read_number`, the JSON and TOML hook: a 10^18 exponent or a
100-digit string becomes a :class:`~budgetcore.errors.NonFinite` marker). *Checking*
takes a decoded value (an ``int``, a ``Decimal``, a marker, or anything else a file
holds) and returns the value in range or ``None`` (:func:`as_whole`, :func:`as_decimal`);
:func:`whole` and :func:`decimal` also append the coded problem that names the field,
the rule and the value, so every parser says the same thing the same way.

Never through ``float``: a ``bool`` is not a number, a ``Decimal`` counts as a whole
number only when it is integral (``1e3`` is 1,000; ``1.5`` and ``1e-3`` are not).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation, localcontext

from budgetcore.errors import NonFinite, Problem, WrittenDecimal

__all__ = [
    "DECIMAL_TEXT",
    "GROUPED",
    "MAX_NUMBER_CHARS",
    "MAX_SEED",
    "MAX_TOKENS",
    "as_decimal",
    "as_whole",
    "bound_text",
    "decimal",
    "decimal_places",
    "read_number",
    "read_written",
    "typed",
    "whole",
    "whole_problem",
    "whole_text",
]

#: Upper bound of every token count: 10^12 tokens is far beyond any model window.
MAX_TOKENS = 10**12
#: Upper bound of every seed (the generator's, failure_seed, the random cases'): a
#: non-negative 64-bit integer, so a seed is the same number in every runtime.
MAX_SEED = 2**63 - 1

#: The longest number text read as a number. No field takes more than a few dozen
#: digits, and reading is where an absurd number must stop: Decimal refuses exponents
#: of 10^18 and more, and huge digit strings cost time to convert.
MAX_NUMBER_CHARS = 100
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE]([-+]?\d+))?", re.ASCII)
#: Beyond this exponent no number is within range of any field, whatever its digits.
_MAX_EXPONENT = 400
#: A zero written with a minus sign (-0, -0.0, -0e5): refused like any sign, by its text
#: (docs/spec.md §11, "One rule for spaces and signs"), never read as the zero it equals.
_SIGNED_ZERO = re.compile(r"-(?:0+(?:\.0*)?|\.0+)(?:[eE][-+]?\d+)?", re.ASCII)
#: A non-negative decimal as text (a margin, a rate, a price given as a string).
DECIMAL_TEXT = re.compile(r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d{1,4})?", re.ASCII)
# Typed whole numbers may group thousands with commas: 1,048,576.
GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+", re.ASCII)


def read_number(text: str) -> int | Decimal | NonFinite:
    """A JSON or TOML number, exactly; an absurd one (too many characters, or an
    exponent far beyond any field's range) becomes a marker that validation rejects
    by field, without ever being evaluated.

    >>> read_number("1e3"), read_number("1e1000000000000000000"), read_number("12")
    (Decimal('1E+3'), 1e1000000000000000000, 12)
    >>> read_number("-0"), read_number("-0.0"), read_number("0")  # a sign, even on zero
    (-0, -0.0, 0)
    """
    text = text.replace("_", "")  # TOML allows 1_000; JSON never has "_"
    match = _NUMBER.fullmatch(text)
    if len(text) > MAX_NUMBER_CHARS or match is None or _SIGNED_ZERO.fullmatch(text):
        return NonFinite(text)
    exponent = match.group(1)
    if exponent is not None:
        if abs(int(exponent)) > _MAX_EXPONENT:
            return NonFinite(text)
        return Decimal(text)
    return int(text) if "." not in text else Decimal(text)


def read_written(text: str) -> int | Decimal | NonFinite:
    """:func:`read_number` for what a person wrote (a scenario, a config, options): a
    number with an exponent keeps its text (a :class:`~budgetcore.errors.WrittenDecimal`),
    so a refusal quotes ``1e400`` as written, not as ``1E+400``. The log readers keep
    :func:`read_number`: nothing of theirs is quoted back, and the compiled decoders
    take plain Decimals only.

    >>> read_written("1e3"), read_written("1e3").text, read_written("1.5")
    (Decimal('1E+3'), '1e3', Decimal('1.5'))
    """
    value = read_number(text)
    if type(value) is Decimal and value.is_finite() and "e" in text.lower():
        return WrittenDecimal(text.replace("_", ""))
    return value


def decimal_places(value: Decimal) -> int:
    """Decimal places that matter (trailing zeros do not), without any context rounding.

    >>> decimal_places(Decimal("0.150")), decimal_places(Decimal("1E+3"))
    (2, 0)
    """
    _sign, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)  # finite: callers check first
    trailing = len(digits) - len("".join(map(str, digits)).rstrip("0"))
    return max(0, -(exponent + trailing)) if any(digits) else 0


def as_whole(raw: object, low: int = 0, high: int = MAX_TOKENS) -> int | None:
    """``raw`` as a whole number from ``low`` to ``high``, or None.

    >>> as_whole(5), as_whole(Decimal("1E+3")), as_whole(True), as_whole(Decimal("1.5"))
    (5, 1000, None, None)
    """
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw if low <= raw <= high else None
    if (
        isinstance(raw, Decimal)
        and raw.is_finite()
        and low <= raw <= high
        and raw == raw.to_integral_value()
    ):
        return int(raw)
    return None


def as_decimal(
    raw: object,
    low: Decimal | int,
    high: Decimal | int,
    places: int,
    *,
    strings: bool = True,
    high_open: bool = False,
    low_open: bool = False,
) -> Decimal | None:
    """``raw`` (an int, a Decimal, or when ``strings`` a decimal string such as
    ``"0.10"``) as a Decimal in range with at most ``places`` decimal places, or None.

    >>> as_decimal("0.10", 0, 1, 28, high_open=True), as_decimal("1", 0, 1, 28, high_open=True)
    (Decimal('0.10'), None)
    """
    if isinstance(raw, bool):
        return None
    value: Decimal
    if isinstance(raw, int):
        value = Decimal(raw)
    elif isinstance(raw, Decimal):
        value = raw
    elif strings and isinstance(raw, str) and DECIMAL_TEXT.fullmatch(raw):
        try:
            value = Decimal(raw)
        except InvalidOperation:  # pragma: no cover - the pattern admits only valid text
            return None
    else:
        return None
    if not value.is_finite():
        return None
    if value < low or value > high or (low_open and value == low) or (high_open and value == high):
        return None
    return value if decimal_places(value) <= places else None


def bound_text(value: int | Decimal) -> str:
    """A range end as the rules write it: powers of ten from 10^9 as 10^n, the seed
    bound as 2^63 - 1, any other as 1,000,000.

    >>> bound_text(MAX_TOKENS), bound_text(10**9), bound_text(MAX_SEED), bound_text(100_000)
    ('10^12', '10^9', '2^63 - 1', '100,000')
    """
    if isinstance(value, Decimal):
        return str(value)
    if value == MAX_SEED:
        return "2^63 - 1"
    digits = str(value)
    if value >= 10**9 and digits.rstrip("0") == "1":
        return f"10^{len(digits) - 1}"
    return f"{value:,}"


def whole(
    raw: object,
    path: str,
    problems: list[Problem],
    low: int = 0,
    high: int = MAX_TOKENS,
    *,
    nullable: bool = False,
    **where: object,
) -> int | None:
    """:func:`as_whole`, appending the coded problem (``core.whole``) when it fails.
    ``None`` passes as None when ``nullable``; ``where`` (a pasted ``line`` and ``key``)
    goes into the problem's parameters.

    >>> found = []
    >>> whole("8k", "line 2: added", found, line=2, key="added"), str(found[0])
    (None, 'line 2: added must be an integer from 0 to 10^12, got "8k"')
    """
    if raw is None and nullable:
        return None
    value = as_whole(raw, low, high)
    if value is None:
        code = "whole-or-null" if nullable else "whole"
        problems.append(whole_problem(path, raw, low, high, code, **where))
    return value


def whole_problem(
    path: str,
    raw: object,
    low: int = 0,
    high: int = MAX_TOKENS,
    code: str = "whole",
    **where: object,
) -> Problem:
    """The problem of a whole number outside ``low``..``high`` (``core.whole``, or a
    variant ``code`` with the same bounds: ``whole-or-null``, ``whole-or-none``)."""
    return Problem.of(path, raw, code, low=bound_text(low), high=bound_text(high), **where)


def decimal(
    raw: object,
    path: str,
    problems: list[Problem],
    *,
    low: Decimal | int,
    high: Decimal | int,
    places: int,
    code: str = "decimal",
    nullable: bool = False,
    strings: bool = True,
    **where: object,
) -> Decimal | None:
    """:func:`as_decimal`, appending the coded problem (``core.decimal``, or ``code``,
    whose sentence says what the number is: ``price``) when it fails: ``-or-null`` when
    ``nullable``; ``-py`` without ``strings`` (a Python caller's value,
    docs/python-api.md: only an int or a Decimal is a number; ``-py-or-none``).
    ``where`` as for :func:`whole`.

    >>> found = []
    >>> decimal("1.5", "options.failure_rate", found, low=0, high=1, places=30)
    >>> str(found[0])  # doctest: +NORMALIZE_WHITESPACE
    'options.failure_rate must be a decimal from 0 to 1 with at most 30 decimal places,
     as a string or an exact JSON number, got "1.5"'
    """
    if raw is None and nullable:
        return None
    value = as_decimal(raw, low, high, places, strings=strings)
    if value is None:
        variant = ("" if strings else "-py") + (
            ("-or-null" if strings else "-or-none") if nullable else ""
        )
        problems.append(
            Problem.of(
                path,
                raw,
                code + variant,
                low=bound_text(low),
                high=bound_text(high),
                places=str(places),
                **where,
            )
        )
    return value


#: Full-width forms (U+FF01-U+FF5E: ０-９, ，, ．, ｅ, ＋, －) as their ASCII twins, the
#: ideographic space as a space, and the ideographic full stop 。 (U+3002) as the decimal
#: point: what a Chinese or Japanese input method types for digits (its "." key gives 。
#: in Chinese punctuation mode, so "0。15" is 0.15 as typed). Only for text a person
#: typed; a file's numbers stay as strict as their format.
_FULL_WIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {0x3000: 0x20, 0x3002: 0x2E}


def typed(text: str) -> str:
    """What a person typed, with full-width digits and signs read as ASCII (an IME types
    ``４００００`` for 40000) and 。 or ． as the decimal point; every other character
    unchanged, so the rules refuse it. Every field of the page reads its text through
    this, the one place (``ui/form.py``, the replay's and Tune's fields).

    >>> typed("４００００"), typed("１，０４８，５７６"), typed("０．１５"), typed("8k")
    ('40000', '1,048,576', '0.15', '8k')
    >>> typed("0。15"), typed("０。１５")
    ('0.15', '0.15')
    """
    return text.translate(_FULL_WIDTH) if not text.isascii() else text


def whole_text(text: str, high: int = MAX_TOKENS, *, plain: bool = False) -> int | None:
    """The whole number a person typed (a field, a CLI flag): digits, optionally grouped
    by commas (``1,048,576``), or exact decimal text that is whole (``1e3``) unless
    ``plain`` (a flag's count or seed: digits only); never through float, never an
    absurd exponent, never a sign. Full-width digits read as digits (:func:`typed`).

    >>> whole_text("1,048,576"), whole_text("1e3"), whole_text("1,04"), whole_text("１２")
    (1048576, 1000, None, 12)
    >>> whole_text("2e5", plain=True), whole_text("200,000", plain=True)
    (None, 200000)
    """
    text = typed(text).strip()
    if text.startswith("-"):  # not even -0: a count typed with a sign is a slip
        return None
    if GROUPED.fullmatch(text):
        text = text.replace(",", "")
    if plain and not (text.isascii() and text.isdigit()):
        return None
    number = read_number(text) if text.isascii() and "_" not in text else None
    if number is None or isinstance(number, NonFinite):
        return None
    with localcontext() as ctx:
        ctx.prec = 60
        return as_whole(number, 0, high)
