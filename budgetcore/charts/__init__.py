"""Chart geometry shared by the page and the report: axes, ticks, bars, timelines."""
