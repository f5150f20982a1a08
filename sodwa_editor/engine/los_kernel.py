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

from numba import njit, prange

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
def walk(ax, ay, bx, by, tc, ec, sc, tg):
    """Walk the centre-to-centre line from tile A to tile B.

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
            c = ec[cy, ex]
            if c > best:
                best, kind, rx, ry, rside = c, R_BORDER, ex, cy, SIDE_E
            cx += sx
            nx += 2
        elif step > 0:  # cross a horizontal grid line
            ey = cy + oy
            c = sc[ey, cx]
            if c > best:
                best, kind, rx, ry, rside = c, R_BORDER, cx, ey, SIDE_S
            cy += sy
            ny += 2
        else:  # exact corner: P=(cx,cy) -> Q=(qx,qy); R=(qx,cy), S=(cx,qy)
            ex = cx + ox
            ey = cy + oy
            qx = cx + sx
            qy = cy + sy
            route_r = max(max(ec[cy, ex], tc[cy, qx] & 3), sc[ey, qx])
            route_s = max(max(sc[ey, cx], tc[qy, cx] & 3), ec[qy, ex])
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
        t = tc[cy, cx]
        if (t & 3) > best:
            best, kind, rx, ry, rside = t & 3, t >> 2, cx, cy, SIDE_NONE
            if best == 2:
                return best, kind, rx, ry, rside


@njit(cache=True, parallel=True)
def fan(ax, ay, ctx, tcs, ecs, scs, tg, out):
    """Fill ``out[y, x]`` with the LoS class from tile A to every tile.

    ``ctx[y, x]`` selects, for each target, which of the stacked context arrays
    ``tcs[k]``, ``ecs[k]``, ``scs[k]`` apply (they depend on the target's
    elevation relative to the viewer's).
    """
    h, w = out.shape
    for y in prange(h):
        for x in range(w):
            k = ctx[y, x]
            c, _k, _x, _y, _s = walk(ax, ay, x, y, tcs[k], ecs[k], scs[k], tg)
            out[y, x] = c
