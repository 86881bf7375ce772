"""A problem's English has one home, the message catalogue (issue 38, review §2.4 "the
problem sentence"): a raise site names a code and its parameters, never a sentence, and
``Problem.rule`` (what the CLI prints) is rendered from the catalogue's ``core.<code>``
English, the same entry the page says in the reader's language.

The raise sites are read from the source (every ``Problem(...)``, ``Problem.of(...)``
and ``Problem.coded(...)`` call, and the helpers that build one from a caller's code),
so a new one is checked without a test naming it.
"""

from __future__ import annotations

import ast
import dataclasses
import pickle
import re
from dataclasses import dataclass
from pathlib import Path
from string import Formatter

import pytest

from budgetcore.errors import _MAX_PATH, _MAX_RULE, Problem
from budgetcore.messages import CATALOGUE

PACKAGE = Path(__file__).resolve().parent.parent / "budgetcore"

#: Each constructor (or helper that makes a problem from its caller's code): where its
#: code sits among the positional arguments, and its keyword name.
CODE_AT = {
    "Problem": 1,
    "Problem.of": 2,
    "Problem.coded": 1,
    "Malformed": 0,
    "check.rule": 1,
    "key_problems": None,  # its code is the keyword ``code`` only
    "decimal": None,
}
#: The most positional arguments each constructor takes: (path, value, code) and
#: (path, code); one more is the old form's rule (``Problem.of(path, rule, value, code)``).
POSITIONAL = {"Problem.of": 3, "Problem.coded": 2}
#: What a code looks like: a ``core.*`` key's tail (``log-line-count``), or a
#: page field's problem's whole key (``core.whole-unit``, ``problem.sweep-order``).
CODE = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9-]+)*")


@dataclass(frozen=True)
class Site:
    where: str  # module:line, for a failure message
    kind: str
    codes: tuple[str, ...]  # every literal the code argument can be; () when computed
    params: frozenset[str] | None  # the keyword parameters; None when some are **spread
    sentences: tuple[str, ...]  # string literals with a space among the arguments
    old_form: bool  # more positional arguments than the code's place allows: a rule


def _kind(call: ast.Call) -> str | None:
    f = call.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        name = f"{f.value.id}.{f.attr}"
        return name if name in ("Problem.of", "Problem.coded", "check.rule") else None
    if isinstance(f, ast.Name) and f.id in ("Problem", "Malformed", "key_problems"):
        return f.id
    return None


def _literals(node: ast.expr | None) -> tuple[str, ...]:
    """The strings a code argument can be: a literal, either side of a conditional, a
    literal plus a suffix (``code + "-or-null"``) as both."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return (node.value,)
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return ()


def _sentences(call: ast.Call, skip: int) -> tuple[str, ...]:
    """Literal text with a space in it among the call's arguments after the first
    ``skip`` (the path, and a problem's received value): a sentence, not a code."""
    found = []
    args = [*call.args[skip:], *(k.value for k in call.keywords)]
    for arg in args:
        for node in ast.walk(arg):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            elif isinstance(node, ast.JoinedStr):
                text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
            else:
                continue
            if re.search(r"[a-z] [a-z]", text):
                found.append(text)
    return tuple(found)


def raise_sites() -> list[Site]:
    sites = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "errors.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or (kind := _kind(node)) is None:
                continue
            at = CODE_AT[kind]
            code = node.args[at] if at is not None and len(node.args) > at else None
            code = code or next((k.value for k in node.keywords if k.arg == "code"), None)
            # Problem(...) takes its parameters as a tuple: not read here.
            spread = kind == "Problem" or any(k.arg is None for k in node.keywords)
            params = frozenset(k.arg for k in node.keywords if k.arg not in (None, "code"))
            # Skipped: the path (a key as the input wrote it), and a received value.
            skip = {"Problem.of": 2, "Problem": 1, "check.rule": 1}.get(kind, 0)
            sites.append(
                Site(
                    f"{path.relative_to(PACKAGE.parent)}:{node.lineno}",
                    kind,
                    _literals(code),
                    None if spread else params,
                    _sentences(node, skip),
                    kind in POSITIONAL and len(node.args) > POSITIONAL[kind],
                )
            )
    return sites


SITES = raise_sites()
LITERAL_CODES = {code for s in SITES for code in s.codes}


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}


def test_the_scan_finds_the_raise_sites() -> None:
    # A scan that found nothing would pass every test below.
    assert len(SITES) > 150
    assert {"utf8", "duplicate", "needs-value", "log-line-not-json"} <= LITERAL_CODES


def test_no_raise_site_writes_a_sentence() -> None:
    written = [f"{s.where}: {text!r}" for s in SITES for text in s.sentences]
    written += [f"{s.where}: a rule before the code" for s in SITES if s.old_form]
    assert written == [], "name a code and its parameters; the sentence is the catalogue's"


