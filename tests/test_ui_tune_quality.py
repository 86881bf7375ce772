"""The Tune panel's quality limits (issue 37, docs/tune.md "Quality"): the Constraints
box shows the choice's default limits with their values and sources (tune/choice.py,
the CLI's constraints.defaults), each editable and switchable off as the CLI's
``--max-generations N|off`` and ``--max-compression X|off``; the choice says which limit
binds; the maps' colour bands are quantiles with half-open labels."""

from __future__ import annotations

import html
import itertools
import json
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from budgetcore.messages import t
from budgetcore.tune.choice import (
    DEFAULT_MAX_COMPRESSION,
    DEFAULT_MAX_GENERATIONS,
    DEFAULT_SOURCES,
    Constraints,
)
from budgetcore.tune.result import tune
from budgetcore.ui.events import (
    LanguageChosen,
    ReplayFieldTyped,
    TuneFieldTyped,
    TuneToggled,
)
from budgetcore.ui.form import IssueError
from budgetcore.ui.model import PageState
from budgetcore.ui.replay.state import options_of, turns_of
from budgetcore.ui.tune.maps import BINS
from budgetcore.ui.tune.state import constraints_of, parse_field_text
from budgetcore.ui.tune.view import render_tune, tune_controls_html
from budgetcore.ui.update import initial_state, reduce
from tests.helpers import tune_done

ROOT = Path(__file__).resolve().parent.parent


def _open(turns: str | None = None, **texts: str) -> PageState:
    state = initial_state()
    if turns is not None:
        state = reduce(state, ReplayFieldTyped("replay.turns", turns))
    state = reduce(state, TuneToggled(True))
    for path, text in texts.items():
        state = reduce(state, TuneFieldTyped(path, text))
    return state


def _plain(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def test_the_constraints_box_shows_the_default_quality_limits_and_their_sources() -> None:
    controls = str(tune_controls_html())
    gens = re.search(r'data-tune-input="tune.max_generations" value="([^"]*)"', controls)
    comp = re.search(r'data-tune-input="tune.max_compression" value="([^"]*)"', controls)
    assert gens is not None
    assert gens.group(1) == str(DEFAULT_MAX_GENERATIONS)
    assert comp is not None
    assert comp.group(1) == str(DEFAULT_MAX_COMPRESSION)
    # The sources in the page's language; the English is the CLI's constraints.defaults.
    for name, source in DEFAULT_SOURCES.items():
        assert t(f"tune.source.{name}", "en") == source
        assert source in html.unescape(controls)
    zh = render_tune(reduce(_open(), LanguageChosen("zh")))
    hint = zh.text["tn-max-generations-hint"]
    assert t("tune.source.max_generations", "zh") in hint
    assert f"默认 {DEFAULT_MAX_GENERATIONS}" in hint
    assert "off" in zh.text["tn-max-compression-hint"]


def test_a_new_panel_applies_the_clis_default_constraints() -> None:
    assert constraints_of(_open().tune) == Constraints()


@pytest.mark.parametrize(
    ("path", "text", "want"),
    [
        ("tune.max_generations", "off", None),
        ("tune.max_generations", " OFF ", None),
        ("tune.max_generations", "", None),
        ("tune.max_generations", "12", 12),
        ("tune.max_generations", "0", 0),
        ("tune.max_compression", "off", None),
        ("tune.max_compression", "12.5", Decimal("12.5")),
        ("tune.max_compression", "20:1", Decimal(20)),
    ],
)
def test_quality_fields_read_as_the_clis_flags(path: str, text: str, want: object) -> None:
    assert parse_field_text(path, text) == want
    attr = path.split(".", 1)[1]
    assert getattr(constraints_of(_open(**{path: text}).tune), attr) == want


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("tune.max_generations", "1.5"),
        ("tune.max_generations", "-1"),
        ("tune.max_generations", "five"),
        ("tune.max_compression", "0.5"),
        ("tune.max_compression", "10:2"),
        ("tune.max_compression", "1.0000001"),
        ("tune.max_compression", "9" * 2000),
    ],
)
def test_a_bad_quality_limit_is_refused_by_its_field(path: str, text: str) -> None:
    with pytest.raises(IssueError):
        parse_field_text(path, text)
    screen = render_tune(_open(**{path: text}))
    label = t(f"label.{path}", "en")
    assert label in screen.field_messages[path]
    # The rule says "or off" (a text past the size limit is refused by its size).
    assert ("off" in screen.field_messages[path]) == (len(text) < 1000)


