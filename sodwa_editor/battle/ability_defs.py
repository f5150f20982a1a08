"""Abilities as data: the roster's area abilities (RB *Abilities*: "Attack ... allow
for completely new methods of damaging enemy characters and terrain"; the areas of
effect of the companion rulebook ``tiles-movement-and-areas-of-effect.txt``).

An archetype of a roster of ``format_version`` 2 may list ``abilities`` (schemas/
roster.schema.json; docs/map-format.md *Roster*): each is an Attack Ability used as a
Special Action (RB: "Special Actions: These actions are typically associated with
certain Abilities and can have varying IP costs") whose area is written in the
designers' notation (:mod:`sodwa_editor.engine.area_notation`).  The rules that play
them are :mod:`.area_rules` and :mod:`.area_abilities` (docs/rules.md *Abilities*).

>>> d = ability_from_dict({"name": "Fireball", "area": "AoE - Blast - Sphere: Range: 6, "
...     "Reach: 1", "damage": 5, "ip_cost": 250, "accuracy": 60}, "physical", "r.json: a")
>>> d.spec.reach, d.uses, d.damage_type, d.lingers
(1, None, 'physical', False)
>>> try:
...     ability_from_dict({"name": "Bad", "area": "AoE - Blast - Cone: 5|3:7", "damage": 1,
...                        "ip_cost": 0, "accuracy": 0}, "physical", "r.json: a")
... except BattleInputError as exc:
...     print(exc)
r.json: a.area: Cone: 5|3:7: anchor reach 7 exceeds the cone's range 5
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.area_notation import LINGERING, AreaSpec, AreaType, NotationError, Shape, parse_area
from .jsonfiles import BattleInputError

#: Shapes a battle plays: each use is aimed at one tile (or none), so the legal uses can
#: be listed.  Specified and Trail choose several tiles in order (every combination of
#: them would be an action): not playable in battles yet (docs/rules.md AB2).
PLAYABLE = frozenset({Shape.SPHERE, Shape.DISK, Shape.CUBE, Shape.LINE, Shape.RAIL,
                      Shape.CONE, Shape.RAY})
#: Types whose hit may Maim an unarmored victim (seed: "Impact AoE may Maim Unarmored
#: Victims"; Engulf "fills the area without an Impact"): the impacts.
IMPACT = frozenset({AreaType.BLAST, AreaType.FALLING})


@dataclass(frozen=True, slots=True)
class AbilityDef:
    """One area ability of an archetype (a roster entry; docs/map-format.md *Roster*).

    ``notation``: the area as written; ``spec``: parsed; ``damage`` and ``damage_type``
    per victim hit (Damage Reduction applies as to a Basic Attack, except Engulf: AB8);
    ``ip_cost``: its IP as a Special Action; ``accuracy``: the Accuracy its rolls use;
    ``uses``: per battle (None: no limit); ``with_attack``: it may share a turn with the
    Attack Action (else it takes the Basic Attack's place: AB3)."""

    name: str
    notation: str
    spec: AreaSpec
    damage: int
    damage_type: str
    ip_cost: int
    accuracy: int
    uses: int | None = None
    with_attack: bool = False

    @property
    def lingers(self) -> bool:
        """A lingering area (Aura, Emanation, Engulf with a Duration): it stays on the
        board and hits again at each upkeep (AB11)."""
        return self.spec.type in LINGERING and self.spec.duration is not None

    @property
    def falls(self) -> bool:
        """A Falling area with an impact timer: an object that falls for ``timer``
        upkeeps before it lands (AB12)."""
        return self.spec.type is AreaType.FALLING and (self.spec.timer or 0) > 0

    @property
    def at_range(self) -> bool:
        """Aimed at a point of origin chosen within Range (a Sphere, Disk or Cube with a
        Range: AE1), not from the caster."""
        return self.spec.shape in (Shape.SPHERE, Shape.DISK, Shape.CUBE) \
            and self.spec.range is not None

    @property
    def aimed(self) -> bool:
        """Aimed at a tile: every shape but a Sphere, Disk or Cube on its caster."""
        return self.at_range or self.spec.shape in (Shape.LINE, Shape.RAIL, Shape.CONE,
                                                    Shape.RAY)

    @property
    def aim_range(self) -> int:
        """How far from the caster its aim may be: a point of origin's Range, a Line,
        Rail or Cone's length, a Ray's radius (at least 1 for a line-shaped area)."""
        s = self.spec
        if s.shape is Shape.RAY:
            return max(1, s.reach or 0)
        if s.shape in (Shape.LINE, Shape.RAIL, Shape.CONE):
            return max(1, s.range or 0)
        return s.range or 0

    def to_dict(self) -> dict[str, Any]:
        """The roster entry of this ability (``ability_from_dict`` reads it back)."""
        out: dict[str, Any] = {"name": self.name, "area": self.notation, "damage": self.damage,
                               "damage_type": self.damage_type, "ip_cost": self.ip_cost,
                               "accuracy": self.accuracy}
        if self.uses is not None:
            out["uses"] = self.uses
        if self.with_attack:
            out["with_attack"] = True
        return out


def ability_from_dict(entry: dict[str, Any], default_type: str, where: str) -> AbilityDef:
    """The :class:`AbilityDef` of a roster entry the schema accepted; ``where`` names
    it in errors (``roster.json: characters[2].abilities[0]``).  Raises
    :class:`BattleInputError` with one line: a notation the parser refuses, a shape a
    battle cannot play, an Emanating area without a Duration."""
    try:
        spec = parse_area(entry["area"])
    except NotationError as exc:
        raise BattleInputError(f"{where}.area: {exc}") from None
    if spec.shape not in PLAYABLE:
        raise BattleInputError(f"{where}.area: {spec.shape.value}: not playable in battles "
                               "yet (it chooses several tiles; playable: Sphere, Disk, Cube, "
                               "Line, Rail, Cone, Ray)")
    if spec.emanating is not None and spec.duration is None:
        raise BattleInputError(f"{where}.area: Emanating: {spec.emanating}: an Emanating area "
                               "needs a Duration (it grows at each upkeep for the Duration "
                               "of the Effect)")
    return AbilityDef(name=entry["name"], notation=entry["area"], spec=spec,
                      damage=entry["damage"], damage_type=entry.get("damage_type", default_type),
                      ip_cost=entry["ip_cost"], accuracy=entry["accuracy"],
                      uses=entry.get("uses"), with_attack=bool(entry.get("with_attack", False)))


def abilities_from_list(entries: Sequence[dict[str, Any]], default_type: str, where: str,
                        known: dict[str, AbilityDef]) -> tuple[AbilityDef, ...]:
    """An archetype's ``abilities`` (``where``: its JSON path).  Names are unique in an
    archetype; two archetypes may share an ability only with the same definition
    (``known``: the roster's so far, by name), since a battle's action names it."""
    out: list[AbilityDef] = []
    seen: set[str] = set()
    for k, entry in enumerate(entries):
        at = f"{where}[{k}]"
        d = ability_from_dict(entry, default_type, at)
        if d.name in seen:
            raise BattleInputError(f"{at}.name: ability {d.name!r} appears twice")
        seen.add(d.name)
        other = known.setdefault(d.name, d)
        if other != d:
            raise BattleInputError(f"{at}: ability {d.name!r} is defined differently by "
                                   "another archetype (an ability's name names one definition)")
        out.append(d)
    return tuple(out)
