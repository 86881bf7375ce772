from __future__ import annotations

from hypothesis import HealthCheck, settings

# The machine is shared and noisy: a per-example deadline would measure it, not us.
settings.register_profile(
    "default", deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")
