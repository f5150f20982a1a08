"""Validation dock: the io layer's semantic validation of the open map, re-run
(debounced) after every change.  Click (or double-click) a problem to centre the
map on it, highlight the tile or edge (the whole region for a reachability
warning, every tile of the type for a terrain type's warning) and select it
(the tile, or the object the problem is about) for the Inspector.

The dock takes the document; a double-clicked problem is emitted as a
:class:`Place` (:attr:`ValidationDock.place_chosen`), which the window shows on
the map."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from ...engine.model import Edge
from ...engine.regions import regions
from ...io import validate_model
from ...io.problems import edge_label
from ...io.symmetry_check import check_symmetry

if TYPE_CHECKING:
    from ..document import Document
    from ..tools.base import EditorState

DEBOUNCE_MS = 300
#: Problems about a whole region: double-click highlights all of it.
REGION_CODES = frozenset({"isolated-region", "zones-unreachable"})


@dataclass(frozen=True)
class Place:
    """Where a problem is: the tiles and edges to highlight, the point (tile
    units) to centre the view on (None: nowhere on the map) and the problem's
    message."""

    tiles: list[tuple[int, int]] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    centre: tuple[float, float] | None = None
    text: str = ""
    #: what to select for the Inspector: ("tile", (x, y)), ("object", id) or None
    select: tuple[str, object] | None = None


class ValidationDock(QWidget):
    """The problem list of the document's map (see the module docstring)."""

    #: a problem was double-clicked: show its :class:`Place` on the map
    place_chosen = Signal(object)

    def __init__(self, document: Document, state: EditorState | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.state = state  # its symmetry: the opt-in symmetry check runs while it is on
        self.problems: list = []
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        self.summary = QLabel("")
        lay.addWidget(self.summary)
        self.list = QListWidget()
        self.list.setWordWrap(True)  # long messages wrap instead of hiding their end
        self.list.itemDoubleClicked.connect(self._focus_item)
        self.list.itemClicked.connect(self._focus_item)
        lay.addWidget(self.list)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.run)
        document.edited.connect(self.timer.start)
        document.model_replaced.connect(self._model_replaced)
        if state is not None:
            state.changed.connect(lambda name: name == "symmetry" and self.timer.start())
        self.timer.start()

    def _model_replaced(self, _model: object) -> None:
        self.timer.start()

    def run(self) -> list:
        """Validate now and refresh the list."""
        self.timer.stop()
        self.problems = validate_model(self.document.model)
        mode = self.state.symmetry if self.state is not None else "off"
        if mode != "off":  # symmetry painting on: where the two sides differ
            self.problems += check_symmetry(self.document.model, mode)
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
        model = self.document.model
        x, y = tile
        if code in REGION_CODES and model.in_bounds(x, y):
            label = regions(model)
            if label[y, x] >= 0:
                ys, xs = np.nonzero(label == label[y, x])
                return list(zip(xs.tolist(), ys.tolist(), strict=True))
        return [(x, y)]

    def _focus_item(self, item: QListWidgetItem) -> None:
        self.focus(item.data(Qt.ItemDataRole.UserRole))

    def _object_of(self, path: str) -> str | None:
        """The id of the object a problem's JSON pointer points into, or None."""
        from ...io.checks import Locator

        loc = Locator(self.document.model)
        return next((oid for oid in self.document.model.objects
                     if path == (at := loc.obj(oid)) or path.startswith(at + "/")), None)

    def _type_place(self, path: str, message: str) -> Place | None:
        """A terrain type's problem: every tile of that type (the first centred and
        selected), or None when no tile has it."""
        parts = path.split("/")
        if len(parts) < 3 or parts[1] != "terrain_types" or not parts[2].isdigit():
            return None
        model = self.document.model
        specials = model.registry.special_types()
        if int(parts[2]) >= len(specials):
            return None
        ys, xs = np.nonzero(model.terrain == model.registry.id_of(specials[int(parts[2])].name))
        if not len(xs):
            return None
        tiles = list(zip(xs.tolist(), ys.tolist(), strict=True))
        x, y = tiles[0]
        return Place(tiles, [], (x + 0.5, y + 0.5), message, ("tile", (x, y)))

    def place_of(self, index: int) -> Place:
        """Where problem ``index`` is (see :class:`Place`)."""
        p = self.problems[index]
        if p.tile is not None:
            oid = self._object_of(p.path) if p.path.startswith("/objects/") else None
            return Place(self._place(p.tile, p.code), [], (p.tile[0] + 0.5, p.tile[1] + 0.5),
                         p.message, ("object", oid) if oid else ("tile", p.tile))
        typed = self._type_place(p.path, p.message)
        if typed is not None:
            return typed
        if p.edge is not None:
            (ax, ay), (bx, by) = p.edge.tiles
            return Place([], [p.edge], ((ax + bx + 1) / 2, (ay + by + 1) / 2), p.message)
        return Place(text=p.message)

    def focus(self, index: int) -> None:
        """Show problem ``index`` on the map (emits :attr:`place_chosen`)."""
        self.place_chosen.emit(self.place_of(index))
