"""Reading a Tiled map (``.tmj``) for :mod:`.tiled_import`: the map's frame, its
tilesets (embedded, ``.tsj`` or ``.tsx`` files beside it) with each tile's typed
properties by gid, its layers (groups flattened) and their tile data (CSV arrays
or base64, uncompressed, zlib or gzip), with the flip bits of every gid masked.

Tiled 1.8 writes control characters inside JSON strings unescaped (U+0001 as
a raw byte: invalid JSON), so Tiled files are read leniently there.

Problems name the Tiled file and the JSON pointer (``/layers/3``) or, in a
``.tsx``, the tile.  Code ``tiled`` marks what cannot be read or mapped.
"""

from __future__ import annotations

import base64
import gzip
import math
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import numpy as np

from ..engine.model import MAX_SIDE
from .files import parse_json, read_text
from .problems import Problem, error, pointer
from .tiled_props import PropertyError, read_properties

#: Tiled's flags in the top bits of a gid: flipped horizontally, vertically,
#: diagonally, rotated 120 degrees (hexagonal).  The tile is the same tile.
FLIP_BITS = 0xF0000000
GID_MASK = 0x0FFFFFFF
CODE = "tiled"

Props = dict[str, tuple[str, Any]]


@dataclass
class Tile:
    """A tile of a tileset that carries a class or properties."""

    gid: int
    props: Props
    source: str  # the file that declares it
    where: str  # JSON pointer in that file (or the tile in a .tsx)
    label: str  # "tile 12 of tileset 'sodwa'"


@dataclass
class Layer:
    """A layer of the map (from a group too): its document and JSON pointer."""

    doc: dict[str, Any]
    where: str

    @property
    def name(self) -> str:
        return str(self.doc.get("name", ""))

    @property
    def kind(self) -> str:
        return str(self.doc.get("type", ""))

    @property
    def label(self) -> str:
        return f"layer {self.name!r} (id {self.doc.get('id', '?')})"


@dataclass
class TiledMap:
    """What :func:`read_tiled` found in a Tiled map file."""

    source: str
    doc: dict[str, Any]
    width: int
    height: int
    tile_w: float
    tile_h: float
    tiles: dict[int, Tile] = field(default_factory=dict)
    #: (firstgid, tile count, name) of each tileset, in gid order
    ranges: list[tuple[int, int, str]] = field(default_factory=list)
    layers: list[Layer] = field(default_factory=list)
    inputs: list[Path] = field(default_factory=list)


def read_tiled(path: Path) -> tuple[TiledMap | None, list[Problem]]:
    """The map, tilesets and layers of a Tiled map file, or problems saying why not."""
    src = str(path)
    text, problems = read_text(path)
    if text is None:
        return None, problems
    doc, problems = parse_json(text, source=src, strict=False)
    if problems:
        return None, problems
    found = _frame_problems(doc)
    if found:
        return None, [p.located(source=src) for p in found]
    tiled = TiledMap(src, doc, doc["width"], doc["height"], doc["tilewidth"], doc["tileheight"],
                     inputs=[path])
    problems = []
    for i, ts in enumerate(doc.get("tilesets") or []):
        problems += _tileset(tiled, path.parent, ts, pointer("tilesets", i))
    tiled.ranges.sort()
    tiled.layers = list(_layers(doc.get("layers"), "", problems, src))
    return tiled, problems


