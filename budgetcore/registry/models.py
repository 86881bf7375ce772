"""Model contracts and prices from LiteLLM's maintained registry (SPEC §13).

``budgetcore/data/models.json`` is extracted at build time by scripts/refresh-models
from a pinned litellm wheel; its header records the release and the sha256 of the
source JSON. Per chat model: I = max_input_tokens, O = max_output_tokens, and exact
per-token prices. q is the local adapter's choice, never the registry's: callers pass
``reserves_output`` (default True).

Parsing is lazy and cached, and rows become :class:`RegistryModel` values only when
they are returned, so importing this module costs nothing at page boot.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from importlib import resources
from typing import Any

from budgetcore.core.contracts import ModelContract
from budgetcore.errors import Problem, ScenarioError
from budgetcore.registry.prices import Prices

__all__ = [
    "DATA_FILE",
    "Picks",
    "Provenance",
    "Registry",
    "RegistryModel",
    "Resolution",
    "default_registry",
    "lookup",
    "model_as_dict",
    "near_matches",
    "parse_registry",
    "per_million",
    "picks",
    "render_models",
    "require",
    "resolve",
    "search",
]

#: The data file inside the package (read with importlib.resources).
DATA_FILE = "data/models.json"
_FORMAT = 1
_COLUMNS = (
    "name",
    "provider",
    "input_tokens",
    "output_tokens",
    "input",
    "output",
    "cache_read",
    "cache_write",
)
_SEPARATORS = re.compile(r"[\s\-_.:@/,]+")


@dataclass(frozen=True, slots=True, kw_only=True)
class RegistryModel:
    """One chat model of the registry: its contract (with the caller's q) and prices."""

    name: str
    provider: str
    contract: ModelContract
    prices: Prices

    def with_reserves_output(self, reserves_output: bool) -> RegistryModel:
        contract = dataclasses.replace(self.contract, reserves_output=reserves_output)
        return dataclasses.replace(self, contract=contract)


@dataclass(frozen=True, slots=True, kw_only=True)
class Provenance:
    """Where the data file came from, as its header records it."""

    package: str  # "litellm"
    version: str  # the pinned release
    wheel: str  # the wheel's file name
    wheel_sha256: str
    member: str  # the JSON file inside the wheel
    member_sha256: str  # sha256 of that JSON, byte for byte
    entries: int  # entries in the source JSON
    kept: int  # chat models in the data file
    dropped: tuple[tuple[str, int], ...]  # (reason, count) of left-out entries
    rows_sha256: str  # sha256 of the rows as compact JSON

    @property
    def label(self) -> str:
        """Short human label, e.g. ``LiteLLM 1.110.2``."""
        name = "LiteLLM" if self.package == "litellm" else self.package
        return f"{name} {self.version}"


def _norm(text: str) -> str:
    """Lower case, every run of separators one space: ``Sonnet 4.5`` ~ ``sonnet-4-5``."""
    return _SEPARATORS.sub(" ", text.lower()).strip()


def _tail(name: str) -> str:
    return name.rsplit("/", 1)[-1]


@dataclass(frozen=True, slots=True)
class _Row:
    name: str
    provider: str
    input_tokens: int
    output_tokens: int
    prices: tuple[str | None, str | None, str | None, str | None]
    key: str  # normalised name + provider, for search
    tail: str  # normalised last path segment of the name


def _price(text: str | Decimal | None) -> Decimal | None:
    return None if text is None else Decimal(text)


@dataclass(frozen=True, slots=True)
class Registry:
    """The parsed data file: provenance and rows, with lookup and search."""

    provenance: Provenance
    rows: tuple[_Row, ...]
    _index: dict[str, int] = field(compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.rows)

    @staticmethod
    def _model(row: _Row, reserves_output: bool) -> RegistryModel:
        inp, out, read, write = row.prices
        return RegistryModel(
            name=row.name,
            provider=row.provider,
            contract=ModelContract(
                input_tokens=row.input_tokens,
                output_tokens=row.output_tokens,
                reserves_output=reserves_output,
            ),
            prices=Prices(
                input=_price(inp),
                output=_price(out),
                cache_read=_price(read),
                cache_write=_price(write),
            ),
        )

    def lookup(self, name: str, *, reserves_output: bool = True) -> RegistryModel | None:
        """The model of exactly this name (LiteLLM's spelling), or None."""
        i = self._index.get(name)
        return None if i is None else self._model(self.rows[i], reserves_output)

    def search(
        self, query: str, limit: int | None = 20, *, reserves_output: bool = True
    ) -> tuple[RegistryModel, ...]:
        """Models matching every word of ``query``, best first (see :meth:`matches`)."""
        rows = self.matches(query)
        rows = rows if limit is None else rows[:limit]
        return tuple(self._model(r, reserves_output) for r in rows)

    def matches(self, query: str) -> tuple[_Row, ...]:
        """Rows whose name or provider contains every word of the query, ignoring case
        and separators (``sonnet 4.5`` finds ``claude-sonnet-4-5``). Ranked: the exact
        name, the same name in another case, the name without its provider path, names
        that start with the query, names that contain it in one piece, then the rest;
        within a rank, shorter names first, then alphabetical. An empty query lists
        every model."""
        q = _norm(query)
        if not q:
            return self.rows
        words = q.split()
        exact = query.strip()
        ranked: list[tuple[int, int, str, _Row]] = []
        for row in self.rows:
            if not all(w in row.key for w in words):
                continue
            if row.name == exact:
                rank = 0
            elif row.name.lower() == exact.lower():
                rank = 1
            elif row.tail == q:
                rank = 2
            elif row.key.startswith(q) or row.tail.startswith(q):
                rank = 3
            elif q in row.key:
                rank = 4
            else:
                rank = 5
            ranked.append((rank, len(row.name), row.name, row))
        ranked.sort(key=lambda item: item[:3])
        return tuple(item[3] for item in ranked)

    def near_matches(self, name: str, n: int = 5) -> tuple[str, ...]:
        """Names close to an unknown one: same name in another case first, then search
        hits, then difflib's closest spellings."""
        out: list[str] = []
        low = name.lower()
        out += [r.name for r in self.rows if r.name.lower() == low]
        out += [r.name for r in self.matches(name)[:n]]
        lowered = {r.name.lower(): r.name for r in self.rows}
        out += [lowered[m] for m in difflib.get_close_matches(low, list(lowered), n=n, cutoff=0.6)]
        unique = tuple(dict.fromkeys(x for x in out if x != name))
        return unique[:n]

    def require(self, name: object, path: str, *, reserves_output: bool = True) -> RegistryModel:
        """The model called ``name``, or a ScenarioError at ``path`` listing near matches."""
        if not isinstance(name, str) or not name:
            raise ScenarioError(
                [
                    Problem.of(
                        path, "must be a model name of the registry (a string)", name, "model-name"
                    )
                ]
            )
        found = self.lookup(name, reserves_output=reserves_output)
        if found is not None:
            return found
        near = self.near_matches(name)
        hint = f" (near matches: {', '.join(near)})" if near else ""
        rule = f"must name a chat model of the {self.provenance.label} registry{hint}"
        near_text = ", ".join(near) if near else "—"
        raise ScenarioError(
            [
                Problem.of(
                    path,
                    rule,
                    name,
                    "unknown-model",
                    release=self.provenance.label,
                    near=near_text,
                )
            ]
        )


def parse_registry(text: str | bytes) -> Registry:
    """Parse the data file's text (the page may fetch it separately). Raises ValueError
    when the file is not the format this module reads."""
    # Prices are strings in the file; a float slipped in by hand would still stay exact.
    data: Any = json.loads(text, parse_float=Decimal)
    if not isinstance(data, dict) or data.get("format") != _FORMAT:
        raise ValueError(f"model registry: format must be {_FORMAT}")
    if tuple(data["columns"]) != _COLUMNS:
        raise ValueError(f"model registry: columns must be {list(_COLUMNS)}")
    src, sel = data["source"], data["selection"]
    provenance = Provenance(
        package=src["package"],
        version=src["version"],
        wheel=src["wheel"],
        wheel_sha256=src["wheel_sha256"],
        member=src["member"],
        member_sha256=src["member_sha256"],
        entries=src["entries"],
        kept=sel["kept"],
        dropped=tuple((str(k), int(v)) for k, v in sel["dropped"].items()),
        rows_sha256=data["rows_sha256"],
    )
    providers: Sequence[str] = data["providers"]
    rows = []
    for raw in data["rows"]:
        name, provider_index, inp, out, *prices = raw
        padded = (*prices, None, None, None, None)[:4]
        provider = providers[provider_index]
        rows.append(
            _Row(
                name=name,
                provider=provider,
                input_tokens=inp,
                output_tokens=out,
                prices=(padded[0], padded[1], padded[2], padded[3]),
                key=_norm(f"{name} {provider}"),
                tail=_norm(_tail(name)),
            )
        )
    return Registry(provenance, tuple(rows), {r.name: i for i, r in enumerate(rows)})


@dataclass(frozen=True, slots=True, kw_only=True)
class Picks:
    """What a model picker shows for the text typed so far."""

    query: str
    total: int  # every match
    models: tuple[RegistryModel, ...]  # the best ``limit`` of them
    release: str  # e.g. "LiteLLM 1.110.2", shown beside the prices


def picks(query: str, limit: int = 12, registry: Registry | None = None) -> Picks:
    """The picker's options for ``query`` (the shipped registry unless one is given).

    >>> p = picks("sonnet 4.5", 1)
    >>> p.models[0].name, p.models[0].contract.input_tokens, p.total > 1
    ('claude-sonnet-4-5', 200000, True)
    """
    reg = default_registry() if registry is None else registry
    rows = reg.matches(query)
    return Picks(
        query=query,
        total=len(rows),
        models=tuple(Registry._model(r, True) for r in rows[:limit]),
        release=reg.provenance.label,
    )


@cache
def default_registry() -> Registry:
    """The registry shipped in the package (parsed once, on first use)."""
    text = resources.files("budgetcore").joinpath(DATA_FILE).read_bytes()
    return parse_registry(text)


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
    """The shipped registry's model called ``name``, or a ScenarioError naming ``path``."""
    return default_registry().require(name, path, reserves_output=reserves_output)


# ---------------------------------------------------------------- outputs


def per_million(price: Decimal | None) -> str:
    """A per-token price as money per 1,000,000 tokens, exact (a decimal shift only).

    >>> per_million(Decimal("0.00000375")), per_million(Decimal("3E-7")), per_million(None)
    ('3.75', '0.3', '-')
    """
    return "-" if price is None else format(price.scaleb(6), "f")


def model_as_dict(model: RegistryModel) -> dict[str, Any]:
    """JSON-ready: contract and per-token prices as exact decimal strings (null if absent)."""
    p = model.prices

    def text(price: Decimal | None) -> str | None:
        return None if price is None else format(price, "f")  # 0.0000003, not 3E-7

    return {
        "name": model.name,
        "provider": model.provider,
        "input_tokens": model.contract.input_tokens,
        "output_tokens": model.contract.output_tokens,
        "prices_per_token": {
            "input": text(p.input),
            "output": text(p.output),
            "cache_read": text(p.cache_read),
            "cache_write": text(p.cache_write),
        },
    }


def render_models(
    models: Sequence[RegistryModel], total: int, provenance: Provenance, query: str
) -> list[str]:
    """The CLI's table of matches: contract, then USD per 1,000,000 tokens."""
    shown = f"{len(models):,} of {total:,}" if total > len(models) else f"{total:,}"
    what = f"matching {query!r}" if query.strip() else "in total"
    out = [
        f"{provenance.label} registry ({provenance.kept:,} chat models): {shown} {what}; "
        "prices in USD per 1,000,000 tokens"
    ]
    header = ("model", "provider", "I", "O", "input", "output", "cache read", "cache write")
    rows = [
        (
            m.name,
            m.provider,
            f"{m.contract.input_tokens:,}",
            f"{m.contract.output_tokens:,}",
            per_million(m.prices.input),
            per_million(m.prices.output),
            per_million(m.prices.cache_read),
            per_million(m.prices.cache_write),
        )
        for m in models
    ]
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    for r in (header, *rows):
        cells = [r[0].ljust(widths[0]), r[1].ljust(widths[1])]
        cells += [c.rjust(w) for c, w in zip(r[2:], widths[2:], strict=True)]
        out.append("  ".join(cells).rstrip())
    return out


# ---------------------------------------------------------------- name resolution


@dataclass(frozen=True, slots=True, kw_only=True)
class Resolution:
    """How a model name as a log, a link, a config or the CLI wrote it maps to a
    registry entry: the entry (None: no match, so no price and no contract) and the
    step that matched, shown to the user beside the name."""

    name: str  # as written
    model: RegistryModel | None
    how: str  # "exact", or the step that found it; "none" when nothing matched


def resolve(name: str, registry: Registry | None = None) -> Resolution:
    """The registry entry a written model name stands for (the shipped registry unless
    one is given). Exact names only for now; the alias steps come with issue 26."""
    reg = default_registry() if registry is None else registry
    found = reg.lookup(name)
    return Resolution(name=name, model=found, how="exact" if found is not None else "none")