def test_switched_off_limits_choose_as_the_cli_does() -> None:
    state = tune_done(_open("40", **{"tune.max_generations": "off", "tune.max_compression": "off"}))
    result = state.tune.result
    source = turns_of(state.replay)
    want = tune(
        state.plan.scenario,
        [("generate", source.turns)],
        options_of(state.replay),
        constraints=Constraints(max_generations=None, max_compression=None),
        engine="python",
    )
    assert result is not None
    assert want.choice is not None
    assert result.choice == want.choice
    assert result.constraints == want.constraints
    # With no limit the cheapest point of the grid is chosen: nothing excludes it.
    g = result.grid
    cheapest = min(range(g.points), key=lambda i: (g.cost_units(i), i))
    assert g.cost_units(result.choice.index) == g.cost_units(cheapest)


def _choice_text(state: PageState, lang: str = "en") -> str:
    markup = str(render_tune(reduce(state, LanguageChosen(lang))).html["tune-choice"])
    return _plain(re.sub(r"<pre.*?</pre>", " ", markup, flags=re.S))


def test_the_default_session_says_which_limit_binds_and_why() -> None:
    # The page's own default (200 generated turns): no point makes 5 generations or
    # fewer, so the limit is relaxed to what the scenario's own point makes (more than
    # the fewest the grid allows); the choice says so, and is the cheapest point that
    # summarises no more often than the scenario's own. Relaxed to the fewest alone, it
    # was K = M at twelve times the own point's billed tokens.
    state = tune_done(_open())
    result = state.tune.result
    assert result is not None
    assert result.choice is not None
    g, own = result.grid, result.own
    fewest = min(
        g.generations(i)
        for i in range(g.points)
        if g.compression(i) is None or g.compression(i) <= DEFAULT_MAX_COMPRESSION
    )
    mine = own.generations(0)
    assert fewest < mine
    assert result.relaxed == (DEFAULT_MAX_GENERATIONS, fewest, mine)
    i = result.choice.index
    assert g.generations(i) <= mine
    assert g.cost_units(i) <= own.cost_units(0)
    assert result.choice.k < max(g.ks)
    text = _choice_text(state)
    assert f"No point makes at most {DEFAULT_MAX_GENERATIONS} summary generations" in text
    assert (
        f"the fewest this grid allows is {fewest:,}, so the limit is relaxed to "
        f"{mine:,}, what the scenario's own K {own.ks[0]:,}, S {own.ss[0]:,} makes" in text
    )
    assert "is excluded: it makes" not in text.split("The grid's cheapest point")[0]
    cheapest = min(range(g.points), key=lambda i: (g.cost_units(i), i))
    k, s = g.point(cheapest)
    assert f"The grid's cheapest point, K {k:,}, S {s:,} (" in text
    assert result.edges == ()
    assert "The choice sits on the grid's" not in text
    zh = _choice_text(state, "zh")
    assert f"本网格能做到的最少代数为 {fewest:,}" in zh
    assert f"因此上限放宽到 {mine:,}" in zh


