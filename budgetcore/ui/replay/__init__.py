"""The session replay panel: its state (``state``), form, charts, summary and screen
(``view``, ``form``, ``charts``), an imported log's sessions (``logs``) and its
backtest (``backtest``). Imported with the panel, never at page boot."""

__all__: list[str] = []
