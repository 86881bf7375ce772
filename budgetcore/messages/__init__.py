"""The one message catalogue: every user-visible string of the page, in both languages.

Keys are stable ids (``label.config.trigger_tokens``, ``core.whole``); values
are (English, Chinese) with named ``{parameters}``. Numbers are formatted before they
reach a message (``budgetcore.units``), identically in both languages. Plurals are
rules (``count``), never string surgery, and a problem is data (a code and
parameters) rendered here in the reader's language.

The entries live by area, one module each (``budgetcore/messages/<area>.py``
defines ``MESSAGES``), English and Chinese side by side; ``AREAS`` lists them and
``CATALOGUE`` is their merge. A key in two areas is an error at import: each message
has one home.

Terminology follows the source article: 触发线 K, 摘要上限 S, 安全余量 m, 主调用安全输入
容量 M, 必需输入 F, 新增原文, 重压 (recompress), 准入 (admission).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from importlib import import_module
from string import Formatter

__all__ = [
    "AREAS",
    "CATALOGUE",
    "LANGS",
    "count",
    "english_of",
    "merge",
    "problem_params",
    "problem_rule",
    "rule_says_got",
    "said_list",
    "t",
]

LANGS = ("en", "zh")

# Each area is a module of this package; a new area is one more name here.
AREAS = (
    "common",
    "fields",
    "readouts",
    "limits",
    "problems",
    "charts",
    "curves",
    "experiments",
    "samples",
    "peers",
    "pickers",
    "replay",
    "logs",
    "not_read",
    "backtest",
    "timing",
    "timing_inputs",
    "report",
    "tune",
    "nav",
    "runtimes",
)


def merge(
    areas: Iterable[tuple[str, Mapping[str, tuple[str, str]]]],
) -> dict[str, tuple[str, str]]:
    """One catalogue from (area, messages) pairs; a key defined twice is an error.

    >>> merge([("a", {"k": ("x", "甲")}), ("b", {"k": ("y", "乙")})])
    Traceback (most recent call last):
    ...
    ValueError: message key 'k' is defined in both area 'a' and area 'b'
    """
    merged: dict[str, tuple[str, str]] = {}
    home: dict[str, str] = {}
    for area, messages in areas:
        for key, pair in messages.items():
            if key in home:
                msg = f"message key {key!r} is defined in both area {home[key]!r} and area {area!r}"
                raise ValueError(msg)
            home[key] = area
            merged[key] = pair
    return merged


CATALOGUE: dict[str, tuple[str, str]] = merge(
    (area, import_module(f"{__name__}.{area}").MESSAGES) for area in AREAS
)


def t(key: str, lang: str, **params: object) -> str:
    """The message ``key`` in ``lang`` with its parameters filled in.

    >>> t("msg.yes", "zh")
    '是'
    """
    text = CATALOGUE[key][1 if lang == "zh" else 0]
    if not params:
        return text
    if lang == "zh":
        return _zh_format(text, params)
    return _en_possessive(text, params) if "}'s" in text else text.format(**params)


def provider_name(provider: str, lang: str) -> str:
    """A provider as its company writes it ("Anthropic's rules", not the registry's key
    "anthropic"); a provider the catalogue does not name, as the registry has it."""
    key = f"provider.{provider}"
    return t(key, lang) if key in CATALOGUE else provider


#: An item of a list said in a sentence: a text, or a text with its own list, said
#: after it in parentheses (a file ending and the agents that write it).
ListItem = str | tuple[str, tuple[str, ...]]


def said_list(items: Iterable[ListItem], lang: str) -> str:
    """``items`` as a list inside a sentence in ``lang``: joined by the language's
    separator (``msg.item-sep``: ", " in English, "、" in Chinese), an item with a list
    of its own saying it in the language's parentheses. The one home of how a list is
    joined in a sentence: a problem's list parameters (``Problem.lists``) are said so,
    in English for the CLI and in the page's language.

    >>> said_list(["Codex CLI", "pi"], "zh")
    'Codex CLI、pi'
    >>> said_list([(".json", ("Gemini CLI", "Amp")), (".db", ("Goose",))], "en")
    '.json (Gemini CLI, Amp), .db (Goose)'
    >>> said_list([(".json", ("Gemini CLI", "Amp"))], "zh")
    '.json(Gemini CLI、Amp)'
    """
    sep = t("msg.item-sep", lang)
    opened, closed = ("(", ")") if lang == "zh" else (" (", ")")
    return sep.join(
        item if isinstance(item, str) else f"{item[0]}{opened}{sep.join(item[1])}{closed}"
        for item in items
    )


def _en_possessive(text: str, params: Mapping[str, object]) -> str:
    """``text.format(**params)`` where a value ending in "s" takes the apostrophe alone
    before the message's "'s": "Deep Agents' settings", never "Deep Agents's" (a runtime's
    name is the profile's, in the plural for one of them).

    >>> _en_possessive("Import {runtime}'s settings", {"runtime": "Deep Agents"})
    "Import Deep Agents' settings"
    >>> _en_possessive("Import {runtime}'s settings", {"runtime": "pi"})
    "Import pi's settings"
    """
    out: list[str] = []
    last = ""
    for lit, name, spec in _pieces(text):
        out.append("'" + lit[2:] if last.endswith("s") and lit.startswith("'s") else lit)
        if name is None:
            last = ""
            continue
        last = format(params[name], spec)
        out.append(last)
    return "".join(out)


def _cjk(c: str) -> bool:
    """A Chinese character; not punctuation (no space goes before "。" or "、")."""
    return "\u3400" <= c <= "\u9fff"


@lru_cache(maxsize=2048)
def _pieces(text: str) -> tuple[tuple[str, str | None, str], ...]:
    return tuple((lit, name, spec or "") for lit, name, spec, _ in Formatter().parse(text))


def _zh_format(text: str, params: Mapping[str, object]) -> str:
    """``text.format(**params)`` with one spacing rule where a value meets the Chinese
    after it: a space after a value that ends in Latin text (a field path,
    ``input_tokens 必须是``; ``K(config.trigger_tokens) 出现``), none after one that ends
    in Chinese (``第 3 行不是``, ``轮次没有``), whatever the message wrote there; a
    closing parenthesis is the text's inside it (``Cline 扩展的状态(没有文件)读取``).

    >>> _zh_format("{where} 没有请求", {"where": "轮次"})
    '轮次没有请求'
    >>> _zh_format("{field}必须是整数", {"field": "info.input_tokens"})
    'info.input_tokens 必须是整数'
    >>> _zh_format("K {k}、S {s} 下给出 {m}。", {"k": "32,000", "s": "8,192", "m": "$0.12"})
    'K 32,000、S 8,192 下给出 $0.12。'
    >>> _zh_format("从 {file} 读取", {"file": "扩展的状态(没有文件)"})
    '从 扩展的状态(没有文件)读取'
    >>> _zh_format("{field} 出现", {"field": "K(config.trigger_tokens)"})
    'K(config.trigger_tokens) 出现'
    """
    out: list[str] = []
    last = ""  # the last value's last character
    for lit, name, spec in _pieces(text):
        if last and lit:
            gap = lit[1:] if lit[0] == " " else lit
            if gap and _cjk(gap[0]):
                latin = last.isascii() and not last.isspace()
                lit = (" " + gap) if latin else gap  # noqa: PLW2901 - the literal respaced
        out.append(lit)
        if name is None:
            last = ""
            continue
        value = format(params[name], spec)
        out.append(value)
        last = value.rstrip(")")[-1:] or value[-1:]
    return "".join(out)


def count(key: str, n: int, lang: str, **params: object) -> str:
    """A counted phrase with the plural rule of ``lang`` (``{n}`` is formatted).

    >>> count("count.override", 1, "en"), count("count.override", 3, "en")
    ('1 override', '3 overrides')
    """
    form = "one" if n == 1 and lang != "zh" else "other"
    return t(f"{key}.{form}", lang, n=f"{n:,}", **params)


# ------------------------------------------------------------------ a problem's rule
#
# A problem (budgetcore.errors.Problem) is a code and parameters; its sentence has one
# home, ``core.<code>`` here. The page says the whole sentence in the reader's language
# (ui/problems.py); the CLI says ``<path> <rule>, got <value>``, its rule being the same
# English sentence without the place it starts with and the received value it ends with.

#: What starts a problem's sentence: its place (``{where} ``, ``{where}: ``; a page-only
#: problem's ``{field} ``).
_PLACE = re.compile(r"^\{(?:where|field)\}:? ?")
#: What ends it: the received value (``; got {got}``, ``, got {got}``).
_GOT = re.compile(r"[,;] got \{got\}$")


class _Unfilled(dict[str, object]):
    """Parameters where one a message names is missing: shown as ``{name}``, so a raise
    site that forgot one still says its rule (tests/test_problem_english.py holds every
    site's parameters to its message's), never a KeyError instead of the problem."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def problem_params(params: Mapping[str, str], lang: str) -> dict[str, str]:
    """A problem's parameters as said in ``lang``: a parameter whose text is a catalogue
    key (a JSON decoder's ``detail``, a rule's ``why``, what a file that looks like an
    agent's lacks, ``missing``, a database's ``tables`` when none could be read, a
    runtime's ``reason``) is that
    message; any other text is data (a zstd library's own message), shown as it came.

    >>> problem_params({"detail": "json.expecting-value", "why": "a zstd frame"}, "zh")
    {'detail': '此处应为一个值', 'why': 'a zstd frame'}
    """
    said = dict(params)
    for name in ("detail", "why", "missing", "tables"):
        if said.get(name, "") in CATALOGUE:
            # Its own parameters are the problem's beside it (a document's byte).
            text = CATALOGUE[said[name]][0]
            own = {k: v for k, v in params.items() if f"{{{k}}}" in text}
            said[name] = t(said[name], lang, **own)
    reason = said.get("reason", "")
    if reason.startswith("runtime-refused.") and reason in CATALOGUE:
        # Why a runtime cannot reach K: its own sentence, with its own parameters beside
        # the problem's (runtimes.export.REFUSED_TEXTS).
        said["reason"] = t(reason, lang, **said)
    return said


