"""What tests/test_config.py and its properties (tests/property/) share."""

from __future__ import annotations

from budgetcore.scenario.overrides import OVERRIDES

KEYS = [o.key for o in OVERRIDES]
