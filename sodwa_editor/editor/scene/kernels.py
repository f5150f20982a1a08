"""Compiled (numba) geometry kernels of the scene's chunk layers.

A paint stroke rebuilds a few 16x16-tile chunks of the vector layers on every
step; done with numpy, each chunk took a few hundred small array operations
(about a millisecond of interpreter overhead, whatever the chunk holds).
These kernels walk the chunk once instead.  They compute geometry only: the
rules (which pairs are adjacent, which tiles are grouped) stay where they are
and come in as arrays.

:func:`keyed_outline` is :func:`~.outline_item.mask_outline` (without gaps)
for the tiles of every key at once; :func:`pair_segments` turns the adjacency
rule's pair classes into the graph preview's segments.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...engine.model import Rect


@njit(cache=True, nogil=True)
def _same(keys, r, c, k):  # pragma: no cover - compiled
    h, w = keys.shape
    return 0 <= r < h and 0 <= c < w and keys[r, c] == k


@njit(cache=True, nogil=True)
def _end(keys, k, r_in, c_in, r_diag, c_diag, inset):  # pragma: no cover - compiled
    """The corner rule at one end of a run: + inset at a convex corner (the
    next tile along is not in the group), - inset at a concave one (the
    diagonal tile is), 0 where the side runs straight on."""
    if not _same(keys, r_in, c_in, k):
        return inset
    if _same(keys, r_diag, c_diag, k):
        return -inset
    return 0.0


@njit(cache=True, nogil=True)
def _outline(keys, want, ox, oy, inset, r0, r1, c0, c1):  # pragma: no cover - compiled
    n_tiles = (r1 - r0 + 1) * (c1 - c0 + 1)
    out = np.empty((4 * n_tiles, 2, 2), np.float64)
    counts = np.zeros(len(want), np.int64)
    n = 0
    for i in range(len(want)):
        k = want[i]
        start_n = n
        # horizontal sides, row by row: top (tile above not in the group), bottom
        for part in range(2):
            dr = -1 if part == 0 else 1
            off = inset if part == 0 else 1.0 - inset
            for r in range(r0, r1 + 1):
                first = -1
                for c in range(c0, c1 + 2):
                    on = (c <= c1 and keys[r, c] == k and not _same(keys, r + dr, c, k))
                    if on and first < 0:
                        first = c
                    elif not on and first >= 0:
                        last = c - 1
                        a = first + _end(keys, k, r, first - 1, r + dr, first - 1, inset)
                        b = last + 1 - _end(keys, k, r, last + 1, r + dr, last + 1, inset)
                        gy = oy + r + off
                        out[n, 0, 0] = ox + a
                        out[n, 0, 1] = gy
                        out[n, 1, 0] = ox + b
                        out[n, 1, 1] = gy
                        n += 1
                        first = -1
        # vertical sides, column by column: left, right
        for part in range(2):
            dc = -1 if part == 0 else 1
            off = inset if part == 0 else 1.0 - inset
            for c in range(c0, c1 + 1):
                first = -1
                for r in range(r0, r1 + 2):
                    on = (r <= r1 and keys[r, c] == k and not _same(keys, r, c + dc, k))
                    if on and first < 0:
                        first = r
                    elif not on and first >= 0:
                        last = r - 1
                        a = first + _end(keys, k, first - 1, c, first - 1, c + dc, inset)
                        b = last + 1 - _end(keys, k, last + 1, c, last + 1, c + dc, inset)
                        gx = ox + c + off
                        out[n, 0, 0] = gx
                        out[n, 0, 1] = oy + a
                        out[n, 1, 0] = gx
                        out[n, 1, 1] = oy + b
                        n += 1
                        first = -1
        counts[i] = n - start_n
    return out[:n], counts


def keyed_outline(keys: np.ndarray, want: np.ndarray | list[int], ox: int, oy: int,
                  inset: float, clip: Rect) -> list[np.ndarray]:
    """For each key of ``want``, the inset outline segments (n, 2, 2), tile units,
    of the tiles holding that key: the same segments, in the same order, as
    ``mask_outline(keys == key, ox, oy, inset, clip)``.  ``keys`` is a region
    whose top-left tile is (ox, oy), reaching one tile beyond ``clip`` where
    the map allows; only sides of tiles inside ``clip`` are returned."""
    want_arr = np.ascontiguousarray(want, np.int64)
    segs, counts = _outline(np.ascontiguousarray(keys, np.int64), want_arr, int(ox), int(oy),
                            float(inset), clip.y0 - oy, clip.y1 - oy, clip.x0 - ox, clip.x1 - ox)
    return _split(segs, counts)


@njit(cache=True, nogil=True)
def _links(keys, inset, r0, r1, c0, c1, cx0, cy0):  # pragma: no cover - compiled
    h, w = keys.shape
    out = np.empty((2 * (r1 - r0 + 1) * (c1 - c0 + 1), 2, 2), np.float64)
    owner = np.empty(len(out), np.int64)
    n = 0
    for part in range(2):  # a tile and its SE tile, then its E and S tiles
        sx = 1 if part == 0 else -1
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                a = keys[r, c]
                b = keys[r + 1, c + 1] if r + 1 < h and c + 1 < w else -1
                e = keys[r, c + 1] if c + 1 < w else -1
                s = keys[r + 1, c] if r + 1 < h else -1
                if part == 0:
                    on, key = a == b and a >= 0 and a != e and a != s, a
                else:
                    on, key = e == s and e >= 0 and e != a and e != b, e
                if on:
                    cx = float(c - c0 + cx0 + 1)
                    cy = float(r - r0 + cy0 + 1)
                    out[n, 0, 0], out[n, 0, 1] = cx - sx * inset, cy - inset
                    out[n, 1, 0], out[n, 1, 1] = cx + sx * inset, cy + inset
                    owner[n] = key
                    n += 1
    return out[:n], owner[:n]


def keyed_links(keys: np.ndarray, ox: int, oy: int, inset: float, clip: Rect
                ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~.outline_item.diagonal_links` (the same segments and keys, in the
    same order): the links between the outlines of two tiles of one key that
    touch only at a corner."""
    return _links(np.ascontiguousarray(keys, np.int64), float(inset), clip.y0 - oy,
                  clip.y1 - oy, clip.x0 - ox, clip.x1 - ox, clip.x0, clip.y0)


