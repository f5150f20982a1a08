"""Map packs: several complete map documents and pack metadata in one JSON file,
optionally with the battle ``rules`` and ``roster`` the maps were balanced for.

Problems inside a pack carry the JSON pointer ``/maps/<i>/...`` and the map's
name (``/rules/...``, ``/roster/...`` for the battle documents).  Map names must
be unique within a pack.  A pack's rules and roster are checked at build and at
load exactly as ``sodwa battle`` checks a rules or roster file (schema, then the
battle package's own checks).  A version 3 pack may carry ``scenarios``
(:mod:`.scenarios` checks them); version 1 packs (no rules or roster) and version 2
packs are read as version 3.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..engine.model import MapModel
from .decode import format_problems
from .encode import (
    GENERATOR,
    MAP_FORMAT,
    PACK_FORMAT,
    PACK_FORMAT_VERSION,
    dumps_pack_doc,
    map_to_dict,
)
from .files import PathLike, atomic_write_text, map_from_doc, parse_json, read_map, read_text
from .paths import resolved
from .problems import MapLoadError, MapSaveError, Problem, error, has_errors, pointer
from .scenarios import scenario_for_pack, scenario_problems
from .schemas import BATTLE_SCHEMA_IDS, battle_schema_problems, pack_schema_problems
from .values import lone_surrogates


def build_pack(map_paths: Iterable[PathLike], *, name: str, version: str, author: str = "",
               description: str = "", open_maps: Mapping[Path, MapModel] | None = None,
               rules: PathLike | None = None, roster: PathLike | None = None,
               scenarios: Iterable[PathLike] = ()
               ) -> tuple[dict[str, Any] | None, list[Problem]]:
    """Read map files and bundle them into a pack document.

    ``rules`` and ``roster``: a rules file and a roster file the pack carries
    (embedded as they are, after the checks a battle makes; their problems point
    into those files).  ``scenarios``: scenario files, each naming one of the maps
    (by its file, relative to the scenario file; the pack keeps the map's name).

    ``open_maps`` maps a file path (resolved) to an in-memory map that replaces the
    file's content, e.g. the editor's document with unsaved changes; it is
    checked exactly as the file would be.  Returns ``(pack, problems)``; ``pack``
    is ``None`` if any map has an error or the pack itself is invalid (e.g. two
    maps with the same name).  Maps are embedded in their canonical form.
    """
    problems: list[Problem] = []
    maps: list[dict[str, Any]] = []
    map_names: dict[Path, str] = {}
    replaced = {resolved(p): m for p, m in (open_maps or {}).items()}
    for path in map_paths:
        live = replaced.get(resolved(path))
        if live is None:
            model, found = read_map(path)
        else:
            try:
                model, found = map_from_doc(map_to_dict(live), source=str(path))
            except ValueError as exc:
                model, found = None, [error(str(exc), code="unstorable").located(source=str(path))]
        problems += found
        if model is not None:
            maps.append(map_to_dict(model))
            map_names[resolved(path)] = model.name
    pack: dict[str, Any] = {
        "format": PACK_FORMAT, "format_version": PACK_FORMAT_VERSION, "generator": GENERATOR,
        "name": name, "version": version, "author": author, "description": description,
    }
    for key, file in (("rules", rules), ("roster", roster)):
        if file is not None:
            doc, found = read_battle_file(key, file)
            problems += found
            if doc is not None:
                pack[key] = doc
    found_scenarios = [scenario_for_pack(Path(p), map_names) for p in scenarios]
    problems += [p for _doc, found in found_scenarios for p in found]
    if found_scenarios:
        pack["scenarios"] = [doc for doc, _found in found_scenarios if doc is not None]
    pack["maps"] = maps
    if not has_errors(problems):
        problems += pack_schema_problems(pack) + _header_text(pack) + _duplicate_names(pack)
    return (None if has_errors(problems) else pack), problems


def pack_from_doc(doc: Any, *, source: str | None = None
                  ) -> tuple[dict[str, Any] | None, list[Problem]]:
    """Validate a parsed pack document and every map in it.

    The pack comes back (with the problems) when its own structure is valid, so a
    caller can list its maps; check the problems for errors before using it.
    """
    problems = format_problems(doc, PACK_FORMAT)
    if not problems and doc["format_version"] < PACK_FORMAT_VERSION:
        doc = {**doc, "format_version": PACK_FORMAT_VERSION}  # 1, 2 -> 3: nothing else changed
    problems = problems or pack_schema_problems(doc) or _header_text(doc) or \
        [p for key in BATTLE_SCHEMA_IDS if key in doc
         for p in battle_problems(key, doc[key], pointer(key))]
    if problems:
        return None, [p.located(source=source) for p in problems]
    valid: dict[str, MapModel] = {}
    for i, m in enumerate(doc["maps"]):
        name = m.get("name") if isinstance(m.get("name"), str) else None
        model, found = map_from_doc(m, source=source, prefix=pointer("maps", i), map_name=name)
        problems += found
        if model is not None and name is not None and not has_errors(found):
            valid.setdefault(name, model)
    problems += [p.located(source=source) for p in _duplicate_names(doc)]
    problems += [p.located(source=source) for p in scenario_problems(doc, valid)]
    return doc, problems


def read_any(path: PathLike) -> tuple[str, list[Problem]]:
    """Validate a map or pack file: ``("map" | "pack" | "unknown", problems)``."""
    text, problems = read_text(path)
    if text is None:
        return "unknown", problems
    doc, problems = parse_json(text, source=str(path))
    if problems:
        return "unknown", problems
    fmt = doc.get("format") if isinstance(doc, dict) else None
    if fmt == PACK_FORMAT:
        return "pack", pack_from_doc(doc, source=str(path))[1]
    _, problems = map_from_doc(doc, source=str(path))
    return ("map" if fmt == MAP_FORMAT else "unknown"), problems


def read_pack(path: PathLike) -> tuple[dict[str, Any] | None, list[Problem]]:
    """Pack document and problems of a pack file (see :func:`pack_from_doc`)."""
    text, problems = read_text(path)
    if text is None:
        return None, problems
    doc, problems = parse_json(text, source=str(path))
    if problems:
        return None, problems
    return pack_from_doc(doc, source=str(path))


def load_pack(path: PathLike) -> tuple[dict[str, Any], list[MapModel]]:
    """Pack metadata and map models; raises :class:`MapLoadError` on any error."""
    pack, problems = read_pack(path)
    if pack is None or has_errors(problems):
        raise MapLoadError(str(path), problems)
    models = [map_from_doc(m, schema_checked=True)[0] for m in pack["maps"]]
    meta = {k: v for k, v in pack.items() if k != "maps"}
    return meta, [m for m in models if m is not None]


def dumps_pack(pack: dict[str, Any]) -> str:
    """Canonical text of a pack document (each map laid out as in a map file)."""
    return dumps_pack_doc(pack)


def save_pack(pack: dict[str, Any], path: PathLike) -> None:
    """Validate ``pack`` fully and write it atomically; :class:`MapSaveError` if it has
    errors or cannot be written (the previous file is then untouched)."""
    checked, problems = pack_from_doc(pack)
    errors = [p for p in problems if p.is_error]
    if checked is None or errors:
        lines = "\n".join(f"  {p.location()}: {p.message}" for p in errors[:20])
        raise MapSaveError(f"cannot save pack {path}: {len(errors)} error(s):\n{lines}")
    atomic_write_text(path, dumps_pack(pack))


def read_battle_file(key: str, path: PathLike) -> tuple[dict[str, Any] | None, list[Problem]]:
    """The checked ``rules`` or ``roster`` document of a file given to :func:`build_pack`."""
    text, problems = read_text(path)
    if text is None:
        return None, problems
    doc, problems = parse_json(text, source=str(path))
    if not problems:
        problems = battle_schema_problems(key, doc) or battle_problems(key, doc)
    if problems:
        return None, [p.located(source=str(path)) for p in problems]
    return doc, []


_DOTTED = re.compile(r"[A-Za-z_][\w-]*(\[\d+\])*(\.[A-Za-z_][\w-]*(\[\d+\])*)*")


def battle_problems(key: str, doc: Any, at: str = "") -> list[Problem]:
    """The battle package's own checks of a schema-valid ``rules`` or ``roster``
    document (numbers that contradict each other, an archetype named twice, ...),
    as one problem at its JSON pointer (``at`` + the key the check names)."""
    from ..battle.jsonfiles import BattleInputError
    from ..battle.rules import rules_from_dict
    from ..battle.sheet import roster_from_dict

    check = rules_from_dict if key == "rules" else roster_from_dict
    code = "pack-rules" if key == "rules" else "pack-roster"
    try:
        check(doc, "@")
    except BattleInputError as exc:
        message = str(exc).removeprefix("@: ")
        found = _DOTTED.match(message)  # "clock.turn_cost: ..." or "dice.x (3) must ..."
        if found is None or not message[found.end():].startswith((": ", " (")):
            return [error(message, at or "/", code=code)]
        parts = [p for p in re.split(r"\.|\[(\d+)\]", found.group()) if p]
        rest = message[found.end():]
        return [error(rest[2:] if rest.startswith(": ") else message, at + pointer(*parts),
                      code=code)]
    return []


def _header_text(pack: dict[str, Any]) -> list[Problem]:
    """Lone surrogates in the pack's own fields (e.g. a name given on the command
    line), which no UTF-8 file can hold; the maps' text is checked with each map."""
    return lone_surrogates({k: v for k, v in pack.items() if k != "maps"})


