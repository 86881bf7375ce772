"""Goose sessions (docs/replay.md, "Other agents"): the SQLite database
``~/.local/share/goose/sessions/sessions.db`` (``$GOOSE_PATH_ROOT/data/sessions``).

Two records of usage, by schema:

- **The usage ledger** (schema 15 on, aaif-goose/goose PR #10172): ``usage_ledger``
  holds one row per provider call (``model``, ``input_tokens``, ``output_tokens``,
  ``total_tokens``, ``cache_read_tokens``, ``cache_write_tokens``, ``cost`` in US
  dollars, ``cost_source``, ``is_compaction``), appended by ``insert_usage_ledger_row``
  in the transaction that adds the call to the session's totals (Goose's
  ``crates/goose/src/session/session_manager.rs``, ``record_usage_metrics``, in the
  schema-16 version the code index holds, id 59081668891). A
  session with rows there is measured from them, one request per call, in the ledger's
  order (``created_timestamp``, then ``id``: calls share a second). Goose's input holds
  the cache counts ("``input_tokens`` is the total input including cache read/write
  tokens; the cache fields are breakdown subsets of it": block/goose
  ``crates/goose-provider-types/src/conversation/token_usage.rs`` @fa797134; its
  Anthropic parser adds the cache counts to the input, ``providers/formats/anthropic/
  messages.rs`` @e216e6d9 ``get_usage``), so the uncached input is the input less both.
  A row whose cache counts exceed its input cannot hold them: its input is read as
  uncached beside them. A compaction's call (``is_compaction``) is the summary call of
  the main series (``summary:main``), and the compaction follows the calls before it.
  A ``carried_forward`` row (written with no model when a session's totals exceed the
  ledger's sums: the spend from before the ledger) is billed as summed usage, no
  request, at the session's model, as its totals were. A row of no tokens is an entry.
  The session row is then an entry, its totals the ledger's sums, unless a total
  exceeds its sum: Goose's own totals take the larger of the two (its
  ``get_session_usage_totals``), so the excess is billed there as summed usage (not
  where a ledger row is malformed: the sums are then unknown). A ledger row whose
  session row is gone is a session of its own.
- **The session's totals** (every schema; the only record before 15): a ``sessions``
  row's ``accumulated_input_tokens``, ``accumulated_output_tokens`` and
  ``accumulated_total_tokens`` (the current-context ``input_tokens`` /
  ``output_tokens`` / ``total_tokens`` where those are missing), its cache counts
  (``accumulated_cache_read_tokens``, ``accumulated_cache_write_tokens``) inside the
  input as in the ledger, and its model in ``model_config_json`` (``model_name``)
  (ccusage ``rust/crates/ccusage/src/adapter/goose/loader.rs`` and ``parser.rs``
  @5816e640). Such a session is measured, never replayed turn by turn, and no request
  is counted for it. Tokens in the total beyond input and output are reasoning, billed
  as output (as ccusage does), in both records.

Goose's own cost: ``sessions.accumulated_cost`` (schema 13, block/goose
``crates/goose/src/session/migrations.rs`` @865e4a03) beside a session's totals, each
ledger row's ``cost`` beside its call's. Both are SQLite REALs, selected as SQLite's
text of them (``CAST ... AS TEXT``: 15 significant digits) and read as a Decimal, never
a float; one that is no finite number of dollars, 0 or more, makes its row malformed.

Records in the ledger: the session's row, its ``usage_ledger`` rows, and its
``messages`` rows (their ``metadata_json`` usage is a second copy of the ledger's, never
read: it would count a call twice).

The ledger is read one of two ways, to the same values (docs/performance.md, "Goose's
ledger checked by SQLite"): where one pass of SQLite's aggregates finds every row plain
(whole counts in range, whole epoch seconds, numeric costs, nothing the read would
leave undecoded), each row's kind is told in SQL and only what a call holds is read
(:func:`_plain_rows`); any other ledger is read row by row, each value checked in
Python (:func:`_calls`), which says which row is malformed and why.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import replace
from decimal import Decimal, InvalidOperation, getcontext, localcontext
from functools import partial
from operator import is_not, itemgetter
from typing import Any, cast

from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.numbers import MAX_TOKENS, bound_text
from budgetcore.registry.prices import MONEY
from budgetcore.replay.logs.model import LogSeries, ParsedLog, SummedCalls, summary_series
from budgetcore.replay.logs.reader import count_of, millis
from budgetcore.replay.logs.tally import (
    _DOLLAR_PLACES,
    SUMMED,
    Database,
    Row,
    Tally,
    dollars,
    registry_name,
    sqlite,
)
from budgetcore.replay.logs.usage import base_tier, priced_model

__all__ = ["TOTALS_WHY", "claims_database", "read_goose_db"]

TOTALS_WHY = "Goose records each session's token totals, not its requests"
#: The count columns of a session row, in the query's order. A database from before
#: Goose's schema 6 (block/goose ``crates/goose/src/session/migrations.rs`` @865e4a03:
#: version 6 adds ``provider_name`` and ``model_config_json``) has no model column. A
#: public one, at schema 5, is read with the columns it lacks as NULL (its model
#: unknown), as Goose's migrations leave them on an old row; naming them refused the
#: whole database.
_COUNTS = (
    "accumulated_input_tokens",
    "accumulated_output_tokens",
    "accumulated_total_tokens",
    "accumulated_cache_read_tokens",
    "accumulated_cache_write_tokens",
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
)
#: A ledger row's counts, in the query's order.
_LEDGER_COUNTS = (
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
)
#: Goose's ``cost_source`` of the row that carries a session's spend from before the
#: ledger forward (``record_usage_metrics``).
_CARRIED = "carried_forward"

_NO_TOKENS = "usage row (no tokens)"
_IN_LEDGER = "session (totals in the usage ledger)"


def _cost_sql(column: str, has: set[str]) -> str:
    """A cost column as its storage class and SQLite's text of it (no float here)."""
    if column not in has:
        return "NULL, NULL"
    return f"typeof({column}), CAST({column} AS TEXT)"


