"""Labels and the reference image in Tiled maps (issue 29).  No Qt.

Export: with ``labels=True`` the labels become *text objects* in an object layer
``labels`` (the object's name is the label's id, its box centred on the label's
tile, ``text.color`` and ``text.pixelsize`` when the label sets them); the
reference image, when the map has one, an *image layer* ``reference image``
(``image`` the path as the map stores it, ``offsetx``/``offsety`` in pixels,
``opacity``, and a float property ``scale``: Tiled's image layers have none).
Import reads both back (and hand-made text objects: any text object in the
``labels`` layer is a label on the tile under its box's centre); what it cannot
use is a warning naming the Tiled object.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.annotations import COLOR, LABEL_SIZES, MAX_LABEL_TEXT, SCALE_RANGE, next_label_id
from ..engine.model import MapModel
from .tiled_props import prop, read_properties
from .tiled_tileset import TILE_PX

if TYPE_CHECKING:
    from .tiled_read import Layer

LABELS_LAYER = "labels"
REFERENCE_LAYER = "reference image"
#: the annotation layers and the Tiled layer type each must have
ANNOTATION_LAYERS = {LABELS_LAYER: "objectgroup", REFERENCE_LAYER: "imagelayer"}
#: pixels of text per label point size in Tiled (its default text is 16 px)
DEFAULT_PIXELS = 16
ARGB = re.compile(r"#[0-9a-fA-F]{8}")
IDENT = re.compile(r"\S.{0,63}", re.S)


# ------------------------------------------------------------------ export
def labels_layer(model: MapModel, layer_id: int, next_object) -> dict[str, Any]:
    """The ``labels`` object layer; ``next_object()`` gives each object its id."""
    objects = []
    for lid in sorted(model.labels):
        lb = model.labels[lid]
        width = TILE_PX * max(1, math.ceil(len(lb.text) / 4))  # about 8 px a character
        text: dict[str, Any] = {"halign": "center", "text": lb.text, "valign": "center",
                                "wrap": True}
        if lb.color:
            text["color"] = lb.color.lower()
        if lb.size:
            text["pixelsize"] = int(lb.size)
        objects.append({"height": TILE_PX, "id": next_object(), "name": lb.id,
                        "rotation": 0, "text": text, "type": "label", "visible": True,
                        "width": width, "x": (lb.x + 0.5) * TILE_PX - width / 2,
                        "y": lb.y * TILE_PX})
    return {"draworder": "topdown", "id": layer_id, "name": LABELS_LAYER, "objects": objects,
            "opacity": 1, "type": "objectgroup", "visible": True, "x": 0, "y": 0}


def reference_layer(model: MapModel, layer_id: int) -> dict[str, Any] | None:
    """The ``reference image`` image layer, or None when the map has no image."""
    ref = model.reference_image
    if ref is None:
        return None
    return {"id": layer_id, "image": ref.path, "name": REFERENCE_LAYER,
            "offsetx": ref.offset_x * TILE_PX, "offsety": ref.offset_y * TILE_PX,
            "opacity": ref.opacity, "properties": [prop("scale", float(ref.scale))],
            "repeatx": False, "repeaty": False, "type": "imagelayer", "visible": True,
            "x": 0, "y": 0}


def moved_reference(model: MapModel, map_dir: Path | None, out_dir: Path) -> MapModel:
    """``model`` (a copy when it changes) with its reference image's relative path
    made relative to ``out_dir``, where a Tiled map is written (Tiled resolves an
    image layer's path against the ``.tmj``), from ``map_dir``, the map file's
    folder (None: the working folder)."""
    ref = model.reference_image
    if ref is None or Path(ref.path).is_absolute():
        return model
    file = (map_dir or Path.cwd()) / ref.path
    try:
        path = Path(os.path.relpath(file.resolve(), out_dir.resolve())).as_posix()
    except ValueError:  # another drive (Windows)
        path = str(file.resolve())
    if path == ref.path:
        return model
    out = model.copy()
    out.reference_image = dataclasses.replace(ref, path=path)
    return out


# ------------------------------------------------------------------ import
def read_labels(layer: Layer, tile_w: float, tile_h: float, size: tuple[int, int],
                warn) -> list[dict[str, Any]]:
    """The map document's ``labels`` from the ``labels`` layer; ``warn(message,
    where, label)`` for each object it cannot use (it is left out)."""
    out: list[dict[str, Any]] = []
    taken: set[str] = set()
    objects = layer.doc.get("objects", [])
    for j, obj in enumerate(objects if isinstance(objects, list) else []):
        where = f"{layer.where}/objects/{j}"
        label = (f"object {obj.get('id', '?')} in layer {LABELS_LAYER!r}"
                 if isinstance(obj, dict) else f"object {j} in layer {LABELS_LAYER!r}")
        entry = _label(obj, tile_w, tile_h, size)
        if isinstance(entry, str):
            warn(f"{entry}; left out", where, label)
            continue
        if entry.get("id") in taken or not IDENT.fullmatch(str(entry.get("id", ""))):
            entry["id"] = next_label_id(taken)
        taken.add(entry["id"])
        out.append(entry)
    return out


def _label(obj: Any, tile_w: float, tile_h: float, size: tuple[int, int]
           ) -> dict[str, Any] | str:
    """A label entry from a text object, or why it cannot be one."""
    text = obj.get("text") if isinstance(obj, dict) else None
    if not isinstance(text, dict) or not isinstance(text.get("text"), str):
        return "not a text object (a label is a text object)"
    words = text["text"].strip()[:MAX_LABEL_TEXT]
    if not words:
        return "its text is empty"
    x, y, w, h = (obj.get(k, 0) for k in ("x", "y", "width", "height"))
    if not all(type(v) in (int, float) and math.isfinite(v) for v in (x, y, w, h)):
        return "its position or size is not a number"
    tx, ty = math.floor((x + w / 2) / tile_w), math.floor((y + h / 2) / tile_h)
    if not (0 <= tx < size[0] and 0 <= ty < size[1]):
        return f"it lies off the map (tile {tx}, {ty})"
    entry: dict[str, Any] = {"id": obj.get("name") or "", "x": tx, "y": ty, "text": words}
    color = text.get("color")
    if isinstance(color, str) and ARGB.fullmatch(color):
        color = "#" + color[3:]  # Tiled's #aarrggbb: the alpha is dropped
    if isinstance(color, str) and COLOR.fullmatch(color):
        entry["color"] = color.lower()
    pixels = text.get("pixelsize")
    if type(pixels) is int and pixels in LABEL_SIZES and pixels:
        entry["size"] = pixels
    return entry


def read_reference(layer: Layer, tile_w: float, tile_h: float, warn
                   ) -> dict[str, Any] | None:
    """The map document's ``editor.reference_image`` from the image layer, or None
    (with a warning) when it names no image."""
    image = layer.doc.get("image")
    if not isinstance(image, str) or not image:
        warn("names no image; left out", layer.where, layer.label)
        return None
    nums = [layer.doc.get(k, d) for k, d in (("offsetx", 0), ("offsety", 0), ("opacity", 1))]
    if not all(type(v) in (int, float) and math.isfinite(v) for v in nums):
        warn("its offset or opacity is not a number; left out", layer.where, layer.label)
        return None
    try:
        props = read_properties(layer.doc.get("properties"))
    except ValueError:
        props = {}
    kind, scale = props.get("scale", ("float", 1.0))
    lo, hi = SCALE_RANGE
    if kind not in ("float", "int") or not lo <= scale <= hi:
        warn(f"its scale property must be a number {lo}..{hi}; 1.0 used", layer.where,
             layer.label)
        scale = 1.0
    return {"path": image[:1024], "opacity": float(min(1, max(0, nums[2]))),
            "scale": float(scale), "offset": [nums[0] / tile_w, nums[1] / tile_h]}
