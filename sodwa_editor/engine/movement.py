"""Movement range: every tile a character can end its move on, with the path there.

Each step goes to an adjacent tile (the engine's one adjacency rule,
:mod:`.adjacency`) and costs 1: RB *Attributes* "Move determines the maximum
number of tiles a character may move through in a single turn".  The search is
a breadth-first search over states ``(tile, still in the start group, must
stop)`` compiled with numba; the step classes come from the per-revision cache
of :func:`.adjacency.steps`.  See docs/rules.md, *Decisions / Movement*.

>>> from sodwa_editor.engine.model import MapModel
>>> m = MapModel(5, 1)
>>> m.set_terrain(2, 0, m.registry.id_of("impeding"))
>>> r = reach(m, (0, 0), 4)
>>> r.steps.tolist(), r.must_stop.tolist()
([[0, 1, 2, -1, -1]], [[False, False, True, False, False]])
>>> r.path_to((2, 0))
[(0, 0), (1, 0), (2, 0)]
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from . import adjacency as adj
from .model import MapModel
from .start_group import group_steps, start_group
from .terrain import Base

Tile = tuple[int, int]

#: Order in which a tile's neighbours are tried (orthogonal first); it breaks ties
#: between equally short paths deterministically.
ORDER = np.array([adj.E_, adj.S_, adj.W_, adj.N_, adj.SE_, adj.SW_, adj.NW_, adj.NE_], np.int64)
_DX = np.array([d[0] for d in adj.DIRS], np.int64)
_DY = np.array([d[1] for d in adj.DIRS], np.int64)
#: State layers ``g * 2 + stop``, best first when a tile is reached several ways
#: in the same number of steps: going on beats having to stop.
_PREFERENCE = np.array([2, 0, 3, 1], np.int64)
#: ``others`` of a search with no other character.
_NOBODY = np.empty((0, 3), np.int64)


@njit(cache=True, nogil=True)
def _window(sx, sy, budget, h, w):  # pragma: no cover - compiled
    """``(x0, y0, x1, y1)``, half-open: the tiles within ``budget`` steps (Chebyshev)
    of ``(sx, sy)``, clipped to an ``h`` x ``w`` map.  Each step goes to one of the 8
    neighbouring tiles, so a search with that budget reaches no tile outside it."""
    return (max(0, sx - budget), max(0, sy - budget),
            min(w, sx + budget + 1), min(h, sy + budget + 1))


@njit(cache=True, nogil=True)
def _search(step, gstep, group, hinder, endable, others, sx, sy, start_g, budget,
            order, ddx, ddy, preference):  # pragma: no cover - compiled
    """Breadth-first search; returns ``(steps, chosen, states, parents, must_stop)``:
    ``states`` the states reached in search order, ``parents[j]`` the index in it of
    state ``j``'s parent (-1 for the start) and ``chosen[y - y0, x - x0]`` the index of
    the state a move to the tile ends in (-1: none), over the window ``(x0, y0, x1,
    y1)`` of :func:`_window` only, so a range keeps links for the few states it
    reached, not for every state of the map.

    State ``k = layer * H * W + y * W + x`` with ``layer = g * 2 + stop``: ``g`` the
    mover is still inside its start group, ``stop`` movement ended on entering.  The
    search works on the window alone (its bookkeeping indexed ``layer * A + (y - y0)
    * ww + (x - x0)`` there, ``A`` the window's area), and what follows it goes over
    the states reached: only filling the full-size answers costs the whole map.
    ``others``: ``(x, y, friend)`` rows of the other characters (:func:`placed_reach`).
    """
    h, w = hinder.shape
    hw = h * w
    x0, y0, x1, y1 = _window(sx, sy, budget, h, w)
    ww = x1 - x0
    area = ww * (y1 - y0)
    # One scratch block: per window state its index in search order (-1: not yet
    # reached), then per index in search order its tile, layer, steps and parent,
    # the queue of indices to go on from, and per window tile the rank of the state
    # kept (read only once written).
    work = np.empty((8, 4 * area), np.int32)
    at, tx, ty, tl = work[0], work[1], work[2], work[3]
    dist, parents, queue, rank = work[4], work[5], work[6], work[7]
    at[:] = -1
    # What the characters leave of the window's tiles: bit 1 a move may end there,
    # bit 2 it may pass; nobody ends on an occupied tile and only a friend is passed.
    room = np.empty((y1 - y0, ww), np.uint8)
    for y in range(y0, y1):
        for x in range(x0, x1):
            room[y - y0, x - x0] = 3 if endable[y, x] else 2
    for i in range(others.shape[0]):
        x, y = others[i, 0], others[i, 1]
        if x0 <= x < x1 and y0 <= y < y1:
            room[y - y0, x - x0] &= 2 if others[i, 2] else 0
    room[sy - y0, sx - x0] |= 1  # the start is an end tile
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
            nx, ny = x + ddx[di], y + ddy[di]
            if nx < x0 or ny < y0 or nx >= x1 or ny >= y1:  # off the map (see _window)
                continue
            c = gstep[di, y, x] if g == 1 else step[di, y, x]
            free = room[ny - y0, nx - x0]
            if c == 2 or not free & 2:
                continue
            if g == 1 and group[ny, nx]:
                ng, stop = 1, c == 1
            else:
                ng, stop = 0, c == 1 or hinder[ny, nx]
            if stop and not free & 1:
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
    rank_of = np.empty(4, np.int32)  # rank of each layer: 0 the best
    for i in range(4):
        rank_of[preference[i]] = i
    steps = np.full((h, w), -1, np.int32)
    chosen = np.full((y1 - y0, ww), -1, np.int32)
    must = np.zeros((h, w), np.bool_)
    states = np.empty(n_seen, np.int32)
    for j in range(n_seen):
        x, y, layer = tx[j], ty[j], tl[j]
        states[j] = layer * hw + y * w + x
        if not room[y - y0, x - x0] & 1:
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


@njit(cache=True, nogil=True)
def _end_tiles(steps, sx, sy, budget):  # pragma: no cover - compiled
    """``(xs, ys)`` of the tiles with ``steps > 0``, row-major (:attr:`Reach.moves`),
    looked for in the window of a search from ``(sx, sy)`` with ``budget`` steps."""
    x0, y0, x1, y1 = _window(sx, sy, budget, steps.shape[0], steps.shape[1])
    n = 0
    xs = np.empty((y1 - y0) * (x1 - x0), np.int64)
    ys = np.empty((y1 - y0) * (x1 - x0), np.int64)
    for y in range(y0, y1):
        for x in range(x0, x1):
            if steps[y, x] > 0:
                xs[n] = x
                ys[n] = y
                n += 1
    return xs[:n].copy(), ys[:n].copy()


@dataclass(frozen=True)
class ReachInfo:
    """One reachable tile: steps used, whether movement must end there, and the
    path (built on first use from the search's parent links, so that listing
    every tile of a long range stays linear)."""

    tile: Tile
    steps: int
    must_stop: bool
    _reach: Reach = field(repr=False, compare=False)

    @property
    def path(self) -> list[Tile]:
        path = self._reach.path_to(self.tile)
        assert path is not None
        return path


@dataclass(frozen=True)
class Reach:
    """Result of :func:`reach`.

    ``steps`` (int32, ``-1`` = cannot end there) and ``must_stop`` (bool) are
    ``(H, W)`` arrays for overlays; ``move`` is the Move used, ``budget`` the
    steps allowed (after halving, ``halved``, or as given); ``start_group`` the tiles the mover
    may pass through without stopping (empty unless it starts on hindering terrain).
    """

    start: Tile
    move: int
    budget: int
    halved: bool
    flight: bool
    team: str | None
    steps: np.ndarray
    must_stop: np.ndarray
    start_group: np.ndarray
    _chosen: np.ndarray = field(repr=False)
    _states: np.ndarray = field(repr=False)
    _parents: np.ndarray = field(repr=False)

    @property
    def moves(self) -> tuple[np.ndarray, np.ndarray]:
        """``(xs, ys)``: the tiles a move can end on other than the start, row-major
        (int64, read-only: a range is shared; worked out once)."""
        hit = self.__dict__.get("_moves")
        if hit is None:
            xs, ys = _end_tiles(self.steps, *self.start, self.budget)
            xs.flags.writeable = ys.flags.writeable = False
            hit = self.__dict__["_moves"] = (xs, ys)
        return hit

    @property
    def window(self) -> tuple[int, int, int, int]:
        """``(x0, y0, x1, y1)``, half-open: the tiles within ``budget`` steps
        (Chebyshev) of the start, clipped to the map; the range holds no tile outside."""
        h, w = self.steps.shape
        return _window(self.start[0], self.start[1], self.budget, h, w)

    @property
    def nbytes(self) -> int:
        """Bytes of the arrays this range holds alone (its start group is shared)."""
        return (self.steps.nbytes + self.must_stop.nbytes + self._chosen.nbytes
                + self._states.nbytes + self._parents.nbytes)

    def __contains__(self, tile: object) -> bool:
        if not (isinstance(tile, tuple) and len(tile) == 2):
            return False
        x, y = tile
        h, w = self.steps.shape
        return bool(0 <= x < w and 0 <= y < h and self.steps[y, x] >= 0)

    def path_to(self, tile: Tile) -> list[Tile] | None:
        """Shortest path (in steps) from the start to ``tile``, both included; None if
        the move cannot end on ``tile``."""
        if tile not in self:
            return None
        h, w = self.steps.shape
        x0, y0, _x1, _y1 = self.window
        j = int(self._chosen[tile[1] - y0, tile[0] - x0])
        out = []
        while j >= 0:
            p = int(self._states[j]) % (h * w)
            out.append((p % w, p // w))
            j = int(self._parents[j])
        return out[::-1]

    def info(self, tile: Tile) -> ReachInfo | None:
        if tile not in self:
            return None
        x, y = tile
        return ReachInfo((x, y), int(self.steps[y, x]), bool(self.must_stop[y, x]), self)

    def tiles(self) -> dict[Tile, ReachInfo]:
        """Every tile the move can end on (the start included), row-major; linear in
        the number of tiles (paths are built only when asked for)."""
        ys, xs = np.nonzero(self.steps >= 0)
        steps = self.steps[ys, xs].tolist()
        stops = self.must_stop[ys, xs].tolist()
        return {(x, y): ReachInfo((x, y), s, st, self)
                for x, y, s, st in zip(xs.tolist(), ys.tolist(), steps, stops, strict=True)}


@dataclass(frozen=True)
class _TerrainPart:
    """What :func:`reach` needs of the terrain alone, for one mover kind at one model
    revision: hindering tiles, tiles a move may end on (characters aside), and the
    start group with its step classes per start tile (a bounded cache)."""

    revision: int
    step: np.ndarray
    hinder: np.ndarray
    endable: np.ndarray
    no_group: np.ndarray
    starts: dict[Tile, tuple[np.ndarray, np.ndarray, bool]]


_TERRAIN: weakref.WeakKeyDictionary[MapModel, dict[bool, _TerrainPart]] = (
    weakref.WeakKeyDictionary())
#: Bytes of start-group step arrays kept per model and mover kind (oldest dropped first).
START_CACHE_BYTES = 32 * 1024 * 1024


#: The last part handed out per mover kind, with a weak reference to its model: a
#: battle asks for the same model's again and again (a look-up without a new weak
#: reference, which ``_TERRAIN.get`` makes every time).
_LAST: dict[bool, tuple[weakref.ref[MapModel], _TerrainPart]] = {}


def _terrain_part(model: MapModel, flight: bool) -> _TerrainPart:
    last = _LAST.get(flight)
    if last is not None and last[0]() is model:
        part: _TerrainPart | None = last[1]
    else:
        part = _TERRAIN.get(model, {}).get(flight)
    if part is None or part.revision != model.revision or part.hinder.shape != model.shape:
        data = adj.steps(model, flight=flight)
        tile_class = data.inputs.tile
        # A flyer passes over Outdoor Obstructing tiles but may not end there.
        bases = model.registry.base_table()[model.terrain]
        endable = (tile_class != adj.BLOCKED) & (bases != Base.OBSTRUCTING)
        endable.flags.writeable = False  # read by every search
        no_group = np.zeros(model.shape, np.bool_)
        no_group.flags.writeable = False  # shared by every Reach without a start group
        part = _TerrainPart(model.revision, data.step, tile_class == adj.IMPEDED, endable,
                            no_group, {})
        _TERRAIN.setdefault(model, {})[flight] = part
    if last is None or last[1] is not part:
        _LAST[flight] = (weakref.ref(model), part)
    return part


def _start(model: MapModel, part: _TerrainPart, start: Tile,
           flight: bool) -> tuple[np.ndarray, np.ndarray, bool]:
    """``(group, gstep, any)`` for a start tile, cached with the terrain part."""
    if not part.hinder[start[1], start[0]]:  # no start group (start_group's own test)
        return part.no_group, part.step, False
    hit = part.starts.get(start)
    if hit is None:
        group = start_group(model, start, adj.steps(model, flight=flight).inputs.tile)
        group.flags.writeable = False  # shared by every Reach from this start
        some = bool(group.any())
        hit = (group, group_steps(model, group, [start], flight) if some else part.step, some)
        limit = max(16, START_CACHE_BYTES // max(1, part.step.nbytes))
        while len(part.starts) >= limit:
            del part.starts[next(iter(part.starts))]
        part.starts[start] = hit
    return hit


def move_budget(model: MapModel, start: Tile, move: int, *, flight: bool = False,
                size: tuple[int, int] = (1, 1)) -> tuple[int, bool]:
    """``(steps allowed, halved)`` for a move of ``move`` starting on ``start`` (M5).

    RB *Impeding Terrain*: "If they start their turn occupying a Tile of Impeding
    Terrain, their Move attribute is halved"; Difficult, Liquid and transition tiles
    hinder alike.  Rounded down.  "This movement penalty is always applied before any
    additional movement penalties": a caller with a further penalty (the battle's
    quarter move after an attack) applies it to this budget and passes the result as
    ``reach(..., budget=...)``.  The one place the halving rule lives.  ``size``:
    ``(width, height)`` of a large creature whose top-left tile is ``start``: it
    occupies every tile of it, so one hindering tile under it halves (S7).
    """
    _check_counts(move, None)
    return _halve(_terrain_part(model, flight), start, move, size)


def _halve(part: _TerrainPart, start: Tile, move: int,
           size: tuple[int, int] = (1, 1)) -> tuple[int, bool]:
    x, y = start
    if size == (1, 1):
        halved = bool(part.hinder[y, x])
    else:
        halved = bool(part.hinder[y : y + size[1], x : x + size[0]].any())
    return (move // 2 if halved else move), halved


def reach(model: MapModel, start: Tile, move: int | None = None, *,
          team: str | None = None, flight: bool | None = None, budget: int | None = None,
          occupants: Iterable[tuple[int, int, str | None]] | None = None,
          hindered_start: bool = True) -> Reach:
    """Tiles a character starting on ``start`` can end its move on.

    ``move``, ``team`` and ``flight`` default from the character standing on
    ``start`` (``ValueError`` if ``move`` is None and nobody stands there).
    Rules (docs/rules.md, *Movement*): every step costs 1; entering a hindering tile
    or crossing an impeded pair ends movement; Obstructing tiles cannot be ended on;
    friendly characters can be passed, enemies cannot, and no move ends on an
    occupied tile (without a known team every character blocks); starting on
    hindering terrain halves Move (rounded down, :func:`move_budget`) and frees the
    start group; a flyer crosses Outdoor Obstructing terrain and changes elevation
    without a transition.

    ``budget``: the exact number of steps allowed, for a caller that has applied
    penalties after the halving (then ``move`` is only reported; it defaults to the
    budget).  ``occupants``: ``(x, y, team)`` of every character, used instead of the
    model's own characters (a battle keeps its characters off the map); an entry on
    ``start`` is the mover and ignored.  ``hindered_start=False``: the mover's turn did
    not begin on hindering terrain although it stands on some now (a battle's wall
    destroyed beside it turned its tile to rubble), so it has no start group (M6).
    """
    sx, sy = start
    if not model.in_bounds(sx, sy):
        raise IndexError(f"tile ({sx}, {sy}) is outside the {model.width}x{model.height} map")
    if occupants is None:
        mover = model.character_at(sx, sy)
        others: Iterable[tuple[int, int, str | None]] = [
            (c.x, c.y, c.team) for c in model.characters.values()]
    else:
        mover, others = None, occupants
    if move is None:
        if budget is not None:
            move = budget
        elif mover is None:
            raise ValueError(f"no character stands on {sx},{sy}: give a Move value")
        else:
            move = mover.move
    _check_counts(move, budget)
    if team is None and mover is not None:
        team = mover.team
    if flight is None:
        flight = mover.flight if mover is not None else False
    # Without a known team every character blocks.
    placed = [(x, y, team is not None and who == team) for x, y, who in others
              if (x, y) != (sx, sy)]
    return placed_reach(model, start, move, team=team, flight=flight, budget=budget,
                        others=placed, hindered_start=hindered_start)


def placed_reach(model: MapModel, start: Tile, move: int, *, team: str | None,
                 flight: bool, budget: int | None, others: Sequence[tuple[int, int, bool]],
                 hindered_start: bool = True) -> Reach:
    """:func:`reach` for a caller that has checked ``start`` (on the map) and placed
    the other characters itself (``move`` and ``budget`` are checked as there):
    ``others`` holds ``(x, y, friend)`` of every character but the mover (none on
    ``start``); none may end a move on its tile, and only a friend can be passed.  A
    character more than the budget's steps away (Chebyshev) may be left out: each
    step moves one tile, so it cannot change the range (the battle's cache rests on
    that too).  The same rules and result as :func:`reach`."""
    _check_counts(move, budget)
    sx, sy = start
    part = _terrain_part(model, flight)
    group, gstep, some = (_start(model, part, start, flight) if hindered_start
                          else (part.no_group, part.step, False))
    halving, halved = _halve(part, start, move)
    if budget is None:
        budget = halving
    steps, chosen, states, parents, must_stop = _search(
        part.step, gstep, group, part.hinder, part.endable,
        np.array(others, np.int64) if others else _NOBODY, sx, sy, int(some), budget,
        ORDER, _DX, _DY, _PREFERENCE)
    return Reach(start, move, budget, halved, flight, team, steps, must_stop, group,
                 chosen, states, parents)


def _check_counts(move: int, budget: int | None) -> None:
    if move < 0:
        raise ValueError(f"Move must be at least 0, not {move}")
    if budget is not None and budget < 0:
        raise ValueError(f"the step budget must be at least 0, not {budget}")