def _query(has: set[str]) -> str:
    picked = ", ".join(c if c in has else "NULL" for c in ("model_config_json", "created_at"))
    counts = ", ".join(c if c in has else "NULL" for c in _COUNTS)
    return f"SELECT id, {picked}, {counts}, {_cost_sql('accumulated_cost', has)} FROM sessions"


def _ledger_query(has: set[str]) -> str:
    picked = ", ".join(
        c if c in has else "NULL"
        for c in ("created_timestamp", "model", *_LEDGER_COUNTS, "cost_source", "is_compaction")
    )
    # A session's rows together (grouped in one pass), each in the ledger's order.
    order = "session_id, created_timestamp, id" if "created_timestamp" in has else "session_id, id"
    return (
        f"SELECT id, session_id, {picked}, {_cost_sql('cost', has)} FROM usage_ledger "
        f"ORDER BY {order}"
    )


def claims_database(db: Database) -> bool:
    return "sessions" in db.tables and "message" not in db.tables


def _model(raw: object) -> str | None:
    try:
        config = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        return None
    name = config.get("model_name") if isinstance(config, dict) else None
    return _priced(name)


def _priced(name: object) -> str | None:
    # A bare name the registry lacks: its maker's entry, where ccusage's loose match lands.
    return registry_name(name.strip()) if isinstance(name, str) and name.strip() else None


def _time(raw: object) -> int | None:
    if isinstance(raw, int):
        return millis(raw)
    if isinstance(raw, str):
        text = raw.strip()
        if text.isascii() and text.isdigit():  # "²" is a digit to isdigit, not to int
            return millis(int(text))
        if len(text) == 19 and text[10] in " T":  # SQLite's CURRENT_TIMESTAMP, in UTC
            return millis(f"{text[:10]}T{text[11:]}Z")
        return millis(text)
    return None


def _first(*pairs: tuple[object, tuple[object, ...]]) -> tuple[int, tuple[int, ...]]:
    """The first count above 0 and the counts that go with it (ccusage's order:
    accumulated, then current; the cache counts of the input taken)."""
    for v, beside in pairs:
        n = count_of(v) if v is not None else None
        if n:
            return n, tuple(count_of(b) or 0 for b in beside)
    return 0, tuple(0 for _ in pairs[0][1])


def _checked(
    table: str, names: tuple[str, ...], values: tuple[object, ...], cost: tuple[object, object]
) -> Decimal | Problem | None:
    """A row's logged cost (:func:`_cost` of its class and text), or the Problem of its
    first count that is not a whole number (never read as 0) or of its cost."""
    for column, v in zip(names, values, strict=True):
        if v is not None and count_of(v) is None:
            return Problem.of(f"{table}.{column}", v, "log-line-count", high=bound_text(MAX_TOKENS))
    return _cost(f"{table}.{'cost' if table == 'usage_ledger' else 'accumulated_cost'}", *cost)


def _cost(where: str, kind: object, text: object) -> Decimal | Problem | None:
    """A logged cost from its storage class and SQLite's text of it: None where NULL, a
    Problem where it is no finite number of dollars, 0 or more (SQLite stores an
    infinity; a REAL column keeps text that is no number as text)."""
    if kind is None or kind == "null":
        return None
    value: Decimal | None = None
    if kind in ("real", "integer") and isinstance(text, str):
        try:
            value = Decimal(text)
        except InvalidOperation:
            value = None
    if value is None or dollars(value) is None:  # no finite amount, 0 or more, in range
        return Problem.of(where, text, "log-logged-cost")
    return value


def _split(fresh: int, read: int, write: int) -> int:
    """The uncached input of a cache-inclusive one (the whole, where the cache counts
    exceed it: it cannot hold them)."""
    rest = fresh - read - write
    return rest if rest >= 0 else fresh


