"""Map model -> canonical map document (a dict) -> canonical text.

The text is deterministic: keys in a fixed order, lists sorted (tiles and edges
row-major, characters and objects by id, teams by name), free-form properties
sorted by key, 2-space indentation, and every row string, border, character,
object, legend entry or start zone on one line, so that changing one tile is a
one-line ``git diff``.  See docs/map-format.md.
"""

from __future__ import annotations

import json
import string
from functools import lru_cache
from typing import Any

import numpy as np

from .. import __version__
from ..engine.model import INDOOR_DEFAULT, INDOOR_YES, Edge, MapModel
from ..engine.terrain import TerrainRegistry
from ..engine.terrain_properties import custom_to_json, parse_custom, properties_to_json
from .schemas import map_schema_problems
from .values import lone_surrogates

MAP_FORMAT, PACK_FORMAT = "sodwa-map", "sodwa-mappack"
#: Version 2 (issue 27): terrain types' ``properties`` from the vocabulary and
#: ``custom`` designer properties; ``custom`` on characters, objects and start zones;
#: light ``radius``.  Version 1 files are upgraded on load (:mod:`.upgrade`).
FORMAT_VERSION = 2
#: Map packs: version 2 may carry ``rules`` and ``roster``, version 3 ``scenarios``
#: (and maps of format version 2); version 1 and 2 packs are read as version 3
#: (:func:`.packs.pack_from_doc`).
PACK_FORMAT_VERSION = 3
#: Packs that carry a stamp library (``stamps``, :mod:`.stamp_library`) are version 4,
#: so that an editor without stamps refuses them rather than drop the stamps; the
#: others are still written as version 3.
PACK_STAMPS_VERSION = 4
GENERATOR = f"sodwa-editor {__version__}"

#: Legend characters of the built-in types; special types get the first free
#: character among: their name's first letter (upper, then lower case), the other
#: letters of their name, then :data:`CHAR_POOL`.
DEFAULT_LEGEND = {
    ".": "clear", "i": "impeding", "#": "obstructing", "d": "difficult", "~": "liquid",
}
CHAR_POOL = [c for c in string.ascii_letters + string.digits + string.punctuation
             if c not in '"\\'] + [chr(c) for c in range(0xC0, 0x250)]

MAP_KEYS = (
    "format", "format_version", "generator", "name", "description", "width", "height",
    "setting", "terrain_types", "legend", "terrain", "elevation", "transition_tiles",
    "indoor_overrides", "borders", "start_zones", "start_zone_custom", "characters", "objects",
    "labels", "editor",
)
PACK_KEYS = ("format", "format_version", "generator", "name", "version", "author",
             "description", "rules", "roster", "maps", "stamps")
#: Pack keys laid out as indented JSON (2 spaces), one key per line.
_PACK_BLOCKS = ("rules", "roster")
#: Canonical key order inside list items, per list.
ITEM_KEYS = {
    "terrain_types": ("name", "base", "properties", "custom"),
    "indoor_overrides": ("tile", "indoor"),
    "borders": ("edge", "terrain", "transition", "indoor"),
    "characters": ("id", "team", "x", "y", "move", "range", "flight", "name", "attributes",
                   "custom", "size", "footprint"),
    "objects": ("id", "kind", "x", "y", "impedes_los", "radius", "custom"),
    "labels": ("id", "x", "y", "text", "color", "size"),
}
_EXPANDED = {"terrain_types", "terrain", "elevation", "transition_tiles", "indoor_overrides",
             "borders", "characters", "objects", "legend", "start_zones", "start_zone_custom",
             "labels"}


def legend_chars(registry: TerrainRegistry) -> list[str]:
    """Legend character of every terrain id of ``registry`` (deterministic)."""
    by_name = {name: ch for ch, name in DEFAULT_LEGEND.items()}
    used = set(DEFAULT_LEGEND)
    chars: list[str] = []
    for t in registry:
        if t.builtin:
            chars.append(by_name[t.name])
            continue
        letters = [c for c in t.name if c.isalpha()]
        candidates = [t.name[0].upper(), t.name[0]]
        candidates += [c.upper() for c in letters] + letters + CHAR_POOL
        ch = next(c for c in candidates if c not in used)
        used.add(ch)
        chars.append(ch)
    return chars


