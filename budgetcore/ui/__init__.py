"""The controller page as pure Python: state, messages, form, markup and charts.

Seams, one job each:

- ``messages``: the one message catalogue (English and Chinese, keyed, with parameters).
- ``markup``: the small HTML builder that always escapes.
- ``form``: each field's label, unit, slider map and the parse-and-validate step.
- ``state``: the frozen page state, its events and ``reduce(state, event) -> state``.
- ``svg``: the charts (funnel, branch, work, curves), from plan geometry to markup.
- ``render``: ``render(state) -> Screen``, everything the browser shell writes.

``web/main.py`` only turns DOM events into events, calls ``reduce`` and ``render``, and
writes the result.
"""

__all__: list[str] = []
