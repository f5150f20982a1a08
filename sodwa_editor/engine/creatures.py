"""The creatures of a map as footprints (docs/rules.md S1-S5): where each stands, every
square each covers, and whether a character may stand where it is put.  What the
editor's tools, the map checks and the previews ask of a map's characters; pure, no Qt.

>>> from sodwa_editor.engine.model import Character, MapModel
>>> m = MapModel(8, 8)
>>> m.put_character(Character("ogre", "red", 2, 2, size="large"))
>>> placements(m)
{'ogre': ((2, 2), Footprint(width=2, height=2))}
>>> where_refused(m, Character("imp", "blue", 1, 1, size="large")).text
"character 'ogre' is on (2, 2)"
>>> where_refused(m, Character("imp", "blue", 4, 2, size="large")) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable

from .footprint import Refusal, cannot_stand
from .model import Character, MapModel
from .sizes import GRID_SCALE_M, SIZES, Footprint

Tile = tuple[int, int]
Placed = tuple[Tile, Footprint]
#: the size categories, smallest first (menus, the map schema's enum)
SIZE_NAMES = tuple(s.name for s in SIZES)


def placements(model: MapModel, *, exclude: Iterable[str] = (),
               grid_scale_m: float = GRID_SCALE_M) -> dict[str, Placed]:
    """Character id -> (top-left tile, footprint) of every character but ``exclude``."""
    skip = set(exclude)
    return {cid: ((c.x, c.y), c.footprint_at(grid_scale_m=grid_scale_m))
            for cid, c in model.characters.items() if cid not in skip}


def occupied_squares(model: MapModel, *, exclude: Iterable[str] = (),
                     grid_scale_m: float = GRID_SCALE_M) -> list[tuple[int, int, str]]:
    """``(x, y, id)`` of every square of every character but ``exclude`` (the ``others``
    of :func:`.footprint.cannot_stand`)."""
    return [(x, y, cid) for cid, (anchor, fp) in
            placements(model, exclude=exclude, grid_scale_m=grid_scale_m).items()
            for x, y in fp.squares(anchor)]


def where_refused(model: MapModel, character: Character, *, exclude: Iterable[str] = (),
                  grid_scale_m: float = GRID_SCALE_M) -> Refusal | None:
    """Why ``character`` may not stand where it is (:func:`.footprint.cannot_stand`, S4:
    off the map, an Obstructing tile, two levels, a wall through it, another character),
    or None.  The character itself (its id) and ``exclude`` are not in the way."""
    skip = {character.id, *exclude}
    fp = character.footprint_at(grid_scale_m=grid_scale_m)
    return cannot_stand(model, (character.x, character.y), fp,
                        others=occupied_squares(model, exclude=skip, grid_scale_m=grid_scale_m))


def size_label(character: Character, *, grid_scale_m: float = GRID_SCALE_M) -> str:
    """``Huge 4x4`` or ``Massive 4x8 (free dimensions)``: how menus and messages name a
    creature's size."""
    fp = character.footprint_at(grid_scale_m=grid_scale_m)
    free = " (free dimensions)" if character.footprint is not None else ""
    return f"{character.size.capitalize()} {fp}{free}"


def centred_anchor(tile: Tile, fp: Footprint) -> Tile:
    """The top-left tile of ``fp`` centred on ``tile`` (the pointer): the middle square,
    the upper-left one of the middle two for an even side.

    >>> centred_anchor((5, 5), Footprint(4, 4)), centred_anchor((5, 5), Footprint(2, 3))
    ((4, 4), (5, 4))
    """
    return tile[0] - (fp.width - 1) // 2, tile[1] - (fp.height - 1) // 2
