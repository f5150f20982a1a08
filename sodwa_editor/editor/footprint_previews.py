"""The LoS and movement previews of creatures larger than one tile (docs/rules.md S6-S9):
what :class:`~.previews.PreviewController` shows when its source, or the target of its
line, is such a creature.  Qt-free answers from the engine, shaped for the preview items.

The movement preview of a large creature shows the tiles its footprint can cover at the
end of a move (:meth:`.footprint_movement.FootprintReach.covered`), each with the fewest
steps of a position covering it, hatched where every position covering it ends the move
(M2, S7); the path to the hovered tile is the path of the footprint centred there, drawn
through the footprint's middle.  The LoS fan is :func:`.footprint_los.footprint_los_fan`
(the best line from any of its squares), and the line to a hovered creature is
:func:`.footprint_los.footprint_los` between their footprints, drawn between the two
squares it joins.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.creatures import centred_anchor, placements, size_label
from ..engine.footprint_los import FootprintLos, footprint_los, footprint_los_fan
from ..engine.footprint_movement import FootprintReach, footprint_reach
from ..engine.model import Character, MapModel
from ..engine.movement import Reach, reach
from ..engine.sizes import Footprint

Tile = tuple[int, int]
__all__ = ["CoveredReach", "any_large", "centred_anchor", "covered_reach", "creature_fan",
           "creature_line", "occupant_rows", "others_squares", "size_label", "tile_range"]


def any_large(model: MapModel) -> bool:
    """Whether some character covers more than one tile (then previews use footprints)."""
    return any(fp.area > 1 for _a, fp in placements(model).values())


def others_squares(model: MapModel, exclude: tuple[str, ...]) -> list[Tile]:
    """Every square of every character but ``exclude`` (what blocks a line, S9)."""
    return [t for anchor, fp in placements(model, exclude=exclude).values()
            for t in fp.squares(anchor)]


def occupant_rows(model: MapModel, mover: str | None) -> list[tuple[int, int, str, str]]:
    """``(x, y, team, size)`` of every square of every other character (the
    ``occupants`` of :func:`.footprint_movement.footprint_reach`)."""
    return [(x, y, c.team, c.size) for cid, c in model.characters.items() if cid != mover
            for x, y in c.squares()]


@dataclass(frozen=True)
class CoveredReach:
    """A large creature's range as the tiles it can cover (for :class:`ReachItem`):
    ``steps`` the fewest steps of an end position covering each tile (-1: none),
    ``must_stop`` where every such position ends the move; ``reach`` the engine's."""

    steps: np.ndarray
    must_stop: np.ndarray
    reach: FootprintReach

    @property
    def positions(self) -> int:
        """End positions other than the start."""
        return int((self.reach.steps > 0).sum())

    def path_through_middle(self, target: Tile) -> list[tuple[float, float]] | None:
        """The path of the footprint centred on ``target``, through its middle (tile
        units, for :meth:`.PathItem.set_path`), or None out of reach."""
        fp = self.reach.footprint
        path = self.reach.path_to(centred_anchor(target, fp))
        if path is None:
            return None
        dx, dy = (fp.width - 1) / 2, (fp.height - 1) / 2
        return [(x + dx, y + dy) for x, y in path]


def covered_reach(model: MapModel, c: Character, move: int) -> CoveredReach:
    """The range of ``c`` (any size) with ``move`` (module docstring)."""
    fp = c.footprint_at()
    r = footprint_reach(model, (c.x, c.y), fp, move, team=c.team, flight=c.flight,
                        occupants=occupant_rows(model, c.id), size=c.size)
    h, w = r.steps.shape
    ok = r.steps >= 0
    big = np.iinfo(np.int32).max
    steps = np.full((h, w), big, np.int64)
    free = np.zeros((h, w), np.bool_)
    ys, xs = np.nonzero(ok)
    values, goes_on = r.steps[ys, xs], ~r.must_stop[ys, xs]
    for j in range(fp.height):
        for i in range(fp.width):
            np.minimum.at(steps, (ys + j, xs + i), values)
            free[ys[goes_on] + j, xs[goes_on] + i] = True
    covered = steps != big
    steps = np.where(covered, steps, -1).astype(np.int32)
    return CoveredReach(steps, covered & ~free, r)


def tile_range(model: MapModel, tile: Tile, move: int) -> Reach | CoveredReach:
    """The movement range the previews show from ``tile`` with ``move``: a large
    creature's :func:`covered_reach`; else :func:`.movement.reach` of the character or
    the bare tile there, every square of every large creature in the way."""
    c = model.character_at(*tile)
    if c is not None and c.footprint_at().area > 1:
        return covered_reach(model, c, move)
    if not any_large(model):
        return reach(model, tile, move)
    return reach(model, tile, move, team=c.team if c else None,
                 flight=c.flight if c else False,
                 occupants=[r[:3] for r in occupant_rows(model, None)])


#: the last fan computed: (model, revision, creature id, anchor, footprint) -> fan
_LAST_FAN: dict[tuple, np.ndarray] = {}


def creature_fan(model: MapModel, c: Character) -> np.ndarray:
    """The LoS fan of ``c`` (any size): the best line from any of its squares (S9).
    The last answer is kept until the map changes: hovering the creature's other
    tiles asks again, and a Huge creature's fan is 16 one-tile fans."""
    fp = c.footprint_at()
    key = (id(model), model.revision, c.id, (c.x, c.y), fp)
    hit = _LAST_FAN.get(key)
    if hit is None:
        hit = footprint_los_fan(model, (c.x, c.y), fp, occupied=others_squares(model, (c.id,)))
        _LAST_FAN.clear()
        _LAST_FAN[key] = hit
    return hit


def creature_line(model: MapModel, src: Character | Tile, dst: Character | Tile
                  ) -> FootprintLos:
    """The line of sight between two creatures or tiles (S9): either end a character
    (its footprint) or a bare tile (one tile)."""
    (a, fa, ida), (b, fb, idb) = _end(src), _end(dst)
    return footprint_los(model, a, fa, b, fb,
                         occupied=others_squares(model, tuple(i for i in (ida, idb) if i)))


def _end(end: Character | Tile) -> tuple[Tile, Footprint, str]:
    if isinstance(end, Character):
        return (end.x, end.y), end.footprint_at(), end.id
    return end, Footprint(1, 1), ""
