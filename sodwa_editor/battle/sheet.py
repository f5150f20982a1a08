"""Character sheets (RB *Attributes*, *The Battle UI*) and the roster of archetypes.

A :class:`Sheet` carries every attribute the rulebook names: Health Points,
Evasion, Initiative, Move, Range, Damage Reduction, Melee and Ranged Accuracy /
Defense / Damage, the three Saving Throws, point Cost and flight.  A map
``Character`` keeps Move, Range and flight as fields and the rest in its
``attributes`` dict under the keys of :data:`SHEET_KEYS`; a key it does not
give comes from the roster archetype whose name matches the character's name
(ignoring case), else from the roster's ``defaults``.  So every existing map
still makes a battle: docs/map-format.md, *Character sheet*.

>>> from sodwa_editor.engine.model import Character
>>> roster = load_roster()
>>> s = sheet_for(Character("k", "red", 0, 0, move=5, range=1, name="Knight"), roster)
>>> s.archetype, s.health, s.melee_accuracy, s.cost
('Knight', 14, 65, 120)
>>> sheet_for(Character("x", "red", 0, 0, name="Nobody",
...                     attributes={"health": 30}), roster).health
30
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any

from ..engine.model import Character
from ..engine.sizes import Footprint, footprint_for, size_rank
from .ability_defs import AbilityDef, abilities_from_list
from .jsonfiles import RESOURCE_DIR, BattleInputError, PathLike, read_json, validate

DEFAULT_ROSTER_PATH = RESOURCE_DIR / "roster.json"

#: The integer attributes of a full sheet besides Move and Range (map attribute keys).
SHEET_KEYS = (
    "health", "evasion", "initiative", "damage_reduction",
    "melee_accuracy", "ranged_accuracy", "melee_defense", "ranged_defense",
    "melee_damage", "ranged_damage", "fortitude", "reflex", "power", "cost",
)
#: Smallest value of each key (anything else below it is refused, naming the key).
MINIMUM = {key: 0 for key in SHEET_KEYS} | {"health": 1, "initiative": 1}
#: Older single keys (the first roster had them): each sets both kinds unless the
#: kind's own key is given.
ALIASES = {
    "accuracy": ("melee_accuracy", "ranged_accuracy"),
    "defense": ("melee_defense", "ranged_defense"),
    "damage": ("melee_damage", "ranged_damage"),
}


@dataclass(frozen=True, slots=True)
class Sheet:
    """One character's full sheet.  ``archetype`` is ``""`` when no archetype matched."""

    name: str
    archetype: str
    health: int
    evasion: int
    initiative: int
    move: int
    range: int
    damage_reduction: int
    melee_accuracy: int
    ranged_accuracy: int
    melee_defense: int
    ranged_defense: int
    melee_damage: int
    ranged_damage: int
    fortitude: int
    reflex: int
    power: int
    cost: int
    flight: bool
    damage_type: str
    #: The archetype's area abilities (docs/rules.md *Abilities*).
    abilities: tuple[AbilityDef, ...] = ()
    #: Size category (docs/rules.md S1, S21) and free dimensions replacing the size
    #: table's, in the table's 1 m squares (None: the table's).
    size: str = "medium"
    dimensions: Footprint | None = None

    def footprint(self, grid_scale_m: float = 1.0) -> Footprint:
        """The tiles this character covers on a grid of ``grid_scale_m`` metres per tile
        (the rules key ``sizes.grid_scale_m``; :func:`~..engine.sizes.footprint_for`)."""
        if self.size == "medium" and self.dimensions is None:
            return Footprint(1, 1)
        return footprint_for(self.size, dimensions=self.dimensions, grid_scale_m=grid_scale_m)

    def accuracy(self, melee: bool) -> int:
        """Accuracy of the attack's kind (RB: "When attacking an adjacent target, the
        Melee attributes are used. Otherwise, the Ranged attributes are used.")."""
        return self.melee_accuracy if melee else self.ranged_accuracy

    def defense(self, melee: bool) -> int:
        """Defense against an attack of the kind (decision B17)."""
        return self.melee_defense if melee else self.ranged_defense

    def damage(self, melee: bool) -> int:
        return self.melee_damage if melee else self.ranged_damage


@dataclass(frozen=True, slots=True)
class Archetype:
    """A roster entry: Move, Range, flight, damage type, the full integer sheet and its
    area abilities."""

    name: str
    move: int
    range: int
    flight: bool
    damage_type: str
    values: Mapping[str, int]
    abilities: tuple[AbilityDef, ...] = ()
    #: Size category and free dimensions (``format_version`` 3; docs/rules.md S21).
    size: str = "medium"
    dimensions: Footprint | None = None

    def sheet(self, name: str | None = None) -> Sheet:
        """The archetype's own sheet (a character of this archetype with nothing changed)."""
        return Sheet(name=self.name if name is None else name, archetype=self.name,
                     move=self.move, range=self.range, flight=self.flight,
                     damage_type=self.damage_type, abilities=self.abilities,
                     size=self.size, dimensions=self.dimensions,
                     **{k: self.values[k] for k in SHEET_KEYS})


