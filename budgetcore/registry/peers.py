"""Where public agent systems would compact, for one model (docs/spec.md §13, shared PEERS.md).

``budgetcore/data/peers.json`` holds one entry per system: version, source, confidence
(code / docs / reported), and its trigger rule as a small declarative formula over W
(the model's context window) and O (its max output). Formulas are evaluated here with
exact fractions, never ``eval`` and never ``float``; the token line is the exact value
floored to whole tokens (budgets floor). Rules that count events, or that do not fire
by default, have no token line and are never shown as 0. A token rule may also fire on
counts (``also``: more than 40 messages, more than 50,000 characters of tool results):
whichever comes first; those triggers are counts, never drawn as token lines
(docs/models-and-peers.md, "Peers").

:func:`peer_lines` is the one builder the page and the CLI share: every peer's line
beside this scenario's K, M and hard line, and the context-layers article's clean,
compact and hard lines, each in tokens and as an exact share of the window.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Any, Literal

from budgetcore._shipped import shipped_bytes
from budgetcore.core.plan import Plan

__all__ = [
    "ARTICLE_CLEAN",
    "ARTICLE_COMPACT",
    "COUNTS",
    "DATA_FILE",
    "CountTrigger",
    "FormulaError",
    "Peer",
    "PeerLine",
    "PeerView",
    "ReferenceLine",
    "Text",
    "default_peers",
    "evaluate",
    "parse_peers",
    "peer_lines",
    "runs_model",
    "token_line",
    "view_as_dict",
]

DATA_FILE = "data/peers.json"
_FORMAT = 2  # 2: a runtime is its profile ("profile": name), not a second formula

#: The context-layers article's example lines, as fractions of the window.
ARTICLE_CLEAN = Fraction(70, 100)  # start clearing consumed tool results
ARTICLE_COMPACT = Fraction(835, 1000)  # summarise (Claude Code's 83.5 % of 200K)

Kind = Literal["tokens", "events", "none"]
Confidence = Literal["code", "docs", "reported"]
_KINDS = ("tokens", "events", "none")
_CONFIDENCES = ("code", "docs", "reported")
_COMPARES = (">", ">=")
_VARIABLES = ("W", "O")
_NARY = ("add", "mul", "min", "max")
_DECIMAL = re.compile(r"-?(?:\d+(?:\.\d+)?)", re.ASCII)
#: What a count trigger may count, as budgetcore.replay.logs.LogRequest has it.
COUNTS = ("messages", "tool_result_chars")


class FormulaError(ValueError):
    """A peers data file entry that this module cannot read (named by its path)."""


@dataclass(frozen=True, slots=True)
class Text:
    """One short text in both languages of the page."""

    en: str
    zh: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


# ---------------------------------------------------------------- formulas


def _check(expr: object, path: str) -> None:
    """Raise FormulaError unless ``expr`` is a formula of the documented operators."""
    if isinstance(expr, bool):
        raise FormulaError(f"{path}: true/false is not a number")
    if isinstance(expr, int):
        return
    if isinstance(expr, str):
        if expr in _VARIABLES or _DECIMAL.fullmatch(expr):
            return
        raise FormulaError(f"{path}: {expr!r} is neither W, O nor a decimal")
    if not isinstance(expr, dict) or len(expr) != 1:
        raise FormulaError(f"{path}: an operator is an object with exactly one key")
    ((op, args),) = expr.items()
    here = f"{path}.{op}"
    if op in (*_NARY, "sub"):
        if not isinstance(args, list) or len(args) < (2 if op == "sub" else 1):
            raise FormulaError(f"{here}: needs a list of operands")
        for i, arg in enumerate(args):
            _check(arg, f"{here}[{i}]")
        return
    if op == "case":
        if not isinstance(args, dict) or set(args) != {"on", "when", "else"}:
            raise FormulaError(f"{here}: needs exactly on, when and else")
        if args["on"] not in _VARIABLES:
            raise FormulaError(f"{here}.on: must be W or O")
        when = args["when"]
        if not isinstance(when, list):
            raise FormulaError(f"{here}.when: must be a list of [value, formula]")
        for i, pair in enumerate(when):
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or isinstance(pair[0], bool)
                or not isinstance(pair[0], int)
            ):
                raise FormulaError(f"{here}.when[{i}]: must be [integer, formula]")
            _check(pair[1], f"{here}.when[{i}][1]")
        _check(args["else"], f"{here}.else")
        return
    raise FormulaError(f"{path}: unknown operator {op!r}")


def evaluate(expr: Any, window: int, max_output: int) -> Fraction:
    """The exact value of a checked formula for W = ``window`` and O = ``max_output``.

    >>> evaluate({"min": [{"mul": ["0.85", "W"]}, {"sub": ["W", 33000]}]}, 1_048_576, 65_536)
    Fraction(4456448, 5)
    """
    if isinstance(expr, int):
        return Fraction(expr)
    if isinstance(expr, str):
        if expr == "W":
            return Fraction(window)
        if expr == "O":
            return Fraction(max_output)
        return Fraction(Decimal(expr))  # exact: Fraction converts Decimal without float
    ((op, args),) = expr.items()
    if op == "case":
        on = window if args["on"] == "W" else max_output
        for value, formula in args["when"]:
            if on == value:
                return evaluate(formula, window, max_output)
        return evaluate(args["else"], window, max_output)
    values = [evaluate(a, window, max_output) for a in args]
    if op == "add":
        return sum(values, Fraction(0))
    if op == "sub":
        return values[0] - sum(values[1:], Fraction(0))
    if op == "mul":
        out = Fraction(1)
        for v in values:
            out *= v
        return out
    return min(values) if op == "min" else max(values)


# ---------------------------------------------------------------- data


@dataclass(frozen=True, slots=True, kw_only=True)
class CountTrigger:
    """A trigger on a count, not on tokens: ``count compare value`` (messages > 40)."""

    count: str  # one of COUNTS
    compare: str  # ">" or ">="
    value: int
    text: Text

    def fires(self, n: int) -> bool:
        return n > self.value if self.compare == ">" else n >= self.value


@dataclass(frozen=True, slots=True, kw_only=True)
class Peer:
    """One system of PEERS.md, as the data file records it."""

    id: str  # stable slug; the page's data-key is "peer-" + id
    name: str
    version: str | None  # None: PEERS.md states no version for this system
    repo: str | None
    path: str | None
    url: str | None  # where the rule can be read (source file, repository or docs)
    seed: str | None  # or the shared seed text it was read in (no public address)
    confidence: Confidence
    evidence: Text  # PEERS.md's confidence column in words
    kind: Kind
    compare: str | None  # ">" or ">=" for token rules
    line: Any  # the trigger formula (checked), None unless kind == "tokens"
    rule: Text  # the rule as PEERS.md states it
    summary_cap: Any  # formula or None
    keeps: Text
    also: tuple[CountTrigger, ...] = ()  # count triggers beside the token line (any one)
    # The runtime profile (budgetcore.runtimes) this peer is, at its defaults: its
    # trigger, summary cap, version and confidence are the profile's, never a copy.
    profile: str | None = None
    # The model families it runs (a name part starting "<family>-"), empty for any:
    # a line of a system that cannot run the model is not about that model's window
    # (Gemini CLI's 0.5 × 1,048,576 beside Sonnet). ``runs_text`` says which, both
    # languages.
    runs: tuple[str, ...] = ()
    runs_text: Text | None = None

    @property
    def reported(self) -> bool:
        return self.confidence == "reported"


def _text(raw: object, path: str) -> Text:
    if not isinstance(raw, dict) or not isinstance(raw.get("en"), str):
        raise FormulaError(f"{path}: needs en and zh texts")
    zh = raw.get("zh")
    if not isinstance(zh, str):
        raise FormulaError(f"{path}: needs en and zh texts")
    return Text(raw["en"], zh)


def _also(raw: object, where: str, kind: str) -> tuple[CountTrigger, ...]:
    if raw is None:
        return ()
    if kind != "tokens" or not isinstance(raw, list) or not raw:
        raise FormulaError(f"{where}: count triggers are a non-empty list beside a token line")
    out = []
    for i, item in enumerate(raw):
        here = f"{where}[{i}]"
        if not isinstance(item, dict) or item.get("count") not in COUNTS:
            raise FormulaError(f"{here}.count: must be one of {', '.join(COUNTS)}")
        if item.get("compare") not in _COMPARES:
            raise FormulaError(f"{here}.compare: must be > or >=")
        value = item.get("value")
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise FormulaError(f"{here}.value: must be a whole count >= 0")
        text = _text(item.get("text"), f"{here}.text")
        out.append(
            CountTrigger(count=item["count"], compare=item["compare"], value=value, text=text)
        )
    return tuple(out)


#: A profile's confidence as the peers view marks it: not read in the runtime's own code
#: or docs is "reported" (the page marks it as such).
_PROFILE_CONFIDENCE: dict[str, Confidence] = {
    "code": "code",
    "docs": "docs",
    "unofficial": "reported",
    "unconfirmed": "reported",
}


_FAMILY = re.compile(r"[a-z][a-z0-9]*")


def _runs(raw: object, where: str) -> tuple[tuple[str, ...], Text | None]:
    """A peer's ``runs``: the model families it runs and the sentence that says so."""
    if raw is None:
        return (), None
    families = raw.get("families") if isinstance(raw, dict) else None
    if (
        not isinstance(families, list)
        or not families
        or not all(isinstance(f, str) and _FAMILY.fullmatch(f) for f in families)
    ):
        raise FormulaError(f"{where}.runs.families: a non-empty list of model-name families")
    assert isinstance(raw, dict)
    return tuple(families), _text(raw.get("text"), f"{where}.runs.text")