def _duplicate_names(pack: dict[str, Any]) -> list[Problem]:
    seen: dict[str, int] = {}
    out = []
    for i, m in enumerate(pack["maps"]):
        name = m.get("name")
        if not isinstance(name, str):
            continue
        if name in seen:
            out.append(error(f"map name {name!r} is used twice in the pack (also "
                             f"{pointer('maps', seen[name])})", pointer("maps", i, "name"),
                             code="duplicate-map-name").located(map_name=name))
        seen.setdefault(name, i)
    return out


def save_scenario_into_pack(pack_path: Path, doc: Mapping[str, Any]) -> bool:
    """Add ``doc`` to the pack's scenarios (or replace the one of its name), checked
    with the whole pack and written atomically; True when one was replaced.  Raises
    :class:`~.problems.MapLoadError` / :class:`~.problems.MapSaveError` (what and
    where) when the pack cannot be read, the scenario does not fit it, or the file
    cannot be written; the pack file is then as it was."""
    pack, problems = read_pack(pack_path)
    if pack is None or any(p.is_error for p in problems):
        raise MapLoadError(str(pack_path), problems)
    scenarios = list(pack.get("scenarios", []))
    names = [s.get("name") for s in scenarios]
    replaced = doc["name"] in names
    if replaced:
        scenarios[names.index(doc["name"])] = dict(doc)
    else:
        scenarios.append(dict(doc))
    save_pack({**pack, "scenarios": scenarios}, pack_path)
    return replaced

