"""SODWA map -> Tiled map (``.tmj``): an orthogonal, finite Tiled map with a generated
tileset (``.tsj`` + PNG, :mod:`.tiled_tileset`) beside it.  No Qt.

Layers, bottom to top (docs/map-format.md, *Tiled*): tile layers ``terrain``,
``indoor``, ``elevation``, ``transitions`` and one ``start_zone:<team>`` per start
zone; object layers ``borders`` (polylines along the grid lines), ``objects`` and
``characters`` (point objects at tile centres, every field a typed custom
property; a creature larger than one tile a rectangle over its footprint,
:mod:`.tiled_creatures`).  :mod:`.tiled_import` reads it back to the same map, byte for byte
once saved.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.model import INDOOR_DEFAULT, INDOOR_YES, MapModel
from .encode import FORMAT_VERSION, edge_layers, map_to_dict
from .files import atomic_write_bytes, atomic_write_text
from .paths import PathLike, writable_target
from .png import encode_png
from .problems import MapSaveError
from .tiled_creatures import creature_properties, creature_shape
from .tiled_labels import labels_layer, reference_layer
from .tiled_props import custom_properties, prop, sorted_properties
from .tiled_tileset import (
    FIRST_LEVEL_ID,
    INDOOR_ID,
    JSON_VERSION,
    OUTDOOR_ID,
    TILE_PX,
    TILED_VERSION,
    TRANSITION_ID,
    ZONE_ID,
    terrain_tile_ids,
    tileset_doc,
    tileset_image,
)

#: Layer names (a hand-made map uses the same ones; ``start_zone:`` + team name).
TERRAIN_LAYER, INDOOR_LAYER, ELEVATION_LAYER = "terrain", "indoor", "elevation"
TRANSITIONS_LAYER, ZONE_PREFIX = "transitions", "start_zone:"
BORDERS_LAYER, OBJECTS_LAYER, CHARACTERS_LAYER = "borders", "objects", "characters"
FIRSTGID = 1
TILED_SUFFIXES = (".tmj", ".json")


@dataclass(frozen=True)
class TiledExport:
    """The three files of an exported map: the map's and the tileset's text and
    the tileset image, with their file names (the tileset's beside the map's)."""

    map_text: str
    tileset_text: str
    png: bytes
    tileset_name: str
    image_name: str


def tileset_paths(path: PathLike) -> tuple[Path, Path]:
    """The tileset (``.tsj``) and image (``.png``) written beside the map ``path``."""
    p = Path(path)
    return p.with_suffix(".tsj"), p.with_suffix(".png")


def export_tiled(model: MapModel, stem: str, *, labels: bool = False) -> TiledExport:
    """The Tiled files of ``model``, the tileset named ``<stem>.tsj`` and
    ``<stem>.png``; ``labels``: the map's labels as text objects too
    (:mod:`.tiled_labels`).  Raises ``ValueError`` for a map the SODWA format cannot hold
    (as saving would), so that what is exported always imports again."""
    map_to_dict(model)  # the save's checks: a name too long, a character off the map ...
    tileset_name, image_name = f"{stem}.tsj", f"{stem}.png"
    tileset = tileset_doc(model, image_name, stem)
    doc, grids = map_doc(model, tileset_name, labels=labels)
    return TiledExport(_layout(doc, grids), _layout(tileset, {}),
                       encode_png(tileset_image(model)), tileset_name, image_name)


def write_tiled(model: MapModel, path: PathLike, *, labels: bool = False) -> list[Path]:
    """Write ``model`` as a Tiled map to ``path`` (``.tmj`` or ``.json``), its
    tileset and image beside it; returns the three paths.  Each file is written
    atomically, the map last (it names the other two).  Raises
    :class:`MapSaveError` (an ``OSError``) saying why when it cannot."""
    target = Path(path)
    if target.suffix.lower() not in TILED_SUFFIXES:
        raise MapSaveError(f"cannot export {target}: a Tiled map file ends in .tmj or .json")
    tsj, png = tileset_paths(target)
    for p in (png, tsj, target):
        writable_target(p)  # every file may be written before any is
    try:
        files = export_tiled(model, target.stem, labels=labels)
    except ValueError as exc:
        raise MapSaveError(f"cannot export {target}: {exc}") from exc
    atomic_write_bytes(png, files.png)
    atomic_write_text(tsj, files.tileset_text)
    atomic_write_text(target, files.map_text)
    return [target, tsj, png]


# ---------------------------------------------------------------- the map
def map_doc(model: MapModel, tileset_source: str, *, labels: bool = False
            ) -> tuple[dict[str, Any], dict[int, np.ndarray]]:
    """The ``.tmj`` document of ``model`` and the gid grid of each tile layer (by
    layer id; the document's ``data`` of those layers is filled in by the layout)."""
    ids = _Ids()
    grids: dict[int, np.ndarray] = {}
    h, w = model.height, model.width

    def tiles(name: str, grid: np.ndarray) -> dict[str, Any]:
        layer_id = ids.layer()
        grids[layer_id] = grid
        return {"data": [], "height": h, "id": layer_id, "name": name, "opacity": 1,
                "type": "tilelayer", "visible": True, "width": w, "x": 0, "y": 0}

    def gids(mask: np.ndarray, tile_id: int | np.ndarray) -> np.ndarray:
        return np.where(mask, np.asarray(tile_id) + FIRSTGID, 0).astype(np.int64)

    terrain_gids = np.asarray(terrain_tile_ids(model), np.int64)[model.terrain] + FIRSTGID
    indoor = model.tile_indoor
    layers = [
        tiles(TERRAIN_LAYER, terrain_gids),
        *([reference_layer(model, ids.layer())] if model.reference_image else []),  # issue 29
        tiles(INDOOR_LAYER, gids(indoor != INDOOR_DEFAULT,
                                 np.where(indoor == INDOOR_YES, INDOOR_ID, OUTDOOR_ID))),
        tiles(ELEVATION_LAYER, gids(model.elevation > 0, FIRST_LEVEL_ID + model.elevation)),
        tiles(TRANSITIONS_LAYER, gids(model.transition, TRANSITION_ID)),
    ]
    for team in sorted(model.start_zones):
        zone = np.zeros(model.shape, bool)
        for x, y in model.start_zones[team]:
            zone[y, x] = True
        layer = tiles(ZONE_PREFIX + team, gids(zone, ZONE_ID))
        layer["opacity"] = 0.8
        if model.zone_custom.get(team):
            layer["properties"] = custom_properties(model.zone_custom[team])
        layers.append(layer)
    layers.append(_objects_layer(ids, BORDERS_LAYER, _borders(model, ids)))
    layers.append(_objects_layer(ids, OBJECTS_LAYER, [
        _point(ids, o.id, o.kind, o.x, o.y,
               [prop("impedes_los", bool(o.impedes_los)), *custom_properties(o.custom),
                *([prop("radius", int(o.radius))] if o.kind == "light" or o.radius != 1
                  else [])])
        for o in (model.objects[k] for k in sorted(model.objects))]))
    layers.append(_objects_layer(ids, CHARACTERS_LAYER, [
        _character(ids, c) for c in (model.characters[k] for k in sorted(model.characters))]))
    if labels:  # issue 29: on request (sodwa export-tiled --labels)
        layers.append(labels_layer(model, ids.layer(), ids.object))
    doc = {
        "compressionlevel": -1,
        "height": h,
        "infinite": False,
        "layers": layers,
        "nextlayerid": ids.next_layer,
        "nextobjectid": ids.next_object,
        "orientation": "orthogonal",
        "properties": sorted_properties([
            prop("name", model.name), prop("description", model.description),
            prop("setting", model.setting), prop("format_version", FORMAT_VERSION)]),
        "renderorder": "right-down",
        "tiledversion": TILED_VERSION,
        "tileheight": TILE_PX,
        "tilesets": [{"firstgid": FIRSTGID, "source": tileset_source}],
        "tilewidth": TILE_PX,
        "type": "map",
        "version": JSON_VERSION,
        "width": w,
    }
    return doc, grids


class _Ids:
    """Tiled's layer and object ids: from 1, unique in the map."""

    def __init__(self) -> None:
        self.next_layer = 1
        self.next_object = 1

    def layer(self) -> int:
        self.next_layer += 1
        return self.next_layer - 1

    def object(self) -> int:
        self.next_object += 1
        return self.next_object - 1


def _objects_layer(ids: _Ids, name: str, objects: list[dict[str, Any]]) -> dict[str, Any]:
    return {"draworder": "topdown", "id": ids.layer(), "name": name, "objects": objects,
            "opacity": 1, "type": "objectgroup", "visible": True, "x": 0, "y": 0}


def _point(ids: _Ids, name: str, kind: str, x: int, y: int,
           props: list[dict[str, Any]]) -> dict[str, Any]:
    """A point object at the centre of tile (x, y)."""
    return {"height": 0, "id": ids.object(), "name": name, "point": True,
            "properties": sorted_properties(props), "rotation": 0, "type": kind,
            "visible": True, "width": 0, "x": (x + 0.5) * TILE_PX, "y": (y + 0.5) * TILE_PX}


def _character(ids: _Ids, c: Any) -> dict[str, Any]:
    """A character's object: a point at its tile's centre, or a rectangle over the
    footprint of a larger creature (:mod:`.tiled_creatures`)."""
    props = [prop("team", c.team), prop("move", int(c.move)), prop("range", int(c.range)),
             prop("flight", bool(c.flight)), prop("name", c.name), *creature_properties(c)]
    props += [prop(f"attributes.{k}", int(v)) for k, v in c.attributes.items()]
    obj = {"id": ids.object(), "name": c.id, "properties": sorted_properties(
        props + custom_properties(c.custom)), "rotation": 0, "type": "character",
        "visible": True, **creature_shape(c, TILE_PX)}
    return dict(sorted(obj.items()))  # in Tiled's key order


def _borders(model: MapModel, ids: _Ids) -> list[dict[str, Any]]:
    """One polyline per run of neighbouring edges on one grid line with the same
    border terrain, transition flag and indoor override (a wall of ten edges is
    one object)."""
    names = [t.name for t in model.registry]
    out = []
    for side in ("E", "S"):
        b, t, ind = (np.asarray(a) for a in edge_layers(model, side))
        if side == "E":  # vertical lines x = i + 1, runs down the rows
            b, t, ind = b.T, t.T, ind.T
        for line in range(b.shape[0]):
            key = np.stack([b[line], t[line].astype(b.dtype), ind[line] + 1], axis=1)
            on = (b[line] != 0) | t[line] | (ind[line] != INDOOR_DEFAULT)
            start = None
            for i in range(b.shape[1] + 1):
                same = start is not None and i < b.shape[1] and on[i] and (
                    key[i] == key[start]).all()
                if start is not None and not same:
                    out.append(_border(ids, side, line, start, i, names, key[start]))
                    start = None
                if start is None and i < b.shape[1] and on[i]:
                    start = i
    return out


def _border(ids: _Ids, side: str, line: int, start: int, stop: int, names: list[str],
            key: np.ndarray) -> dict[str, Any]:
    terrain, transition, indoor = int(key[0]), bool(key[1]), int(key[2]) - 1
    n = (stop - start) * TILE_PX
    if side == "E":  # the line x = line + 1 from row start to row stop
        x, y, end = (line + 1) * TILE_PX, start * TILE_PX, {"x": 0, "y": n}
    else:  # the line y = line + 1 from column start to column stop
        x, y, end = start * TILE_PX, (line + 1) * TILE_PX, {"x": n, "y": 0}
    props = [prop("transition", transition)]
    if indoor != INDOOR_DEFAULT:
        props.append(prop("indoor", indoor == INDOOR_YES))
    return {"height": 0, "id": ids.object(), "name": "", "polyline": [{"x": 0, "y": 0}, end],
            "properties": sorted_properties(props), "rotation": 0,
            "type": names[terrain] if terrain else "", "visible": True, "width": 0,
            "x": x, "y": y}


# ----------------------------------------------------------------- layout
def _layout(doc: dict[str, Any], grids: dict[int, np.ndarray]) -> str:
    """Indented JSON with each tile layer's ``data`` laid out one map row per line."""
    marks = {}
    for layer in doc.get("layers", []):
        if layer["id"] in grids:
            mark = f"@@data-{layer['id']}@@"
            layer["data"] = mark
            marks[json.dumps(mark)] = grids[layer["id"]]
    text = json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False)
    for mark, grid in marks.items():
        rows = [",".join(map(str, row)) for row in grid.tolist()]
        text = text.replace(mark, "[\n" + ",\n".join(rows) + "]", 1)
    return text + "\n"
