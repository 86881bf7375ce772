"""Extract budgetcore's model registry from the pinned LiteLLM wheels.

Usage: scripts/refresh-models [--check] [--fetch] [--to VERSION]

LiteLLM ships ``model_prices_and_context_window_backup.json`` inside its wheel: the
community registry of context windows, output limits and prices that usage and cost
tools read. This script downloads the wheels pinned in scripts/litellm-registry.txt
(``pip download --no-deps --require-hashes``; LiteLLM is never installed or imported),
reads their JSON exactly (``parse_float=Decimal``) and writes
``budgetcore/data/models.json``: one compact row per model, with the provenance of
every release in its header. The same wheels always give a byte-identical file. The
rules are docs/models-and-peers.md ("Extraction"); in short:

- Models: every ``mode: "chat"`` or ``mode: "responses"`` entry of the current release
  (responses-only models are every OpenAI Codex model), plus each retired model named
  in the pin file, taken from the release its block names.
- ``max_input_tokens`` (I) and ``max_output_tokens`` (O) must be positive integers,
  else the entry is left out (counted in the header); LiteLLM's older ``max_tokens``
  meant the output limit for some providers and the whole window for others, so it is
  never used.
- Prices (USD per token) as the exact decimal text of the source value: input, output,
  cache read, cache write (5 minutes), cache write (1 hour); the size tiers
  (``*_above_<N>_tokens``, and ``tiered_pricing`` range tables) as the tier each
  request's context falls in; the priority and flex service tiers resolved the way
  LiteLLM's calculator resolves them; ``deprecation_date``. A price that is not a
  finite number >= 0 is dropped from its row (counted); the model stays.
- Model-name aliases come from scripts/model-aliases.txt (reviewed, each with its
  source); every target must be a model of the file, and no alias may be a model name.

``--check`` compares instead of writing (exit 1 when the committed file differs).
``--fetch`` only downloads the pinned wheels into .cache/litellm/ (git-ignored), where
the test suite re-extracts them. ``--to VERSION`` moves the current release to
VERSION: it downloads that wheel, pins its sha256 in the pin file, writes the data file
and prints what changed (models added and removed, prices changed).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import re
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from itertools import pairwise
from pathlib import Path
from typing import Any

__all__ = [
    "Pin",
    "Pins",
    "cached_wheel",
    "changes",
    "extract",
    "fetch",
    "pinned",
    "read_aliases",
    "row_of",
]

ROOT = Path(__file__).resolve().parent.parent
PIN_FILE = ROOT / "scripts" / "litellm-registry.txt"
ALIAS_FILE = ROOT / "scripts" / "model-aliases.txt"
OUT = ROOT / "budgetcore" / "data" / "models.json"
CACHE = ROOT / ".cache" / "litellm"
# LiteLLM publishes platform wheels only (cp310-abi3) since 1.92; asking for one
# platform on every machine keeps the pinned hash valid everywhere (older releases
# answer with their py3-none-any wheel). The JSON inside is the same in all of them.
PLATFORM = (
    "--only-binary=:all:",
    "--platform",
    "manylinux_2_28_x86_64",
    "--python-version",
    "3.11",
    "--implementation",
    "cp",
)
MEMBER = re.compile(r"litellm/model_prices_and_context_window[^/]*\.json")
MODES = ("chat", "responses")
# Per-token price families, in row order: (LiteLLM key, column).
FAMILIES = (
    ("input_cost_per_token", "input"),
    ("output_cost_per_token", "output"),
    ("cache_read_input_token_cost", "cache_read"),
    ("cache_creation_input_token_cost", "cache_write"),
    ("cache_creation_input_token_cost_above_1hr", "cache_write_1h"),
)
PRICE_COLUMNS = tuple(column for _, column in FAMILIES)
COLUMNS = ("name", "provider", "input_tokens", "output_tokens", *PRICE_COLUMNS)
# The service tiers a log may name (OpenAI's service_tier; LiteLLM bills "fast" as
# priority). Batch prices are another API, never an agent's request, so not kept.
SERVICE_TIERS = ("priority", "flex")
# A size tier's key: family + "_above_" + threshold + "_tokens" [+ service tier].
TIER_KEY = re.compile(
    r"(input_cost_per_token|output_cost_per_token|cache_read_input_token_cost"
    r"|cache_creation_input_token_cost(?:_above_1hr)?)_above_(\d+)(k?)_tokens(?:_(\w+))?"
)
# LiteLLM compares a request's prompt with ">" except for these providers (">="); the
# data file always says ">" (docs/models-and-peers.md), so their thresholds are N - 1.
INCLUSIVE_PROVIDERS = ("xai",)
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
# Price keys the file does not carry, counted per kept model in the header: what a
# request is billed here leaves them out (docs/models-and-peers.md, "Not modelled").
NOT_MODELLED = (
    ("off_peak_pricing", "off-peak (time of day) prices"),
    ("output_cost_per_reasoning_token", "a separate reasoning-token price"),
    ("cache_creation_input_token_cost_above_12hr", "12-hour cache writes"),
    ("_batches", "batch API prices"),
    ("_ultrafast", "the ultrafast service tier"),
    ("_balanced", "the balanced service tier"),
    ("search_context_cost_per_query", "per-query web search prices"),
    ("_uplift_multiplier", "regional or FedRAMP uplift multipliers"),
)
FORMAT = 2


# ---------------------------------------------------------------- pins


@dataclass(frozen=True)
class Pin:
    """One pinned requirement: name, version and wheel sha256."""

    name: str
    version: str
    sha256: str

    @property
    def requirement(self) -> str:
        return f"{self.name}=={self.version} --hash=sha256:{self.sha256}"


@dataclass(frozen=True)
class Retired:
    """A release the retired models in ``names`` are taken from."""

    pin: Pin
    names: tuple[str, ...]


@dataclass(frozen=True)
class Pins:
    current: Pin
    retired: tuple[Retired, ...]  # newest first

    @property
    def all(self) -> tuple[Pin, ...]:
        return (self.current, *(r.pin for r in self.retired))


_REQUIREMENT = re.compile(r"([A-Za-z0-9_.-]+)==(\S+)\s+--hash=sha256:([0-9a-f]{64})")


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", version))


def pinned(text: str | None = None) -> Pins:
    """The pin file: the current requirement, then ``retired`` blocks of model names."""
    text = PIN_FILE.read_text(encoding="utf-8") if text is None else text
    current: Pin | None = None
    blocks: list[tuple[Pin, list[str]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{PIN_FILE.name}:{number}"
        retired = line.startswith("retired ")
        match = _REQUIREMENT.fullmatch(line.removeprefix("retired ").strip())
        if match is not None:
            pin = Pin(*match.groups())
            if retired:
                blocks.append((pin, []))
            elif current is None and not blocks:
                current = pin
            else:
                raise SystemExit(f"{where}: only the first requirement is not 'retired'")
        elif retired or "=" in line or " " in line:
            raise SystemExit(f"{where}: expected [retired] name==version --hash=sha256:HEX")
        elif not blocks:
            raise SystemExit(f"{where}: a model name outside a retired block")
        else:
            blocks[-1][1].append(line)
    if current is None:
        raise SystemExit(f"{PIN_FILE.name}: no current requirement")
    versions = [current.version, *(p.version for p, _ in blocks)]
    if [_version_key(v) for v in versions] != sorted(
        (_version_key(v) for v in versions), reverse=True
    ) or len(set(versions)) != len(versions):
        raise SystemExit(f"{PIN_FILE.name}: releases must be listed newest first, once each")
    names = [n for _, ns in blocks for n in ns]
    if len(set(names)) != len(names):
        raise SystemExit(f"{PIN_FILE.name}: a retired model is named twice")
    return Pins(current, tuple(Retired(p, tuple(ns)) for p, ns in blocks))


def read_aliases(text: str | None = None) -> list[list[str]]:
    """``alias target source...`` per line: [[alias, target, source], ...], sorted."""
    text = ALIAS_FILE.read_text(encoding="utf-8") if text is None else text
    out: list[list[str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 2)
        if len(parts) != 3:
            raise SystemExit(f"{ALIAS_FILE.name}:{number}: expected alias, target and source")
        out.append(parts)
    if len({a for a, _, _ in out}) != len(out):
        raise SystemExit(f"{ALIAS_FILE.name}: an alias is listed twice")
    return sorted(out)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def cached_wheel(pin: Pin) -> Path | None:
    """The pinned wheel in .cache/litellm/ when it is there and matches its hash."""
    for path in sorted(CACHE.glob(f"{pin.name}-{pin.version}-*.whl")):
        if _sha256(path.read_bytes()) == pin.sha256:
            return path
    return None


def _pip_download(requirement: str, hashed: bool, into: Path) -> None:
    into.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as req:
        req.write(requirement + "\n")
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "--disable-pip-version-check",
        "--no-deps",
        *(["--require-hashes"] if hashed else []),
        *PLATFORM,
        "-r",
        req.name,
        "-d",
        str(into),
    ]
    try:
        subprocess.run(command, check=True)
    finally:
        Path(req.name).unlink()


def fetch(pins: Pins) -> dict[str, Path]:
    """Every pinned wheel, downloaded into .cache/litellm/ unless already there."""
    out = {}
    for pin in pins.all:
        found = cached_wheel(pin)
        if found is None:
            _pip_download(pin.requirement, True, CACHE)
            found = cached_wheel(pin)
        if found is None:
            raise SystemExit(f"pip download did not leave {pin.name} {pin.version} in {CACHE}")
        out[pin.version] = found
    return out


# ---------------------------------------------------------------- one entry


def _positive_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _price(value: object) -> str | None:
    """Exact positional decimal text of a price, or None when it is not a price."""
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        return None
    number = Decimal(value)
    if not number.is_finite() or number < 0:
        return None
    # format "f" writes 3E-7 as 0.0000003: the same exact value, no rounding.
    return format(number, "f")


def _trim(values: list[Any]) -> list[Any]:
    while values and values[-1] is None:  # trailing absent prices cost nothing
        values.pop()
    return values


class _Prices:
    """Reads one entry's prices, counting every value that is not a price."""

    def __init__(self, name: str, entry: dict[str, Any], bad: Counter[str]) -> None:
        self.name, self.entry, self.bad = name, entry, bad

    def get(self, key: str) -> str | None:
        if key not in self.entry or self.entry[key] is None:
            return None
        text = _price(self.entry[key])
        if text is None:
            self.bad[f"invalid {key} (price left out, model kept)"] += 1
        return text

    def service(self, key: str, tier: str) -> str | None:
        """A service tier's price: its own key, else the standard one (LiteLLM's
        get_cost_per_unit falls back from ``X_priority`` to ``X``)."""
        own = self.get(f"{key}_{tier}")
        return self.get(key) if own is None else own

    def thresholds(self, tier: str | None) -> list[int]:
        """Every size threshold LiteLLM's calculator would cross for this entry at this
        service tier (None: standard): standard keys always, and the tier's own."""
        found = set()
        for key, value in self.entry.items():
            match = TIER_KEY.fullmatch(key)
            if match is None or value is None:
                continue
            suffix = match.group(4)
            if suffix is None or suffix == tier:
                found.add(int(match.group(2)) * (1000 if match.group(3) else 1))
        return sorted(found)

    def flat(self, tier: str | None) -> list[str | None]:
        if tier is None:
            return [self.get(key) for key, _ in FAMILIES]
        return [self.service(key, tier) for key, _ in FAMILIES]

    def tiers(self, tier: str | None, inclusive: bool) -> list[list[Any]]:
        """The size tiers, ascending. LiteLLM's calculator visits every threshold a
        request's prompt exceeds, lowest first, and replaces each rate by that
        threshold's key when it has one: a rate a tier does not list is the previous
        tier's (so the highest exceeded tier wins, carrying what it does not say)."""
        out = []
        previous: list[str | None] = [None] * len(FAMILIES)
        for n in self.thresholds(tier):
            spellings = dict.fromkeys((f"{n // 1000}k" if n % 1000 == 0 else str(n), str(n)))
            prices: list[str | None] = []
            for (key, column), before in zip(FAMILIES, previous, strict=True):
                value = None
                for spelled in spellings:
                    key_n = f"{key}_above_{spelled}_tokens"
                    if tier is None:
                        found = self.get(key_n)
                    elif column == "cache_write_1h":
                        # LiteLLM reads the TTL write's tier key with no fallback to the
                        # standard tier key (_first_present_key).
                        found = self.get(f"{key_n}_{tier}")
                    else:
                        found = self.service(key_n, tier)
                    value = value if found is None else found
                prices.append(before if value is None else value)
            previous = prices
            if any(p is not None for p in prices):
                out.append(_trim([n - 1 if inclusive else n, *prices]))
        return out


