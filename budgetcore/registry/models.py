"""Model contracts and prices from LiteLLM's maintained registry (docs/models-and-peers.md).

``budgetcore/data/models.json`` is extracted at build time by scripts/refresh-models
from pinned litellm wheels; its header records every release (version, wheel sha256,
member sha256). Per model: I = max_input_tokens, O = max_output_tokens, exact per-token
prices with their size tiers, 1-hour cache writes and service tiers, the API mode
(chat or responses), the deprecation date and, for a retired model, the older release
it comes from. q is the local adapter's choice, never the registry's: callers pass
``reserves_output`` (default True).

A name as a log, a link, a config or the CLI writes it maps to an entry through
:func:`resolve` only: the exact id, then a provider prefix, a date suffix and the
reviewed aliases, and nothing else (no match: no price, no contract).

Parsing is lazy and cached, and rows become :class:`RegistryModel` values only when
they are returned, so importing this module costs nothing at page boot.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache, partial
from itertools import accumulate, islice
from typing import TYPE_CHECKING, Any, NamedTuple

from budgetcore._shipped import shipped_bytes
from budgetcore.core.contracts import ModelContract
from budgetcore.errors import Problem, ScenarioError
from budgetcore.registry.prices import Prices

if TYPE_CHECKING:
    from budgetcore.registry.tiers import PriceTier

__all__ = [
    "DATA_FILE",
    "RESOLVED_KEPT",
    "Provenance",
    "Registry",
    "RegistryModel",
    "Release",
    "Resolution",
    "default_registry",
    "kept_prices",
    "lookup",
    "model_as_dict",
    "near_matches",
    "parse_registry",
    "per_million",
    "require",
    "resolve",
    "search",
    "still_named",
]

#: The data file inside the package (read with budgetcore._shipped).
DATA_FILE = "data/models.json"
_FORMAT = 2
_PRICE_COLUMNS = ("input", "output", "cache_read", "cache_write", "cache_write_1h")
_COLUMNS = ("name", "provider", "input_tokens", "output_tokens", *_PRICE_COLUMNS)
_SEPARATORS = re.compile(r"[\s\-_.:@/,]+")
#: A date suffix: -20250514, @20250514 (Vertex AI) or -2025-05-14 (OpenAI snapshots).
_DATED = r"(.+?)([-@])(20\d{6}|20\d{2}-\d{2}-\d{2})"
#: The service tiers the data file keeps (OpenAI's service_tier; LiteLLM bills "fast"
#: as priority).
SERVICE_TIERS = ("priority", "flex")


@dataclass(frozen=True, slots=True, kw_only=True)
class RegistryModel:
    """One model of the registry: its contract (with the caller's q) and prices."""

    name: str
    provider: str
    contract: ModelContract
    prices: Prices
    mode: str = "chat"  # "chat", or "responses" (OpenAI's Responses API only: Codex)
    deprecation: str | None = None  # LiteLLM's deprecation_date, YYYY-MM-DD
    retired: str | None = None  # the older release it comes from ("LiteLLM 1.103.6")
    service_tiers: tuple[tuple[str, Prices], ...] = ()  # ("priority", prices), ...

    def with_reserves_output(self, reserves_output: bool) -> RegistryModel:
        contract = dataclasses.replace(self.contract, reserves_output=reserves_output)
        return dataclasses.replace(self, contract=contract)

    def service_tier(self, name: str | None) -> Prices:
        """The prices of a service tier ("priority", "flex"); the standard prices for
        None, "default" or a tier this model does not list (as LiteLLM bills it)."""
        for tier, prices in self.service_tiers:
            if tier == name:
                return prices
        return self.prices


@dataclass(frozen=True, slots=True, kw_only=True)
class Release:
    """One pinned LiteLLM release the data file was extracted from."""

    package: str  # "litellm"
    version: str
    wheel: str  # the wheel's file name
    wheel_sha256: str
    member: str  # the JSON file inside the wheel
    member_sha256: str  # sha256 of that JSON, byte for byte
    entries: int  # entries in the source JSON
    models: tuple[str, ...] = ()  # for a retired release: the models taken from it

    @property
    def label(self) -> str:
        """Short human label, e.g. ``LiteLLM 1.110.2``."""
        name = "LiteLLM" if self.package == "litellm" else self.package
        return f"{name} {self.version}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Provenance:
    """Where the data file came from, as its header records it: the current release's
    fields, and the older releases its retired models come from."""

    package: str  # "litellm"
    version: str  # the pinned current release
    wheel: str
    wheel_sha256: str
    member: str
    member_sha256: str
    entries: int  # entries in the current release's JSON
    kept: int  # models from the current release
    dropped: tuple[tuple[str, int], ...]  # (reason, count) of left-out entries
    rows_sha256: str  # sha256 of the rows as compact JSON
    retired: tuple[Release, ...] = ()  # newest first
    retired_models: int = 0

    @property
    def label(self) -> str:
        """Short human label, e.g. ``LiteLLM 1.110.2``."""
        name = "LiteLLM" if self.package == "litellm" else self.package
        return f"{name} {self.version}"

    @property
    def models(self) -> int:
        """Every model of the file: the current release's and the retired ones."""
        return self.kept + self.retired_models


# The resolver's patterns are texts, compiled by ``re`` (and kept in its cache) when a
# name first needs them: most names resolve before, and compiling them at import was
# part of every log read's start-up (docs/performance.md, issue 40).
#: A separator between two digits of a version: ``5-1`` or ``5.1``.
_VERSION_JOINT = r"(?<=\d)[-.](?=\d)"
#: LiteLLM's Bedrock routes before a model id, as gateways write them (docs/models-and-
#: peers.md, "The resolver"), and the providers such an id must belong to.
_ROUTE = r"(?:bedrock/)?(?:converse|invoke)/(.+)|bedrock/(?!converse/|invoke/)(.+)"
_BEDROCK = frozenset({"bedrock", "bedrock_converse"})
_MAX_JOINTS = 4  # 2^4 spellings at most


def _separator_variants(name: str) -> list[str]:
    """``name`` with one or more of its version joints' ``-`` and ``.`` swapped (not the
    name itself); none past :data:`_MAX_JOINTS` joints."""
    joints = [m.start() for m in re.finditer(_VERSION_JOINT, name)]
    if not joints or len(joints) > _MAX_JOINTS:
        return []
    out = []
    for mask in range(1, 1 << len(joints)):
        chars = list(name)
        for bit, at in enumerate(joints):
            if mask >> bit & 1:
                chars[at] = "." if chars[at] == "-" else "-"
        out.append("".join(chars))
    return out


def _norm(text: str) -> str:
    """Lower case, every run of separators one space: ``Sonnet 4.5`` ~ ``sonnet-4-5``."""
    return _SEPARATORS.sub(" ", text.lower()).strip()


def _starts_words(typed: str, name: str) -> bool:
    """Whether every word of ``typed`` starts a word of ``name`` (``sonnet 4.5``,
    ``claude-sonnet-4-5``), or ``typed`` without separators starts at one of its words
    (``GPT5``, ``gpt-5``). A search hit may run across words and providers: "nope" is in
    "baseten/openai" and "argon" + "opencode", no near match of it (the eighth walk).

    >>> _starts_words("sonnet 4.5", "claude-sonnet-4-5"), _starts_words("GPT5", "gpt-5")
    (True, True)
    >>> _starts_words("nope", "baseten/openai/gpt-oss-120b")
    False
    """
    words = _norm(name).split()
    wanted = _norm(typed).split()
    if not wanted:
        return False
    if all(any(w.startswith(x) for w in words) for x in wanted):
        return True
    flat, joined = "".join(wanted), "".join(words)
    return any(joined.startswith(flat, i) for i in accumulate(map(len, words[:-1]), initial=0))


def _tail(name: str) -> str:
    return name.rsplit("/", 1)[-1]


Raw = tuple[str | None, str | None, str | None, str | None, str | None]


class _Row(NamedTuple):
    """One model of the file, as stored (a NamedTuple: 6,688 of them are built at every
    start, and a frozen dataclass took several times as long to build)."""

    name: str
    provider: str
    input_tokens: int
    output_tokens: int
    prices: Raw
    extra: Mapping[str, Any] | None  # mode, tiers, service tiers, deprecation, retired


#: A row from its six values in field order, in one C call.
_new_row = partial(tuple.__new__, _Row)
_NO_PRICES = (None,) * 5


def _row_of(raw: Sequence[Any], providers: Sequence[str]) -> _Row:
    """A row of the file (name, provider, I, O, up to five prices, then any extra)."""
    extra = raw[-1]
    end = -1
    if type(extra) is not dict:
        extra, end = None, len(raw)
    prices = (*raw[4:end][:5], *_NO_PRICES)[:5]
    return _new_row((raw[0], providers[raw[1]], raw[2], raw[3], prices, extra))


def _decoded(line: str) -> Any:
    return json.loads(line.removesuffix(","), parse_float=Decimal)


class _Rows(Mapping[str, _Row]):
    """The file's rows by name, each decoded and made a :class:`_Row` when first asked
    for. A log's replay looks up the few models it names, where decoding and making all
    3,344 rows was 64 M instructions, about 15 % of a one-session import
    (docs/performance.md); a search or a picker makes them all, in one decode."""

    __slots__ = ("_all", "_every", "_made", "_providers", "_raw")

    def __init__(
        self,
        raw: Mapping[str, str | list[Any]],
        every: Sequence[str] | Sequence[list[Any]],
        providers: Sequence[str],
    ) -> None:
        self._raw = raw  # name -> its line of the file, or its row already decoded
        self._every = every  # every row in the file's order, the same kind of value
        self._providers = providers
        self._made: dict[str, _Row] = {}
        self._all: tuple[_Row, ...] | None = None

    def __getitem__(self, name: str) -> _Row:
        row = self._made.get(name)
        if row is None:
            raw = self._raw[name]
            row = _row_of(_decoded(raw) if type(raw) is str else raw, self._providers)
            self._made[name] = row
        return row

    def __contains__(self, name: object) -> bool:
        return name in self._raw

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)

    def every(self) -> tuple[_Row, ...]:
        """Every row, in the file's order."""
        if self._all is None:
            every: Sequence[Any] = self._every
            if every and type(every[0]) is str:  # one decode for them all
                every = _decoded("[" + ",".join(r.removesuffix(",") for r in every) + "]")
            self._all = tuple(_row_of(r, self._providers) for r in every)
        return self._all