def map_to_dict(model: MapModel) -> dict[str, Any]:
    """The canonical map document of ``model``.

    Raises ``ValueError`` for what the format cannot hold (terrain ids missing
    from the registry, characters or objects outside the map, values that are not
    JSON), so a save fails before any file is touched.
    """
    _check_storable(model)
    reg = model.registry
    chars = legend_chars(reg)
    doc: dict[str, Any] = {
        "format": MAP_FORMAT,
        "format_version": FORMAT_VERSION,
        "generator": GENERATOR,
        "name": model.name,
        "description": model.description,
        "width": model.width,
        "height": model.height,
        "setting": model.setting,
        "terrain_types": [_terrain_type(t) for t in reg.special_types()],
        "legend": {ch: t.name for ch, t in zip(chars, reg, strict=True)},
        "terrain": terrain_rows(model.terrain, chars),
    }
    if model.elevation.any():
        doc["elevation"] = elevation_rows(model.elevation)
    doc["transition_tiles"] = [[int(x), int(y)] for y, x in zip(*np.nonzero(model.transition),
                                                                strict=True)]
    ys, xs = np.nonzero(model.tile_indoor != INDOOR_DEFAULT)
    doc["indoor_overrides"] = [
        {"tile": [int(x), int(y)], "indoor": bool(model.tile_indoor[y, x] == INDOOR_YES)}
        for y, x in zip(ys, xs, strict=True)
    ]
    doc["borders"] = _borders(model)
    doc["start_zones"] = {team: [[x, y] for x, y in sorted(tiles, key=lambda t: (t[1], t[0]))]
                          for team, tiles in sorted(model.start_zones.items()) if tiles}
    zone_custom = {team: _custom(c, f"start zone {team!r} custom")
                   for team, c in sorted(model.zone_custom.items()) if c}
    if zone_custom:
        doc["start_zone_custom"] = zone_custom
    doc["characters"] = [_character(model.characters[k]) for k in sorted(model.characters)]
    doc["objects"] = [_object(model.objects[k]) for k in sorted(model.objects)]
    doc.update(annotation_entries(model))
    _check_text(doc)
    _check_schema(doc)
    return doc


def dumps_map(model: MapModel) -> str:
    """Canonical text of ``model`` (what :func:`save_map` writes)."""
    return dumps_map_doc(map_to_dict(model))


def dumps_map_doc(doc: dict[str, Any]) -> str:
    """Canonical layout of a (schema-valid) map document, keeping its list orders."""
    return "\n".join(render_map_doc(doc, 0)) + "\n"


def dumps_pack_doc(pack: dict[str, Any]) -> str:
    """Canonical layout of a (schema-valid) pack document; maps laid out as map files."""
    lines = ["{"]
    keys = _ordered_keys(pack, PACK_KEYS)
    for i, k in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        if k == "maps" and pack[k]:
            lines.append('  "maps": [')
            for j, m in enumerate(pack[k]):
                sub = render_map_doc(m, 4)
                sub[-1] += "," if j < len(pack[k]) - 1 else ""
                lines += sub
            lines.append("  ]" + comma)
        elif k == "stamps" and pack[k]:  # a stamp library (issue 29)
            lines += ['  "stamps": [', *dumps_stamps(pack[k], 4), "  ]" + comma]
        elif k in _PACK_BLOCKS and isinstance(pack[k], dict):
            block = json.dumps(pack[k], ensure_ascii=False, indent=2, allow_nan=False)
            lines.append(f"  {_q(k)}: " + block.replace("\n", "\n  ") + comma)
        else:
            lines.append(f"  {_q(k)}: {_inline(pack[k])}{comma}")
    return "\n".join([*lines, "}"]) + "\n"


#: Key order of a stamp library's entries (:mod:`.stamp_library`).
STAMP_KEYS = ("name", "map", "tiles", "open_edges")


def dumps_stamps(entries: list[dict[str, Any]], indent: int) -> list[str]:
    """The lines of a ``stamps`` list (each map laid out as in a map file)."""
    p = " " * indent
    lines = []
    for i, entry in enumerate(entries):
        lines.append(p + "{")
        keys = [k for k in STAMP_KEYS if k in entry]
        for j, key in enumerate(keys):
            comma = "," if j < len(keys) - 1 else ""
            if key == "map":
                sub = render_map_doc(entry[key], indent + 2)
                sub[0] = f"{p}  \"map\": " + sub[0].lstrip()
                sub[-1] += comma
                lines += sub
            else:
                text = json.dumps(entry[key], ensure_ascii=False, separators=(", ", ": "))
                lines.append(f"{p}  {json.dumps(key)}: {text}{comma}")
        lines.append(p + "}" + ("," if i < len(entries) - 1 else ""))
    return lines


def render_map_doc(doc: dict[str, Any], indent: int) -> list[str]:
    """Lines of one map document, indented by ``indent`` spaces."""
    p = " " * indent
    lines = [p + "{"]
    keys = _ordered_keys(doc, MAP_KEYS)
    for i, k in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        v = doc[k]
        if k in _EXPANDED and isinstance(v, list | dict) and v:
            if isinstance(v, list):
                items = [_item_line(k, it) for it in v]
                open_, close = "[", "]"
            else:
                items = [f"{_q(key)}: {_inline(val)}" for key, val in v.items()]
                open_, close = "{", "}"
            lines.append(f"{p}  {_q(k)}: {open_}")
            lines += [f"{p}    {s}," for s in items[:-1]]
            lines += [f"{p}    {items[-1]}", f"{p}  {close}{comma}"]
        else:
            lines.append(f"{p}  {_q(k)}: {_inline(v)}{comma}")
    lines.append(p + "}")
    return lines