def read_goose_db(db: Any, name: str, *, usage: bool = False) -> tuple[ParsedLog, ...]:
    """Every session of a ``sessions.db`` (open: ``db``, a sqlite3 connection the
    caller closes). ``usage``: the read is usage-only (``replay --log ... --usage``),
    so a plain ledger of calls alone is summed per session by SQLite
    (:func:`_summed_read`), its calls never read one by one."""
    sqlite3 = sqlite()
    try:
        has = {str(r[1]) for r in db.execute("PRAGMA table_info(sessions)").fetchall()}
        if not has & {"model_config_json", "accumulated_input_tokens", "input_tokens"}:
            # A sessions and a messages table but none of Goose's columns: another
            # tool's database (the Go OpenCode's, sessions.prompt_tokens; nashory/
            # agent-cockpit's legacy OpenCode test, held out in round 8), not a Goose
            # one missing a column, as its message said.
            names = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
            tables = ", ".join(sorted(str(n[0]) for n in names)[:8])
            raise ScenarioError([Problem.coded("log", "log-unknown-database", tables=tables)])
        rows: list[Any] = db.execute(_query(has)).fetchall()
        summed = _summed_ledger(db) if usage else None
        ledger, costs = ({}, None) if summed is not None else _ledger(db)
    except sqlite3.Error as exc:
        raise ScenarioError(
            [
                Problem.coded(
                    "log",
                    "log-sqlite-unreadable-goose",
                    why=str(exc),
                )
            ]
        ) from None
    try:
        counted = dict(db.execute("SELECT session_id, COUNT(*) FROM messages GROUP BY session_id"))
    except sqlite3.Error:
        counted = {}
    if summed is not None:
        ledger_of: dict[object, list[Any]] = {sid: [pair] for sid, pair in summed.items()}
        values_of: dict[str, Decimal] = {}
        try:
            return tuple(
                _session(
                    shown,
                    values,
                    model=model,
                    created=created,
                    calls=[],
                    counted=counted,
                    costs=None,
                    summed=_summed_calls(calls[0] if calls else None, model, values_of),
                )
                for shown, values, model, created, calls in _each(rows, ledger_of, name)
            )
        except _ReadWhole:
            ledger, costs = _ledger(db)  # a session its sums cannot stand for: read whole
    return tuple(
        _session(
            shown, values, model=model, created=created, calls=calls, counted=counted, costs=costs
        )
        for shown, values, model, created, calls in _each(rows, ledger, name)
    )


def _each(
    rows: list[Any], ledger: dict[object, list[Any]], name: str
) -> Iterator[tuple[str, tuple[object, ...] | None, str | None, object, list[Any]]]:
    """Each session as shown, its row's values (None: no row), model, creation time and
    ledger rows: the ``sessions`` rows in their order, then the ledger's sessions whose
    row is gone (``ledger`` is emptied)."""
    # A config's model once: a database's sessions mostly share one config text, and
    # its JSON read cost a few µs a session (2,000 small sessions).
    models: dict[object, str | None] = {}
    for sid, config, created, *values in rows:
        if config not in models:
            models[config] = _model(config)
        yield f"{name}#{sid}", tuple(values), models[config], created, ledger.pop(sid, [])
    for sid in sorted(ledger, key=str):  # ledger rows whose session row is gone
        yield f"{name}#{sid}", None, None, None, ledger[sid]


def _ledger(db: Any) -> tuple[dict[object, list[Any]], dict[str | None, Decimal | None] | None]:
    """Each session's ledger rows, in the ledger's order (none before schema 15), and
    where they are :func:`_plain_query`'s (every row :func:`_plain`, every cost a
    number of dollars), each cost text's value; None: :func:`_ledger_query`'s."""
    has = {str(r[1]) for r in db.execute("PRAGMA table_info(usage_ledger)").fetchall()}
    if "session_id" not in has:
        return {}, None
    plain = _plain_rows(db, has)
    if plain is not None:
        return plain
    rows = db.execute(_ledger_query(has)).fetchall()
    return {sid: list(group) for sid, group in itertools.groupby(rows, itemgetter(1))}, None


