"""Session replay: turns, imported agent logs and the turn-by-turn simulation."""

from budgetcore._moved import forward as _forward


def __getattr__(name: str) -> object:
    """The names of the 0.1 module ``budgetcore.replay``, for one release."""
    return _forward(__name__, name)