#: A row's search keys, made on the first search (a lookup or resolve needs none): the
#: normalised name and provider, the normalised last path segment of the name, and the
#: first without separators ("GPT5" finds gpt-5). A plain tuple, not a NamedTuple class:
#: making the class was part of every log read's start-up, which never searches.
_Keys = tuple[str, str, str]


def _keys_of(row: _Row) -> _Keys:
    key = _norm(f"{row.name} {row.provider}")
    return key, _norm(_tail(row.name)), key.replace(" ", "")


def _price(text: str | Decimal | None) -> Decimal | None:
    return None if text is None else Decimal(text)


def _tiers(raw: Sequence[Sequence[Any]] | None) -> tuple[PriceTier, ...]:
    if not raw:
        return ()
    from budgetcore.registry.tiers import PriceTier  # noqa: PLC0415 - a model with tiers

    out = []
    for tier in raw:
        above, *prices = tier
        p = [*prices, None, None, None, None, None][:5]
        out.append(
            PriceTier(
                above=above,
                input=_price(p[0]),
                output=_price(p[1]),
                cache_read=_price(p[2]),
                cache_write=_price(p[3]),
                cache_write_1h=_price(p[4]),
            )
        )
    return tuple(out)


def _prices(raw: Sequence[Any], tiers: Sequence[Sequence[Any]] | None) -> Prices:
    p = [*raw, None, None, None, None, None][:5]
    return Prices(
        input=_price(p[0]),
        output=_price(p[1]),
        cache_read=_price(p[2]),
        cache_write=_price(p[3]),
        cache_write_1h=_price(p[4]),
        tiers=_tiers(tiers),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Resolution:
    """How a model name as a log, a link, a config or the CLI wrote it maps to a
    registry entry: the entry (None: no match, so no price and no contract), the steps
    that matched ("exact", "provider prefix", "date suffix", "alias"), shown to the
    user beside the name, and for an alias where it comes from."""

    name: str  # as written
    model: RegistryModel | None
    how: str  # "exact", or the steps joined by " + "; "none" when nothing matched
    steps: tuple[str, ...] = ()
    source: str | None = None  # an alias's provenance (scripts/model-aliases.txt)

    @property
    def matched(self) -> str | None:
        """The registry name chosen (None when nothing matched)."""
        return None if self.model is None else self.model.name

    @property
    def exact(self) -> bool:
        return self.how == "exact"


#: The most names one registry keeps resolved (:meth:`Registry.resolve`): a folder
#: names a few models, but the page's picker resolves each text typed into it.
RESOLVED_KEPT = 1_000


@dataclass(frozen=True, slots=True)
class Registry:
    """The parsed data file: provenance and rows, with lookup, search and resolve. Two
    registries of one provenance (which holds the rows' sha256) searching the same rows
    are equal."""

    provenance: Provenance
    _index: _Rows = field(compare=False, repr=False)
    aliases: Mapping[str, tuple[str, str]] = field(default_factory=dict, compare=False)
    # Every provider name: what a "provider/" prefix may be (see resolve).
    providers: frozenset[str] = field(default=frozenset(), compare=False, repr=False)
    # Each row's search keys by name, filled on the first search (start-up, docs/replay.md
    # "Speed"); shared with the registries :meth:`within` makes.
    _search: dict[str, _Keys] = field(default_factory=dict, compare=False, repr=False)
    # The rows a narrowed picker search looks in (:meth:`within`); None: every row.
    _within: tuple[_Row, ...] | None = field(default=None, repr=False)
    # Each name's resolution by (name, reserves_output), made on its first call: a
    # folder resolves the same few names once per session, and each resolution builds
    # its model's prices anew (docs/performance.md, issue 40's per-session round).
    # Frozen values, so one made once serves every caller; shared with :meth:`within`.
    _resolved: dict[tuple[str, bool], Resolution] = field(
        default_factory=dict, compare=False, repr=False
    )

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def rows(self) -> tuple[_Row, ...]:
        """The rows this registry searches, in the file's order (every row, made on the
        first call, unless :meth:`within` narrowed them)."""
        return self._index.every() if self._within is None else self._within

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.rows)

    def within(self, rows: tuple[_Row, ...]) -> Registry:
        """The same registry searching only ``rows`` (a narrowed picker search); names
        still resolve against every model."""
        return Registry(
            self.provenance,
            self._index,
            self.aliases,
            self.providers,
            self._search,
            rows,
            self._resolved,
        )

    def _release(self, index: int) -> str:
        return self.provenance.retired[index - 1].label

    def _model(self, row: _Row, reserves_output: bool) -> RegistryModel:
        extra = row.extra or {}
        retired = extra.get("retired")
        return RegistryModel(
            name=row.name,
            provider=row.provider,
            contract=ModelContract(
                input_tokens=row.input_tokens,
                output_tokens=row.output_tokens,
                reserves_output=reserves_output,
            ),
            prices=_prices(row.prices, extra.get("tiers")),
            mode=extra.get("mode", "chat"),
            deprecation=extra.get("deprecation"),
            retired=None if retired is None else self._release(retired),
            service_tiers=tuple(
                (tier, _prices(extra[tier][:5], (extra[tier][5:] or [None])[0]))
                for tier in SERVICE_TIERS
                if tier in extra
            ),
        )

    def lookup(self, name: str, *, reserves_output: bool = True) -> RegistryModel | None:
        """The model of exactly this name (LiteLLM's spelling), or None."""
        row = self._index.get(name)
        return None if row is None else self._model(row, reserves_output)

    def resolve(self, name: str, *, reserves_output: bool = True) -> Resolution:
        """The registry entry a written model name stands for, by these steps only, the
        first that finds a model winning (docs/models-and-peers.md, "The resolver"):

        1. exact: the name is a registry id;
        2. provider prefix: ``anthropic/claude-sonnet-4-5`` is ``claude-sonnet-4-5``
           when that model's provider is ``anthropic`` (never another provider's);
        3. date suffix: ``claude-sonnet-4-5@20250929`` is ``claude-sonnet-4-5-20250929``,
           else the undated ``claude-sonnet-4-5``;
        4. alias: the reviewed table (``claude-sonnet-4`` is ``claude-sonnet-4-20250514``),
           for the name and for its undated form;
        5. version separator: a version's ``-`` written for the registry's ``.`` or the
           other way round (``gpt-5-1-codex`` is ``gpt-5.1-codex``), for the name and for
           its undated form, when exactly one registry id is written so;
        6. route prefix: LiteLLM's Bedrock routes (``converse/``, ``invoke/``, after an
           optional ``bedrock/``) or ``bedrock/`` alone, before a Bedrock model's id
           (``converse/jp.anthropic.claude-haiku-4-5-20251001-v1:0``), the rest resolved
           by these steps.

        No match is ``how="none"`` and no model: no price and no contract, never a guess.
        """
        key = (name, reserves_output)
        hit = self._resolved.get(key)
        if hit is None:
            hit = self._resolve(name, reserves_output)
            if len(self._resolved) < RESOLVED_KEPT:  # the page resolves what is typed
                self._resolved[key] = hit
        return hit

    def _resolve(self, name: str, reserves_output: bool) -> Resolution:
        index = self._index

        def found(
            target: str, steps: tuple[str, ...], source: str | None = None
        ) -> Resolution | None:
            row = index.get(target)
            if row is None or (guard is not None and row.provider != guard):
                return None
            model = self._model(row, reserves_output)
            how = "exact" if not steps else " + ".join(steps)
            return Resolution(name=name, model=model, how=how, steps=steps, source=source)

        guard: str | None = None
        hit = found(name, ())
        if hit is not None:
            return hit
        base = name
        prefix: tuple[str, ...] = ()
        head, slash, rest = name.partition("/")
        if slash and rest and head in self.providers:
            guard, base, prefix = head, rest, ("provider prefix",)
            hit = found(base, prefix)
            if hit is not None:
                return hit
        tries: list[tuple[str, tuple[str, ...]]] = []
        dated = re.fullmatch(_DATED, base)
        undated = None
        if dated is not None:
            stem, sep, date = dated.groups()
            if sep == "@" and len(date) == 8:
                tries.append((f"{stem}-{date}", (*prefix, "date suffix")))
            undated = stem
            tries.append((stem, (*prefix, "date suffix")))
        for target, steps in tries:
            hit = found(target, steps)
            if hit is not None:
                return hit
        forms = ((base, prefix), (undated, (*prefix, "date suffix")))
        for written, steps in forms:
            alias = self.aliases.get(written) if written is not None else None
            if alias is not None:
                hit = found(alias[0], (*steps, "alias"), alias[1])
                if hit is not None:
                    return hit
        for written, steps in forms:
            if written is None:
                continue
            hits = {v for v in _separator_variants(written) if v in index}
            if len(hits) == 1:  # two ids written so: which one is meant is a guess
                hit = found(hits.pop(), (*steps, "version separator"))
                if hit is not None:
                    return hit
        route = re.fullmatch(_ROUTE, name)
        if route is not None:
            inner = self.resolve(route.group(1) or route.group(2), reserves_output=reserves_output)
            if inner.model is not None and inner.model.provider in _BEDROCK:
                steps = ("route prefix", *inner.steps)
                return Resolution(
                    name=name,
                    model=inner.model,
                    how=" + ".join(steps),
                    steps=steps,
                    source=inner.source,
                )
        return Resolution(name=name, model=None, how="none")

    def search(
        self, query: str, limit: int | None = 20, *, reserves_output: bool = True
    ) -> tuple[RegistryModel, ...]:
        """Models matching every word of ``query``, best first (see :meth:`matches`)."""
        rows = self.matches(query)
        rows = rows if limit is None else rows[:limit]
        return tuple(self._model(r, reserves_output) for r in rows)

    def matches(self, query: str) -> tuple[_Row, ...]:
        """Rows whose name or provider contains every word of the query, ignoring case
        and separators (``sonnet 4.5`` finds ``claude-sonnet-4-5``), or contains the
        query with no separators at all (``GPT5`` finds ``gpt-5``). Ranked: the exact
        name, the same name in another case, the name without its provider path, names
        that start with the query, names that contain it in one piece, then the rest;
        within a rank, current models before retired ones, shorter names first, then
        alphabetical. An empty query lists every model."""
        q = _norm(query)
        if not q:
            return self.rows
        words = q.split()
        flat = q.replace(" ", "")
        exact = query.strip()
        ranked: list[tuple[int, bool, int, str, _Row]] = []
        search = self._search
        if len(search) < len(self._index):
            search.update((r.name, _keys_of(r)) for r in self._index.every())
        for row in self.rows:
            key, tail, row_flat = search[row.name]
            if not all(w in key for w in words) and flat not in row_flat:
                continue
            if row.name == exact:
                rank = 0
            elif row.name.lower() == exact.lower():
                rank = 1
            elif tail == q or tail.replace(" ", "") == flat:
                rank = 2
            elif key.startswith(q) or tail.startswith(q) or row_flat.startswith(flat):
                rank = 3
            elif q in key or flat in row_flat:
                rank = 4
            else:
                rank = 5
            retired = row.extra is not None and "retired" in row.extra
            ranked.append((rank, retired, len(row.name), row.name, row))
        ranked.sort(key=lambda item: item[:4])
        return tuple(item[4] for item in ranked)

    def near_matches(self, name: str, n: int = 5) -> tuple[str, ...]:
        """Names close to an unknown one: same name in another case first, then search
        hits where what was typed starts the name's words (:func:`_starts_words`), then
        difflib's closest spellings."""
        out: list[str] = []
        low = name.lower()
        out += [r.name for r in self.rows if r.name.lower() == low]
        hits = (r.name for r in self.matches(name) if _starts_words(name, r.name))
        out += list(islice(hits, n))
        lowered = {r.name.lower(): r.name for r in self.rows}
        import difflib  # noqa: PLC0415 - only an unknown name needs it

        out += [lowered[m] for m in difflib.get_close_matches(low, list(lowered), n=n, cutoff=0.6)]
        unique = tuple(dict.fromkeys(x for x in out if x != name))
        return unique[:n]

    def require_resolved(
        self, name: object, path: str, *, reserves_output: bool = True
    ) -> Resolution:
        """The resolution of ``name`` (see :meth:`resolve`), or a ScenarioError at
        ``path`` listing near matches when it is not a name or matches nothing."""
        if not isinstance(name, str) or not name:
            raise ScenarioError([Problem.of(path, name, "model-name")])
        found = self.resolve(name, reserves_output=reserves_output)
        if found.model is not None:
            return found
        near = self.near_matches(name)
        release = self.provenance.label
        raise ScenarioError(
            [
                Problem.of(path, name, "unknown-model", release=release, near=tuple(near))
                if near
                else Problem.of(path, name, "unknown-model-none", release=release)
            ]
        )

    def require(self, name: object, path: str, *, reserves_output: bool = True) -> RegistryModel:
        """The model ``name`` resolves to, or a ScenarioError at ``path`` listing near
        matches."""
        model = self.require_resolved(name, path, reserves_output=reserves_output).model
        assert model is not None  # require_resolved raises otherwise
        return model


