"""A problem's English has two homes today: the raise site's ``Problem.rule`` (what the
CLI prints) and the catalogue's ``core.<code>`` entry (what the page shows, in both
languages). Making the catalogue the CLI's one home would change the CLI's sentences,
so until then this test holds the two together (issue 38, review §2.4 "the problem
sentence"): every raise site's code has a catalogue entry, and a raise site's literal
rule says what the catalogue says, placeholder for placeholder. The sites that say it in
other words today are listed by code; the list may only shrink.

The raise sites are read from the source (every ``Problem(...)``, ``Problem.of(...)``
and ``Problem.coded(...)`` call), so a new one is checked without a test naming it.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from budgetcore.messages import CATALOGUE

PACKAGE = Path(__file__).resolve().parent.parent / "budgetcore"

#: Codes whose raise-site rule words the problem differently from the catalogue's
#: English at 214e1bc (for example ``needs-value``: "needs a value: path=value" against
#: "needs a value (path=value)"). Rewording either side to match removes the code here.
KNOWN_DIFFERENT = frozenset(
    {
        "at-least",
        "at-most",
        "bool-or-null",
        "duplicate-first",
        "import-empty",
        "link-lang",
        "log-no-branch-requests",
        "log-no-requests",
        "log-no-times",
        "model-name",
        "needs-value",
        "no-turns",
        "page-invalid",
        "pin-flag",
        "replay-no-log",
        "replay-no-turns",
        "required",
    }
)

# Where the code and the rule sit among each constructor's positional arguments.
_CODE_AT = {"of": 3, "coded": 2, "new": 3}
_RULE_AT = 1


@dataclass(frozen=True)
class Site:
    where: str  # module:line, for the failure message
    rule: str | None  # the literal rule, f-string fields as {}; None when computed
    code: str | None  # the literal code; None when computed or absent (then the page
    # shows the rule as it is: a problem without a catalogue sentence)


def _kind(call: ast.Call) -> str | None:
    f = call.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "Problem":
        return f.attr if f.attr in ("of", "coded") else None
    return "new" if isinstance(f, ast.Name) and f.id == "Problem" else None


def _arg(call: ast.Call, index: int, name: str) -> ast.expr | None:
    if len(call.args) > index:
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == name), None)


def _text(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def raise_sites() -> list[Site]:
    sites = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or (kind := _kind(node)) is None:
                continue
            code = _arg(node, _CODE_AT[kind], "code")
            literal = code.value if isinstance(code, ast.Constant) else None
            sites.append(
                Site(
                    f"{path.relative_to(PACKAGE.parent)}:{node.lineno}",
                    _text(_arg(node, _RULE_AT, "rule")),
                    literal if isinstance(literal, str) else None,
                )
            )
    return sites


def shape(text: str) -> str:
    """The sentence with every placeholder as {} and without what both homes add
    around it: the place first, the received value last."""
    text = re.sub(r"\{[^{}]*\}", "{}", text)
    text = re.sub(r"^\{\}:? ", "", text)
    return re.sub(r"[,;] got \{\}$", "", text)


SITES = raise_sites()


def test_the_scan_finds_the_raise_sites() -> None:
    # A scan that found nothing would pass every test below.
    assert len(SITES) > 100
    assert {"utf8", "duplicate", "needs-value"} <= {s.code for s in SITES}


def test_every_literal_code_has_its_sentence_in_the_catalogue() -> None:
    missing = [
        f"{s.where} core.{s.code}" for s in SITES if s.code and f"core.{s.code}" not in CATALOGUE
    ]
    assert missing == []


def test_a_literal_rule_says_what_the_catalogue_says() -> None:
    different = {
        s.code: f"{s.where}: {s.rule!r} vs {CATALOGUE[f'core.{s.code}'][0]!r}"
        for s in SITES
        if s.code and s.rule is not None
        if shape(s.rule) != shape(CATALOGUE[f"core.{s.code}"][0])
    }
    new = {code: why for code, why in different.items() if code not in KNOWN_DIFFERENT}
    assert new == {}, "reword the raise site as the catalogue says it"
    stale = KNOWN_DIFFERENT - different.keys()
    assert stale == set(), "these now agree: remove them from KNOWN_DIFFERENT"


def test_the_shape_ignores_only_the_place_the_value_and_the_placeholder_names() -> None:
    assert shape("{where} must be a whole number from {low} to {high}; got {got}") == (
        "must be a whole number from {} to {}"
    )
    assert shape("must be a whole number from {} to {}") == "must be a whole number from {} to {}"
    assert shape("{where}: no file given") == "no file given"
    assert shape("needs a value: path=value") != shape("{where} needs a value (path=value)")