def runs_model(peer: Peer, model: str | None) -> bool:
    """Whether ``peer`` runs the registry model ``model``: any model without ``runs``;
    else by the runtimes' one rule (``runtimes.model.serves``: a name part that starts
    with one of its families and a hyphen). A contract typed by hand names no model:
    assumed to run, as the line has always been read.

    >>> gemini = Peer(id="g", name="g", version=None, repo=None, path=None, url=None,
    ...     seed=None, confidence="code", evidence=Text("", ""), kind="tokens", compare=">=",
    ...     line=None, rule=Text("", ""), summary_cap=None, keeps=Text("", ""),
    ...     runs=("gemini", "gemma"))
    >>> [runs_model(gemini, m) for m in ("vertex_ai/gemini-2.5-pro", "claude-sonnet-4-5", None)]
    [True, False, True]
    """
    from budgetcore.runtimes.model import serves  # noqa: PLC0415

    return serves(peer.runs, model)


def _profile_peer(raw: Mapping[str, Any], where: str) -> Peer:
    """A runtime peer: the profile's facts, the file's words (both languages)."""
    # Imported here: the peers load with the registry after the page is ready.
    from budgetcore.runtimes import PROFILES  # noqa: PLC0415

    name = raw["profile"]
    found = PROFILES.get(name)
    if found is None:
        raise FormulaError(f"{where}.profile: {name!r} is not a runtime profile")
    trigger = raw["trigger"]
    kind = trigger["kind"]
    if kind not in ("tokens", "none"):
        raise FormulaError(f"{where}.trigger.kind: a profile's is tokens or none")
    for key in ("confidence", "summary_cap"):
        if key in raw:
            raise FormulaError(f"{where}.{key}: the profile's own, not given here")
    # The version as the table shows it: a short label that must be part of the
    # profile's own version text (so it can only shorten the fact, never change it).
    label = raw.get("version")
    if label is not None and (not isinstance(label, str) or label not in found.version):
        raise FormulaError(f"{where}.version: must be part of {found.version!r}")
    if "line" in trigger or "compare" in trigger:
        raise FormulaError(f"{where}.trigger: the profile's own line, not a formula here")
    repo, path = raw.get("repo"), raw.get("path")
    url = raw.get("url")
    if url is None and repo is not None:
        url = f"https://github.com/{repo}" + ("" if path is None else f"/blob/HEAD/{path}")
    # Which models it runs is the profile's fact (runtimes/profiles.py, with its
    # source; the export warns with it too); the file gives only its sentence.
    said = raw.get("runs")
    if said is not None and (not isinstance(said, dict) or set(said) != {"text"}):
        raise FormulaError(f"{where}.runs: only its text; the families are the profile's own")
    if (said is None) != (not found.runs):
        raise FormulaError(f"{where}.runs.text: says which models the profile runs, if any")
    runs_text = None if said is None else _text(said["text"], f"{where}.runs.text")
    return Peer(
        runs=found.runs,
        runs_text=runs_text,
        id=raw["id"],
        name=raw["name"],
        version=label or found.version,
        repo=repo,
        path=path,
        url=url,
        seed=raw.get("seed"),
        confidence=_PROFILE_CONFIDENCE[found.trigger_confidence],
        evidence=_text(raw["evidence"], f"{where}.evidence"),
        kind=kind,
        compare=">=",  # a profile's effective trigger is the first T that compacts
        line=None,
        rule=_text(trigger["text"], f"{where}.trigger.text"),
        summary_cap=None,
        keeps=_text(raw["keeps"], f"{where}.keeps"),
        profile=name,
    )


