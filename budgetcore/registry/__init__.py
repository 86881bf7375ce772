"""Reference data: the model registry (LiteLLM), prices and the peers' rules.

``budgetcore.registry.search(query, limit)`` and ``lookup(name)`` (and the rest of
``registry.models``'s public names, and ``registry.picks``') are the registry's public
API: they stay here, loaded on first use so that importing the package costs nothing at
page boot.
"""

from importlib import import_module

_API = (
    "DATA_FILE",
    "Picks",
    "Provenance",
    "Registry",
    "RegistryModel",
    "Release",
    "Resolution",
    "default_registry",
    "lookup",
    "model_as_dict",
    "near_matches",
    "parse_registry",
    "per_million",
    "picks",
    "require",
    "resolve",
    "search",
)


#: The names of the picker's module (registry.picks), the rest being registry.models'.
_PICKS = frozenset({"Picks", "picks"})


def __getattr__(name: str) -> object:
    if name in _API:
        home = "budgetcore.registry.picks" if name in _PICKS else "budgetcore.registry.models"
        return getattr(import_module(home), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
