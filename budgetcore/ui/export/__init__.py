"""The config panel: the reviewed config's export and import (``view``: the import
preview, the warnings, the export text and its diff) and the runtime picker
(``runtime``: K and S in a runtime's own knobs, its own file). Loaded after the page is
ready, with the export job's first step."""

__all__: list[str] = []
