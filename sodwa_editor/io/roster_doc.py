"""A roster document being edited: where it came from, its columns, checked edits, saving.

No Qt: the roster editor (:mod:`sodwa_editor.editor.roster_editor`) holds one of these
documents and pushes each edit as an undo command; everything it needs to know about
rosters is here.

* Where: the shipped roster, a roster file, or a map pack's ``roster``
  (:func:`open_roster`; a pack without one starts from the shipped roster).
* Columns: generated from ``schemas/roster.schema.json`` (:func:`roster_columns`), so a
  key added to the archetype or to its sheet appears without code changes.
* Checks: every edit is checked by the battle's own loader
  (:func:`~sodwa_editor.battle.sheet.roster_from_dict`): the message is the same one
  line ``sodwa battle`` prints for the file (:func:`problem`).
* Saving: a roster file, or into a map pack (the pack read and checked, its roster
  replaced, written back through :func:`~.packs.save_pack`); both write a temporary file
  and rename it, so a failed save leaves the previous file as it was.

>>> doc = open_roster(None)
>>> doc.source.kind, len(doc.doc["characters"]) > 1
('default', True)
>>> health = column_by_key("attributes.health")
>>> problem(with_value(doc.doc, 0, health, 0), doc.name)
'roster.json: characters[0].attributes.health: 0 is less than the minimum of 1'
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from ..battle.jsonfiles import BattleInputError, load_schema, read_json
from ..battle.sheet import DEFAULT_ROSTER_PATH, ROSTER_VERSION, Roster, roster_from_dict
from ..engine.model import Character
from .encode import PACK_FORMAT
from .files import PathLike, atomic_write_text
from .packs import read_pack, save_pack
from .problems import MapSaveError, has_errors

ROSTER_FORMAT = "sodwa-roster"
#: What a cell holds; ``json``: an array or object, edited as JSON text.
CellType = Literal["integer", "number", "boolean", "string", "json"]
#: The value of an emptied optional cell: the key is left out.
ABSENT: Any = None


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the archetype table: the key path in an archetype, its title and
    what the schema says of its values."""

    path: tuple[str, ...]
    title: str
    type: CellType
    required: bool
    description: str = ""
    minimum: float | None = None
    maximum: float | None = None
    enum: tuple[Any, ...] = ()
    #: the schema's ``default``, as a one-item tuple (empty: the schema gives none)
    default: tuple[Any, ...] = ()

    @property
    def key(self) -> str:
        return ".".join(self.path)