@lru_cache(maxsize=1024)
def _rule_template(key: str) -> str:
    return _GOT.sub("", _PLACE.sub("", CATALOGUE[key][0], count=1))


def rule_says_got(code: str) -> bool:
    """Whether the rule of ``code`` says the received value itself (``... is used and
    {got} is not``), so the CLI adds no ``, got ...`` after it."""
    key = code if "." in code else f"core.{code}"
    return key in CATALOGUE and "{got}" in _rule_template(key)


def problem_rule(
    code: str, params: Mapping[str, str], got: str | None = None, keys: Iterable[str] = ()
) -> str:
    """The rule of the problem ``code`` (a ``core.*`` key without its prefix, or a
    page-only problem's whole key, whose parameters named in ``keys`` are catalogue
    keys) in English, as the CLI prints it after the problem's path: the catalogue's
    sentence without its place and its received value.

    >>> problem_rule("whole", {"low": "1", "high": "10^12"})
    'must be an integer from 1 to 10^12'
    >>> problem_rule("no-such-code", {})
    'breaks the rule no-such-code'
    """
    key = code if "." in code else f"core.{code}"
    if key not in CATALOGUE:  # a new code without its sentence (a test says so)
        return f"breaks the rule {code}"
    said = _Unfilled(problem_params(params, "en"))
    for name in keys:
        text = str(said.get(name, ""))
        if text in CATALOGUE:
            said[name] = t(text, "en")
    if got is not None:
        said["got"] = got
    return _rule_template(key).format_map(said)


def english_of(prefix: str) -> dict[str, str]:
    """The English of every entry under ``prefix.``: the texts a domain module writes in
    English into a file or a problem (a runtime export's comments, a refusal's reason)
    have their one home here, with their Chinese beside them."""
    return {k: en for k, (en, _zh) in CATALOGUE.items() if k.startswith(prefix + ".")}
