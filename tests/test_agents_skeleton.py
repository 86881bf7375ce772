"""The compiled skeleton decoder of the other agents' lines (docs/replay.md, "Speed";
``budgetcore.replay.logs.compiled.SKELETONS``) against the standard library's full
decode: every fixture of pi, Gemini CLI, Qwen Code, Kimi CLI, Droid and OpenCode (its
database's messages) read both ways
gives the same session, ledger and all; and any line, however its keys are typed,
gives through the skeleton exactly the full decode's value cut to the skeleton's keys,
or nothing (then it is decoded in full).

The oracle of the second test is written from the skeleton's declared keys alone: a
key kept as it is, a key with keys under it kept only when it holds an object.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetcore.errors import NonFinite
from budgetcore.replay.logs import opencode, read_sessions, reader, tally
from budgetcore.replay.logs.folder import plan_folder

compiled = pytest.importorskip("budgetcore.replay.logs.compiled")

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
AGENTS = ("pi", "gemini", "qwen", "kimi", "droid", "opencode")
#: Where the readers ask for the skeleton decoder.
ASKERS = (tally, opencode)

#: Each skeleton's keys, as the agents write them: a key's own keys when the reader looks
#: under it (a value that is not an object then sends the line to the full decode).
SHAPES: dict[str, dict[str, Any]] = {
    "pi": {
        "type": None,
        "id": None,
        "parentId": None,
        "timestamp": None,
        "tokensBefore": None,
        "message": {"role": None, "model": None, "usage": None},
    },
    "gemini-cli": dict.fromkeys(
        ("type", "id", "timestamp", "model", "tokens", "sessionId", "$set", "$rewindTo")
    ),
    "qwen-code": dict.fromkeys(
        (
            "type",
            "subtype",
            "uuid",
            "parentUuid",
            "timestamp",
            "systemPayload",
            "usageMetadata",
            "model",
        )
    ),
    "type-only": {"type": None},
    "opencode": dict.fromkeys(("id", "role", "time", "tokens", "modelID", "cost", "summary")),
}
_KIMI_MESSAGE: dict[str, Any] = {"type": None}
_KIMI_MESSAGE["payload"] = {
    "token_usage": None,
    "message_id": None,
    "agent_id": None,
    "event": _KIMI_MESSAGE,
}
SHAPES["kimi-cli"] = {"type": None, "timestamp": None, "message": _KIMI_MESSAGE}


def _cut(value: dict[str, Any], shape: dict[str, Any]) -> dict[str, Any] | None:
    out: dict[str, Any] = {}
    for key, under in shape.items():
        if key not in value:
            continue
        if under is None:
            out[key] = value[key]
        elif isinstance(value[key], dict):
            inner = _cut(value[key], under)
            if inner is None:
                return None
            out[key] = inner
        else:
            return None
    return out


def _marked(value: Any) -> bool:
    """Whether a decoded value holds a number read_number marks (NonFinite: -0.0, an
    absurd exponent), which the skeleton leaves to the full decode."""
    if isinstance(value, NonFinite):
        return True
    if isinstance(value, dict):
        return any(_marked(v) for v in value.values())
    if isinstance(value, list):
        return any(_marked(v) for v in value)
    return False


def _sessions(agent: str) -> list[tuple[Path, tuple[str, ...]]]:
    out = []
    for case in sorted((LOGS / agent).iterdir()):
        if case.is_dir():
            paths = sorted(p.relative_to(case).as_posix() for p in case.rglob("*") if p.is_file())
            out += [(case, s.files) for s in plan_folder(paths).sessions]
    return out


def _read(base: Path, files: tuple[str, ...]) -> Any:
    streams = [(f, (base / f).open("rb")) for f in files]
    try:
        return read_sessions(streams)
    finally:
        for _f, s in streams:
            s.close()


@pytest.mark.parametrize("agent", AGENTS)
def test_every_fixture_reads_the_same_through_the_skeleton_as_in_full(
    agent: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = _sessions(agent)
    assert sessions
    # msgspec is loaded (this module's import): the readers would use it at once.
    for module in ASKERS:
        monkeypatch.setattr(module, "skeleton_batches", lambda kind: None)
    full = [_read(base, files) for base, files in sessions]
    asked: list[str] = []

    def counted(kind: str) -> Any:
        asked.append(kind)
        return reader.skeleton_batches(kind)

    # From the first line on (not past the import's threshold): every line through it.
    for module in ASKERS:
        monkeypatch.setattr(module, "compiled_from", lambda line, size=0: True)
        monkeypatch.setattr(module, "skeleton_batches", counted)
    fast = [_read(base, files) for base, files in sessions]
    assert asked  # the skeleton was used
    assert fast == full


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    # A float here is only a way to write a decimal literal into the line.
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)


@st.composite
def shaped(draw: st.DrawFn, shape: dict[str, Any], depth: int = 0) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, under in shape.items():
        if draw(st.booleans()):
            continue
        if under is not None and depth < 3 and draw(st.integers(0, 3)):
            out[key] = draw(shaped(under, depth + 1))
        else:
            out[key] = draw(JSON_VALUES)
    # Keys no reader looks at (the texts), skipped by the skeleton.
    out.update(draw(st.dictionaries(st.sampled_from(["text", "content", "x"]), JSON_VALUES)))
    return out


@pytest.mark.parametrize("kind", sorted(SHAPES))
@given(data=st.data())
def test_a_skeleton_line_is_the_full_decode_cut_to_its_keys(kind: str, data: Any) -> None:
    decoder = compiled.skeleton_decoder(kind)
    if decoder is None:
        pytest.skip("the compiled decoder is not offered on this interpreter")
    line = json.dumps(data.draw(shaped(SHAPES[kind]))).encode()
    full = reader.decode_line(line)
    assert isinstance(full, dict)
    batch = compiled.decode_batch(decoder, [line])
    assert batch is not None
    got = compiled.plain(batch)[0]
    expected = _cut(full, SHAPES[kind])
    if got is None:
        # Decoded in full instead: a key that is no object, or a number read as a marker.
        assert expected is None or _marked(expected)
    else:
        assert got == expected
        assert [type(v) for v in got.values()] == [type(v) for v in expected.values()]
