"""How an area of effect reaches tiles (docs/rules.md AE2-AE8): the two ways a Reach
spreads from a tile: a flood over the adjacency graph (Aura, Emanation, Engulf,
Rising) or straight lines from the source (Blast, Falling), a Blast breaking through
walls with its damage; and the stepping of a straight line (:func:`line_events`).

Each function returns what it reached and, for every tile it would have reached on
an open map and did not, why (:data:`Why`: a :class:`~.los.Reason` or the kernels'
codes, turned into a Reason only when asked for, :func:`resolve`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np

from . import adjacency as adj
from . import area_kernel as ak
from . import los_kernel as lk
from .los import Reason, _explain
from .los_inputs import los_inputs
from .model import Edge, MapModel
from .terrain import Crossing

Tile = tuple[int, int]
DDX = np.array([d[0] for d in adj.DIRS], np.int64)
DDY = np.array([d[1] for d in adj.DIRS], np.int64)
#: A wall a Blast broke: ``("tile", x, y)`` or ``("border", x, y, side)``.
Wall = tuple
#: Why a tile was not reached: a Reason, or codes resolved on demand: ``(kind, x, y,
#: side, durability)`` of a stopped line, ``(PATH, reach)``, ``(LEVEL,)``.
Why = Reason | tuple[int, ...]
PATH, LEVEL = -1, -2
#: Which tiles of a window to keep: ``keep(xs, ys)`` -> bool array (absolute tiles).
Keep = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass
class Reached:
    """Tiles reached (with the damage left, 0 without damage) and those stopped (with
    why); ``impeded``: reached by a line through impeding terrain; ``walls``: the walls
    a Blast broke on the way; ``hits``: the damage a Blast left in walls it met and did
    not break (the most any of its lines brought to each)."""

    left: dict[Tile, int] = field(default_factory=dict)
    stopped: dict[Tile, Why] = field(default_factory=dict)
    impeded: set[Tile] = field(default_factory=set)
    walls: set[Wall] = field(default_factory=set)
    hits: dict[Wall, int] = field(default_factory=dict)

    def merge(self, other: Reached) -> None:
        """Add ``other``: a tile reached by either is reached with the most damage left;
        a tile stopped by both keeps the first reason."""
        for t, v in other.left.items():
            if v > self.left.get(t, -1):
                self.left[t] = v
        for t, r in other.stopped.items():
            if t not in self.left:
                self.stopped.setdefault(t, r)
        self.impeded |= other.impeded
        self.walls |= other.walls
        for w, v in other.hits.items():
            if v > self.hits.get(w, 0):
                self.hits[w] = v
        if other.left:
            for t in other.left.keys() & self.stopped.keys():
                del self.stopped[t]


class Durability:
    """The Durability left of every wall a Blast may meet (AE8): ``durability`` each
    (the rules' ``terrain.obstruction_damage_threshold``) less the damage ``worn`` it
    has taken already (``{wall: damage}``; B39 adds damage up), at least 1 (a wall at
    its Durability is destroyed), as the kernels' arrays: ``tile[y, x]``, ``east[y,
    x]`` and ``south[y, x]`` (the border on that edge of the tile)."""

    __slots__ = ("full", "tile", "east", "south")

    def __init__(self, model: MapModel, durability: int,
                 worn: Mapping[Wall, int] | None = None) -> None:
        h, w = model.height, model.width
        self.full = durability
        self.tile = np.full((h, w), durability, np.int64)
        self.east = np.full((h, max(0, w - 1)), durability, np.int64)
        self.south = np.full((max(0, h - 1), w), durability, np.int64)
        for wall, damage in (worn or {}).items():
            left = max(1, durability - int(damage))
            if wall[0] == "tile":
                self.tile[wall[2], wall[1]] = left
            elif wall[3] == "E":
                self.east[wall[2], wall[1]] = left
            else:
                self.south[wall[2], wall[1]] = left

    @classmethod
    def uniform(cls, model: MapModel, durability: int) -> Durability:
        """``durability`` for every wall of ``model`` (kept for the map's size: read only)."""
        key = (model.height, model.width, durability)
        hit = _UNIFORM.get(key)
        if hit is None:
            if len(_UNIFORM) >= 16:
                _UNIFORM.clear()
            hit = _UNIFORM[key] = cls(model, durability)
        return hit

    def of(self, wall: Wall) -> int:
        """The Durability left of ``wall``."""
        if wall[0] == "tile":
            return int(self.tile[wall[2], wall[1]])
        return int((self.east if wall[3] == "E" else self.south)[wall[2], wall[1]])

    def at(self, kind: int, x: int, y: int, side: int) -> int:
        """The Durability left of the wall a stopped line's code names (a tile or a
        border; a corner's walls: the full Durability)."""
        if kind == lk.R_CORNER or x < 0:
            return self.full
        if side == lk.SIDE_E:
            return int(self.east[y, x])
        if side == lk.SIDE_S:
            return int(self.south[y, x])
        if self.tile.shape[0] > y >= 0 and self.tile.shape[1] > x:
            return int(self.tile[y, x])
        return self.full

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.tile, self.east, self.south


_UNIFORM: dict[tuple[int, int, int], Durability] = {}


def resolve(model: MapModel, tile: Tile, why: Why) -> Reason:
    """The :class:`~.los.Reason` of :data:`Why` for people."""
    if isinstance(why, Reason):
        return why
    if why[0] == PATH:
        return no_path(tile, why[1])
    if why[0] == LEVEL:
        return other_level(tile)
    return explain(model, *why)


def explain(model: MapModel, kind: int, x: int, y: int, side: int,
            durability: int) -> Reason:
    """The reason of a stopped line (the kernels' codes) for people."""
    if kind == lk.R_TARGET:
        terrain = model.registry[int(model.terrain[y, x])].name.capitalize()
        return Reason("tile", f"({x}, {y}) holds {terrain} terrain: nothing stands there",
                      tile=(x, y))
    if kind == ak.R_SPENT or kind == ak.R_DURABILITY:
        where = Edge(x, y, "E" if side == lk.SIDE_E else "S") if side != lk.SIDE_NONE \
            else None
        if kind == ak.R_SPENT:
            text = "its damage was all spent breaking the wall"
        else:
            text = f"not enough damage left to break the wall (durability {durability})"
        if where is not None:
            return Reason("border", f"stopped: {text} on edge {where}", edge=where)
        if model.in_bounds(x, y) and not model.registry[int(model.terrain[y, x])].los:
            return Reason("corner", f"stopped: {text} at corner ({x}, {y})", corner=(x, y))
        return Reason("tile", f"stopped: {text} ({x}, {y})", tile=(x, y))
    reason = _explain(model, Crossing.BLOCKED, kind, x, y, side)
    assert reason is not None
    return reason


def no_path(tile: Tile, reach: int) -> Reason:
    return Reason("path", f"no clear path of {reach} step(s) or fewer to ({tile[0]}, "
                  f"{tile[1]}) (walls, or a level change without a transition)", tile=tile)


def other_level(tile: Tile) -> Reason:
    return Reason("elevation", f"({tile[0]}, {tile[1]}) is on another level: a Disk stays "
                  "on the level of its point of origin", tile=tile)


def _window(model: MapModel, sources: list[tuple[Tile, int, int]]
            ) -> tuple[int, int, int, int]:
    x0 = max(0, min(t[0] - r for t, r, _ in sources))
    y0 = max(0, min(t[1] - r for t, r, _ in sources))
    x1 = min(model.width - 1, max(t[0] + r for t, r, _ in sources))
    y1 = min(model.height - 1, max(t[1] + r for t, r, _ in sources))
    return x0, y0, x1, y1


def _candidates(model: MapModel, sources: list[tuple[Tile, int, int]],
                keep: Keep | None) -> tuple[tuple[int, int], np.ndarray]:
    """The tiles a Reach covers on an open map (within each source's reach, counted in
    steps: AE2) as a mask of their window, less those ``keep`` refuses."""
    x0, y0, x1, y1 = _window(model, sources)
    mask = np.zeros((y1 - y0 + 1, x1 - x0 + 1), bool)
    for (sx, sy), r, _ in sources:
        mask[max(0, sy - r - y0):sy + r + 1 - y0, max(0, sx - r - x0):sx + r + 1 - x0] = True
    if keep is not None:
        ys, xs = np.mgrid[y0:y1 + 1, x0:x1 + 1]
        mask &= keep(xs, ys)
    return (x0, y0), mask


def flood_reach(model: MapModel, sources: list[tuple[Tile, int, int]], *,
                level: int | None = None, keep: Keep | None = None
                ) -> Reached:
    """AE2, AE4: every tile within each source's reach in steps over the adjacency graph
    (a walker's: no Obstructing tile, border or corner, no level change but across a
    transition; hindering terrain and characters do not stop it).  ``level``: only
    tiles of that elevation (a Disk, AE9).  The damage is not spent: each reached tile
    gets the largest damage of a source that reaches it."""
    out = Reached()
    if not sources:
        return out
    (x0, y0), mask = _candidates(model, sources, keep)
    steps = adj.steps(model)
    left = np.empty(mask.shape, np.int64)
    sx = np.array([s[0][0] for s in sources], np.int64)
    sy = np.array([s[0][1] for s in sources], np.int64)
    budget = np.array([s[1] for s in sources], np.int64)
    ak.flood(steps.step, adj.BLOCKED, DDX, DDY, x0, y0, sx, sy, budget, model.elevation,
             -1 if level is None else level, left)
    reached = mask & (left >= 0)
    tiles = _tiles(reached, x0, y0)
    if any(s[2] for s in sources):  # each tile: the damage of the strongest source on it
        for t in tiles:
            out.left[t] = max((d for (s, r, d) in sources
                               if max(abs(s[0] - t[0]), abs(s[1] - t[1])) <= r), default=0)
    else:
        out.left = dict.fromkeys(tiles, 0)
    _flood_stops(model, sources, (x0, y0), mask & ~reached, level, out)
    return out


def _flood_stops(model: MapModel, sources: list[tuple[Tile, int, int]], at: tuple[int, int],
                 missed: np.ndarray, level: int | None, out: Reached) -> None:
    """Why a flood did not reach the tiles of ``missed`` (a mask of the window at
    ``at``): another level (a Disk), else the first feature that blocks the straight
    line from the nearest source (its own wall included), else no path short enough."""
    x0, y0 = at
    if level is not None:
        other = missed & (model.elevation[y0:y0 + missed.shape[0],
                                          x0:x0 + missed.shape[1]] != level)
        out.stopped.update(dict.fromkeys(_tiles(other, x0, y0), (LEVEL,)))
        missed = missed & ~other
    inp = los_inputs(model)
    flags, hits, durable = _NO_FLAGS, _NO_HITS, _NO_HITS  # (a flood's lines do not pay)
    for (sx, sy), reach, _ in sorted(sources, key=lambda s: -s[1]):
        own = np.zeros(missed.shape, bool)
        own[max(0, sy - reach - y0):sy + reach + 1 - y0,
            max(0, sx - reach - x0):sx + reach + 1 - x0] = True
        own &= missed
        if not own.any():
            continue
        missed = missed & ~own
        ctx, tcs, ecs, scs = inp.terrain_stack(int(model.elevation[sy, sx]))[0]
        left = np.empty(own.shape, np.int64)
        imp = np.zeros(own.shape, np.int64)
        rk, rx, ry, rs = (np.zeros(own.shape, np.int64) for _ in range(4))
        ak.lines_from(sx, sy, x0, y0, own, ctx, tcs, ecs, scs, inp.target, -1, *durable,
                      left, imp, rk, rx, ry, rs, *flags, *hits)
        out.stopped.update(dict.fromkeys(_tiles(own & (left >= 0), x0, y0), (PATH, reach)))
        _line_stops(own & (left < 0), (x0, y0), (rk, rx, ry, rs), None, out)


def _tiles(mask: np.ndarray, x0: int, y0: int) -> list[Tile]:
    """The tiles of a window's mask, by row then column."""
    ys, xs = np.nonzero(mask)
    return list(zip((xs + x0).tolist(), (ys + y0).tolist(), strict=True))


def _line_stops(mask: np.ndarray, at: tuple[int, int], codes: tuple[np.ndarray, ...],
                durability: Durability | None, out: Reached) -> None:
    """The kernels' stop codes of the tiles of ``mask`` into ``out.stopped`` (with the
    Durability left of the wall that stopped each line, for its reason)."""
    at_mask = [c[mask].tolist() for c in codes]
    for t, k, x, y, side in zip(_tiles(mask, *at), *at_mask, strict=True):
        d = 0 if durability is None else durability.at(k, x, y, side)
        out.stopped.setdefault(t, (k, x, y, side, d))


def _wall_flags(model: MapModel) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    h, w = model.height, model.width
    return (np.zeros((h, w), bool), np.zeros((h, max(0, w - 1)), bool),
            np.zeros((max(0, h - 1), w), bool))


def _wall_hits(model: MapModel) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    h, w = model.height, model.width
    return (np.zeros((h, w), np.int64), np.zeros((h, max(0, w - 1)), np.int64),
            np.zeros((max(0, h - 1), w), np.int64))


#: Stand-ins for the wall arrays of lines that do not pay (never read or written).
_NO_FLAGS = (np.zeros((1, 1), bool), np.zeros((1, 1), bool), np.zeros((1, 1), bool))
_NO_HITS = (np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64))


