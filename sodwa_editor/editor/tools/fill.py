"""Flood fill (F): replace the clicked tile's contiguous same-terrain,
same-elevation region; borders stop the fill.  Hovering shows the region the
click would fill and the status bar says how many tiles it would change (a fill
that leaks through a door gap shows before it happens, as in Tiled)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from ...engine.model import MapModel
from ..geometry import Tile, flood_region
from ..scene.overlay_items import MaskShape
from .base import Tool, ToolEvent

#: regions kept prepared at most (then the cache starts again)
MAX_REGIONS = 256


class FillTool(Tool):
    name = "fill"
    label = "Fill"
    shortcut = "F"
    tip = "Flood-fill a contiguous area (same terrain and elevation, stops at borders)"
    options = ("terrain_id",)

    def __init__(self, *args) -> None:
        super().__init__(*args)
        #: the regions hovered since the map last changed, each drawn once:
        #: ``_label[y, x]`` is 1 + the index in ``_shapes`` of the region holding
        #: the tile (0: not hovered yet); the region is the same for every tile
        #: of one component, so hovering over it again computes nothing
        self._shapes: list[MaskShape] = []
        self._label = np.zeros((0, 0), np.int32)
        self._model: MapModel | None = None  # the map and its revision the cache is for
        self._revision = -1
        #: the tile under the pointer, and the (region, terrain) the status bar speaks of
        self._hovered: Tile | None = None
        self._said: tuple[MaskShape, int] | None = None
        self.state.changed.connect(self._option_changed)

    def shape(self, tile: Tile) -> MaskShape:
        """The region a click on ``tile`` fills, prepared for the preview."""
        m: MapModel = self.model
        x, y = tile
        if self._model is not m or self._revision != m.revision \
                or len(self._shapes) >= MAX_REGIONS:
            self._model, self._revision = m, m.revision
            self._label = np.zeros(m.shape, np.int32)
            self._shapes = []
        k = int(self._label[y, x])
        if k:
            return self._shapes[k - 1]
        region = flood_region(m, tile)
        self._shapes.append(MaskShape(region, self.scene.preview.brush))
        self._label[region] = len(self._shapes)
        return self._shapes[-1]

    def region(self, tile: Tile) -> np.ndarray:
        return self.shape(tile).mask

    def press(self, ev: ToolEvent) -> None:
        if ev.button not in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            return
        x, y = ev.tile
        if not self.model.in_bounds(x, y):
            return
        value = 0 if ev.erase else self.state.terrain_id
        self.doc.paint_terrain(self.region((x, y)), value, "Fill Terrain")
        self._clear()

    def hover(self, ev: ToolEvent) -> None:
        x, y = ev.tile
        if not self.model.in_bounds(x, y):
            self._clear()
            return
        self._hovered = (x, y)
        self._show((x, y))

    def _show(self, tile: Tile) -> None:
        """Preview the region a click on ``tile`` fills, and say in the status bar what
        the click would change (again when the chosen terrain changes over the same
        region)."""
        shape = self.shape(tile)
        if self.scene.preview.mask_shape is not shape:
            self.scene.preview.set_mask(shape)
        terrain = self.state.terrain_id
        if self._said is not None and self._said[0] is shape and self._said[1] == terrain:
            return  # the same area and terrain as said
        self._said = (shape, terrain)
        m = self.model
        here = m.registry[int(m.terrain[tile[1], tile[0]])].name
        new = m.registry[terrain].name if 0 <= terrain < len(m.registry) else "?"
        n = shape.count
        if new == here:
            self.state.hint.emit(f"Fill: these {n} {here} tile(s) are already {new}")
        else:
            self.state.hint.emit(f"Fill: click changes {n} {here} tile(s) to {new} "
                                 "(right button: to clear)")

    def _option_changed(self, name: str) -> None:
        if name == "terrain_id" and self.active and self._hovered is not None:
            self._show(self._hovered)

    def _clear(self) -> None:
        self.scene.preview.clear()
        self._hovered, self._said = None, None

    def leave(self) -> None:
        super().leave()
        self._clear()

    def deactivate(self) -> None:
        self._clear()
        super().deactivate()
