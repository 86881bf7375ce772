"""The hypothesis profiles' one number, and how a property that needs more or fewer
examples than the rest asks for them without leaving the profiles behind."""

from __future__ import annotations

from hypothesis import settings

#: Examples per property under the ``default`` profile (scripts/test and CI);
#: tests/conftest.py registers ``dev`` and ``thorough`` as multiples of it.
DEFAULT_EXAMPLES = 200


def examples(count: int) -> int:
    """``count`` examples under the default profile, scaled with the loaded one: a
    quarter under ``dev``, ten times under ``thorough`` (at least one).

    A property that pins ``max_examples=count`` would run ``count`` examples whatever
    the profile; ``max_examples=examples(count)`` keeps its weight against the others
    and still follows ``HYPOTHESIS_PROFILE``.
    """
    return max(1, count * settings().max_examples // DEFAULT_EXAMPLES)