def _plain(has: set[str]) -> str | None:
    """The SQL that tells whether every ledger row is plain, in one pass of aggregates
    (a condition per row cost SQLite about as long as reading the rows): each count
    NULL or a whole number from 0 to :data:`MAX_TOKENS`, each time whole epoch seconds
    below 10^11, each cost NULL or a number, ``is_compaction`` NULL or whole, ``id`` no
    text (the plain query leaves ``id`` and ``is_compaction`` unread: a text of them
    that the general read fails to decode must not pass). SQLite orders every text and
    blob after every number, so the largest value is one where any is; and a sum is an
    integer only where no value is a REAL, a text or a blob (and past 2^63 an error:
    not plain). 1: plain. None: a column the plain query needs is missing."""
    if not {"id", "created_timestamp"} <= has:
        return None
    counts = [f"ifnull({c}, 0)" for c in _LEDGER_COUNTS if c in has] or ["0"]
    most, least = (
        (f"max({', '.join(counts)})", f"min({', '.join(counts)})")
        if len(counts) > 1
        else (counts[0], counts[0])
    )
    checks = [
        f"ifnull(max({most}) <= {MAX_TOKENS} AND min({least}) >= 0, 1)",
        f"typeof(sum({' + '.join(counts)} + created_timestamp)) IN ('integer', 'null')",
        "count(created_timestamp) = count(*)",
        f"ifnull(min(created_timestamp) >= 0 AND max(created_timestamp) < {10**11}, 1)",
        "typeof(max(id)) IN ('integer', 'real', 'null')",
    ]
    if "cost" in has:
        checks.append("typeof(max(cost)) IN ('null', 'real', 'integer')")
    if "is_compaction" in has:
        checks.append("typeof(sum(is_compaction)) IN ('null', 'integer')")
    return f"SELECT {' AND '.join(checks)} FROM usage_ledger"


def _is_plain(db: Any, has: set[str]) -> bool:
    """Whether every ledger row is plain (:func:`_plain`), its ``cost_source`` texts
    decoded too."""
    where = _plain(has)
    if where is None:
        return False
    sqlite3 = sqlite()
    try:
        if db.execute(where).fetchone() != (1,):
            return False
    except sqlite3.Error:
        return False  # the general read meets it, and says so
    return _decodes(db, has)


def _decodes(db: Any, has: set[str]) -> bool:
    """Whether every ``cost_source`` decodes: the plain query tells a carried row in
    SQL, and a text that fails to decode fails the general read, which says so."""
    if "cost_source" not in has:
        return True
    try:
        db.execute("SELECT DISTINCT cost_source COLLATE BINARY FROM usage_ledger").fetchall()
    except sqlite().Error:
        return False
    return True


def _plain_query(has: set[str]) -> str:
    """Each row's session, counts (NULL as 0), model, time in ms, cost as SQLite's text
    and kind (:data:`_CALL` and the others), in :func:`_ledger_query`'s order."""
    counts = ", ".join(f"ifnull({c}, 0)" if c in has else "0" for c in _LEDGER_COUNTS)
    model = "model" if "model" in has else "NULL"
    cost = "CAST(cost AS TEXT)" if "cost" in has else "NULL"
    return (
        f"SELECT session_id, {counts}, {model}, created_timestamp * 1000, {cost}, "
        f"{_kind_sql(has)} FROM usage_ledger ORDER BY session_id, created_timestamp, id"
    )


def _kind_sql(has: set[str]) -> str:
    """A plain row's kind (:data:`_CALL` and the others), in SQL."""
    nothing = " AND ".join(f"ifnull({c}, 0) = 0" for c in _LEDGER_COUNTS if c in has) or "1"
    # No text but 'carried_forward' equals it (a number or a blob never does), as in
    # Python; every is_compaction is whole or NULL (:func:`_plain`).
    carried = f"cost_source = '{_CARRIED}' COLLATE BINARY" if "cost_source" in has else "0"
    compaction = "is_compaction <> 0" if "is_compaction" in has else "0"
    return (
        f"CASE WHEN {nothing} THEN {_ENTRY} WHEN {carried} THEN {_CARRIED_ROW} "
        f"WHEN {compaction} THEN {_COMPACTION} ELSE {_CALL} END"
    )


#: A plain row's kind: a call of the conversation, a row of no tokens (an entry), the
#: spend carried forward, a compaction's summary call (:func:`_calls`' order of tests).
_CALL, _ENTRY, _CARRIED_ROW, _COMPACTION = 0, 1, 2, 3


def _plain_rows(
    db: Any, has: set[str]
) -> tuple[dict[object, list[Any]], dict[str | None, Decimal | None]] | None:
    """:func:`_ledger`'s rows read by :func:`_plain_query`, where every row is plain
    (:func:`_plain`) and every cost a number of dollars: SQLite checks the rows and
    works out each one's kind, and only what a request holds is read into Python (the
    general read cost about 5 µs a row), and each distinct cost text's value. None: a
    row is not (the general read says which, and how), or a column the check needs is
    missing."""
    if not _is_plain(db, has):
        return None
    rows = db.execute(_plain_query(has)).fetchall()
    costs: dict[str | None, Decimal | None] = {None: None}
    for text in set(map(itemgetter(_COST), rows)) - {None}:
        cost = _cost("usage_ledger.cost", "real", text)
        if isinstance(cost, Problem):
            return None  # a cost that is no number of dollars: malformed, in its line
        costs[text] = cost
    return {sid: list(group) for sid, group in itertools.groupby(rows, itemgetter(0))}, costs


