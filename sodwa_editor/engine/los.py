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

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from . import fan_runner
from . import los_kernel as k
from .los_inputs import (
    LosInputs,
    Stack,
    _place_characters,
    _stack,
    los_inputs,
    marked_copy,
    pack_keys,
    pair_key,
)
from .model import Edge, MapModel
from .terrain import Crossing

Tile = tuple[int, int]
#: :class:`Crossing` by value (a tuple read per line instead of an enum call).
CROSSINGS = tuple(Crossing)
__all__ = ["LosBoard", "LosInputs", "LosResult", "Reason", "crossing_among", "los",
           "los_fan", "los_inputs"]

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
    raw = _walk(inp, inp.context, src, dst)
    return _result(model, src, dst, raw, None)


def _walk(inp: LosInputs, context: Callable[[int, bool], tuple[np.ndarray, ...]],
          src: Tile, dst: Tile) -> tuple[int, int, int, int, int]:
    elev = inp.elev
    a = elev.item(src[1], src[0])
    b = elev.item(dst[1], dst[0])
    tc, ec, sc = context(*pair_key(a, b))
    cls, kind, rx, ry, side = k.walk(src[0], src[1], dst[0], dst[1], tc, ec, sc, inp.target)
    return int(cls), int(kind), int(rx), int(ry), int(side)


def _result(model: MapModel, src: Tile, dst: Tile, raw: tuple[int, int, int, int, int],
            who: Callable[[Tile], str | None] | None) -> LosResult:
    crossing = CROSSINGS[raw[0]]
    if crossing is Crossing.IMPEDED and _adjacent(model, src, dst):
        return LosResult(Crossing.CLEAR, None)
    return LosResult(crossing, _explain(model, crossing, *raw[1:], who=who))


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
    return _fan(model, inp, inp.context, src, previous=previous, mask=mask, shortcut=True)


def _fan(model: MapModel, inp: LosInputs,
         context: Callable[[int, bool], tuple[np.ndarray, ...]], src: Tile,
         stack: Stack | None = None, *, previous: np.ndarray | None = None,
         mask: np.ndarray | None = None, shortcut: bool = False) -> np.ndarray:
    """The fan from ``src`` with the contexts ``context`` (or their ``stack``);
    ``shortcut``: ``context`` is the model's own (``inp.context``), whose
    summed-area tables let a whole fan skip lines that meet nothing."""
    a = int(inp.elev[src[1], src[0]])
    (ctx, tcs, ecs, scs), keys = (stack, None) if stack is not None else _stack(inp, context, a)
    if previous is None or mask is None:
        out = np.zeros(model.shape, np.uint8)
        mask = np.ones(model.shape, np.bool_)
        if shortcut and keys is not None:
            sats = np.stack([inp.feature_sat(lo, level) for lo, level in keys])
        else:
            sats = np.ones((len(tcs), 1, 1), np.int32)  # (1, 1) tables: walk every line
    else:
        out = previous.copy()
        sats = np.ones((len(tcs), 1, 1), np.int32)  # a few targets: walk them all
    x0, y0 = src
    mask = mask.copy()
    mask[max(0, y0 - 1):y0 + 2, max(0, x0 - 1):x0 + 2] = True  # adjacency exception afresh
    fan_runner.run((x0, y0, ctx, tcs, ecs, scs, sats, inp.target), mask, out)
    for ny in range(max(0, y0 - 1), min(model.height, y0 + 2)):
        for nx in range(max(0, x0 - 1), min(model.width, x0 + 2)):
            if out[ny, nx] == Crossing.IMPEDED and _adjacent_pair(model, src, (nx, ny)):
                out[ny, nx] = Crossing.CLEAR
    return out


