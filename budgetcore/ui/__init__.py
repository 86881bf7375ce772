"""The controller page as pure Python: state, messages, form, markup and charts.

Seams, one job each:

- ``messages``: the one message catalogue (English and Chinese, keyed, with parameters).
- ``markup``: the small HTML builder that always escapes.
- ``form``: each field's label, unit, slider map and the parse-and-validate step.
- ``state``: the frozen page state, its events and ``reduce(state, event) -> state``.
- ``problems``: core problems (a config, pasted samples, a link) as catalogue sentences.
- ``svg``: the charts (funnel, branch, work, curves, peers), from plan values to markup.
- ``render``: ``render(state) -> Screen``, everything the browser shell writes.
- ``replay_panel`` / ``replay_view``: the session replay panel's state and its markup.
- ``prerender``: the build's first view, written from the same ``Screen``.

``web/main.py`` only turns DOM events into events, calls ``reduce`` and ``render``, and
writes the result.
"""

__all__: list[str] = []
