"""A log import in steps reads what the one-shot import reads (issue 38: nothing is
silently lost by stopping): for any step budget and any batch size, every session,
its ledger (every line), its usage, model and backtest equal the one-shot read's.

The oracle is the one-shot read of the same files (``with_logs``, whose batches are as
large as the readers take them); the fixtures are every agent's sessions of
tests/fixtures/logs, with lines that are not requests (blank, malformed, unknown
entries) put in at drawn places, so batch ends fall everywhere."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from budgetcore.ui.replay.imports import LogImport, start, step
from budgetcore.ui.replay.state import initial_panel, with_imported, with_logs
from tests.profiles import examples

FIXTURES = Path(__file__).parent.parent / "fixtures" / "logs"
#: Every session folder of the fixtures (one agent's layout each).
CASES = sorted(p for p in FIXTURES.glob("*/*") if p.is_dir())

_JUNK = (
    b"\n",
    b"   \n",
    b"not json\n",
    b'{"type":"nothing-we-read"}\n',
    b"[1, 2]\n",
    b"\xff\xfe\n",
)


@st.composite
def _imports(draw: st.DrawFn) -> tuple[tuple[str, bytes], ...]:
    base = draw(st.sampled_from(CASES))
    files = []
    for path in sorted(p for p in base.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if path.suffix == ".jsonl" and draw(st.booleans()):
            lines = data.splitlines(keepends=True)
            for _ in range(draw(st.integers(0, 6))):
                at = draw(st.integers(0, len(lines)))
                lines.insert(at, draw(st.sampled_from(_JUNK)))
            data = b"".join(lines)
        files.append((path.relative_to(base).as_posix(), data))
    return tuple(files)


def _stepped(files: tuple[tuple[str, bytes], ...], step_bytes: int, budget: int) -> object:
    job = start(files, step_bytes)
    total = job.total
    out = step(job, budget)
    while isinstance(out, LogImport):
        assert job.done <= out.done <= total  # the progress only grows, never past the whole
        job, out = out, step(out, budget)
    return out


@settings(max_examples=examples(60))
@given(_imports(), st.integers(1, 200_000), st.integers(1, 300_000))
def test_an_import_in_steps_reads_what_the_one_shot_import_reads(
    files: tuple[tuple[str, bytes], ...], step_bytes: int, budget: int
) -> None:
    panel = initial_panel()
    once = with_logs(panel, files)
    stepped = with_imported(panel, _stepped(files, step_bytes, budget))  # type: ignore[arg-type]
    assert stepped.logs == once.logs
    assert stepped.log_not_read == once.log_not_read


def test_a_companion_read_by_several_sessions_counts_its_bytes_once() -> None:
    """Copilot CLI's session store is read with each events.jsonl beside it (and as its
    own sessions): the progress counted its bytes once a session, past the import's
    whole (42,237 of 21,757 bytes, found by the property above after the seventeenth
    stop's store40 merge). Every fixture folder whose sessions share a file."""
    for base in (FIXTURES / "copilot" / "store-events", FIXTURES / "copilot" / "otel-events"):
        files = tuple(
            (p.relative_to(base).as_posix(), p.read_bytes())
            for p in sorted(base.rglob("*"))
            if p.is_file()
        )
        assert isinstance(_stepped(files, 1, 1), type(_stepped(files, 0, 10**9)))