def test_every_code_is_a_code_with_its_sentence_in_both_languages() -> None:
    bad = sorted(
        code
        for code in LITERAL_CODES
        if not CODE.fullmatch(code) or ("." not in code and f"core.{code}" not in CATALOGUE)
    )
    assert bad == []


def test_every_site_gives_its_sentence_s_parameters() -> None:
    missing = []
    for site in SITES:
        if site.params is None:
            continue
        for code in site.codes:
            if "." in code or f"core.{code}" not in CATALOGUE:
                continue
            needed = _placeholders(CATALOGUE[f"core.{code}"][0]) - {"where", "got"}
            if needed - site.params:
                missing.append(f"{site.where} {code}: {sorted(needed - site.params)}")
    assert missing == []


def test_both_languages_say_the_same_placeholders() -> None:
    differ = [
        key
        for key, (en, zh) in CATALOGUE.items()
        if key.startswith("core.") and _placeholders(en) != _placeholders(zh)
    ]
    assert differ == []


#: The endings a raise site adds to its code (``whole`` + ``-or-null``): a variant of
#: a code the source names is used when the code is.
VARIANTS = re.compile(r"(-py)?(-or-null|-or-none)?(-bytes)?$")


def test_no_core_sentence_is_unused() -> None:
    source = "\n".join(p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py"))
    strings = set(re.findall(r"\"([a-z0-9-]+)\"", source))
    unused = [
        key
        for key in CATALOGUE
        if key.startswith("core.")
        and (tail := key.removeprefix("core.")) not in strings
        and key not in source
        and VARIANTS.sub("", tail) not in strings
    ]
    assert unused == []


#: Codes whose sentence is another code's on purpose: the code tells the cases apart
#: for the program (``replay.logs`` keeps a document's decode failure apart from a
#: line's), while the reader is told the same thing.
SAME_SENTENCE = {frozenset({"core.log-document-not-json", "core.log-line-not-json"})}


def test_no_two_core_codes_say_the_same_sentence() -> None:
    """One rule, one code: ``core.dist-name``, ``core.runtime-unknown`` and
    ``core.runtime-bool`` each restated ``core.one-of`` or ``core.bool`` word for word
    in both languages, so a change of wording had to be made in two places."""
    by_sentence: dict[tuple[str, str], set[str]] = {}
    for key, sentences in CATALOGUE.items():
        if key.startswith("core."):
            by_sentence.setdefault(sentences, set()).add(key)
    twice = [keys for keys in by_sentence.values() if len(keys) > 1]
    assert [keys for keys in twice if frozenset(keys) not in SAME_SENTENCE] == []


def test_the_rule_is_the_sentence_without_its_place_and_value() -> None:
    problem = Problem.of("config.trigger_tokens", "8k", "whole", low="0", high="10^12")
    assert problem.rule == "must be an integer from 0 to 10^12"
    assert str(problem) == 'config.trigger_tokens must be an integer from 0 to 10^12, got "8k"'
    assert Problem.coded("log", "log-no-file").rule == "no file given"


def test_a_parameter_that_is_a_catalogue_key_is_said_in_english() -> None:
    problem = Problem.coded(
        "scenario", "json", detail="json.expecting-value", at_line=1, at_column=2
    )
    assert problem.rule == "is not valid JSON: Expecting value at line 1 column 2"


def test_a_missing_parameter_shows_its_name_not_a_key_error() -> None:
    assert Problem.coded("x", "whole", low="1").rule == "must be an integer from 1 to {high}"


@pytest.mark.parametrize(
    "call",
    [
        'Problem.of(path, value, "must be a whole number")',
        'Problem.coded(path, f"is larger than {limit}")',
        'Problem(path, "is required")',
        'Problem.of(path, "must be positive", value, "whole")',
    ],
)
def test_the_scan_catches_a_literal_rule(call: str) -> None:
    node = ast.parse(call).body[0]
    assert isinstance(node, ast.Expr)
    assert isinstance(node.value, ast.Call)
    kind = _kind(node.value)
    assert kind is not None
    skip = 2 if kind == "Problem.of" else 1
    old_form = kind in POSITIONAL and len(node.value.args) > POSITIONAL[kind]
    assert _sentences(node.value, skip) or old_form


def test_a_problem_stays_a_small_frozen_picklable_value() -> None:
    problem = Problem.of("x" * 500, "v", "dask-unreachable", why="refused " * 100)
    assert pickle.loads(pickle.dumps(problem)) == problem  # tune's workers send them back
    assert len(problem.path) == _MAX_PATH
    # Outside text in a parameter is data: the rule it fills stays within its limit.
    assert len(problem.rule) == _MAX_RULE
    assert problem.rule.endswith("…")
    with pytest.raises(dataclasses.FrozenInstanceError):
        problem.code = "whole"  # type: ignore[misc]


def test_a_rule_that_says_its_value_is_not_followed_by_it_again() -> None:
    problem = Problem.of("config.x", "2", "duplicate-first", kept='"1"')
    assert (
        str(problem)
        == 'config.x appears more than once: the first value, "1", is used and "2" is not'
    )
