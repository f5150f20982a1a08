"""Group outlines drawn as the rulebook does: one line around each contiguous
group of a terrain type in its colour (Obstructing black, Impeding yellow,
Difficult gray, Liquid blue), and a red line around elevated terrain with gaps
at transition borders.

Geometry: the union of the group's tile squares (``shapely.union_all``) shrunk
by the inset (mitred ``buffer``), whose boundary is clipped to the chunk being
rebuilt.  A chunk's union is computed over the chunk grown by one tile, so
lines are continuous across chunks and a change only rebuilds nearby chunks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from PySide6.QtCore import Qt
from PySide6.QtGui import QPen

from ...engine.model import MapModel, Rect
from ...engine.terrain import Base
from .. import style
from ..style import TILE
from .layers import ChunkedPathLayer


def _pen(color, width: float, dash: bool = False) -> QPen:
    pen = QPen(color, width)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    if dash:
        pen.setStyle(Qt.PenStyle.DashLine)
    return pen


def _region(model: MapModel, rect: Rect) -> Rect:
    return rect.grow(1, model.width, model.height)


def mask_outline(mask: np.ndarray, ox: int, oy: int, inset: float,
                 clip: shapely.Geometry, cut: shapely.Geometry | None = None):
    """Boundary of the union of the tiles in ``mask`` (region offset ox, oy),
    inset by ``inset`` tiles, clipped to ``clip`` and minus ``cut``."""
    ys, xs = np.nonzero(mask)
    if not len(ys):
        return None
    xs = xs + ox
    ys = ys + oy
    union = shapely.union_all(shapely.box(xs, ys, xs + 1, ys + 1))
    inner = union.buffer(-inset, join_style="mitre")
    if inner.is_empty:
        return None
    lines = shapely.intersection(inner.boundary, clip)
    if cut is not None and not cut.is_empty:
        lines = shapely.difference(lines, cut)
    return lines


def line_coords(geom) -> list[np.ndarray]:
    if geom is None or geom.is_empty:
        return []
    return [shapely.get_coordinates(g) for g in shapely.get_parts(geom)
            if g.geom_type in ("LineString", "LinearRing")]


def _clip_box(rect: Rect) -> shapely.Geometry:
    return shapely.box(rect.x0, rect.y0, rect.x1 + 1, rect.y1 + 1)


class TerrainOutlines(ChunkedPathLayer):
    """One outline per contiguous group of a non-clear terrain type."""

    layers = frozenset({"terrain"})
    grow = 1

    def chunk_paths(self, model: MapModel, rect: Rect) -> dict[object, list[np.ndarray]]:
        reg = _region(model, rect)
        keys = model.terrain[reg.y0:reg.y1 + 1, reg.x0:reg.x1 + 1]
        bases = model.registry.base_table()
        inset = style.OUTLINE_INSET / TILE
        clip = _clip_box(rect)
        out: dict[object, list[np.ndarray]] = {}
        for tid in np.unique(keys).tolist():
            base = Base(int(bases[tid]))
            if base is Base.CLEAR:
                continue
            geom = mask_outline(keys == tid, reg.x0, reg.y0, inset, clip)
            out.setdefault(base, []).extend(line_coords(geom))
        return out

    def pens(self, base: object) -> Sequence[QPen]:
        return [_pen(style.OUTLINE[base], style.OUTLINE_WIDTH)]


def transition_gaps(model: MapModel, reg: Rect) -> shapely.Geometry | None:
    """Boxes cutting the elevation outline across each transition border in ``reg``."""
    d = 2 * style.OUTLINE_INSET / TILE
    s = 0.1
    boxes = []
    te = model.transition_e[reg.y0:reg.y1 + 1, reg.x0:min(reg.x1 + 1, model.width - 1)]
    for y, x in zip(*np.nonzero(te), strict=True):
        gx, gy = reg.x0 + x + 1, reg.y0 + y
        boxes.append(shapely.box(gx - d, gy + s, gx + d, gy + 1 - s))
    ts = model.transition_s[reg.y0:min(reg.y1 + 1, model.height - 1), reg.x0:reg.x1 + 1]
    for y, x in zip(*np.nonzero(ts), strict=True):
        gx, gy = reg.x0 + x, reg.y0 + y + 1
        boxes.append(shapely.box(gx + s, gy - d, gx + 1 - s, gy + d))
    return shapely.union_all(boxes) if boxes else None


class ElevationOutlines(ChunkedPathLayer):
    """Red line inside the rim of each elevated area (one per level step), with
    gaps where a transition border crosses it."""

    layers = frozenset({"elevation", "transition_borders"})
    grow = 1

    def chunk_paths(self, model: MapModel, rect: Rect) -> dict[object, list[np.ndarray]]:
        reg = _region(model, rect)
        elev = model.elevation[reg.y0:reg.y1 + 1, reg.x0:reg.x1 + 1]
        levels = [lv for lv in np.unique(elev).tolist() if lv > 0]
        if not levels:
            return {}
        inset = style.ELEVATION_INSET / TILE
        clip = _clip_box(rect)
        cut = transition_gaps(model, reg)
        lines: list[np.ndarray] = []
        for lv in levels:
            lines.extend(line_coords(mask_outline(elev >= lv, reg.x0, reg.y0, inset, clip, cut)))
        return {"elevated": lines}

    def pens(self, key: object) -> Sequence[QPen]:
        return [_pen(style.ELEVATED, style.ELEVATION_WIDTH)]
