"""Compiled (numba) inner loops of the AIs: many lines of sight and threat zones in
one call each.  Only numbers go in and out; the rules are the engine's LoS walk
(:mod:`sodwa_editor.engine.los_kernel`) and the battle's range rule
(:func:`sodwa_editor.battle.kernels.in_range`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...engine import los_kernel as lk
from .. import kernels as bk

#: ``sight_to`` answer for a target out of the viewer's Range (LoS classes are 0..2).
OUT_OF_RANGE = 3


@njit(cache=True, nogil=True)
def _sight_class(x, y, tx, ty, rng, metric, tcs, ecs, scs, k, tg):  # pragma: no cover
    """The LoS class from ``(x, y)`` to ``(tx, ty)`` on layer ``k`` of the stacked
    contexts ``tcs, ecs, scs``, or OUT_OF_RANGE when the target is beyond Range
    ``rng`` (``rng < 0``: no range check)."""
    if rng >= 0 and not bk.in_range(tx - x, ty - y, rng, metric):
        return OUT_OF_RANGE
    c, _k, _x, _y, _s = lk.walk_in(x, y, tx, ty, tcs, ecs, scs, k, tg)
    return c


@njit(cache=True, nogil=True)
def sight_to(px, py, tx, ty, rng, metric, ctx, tcs, ecs, scs, tg, out):  # pragma: no cover
    """``out[i]``: :func:`_sight_class` from ``(px[i], py[i])`` to ``(tx, ty)``.  Every
    viewer stands at the level the stack was built for."""
    k = ctx[ty, tx]
    for i in range(px.shape[0]):
        out[i] = _sight_class(px[i], py[i], tx, ty, rng, metric, tcs, ecs, scs, k, tg)


@njit(cache=True, nogil=True)
def zone_of(steps, x0, y0, x1, y1, rng, metric, out):  # pragma: no cover
    """Mark in ``out[y, x]`` every tile within Range ``rng`` of a tile a movement range
    can end on (``steps >= 0``: an attacker standing there may reach it, LoS aside);
    only the window ``x0 <= x < x1, y0 <= y < y1`` may hold such tiles (the range's
    ``Reach.window``).  Each row of a tile's neighbourhood is one span, its half width
    per row offset taken from the range rule once per call (every metric's range is a
    convex shape: the offsets within it on a row are one run about 0)."""
    h, w = steps.shape
    half = np.empty(rng + 1, np.int64)
    for dy in range(rng + 1):
        half[dy] = -1
        for dx in range(rng, -1, -1):
            if bk.in_range(dx, dy, rng, metric):
                half[dy] = dx
                break
    for ty in range(y0, y1):
        for tx in range(x0, x1):
            if steps[ty, tx] < 0:
                continue
            for y in range(max(0, ty - rng), min(h, ty + rng + 1)):
                k = half[abs(y - ty)]
                if k >= 0:
                    out[y, max(0, tx - k):min(w, tx + k + 1)] = True


@njit(cache=True, nogil=True)
def walking(step, blocked, ddx, ddy, sx, sy, out):  # pragma: no cover
    """Breadth-first steps from the nearest of the tiles ``(sx[i], sy[i])`` to every
    tile over the engine's step classes ``step[d, y, x]`` (a step in direction
    ``(ddx[d], ddy[d])`` is allowed unless it is ``blocked``); ``out`` gets -1 where
    no walk arrives.  Characters and the end-of-move rules are ignored: it measures
    how far, not one Move Action."""
    h, w = out.shape
    out[:] = -1
    qx = np.empty(h * w, np.int64)
    qy = np.empty(h * w, np.int64)
    tail = 0
    for i in range(sx.shape[0]):
        if out[sy[i], sx[i]] < 0:
            out[sy[i], sx[i]] = 0
            qx[tail] = sx[i]
            qy[tail] = sy[i]
            tail += 1
    head = 0
    while head < tail:
        x, y = qx[head], qy[head]
        head += 1
        for d in range(ddx.shape[0]):
            if step[d, y, x] == blocked:
                continue
            nx, ny = x + ddx[d], y + ddy[d]
            if 0 <= nx < w and 0 <= ny < h and out[ny, nx] < 0:
                out[ny, nx] = out[y, x] + 1
                qx[tail] = nx
                qy[tail] = ny
                tail += 1


@njit(cache=True, nogil=True)
def sight_of(px, py, at, rows, used, ex, ey, rng, metric, level, lo, ctx, tcs, ecs, scs, tg,
             out):  # pragma: no cover
    """``out[i, b]``: :func:`_sight_class` from ``(px[i], py[i])`` to enemy ``b`` at
    ``(ex[b], ey[b])`` (OUT_OF_RANGE beyond Range ``rng``), each viewer
    at its own level ``level[py[i], px[i]]`` (the stacks of every level packed:
    :meth:`~sodwa_editor.engine.los.LosBoard.packed`, lowest level ``lo``).

    Each tile is walked once: ``at[y, x]`` numbers the tiles done (-1: not yet), whose
    classes are ``rows[at[y, x]]``; a new tile gets row ``used``, ``used + 1``, ...
    Returns the rows used after the call."""
    for i in range(px.shape[0]):
        x, y = px[i], py[i]
        r = at[y, x]
        if r < 0:
            r = at[y, x] = used
            used += 1
            v = level[y, x] - lo
            for b in range(ex.shape[0]):
                if not bk.in_range(ex[b] - x, ey[b] - y, rng, metric):
                    rows[r, b] = OUT_OF_RANGE
                    continue
                k = ctx[v, ey[b], ex[b]]
                rows[r, b] = _sight_class(x, y, ex[b], ey[b], -1, metric, tcs, ecs, scs, k,
                                          tg)
        for b in range(ex.shape[0]):
            out[i, b] = rows[r, b]
    return used


@njit(cache=True, nogil=True)
def firing_walks(x, y, rng, metric, level, lo, ctx, tcs, ecs, scs, tg, impeded, step,
                 blocked, ddx, ddy, out):  # pragma: no cover
    """:func:`walking` (into ``out``) from every tile from which a character with Range
    ``rng`` could shoot ``(x, y)``: the tiles other than ``(x, y)`` within its Range
    with a LoS class at most ``impeded`` to it, each viewer at its own level (stacks
    packed as :func:`sight_of`).  ``out`` is -1 everywhere when there is none."""
    h, w = level.shape
    fx = np.empty((2 * rng + 1) ** 2, np.int64)
    fy = np.empty((2 * rng + 1) ** 2, np.int64)
    n = 0
    for vy in range(max(0, y - rng), min(h, y + rng + 1)):
        for vx in range(max(0, x - rng), min(w, x + rng + 1)):
            if vx == x and vy == y:
                continue
            k = ctx[level[vy, vx] - lo, y, x]
            if _sight_class(vx, vy, x, y, rng, metric, tcs, ecs, scs, k, tg) <= impeded:
                fx[n] = vx
                fy[n] = vy
                n += 1
    walking(step, blocked, ddx, ddy, fx[:n], fy[:n], out)


@njit(cache=True, nogil=True)
def _gap_one(x, y, i, walks, walk_slot, fire, fire_slot, melee, sight, rng,
             impeded):  # pragma: no cover
    """:func:`gap` for one tile ``(x, y)`` (row ``i`` of ``sight``)."""
    best = np.inf
    for b in range(walk_slot.shape[0]):
        steps = walks[walk_slot[b], y, x]
        if melee[b]:
            v = max(0, steps - 1)
        elif sight[i, b] <= impeded:
            v = 0
        elif fire[fire_slot[b], y, x] >= 0:
            v = max(1, fire[fire_slot[b], y, x])
        else:
            v = max(1, steps - rng)
        if v < best:
            best = v
    return best


@njit(cache=True, nogil=True)
def gap(fx, fy, walks, walk_slot, fire, fire_slot, melee, sight, rng, impeded,
        out):  # pragma: no cover
    """The approach term's steps per tile ``i``: over enemies ``b``, the least of
    ``max(0, steps - 1)`` (``melee[b]``: the better attack kind against it is melee;
    ``steps = walks[walk_slot[b], fy[i], fx[i]]``) or, ranged: ``0`` if ``sight[i, b]
    <= impeded``, else ``max(1, fire[fire_slot[b], fy[i], fx[i]])`` (steps to the
    nearest tile within Range of it with a line of sight over the terrain), or
    ``max(1, steps - rng)`` where no such tile is walkable (``fire < 0``).  ``out``
    starts at +inf (no enemy).  (``walks`` and ``fire``: blocks of board-sized arrays,
    :class:`.memo.Pool`; a melee enemy's ``fire_slot`` is not read.)"""
    for i in range(fx.shape[0]):
        out[i] = _gap_one(fx[i], fy[i], i, walks, walk_slot, fire, fire_slot, melee, sight,
                          rng, impeded)


@njit(cache=True, nogil=True)
def _threat_one(x, y, c, li, mv, times, zones, q, dmg, lethal, dist,
                shifted):  # pragma: no cover
    """For one end tile ``(x, y)``: the expected damage taken there before the
    character's next turn and the chance it reaches ``lethal`` (1 when ``lethal`` is 0).

    Enemy ``b`` attacks ``times[c, b]`` times if ``zones[b, y, x]``, each hitting with
    chance ``q[b, li, mv]`` for ``dmg[b]``; the damage taken is a distribution over
    ``0..lethal`` (``dist``; the last entry: lethal or more), updated one attack at a
    time in enemy order (``shifted``: scratch of the same size)."""
    for k in range(lethal + 1):  # loops, not slices: a slice costs a reference count
        dist[k] = 0.0
    dist[0] = 1.0
    e = 0.0
    for b in range(zones.shape[0]):
        t = times[c, b]
        if t <= 0 or not zones[b, y, x]:
            continue
        p = q[b, li, mv]
        d = dmg[b]
        e += t * p * d
        if d <= 0:
            continue
        for _ in range(t):
            for k in range(min(d, lethal)):
                shifted[k] = 0.0
            for k in range(d, lethal):  # shifted[d:lethal] = dist[:lethal - d]
                shifted[k] = dist[k - d]
            total = 0.0
            for k in range(max(0, lethal - d), lethal + 1):
                total += dist[k]
            shifted[lethal] = total
            for k in range(lethal + 1):
                dist[k] = dist[k] * (1 - p) + shifted[k] * p
    return e, (dist[lethal] if lethal > 0 else 1.0)


@njit(cache=True, nogil=True)
def stay(fx, fy, gsize, gcls, gmoved, gextra, times, zones, q, lev, dmg, lethal, walks,
         walk_slot, fire, fire_slot, melee, sight, rng, impeded, weights, own,
         out):  # pragma: no cover
    """The stay terms of every end tile in one pass: ``out[i] = -threat * expected -
    death * P(defeated) * own - ip * extra / 250 - approach * gap`` (``weights`` the
    four weights in that order; the same float operations, in the same order, as
    the greedy utility written with arrays).  The rows come in groups (plan kinds):
    group ``g`` has ``gsize[g]`` rows, the IP class ``gcls[g]`` (a row of ``times``),
    Move flag ``gmoved[g]`` and ``gextra[g]`` more IP; expected damage and death as
    :func:`_threat_one`, the approach steps as :func:`gap` (0 without enemies)."""
    dist = np.empty(lethal + 1)
    shifted = np.empty(lethal + 1)
    i = 0
    for g in range(gsize.shape[0]):
        c, mv = gcls[g], gmoved[g]
        tempo = weights[2] * float(gextra[g]) / 250
        for _ in range(gsize[g]):
            x, y = fx[i], fy[i]
            e, death = _threat_one(x, y, c, lev[i], mv, times, zones, q, dmg, lethal, dist,
                                   shifted)
            steps = (_gap_one(x, y, i, walks, walk_slot, fire, fire_slot, melee, sight, rng,
                              impeded) if walk_slot.shape[0] > 0 else 0.0)
            out[i] = -weights[0] * e - weights[1] * death * own - tempo - weights[3] * steps
            i += 1


@njit(cache=True, nogil=True)
def distinct(values):  # pragma: no cover
    """``np.unique(values, return_inverse=True)`` for small integers, by counting:
    the sorted distinct values and each value's index among them."""
    n = values.shape[0]
    if n == 0:
        return values.copy(), np.zeros(0, np.int64)
    lo = values.min()
    span = values.max() - lo + 1
    index = np.full(span, -1, np.int64)
    for i in range(n):
        index[values[i] - lo] = 0
    found = 0
    for v in range(span):
        if index[v] >= 0:
            index[v] = found
            found += 1
    out = np.empty(found, np.int64)
    inverse = np.empty(n, np.int64)
    for v in range(span):
        if index[v] >= 0:
            out[index[v]] = v + lo
    for i in range(n):
        inverse[i] = index[values[i] - lo]
    return out, inverse


@njit(cache=True, nogil=True)
def within_square(fx, fy, ex, ey, reach, out):  # pragma: no cover
    """``out[b]``: whether some tile ``(fx[i], fy[i])`` lies within Chebyshev distance
    ``reach[b]`` of ``(ex[b], ey[b])``."""
    for b in range(ex.shape[0]):
        out[b] = False
        for i in range(fx.shape[0]):
            if max(abs(fx[i] - ex[b]), abs(fy[i] - ey[b])) <= reach[b]:
                out[b] = True
                break
