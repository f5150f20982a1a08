"""Creature sizes and footprints (companion rulebook ``creature-sizes-flanking-cover.txt``,
quoted as *CS*; seed 002 ``terrain-properties-vertical-space.txt``, *Occupying a Space*,
quoted as *TP*): the size table, the footprint a creature covers, where a footprint may
stand and when two creatures are adjacent.  No Qt, no battle state.  Every decision is in
docs/rules.md (*Creature sizes, flanking and cover*, S-rules).

A :class:`Footprint` is ``width`` x ``height`` tiles; a creature's position is its
*anchor*, the footprint's top-left tile, and it covers the tiles ``anchor .. anchor +
(width-1, height-1)``.

>>> from sodwa_editor.engine.model import MapModel
>>> footprint_for("huge")
Footprint(width=4, height=4)
>>> footprint_for("huge", grid_scale_m=2), footprint_for("large", grid_scale_m=2)
(Footprint(width=2, height=2), Footprint(width=1, height=1))
>>> m = MapModel(6, 6)
>>> m.set_terrain(3, 3, m.registry.id_of("obstructing"))
>>> cannot_stand(m, (2, 2), Footprint(2, 2)).text
'the Obstructing tile (3, 3) is under the footprint'
>>> cannot_stand(m, (0, 0), Footprint(2, 2)) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from . import adjacency as adj
from .model import Edge, MapModel
from .sizes import (  # noqa: F401  (the size table lives in .sizes; re-exported here)
    GRID_SCALE_M,
    MEDIUM,
    SIZE_BY_NAME,
    SIZES,
    Footprint,
    Size,
    footprint_for,
    size_rank,
)
from .terrain import Base
from .transform import Symmetry

Tile = tuple[int, int]


# ------------------------------------------------------------------ standing
@dataclass(frozen=True)
class Refusal:
    """Why a footprint cannot stand where asked: ``kind`` (``off-map``, ``tile``,
    ``level``, ``border``, ``character``), one line of text and the tile or edge to
    ring."""

    kind: str
    text: str
    tile: Tile | None = None
    edge: Edge | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "text": self.text}
        if self.tile is not None:
            out["tile"] = list(self.tile)
        if self.edge is not None:
            out["edge"] = [self.edge.x, self.edge.y, self.edge.side]
        return out


def cannot_stand(model: MapModel, anchor: Tile, footprint: Footprint, *,
                 others: Iterable[tuple[int, int, str]] = ()) -> Refusal | None:
    """``None`` when a creature of ``footprint`` may stand with its top-left tile on
    ``anchor``, else the first reason it may not (docs/rules.md S4), checked in this
    order: a square off the map; a square on an Obstructing tile (RB: "A Tile of
    Obstructing Terrain may not be occupied by a character"); squares on two levels
    (RB: "Any character occupying Elevated Terrain is considered to be Elevated": a
    creature is on one level); an Obstructing border between two of its squares (RB:
    "Tiles on opposite sides of an Obstructing Terrain Border are not considered
    adjacent": a creature is not cut by a wall); a square on another character (``others``
    are ``(x, y, name)`` of every other creature's squares; RB: "a character can't occupy
    a tile already occupied by another character").  Hindering tiles and borders,
    transition tiles and transition borders between tiles of one level may be under it.
    The same for walkers and flyers (a flyer ends its move standing, M9)."""
    x0, y0 = anchor
    x1, y1 = x0 + footprint.width, y0 + footprint.height
    if x0 < 0 or y0 < 0 or x1 > model.width or y1 > model.height:
        return Refusal("off-map", f"a {footprint} footprint at {x0},{y0} does not fit on the "
                       f"{model.width}x{model.height} map", anchor)
    bases = model.registry.base_table()
    walls = bases[model.terrain[y0:y1, x0:x1]] == Base.OBSTRUCTING
    if walls.any():
        j, i = (int(v) for v in np.argwhere(walls)[0])
        t = (x0 + i, y0 + j)
        return Refusal("tile", f"the {_name(model, model.terrain[t[1], t[0]])} tile {t} is "
                       "under the footprint", t)
    elev = model.elevation[y0:y1, x0:x1]
    other = elev != elev[0, 0]
    if other.any():
        j, i = (int(v) for v in np.argwhere(other)[0])
        t = (x0 + i, y0 + j)
        return Refusal("level", f"the footprint is on two levels: {int(elev[0, 0])} at "
                       f"{anchor} and {int(elev[j, i])} at {t}", t)
    for side, arr in (("E", model.border_e[y0:y1, x0:x1 - 1]),
                      ("S", model.border_s[y0:y1 - 1, x0:x1])):
        cut = bases[arr] == Base.OBSTRUCTING
        if cut.any():
            j, i = (int(v) for v in np.argwhere(cut)[0])
            edge = Edge(x0 + i, y0 + j, side)  # type: ignore[arg-type]
            return Refusal("border", f"the {_name(model, arr[j, i])} border {edge} runs "
                           "through the footprint", edge=edge)
    for x, y, who in others:
        if x0 <= x < x1 and y0 <= y < y1:
            return Refusal("character", f"character {who!r} is on ({x}, {y})", (x, y))
    return None


def _name(model: MapModel, terrain_id: object) -> str:
    return model.registry[int(terrain_id)].name.capitalize()  # type: ignore[call-overload]


# ------------------------------------------------------------------ adjacency
def touching_squares(model: MapModel, a: Tile, fa: Footprint, b: Tile, fb: Footprint, *,
                     flight: bool = False) -> list[tuple[Tile, Tile]]:
    """Every pair ``(square of A, square of B)`` that is adjacent by the engine's tile
    adjacency (A1-A9), row-major by A's square then B's (docs/rules.md S5).  *CS*: "2
    combatants are Adjacent to each other if any squares they occupy touch each other,
    including corners"; SODWA: no adjacency across an Obstructing border or between
    levels without a transition.  ``flight`` as :func:`.adjacency.adjacent` (A9:
    grounded adjacency for every purpose but a flyer's movement)."""
    check_on_map(model, a, fa)
    check_on_map(model, b, fb)
    step = adj.steps(model, flight=flight).step
    out: list[tuple[Tile, Tile]] = []
    bx0, by0, bx1, by1 = b[0], b[1], b[0] + fb.width - 1, b[1] + fb.height - 1
    for x, y in _ring_inside(a, fa):
        for d, (dx, dy) in enumerate(adj.DIRS):
            nx, ny = x + dx, y + dy
            if (bx0 <= nx <= bx1 and by0 <= ny <= by1 and not fa.covers(a, (nx, ny))
                    and step[d, y, x] != adj.BLOCKED):
                out.append(((x, y), (nx, ny)))
    return sorted(out)


def creatures_adjacent(model: MapModel, a: Tile, fa: Footprint, b: Tile, fb: Footprint, *,
                       flight: bool = False) -> bool:
    """Whether two creatures are adjacent: some square of one is adjacent to some square
    of the other (:func:`touching_squares`, docs/rules.md S5).  Overlapping footprints are
    a ``ValueError`` (no two creatures share a tile, S4)."""
    if overlaps(a, fa, b, fb):
        raise ValueError(f"the footprints {fa} at {a} and {fb} at {b} overlap")
    return bool(touching_squares(model, a, fa, b, fb, flight=flight))


def overlaps(a: Tile, fa: Footprint, b: Tile, fb: Footprint) -> bool:
    """Whether two placed footprints share a tile."""
    return (a[0] < b[0] + fb.width and b[0] < a[0] + fa.width
            and a[1] < b[1] + fb.height and b[1] < a[1] + fa.height)


def _ring_inside(anchor: Tile, fp: Footprint) -> Iterator[Tile]:
    """The squares on the edge of the footprint (only they can touch another creature)."""
    x0, y0 = anchor
    for j in range(fp.height):
        for i in range(fp.width):
            if i in (0, fp.width - 1) or j in (0, fp.height - 1):
                yield x0 + i, y0 + j


def check_on_map(model: MapModel, anchor: Tile, fp: Footprint) -> None:
    """An ``IndexError`` (one line) unless the whole footprint is on the map."""
    x, y = anchor
    if x < 0 or y < 0 or x + fp.width > model.width or y + fp.height > model.height:
        raise IndexError(f"a {fp} footprint at {x},{y} is not on the "
                         f"{model.width}x{model.height} map")


# ------------------------------------------------------------------ symmetry
def transform_anchor(sym: Symmetry, anchor: Tile, fp: Footprint, width: int, height: int
                     ) -> tuple[Tile, Footprint]:
    """Where a footprint goes under a map symmetry (:class:`.transform.Symmetry`): the
    covered rectangle is transformed and its new top-left tile is the new anchor; a
    transpose swaps width and height.  So a 4x2 at (0, 0) of a 10x10 map turned a
    quarter clockwise is a 2x4 at (8, 0)."""
    corners = [sym.tile(t, width, height) for t in
               (anchor, (anchor[0] + fp.width - 1, anchor[1] + fp.height - 1))]
    new = Footprint(fp.height, fp.width) if sym.transpose else fp
    return (min(c[0] for c in corners), min(c[1] for c in corners)), new


def squares_of(placed: Sequence[tuple[Tile, Footprint]]) -> list[Tile]:
    """Every tile covered by the ``(anchor, footprint)`` placements, in order (the
    ``occupied`` tiles a :class:`.los.LosBoard` blocks lines at: a large creature on
    crossed tiles blocks a line as a character does, S9)."""
    return [t for anchor, fp in placed for t in fp.squares(anchor)]


def creatures_hit(affected: Iterable[Tile], creatures: Mapping[str, tuple[Tile, Footprint]],
                  damage: Mapping[Tile, int] | None = None) -> dict[str, Tile]:
    """The creatures an area of effect reaches and the square each is hit on (docs/rules.md
    S11): a creature is hit when the area reaches any of its squares, and once.  With a
    Blast's ``damage`` left per tile (:attr:`.areas.Area.damage`) the square is the one
    with the most left (it is hit where the area is strongest), else the first reached
    square row-major; ties go to the first row-major.  In the order of ``creatures``."""
    reached = set(affected)
    out: dict[str, Tile] = {}
    for name, (anchor, fp) in creatures.items():
        hits = [t for t in sorted(fp.squares(anchor), key=lambda t: (t[1], t[0]))
                if t in reached]
        if hits:
            out[name] = (max(hits, key=lambda t: (damage[t], -t[1], -t[0])) if damage
                         else hits[0])
    return out