def _summed_ledger(db: Any) -> dict[object, tuple[Any, _Costs]] | None:
    """For a usage-only read: each session's ledger rows summed by SQLite
    (:func:`_summed_query`) with its costs (:data:`_Costs`), where every row is plain
    and a call, and every ``session_id`` a text grouped as Python tells texts apart
    (the table declares no collation). None: the calls are read (:func:`_ledger`)."""
    has = {str(r[1]) for r in db.execute("PRAGMA table_info(usage_ledger)").fetchall()}
    if not {"session_id", "id", "created_timestamp"} <= has:
        return None
    sqlite3 = sqlite()
    try:
        made = db.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'usage_ledger'"
        ).fetchone()
        if made is None or "collate" in str(made[0]).lower():
            return None
        rows = db.execute(_summed_query(has)).fetchall()
        if any(not isinstance(r[0], str) or r[1] != 1 or r[2] == _ODD for r in rows):
            return None
        if not _decodes(db, has):
            return None
        if any(r[2] == _SPLIT for r in rows):
            # A call whose cache counts exceed its input, or whose total holds
            # reasoning: each call's parts summed as _plain_calls makes them.
            rows = db.execute(_summed_query(has, split=True)).fetchall()
        texts: dict[object, str] = {}
        if not all(map(_one_text, rows)):
            # Every cost's text, summed in Python (SQLite's sum of REALs is a float;
            # a row per distinct cost sorted the ledger by it).
            texts = dict(
                db.execute(
                    "SELECT session_id, group_concat(CAST(cost AS TEXT), ' ') "
                    "FROM usage_ledger WHERE cost IS NOT NULL GROUP BY 1"
                ).fetchall()
            )
    except (sqlite3.Error, UnicodeDecodeError):
        return None  # a sum past SQLite's integers, a text that is no UTF-8: read them
    return {r[0]: (r[_SUMS:_COSTS], (*r[_COSTS : _COSTS + 3], texts.get(r[0]))) for r in rows}


#: A session's logged costs: the least and largest as text, how many, and every one's
#: text where they are not one (:func:`_one_text`).
_Costs = tuple[object, object, int, "str | None"]


def _one_text(row: Any) -> bool:
    """Whether a summed row's costs are one text (or none): least and largest (the
    text grows with the number), an integer's only where no REAL hides among them (1
    and 1.0 are equal in SQL, not in text): their sum is an integer. Integers among
    REALs of a text with a point add no places (3.0 + 3 is 6.0, as 2 x 3.0; an
    exponent's, 1.0e+15 up, is no amount)."""
    low, high, n, typed = row[_COSTS:]
    return not n or (low == high and (typed == "integer" or "." in str(low)))


#: A summed row's flag: its calls summed as they are, summed apart, or read.
_PLAIN, _SPLIT, _ODD = 0, 1, 2
#: Where a summed row (:func:`_summed_query`) holds its sums, and its costs.
_SUMS, _COSTS = 3, 16


def _summed_query(has: set[str], *, split: bool = False) -> str:
    """Per session: whether its types are plain (:func:`_plain`'s: a sum is an integer
    only where no value is a REAL, a text or a blob), its flag (:data:`_ODD`: a count
    or time out of range or no number, as texts and blobs sort after numbers, or a row
    not a call; :data:`_SPLIT`: a call's cache counts exceed its input or its total
    holds reasoning); its least and largest model, the calls naming one, the calls,
    the sums of what :func:`_plain_calls` makes of each and of the ledger's input,
    output and total, the largest context; its least and largest cost as text, the costs and
    their sum's type. The row checks are one CASE (an aggregate each cost as much
    again). Not ``split``: three parts as where no call is (the second query)."""
    named = [x for x in _LEDGER_COUNTS if x in has]
    f, o, t, c, w = (x if x in has else "0" for x in _LEDGER_COUNTS)
    nf, no, nt, nc, nw = (f"ifnull({x}, 0)" if x in has else "0" for x in _LEDGER_COUNTS)
    odd = [
        "created_timestamp IS NULL",
        f"NOT created_timestamp BETWEEN 0 AND {10**11 - 1}",
        *(f"NOT {x} BETWEEN 0 AND {MAX_TOKENS}" for x in named),
        f"NOT ifnull({' OR '.join(named) or 0}, 0)",  # a row of no tokens
    ]
    if "cost_source" in has:
        odd.append(f"cost_source = '{_CARRIED}' COLLATE BINARY")
    if "is_compaction" in has:
        odd.append("is_compaction <> 0")
    flag = (
        f"max(CASE WHEN {' OR '.join(odd)} THEN {_ODD} "
        f"WHEN {nf} < {nc} + {nw} OR {nt} > {nf} + {no} THEN {_SPLIT} ELSE {_PLAIN} END)"
    )
    time = "created_timestamp" + (" + ifnull(is_compaction, 0)" if "is_compaction" in has else "")
    typed = [f"typeof(sum({x})) IN ('integer', 'null')" for x in (*named, time)]
    typed.append("typeof(max(id)) IN ('integer', 'real', 'null')")
    if "cost" in has:
        typed.append("typeof(max(cost)) IN ('null', 'real', 'integer')")
    if split:
        fresh = f"CASE WHEN {nf} >= {nc} + {nw} THEN {nf} - {nc} - {nw} ELSE {nf} END"
        beyond = f"{nt} > {nf} + {no}"
        parts = (
            f"sum({fresh}), sum({nc}), sum({nw}), "
            f"sum(CASE WHEN {beyond} THEN {nt} - {nf} ELSE {no} END), "
            f"sum(CASE WHEN {beyond} THEN {nt} - {nf} - {no} ELSE 0 END)"
        )
        context = f"max({fresh} + {nc} + {nw})"
    else:
        sf, so, sc, sw = (f"ifnull(sum({x}), 0)" for x in (f, o, c, w))
        parts = f"{sf} - {sc} - {sw}, {sc}, {sw}, {so}, 0"
        context = f"ifnull(max({f}), 0)"
    model = "model" if "model" in has else "NULL"
    cost = "cost" if "cost" in has else "NULL"
    own = ", ".join(f"ifnull(sum({x}), 0)" for x in (f, o, t))
    return (
        f"SELECT session_id, {' AND '.join(typed)}, {flag}, min({model}), max({model}), "
        f"count({model}), count(*), {parts}, {own}, {context}, CAST(min({cost}) AS TEXT), "
        f"CAST(max({cost}) AS TEXT), count({cost}), typeof(sum({cost})) "
        "FROM usage_ledger GROUP BY 1 ORDER BY 1"
    )