def _release(raw: Mapping[str, Any]) -> Release:
    return Release(
        package=raw["package"],
        version=raw["version"],
        wheel=raw["wheel"],
        wheel_sha256=raw["wheel_sha256"],
        member=raw["member"],
        member_sha256=raw["member_sha256"],
        entries=raw["entries"],
        models=tuple(raw.get("models", ())),
    )


#: Where scripts/refresh_models.py's layout puts the rows: after the header's keys, one
#: row a line, the last key of the file.
_ROWS_START = ',\n"rows":[\n'
_ROWS_END = "\n]}"


def _laid_out(text: str | bytes) -> tuple[Any, dict[str, str], list[str]] | None:
    """The header decoded, and the rows' lines undecoded (by name, and all of them in
    order), when ``text`` is laid out as scripts/refresh_models.py writes it and no row
    holds an escape: a name is then its line's first string, read without decoding the
    rest. None for any other text, which is decoded whole. JSON strings hold no raw line
    break, so the markers can only be the file's own."""
    if isinstance(text, bytes):
        if not text.startswith(b"{"):  # UTF-16 or -32, which json.loads also reads
            return None
        text = text.decode("utf-8")
    start = text.find(_ROWS_START)
    end = text.rfind(_ROWS_END)
    if start < 0 or end < start or text[end + len(_ROWS_END) :].strip():
        return None
    body = text[start + len(_ROWS_START) : end]
    lines = body.split("\n")
    if "\\" in body or not body.startswith('["') or body.count('\n["') != len(lines) - 1:
        return None
    names = [line[2 : line.find('"', 2)] for line in lines]
    header = json.loads(text[:start] + "}", parse_float=Decimal)
    return header, dict(zip(names, lines, strict=True)), lines