def _frame_problems(doc: Any) -> list[Problem]:
    if not isinstance(doc, dict):
        return [error("not a Tiled map: the file does not hold a JSON object", code=CODE)]
    kind = doc.get("type", "map")
    if kind != "map":
        what = "a Tiled tileset" if kind == "tileset" else f"of type {kind!r}"
        return [error(f"this file is {what}, not a Tiled map", "/type", code=CODE)]
    if doc.get("format") == "sodwa-map":
        return [error("this is a SODWA map, not a Tiled map: open it as a map", "/format",
                      code=CODE)]
    out = []
    if doc.get("orientation") != "orthogonal":
        out.append(error(f"the map is {doc.get('orientation')!r}: SODWA maps are orthogonal "
                         "(Map > Map Properties > Orientation)", "/orientation", code=CODE))
    if doc.get("infinite"):
        out.append(error("the map is infinite: SODWA maps are finite (Map > Map Properties > "
                         "Infinite off)", "/infinite", code=CODE))
    for key in ("width", "height"):
        v = doc.get(key)
        if type(v) is not int or not 1 <= v <= MAX_SIDE:
            out.append(error(f"map {key} {v!r} is outside 1..{MAX_SIDE}", pointer(key),
                             code="size"))
    for key in ("tilewidth", "tileheight"):
        v = doc.get(key)
        if not isinstance(v, int | float) or isinstance(v, bool) or not 0 < v < math.inf:
            out.append(error(f"{key} {v!r} is not a positive size", pointer(key), code=CODE))
    if not isinstance(doc.get("layers", []), list) or not isinstance(doc.get("tilesets", []),
                                                                      list):
        out.append(error("\"layers\" and \"tilesets\" must be lists", code=CODE))
    return out


# --------------------------------------------------------------- tilesets
def _tileset(tiled: TiledMap, folder: Path, entry: Any, where: str) -> list[Problem]:
    src = tiled.source
    if not isinstance(entry, dict) or type(entry.get("firstgid")) is not int \
            or entry["firstgid"] < 1:
        return [error("tileset entry without a whole \"firstgid\" of 1 or more", where,
                      code=CODE).located(source=src)]
    first = entry["firstgid"]
    if "source" not in entry:
        return _json_tileset(tiled, entry, first, src, where)
    file = folder / str(entry["source"])
    tiled.inputs.append(file)
    text, problems = read_text(file)
    if text is None:
        return [error(f"tileset {entry['source']!r}: {p.message}", where + "/source",
                      code=CODE).located(source=src) for p in problems]
    if file.suffix.lower() == ".tsx":
        return _tsx_tileset(tiled, text, first, str(file))
    doc, problems = parse_json(text, source=str(file), strict=False)
    if problems:
        return problems
    if not isinstance(doc, dict):
        return [error("not a Tiled tileset", code=CODE).located(source=str(file))]
    return _json_tileset(tiled, doc, first, str(file), "")


def _json_tileset(tiled: TiledMap, doc: dict[str, Any], first: int, src: str,
                  where: str) -> list[Problem]:
    name = str(doc.get("name", ""))
    raw = doc.get("tiles") or []
    items = list(raw.items()) if isinstance(raw, dict) else list(enumerate(raw))
    problems = []
    last = -1
    for key, tile in items:
        at = pointer(*(p for p in where.split("/")[1:]), "tiles", key)
        tid = int(key) if isinstance(raw, dict) and str(key).isdigit() else (
            tile.get("id") if isinstance(tile, dict) else None)
        if type(tid) is not int or tid < 0:
            problems.append(error("tile without a whole \"id\"", at, code=CODE)
                            .located(source=src))
            continue
        last = max(last, tid)
        try:
            props = read_properties(tile.get("properties"))
        except PropertyError as exc:
            problems.append(error(f"tile {tid} of tileset {name!r}: {exc}", at, code=CODE)
                            .located(source=src))
            continue
        if props:
            tiled.tiles[first + tid] = Tile(first + tid, props, src, at,
                                            f"tile {tid} of tileset {name!r}")
    count = doc.get("tilecount")
    count = count if type(count) is int and count > last else last + 1
    tiled.ranges.append((first, count, name))
    return problems


def _tsx_tileset(tiled: TiledMap, text: str, first: int, src: str) -> list[Problem]:
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        return [error(f"the tileset is not valid XML: {exc}", code=CODE).located(source=src)]
    if root.tag != "tileset":
        return [error("not a Tiled tileset (no <tileset> element)", code=CODE)
                .located(source=src)]
    name = root.get("name", "")
    last = -1
    problems = []
    for tile in root.findall("tile"):
        raw_id = tile.get("id", "")
        where = f"<tile id=\"{raw_id}\">"
        if not raw_id.isdigit():
            problems.append(error(f"{where}: no whole id", code=CODE).located(source=src))
            continue
        tid = int(raw_id)
        last = max(last, tid)
        try:
            props = _tsx_properties(tile.find("properties"))
        except PropertyError as exc:
            problems.append(error(f"{where}: {exc}", code=CODE).located(source=src))
            continue
        if props:
            tiled.tiles[first + tid] = Tile(first + tid, props, src, where,
                                            f"tile {tid} of tileset {name!r}")
    count_text = root.get("tilecount", "")
    count = int(count_text) if count_text.isdigit() and int(count_text) > last else last + 1
    tiled.ranges.append((first, count, name))
    return problems


