"""The Tune panel (docs/tune.md): its state and grid in slices (``state``) and its maps,
choice and export (``view``). Imported with the panel, never at page boot."""

__all__: list[str] = []
