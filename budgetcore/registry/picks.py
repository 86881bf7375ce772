"""What a model picker offers for the text typed so far: the page's pickers and the CLI's
``models`` list the same (docs/models-and-peers.md).

Apart from :mod:`budgetcore.registry.models` because a log's read resolves its models
through that module and never picks one: the class was about 4 M instructions of every
log read's start-up (docs/performance.md, issue 40's fourteenth session).
"""

from __future__ import annotations

from dataclasses import dataclass

from budgetcore.registry.models import Registry, RegistryModel, Resolution, default_registry

__all__ = ["Picks", "picks"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Picks:
    """What a model picker shows for the text typed so far."""

    query: str
    total: int  # every match
    models: tuple[RegistryModel, ...]  # the best ``limit`` of them
    release: str  # e.g. "LiteLLM 1.110.2", shown beside the prices
    # The text as a model name, when it names one other than by its exact id (an
    # alias, a date suffix, a provider prefix): that model is listed first.
    resolution: Resolution | None = None


def picks(query: str, limit: int | None = 12, registry: Registry | None = None) -> Picks:
    """The picker's options for ``query`` (the shipped registry unless one is given;
    ``limit`` None: every match). The CLI's ``models`` lists the same.

    >>> p = picks("sonnet 4.5", 1)
    >>> p.models[0].name, p.models[0].contract.input_tokens, p.total > 1
    ('claude-sonnet-4-5', 200000, True)
    >>> p = picks("claude-sonnet-4", 1)
    >>> p.models[0].name, p.resolution.how
    ('claude-sonnet-4-20250514', 'alias')
    """
    reg = default_registry() if registry is None else registry
    rows = reg.matches(query)
    found = reg.resolve(query.strip()) if query.strip() else None
    resolution = found if found is not None and found.model is not None else None
    if resolution is not None and resolution.exact:
        resolution = None  # an exact id is first anyway (rank 0)
    models = tuple(reg._model(r, True) for r in rows[:limit])
    total = len(rows)
    if resolution is not None and resolution.model is not None:
        first = resolution.model
        rest = tuple(m for m in models if m.name != first.name)
        if len(rest) == len(models):  # the resolved model was not among the matches
            total += 1
        models = (first, *rest)[:limit]
    return Picks(
        query=query,
        total=total,
        models=models,
        release=reg.provenance.label,
        resolution=resolution,
    )
