"""Tiled map (``.tmj``) -> SODWA map: what :mod:`.tiled_export` writes, and hand-made
Tiled maps that follow the layer names and properties of docs/map-format.md
(*Tiled*).  No Qt.

The Tiled map is translated into a SODWA map document, which is then loaded as
any map file is (:func:`.files.map_from_doc`: schema, document and rule checks),
so an imported map is validated like a loaded one.  Every problem names the
Tiled file and the JSON pointer of the layer, object or tile it comes from, and
the Tiled layer or object id.  Whatever cannot be mapped is a problem: an error
(code ``tiled``) when it leaves the map unknown (a terrain cell whose tile has no
``sodwa_terrain``, a border off the grid lines), a warning (``tiled-ignored``)
when it is left out (a layer or property SODWA has no use for).  Appearance
(opacity, tint, visibility, colours, tile images) is not map content.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.model import MAX_ELEVATION, MapModel
from ..engine.terrain import Base
from .encode import FORMAT_VERSION, MAP_FORMAT
from .files import map_from_doc
from .problems import Problem, capped, error, has_errors, pointer
from .tiled_export import (
    BORDERS_LAYER,
    CHARACTERS_LAYER,
    ELEVATION_LAYER,
    INDOOR_LAYER,
    OBJECTS_LAYER,
    TERRAIN_LAYER,
    TRANSITIONS_LAYER,
    ZONE_PREFIX,
)
from .tiled_labels import ANNOTATION_LAYERS
from .tiled_objects import CUSTOM, FREE, FREE_JSON, OBJECT_LAYERS, ObjectMapper, Place
from .tiled_props import PropertyError, check_kind, custom_value
from .tiled_read import CODE, Layer, read_tiled, tile_data, tileset_of
from .tiled_tileset import BASE, ELEVATION, INDOOR, PROPERTIES, TERRAIN

BUILTIN = [b.label for b in Base]
TILE_LAYERS = (TERRAIN_LAYER, INDOOR_LAYER, ELEVATION_LAYER, TRANSITIONS_LAYER)
#: Typed properties of the map itself (name -> Tiled type).
MAP_FIELDS = {"name": "string", "description": "string", "setting": "string",
              "format_version": "int"}


@dataclass
class TiledImport:
    """The imported map (None when it cannot be built), every problem, and the
    files read (the map and its tileset files)."""

    model: MapModel | None
    problems: list[Problem]
    inputs: list[Path]


def import_tiled(path: str | Path) -> TiledImport:
    """Read a Tiled map file as a SODWA map; never raises for bad input."""
    path = Path(path)
    tiled, problems = read_tiled(path)
    if tiled is None:
        return TiledImport(None, problems, [path])
    model, more = _Mapper(tiled, path.stem).run()
    if has_errors(problems):  # a tileset or layer that could not be read: no map
        model = None
    return TiledImport(model, problems + more, tiled.inputs)


class _Mapper(ObjectMapper):
    """Builds the SODWA document of one Tiled map, with the place of each part: the
    map's properties and its tile layers here, the rest in :class:`ObjectMapper`."""

    # ----------------------------------------------------------------- run
    def run(self) -> tuple[MapModel | None, list[Problem]]:
        self._map_properties()
        layers = self._layers()
        names, lut = self._terrain_types()
        self._terrain(layers.get(TERRAIN_LAYER), names, lut)
        self._indoor(layers.get(INDOOR_LAYER))
        self._elevation(layers.get(ELEVATION_LAYER))
        self._transitions(layers.get(TRANSITIONS_LAYER))
        self._zones([ly for n, ly in layers.items() if n.startswith(ZONE_PREFIX)])
        self._borders(layers.get(BORDERS_LAYER))
        self._things(layers.get(OBJECTS_LAYER), "objects")
        self._things(layers.get(CHARACTERS_LAYER), "characters")
        self._annotations(layers)
        if has_errors(self.problems):
            return None, self.problems
        model, found = map_from_doc(self.doc, source=self.t.source)
        return model, self.problems + [self._relocated(p) for p in found]

    def _relocated(self, p: Problem) -> Problem:
        """A problem of the SODWA document, moved to the Tiled part it came from."""
        parts = p.path.split("/")
        for n in range(len(parts), 0, -1):
            place = self.places.get("/".join(parts[:n]))
            if place is not None:
                return replace(p, path=place.where, source=place.source,
                               message=f"{p.message} (Tiled {place.label})")
        return replace(p, path="", source=self.t.source)

    def _map_properties(self) -> None:
        place = Place(self.t.source, "/properties", "map properties")
        f = self._fields(self.t.doc.get("properties"), MAP_FIELDS, place)
        # The import builds the newest structure; an older version the file names
        # (an export of format 1) is read as the newest.
        version = f.get("format_version", FORMAT_VERSION)
        self.doc.update({
            "format": MAP_FORMAT, "format_version": max(version, FORMAT_VERSION),
            "name": f.get("name", self.stem), "description": f.get("description", ""),
            "width": self.t.width, "height": self.t.height,
            "setting": f.get("setting", "outdoor"),
        })
        for key in ("format_version", "name", "description", "setting"):
            self.places["/" + key] = place
        for key in ("width", "height"):
            self.places["/" + key] = Place(self.t.source, "/" + key, "map size")

    def _layers(self) -> dict[str, Layer]:
        out: dict[str, Layer] = {}
        for layer in self.t.layers:
            place = self.layer_place(layer)
            name, kind = layer.name, layer.kind
            tiles = name in TILE_LAYERS or name.startswith(ZONE_PREFIX)
            extra = ANNOTATION_LAYERS.get(name)  # labels, reference image (issue 29)
            if not tiles and name not in OBJECT_LAYERS and extra is None:
                what = {"tilelayer": "tile layer", "objectgroup": "object layer",
                        "imagelayer": "image layer"}.get(kind, f"{kind} layer")
                article = "an" if what[0] in "aeiou" else "a"
                self.warn(f"{article} {what} SODWA has no use for; ignored (SODWA layers: "
                          f"{', '.join(TILE_LAYERS + OBJECT_LAYERS)}, {ZONE_PREFIX}<team>)",
                          place)
                continue
            wanted = extra or ("tilelayer" if tiles else "objectgroup")
            if kind != wanted:
                what = {"tilelayer": "tile", "objectgroup": "object"}.get(wanted, "image")
                self.err(f"must be a{'n' if what == 'image' else ''} {what} layer, not "
                         f"{kind!r}", place)
            elif name in out:
                self.err(f"a second layer named {name!r} (the first is "
                         f"{out[name].label})", place)
            else:
                out[name] = layer
                if wanted != "imagelayer" and (layer.doc.get("offsetx")
                                               or layer.doc.get("offsety")):
                    self.warn("its offset is ignored: SODWA layers sit on the map's grid",
                              place)
                zone = self._fields(layer.doc.get("properties"), {}, place,
                                    (CUSTOM,) if name.startswith(ZONE_PREFIX) else ())
                if zone.get("custom"):
                    team = name[len(ZONE_PREFIX):]
                    self.doc.setdefault("start_zone_custom", {})[team] = zone["custom"]
                    self.places[pointer("start_zone_custom", team)] = place
        return out

    # ----------------------------------------------------------- terrain types
    def _terrain_types(self) -> tuple[list[str], dict[int, int]]:
        """Terrain names (built-ins first, then special types in gid order) and
        each terrain tile's index among them."""
        names = list(BUILTIN)
        declared: dict[str, tuple[str, dict[str, Any], Any, str]] = {}
        lut: dict[int, int] = {}
        types: list[dict[str, Any]] = []
        for gid, tile in sorted(self.t.tiles.items()):
            if TERRAIN not in tile.props:
                continue
            place = Place(tile.source, tile.where, tile.label)
            try:
                name = check_kind(TERRAIN, *tile.props[TERRAIN], "string")
                base = (check_kind(BASE, *tile.props[BASE], "string") if BASE in tile.props
                        else None)
                free = {k.split(".", 1)[1]: custom_value(k, kind, v) for k, (kind, v)
                        in tile.props.items() if k.startswith((CUSTOM, FREE, FREE_JSON))}
                vocab = (json.loads(check_kind(PROPERTIES, *tile.props[PROPERTIES], "string"))
                         if PROPERTIES in tile.props else {})
            except PropertyError as exc:
                self.err(str(exc), place)
                continue
            except ValueError as exc:
                self.err(f"property {PROPERTIES!r} does not hold JSON: {exc}", place)
                continue
            if name in BUILTIN:
                if base not in (None, name) or free or vocab:
                    self.err(f"{name!r} is built in (base {name}, no properties); give a "
                             "special type another name", place)
                    continue
            elif base not in BUILTIN:
                self.err(f"special terrain type {name!r} needs a {BASE} property, one of "
                         f"{', '.join(BUILTIN)}" + (f", not {base!r}" if base else ""), place)
                continue
            decl = (base or name, free, vocab, tile.label)
            first = declared.setdefault(name, decl)
            if first[:3] != decl[:3]:
                self.err(f"declares terrain type {name!r} differently from {first[3]} (base "
                         "and properties must agree)", place)
                continue
            if name not in names:
                names.append(name)
                entry: dict[str, Any] = {"name": name, "base": base}
                if vocab:
                    entry["properties"] = vocab
                if free:
                    entry["custom"] = free
                self.places[pointer("terrain_types", len(types))] = place
                self.places[pointer("legend", _char(len(names) - 1))] = place
                types.append(entry)
            lut[gid] = names.index(name)
        self.doc["terrain_types"] = types
        self.doc["legend"] = {_char(i): n for i, n in enumerate(names)}
        return names, lut

    # ------------------------------------------------------------ tile layers
    def _cells(self, layer: Layer, lut: dict[int, int], what: str) -> np.ndarray | None:
        """Per cell of a tile layer, the value ``lut`` gives its tile (empty cells:
        ``lut[0]``); an error for each tile with none."""
        grid, found = tile_data(self.t, layer)
        self.problems += found
        if grid is None:
            return None
        gids, inverse = np.unique(grid, return_inverse=True)
        values, bad = [], []
        for gid in gids.tolist():
            if gid in lut:
                values.append(lut[gid])
                continue
            ys, xs = np.nonzero(grid == gid)
            at = f"tile ({int(xs[0])}, {int(ys[0])})" + (
                f" and {len(ys) - 1} more" if len(ys) > 1 else "")
            owner = tileset_of(self.t, gid)
            bad.append(error(
                f"{layer.label}: gid {gid} at {at} belongs to no tileset" if owner is None else
                f"{layer.label}: tile {gid - owner[1]} of tileset {owner[0]!r} (gid {gid}) at "
                f"{at} has no {what} property", layer.where + "/data", code=CODE)
                .located(source=self.t.source))
        self.problems.extend(capped(bad))
        return None if bad else np.asarray(values, np.int64)[inverse.reshape(grid.shape)]

    def _tile_values(self, key: str, kind: str) -> dict[int, Any]:
        """gid -> value of property ``key`` (of Tiled type ``kind``) of every tile having it."""
        out = {}
        for gid, tile in sorted(self.t.tiles.items()):
            if key in tile.props:
                try:
                    out[gid] = check_kind(key, *tile.props[key], kind)
                except PropertyError as exc:
                    self.err(str(exc), Place(tile.source, tile.where, tile.label))
        return out

    def _terrain(self, layer: Layer | None, names: list[str], lut: dict[int, int]) -> None:
        idx = np.zeros((self.t.height, self.t.width), np.int64)  # no layer: all Clear
        if layer is not None:
            self.places["/terrain"] = self.layer_place(layer)
            cells = self._cells(layer, {0: 0, **lut}, TERRAIN)
            if cells is None:
                return
            idx = cells
        table = np.array([ord(_char(i)) for i in range(len(names))], "<u4")
        text = table[idx].tobytes().decode("utf-32-le")
        w = self.t.width
        self.doc["terrain"] = [text[y * w:(y + 1) * w] for y in range(self.t.height)]

    def _indoor(self, layer: Layer | None) -> None:
        self.doc["indoor_overrides"] = []
        flags = self._tile_values(INDOOR, "bool")
        if layer is None:
            return
        self.places["/indoor_overrides"] = self.layer_place(layer)
        cells = self._cells(layer, {0: -1, **{g: int(v) for g, v in flags.items()}}, INDOOR)
        if cells is not None:
            self.doc["indoor_overrides"] = [{"tile": [x, y], "indoor": bool(cells[y, x])}
                                            for y, x in _row_major(cells >= 0)]

    def _elevation(self, layer: Layer | None) -> None:
        levels = self._tile_values(ELEVATION, "int")
        for gid, level in levels.items():
            if not 0 <= level <= MAX_ELEVATION:
                tile = self.t.tiles[gid]
                self.err(f"{ELEVATION} {level} is outside 0..{MAX_ELEVATION}",
                         Place(tile.source, tile.where, tile.label))
        if layer is None:
            return
        self.places["/elevation"] = self.layer_place(layer)
        cells = self._cells(layer, {0: 0, **levels}, ELEVATION)
        if cells is not None and cells.any():
            self.doc["elevation"] = [" ".join(map(str, row)) for row in cells.tolist()]

    def _marked(self, layer: Layer) -> list[list[int]]:
        """The tiles of a layer that hold any tile, row-major."""
        grid, found = tile_data(self.t, layer)
        self.problems += found
        return [] if grid is None else [[x, y] for y, x in _row_major(grid != 0)]

    def _transitions(self, layer: Layer | None) -> None:
        self.doc["transition_tiles"] = []
        if layer is not None:
            self.places["/transition_tiles"] = self.layer_place(layer)
            self.doc["transition_tiles"] = self._marked(layer)

    def _zones(self, layers: list[Layer]) -> None:
        zones = self.doc["start_zones"] = {}
        for layer in layers:
            team = layer.name[len(ZONE_PREFIX):]
            tiles = self._marked(layer)
            if not team:
                self.err(f"names no team (a start zone layer is named {ZONE_PREFIX}<team>)",
                         self.layer_place(layer))
            elif not tiles:
                self.warn(f"has no tiles, so team {team!r} gets no start zone",
                          self.layer_place(layer))
            else:
                self.places[pointer("start_zones", team)] = self.layer_place(layer)
                zones[team] = tiles

def _char(i: int) -> str:
    """Legend character of the i-th terrain name of the document (any distinct
    characters do: the map is rewritten with the standard legend when saved)."""
    return chr(0x4E00 + i)


def _row_major(mask: np.ndarray) -> list[tuple[int, int]]:
    ys, xs = np.nonzero(mask)
    return list(zip(ys.tolist(), xs.tolist(), strict=True))
