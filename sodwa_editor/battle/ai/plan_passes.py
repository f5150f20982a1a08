"""The greedy plans of one decision in three compiled passes (:func:`.scoring.plans`),
with Python between them only for what is kept in dictionaries (the BIP's numbers per
situation, movement ranges and threat zones, the walking distances' pools):

1. :func:`attack_pass`: the lines of sight from the actor's tile and from every Move's
   end tile to every enemy, and the situation case of every legal attack;
2. :func:`stay_facts`: the TSB turn counts of every enemy before the actor's next turn
   for each plan kind, which enemies may strike some end tile, and the levels of the
   end tiles;
3. :func:`plan_pass`: the attack values, the end tiles of every plan kind with their
   stay terms, and the table of every plan with the best ones.

Each pass calls the kernels of :mod:`.kernels`, :mod:`.plan_kernels` and :mod:`.tsb`
that the plans were scored with one by one before, so a utility is the same float
operations in the same order.  Plan kinds (``present[k]``): pass, attack only,
attack then move, move only, move then attack (:data:`.scoring.PASS` ...).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..clock import turn_wait
from . import kernels as k
from . import plan_kernels as pk
from . import tsb


@njit(cache=True, nogil=True)
def attack_pass(cx, cy, moved_now, dx, dy, ex, ey, rng, metric, level, lo, ctx, tcs, ecs,
                scs, tg, step, dir3, blocked, impeded, by_los, liquid, span,
                los_blocked):  # pragma: no cover
    """The attacks from the actor's tile ``(cx, cy)`` (Move flag ``moved_now``) and
    from every Move's end tile ``(dx[t], dy[t])`` (Move flag set), rows ``0`` and
    ``1 + t``: :func:`.plan_kernels.attack_cases` over :func:`.kernels.sight_of`.

    Returns ``(cases, which, here, at, rows, used)``: the distinct situation codes and
    per (row, enemy) the index of its code (-1: no legal target), whether some enemy
    is a target from where the actor stands, and the lines of sight walked so far
    (``sight_of``'s ``at``, ``rows``, ``used``, for :func:`plan_pass`)."""
    n, m = dx.shape[0] + 1, ex.shape[0]
    px = np.empty(n, np.int64)
    py = np.empty(n, np.int64)
    moved = np.ones(n, np.int64)
    px[0], py[0], moved[0] = cx, cy, moved_now
    px[1:] = dx
    py[1:] = dy
    h, w = level.shape
    at = np.full((h, w), -1, np.int64)
    rows = np.empty((h * w, m), np.int64)
    sight = np.empty((n, m), np.int64)
    used = k.sight_of(px, py, at, rows, 0, ex, ey, rng, metric, level, lo, ctx, tcs, ecs,
                      scs, tg, sight)
    cases, which = pk.attack_cases(px, py, moved, ex, ey, step, dir3, blocked, sight,
                                   impeded, by_los, level, lo, ctx, tcs, ecs, scs, tg,
                                   liquid, span, los_blocked)
    here = False
    for b in range(m):
        if which[0, b] >= 0:
            here = True
    return cases, which, here, at, rows, used


@njit(cache=True, nogil=True)
def _end_tiles(cx, cy, qx, qy, dx, dy, sel, present):  # pragma: no cover
    """The end tiles of every plan kind in enumeration order (pass and attack only:
    the actor's tile; attack then move: ``q``; move only: ``d``; move then attack:
    ``d[sel]``), and each kind's number of tiles (0 where it is not ``present``)."""
    size = np.zeros(5, np.int64)
    size[0] = 1
    if present[1]:
        size[1] = 1
    if present[2]:
        size[2] = qx.shape[0]
    if present[3]:
        size[3] = dx.shape[0]
    if present[4]:
        size[4] = sel.shape[0]
    n = size.sum()
    fx = np.empty(n, np.int64)
    fy = np.empty(n, np.int64)
    i = 0
    for _ in range(size[0] + size[1]):
        fx[i], fy[i] = cx, cy
        i += 1
    for t in range(size[2]):
        fx[i], fy[i] = qx[t], qy[t]
        i += 1
    for t in range(size[3]):
        fx[i], fy[i] = dx[t], dy[t]
        i += 1
    for t in range(size[4]):
        fx[i], fy[i] = dx[sel[t]], dy[sel[t]]
        i += 1
    return fx, fy, size


@njit(cache=True, nogil=True)
def stay_facts(cx, cy, qx, qy, dx, dy, present, level, ip, initiative, extras, enemies,
               ip_all, initiative_all, acted_all, threshold, cost, once, ex, ey,
               square_all):  # pragma: no cover
    """What the threat terms need before the zones and the BIP's threat numbers:
    ``(times, strike, levels)``.

    ``times[g, b]``: enemy ``b`` (battle index ``enemies[b]``; IP, Initiative and
    whether it had its turn in this tick in the ``_all`` arrays by battle index)
    takes that many turns before the actor's next turn when it spends ``extras[g]``
    more IP (:func:`.tsb.turn_table`, due now when :func:`..clock.turn_wait` is 0);
    ``strike[b]``: it has a turn then for some plan kind ``present`` and some end tile
    lies within its Chebyshev square ``square_all`` (:func:`.kernels.within_square`:
    its threat zone lies inside, so no other enemy's zone is needed); ``levels``: the
    distinct levels of the end tiles (sorted).  The end tiles of move then attack are
    some of the Move's, so they add no tile here."""
    m = enemies.shape[0]
    ips = np.empty(m, np.int64)
    initiatives = np.empty(m, np.int64)
    due = np.empty(m, np.int64)
    reach = np.empty(m, np.int64)
    for b in range(m):
        j = enemies[b]
        ips[b], initiatives[b], reach[b] = ip_all[j], initiative_all[j], square_all[j]
        due[b] = turn_wait(ip_all[j], initiative_all[j], acted_all[j] != 0, threshold,
                           once) == 0
    times = np.empty((extras.shape[0], m), np.int64)
    tsb.turn_table(ip, initiative, extras, ips, initiatives, due, threshold, cost, once,
                   times)
    fx, fy, _size = _end_tiles(cx, cy, qx, qy, dx, dy, np.zeros(0, np.int64), present)
    strike = np.empty(m, np.bool_)
    k.within_square(fx, fy, ex, ey, reach, strike)
    for b in range(m):
        most = 0
        for g in range(extras.shape[0]):
            if present[g] and times[g, b] > most:
                most = times[g, b]
        strike[b] = strike[b] and most > 0
    lev = np.empty(fx.shape[0], np.int64)
    for i in range(fx.shape[0]):
        lev[i] = level[fy[i], fx[i]]
    levels, _index = k.distinct(lev)
    return times, strike, levels


@njit(cache=True, nogil=True)
def plan_pass(cx, cy, moved_now, qx, qy, dx, dy, present, extras, which, p, dmg, karma,
              enemies, hp_all, cost_all, floor, w_damage, w_kill, w_karma, times, zones, q,
              levels, threat_dmg, lethal, walks, walk_slot, fire, fire_slot, melee, at, rows,
              used, ex, ey, rng, metric, level, lo, ctx, tcs, ecs, scs, tg, impeded, weights,
              own):  # pragma: no cover
    """Every plan of the turn: ``(kind, stay, target, tile, utility, best)`` as
    :func:`.plan_kernels.plan_table` and :func:`.plan_kernels.best_rows`.

    The attack values of :func:`attack_pass`'s cases (``p``, ``dmg``, ``karma`` per
    case, HP and point cost per battle index, the enemies' ``enemies``:
    :func:`.plan_kernels.attack_table`; ``which`` has no rows when the actor may not
    attack); the end tiles of every kind present
    (move then attack: the Move's tiles with some target), their levels' indices in
    ``levels``, the lines of sight from them where some enemy is approached for a
    ranged attack (``sight_of`` going on from ``at``, ``rows``, ``used``; ``at`` with no
    rows: none walked yet), their stay terms (:func:`.kernels.stay`: threat zones,
    hit chances ``q`` per level and damage per enemy, the approach inputs) and the
    plan table."""
    m = ex.shape[0]
    values = np.full((which.shape[0], m), -np.inf)
    if which.shape[0] > 0 and p.shape[0] > 0:
        hp, cost = np.empty(m, np.int64), np.empty(m, np.int64)
        for b in range(m):
            hp[b], cost[b] = hp_all[enemies[b]], cost_all[enemies[b]]
        pk.attack_table(which, p, dmg, karma, hp, cost, floor, w_damage, w_kill, w_karma,
                        values)
    if which.shape[0] > 0:
        here = values[0]
        after = values[1:]
    else:
        here = np.zeros(0)
        after = np.zeros((0, m))
    targets = np.flatnonzero(here > -np.inf)
    sel = pk.rows_with_target(after) if present[4] else np.zeros(0, np.int64)
    fx, fy, size = _end_tiles(cx, cy, qx, qy, dx, dy, sel, present)
    n = fx.shape[0]
    index = np.zeros(levels[-1] - levels[0] + 1, np.int64)
    for i in range(levels.shape[0]):
        index[levels[i] - levels[0]] = i
    lev_i = np.empty(n, np.int64)
    for i in range(n):
        lev_i[i] = index[level[fy[i], fx[i]] - levels[0]]
    sight = np.zeros((n, m), np.int64)
    ranged = False
    for b in range(m):
        if not melee[b]:
            ranged = True
    if ranged:
        if at.shape[0] == 0:
            h, w = level.shape
            at = np.full((h, w), -1, np.int64)
            rows = np.empty((h * w, m), np.int64)
            used = 0
        k.sight_of(fx, fy, at, rows, used, ex, ey, rng, metric, level, lo, ctx, tcs, ecs,
                   scs, tg, sight)
    gmoved = np.ones(5, np.int64)
    gmoved[0] = gmoved[1] = moved_now
    stay = np.empty(n)
    k.stay(fx, fy, size, np.arange(5), gmoved, extras, times, zones, q, lev_i, threat_dmg,
           lethal, walks, walk_slot, fire, fire_slot, melee, sight, rng, impeded, weights,
           own, stay)
    start = np.cumsum(size) - size
    kind, attack, stay_of, target, tile = pk.plan_table(here, targets, after, stay, start,
                                                        size)
    utility, best = pk.best_rows(attack, stay_of)
    return kind, stay_of, target, tile, utility, best
