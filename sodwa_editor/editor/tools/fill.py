"""Flood fill (F): replace the clicked tile's contiguous same-terrain,
same-elevation region; borders stop the fill.  Hovering shows the region the
click would fill and the status bar says how many tiles it would change (a fill
that leaks through a door gap shows before it happens, as in Tiled).

The preview tints the region with the fill of the terrain the click paints (the
tiles as they will be), under level numbers and tokens, and only when the
click changes it: a region already of that terrain is left as it is (the
status bar says so).  Both follow the map under a still pointer: after the
click (the region is now of that terrain), Undo and Redo."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor

from ...engine.model import MapModel
from .. import style
from ..geometry import Tile, flood_region
from ..properties.document_props import preset_of
from ..scene.overlay_items import MaskShape
from ..scene.terrain_item import terrain_palette
from .base import Tool, ToolEvent

#: regions kept prepared at most (then the cache starts again)
MAX_REGIONS = 256


class FillTool(Tool):
    name = "fill"
    label = "Fill"
    shortcut = "F"
    tip = ("Flood-fill a contiguous area (same terrain and elevation, stops at borders; "
           "Shift: Clear; right-click picks the terrain)")
    options = ("terrain_id", "symmetry")
    picks = "terrain"

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
        self._tint_of = -1  # the terrain the cached regions are tinted with
        #: the tile under the pointer, and the (region, terrain) the status bar speaks of
        self._hovered: Tile | None = None
        self._said: tuple[MaskShape, int] | None = None
        self.state.changed.connect(self._option_changed)
        self.doc.edited.connect(self._map_changed)

    def shape(self, tile: Tile) -> MaskShape:
        """The region a click on ``tile`` fills, prepared for the preview."""
        m: MapModel = self.model
        x, y = tile
        terrain = self.state.terrain_id
        if self._model is not m or self._revision != m.revision \
                or len(self._shapes) >= MAX_REGIONS or self._tint_of != terrain:
            self._model, self._revision, self._tint_of = m, m.revision, terrain
            self._label = np.zeros(m.shape, np.int32)
            self._shapes = []
        k = int(self._label[y, x])
        if k:
            return self._shapes[k - 1]
        region = flood_region(m, tile)
        self._shapes.append(MaskShape(region, self._tint(m, terrain, int(m.elevation[y, x]))))
        self._label[region] = len(self._shapes)
        return self._shapes[-1]

    @staticmethod
    def _tint(m: MapModel, terrain: int, level: int) -> QBrush:
        """The fill of ``terrain`` shaded for ``level`` (the tiles as the click
        leaves them), translucent."""
        if not 0 <= terrain < len(m.registry):
            return QBrush(Qt.BrushStyle.NoBrush)
        rgb = terrain_palette(m)[terrain].astype(np.int32)
        a = int(style.elevation_alpha(np.array([level]))[0])
        rgb = (rgb * (255 - a) + np.asarray(style.ELEVATION_TINT, np.int32) * a) // 255
        r, g, b = (int(v) for v in rgb)
        return QBrush(QColor(r, g, b, style.FILL_PREVIEW_ALPHA))

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
        # the map changed under the pointer: _map_changed shows what a click does now

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
        terrain = self.state.terrain_id
        m = self.model
        preview = self.scene.fill_preview
        if int(m.terrain[tile[1], tile[0]]) == terrain:
            preview.clear()  # nothing would change: nothing tinted
        elif preview.mask_shape is not shape:
            preview.set_mask(shape)
        if self._said is not None and self._said[0] is shape and self._said[1] == terrain:
            return  # the same area and terrain as said
        self._said = (shape, terrain)
        here = m.registry[int(m.terrain[tile[1], tile[0]])].name
        preset = preset_of(terrain)  # a preset the click would declare
        new = (m.registry[terrain].name if 0 <= terrain < len(m.registry)
               else preset.name if preset is not None else "?")
        n = shape.count
        if new == here:
            self.state.hint.emit(f"Fill: these {n} {here} tile(s) are already {new}")
        else:
            self.state.hint.emit(f"Fill: click changes {n} {here} tile(s) to {new} "
                                 "(Shift+click: to clear)")

    def _map_changed(self) -> None:
        """The map changed under a still pointer (this click's fill, Undo, Redo): the
        preview and the status bar say what a click does now (they kept saying
        what the click just done would change)."""
        if self.active and self._hovered is not None:
            if self.model.in_bounds(*self._hovered):
                self._show(self._hovered)
            else:
                self._clear()

    def _option_changed(self, name: str) -> None:
        if name == "terrain_id" and self.active and self._hovered is not None:
            self._show(self._hovered)

    def _clear(self) -> None:
        self.scene.fill_preview.clear()
        self._hovered, self._said = None, None

    def leave(self) -> None:
        super().leave()
        self._clear()

    def deactivate(self) -> None:
        self._clear()
        super().deactivate()
