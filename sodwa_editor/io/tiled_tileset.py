"""The tileset ``sodwa export-tiled`` writes beside a map: a Tiled tileset (``.tsj``)
and its image (PNG), drawn in the editor's colours (:mod:`.palette`) without Qt.

Tile ids (local to the tileset; a map's gid is ``firstgid`` + id):

=======  ==========================================================  ===================
id       tile                                                        property
=======  ==========================================================  ===================
0-4      the built-in terrain types clear .. liquid                  ``sodwa_terrain``
5        a transition tile (green tint)                              ``sodwa_transition``
6, 7     an Indoor / Outdoor override (near-black hatched / rock)    ``sodwa_indoor``
8        a start-zone tile (light tint, dashed outline)              ``sodwa_start_zone``
9-108    elevation levels 0..99 (brown shade, the level written)     ``sodwa_elevation``
109-     the map's special terrain types, in declaration order       ``sodwa_terrain``
=======  ==========================================================  ===================

Every id below 109 is the same in every exported tileset.  A terrain tile also
has ``sodwa_base`` (its base type); a special type has its vocabulary properties
as ``sodwa_properties`` (the compact JSON of the map file's ``properties``) and
its custom properties as ``custom.<name>`` (:mod:`.tiled_props`).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ..engine.model import MAX_ELEVATION, MapModel
from ..engine.terrain import Base
from ..engine.terrain_properties import properties_to_json
from . import palette
from .tiled_props import custom_properties, prop, sorted_properties

#: Pixels per tile side (the editor's scene units per tile).
TILE_PX = 32
COLUMNS = 16
TILED_VERSION = "1.10.0"  # the JSON format followed (objects' class in "type")
JSON_VERSION = "1.10"

#: Tile properties (see the table above).
TERRAIN, BASE, ELEVATION = "sodwa_terrain", "sodwa_base", "sodwa_elevation"
TRANSITION, INDOOR, START_ZONE = "sodwa_transition", "sodwa_indoor", "sodwa_start_zone"
PROPERTIES = "sodwa_properties"

N_BUILTIN = len(Base)
TRANSITION_ID, INDOOR_ID, OUTDOOR_ID, ZONE_ID = 5, 6, 7, 8
FIRST_LEVEL_ID = 9
FIRST_SPECIAL_ID = FIRST_LEVEL_ID + MAX_ELEVATION + 1


def terrain_tile_ids(model: MapModel) -> list[int]:
    """Tile id of each terrain id of ``model``'s registry."""
    n = len(model.registry)
    return list(range(N_BUILTIN)) + list(range(FIRST_SPECIAL_ID, FIRST_SPECIAL_ID + n - N_BUILTIN))


def tile_count(model: MapModel) -> int:
    return FIRST_SPECIAL_ID + len(model.registry) - N_BUILTIN


