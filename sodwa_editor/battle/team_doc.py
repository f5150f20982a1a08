"""The team document the team editor edits (RB *Team Management*: "When you assign a
character to a team, that character's point value gets added to the team's point
value ... arranging your characters on a grid and saving that arrangement as a Team
Formation.  You'll be able to save several different formations per team").

A :class:`TeamDoc` is immutable plain data: its members (id, archetype, display
name) in file order and its named formations, the first the default.  Every edit
is a function returning a new document, or raising :class:`TeamEditError` with
one line saying what is wrong; an editor keeps the documents before and after an
edit as its undo step.  Every formation always gives every member its own cell of
the :data:`GRID` x :data:`GRID` formation grid (row 0 the front), so a document is
always a valid team file once it has a member: a member added takes the first free
cell of each formation, a member dropped on another one's cell swaps with it.

The file's reader and checks stay :func:`.teams.team_from_dict` (one place for
them); :func:`team_doc_from_dict` keeps what it validated as written, and
:func:`dumps_team` writes it back.

>>> from sodwa_editor.battle.sheet import load_roster
>>> roster = load_roster()
>>> doc = add_member(add_member(TeamDoc("duo"), "Knight"), "Knight")
>>> [m.id for m in doc.members]
['knight', 'knight-2']
>>> doc = add_formation(doc, "wedge")
>>> place_member(doc, 0, "knight-2", (5, 1)).formations[0].cell("knight-2")
(5, 1)
>>> team_points(doc, roster)
240
>>> team_doc_from_dict(team_doc_to_dict(doc), roster) == doc
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from .jsonfiles import BattleInputError, PathLike, load_schema, read_json
from .sheet import Roster
from .teams import DEFAULT_ROW, Formation, Team, team_from_dict

Cell = tuple[int, int]


def _schema_limits() -> tuple[int, int, int, re.Pattern[str]]:
    """The grid size, the most members and formations, and the id pattern, as
    ``schemas/team.schema.json`` gives them (the format's one place)."""
    props = load_schema("team")["properties"]
    member = props["members"]["items"]["properties"]
    cell = props["formations"]["items"]["properties"]["positions"]["additionalProperties"]
    return (cell["prefixItems"][0]["maximum"] + 1, props["members"]["maxItems"],
            props["formations"]["maxItems"], re.compile(member["id"]["pattern"]))


#: formation grid side (cells 0..GRID-1); most members, most formations; member id form
GRID, MAX_MEMBERS, MAX_FORMATIONS, ID_PATTERN = _schema_limits()
#: longest team, formation or display name the file allows
MAX_NAME = 200


class TeamEditError(ValueError):
    """An edit refused: one line saying what and where."""


@dataclass(frozen=True, slots=True)
class MemberEntry:
    """A team member: its id (unique in the team), roster archetype (as written) and
    display name ("" = the archetype's name)."""

    id: str
    archetype: str
    name: str = ""


@dataclass(frozen=True, slots=True)
class FormationEntry:
    """A Team Formation: its name and each member's ``(column, row)`` cell, in member
    order; row 0 is the front row."""

    name: str
    cells: tuple[tuple[str, Cell], ...] = ()

    def cell(self, member_id: str) -> Cell:
        return dict(self.cells)[member_id]

    def at(self, cell: Cell) -> str | None:
        """The member on ``cell``, None if it is free."""
        return next((mid for mid, c in self.cells if c == cell), None)

    def as_formation(self) -> Formation:
        """The battle's :class:`~.teams.Formation` (positions in member order)."""
        return Formation(self.name, tuple(c for _mid, c in self.cells))


@dataclass(frozen=True, slots=True)
class TeamDoc:
    """A team file's content (``schemas/team.schema.json``)."""

    name: str
    members: tuple[MemberEntry, ...] = ()
    formations: tuple[FormationEntry, ...] = ()
    description: str = ""

    def member(self, member_id: str) -> MemberEntry:
        for m in self.members:
            if m.id == member_id:
                return m
        raise TeamEditError(f"the team has no member {member_id!r}")

    def ids(self) -> list[str]:
        return [m.id for m in self.members]


# ------------------------------------------------------------------ reading, writing
def team_doc_from_dict(doc: Any, roster: Roster, source: str = "team") -> TeamDoc:
    """The document of a parsed team file, checked as a battle reads it
    (:func:`.teams.team_from_dict`: schema, ids, archetypes, formations)."""
    team_from_dict(doc, roster, source)
    members = tuple(MemberEntry(m["id"], m["archetype"], m.get("name", ""))
                    for m in doc["members"])
    formations = tuple(
        FormationEntry(f["name"], tuple((m.id, (f["positions"][m.id][0],
                                                f["positions"][m.id][1])) for m in members))
        for f in doc.get("formations", []))
    return TeamDoc(doc["name"], members, formations, doc.get("description", ""))


def load_team_doc(path: PathLike, roster: Roster) -> TeamDoc:
    """The document of a team file; :class:`BattleInputError` (one line) if it is not one."""
    return team_doc_from_dict(read_json(path), roster, str(path))


def team_doc_to_dict(doc: TeamDoc) -> dict[str, Any]:
    """The team file's JSON document (members and positions in member order; no empty
    ``name``, ``description`` or ``formations``)."""
    out: dict[str, Any] = {"format": "sodwa-team", "format_version": 1, "name": doc.name}
    if doc.description:
        out["description"] = doc.description
    out["members"] = [{"id": m.id, "archetype": m.archetype, **({"name": m.name} if m.name
                                                                  else {})}
                      for m in doc.members]
    if doc.formations:
        out["formations"] = [{"name": f.name, "positions": {mid: list(c) for mid, c in f.cells}}
                             for f in doc.formations]
    return out


_CELL = re.compile(r"\[\s+(\d+),\s+(\d+)\s+\]")


def dumps_team(doc: TeamDoc, roster: Roster) -> str:
    """The team file's text (a cell on one line: ``"knight": [0, 0]``), after checking
    it as a battle reads it; :class:`BattleInputError` (one line) if it is not a
    valid team file."""
    if not doc.members:
        raise BattleInputError(f"team {doc.name!r} has no members: a team file needs at "
                               "least one")
    data = team_doc_to_dict(doc)
    team_from_dict(data, roster, f"team {doc.name!r}")
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return _CELL.sub(r"[\1, \2]", text) + "\n"


def to_team(doc: TeamDoc, roster: Roster) -> Team:
    """The battle's :class:`~.teams.Team` of the document (its sheets from ``roster``)."""
    return team_from_dict(team_doc_to_dict(doc), roster, f"team {doc.name!r}")


# ------------------------------------------------------------------ points
def team_points(doc: TeamDoc, roster: Roster) -> int:
    """RB: "your team's point value will be the sum of all assigned characters" (each
    archetype's ``cost``; an archetype the roster lacks counts 0 and is a problem)."""
    total = 0
    for m in doc.members:
        arch = roster.find(m.archetype)
        total += arch.values["cost"] if arch is not None else 0
    return total


def problems(doc: TeamDoc, roster: Roster, cap: int | None) -> list[str]:
    """Why the document is not yet a team a battle takes, one line each (empty: it is)."""
    out = []
    if not doc.name.strip():
        out.append("the team has no name")
    if not doc.members:
        out.append("the team has no members: add one from the roster")
    for i, m in enumerate(doc.members):
        if roster.find(m.archetype) is None:
            out.append(f"members[{i}].archetype: no archetype {m.archetype!r} in the roster")
    points = team_points(doc, roster)
    if cap is not None and points > cap:
        out.append(f"team {doc.name!r} costs {points} points, over the {cap}-point cap")
    return out


# ------------------------------------------------------------------ members
def check_member_id(doc: TeamDoc, member_id: str, old: str | None = None) -> None:
    if not ID_PATTERN.fullmatch(member_id):
        raise TeamEditError(f"member id {member_id!r}: use 1-32 letters, digits, _ or -")
    if member_id != old and member_id in doc.ids():
        raise TeamEditError(f"member id {member_id!r} is taken")


def new_member_id(doc: TeamDoc, archetype: str) -> str:
    """``knight``, then ``knight-2``, ``knight-3``...: the archetype's name made an id."""
    base = re.sub(r"[^A-Za-z0-9_-]+", "-", archetype.strip().lower()).strip("-")[:28] or "member"
    taken = set(doc.ids())
    k = 1
    while (candidate := base if k == 1 else f"{base}-{k}") in taken:
        k += 1
    return candidate


def _fill_order() -> list[Cell]:
    """Cells a new member tries, first free wins: the default formation's order
    (rows of :data:`.teams.DEFAULT_ROW`, front row first), then the rest row by row."""
    first = [(i % DEFAULT_ROW, i // DEFAULT_ROW) for i in range(DEFAULT_ROW * GRID)]
    return first + [(c, r) for r in range(GRID) for c in range(GRID) if c >= DEFAULT_ROW]


def add_member(doc: TeamDoc, archetype: str, member_id: str | None = None,
               name: str = "") -> TeamDoc:
    """``archetype`` joins the team (last), on the first free cell of each formation."""
    if len(doc.members) >= MAX_MEMBERS:
        raise TeamEditError(f"a team has at most {MAX_MEMBERS} members")
    mid = new_member_id(doc, archetype) if member_id is None else member_id
    check_member_id(doc, mid)
    formations = []
    for f in doc.formations:
        used = {c for _m, c in f.cells}
        cell = next(c for c in _fill_order() if c not in used)
        formations.append(replace(f, cells=(*f.cells, (mid, cell))))
    return replace(doc, members=(*doc.members, MemberEntry(mid, archetype, name)),
                   formations=tuple(formations))


def remove_member(doc: TeamDoc, member_id: str) -> TeamDoc:
    doc.member(member_id)
    return replace(doc, members=tuple(m for m in doc.members if m.id != member_id),
                   formations=tuple(replace(f, cells=tuple(p for p in f.cells
                                                           if p[0] != member_id))
                                    for f in doc.formations))


def set_member(doc: TeamDoc, member_id: str, *, new_id: str | None = None,
               name: str | None = None, archetype: str | None = None) -> TeamDoc:
    """A member's id (its cells follow it), display name or archetype changed."""
    old = doc.member(member_id)
    mid = old.id if new_id is None else new_id
    check_member_id(doc, mid, old.id)
    if name is not None and len(name) > MAX_NAME:
        raise TeamEditError(f"member {member_id!r}: a name has at most {MAX_NAME} characters")
    if archetype is not None and not archetype.strip():
        raise TeamEditError(f"member {member_id!r}: give an archetype")
    new = MemberEntry(mid, old.archetype if archetype is None else archetype,
                      old.name if name is None else name)
    return replace(doc, members=tuple(new if m.id == member_id else m for m in doc.members),
                   formations=tuple(replace(f, cells=tuple((mid if m == member_id else m, c)
                                                           for m, c in f.cells))
                                    for f in doc.formations))


def set_team_name(doc: TeamDoc, name: str) -> TeamDoc:
    if not name.strip() or len(name) > MAX_NAME:
        raise TeamEditError(f"team name: give 1-{MAX_NAME} characters")
    return replace(doc, name=name)


# ------------------------------------------------------------------ formations
def _index(doc: TeamDoc, index: int) -> FormationEntry:
    if not 0 <= index < len(doc.formations):
        raise TeamEditError(f"the team has no formation {index} (it has "
                            f"{len(doc.formations)})")
    return doc.formations[index]


def _check_formation_name(doc: TeamDoc, name: str, skip: int | None = None) -> None:
    if not name.strip() or len(name) > MAX_NAME:
        raise TeamEditError(f"formation name: give 1-{MAX_NAME} characters")
    if any(f.name == name for i, f in enumerate(doc.formations) if i != skip):
        raise TeamEditError(f"the team already has a formation {name!r}")


def free_formation_name(doc: TeamDoc, base: str = "formation") -> str:
    names = {f.name for f in doc.formations}
    k = 1
    while (candidate := base if k == 1 else f"{base} {k}") in names:
        k += 1
    return candidate


def _with(doc: TeamDoc, formations: Iterable[FormationEntry]) -> TeamDoc:
    out = tuple(formations)
    if len(out) > MAX_FORMATIONS:
        raise TeamEditError(f"a team has at most {MAX_FORMATIONS} formations")
    return replace(doc, formations=out)


def add_formation(doc: TeamDoc, name: str | None = None) -> TeamDoc:
    """A new formation (last) with the members in rows of :data:`.teams.DEFAULT_ROW`,
    the front row first (the arrangement a team without formations enters in, B5)."""
    name = free_formation_name(doc) if name is None else name
    _check_formation_name(doc, name)
    order = _fill_order()
    new = FormationEntry(name, tuple((m.id, order[i]) for i, m in enumerate(doc.members)))
    return _with(doc, (*doc.formations, new))


def rename_formation(doc: TeamDoc, index: int, name: str) -> TeamDoc:
    old = _index(doc, index)
    _check_formation_name(doc, name, index)
    return _with(doc, (replace(old, name=name) if i == index else f
                       for i, f in enumerate(doc.formations)))


def duplicate_formation(doc: TeamDoc, index: int) -> TeamDoc:
    """A copy of formation ``index`` right after it, named ``<name> copy``."""
    old = _index(doc, index)
    copy = replace(old, name=free_formation_name(doc, f"{old.name} copy"[:MAX_NAME - 4]))
    fs = list(doc.formations)
    fs.insert(index + 1, copy)
    return _with(doc, fs)


def delete_formation(doc: TeamDoc, index: int) -> TeamDoc:
    _index(doc, index)
    return _with(doc, (f for i, f in enumerate(doc.formations) if i != index))


def move_formation(doc: TeamDoc, index: int, to: int) -> TeamDoc:
    """Formation ``index`` moved to place ``to`` (0: it becomes the default)."""
    _index(doc, index)
    _index(doc, to)
    fs = list(doc.formations)
    fs.insert(to, fs.pop(index))
    return _with(doc, fs)


def place_member(doc: TeamDoc, index: int, member_id: str, cell: Cell) -> TeamDoc:
    """Member ``member_id`` dropped on ``cell`` of formation ``index``; a member already
    there takes the dropped member's old cell (they swap)."""
    f = _index(doc, index)
    doc.member(member_id)
    if not (0 <= cell[0] < GRID and 0 <= cell[1] < GRID):
        raise TeamEditError(f"cell {cell[0]}, {cell[1]} is off the {GRID}x{GRID} formation grid")
    src = f.cell(member_id)
    other = f.at(cell)
    cells = tuple((m, cell if m == member_id else src if m == other else c) for m, c in f.cells)
    return _with(doc, (replace(f, cells=cells) if i == index else g
                       for i, g in enumerate(doc.formations)))

