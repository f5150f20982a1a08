"""Compiled (numba) inner loops of the greedy plans: attack legality, awareness and
situation codes of every (tile, enemy) pair, the attack values of their cases, and
the table of every plan of a turn with the best ones.  Only numbers go in and out;
the LoS walk is the engine's (:mod:`sodwa_editor.engine.los_kernel`), the rules the
battle's (:mod:`..targeting`, :mod:`..attack`), mirrored in the docstrings.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...engine import los_kernel as lk


@njit(cache=True, nogil=True)
def targets_of(px, py, ex, ey, step, dir3, blocked, sight, impeded, out):  # pragma: no cover
    """``out[i, b]``: whether enemy ``b`` at ``(ex[b], ey[b])`` is a legal target from
    tile ``(px[i], py[i])``: 1 adjacent, 0 not adjacent, -1 no target (RB targeting:
    an adjacent enemy may always be attacked, and only an adjacent one while any is;
    otherwise within Range with a line of sight that is not blocked; the rules as in
    :mod:`..targeting`).  ``sight[i, b]``: the LoS class from the tile to the enemy
    (or :data:`.kernels.OUT_OF_RANGE`); adjacency is the grounded ``step`` (melee)."""
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
def seen_packed(ex, ey, px, py, level, lo, ctx, tcs, ecs, scs, tg, targets,
                out):  # pragma: no cover
    """``out[i, b]``: the LoS class from enemy ``b`` at ``(ex[b], ey[b])`` (at its own
    level, stacks packed as :func:`.kernels.sight_of`) to ``(px[i], py[i])``, for the rows
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
            c, _k, _x, _y, _s = lk.walk_in(sx, sy, x, y, tcs, ecs, scs, k, tg)
            out[i, b] = c

@njit(cache=True, nogil=True)
def attack_codes(px, py, moved, targets, sight, seen, liquid, level, lo, span, impeded,
                 los_blocked, out):  # pragma: no cover
    """``out[i, b]``: the situation code of attacking enemy ``b`` from tile ``(px[i],
    py[i])`` (Move flag ``moved[i]``), or -1 where it is no legal target
    (``targets[i, b]``, :func:`targets_of`).

    ``sight[i, b]``: the LoS class from the tile to the enemy (or ``OUT_OF_RANGE``);
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