def test_a_limit_the_user_sets_excludes_points_by_name_and_value() -> None:
    state = tune_done(_open("40", **{"tune.max_generations": "off", "tune.max_compression": "3"}))
    result = state.tune.result
    assert result is not None
    assert result.relaxed is None
    text = _choice_text(state)
    assert "No point makes at most" not in text
    g = result.grid
    cheapest = min(range(g.points), key=lambda i: (g.cost_units(i), i))
    ratio = g.compression(cheapest)
    assert ratio is not None
    assert ratio > 3
    tenths = -(-ratio.numerator * 10 // ratio.denominator)  # rounded up, as said
    assert (
        f"its largest run compresses {tenths // 10}.{tenths % 10}:1 (rounded up), "
        "above the limit 3:1" in text
    )
    assert "summary generations, above" not in text


def test_no_binding_limit_is_said_when_none_binds() -> None:
    state = tune_done(_open("40", **{"tune.max_generations": "off", "tune.max_compression": "off"}))
    text = _choice_text(state)
    assert "is excluded" not in text
    assert "relaxed" not in text


def _legend(markup: str, figure: str) -> tuple[list[tuple[str, str]], dict[int, str]]:
    part = markup[markup.index(f'data-figure="tune-{figure}"') :]
    part = part[: part.index("</figure>")]
    items = re.findall(r'<li class="ch-key tk (tb\d)" data-bin="\d">([^<]*)</li>', part)
    cells = re.findall(r'<rect class="tc (\w+)"[^>]*data-tune-cell="(\d+)"', part)
    return [(c, html.unescape(x)) for c, x in items], {int(i): c for c, i in cells}


def test_the_default_cost_map_has_quantile_bands_written_half_open() -> None:
    state = tune_done(_open())
    result = state.tune.result
    assert result is not None
    g = result.grid
    items, cells = _legend(str(render_tune(state).html["tune-maps"]), "cost")
    assert len(items) == BINS
    spans = []
    for n, (cls, text) in enumerate(items):
        ends = [int(x.replace(",", "")) for x in re.findall(r"[\d,]+(?= billed)", text)]
        last = n == len(items) - 1
        # Half-open, "a to < b", but the last band, closed at the greatest cost.
        assert (" to < " in text) != last
        spans.append((cls, ends[0], ends[1], last))
    for (_, _, high, _), (_, low, _, _) in itertools.pairwise(spans):
        assert high == low  # no overlap, no gap: one band ends where the next begins
    counts = dict.fromkeys((c for c, *_ in spans), 0)
    for i, cls in cells.items():
        _, low, high, last = next(s for s in spans if s[0] == cls)
        cost = g.cost_units(i)
        assert low <= cost
        assert cost <= high if last else cost < high
        counts[cls] += 1
    # About an eighth of the 384 points each (edges rounded to 3 figures move a few).
    assert all(384 // 8 - 16 <= n <= 384 // 8 + 16 for n in counts.values()), counts


def test_a_value_most_points_share_is_a_band_said_alone() -> None:
    # The default session leaves no history unseen below K = M: 0 is its own band,
    # said as one value, and the bands left share the K = M row's unseen tokens.
    state = tune_done(_open())
    items, _cells = _legend(str(render_tune(state).html["tune-maps"]), "unseen")
    assert items[0][1] == "0 tokens"
    assert len(items) == BINS
    assert all(" to " in text for _, text in items[1:])


def test_the_default_session_chooses_as_the_cli_does(tmp_path: Path) -> None:
    """Issue 37: the page's default (the article's scenario, its 200 generated turns, F
    8,000) through ``budgetcore tune`` with the same generator and options: the same
    choice, relaxed limit, edge and cost, and the same constraints.defaults text."""
    state = tune_done(_open())
    result = state.tune.result
    assert result is not None
    assert result.choice is not None
    v = state.replay.values
    spec = {
        "turns": v["replay.turns"],
        "seed": v["replay.seed"],
        "added": {"dist": v["replay.dist"], "low": v["replay.low"], "high": v["replay.high"]},
        "burst": {"rate": str(v["replay.burst_rate"]), "tokens": v["replay.burst_tokens"]},
    }
    options = tmp_path / "options.json"
    options.write_text(json.dumps({"stable_prefix_tokens": v["replay.stable_prefix"]}))
    command = [sys.executable, "-m", "budgetcore", "tune", "--fragment", ""]
    command += ["--generate", json.dumps(spec), "--options", str(options), "--format", "jsonl"]
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    cli = json.loads(out.stdout.splitlines()[-1])["summary"]
    assert cli["turns"] == 200
    choice = cli["choice"]
    assert (choice["k"], choice["s"]) == (result.choice.k, result.choice.s)
    assert choice["reason"]["eligible"] == result.choice.eligible
    assert choice["generations"] == result.grid.generations(result.choice.index)
    assert (
        choice["relaxed"]["max_generations"],
        choice["relaxed"]["fewest_on_grid"],
        choice["relaxed"]["relaxed_to"],
    ) == (result.relaxed)
    assert choice["on_grid_edge"] == list(result.edges)
    assert choice["cost"] == f"{result.grid.cost_units(result.choice.index):,} tokens"
    assert cli["constraints"] == result.constraints.as_dict()