@njit(cache=True, nogil=True)
def _rects(seg, width, ext, clip, use_clip):  # pragma: no cover - compiled
    n = seg.shape[0]
    out = np.empty((n, 4), np.float64)
    for i in range(n):
        px, py, qx, qy = seg[i, 0, 0], seg[i, 0, 1], seg[i, 1, 0], seg[i, 1, 1]
        if px != qx and py != qy:
            return out[:0], False
        horizontal = py == qy
        gx = ext if horizontal else width / 2
        gy = width / 2 if horizontal else ext
        x0, y0 = min(px, qx) - gx, min(py, qy) - gy
        x1, y1 = max(px, qx) + gx, max(py, qy) + gy
        if use_clip:
            x0, x1 = min(max(x0, clip[0]), clip[2]), min(max(x1, clip[0]), clip[2])
            y0, y1 = min(max(y0, clip[1]), clip[3]), min(max(y1, clip[1]), clip[3])
        out[i, 0], out[i, 1], out[i, 2], out[i, 3] = x0, y0, x1 - x0, y1 - y0
    return out, True


def segment_rects(seg: np.ndarray, width: float, ext: float,
                  clip: tuple[float, float, float, float] | None) -> np.ndarray | None:
    """Rectangles (n, 4: x, y, w, h) covering axis-aligned segments (n, 2, 2)
    stroked ``width`` wide, their ends pushed out by ``ext``, cut to ``clip`` =
    (left, top, right, bottom) when given; None when a segment is not
    axis-aligned."""
    box = np.asarray(clip if clip is not None else (0.0, 0.0, 0.0, 0.0), np.float64)
    out, ok = _rects(np.ascontiguousarray(seg, np.float64), float(width), float(ext), box,
                     clip is not None)
    return out if ok else None


