"""Scenarios in map packs and scenario files (``schemas/scenario.schema.json``; the
battle side is :mod:`sodwa_editor.battle.scenario`).

A pack (format version 3) keeps ``scenarios``, each naming one of the pack's maps;
:func:`scenario_problems` lists what would stop each one from being played -- a map
the pack does not have, a team over the cap, a formation that does not fit its zone,
an archetype the roster lacks, a name used twice -- one line each with its JSON
pointer, so ``sodwa validate`` reports them as it reports a map's.  A scenario file
names its map by a path relative to itself (``maps/x.json`` or ``pack.json#MAP``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..engine.model import MapModel
from .problems import Problem, error, pointer

_KEY = re.compile(r"(?P<key>[A-Za-z_][\w-]*(\[\d+\])*(\.[A-Za-z_][\w-]*(\[\d+\])*)*): ")


def key_pointer(message: str, at: str) -> tuple[str, str]:
    """``(pointer, rest)`` of a battle message ``sides[1].zone: the map has no ...``:
    the dotted key at its start as a JSON pointer under ``at`` and the message after
    it (``at`` and the whole message when it names no key)."""
    where = at
    while (m := _KEY.match(message)) is not None:  # "sides[1].team: members[0].x: ..."
        where += pointer(*(p for p in re.split(r"\.|\[(\d+)\]", m.group("key")) if p))
        message = message[m.end():]
    return where or "/", message


def scenario_problems(pack: Mapping[str, Any], maps: Mapping[str, MapModel]) -> list[Problem]:
    """Every problem of the pack's scenarios (``maps``: the pack's valid maps by name)."""
    from ..battle.jsonfiles import BattleInputError, read_json
    from ..battle.scenario import scenario_setup
    from ..battle.sheet import DEFAULT_ROSTER_PATH, roster_from_dict

    scenarios = pack.get("scenarios", [])
    if not scenarios:
        return []
    roster_doc = pack.get("roster") or read_json(DEFAULT_ROSTER_PATH)
    try:
        roster = roster_from_dict(roster_doc, "roster")
    except BattleInputError:
        return []  # (the pack's roster problem is reported on its own)
    out: list[Problem] = []
    names = {m.get("name") for m in pack.get("maps", [])}
    seen: dict[str, int] = {}
    for i, sc in enumerate(scenarios):
        at = pointer("scenarios", i)
        name = sc["name"]
        if name in seen:
            out.append(error(f"scenario name {name!r} is used twice in the pack (also "
                             f"{pointer('scenarios', seen[name])})", at + "/name",
                             code="duplicate-scenario-name"))
        elif name in names:
            out.append(error(f"scenario name {name!r} is also a map's name: PACK.json#NAME "
                             "would name both", at + "/name", code="duplicate-scenario-name"))
        seen.setdefault(name, i)
        model = maps.get(sc["map"])
        if model is None:
            have = ", ".join(repr(n) for n in sorted(names, key=str)) or "none"
            why = "is not valid" if sc["map"] in names else f"is not in the pack (it has: {have})"
            out.append(error(f"the scenario's map {sc['map']!r} {why}", at + "/map",
                             code="scenario"))
            continue
        try:
            scenario_setup(sc, model, roster, roster_doc=roster_doc, source="@")
        except BattleInputError as exc:
            where, rest = key_pointer(str(exc).removeprefix("@: "), at)
            out.append(error(rest, where, code="scenario"))
    return out


def resolve_map(scenario_path: Path, ref: str) -> Path:
    """The map file a scenario file names (relative to the scenario file's folder),
    keeping a ``#MAP`` suffix."""
    base, _, name = ref.partition("#")
    target = Path(base)
    if not target.is_absolute():
        target = scenario_path.parent / target
    return Path(f"{target}#{name}") if name else target


def scenario_for_pack(path: Path, map_names: Mapping[Path, str]
                      ) -> tuple[dict[str, Any] | None, list[Problem]]:
    """A scenario file made a pack's scenario: its ``map`` (a file relative to it) is
    replaced by the name of that map in the pack (``map_names``: the pack's map files,
    resolved, to their names); a ``map`` that already names one of them stays."""
    from .files import parse_json, read_text
    from .paths import resolved

    text, problems = read_text(path)
    doc = None
    if text is not None:
        doc, problems = parse_json(text, source=str(path))
    if problems:
        return None, problems
    if not isinstance(doc, dict) or doc.get("format") != "sodwa-scenario":
        return None, [error("not a scenario file (expected \"format\": \"sodwa-scenario\")",
                            "/format", code="format").located(source=str(path))]
    ref = doc.get("map")
    if isinstance(ref, str) and ref not in map_names.values():
        name = map_names.get(resolved(resolve_map(path, ref)))
        if name is None:
            return None, [error(f"the scenario's map {ref!r} is not one of the pack's maps",
                                "/map", code="scenario").located(source=str(path))]
        doc = {**doc, "map": name}
    return doc, []


def find_scenario(pack: Mapping[str, Any], name: str) -> dict[str, Any] | None:
    """The pack's scenario called ``name``, or None."""
    return next((s for s in pack.get("scenarios", []) if s.get("name") == name), None)


def scenario_file_text(doc: Mapping[str, Any], scenario_path: Path, map_path: Path) -> str:
    """The text of a scenario file at ``scenario_path`` whose map is the file
    ``map_path`` (named relative to the scenario file's folder when it can be)."""
    import json
    import os

    try:
        ref = os.path.relpath(map_path.resolve(), scenario_path.resolve().parent)
    except ValueError:  # another drive (Windows): the absolute path
        ref = str(map_path.resolve())
    out = {**doc, "map": Path(ref).as_posix()}
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"


def pack_scenarios_for(pack: Mapping[str, Any], map_name: str) -> list[dict[str, Any]]:
    """The pack's scenarios on the map called ``map_name``."""
    return [s for s in pack.get("scenarios", []) if s.get("map") == map_name]
