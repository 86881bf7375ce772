"""Any link opens: a fragment is decided in one bounded pass (issue: links that loop).

The cross-key rules are restated here from docs/spec.md §6, independently of LIMIT_RULES.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from budgetcore import parse_scenario
from budgetcore.core.scenario import Limits
from budgetcore.scenario.fields import SCENARIO_FIELDS
from budgetcore.scenario.fragment import parse_fragment, to_fragment
from tests.property.strategies import scenarios

LIMIT_KEYS = [f.path for f in SCENARIO_FIELDS if f.section == "limits"]
OTHER_KEYS = [f.path for f in SCENARIO_FIELDS if f.section != "limits"]
SAMPLE_KEYS = [
    "samples.bson",
    "samples.read",
    "samples.query_ms",
    "samples.tokens_per_message",
    "samples.messages_per_session",
]
#: Every runtime protection at its extremes, around the defaults' relations, and broken.
EXTREMES = ["0", "1", "2", "10", "29", "30", "31", "60", "89", "90", "91", "119", "120",
            "121", "199", "200", "201", "1999", "2000", "2001", "1000000000000",
            "1000000000001", "-1", "1e3", "1e1000000000000000000", "9" * 5000, "x", "null",
            "", "%ff", "%", "1:2,3:4", "0." + "1" * 500]  # fmt: skip


def _oracle_conflicts(limits: Limits) -> list[str]:
    """docs/spec.md §6: model timeout <= run timeout < lease; a page within its cap."""
    out = []
    if not limits.model_timeout_s <= limits.run_timeout_s:
        out.append("model_timeout_s")
    if not limits.run_timeout_s < limits.lease_s:
        out.append("run_timeout_s")
    if not limits.message_page_size <= limits.raw_records_read:
        out.append("message_page_size")
    if not limits.directory_page_size <= limits.directory_sessions_read:
        out.append("directory_page_size")
    return out


pairs = st.tuples(
    st.one_of(st.sampled_from(LIMIT_KEYS), st.sampled_from(OTHER_KEYS + SAMPLE_KEYS), st.text()),
    st.one_of(st.sampled_from(EXTREMES), st.text()),
)
fragments = st.one_of(
    st.lists(pairs, max_size=12).map(lambda ps: "#" + "&".join(f"{k}={v}" for k, v in ps)),
    st.lists(
        st.tuples(st.sampled_from(LIMIT_KEYS), st.sampled_from(EXTREMES[:22])), max_size=16
    ).map(lambda ps: "#" + "&".join(f"{k}={v}" for k, v in ps)),
    st.text(),
    st.text(alphabet="#&=.%_:,limtsx0129e").map(lambda t: "#limits." + t),
)


def _decide(fragment: str) -> Any:
    # No clock here (speed is scripts/bench's, never a timed test): a loop or blow-up
    # shows as a run that does not end.
    return parse_fragment(fragment)


@given(fragments)
def test_any_fragment_is_decided_quickly_into_a_valid_scenario(fragment: str) -> None:
    result = _decide(fragment)
    assert _oracle_conflicts(result.scenario.limits) == []
    texts = [str(p) for p in result.problems]
    assert len(texts) == len(set(texts)), "a conflict is reported once"
    assert all(len(t) <= 400 for t in texts)


@given(st.lists(st.tuples(st.sampled_from(LIMIT_KEYS), st.integers(1, 10**12)), max_size=16))
def test_a_link_keeps_its_limits_unless_they_break_a_rule(pairs: list[tuple[str, int]]) -> None:
    values = dict(pairs)  # the last of a repeated key is what a reader would expect...
    fragment = "#" + "&".join(f"{k}={v}" for k, v in values.items())  # ...so none repeat
    result = _decide(fragment)
    asked = Limits(**{k.split(".", 1)[1]: v for k, v in values.items()})
    broken = _oracle_conflicts(asked)
    if not broken:
        assert result.problems == ()
        assert result.scenario.limits == asked
        return
    # Each broken rule is named once, by both of its fields.
    assert 1 <= len(result.problems) <= 4
    for p in result.problems:
        assert p.path.startswith("limits.")
        assert "limits." in p.rule
    # Fields outside every rule are never dropped.
    ruled = {"model_timeout_s", "run_timeout_s", "lease_s", "message_page_size",
             "raw_records_read", "directory_page_size", "directory_sessions_read"}  # fmt: skip
    for key, value in values.items():
        if key.split(".", 1)[1] not in ruled:
            assert getattr(result.scenario.limits, key.split(".", 1)[1]) == value


# The page decodes links and escapes markup without importing urllib.parse or html
# (their imports cost the boot); the stdlib functions are the oracles.
_LINKISH = st.text(
    alphabet=st.sampled_from([*"%%%%0123456789abcdefABCDEFxyz+_-=&é中", "\ud800", "\x7f"]),
    max_size=40,
)


@given(st.one_of(_LINKISH, st.text(max_size=40)))
def test_unquote_is_urllib_unquote(text: str) -> None:
    import urllib.parse  # noqa: PLC0415

    from budgetcore.scenario.fragment import unquote  # noqa: PLC0415

    assert unquote(text) == urllib.parse.unquote(text)


@given(st.text(alphabet=st.sampled_from([*"&<>\"'a;#x27é"]), max_size=30) | st.text())
def test_markup_escape_is_html_escape(text: str) -> None:
    import html  # noqa: PLC0415

    from budgetcore.ui.markup import escape  # noqa: PLC0415

    assert escape(text) == html.escape(text, quote=True)


# ------------------------------------------------------------------ a pinned plan


@given(scenarios(), scenarios(), st.sampled_from(["", "zh"]))
def test_a_pinned_plan_round_trips_beside_the_scenario(
    current: dict[str, Any], pinned: dict[str, Any], lang: str
) -> None:
    b, a = parse_scenario(current), parse_scenario(pinned)
    result = parse_fragment("#" + to_fragment(b, a, lang=lang))
    assert result.problems == ()
    assert result.scenario == b
    assert result.pinned == a
    assert result.ui == ((("lang", lang),) if lang else ())


@given(scenarios())
def test_a_link_without_a_pin_reads_as_before(current: dict[str, Any]) -> None:
    # Every link written before pinned plans travelled: no pin.* pair, no pinned plan.
    b = parse_scenario(current)
    old = to_fragment(b)
    assert "pin" not in old.split("=")[0]
    result = parse_fragment("#" + old)
    assert result.pinned is None
    assert result.scenario == b
    assert to_fragment(b, None) == old


@given(st.sampled_from(OTHER_KEYS + LIMIT_KEYS), st.sampled_from(EXTREMES))
def test_a_pinned_pair_is_read_by_the_same_rules_as_the_scenarios(key: str, text: str) -> None:
    own = parse_fragment(f"#{key}={text}")
    pinned = parse_fragment(f"#pin=1&pin.{key}={text}")
    assert pinned.scenario == parse_fragment("").scenario
    assert pinned.pinned == own.scenario
    assert [(p.path, p.rule, p.value) for p in pinned.problems] == [
        (f"pin.{p.path}", p.rule, p.value) for p in own.problems
    ]


@given(
    st.lists(
        st.tuples(st.sampled_from(["config.trigger_tokens", "pin.config.trigger_tokens", "lang"]),
                  st.sampled_from(["1", "2", "zh", "en"])),
        min_size=1,
        max_size=6,
    )
)  # fmt: skip
def test_a_repeated_key_is_named_once_and_the_first_decides(pairs: list[tuple[str, str]]) -> None:
    result = parse_fragment("#" + "&".join(f"{k}={v}" for k, v in pairs))
    firsts: dict[str, str] = {}
    for key, value in pairs:
        firsts.setdefault(key, value)
    counts = {k: sum(1 for key, _ in pairs if key == k) for k in firsts}
    named = [p for p in result.problems if p.code == "duplicate-first"]
    assert sorted(p.path for p in named) == sorted(k for k, n in counts.items() if n > 1)
    for p in named:
        assert dict(p.params)["kept"] == f'"{firsts[p.path]}"'
    assert dict(result.ui).get("lang") == firsts.get("lang")
    if firsts.get("config.trigger_tokens") in ("1", "2"):
        assert result.scenario.config.trigger_tokens == int(firsts["config.trigger_tokens"])


class TestFragments:
    @given(scenarios())
    def test_every_scenario_round_trips_through_its_fragment(self, data: dict[str, Any]) -> None:
        scenario = parse_scenario(data)
        result = parse_fragment("#" + to_fragment(scenario))
        assert result.problems == ()
        assert result.scenario == scenario
