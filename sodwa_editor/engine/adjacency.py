"""Tile adjacency: which neighbouring tiles are adjacent and what crossing between them costs.

The engine's single implementation of the adjacency rule (docs/rules.md,
*Decisions / Adjacency*): every 8-neighbour pair gets a movement
:class:`~.terrain.Crossing` (``BLOCKED`` = *not adjacent*, ``IMPEDED`` = adjacent
but crossing ends a move).  The rule is written once, vectorised
(:func:`_pair_classes`); the whole map, an edited window and the scalar
:func:`pair_crossing` all run it on different slices.

Directions are numbered ``E, SE, S, SW, W, NW, N, NE`` (:data:`DIRS`);
``step[d, y, x]`` is the class of the step from tile ``(x, y)`` in direction
``d`` (``BLOCKED`` off the map).

>>> from sodwa_editor.engine.model import MapModel, Edge
>>> m = MapModel(3, 1)
>>> m.set_border(Edge(0, 0, "E"), m.registry.id_of("impeding"))
>>> pair_crossing(m, (0, 0), (1, 0))
(<Crossing.IMPEDED: 1>, 'impeding border 0,0,E')

The same classes as a networkx graph that keeps itself up to date with the map:
:class:`.adjacency_graph.AdjacencyGraph`.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .model import INDOOR_DEFAULT, INDOOR_YES, MapModel, Rect
from .terrain import Crossing

Tile = tuple[int, int]

#: The 8 step directions: E, SE, S, SW, W, NW, N, NE; ``d`` and ``d ^ 4`` are opposite.
DIRS: tuple[Tile, ...] = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
E_, SE_, S_, SW_, W_, NW_, N_, NE_ = range(8)

CLEAR, IMPEDED, BLOCKED = (int(c) for c in Crossing)
LABELS = tuple(c.label for c in Crossing)

# Reason codes of a pair (why its class is what it is).
WHY_NONE, WHY_TILE_A, WHY_TILE_B, WHY_ELEVATION, WHY_BORDER, WHY_TRANSITION, WHY_CORNER = range(7)


@dataclass(frozen=True)
class Inputs:
    """The per-tile and per-edge classes the adjacency rule combines, for one mover kind.

    ``tile``: class of a tile as a place to stand (``BLOCKED`` = cannot be
    occupied, ``IMPEDED`` = hindering: Impeding/Difficult/Liquid or a transition
    tile).  ``elev``: elevation used for the rule (all zero for a flyer).
    ``cross_*``: class of crossing an edge, orthogonally or on a way around a
    corner: its border's class, and at least Difficult (``IMPEDED``) for a
    transition border; ``side_*``: class of the border alone (reasons, and the
    start-tile exemption of :mod:`.movement`); ``link_*``: transition border
    (joins different elevations).  ``*_e`` arrays are ``(h, w-1)``, ``*_s``
    arrays ``(h-1, w)``.
    """

    tile: np.ndarray
    elev: np.ndarray
    cross_e: np.ndarray
    cross_s: np.ndarray
    side_e: np.ndarray
    side_s: np.ndarray
    link_e: np.ndarray
    link_s: np.ndarray


class PairClasses(NamedTuple):
    """Class and reason code of every forward pair: E ``(h, w-1)``, S ``(h-1, w)``,
    SE and SW ``(h-1, w-1)`` indexed by the top-left tile of the 2x2 block (the SW
    pair goes from its top-right tile to its bottom-left tile)."""

    e: np.ndarray
    s: np.ndarray
    se: np.ndarray
    sw: np.ndarray
    why_e: np.ndarray
    why_s: np.ndarray
    why_se: np.ndarray
    why_sw: np.ndarray


def _flown(cls: np.ndarray, indoor_code: np.ndarray, setting: str) -> np.ndarray:
    """Obstructions a flyer crosses (Outdoor) become CLEAR; Indoor ones stay BLOCKED."""
    indoor = np.where(indoor_code == INDOOR_DEFAULT, setting == "indoor",
                      indoor_code == INDOOR_YES)
    return np.where((cls == BLOCKED) & ~indoor, CLEAR, cls).astype(np.uint8)


def inputs(model: MapModel, *, flight: bool = False, rect: Rect | None = None) -> Inputs:
    """Rule inputs for the tiles of ``rect`` (inclusive; None = whole map).

    Grounded: a tile's class is the movement class of its terrain, and a
    transition tile is at least ``IMPEDED`` (RB: "These borders and tiles are
    considered to be Difficult Terrain").  Flight: Outdoor Obstructing tiles and
    borders become ``CLEAR`` (flown over), Indoor ones stay ``BLOCKED``, and
    elevation is ignored (RB: "A character can fly over Outdoor Obstructing
    Terrain but would be unable to fly over Indoor Obstructing Terrain"; EL:
    Flight is a means "to enter and leave areas of elevated terrain").
    """
    x0, y0, x1, y1 = rect if rect is not None else (0, 0, model.width - 1, model.height - 1)
    ts = np.s_[y0 : y1 + 1, x0 : x1 + 1]
    es = np.s_[y0 : y1 + 1, x0:x1]
    ss = np.s_[y0:y1, x0 : x1 + 1]
    move = model.registry.move_table()
    terrain = model.terrain[ts]
    tile = move[terrain]
    be, bs = model.border_e[es], model.border_s[ss]
    side_e, side_s = move[be], move[bs]
    if flight:
        tile = _flown(tile, model.tile_indoor[ts], model.setting)
        side_e = _flown(side_e, model.indoor_e[es], model.setting)
        side_s = _flown(side_s, model.indoor_s[ss], model.setting)
        elev = np.zeros(tile.shape, np.int16)
    else:
        elev = model.elevation[ts]
    tile = np.maximum(tile, model.transition[ts].view(np.uint8))
    link_e, link_s = model.transition_e[es], model.transition_s[ss]
    return Inputs(tile, elev, np.maximum(side_e, link_e.view(np.uint8)),
                  np.maximum(side_s, link_s.view(np.uint8)), side_e, side_s, link_e, link_s)


# ------------------------------------------------------------------- rule
def _orth(ta: np.ndarray, tb: np.ndarray, ea: np.ndarray, eb: np.ndarray,
          cross: np.ndarray, side: np.ndarray, link: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Orthogonal pairs: RB *Obstructing Terrain* "Tiles on opposite sides of an
    Obstructing Terrain Border are not considered adjacent" and "A Tile of Obstructing
    Terrain may not be occupied"; RB *Elevated Terrain* "Characters, objects, and
    effects that exist on different elevations are not considered to be adjacent" and
    "The tiles on opposite sides of a Transition Border are considered to be Adjacent,
    even though they exist at different elevations"; a transition border is Difficult
    ("These borders and tiles are considered to be Difficult Terrain")."""
    elev_cut = (ea != eb) & ~link
    cls = np.where(elev_cut, BLOCKED, cross)
    why = np.where(elev_cut, WHY_ELEVATION,
                   np.where(cross == CLEAR, WHY_NONE,
                            np.where(side >= cross, WHY_BORDER, WHY_TRANSITION)))
    return _endpoints(ta, tb, cls, why)


def _endpoints(ta: np.ndarray, tb: np.ndarray, cls: np.ndarray,
               why: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A tile that cannot be occupied is adjacent to nothing (RB: "A Tile of Obstructing
    Terrain may not be occupied by a character, object, or effect")."""
    cls = np.where((ta == BLOCKED) | (tb == BLOCKED), BLOCKED, cls)
    why = np.where(ta == BLOCKED, WHY_TILE_A, np.where(tb == BLOCKED, WHY_TILE_B, why))
    return cls.astype(np.uint8), why.astype(np.uint8)


def _route(edge1: np.ndarray, t: np.ndarray, el: np.ndarray, e: np.ndarray,
           edge2: np.ndarray) -> np.ndarray:
    """One way around a corner, via tile R: ``max(edge P|R, tileclass(R), edge R|Q)``.
    An edge counts as it does when crossed, so a transition border is Difficult there
    too (RB: "These borders and tiles are considered to be Difficult Terrain").
    tileclass(R) for a mover at elevation ``e``: Obstructing or higher ground is
    ``BLOCKED`` (RB: "For Grounded characters, Elevated Terrain is considered to be
    Obstructing Terrain for movement"), lower ground is ``CLEAR``, else R's class."""
    tc = np.where((t == BLOCKED) | (el > e), BLOCKED, np.where(el < e, CLEAR, t))
    return np.maximum(np.maximum(edge1, tc), edge2)


def _diag(tp: np.ndarray, tq: np.ndarray, ep: np.ndarray, eq: np.ndarray,
          route_r: np.ndarray, route_s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Diagonal pairs through a corner: RB *Terrain* "If they are of different terrain
    types, then the least restrictive type governs the effects on the LoS or movement
    ... If 1:1 and 2:2 were both Obstructing Terrain, then any movement or LoS through
    that intersection would be considered blocked, as if the Obstructing Terrain was a
    solid wall across those tiles": ``min`` of the two ways around.  Different
    elevations are never diagonally adjacent (transitions are edges)."""
    corner = np.minimum(route_r, route_s)
    cls = np.where(ep != eq, BLOCKED, corner)
    why = np.where(ep != eq, WHY_ELEVATION, np.where(corner == CLEAR, WHY_NONE, WHY_CORNER))
    return _endpoints(tp, tq, cls, why)


def _pair_classes(inp: Inputs) -> PairClasses:
    """Rulebook *Terrain* (crossing classes), *Obstructing Terrain*, *Elevated Terrain*:
    the class of every forward neighbour pair of the window described by ``inp``.
    This is the one implementation of the adjacency rule."""
    t, el = inp.tile, inp.elev
    ce, we = _orth(t[:, :-1], t[:, 1:], el[:, :-1], el[:, 1:],
                   inp.cross_e, inp.side_e, inp.link_e)
    cs, ws = _orth(t[:-1, :], t[1:, :], el[:-1, :], el[1:, :],
                   inp.cross_s, inp.side_s, inp.link_s)
    a, b, c, d = t[:-1, :-1], t[:-1, 1:], t[1:, :-1], t[1:, 1:]
    ea, eb, ec, ed = el[:-1, :-1], el[:-1, 1:], el[1:, :-1], el[1:, 1:]
    ab, cd = inp.cross_e[:-1, :], inp.cross_e[1:, :]
    ac, bd = inp.cross_s[:, :-1], inp.cross_s[:, 1:]
    # SE: a -> d, around via b or via c, at a's elevation.
    cse, wse = _diag(a, d, ea, ed, _route(ab, b, eb, ea, bd), _route(ac, c, ec, ea, cd))
    # SW: b -> c, around via a or via d, at b's elevation.
    csw, wsw = _diag(b, c, eb, ec, _route(ab, a, ea, eb, ac), _route(bd, d, ed, eb, cd))
    return PairClasses(ce, cs, cse, csw, we, ws, wse, wsw)


def _spread(e: np.ndarray, s: np.ndarray, se: np.ndarray, sw: np.ndarray,
            shape: tuple[int, int], fill: int, dtype: type) -> np.ndarray:
    """Per-direction ``(8, h, w)`` array from forward-pair arrays: each pair's value is
    written at both of its tiles (for the opposite directions); off-map gets ``fill``."""
    out: np.ndarray = np.full((8, *shape), fill, dtype)
    out[E_][:, :-1] = out[W_][:, 1:] = e
    out[S_][:-1, :] = out[N_][1:, :] = s
    out[SE_][:-1, :-1] = out[NW_][1:, 1:] = se
    out[SW_][:-1, 1:] = out[NE_][1:, :-1] = sw
    return out


def step_array(pc: PairClasses, shape: tuple[int, int]) -> np.ndarray:
    """``step[d, y, x]`` (uint8, 8 x h x w) from the forward pair classes; off-map is BLOCKED."""
    return _spread(pc.e, pc.s, pc.se, pc.sw, shape, BLOCKED, np.uint8)


def pair_classes(model: MapModel, *, flight: bool = False,
                 rect: Rect | None = None) -> PairClasses:
    """Forward pair classes of the pairs with both tiles in ``rect`` (None = whole map)."""
    return _pair_classes(inputs(model, flight=flight, rect=rect))


@dataclass(frozen=True)
class Steps:
    """Whole-map rule data for one mover kind at one model revision."""

    revision: int
    inputs: Inputs
    pairs: PairClasses
    step: np.ndarray


_CACHE: weakref.WeakKeyDictionary[MapModel, dict[bool, Steps]] = weakref.WeakKeyDictionary()


def steps(model: MapModel, *, flight: bool = False) -> Steps:
    """Whole-map inputs, pair classes and ``step[d, y, x]``, cached per ``model.revision``
    (arrays written directly must be followed by ``model.notify_bulk_change()``)."""
    hit = _fresh(model, flight)
    if hit is None:
        inp = inputs(model, flight=flight)
        pc = _pair_classes(inp)
        hit = Steps(model.revision, inp, pc, step_array(pc, model.shape))
        _CACHE.setdefault(model, {})[flight] = hit
    return hit


#: Direction index of each neighbour offset ``(dx, dy)`` (the index into ``step[d]``).
DIR_INDEX: dict[Tile, int] = {d: i for i, d in enumerate(DIRS)}


def adjacent(model: MapModel, a: Tile, b: Tile, *, flight: bool = False) -> bool:
    """Whether tiles ``a`` and ``b`` are adjacent (A1-A9): neighbours whose pair is not
    ``BLOCKED``.  A lookup in the per-revision :func:`steps` cache, for callers that ask
    often (the battle's melee test); :func:`pair_crossing` gives the class and reason."""
    if not (model.in_bounds(*a) and model.in_bounds(*b)):
        raise IndexError(f"tile {a} or {b} is outside the {model.width}x{model.height} map")
    d = DIR_INDEX.get((b[0] - a[0], b[1] - a[1]))
    if d is None:
        return False
    return int(steps(model, flight=flight).step[d, a[1], a[0]]) != BLOCKED


def _fresh(model: MapModel, flight: bool) -> Steps | None:
    hit = _CACHE.get(model, {}).get(flight)
    if hit is not None and hit.revision == model.revision and hit.step.shape[1:] == model.shape:
        return hit
    return None


class _Reasons:
    """Short texts for pair reason codes (names looked up once per map)."""

    def __init__(self, model: MapModel, flight: bool) -> None:
        self.model, self.flight = model, flight
        self.names = [t.name for t in model.registry]

    def __call__(self, a: Tile, b: Tile, cls: int, why: int) -> str:
        # Called for every non-clear pair of a whole-map graph: Python ints and
        # conditional expressions, not numpy scalars and max()/min() calls.
        if why == WHY_NONE:
            return ""
        (ax, ay), (bx, by) = a, b
        if why == WHY_CORNER:
            return f"corner {ax if ax > bx else bx},{ay if ay > by else by} {LABELS[cls]}"
        m = self.model
        if why in (WHY_TILE_A, WHY_TILE_B):
            x, y = a if why == WHY_TILE_A else b
            indoor = "indoor " if self.flight else ""
            return f"{indoor}{self.names[m.terrain.item(y, x)]} tile {x},{y}"
        if why == WHY_ELEVATION:
            kind = "diagonal" if ax != bx and ay != by else "no transition border"
            return f"elevation {m.elevation.item(ay, ax)}/{m.elevation.item(by, bx)}, {kind}"
        x, y = (ax if ax < bx else bx), (ay if ay < by else by)
        side = "E" if ay == by else "S"
        if why == WHY_TRANSITION:
            return f"transition border {x},{y},{side}"
        border = (m.border_e if side == "E" else m.border_s).item(y, x)
        indoor = "indoor " if self.flight and cls == BLOCKED else ""
        return f"{indoor}{self.names[border]} border {x},{y},{side}"


def pair_crossing(model: MapModel, a: Tile, b: Tile, *,
                  flight: bool = False) -> tuple[Crossing, str]:
    """Whether tiles ``a`` and ``b`` are adjacent and what crossing between them costs.

    Returns ``(class, reason)``; ``BLOCKED`` means not adjacent.  Tiles that are
    not neighbours (or equal) are ``BLOCKED`` with reason ``"not neighbours"``.
    The destination tile's own terrain is not part of the pair's class.
    """
    if not (model.in_bounds(*a) and model.in_bounds(*b)):
        raise IndexError(f"tile {a} or {b} is outside the {model.width}x{model.height} map")
    dx, dy = b[0] - a[0], b[1] - a[1]
    if (dx, dy) == (0, 0) or max(abs(dx), abs(dy)) != 1:
        return Crossing.BLOCKED, "not neighbours"
    x0, y0 = min(a[0], b[0]), min(a[1], b[1])
    cached = _fresh(model, flight)  # the same rule, already run on the whole map?
    pc, ox, oy = (cached.pairs, x0, y0) if cached is not None else (pair_classes(
        model, flight=flight, rect=Rect(x0, y0, max(a[0], b[0]), max(a[1], b[1]))), 0, 0)
    name = "e" if dy == 0 else "s" if dx == 0 else "se" if dx == dy else "sw"
    cls, why = getattr(pc, name)[oy, ox], getattr(pc, "why_" + name)[oy, ox]
    first = (x0 + 1, y0) if name == "sw" else (x0, y0)
    p, q = (a, b) if a == first else (b, a)
    return Crossing(int(cls)), _Reasons(model, flight)(p, q, int(cls), int(why))


#: Forward directions with the offset of the pair's first tile in its array cell.
_FORWARD = (("e", (0, 0), (1, 0)), ("s", (0, 0), (0, 1)),
            ("se", (0, 0), (1, 1)), ("sw", (1, 0), (-1, 1)))


def _pairs(pc: PairClasses, only: int | None = None, ox: int = 0, oy: int = 0,
           ) -> list[tuple[Tile, Tile, int, int]]:
    """(a, b, class, why) of the forward pairs (of class ``only``; None = all), with the
    tiles offset by (ox, oy)."""
    out: list[tuple[Tile, Tile, int, int]] = []
    for name, (fx, fy), (dx, dy) in _FORWARD:
        cls, why = getattr(pc, name), getattr(pc, "why_" + name)
        if only is None:
            ys, xs = (a.ravel() for a in np.indices(cls.shape))
        else:
            ys, xs = np.nonzero(cls == only)
        ax, ay = (xs + (ox + fx)).tolist(), (ys + (oy + fy)).tolist()
        out.extend(((x, y), (x + dx, y + dy), c, w) for x, y, c, w in
                   zip(ax, ay, cls[ys, xs].tolist(), why[ys, xs].tolist(), strict=True))
    return out


class BlockedPair(NamedTuple):
    """Two neighbouring tiles that are not adjacent, and why."""

    a: Tile
    b: Tile
    reason: str


def blocked_pairs(model: MapModel, *, flight: bool = False) -> list[BlockedPair]:
    """Every neighbour pair (each once) that is not adjacent, with its reason."""
    pc = pair_classes(model, flight=flight)
    reason = _Reasons(model, flight)
    return [BlockedPair(a, b, reason(a, b, c, w))
            for a, b, c, w in _pairs(pc, BLOCKED)]
