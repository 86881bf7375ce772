"""Tune: the K × S map of one or more sessions (docs/tune.md)."""
