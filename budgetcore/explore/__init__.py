"""Exploring one scenario: capacity curves (sweeps) and the boundary experiments."""
