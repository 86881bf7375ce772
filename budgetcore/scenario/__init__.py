"""Scenario values, their fields and rules, and how they are read and written."""
