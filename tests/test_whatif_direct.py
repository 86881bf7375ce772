"""The what-if without the replay's rows (``what_if_direct``, docs/performance.md) is
the what-if of the replay (``what_if`` of ``replay()``), value for value, on every
fixture log of Claude Code and Codex, priced and not, with and without a clock, under
the log's own scenario and under K and S that make runs; and the session its log
columns make (``prepare_growth``) is the one ``prepare`` makes of the log's turns."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from budgetcore.core.scenario import Config
from budgetcore.errors import ScenarioError
from budgetcore.replay.asrun import as_run
from budgetcore.replay.logs import read_session
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.session import log_model, priced_by
from budgetcore.replay.options import parse_options_json
from budgetcore.replay.prepared import prepare, prepare_growth
from budgetcore.replay.simulate import replay
from budgetcore.replay.whatif import log_turns, what_if, what_if_direct

FIXTURES = Path(__file__).parent / "fixtures" / "logs"
LOGS = sorted(
    p
    for agent in ("claude", "codex", "timed")
    for p in (FIXTURES / agent).rglob("*.jsonl")
    if "subagents" not in p.parts
)
TIMED = parse_options_json(
    json.dumps(
        {"timing": {"duration": {"prefill_tokens_per_s": "2000", "decode_tokens_per_s": "50"}}}
    )
)
RETRIES = parse_options_json(json.dumps({"retries": {"failure_rate": "0.3", "failure_seed": 5}}))


def _log(path: Path) -> ParsedLog | None:
    try:
        with path.open("rb") as fh:
            log = read_session([(path.name, fh)])
    except ScenarioError:
        return None  # a fixture with no request (or totals only): nothing to replay
    return log if log.main.requests and not log.totals_only else None


def test_the_fixtures_are_found() -> None:
    assert len([p for p in LOGS if _log(p) is not None]) >= 30


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_the_direct_what_if_is_the_replay_s(path: Path) -> None:
    log = _log(path)
    if log is None:
        pytest.skip("no request on the main branch")
    backtest = as_run(log)
    model = log_model(log, window=backtest.window)
    own = model.scenario
    compared = 0
    for k, s in ((None, None), (20_000, 2_048), (60_000, 4_096), (4_000, 1_024)):
        scenario = own
        if k is not None:
            scenario = dataclasses.replace(
                own, config=dataclasses.replace(own.config, trigger_tokens=k, summary_max_tokens=s)
            )
        for options, timed in (
            (None, False),
            (priced_by(model, None), False),
            (RETRIES, False),
            (TIMED, True),
        ):
            refused = None
            try:
                turns, opts = log_turns(log, backtest, options, timed=timed)
                want = what_if(log, backtest, scenario, replay(scenario, turns, opts))
            except ScenarioError as exc:
                refused = exc.problems
            if refused is not None:  # refused alike, with the same problems
                with pytest.raises(ScenarioError) as got:
                    what_if_direct(log, backtest, scenario, options, timed=timed)
                assert got.value.problems == refused
                continue
            assert what_if_direct(log, backtest, scenario, options, timed=timed) == want
            compared += 1
    assert compared >= 4


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_the_log_s_columns_make_the_session_its_turns_make(path: Path) -> None:
    log = _log(path)
    if log is None:
        pytest.skip("no request on the main branch")
    backtest = as_run(log)
    model = log_model(log, window=backtest.window)
    for options in (None, priced_by(model, None), "cache off"):
        turns, opts = log_turns(log, backtest, None if options == "cache off" else options)
        assert opts is not None
        if options == "cache off":
            opts = dataclasses.replace(opts, cache=False)
        f = opts.stable_prefix_tokens
        outputs = [r.output for r in log.main.requests]
        got = prepare_growth(model.scenario, log.main.growth(), outputs, f, options=opts)
        assert got is not None
        assert got == prepare(model.scenario, turns, opts)
        # A rejected F (above M) is every request rejected, alike.
        big = dataclasses.replace(
            model.scenario, config=Config(reply_max_tokens=model.scenario.config.reply_max_tokens)
        )
        huge = 10**9
        assert prepare_growth(big, log.main.growth(), outputs, huge, options=opts) == prepare(
            big, log.main.turns(required=huge), opts
        )
    assert [t.added for t in log.main.turns()] == log.main.growth()
