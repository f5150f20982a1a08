"""The Battle UI around the playtest's map view, laid out as the rulebook draws it
(RB *The Battle UI*): the Turn-Sequence Bar (:mod:`.tsb_bar`) across the top, in
a tool bar row above the view, and along the bottom of the window, under the
view and the side docks, the active character's panel on the left, the Battle
Information Panel (:mod:`.battle_panel`) in the middle "between the two
Character Panels", and the clicked character's panel on the right
(:mod:`.character_panel`).

The bottom area is one dock of the bottom dock area, without a title bar, that
holds the three panels in a splitter; while it is shown the bottom corners of
the window belong to the bottom dock area, so it spans the window's full width
(the editor's corners come back on Stop).  Each panel takes the playtest model;
:class:`BattleViews` places them in a window and shows them while a battle runs.
The bar's clicks (:attr:`TurnSequenceBar.picked <.tsb_bar.TurnSequenceBar.picked>`)
go to the person's turn (the mode connects them)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QSplitter, QToolBar, QWidget

from .battle_panel import BattlePanel
from .character_panel import CharacterPanel
from .model import PlaytestModel
from .tsb_bar import TurnSequenceBar

BOTTOM = Qt.DockWidgetArea.BottomDockWidgetArea
CORNERS = (Qt.Corner.BottomLeftCorner, Qt.Corner.BottomRightCorner)


class BattleViews:
    """The TSB, the Character Panels and the Battle Information Panel of ``model`` in
    ``window`` (hidden until a battle begins)."""

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
        self.bip = BattlePanel(model)
        self.picked_panel = CharacterPanel("Selected character", model, "picked")
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.setObjectName("battle_ui")
        self.split.setChildrenCollapsible(False)
        for k, w in enumerate((self.active_panel, self.bip, self.picked_panel)):
            self.split.addWidget(w)
            self.split.setStretchFactor(k, 1 if w is self.bip else 0)
        self.dock = QDockWidget("Battle", window)
        self.dock.setObjectName("battle_ui_dock")
        self.dock.setFeatures(QDockWidget.DockWidgetFeature.NoDockWidgetFeatures)
        self.dock.setAllowedAreas(BOTTOM)
        self.dock.setTitleBarWidget(QWidget())  # the rulebook's panels have no title
        self.dock.setWidget(self.split)
        window.addDockWidget(BOTTOM, self.dock)
        self.docks = [self.dock]
        self._corners = {c: window.corner(c) for c in CORNERS}
        self.set_visible(False)
        model.started.connect(self._show)
        model.stopped.connect(self._hide)

    def _show(self) -> None:
        self.set_visible(True)

    def _hide(self) -> None:
        self.set_visible(False)

    def set_visible(self, on: bool) -> None:
        """Show (hide) the bar and the bottom area; while shown the bottom area spans
        the window's width (both bottom corners are its)."""
        win = self.win
        self.tsb_bar.setVisible(on)
        self.dock.setVisible(on)
        for corner in CORNERS:
            win.setCorner(corner, BOTTOM if on else self._corners[corner])
        if on:
            side = max(self.active_panel.sizeHint().width(),
                       self.picked_panel.sizeHint().width())
            rest = max(side, win.width() - 2 * side)
            self.split.setSizes([side, rest, side])
            win.resizeDocks([self.dock], [self.active_panel.sizeHint().height()],
                            Qt.Orientation.Vertical)
