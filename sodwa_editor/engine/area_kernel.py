"""Compiled (numba) parts of the areas of effect (:mod:`.areas`): the straight lines
a Blast or an impact travels along, with the damage it spends on the walls it breaks
through, and the flood of a Reach over the adjacency graph.

Only numbers go in and out.  The lines are walked exactly as the LoS walk does
(:func:`.los_kernel.walk_in`: doubled integer coordinates, an exact corner by integer
equality, a corner governed by the cheaper of its two ways round) on the same coded
context arrays (:mod:`.los_inputs`), without characters: an area's lines are not
stopped by characters, who are its victims (docs/rules.md AE3).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .los_kernel import R_BORDER, R_CORNER, R_ELEVATION, R_NONE, R_TARGET, SIDE_E, SIDE_NONE, SIDE_S

#: Reason kind of a line whose damage ran out on the walls it broke (Blast, AE8).
R_SPENT = 8
#: A Blast that met a wall with less damage left than the wall's durability (AE8).
R_DURABILITY = 9
#: Cost of a feature that no damage passes (a higher level: AE5).
NO_PASS = 1 << 30


@njit(cache=True, nogil=True)
def _cost(c, payable, d):  # pragma: no cover - compiled
    """Damage needed to pass a feature of coded class ``c`` whose Durability left is
    ``d`` (0: not blocked; :data:`NO_PASS`: no damage passes it)."""
    if (c & 3) != 2:
        return 0
    return d if payable else NO_PASS


@njit(cache=True, nogil=True)
def blast_walk(ax, ay, bx, by, tcs, ecs, scs, k, tg, damage, dur_t, dur_e, dur_s, walls_t,
               walls_e, walls_s, hit_t, hit_e, hit_s):  # pragma: no cover - compiled
    """Walk the centre-to-centre line from tile A to tile B on layer ``k`` of the stacked
    terrain contexts and say whether it arrives.

    ``damage < 0``: the line stops at the first blocking feature.  Otherwise it breaks
    through Obstructing walls (a blocked tile whose reason is not a higher level, a
    blocked border, a corner whose cheaper way round is made of such walls), paying
    each wall's Durability left (``dur_t[y, x]`` of a tile, ``dur_e``, ``dur_s`` of a
    border) while it has at least as much damage left as the wall needs; the walls it
    pays for are flagged in ``walls_t[y, x]``, ``walls_e``, ``walls_s``.  A tile or
    border that stops it with damage left takes that damage: ``hit_t``, ``hit_e``,
    ``hit_s`` keep the most any line brought to each such wall (a corner it cannot
    pass takes none: the line only grazes the walls that meet there).

    Returns ``(left, impeded, kind, rx, ry, side)``: the damage left on arriving
    (``0`` without damage), ``-1`` when the line does not arrive; whether it crossed
    impeding terrain; and for a stopped line the feature that stopped it (the LoS
    walk's reason kinds, or :data:`R_SPENT`, :data:`R_DURABILITY`).
    """
    left = damage if damage >= 0 else 0
    pay = damage >= 0
    imp = 0
    if ax == bx and ay == by:
        return left, imp, R_NONE, -1, -1, SIDE_NONE
    sx = 1 if bx > ax else -1
    sy = 1 if by > ay else -1
    ox = 0 if sx > 0 else -1
    oy = 0 if sy > 0 else -1
    adx = 2 * abs(bx - ax)
    ady = 2 * abs(by - ay)
    nx = 1
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
        # the feature crossed: its class, cost and where it is
        rx = -1
        ry = -1
        side = SIDE_NONE
        if step < 0:
            ex = cx + ox
            c = ecs[k, cy, ex]
            cost = _cost(c, True, dur_e[cy, ex])
            kind = R_BORDER
            rx = ex
            ry = cy
            side = SIDE_E
            cx += sx
            nx += 2
        elif step > 0:
            ey = cy + oy
            c = scs[k, ey, cx]
            cost = _cost(c, True, dur_s[ey, cx])
            kind = R_BORDER
            rx = cx
            ry = ey
            side = SIDE_S
            cy += sy
            ny += 2
        else:
            ex = cx + ox
            ey = cy + oy
            qx = cx + sx
            qy = cy + sy
            tr = tcs[k, cy, qx]
            ts = tcs[k, qy, cx]
            route_r = max(max(ecs[k, cy, ex], tr & 3), scs[k, ey, qx])
            route_s = max(max(scs[k, ey, cx], ts & 3), ecs[k, qy, ex])
            c = min(route_r, route_s)
            kind = R_CORNER
            rx = max(cx, qx)
            ry = max(cy, qy)
            cost = 0
            if c == 2:
                cost_r = _cost(ecs[k, cy, ex], True, dur_e[cy, ex]) \
                    + _cost(tr, (tr >> 2) != R_ELEVATION, dur_t[cy, qx]) \
                    + _cost(scs[k, ey, qx], True, dur_s[ey, qx])
                cost_s = _cost(scs[k, ey, cx], True, dur_s[ey, cx]) \
                    + _cost(ts, (ts >> 2) != R_ELEVATION, dur_t[qy, cx]) \
                    + _cost(ecs[k, qy, ex], True, dur_e[qy, ex])
                cost = min(cost_r, cost_s)
                if pay and cost < NO_PASS and left >= cost:
                    if cost_r <= cost_s:  # the way round by R: edge P|R, tile R, edge R|Q
                        if (ecs[k, cy, ex] & 3) == 2:
                            walls_e[cy, ex] = True
                        if (tr & 3) == 2:
                            walls_t[cy, qx] = True
                        if (scs[k, ey, qx] & 3) == 2:
                            walls_s[ey, qx] = True
                    else:
                        if (scs[k, ey, cx] & 3) == 2:
                            walls_s[ey, cx] = True
                        if (ts & 3) == 2:
                            walls_t[qy, cx] = True
                        if (ecs[k, qy, ex] & 3) == 2:
                            walls_e[qy, ex] = True
            cx = qx
            cy = qy
            nx += 2
            ny += 2
        if (c & 3) == 1:
            imp = 1
        if (c & 3) == 2:
            if not pay or cost >= NO_PASS:
                return -1, imp, kind, rx, ry, side
            need = cost
            if left < need:
                if kind == R_BORDER:
                    if side == SIDE_E:
                        hit_e[ry, rx] = max(hit_e[ry, rx], left)
                    else:
                        hit_s[ry, rx] = max(hit_s[ry, rx], left)
                return -1, imp, R_DURABILITY, rx, ry, side
            if kind == R_BORDER:
                if side == SIDE_E:
                    walls_e[ry, rx] = True
                else:
                    walls_s[ry, rx] = True
            left -= need
            if left == 0:
                return -1, imp, R_SPENT, rx, ry, side
        if cx == bx and cy == by:
            t = tg[cy, cx]
            if (t & 3) == 2:  # a wall as the end tile: nothing stands there (L12)
                if pay and left >= dur_t[cy, cx]:
                    walls_t[cy, cx] = True
                elif pay:
                    hit_t[cy, cx] = max(hit_t[cy, cx], left)
                return -1, imp, R_TARGET, cx, cy, SIDE_NONE
            return left, imp, R_NONE, -1, -1, SIDE_NONE
        t = tcs[k, cy, cx]
        if (t & 3) == 1:
            imp = 1
        if (t & 3) == 2:
            if not pay or (t >> 2) == R_ELEVATION:
                return -1, imp, t >> 2, cx, cy, SIDE_NONE
            if left < dur_t[cy, cx]:
                hit_t[cy, cx] = max(hit_t[cy, cx], left)
                return -1, imp, R_DURABILITY, cx, cy, SIDE_NONE
            walls_t[cy, cx] = True
            left -= dur_t[cy, cx]
            if left == 0:
                return -1, imp, R_SPENT, cx, cy, SIDE_NONE


@njit(cache=True, nogil=True)
def lines_from(ax, ay, x0, y0, mask, ctx, tcs, ecs, scs, tg, damage, dur_t, dur_e, dur_s,
               left, imp, rkind, rx, ry, rside, walls_t, walls_e, walls_s, hit_t, hit_e,
               hit_s):  # pragma: no cover - compiled
    """:func:`blast_walk` from tile A to every tile ``(x0 + i, y0 + j)`` with
    ``mask[j, i]`` set, on the layer ``ctx[y, x]`` of the tile's level: ``left[j, i]``
    (-1 where the line does not arrive), ``imp[j, i]`` and the stopping feature in
    ``rkind``, ``rx``, ``ry``, ``rside``."""
    h, w = mask.shape
    for j in range(h):
        for i in range(w):
            if not mask[j, i]:
                continue
            x = x0 + i
            y = y0 + j
            out = blast_walk(ax, ay, x, y, tcs, ecs, scs, ctx[y, x], tg, damage, dur_t,
                             dur_e, dur_s, walls_t, walls_e, walls_s, hit_t, hit_e, hit_s)
            left[j, i] = out[0]
            imp[j, i] = out[1]
            rkind[j, i] = out[2]
            rx[j, i] = out[3]
            ry[j, i] = out[4]
            rside[j, i] = out[5]


@njit(cache=True, nogil=True)
def flood(step, blocked, ddx, ddy, x0, y0, sx, sy, budget, elev, level,
          out):  # pragma: no cover - compiled
    """The Reach of several sources over the adjacency graph: ``out[j, i]`` (a window
    of the map at ``x0``, ``y0``; filled with -1 first) gets the most reach left at tile
    ``(x0 + i, y0 + j)`` over the sources ``(sx[s], sy[s])`` with reach ``budget[s]``
    (every step to a tile adjacent by the step classes ``step[d, y, x]`` costs 1, a
    pair of class ``blocked`` is not adjacent); ``level >= 0`` keeps the flood on the
    tiles of that elevation.  Tiles are taken in decreasing order of the reach left
    (one list per value), so each is settled once."""
    h, w = out.shape
    out[:] = -1
    top = 0
    for s in range(sx.shape[0]):
        top = max(top, budget[s])
    n = h * w + sx.shape[0] + 1
    qx = np.empty(n * 2, np.int64)
    qy = np.empty(n * 2, np.int64)
    nxt = np.empty(n * 2, np.int64)
    head = np.full(top + 1, -1, np.int64)
    used = 0
    for s in range(sx.shape[0]):
        i = sx[s] - x0
        j = sy[s] - y0
        b = budget[s]
        if b > out[j, i]:
            out[j, i] = b
            qx[used] = sx[s]
            qy[used] = sy[s]
            nxt[used] = head[b]
            head[b] = used
            used += 1
    for b in range(top, 0, -1):
        e = head[b]
        while e >= 0:
            x = qx[e]
            y = qy[e]
            e = nxt[e]
            if out[y - y0, x - x0] != b:
                continue  # a stale entry: the tile was reached with more reach left
            for d in range(ddx.shape[0]):
                if step[d, y, x] == blocked:
                    continue
                px = x + ddx[d]
                py = y + ddy[d]
                i = px - x0
                j = py - y0
                if i < 0 or j < 0 or i >= w or j >= h:
                    continue
                if level >= 0 and elev[py, px] != level:
                    continue
                if out[j, i] < b - 1:
                    out[j, i] = b - 1
                    qx[used] = px
                    qy[used] = py
                    nxt[used] = head[b - 1]
                    head[b - 1] = used
                    used += 1
