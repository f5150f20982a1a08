"""Map document (parsed JSON) -> :class:`MapModel`, reporting every problem on the way.

Stages, each reporting all it finds and stopping the load if it found errors:

1. format marker and format version (a friendly message for packs, other files
   and files from newer editors);
2. the JSON Schema (:mod:`.schemas`);
3. the *document* checks below, done on the dicts before anything of the map's
   size is allocated: row counts and lengths against width/height, legend and
   terrain names, coordinates inside the map, duplicate ids and edges.

Game-rule checks on the built model are in :mod:`.checks`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.annotations import Label, ReferenceImage
from ..engine.model import (
    INDOOR_DEFAULT,
    INDOOR_NO,
    INDOOR_YES,
    Character,
    Edge,
    MapModel,
    MapObject,
    check_size,
)
from ..engine.sizes import Footprint
from ..engine.terrain import BORDER_BASES, Base, TerrainRegistry
from ..engine.terrain_properties import parse_custom
from .encode import (
    DEFAULT_LEGEND,
    FORMAT_VERSION,
    MAP_FORMAT,
    PACK_FORMAT,
    PACK_STAMPS_VERSION,
    edge_layers,
)
from .problems import Problem, capped, edge_label, error, has_errors, pointer, warning
from .schemas import map_schema_problems
from .upgrade import upgrade_map_doc

_FORMAT_NAMES = {MAP_FORMAT: "a map", PACK_FORMAT: "a map pack"}


def format_problems(doc: object, expected: str) -> list[Problem]:
    """Problems with the ``format`` marker and ``format_version`` of a document."""
    what = _FORMAT_NAMES[expected]
    if not isinstance(doc, dict):
        kind = ("a list" if isinstance(doc, list) else "a string" if isinstance(doc, str)
                else "a plain value")
        return [error(f"the file holds {kind}, but {what} file holds a JSON object {{...}}",
                      code="format")]
    fmt = doc.get("format")
    if fmt != expected:
        if isinstance(fmt, str) and fmt in _FORMAT_NAMES:
            msg = f"this file is {_FORMAT_NAMES[fmt]}, not {what}"
        elif fmt is None:
            msg = f"missing \"format\": not a SODWA file (expected \"format\": \"{expected}\")"
        else:
            msg = f"unknown format {fmt!r} (expected {expected!r})"
        return [error(msg, "/format", code="format")]
    newest = PACK_STAMPS_VERSION if expected == PACK_FORMAT else FORMAT_VERSION
    version = doc.get("format_version")
    if "format_version" not in doc:
        return [error(f"missing \"format_version\" (this editor reads version "
                      f"{newest})", "/format_version", code="format")]
    if isinstance(version, bool) or not isinstance(version, int):
        return [error(f"\"format_version\" must be a whole number (this editor reads version "
                      f"{newest}), not {version!r}", "/format_version", code="format")]
    if version > newest:
        return [error(f"written by a newer SODWA Editor (format version {version}); this "
                      f"editor reads version {newest}: please update", "/format_version",
                      code="format-version")]
    if version < 1:
        return [error(f"invalid format version {version}", "/format_version",
                      code="format-version")]
    return []


def decode_map(doc: object, *, schema_checked: bool = False
               ) -> tuple[MapModel | None, list[Problem]]:
    """Build the model of a map document; ``None`` when the document has errors."""
    problems = format_problems(doc, MAP_FORMAT)
    if problems:
        return None, problems
    assert isinstance(doc, dict)
    doc, notes = upgrade_map_doc(doc)
    if not has_errors(notes) and not schema_checked:
        notes += map_schema_problems(doc)
    if has_errors(notes):
        return None, notes
    model, problems = _Builder(doc).build()
    return model, notes + problems


class _Builder:
    """Document checks and model construction for one schema-valid map document."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.w: int = doc["width"]
        self.h: int = doc["height"]
        self.problems: list[Problem] = []

    def add(self, problems: Any) -> None:
        self.problems.extend(capped(problems))

    def build(self) -> tuple[MapModel | None, list[Problem]]:
        try:
            check_size(self.w, self.h)
        except ValueError as exc:
            return None, [error(str(exc), "/width", code="size")]
        registry = self._registry()
        legend = self._legend(registry)
        terrain = self._terrain(legend)
        elevation = self._elevation()
        self.add(self._tile_list("transition_tiles", "transition tile"))
        indoor = self._indoor_overrides()
        borders = self._borders(registry)
        self.add(self._zones())
        self.add(self._things("characters", "character"))
        self.add(self._things("objects", "object"))
        self.add(self._things("labels", "label"))
        if has_errors(self.problems) or terrain is None:
            return None, self.problems
        return self._model(registry, terrain, elevation, indoor, borders), self.problems

    # ------------------------------------------------------------- registry
    def _registry(self) -> TerrainRegistry:
        reg = TerrainRegistry()
        for i, t in enumerate(self.doc.get("terrain_types", [])):
            name = t["name"]
            where = pointer("terrain_types", i, "name")
            if name in reg:
                builtin = reg[reg.id_of(name)].builtin
                msg = (f"terrain type {name!r} is built in and cannot be redeclared" if builtin
                       else f"terrain type {name!r} is declared twice")
                self.problems.append(error(msg, where, code="duplicate-terrain-type"))
                continue
            try:
                reg.register(name, Base[t["base"].upper()], t.get("properties", {}),
                             custom=t.get("custom", {}))
            except ValueError as exc:
                self.problems.append(error(str(exc), where, code="terrain-type"))
        return reg

    def _legend(self, reg: TerrainRegistry) -> dict[str, int]:
        """Legend character -> terrain id; a character naming an unknown terrain is
        reported here and maps to -1 (so its tiles are not reported again)."""
        legend = self.doc.get("legend", DEFAULT_LEGEND)
        out: dict[str, int] = {}
        for ch, name in legend.items():
            if name in reg:
                out[ch] = reg.id_of(name)
            else:
                out[ch] = -1
                self.problems.append(error(
                    f"legend character {ch!r} names unknown terrain type {name!r} "
                    f"(known: {', '.join(t.name for t in reg)})",
                    pointer("legend", ch), code="unknown-terrain"))
        return out

    # ---------------------------------------------------------- dense layers
    def _rows_fit(self, key: str, rows: list[str], lengths: list[int], unit: str) -> bool:
        ok = True
        if len(rows) != self.h:
            ok = False
            self.problems.append(error(
                f"{key} has {len(rows)} row(s), but the map is {self.h} tile(s) high",
                pointer(key), code="row-count"))
        self.add(
            error(f"{key} row {y} has {n} {unit}, but the map is {self.w} tile(s) wide",
                  pointer(key, y), code="row-length")
            for y, n in enumerate(lengths) if n != self.w
        )
        return ok and all(n == self.w for n in lengths)

    def _terrain(self, legend: dict[str, int]) -> np.ndarray | None:
        rows: list[str] = self.doc["terrain"]
        if not self._rows_fit("terrain", rows, [len(r) for r in rows], "tile(s)"):
            return None
        text = "".join(rows).encode("utf-32-le", "surrogatepass")
        codes = np.frombuffer(text, dtype="<u4").reshape(self.h, self.w)
        keys = np.array([ord(c) for c in legend] or [0], dtype=np.int64)
        lut = np.full(int(keys.max()) + 2, -2, dtype=np.int16)  # -2: not in the legend
        lut[keys[: len(legend)]] = list(legend.values())
        ids = lut[np.minimum(codes, lut.size - 1)]
        bad_y, bad_x = np.nonzero(ids == -2)
        self.add(
            error(f"unknown terrain character {rows[y][x]!r} at tile ({x}, {y}) "
                  "(not in the legend)", pointer("terrain", y), code="unknown-terrain-char",
                  tile=(x, y))
            for y, x in zip(bad_y.tolist(), bad_x.tolist(), strict=True)
        )
        return ids.astype(np.uint8) if (ids >= 0).all() else None

    def _elevation(self) -> np.ndarray | None:
        rows: list[str] | None = self.doc.get("elevation")
        if rows is None:
            return None
        lengths = [r.count(" ") + 1 for r in rows]
        if not self._rows_fit("elevation", rows, lengths, "level(s)"):
            return None
        values = np.fromstring(" ".join(rows), dtype=np.int16, sep=" ")
        if values.size != self.w * self.h:  # pragma: no cover - excluded by the schema pattern
            self.problems.append(error("elevation rows could not be read", "/elevation",
                                       code="elevation"))
            return None
        return values.reshape(self.h, self.w)

    # --------------------------------------------------------- sparse layers
    def _outside(self, x: int, y: int) -> bool:
        return not (0 <= x < self.w and 0 <= y < self.h)

    def _where(self, x: int, y: int) -> str:
        return f"tile ({x}, {y}) is outside the {self.w}x{self.h} map"

    def _tile_list(self, key: str, what: str) -> Any:
        seen: dict[tuple[int, int], int] = {}
        for i, (x, y) in enumerate(self.doc.get(key, [])):
            if self._outside(x, y):
                yield error(f"{what}: {self._where(x, y)}", pointer(key, i), code="outside",
                            tile=(x, y))
            elif (x, y) in seen:
                yield warning(f"{what} ({x}, {y}) is listed twice (also "
                              f"{pointer(key, seen[(x, y)])})", pointer(key, i),
                              code="duplicate-tile", tile=(x, y))
            seen.setdefault((x, y), i)

    def _indoor_overrides(self) -> dict[tuple[int, int], bool]:
        out: dict[tuple[int, int], bool] = {}
        found = []
        for i, entry in enumerate(self.doc.get("indoor_overrides", [])):
            x, y = entry["tile"]
            where = pointer("indoor_overrides", i)
            if self._outside(x, y):
                found.append(error(f"indoor override: {self._where(x, y)}", where,
                                   code="outside", tile=(x, y)))
            elif (x, y) in out and out[(x, y)] != entry["indoor"]:
                found.append(error(f"tile ({x}, {y}) has two contradicting indoor overrides",
                                   where, code="duplicate-tile", tile=(x, y)))
            out[(x, y)] = entry["indoor"]
        self.add(found)
        return out

    def _borders(self, reg: TerrainRegistry) -> dict[str, list[list[int]]]:
        """Per side, the columns ``[ys, xs, terrain ids, transition, indoor codes]``."""
        out: dict[str, list[list[int]]] = {"E": [[], [], [], [], []], "S": [[], [], [], [], []]}
        seen: dict[tuple[int, int, str], int] = {}
        found: list[Problem] = []
        ids = {t.name: i for i, t in enumerate(reg)}
        can_border = {i for i, t in enumerate(reg) if t.base in BORDER_BASES}
        w, h = self.w, self.h
        indoor_code = {None: INDOOR_DEFAULT, True: INDOOR_YES, False: INDOOR_NO}
        for i, b in enumerate(self.doc.get("borders", [])):
            key = x, y, side = tuple(b["edge"])
            inside = (0 <= x < w - 1 and 0 <= y < h) if side == "E" else (
                0 <= x < w and 0 <= y < h - 1)
            first = seen.setdefault(key, i) if inside else i
            name = b.get("terrain")
            tid = 0 if name is None else ids.get(name, -1)
            transition = b.get("transition", False)
            indoor = b.get("indoor")
            ok = (transition or indoor is not None) if name is None else tid in can_border
            if ok and inside and first == i:
                cols = out[side]
                cols[0].append(y)
                cols[1].append(x)
                cols[2].append(tid)
                cols[3].append(transition)
                cols[4].append(indoor_code[indoor])
                continue
            found.append(self._border_problem(reg, i, Edge(x, y, side), inside, first, tid))
        self.add(found)
        return out

    def _border_problem(self, reg: TerrainRegistry, i: int, edge: Edge, inside: bool,
                        first: int, tid: int) -> Problem:
        where = pointer("borders", i)
        if not inside:
            return error(self._edge_outside_message(edge), where + "/edge", code="outside",
                         edge=edge)
        if first != i:
            return error(f"edge {edge_label(edge)} is listed twice "
                         f"(also {pointer('borders', first)})",
                         where + "/edge", code="duplicate-edge", edge=edge)
        name = self.doc["borders"][i].get("terrain")
        if tid < 0:
            return error(f"border on edge {edge_label(edge)} has unknown terrain type {name!r}",
                         where + "/terrain", code="unknown-terrain", edge=edge)
        if name is not None:
            return error(f"terrain {name!r} (base {reg[tid].base.label}) cannot be a border: "
                         "borders are Obstructing, Impeding, Difficult or Liquid",
                         where + "/terrain", code="border-base", edge=edge)
        return warning(f"border entry for edge {edge_label(edge)} carries no terrain, "
                       "transition or indoor flag and is ignored", where, code="empty-border",
                       edge=edge)

    def _edge_outside_message(self, e: Edge) -> str:
        if self._outside(e.x, e.y):
            return f"edge {edge_label(e)}: {self._where(e.x, e.y)}"
        side = "east" if e.side == "E" else "south"
        return (f"edge {edge_label(e)}: the {side} side of tile ({e.x}, {e.y}) is the map's outer "
                "boundary, which has no edges")

    def _zones(self) -> Any:
        for team, tiles in self.doc.get("start_zones", {}).items():
            yield from self._tile_list_of(team, tiles)

    def _tile_list_of(self, team: str, tiles: list[list[int]]) -> Any:
        seen: set[tuple[int, int]] = set()
        for j, (x, y) in enumerate(tiles):
            where = pointer("start_zones", team, j)
            if self._outside(x, y):
                yield error(f"start zone of team {team!r}: {self._where(x, y)}", where,
                            code="outside", tile=(x, y))
            elif (x, y) in seen:
                yield warning(f"start zone of team {team!r} lists tile ({x}, {y}) twice",
                              where, code="duplicate-tile", tile=(x, y))
            seen.add((x, y))

    def _things(self, key: str, what: str) -> Any:
        seen: dict[str, int] = {}
        for i, t in enumerate(self.doc.get(key, [])):
            ident, x, y = t["id"], t["x"], t["y"]
            if ident in seen:
                yield error(f"duplicate {what} id {ident!r} (also {pointer(key, seen[ident])})",
                            pointer(key, i, "id"), code="duplicate-id")
            seen.setdefault(ident, i)
            if self._outside(x, y):
                yield error(f"{what} {ident!r}: {self._where(x, y)}", pointer(key, i),
                            code="outside", tile=(x, y))

    # ----------------------------------------------------------------- model
    def _model(self, reg: TerrainRegistry, terrain: np.ndarray, elevation: np.ndarray | None,
               indoor: dict[tuple[int, int], bool],
               borders: dict[str, list[list[int]]]) -> MapModel:
        d = self.doc
        m = MapModel(self.w, self.h, name=d["name"], setting=d.get("setting", "outdoor"),
                     registry=reg)
        m.description = d.get("description", "")
        m.terrain[:] = terrain
        if elevation is not None:
            m.elevation[:] = elevation
        for x, y in d.get("transition_tiles", []):
            m.transition[y, x] = True
        for (x, y), flag in indoor.items():
            m.tile_indoor[y, x] = INDOOR_YES if flag else INDOOR_NO
        for side, (ys, xs, tids, transition, indoor_codes) in borders.items():
            b, t, ind = edge_layers(m, side)
            b[ys, xs] = tids
            t[ys, xs] = transition
            ind[ys, xs] = indoor_codes
        for team, tiles in d.get("start_zones", {}).items():
            m.start_zones[team] = {(x, y) for x, y in tiles}
        for c in d.get("characters", []):
            m.characters[c["id"]] = Character(
                c["id"], c["team"], c["x"], c["y"], move=c.get("move", 5),
                range=c.get("range", 5), flight=c.get("flight", False), name=c.get("name", ""),
                attributes=dict(c.get("attributes", {})), custom=parse_custom(c.get("custom", {})),
                size=c.get("size", "medium"),
                footprint=Footprint(*c["footprint"]) if "footprint" in c else None)
        for o in d.get("objects", []):
            m.objects[o["id"]] = MapObject(o["id"], o["kind"], o["x"], o["y"],
                                           impedes_los=o.get("impedes_los", True),
                                           custom=parse_custom(o.get("custom", {})),
                                           radius=o.get("radius", 1))
        m.zone_custom = {team: dict(parse_custom(c)) for team, c in
                         d.get("start_zone_custom", {}).items() if c}
        for lb in d.get("labels", []):  # annotations: never read by the rules
            m.labels[lb["id"]] = Label(lb["id"], lb["x"], lb["y"], lb["text"],
                                       lb.get("color", ""), lb.get("size", 0))
        ref = d.get("editor", {}).get("reference_image")
        if ref is not None:
            ox, oy = ref.get("offset", [0.0, 0.0])
            m.reference_image = ReferenceImage(ref["path"], float(ref.get("opacity", 0.5)),
                                               float(ref.get("scale", 1.0)), float(ox), float(oy))
        return m