def _peer(raw: Mapping[str, Any], i: int) -> Peer:
    where = f"peers[{i}]"
    if "profile" in raw:
        return _profile_peer(raw, where)
    trigger = raw["trigger"]
    kind = trigger["kind"]
    if kind not in _KINDS:
        raise FormulaError(f"{where}.trigger.kind: must be one of {', '.join(_KINDS)}")
    if raw["confidence"] not in _CONFIDENCES:
        raise FormulaError(f"{where}.confidence: must be one of {', '.join(_CONFIDENCES)}")
    line = trigger.get("line")
    compare = trigger.get("compare")
    if kind == "tokens":
        _check(line, f"{where}.trigger.line")
        if compare not in _COMPARES:
            raise FormulaError(f"{where}.trigger.compare: must be > or >=")
    elif line is not None:
        raise FormulaError(f"{where}.trigger.line: a {kind} rule has no token line")
    cap = raw.get("summary_cap")
    if cap is not None:
        _check(cap, f"{where}.summary_cap")
    repo, path = raw.get("repo"), raw.get("path")
    url = raw.get("url")
    if url is None and repo is not None:
        url = f"https://github.com/{repo}" + ("" if path is None else f"/blob/HEAD/{path}")
    runs, runs_text = _runs(raw.get("runs"), where)
    return Peer(
        runs=runs,
        runs_text=runs_text,
        id=raw["id"],
        name=raw["name"],
        version=raw.get("version"),
        repo=repo,
        path=path,
        url=url,
        seed=raw.get("seed"),
        confidence=raw["confidence"],
        evidence=_text(raw["evidence"], f"{where}.evidence"),
        kind=kind,
        compare=compare,
        line=line,
        rule=_text(trigger["text"], f"{where}.trigger.text"),
        summary_cap=cap,
        keeps=_text(raw["keeps"], f"{where}.keeps"),
        also=_also(trigger.get("also"), f"{where}.trigger.also", kind),
    )