def _resolve(schema: Mapping[str, Any], node: Mapping[str, Any]) -> Mapping[str, Any]:
    while "$ref" in node:
        ref = node["$ref"]
        if not ref.startswith("#/"):
            raise ValueError(f"roster schema: $ref {ref!r} is not local")
        found: Any = schema
        for part in ref[2:].split("/"):
            found = found[part]
        node = {**found, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


_SIMPLE: dict[str, CellType] = {"integer": "integer", "number": "number",
                                "boolean": "boolean", "string": "string"}


def _cell_type(node: Mapping[str, Any]) -> CellType:
    kind = node.get("type")
    if isinstance(kind, list):  # e.g. ["integer", "null"]: the first that is not null
        kind = next((k for k in kind if k != "null"), "string")
    if isinstance(kind, str) and kind in _SIMPLE:
        return _SIMPLE[kind]
    if kind is None and "enum" in node and all(isinstance(v, str) for v in node["enum"]):
        return "string"
    return "json"


def _title(key: str) -> str:
    return key.replace("_", " ").title()


def _columns(schema: Mapping[str, Any], node: Mapping[str, Any]) -> tuple[Column, ...]:
    """The columns of the keys of an object schema, an object of keys spread out."""
    out: list[Column] = []

    def add(path: tuple[str, ...], sub: Mapping[str, Any], required: bool) -> None:
        sub = _resolve(schema, sub)
        if sub.get("type") == "object" and "properties" in sub:
            need = set(sub.get("required", ()))
            for key, inner in sub["properties"].items():
                add((*path, key), inner, required and key in need)
            return
        out.append(Column(path, _title(path[-1]), _cell_type(sub), required,
                          sub.get("description", ""), sub.get("minimum"),
                          sub.get("maximum"), tuple(sub.get("enum", ())),
                          (sub["default"],) if "default" in sub else ()))

    node = _resolve(schema, node)
    need = set(node.get("required", ()))
    for key, sub in node["properties"].items():
        add((key,), sub, key in need)
    return tuple(out)


def roster_columns(schema: Mapping[str, Any] | None = None) -> tuple[Column, ...]:
    """The table's columns: each key of an archetype in the schema's order, an object of
    keys (the ``attributes`` sheet) spread into one column per key.

    >>> [c.key for c in roster_columns()][:6]
    ['name', 'move', 'range', 'flight', 'damage_type', 'attributes.health']
    """
    schema = schema if schema is not None else load_schema("roster")
    return _columns(schema, schema["$defs"]["archetype"])


def ability_columns(schema: Mapping[str, Any] | None = None) -> tuple[Column, ...]:
    """The columns of an archetype's ``abilities`` entries (the schema's ability keys).

    >>> [c.key for c in ability_columns()][:3]
    ['name', 'area', 'damage']
    """
    schema = schema if schema is not None else load_schema("roster")
    listed = _resolve(schema, schema["$defs"]["archetype"]["properties"]["abilities"])
    return _columns(schema, listed["items"])


@cache
def _default_columns() -> tuple[Column, ...]:
    return roster_columns()


def column_by_key(key: str) -> Column:
    """The column of a dotted key (``attributes.health``)."""
    for c in _default_columns():
        if c.key == key:
            return c
    raise KeyError(f"the roster schema has no archetype key {key!r}")


def _entry(doc: Mapping[str, Any], row: int, ability: int | None) -> Any:
    entry = doc["characters"][row]
    return entry if ability is None else entry["abilities"][ability]


def cell_value(doc: Mapping[str, Any], row: int, column: Column,
               ability: int | None = None) -> Any:
    """The value of ``column`` in archetype ``row`` (or in its ability ``ability``);
    ``ABSENT`` when it is left out."""
    node: Any = _entry(doc, row, ability)
    for part in column.path:
        if not isinstance(node, Mapping) or part not in node:
            return ABSENT
        node = node[part]
    return node


def cell_text(value: Any, column: Column) -> str:
    """A value as the cell shows and edits it."""
    if value is ABSENT:
        return ""
    if column.type == "json":
        return json.dumps(value, ensure_ascii=False)
    if column.type == "boolean":
        return "yes" if value else "no"
    return str(value)


def parse_cell(text: str, column: Column) -> Any:
    """The value typed into a cell; :class:`ValueError` with one line naming the column.

    >>> parse_cell(" 12 ", column_by_key("attributes.health"))
    12
    >>> parse_cell("12.5", column_by_key("move"))
    Traceback (most recent call last):
    ...
    ValueError: Move: '12.5' is not a whole number
    """
    raw = text.strip()
    if not raw:
        if column.required:
            raise ValueError(f"{column.title}: a value is required")
        return ABSENT
    if column.type == "integer":
        try:
            return int(raw)
        except ValueError:
            raise ValueError(f"{column.title}: {raw!r} is not a whole number") from None
    if column.type == "number":
        try:
            return float(raw)
        except ValueError:
            raise ValueError(f"{column.title}: {raw!r} is not a number") from None
    if column.type == "boolean":
        if raw.lower() in ("yes", "true", "1", "y"):
            return True
        if raw.lower() in ("no", "false", "0", "n"):
            return False
        raise ValueError(f"{column.title}: {raw!r} is not yes or no")
    if column.type == "json":
        try:
            return json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{column.title}: invalid JSON at column {exc.colno}: "
                             f"{exc.msg}") from None
    return text  # a string is kept as typed (the schema judges spaces)


def with_value(doc: Mapping[str, Any], row: int, column: Column, value: Any,
               ability: int | None = None) -> dict[str, Any]:
    """A copy of ``doc`` with ``column`` of archetype ``row`` (or of its ability
    ``ability``) set (``ABSENT``: removed)."""
    out = copy.deepcopy(dict(doc))
    node = _entry(out, row, ability)
    for part in column.path[:-1]:
        node = node.setdefault(part, {})
    if value is ABSENT:
        node.pop(column.path[-1], None)
    else:
        node[column.path[-1]] = value
    return out


def check(doc: Any, name: str) -> Roster:
    """The battle's roster of ``doc``; :class:`BattleInputError` (the loader's one line,
    ``name`` as its file) when the battle would refuse it."""
    return roster_from_dict(doc, name)


def problem(doc: Any, name: str) -> str | None:
    """The loader's one-line message about ``doc``, or None when a battle takes it."""
    try:
        check(doc, name)
    except BattleInputError as exc:
        return str(exc)
    return None


