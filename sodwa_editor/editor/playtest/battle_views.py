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

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QDockWidget,
    QFrame,
    QMainWindow,
    QScrollArea,
    QSplitter,
    QToolBar,
    QWidget,
)

from .battle_panel import BattlePanel
from .character_panel import CharacterPanel
from .model import PlaytestModel
from .tsb_bar import TurnSequenceBar

BOTTOM = Qt.DockWidgetArea.BottomDockWidgetArea
CORNERS = (Qt.Corner.BottomLeftCorner, Qt.Corner.BottomRightCorner)
#: the bottom area's height when a battle begins (the attack previewed fits beside
#: the log; the user may drag it taller or shorter)
BOTTOM_HEIGHT = 190


class Barrier(QScrollArea):
    """A view's content in a scroll area whose size hints never change.  A panel's
    new text asks its layout again, and without this the request went up to the
    main window, which laid out its docks again on every step of a battle (the
    same reason as the editor's ``DockBody``).  Content wider than the window
    scrolls sideways."""

    def __init__(self, content: QWidget, hint: QSize, minimum: QSize) -> None:
        super().__init__()
        self.hint, self.minimum = hint, minimum
        self.setWidget(content)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return self.hint

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return self.minimum


class BattleViews:
    """The TSB, the Character Panels and the Battle Information Panel of ``model`` in
    ``window`` (hidden until a battle begins)."""

    def __init__(self, window: QMainWindow, model: PlaytestModel) -> None:
        self.win = window
        self.tsb = TurnSequenceBar(model)
        self.tsb_bar = QToolBar("Turn Sequence", window)
        self.tsb_bar.setObjectName("tsb_toolbar")
        self.tsb_bar.setMovable(False)
        full = self.tsb.full_size()
        self.tsb_bar.addWidget(Barrier(self.tsb, full, QSize(200, full.height())))
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
        self.area = Barrier(self.split, QSize(self.split.sizeHint().width(), BOTTOM_HEIGHT),
                            QSize(200, 100))
        self.dock.setWidget(self.area)
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
            win.resizeDocks([self.dock], [max(BOTTOM_HEIGHT,
                                              self.active_panel.sizeHint().height())],
                            Qt.Orientation.Vertical)