def _integral(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        return None
    number = Decimal(value)
    return int(number) if number.is_finite() and number == number.to_integral_value() else None


def _range_table(prices: _Prices, table: object) -> tuple[list[str | None], list[list[Any]]] | None:
    """A ``tiered_pricing`` table as base prices and size tiers, or None when it is not
    one this rule can express exactly (contiguous ranges from 0, whole-token bounds).

    LiteLLM picks the range with start < prompt <= end (above the last: the last), and
    bills the whole request at it; a rate the range does not list is its input rate
    (output: the model's own output rate). So the first range is the base price (a
    request with no input at all has no price to pick) and every later range a tier
    above its start, each with those fallbacks spelled out."""
    if not isinstance(table, list) or not table:
        return None
    ranged = []
    for tier in table:
        bounds = tier.get("range") if isinstance(tier, dict) else None
        if not isinstance(bounds, list) or len(bounds) != 2:
            return None
        lo, hi = _integral(bounds[0]), _integral(bounds[1])
        if lo is None or hi is None or "input_cost_per_token" not in tier:
            return None
        ranged.append((lo, hi, tier))
    ranged.sort(key=lambda r: r[0])
    if ranged[0][0] != 0 or any(a[1] != b[0] for a, b in pairwise(ranged)):
        return None
    model_output = prices.get("output_cost_per_token")
    rows = []
    for _, _, tier in ranged:
        sub = _Prices(prices.name, tier, prices.bad)
        inp = sub.get("input_cost_per_token")
        out = sub.get("output_cost_per_token") if "output_cost_per_token" in tier else model_output
        read = sub.get("cache_read_input_token_cost")
        write = sub.get("cache_creation_input_token_cost")
        read, write = (inp if read is None else read), (inp if write is None else write)
        rows.append([inp, out, read, write, sub.get("cache_creation_input_token_cost_above_1hr")])
    base = rows[0]
    tiers = [_trim([lo, *row]) for (lo, _, _), row in zip(ranged[1:], rows[1:], strict=True)]
    return base, tiers


def row_of(
    name: str,
    entry: dict[str, Any],
    providers: dict[str, int],
    bad: Counter[str],
    retired_from: int | None = None,
) -> list[Any]:
    """One model's row: name, provider index, I, O, the five prices, then a dict of
    what only some models have (mode, tiers, service tiers, deprecation, release)."""
    prices = _Prices(name, entry, bad)
    provider = entry.get("litellm_provider")
    provider = provider if isinstance(provider, str) else ""
    inclusive = provider in INCLUSIVE_PROVIDERS
    flat = prices.flat(None)
    tiers = prices.tiers(None, inclusive)
    table = entry.get("tiered_pricing")
    if table is not None:
        converted = _range_table(prices, table)
        if converted is None:
            bad["tiered_pricing not contiguous from 0 (table left out, model kept)"] += 1
        else:
            flat, tiers = converted
    extra: dict[str, Any] = {}
    if entry.get("mode") != "chat":
        extra["mode"] = entry.get("mode")
    if tiers:
        extra["tiers"] = tiers
    standard = _trim([*prices.flat(None), prices.tiers(None, inclusive) or None])
    for tier in SERVICE_TIERS if table is None else ():
        # Kept where the tier bills differently from the standard prices; elsewhere a
        # request at that tier pays the standard ones, as in LiteLLM.
        own = _trim([*prices.flat(tier), prices.tiers(tier, inclusive) or None])
        if own != standard:
            extra[tier] = own
    deprecation = entry.get("deprecation_date")
    if isinstance(deprecation, str) and DATE.fullmatch(deprecation):
        extra["deprecation"] = deprecation
    elif deprecation is not None:
        bad["deprecation_date not YYYY-MM-DD (left out)"] += 1
    if retired_from is not None:
        extra["retired"] = retired_from
    row = [name, providers[provider], entry["max_input_tokens"], entry["max_output_tokens"]]
    row += _trim(list(flat))
    if extra:
        row += [None] * (4 + len(FAMILIES) - len(row)) + [extra]
    return row


def _why_left_out(entry: object) -> str | None:
    if not isinstance(entry, dict) or entry.get("mode") not in MODES:
        return "not a chat or responses model"
    if "max_input_tokens" not in entry:
        return "no max_input_tokens"
    if not _positive_int(entry["max_input_tokens"]):
        return "max_input_tokens not a positive integer"
    if "max_output_tokens" not in entry:
        return "no max_output_tokens"
    if not _positive_int(entry["max_output_tokens"]):
        return "max_output_tokens not a positive integer"
    return None


# ---------------------------------------------------------------- the file


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def rows_sha256(rows: list[list[Any]]) -> str:
    """The digest the header records for its rows (compact JSON, UTF-8)."""
    return _sha256(_compact(rows).encode("utf-8"))


def _registry_json(wheel: bytes, wheel_name: str) -> tuple[str, bytes, dict[str, Any]]:
    archive = zipfile.ZipFile(io.BytesIO(wheel))
    members = [n for n in archive.namelist() if MEMBER.fullmatch(n)]
    if len(members) != 1:
        raise SystemExit(f"{wheel_name}: expected one registry JSON, found {members}")
    source = archive.read(members[0])
    return members[0], source, json.loads(source, parse_float=Decimal)


def extract(wheels: dict[str, tuple[str, bytes]], pins: Pins, aliases: list[list[str]]) -> str:
    """The text of budgetcore/data/models.json (deterministic). ``wheels`` maps each
    pinned version to (wheel file name, wheel bytes)."""
    sources: list[dict[str, Any]] = []
    data: dict[str, dict[str, Any]] = {}
    for pin in pins.all:
        wheel_name, wheel = wheels[pin.version]
        if _sha256(wheel) != pin.sha256:
            raise SystemExit(f"{wheel_name}: sha256 differs from the pin")
        member, source, entries = _registry_json(wheel, wheel_name)
        data[pin.version] = entries
        sources.append(
            {
                "package": pin.name,
                "version": pin.version,
                "wheel": wheel_name,
                "wheel_sha256": pin.sha256,
                "member": member,
                "member_sha256": _sha256(source),
                "entries": len(entries),
            }
        )
    current = data[pins.current.version]
    dropped: Counter[str] = Counter()
    kept: list[tuple[str, dict[str, Any], int | None]] = []
    for name, entry in current.items():
        why = _why_left_out(entry)
        if why is None:
            kept.append((name, entry, None))
        else:
            dropped[why] += 1
    newer = [current]
    for index, retired in enumerate(pins.retired, start=1):
        entries = data[retired.pin.version]
        for name in retired.names:
            where = f"retired {name} ({retired.pin.version})"
            if name not in entries:
                raise SystemExit(f"{where}: not in that release")
            if any(name in later for later in newer):
                raise SystemExit(f"{where}: a newer pinned release lists it (not retired)")
            why = _why_left_out(entries[name])
            if why is not None:
                raise SystemExit(f"{where}: {why}")
            kept.append((name, entries[name], index))
        sources[index]["models"] = list(retired.names)
        newer.append(entries)
    kept.sort(key=lambda item: item[0])
    names = sorted(
        {
            e["litellm_provider"] if isinstance(e.get("litellm_provider"), str) else ""
            for _, e, _ in kept
        }
    )
    providers = {p: i for i, p in enumerate(names)}
    bad: Counter[str] = Counter()
    rows = [row_of(name, entry, providers, bad, index) for name, entry, index in kept]
    unmodelled: Counter[str] = Counter()
    for _, entry, _ in kept:
        for needle, what in NOT_MODELLED:
            if any(needle in key and entry[key] is not None for key in entry):
                unmodelled[what] += 1
    known = {r[0] for r in rows}
    for alias, target, _ in aliases:
        if alias in known:
            raise SystemExit(f"{ALIAS_FILE.name}: {alias} is a model name, not an alias")
        if target not in known:
            raise SystemExit(f"{ALIAS_FILE.name}: {alias} -> {target}, which is not a model")
    retired_count = sum(1 for _, _, i in kept if i is not None)
    header: dict[str, Any] = {
        "format": FORMAT,
        "sources": sources,
        "selection": {
            "rule": (
                "mode chat or responses; I = max_input_tokens and O = max_output_tokens, both "
                "positive integers, else left out; retired models from the release the pin "
                "file names; prices in USD per token as exact decimal text"
            ),
            "kept": len(rows) - retired_count,
            "retired": retired_count,
            "dropped": dict(sorted(dropped.items())),
            "prices_left_out": {k: v for k, v in sorted(bad.items()) if v},
            "not_modelled": dict(sorted(unmodelled.items())),
        },
        "columns": list(COLUMNS),
        "providers": names,
        "aliases": aliases,
        "rows_sha256": rows_sha256(rows),
    }
    head = ",\n".join(f"{_compact(k)}:{_compact(v)}" for k, v in header.items())
    body = ",\n".join(_compact(r) for r in rows)
    return "{" + head + ',\n"rows":[\n' + body + "\n]}\n"


# ---------------------------------------------------------------- what changed


def _by_name(text: str) -> dict[str, dict[str, Any]]:
    """Each model of a data file as {field: value}, absent values left out (format 1,
    the first layout, had four prices and nothing else)."""
    data = json.loads(text)
    providers = data["providers"]
    columns = data["columns"]
    out = {}
    for row in data["rows"]:
        extra = row.pop() if isinstance(row[-1], dict) else {}
        fields = dict(zip(columns, row, strict=False))
        fields["provider"] = providers[fields["provider"]]
        fields.update(extra)
        if "retired" in fields:
            fields["retired"] = data["sources"][fields["retired"]]["version"]
        out[row[0]] = {k: v for k, v in fields.items() if v is not None and k != "name"}
    return out


def changes(old: str, new: str) -> list[str]:
    """What moving from the data file ``old`` to ``new`` changes, as lines: models
    added, models removed, and each model whose window, output limit, prices or dates
    moved (field: before -> after)."""
    a, b = _by_name(old), _by_name(new)
    added = sorted(set(b) - set(a))
    removed = sorted(set(a) - set(b))
    moved = sorted(n for n in set(a) & set(b) if a[n] != b[n])
    out = [f"{len(added):,} models added, {len(removed):,} removed, {len(moved):,} changed"]
    out += [f"  + {n}" for n in added]
    out += [f"  - {n}" for n in removed]
    for n in moved:
        keys = [k for k in dict.fromkeys([*a[n], *b[n]]) if a[n].get(k) != b[n].get(k)]
        diff = "; ".join(f"{k} {_compact(a[n].get(k))} -> {_compact(b[n].get(k))}" for k in keys)
        out.append(f"  ~ {n}: {diff}")
    return out


# ---------------------------------------------------------------- the command


def _wheels(paths: dict[str, Path]) -> dict[str, tuple[str, bytes]]:
    return {v: (p.name, p.read_bytes()) for v, p in paths.items()}


def _move_to(version: str, pins: Pins) -> Pins:
    """Download ``version``'s wheel, pin its sha256 as the current release."""
    with tempfile.TemporaryDirectory() as tmp:
        _pip_download(f"{pins.current.name}=={version}", False, Path(tmp))
        found = sorted(Path(tmp).glob(f"{pins.current.name}-{version}-*.whl"))
        if len(found) != 1:
            raise SystemExit(f"pip download gave {[f.name for f in found]} for {version}")
        wheel = found[0]
        pin = Pin(pins.current.name, version, _sha256(wheel.read_bytes()))
        CACHE.mkdir(parents=True, exist_ok=True)
        (CACHE / wheel.name).write_bytes(wheel.read_bytes())
    text = PIN_FILE.read_text(encoding="utf-8")
    text = text.replace(pins.current.requirement, pin.requirement, 1)
    PIN_FILE.write_text(text, encoding="utf-8")
    return pinned(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--fetch", action="store_true", help="only download the pinned wheels")
    parser.add_argument("--to", metavar="VERSION", help="move the current release to VERSION")
    args = parser.parse_args(argv)
    pins = pinned()
    if args.fetch:
        for version, path in fetch(pins).items():
            print(f"{pins.current.name} {version}: {path.relative_to(ROOT)} (sha256 checked)")
        return 0
    old = OUT.read_text(encoding="utf-8") if OUT.exists() else None
    if args.to:
        pins = _move_to(args.to, pins)
    text = extract(_wheels(fetch(pins)), pins, read_aliases())
    encoded = text.encode("utf-8")
    header = json.loads(text)
    sel = header["selection"]
    sizes = f"{len(encoded):,} bytes, {len(gzip.compress(encoded, mtime=0)):,} gzipped"
    summary = (
        f"{sel['kept']:,} models from {pins.current.name} {pins.current.version} and "
        f"{sel['retired']:,} retired ones from {len(pins.retired)} older releases ({sizes})"
    )
    if args.check:
        same = old is not None and old.encode("utf-8") == encoded
        print(f"{OUT.relative_to(ROOT)} {'matches' if same else 'DIFFERS from'} {summary}")
        return 0 if same else 1
    OUT.write_bytes(encoded)
    print(f"wrote {OUT.relative_to(ROOT)}: {summary}")
    for reason, count in sel["dropped"].items():
        print(f"  left out {count:,}: {reason}")
    for reason, count in sel["prices_left_out"].items():
        print(f"  {count:,}: {reason}")
    for what, count in sel["not_modelled"].items():
        print(f"  not modelled, {count:,} models: {what}")
    if old is not None:
        print("\n".join(changes(old, text)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