def _hits_of(arrays: tuple[np.ndarray, np.ndarray, np.ndarray]) -> dict[Wall, int]:
    t, e, s = arrays
    out: dict[Wall, int] = {}
    for y, x in zip(*np.nonzero(t), strict=True):
        out[("tile", int(x), int(y))] = int(t[y, x])
    for y, x in zip(*np.nonzero(e), strict=True):
        out[("border", int(x), int(y), "E")] = int(e[y, x])
    for y, x in zip(*np.nonzero(s), strict=True):
        out[("border", int(x), int(y), "S")] = int(s[y, x])
    return out


def _walls_of(flags: tuple[np.ndarray, np.ndarray, np.ndarray]) -> set[Wall]:
    t, e, s = flags
    if not (t.any() or e.any() or s.any()):
        return set()
    out: set[Wall] = {("tile", int(x), int(y)) for y, x in zip(*np.nonzero(t), strict=True)}
    out |= {("border", int(x), int(y), "E") for y, x in zip(*np.nonzero(e), strict=True)}
    out |= {("border", int(x), int(y), "S") for y, x in zip(*np.nonzero(s), strict=True)}
    return out


def line_reach(model: MapModel, sources: list[tuple[Tile, int, int]], *, pay: bool,
               durability: int | Durability, level: int | None = None,
               keep: Keep | None = None) -> Reached:
    """AE3, AE5-AE8: every tile within each source's reach in steps that the straight
    line from the source reaches (blocked by walls and higher ground as a line of sight
    is, never by characters); with ``pay`` a Blast breaks through Obstructing walls by
    spending each wall's Durability left (``durability``: one for every wall, or a
    :class:`Durability`) of its damage (the sources' third value), and a tile or border
    that stops it keeps the damage it had left (``hits``)."""
    if not isinstance(durability, Durability):
        durability = Durability.uniform(model, durability)
    out = Reached()
    if not sources:
        return out
    (x0, y0), full = _candidates(model, sources, keep)
    mask = full
    if level is not None:
        mask = full & (model.elevation[y0:y0 + full.shape[0], x0:x0 + full.shape[1]] == level)
    inp = los_inputs(model)
    flags = _wall_flags(model) if pay else _NO_FLAGS  # (written only by a Blast that pays)
    hits = _wall_hits(model) if pay else _NO_HITS
    durable = durability.arrays()
    shape = mask.shape
    for (sx, sy), reach, damage in sources:
        own = np.zeros(shape, bool)
        own[max(0, sy - reach - y0):sy + reach + 1 - y0,
            max(0, sx - reach - x0):sx + reach + 1 - x0] = True
        own &= mask
        ctx, tcs, ecs, scs = inp.terrain_stack(int(model.elevation[sy, sx]))[0]
        left = np.empty(shape, np.int64)
        imp = np.zeros(shape, np.int64)
        rk, rx, ry, rs = (np.zeros(shape, np.int64) for _ in range(4))
        ak.lines_from(sx, sy, x0, y0, own, ctx, tcs, ecs, scs, inp.target,
                      damage if pay else -1, *durable, left, imp, rk, rx, ry, rs, *flags,
                      *hits)
        one = Reached()
        hit = own & (left >= 0)
        one.left = dict(zip(_tiles(hit, x0, y0), left[hit].tolist() if pay else
                            [0] * int(hit.sum()), strict=True))
        one.impeded = set(_tiles(hit & (imp != 0), x0, y0))
        _line_stops(own & (left < 0), (x0, y0), (rk, rx, ry, rs), durability, one)
        if out.left or out.stopped:
            out.merge(one)
        else:
            out.left, out.stopped, out.impeded = one.left, one.stopped, one.impeded
    for t in _tiles(full & ~mask, x0, y0):
        out.stopped.setdefault(t, (LEVEL,))
    if pay:
        out.walls = _walls_of(flags)
        out.hits = {w: d for w, d in _hits_of(hits).items() if w not in out.walls}
    return out


