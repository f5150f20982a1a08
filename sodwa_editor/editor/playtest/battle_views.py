"""The Battle UI around the playtest's map view (RB *The Battle UI*): the
Turn-Sequence Bar (:mod:`.tsb_bar`) in a tool bar row above the view and the two
Character Panels (:mod:`.character_panel`) in docks below it, the active
character on the left and the last one picked on the right.  The mode
(:mod:`.mode`) shows them with a battle state and receives the bar's clicks
(:attr:`TurnSequenceBar.picked <.tsb_bar.TurnSequenceBar.picked>`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QDockWidget, QToolBar

from ...battle.state import BattleState
from .character_panel import CharacterPanel
from .tsb_bar import TurnSequenceBar

if TYPE_CHECKING:
    from ..main_window import MainWindow


class BattleViews:
    """The TSB and the Character Panels of one main window (hidden until shown)."""

    def __init__(self, win: MainWindow) -> None:
        self.win = win
        self.picked: int | None = None  # the character of the right panel
        self.tsb = TurnSequenceBar()
        self.tsb_bar = QToolBar("Turn Sequence", win)
        self.tsb_bar.setObjectName("tsb_toolbar")
        self.tsb_bar.setMovable(False)
        self.tsb_bar.addWidget(self.tsb)
        win.addToolBarBreak()
        win.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.tsb_bar)
        self.active_panel = CharacterPanel("Active character")
        self.picked_panel = CharacterPanel("Selected character")
        self.docks: list[QDockWidget] = []
        for panel, name in ((self.active_panel, "active_character_dock"),
                            (self.picked_panel, "picked_character_dock")):
            dock = QDockWidget(panel.title, win)
            dock.setObjectName(name)
            dock.setWidget(panel)
            win.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
            self.docks.append(dock)
        win.splitDockWidget(self.docks[0], self.docks[1], Qt.Orientation.Horizontal)
        self._corner = win.corner(Qt.Corner.BottomRightCorner)
        self.set_visible(False)

    def set_visible(self, on: bool) -> None:
        """Show (hide) the bar and the panels; while shown the right dock area keeps
        the window's full height (the bottom right corner is its), so the Battle dock
        is not squeezed.  Showing starts with no character picked."""
        win = self.win
        self.tsb_bar.setVisible(on)
        for dock in self.docks:
            dock.setVisible(on)
        win.setCorner(Qt.Corner.BottomRightCorner,
                      Qt.DockWidgetArea.RightDockWidgetArea if on else self._corner)
        if on:
            self.picked = None
            win.resizeDocks(self.docks, [1, 1], Qt.Orientation.Horizontal)

    def show(self, state: BattleState, colors: Mapping[str, QColor] | None = None) -> None:
        """The bar and the panels of ``state``: on the left the active character
        (between turns, the next one of the bar), on the right the one picked."""
        self.tsb.show_state(state, colors)
        entries = self.tsb.entries
        actor = state.actor if state.actor is not None else (
            entries[0].actor if entries else self.active_panel.index)
        self.active_panel.show_character(state, actor, colors)
        self.picked_panel.show_character(state, self.picked, colors)

    def pick(self, state: BattleState, i: int,
             colors: Mapping[str, QColor] | None = None) -> None:
        """Character ``i`` into the right panel (RB: "Whenever you click on a character
        who is not the active character ... the bottom right Character Panel")."""
        self.picked = i
        self.picked_panel.show_character(state, i, colors)
