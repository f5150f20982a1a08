"""Compiled (numba) line-of-sight walk in exact integer arithmetic.

Only numbers go in and out of this module; :mod:`sodwa_editor.engine.los` turns
them into the public API and documents the rules.  The walk runs in *doubled*
coordinates: tile ``(x, y)`` has its centre at ``(2x+1, 2y+1)`` and grid lines
lie on even coordinates, so a line from centre to centre passes through an
exact tile corner iff two integer products are equal (no float tolerance).

Feature classes for a pair of endpoints at elevations ``a`` (viewer) and ``b``
(target), ``lo = min(a, b)``, ``level = a == b`` -- see docs/rules.md, "Line of
sight", for the rulebook sentences behind each branch:

* tile crossed (not an endpoint) at elevation ``e``:
  ``e < lo`` clear (seen over); ``e > lo`` blocked (Elevated Terrain is
  Obstructing); ``e == lo``: Obstructing blocks; when level, a character blocks,
  Impeding terrain or an object impedes; when not level these are ignored.
* border at elevation ``max`` of its two tiles: ignored below ``lo``;
  Obstructing blocks; Impeding impedes when level, or when it stands above
  ``lo`` (on the rim of the higher character's tile).
* corner: ``min`` over the two routes around it of ``max(edge, tile, edge)``.
* target tile: its own Obstructing terrain blocks, its Impeding terrain or an
  impeding object impedes, whatever the elevations; the attacker's tile never
  counts.
"""

from __future__ import annotations

from numba import njit, prange

# Reason kinds (keep in sync with los.REASON_KINDS).
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


@njit(cache=True, inline="always")
def _tile_class(x, y, lo, level, tile_los, obj, occ, elev):
    """Class and reason kind of a crossed (non-endpoint) tile."""
    e = elev[y, x]
    if e < lo:
        return 0, R_NONE
    if e > lo:
        return 2, R_ELEVATION
    t = tile_los[y, x]
    if t == 2:
        return 2, R_TILE
    if level:
        if occ[y, x]:
            return 2, R_CHARACTER
        if t == 1:
            return 1, R_TILE
        if obj[y, x]:
            return 1, R_OBJECT
    return 0, R_NONE


@njit(cache=True, inline="always")
def _east_class(x, y, lo, level, be, elev):
    """Class of the border on the east edge of tile (x, y)."""
    c = be[y, x]
    if c == 0:
        return 0
    eb = max(elev[y, x], elev[y, x + 1])
    if eb < lo:
        return 0
    if c == 2:
        return 2
    if level or eb > lo:
        return 1
    return 0


@njit(cache=True, inline="always")
def _south_class(x, y, lo, level, bs, elev):
    """Class of the border on the south edge of tile (x, y)."""
    c = bs[y, x]
    if c == 0:
        return 0
    eb = max(elev[y, x], elev[y + 1, x])
    if eb < lo:
        return 0
    if c == 2:
        return 2
    if level or eb > lo:
        return 1
    return 0


@njit(cache=True)
def walk(ax, ay, bx, by, tile_los, obj, occ, elev, be, bs):
    """Walk the centre-to-centre line from tile A to tile B.

    Returns ``(class, reason_kind, rx, ry, side)``: the most restrictive class
    met and the first feature that reached it (tile ``(rx, ry)``; for a border
    the tile west/north of it and ``side`` 1=E/2=S; for a corner the grid point
    ``(rx, ry)``).
    """
    a = elev[ay, ax]
    b = elev[by, bx]
    lo = min(a, b)
    level = a == b
    best = 0
    kind = R_NONE
    rx = -1
    ry = -1
    rside = SIDE_NONE
    if ax == bx and ay == by:
        return best, kind, rx, ry, rside
    sx = 1 if bx > ax else -1
    sy = 1 if by > ay else -1
    adx = 2 * abs(bx - ax)
    ady = 2 * abs(by - ay)
    nx = 1  # doubled distance from A to the next vertical grid line
    ny = 1
    cx = ax
    cy = ay
    while True:
        # Compare nx/adx with ny/ady exactly; a zero delta never crosses that axis.
        if ady == 0:
            step = -1
        elif adx == 0:
            step = 1
        else:
            lhs = nx * ady
            rhs = ny * adx
            step = -1 if lhs < rhs else (1 if lhs > rhs else 0)
        if step < 0:  # cross a vertical grid line: east edge between cx and cx+sx
            ex = cx if sx > 0 else cx - 1
            c = _east_class(ex, cy, lo, level, be, elev)
            if c > best:
                best, kind, rx, ry, rside = c, R_BORDER, ex, cy, SIDE_E
            cx += sx
            nx += 2
        elif step > 0:  # cross a horizontal grid line
            ey = cy if sy > 0 else cy - 1
            c = _south_class(cx, ey, lo, level, bs, elev)
            if c > best:
                best, kind, rx, ry, rside = c, R_BORDER, cx, ey, SIDE_S
            cy += sy
            ny += 2
        else:  # exact corner: P=(cx,cy) -> Q=(cx+sx,cy+sy); R=(cx+sx,cy), S=(cx,cy+sy)
            ex = cx if sx > 0 else cx - 1
            ey = cy if sy > 0 else cy - 1
            qx = cx + sx
            qy = cy + sy
            # route via R: edge P|R (east edge ex, row cy), tile R, edge R|Q (south edge col qx, ey)
            r_tile, _k = _tile_class(qx, cy, lo, level, tile_los, obj, occ, elev)
            route_r = max(
                max(_east_class(ex, cy, lo, level, be, elev), r_tile),
                _south_class(qx, ey, lo, level, bs, elev),
            )
            # route via S: edge P|S (south edge col cx, ey), tile S, edge S|Q (east edge ex, row qy)
            s_tile, _k = _tile_class(cx, qy, lo, level, tile_los, obj, occ, elev)
            route_s = max(
                max(_south_class(cx, ey, lo, level, bs, elev), s_tile),
                _east_class(ex, qy, lo, level, be, elev),
            )
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
            t = tile_los[by, bx]
            if t == 2:
                c = 2
            elif t == 1 or obj[by, bx]:
                c = 1
            else:
                c = 0
            if c > best:
                best, kind, rx, ry, rside = c, R_TARGET, bx, by, SIDE_NONE
            return best, kind, rx, ry, rside
        c, k = _tile_class(cx, cy, lo, level, tile_los, obj, occ, elev)
        if c > best:
            best, kind, rx, ry, rside = c, k, cx, cy, SIDE_NONE
            if best == 2:
                return best, kind, rx, ry, rside


@njit(cache=True, parallel=True)
def fan(ax, ay, tile_los, obj, occ, elev, be, bs, out):
    """Fill ``out[y, x]`` with the LoS class from tile A to every tile."""
    h, w = elev.shape
    for i in prange(h * w):
        y = i // w
        x = i - y * w
        c, _k, _x, _y, _s = walk(ax, ay, x, y, tile_los, obj, occ, elev, be, bs)
        out[y, x] = c
