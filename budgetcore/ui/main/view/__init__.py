"""The page's view: ``render(state) -> Screen`` and each region's markup, one module per
region (empty, so importing one region never loads the others).

- ``types``: ``Screen``, ``FieldView``, ``PickerView`` and the readouts' order.
- ``screen``: ``render`` (every region of the main paint) and ``render_curves``.
- ``shell``: the static markup written once per page or language (controls, tables).
- ``readouts``: the readouts and the A/B cells.
- ``samples``: the samples panel (ratios, byte predictions, limits, read time).
- ``experiment``: an experiment's outcome.
- ``config``: the import preview, the warnings and the export.
- ``pickers``: the model pickers.
- ``peers``: the peers panel and table.
- ``nav``: the section navigation's buttons.
"""
