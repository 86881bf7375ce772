"""The view's old address: ``budgetcore.ui.view`` is its home (one module per region).

Kept so ``from budgetcore.ui.render import render, Screen, READOUT_KEYS`` keeps
working; new code imports the region's module.
"""

from budgetcore.ui.problems import problem_text
from budgetcore.ui.view.config import render_export
from budgetcore.ui.view.peers import peers_html, render_peers
from budgetcore.ui.view.readouts import ab_cells, format_signed
from budgetcore.ui.view.screen import render, render_curves
from budgetcore.ui.view.shell import (
    averages_html,
    background_html,
    controls_html,
    experiment_buttons_html,
    key_readouts_html,
    language_html,
    picker_html,
    readouts_html,
    shell_html,
    sweep_options_html,
)
from budgetcore.ui.view.types import (
    BOOL_KEYS,
    KEY_READOUTS,
    READOUT_KEYS,
    FieldView,
    PickerView,
    Screen,
)

# The old names, for one release.
issue_text = problem_text
_ab_cells = ab_cells

__all__ = [
    "BOOL_KEYS",
    "KEY_READOUTS",
    "READOUT_KEYS",
    "FieldView",
    "PickerView",
    "Screen",
    "ab_cells",
    "averages_html",
    "background_html",
    "controls_html",
    "experiment_buttons_html",
    "format_signed",
    "issue_text",
    "key_readouts_html",
    "language_html",
    "peers_html",
    "picker_html",
    "problem_text",
    "readouts_html",
    "render",
    "render_curves",
    "render_export",
    "render_peers",
    "shell_html",
    "sweep_options_html",
]
