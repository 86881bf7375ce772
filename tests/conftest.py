from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

from tests.profiles import DEFAULT_EXAMPLES

# The machine is shared and noisy: a per-example deadline would measure it, not us.
_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
#: scripts/test and CI: every property with 200 examples.
settings.register_profile("default", max_examples=DEFAULT_EXAMPLES, **_COMMON)
#: HYPOTHESIS_PROFILE=dev for a quick local loop (a quarter of the examples).
settings.register_profile("dev", max_examples=DEFAULT_EXAMPLES // 4, **_COMMON)
#: HYPOTHESIS_PROFILE=thorough before a release, or after changing a rule an oracle checks.
settings.register_profile("thorough", max_examples=DEFAULT_EXAMPLES * 10, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

#: The fixtures' generator scripts are run by hand (``python tests/fixtures/.../make.py``),
#: never collected: two of them share a name.
collect_ignore_glob = ["fixtures/*"]
