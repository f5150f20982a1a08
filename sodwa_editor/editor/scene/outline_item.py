"""Group outlines drawn as the rulebook does: one line around each contiguous
group of a terrain type in its colour (Obstructing black, Impeding yellow,
Difficult gray, Liquid blue), and a red line around elevated terrain with gaps
at transition borders.

Geometry: the boundary of the union of the group's tile squares, inset into
the group.  It is computed straight from the tile mask (a tile side is on the
boundary when the tile across it is not in the group; each straight run of
such sides becomes one line, shortened at convex corners and lengthened at
concave ones by the inset), which is exactly ``shapely.union_all(boxes)
.buffer(-inset, join_style="mitre").boundary`` (tests/test_editor_scene.py
checks this against shapely) but ~100x faster, so a paint stroke rebuilds a
32x32-tile chunk in about a millisecond.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QPen

from ...engine.model import MapModel, Rect
from ...engine.terrain import Base
from .. import style
from ..style import TILE
from .layers import ChunkedPathLayer

Lines = list[np.ndarray]


def _pen(color, width: float) -> QPen:
    pen = QPen(color, width)
    pen.setCapStyle(Qt.PenCapStyle.SquareCap)  # closes convex corners exactly
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    return pen


def _runs(row: np.ndarray) -> list[tuple[int, int]]:
    d = np.diff(np.concatenate([[0], row.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(d == 1).tolist(), np.flatnonzero(d == -1).tolist(),
                    strict=True))


def mask_outline(mask: np.ndarray, ox: int, oy: int, inset: float, clip: Rect,
                 gaps_h: np.ndarray | None = None, gaps_v: np.ndarray | None = None) -> Lines:
    """Inset outline segments of the tiles in ``mask`` (a region whose top-left
    tile is (ox, oy), reaching one tile beyond ``clip`` where the map allows).

    Only sides of tiles inside ``clip`` are returned.  ``gaps_h[y, x]`` (shape
    (h+1, w)) marks horizontal grid edges above region row y to leave out;
    ``gaps_v[y, x]`` (shape (h, w+1)) vertical edges left of column x.
    """
    h, w = mask.shape
    p = np.zeros((h + 2, w + 2), bool)
    p[1:-1, 1:-1] = mask
    inner = p[1:-1, 1:-1]
    up, down = p[:-2, 1:-1], p[2:, 1:-1]
    left, right = p[1:-1, :-2], p[1:-1, 2:]
    ul, ur, dl, dr = p[:-2, :-2], p[:-2, 2:], p[2:, :-2], p[2:, 2:]
    ys0, ys1 = clip.y0 - oy, clip.y1 - oy
    xs0, xs1 = clip.x0 - ox, clip.x1 - ox
    out: Lines = []

    def ends(start_in: bool, start_diag: bool) -> float:
        # + inset: convex corner; - inset: concave corner; 0: straight on
        if not start_in:
            return inset
        return -inset if start_diag else 0.0

    # horizontal sides: top (neighbour above outside) and bottom
    for nb, d_lo, d_hi, line_off, gap_row in (
            (up, ul, ur, inset, 0), (down, dl, dr, 1 - inset, 1)):
        side_mask = inner & ~nb
        if gaps_h is not None:
            side_mask &= ~gaps_h[gap_row:gap_row + h]
        for y in range(ys0, ys1 + 1):
            row = side_mask[y, xs0:xs1 + 1]
            for a, b in _runs(row):
                x0, x1 = xs0 + a, xs0 + b - 1
                start = x0 + ends(bool(left[y, x0]), bool(d_lo[y, x0]))
                stop = x1 + 1 - ends(bool(right[y, x1]), bool(d_hi[y, x1]))
                # a run clipped by the chunk border continues straight on
                if a == 0 and x0 > 0 and side_mask[y, x0 - 1]:
                    start = x0
                if b == len(row) and x1 < w - 1 and side_mask[y, x1 + 1]:
                    stop = x1 + 1
                gy = oy + y + line_off
                out.append(np.array([[ox + start, gy], [ox + stop, gy]]))
    # vertical sides: left and right
    for nb, d_lo, d_hi, line_off, gap_col in (
            (left, ul, dl, inset, 0), (right, ur, dr, 1 - inset, 1)):
        side_mask = inner & ~nb
        if gaps_v is not None:
            side_mask &= ~gaps_v[:, gap_col:gap_col + w]
        for x in range(xs0, xs1 + 1):
            col = side_mask[ys0:ys1 + 1, x]
            for a, b in _runs(col):
                y0, y1 = ys0 + a, ys0 + b - 1
                start = y0 + ends(bool(up[y0, x]), bool(d_lo[y0, x]))
                stop = y1 + 1 - ends(bool(down[y1, x]), bool(d_hi[y1, x]))
                if a == 0 and y0 > 0 and side_mask[y0 - 1, x]:
                    start = y0
                if b == len(col) and y1 < h - 1 and side_mask[y1 + 1, x]:
                    stop = y1 + 1
                gx = ox + x + line_off
                out.append(np.array([[gx, oy + start], [gx, oy + stop]]))
    return out


def _region(model: MapModel, rect: Rect) -> Rect:
    return rect.grow(1, model.width, model.height)


class TerrainOutlines(ChunkedPathLayer):
    """One outline per contiguous group of a non-clear terrain type."""

    layers = frozenset({"terrain"})
    grow = 1

    def chunk_paths(self, model: MapModel, rect: Rect) -> dict[object, Lines]:
        reg = _region(model, rect)
        keys = model.terrain[reg.y0:reg.y1 + 1, reg.x0:reg.x1 + 1]
        bases = model.registry.base_table()
        inset = style.OUTLINE_INSET / TILE
        out: dict[object, Lines] = {}
        for tid in np.unique(keys).tolist():
            base = Base(int(bases[tid]))
            if base is Base.CLEAR:
                continue
            out.setdefault(base, []).extend(
                mask_outline(keys == tid, reg.x0, reg.y0, inset, rect))
        return out

    def pens(self, base: object) -> Sequence[QPen]:
        return [_pen(style.OUTLINE[base], style.OUTLINE_WIDTH)]


def transition_gaps(model: MapModel, reg: Rect) -> tuple[np.ndarray, np.ndarray]:
    """Transition edges of region ``reg`` as gap masks for :func:`mask_outline`:
    horizontal (h+1, w) and vertical (h, w+1)."""
    h, w = reg.y1 - reg.y0 + 1, reg.x1 - reg.x0 + 1
    gh = np.zeros((h + 1, w), bool)
    gv = np.zeros((h, w + 1), bool)
    # south edge of (x, y) is the horizontal grid edge above row y + 1
    ts = model.transition_s
    y_lo, y_hi = max(reg.y0 - 1, 0), min(reg.y1, ts.shape[0] - 1)
    if y_lo <= y_hi:
        gh[y_lo + 1 - reg.y0:y_hi + 2 - reg.y0] = ts[y_lo:y_hi + 1, reg.x0:reg.x1 + 1]
    te = model.transition_e
    x_lo, x_hi = max(reg.x0 - 1, 0), min(reg.x1, te.shape[1] - 1)
    if x_lo <= x_hi:
        gv[:, x_lo + 1 - reg.x0:x_hi + 2 - reg.x0] = te[reg.y0:reg.y1 + 1, x_lo:x_hi + 1]
    return gh, gv


class ElevationOutlines(ChunkedPathLayer):
    """Red line inside the rim of each elevated area (one per level step), with
    gaps where a transition border crosses it."""

    layers = frozenset({"elevation", "transition_borders"})
    grow = 1

    def chunk_paths(self, model: MapModel, rect: Rect) -> dict[object, Lines]:
        reg = _region(model, rect)
        elev = model.elevation[reg.y0:reg.y1 + 1, reg.x0:reg.x1 + 1]
        levels = [lv for lv in np.unique(elev).tolist() if lv > 0]
        if not levels:
            return {}
        inset = style.ELEVATION_INSET / TILE
        gh, gv = transition_gaps(model, reg)
        lines: Lines = []
        for lv in levels:
            lines.extend(mask_outline(elev >= lv, reg.x0, reg.y0, inset, rect, gh, gv))
        return {"elevated": lines}

    def pens(self, key: object) -> Sequence[QPen]:
        return [_pen(style.ELEVATED, style.ELEVATION_WIDTH)]
