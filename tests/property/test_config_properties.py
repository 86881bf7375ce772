"""The hypothesis properties of tests/test_config.py, held beside the other properties
(tests/property/), so each obeys the profiles in tests/conftest.py."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgetcore import Scenario, ScenarioError, parse_scenario
from budgetcore.scenario.export import effective_values, export_json, export_toml, overrides_of
from budgetcore.scenario.overrides import apply_overrides, parse_config
from tests.config_helpers import KEYS
from tests.property.strategies import scenarios

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.floats(allow_nan=True),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=3)
    ),
    max_leaves=10,
)


near_keys = st.sampled_from([*KEYS, "config", "limits", "main_model.input_tokens", "x.y", ""])


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(), st.sampled_from(["toml", "json"]))
def test_export_import_round_trip_keeps_effective_values(data: dict[str, Any], fmt: str) -> None:
    scenario = parse_scenario(data)
    text = export_toml(scenario) if fmt == "toml" else export_json(scenario)
    applied = apply_overrides(Scenario(), parse_config(text, fmt))
    assert effective_values(applied) == effective_values(scenario)
    for key in parse_config(text, fmt):
        assert key in KEYS


@given(st.binary(max_size=200))
def test_fuzz_random_bytes_raise_only_the_validation_error(data: bytes) -> None:
    for fmt in (None, "toml", "json"):
        with contextlib.suppress(ScenarioError):
            parse_config(data, fmt)


@given(st.dictionaries(near_keys, json_values, max_size=5))
def test_fuzz_near_valid_json_raises_only_the_validation_error(doc: dict[str, Any]) -> None:
    try:
        text = json.dumps(doc, allow_nan=True)
    except ValueError:
        return
    with contextlib.suppress(ScenarioError):
        parse_config(text, "json")


@given(
    st.lists(
        st.tuples(
            near_keys,
            st.sampled_from(
                [
                    "1",
                    "-1",
                    '"x"',
                    "0.5",
                    "true",
                    "[1]",
                    "{a=1}",
                    "1e3",
                    "nan",
                    "inf",
                    "99999999999999999999",
                ]
            ),
        ),
        max_size=6,
    )
)
def test_fuzz_near_valid_toml_raises_only_the_validation_error(
    lines: list[tuple[str, str]],
) -> None:
    text = "".join(f"{k or 'k'} = {v}\n" for k, v in lines)
    with contextlib.suppress(ScenarioError):
        parse_config(text, "toml")


@given(scenarios())
def test_plain_toml_writer_is_byte_identical_to_tomli_w(data: dict[str, Any]) -> None:
    import tomli_w  # noqa: PLC0415 - installed with the test extras

    from budgetcore.scenario.export import _dumps_plain, _nested  # noqa: PLC0415

    body = _nested(overrides_of(parse_scenario(data)))
    assert _dumps_plain(body) == tomli_w.dumps(body)
