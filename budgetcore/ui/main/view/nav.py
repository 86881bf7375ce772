"""The section navigation: one button per panel, in page order.

A button names its section by element id (``data-nav``); the shell scrolls the section
into view and moves the focus to its heading. Buttons, not links: the location's
fragment holds the scenario (docs/page.md, Links), so moving around never changes it.
A new panel is one more line in :data:`SECTIONS` (its id in ``web/index.html``, its
button's text in ``budgetcore/messages/nav.py``).
"""

from __future__ import annotations

from budgetcore.messages import t
from budgetcore.ui.markup import Markup, el, join

__all__ = ["SECTIONS", "nav_html"]

#: (element id in web/index.html, catalogue key of its button), in page order.
SECTIONS: tuple[tuple[str, str], ...] = (
    ("results", "nav.plan"),
    ("peers", "nav.peers"),
    ("experiments", "nav.experiments"),
    ("curves", "nav.curves"),
    ("replay", "nav.replay"),
    ("tune", "nav.tune"),
    ("samples", "nav.samples"),
    ("config", "nav.export"),
)


def nav_html(lang: str = "en") -> Markup:
    """The navigation's buttons (texts retexted with the page's language)."""
    return join(
        el(
            "button",
            {"type": "button", "data-nav": section, "data-i18n": key},
            t(key, lang),
        )
        for section, key in SECTIONS
    )