def parse_peers(text: str | bytes) -> tuple[Peer, ...]:
    """Parse and check the peers data file. Raises FormulaError naming the entry."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != _FORMAT:
        raise FormulaError(f"peers: format must be {_FORMAT}")
    peers = tuple(_peer(raw, i) for i, raw in enumerate(data["peers"]))
    ids = [p.id for p in peers]
    if len(set(ids)) != len(ids):
        raise FormulaError("peers: ids must be unique")
    return peers


@cache
def default_peers() -> tuple[Peer, ...]:
    """The peers shipped in the package (parsed once, on first use)."""
    return parse_peers(shipped_bytes(DATA_FILE))


# ---------------------------------------------------------------- the view

_NO_LINE: dict[str, Text] = {
    "events": Text(
        "counts events, not tokens: no token line", "按事件计数而非 token：没有 token 线"
    ),
    "none": Text("does not fire by default: no token line", "默认不触发：没有 token 线"),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class PeerLine:
    """One peer's trigger line for one model."""

    peer: Peer
    tokens: int | None  # floor(exact), at least 0; None when the rule has no token line
    exact: Fraction | None  # the formula's exact value
    share: Fraction | None  # tokens / W, exact
    clamped: bool  # the formula went below 0 (fires at once): shown as 0
    beyond_window: bool  # a fixed count above this window: never reached
    summary_cap: int | None  # floor of the cap formula, where the system sets one
    no_line: Text | None  # why there is no token line
    # The system runs this model (``runs_model``): a line of one that cannot is listed
    # apart from the chart, never drawn against this model's window.
    for_model: bool = True

    @property
    def data_key(self) -> str:
        return f"peer-{self.peer.id}"


