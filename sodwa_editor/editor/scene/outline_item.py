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
16x16-tile chunk in well under a millisecond.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QPen

from ...engine.model import MapModel, Rect
from ...engine.terrain import Base
from .. import style
from ..style import TILE
from .kernels import keyed_links, keyed_outline
from .layers import ChunkedPathLayer, TeamColoured

Lines = list[np.ndarray]  # each (n, 2, 2): n segments of two points
CLEAR = int(Base.CLEAR)


def _pen(color, width: float) -> QPen:
    pen = QPen(color, width)
    pen.setCapStyle(Qt.PenCapStyle.SquareCap)  # closes convex corners exactly
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    return pen


def _side_runs(side: np.ndarray, lo_in: np.ndarray, lo_diag: np.ndarray, hi_in: np.ndarray,
               hi_diag: np.ndarray, clip: tuple[int, int, int, int], inset: float
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Runs along axis 1 of ``side`` inside ``clip`` (r0, r1, c0, c1 inclusive):
    (row, start, stop) with ends moved by the corner rule: + inset at a convex
    corner (no tile beyond), - inset at a concave one (the diagonal tile is in
    the group), unchanged where the side runs straight on."""
    r0, r1, c0, c1 = clip
    sub = side[r0:r1 + 1, c0:c1 + 1]
    pad = np.zeros((sub.shape[0], sub.shape[1] + 2), np.int8)
    pad[:, 1:-1] = sub
    d = np.diff(pad, axis=1)
    ry, sx = np.nonzero(d == 1)  # row-major: starts and ends pair up in order
    _, ex = np.nonzero(d == -1)
    rows = ry + r0
    first, last = sx + c0, ex - 1 + c0
    start = first + np.where(lo_in[rows, first], np.where(lo_diag[rows, first], -inset, 0.0),
                             inset)
    stop = last + 1 - np.where(hi_in[rows, last], np.where(hi_diag[rows, last], -inset, 0.0),
                               inset)
    return rows, start, stop


def _around(a: np.ndarray, beyond: object) -> tuple[np.ndarray, ...]:
    """``a`` (region-sized) and its neighbours in the eight directions, each
    aligned with ``a``: (tile, up, down, left, right, up-left, up-right,
    down-left, down-right); ``beyond`` stands where a neighbour is outside."""
    h, w = a.shape
    p = np.full((h + 2, w + 2), beyond, a.dtype)
    p[1:-1, 1:-1] = a
    return (p[1:-1, 1:-1], p[:-2, 1:-1], p[2:, 1:-1], p[1:-1, :-2], p[1:-1, 2:],
            p[:-2, :-2], p[:-2, 2:], p[2:, :-2], p[2:, 2:])


def mask_outline(mask: np.ndarray, ox: int, oy: int, inset: float, clip: Rect,
                 gaps_h: np.ndarray | None = None, gaps_v: np.ndarray | None = None
                 ) -> np.ndarray:
    """Inset outline segments (n, 2, 2), in tile units, of the tiles in ``mask``
    (a region whose top-left tile is (ox, oy), reaching one tile beyond
    ``clip`` where the map allows).

    Only sides of tiles inside ``clip`` are returned.  ``gaps_h[y, x]`` (shape
    (h+1, w)) marks horizontal grid edges above region row y to leave out;
    ``gaps_v[y, x]`` (shape (h, w+1)) vertical edges left of column x.
    """
    h, w = mask.shape
    inner, up, down, left, right, ul, ur, dl, dr = _around(mask, False)
    rows = (clip.y0 - oy, clip.y1 - oy)
    cols = (clip.x0 - ox, clip.x1 - ox)
    parts = []
    # horizontal sides (top: tile above outside; bottom: tile below outside)
    for nb, d_lo, d_hi, off, g in ((up, ul, ur, inset, 0), (down, dl, dr, 1 - inset, 1)):
        side = inner & ~nb
        if gaps_h is not None:
            side &= ~gaps_h[g:g + h]
        y, a, b = _side_runs(side, left, d_lo, right, d_hi, (*rows, *cols), inset)
        gy = oy + y + off
        parts.append(np.stack([np.stack([ox + a, gy], 1), np.stack([ox + b, gy], 1)], 1))
    # vertical sides: the same on the transposed arrays
    for nb, d_lo, d_hi, off, g in ((left, ul, dl, inset, 0), (right, ur, dr, 1 - inset, 1)):
        side = inner & ~nb
        if gaps_v is not None:
            side &= ~gaps_v[:, g:g + w]
        x, a, b = _side_runs(side.T, up.T, d_lo.T, down.T, d_hi.T, (*cols, *rows), inset)
        gx = ox + x + off
        parts.append(np.stack([np.stack([gx, oy + a], 1), np.stack([gx, oy + b], 1)], 1))
    return np.concatenate(parts).astype(float)


def _level_runs(tile: np.ndarray, nb: np.ndarray, lo: np.ndarray, lo_diag: np.ndarray,
                hi: np.ndarray, hi_diag: np.ndarray, gap: np.ndarray | None,
                clip: tuple[int, int, int, int], levels: np.ndarray, inset: float
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_side_runs` of every level at once, on elevations instead of masks:
    a tile side is on the outline of level ``lv`` (the tiles at ``lv`` or
    higher) when ``nb < lv <= tile``, so each side is visited once and listed
    for the levels between the two elevations.  Returns (level index, row,
    start, stop), sorted by level, row and start."""
    r0, r1, c0, c1 = clip
    t, n = tile[r0:r1 + 1, c0:c1 + 1], nb[r0:r1 + 1, c0:c1 + 1]
    step = t > n
    if gap is not None:
        step &= ~gap[r0:r1 + 1, c0:c1 + 1]
    ry, cx = np.nonzero(step)
    i_lo = np.searchsorted(levels, n[ry, cx], "right")  # the first level above nb
    count = np.searchsorted(levels, t[ry, cx], "right") - i_lo
    side = np.repeat(np.arange(len(ry)), count)
    first_of = np.repeat(np.cumsum(count) - count, count)
    li = i_lo[side] + (np.arange(len(side)) - first_of)
    rows, cols = ry[side] + r0, cx[side] + c0
    order = np.lexsort((cols, rows, li))
    li, rows, cols = li[order], rows[order], cols[order]
    joined = (li[1:] == li[:-1]) & (rows[1:] == rows[:-1]) & (cols[1:] == cols[:-1] + 1)
    starts = np.concatenate([[True], ~joined])[:len(li)]
    ends = np.concatenate([~joined, [True]])[:len(li)]
    li, rows, first, last = li[starts], rows[starts], cols[starts], cols[ends]
    lv = levels[li]
    start = first + np.where(lo[rows, first] >= lv,
                             np.where(lo_diag[rows, first] >= lv, -inset, 0.0), inset)
    stop = last + 1 - np.where(hi[rows, last] >= lv,
                               np.where(hi_diag[rows, last] >= lv, -inset, 0.0), inset)
    return li, rows, start, stop


def level_outlines(elev: np.ndarray, ox: int, oy: int, inset: float, clip: Rect,
                   levels: Sequence[int], gaps_h: np.ndarray | None = None,
                   gaps_v: np.ndarray | None = None) -> np.ndarray:
    """The outlines of every level of ``levels`` (ascending) at once: equal,
    segment for segment and in the same order, to concatenating
    ``mask_outline(elev >= lv, ...)`` for each level (same arguments), but one
    pass over the tile sides instead of one per level (a chunk of a ramp holds
    dozens of levels)."""
    lv = np.asarray(levels, np.int64)
    h, w = elev.shape
    below = min(int(elev.min()), int(lv[0]) if len(lv) else 0) - 1  # below every level
    inner, up, down, left, right, ul, ur, dl, dr = _around(elev.astype(np.int64), below)
    rows = (clip.y0 - oy, clip.y1 - oy)
    cols = (clip.x0 - ox, clip.x1 - ox)
    keys, parts = [], []
    for nb, d_lo, d_hi, off, g in ((up, ul, ur, inset, 0), (down, dl, dr, 1 - inset, 1)):
        gap = gaps_h[g:g + h] if gaps_h is not None else None
        li, y, a, b = _level_runs(inner, nb, left, d_lo, right, d_hi, gap, (*rows, *cols),
                                  lv, inset)
        gy = oy + y + off
        keys.append(li)
        parts.append(np.stack([np.stack([ox + a, gy], 1), np.stack([ox + b, gy], 1)], 1))
    for nb, d_lo, d_hi, off, g in ((left, ul, dl, inset, 0), (right, ur, dr, 1 - inset, 1)):
        gap = gaps_v[:, g:g + w].T if gaps_v is not None else None
        li, x, a, b = _level_runs(inner.T, nb.T, up.T, d_lo.T, down.T, d_hi.T, gap,
                                  (*cols, *rows), lv, inset)
        gx = ox + x + off
        keys.append(li)
        parts.append(np.stack([np.stack([gx, oy + a], 1), np.stack([gx, oy + b], 1)], 1))
    # level by level, as one mask_outline after the other (a stable sort keeps
    # the sides' order within a level)
    order = np.argsort(np.concatenate(keys), kind="stable")
    return np.concatenate(parts).astype(float)[order]


def diagonal_links(keys: np.ndarray, ox: int, oy: int, inset: float, clip: Rect
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Segments (n, 2, 2), tile units, joining the inset outlines of two tiles of
    one key (a terrain id; negative keys never link) that touch only at a corner,
    and the key of each (rulebook *Terrain*: "If the diagonal tiles are of the
    same terrain type, then they are considered to be contiguous"; two
    Obstructing diagonals are "a solid wall across those tiles"), so such a
    group reads as one.  A
    corner belongs to the chunk of the tile above-left of it (within ``clip``);
    ``keys`` covers one tile more where the map has it."""
    y0, y1 = clip.y0 - oy, clip.y1 - oy
    x0, x1 = clip.x0 - ox, clip.x1 - ox
    k = np.full((keys.shape[0] + 1, keys.shape[1] + 1), -1, np.int64)
    k[:-1, :-1] = keys
    a, b = k[y0:y1 + 1, x0:x1 + 1], k[y0 + 1:y1 + 2, x0 + 1:x1 + 2]  # a tile, its SE tile
    c, d = k[y0:y1 + 1, x0 + 1:x1 + 2], k[y0 + 1:y1 + 2, x0:x1 + 1]  # its E and S tiles
    segs, owners = [], []
    for on, key, sx in (((a == b) & (a >= 0) & (a != c) & (a != d), a, 1),
                        ((c == d) & (c >= 0) & (c != a) & (c != b), c, -1)):
        ys, xs = np.nonzero(on)
        cx, cy = (xs + clip.x0 + 1).astype(float), (ys + clip.y0 + 1).astype(float)
        p = np.stack([cx - sx * inset, cy - inset], 1)
        q = np.stack([cx + sx * inset, cy + inset], 1)
        segs.append(np.stack([p, q], 1))
        owners.append(key[ys, xs])
    return np.concatenate(segs), np.concatenate(owners)


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
        base_of = bases.tolist()
        tids = [t for t in np.unique(keys).tolist() if base_of[t] != CLEAR]
        for tid, lines in zip(tids, keyed_outline(keys, tids, reg.x0, reg.y0, inset, rect),
                              strict=True):  # mask_outline(keys == tid, ...) for every tid
            out.setdefault(Base(base_of[tid]), []).append(lines)
        links, owners = keyed_links(keys, reg.x0, reg.y0, inset, rect)  # diagonal_links
        for base in np.unique(bases[owners]).tolist():
            if base != Base.CLEAR:  # drawn apart: diagonals cannot be filled rectangles
                out[(Base(base), "link")] = [links[bases[owners] == base]]
        return out

    def pens(self, key: Any) -> Sequence[QPen]:
        base = key[0] if isinstance(key, tuple) else key
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
        return {"elevated": [level_outlines(elev, reg.x0, reg.y0, inset, rect, levels, gh, gv)]}

    def pens(self, key: Any) -> Sequence[QPen]:
        return [_pen(style.ELEVATED, style.ELEVATION_WIDTH)]


class ZoneOutlines(TeamColoured, ChunkedPathLayer):
    """A dashed line in the team colour just inside each start zone, so a zone
    reads as one area of its team and is not taken for green transition tiles
    or a preview's colours."""

    layers = frozenset({"start_zones", "characters"})
    grow = 1

    def chunk_paths(self, model: MapModel, rect: Rect) -> dict[object, Lines]:
        reg = _region(model, rect)
        inset = style.ZONE_OUTLINE_INSET / TILE
        out: dict[object, Lines] = {}
        for team, tiles in model.start_zones.items():
            mask = np.zeros((reg.y1 - reg.y0 + 1, reg.x1 - reg.x0 + 1), bool)
            for x, y in tiles:
                if reg.x0 <= x <= reg.x1 and reg.y0 <= y <= reg.y1:
                    mask[y - reg.y0, x - reg.x0] = True
            if mask.any():
                out[team] = [mask_outline(mask, reg.x0, reg.y0, inset, rect)]
        return out

    def pens(self, team: Any) -> Sequence[QPen]:
        pen = QPen(self.team_colors[team], style.ZONE_OUTLINE_WIDTH)
        pen.setStyle(Qt.PenStyle.DashLine)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        return [pen]
