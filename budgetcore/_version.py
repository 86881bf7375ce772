"""The package's version, alone in a leaf module: the root, the export header and the
report read it without importing the package root (flit reads it here too)."""

__version__ = "0.1.0"