# ------------------------------------------------------------------ the line of a shape
def line_events(a: Tile, toward: Tile) -> Iterator[tuple[str, int, int, int, int]]:
    """The features the centre-to-centre line from tile ``a`` through tile ``toward``
    crosses, in order, without end (the caller stops): ``("E", x, y, 0, 0)`` the east
    border of ``(x, y)``, ``("S", x, y, 0, 0)`` the south one, ``("C", px, py, qx, qy)``
    the exact corner from tile P to the diagonal tile Q, each followed by ``("T", x, y,
    0, 0)``: the tile entered.  The stepping of :func:`.los_kernel.walk_in` (doubled
    integer coordinates, a corner by integer equality)."""
    (ax, ay), (bx, by) = a, toward
    sx = 1 if bx > ax else -1
    sy = 1 if by > ay else -1
    ox = 0 if sx > 0 else -1
    oy = 0 if sy > 0 else -1
    adx, ady = 2 * abs(bx - ax), 2 * abs(by - ay)
    if adx == 0 and ady == 0:
        return
    nx = ny = 1
    cx, cy = ax, ay
    while True:
        if ady == 0:
            step = -1
        elif adx == 0:
            step = 1
        else:
            lhs, rhs = nx * ady, ny * adx
            step = -1 if lhs < rhs else (1 if lhs > rhs else 0)
        if step < 0:
            yield "E", cx + ox, cy, 0, 0
            cx += sx
            nx += 2
        elif step > 0:
            yield "S", cx, cy + oy, 0, 0
            cy += sy
            ny += 2
        else:
            yield "C", cx, cy, cx + sx, cy + sy
            cx += sx
            cy += sy
            nx += 2
            ny += 2
        yield "T", cx, cy, 0, 0
