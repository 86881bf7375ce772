"""What a reviewer must see before exporting a config (issue 42, docs/cli.md "check"):
settings the parser allows that defeat their own purpose. One home: ``check``, ``export``
and the page read these, each a catalogue key (``warn.<code>``) with its parameters, in
English and Chinese.

- ``s-above-o``: S above the summary model's output capacity O: clamped to O;
- ``k-at-or-above-m``: K at or above M: a request is rejected before the trigger can
  reach K, so compaction can never start in time;
- ``s-at-or-above-k``: S at or above K: the summary alone fills the trigger line, so
  every request after the first summary is above K;
- ``k-far-below-peers``: K below a quarter of the lowest token line of every other agent
  system's rule for this model, among the systems that run it (docs/models-and-peers.md):
  it compacts far earlier than any peer does;
- ``runtime-not-for-model``: the runtime the export is for cannot run the model
  (its profile's ``runs``: the Anthropic API serves Claude models only, Gemini CLI's
  limits know Gemini and Gemma): the exported settings would never apply to this plan;
- ``runtime-endpoint``: the runtime reaches the model only through a compatible endpoint
  (Claude Code with a model that is not Anthropic's: ``ANTHROPIC_BASE_URL``, as its
  providers document), and the window it assumes for a name it does not know.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

from budgetcore.core.capacity import clamps_summary, main_safe_input
from budgetcore.core.scenario import Scenario
from budgetcore.units import format_int

if TYPE_CHECKING:
    from budgetcore.registry.peers import Peer

__all__ = ["PEER_FRACTION", "ReviewWarning", "peers_warning", "review_warnings", "runtime_warning"]

#: "Far below" every peer: under this share of the lowest peer's token line.
PEER_FRACTION = Fraction(1, 4)


@dataclass(frozen=True, slots=True)
class ReviewWarning:
    code: str  # the catalogue key is "warn." + code
    params: tuple[tuple[str, str], ...]  # as the sentence shows them (grouped digits)

    def text(self, lang: str = "en") -> str:
        from budgetcore.messages import t  # noqa: PLC0415 - the one catalogue

        return t(f"warn.{self.code}", lang, **dict(self.params))

    def as_json(self) -> dict[str, object]:
        """The warning as ``plan``'s JSON carries it: the code, its parameters as the
        sentence shows them, and the sentence in both of the catalogue's languages."""
        return {
            "code": self.code,
            "params": dict(self.params),
            "text": {lang: self.text(lang) for lang in ("en", "zh")},
        }


def _peers_low(
    window: int, output: int, peers: Sequence[Peer], model: str | None = None
) -> tuple[int, str] | None:
    """The lowest token line of the peers that run this model, and whose: the lines the
    peers view draws (a runtime's is its profile's at its defaults). A system that
    cannot run the model is listed apart there, and is no peer here: the Anthropic
    API's context editing at 100,000 is not a line for gpt-5.1-codex."""
    from budgetcore.registry.peers import runs_model, token_line  # noqa: PLC0415

    low: tuple[int, str] | None = None
    for peer in peers:
        if not runs_model(peer, model):
            continue
        tokens = token_line(peer, window, output, model)
        if tokens is not None and (low is None or tokens < low[0]):
            low = (tokens, peer.name)
    return low


def runtime_warning(runtime: str, model: str | None) -> ReviewWarning | None:
    """``runtime-not-for-model`` when the runtime profile ``runtime`` cannot run the
    registry model ``model`` (None: a contract typed by hand, assumed to run);
    ``runtime-endpoint`` when it runs it only through a compatible endpoint the user
    sets (Claude Code with a model that is not Anthropic's: never "would not apply",
    as DeepSeek, Zhipu GLM, Qwen and Kimi document it)."""
    from budgetcore.runtimes import profile  # noqa: PLC0415 - with a runtime only

    prof = profile(runtime)
    if model is None:
        return None
    if not prof.serves(model):
        families = " / ".join(f"{f}-*" for f in prof.runs)  # names, alike in both languages
        return ReviewWarning(
            "runtime-not-for-model",
            (("runtime", prof.title), ("model", model), ("families", families)),
        )
    if prof.native_to(model):
        return None
    window = format_int(prof.assumed_window)
    return ReviewWarning(
        "runtime-endpoint", (("runtime", prof.title), ("model", model), ("window", window))
    )


def peers_warning(
    k: int,
    window: int,
    output: int,
    model: str | None,
    peers: Sequence[Peer] | Literal["default"] | None = "default",
) -> ReviewWarning | None:
    """``k-far-below-peers`` for a trigger line ``k`` on a model of window ``window``
    and output ``output`` (``model``: its registry name, None for a contract typed by
    hand): the reviewed K of a scenario, or the K a runtime's own file means for the
    model (``check --runtime``). ``peers`` as :func:`review_warnings` takes them."""
    if peers == "default":
        from budgetcore.registry.peers import default_peers  # noqa: PLC0415 - CLI only

        peers = default_peers()
    low = None if peers is None else _peers_low(window, output, peers, model)
    if low is None or k >= PEER_FRACTION * low[0]:
        return None
    params = (("k", format_int(k)), ("low", format_int(low[0])), ("peer", low[1]))
    return ReviewWarning("k-far-below-peers", params)


def review_warnings(
    scenario: Scenario,
    peers: Sequence[Peer] | Literal["default"] | None = "default",
    runtime: str | None = None,
) -> tuple[ReviewWarning, ...]:
    """Every warning ``scenario`` deserves, in the order above. ``peers``: the peers'
    rules to compare K with ("default": the shipped ones, loaded here; None: not yet
    loaded, as on the page before its registry arrives: that warning waits).
    ``runtime``: the runtime profile the export is for (None: budgetcore's own config),
    checked against the scenario's model."""
    cfg = scenario.config
    out = []
    s, k = cfg.summary_max_tokens, cfg.trigger_tokens
    o = scenario.summary_contract.output_tokens
    if clamps_summary(s, scenario.summary_contract):
        out.append(ReviewWarning("s-above-o", (("s", format_int(s)), ("o", format_int(o)))))
    m = main_safe_input(scenario.main_model, cfg.reply_max_tokens, cfg.safety_margin)
    if k >= m:
        out.append(ReviewWarning("k-at-or-above-m", (("k", format_int(k)), ("m", format_int(m)))))
    cap = min(s, o)
    if cap >= k:
        out.append(ReviewWarning("s-at-or-above-k", (("s", format_int(cap)), ("k", format_int(k)))))
    main = scenario.main_model
    far = peers_warning(k, main.input_tokens, main.output_tokens, scenario.main_model_name, peers)
    if far is not None:
        out.append(far)
    if runtime is not None:
        found = runtime_warning(runtime, scenario.main_model_name)
        if found is not None:
            out.append(found)
    return tuple(out)
