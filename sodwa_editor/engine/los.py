"""Line of sight (rulebook *Line of Sight*, *Terrain*, *Elevated Terrain LoS*,
*Adding Clarity*, *Obstructing Terrain Elevation*).

"LoS is determined by drawing a straight imaginary line from the middle of the
active character's tile to the middle of the target's tile."  Every LoS is
clear, impeded or blocked; the most restrictive feature the line crosses wins.
The exact walk lives in :mod:`sodwa_editor.engine.los_kernel` (integer
arithmetic, compiled with numba); this module prepares its inputs from a
:class:`~sodwa_editor.engine.model.MapModel`, explains results and applies the
adjacency exception.  Every decision is listed in docs/rules.md.

>>> from sodwa_editor.engine.model import MapModel, Edge
>>> m = MapModel(5, 1)
>>> m.set_border(Edge(2, 0, "E"), m.registry.id_of("impeding"))
>>> r = los(m, (0, 0), (4, 0))
>>> r.crossing.label, r.reason.text
('impeded', 'impeded by the Impeding border on edge 2,0,E')
>>> los_fan(m, (0, 0)).tolist()
[[0, 0, 0, 1, 1]]
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

import numpy as np

from . import fan_runner
from . import los_kernel as k
from .model import Edge, MapModel
from .terrain import Crossing

Tile = tuple[int, int]

REASON_KINDS = {
    k.R_TILE: "tile",
    k.R_BORDER: "border",
    k.R_CORNER: "corner",
    k.R_CHARACTER: "character",
    k.R_ELEVATION: "elevation",
    k.R_OBJECT: "object",
    k.R_TARGET: "target-tile",
}


@dataclass(frozen=True)
class Reason:
    """What decided a line of sight: the first feature that reached its class."""

    kind: str  # tile | border | corner | character | elevation | object | target-tile | adjacent
    text: str
    tile: Tile | None = None
    edge: Edge | None = None
    corner: Tile | None = None  # grid point (x, y): the top-left corner of tile (x, y)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "text": self.text}
        if self.tile is not None:
            out["tile"] = list(self.tile)
        if self.edge is not None:
            out["edge"] = [self.edge.x, self.edge.y, self.edge.side]
        if self.corner is not None:
            out["corner"] = list(self.corner)
        return out


@dataclass(frozen=True)
class LosResult:
    """Result of one line of sight: its class and the reason (None when clear)."""

    crossing: Crossing
    reason: Reason | None

    def to_json(self) -> dict[str, object]:
        return {
            "class": self.crossing.label,
            "reason": None if self.reason is None else self.reason.to_json(),
        }

    def describe(self) -> str:
        """One phrase for people: ``clear``, or the reason, which starts with the
        class (``blocked by the Obstructing tile (3, 4)``)."""
        return self.reason.text if self.reason is not None else self.crossing.label


@dataclass
class LosInputs:
    """Per-map arrays the kernel reads, rebuilt when the model's revision changes."""

    revision: int
    tile_los: np.ndarray  # uint8 (H, W): LoS class of the tile's terrain
    obj: np.ndarray  # bool (H, W): an object that impedes LoS stands here
    occ: np.ndarray  # bool (H, W): a character stands here
    elev: np.ndarray  # int16 (H, W)
    be: np.ndarray  # uint8 (H, W-1): LoS class of the east border
    bs: np.ndarray  # uint8 (H-1, W): LoS class of the south border
    target: np.ndarray  # coded uint8 (H, W): the tile as the target's own tile
    contexts: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray, np.ndarray]]
    sats: dict[tuple[int, bool], np.ndarray] = field(default_factory=dict)

    def feature_sat(self, lo: int, level: bool) -> np.ndarray:
        """Summed-area table (H+1, W+1) of the tiles that hold a feature in the
        context ``(lo, level)``: a non-clear crossed tile, east or south border.
        A line whose bounding box holds none meets only its target's tile."""
        key = (lo, level)
        if key not in self.sats:
            tc, ec, sc = self.context(lo, level)
            flag = tc != 0
            flag[:, :-1] |= ec != 0
            flag[:-1, :] |= sc != 0
            sat = np.zeros((flag.shape[0] + 1, flag.shape[1] + 1), np.int32)
            sat[1:, 1:] = flag.cumsum(0, dtype=np.int32).cumsum(1, dtype=np.int32)
            self.sats[key] = sat
        return self.sats[key]

    def context(self, lo: int, level: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Coded class arrays (crossed tiles, east borders, south borders) for a pair
        whose lower endpoint stands at ``lo`` and which is level or not."""
        key = (lo, level)
        if key not in self.contexts:
            self.contexts[key] = _pair_context(self, lo, level)
        return self.contexts[key]


def _code(cls: np.ndarray, kind: int) -> np.ndarray:
    return (cls | (kind << 2)).astype(np.uint8)


def _pair_context(
    inp: LosInputs, lo: int, level: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The LoS rules for crossed features (docs/rules.md L4, L6-L11).

    A crossed tile above ``lo`` is Elevated Terrain, Obstructing for the lower
    party (L6); below ``lo`` it is seen over.  At ``lo``: Obstructing blocks
    (L7); for a level pair a character blocks (L4) and Impeding terrain or an
    object impedes (L11); a pair at different elevations ignores them (L8).  A
    border stands at the higher of its two tiles (L9): ignored below ``lo``,
    Obstructing blocks, Impeding impedes when level or above ``lo``.
    """
    e, t = inp.elev, inp.tile_los
    at = e == lo
    tc = np.zeros(e.shape, np.uint8)
    tc[e > lo] = 2 | (k.R_ELEVATION << 2)
    wall = at & (t == 2)
    tc[wall] = 2 | (k.R_TILE << 2)
    if level:
        rest = at & ~wall
        tc[rest & inp.occ] = 2 | (k.R_CHARACTER << 2)
        rest &= ~inp.occ
        tc[rest & (t == 1)] = 1 | (k.R_TILE << 2)
        tc[rest & (t != 1) & inp.obj] = 1 | (k.R_OBJECT << 2)
    ec = _border_context(inp.be, np.maximum(e[:, :-1], e[:, 1:]), lo, level)
    sc = _border_context(inp.bs, np.maximum(e[:-1, :], e[1:, :]), lo, level)
    return tc, ec, sc


def _border_context(cls: np.ndarray, elev: np.ndarray, lo: int, level: bool) -> np.ndarray:
    keep = elev >= lo
    impede_ok = (elev > lo) | level
    out = np.where(keep & (cls == 2), 2, np.where(keep & (cls == 1) & impede_ok, 1, 0))
    return np.ascontiguousarray(out, dtype=np.uint8)


_cache: weakref.WeakKeyDictionary[MapModel, LosInputs] = weakref.WeakKeyDictionary()


def los_inputs(model: MapModel) -> LosInputs:
    """Kernel inputs for ``model``, cached until the model changes."""
    cached = _cache.get(model)
    if cached is not None and cached.revision == model.revision:
        return cached
    table = model.registry.los_table()
    tile_los = np.ascontiguousarray(table[model.terrain])
    obj = model.object_impeding()
    target = np.zeros(model.shape, np.uint8)
    target[(tile_los == 1) | obj] = 1 | (k.R_TARGET << 2)
    target[tile_los == 2] = 2 | (k.R_TARGET << 2)
    inputs = LosInputs(
        model.revision,
        tile_los,
        obj,
        model.occupancy(),
        np.ascontiguousarray(model.elevation),
        np.ascontiguousarray(table[model.border_e]),
        np.ascontiguousarray(table[model.border_s]),
        target,
        {},
    )
    _cache[model] = inputs
    return inputs


def los(model: MapModel, src: Tile, dst: Tile) -> LosResult:
    """Line of sight from a character on ``src`` to a target on ``dst``.

    Implements rulebook *Line of Sight*: obstructing tiles and borders and
    characters block, impeding tiles and borders impede, the most restrictive
    wins; the diagonal-intersection rule of *Terrain*; the five *Elevated
    Terrain LoS* bullets, *Adding Clarity* and *Obstructing Terrain Elevation*
    generalised to several levels; the attacker's own tile never impedes, the
    target's tile does; adjacent characters ignore Impeding terrain.  Each
    endpoint stands at its tile's elevation.
    """
    _check(model, src)
    _check(model, dst)
    inp = los_inputs(model)
    a = int(inp.elev[src[1], src[0]])
    b = int(inp.elev[dst[1], dst[0]])
    tc, ec, sc = inp.context(min(a, b), a == b)
    cls, kind, rx, ry, side = k.walk(src[0], src[1], dst[0], dst[1], tc, ec, sc, inp.target)
    crossing = Crossing(int(cls))
    reason = _explain(model, crossing, int(kind), int(rx), int(ry), int(side))
    if crossing is Crossing.IMPEDED and _adjacent(model, src, dst):
        return LosResult(Crossing.CLEAR, None)
    return LosResult(crossing, reason)


def los_fan(model: MapModel, src: Tile, *, previous: np.ndarray | None = None,
            mask: np.ndarray | None = None) -> np.ndarray:
    """LoS class (uint8 :class:`Crossing` values) from ``src`` to every tile, ``[y, x]``.

    The viewer stands on ``src`` at that tile's elevation; each target stands on
    its own tile at its elevation.  ``src`` itself is clear.  Same rules and
    results as :func:`los` for every tile.  With ``previous`` (the fan from the
    same source before an edit) and ``mask``, only the masked targets are
    computed again (:class:`~sodwa_editor.engine.los_fan.FanTracker` knows which).

    >>> from sodwa_editor.engine.model import MapModel
    >>> m = MapModel(3, 3)
    >>> m.set_terrain(1, 1, m.registry.id_of("obstructing"))
    >>> los_fan(m, (0, 0)).tolist()
    [[0, 0, 0], [0, 2, 2], [0, 2, 2]]
    """
    _check(model, src)
    inp = los_inputs(model)
    a = int(inp.elev[src[1], src[0]])
    levels = np.unique(inp.elev)
    keys = [(min(a, int(b)), a == int(b)) for b in levels]
    stacked = [inp.context(lo, level) for lo, level in keys]
    ctx = np.searchsorted(levels, inp.elev).astype(np.intp)  # target level -> context index
    tcs = np.stack([c[0] for c in stacked])
    ecs = np.stack([c[1] for c in stacked])
    scs = np.stack([c[2] for c in stacked])
    sats = np.stack([inp.feature_sat(lo, level) for lo, level in keys])
    if previous is None or mask is None:
        out = np.zeros(model.shape, np.uint8)
        mask = np.ones(model.shape, np.bool_)
    else:
        out = previous.copy()
    x0, y0 = src
    near = np.s_[max(0, y0 - 1):y0 + 2, max(0, x0 - 1):x0 + 2]
    mask = mask.copy()
    mask[near] = True  # the adjacency exception below is applied afresh
    fan_runner.run((x0, y0, ctx, tcs, ecs, scs, sats, inp.target), mask, out)
    for ny in range(max(0, y0 - 1), min(model.height, y0 + 2)):
        for nx in range(max(0, x0 - 1), min(model.width, x0 + 2)):
            if out[ny, nx] == Crossing.IMPEDED and _adjacent(model, src, (nx, ny)):
                out[ny, nx] = Crossing.CLEAR
    return out


def _adjacent(model: MapModel, a: Tile, b: Tile) -> bool:
    """Rulebook *Elevated Terrain LoS* (Yellow vs Orange): "Because the Yellow and
    Orange characters are adjacent, their LoS to each other is unaffected by the
    Impeding Terrain."  Adjacency is the engine's one adjacency rule."""
    if a == b or max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
        return False
    from .adjacency import pair_crossing  # local: adjacency may import los helpers

    return pair_crossing(model, a, b)[0] is not Crossing.BLOCKED


def _check(model: MapModel, tile: Tile) -> None:
    x, y = tile
    if not model.in_bounds(x, y):
        raise IndexError(f"tile ({x}, {y}) is outside the {model.width}x{model.height} map")


def _explain(
    model: MapModel, crossing: Crossing, kind: int, x: int, y: int, side: int
) -> Reason | None:
    if crossing is Crossing.CLEAR:
        return None
    verb = "blocked" if crossing is Crossing.BLOCKED else "impeded"
    if kind == k.R_BORDER:
        edge = Edge(x, y, "E" if side == k.SIDE_E else "S")
        name = model.registry[model.border_at(edge)].name.capitalize()
        return Reason("border", f"{verb} by the {name} border on edge {edge}", edge=edge)
    if kind == k.R_CORNER:
        what = "a wall" if crossing is Crossing.BLOCKED else "Impeding terrain"
        return Reason(
            "corner",
            f"{verb} at corner ({x}, {y}): both ways around it cross {what}",
            corner=(x, y),
        )
    tile = (x, y)
    terrain = model.registry[int(model.terrain[y, x])].name.capitalize()
    if kind == k.R_TILE:
        return Reason("tile", f"{verb} by the {terrain} tile ({x}, {y})", tile=tile)
    if kind == k.R_TARGET:
        why = f"{terrain} terrain" if model.registry[int(model.terrain[y, x])].los else "an object"
        return Reason("target-tile", f"{verb}: the target's tile ({x}, {y}) holds {why}", tile=tile)
    if kind == k.R_CHARACTER:
        c = model.character_at(x, y)
        who = f"character {c.id!r}" if c is not None else "a character"
        return Reason("character", f"{verb} by {who} on ({x}, {y})", tile=tile)
    if kind == k.R_ELEVATION:
        level = int(model.elevation[y, x])
        return Reason(
            "elevation", f"{verb} by elevated terrain (level {level}) at ({x}, {y})", tile=tile
        )
    if kind == k.R_OBJECT:
        objs = model.objects_at(x, y)
        what = f"object {objs[0].id!r}" if objs else "an object"
        return Reason("object", f"{verb} by {what} on ({x}, {y})", tile=tile)
    raise AssertionError(f"unknown reason kind {kind}")
