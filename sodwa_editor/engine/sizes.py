"""Creature sizes and the footprint they cover, the pure table (companion rulebook
``creature-sizes-flanking-cover.txt``, *CS*; seed 002, *Occupying a Space*, *TP*).  No
model, no Qt: :mod:`.model` gives a character its size with it, and :mod:`.footprint`
(which re-exports everything here) says where a footprint may stand.  Decisions S1-S3 in
docs/rules.md (*Creature sizes, flanking and cover*).

>>> footprint_for("huge")
Footprint(width=4, height=4)
>>> footprint_for("massive", dimensions=Footprint(4, 8))
Footprint(width=4, height=8)
>>> Footprint.parse("2x3").squares((5, 5))
[(5, 5), (6, 5), (5, 6), (6, 6), (5, 7), (6, 7)]
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

Tile = tuple[int, int]


class Size(NamedTuple):
    """A size category of *CS*'s table: its name, its rank (for "two or more size
    categories larger or smaller", *TP*) and its Combat Dimensions in *CS*'s squares
    ("Each square is 1 square meter in size"); 0 for the three sizes "Less than 1x1",
    which take one tile at any scale (S2)."""

    name: str
    rank: int
    side: int


#: *CS*: "Different Sizes take up different amounts of space on the grid, according to
#: the table below" (docs/rules.md S1, S2).
SIZES: tuple[Size, ...] = (
    Size("mini", 0, 0), Size("tiny", 1, 0), Size("small", 2, 0), Size("medium", 3, 1),
    Size("large", 4, 2), Size("huge", 5, 4), Size("massive", 6, 6), Size("gigantic", 7, 10))
SIZE_BY_NAME = {s.name: s for s in SIZES}
#: Metres per tile (*CS*: "Each square is 1 square meter in size"); the rules key
#: ``sizes.grid_scale_m`` when the battle rules get it (docs/rules.md S3).
GRID_SCALE_M = 1.0


class Footprint(NamedTuple):
    """``width`` x ``height`` tiles; a position is the top-left tile (the anchor)."""

    width: int = 1
    height: int = 1

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"

    @property
    def area(self) -> int:
        return self.width * self.height

    def squares(self, anchor: Tile) -> list[Tile]:
        """The tiles covered from ``anchor``, row-major."""
        x0, y0 = anchor
        return [(x0 + i, y0 + j) for j in range(self.height) for i in range(self.width)]

    def nearest(self, anchor: Tile, tile: Tile) -> Tile:
        """The square covered from ``anchor`` nearest ``tile``: ``tile`` clamped into the
        rectangle, nearest on each axis at once, so by every range metric and by exact
        distance between centres (unique).  ``tile`` itself when covered."""
        return (min(max(tile[0], anchor[0]), anchor[0] + self.width - 1),
                min(max(tile[1], anchor[1]), anchor[1] + self.height - 1))

    def covers(self, anchor: Tile, tile: Tile) -> bool:
        return (anchor[0] <= tile[0] < anchor[0] + self.width
                and anchor[1] <= tile[1] < anchor[1] + self.height)

    def anchor_grid(self, width: int, height: int) -> tuple[int, int]:
        """``(columns, rows)`` of anchors that keep the footprint on a ``width`` x
        ``height`` map (0 when it does not fit at all)."""
        return max(0, width - self.width + 1), max(0, height - self.height + 1)

    @classmethod
    def parse(cls, text: str) -> Footprint:
        """``"4x8"`` -> ``Footprint(4, 8)``; a one-line ``ValueError`` otherwise."""
        parts = text.strip().lower().split("x")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ValueError(f"a footprint is WIDTHxHEIGHT in tiles, like 2x2 or 4x8, "
                             f"not {text!r}")
        fp = cls(int(parts[0]), int(parts[1]))
        if fp.width < 1 or fp.height < 1:
            raise ValueError(f"a footprint is at least 1x1, not {text!r}")
        return fp


MEDIUM = Footprint(1, 1)


def size_rank(name: str) -> int:
    """The rank of a size category (Mini 0 ... Gigantic 7)."""
    try:
        return SIZE_BY_NAME[name.lower()].rank
    except KeyError:
        raise ValueError(f"unknown size {name!r}: one of "
                         f"{', '.join(s.name for s in SIZES)}") from None


def footprint_for(size: str, *, dimensions: Footprint | None = None,
                  grid_scale_m: float = GRID_SCALE_M) -> Footprint:
    """The footprint in tiles of a creature of ``size`` (docs/rules.md S1-S3).

    *CS*: "Different Sizes take up different amounts of space on the grid, according to
    the table below"; "These dimensions are guidelines -- a Wailord is longer than it is
    wide, and might be more appropriate as 4x8 instead of 6x6": ``dimensions`` (from the
    roster or the map) replaces the table's Combat Dimensions, in the same unit.  Both
    are in *CS*'s squares of 1 m; on a grid of ``grid_scale_m`` metres per tile each side
    is ``ceil(side / grid_scale_m)`` tiles, at least 1 (*TP*: "the number of Spaces
    varying depending upon the scale of the Abstract Grid").  Mini, Tiny and Small
    ("Less than 1x1") are one tile at any scale: SODWA has one character per tile (S2).
    Exact arithmetic (a scale of 0.1 m makes a 1 m side 10 tiles, never 11).
    Answers are cached (a map's characters ask for the same few footprints again and
    again).
    """
    return _footprint_for(size, None if dimensions is None else tuple(dimensions),
                          grid_scale_m)


@lru_cache(maxsize=1024)
def _footprint_for(size: str, dimensions: tuple[int, ...] | None,
                   grid_scale_m: float) -> Footprint:
    side = SIZE_BY_NAME.get(size.lower())
    if side is None:
        size_rank(size)  # the one-line error
    assert side is not None
    scale = Fraction(str(grid_scale_m))
    if scale <= 0:
        raise ValueError(f"the grid scale is a positive number of metres per tile, "
                         f"not {grid_scale_m}")
    w, h = dimensions if dimensions is not None else (side.side, side.side)
    return Footprint(max(1, math.ceil(w / scale)), max(1, math.ceil(h / scale)))