def terrain_rows(terrain: np.ndarray, chars: list[str]) -> list[str]:
    """One string per row, one legend character per tile."""
    table = np.array([ord(c) for c in chars], dtype="<u4")
    h, w = terrain.shape
    text = table[terrain].tobytes().decode("utf-32-le")
    return [text[y * w : (y + 1) * w] for y in range(h)]


def elevation_rows(elevation: np.ndarray) -> list[str]:
    """One string per row of space-separated levels."""
    h, w = elevation.shape
    if elevation.min() >= 0 and elevation.max() < 10:
        codes = np.full((h, 2 * w - 1), ord(" "), dtype="<u4")
        codes[:, 0::2] = elevation + ord("0")
        text = codes.tobytes().decode("utf-32-le")
        n = 2 * w - 1
        return [text[y * n : (y + 1) * n] for y in range(h)]
    return [" ".join(map(str, row)) for row in elevation.tolist()]


# ------------------------------------------------------------------ helpers
def _check_storable(model: MapModel) -> None:
    n = len(model.registry)
    for layer in ("terrain", "border_e", "border_s"):
        arr = getattr(model, layer)
        if arr.size and int(arr.max()) >= n:
            raise ValueError(f"layer {layer} holds terrain id {int(arr.max())}, "
                             f"but only {n} terrain types are declared")
    things = [("character", c.id, c.x, c.y) for c in model.characters.values()]
    things += [("object", o.id, o.x, o.y) for o in model.objects.values()]
    things += [("label", lb.id, lb.x, lb.y) for lb in model.labels.values()]
    things += [("start zone tile of team", team, x, y)
               for team, tiles in model.start_zones.items() for x, y in tiles]
    for what, ident, x, y in things:
        if not model.in_bounds(x, y):
            raise ValueError(f"{what} {ident!r} at ({x}, {y}) is outside the "
                             f"{model.width}x{model.height} map")


#: Parts of a map document that hold free text (the rest is written from the model's
#: arrays and names the schema restricts to ASCII patterns).
_TEXT_KEYS = ("name", "description", "terrain_types", "start_zones", "characters", "objects")
_TEXT_KEYS_OPTIONAL = ("start_zone_custom", "labels", "editor")


def _check_text(doc: dict[str, Any]) -> None:
    """Refuse text that cannot be written as UTF-8 (a lone surrogate), naming where."""
    keys = _TEXT_KEYS + tuple(k for k in _TEXT_KEYS_OPTIONAL if k in doc)
    problems = [p for k in keys for p in lone_surrogates(doc[k], k)]
    if problems:
        listed = "; ".join(f"{p.location()}: {p.message}" for p in problems[:5])
        raise ValueError(f"the map holds text that cannot be stored: {listed}")


def _check_schema(doc: dict[str, Any]) -> None:
    """Refuse a document the map schema would reject on the next load (e.g. a name
    longer than the schema allows), naming every offending field."""
    problems = map_schema_problems(doc)
    if problems:
        listed = "; ".join(f"{p.location()}: {p.message}" for p in problems[:5])
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise ValueError(f"the map would not load again: {listed}{more}")


