"""The main form: its handlers (``handlers``), its one validation path (``validate``)
and its view, one module per region (``view``). Its state is the page model's own
fields (``ui.model.PageState``); nothing here is imported by ``ui.model``."""

__all__: list[str] = []
