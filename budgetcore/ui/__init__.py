"""The controller page as pure Python: model, events, update, view and charts.

Seams, one job each:

- ``model``: the frozen ``PageState`` and its parts.
- ``events``: one small frozen event per way something reaches the page.
- ``update``: ``reduce(state, event) -> state``, the only way the page changes.
- ``dom``: the DOM-to-event table the shell calls.
- ``catalogue``: the one message catalogue (English and Chinese, keyed, by area).
- ``markup``: the small HTML builder that always escapes.
- ``form``: each field's label, unit, slider map and the parse-and-validate step.
- ``problems``: every problem line (form issues and core problems) as catalogue sentences.
- ``view``: ``render(state) -> Screen``, everything the browser shell writes, by region.
- ``svg``: the charts (funnel, branch, work, curves, peers), from plan values to markup.
- ``drawn``: a region's drawing carried from one render to the next, keyed by value.
- ``replay_panel`` / ``replay_view`` / ``replay_logs``: the session replay panel.
- ``tune_panel`` / ``tune_view``: the Tune panel (its grid in slices, its maps).
- ``prerender``: the build's first view, written from the same ``Screen``.

``web/main.py`` only turns DOM events into events (through ``dom``), calls ``reduce`` and
``render``, and writes the result.
"""

__all__: list[str] = []
