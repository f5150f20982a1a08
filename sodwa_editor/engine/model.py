"""The SODWA map model: a rectangular grid of square tiles and the edges between them.

Coordinates
-----------
``x`` is the column, 0 at the left; ``y`` is the row, 0 at the top.  Tile
``(x, y)`` covers the unit square ``[x, x+1] x [y, y+1]`` and its centre is
``(x + 0.5, y + 0.5)``.  Dense layers are numpy arrays indexed ``[y, x]``.

Edges
-----
Every edge between two orthogonal neighbours has exactly one key, an
:class:`Edge` ``(x, y, side)`` naming the tile on its west/north side and the side
of that tile: ``"E"`` is the edge between ``(x, y)`` and ``(x+1, y)``, ``"S"`` the
edge between ``(x, y)`` and ``(x, y+1)``.  East edges live in ``(H, W-1)`` arrays,
south edges in ``(H-1, W)`` arrays.  The outer boundary of the map has no edges.

Mutations go through the methods below; each bumps :attr:`MapModel.revision` and
tells listeners which rectangle of tiles changed, so derived data (adjacency
graph, LoS caches, the editor's scene) can update incrementally.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from .annotations import Label, ReferenceImage
from .grid import Edge, Rect, Side, edge_between
from .pieces import Character, MapObject
from .terrain import BORDER_BASES, CLEAR_ID, Base, TerrainRegistry

#: Largest map side the model, the files and the editor accept: the size for which
#: every whole-map operation stays within the budget of docs/map-format.md
#: (*Size budget*; measured by bench/large_maps.py).
MAX_SIDE = 256
MAX_ELEVATION = 99
#: Largest Move and Range a character may have (the schema's bounds, the CLI's
#: ``--move`` and the editor's inputs all use these; tests/test_io_schema.py checks
#: the schema).  The file holds -MAX..MAX so that a negative value, a rule error,
#: still opens in the editor to be fixed.
MAX_MOVE = 999
MAX_RANGE = 999
#: Bound of the other character attributes (Health, Defense, Initiative ...):
#: -MAX_ATTRIBUTE..MAX_ATTRIBUTE.
MAX_ATTRIBUTE = 999_999
Setting = Literal["outdoor", "indoor"]

__all__ = ["Change", "Character", "Edge", "MapModel", "MapObject", "Rect", "Side", "check_size",
           "edge_between"]

#: Indoor override values on obstruction layers.
INDOOR_DEFAULT, INDOOR_NO, INDOOR_YES = -1, 0, 1


@dataclass(frozen=True)
class Change:
    """What a mutation touched: ``layer`` names it, ``rect`` bounds the tiles."""

    layer: str
    rect: Rect | None  # None = whole map (resize, registry, setting)


Listener = Callable[[Change], None]


class MapModel:
    """A SODWA map: tile layers, edge layers, start zones, characters and objects."""

    def __init__(
        self,
        width: int,
        height: int,
        *,
        name: str = "untitled",
        setting: Setting = "outdoor",
        registry: TerrainRegistry | None = None,
    ) -> None:
        check_size(width, height)
        if setting not in ("outdoor", "indoor"):
            raise ValueError(f"setting must be 'outdoor' or 'indoor', not {setting!r}")
        self.width, self.height = width, height
        self.name = name
        self.setting: Setting = setting
        self.description = ""
        self.registry = registry or TerrainRegistry()
        h, w = height, width
        self.terrain = np.zeros((h, w), np.uint8)
        self.elevation = np.zeros((h, w), np.int16)
        self.transition = np.zeros((h, w), np.bool_)
        self.tile_indoor = np.full((h, w), INDOOR_DEFAULT, np.int8)
        self.border_e = np.zeros((h, max(w - 1, 0)), np.uint8)
        self.border_s = np.zeros((max(h - 1, 0), w), np.uint8)
        self.transition_e = np.zeros_like(self.border_e, np.bool_)
        self.transition_s = np.zeros_like(self.border_s, np.bool_)
        self.indoor_e = np.full(self.border_e.shape, INDOOR_DEFAULT, np.int8)
        self.indoor_s = np.full(self.border_s.shape, INDOOR_DEFAULT, np.int8)
        self.start_zones: dict[str, set[tuple[int, int]]] = {}
        self.characters: dict[str, Character] = {}
        self.objects: dict[str, MapObject] = {}
        #: designers' annotations, ignored by the rules (:mod:`.annotations`)
        self.labels: dict[str, Label] = {}
        self.reference_image: ReferenceImage | None = None
        self.zone_custom: dict[str, dict[str, Any]] = {}  # team -> its zone's custom values
        self.revision = 0
        self._listeners: list[Listener] = []

    # ------------------------------------------------------------------ queries
    @property
    def shape(self) -> tuple[int, int]:
        return self.height, self.width

    def in_bounds(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def edge_in_bounds(self, edge: Edge) -> bool:
        x, y, side = edge
        if side == "E":
            return 0 <= x < self.width - 1 and 0 <= y < self.height
        if side == "S":
            return 0 <= x < self.width and 0 <= y < self.height - 1
        return False

    def tiles(self) -> Iterator[tuple[int, int]]:
        for y in range(self.height):
            for x in range(self.width):
                yield x, y

    def base_at(self, x: int, y: int) -> Base:
        return self.registry[int(self.terrain[y, x])].base

    def _edge_arrays(self, side: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if side == "E":
            return self.border_e, self.transition_e, self.indoor_e
        return self.border_s, self.transition_s, self.indoor_s

    def border_at(self, edge: Edge) -> int:
        """Terrain id of the border on ``edge`` (0 = no border)."""
        self._check_edge(edge)
        return int(self._edge_arrays(edge.side)[0][edge.y, edge.x])

    def is_transition_edge(self, edge: Edge) -> bool:
        self._check_edge(edge)
        return bool(self._edge_arrays(edge.side)[1][edge.y, edge.x])

    def tile_is_indoor(self, x: int, y: int) -> bool:
        """Whether the obstruction on tile (x, y) is Indoor (override, else map setting)."""
        return _resolve_indoor(int(self.tile_indoor[y, x]), self.setting)

    def border_is_indoor(self, edge: Edge) -> bool:
        self._check_edge(edge)
        return _resolve_indoor(int(self._edge_arrays(edge.side)[2][edge.y, edge.x]), self.setting)

    def borders(self) -> Iterator[tuple[Edge, int]]:
        """Every edge that carries a border, with its terrain id, in row-major order."""
        for side, arr in (("E", self.border_e), ("S", self.border_s)):
            for y, x in zip(*np.nonzero(arr), strict=True):
                yield Edge(int(x), int(y), side), int(arr[y, x])  # type: ignore[arg-type]

    def transition_edges(self) -> Iterator[Edge]:
        for side, arr in (("E", self.transition_e), ("S", self.transition_s)):
            for y, x in zip(*np.nonzero(arr), strict=True):
                yield Edge(int(x), int(y), side)  # type: ignore[arg-type]

    def character_at(self, x: int, y: int) -> Character | None:
        """The character covering tile (x, y): its anchor or any square of its footprint
        (at the default grid scale)."""
        for c in self.characters.values():
            if c.x == x and c.y == y:
                return c
        for c in self.characters.values():
            if (c.size != "medium" or c.footprint is not None) and \
                    c.footprint_at().covers((c.x, c.y), (x, y)):
                return c
        return None

    def objects_at(self, x: int, y: int) -> list[MapObject]:
        return [o for o in self.objects.values() if o.x == x and o.y == y]

    def occupancy(self) -> np.ndarray:
        """bool (H, W): tiles occupied by a character (every square of its footprint)."""
        occ = np.zeros(self.shape, np.bool_)
        for c in self.characters.values():
            fp = c.footprint_at()
            occ[max(c.y, 0) : c.y + fp.height, max(c.x, 0) : c.x + fp.width] = True
        return occ

    def object_impeding(self) -> np.ndarray:
        """bool (H, W): tiles holding an object that impedes line of sight."""
        arr = np.zeros(self.shape, np.bool_)
        for o in self.objects.values():
            if o.impedes_los:
                arr[o.y, o.x] = True
        return arr

    def start_zone_of(self, x: int, y: int) -> str | None:
        for team, tiles in self.start_zones.items():
            if (x, y) in tiles:
                return team
        return None

    # ---------------------------------------------------------------- listeners
    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    def _changed(self, layer: str, rect: Rect | None) -> None:
        self.revision += 1
        change = Change(layer, rect)
        for listener in list(self._listeners):
            listener(change)

    # ----------------------------------------------------------------- mutators
    def set_terrain(self, x: int, y: int, terrain_id: int) -> None:
        self._check_tile(x, y)
        self._check_terrain_id(terrain_id)
        self.terrain[y, x] = terrain_id
        self._changed("terrain", Rect(x, y, x, y))

    def fill_terrain(self, rect: Rect, terrain_id: int) -> None:
        """Set every tile of an inclusive rectangle to one terrain id."""
        self._check_tile(rect.x0, rect.y0)
        self._check_tile(rect.x1, rect.y1)
        self._check_terrain_id(terrain_id)
        self.terrain[rect.y0 : rect.y1 + 1, rect.x0 : rect.x1 + 1] = terrain_id
        self._changed("terrain", rect)

    def set_elevation(self, x: int, y: int, level: int) -> None:
        self._check_tile(x, y)
        if not 0 <= level <= MAX_ELEVATION:
            raise ValueError(f"elevation {level} at tile ({x}, {y}) is outside 0..{MAX_ELEVATION}")
        self.elevation[y, x] = level
        self._changed("elevation", Rect(x, y, x, y))

    def set_transition(self, x: int, y: int, on: bool) -> None:
        self._check_tile(x, y)
        self.transition[y, x] = on
        self._changed("transition", Rect(x, y, x, y))

    def set_tile_indoor(self, x: int, y: int, indoor: bool | None) -> None:
        """Override Indoor/Outdoor for the obstruction on a tile (None = map default)."""
        self._check_tile(x, y)
        self.tile_indoor[y, x] = _indoor_code(indoor)
        self._changed("indoor", Rect(x, y, x, y))

    def set_border(self, edge: Edge, terrain_id: int, *, indoor: bool | None = None) -> None:
        """Put a border of ``terrain_id`` on ``edge`` (0 removes it)."""
        self._check_edge(edge)
        self._check_terrain_id(terrain_id)
        if terrain_id != CLEAR_ID and self.registry[terrain_id].base not in BORDER_BASES:
            raise ValueError(
                f"terrain {self.registry[terrain_id].name!r} cannot be a border "
                "(borders are Obstructing, Impeding, Difficult or Liquid)"
            )
        borders, _, indoors = self._edge_arrays(edge.side)
        borders[edge.y, edge.x] = terrain_id
        indoors[edge.y, edge.x] = _indoor_code(indoor)
        self._changed("borders", _edge_rect(edge))

    def set_transition_edge(self, edge: Edge, on: bool) -> None:
        self._check_edge(edge)
        self._edge_arrays(edge.side)[1][edge.y, edge.x] = on
        self._changed("transition_borders", _edge_rect(edge))

    def set_setting(self, setting: Setting) -> None:
        if setting not in ("outdoor", "indoor"):
            raise ValueError(f"setting must be 'outdoor' or 'indoor', not {setting!r}")
        self.setting = setting
        self._changed("setting", None)

    def set_start_zone(self, team: str, tiles: Iterable[tuple[int, int]]) -> None:
        """Replace a team's start zone (an empty iterable removes the team's zone)."""
        zone = {(int(x), int(y)) for x, y in tiles}
        for x, y in zone:
            self._check_tile(x, y)
        if zone:
            self.start_zones[team] = zone
        else:
            self.start_zones.pop(team, None)
        self._changed("start_zones", None)

    def set_zone_custom(self, team: str, custom: dict[str, Any]) -> None:
        """Replace the custom properties of ``team``'s start zone ({} removes them)."""
        self.zone_custom = {k: v for k, v in {**self.zone_custom, team: dict(custom)}.items() if v}
        self._changed("start_zones", None)

    def set_terrain_properties(self, name: str, *, properties: Any = None, custom: Any = None
                               ) -> None:
        """Replace the properties and/or custom properties of special type ``name``."""
        self.registry.update(name, properties=properties, custom=custom)
        self._changed("terrain_properties", None)

    def put_character(self, character: Character) -> None:
        """Add or replace (by id) a character."""
        self._check_tile(character.x, character.y)
        old = self.characters.get(character.id)
        self.characters[character.id] = character
        rect = self._character_rect(character)
        if old is not None:
            rect = _union(rect, self._character_rect(old))
        self._changed("characters", rect)

    def remove_character(self, character_id: str) -> Character:
        c = self.characters.pop(character_id)
        self._changed("characters", self._character_rect(c))
        return c

    def _character_rect(self, c: Character) -> Rect:
        """The tiles a character covers, clipped to the map."""
        fp = c.footprint_at()
        return Rect(c.x, c.y, min(c.x + fp.width, self.width) - 1,
                    min(c.y + fp.height, self.height) - 1)

    def put_object(self, obj: MapObject) -> None:
        self._check_tile(obj.x, obj.y)
        old = self.objects.get(obj.id)
        self.objects[obj.id] = obj
        rect = Rect(obj.x, obj.y, obj.x, obj.y)
        if old is not None:
            rect = _union(rect, Rect(old.x, old.y, old.x, old.y))
        self._changed("objects", rect)

    def remove_object(self, object_id: str) -> MapObject:
        o = self.objects.pop(object_id)
        self._changed("objects", Rect(o.x, o.y, o.x, o.y))
        return o

    # ------------------------------------------- annotations (never read by the rules)
    def put_label(self, label: Label) -> None:
        """Add or replace (by id) a text label."""
        self._check_tile(label.x, label.y)
        old = self.labels.get(label.id, label)
        self.labels[label.id] = label
        self._changed("labels", _union(Rect(label.x, label.y, label.x, label.y),
                                       Rect(old.x, old.y, old.x, old.y)))

    def remove_label(self, label_id: str) -> Label:
        lb = self.labels.pop(label_id)
        self._changed("labels", Rect(lb.x, lb.y, lb.x, lb.y))
        return lb

    def set_reference_image(self, image: ReferenceImage | None) -> None:
        self.reference_image = image
        self._changed("reference_image", None)

    def destroy_obstruction_tile(self, x: int, y: int) -> None:
        """Rulebook *Obstructing Terrain*: "If a Tile of Obstructing Terrain is destroyed,
        that tile becomes Difficult Terrain"."""
        self._check_tile(x, y)
        if self.base_at(x, y) is not Base.OBSTRUCTING:
            raise ValueError(f"tile ({x}, {y}) is not Obstructing terrain")
        self.terrain[y, x] = int(Base.DIFFICULT)
        self.tile_indoor[y, x] = INDOOR_DEFAULT
        self._changed("terrain", Rect(x, y, x, y))

    def destroy_obstruction_border(self, edge: Edge) -> None:
        """Rulebook *Obstructing Terrain*: "If a Border of Obstructing Terrain is destroyed,
        the tiles on either side become Difficult Terrain ... They also become Adjacent".

        The border is removed; each side tile becomes Difficult unless it is itself
        Obstructing (rubble does not fill a wall)."""
        bid = self.border_at(edge)
        if bid == CLEAR_ID or self.registry[bid].base is not Base.OBSTRUCTING:
            raise ValueError(f"edge {edge} has no Obstructing border")
        borders, _, indoors = self._edge_arrays(edge.side)
        borders[edge.y, edge.x] = CLEAR_ID
        indoors[edge.y, edge.x] = INDOOR_DEFAULT
        for x, y in edge.tiles:
            if self.base_at(x, y) is not Base.OBSTRUCTING:
                self.terrain[y, x] = int(Base.DIFFICULT)
        self._changed("borders", _edge_rect(edge))
        self._changed("terrain", _edge_rect(edge))

    def notify_bulk_change(self, layer: str = "all") -> None:
        """Tell listeners that arrays were written directly (loaders, transforms)."""
        self._changed(layer, None)

    # --------------------------------------------------------------- utilities
    def copy(self) -> MapModel:
        """Deep copy without listeners."""
        other = copy.copy(self)
        other._listeners = []
        other.registry = self.registry.copy()
        for name in _ARRAY_FIELDS:
            setattr(other, name, getattr(self, name).copy())
        other.start_zones = {k: set(v) for k, v in self.start_zones.items()}
        other.characters = {k: copy.deepcopy(v) for k, v in self.characters.items()}
        other.objects = {k: copy.deepcopy(v) for k, v in self.objects.items()}
        other.labels = {k: copy.deepcopy(v) for k, v in self.labels.items()}
        other.zone_custom = {k: dict(v) for k, v in self.zone_custom.items()}
        return other

    def same_content(self, other: MapModel) -> bool:
        """True when both maps hold the same data (revision and listeners ignored)."""
        scalars = ("width", "height", "name", "setting", "description")
        return (
            all(getattr(self, s) == getattr(other, s) for s in scalars)
            and self.registry == other.registry
            and all(np.array_equal(getattr(self, a), getattr(other, a)) for a in _ARRAY_FIELDS)
            and self.start_zones == other.start_zones
            and self.characters == other.characters
            and self.objects == other.objects
            and self.labels == other.labels
            and self.reference_image == other.reference_image
            and self.zone_custom == other.zone_custom
        )

    def _check_tile(self, x: int, y: int) -> None:
        if not self.in_bounds(x, y):
            raise IndexError(f"tile ({x}, {y}) is outside the {self.width}x{self.height} map")

    def _check_edge(self, edge: Edge) -> None:
        if not self.edge_in_bounds(edge):
            raise IndexError(
                f"edge {edge} is not an inner edge of the {self.width}x{self.height} map"
            )

    def _check_terrain_id(self, terrain_id: int) -> None:
        if not 0 <= terrain_id < len(self.registry):
            raise ValueError(f"unknown terrain id {terrain_id}")


_ARRAY_FIELDS = (
    "terrain", "elevation", "transition", "tile_indoor",
    "border_e", "border_s", "transition_e", "transition_s", "indoor_e", "indoor_s",
)


def check_size(width: int, height: int) -> None:
    """Refuse map sizes outside 1..MAX_SIDE before anything is allocated."""
    for label, v in (("width", width), ("height", height)):
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= MAX_SIDE:
            raise ValueError(f"map {label} {v!r} is outside 1..{MAX_SIDE}")


def _indoor_code(indoor: bool | None) -> int:
    return INDOOR_DEFAULT if indoor is None else (INDOOR_YES if indoor else INDOOR_NO)


def _resolve_indoor(code: int, setting: Setting) -> bool:
    return setting == "indoor" if code == INDOOR_DEFAULT else code == INDOOR_YES


def _edge_rect(edge: Edge) -> Rect:
    (ax, ay), (bx, by) = edge.tiles
    return Rect(ax, ay, bx, by)


def _union(a: Rect, b: Rect) -> Rect:
    return Rect(min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1))
