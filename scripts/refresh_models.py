"""Extract budgetcore's model registry from the pinned LiteLLM wheel (SPEC §13).

Usage: scripts/refresh-models [--check] [--wheel FILE]

LiteLLM ships ``model_prices_and_context_window_backup.json`` inside its wheel: the
community registry of context windows, output limits and prices that usage and cost
tools read. This script downloads the one wheel pinned in scripts/litellm-registry.txt
(``pip download --no-deps --require-hashes``; LiteLLM is never installed or imported),
reads that JSON exactly (``parse_float=Decimal``) and writes
``budgetcore/data/models.json``: one compact row per chat model, with the provenance
in its header. The same wheel always gives a byte-identical file.

Selection, in this order (every left-out entry is counted in the header):
- only ``mode: "chat"`` entries (embeddings, images, audio, "responses"-only models and
  the ``sample_spec`` documentation entry are not chat models);
- ``max_input_tokens`` must be a positive integer (it is I; SPEC §13 leaves out
  entries without it; a few chat entries carry 0, which is no window at all);
- ``max_output_tokens`` must be a positive integer (it is O, which clamps S). An entry
  without it is left out rather than guessed: LiteLLM's older ``max_tokens`` meant the
  output limit for some providers and the whole window for others, so it is never used.
Prices (USD per token): input_cost_per_token, output_cost_per_token,
cache_read_input_token_cost, cache_creation_input_token_cost, kept as the exact
decimal text of the source value, absent (null) when not given. A price that is not
a finite number >= 0 is dropped from its row (counted); the model stays.

``--check`` compares instead of writing (exit 1 when the committed file differs), and
``--wheel FILE`` reads a wheel already on disk (it must still match the pinned hash).
The downloaded wheel is kept in .cache/litellm/ (git-ignored), where the test suite
looks for it to re-extract and compare byte for byte.
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
import zipfile
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any

__all__ = ["Pin", "cached_wheel", "extract", "pinned"]

ROOT = Path(__file__).resolve().parent.parent
PIN_FILE = ROOT / "scripts" / "litellm-registry.txt"
OUT = ROOT / "budgetcore" / "data" / "models.json"
CACHE = ROOT / ".cache" / "litellm"
# LiteLLM publishes platform wheels only (cp310-abi3); asking for one platform on every
# machine keeps the pinned hash valid everywhere. The JSON inside is the same in all.
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
PRICE_KEYS = (
    "input_cost_per_token",
    "output_cost_per_token",
    "cache_read_input_token_cost",
    "cache_creation_input_token_cost",
)
COLUMNS = (
    "name",
    "provider",
    "input_tokens",
    "output_tokens",
    "input",
    "output",
    "cache_read",
    "cache_write",
)
FORMAT = 1


class Pin:
    """The pinned requirement: name, version and wheel sha256."""

    def __init__(self, name: str, version: str, sha256: str) -> None:
        self.name, self.version, self.sha256 = name, version, sha256


def pinned(text: str | None = None) -> Pin:
    """The one ``name==version --hash=sha256:…`` line of the pin file."""
    text = PIN_FILE.read_text(encoding="utf-8") if text is None else text
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    if len(lines) != 1:
        raise SystemExit(f"{PIN_FILE.name}: expected one requirement line, got {len(lines)}")
    match = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)\s+--hash=sha256:([0-9a-f]{64})", lines[0])
    if match is None:
        raise SystemExit(f"{PIN_FILE.name}: expected name==version --hash=sha256:HEX")
    return Pin(*match.groups())


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def cached_wheel(pin: Pin | None = None) -> Path | None:
    """The pinned wheel in .cache/litellm/ when it is there and matches its hash."""
    pin = pinned() if pin is None else pin
    for path in sorted(CACHE.glob(f"{pin.name}-{pin.version}-*.whl")):
        if _sha256(path.read_bytes()) == pin.sha256:
            return path
    return None


def _download(pin: Pin) -> Path:
    CACHE.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "--disable-pip-version-check",
        "--no-deps",
        "--require-hashes",
        *PLATFORM,
        "-r",
        str(PIN_FILE),
        "-d",
        str(CACHE),
    ]
    subprocess.run(command, check=True)
    found = cached_wheel(pin)
    if found is None:
        raise SystemExit(f"pip download did not leave {pin.name} {pin.version} in {CACHE}")
    return found


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


def _row(
    name: str, entry: dict[str, Any], providers: dict[str, int], bad: Counter[str]
) -> list[Any]:
    prices: list[str | None] = []
    for key in PRICE_KEYS:
        if key not in entry:
            prices.append(None)
            continue
        text = _price(entry[key])
        if text is None:
            bad[f"invalid {key} (price left out, model kept)"] += 1
        prices.append(text)
    while prices and prices[-1] is None:  # trailing absent prices cost nothing
        prices.pop()
    provider = entry.get("litellm_provider")
    provider = provider if isinstance(provider, str) else ""
    return [
        name,
        providers[provider],
        entry["max_input_tokens"],
        entry["max_output_tokens"],
        *prices,
    ]


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def rows_sha256(rows: list[list[Any]]) -> str:
    """The digest the header records for its rows (compact JSON, UTF-8)."""
    return _sha256(_compact(rows).encode("utf-8"))


def extract(wheel: bytes, wheel_name: str, pin: Pin) -> str:
    """The text of budgetcore/data/models.json for one wheel (deterministic)."""
    archive = zipfile.ZipFile(io.BytesIO(wheel))
    members = [n for n in archive.namelist() if MEMBER.fullmatch(n)]
    if len(members) != 1:
        raise SystemExit(f"{wheel_name}: expected one registry JSON, found {members}")
    member = members[0]
    source = archive.read(member)
    data = json.loads(source, parse_float=Decimal)
    dropped: Counter[str] = Counter()
    bad: Counter[str] = Counter()
    kept: list[tuple[str, dict[str, Any]]] = []
    for name, entry in data.items():
        if not isinstance(entry, dict) or entry.get("mode") != "chat":
            dropped["not a chat model"] += 1
        elif "max_input_tokens" not in entry:
            dropped["no max_input_tokens"] += 1
        elif not _positive_int(entry["max_input_tokens"]):
            dropped["max_input_tokens not a positive integer"] += 1
        elif "max_output_tokens" not in entry:
            dropped["no max_output_tokens"] += 1
        elif not _positive_int(entry["max_output_tokens"]):
            dropped["max_output_tokens not a positive integer"] += 1
        else:
            kept.append((name, entry))
    kept.sort(key=lambda item: item[0])
    names = sorted(
        {
            e["litellm_provider"] if isinstance(e.get("litellm_provider"), str) else ""
            for _, e in kept
        }
    )
    providers = {p: i for i, p in enumerate(names)}
    rows = [_row(name, entry, providers, bad) for name, entry in kept]
    header: dict[str, Any] = {
        "format": FORMAT,
        "source": {
            "package": pin.name,
            "version": pin.version,
            "wheel": wheel_name,
            "wheel_sha256": _sha256(wheel),
            "member": member,
            "member_sha256": _sha256(source),
            "entries": len(data),
        },
        "selection": {
            "rule": (
                "mode chat; I = max_input_tokens and O = max_output_tokens, both positive "
                "integers, else left out; prices in USD per token as exact decimal text"
            ),
            "kept": len(rows),
            "dropped": dict(sorted(dropped.items())),
            "prices_left_out": dict(sorted(bad.items())),
        },
        "columns": list(COLUMNS),
        "providers": names,
        "rows_sha256": rows_sha256(rows),
    }
    head = ",\n".join(f"{_compact(k)}:{_compact(v)}" for k, v in header.items())
    body = ",\n".join(_compact(r) for r in rows)
    return "{" + head + ',\n"rows":[\n' + body + "\n]}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--wheel", type=Path, help="read this wheel instead of downloading")
    args = parser.parse_args(argv)
    pin = pinned()
    wheel_path = args.wheel or cached_wheel(pin) or _download(pin)
    wheel = wheel_path.read_bytes()
    if _sha256(wheel) != pin.sha256:
        print(f"{wheel_path.name}: sha256 differs from the pin", file=sys.stderr)
        return 2
    text = extract(wheel, wheel_path.name, pin)
    encoded = text.encode("utf-8")
    header = json.loads(text)
    sizes = f"{len(encoded):,} bytes, {len(gzip.compress(encoded, mtime=0)):,} gzipped"
    summary = f"{header['selection']['kept']:,} chat models from {pin.name} {pin.version} ({sizes})"
    if args.check:
        same = OUT.exists() and OUT.read_bytes() == encoded
        print(f"{OUT.relative_to(ROOT)} {'matches' if same else 'DIFFERS from'} {summary}")
        return 0 if same else 1
    OUT.write_bytes(encoded)
    print(f"wrote {OUT.relative_to(ROOT)}: {summary}")
    for reason, count in header["selection"]["dropped"].items():
        print(f"  left out {count:,}: {reason}")
    for reason, count in header["selection"]["prices_left_out"].items():
        print(f"  {count:,}: {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