class _ReadWhole(Exception):
    """A session's summed calls cannot stand for its calls: the ledger is read."""


def _summed_calls(
    summed: tuple[Any, _Costs] | None,
    model: str | None,
    values: dict[Any, Decimal],
) -> tuple[SummedCalls, list[int]] | None:
    """A session's summed row and costs (:func:`_summed_ledger`) as :class:`SummedCalls`
    and the ledger's sums (input, output, total, cache read, cache write); None: no
    ledger row. ``values``: each cost text's value, filled as met. Raises
    :class:`_ReadWhole` where its calls name more than one model (the order of their
    first calls would count), pay above the first price tier, or log a cost that is no
    amount or costs whose sum would round as :func:`_plain_calls` adds them."""
    if summed is None:
        return None
    row, priced = summed
    low, high, named, n, fresh, read, write, out, think, *own, context = row
    if named not in (0, n) or low != high:
        raise _ReadWhole
    final = _priced(low) or model
    if not base_tier(None if final is None else priced_model(final), context):
        raise _ReadWhole
    least, most, logged_n, texts = priced
    logged = Decimal(0)
    for text in (least, most) if logged_n else ():
        value = values.get(text)
        if value is None:
            found = _cost("usage_ledger.cost", "real", text)
            if not isinstance(found, Decimal):
                raise _ReadWhole  # the general read says which row, and why
            value = values[text] = found
        logged = MONEY.multiply(value, Decimal(logged_n))
    if texts is not None:
        logged = _summed_texts(texts)
    if len(logged.as_tuple().digits) > getcontext().prec:
        raise _ReadWhole  # its running sum would round in the default context
    parts = (fresh, write, 0, read, out, think)
    used = (fresh > 0, write > 0, read > 0, out > 0)
    calls = SummedCalls(n, final, parts, used, context=context, logged=logged, logged_n=logged_n)
    return calls, [*own, read, write]


def _summed_texts(texts: str) -> Decimal:
    """The exact sum of a session's costs (SQLite's texts, space-separated), where
    the least and largest are amounts of dollars (all are finite, 0 or more, in
    range). Raises :class:`_ReadWhole` where one may have too many places (the sum's
    exponent is the least of theirs: a cost of 0 is the least beside any)."""
    try:
        with localcontext(MONEY):
            total = sum(map(Decimal, texts.split(" ")), Decimal(0))
    except ArithmeticError:  # MONEY rounds: a tiny cost beside 0 and a large one
        raise _ReadWhole from None
    if int(total.as_tuple().exponent) < _DOLLAR_PLACES.start:
        raise _ReadWhole
    return total


#: Whether a cost is one (not None), in C: a cost of 0 is one, and its places count
#: in the sum's (0.00 + 0 is 0.00).
_known = partial(is_not, None)

#: Where a plain row holds its cost's text, and its kind.
_COST, _KIND = 8, 9

#: What stands for a row of no tokens among a session's calls (:func:`_hand_over` reads
#: only its kind).
_NO_CALL: Row = (0, 0, 0, 0, 0, None, None, None, 0, 0, None)


