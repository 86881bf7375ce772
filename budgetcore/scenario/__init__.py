"""Scenario values, their fields and rules, and how they are read and written."""

from budgetcore._moved import forward as _forward


def __getattr__(name: str) -> object:
    """The names of the 0.1 module ``budgetcore.scenario``, for one release."""
    return _forward(__name__, name)
