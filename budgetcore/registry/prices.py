"""Per-token prices of a model (SPEC §12, §13): exact Decimals, never floats.

One shape shared by the model registry (which fills it from LiteLLM's data) and the
session replay (which bills tokens with it). A price that the registry does not give
is ``None``; the replay then bills those tokens at the input price, or shows tokens
only when there is no input price either.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

__all__ = ["Prices"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Prices:
    """Money per single token (USD in LiteLLM's registry), exact."""

    input: Decimal | None = None
    output: Decimal | None = None
    cache_read: Decimal | None = None
    cache_write: Decimal | None = None

    @property
    def known(self) -> bool:
        """Whether there is enough to price a request (an input and an output price)."""
        return self.input is not None and self.output is not None
