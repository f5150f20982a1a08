"""The Battle UI around the playtest's map view (RB *The Battle UI*): the
Turn-Sequence Bar (:mod:`.tsb_bar`) in a tool bar row above the view and the two
Character Panels (:mod:`.character_panel`) in docks below it, the active
character on the left and the last one picked on the right.  Each takes the
playtest model; :class:`BattleViews` places them in a window and shows them
while a battle runs.  The bar's clicks
(:attr:`TurnSequenceBar.picked <.tsb_bar.TurnSequenceBar.picked>`) go to the
person's turn (the mode connects them)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QToolBar

from .character_panel import CharacterPanel
from .model import PlaytestModel
from .tsb_bar import TurnSequenceBar


class BattleViews:
    """The TSB and the Character Panels of ``model`` in ``window`` (hidden until a
    battle begins)."""

    def __init__(self, window: QMainWindow, model: PlaytestModel) -> None:
        self.win = window
        self.tsb = TurnSequenceBar(model)
        self.tsb_bar = QToolBar("Turn Sequence", window)
        self.tsb_bar.setObjectName("tsb_toolbar")
        self.tsb_bar.setMovable(False)
        self.tsb_bar.addWidget(self.tsb)
        window.addToolBarBreak()
        window.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.tsb_bar)
        self.active_panel = CharacterPanel("Active character", model, "active")
        self.picked_panel = CharacterPanel("Selected character", model, "picked")
        self.docks: list[QDockWidget] = []
        for panel, name in ((self.active_panel, "active_character_dock"),
                            (self.picked_panel, "picked_character_dock")):
            dock = QDockWidget(panel.title, window)
            dock.setObjectName(name)
            dock.setWidget(panel)
            window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
            self.docks.append(dock)
        window.splitDockWidget(self.docks[0], self.docks[1], Qt.Orientation.Horizontal)
        self._corner = window.corner(Qt.Corner.BottomRightCorner)
        self.set_visible(False)
        model.started.connect(self._show)
        model.stopped.connect(self._hide)

    def _show(self) -> None:
        self.set_visible(True)

    def _hide(self) -> None:
        self.set_visible(False)

    def set_visible(self, on: bool) -> None:
        """Show (hide) the bar and the panels; while shown the right dock area keeps
        the window's full height (the bottom right corner is its), so the Battle dock
        is not squeezed."""
        win = self.win
        self.tsb_bar.setVisible(on)
        for dock in self.docks:
            dock.setVisible(on)
        win.setCorner(Qt.Corner.BottomRightCorner,
                      Qt.DockWidgetArea.RightDockWidgetArea if on else self._corner)
        if on:
            win.resizeDocks(self.docks, [1, 1], Qt.Orientation.Horizontal)
