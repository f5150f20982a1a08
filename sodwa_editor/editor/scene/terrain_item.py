"""Per-tile fills: terrain, elevation shading (with level numbers), transition
tiles and start zones.  Pixels come from numpy lookups over the changed region."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QFont, QPainter, QStaticText, QTransform
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from ...engine.model import INDOOR_DEFAULT, INDOOR_YES, MapModel, Rect
from ...engine.terrain import Base
from .. import style
from ..style import TILE
from .layers import (
    ImageLayer,
    LayerItem,
    TeamColoured,
    exposed_tiles,
    premultiply,
    tile_pixels,
)


def terrain_palette(model: MapModel) -> np.ndarray:
    """(n_types, 3) uint8 fill colour of each terrain id."""
    specials = iter(style.special_fills((t.name, t.base) for t in model.registry.special_types()))
    rows = [style.FILL[t.base] if t.builtin else next(specials) for t in model.registry]
    return np.asarray(rows, np.uint8)


def indoor_obstruction(model: MapModel, rect: Rect) -> np.ndarray:
    """bool: Obstructing tiles in ``rect`` that are Indoor (override or map setting)."""
    sl = np.s_[rect.y0:rect.y1 + 1, rect.x0:rect.x1 + 1]
    obstructing = model.registry.base_table()[model.terrain[sl]] == Base.OBSTRUCTING
    code = model.tile_indoor[sl]
    indoor = (code == INDOOR_YES) | ((code == INDOOR_DEFAULT) & (model.setting == "indoor"))
    return obstructing & indoor


class TerrainFill(ImageLayer):
    """Tile fill colour by terrain type, shaded darker the higher the tile is
    (while the elevation layer is shown); Indoor obstructions are near-black
    and hatched, Outdoor ones brown-gray rock.  Opaque: one image copy."""

    layers = frozenset({"terrain", "indoor", "setting", "elevation"})
    opaque = True

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.shade = True

    def set_shade(self, on: bool) -> None:
        if on != self.shade:
            self.shade = on
            self.refresh(None)

    def compute(self, model: MapModel, rect: Rect) -> np.ndarray:
        sl = np.s_[rect.y0:rect.y1 + 1, rect.x0:rect.x1 + 1]
        rgb = terrain_palette(model)[model.terrain[sl]]
        rgb[indoor_obstruction(model, rect)] = style.FILL_INDOOR_OBSTRUCTING
        if self.shade:
            alpha = style.elevation_alpha(model.elevation[sl])[..., None]
            tint = np.asarray(style.ELEVATION_TINT, np.int32)
            rgb = ((rgb.astype(np.int32) * (255 - alpha) + tint * alpha) // 255).astype(np.uint8)
        out = np.full(rgb.shape[:2] + (4,), 255, np.uint8)
        out[..., :3] = rgb
        return out

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        super().paint(painter, option, widget)
        m = self.model
        r = exposed_tiles(m, option.exposedRect) if m is not None else None
        if m is None or r is None or tile_pixels(option, painter) < 6:
            return
        ys, xs = np.nonzero(indoor_obstruction(m, r))
        if not len(ys):
            return
        brush = QBrush(style.INDOOR_HATCH, Qt.BrushStyle.DiagCrossPattern)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(brush)
        for y, x in zip((ys + r.y0).tolist(), (xs + r.x0).tolist(), strict=True):
            painter.drawRect(QRectF(x * TILE, y * TILE, TILE, TILE))


#: scene units of plate left and right of a level number (see ElevationLabels.plates)
LEVEL_PLATE_PAD = 2.0


class ElevationLabels(LayerItem):
    """The level number of each elevated tile (the shading is in TerrainFill)."""

    layers = frozenset({"elevation"})

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.label_font = QFont()
        self.label_font.setPixelSize(int(TILE * 0.4))
        self.label_font.setBold(True)
        #: per level: its text and its offset in a tile (centred)
        self.texts: dict[int, tuple[QStaticText, float, float]] = {}
        #: each number on a light plate (while the adjacency graph is shown: its
        #: lines meet at the tile centres, where the numbers are)
        self.plates = False

    def set_plates(self, on: bool) -> None:
        if on != self.plates:
            self.plates = on
            self.update()

    def refresh(self, rect: Rect | None) -> None:
        if rect is None:
            self.update()
        else:
            self.update(QRectF(rect.x0 * TILE, rect.y0 * TILE, (rect.x1 - rect.x0 + 1) * TILE,
                               (rect.y1 - rect.y0 + 1) * TILE))

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        m = self.model
        r = exposed_tiles(m, option.exposedRect) if m is not None else None
        if m is None or r is None or tile_pixels(option, painter) < 14:
            return
        sub = m.elevation[r.y0:r.y1 + 1, r.x0:r.x1 + 1]
        ys, xs = np.nonzero(sub)
        if not len(ys):
            return
        painter.setFont(self.label_font)
        painter.setPen(style.LEVEL_NUMBER)
        levels = sub[ys, xs].tolist()
        for y, x, level in zip((ys + r.y0).tolist(), (xs + r.x0).tolist(), levels, strict=True):
            laid = self.texts.get(level)
            if laid is None:  # laid out once per level, not once per tile and repaint
                text = QStaticText(str(level))
                text.prepare(QTransform(), self.label_font)
                size = text.size()
                laid = self.texts[level] = (text, (TILE - size.width()) / 2,
                                            (TILE - size.height()) / 2)
            text, dx, dy = laid
            if self.plates:
                size = text.size()
                painter.fillRect(QRectF(x * TILE + dx - LEVEL_PLATE_PAD, y * TILE + dy,
                                        size.width() + 2 * LEVEL_PLATE_PAD, size.height()),
                                 style.LEVEL_PLATE)
            painter.drawStaticText(QPointF(x * TILE + dx, y * TILE + dy), text)


class TransitionTint(ImageLayer):
    """Transition tiles highlighted green (rulebook *Elevated Terrain*)."""

    layers = frozenset({"transition"})

    def compute(self, model: MapModel, rect: Rect) -> np.ndarray:
        on = model.transition[rect.y0:rect.y1 + 1, rect.x0:rect.x1 + 1]
        out = np.zeros(on.shape + (4,), np.uint8)
        out[on] = style.TRANSITION_TILE_RGBA
        return premultiply(out)


class ZoneTint(TeamColoured, ImageLayer):
    """Start zones tinted with their team's colour."""

    layers = frozenset({"start_zones", "characters"})

    def compute(self, model: MapModel, rect: Rect) -> np.ndarray:
        h, w = rect.y1 - rect.y0 + 1, rect.x1 - rect.x0 + 1
        out = np.zeros((h, w, 4), np.uint8)
        for team, tiles in model.start_zones.items():
            c = self.team_colors[team]
            rgba = (c.red(), c.green(), c.blue(), style.START_ZONE_ALPHA)
            for x, y in tiles:
                if rect.x0 <= x <= rect.x1 and rect.y0 <= y <= rect.y1:
                    out[y - rect.y0, x - rect.x0] = rgba
        return premultiply(out)
