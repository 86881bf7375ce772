"""The message catalogue's old address: ``budgetcore.ui.catalogue`` is its home.

Kept so ``from budgetcore.ui.messages import t, CATALOGUE`` keeps working; new code
imports ``budgetcore.ui.catalogue``.
"""

from budgetcore.ui.catalogue import CATALOGUE, LANGS, count, t

__all__ = ["CATALOGUE", "LANGS", "count", "t"]
