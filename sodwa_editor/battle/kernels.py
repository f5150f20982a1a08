"""Compiled (numba) inner loops of the battle rules.  Only numbers go in and out;
the rules are stated in the modules that call these (named in each docstring).
"""

from __future__ import annotations

from numba import njit

from ..engine import los_kernel as lk
from ..engine.distance import METRICS as METRICS  # ``targeting.range_metric`` codes

#: Feature reachability answers.
REACHED, OUT_OF_RANGE, BLOCKED = 0, 1, 2


@njit(cache=True, nogil=True)
def in_range(dx, dy, rng, metric):  # pragma: no cover - compiled
    """``distance <= rng`` for tile offsets, as :func:`.attack.within_range` (Euclidean
    compared squared: exact for integers)."""
    dx, dy = abs(dx), abs(dy)
    if metric == 0:
        return max(dx, dy) <= rng
    if metric == 1:
        return dx * dx + dy * dy <= rng * rng
    return dx + dy <= rng


@njit(cache=True, nogil=True)
def features(ax, ay, rng, metric, ctx, tcs, ecs, scs, tg, fx, fy, fs, out):
    """Whether an attacker on ``(ax, ay)`` with Range ``rng`` reaches each Obstructing
    feature ``(fx[i], fy[i], fs[i])`` (``fs``: 0 tile, 1 east border, 2 south border):
    ``out[i]`` = REACHED, OUT_OF_RANGE or BLOCKED (the rule: :mod:`.obstructions`).

    A tile: touching (8-neighbour) or within Range, and the line to it is blocked
    first by the tile itself.  A border: on an edge of the attacker's tile, or the
    tile on the attacker's side within Range and the line to the tile beyond blocked
    first by that border.  ``ctx``/``tcs``/``ecs``/``scs``/``tg``: the LoS kernel's
    stacked inputs for a viewer at the attacker's level (``LosBoard.stack``).
    """
    for i in range(fx.shape[0]):
        x, y, s = fx[i], fy[i], fs[i]
        if s == 0:
            touching = max(abs(x - ax), abs(y - ay)) == 1
            if not touching and not in_range(x - ax, y - ay, rng, metric):
                out[i] = OUT_OF_RANGE
                continue
            k = ctx[y, x]
            c, kind, rx, ry, _side = lk.walk_in(ax, ay, x, y, tcs, ecs, scs, k, tg)
            ok = c == 2 and kind == lk.R_TARGET and rx == x and ry == y
            out[i] = REACHED if ok else BLOCKED
            continue
        qx = x + 1 if s == 1 else x
        qy = y if s == 1 else y + 1
        if (ax == x and ay == y) or (ax == qx and ay == qy):
            out[i] = REACHED
            continue
        west = ax <= x if s == 1 else ay <= y
        nx, ny, tx, ty = (x, y, qx, qy) if west else (qx, qy, x, y)
        if not in_range(nx - ax, ny - ay, rng, metric):
            out[i] = OUT_OF_RANGE
            continue
        k = ctx[ty, tx]
        c, kind, rx, ry, side = lk.walk_in(ax, ay, tx, ty, tcs, ecs, scs, k, tg)
        ok = c == 2 and kind == lk.R_BORDER and rx == x and ry == y and side == s
        out[i] = REACHED if ok else BLOCKED