def mask_segments(mask: np.ndarray, ox: int, oy: int, clip: Rect) -> np.ndarray:
    """``mask_outline(mask, ox, oy, 0.0, clip)``: the boundary of the tiles of a
    bool ``mask`` on the grid lines."""
    return keyed_outline(mask, [1], ox, oy, 0.0, clip)[0]


@njit(cache=True, nogil=True)
def _pairs(classes, shape, forward, ticks, x0, y0, n_classes):  # pragma: no cover - compiled
    limit_y, limit_x = shape
    total = 0
    for d in range(4):
        total += min(limit_y, classes[d].shape[0]) * min(limit_x, classes[d].shape[1])
    out = np.empty((total, 2, 2), np.float64)
    counts = np.zeros(n_classes, np.int64)
    n = 0
    for cls in range(n_classes):
        start_n = n
        for d in range(4):
            arr = classes[d]
            fx, fy, dx, dy = forward[d]
            px, py = ticks[d]
            for y in range(min(limit_y, arr.shape[0])):
                for x in range(min(limit_x, arr.shape[1])):
                    if arr[y, x] != cls:
                        continue
                    ax = x + (x0 + fx + 0.5)
                    ay = y + (y0 + fy + 0.5)
                    if cls == n_classes - 1:  # blocked: a tick across the middle
                        mx, my = ax + dx / 2, ay + dy / 2
                        out[n, 0, 0], out[n, 0, 1] = mx - px, my - py
                        out[n, 1, 0], out[n, 1, 1] = mx + px, my + py
                    else:
                        out[n, 0, 0], out[n, 0, 1] = ax, ay
                        out[n, 1, 0], out[n, 1, 1] = ax + dx, ay + dy
                    n += 1
        counts[cls] = n - start_n
    return out[:n], counts


def pair_segments(classes: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
                  limit: tuple[int, int], forward: np.ndarray, ticks: np.ndarray,
                  x0: int, y0: int, n_classes: int) -> list[np.ndarray]:
    """Segments (n, 2, 2) per class 0..n_classes-1 (the last is *blocked*) of the
    forward pairs ``classes`` (E, S, SE, SW arrays of one window whose top-left
    tile is (x0, y0), cut to ``limit`` = (rows, columns)): centre to centre,
    or for the last class a tick across the middle, ``ticks[d]`` = its half
    vector.  ``forward[d]`` = (fx, fy, dx, dy): offset of a pair's first tile
    in its 2x2 block and the step to the second.  Per class, the pairs come
    direction by direction, row-major."""
    arrays = tuple(np.ascontiguousarray(a, np.uint8) for a in classes)
    segs, counts = _pairs(arrays, (int(limit[0]), int(limit[1])), forward, ticks,
                          int(x0), int(y0), int(n_classes))
    return _split(segs, counts)


def _split(segs: np.ndarray, counts: np.ndarray) -> list[np.ndarray]:
    """``segs`` cut into consecutive parts of ``counts`` rows."""
    out, i = [], 0
    for n in counts.tolist():
        out.append(segs[i:i + n])
        i += n
    return out


@njit(cache=True, nogil=True)
def _bounds(seg):  # pragma: no cover - compiled
    x0 = y0 = np.inf
    x1 = y1 = -np.inf
    for i in range(seg.shape[0]):
        for j in range(2):
            x0, x1 = min(x0, seg[i, j, 0]), max(x1, seg[i, j, 0])
            y0, y1 = min(y0, seg[i, j, 1]), max(y1, seg[i, j, 1])
    return x0, y0, x1, y1


def bounds(seg: np.ndarray) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1): the smallest and largest coordinates of segments (n, 2, 2)."""
    return _bounds(np.ascontiguousarray(seg, np.float64))
