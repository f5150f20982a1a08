"""Symmetry painting in the window (issue 29): the Edit menu's toggle and mode
entries, the document following the chosen mode, and the mirrored hover and
tool preview drawn where the mirrored edit will land.

The mode lives in the editing state (``EditorState.symmetry``, one of
:data:`~..engine.symmetry.MODES`); the tool options bar shows it for every
painting tool; the document writes the images of each painting edit in the
same undo step (:mod:`.symmetry_edits`); the Validation dock lists where the
map's sides differ while it is on (:mod:`..io.symmetry_check`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup

from ..engine.model import Edge
from ..engine.symmetry import IMAGES, MODES, edge_image, tile_images
from .actions import ActionSpec, build_actions
from .scene.overlay_items import ShapeOverlay

if TYPE_CHECKING:
    from .document import Document
    from .scene.map_scene import MapScene
    from .tools.base import EditorState

#: the Edit menu's symmetry entries (Tiled has no symmetry, so no Tiled key)
SYMMETRY_ACTIONS = (
    ActionSpec("symmetry", "S&ymmetry Painting", "Ctrl+Shift+Y",
               "Paint both sides of a 1v1 map at once (the mode below; characters and "
               "start zones of the mirrored side go to the other team)", True),
    *(ActionSpec(f"symmetry_{mode}", f"Symmetry: {label}", None,
                 f"Symmetry painting on, {label.lower()} about the map's centre", True)
      for mode, label in MODES.items() if mode != "off"),
)


class SymmetryControl(QObject):
    """Keeps the document's symmetry and the mirrored hover in step with the
    editing state's ``symmetry``; builds the menu actions."""

    def __init__(self, document: Document, state: EditorState, scene: MapScene,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document, self.state, self.scene = document, state, scene
        self.last = "rotate"  # the mode the toggle turns on
        self.actions: dict[str, QAction] = {}
        self.echoes: list[tuple[ShapeOverlay, ShapeOverlay]] = []
        for source in (scene.hover, scene.preview):
            echo = ShapeOverlay(source.pen, source.brush, source.zValue())
            scene.add_transient(echo)  # not exported with the map
            source.on_shape = lambda tiles, edges, e=echo: self._echo(e, tiles, edges)
            self.echoes.append((source, echo))
        state.changed.connect(self._state_changed)

    def build_actions(self, parent: QObject) -> dict[str, QAction]:
        slots: dict[str, Callable[[], object]] = {"symmetry": self.toggle}
        slots.update({f"symmetry_{m}": partial(self.state.set, "symmetry", m)
                      for m in MODES if m != "off"})
        self.actions = build_actions(parent, SYMMETRY_ACTIONS, slots)
        group = QActionGroup(parent)
        group.setExclusive(True)
        for mode in MODES:
            if mode != "off":
                group.addAction(self.actions[f"symmetry_{mode}"])
        self._show()
        return self.actions

    def toggle(self) -> None:
        self.state.set("symmetry", "off" if self.state.symmetry != "off" else self.last)

    def _state_changed(self, name: str) -> None:
        if name != "symmetry":
            return
        mode = self.state.symmetry
        self.document.symmetry = mode
        if mode != "off":
            self.last = mode
        self._show()
        for source, echo in self.echoes:
            self._echo(echo, source.tiles, source.edges)
        self.state.status.emit("Symmetry painting off" if mode == "off" else
                               f"Symmetry painting: {MODES[mode].lower()}; each edit is "
                               "mirrored in the same undo step")

    def _show(self) -> None:
        if not self.actions:
            return
        mode = self.state.symmetry
        self.actions["symmetry"].setChecked(mode != "off")
        for m in MODES:
            if m != "off":
                self.actions[f"symmetry_{m}"].setChecked(m == mode)

    def images(self, tiles: list[tuple[int, int]], edges: list[Edge]
               ) -> tuple[list[tuple[int, int]], list[Edge]]:
        """The images of tiles and edges under the current mode (on the map)."""
        mode, m = self.state.symmetry, self.document.model
        if mode == "off" or not (tiles or edges):
            return [], []
        out_t: list[tuple[int, int]] = []
        if tiles:
            xs, ys = (np.array(a, np.intp) for a in zip(*tiles, strict=True))
            for ix, iy, _swap in tile_images(mode, m.width, m.height, xs, ys):
                out_t += [(x, y) for x, y in zip(ix.tolist(), iy.tolist(), strict=True)
                          if m.in_bounds(x, y) and (x, y) not in tiles]
        out_e = [edge_image(m.width, m.height, e, fx, fy) for fx, fy, _s in IMAGES[mode]
                 for e in edges]
        return list(dict.fromkeys(out_t)), [e for e in dict.fromkeys(out_e)
                                            if m.edge_in_bounds(e) and e not in edges]

    def _echo(self, echo: ShapeOverlay, tiles: list[tuple[int, int]], edges: list[Edge]) -> None:
        echo.set_shape(*self.images(list(tiles), list(edges)))