def tileset_doc(model: MapModel, image: str, name: str) -> dict[str, Any]:
    """The ``.tsj`` document of ``model``'s tileset, its image file named ``image``."""
    count = tile_count(model)
    rows = -(-count // COLUMNS)
    tiles: list[dict[str, Any]] = []
    ids = terrain_tile_ids(model)
    for t, tid in zip(model.registry, ids, strict=True):
        props = [prop(TERRAIN, t.name), prop(BASE, t.base.label)]
        props += custom_properties(t.custom)
        if t.properties:
            props.append(prop(PROPERTIES, json.dumps(properties_to_json(t.properties),
                                                     separators=(",", ":"))))
        tiles.append({"id": tid, "type": "terrain", "properties": sorted_properties(props)})
    tiles.append({"id": TRANSITION_ID, "type": "transition",
                  "properties": [prop(TRANSITION, True)]})
    for tid, flag in ((INDOOR_ID, True), (OUTDOOR_ID, False)):
        tiles.append({"id": tid, "type": "indoor", "properties": [prop(INDOOR, flag)]})
    tiles.append({"id": ZONE_ID, "type": "start_zone", "properties": [prop(START_ZONE, True)]})
    for level in range(MAX_ELEVATION + 1):
        tiles.append({"id": FIRST_LEVEL_ID + level, "type": "elevation",
                      "properties": [prop(ELEVATION, level)]})
    tiles.sort(key=lambda t: t["id"])
    return {
        "columns": COLUMNS,
        "image": image,
        "imageheight": rows * TILE_PX,
        "imagewidth": COLUMNS * TILE_PX,
        "margin": 0,
        "name": name,
        "spacing": 0,
        "tilecount": count,
        "tiledversion": TILED_VERSION,
        "tileheight": TILE_PX,
        "tiles": tiles,
        "tilewidth": TILE_PX,
        "type": "tileset",
        "version": JSON_VERSION,
    }


def tileset_image(model: MapModel) -> np.ndarray:
    """The ``(rows * 32, 16 * 32, 4)`` RGBA pixels of ``model``'s tileset."""
    count = tile_count(model)
    rows = -(-count // COLUMNS)
    img = np.zeros((rows * TILE_PX, COLUMNS * TILE_PX, 4), np.uint8)
    fills = palette.terrain_fills(model.registry)
    for t, tid, rgb in zip(model.registry, terrain_tile_ids(model), fills, strict=True):
        if t.base is Base.OBSTRUCTING and model.setting == "indoor":
            _put(img, tid, _indoor_tile())
        else:
            _put(img, tid, _solid((*rgb, 255)))
    _put(img, TRANSITION_ID, _solid(palette.TRANSITION_TILE_RGBA))
    _put(img, INDOOR_ID, _indoor_tile())
    _put(img, OUTDOOR_ID, _solid((*palette.FILL[Base.OBSTRUCTING], 255)))
    _put(img, ZONE_ID, _zone_tile())
    alphas = palette.elevation_alpha(np.arange(MAX_ELEVATION + 1))
    for level in range(MAX_ELEVATION + 1):
        tile = _solid((*palette.ELEVATION_TINT, int(alphas[level])))
        _draw_number(tile, level, palette.LEVEL_NUMBER_RGBA)
        _put(img, FIRST_LEVEL_ID + level, tile)
    return img


# ------------------------------------------------------------------ drawing
def _put(img: np.ndarray, tid: int, tile: np.ndarray) -> None:
    y, x = divmod(tid, COLUMNS)
    img[y * TILE_PX:(y + 1) * TILE_PX, x * TILE_PX:(x + 1) * TILE_PX] = tile


def _solid(rgba: tuple[int, int, int, int]) -> np.ndarray:
    return np.tile(np.asarray(rgba, np.uint8), (TILE_PX, TILE_PX, 1))


def _over(dst: np.ndarray, mask: np.ndarray, rgba: tuple[int, int, int, int]) -> None:
    """Blend ``rgba`` over the opaque pixels of ``dst`` where ``mask`` is set."""
    a = rgba[3]
    src = np.asarray(rgba[:3], np.int32)
    dst[mask, :3] = ((dst[mask, :3].astype(np.int32) * (255 - a) + src * a) // 255)


def _indoor_tile() -> np.ndarray:
    """Near-black with a white cross-hatch, as the editor draws Indoor obstructions."""
    tile = _solid((*palette.FILL_INDOOR_OBSTRUCTING, 255))
    yy, xx = np.mgrid[0:TILE_PX, 0:TILE_PX]
    _over(tile, ((xx + yy) % 8 == 0) | ((xx - yy) % 8 == 0), palette.INDOOR_HATCH_RGBA)
    return tile


def _zone_tile() -> np.ndarray:
    """A light tint with a dashed outline 2 px inside (the editor draws a zone in
    its team's colour; here every zone layer shares the tile)."""
    tile = _solid((255, 255, 255, palette.START_ZONE_ALPHA))
    yy, xx = np.mgrid[0:TILE_PX, 0:TILE_PX]
    ring = ((xx == 2) | (xx == TILE_PX - 3) | (yy == 2) | (yy == TILE_PX - 3))
    ring &= (xx >= 2) & (xx <= TILE_PX - 3) & (yy >= 2) & (yy <= TILE_PX - 3)
    dashes = ((xx + yy) // 4) % 2 == 0
    tile[ring & dashes] = (40, 40, 40, 200)
    return tile


#: 3x5 pixel digits, one string of 15 bits per digit (rows top to bottom).
_DIGITS = ("111101101101111", "010110010010111", "111001111100111", "111001111001111",
           "101101111001001", "111100111001111", "111100111101111", "111001001001001",
           "111101111101111", "111101111001111")
_SCALE = 2


def _draw_number(tile: np.ndarray, n: int, rgba: tuple[int, int, int, int]) -> None:
    """Write ``n`` centred on ``tile`` (each digit 3x5 pixels, doubled), replacing
    the pixels it covers with ``rgba`` blended over the tile's own colour."""
    text = str(n)
    w = (4 * len(text) - 1) * _SCALE
    h = 5 * _SCALE
    x0, y0 = (TILE_PX - w) // 2, (TILE_PX - h) // 2
    mask = np.zeros((TILE_PX, TILE_PX), bool)
    for i, ch in enumerate(text):
        bits = np.array([b == "1" for b in _DIGITS[int(ch)]]).reshape(5, 3)
        glyph = np.kron(bits, np.ones((_SCALE, _SCALE), bool))
        x = x0 + i * 4 * _SCALE
        mask[y0:y0 + h, x:x + 3 * _SCALE] |= glyph
    under = tile[mask].astype(np.int32)
    a, src = rgba[3], np.asarray(rgba[:3], np.int32)
    # "source over" of two translucent colours, as QPainter draws the number on the shade
    out_a = a + under[:, 3] * (255 - a) // 255
    safe = np.maximum(out_a, 1)[:, None]
    rgb = (src * a + under[:, :3] * under[:, 3:4] * (255 - a) // 255) // safe
    tile[mask, :3] = rgb
    tile[mask, 3] = out_a
