"""The page state's old address: the model, its events and ``reduce`` in one namespace.

The homes are :mod:`budgetcore.ui.model` (``PageState`` and its parts),
:mod:`budgetcore.ui.events` (one frozen event per way something reaches the page) and
:mod:`budgetcore.ui.update` (``reduce``). Kept so ``from budgetcore.ui import state as
S`` keeps working.
"""

from budgetcore.ui.events import *  # noqa: F403
from budgetcore.ui.events import __all__ as _events
from budgetcore.ui.model import *  # noqa: F403
from budgetcore.ui.model import __all__ as _model
from budgetcore.ui.update import *  # noqa: F403
from budgetcore.ui.update import __all__ as _update

__all__ = [*_events, *_model, *_update]  # noqa: PLE0604
