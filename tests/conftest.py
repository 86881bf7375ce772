from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# The machine is shared and noisy: a per-example deadline would measure it, not us.
_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
#: scripts/test and CI: every property with 200 examples.
settings.register_profile("default", max_examples=200, **_COMMON)
#: HYPOTHESIS_PROFILE=dev for a quick local loop (a quarter of the examples).
settings.register_profile("dev", max_examples=50, **_COMMON)
#: HYPOTHESIS_PROFILE=thorough before a release, or after changing a rule an oracle checks.
settings.register_profile("thorough", max_examples=2_000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