def _session(
    shown: str,
    values: tuple[object, ...] | None,
    *,
    model: str | None,
    created: object,
    calls: list[Any],
    counted: dict[object, int],
    costs: dict[str | None, Decimal | None] | None,
    summed: tuple[SummedCalls, list[int]] | None = None,
) -> ParsedLog:
    """One session: its row's ``values`` (the counts of :data:`_COUNTS`, then its cost's
    class and text; None: no row) and its ledger rows ``calls`` (plain rows where
    ``costs``, their cost texts' values, is given: :func:`_plain_rows`), or its calls
    ``summed`` for a usage-only read (:func:`_summed_calls`, with the ledger's sums)."""
    tally = Tally("goose")
    tally.open(shown)
    sums = [0] * 5  # the ledger's input, output, total, cache read, cache write
    start = 2 if values is not None else 1
    if summed is not None:
        tally.files[-1].lines += len(summed[0])
        sums = summed[1]
        logged = summed[0].logged
        calls = [summed]  # the session has ledger rows
    elif costs is None:
        logged = _calls(tally, calls, model, sums, start)
    else:
        logged = _plain_calls(tally, calls, model, sums, start, costs=costs)
    if values is not None:
        # A malformed ledger row leaves the ledger's sums unknown: no excess is billed
        # (it would bill that row's tokens through the session row).
        known = not tally.files[-1].malformed
        tally.record()  # the session row, line 1
        _row(
            tally,
            values,
            model=model,
            time=_time(created),
            sums=sums if calls else None,
            logged=logged,
            known=known,
        )
    sid = shown.rsplit("#", 1)[1]
    tally.records(
        int(counted.get(sid, 0)),
        "message (billed by the usage ledger)"
        if calls
        else "message (Goose keeps no usage per message)",
    )
    if tally.requests and all(series == SUMMED for _r, series, _n, _off in tally.requests):
        # Nothing to replay (spend carried forward alone), as a totals-only session.
        tally.totals_only = TOTALS_WHY
    if summed is None:
        return tally.session(shown)
    if tally.requests:
        raise _ReadWhole  # its row bills beyond the ledger: a series of its own
    log = tally.session(shown)
    # The calls as the main series (Tally.session's for them: one file, all on it).
    ledger = replace(log.ledger[0], requests=(("main", len(summed[0]), 0),))
    return replace(log, series=(LogSeries("main", summed[0], ()),), ledger=(ledger,))


def _counts(values: tuple[object, ...]) -> list[int] | Problem:
    """A ledger row's counts (NULL is 0), or the Problem of the first that is not a
    whole number (never read as 0)."""
    out = []
    for column, v in zip(_LEDGER_COUNTS, values, strict=True):
        if v is None:
            out.append(0)
        elif type(v) is int and 0 <= v <= MAX_TOKENS:  # the common case, first
            out.append(v)
        else:
            n = count_of(v)
            if n is None:
                return Problem.of(
                    f"usage_ledger.{column}", v, "log-line-count", high=bound_text(MAX_TOKENS)
                )
            out.append(n)
    return out


def _calls(
    tally: Tally, calls: list[Any], model: str | None, sums: list[int], start: int
) -> Decimal:
    """The ``usage_ledger`` rows of a session, from line ``start``: each a request, summed
    usage, an entry, or malformed; their counts added to ``sums``; their logged costs'
    sum."""
    tally.files[-1].lines += len(calls)
    file = tally.file
    logged = Decimal(0)
    read: list[Row] = []
    kinds: list[int] = []
    names: dict[object, str | None] = {}
    for line, row in enumerate(calls, start):
        _id, _sid, created, named, *values, source, compaction, kind, text = row
        counted = _counts(tuple(values))
        if isinstance(counted, Problem):
            tally.malformed(line, counted)
            continue
        cost = None if kind is None or kind == "null" else _cost("usage_ledger.cost", kind, text)
        if isinstance(cost, Problem):
            tally.malformed(line, cost)
            continue
        if cost is not None:
            logged += cost
        fresh, output, total, cached, write = counted
        for k, n in enumerate(counted):
            sums[k] += n
        if not (fresh or output or total or cached or write):
            read.append(_NO_CALL)
            kinds.append(_ENTRY)
            continue
        reasoning = total - fresh - output if total > fresh + output else 0
        if named not in names:  # each name resolved once a session
            names[named] = _priced(named)
        priced = names[named]
        at = created * 1000 if type(created) is int and 0 <= created < 10**11 else _time(created)
        read.append(
            (
                line,
                _split(fresh, cached, write),
                cached,
                output + reasoning,
                reasoning,
                priced or model,
                at,
                None,
                file,
                write,
                cost,
            )
        )
        kinds.append(
            _CARRIED_ROW
            if source == _CARRIED
            else _COMPACTION
            if isinstance(compaction, int) and compaction
            else _CALL
        )
    _hand_over(tally, read, kinds)
    return logged


