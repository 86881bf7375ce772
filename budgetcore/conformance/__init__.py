"""Conformance cases, JSON Schemas and the pytest plugin."""

#: More random cases than this is a typo, not a test plan (each costs a few ms). Here,
#: not in ``cases``, so that the pytest plugin's options can say it without loading the
#: cases (they plan at import).
MAX_RANDOM_COUNT = 10_000
