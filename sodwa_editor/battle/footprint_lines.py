"""Where a rule reads a creature larger than one tile (docs/rules.md S9, TP-B12 to
TP-B15): the line of sight between two characters by their footprints, and the
squares of each that a rule about the ground under them reads.

Kept apart from :mod:`.sized` (which needs the battle state's type) so the terrain
properties' rules, which the state imports, may read squares without an import
circle.  Every function takes any state with the battle state's attributes (``pos``,
``fp``, ``occ``, ``names``, ``board``, ``derived``).
"""

from __future__ import annotations

from typing import Any

from ..engine.footprint import Footprint
from ..engine.footprint_los import FootprintLos, footprint_los

Tile = tuple[int, int]
ONE = Footprint(1, 1)


def sight(state: Any, i: int, j: int) -> FootprintLos:
    """The line of sight from character ``i`` to character ``j`` between footprints (S9:
    the least restrictive line between any square of each, every other undefeated
    character's squares blocking), kept with the arrangement."""
    key = (i, j)
    kept = state.derived.lines
    hit = kept.get(key)
    if hit is None:
        mine = set(state.fp[i].squares(state.pos[i])) | set(state.fp[j].squares(state.pos[j]))
        occupied = [t for t in state.occ if t not in mine]
        names = state.names
        occ = state.occ
        hit = kept[key] = footprint_los(state.board.model, state.pos[i], state.fp[i],
                                        state.pos[j], state.fp[j], occupied=occupied,
                                        names=lambda t: names[occ[t]] if t in occ else None)
    assert isinstance(hit, FootprintLos)
    return hit


def facing_squares(state: Any, observer: int, seen: int) -> tuple[Tile, Tile]:
    """The squares of ``observer`` and of ``seen`` that the line between them joins
    (TP-B12: S9's best line, ``src`` and ``dst``); their tiles for one tile each."""
    fp = getattr(state, "fp", None)
    if fp is None or observer == seen or (fp[observer] == ONE and fp[seen] == ONE):
        return state.pos[observer], state.pos[seen]
    line = sight(state, observer, seen)
    return line.src, line.dst


def squares_of(state: Any, i: int) -> list[Tile]:
    """Every square of character ``i`` (its tile for one tile), row-major."""
    fp = getattr(state, "fp", None)
    if fp is None or fp[i] == ONE:
        return [state.pos[i]]
    return fp[i].squares(state.pos[i])
