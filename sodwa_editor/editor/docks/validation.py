"""Validation dock: the io layer's semantic validation of the open map, re-run
(debounced) after every change.  Double-click a problem to centre the map on
it and highlight the tile or edge (the whole region for a reachability warning)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from ...engine.regions import regions
from ...io import validate_model
from ...io.problems import edge_label

if TYPE_CHECKING:
    from ..main_window import MainWindow

DEBOUNCE_MS = 300
#: Problems about a whole region: double-click highlights all of it.
REGION_CODES = frozenset({"isolated-region", "zones-unreachable"})


class ValidationDock(QWidget):
    def __init__(self, win: MainWindow) -> None:
        super().__init__(win)
        self.win = win
        self.problems: list = []
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        self.summary = QLabel("")
        lay.addWidget(self.summary)
        self.list = QListWidget()
        self.list.setWordWrap(True)  # long messages wrap instead of hiding their end
        self.list.itemDoubleClicked.connect(self._focus_item)
        lay.addWidget(self.list)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.run)
        win.document.edited.connect(self.timer.start)
        win.document.model_replaced.connect(lambda _m: self.timer.start())
        self.timer.start()

    def run(self) -> list:
        """Validate now and refresh the list."""
        self.timer.stop()
        self.problems = validate_model(self.win.document.model)
        self.list.clear()
        errors = sum(p.severity == "error" for p in self.problems)
        warnings = len(self.problems) - errors
        self.summary.setText(
            "No problems" if not self.problems else f"{errors} error(s), {warnings} warning(s)")
        for i, p in enumerate(self.problems):
            place = where = ""
            if p.tile is not None:
                place = f"({p.tile[0]}, {p.tile[1]})"
                where = f" at {place}"
            elif p.edge is not None:
                place = edge_label(p.edge)
                where = f" on edge {place}"
            if place and place in p.message:
                where = ""  # the message names the place already
            item = QListWidgetItem(f"{'E' if p.severity == 'error' else 'W'}  {p.message}{where}")
            item.setData(Qt.ItemDataRole.UserRole, i)
            item.setForeground(Qt.GlobalColor.red if p.severity == "error"
                               else Qt.GlobalColor.darkYellow)
            item.setToolTip(f"{p.severity} [{p.code}] {p.path}\n{p.message}")
            self.list.addItem(item)
        return self.problems

    def _place(self, tile: tuple[int, int], code: str) -> list[tuple[int, int]]:
        """The tiles to highlight for a problem at ``tile``: the whole region for the
        reachability warnings (docs/rules.md R2, R3), else the tile."""
        model = self.win.document.model
        x, y = tile
        if code in REGION_CODES and model.in_bounds(x, y):
            label = regions(model)
            if label[y, x] >= 0:
                ys, xs = np.nonzero(label == label[y, x])
                return list(zip(xs.tolist(), ys.tolist(), strict=True))
        return [(x, y)]

    def _focus_item(self, item: QListWidgetItem) -> None:
        self.focus(item.data(Qt.ItemDataRole.UserRole))

    def focus(self, index: int) -> None:
        """Centre the view on problem ``index`` and highlight its place."""
        p = self.problems[index]
        scene = self.win.scene
        if p.tile is not None:
            scene.focus.set_shape(self._place(p.tile, p.code))
            self.win.center_on(p.tile[0] + 0.5, p.tile[1] + 0.5)
        elif p.edge is not None:
            scene.focus.set_shape(edges=[p.edge])
            (ax, ay), (bx, by) = p.edge.tiles
            self.win.center_on((ax + bx + 1) / 2, (ay + by + 1) / 2)
        else:
            scene.focus.clear()
        self.win.statusBar().showMessage(p.message, 8000)
