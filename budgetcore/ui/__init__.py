"""The controller page as pure Python: model, events, update, effects, views and charts.

Shared seams, one job each:

- ``model``: the frozen ``PageState`` and its parts; ``picker``: a model picker's state.
- ``events``: one small frozen event per way something reaches the page.
- ``effects``: what update asks the shell to do (a job's next step, a download, a copy,
  a notice's timer, a package to load); the jobs are the page's slow work.
- ``update``: ``update(state, event) -> (state, effects)``, the only way the page changes.
- ``validate``: the main form's one validation path (texts, values, rules, plan).
- ``picks``: the pickers' chosen models, the link's model names, their prices.
- ``dom``: the DOM-to-event table the shell calls, and what it reads off an element.
- ``paint``: what the shell writes, as DOM operations diffed against its one record.
- ``drawn``: a region's drawing carried from one render to the next, keyed by value.
- ``markup``: the small HTML builder that always escapes.
- ``form``: each field's label, unit, slider map and the parse-and-validate step.
- ``problems``: every problem line (form issues and core problems) as catalogue sentences.
- ``view``: the main form's view, ``render(state) -> Screen``, by region.
- ``svg``: the charts (funnel, branch, work, curves, peers), from plan values to markup.
- ``hooks``: the page's JSON hooks for tests and users.
- ``prerender``: the build's first view, written from the same ``Screen``.

One package per panel, each with its state, handlers and view: ``replay`` (the session
replay) and ``tune`` (the Tune panel). ``web/main.py`` only turns DOM events into
events (through ``dom``), runs the effects, and applies ``paint``'s operations.
"""

__all__: list[str] = []