def parse_registry(text: str | bytes) -> Registry:
    """Parse the data file's text (the page may fetch it separately). Raises ValueError
    when the file is not the format this module reads. The rows are decoded when a model
    is asked for (:class:`_Rows`); a file laid out otherwise is decoded whole."""
    # Prices are strings in the file; a float slipped in by hand would still stay exact.
    laid_out = _laid_out(text)
    if laid_out is not None:
        data, by_name, lines = laid_out
    else:
        data = json.loads(text, parse_float=Decimal)
    if not isinstance(data, dict) or data.get("format") != _FORMAT:
        raise ValueError(f"model registry: format must be {_FORMAT}")
    if tuple(data["columns"]) != _COLUMNS:
        raise ValueError(f"model registry: columns must be {list(_COLUMNS)}")
    current, *older = (_release(s) for s in data["sources"])
    sel = data["selection"]
    provenance = Provenance(
        package=current.package,
        version=current.version,
        wheel=current.wheel,
        wheel_sha256=current.wheel_sha256,
        member=current.member,
        member_sha256=current.member_sha256,
        entries=current.entries,
        kept=sel["kept"],
        dropped=tuple((str(k), int(v)) for k, v in sel["dropped"].items()),
        rows_sha256=data["rows_sha256"],
        retired=tuple(older),
        retired_models=sel["retired"],
    )
    providers: Sequence[str] = data["providers"]
    if laid_out is not None:
        index = _Rows(by_name, lines, providers)
    else:
        raws: list[list[Any]] = data["rows"]
        index = _Rows({raw[0]: raw for raw in raws}, raws, providers)
    aliases = {a: (t, src) for a, t, src in data.get("aliases", ())}
    return Registry(provenance, index, aliases, frozenset(providers))