@dataclass(frozen=True, slots=True, kw_only=True)
class ReferenceLine:
    """A line of this scenario (K, M, hard) or of the context-layers article."""

    key: str  # trigger, main_safe_input, hard, clean, compact
    tokens: int
    share: Fraction  # tokens / W, exact
    label: Text

    @property
    def data_key(self) -> str:
        return f"line-{self.key}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Gap:
    """The room between two article lines. When the upper line is not above the lower
    one there is no room: ``tokens`` is 0 and ``no_room`` says why, never a negative
    room that reads like one."""

    low: str
    high: str
    tokens: int  # the room, >= 0
    label: Text
    #: None: there is room; "order": the high line lies ``short`` tokens below the low
    #: one; "reserve": the reply reserve exceeds the window W, so there is no hard line.
    no_room: Literal["order", "reserve"] | None = None
    short: int = 0  # how far the high line lies below the low one


#: The article lines' short names for a no-room sentence (the page's are the
#: catalogue's peers.line-short.* keys).
_SHORT = {"clean": ("clean", "清理"), "compact": ("compact", "压缩"), "hard": ("hard", "硬线")}


def _gap(
    low: str, high: str, tokens: tuple[int, int], label: Text, *, reserve: int, window: int
) -> Gap:
    """The room from line ``low`` up to line ``high`` (``tokens`` are theirs), or the
    reason there is none (docs/spec.md §13): no negative room."""
    if high == "hard" and reserve >= window:
        text = Text(
            f"no room: the reply reserve ({reserve:,} tokens) is at least the window W "
            f"({window:,} tokens), so there is no hard line",
            f"没有空间:回答预留({reserve:,} tokens)不小于窗口 W({window:,} tokens),因此没有硬线",
        )
        return Gap(low=low, high=high, tokens=0, label=text, no_room="reserve")
    room = tokens[1] - tokens[0]
    if room < 0:
        (lo_en, lo_zh), (hi_en, hi_zh) = _SHORT[low], _SHORT[high]
        text = Text(
            f"no room: the {hi_en} line lies {-room:,} tokens below the {lo_en} line",
            f"没有空间:「{hi_zh}」比「{lo_zh}」低 {-room:,} tokens",
        )
        return Gap(low=low, high=high, tokens=0, label=text, no_room="order", short=-room)
    return Gap(low=low, high=high, tokens=room, label=label)


@dataclass(frozen=True, slots=True, kw_only=True)
class PeerView:
    window: int  # W
    max_output: int  # O
    rows: tuple[PeerLine, ...]  # in PEERS.md order
    scenario: tuple[ReferenceLine, ...]  # K, M, hard
    article: tuple[ReferenceLine, ...]  # clean, compact, hard
    gaps: tuple[Gap, ...]  # clean -> compact, compact -> hard
    reserve: int = 0  # the reply reserve the hard line leaves out (0: not reserved)

    def line(self, key: str) -> ReferenceLine:
        for ref in (*self.scenario, *self.article):
            if ref.key == key:
                return ref
        raise KeyError(key)


def _floor(value: Fraction) -> int:
    return value.numerator // value.denominator


def _share(tokens: int, window: int) -> Fraction:
    return Fraction(tokens, window)


