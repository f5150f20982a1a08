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
def sight_to(px, py, tx, ty, rng, metric, ctx, tcs, ecs, scs, tg, out):  # pragma: no cover
    """``out[i]``: the LoS class from ``(px[i], py[i])`` to ``(tx, ty)``, or
    OUT_OF_RANGE when the target is beyond Range ``rng`` (``rng < 0``: no range
    check).  Every viewer stands at the level the stack was built for."""
    k = ctx[ty, tx]
    for i in range(px.shape[0]):
        x, y = px[i], py[i]
        if rng >= 0 and not bk.in_range(tx - x, ty - y, rng, metric):
            out[i] = OUT_OF_RANGE
            continue
        c, _k, _x, _y, _s = lk.walk(x, y, tx, ty, tcs[k], ecs[k], scs[k], tg)
        out[i] = c


@njit(cache=True, nogil=True)
def zone_of(steps, rng, metric, out):  # pragma: no cover
    """Mark in ``out[y, x]`` every tile within Range ``rng`` of a tile a movement range
    can end on (``steps >= 0``: an attacker standing there may reach it, LoS aside).
    Each row of a tile's neighbourhood is one span, its half width per row offset taken
    from the range rule once per call (every metric's range is a convex shape: the
    offsets within it on a row are one run about 0)."""
    h, w = steps.shape
    half = np.empty(rng + 1, np.int64)
    for dy in range(rng + 1):
        half[dy] = -1
        for dx in range(rng, -1, -1):
            if bk.in_range(dx, dy, rng, metric):
                half[dy] = dx
                break
    for y0 in range(h):
        for x0 in range(w):
            if steps[y0, x0] < 0:
                continue
            for y in range(max(0, y0 - rng), min(h, y0 + rng + 1)):
                k = half[abs(y - y0)]
                if k >= 0:
                    out[y, max(0, x0 - k):min(w, x0 + k + 1)] = True


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
    """``out[i, b]``: the LoS class from ``(px[i], py[i])`` to enemy ``b`` at ``(ex[b],
    ey[b])``, or OUT_OF_RANGE beyond Range ``rng`` (as :func:`sight_to`), each viewer
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
                tx, ty = ex[b], ey[b]
                if rng >= 0 and not bk.in_range(tx - x, ty - y, rng, metric):
                    rows[r, b] = OUT_OF_RANGE
                    continue
                k = ctx[v, ty, tx]
                c, _k, _x, _y, _s = lk.walk(x, y, tx, ty, tcs[k], ecs[k], scs[k], tg)
                rows[r, b] = c
        for b in range(ex.shape[0]):
            out[i, b] = rows[r, b]
    return used


@njit(cache=True, nogil=True)
def seen_packed(ex, ey, px, py, level, lo, ctx, tcs, ecs, scs, tg, targets,
                out):  # pragma: no cover
    """``out[i, b]``: the LoS class from enemy ``b`` at ``(ex[b], ey[b])`` (at its own
    level, stacks packed as :func:`sight_of`) to ``(px[i], py[i])``, for the rows
    with ``targets[i, b] >= 0`` only (the enemy's awareness of an attack matters only
    where the attack is legal); other entries are left as they are."""
    for b in range(ex.shape[0]):
        sx, sy = ex[b], ey[b]
        v = level[sy, sx] - lo
        for i in range(px.shape[0]):
            if targets[i, b] < 0:
                continue
            x, y = px[i], py[i]
            k = ctx[v, y, x]
            c, _k, _x, _y, _s = lk.walk(sx, sy, x, y, tcs[k], ecs[k], scs[k], tg)
            out[i, b] = c


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
            if (vx == x and vy == y) or not bk.in_range(x - vx, y - vy, rng, metric):
                continue
            k = ctx[level[vy, vx] - lo, y, x]
            c, _k, _x, _y, _s = lk.walk(vx, vy, x, y, tcs[k], ecs[k], scs[k], tg)
            if c <= impeded:
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
    dist[:] = 0.0
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
            shifted[:] = 0.0
            if d < lethal:
                shifted[d:lethal] = dist[:lethal - d]
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
def targets_of(px, py, ex, ey, step, dir3, blocked, sight, impeded, out):  # pragma: no cover
    """``out[i, b]``: whether enemy ``b`` at ``(ex[b], ey[b])`` is a legal target from
    tile ``(px[i], py[i])``: 1 adjacent, 0 not adjacent, -1 no target (RB targeting:
    an adjacent enemy may always be attacked, and only an adjacent one while any is;
    otherwise within Range with a line of sight that is not blocked; the rules as in
    :mod:`..targeting`).  ``sight[i, b]``: the LoS class from the tile to the enemy
    (or OUT_OF_RANGE); adjacency is the grounded ``step`` (melee)."""
    n, m = px.shape[0], ex.shape[0]
    near = np.zeros(m, np.bool_)
    for i in range(n):
        x, y = px[i], py[i]
        engaged = False
        for b in range(m):
            sx, sy = ex[b] - x, ey[b] - y
            near[b] = False
            if max(abs(sx), abs(sy)) == 1 and step[dir3[sy + 1, sx + 1], y, x] != blocked:
                near[b] = True
                engaged = True
        for b in range(m):
            if near[b]:
                out[i, b] = 1
            elif engaged or sight[i, b] > impeded:
                out[i, b] = -1
            else:
                out[i, b] = 0


@njit(cache=True, nogil=True)
def attack_codes(px, py, moved, targets, sight, seen, liquid, level, lo, span, impeded,
                 los_blocked, out):  # pragma: no cover
    """``out[i, b]``: the situation code of attacking enemy ``b`` from tile ``(px[i],
    py[i])`` (Move flag ``moved[i]``), or -1 where it is no legal target
    (``targets[i, b]``, :func:`targets_of`).

    ``sight[i, b]``: the LoS class from the tile to the enemy (or OUT_OF_RANGE);
    ``seen[i, b]``: from the enemy back (awareness), ``-1`` to skip (awareness not by
    LoS); adjacent parties see each other through Impeding terrain (L5).  The code
    packs (enemy, adjacent, impeded, sees, on Liquid, moved, level - ``lo``), level
    fastest, ``span`` levels."""
    n, m = targets.shape
    for i in range(n):
        x, y = px[i], py[i]
        for b in range(m):
            t = targets[i, b]
            if t < 0:
                out[i, b] = -1
                continue
            adjacent = t == 1
            s = seen[i, b]
            sees = 1 if s < 0 else (1 if (s != los_blocked) else 0)
            imp = 1 if (not adjacent and sight[i, b] == impeded) else 0
            code = (b * 2 + (1 if adjacent else 0)) * 2 + imp
            code = ((code * 2 + sees) * 2 + (1 if liquid[y, x] else 0)) * 2 + moved[i]
            out[i, b] = code * span + (level[y, x] - lo)


@njit(cache=True, nogil=True)
def plan_table(here, targets, values, rows, start, size):  # pragma: no cover
    """Every plan of a turn in the fixed enumeration order of :func:`.scoring.plans`:
    ``(kind, attack value, stay terms, target, tile)`` arrays (``-1``: none).

    ``rows`` holds the stay terms of each plan kind's end tiles, kind ``k``'s at
    ``rows[start[k]:start[k] + size[k]]`` (``size[k] == 0``: the kind is out);
    ``here[b]`` the value of attacking enemy ``b`` from where the actor stands,
    ``targets`` the enemies it may attack there, ``values[t, b]`` from the Move's end
    tile ``t`` (``-inf``: not a target; Move then Attack enumerates the pairs
    row-major, its stay rows one per tile with some target)."""
    k = targets.shape[0]
    n_q, n_move = size[2], size[3]
    n_ma = 0
    if size[4] > 0:
        for t in range(values.shape[0]):
            for b in range(values.shape[1]):
                if values[t, b] > -np.inf:
                    n_ma += 1
    n = 1 + (k + k * n_q if size[1] > 0 else 0) + n_move + n_ma
    kind = np.empty(n, np.int64)
    attack = np.zeros(n)
    stay = np.empty(n)
    target = np.full(n, -1, np.int64)
    tile = np.full(n, -1, np.int64)
    kind[0] = 0
    stay[0] = rows[start[0]]
    r = 1
    if size[1] > 0:
        for i in range(k):
            kind[r] = 1
            attack[r] = here[targets[i]]
            stay[r] = rows[start[1]]
            target[r] = targets[i]
            r += 1
        for i in range(k if n_q > 0 else 0):
            for q in range(n_q):
                kind[r] = 2
                attack[r] = here[targets[i]]
                stay[r] = rows[start[2] + q]
                target[r] = targets[i]
                tile[r] = q
                r += 1
    for t in range(n_move):
        kind[r] = 3
        stay[r] = rows[start[3] + t]
        tile[r] = t
        r += 1
    if size[4] > 0:
        s = 0
        for t in range(values.shape[0]):
            found = False
            for b in range(values.shape[1]):
                if values[t, b] > -np.inf:
                    kind[r] = 4
                    attack[r] = values[t, b]
                    stay[r] = rows[start[4] + s]
                    target[r] = b
                    tile[r] = t
                    r += 1
                    found = True
            if found:
                s += 1
    return kind, attack, stay, target, tile


@njit(cache=True, nogil=True)
def code_cases(codes):  # pragma: no cover
    """The distinct situation codes (entries ``>= 0``) of an :func:`attack_codes` table,
    sorted, and per entry its index among them (``-1`` where there is no target)."""
    n, m = codes.shape
    lo, hi = -1, -1
    for i in range(n):
        for b in range(m):
            c = codes[i, b]
            if c >= 0:
                if lo < 0 or c < lo:
                    lo = c
                if c > hi:
                    hi = c
    which = np.full((n, m), -1, np.int64)
    if lo < 0:
        return np.zeros(0, np.int64), which
    index = np.full(hi - lo + 1, -1, np.int64)
    for i in range(n):
        for b in range(m):
            if codes[i, b] >= 0:
                index[codes[i, b] - lo] = 0
    found = 0
    for v in range(hi - lo + 1):
        if index[v] >= 0:
            index[v] = found
            found += 1
    cases = np.empty(found, np.int64)
    for v in range(hi - lo + 1):
        if index[v] >= 0:
            cases[index[v]] = v + lo
    for i in range(n):
        for b in range(m):
            if codes[i, b] >= 0:
                which[i, b] = index[codes[i, b] - lo]
    return cases, which


@njit(cache=True, nogil=True)
def attack_table(which, p, dmg, karma, hp, cost, floor, w_damage, w_kill, w_karma,
                 out):  # pragma: no cover
    """``out[i, b]``: the greedy value of an attack in case ``which[i, b]`` (left as it is
    where ``-1``): ``damage * P(hit) * min(damage on hit, HP) + kill * P(hit) * cost /
    100`` (when a hit leaves ``hp[b]`` at or below ``floor``) ``+ karma * expected Karma
    Points``; ``p``, ``dmg``, ``karma`` per case, ``hp`` and ``cost`` per enemy."""
    n, m = which.shape
    for i in range(n):
        for b in range(m):
            c = which[i, b]
            if c < 0:
                continue
            pp, dd, h = p[c], dmg[c], hp[b]
            kill = pp * w_kill * cost[b] / 100 if h - dd <= floor else 0.0
            out[i, b] = w_damage * pp * min(dd, h) + kill + w_karma * karma[c]


@njit(cache=True, nogil=True)
def attack_cases(px, py, moved, ex, ey, step, dir3, blocked, sight, impeded, by_los, level,
                 lo, ctx, tcs, ecs, scs, tg, liquid, span, los_blocked):  # pragma: no cover
    """:func:`targets_of`, :func:`seen_packed` (when awareness is by LoS: ``by_los``),
    :func:`attack_codes` and :func:`code_cases` in one call: the distinct situation
    codes of attacking each enemy ``b`` from each tile ``(px[i], py[i])`` and per
    (tile, enemy) the index of its code among them (-1: no legal target)."""
    n, m = px.shape[0], ex.shape[0]
    targets = np.empty((n, m), np.int64)
    targets_of(px, py, ex, ey, step, dir3, blocked, sight, impeded, targets)
    seen = np.full((n, m), -1, np.int64)
    if by_los:
        seen_packed(ex, ey, px, py, level, lo, ctx, tcs, ecs, scs, tg, targets, seen)
    codes = np.empty((n, m), np.int64)
    attack_codes(px, py, moved, targets, sight, seen, liquid, level, lo, span, impeded,
                 los_blocked, codes)
    return code_cases(codes)


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


@njit(cache=True, nogil=True)
def rows_with_target(values):  # pragma: no cover
    """The rows of ``values`` with some entry above ``-inf`` (some legal target)."""
    out = np.empty(values.shape[0], np.int64)
    n = 0
    for t in range(values.shape[0]):
        for b in range(values.shape[1]):
            if values[t, b] > -np.inf:
                out[n] = t
                n += 1
                break
    return out[:n]


@njit(cache=True, nogil=True)
def best_rows(attack, stay):  # pragma: no cover
    """``(utility, best)``: ``utility = attack + stay`` and the rows whose utility
    equals the greatest, in order."""
    utility = attack + stay
    top = utility.max()
    return utility, np.flatnonzero(utility == top)