@cache
def default_registry() -> Registry:
    """The registry shipped in the package (parsed once, on first use)."""
    return parse_registry(shipped_bytes(DATA_FILE))


def still_named(model: RegistryModel | None, contract: ModelContract | None) -> bool:
    """THE rule for "is this contract still that registry model's": its O is the model's
    and its I is the model's window or a smaller one, the window a runtime runs it at
    (docs/spec.md §17: the as-run window is the runtime's, not the registry's API
    maximum; Claude Code runs claude-opus-4-7, 1,000,000 in the registry, at 200,000, and
    Codex gpt-5.1-codex at 272,000 of the API's 400,000). q is the local adapter's, not
    the model's. A larger I, or another O, is no longer that model: "custom", no name,
    no prices. The scenario's names (``Scenario.main_model_name``), the page's pickers
    and link, and the prices a replay bills at all ask this one function; a window below
    the registry's is said where the name is (the runtime export's header, the picker)."""
    if model is None or contract is None:
        return False
    return (
        contract.output_tokens == model.contract.output_tokens
        and contract.input_tokens <= model.contract.input_tokens
    )


def kept_prices(model: RegistryModel | None, contract: ModelContract | None) -> Prices | None:
    """A chosen registry model's prices while ``contract`` is still that model's
    (:func:`still_named`); edited by hand ("custom"), none: the replay and Tune bill at
    them, the page and ``replay --fragment`` alike."""
    return model.prices if model is not None and still_named(model, contract) else None


