"""Semantic validation of a map model: the game-rule checks a designer needs.

:func:`validate_model` runs every function in :data:`MODEL_CHECKS` on a model
(freshly loaded or being edited) and returns their problems.  A check is any
callable ``check(model, locator) -> Iterable[Problem]``; other modules add theirs
with :func:`register_check` (e.g. graph-based reachability checks).

Paths: a :class:`Locator` turns a character id, an edge, a tile ... into the
JSON pointer of its entry in the map file: the loaded file's own positions when
the model came from a file, else the positions :func:`dumps_map` would write.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cached_property
from typing import Any

import numpy as np

from ..engine.footprint import Refusal, cannot_stand
from ..engine.model import (
    INDOOR_DEFAULT,
    MAX_ATTRIBUTE,
    MAX_ELEVATION,
    MAX_MOVE,
    MAX_RANGE,
    Edge,
    MapModel,
)
from ..engine.regions import region_sizes, regions
from ..engine.sizes import Footprint
from ..engine.terrain import BORDER_BASES, Base
from .encode import edge_layers, entry_edges
from .problems import Problem, capped, edge_label, error, pointer, warning

ModelCheck = Callable[[MapModel, "Locator"], Iterable[Problem]]


class Locator:
    """JSON pointers of a model's items in its map document (``doc``) or canonical file."""

    def __init__(self, model: MapModel, doc: dict[str, Any] | None = None) -> None:
        self.model = model
        self.doc = doc

    @staticmethod
    def _index(ids: Iterable[Any]) -> dict[Any, int]:
        out: dict[Any, int] = {}
        for i, k in enumerate(ids):
            out.setdefault(k, i)
        return out

    @cached_property
    def _characters(self) -> dict[str, int]:
        if self.doc is not None:
            return self._index(c["id"] for c in self.doc.get("characters", []))
        return self._index(sorted(self.model.characters))

    @cached_property
    def _objects(self) -> dict[str, int]:
        if self.doc is not None:
            return self._index(o["id"] for o in self.doc.get("objects", []))
        return self._index(sorted(self.model.objects))

    @cached_property
    def _borders(self) -> dict[Edge, int]:
        if self.doc is not None:
            return self._index(Edge(*b["edge"]) for b in self.doc.get("borders", []))
        return self._index(entry_edges(self.model))

    @cached_property
    def _transition_tiles(self) -> dict[tuple[int, int], int]:
        if self.doc is not None:
            return self._index(tuple(t) for t in self.doc.get("transition_tiles", []))
        ys, xs = np.nonzero(self.model.transition)
        return self._index(zip(xs.tolist(), ys.tolist(), strict=True))

    @cached_property
    def _indoor_tiles(self) -> dict[tuple[int, int], int]:
        if self.doc is not None:
            return self._index(tuple(e["tile"]) for e in self.doc.get("indoor_overrides",
                                                                             []))
        ys, xs = np.nonzero(self.model.tile_indoor != INDOOR_DEFAULT)
        return self._index(zip(xs.tolist(), ys.tolist(), strict=True))

    def _zone_index(self, team: str) -> dict[tuple[int, int], int]:
        if self.doc is not None:
            tiles = self.doc.get("start_zones", {}).get(team, [])
            return self._index(tuple(t) for t in tiles)
        tiles = sorted(self.model.start_zones.get(team, ()), key=lambda t: (t[1], t[0]))
        return self._index(tiles)

    @staticmethod
    def _at(key: str, index: int | None, *rest: object) -> str:
        return pointer(key) if index is None else pointer(key, index, *rest)

    def character(self, cid: str, *rest: object) -> str:
        return self._at("characters", self._characters.get(cid), *rest)

    def character_rank(self, cid: str) -> int:
        """Position of a character in the file (for reporting in file order)."""
        return self._characters.get(cid, len(self._characters))

    def object_rank(self, oid: str) -> int:
        return self._objects.get(oid, len(self._objects))

    def obj(self, oid: str, *rest: object) -> str:
        return self._at("objects", self._objects.get(oid), *rest)

    def border(self, edge: Edge, *rest: object) -> str:
        return self._at("borders", self._borders.get(edge), *rest)

    def transition_tile(self, x: int, y: int) -> str:
        return self._at("transition_tiles", self._transition_tiles.get((x, y)))

    def indoor_override(self, x: int, y: int) -> str:
        return self._at("indoor_overrides", self._indoor_tiles.get((x, y)))

    def zone_tile(self, team: str, tile: tuple[int, int]) -> str:
        index = self._zone_index(team).get(tile)
        return pointer("start_zones", team) if index is None else pointer("start_zones", team,
                                                                          index)

    def row(self, layer: str, y: int) -> str:
        return pointer(layer, y)