class LosBoard:
    """Lines of sight on a model's terrain with characters standing on ``occupied``
    instead of the model's own characters: the battle keeps its characters off its
    map, and asks many lines for one arrangement.  The same rules and results as
    :func:`los` and :func:`los_fan` on a copy of the model with characters on those
    tiles (property-tested); the model's own characters are ignored.

    ``names`` gives the reason text a name for the character on a tile.  A board
    belongs to one model revision and one arrangement: make a new one when either
    changes.  Contexts are built on first use, a copy of the shared terrain context
    with the few occupied tiles set.

    >>> from sodwa_editor.engine.model import MapModel
    >>> board = LosBoard(MapModel(5, 1), [(2, 0)], {(2, 0): "knight"}.get)
    >>> board.los((0, 0), (4, 0)).describe()
    "blocked by character 'knight' on (2, 0)"
    >>> board.crossing((0, 0), (2, 0))
    <Crossing.CLEAR: 0>
    """

    __slots__ = ("model", "inputs", "occupied", "names", "_contexts", "_stacks", "revision",
                 "_packed", "_xy")

    def __init__(self, model: MapModel, occupied: Sequence[Tile],
                 names: Callable[[Tile], str | None] | None = None) -> None:
        self.model = model
        self.revision = model.revision
        self.inputs = los_inputs(model)
        self.occupied = tuple([(int(x), int(y)) for x, y in occupied])
        w, h = model.width, model.height
        for tile in self.occupied:
            if not (0 <= tile[0] < w and 0 <= tile[1] < h):
                _check(model, tile)
        self.names = names
        self._contexts: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._stacks: dict[int, Stack] = {}
        self._packed: tuple[int, Stack] | None = None
        self._xy: tuple[np.ndarray, np.ndarray] | None = None

    def context(self, lo: int, level: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        key = (lo, level)
        hit = self._contexts.get(key)
        if hit is None:
            tc, ec, sc = self.inputs.terrain_context(lo, level)
            hit = (_place_characters(self.inputs, tc, lo, level, *self._tiles()), ec, sc)
            self._contexts[key] = hit
        return hit

    def walk(self, src: Tile, dst: Tile) -> tuple[int, int, int, int, int]:
        """The kernel's raw answer ``(class, reason kind, x, y, side)`` before the
        adjacency exception (L5); both tiles must be on the map."""
        return _walk(self.inputs, self.context, src, dst)

    def crossing(self, src: Tile, dst: Tile) -> Crossing:
        """The LoS class from ``src`` to ``dst`` (as :func:`los`, without the reason)."""
        return _crossing(self.model, self.inputs, *self._tiles(), src, dst)

    def los(self, src: Tile, dst: Tile) -> LosResult:
        _check(self.model, src)
        _check(self.model, dst)
        return _result(self.model, src, dst, self.walk(src, dst), self.names)

    def stack(self, level: int) -> Stack:
        """``(ctx, tcs, ecs, scs)`` for a viewer at ``level``, the inputs of the kernel's
        ``walk`` for any target tile ``t``: ``tcs[ctx[t]], ecs[ctx[t]], scs[ctx[t]]`` and
        ``inputs.target`` (for compiled callers that walk many lines)."""
        hit = self._stacks.get(level)
        if hit is None:
            (ctx, tcs, ecs, scs), keys = self.inputs.terrain_stack(level)
            hit = self._stacks[level] = (ctx, self._with_characters(tcs, keys), ecs, scs)
        return hit

    def _with_characters(self, tcs: np.ndarray, keys: list[tuple[int, bool]]) -> np.ndarray:
        """A copy of the stacked tile contexts ``tcs`` (layer ``j`` keyed ``keys[j]``)
        with the characters on :attr:`occupied` (L4)."""
        los, levels = pack_keys(keys)
        return marked_copy(tcs, los, levels, self.inputs.elev, self.inputs.tile_los,
                           *self._tiles())

    def _tiles(self) -> tuple[np.ndarray, np.ndarray]:
        """The occupied tiles' ``x`` and ``y`` arrays (made once)."""
        if self._xy is None:
            self._xy = (np.array([t[0] for t in self.occupied], np.int64),
                        np.array([t[1] for t in self.occupied], np.int64))
        return self._xy

    def packed(self) -> tuple[int, Stack]:
        """``(lo, (ctx, tcs, ecs, scs))``: :meth:`stack` of every viewer level of the map
        in one set of arrays, for compiled callers whose viewers stand on several
        levels: a viewer at ``level`` walks to target ``t`` with ``tcs[c], ecs[c],
        scs[c]``, ``c = ctx[level - lo][t]`` (``ctx`` is ``(levels, H, W)``, ``lo`` the
        lowest level).

        >>> from sodwa_editor.engine.model import MapModel
        >>> m = MapModel(3, 1)
        >>> m.elevation[0, 2] = 1
        >>> lo, (ctx, tcs, ecs, scs) = LosBoard(m, []).packed()
        >>> lo, ctx.shape[0], len(tcs) == len(ecs) == len(scs)
        (0, 2, True)
        """
        if self._packed is None:
            self._packed = self.inputs.packed_with(*self._tiles())
        return self._packed

    def fan(self, src: Tile) -> np.ndarray:
        """As :func:`los_fan` for this arrangement."""
        _check(self.model, src)
        level = int(self.inputs.elev[src[1], src[0]])
        return _fan(self.model, self.inputs, self.context, src, self.stack(level))


def crossing_among(model: MapModel, xs: np.ndarray, ys: np.ndarray, src: Tile, dst: Tile
                   ) -> Crossing:
    """:meth:`LosBoard.crossing` on ``model`` with characters on the tiles ``(xs[i],
    ys[i])`` (int64 arrays) instead of its own, without a board: for a caller that asks
    a few lines of each arrangement (a battle state)."""
    return _crossing(model, los_inputs(model), xs, ys, src, dst)


def _crossing(model: MapModel, inputs: LosInputs, xs: np.ndarray, ys: np.ndarray, src: Tile,
              dst: Tile) -> Crossing:
    """The walked class (:meth:`LosInputs.marked_class`) with the adjacency exception
    (L5: adjacent characters ignore Impeding terrain, :func:`_adjacent`).  A tile off
    the map is an ``IndexError`` (the compiled walk reads no bounds)."""
    w, h = model.width, model.height
    for x, y in (src, dst):
        if not (0 <= x < w and 0 <= y < h):
            _check(model, (x, y))
    crossing = CROSSINGS[inputs.marked_class(xs, ys, src, dst)]
    if crossing is Crossing.IMPEDED and _adjacent(model, src, dst):
        return Crossing.CLEAR
    return crossing


def _adjacent(model: MapModel, a: Tile, b: Tile) -> bool:
    """Rulebook *Elevated Terrain LoS* (Yellow vs Orange): "Because the Yellow and
    Orange characters are adjacent, their LoS to each other is unaffected by the
    Impeding Terrain."  Adjacency is the engine's one adjacency rule."""
    if a == b or max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
        return False
    from .adjacency import adjacent  # local: adjacency may import los helpers

    return adjacent(model, a, b)


def _adjacent_pair(model: MapModel, a: Tile, b: Tile) -> bool:
    """:func:`_adjacent` for a fan's few neighbours of its source: the rule run on
    the pair's own 2x2 window unless the whole-map adjacency of this revision is
    at hand (a fan after an edit must not wait for the whole map's pair classes,
    ~7 ms on 256x256, to learn about eight pairs)."""
    if a == b or max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
        return False
    from .adjacency import pair_crossing  # local: adjacency may import los helpers

    return pair_crossing(model, a, b)[0] is not Crossing.BLOCKED


def _check(model: MapModel, tile: Tile) -> None:
    x, y = tile
    if not model.in_bounds(x, y):
        raise IndexError(f"tile ({x}, {y}) is outside the {model.width}x{model.height} map")


def _explain(
    model: MapModel, crossing: Crossing, kind: int, x: int, y: int, side: int, *,
    who: Callable[[Tile], str | None] | None = None,
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
        c = model.character_at(x, y) if who is None else None
        found: str | None = who(tile) if who is not None else (c.id if c is not None else None)
        text = f"character {found!r}" if found is not None else "a character"
        return Reason("character", f"{verb} by {text} on ({x}, {y})", tile=tile)
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
