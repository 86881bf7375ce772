"""The config panel: its handlers (``handlers``: the import box, the export's format,
the buttons, the export job), its view (``view``: the import preview, the warnings, the
export text and its diff, loaded with the export job's first step after the page is
ready) and the runtime picker (``runtime``: K and S in a runtime's own knobs, its own
file)."""

__all__: list[str] = []
