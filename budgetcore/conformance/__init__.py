"""Conformance cases, JSON Schemas and the pytest plugin."""