def unused_name(doc: Mapping[str, Any], base: str) -> str:
    """``base``, or ``base 2``, ``base 3``... : the first name no archetype has (ignoring
    case, as the roster does)."""
    taken = {str(c.get("name", "")).strip().casefold() for c in doc["characters"]}
    name, n = base, 1
    while name.strip().casefold() in taken:
        n += 1
        name = f"{base} {n}"
    return name


def added(doc: Mapping[str, Any], at: int | None = None,
          columns: tuple[Column, ...] | None = None) -> tuple[dict[str, Any], int]:
    """A copy of ``doc`` with a new archetype at ``at`` (None: the end), and its row: the
    roster's default sheet, the Move, Range and flight of a map character that gives
    none (:class:`~sodwa_editor.engine.model.Character`), and any other required key
    at the schema's ``default`` (``columns``: the schema's, :func:`roster_columns`)."""
    out = copy.deepcopy(dict(doc))
    plain = Character("", "", 0, 0)
    entry: dict[str, Any] = {
        "name": unused_name(out, "New Archetype"), "move": plain.move, "range": plain.range,
        "flight": plain.flight, "damage_type": out["defaults"]["damage_type"],
        "attributes": copy.deepcopy(out["defaults"]["attributes"])}
    for column in columns if columns is not None else _default_columns():
        node = entry
        for part in column.path[:-1]:
            node = node.setdefault(part, {})
        if column.required and column.default and column.path[-1] not in node:
            node[column.path[-1]] = copy.deepcopy(column.default[0])
    row = len(out["characters"]) if at is None else at
    out["characters"].insert(row, entry)
    return out, row


def duplicated(doc: Mapping[str, Any], row: int) -> tuple[dict[str, Any], int]:
    """A copy of ``doc`` with archetype ``row`` copied below it under an unused name."""
    out = copy.deepcopy(dict(doc))
    entry = copy.deepcopy(out["characters"][row])
    entry["name"] = unused_name(out, f"{entry['name']} copy")
    out["characters"].insert(row + 1, entry)
    return out, row + 1


def deleted(doc: Mapping[str, Any], row: int) -> dict[str, Any]:
    """A copy of ``doc`` without archetype ``row``."""
    out = copy.deepcopy(dict(doc))
    del out["characters"][row]
    return out


def ability_names(doc: Mapping[str, Any]) -> set[str]:
    return {str(a.get("name", "")) for c in doc["characters"] for a in c.get("abilities", ())}


def added_ability(doc: Mapping[str, Any], row: int) -> tuple[dict[str, Any], int]:
    """A copy of ``doc`` with a new ability at the end of archetype ``row``'s (a
    Sphere of Reach 1 on its caster, a Special Action of 250 IP, Accuracy 50, named
    so no archetype has it: one name, one definition), and its index."""
    out = copy.deepcopy(dict(doc))
    taken, name, n = ability_names(out), "New Ability", 1
    while name in taken:
        n += 1
        name = f"New Ability {n}"
    listed = out["characters"][row].setdefault("abilities", [])
    listed.append({"name": name, "area": "AoE - Blast - Sphere: 1", "damage": 1,
                   "ip_cost": 250, "accuracy": 50})
    return out, len(listed) - 1


def deleted_ability(doc: Mapping[str, Any], row: int, ability: int) -> dict[str, Any]:
    """A copy of ``doc`` without ability ``ability`` of archetype ``row`` (an emptied
    list is left out)."""
    out = copy.deepcopy(dict(doc))
    entry = out["characters"][row]
    del entry["abilities"][ability]
    if not entry["abilities"]:
        del entry["abilities"]
    return out


