"""Compiled (numba) line-of-sight walk in exact integer arithmetic.

Only numbers go in and out of this module: :mod:`sodwa_editor.engine.los`
builds the per-pair feature classes (where the rules live) and explains the
results.  The walk runs in *doubled* coordinates: tile ``(x, y)`` has its centre
at ``(2x+1, 2y+1)`` and grid lines lie on even coordinates, so a line from
centre to centre passes through an exact tile corner iff two integer products
are equal (no float tolerance).

Inputs are *coded* uint8 arrays, ``class | (reason_kind << 2)``:

* ``tc[y, x]``: a crossed (non-endpoint) tile, for the pair's elevation context;
* ``ec[y, x]`` / ``sc[y, x]``: the border on the east / south edge of (x, y)
  (class only);
* ``tg[y, x]``: the tile as the target's own tile.

A corner crossing from P to the diagonal tile Q takes ``min`` over the two ways
around the corner (via R or via S) of ``max(edge, tile, edge)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Reason kinds (los.REASON_KINDS names them).
R_NONE = 0
R_TILE = 1
R_BORDER = 2
R_CORNER = 3
R_CHARACTER = 4
R_ELEVATION = 5
R_OBJECT = 6
R_TARGET = 7

SIDE_NONE = 0
SIDE_E = 1
SIDE_S = 2


@njit(cache=True, nogil=True)
def walk_in(ax, ay, bx, by, tcs, ecs, scs, k, tg):
    """Walk the centre-to-centre line from tile A to tile B on layer ``k`` of stacked
    context arrays (``tcs[k]``, ``ecs[k]``, ``scs[k]``; no slice is taken: a slice
    costs a reference count, which a caller walking many lines would pay per line).

    Returns ``(class, reason_kind, rx, ry, side)``: the most restrictive class
    met and the first feature that reached it (tile ``(rx, ry)``; for a border
    the tile west/north of it and ``side`` 1=E / 2=S; for a corner the grid
    point ``(rx, ry)``).  Stops at the first blocking feature.
    """
    best = 0
    kind = R_NONE
    rx = -1
    ry = -1
    rside = SIDE_NONE
    if ax == bx and ay == by:
        return best, kind, rx, ry, rside
    sx = 1 if bx > ax else -1
    sy = 1 if by > ay else -1
    ox = 0 if sx > 0 else -1  # edge index offset when stepping west / north
    oy = 0 if sy > 0 else -1
    adx = 2 * abs(bx - ax)
    ady = 2 * abs(by - ay)
    nx = 1  # doubled distance from A to the next vertical grid line
    ny = 1
    cx = ax
    cy = ay
    while True:
        if ady == 0:
            step = -1
        elif adx == 0:
            step = 1
        else:
            lhs = nx * ady
            rhs = ny * adx
            step = -1 if lhs < rhs else (1 if lhs > rhs else 0)
        if step < 0:  # cross a vertical grid line
            ex = cx + ox
            c = ecs[k, cy, ex]
            if c > best:
                best, kind, rx, ry, rside = c, R_BORDER, ex, cy, SIDE_E
            cx += sx
            nx += 2
        elif step > 0:  # cross a horizontal grid line
            ey = cy + oy
            c = scs[k, ey, cx]
            if c > best:
                best, kind, rx, ry, rside = c, R_BORDER, cx, ey, SIDE_S
            cy += sy
            ny += 2
        else:  # exact corner: P=(cx,cy) -> Q=(qx,qy); R=(qx,cy), S=(cx,qy)
            ex = cx + ox
            ey = cy + oy
            qx = cx + sx
            qy = cy + sy
            route_r = max(max(ecs[k, cy, ex], tcs[k, cy, qx] & 3), scs[k, ey, qx])
            route_s = max(max(scs[k, ey, cx], tcs[k, qy, cx] & 3), ecs[k, qy, ex])
            c = min(route_r, route_s)
            if c > best:
                best, kind, rx, ry, rside = c, R_CORNER, max(cx, qx), max(cy, qy), SIDE_NONE
            cx = qx
            cy = qy
            nx += 2
            ny += 2
        if best == 2:
            return best, kind, rx, ry, rside
        if cx == bx and cy == by:
            t = tg[cy, cx]
            if (t & 3) > best:
                best, kind, rx, ry, rside = t & 3, t >> 2, cx, cy, SIDE_NONE
            return best, kind, rx, ry, rside
        t = tcs[k, cy, cx]
        if (t & 3) > best:
            best, kind, rx, ry, rside = t & 3, t >> 2, cx, cy, SIDE_NONE
            if best == 2:
                return best, kind, rx, ry, rside


@njit(cache=True, nogil=True)
def walk(ax, ay, bx, by, tc, ec, sc, tg):
    """:func:`walk_in` on one set of context arrays ``tc``, ``ec``, ``sc``.

    Returns ``(class, reason_kind, rx, ry, side)``: the most restrictive class
    met and the first feature that reached it (tile ``(rx, ry)``; for a border
    the tile west/north of it and ``side`` 1=E / 2=S; for a corner the grid
    point ``(rx, ry)``).  Stops at the first blocking feature.
    """
    return walk_in(ax, ay, bx, by, tc[np.newaxis], ec[np.newaxis], sc[np.newaxis], 0, tg)


@njit(cache=True, nogil=True)
def fan_rows(ax, ay, ctx, tcs, ecs, scs, sats, tg, mask, buf, y0):
    """Fill ``buf[y - y0, x]`` (rows ``y0`` to ``y0 + len(buf) - 1`` of the map)
    with the LoS class from tile A to every tile whose ``mask[y, x]`` is set (the
    others keep their value).

    ``ctx[y, x]`` selects, for each target, which of the stacked context arrays
    ``tcs[k]``, ``ecs[k]``, ``scs[k]`` apply (they depend on the target's
    elevation relative to the viewer's).  ``sats[k]`` is the summed-area table
    of the tiles of context ``k`` that hold any feature (tile, east or south
    border): a line whose bounding box holds none meets nothing but its target
    tile, so it is not walked (the same answer as :func:`walk`, in O(1)); a
    (1, 1) table turns that off.
    """
    h, w = buf.shape
    shortcut = sats.shape[1] > 1  # (1, 1) tables: no shortcut
    for y in range(y0, y0 + h):
        for x in range(w):
            if not mask[y, x]:
                continue
            if x == ax and y == ay:
                buf[y - y0, x] = 0
                continue
            k = ctx[y, x]
            if shortcut:  # (indexed, not sliced: a slice costs a reference count)
                lx = min(ax, x)
                hx = max(ax, x) + 1
                ly = min(ay, y)
                hy = max(ay, y) + 1
                if sats[k, hy, hx] - sats[k, ly, hx] - sats[k, hy, lx] + sats[k, ly, lx] == 0:
                    buf[y - y0, x] = tg[y, x] & 3
                    continue
            c, _k, _x, _y, _s = walk_in(ax, ay, x, y, tcs, ecs, scs, k, tg)
            buf[y - y0, x] = c


@njit(cache=True, nogil=True)
def fan_lead(ax, ay, ctx, tcs, ecs, scs, sats, tg, mask, out, help_buf, taken, done, rows):
    """The calling thread's share of a fan shared with :func:`fan_help`: chunks of
    ``rows`` rows from the top.  A chunk the helper has finished (``done``) is
    copied from ``help_buf`` (cells still holding the 255 sentinel are not
    visible yet: the chunk is computed here instead); any other chunk is
    computed here, after marking it ``taken`` so that the helper stops there.
    Never waits for the helper."""
    h, w = out.shape
    n = taken.shape[0]
    for i in range(n):
        y0 = i * rows
        y1 = min(h, y0 + rows)
        if done[i]:
            ok = True
            for y in range(y0, y1):
                for x in range(w):
                    if mask[y, x]:
                        v = help_buf[y, x]
                        if v == 255:
                            ok = False
                        else:
                            out[y, x] = v
            if ok:
                continue
        taken[i] = 1
        fan_rows(ax, ay, ctx, tcs, ecs, scs, sats, tg, mask, out[y0:y1], y0)


@njit(cache=True, nogil=True)
def fan_help(ax, ay, ctx, tcs, ecs, scs, sats, tg, mask, help_buf, taken, done, rows):
    """The helper thread's share: chunks from the bottom into ``help_buf``, each
    marked ``done`` when finished, until it meets a chunk the caller has taken."""
    h = help_buf.shape[0]
    n = taken.shape[0]
    for i in range(n - 1, -1, -1):
        if taken[i]:
            return
        y0 = i * rows
        y1 = min(h, y0 + rows)
        fan_rows(ax, ay, ctx, tcs, ecs, scs, sats, tg, mask, help_buf[y0:y1], y0)
        done[i] = 1


@njit(cache=True, nogil=True)
def cone(ax, ay, x0, y0, x1, y1, mask):
    """Set ``mask[y, x]`` for every target whose line from tile A (centre to
    centre) meets the closed square region of tiles ``x0..x1, y0..y1``.

    Exact, in doubled coordinates (a tile centre is ``2x+1``, the region spans
    ``2x0 .. 2x1+2``): Liang-Barsky clipping of the segment A->T against the
    region with the parameter kept as a fraction, so lines through a corner of
    the region count.
    """
    h, w = mask.shape
    sx = 2 * ax + 1
    sy = 2 * ay + 1
    lo_x = 2 * x0
    hi_x = 2 * x1 + 2
    lo_y = 2 * y0
    hi_y = 2 * y1 + 2
    for ty in range(h):
        dy = 2 * ty + 1 - sy
        for tx in range(w):
            dx = 2 * tx + 1 - sx
            # t ranges as fractions n/d with d > 0: enter = max, leave = min
            en_n = 0
            en_d = 1
            le_n = 1
            le_d = 1
            ok = True
            for axis in range(2):
                d = dx if axis == 0 else dy
                s = sx if axis == 0 else sy
                a = lo_x if axis == 0 else lo_y
                b = hi_x if axis == 0 else hi_y
                if d == 0:
                    if s < a or s > b:
                        ok = False
                    continue
                n1 = a - s
                n2 = b - s
                if d < 0:
                    n1, n2 = -n2, -n1
                    d = -d
                # this axis: t in [n1/d, n2/d]
                if n1 * en_d > en_n * d:
                    en_n = n1
                    en_d = d
                if n2 * le_d < le_n * d:
                    le_n = n2
                    le_d = d
            if ok and en_n * le_d <= le_n * en_d:
                mask[ty, tx] = True