def _plain_calls(
    tally: Tally,
    calls: list[Any],
    model: str | None,
    sums: list[int],
    start: int,
    *,
    costs: dict[str | None, Decimal | None],
) -> Decimal:
    """:func:`_calls` of plain rows (:func:`_plain_rows`: none malformed, each one's
    kind told by SQLite), summed and built column by column, with no check per row."""
    tally.files[-1].lines += len(calls)
    file = tally.file
    for k in range(5):
        sums[k] += sum(map(itemgetter(k + 1), calls))
    # Added in the rows' order, as :func:`_calls` adds them.
    known = filter(_known, map(costs.__getitem__, map(itemgetter(_COST), calls)))
    logged: Decimal = sum(cast("Iterator[Decimal]", known), Decimal(0))
    kinds = list(map(itemgetter(_KIND), calls))
    # Each name resolved once a session, as :func:`_calls` resolves them: a row of no
    # tokens' name never (its call stands for nothing).
    named_calls = (
        map(itemgetter(6), calls)
        if not any(kinds)
        else (row[6] for row, kind in zip(calls, kinds, strict=True) if kind != _ENTRY)
    )
    names = {named: _priced(named) for named in set(named_calls)}
    read: list[Row] = [
        (
            line,
            fresh - cached - write if fresh >= cached + write else fresh,
            cached,
            total - fresh if total > fresh + output else output,
            total - fresh - output if total > fresh + output else 0,
            names.get(named) or model,
            at,
            None,
            file,
            write,
            costs[text],
        )
        for line, (_sid, fresh, output, total, cached, write, named, at, text, _kind) in enumerate(
            calls, start
        )
    ]
    _hand_over(tally, read, kinds)
    return logged


def _hand_over(tally: Tally, calls: list[Row], kinds: list[int]) -> None:
    """Each of a session's calls by its kind: the conversation's handed over a run at a
    time (``Tally.requests_of``: a keyword call per call cost a microsecond), before
    anything that counts them."""
    if not any(kinds):  # the conversation's calls alone: at once
        tally.requests_of("main", calls)
        return
    pending: list[Row] = []
    for call, kind in zip(calls, kinds, strict=True):
        if kind == _CALL:
            pending.append(call)
        elif kind == _ENTRY:
            tally.entry(_NO_TOKENS)
        else:
            tally.requests_of("main", pending)
            pending = []
            line = call[0]
            if kind == _CARRIED_ROW:
                tally.billed_only(line, series=SUMMED, **_usage(call))
            else:
                tally.request(line, series=summary_series("main"), **_usage(call))
                tally.compaction(line, series="main", time=call[6])
    tally.requests_of("main", pending)


def _usage(call: Row) -> dict[str, Any]:
    """A :data:`Row`'s usage as ``Tally.request``'s keywords."""
    _line, fresh, read, output, reasoning, model, at, _node, _file, write, cost = call
    return {
        "input": fresh,
        "cache_read": read,
        "cache_write": write,
        "output": output,
        "reasoning": reasoning,
        "model": model,
        "time": at,
        "logged_cost": cost,
    }


def _row(
    tally: Tally,
    values: tuple[object, ...],
    *,
    model: str | None,
    time: int | None,
    sums: list[int] | None,
    logged: Decimal,
    known: bool = True,
) -> None:
    """The session's row (line 1): its totals (``sums`` None: no ledger row), or what
    they hold beyond the ledger's ``sums`` (``logged``: the ledger's logged cost; not
    ``known``: a ledger row was malformed, so nothing beyond is billed)."""
    counts_ = values[:-2]
    cost = _checked("sessions", _COUNTS, counts_, (values[-2], values[-1]))
    if isinstance(cost, Problem):
        tally.malformed(1, cost)
        return
    a_in, a_out, a_total, a_read, a_write, c_in, c_out, c_total, c_read, c_write = counts_
    fresh, (read, write) = _first((a_in, (a_read, a_write)), (c_in, (c_read, c_write)))
    output, _ = _first((a_out, ()), (c_out, ()))
    total, _ = _first((a_total, ()), (c_total, ()))
    if sums is not None and not known:
        tally.entry(_IN_LEDGER)
        return
    if sums is not None:
        # Goose's own totals are the larger of the row's and the ledger's, count by
        # count: what the row holds beyond the ledger is spend no row records.
        fresh, output, total, read, write = (
            max(0, n - s) for n, s in zip((fresh, output, total, read, write), sums, strict=True)
        )
        cost = cost - logged if cost is not None and cost > logged else None
    total = total or fresh + output
    reasoning = max(0, total - fresh - output)
    usage: dict[str, Any] = {
        "input": _split(fresh, read, write),
        "cache_read": read,
        "cache_write": write,
        "output": output + reasoning,
        "reasoning": reasoning,
        "model": model,
        "time": time,
        "logged_cost": cost,
    }
    if not (fresh or output or reasoning or read or write):
        tally.entry("session (no tokens)" if sums is None else _IN_LEDGER)
    elif sums is None:
        tally.total(1, why=TOTALS_WHY, **usage)
    else:
        tally.billed_only(1, series=SUMMED, **usage)