def lookup(name: str, *, reserves_output: bool = True) -> RegistryModel | None:
    """The shipped registry's model of exactly this name, or None."""
    return default_registry().lookup(name, reserves_output=reserves_output)


def search(query: str, limit: int | None = 20) -> tuple[RegistryModel, ...]:
    """The shipped registry's models matching ``query``, best first."""
    return default_registry().search(query, limit)


def near_matches(name: str, n: int = 5) -> tuple[str, ...]:
    """Names of the shipped registry close to an unknown one."""
    return default_registry().near_matches(name, n)


def require(name: object, path: str, *, reserves_output: bool = True) -> RegistryModel:
    """The shipped registry's model ``name`` resolves to, or a ScenarioError naming
    ``path``."""
    return default_registry().require(name, path, reserves_output=reserves_output)


def resolve(name: str, registry: Registry | None = None) -> Resolution:
    """The registry entry a written model name stands for (the shipped registry unless
    one is given): see :meth:`Registry.resolve`.

    >>> r = resolve("anthropic/claude-sonnet-4.5")
    >>> r.matched, r.how
    ('claude-sonnet-4-5', 'provider prefix + alias')
    >>> resolve("claude-sonnet-4-5@20250929").matched
    'claude-sonnet-4-5-20250929'
    >>> resolve("some-local-model").model is None
    True
    """
    reg = default_registry() if registry is None else registry
    return reg.resolve(name)


