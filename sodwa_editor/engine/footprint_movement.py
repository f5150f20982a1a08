"""Movement range of a creature of any footprint (docs/rules.md S6-S8; M1-M13 for one
tile): every position its top-left tile (anchor) can end a move on, with the steps, the
stop flag and a shortest path, as :class:`.movement.Reach` gives them for one tile.

A step moves every square of the footprint one tile in one of the 8 directions.  It is
allowed when every square's own step is allowed by the engine's adjacency (A1-A9: the
corner rules for every square of a diagonal step) and the footprint *holds together*
where it arrives (every tile enterable, every two orthogonally neighbouring squares
adjacent: no wall through it, a level change inside it only across a transition border).
The stop rules look at the *leading* squares, those that arrive on a tile the footprint
did not cover: a hindering crossing by one of them, or a hindering tile entered by one of
them, ends the move.  A move ends only where the footprint may stand
(:func:`.footprint.cannot_stand`).  For a 1x1 footprint these are exactly the rules of
:func:`.movement.reach` (property-tested on random maps).

>>> from sodwa_editor.engine.model import MapModel
>>> from sodwa_editor.engine.footprint import Footprint
>>> m = MapModel(6, 2)
>>> m.set_terrain(4, 1, m.registry.id_of("impeding"))
>>> r = footprint_reach(m, (0, 0), Footprint(2, 2), 9)
>>> r.steps.tolist()
[[0, 1, 2, 3, -1, -1], [-1, -1, -1, -1, -1, -1]]
>>> bool(r.must_stop[0, 3]), r.path_to((3, 0))
(True, [(0, 0), (1, 0), (2, 0), (3, 0)])
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numba import njit

from . import adjacency as adj
from .footprint import Footprint, cannot_stand, check_on_map, size_rank
from .model import MapModel
from .movement import (
    _DX,
    _DY,
    _NOBODY,
    _PREFERENCE,
    ORDER,
    Reach,
    _check_counts,
    _halve,
    _start,
    _terrain_part,
    _TerrainPart,
    _window,
)
from .start_group import group_steps, start_group
from .terrain import Base

Tile = tuple[int, int]


@njit(cache=True, nogil=True)
def _anchor_flag(ax, ay, fw, fh, x0, y0, room, tile_ok, pass_e, pass_s, endable, elev, cut_e,
                 cut_s, group, melev):  # pragma: no cover - compiled
    """The footprint with top-left tile ``(ax, ay)``: bit 1 it may end there (it may stand,
    :func:`.footprint.cannot_stand`, and no other character is under it), bit 2 it may pass
    (it holds together and no character it may not pass is under it), bit 4 it covers a
    start-group tile, bit 8 all its tiles are on one level for the mover (``melev``: the
    adjacency rule's elevations, all 0 for a flyer).  ``room[y - y0, x - x0]``: per tile,
    bit 1 no other character, bit 2 none that the mover may not pass."""
    h, w = endable.shape
    if ax + fw > w or ay + fh > h:
        return 0
    free = 3
    can_pass = True
    can_end = True
    in_group = False
    level = elev[ay, ax]
    flat = True
    for qy in range(ay, ay + fh):
        for qx in range(ax, ax + fw):
            free &= room[qy - y0, qx - x0]
            if melev[qy, qx] != melev[ay, ax]:
                flat = False
            if not tile_ok[qy, qx]:
                can_pass = False
            if not endable[qy, qx] or elev[qy, qx] != level:
                can_end = False
            if group[qy, qx]:
                in_group = True
            if qx + 1 < ax + fw:
                if not pass_e[qy, qx]:
                    can_pass = False
                if cut_e[qy, qx]:
                    can_end = False
            if qy + 1 < ay + fh:
                if not pass_s[qy, qx]:
                    can_pass = False
                if cut_s[qy, qx]:
                    can_end = False
    f = 0
    if can_pass and free & 2:
        f |= 2
        if can_end and free & 1:
            f |= 1
    if in_group:
        f |= 4
    if flat:
        f |= 8
    return f


@njit(cache=True, nogil=True)
def _stands(ax, ay, fw, fh, endable, elev, cut_e, cut_s):  # pragma: no cover - compiled
    """Whether the terrain lets the footprint stand at ``(ax, ay)`` (on the map): the
    quick form of :func:`.footprint.cannot_stand` without characters (bit 1 of
    :func:`_anchor_flag`)."""
    level = elev[ay, ax]
    for qy in range(ay, ay + fh):
        for qx in range(ax, ax + fw):
            if not endable[qy, qx] or elev[qy, qx] != level:
                return False
            if qx + 1 < ax + fw and cut_e[qy, qx]:
                return False
            if qy + 1 < ay + fh and cut_s[qy, qx]:
                return False
    return True


@njit(cache=True, nogil=True)
def _search(step, gstep, group, hinder, tile_ok, pass_e, pass_s, endable, elev, cut_e, cut_s,
            melev, others, fw, fh, sx, sy, start_g, budget, order, ddx, ddy,
            preference):  # pragma: no cover - compiled
    """:func:`.movement._search` over anchors: the same states, order, preference and
    results (``steps, chosen, states, parents, must_stop``), each step judged for every
    square of the footprint (module docstring).  What an anchor allows
    (:func:`_anchor_flag`) is worked out the first time the search meets it.  ``others``:
    ``(x, y, passable)`` rows of the other characters' squares."""
    h, w = hinder.shape
    hw = h * w
    x0, y0, x1, y1 = _window(sx, sy, budget, h, w)
    ww, wh = x1 - x0, y1 - y0
    area = ww * wh
    tx1 = min(w, x1 + fw - 1)
    ty1 = min(h, y1 + fh - 1)
    room = np.full((ty1 - y0, tx1 - x0), 3, np.uint8)
    for i in range(others.shape[0]):
        x, y = others[i, 0], others[i, 1]
        if x0 <= x < tx1 and y0 <= y < ty1:
            room[y - y0, x - x0] &= 2 if others[i, 2] else 0
    flags = np.full((wh, ww), 255, np.uint8)  # 255: not worked out yet
    flags[sy - y0, sx - x0] = 3 | _anchor_flag(sx, sy, fw, fh, x0, y0, room, tile_ok, pass_e,
                                               pass_s, endable, elev, cut_e, cut_s, group,
                                               melev)
    work = np.empty((8, 4 * area), np.int32)
    at, tx, ty, tl = work[0], work[1], work[2], work[3]
    dist, parents, queue, rank = work[4], work[5], work[6], work[7]
    at[:] = -1
    at[start_g * 2 * area + (sy - y0) * ww + sx - x0] = 0
    tx[0], ty[0], tl[0], dist[0], parents[0], queue[0] = sx, sy, start_g * 2, 0, -1, 0
    head, tail = 0, 1
    n_seen = 1
    while head < tail:
        j = queue[head]
        head += 1
        d0 = dist[j]
        if d0 >= budget:
            continue
        x, y, g = tx[j], ty[j], tl[j] // 2
        for i in range(8):
            di = order[i]
            dx, dy = ddx[di], ddy[di]
            nx, ny = x + dx, y + dy
            if nx < x0 or ny < y0 or nx >= x1 or ny >= y1:
                continue
            f = flags[ny - y0, nx - x0]
            if f == 255:
                f = _anchor_flag(nx, ny, fw, fh, x0, y0, room, tile_ok, pass_e, pass_s,
                                 endable, elev, cut_e, cut_s, group, melev)
                flags[ny - y0, nx - x0] = f
            if not f & 2:
                continue
            ng = 1 if g == 1 and f & 4 else 0
            # The leading squares arrive on tiles the footprint did not cover: its
            # leading column (dx != 0) and row (dy != 0).  The others step inside it:
            # orthogonally always allowed (it holds together), diagonally too when all
            # of it is on one level (every way round such a corner is inside it).
            # The leading squares arrive on tiles the footprint did not cover: its
            # leading column (dx != 0) and row (dy != 0).  The others step inside it:
            # orthogonally always allowed (it holds together), diagonally too when all
            # of it is on one level (every way round such a corner is inside it).
            lx = x + fw - 1 if dx > 0 else x
            ly = y + fh - 1 if dy > 0 else y
            whole = dx != 0 and dy != 0 and not flags[y - y0, x - x0] & 8
            blocked = False
            stop = False
            for qy in range(y, y + fh):
                for qx in range(x, x + fw):
                    lead = (dx != 0 and qx == lx) or (dy != 0 and qy == ly)
                    if not lead and not whole:
                        continue
                    c = gstep[di, qy, qx] if g == 1 and group[qy, qx] else step[di, qy, qx]
                    if c == 2:
                        blocked = True
                        break
                    if lead:
                        ex, ey = qx + dx, qy + dy
                        if c == 1 or (hinder[ey, ex] and not (ng == 1 and group[ey, ex])):
                            stop = True
                if blocked:
                    break
            if blocked or (stop and not f & 1):
                continue
            layer = ng * 2 + (1 if stop else 0)
            local = layer * area + (ny - y0) * ww + nx - x0
            if at[local] >= 0:
                continue
            at[local] = n_seen
            tx[n_seen], ty[n_seen], tl[n_seen] = nx, ny, layer
            dist[n_seen] = d0 + 1
            parents[n_seen] = j
            if not stop:
                queue[tail] = n_seen
                tail += 1
            n_seen += 1
    rank_of = np.empty(4, np.int32)
    for i in range(4):
        rank_of[preference[i]] = i
    steps = np.full((h, w), -1, np.int32)
    chosen = np.full((wh, ww), -1, np.int32)
    must = np.zeros((h, w), np.bool_)
    states = np.empty(n_seen, np.int32)
    for j in range(n_seen):
        x, y, layer = tx[j], ty[j], tl[j]
        states[j] = layer * hw + y * w + x
        if not flags[y - y0, x - x0] & 1:
            continue
        r = rank_of[layer]
        d = dist[j]
        s = steps[y, x]
        p = (y - y0) * ww + x - x0
        if s < 0 or d < s or (d == s and r < rank[p]):
            steps[y, x] = d
            chosen[y - y0, x - x0] = j
            rank[p] = r
            must[y, x] = layer % 2 == 1
    return steps, chosen, states, parents[:n_seen].copy(), must


@dataclass(frozen=True)
class FootprintReach(Reach):
    """:class:`.movement.Reach` over anchors: ``steps[y, x]`` is for the footprint whose
    top-left tile is ``(x, y)``; paths are paths of anchors."""

    footprint: Footprint = Footprint()

    def covered(self) -> np.ndarray:
        """``(H, W)`` bool: the tiles the footprint covers at some end position (what a
        movement preview draws)."""
        out = np.zeros(self.steps.shape, np.bool_)
        ys, xs = np.nonzero(self.steps >= 0)
        for j in range(self.footprint.height):
            for i in range(self.footprint.width):
                out[ys + j, xs + i] = True
        return out


@dataclass(frozen=True)
class _Tiles:
    """Per-tile inputs of the footprint search for one mover kind and model revision."""

    revision: int
    tile_ok: np.ndarray
    pass_e: np.ndarray
    pass_s: np.ndarray
    elev: np.ndarray
    cut_e: np.ndarray
    cut_s: np.ndarray
    melev: np.ndarray


_TILES: weakref.WeakKeyDictionary[MapModel, dict[bool, _Tiles]] = weakref.WeakKeyDictionary()


def _tiles(model: MapModel, flight: bool) -> _Tiles:
    hit = _TILES.get(model, {}).get(flight)
    if hit is None or hit.revision != model.revision or hit.elev.shape != model.shape:
        data = adj.steps(model, flight=flight)
        bases = model.registry.base_table()
        hit = _Tiles(model.revision, data.inputs.tile != adj.BLOCKED,
                     _pad(data.pairs.e != adj.BLOCKED, 1), _pad(data.pairs.s != adj.BLOCKED, 0),
                     model.elevation.copy(),
                     _pad(bases[model.border_e] == Base.OBSTRUCTING, 1),
                     _pad(bases[model.border_s] == Base.OBSTRUCTING, 0), data.inputs.elev)
        _TILES.setdefault(model, {})[flight] = hit
    return hit


def _pad(a: np.ndarray, axis: int) -> np.ndarray:
    """An edge array padded to ``(H, W)`` (the last column or row never read)."""
    pad = ((0, 0), (0, 1)) if axis == 1 else ((0, 1), (0, 0))
    return np.ascontiguousarray(np.pad(a, pad))


def footprint_reach(model: MapModel, anchor: Tile, footprint: Footprint, move: int, *,
                    team: str | None = None, flight: bool = False, budget: int | None = None,
                    occupants: Iterable[tuple] | None = None, hindered_start: bool = True,
                    size: str = "medium", pass_hostile_by_size: bool = False
                    ) -> FootprintReach:
    """Positions a creature of ``footprint`` whose top-left tile is ``anchor`` can end
    its move on (docs/rules.md S6-S8, and M1-M13 for one tile).

    ``move``, ``team``, ``flight``, ``budget`` and ``hindered_start`` as in
    :func:`.movement.reach` (halving: one hindering square halves, S7).  ``occupants``:
    ``(x, y, team)`` or ``(x, y, team, size)`` of every square of every other creature
    (a large creature gives a row per square; None: the model's characters, each one
    Medium tile); rows on the mover's own squares are the mover and ignored.  Friends
    are passed, every other creature blocks and no move ends with a square on another
    creature (M4); with ``pass_hostile_by_size`` (the rules key
    ``movement.pass_hostile_by_size``, default off, S8) a hostile two or more size
    categories larger or smaller than the mover's ``size``, or any hostile when the
    mover is Tiny, is passed as a friend is.
    """
    fw, fh = footprint
    sx, sy = anchor
    check_on_map(model, anchor, footprint)
    _check_counts(move, budget)
    mover_rank = size_rank(size)
    if occupants is None:
        occupants = [(c.x, c.y, c.team) for c in model.characters.values()]
    rows = []
    for row in occupants:
        x, y, who = row[0], row[1], row[2]
        if footprint.covers(anchor, (x, y)):
            continue
        friend = team is not None and who == team
        if not friend and pass_hostile_by_size:
            other = size_rank(row[3]) if len(row) > 3 else size_rank("medium")
            friend = mover_rank == size_rank("tiny") or abs(mover_rank - other) >= 2
        rows.append((x, y, friend))
    part = _terrain_part(model, flight)
    tiles = _tiles(model, flight)
    if footprint.area > 1 and not _stands(sx, sy, fw, fh, part.endable, tiles.elev,
                                          tiles.cut_e, tiles.cut_s):
        refusal = cannot_stand(model, anchor, footprint)
        assert refusal is not None
        raise ValueError(f"a {footprint} creature cannot start at {sx},{sy}: {refusal.text}")
    squares = footprint.squares(anchor)
    if not hindered_start:
        group, gstep, some = part.no_group, part.step, False
    elif footprint.area == 1:
        group, gstep, some = _start(model, part, anchor, flight)
    else:
        group, gstep, some = _footprint_start(model, part, squares, flight)
    halving, halved = _halve(part, anchor, move, (fw, fh))
    if budget is None:
        budget = halving
    others = np.array(rows, np.int64) if rows else _NOBODY
    steps, chosen, states, parents, must_stop = _search(
        part.step, gstep, group, part.hinder, tiles.tile_ok, tiles.pass_e, tiles.pass_s,
        part.endable, tiles.elev, tiles.cut_e, tiles.cut_s, tiles.melev, others, fw, fh, sx, sy,
        int(some), budget, ORDER, _DX, _DY, _PREFERENCE)
    return FootprintReach(anchor, move, budget, halved, flight, team, steps, must_stop, group,
                          chosen, states, parents, footprint)


def _footprint_start(model: MapModel, part: _TerrainPart, squares: list[Tile], flight: bool
                     ) -> tuple[np.ndarray, np.ndarray, bool]:
    """``(group, gstep, any)`` of a large creature (S7): the union of the start groups of
    its hindering squares (M6), with the transition borders of every square that is a
    transition tile free (M7)."""
    (x0, y0), (x1, y1) = squares[0], squares[-1]
    if not part.hinder[y0 : y1 + 1, x0 : x1 + 1].any():
        return part.no_group, part.step, False
    tile_class = adj.steps(model, flight=flight).inputs.tile
    group = np.zeros(model.shape, np.bool_)
    for x, y in squares:
        if part.hinder[y, x] and (not group[y, x] or model.transition[y, x]):
            group |= start_group(model, (x, y), tile_class)
    if not group.any():
        return part.no_group, part.step, False
    return group, group_steps(model, group, squares, flight), True