@dataclass(frozen=True, slots=True)
class Roster:
    """The archetypes, the default sheet values and the editor's object kinds."""

    archetypes: tuple[Archetype, ...]
    defaults: Mapping[str, int]
    default_damage_type: str
    objects: tuple[str, ...]
    by_key: Mapping[str, Archetype] = field(default_factory=dict, repr=False, compare=False)

    def find(self, name: str) -> Archetype | None:
        """The archetype called ``name`` (ignoring case and surrounding spaces)."""
        return self.by_key.get(_key(name))

    def names(self) -> list[str]:
        return [a.name for a in self.archetypes]


def _key(name: str) -> str:
    return name.strip().casefold()


#: The roster format this program writes; it reads every version up to it (version 1
#: has no abilities and no portraits, version 2 no sizes).
ROSTER_VERSION = 3
#: The first roster version with each optional archetype key.
ADDED_IN = {"abilities": 2, "portrait": 2, "size": 3, "footprint": 3}


def roster_from_dict(doc: Any, source: str = "roster") -> Roster:
    """The roster of a parsed roster document (``schemas/roster.schema.json``; version 1,
    without abilities, 2, without sizes, or 3)."""
    validate(doc, "roster", source)
    seen: set[str] = set()
    known: dict[str, AbilityDef] = {}
    archetypes = []
    for i, entry in enumerate(doc["characters"]):
        key = _key(entry["name"])
        if key in seen:
            raise BattleInputError(f"{source}: characters[{i}].name: archetype "
                                   f"{entry['name']!r} appears twice")
        seen.add(key)
        damage_type = entry.get("damage_type", doc["defaults"]["damage_type"])
        listed = entry.get("abilities", [])
        for added, version in ADDED_IN.items():
            if entry.get(added) and doc["format_version"] < version:
                raise BattleInputError(f"{source}: characters[{i}].{added}: a roster of "
                                       f"format_version {doc['format_version']} has no "
                                       f"{added} (write format_version {version})")
        size, dims = _size(entry, f"{source}: characters[{i}]")
        archetypes.append(Archetype(
            name=entry["name"], move=entry["move"], range=entry["range"],
            flight=entry["flight"], damage_type=damage_type,
            values=_frozen(entry["attributes"]),
            abilities=abilities_from_list(listed, damage_type,
                                          f"{source}: characters[{i}].abilities", known),
            size=size, dimensions=dims))
    return Roster(tuple(archetypes), _frozen(doc["defaults"]["attributes"]),
                  doc["defaults"]["damage_type"], tuple(doc.get("objects", ())),
                  MappingProxyType({_key(a.name): a for a in archetypes}))


def _size(entry: Mapping[str, Any], where: str) -> tuple[str, Footprint | None]:
    """An archetype's ``size`` (default medium) and ``footprint`` ``[w, h]`` (None)."""
    size = str(entry.get("size", "medium")).lower()
    try:
        size_rank(size)
    except ValueError as exc:
        raise BattleInputError(f"{where}.size: {exc}") from None
    dims = entry.get("footprint")
    return size, (Footprint(int(dims[0]), int(dims[1])) if dims is not None else None)


def _frozen(values: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType({k: int(values[k]) for k in SHEET_KEYS})


def load_roster(path: PathLike | None = None) -> Roster:
    """The roster of a file (``None``: ``resources/roster.json``, read once)."""
    if path is None:
        return _default_roster()
    return roster_from_dict(read_json(path), str(path))


@cache
def _default_roster() -> Roster:
    return roster_from_dict(read_json(DEFAULT_ROSTER_PATH), str(DEFAULT_ROSTER_PATH))


def sheet_for(character: Character, roster: Roster) -> Sheet:
    """The battle sheet of a map character (decision B6).

    Move, Range, flight, size and footprint are the character's own fields (the map
    rules use them; S21).  Each key of :data:`SHEET_KEYS` comes from, in order: the character's
    ``attributes``; an alias there (``accuracy``, ``defense``, ``damage``); the
    archetype whose name matches the character's name; the roster defaults.
    Raises :class:`BattleInputError` naming the character and the key for a value
    below its minimum (e.g. Initiative 0: the character would never act).
    """
    arch = roster.find(character.name) if character.name else None
    base = arch.values if arch is not None else roster.defaults
    attrs = character.attributes
    values: dict[str, int] = {}
    for key in SHEET_KEYS:
        if key in attrs:
            values[key] = int(attrs[key])
    for alias, keys in ALIASES.items():
        if alias in attrs:
            for key in keys:
                values.setdefault(key, int(attrs[alias]))
    for key in SHEET_KEYS:
        value = values.setdefault(key, base[key])
        if value < MINIMUM[key]:
            raise BattleInputError(
                f"character {character.id!r}: {key} must be at least {MINIMUM[key]}, "
                f"not {value}")
    for key, value in (("move", character.move), ("range", character.range)):
        if value < 0:
            raise BattleInputError(f"character {character.id!r}: {key} must be at least 0, "
                                   f"not {value}")
    size = character.size
    try:
        size_rank(size)
    except ValueError as exc:
        raise BattleInputError(f"character {character.id!r}: {exc}") from None
    return Sheet(
        name=character.name or character.id, archetype=arch.name if arch else "",
        move=character.move, range=character.range, flight=character.flight,
        damage_type=arch.damage_type if arch else roster.default_damage_type,
        abilities=arch.abilities if arch else (), size=size,
        dimensions=character.footprint, **values)
