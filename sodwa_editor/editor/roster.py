"""The roster of the editor session and the characters made from it (no Qt).

*The roster in use* (:class:`UsedRoster`, issue 28 section 1: "the map pack's, else a
roster file, else the default"): the roster the Character tool lists, the eyedropper
picks from, the team editor costs, and F5 and the Balance Run play.  It is the roster
the designer chose last in the Roster Editor (a roster file or a map pack's
``roster``, opened or saved there and remembered), else the shipped
``resources/roster.json``; a scenario from a map pack always plays with that pack's
roster when it carries one (:func:`scenario_roster`), as ``sodwa battle
PACK.json#SCENARIO`` does.  The Qt side (:class:`~.roster_in_use.RosterInUse`) holds
one and says when it changes.

>>> used = used_roster(None)
>>> used.kind, used.label, used.source == str(DEFAULT_ROSTER_PATH)
('default', 'shipped', True)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from ..battle.jsonfiles import BattleInputError, read_json
from ..battle.sheet import DEFAULT_ROSTER_PATH, Roster, roster_from_dict
from ..engine.model import Character
from ..engine.sizes import Footprint

RosterKind = Literal["pack", "file", "default"]
PACK_FORMAT = "sodwa-mappack"

ROSTER_PATH = Path(__file__).parents[1] / "data" / "resources" / "roster.json"
FALLBACK = {"characters": [{"name": "Soldier", "move": 5, "range": 5, "flight": False,
                            "attributes": {}}], "objects": ["crate"]}


@lru_cache(maxsize=1)
def load_roster(path: Path = ROSTER_PATH) -> dict[str, Any]:
    """The roster; a built-in one-entry roster when the file is missing or broken."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not data.get("characters"):
            raise ValueError("no characters")
        return data
    except (OSError, ValueError):
        return FALLBACK


def entries_in_use(in_use: Any | None) -> list[dict[str, Any]]:
    """The archetype entries of the roster in use (``in_use``: a
    :class:`~.roster_in_use.RosterInUse`; None: the shipped roster's)."""
    if in_use is None:
        return list(load_roster()["characters"])
    return in_use.current.characters()


def make_character(entry: dict[str, Any], cid: str, team: str, x: int, y: int, *,
                   size: str | None = None) -> Character:
    """A character of a roster entry; ``size`` (the Character tool's choice) replaces the
    entry's size, and with it the entry's free dimensions unless it is the same size."""
    own = str(entry.get("size", "medium"))
    dims = entry.get("footprint")
    footprint = Footprint(*dims) if dims and (size is None or size == own) else None
    return Character(
        cid, team, x, y, move=int(entry.get("move", 5)), range=int(entry.get("range", 5)),
        flight=bool(entry.get("flight", False)), name=str(entry.get("name", cid)),
        attributes={k: int(v) for k, v in entry.get("attributes", {}).items()},
        size=size or own, footprint=footprint,
    )


@dataclass(frozen=True)
class UsedRoster:
    """A roster a battle plays with, and where it comes from: ``kind`` ``pack`` (the
    ``roster`` of the map pack ``path``), ``file`` (the roster file ``path``) or
    ``default`` (the shipped ``resources/roster.json``)."""

    doc: dict[str, Any] = field(compare=False, repr=False)
    roster: Roster = field(compare=False, repr=False)
    kind: RosterKind
    path: Path

    @property
    def label(self) -> str:
        """What the editor shows: ``pack.json: /roster``, ``roster.json`` or ``shipped``."""
        if self.kind == "pack":
            return f"{self.path.name}: /roster"
        return self.path.name if self.kind == "file" else "shipped"

    @property
    def source(self) -> str:
        """The name the battle's messages give it (as ``sodwa battle`` names it)."""
        return f"{self.path}: /roster" if self.kind == "pack" else str(self.path)

    @property
    def folder(self) -> Path:
        """The folder its portrait paths are relative to."""
        return self.path.parent

    def characters(self) -> list[dict[str, Any]]:
        """The archetype entries of the document (the Character tool's list)."""
        return list(self.doc["characters"])


def shipped_roster() -> UsedRoster:
    """The shipped roster (``resources/roster.json``)."""
    return _used(read_json(DEFAULT_ROSTER_PATH), "default", DEFAULT_ROSTER_PATH)


def _used(doc: Any, kind: RosterKind, path: Path) -> UsedRoster:
    source = f"{path}: /roster" if kind == "pack" else str(path)  # (as UsedRoster.source)
    return UsedRoster(doc, roster_from_dict(doc, source), kind, path)


def pack_roster(path: Path | str) -> UsedRoster | None:
    """The ``roster`` of the map pack ``path`` (None: the file is no pack, or a pack that
    carries none); :class:`BattleInputError` in one line when it cannot be read or its
    roster is refused."""
    file = Path(path)
    doc = read_json(file)
    if not (isinstance(doc, dict) and doc.get("format") == PACK_FORMAT) or "roster" not in doc:
        return None
    return _used(doc["roster"], "pack", file)


def used_roster(path: Path | str | None) -> UsedRoster:
    """The roster of a roster file or a map pack (None, or a pack without a roster: the
    shipped one); :class:`BattleInputError` in one line when it cannot be used."""
    if path is None:
        return shipped_roster()
    file = Path(path)
    doc = read_json(file)
    if isinstance(doc, dict) and doc.get("format") == PACK_FORMAT:
        return pack_roster(file) or shipped_roster()
    return _used(doc, "file", file)


def scenario_roster(path: Path | str, fallback: UsedRoster) -> UsedRoster:
    """The roster a scenario of the file ``path`` plays with, as ``sodwa battle`` plays
    it: a map pack's ``roster`` (a pack's scenario, or a scenario file whose map is
    ``PACK.json#MAP``), else ``fallback`` (the roster in use)."""
    from ..io.scenarios import resolve_map

    file = Path(path)
    doc = read_json(file)
    if isinstance(doc, dict) and doc.get("format") == PACK_FORMAT:
        return pack_roster(file) or fallback
    if isinstance(doc, dict) and doc.get("format") == "sodwa-scenario" \
            and isinstance(doc.get("map"), str) and "#" in doc["map"]:
        pack = Path(str(resolve_map(file, doc["map"])).partition("#")[0])
        try:
            return pack_roster(pack) or fallback
        except BattleInputError as exc:
            raise BattleInputError(f"{file}: map: {exc}") from None
    return fallback