def _profile_line(peer: Peer, window: int, max_output: int, model: str | None) -> PeerLine:
    """A runtime's line: its profile's effective trigger at its defaults, the first T
    at which it compacts (``T >= line``, the runtime's own ``>`` folded in), exact."""
    from budgetcore.runtimes import PROFILES  # noqa: PLC0415 - loaded with the peers

    assert peer.profile is not None
    found = PROFILES[peer.profile]
    first = found.effective_trigger(window, max_output, None, model)
    cap = found.summary_cap(None)
    if first is None:
        return PeerLine(
            peer=peer,
            tokens=None,
            exact=None,
            share=None,
            clamped=False,
            beyond_window=False,
            summary_cap=cap,
            no_line=_NO_LINE["none"],
        )
    tokens = max(0, first)
    return PeerLine(
        peer=peer,
        tokens=tokens,
        exact=Fraction(first),
        share=_share(tokens, window),
        clamped=first <= 0,  # compacts at once: a profile clamps its line at 0 itself
        beyond_window=tokens > window,
        summary_cap=cap,
        no_line=None,
    )


def _peer_line(peer: Peer, window: int, max_output: int, model: str | None = None) -> PeerLine:
    if peer.profile is not None:
        return _profile_line(peer, window, max_output, model)
    cap = None
    if peer.summary_cap is not None:
        cap = _floor(evaluate(peer.summary_cap, window, max_output))
    if peer.kind != "tokens":
        return PeerLine(
            peer=peer,
            tokens=None,
            exact=None,
            share=None,
            clamped=False,
            beyond_window=False,
            summary_cap=cap,
            no_line=_NO_LINE[peer.kind],
        )
    exact = evaluate(peer.line, window, max_output)
    tokens = max(0, _floor(exact))  # token lines floor, like every budget
    return PeerLine(
        peer=peer,
        tokens=tokens,
        exact=exact,
        share=_share(tokens, window),
        clamped=exact < 0,
        beyond_window=tokens > window,
        summary_cap=cap,
        no_line=None,
    )


def token_line(peer: Peer, window: int, max_output: int, model: str | None = None) -> int | None:
    """``peer``'s token line for this model, as the peers view shows it (a runtime's:
    its profile's effective trigger); None without one, or one at or below 0."""
    line = _peer_line(peer, window, max_output, model)
    return None if line.tokens is None or line.exact is None or line.exact <= 0 else line.tokens