def roster_text(doc: Mapping[str, Any]) -> str:
    """The file text of a roster document (keys in the document's order)."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


@dataclass(frozen=True, slots=True)
class RosterSource:
    """Where a roster comes from: ``default`` (the shipped file, never written over),
    a roster ``file`` or a map ``pack`` (its ``roster`` key)."""

    kind: Literal["default", "file", "pack"]
    path: Path

    @property
    def label(self) -> str:
        if self.kind == "default":
            return "the shipped roster"
        return f"{'pack' if self.kind == 'pack' else 'roster file'} {self.path.name}"


@dataclass(slots=True)
class RosterDocument:
    """A roster document as opened: the document, where it came from, and a note
    (an upgraded format version, a pack without a roster)."""

    doc: dict[str, Any]
    source: RosterSource
    note: str = ""
    #: the folder the document's relative ``portrait`` paths start from (where it was
    #: opened; None: the source's folder); a save elsewhere rebases them (:func:`rebased`)
    base_dir: Path | None = None

    @property
    def folder(self) -> Path:
        return self.base_dir if self.base_dir is not None else self.source.path.parent

    @property
    def name(self) -> str:
        """The file name messages start with (as the loaders name it)."""
        return self.source.path.name


def open_roster(path: PathLike | None) -> RosterDocument:
    """The roster of a roster file or a map pack (None: the shipped roster), checked as a
    battle checks it; :class:`BattleInputError` with one line when it cannot be used.

    An older ``format_version`` is read as this program's (:data:`ROSTER_VERSION`: later
    versions only add keys), so a save writes the current version."""
    if path is None:
        source = RosterSource("default", DEFAULT_ROSTER_PATH)
        doc: Any = read_json(DEFAULT_ROSTER_PATH)
    else:
        file = Path(path)
        doc = read_json(file)
        source = RosterSource("file", file)
        if isinstance(doc, dict) and doc.get("format") == PACK_FORMAT:
            source = RosterSource("pack", file)
            if "roster" not in doc:
                return RosterDocument(read_json(DEFAULT_ROSTER_PATH), source,
                                      f"{file.name} carries no roster: it starts from the "
                                      "shipped roster (saving adds it to the pack)")
            doc = doc["roster"]
    name = source.path.name
    where = str(source.path)  # the whole path, as the loaders name a file
    check(doc, f"{where}: roster" if source.kind == "pack" else where)
    note = ""
    if doc["format_version"] < ROSTER_VERSION:
        note = (f"{name}: roster format_version {doc['format_version']} is read as "
                f"{ROSTER_VERSION}; saving writes {ROSTER_VERSION}")
        doc = {**doc, "format_version": ROSTER_VERSION}
    return RosterDocument(doc, source, note)


def rebased(doc: Mapping[str, Any], base_dir: PathLike, target_dir: PathLike
            ) -> dict[str, Any]:
    """A copy of ``doc`` whose relative ``portrait`` paths (relative to ``base_dir``)
    are relative to ``target_dir`` instead, so a roster saved in another folder still
    finds its images (an absolute path is kept).

    >>> doc = {"characters": [{"name": "K", "portrait": "art/k.png"}, {"name": "A"}]}
    >>> rebased(doc, "/data/rosters", "/data/packs")["characters"][0]["portrait"]
    '../rosters/art/k.png'
    """
    out = copy.deepcopy(dict(doc))
    base, target = Path(base_dir).resolve(), Path(target_dir).resolve()
    if base == target:
        return out
    for entry in out["characters"]:
        portrait = entry.get("portrait")
        if isinstance(portrait, str) and not Path(portrait).is_absolute():
            entry["portrait"] = Path(os.path.relpath(base / portrait, target)).as_posix()
    return out


def save_roster_file(doc: Mapping[str, Any], path: PathLike,
                     base_dir: PathLike | None = None) -> None:
    """Write ``doc`` as a roster file (checked first; temporary file, then rename); with
    ``base_dir`` (the folder its portraits are relative to) they are rebased to the
    file's folder.  Raises :class:`BattleInputError` for a roster a battle would refuse
    and :class:`MapSaveError` when the file cannot be written (it is then unchanged)."""
    check(doc, Path(path).name)
    if base_dir is not None:
        doc = rebased(doc, base_dir, Path(path).parent)
    atomic_write_text(path, roster_text(doc))


def save_into_pack(doc: Mapping[str, Any], path: PathLike,
                   base_dir: PathLike | None = None) -> None:
    """Replace the ``roster`` of the map pack ``path`` with ``doc`` (added when it has
    none; portraits rebased from ``base_dir`` to the pack's folder) and write the pack
    back, every map kept as it was.  Raises :class:`MapSaveError` with one line when the
    pack cannot be read, is broken, or cannot be written (it is then unchanged)."""
    check(doc, f"{Path(path).name}: roster")
    if base_dir is not None:
        doc = rebased(doc, base_dir, Path(path).parent)
    pack, problems = read_pack(path)
    errors = [p for p in problems if p.is_error]
    if pack is None or has_errors(problems):
        first = f": {errors[0]}" if errors else ""
        raise MapSaveError(f"cannot save the roster into {path}: the pack cannot be "
                           f"read{first}")
    save_pack({**pack, "roster": copy.deepcopy(dict(doc))}, path)