MODEL_CHECKS: list[ModelCheck] = []


def register_check(check: ModelCheck) -> ModelCheck:
    """Add a check to :data:`MODEL_CHECKS` (usable as a decorator)."""
    if check not in MODEL_CHECKS:
        MODEL_CHECKS.append(check)
    return check


def validate_model(model: MapModel, *, locator: Locator | None = None,
                   checks: Iterable[ModelCheck] | None = None) -> list[Problem]:
    """Every problem the checks find in ``model`` (at most 50 per kind, then a summary)."""
    loc = locator or Locator(model)
    problems: list[Problem] = []
    for check in MODEL_CHECKS if checks is None else checks:
        problems.extend(capped(check(model, loc)))
    return problems


# ---------------------------------------------------------------- helpers
def _cells(mask: np.ndarray) -> Iterator[tuple[int, int]]:
    ys, xs = np.nonzero(mask)
    return zip(xs.tolist(), ys.tolist(), strict=True)


def _base(model: MapModel) -> np.ndarray:
    table = model.registry.base_table()
    return table[np.minimum(model.terrain, len(table) - 1)]


def _obstructing(model: MapModel) -> np.ndarray:
    return _base(model) == Base.OBSTRUCTING


def _edge_pairs(model: MapModel, a: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per side, the values of a tile layer on the west/north and east/south tile."""
    return {"E": (a[:, :-1], a[:, 1:]), "S": (a[:-1, :], a[1:, :])}


def _sorted_characters(model: MapModel, loc: Locator) -> list[Any]:
    return sorted(model.characters.values(), key=lambda c: (loc.character_rank(c.id), c.id))


def _special(model: MapModel, x: int, y: int) -> str:
    """`` (terrain 'name')`` when the tile's terrain is a special type, else ``""``."""
    t = model.registry[int(model.terrain[y, x])]
    return "" if t.builtin else f" (terrain {t.name!r})"


# ------------------------------------------------------------------ checks
@register_check
def check_integrity(model: MapModel, loc: Locator) -> Iterator[Problem]:
    """What the file format itself forbids, for models built in memory: unknown
    terrain ids, borders of non-border terrain, elevations out of range, items
    outside the map, dictionary keys that differ from the item's id."""
    n = len(model.registry)
    for x, y in _cells(model.terrain >= n):
        yield error(f"tile ({x}, {y}) has unknown terrain id {int(model.terrain[y, x])}",
                    loc.row("terrain", y), code="unknown-terrain", tile=(x, y))
    bases = model.registry.base_table()
    for side in ("E", "S"):
        b = edge_layers(model, side)[0]
        bad = (b >= n) | ~np.isin(bases[np.minimum(b, n - 1)], list(BORDER_BASES))
        for x, y in _cells(bad & (b != 0)):
            edge = Edge(x, y, side)
            yield error(f"edge {edge_label(edge)} has a border of terrain id {int(b[y, x])}, "
                        "which cannot be a border", loc.border(edge, "terrain"), code="border-base",
                        edge=edge)
    for x, y in _cells((model.elevation < 0) | (model.elevation > MAX_ELEVATION)):
        yield error(f"elevation {int(model.elevation[y, x])} at tile ({x}, {y}) is outside "
                    f"0..{MAX_ELEVATION}", loc.row("elevation", y), code="elevation-range",
                    tile=(x, y))
    size = f"{model.width}x{model.height} map"
    for key, c in model.characters.items():
        if key != c.id:
            yield error(f"character stored as {key!r} has id {c.id!r}", loc.character(c.id),
                        code="id-mismatch")
        if not model.in_bounds(c.x, c.y):
            yield error(f"character {c.id!r} at ({c.x}, {c.y}) is outside the {size}",
                        loc.character(c.id), code="outside", tile=(c.x, c.y))
        for attr, limit in (("move", MAX_MOVE), ("range", MAX_RANGE)):
            if getattr(c, attr) > limit:  # (negative values: check_occupants)
                yield error(f"character {c.id!r} has {attr.capitalize()} {getattr(c, attr)}; a "
                            f"map holds at most {limit}", loc.character(c.id, attr),
                            code="attribute-range")
        for name, value in c.attributes.items():
            if not -MAX_ATTRIBUTE <= value <= MAX_ATTRIBUTE:
                yield error(f"character {c.id!r} has {name} {value}; a map holds "
                            f"-{MAX_ATTRIBUTE}..{MAX_ATTRIBUTE}",
                            loc.character(c.id, "attributes", name), code="attribute-range")
    for key, o in model.objects.items():
        if key != o.id:
            yield error(f"object stored as {key!r} has id {o.id!r}", loc.obj(o.id),
                        code="id-mismatch")
        if not model.in_bounds(o.x, o.y):
            yield error(f"object {o.id!r} at ({o.x}, {o.y}) is outside the {size}",
                        loc.obj(o.id), code="outside", tile=(o.x, o.y))
    for team, tiles in sorted(model.start_zones.items()):
        for x, y in sorted(tiles, key=lambda t: (t[1], t[0])):
            if not model.in_bounds(x, y):
                yield error(f"start zone of team {team!r}: tile ({x}, {y}) is outside the "
                            f"{size}", loc.zone_tile(team, (x, y)), code="outside", tile=(x, y))


@register_check
def check_transitions(model: MapModel, loc: Locator) -> Iterator[Problem]:
    """Transition borders join different elevations and are not walls; transition
    tiles are not walls (an Obstructing transition tile is no part of a stairway,
    docs/rules.md G2); every transition tile has a transition border."""
    levels = _edge_pairs(model, model.elevation)
    obstructing_id = model.registry.base_table() == Base.OBSTRUCTING
    for side in ("E", "S"):
        border, transition, _ = edge_layers(model, side)
        a, b = levels[side]
        for x, y in _cells(transition & (a == b)):
            edge = Edge(x, y, side)
            (ax, ay), (bx, by) = edge.tiles
            yield error(f"transition border on edge {edge_label(edge)} joins tiles ({ax}, {ay}) "
                        f"and ({bx}, {by}), both at elevation {int(a[y, x])}; a transition border "
                        "must join tiles of different elevations", loc.border(edge, "edge"),
                        code="transition-same-elevation", edge=edge)
        walls = obstructing_id[np.minimum(border, len(obstructing_id) - 1)] & (border != 0)
        for x, y in _cells(transition & walls):
            edge = Edge(x, y, side)
            yield error(f"edge {edge_label(edge)} is a transition border and also an "
                        "Obstructing border: nothing can pass it", loc.border(edge),
                        code="transition-obstructing", edge=edge)
    for x, y in _cells(model.transition & _obstructing(model)):
        yield warning(f"transition tile ({x}, {y}) is Obstructing terrain: nothing can stand "
                      "on it, so it is no part of a stairway", loc.transition_tile(x, y),
                      code="transition-tile-obstructing", tile=(x, y))
    has = np.zeros(model.shape, np.bool_)
    has[:, :-1] |= model.transition_e
    has[:, 1:] |= model.transition_e
    has[:-1, :] |= model.transition_s
    has[1:, :] |= model.transition_s
    for x, y in _cells(model.transition & ~has):
        yield warning(f"transition tile ({x}, {y}) has no transition border on any of its "
                      "edges, so it leads nowhere", loc.transition_tile(x, y),
                      code="transition-tile-without-border", tile=(x, y))


@register_check
def check_occupants(model: MapModel, loc: Locator) -> Iterator[Problem]:
    """Characters and objects stand on tiles they may occupy; one character per
    tile; Move and Range are not negative."""
    walls = _obstructing(model)
    taken: dict[tuple[int, int], str] = {}
    for c in _sorted_characters(model, loc):
        if not model.in_bounds(c.x, c.y):
            continue
        if walls[c.y, c.x]:
            yield error(f"character {c.id!r} stands on Obstructing tile ({c.x}, {c.y})"
                        f"{_special(model, c.x, c.y)}", loc.character(c.id),
                        code="character-on-obstructing", tile=(c.x, c.y))
        other = taken.setdefault((c.x, c.y), c.id)
        if other != c.id:
            yield error(f"characters {other!r} and {c.id!r} both stand on tile ({c.x}, {c.y})",
                        loc.character(c.id), code="shared-tile", tile=(c.x, c.y))
        for attr in ("move", "range"):
            value = getattr(c, attr)
            if value < 0:
                yield error(f"character {c.id!r} has {attr.capitalize()} {value}; it must be "
                            "0 or more", loc.character(c.id, attr), code="negative-attribute")
    for oid in sorted(model.objects, key=lambda k: (loc.object_rank(k), k)):
        o = model.objects[oid]
        if model.in_bounds(o.x, o.y) and walls[o.y, o.x]:
            yield error(f"object {o.id!r} stands on Obstructing tile ({o.x}, {o.y})",
                        loc.obj(o.id), code="object-on-obstructing", tile=(o.x, o.y))


@register_check
def check_footprints(model: MapModel, loc: Locator) -> Iterator[Problem]:
    """A creature larger than one tile stands where its footprint may (docs/rules.md S4,
    :func:`.footprint.cannot_stand`): every square on the map, none on an Obstructing
    tile, all on one level, no Obstructing border through it, none on another creature.
    One line per creature, the first reason, in file order; what the one-tile checks
    report already (an anchor outside the map or on a wall, two anchors on one tile) is
    not said again."""
    placed: dict[str, tuple[tuple[int, int], Footprint]] = {}
    earlier: dict[tuple[int, int], str] = {}  # square -> the first character on it
    for c in _sorted_characters(model, loc):
        try:
            fp = c.footprint_at()
        except ValueError as exc:  # a model built in memory (a file's schema refuses it)
            yield error(f"character {c.id!r}: {exc}", loc.character(c.id, "size"),
                        code="footprint")
            continue
        if not model.in_bounds(c.x, c.y):
            continue
        anchor = placed[c.id] = ((c.x, c.y), fp)
        squares = fp.squares(anchor[0])
        others = [(x, y, earlier[x, y]) for x, y in squares if (x, y) in earlier]
        for t in squares:
            earlier.setdefault(t, c.id)
        if fp.area == 1 and all(placed[o[2]][1].area == 1 for o in others):
            continue  # one-tile characters among themselves: check_occupants
        why = cannot_stand(model, anchor[0], fp, others=others)
        if why is None or _said_already(why, anchor[0], placed, others):
            continue
        yield error(f"character {c.id!r} ({c.size} {fp} at {c.x}, {c.y}) cannot stand "
                    f"there: {why.text}", loc.character(c.id), code="footprint",
                    tile=why.tile, edge=why.edge)


def _said_already(why: Refusal, anchor: tuple[int, int],
                  placed: dict[str, tuple[tuple[int, int], Footprint]],
                  others: list[tuple[int, int, str]]) -> bool:
    """Whether :func:`check_occupants` reports this refusal already: the anchor on an
    Obstructing tile, or two characters' anchors on one tile."""
    if why.tile != anchor:
        return False
    if why.kind == "tile":
        return True
    return why.kind == "character" and any(
        (x, y) == anchor and placed[who][0] == anchor for x, y, who in others)


@register_check
def check_start_zones(model: MapModel, loc: Locator) -> Iterator[Problem]:
    """Start zones avoid Obstructing tiles and do not overlap (a warning: the
    editor draws and paints a tile as one team's); every team with characters
    has a start zone and its characters stand in it."""
    walls = _obstructing(model)
    first_team: dict[tuple[int, int], str] = {}
    for team, tiles in sorted(model.start_zones.items()):
        for x, y in sorted(tiles, key=lambda t: (t[1], t[0])):
            if model.in_bounds(x, y) and walls[y, x]:
                yield error(f"start zone of team {team!r} includes Obstructing tile ({x}, {y})",
                            loc.zone_tile(team, (x, y)), code="zone-on-obstructing",
                            tile=(x, y))
            other = first_team.setdefault((x, y), team)
            if other != team:
                yield warning(f"tile ({x}, {y}) is in the start zones of both {other!r} and "
                              f"{team!r}", loc.zone_tile(team, (x, y)), code="zone-overlap",
                              tile=(x, y))
    by_team: dict[str, list[Any]] = {}
    for c in _sorted_characters(model, loc):
        by_team.setdefault(c.team, []).append(c)
    for team, members in by_team.items():
        zone = model.start_zones.get(team)
        if not zone:
            yield warning(f"team {team!r} has {len(members)} character(s) but no start zone",
                          loc.character(members[0].id), code="team-without-zone")
            continue
        for c in members:
            if (c.x, c.y) not in zone:
                yield warning(f"character {c.id!r} at ({c.x}, {c.y}) is outside the start "
                              f"zone of team {team!r}", loc.character(c.id),
                              code="character-outside-zone", tile=(c.x, c.y))


@register_check
def check_indoor_overrides(model: MapModel, loc: Locator) -> Iterator[Problem]:
    """Indoor/Outdoor overrides only mean something on Obstructing terrain."""
    walls = _obstructing(model)
    for x, y in _cells((model.tile_indoor != INDOOR_DEFAULT) & ~walls):
        t = model.registry[int(model.terrain[y, x])]
        yield warning(f"indoor override on tile ({x}, {y}), which is {t.base.label} "
                      f"terrain{_special(model, x, y)}, not Obstructing; it has no effect",
                      loc.indoor_override(x, y), code="indoor-not-obstructing", tile=(x, y))
    obstructing_id = model.registry.base_table() == Base.OBSTRUCTING
    for side in ("E", "S"):
        border, _, indoor = edge_layers(model, side)
        wall = obstructing_id[np.minimum(border, len(obstructing_id) - 1)] & (border != 0)
        for x, y in _cells((indoor != INDOOR_DEFAULT) & ~wall):
            edge = Edge(x, y, side)
            yield warning(f"indoor override on edge {edge_label(edge)}, which has no "
                          "Obstructing border; it has no effect", loc.border(edge, "indoor"),
                          code="indoor-not-obstructing", edge=edge)


# ------------------------------------------------------ reachability (R1-R3)
def _labels(model: MapModel) -> np.ndarray | None:
    """Region labels, or None when the layers are not sound enough for the rules (the
    integrity check reports why)."""
    if (model.terrain.size == 0 or int(model.terrain.max()) >= len(model.registry)
            or int(model.elevation.min()) < 0 or int(model.elevation.max()) > MAX_ELEVATION):
        return None
    return regions(model)


def _zone_regions(model: MapModel, label: np.ndarray) -> dict[str, list[tuple[int, int, int]]]:
    """Per team, its occupiable start-zone tiles as ``(region, x, y)``, row-major."""
    out: dict[str, list[tuple[int, int, int]]] = {}
    for team, tiles in sorted(model.start_zones.items()):
        cells = [(int(label[y, x]), x, y) for x, y in sorted(tiles, key=lambda t: (t[1], t[0]))
                 if model.in_bounds(x, y) and label[y, x] >= 0]
        if cells:
            out[team] = cells
    return out


@register_check
def check_zone_reachability(model: MapModel, loc: Locator) -> Iterator[Problem]:
    """R2: every two teams' start zones can reach each other on foot."""
    label = _labels(model)
    if label is None:
        return
    zones = _zone_regions(model, label)
    teams = list(zones)
    for i, a in enumerate(teams):
        for b in teams[i + 1:]:
            if not {r for r, _, _ in zones[a]} & {r for r, _, _ in zones[b]}:
                _, x, y = zones[a][0]
                yield warning(f"start zones of teams {a!r} and {b!r} cannot reach each other "
                              "on foot: no chain of adjacent tiles joins them",
                              pointer("start_zones", a), code="zones-unreachable", tile=(x, y))


@register_check
def check_isolated_regions(model: MapModel, loc: Locator) -> Iterator[Problem]:
    """R3: a region no start zone or character can reach on foot (on a map with
    neither, any region but the largest) is reported as isolated."""
    label = _labels(model)
    if label is None or label.max() < 0:
        return
    sizes = region_sizes(label)
    reached = {r for cells in _zone_regions(model, label).values() for r, _, _ in cells}
    reached |= {int(label[c.y, c.x]) for c in model.characters.values()
                if model.in_bounds(c.x, c.y) and label[c.y, c.x] >= 0}
    if reached:
        why = "no start zone or character can reach it on foot"
    else:
        main = int(np.argmax(sizes))
        reached = {main}
        my, mx = np.argwhere(label == main)[0].tolist()
        why = f"it is cut off from the largest region ({sizes[main]} tiles, at ({mx}, {my}))"
    isolated = [r for r in range(len(sizes)) if r not in reached]
    if not isolated:
        return
    flat = label.ravel()
    order = np.unique(flat, return_index=True)
    first = dict(zip(order[0].tolist(), order[1].tolist(), strict=True))
    w = model.width
    for r in isolated:
        y, x = divmod(first[r], w)
        yield warning(f"isolated region of {sizes[r]} tile(s) from ({x}, {y}): {why}",
                      loc.row("terrain", y), code="isolated-region", tile=(x, y))
