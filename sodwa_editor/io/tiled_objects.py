"""The part of a Tiled map import (:mod:`.tiled_import`) every layer shares, and the
object layers: where each part of the SODWA document comes from (:class:`Place`),
the problems naming it, the typed properties read as SODWA fields, and the
``borders``, ``objects`` and ``characters`` layers, the labels and the reference
image.  Characters of any size (:mod:`.tiled_creatures`).  No Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.model import Edge
from .problems import Problem, error, pointer, warning
from .tiled_creatures import (
    CREATURE_FIELDS,
    FOOTPRINT,
    MEDIUM_SIZE,
    SIZE,
    creature_anchor,
    creature_fields,
)
from .tiled_export import BORDERS_LAYER, CHARACTERS_LAYER, OBJECTS_LAYER
from .tiled_labels import LABELS_LAYER, REFERENCE_LAYER, read_labels, read_reference
from .tiled_props import (
    CUSTOM,
    FREE,
    FREE_JSON,
    PropertyError,
    check_kind,
    custom_value,
    read_properties,
)
from .tiled_read import CODE, Layer, TiledMap
from .tiled_shapes import ShapeError, border_edges, object_class, object_tile, placeable

IGNORED = "tiled-ignored"
OBJECT_LAYERS = (BORDERS_LAYER, OBJECTS_LAYER, CHARACTERS_LAYER)
#: Typed properties each part of a SODWA map reads (name -> Tiled type).
CHARACTER_FIELDS = {"team": "string", "move": "int", "range": "int", "flight": "bool",
                    "name": "string", **CREATURE_FIELDS}
OBJECT_FIELDS = {"impedes_los": "bool", "radius": "int"}
BORDER_FIELDS = {"transition": "bool", "indoor": "bool"}
ATTRIBUTES = "attributes."


@dataclass(frozen=True)
class Place:
    """Where a part of the SODWA document comes from: the Tiled file, the JSON
    pointer in it, and a label naming the Tiled layer, object or tile."""

    source: str
    where: str
    label: str


class ObjectMapper:
    """Builds the SODWA document of one Tiled map: problems, properties and the object
    layers (the tile layers: :class:`.tiled_import._Mapper`)."""

    def __init__(self, tiled: TiledMap, stem: str) -> None:
        self.t = tiled
        self.stem = stem
        self.problems: list[Problem] = []
        self.places: dict[str, Place] = {}
        self.doc: dict[str, Any] = {}

    # ------------------------------------------------------------- problems
    def err(self, message: str, place: Place) -> None:
        self.problems.append(error(f"{place.label}: {message}", place.where, code=CODE)
                             .located(source=place.source))

    def warn(self, message: str, place: Place) -> None:
        self.problems.append(warning(f"{place.label}: {message}", place.where, code=IGNORED)
                             .located(source=place.source))

    def layer_place(self, layer: Layer) -> Place:
        return Place(self.t.source, layer.where, layer.label)

    # ---------------------------------------------------------- properties
    def _fields(self, raw: Any, fields: dict[str, str], place: Place,
                prefixes: tuple[str, ...] = ()) -> dict[str, Any]:
        """The SODWA fields among the typed properties ``raw``: ``fields`` by name,
        ``custom.*`` (and format 1's ``properties.*`` / ``properties_json.*``) as
        ``custom`` and ``attributes.*`` (int) where ``prefixes`` allows them;
        anything else is a warning."""
        out: dict[str, Any] = {}
        try:
            props = read_properties(raw)
        except PropertyError as exc:
            self.err(str(exc), place)
            return out
        for name, (kind, value) in props.items():
            try:
                if name in fields:
                    out[name] = check_kind(name, kind, value, fields[name])
                elif name.startswith((CUSTOM, FREE, FREE_JSON)) and CUSTOM in prefixes:
                    key = name.split(".", 1)[1]
                    out.setdefault("custom", {})[key] = custom_value(name, kind, value)
                elif name.startswith(ATTRIBUTES) and ATTRIBUTES in prefixes:
                    out.setdefault("attributes", {})[name[len(ATTRIBUTES):]] = check_kind(
                        name, kind, value, "int")
                else:
                    self.warn(f"property {name!r} is not a SODWA field and is ignored", place)
            except PropertyError as exc:
                self.err(str(exc), place)
        return out

    # ---------------------------------------------------------- object layers
    def _objects(self, layer: Layer) -> list[tuple[Place, dict[str, Any]]]:
        raw = layer.doc.get("objects", [])
        if not isinstance(raw, list):
            self.err("\"objects\" is not a list", self.layer_place(layer))
            return []
        out = []
        for j, obj in enumerate(raw):
            where = f"{layer.where}/objects/{j}"
            if not isinstance(obj, dict):
                self.err("an object that is not a JSON object", Place(self.t.source, where,
                                                                       layer.label))
                continue
            name = obj.get("name") or ""
            label = f"object {obj.get('id', '?')}" + (f" {name!r}" if name else "")
            out.append((Place(self.t.source, where, f"{label} in layer {layer.name!r}"), obj))
        return out

    def _borders(self, layer: Layer | None) -> None:
        borders: list[dict[str, Any]] = []
        self.doc["borders"] = borders
        if layer is None:
            return
        seen: dict[Edge, str] = {}
        for place, obj in self._objects(layer):
            try:
                edges = border_edges(obj, self.t.tile_w, self.t.tile_h, self.t.width,
                                     self.t.height)
            except ShapeError as exc:
                self.err(str(exc), place)
                continue
            if not edges:
                self.warn("runs along no edge", place)
            f = self._fields(obj.get("properties"), BORDER_FIELDS, place)
            terrain = object_class(obj)
            for e in edges:
                if e in seen:
                    self.err(f"edge ({e.x}, {e.y}, {e.side}) is also drawn by {seen[e]}", place)
                    continue
                seen[e] = place.label
                entry: dict[str, Any] = {"edge": [e.x, e.y, e.side]}
                if terrain:
                    entry["terrain"] = terrain
                if f.get("transition"):
                    entry["transition"] = True
                if "indoor" in f:
                    entry["indoor"] = f["indoor"]
                self.places[pointer("borders", len(borders))] = place
                borders.append(entry)

    def _annotations(self, layers: dict[str, Layer]) -> None:
        """The labels and the reference image (:mod:`.tiled_labels`)."""
        def warn(message: str, where: str, label: str) -> None:
            self.warn(message, Place(self.t.source, where, label))

        t, labels, ref = self.t, layers.get(LABELS_LAYER), layers.get(REFERENCE_LAYER)
        if labels is not None:
            self.doc["labels"] = read_labels(labels, t.tile_w, t.tile_h, (t.width, t.height),
                                             warn)
        image = read_reference(ref, t.tile_w, t.tile_h, warn) if ref is not None else None
        if image is not None:
            self.doc["editor"] = {"reference_image": image}

    def _things(self, layer: Layer | None, key: str) -> None:
        items: list[dict[str, Any]] = []
        self.doc[key] = items
        if layer is None:
            return
        characters = key == "characters"
        what = "character" if characters else "object"
        for place, obj in self._objects(layer):
            ident = obj.get("name")
            if not isinstance(ident, str) or not ident:
                self.err(f"has no name: in Tiled, a {what}'s name is its SODWA id", place)
                continue
            try:
                placeable(obj, what)
            except ShapeError as exc:
                self.err(str(exc), place)
                continue
            cls = object_class(obj)
            if characters:
                f = self._fields(obj.get("properties"), CHARACTER_FIELDS, place,
                                 (ATTRIBUTES, CUSTOM))
                try:  # its size and footprint, and its top-left tile (issue 26)
                    given = SIZE in f or FOOTPRINT in f
                    sized, fp = creature_fields(f)
                    tile = creature_anchor(obj, self.t.tile_w, self.t.tile_h, fp,
                                           sized.get(SIZE, MEDIUM_SIZE), given=given)
                except (PropertyError, ShapeError) as exc:
                    self.err(str(exc), place)
                    continue
                if "team" not in f:
                    self.err("has no 'team' property", place)
                    continue
                if cls not in ("", "character"):
                    self.warn(f"its class {cls!r} is ignored (a character's side is its "
                              "'team' property)", place)
                entry = {"id": ident, "team": f.pop("team"), "x": tile[0], "y": tile[1], **f,
                         **sized}
            else:
                try:
                    tile = object_tile(obj, self.t.tile_w, self.t.tile_h, what)
                except ShapeError as exc:
                    self.err(str(exc), place)
                    continue
                f = self._fields(obj.get("properties"), OBJECT_FIELDS, place, (CUSTOM,))
                if not cls:
                    self.err("has no class: an object's class is its kind (e.g. crate)", place)
                    continue
                entry = {"id": ident, "kind": cls, "x": tile[0], "y": tile[1], **f}
            self.places[pointer(key, len(items))] = place
            items.append(entry)


