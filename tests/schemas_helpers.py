"""What tests/test_schemas.py and its properties (tests/property/) share."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators

from budgetcore.conformance.cases import parse_cases, shipped_cases_text
from budgetcore.conformance.schemas import SCHEMA_NAMES, registry_names, schema_text
from budgetcore.errors import NonFinite

SHIPPED = parse_cases(shipped_cases_text()).cases


#: Registry model names, where this build has the registry (docs/spec.md §13).
NAMES = registry_names()


def _is_integer(_checker: object, instance: object) -> bool:
    if isinstance(instance, bool):
        return False
    if isinstance(instance, int):
        return True
    if isinstance(instance, Decimal):
        return instance.is_finite() and instance == instance.to_integral_value()
    return isinstance(instance, float) and instance.is_integer()


def _is_number(_checker: object, instance: object) -> bool:
    return not isinstance(instance, bool) and isinstance(instance, int | float | Decimal)


def _multiple_of(
    validator: Any, divisor: Any, instance: Any, _schema: object
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "number"):
        return
    value = Decimal(instance) if isinstance(instance, int) else instance
    step = Decimal(divisor)
    # Exact, and without building 10^huge integers: x is a multiple of 10^-k exactly
    # when its significant decimal places are at most k.
    if step.as_tuple().digits == (1,):
        _sign, digits, exponent = value.normalize().as_tuple()
        assert isinstance(exponent, int)
        ok = not any(digits) or exponent >= step.as_tuple().exponent  # type: ignore[operator]
    else:  # pragma: no cover - the schemas use powers of ten only
        ok = (Fraction(value) / Fraction(step)).denominator == 1
    if not ok:
        yield ValidationError(f"{instance} is not a multiple of {divisor}")


_EXACT_TYPES = Draft202012Validator.TYPE_CHECKER.redefine_many(
    {"integer": _is_integer, "number": _is_number}
)


ExactValidator = validators.extend(
    Draft202012Validator, {"multipleOf": _multiple_of}, type_checker=_EXACT_TYPES
)


def _exact(name: str) -> Any:
    return ExactValidator(json.loads(schema_text(name), parse_float=Decimal))


EXACT = {name: _exact(name) for name in SCHEMA_NAMES}


def schema_errors(validator: Any, doc: object) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(doc)
    ]


def exact_json(value: Any) -> str:
    """JSON text whose numbers are exactly the Decimals and ints given."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{exact_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(exact_json(v) for v in value) + "]"
    if isinstance(value, NonFinite):
        return value.text
    if isinstance(value, Decimal):
        return str(value) if "E" in str(value) or "." in str(value) else str(value) + ".0"
    return json.dumps(value)
