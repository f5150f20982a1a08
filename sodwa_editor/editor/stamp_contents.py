"""What a stamp carries besides tiles and edges (issue 29: stamps are prefabs):
the start-zone membership of its tiles and the characters and objects standing
on them, in the stamp's own coordinates (0..w-1, 0..h-1).

Copying a region takes them (:func:`capture`); rotating or flipping a stamp
turns them with its tiles (:meth:`StampContents.turned`); pasting writes them in
the same undo step as the tiles (:func:`paste_command`): the pasted tiles get the
stamp's zone membership (a tile of no zone in the stamp leaves every zone),
characters and objects are placed as new ones (a taken id gets a number), and a
character whose tile already holds one that stays is not placed (said in the
status bar).  Cut takes them off the map with the tiles (:func:`removal_command`),
so Cut then Paste moves them; Delete leaves them where they are.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtGui import QUndoCommand

from ..engine.model import Character, MapModel, MapObject, Rect
from .commands import MapHolder, PutCharacter, PutObject, SetStartZone

if TYPE_CHECKING:
    from collections.abc import Callable


@dataclass(frozen=True)
class StampContents:
    """Zones (team -> tiles), characters and objects, in stamp coordinates."""

    zones: dict[str, frozenset[tuple[int, int]]] = field(default_factory=dict)
    characters: tuple[Character, ...] = ()
    objects: tuple[MapObject, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.zones or self.characters or self.objects)

    def counts(self) -> str:
        """What it holds, in words ("" when nothing)."""
        parts = [f"{len(self.characters)} character(s)"] if self.characters else []
        parts += [f"{len(self.objects)} object(s)"] if self.objects else []
        n = sum(len(z) for z in self.zones.values())
        parts += [f"{n} start-zone tile(s)"] if n else []
        return ", ".join(parts)

    def turned(self, point: Callable[[int, int], tuple[int, int]]) -> StampContents:
        """The contents with every tile moved by ``point`` (a rotation or flip of
        the stamp's tiles)."""
        def moved(item):
            out = copy.deepcopy(item)
            out.x, out.y = point(item.x, item.y)
            return out

        return StampContents({t: frozenset(point(x, y) for x, y in z)
                              for t, z in self.zones.items()},
                             tuple(moved(c) for c in self.characters),
                             tuple(moved(o) for o in self.objects))

    def teams(self) -> set[str]:
        """The teams of its start zones and characters."""
        return set(self.zones) | {c.team for c in self.characters}

    def with_teams(self, teams: dict[str, str]) -> StampContents:
        """The contents with each team ``t`` of its zones and characters renamed
        ``teams.get(t, t)`` (a mirrored placement swaps sides)."""
        zones: dict[str, frozenset[tuple[int, int]]] = {}
        for t, z in self.zones.items():
            zones[teams.get(t, t)] = zones.get(teams.get(t, t), frozenset()) | z
        return StampContents(zones, tuple(dataclasses.replace(
            copy.deepcopy(c), team=teams.get(c.team, c.team)) for c in self.characters),
            self.objects)

    def masked(self, mask: np.ndarray) -> StampContents:
        """Only what stands on the tiles of ``mask`` (bool, the stamp's shape)."""
        def on(x: int, y: int) -> bool:
            return bool(mask[y, x])

        zones = {t: frozenset(p for p in z if on(*p)) for t, z in self.zones.items()}
        return StampContents({t: z for t, z in zones.items() if z},
                             tuple(c for c in self.characters if on(c.x, c.y)),
                             tuple(o for o in self.objects if on(o.x, o.y)))


def capture(model: MapModel, rect: Rect, mask: np.ndarray | None = None) -> StampContents:
    """The zones, characters and objects of the tiles of ``rect`` (and ``mask``)."""
    x0, y0, x1, y1 = rect

    def inside(x: int, y: int) -> bool:
        return x0 <= x <= x1 and y0 <= y <= y1 and (mask is None or bool(mask[y - y0, x - x0]))

    def local(item):
        out = copy.deepcopy(item)
        out.x, out.y = item.x - x0, item.y - y0
        return out

    zones = {t: frozenset((x - x0, y - y0) for x, y in z if inside(x, y))
             for t, z in sorted(model.start_zones.items())}
    return StampContents(
        {t: z for t, z in zones.items() if z},
        tuple(local(c) for _, c in sorted(model.characters.items()) if inside(c.x, c.y)),
        tuple(local(o) for _, o in sorted(model.objects.items()) if inside(o.x, o.y)))


def _free_id(base: str, taken: set[str]) -> str:
    if base not in taken:
        return base
    stem = base[:56]
    return next(f"{stem}-{i}" for i in itertools.count(2) if f"{stem}-{i}" not in taken)


class PlaceContents(QUndoCommand):
    """The start zones after a paste and the characters and objects it adds."""

    def __init__(self, doc: MapHolder, text: str, zones: dict[str, set[tuple[int, int]]],
                 characters: list[Character], objects: list[MapObject]) -> None:
        super().__init__(text)
        self.parts: list[QUndoCommand] = [SetStartZone(doc, zones, text=text)]
        self.parts += [PutCharacter(doc, text, None, c) for c in characters]
        self.parts += [PutObject(doc, text, None, o) for o in objects]

    def redo(self) -> None:
        for part in self.parts:
            part.redo()

    def undo(self) -> None:
        for part in reversed(self.parts):
            part.undo()


def removal_command(doc: MapHolder, rect: Rect, mask: np.ndarray | None, text: str
                    ) -> PlaceContents | None:
    """The command taking the zones, characters and objects of the tiles of
    ``rect`` (and ``mask``) off the map (what Cut does with them), or None."""
    m = doc.model
    x0, y0, x1, y1 = rect

    def inside(x: int, y: int) -> bool:
        return x0 <= x <= x1 and y0 <= y <= y1 and (mask is None or bool(mask[y - y0, x - x0]))

    zones = {t: {p for p in z if not inside(*p)} for t, z in m.start_zones.items()}
    gone_c = [c for _, c in sorted(m.characters.items()) if inside(c.x, c.y)]
    gone_o = [o for _, o in sorted(m.objects.items()) if inside(o.x, o.y)]
    if not gone_c and not gone_o and {t: z for t, z in zones.items() if z} == m.start_zones:
        return None
    cmd = PlaceContents(doc, text, zones, [], [])
    cmd.parts += [PutCharacter(doc, text, c, None) for c in gone_c]
    cmd.parts += [PutObject(doc, text, o, None) for o in gone_o]
    return cmd


def paste_command(doc: MapHolder, contents: StampContents, footprint: list[tuple[int, int]],
                  ox: int, oy: int, text: str) -> tuple[PlaceContents | None, int]:
    """The command writing ``contents`` pasted at (ox, oy) over ``footprint`` (the
    pasted tiles on the map), and how many characters could not be placed (their
    tile holds a character already); None when it changes nothing."""
    m = doc.model
    covered = {t for t in footprint if m.in_bounds(*t)}
    zones = {t: set(z) - covered for t, z in m.start_zones.items()}
    for team, tiles in contents.zones.items():
        zones.setdefault(team, set()).update(
            p for p in ((x + ox, y + oy) for x, y in tiles) if p in covered)
    taken = set(m.characters) | set(m.objects)
    occupied = {(c.x, c.y) for c in m.characters.values()}
    characters, skipped = [], 0
    for c in contents.characters:
        at = (c.x + ox, c.y + oy)
        if at not in covered:
            continue
        if at in occupied:
            skipped += 1
            continue
        new = dataclasses.replace(copy.deepcopy(c), id=_free_id(c.id, taken), x=at[0], y=at[1])
        taken.add(new.id)
        occupied.add(at)
        characters.append(new)
    objects = []
    for o in contents.objects:
        at = (o.x + ox, o.y + oy)
        if at in covered:
            new_o = dataclasses.replace(copy.deepcopy(o), id=_free_id(o.id, taken), x=at[0],
                                        y=at[1])
            taken.add(new_o.id)
            objects.append(new_o)
    same_zones = {t: z for t, z in zones.items() if z} == m.start_zones
    if same_zones and not characters and not objects:
        return None, skipped
    return PlaceContents(doc, text, zones, characters, objects), skipped
