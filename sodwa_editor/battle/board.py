"""The battlefield's terrain as a battle reads it: a copy of the map with its
characters taken off (decision B34), and what every battle on that map shares.

A :class:`Board` is built once per map (:func:`prepare`) and shared, read-only,
by every battle on it and by every copy of a battle state: the engine's caches
(adjacency steps, LoS inputs, movement start groups) hang on its model, so a
second battle on the same map starts warm.  A battle that destroys terrain
forks the board first (:meth:`Board.fork`, copy on write), so nothing a battle
does reaches another battle or the map it came from.

>>> from sodwa_editor.engine.generate import make_mixed_map
>>> source = make_mixed_map(16, seed=2)
>>> board = prepare(source)
>>> board.model is source, len(board.model.characters), len(source.characters)
(False, 0, 6)
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np

from ..engine import adjacency as adj
from ..engine.model import Edge, MapModel
from ..engine.movement import Reach, move_budget
from ..engine.terrain import Base

Tile = tuple[int, int]
Feature = tuple[int, int, str]


class Board:
    """Terrain facts of one map revision, in plain lists for fast scalar reads.

    ``level[y][x]`` elevation; ``liquid[y][x]`` the tile's base is Liquid;
    ``standable[y][x]`` a character may stand there (not Obstructing);
    ``obstructions``: every Obstructing tile ``(x, y, "")`` and border ``(x, y,
    side)``, row-major, tiles first (``feature_arrays``: their x, y and side code
    0 tile, 1 east, 2 south as int64 arrays for compiled loops).  ``reaches``: the
    movement ranges computed on this terrain (:meth:`.state.BattleState.reach_of`;
    emptied when the terrain changes).  ``kept``: what the AIs work out from the
    terrain alone (walking distances, firing tiles, threat zones per movement range)
    and the BIP's numbers per pair of sheets (:class:`.ai.memo.Memo`), by name,
    shared by every battle on this terrain and emptied with it.
    """

    __slots__ = ("model", "revision", "width", "height", "level", "liquid", "standable",
                 "obstructions", "feature_arrays", "step", "reaches", "reach_bytes", "kept",
                 "_budgets")

    def __init__(self, model: MapModel) -> None:
        """``model`` becomes the board's own (callers pass a copy; see :func:`prepare`)."""
        self.model = model
        self.refresh()

    def refresh(self) -> None:
        """Re-read the model after the board's own model changed (terrain destroyed)."""
        m = self.model
        self.revision = m.revision
        self.width, self.height = m.width, m.height
        bases = m.registry.base_table()
        tile_base = bases[m.terrain]
        self.level = m.elevation.astype(np.int64).tolist()
        self.liquid = (tile_base == Base.LIQUID).tolist()
        self.standable = (tile_base != Base.OBSTRUCTING).tolist()
        features: list[Feature] = []
        ys, xs = np.nonzero(tile_base == Base.OBSTRUCTING)
        features += [(int(x), int(y), "") for x, y in zip(xs, ys, strict=True)]
        for side, arr in (("E", m.border_e), ("S", m.border_s)):
            ys, xs = np.nonzero(bases[arr] == Base.OBSTRUCTING)
            features += [(int(x), int(y), side) for x, y in zip(xs, ys, strict=True)]
        self.obstructions = tuple(features)
        self.feature_arrays = (np.array([f[0] for f in features], np.int64),
                               np.array([f[1] for f in features], np.int64),
                               np.array([" ES".index(f[2]) for f in features], np.int64))
        self.step = adj.steps(m).step  # grounded adjacency: melee (A9: flight is movement only)
        self.reaches: OrderedDict[tuple[object, ...], Reach] = OrderedDict()  # oldest first
        self.reach_bytes = 0  # what the ranges in ``reaches`` hold (``Reach.nbytes``)
        self.kept: dict[str, Any] = {}
        self._budgets: dict[tuple[Any, ...], tuple[int, bool]] = {}

    def move_budget(self, x: int, y: int, move: int, flight: bool,
                    size: tuple[int, int] = (1, 1)) -> tuple[int, bool]:
        """The engine's :func:`~sodwa_editor.engine.movement.move_budget` for a turn begun
        on ``(x, y)``: ``(steps allowed, halved)``, cached for this terrain.  ``size``:
        the footprint of a creature whose top-left tile is ``(x, y)`` (S7)."""
        key = (x, y, move, flight) if size == (1, 1) else (x, y, move, flight, *size)
        hit = self._budgets.get(key)
        if hit is None:
            hit = self._budgets[key] = move_budget(self.model, (x, y), move, flight=flight,
                                                   size=(size[0], size[1]))
        return hit

    def hinders(self, x: int, y: int, flight: bool, size: tuple[int, int] = (1, 1)) -> bool:
        """Whether a turn begun on ``(x, y)`` is hindered (Move halved, a start group)."""
        return self.move_budget(x, y, 0, flight, size)[1]

    def fork(self) -> Board:
        """A board on a copy of this model, for a battle about to change its terrain."""
        return Board(self.model.copy())

    def in_bounds(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def adjacent(self, a: Tile, b: Tile) -> bool:
        """The engine's adjacency (A1-A9, grounded): a melee attack iff true."""
        d = adj.DIR_INDEX.get((b[0] - a[0], b[1] - a[1]))
        return d is not None and int(self.step[d, a[1], a[0]]) != adj.BLOCKED

    def is_obstruction(self, feature: Feature) -> bool:
        x, y, side = feature
        m = self.model
        if side == "":
            return self.in_bounds(x, y) and not self.standable[y][x]
        edge = Edge(x, y, side)  # type: ignore[arg-type]
        if side not in ("E", "S") or not m.edge_in_bounds(edge):
            return False
        return m.registry[m.border_at(edge)].base is Base.OBSTRUCTING

    def destroy(self, feature: Feature) -> tuple[Tile, ...]:
        """Destroy an Obstructing feature on this board's model with the engine's
        operations (A8); returns the tiles that became Difficult rubble."""
        x, y, side = feature
        m = self.model
        if side == "":
            m.destroy_obstruction_tile(x, y)
            rubble: tuple[Tile, ...] = ((x, y),)
        else:
            edge = Edge(x, y, side)  # type: ignore[arg-type]
            rubble = tuple(t for t in edge.tiles if m.base_at(*t) is not Base.OBSTRUCTING)
            m.destroy_obstruction_border(edge)
        self.refresh()
        return rubble


def prepare(model: MapModel) -> Board:
    """The board every battle on ``model`` shares: a copy of it without characters
    (a battle keeps its characters in its own state).  ``model`` is never changed."""
    bare = model.copy()
    bare.characters = {}
    bare.notify_bulk_change("characters")
    return Board(bare)