# ---------------------------------------------------------------- outputs


def per_million(price: Decimal | None) -> str:
    """A per-token price as money per 1,000,000 tokens, exact (a decimal shift only).

    >>> per_million(Decimal("0.00000375")), per_million(Decimal("3E-7")), per_million(None)
    ('3.75', '0.3', '-')
    """
    return "-" if price is None else format(price.scaleb(6), "f")


def _text(price: Decimal | None) -> str | None:
    return None if price is None else format(price, "f")  # 0.0000003, not 3E-7


def _prices_dict(p: Prices) -> dict[str, Any]:
    return {
        "input": _text(p.input),
        "output": _text(p.output),
        "cache_read": _text(p.cache_read),
        "cache_write": _text(p.cache_write),
        "cache_write_1h": _text(p.cache_write_1h),
    }


def _tiers_list(p: Prices) -> list[dict[str, Any]]:
    return [
        {
            "above": t.above,
            "input": _text(t.input),
            "output": _text(t.output),
            "cache_read": _text(t.cache_read),
            "cache_write": _text(t.cache_write),
            "cache_write_1h": _text(t.cache_write_1h),
        }
        for t in p.tiers
    ]


def model_as_dict(model: RegistryModel, resolution: Resolution | None = None) -> dict[str, Any]:
    """JSON-ready: contract and per-token prices as exact decimal strings (null if
    absent); the size tiers (a request whose context is strictly above ``above`` pays
    that tier; a null price is the base one), service tiers, mode, deprecation and, for
    a retired model, its release. With ``resolution``: the name as written and how it
    matched."""
    p = model.prices
    out: dict[str, Any] = {
        "name": model.name,
        "provider": model.provider,
        "mode": model.mode,
        "input_tokens": model.contract.input_tokens,
        "output_tokens": model.contract.output_tokens,
        "prices_per_token": _prices_dict(p),
        "tiers": _tiers_list(p),
        "service_tiers": {
            name: {**_prices_dict(sp), "tiers": _tiers_list(sp)} for name, sp in model.service_tiers
        },
        "deprecation_date": model.deprecation,
        "retired": model.retired,
    }
    if resolution is not None:
        out["resolved"] = {
            "written": resolution.name,
            "how": resolution.how,
            "source": resolution.source,
        }
    return out
