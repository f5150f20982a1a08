"""Rotating and mirroring whole maps (the 8 symmetries of the square grid).

Every layer moves with the tiles: tile layers, east/south edge layers (an east
edge becomes a south edge under a transpose or a quarter turn), start zones,
characters and objects.  The result is a new :class:`~.model.MapModel`; the
input is not changed.

A symmetry is written as ``Symmetry(transpose, flip_x, flip_y)``: first swap x
and y (if ``transpose``), then mirror left-right (``flip_x``) and top-bottom
(``flip_y``) in the resulting map.  A quarter turn clockwise on screen (y down)
is ``transpose`` then ``flip_x``: tile ``(x, y)`` goes to ``(H-1-y, x)``.

>>> from sodwa_editor.engine.model import MapModel, Edge
>>> m = MapModel(3, 2)
>>> m.set_border(Edge(0, 0, "E"), 1)
>>> r = rotate90(m)
>>> (r.width, r.height), [(str(e), t) for e, t in r.borders()]
((2, 3), [('1,0,S', 1)])
>>> rotate90(m, 4).same_content(m)
True
"""

from __future__ import annotations

import copy
from typing import NamedTuple

import numpy as np

from .model import MapModel

Tile = tuple[int, int]

_TILE_LAYERS = ("terrain", "elevation", "transition", "tile_indoor")
#: Edge layers as (east, south) pairs; a transpose swaps the two.
_EDGE_LAYERS = (("border_e", "border_s"), ("transition_e", "transition_s"),
                ("indoor_e", "indoor_s"))


class Symmetry(NamedTuple):
    """Transpose (swap x and y) first, then mirror left-right and/or top-bottom."""

    transpose: bool = False
    flip_x: bool = False
    flip_y: bool = False

    def shape(self, width: int, height: int) -> tuple[int, int]:
        """(width, height) of the transformed map."""
        return (height, width) if self.transpose else (width, height)

    def tile(self, tile: Tile, width: int, height: int) -> Tile:
        """Where tile ``(x, y)`` of a ``width`` x ``height`` map goes."""
        x, y = tile
        if self.transpose:
            x, y = y, x
        w, h = self.shape(width, height)
        return (w - 1 - x if self.flip_x else x, h - 1 - y if self.flip_y else y)

    def rect(self, anchor: Tile, size: tuple[int, int], width: int, height: int
             ) -> tuple[Tile, tuple[int, int]]:
        """Where a ``size`` = (w, h) rectangle of tiles whose top-left tile is ``anchor``
        goes: its new top-left tile and size (w and h swapped by a transpose).

        >>> Symmetry(True, True, False).rect((0, 0), (4, 2), 10, 10)  # a quarter turn
        ((8, 0), (2, 4))
        """
        ends = [self.tile(t, width, height) for t in
                (anchor, (anchor[0] + size[0] - 1, anchor[1] + size[1] - 1))]
        new = (size[1], size[0]) if self.transpose else (size[0], size[1])
        return (min(e[0] for e in ends), min(e[1] for e in ends)), new

    def array(self, a: np.ndarray) -> np.ndarray:
        """A tile layer ``a[y, x]`` (or any per-tile array) transformed like the tiles."""
        return _tiles(a, self)


#: The 8 symmetries of the square grid (identity first).
SYMMETRIES: tuple[Symmetry, ...] = tuple(
    Symmetry(t, fx, fy) for t in (False, True) for fx in (False, True) for fy in (False, True))


def _tiles(a: np.ndarray, s: Symmetry) -> np.ndarray:
    if s.transpose:
        a = a.T
    if s.flip_x:
        a = a[:, ::-1]
    if s.flip_y:
        a = a[::-1, :]
    return np.ascontiguousarray(a)


def apply(model: MapModel, s: Symmetry) -> MapModel:
    """A new map: ``model`` transformed by symmetry ``s`` (every layer)."""
    w, h = s.shape(model.width, model.height)
    out = MapModel(w, h, name=model.name, setting=model.setting,
                   registry=model.registry.copy())
    out.description = model.description
    for name in _TILE_LAYERS:
        setattr(out, name, _tiles(getattr(model, name), s))
    flips = s._replace(transpose=False)
    for east, south in _EDGE_LAYERS:
        e, so = getattr(model, east), getattr(model, south)
        if s.transpose:  # the east edge of (x, y) becomes the south edge of (y, x)
            e, so = so.T, e.T
        # Flipping an edge array along its own axis maps edge i (between tiles i and
        # i+1) to edge n-1-i, which is exactly the mirrored edge.
        setattr(out, east, _tiles(e, flips))
        setattr(out, south, _tiles(so, flips))
    out.start_zones = {team: {s.tile(t, model.width, model.height) for t in tiles}
                       for team, tiles in model.start_zones.items()}
    for c in model.characters.values():  # a creature's whole footprint moves (S10)
        moved = copy.deepcopy(c)
        (moved.x, moved.y), _size = s.rect((c.x, c.y), c.footprint_at(), model.width,
                                           model.height)
        if c.footprint is not None and s.transpose:  # free dimensions turn with it
            moved.footprint = type(c.footprint)(c.footprint[1], c.footprint[0])
        out.characters[c.id] = moved
    for o in model.objects.values():
        moved_o = copy.deepcopy(o)
        moved_o.x, moved_o.y = s.tile((o.x, o.y), model.width, model.height)
        out.objects[o.id] = moved_o
    for lb in model.labels.values():  # the reference image is not turned: it stays
        moved_l = copy.deepcopy(lb)
        moved_l.x, moved_l.y = s.tile((lb.x, lb.y), model.width, model.height)
        out.labels[lb.id] = moved_l
    out.reference_image = model.reference_image
    return out


def transpose(model: MapModel) -> MapModel:
    """Swap x and y (mirror in the main diagonal)."""
    return apply(model, Symmetry(transpose=True))


def mirror_x(model: MapModel) -> MapModel:
    """Mirror left-right: tile ``(x, y)`` goes to ``(W-1-x, y)``."""
    return apply(model, Symmetry(flip_x=True))


def mirror_y(model: MapModel) -> MapModel:
    """Mirror top-bottom: tile ``(x, y)`` goes to ``(x, H-1-y)``."""
    return apply(model, Symmetry(flip_y=True))


def rotation(k: int = 1) -> Symmetry:
    """The symmetry of ``k`` quarter turns clockwise on screen (y down)."""
    return (Symmetry(), Symmetry(True, True, False), Symmetry(False, True, True),
            Symmetry(True, False, True))[k % 4]


def rotate90(model: MapModel, k: int = 1) -> MapModel:
    """Rotate by ``k`` quarter turns clockwise on screen (y down; negative k turns
    anticlockwise): for ``k = 1`` tile ``(x, y)`` goes to ``(H-1-y, x)``."""
    return apply(model, rotation(k))