def _tsx_properties(node: Any) -> Props:
    out: Props = {}
    if node is None:
        return out
    for p in node.findall("property"):
        name, kind = p.get("name"), p.get("type", "string")
        text = p.get("value", p.text or "")
        if name is None:
            raise PropertyError("a property has no name")
        try:
            value: Any = {"int": int, "float": float, "object": int}.get(kind, str)(text)
        except ValueError:
            raise PropertyError(f"property {name!r} of type {kind} has the value "
                                f"{text!r}") from None
        if kind == "bool":
            if text not in ("true", "false"):
                raise PropertyError(f"property {name!r} of type bool has the value {text!r}")
            value = text == "true"
        if kind == "class":
            value = {}
        out[name] = (kind, value)
    return out


# ----------------------------------------------------------------- layers
def _layers(raw: Any, where: str, problems: list[Problem], src: str) -> Iterator[Layer]:
    for i, layer in enumerate(raw or []):
        at = f"{where}/layers/{i}"
        if not isinstance(layer, dict):
            problems.append(error("a layer that is not a JSON object", at, code=CODE)
                            .located(source=src))
        elif layer.get("type") == "group":
            yield from _layers(layer.get("layers"), at, problems, src)
        else:
            yield Layer(layer, at)


def tile_data(tiled: TiledMap, layer: Layer) -> tuple[np.ndarray | None, list[Problem]]:
    """The ``(height, width)`` gids of a tile layer, flip bits masked."""
    d = layer.doc
    at = layer.where

    def fail(msg: str, key: str = "") -> tuple[None, list[Problem]]:
        return None, [error(f"{layer.label}: {msg}", at + key, code=CODE)
                      .located(source=tiled.source)]

    if d.get("width", tiled.width) != tiled.width or d.get("height", tiled.height) != tiled.height:
        return fail(f"is {d.get('width')}x{d.get('height')} tiles, the map "
                    f"{tiled.width}x{tiled.height}")
    if "chunks" in d:
        return fail("holds chunks (an infinite map's layer)", "/chunks")
    data = d.get("data", [])
    if d.get("encoding") == "base64":
        try:
            raw = base64.b64decode(str(data), validate=True)
            comp = d.get("compression") or ""
            if comp == "zlib":
                raw = zlib.decompress(raw)
            elif comp == "gzip":
                raw = gzip.decompress(raw)
            elif comp:
                return fail(f"{comp} compression is not supported: save the map with the tile "
                            "layer format CSV, Base64 (uncompressed), zlib or gzip",
                            "/compression")
        except (ValueError, zlib.error, OSError, EOFError) as exc:
            return fail(f"its base64 tile data cannot be read: {exc}", "/data")
        if len(raw) != 4 * tiled.width * tiled.height:
            return fail(f"has {len(raw) // 4} tiles of data, the map "
                        f"{tiled.width * tiled.height}", "/data")
        gids = np.frombuffer(raw, "<u4").astype(np.int64)
    else:
        if not isinstance(data, list) or len(data) != tiled.width * tiled.height:
            n = len(data) if isinstance(data, list) else "no"
            return fail(f"has {n} tiles of data, the map {tiled.width * tiled.height}", "/data")
        if not all(type(v) is int and 0 <= v < 2**32 for v in data):
            return fail("its data holds a value that is not a gid", "/data")
        gids = np.asarray(data, np.int64)
    return (gids & GID_MASK).reshape(tiled.height, tiled.width), []


def tileset_of(tiled: TiledMap, gid: int) -> tuple[str, int] | None:
    """The name and firstgid of the tileset holding ``gid`` (None: no tileset has it)."""
    for first, count, name in reversed(tiled.ranges):
        if first <= gid:
            return (name, first) if gid < first + count else None
    return None