def peer_lines(
    window: int,
    max_output: int,
    plan: Plan,
    peers: Sequence[Peer] | None = None,
    model: str | None = None,
) -> PeerView:
    """Every peer's trigger line for a model of window W and max output O, beside this
    scenario's K, M and hard line (W − q·o: the request fails beyond it) and the
    context-layers article's clean (70 %) and compact (83.5 %) lines, both floored.
    A runtime's line is its profile's effective trigger at its defaults; ``model`` (a
    registry name) matters only where the runtime keys a limit by name (Gemini CLI).

    >>> from budgetcore.core.plan import plan as make_plan
    >>> from budgetcore.core.scenario import Scenario
    >>> view = peer_lines(200_000, 32_000, make_plan(Scenario()))
    >>> [(r.peer.id, r.tokens) for r in view.rows][:3]
    [('pi', 183617), ('codex', 180000), ('claude-code', 167000)]
    >>> [(g.low, g.high, g.tokens) for g in view.gaps]
    [('clean', 'compact', 27000), ('compact', 'hard', 24808)]
    """
    if window < 1 or max_output < 1:
        raise ValueError("window and max output must be at least 1 token")
    peers = default_peers() if peers is None else peers
    scenario = plan.scenario
    reserve = scenario.config.reply_max_tokens if scenario.main_model.reserves_output else 0
    hard = max(0, window - reserve)
    clean = _floor(ARTICLE_CLEAN * window)
    compact = _floor(ARTICLE_COMPACT * window)
    trigger = scenario.config.trigger_tokens
    hard_label = (
        Text(
            "hard line (W − output reserve): none, the reserve is at least W",
            "硬线（W − 输出预留）：没有，预留不小于 W",
        )
        if reserve >= window
        else Text("hard line (W − output reserve)", "硬线（W − 输出预留）")
    )
    return PeerView(
        window=window,
        max_output=max_output,
        rows=tuple(
            dataclasses.replace(line, for_model=False) if not runs_model(p, model) else line
            for p in peers
            for line in (_peer_line(p, window, max_output, model),)
        ),
        scenario=(
            ReferenceLine(
                key="trigger",
                tokens=trigger,
                share=_share(trigger, window),
                label=Text("K (this scenario's trigger)", "K（本场景的触发线）"),
            ),
            ReferenceLine(
                key="main_safe_input",
                tokens=plan.main_safe_input,
                share=_share(plan.main_safe_input, window),
                label=Text("M (main safe input)", "M（主请求安全输入）"),
            ),
            ReferenceLine(key="hard", tokens=hard, share=_share(hard, window), label=hard_label),
        ),
        article=(
            ReferenceLine(
                key="clean",
                tokens=clean,
                share=_share(clean, window),
                label=Text("clean line (70 %)", "清理线（70 %）"),
            ),
            ReferenceLine(
                key="compact",
                tokens=compact,
                share=_share(compact, window),
                label=Text("compact line (83.5 %)", "压缩线（83.5 %）"),
            ),
            ReferenceLine(key="hard", tokens=hard, share=_share(hard, window), label=hard_label),
        ),
        gaps=(
            _gap(
                "clean",
                "compact",
                (clean, compact),
                Text("room for several steps before compacting", "压缩前还能再走几步"),
                reserve=reserve,
                window=window,
            ),
            _gap(
                "compact",
                "hard",
                (compact, hard),
                Text("room for the summary call and the reply", "留给摘要调用与回答"),
                reserve=reserve,
                window=window,
            ),
        ),
        reserve=reserve,
    )


# ---------------------------------------------------------------- outputs


def _fraction(value: Fraction | None) -> str | None:
    return None if value is None else f"{value.numerator}/{value.denominator}"


def view_as_dict(view: PeerView, lang: str = "en") -> dict[str, Any]:
    """A JSON-ready form of the view; shares as exact ``num/den`` strings."""

    def ref(r: ReferenceLine) -> dict[str, Any]:
        return {
            "key": r.key,
            "tokens": r.tokens,
            "share": _fraction(r.share),
            "label": r.label.get(lang),
        }

    return {
        "window": view.window,
        "max_output": view.max_output,
        "reply_reserve": view.reserve,
        "rounding": "token lines are the exact formula value floored to whole tokens",
        "peers": [
            {
                "id": r.peer.id,
                "name": r.peer.name,
                "version": r.peer.version,
                "confidence": r.peer.confidence,
                "evidence": r.peer.evidence.get(lang),
                "kind": r.peer.kind,
                "compare": r.peer.compare,
                "rule": r.peer.rule.get(lang),
                "tokens": r.tokens,
                "exact": _fraction(r.exact),
                "share": _fraction(r.share),
                "clamped": r.clamped,
                "beyond_window": r.beyond_window,
                "for_model": r.for_model,
                "runs": None if r.peer.runs_text is None else r.peer.runs_text.get(lang),
                "no_line": None if r.no_line is None else r.no_line.get(lang),
                "summary_cap": r.summary_cap,
                "keeps": r.peer.keeps.get(lang),
                "source": r.peer.url,
                "also": [
                    {
                        "count": a.count,
                        "compare": a.compare,
                        "value": a.value,
                        "text": a.text.get(lang),
                        "kind": "count, not tokens",
                    }
                    for a in r.peer.also
                ],
            }
            for r in view.rows
        ],
        "scenario": [ref(r) for r in view.scenario],
        "article": [ref(r) for r in view.article],
        "gaps": [
            {
                "from": g.low,
                "to": g.high,
                "tokens": g.tokens,
                "no_room": g.no_room,
                "short": g.short,
                "label": g.label.get(lang),
            }
            for g in view.gaps
        ],
    }
