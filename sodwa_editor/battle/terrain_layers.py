"""Per-tile facts of the terrain properties a battle reads (docs/rules.md TP-B rows),
computed once per revision of the battle's map and read as nested lists in the hot
paths (as :class:`~.board.Board` does), and the tiles a line of sight passes.

>>> from sodwa_editor.engine.model import MapModel
>>> from sodwa_editor.engine.terrain import Base
>>> m = MapModel(4, 1)
>>> grass = m.registry.register("grass", Base.CLEAR, {"obscured": {}, "high": {}})
>>> m.terrain[0, 2] = grass
>>> lay = layers_of(m)
>>> lay.has("obscured", 2, 0), lay.height[0], between((0, 0), (3, 0))
(True, [0, 0, 1, 0], [(1, 0), (2, 0)])
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

import numpy as np

from ..engine.grid import Edge, edge_between
from ..engine.model import MapModel
from ..engine.property_layers import DARK, FULL_DARK, dark_levels, property_layer
from ..engine.terrain_properties import PROPERTY_NAMES

Tile = tuple[int, int]


@dataclass(frozen=True)
class Layers:
    """The map's property layers at one revision: ``on[name][y][x]`` for every property
    some tile has, the darkness after light sources (``dark``: 0 lit, 1 Dark, 2 Full
    Dark) and the height rank (0 ground, 1 High, 2 Very High)."""

    revision: int
    on: dict[str, list[list[bool]]]
    dark: list[list[int]]
    height: list[list[int]]
    #: the vocabulary properties of each border that has some (TP-B16)
    border_on: dict[Edge, frozenset[str]] = field(default_factory=dict)

    def border_has(self, crossing: LineCrossing, prop: str) -> bool:
        """Whether the line's ``crossing`` (:func:`crossings`) passes a border with
        ``prop``: its one edge has it, or at a corner each of the two ways round has an
        edge with it (as two walls meeting at a corner block a line, RB)."""
        on = self.border_on
        return all(any(prop in on.get(e, ()) for e in way) for way in crossing)

    def has(self, prop: str, x: int, y: int) -> bool:
        rows = self.on.get(prop)
        return rows is not None and rows[y][x]

    @property
    def any_dark(self) -> bool:
        return "dark" in self.on or "full_dark" in self.on


_CACHE: weakref.WeakKeyDictionary[MapModel, Layers] = weakref.WeakKeyDictionary()


def layers_of(model: MapModel) -> Layers:
    """The property layers of ``model`` (cached per revision)."""
    hit = _CACHE.get(model)
    if hit is not None and hit.revision == model.revision:
        return hit
    on: dict[str, list[list[bool]]] = {}
    for name in PROPERTY_NAMES:
        mask = property_layer(model, name)
        if mask.any():
            on[name] = mask.tolist()
    height = np.zeros(model.shape, np.int64)
    if "high" in on:
        height[property_layer(model, "high")] = 1
    if "very_high" in on:
        height[property_layer(model, "very_high")] = 2
    registry = model.registry
    border_on = {}
    for edge, tid in model.borders():
        props = frozenset(registry[tid].properties)
        if props:
            border_on[edge] = props
    hit = Layers(model.revision, on, dark_levels(model).tolist(), height.tolist(), border_on)
    _CACHE[model] = hit
    return hit


def between(a: Tile, b: Tile) -> list[Tile]:
    """The tiles strictly between ``a`` and ``b`` that the centre-to-centre line passes
    through the inside of, in order (exact integer arithmetic; where the line crosses
    a grid corner exactly it passes between the two side tiles and enters neither)."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    nx, ny = abs(dx), abs(dy)
    x, y, out = ax, ay, []
    i = j = 0  # grid lines crossed so far in x and in y
    while i < nx or j < ny:
        # the next vertical line is crossed at t = (2i + 1) / (2 nx), the horizontal at
        # (2j + 1) / (2 ny): compare (2i + 1) * ny with (2j + 1) * nx
        tx = (2 * i + 1) * ny if i < nx else None
        ty = (2 * j + 1) * nx if j < ny else None
        if ty is None or (tx is not None and tx < ty):
            x, i = x + sx, i + 1
        elif tx is None or ty < tx:
            y, j = y + sy, j + 1
        else:  # through a corner
            x, y, i, j = x + sx, y + sy, i + 1, j + 1
        if (x, y) != (bx, by):
            out.append((x, y))
    return out


#: A grid-line crossing of a line: the ways round it, each the edges it would cross
#: (one way of one edge; through a corner, two ways of two edges each).
LineCrossing = tuple[tuple[Edge, ...], ...]


def crossings(a: Tile, b: Tile) -> list[LineCrossing]:
    """The grid lines the centre-to-centre line from ``a`` to ``b`` crosses, in order
    (the walk of :func:`between`): each the edge between the two tiles it passes, or
    through a corner the two ways round (over the tile beside it on the x side, then
    on the y side).  The last one is where the line enters ``b``'s tile."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    nx, ny = abs(dx), abs(dy)
    x, y = ax, ay
    out: list[LineCrossing] = []
    i = j = 0
    while i < nx or j < ny:
        tx = (2 * i + 1) * ny if i < nx else None
        ty = (2 * j + 1) * nx if j < ny else None
        if ty is None or (tx is not None and tx < ty):
            out.append(((edge_between((x, y), (x + sx, y)),),))
            x, i = x + sx, i + 1
        elif tx is None or ty < tx:
            out.append(((edge_between((x, y), (x, y + sy)),),))
            y, j = y + sy, j + 1
        else:  # through a corner: round (x + sx, y) or round (x, y + sy)
            c = (x + sx, y + sy)
            out.append(((edge_between((x, y), (x + sx, y)), edge_between((x + sx, y), c)),
                        (edge_between((x, y), (x, y + sy)), edge_between((x, y + sy), c))))
            x, y, i, j = x + sx, y + sy, i + 1, j + 1
    return out


#: Darkness values of :attr:`Layers.dark`.
__all__ = ["DARK", "FULL_DARK", "Layers", "LineCrossing", "between", "crossings", "layers_of"]