def edge_layers(model: MapModel, side: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Border-terrain, transition and indoor-override arrays of the ``side`` edges."""
    if side == "E":
        return model.border_e, model.transition_e, model.indoor_e
    return model.border_s, model.transition_s, model.indoor_s


def entry_edges(model: MapModel) -> list[Edge]:
    """Edges that get an entry in ``borders`` (border terrain, transition or indoor
    flag), in file order: row-major by tile, ``E`` before ``S``."""
    w = model.width
    found: list[tuple[int, Edge]] = []
    for rank, side in enumerate(("E", "S")):
        b, t, ind = edge_layers(model, side)
        ys, xs = np.nonzero((b != 0) | t | (ind != INDOOR_DEFAULT))
        found += [((y * w + x) * 2 + rank, Edge(x, y, side))  # type: ignore[arg-type]
                  for y, x in zip(ys.tolist(), xs.tolist(), strict=True)]
    found.sort()
    return [e for _, e in found]


def _borders(model: MapModel) -> list[dict[str, Any]]:
    names = [t.name for t in model.registry]
    arrays = {side: edge_layers(model, side) for side in ("E", "S")}
    out = []
    for edge in entry_edges(model):
        x, y, side = edge
        b, t, ind = arrays[side]
        entry: dict[str, Any] = {"edge": [x, y, side]}
        if b[y, x]:
            entry["terrain"] = names[int(b[y, x])]
        if t[y, x]:
            entry["transition"] = True
        if ind[y, x] != INDOOR_DEFAULT:
            entry["indoor"] = bool(ind[y, x] == INDOOR_YES)
        out.append(entry)
    return out


def _terrain_type(t: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": t.name, "base": t.base.label}
    if t.properties:
        entry["properties"] = properties_to_json(t.properties)
    if t.custom:
        entry["custom"] = _custom(t.custom, f"terrain type {t.name!r} custom")
    return entry


def _custom(custom: Any, what: str) -> dict[str, Any]:
    """The file form of custom properties (ValueError naming ``what`` if one is bad)."""
    return custom_to_json(parse_custom(dict(custom), what))


def _character(c: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": c.id, "team": c.team, "x": int(c.x), "y": int(c.y),
                             "move": int(c.move), "range": int(c.range),
                             "flight": bool(c.flight)}
    if c.name:
        entry["name"] = c.name
    if c.attributes:
        entry["attributes"] = {k: int(v) for k, v in sorted(c.attributes.items())}
    if c.custom:
        entry["custom"] = _custom(c.custom, f"character {c.id!r} custom")
    if c.size != "medium":
        entry["size"] = c.size
    if c.footprint is not None:
        entry["footprint"] = [int(c.footprint[0]), int(c.footprint[1])]
    return entry


def annotation_entries(model: MapModel) -> dict[str, Any]:
    """The map's ``labels`` and ``editor`` keys (issue 29), each only when it holds
    something, so maps without them are written as before."""
    out: dict[str, Any] = {}
    if model.labels:
        out["labels"] = [_label(model.labels[k]) for k in sorted(model.labels)]
    ref = model.reference_image
    if ref is not None:
        out["editor"] = {"reference_image": {
            "path": ref.path, "opacity": float(ref.opacity), "scale": float(ref.scale),
            "offset": [float(ref.offset_x), float(ref.offset_y)]}}
    return out


def _label(lb: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": lb.id, "x": int(lb.x), "y": int(lb.y), "text": lb.text}
    if lb.color:
        entry["color"] = lb.color
    if lb.size:
        entry["size"] = int(lb.size)
    return entry


def _object(o: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": o.id, "kind": o.kind, "x": int(o.x), "y": int(o.y),
                             "impedes_los": bool(o.impedes_los)}
    if o.kind == "light" or o.radius != 1:
        entry["radius"] = int(o.radius)
    if o.custom:
        entry["custom"] = _custom(o.custom, f"object {o.id!r} custom")
    return entry


def _ordered_keys(doc: dict[str, Any], order: tuple[str, ...]) -> list[str]:
    return [k for k in order if k in doc] + sorted(k for k in doc if k not in order)


_BOOL = {True: "true", False: "false"}


def _border_line(b: Any) -> str | None:
    """Fast layout of a well-formed border entry (None: use the general path)."""
    edge = b.get("edge") if type(b) is dict else None
    if type(edge) is not list or len(edge) != 3 or not b.keys() <= _BORDER_KEYS:
        return None
    x, y, side = edge
    if type(x) is not int or type(y) is not int or side not in ("E", "S"):
        return None
    line = f'{{"edge": [{x}, {y}, "{side}"]'
    if "terrain" in b:
        if type(b["terrain"]) is not str:
            return None
        line += f', "terrain": {_q_name(b["terrain"])}'
    for k in ("transition", "indoor"):
        if k in b:
            if type(b[k]) is not bool:
                return None
            line += f', "{k}": {_BOOL[b[k]]}'
    return line + "}"


_BORDER_KEYS = frozenset(ITEM_KEYS["borders"])


def _item_line(key: str, item: Any) -> str:
    if key == "borders":
        line = _border_line(item)
        if line is not None:
            return line
    order = ITEM_KEYS.get(key)
    if order is not None and isinstance(item, dict):
        item = {k: item[k] for k in _ordered_keys(item, order)}
    return _inline(item)


def _inline(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), allow_nan=False)


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


@lru_cache(maxsize=1024)
def _q_name(name: str) -> str:
    return _q(name)


def map_hashes(model: MapModel) -> tuple[str, str]:
    """The hash a replay names its map by (``sha256:`` of the map's canonical JSON) and
    the hash the same map had when written in format version 1: a replay recorded
    before version 2 still matches a map that holds nothing version 1 could not (a map
    with a version-2 key never matches it, as no version-1 file had one)."""
    from ..battle.replay import digest

    doc = map_to_dict(model)
    return digest(doc), digest({**doc, "format_version": 1})
