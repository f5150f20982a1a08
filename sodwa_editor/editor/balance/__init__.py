"""Balance runs from the editor (issue 13 section 3): Tools > Balance Run (the dialog,
:mod:`.dialog`), the run off the GUI thread (:mod:`.runner`) and the per-tile heat
map over the map (:mod:`.heatmap`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..main_window import MainWindow


def install(win: MainWindow) -> None:
    """Tools > Balance Run... and the heat map's section of the Layers dock."""
    from PySide6.QtWidgets import QVBoxLayout

    from ..actions import make_action
    from .heatmap import HeatMapControls

    win.heat_map = HeatMapControls(win)
    lay = win.layers.layout()
    assert isinstance(lay, QVBoxLayout)
    lay.insertWidget(lay.count() - 1, win.heat_map)  # before the dock's closing stretch
    act = make_action(win, "&Balance Run...", lambda: open_dialog(win), None,
                      "A batch of AI-vs-AI battles on this map: win rates, plots, heat map")
    win.action_map["balance_run"] = act
    win.tools_menu.addSeparator()
    win.tools_menu.addAction(act)


def open_dialog(win: MainWindow):
    """Show the window's Balance Run dialog (made on first use, kept afterwards)."""
    from .dialog import BalanceDialog

    dialog = getattr(win, "balance_dialog", None)
    if dialog is None:
        dialog = win.balance_dialog = BalanceDialog(win.document, win)
        dialog.heat_map_requested.connect(win.heat_map.show_report)
        dialog.message.connect(win.show_status)  # the heat map's caption: no note over it
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    return dialog
