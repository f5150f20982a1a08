"""The roster's value model: a suggested point Cost for an archetype, with each term.

docs/map-format.md (*Roster*) gives the model the shipped costs follow: "a starting
point for the designer, not a rule: costs are data".  The roster editor shows its
answer beside the set cost and the terms on hover.  Its numbers live in one place,
:class:`ValueModel` (a designer may pass another), never in the battle rules.

With ``p(d) = (101 - clamp(d, 2, 100)) / 100``: offense is the better of melee
``p(115 - melee_accuracy) x (melee_damage - 1) x (1 + Move/10) x 0.6`` and ranged
``p(115 - ranged_accuracy) x (ranged_damage - 1) x (1 + Range/10)`` (ranged only with
Range 2 or more), times Initiative / 100, plus what the abilities add; durability is
Health / (mean of ``p(melee_defense + evasion - 55)`` and ``p(ranged_defense + evasion
- 55)`` x ``max(1, 4.5 - damage_reduction)``); cost = sqrt(offense x durability)
scaled so the default sheet (Move 5, Range 5, no abilities) costs 100, rounded to 5.

>>> from sodwa_editor.battle.sheet import load_roster
>>> roster = load_roster()
>>> knight = suggested_cost(roster.find("Knight"), roster)
>>> knight.cost, knight.offense_kind, round(knight.raw, 1)
(120, 'melee', 117.8)
>>> suggested_cost(roster.find("Hawk"), roster).cost
135
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from ..engine.area_notation import AreaType
from ..engine.areas import area
from ..engine.model import MapModel
from .ability_defs import AbilityDef
from .sheet import Archetype, Roster


@dataclass(frozen=True, slots=True)
class ValueModel:
    """The numbers of docs/map-format.md's value model (defaults: the documented ones)."""

    #: p(d) reads a difficulty clamped to [lowest_roll, 100]
    lowest_roll: int = 2
    #: an attack's difficulty is this minus Accuracy (a standard defender's Defense + Evasion)
    standard_defense: int = 115
    #: a defender's difficulty is Defense + Evasion minus this (a standard attacker's Accuracy)
    standard_accuracy: int = 55
    #: damage a standard defender's Damage Reduction takes off a hit
    standard_dr: int = 1
    #: melee offense is worth this much of ranged (a melee attacker must walk up)
    melee_factor: float = 0.6
    #: Move (melee) or Range (ranged) adds this fraction per tile
    per_tile: float = 0.1
    #: durability divides by max(1, this - damage_reduction)
    dr_base: float = 4.5
    #: the sheet of this Move and Range with the roster's defaults costs ``scale_to``
    default_move: int = 5
    default_range: int = 5
    scale_to: int = 100
    #: costs are rounded to a multiple of this
    round_to: int = 5
    #: a character takes about this many turns; an ability with ``uses`` replaces the
    #: Basic Attack on min(uses, turns) of them
    turns: int = 8
    #: an area catches 1 + (tiles - 1) / this many enemies beside its aim
    tiles_per_victim: int = 8
    #: a falling object may be dodged or shot down
    falling_factor: float = 0.75
    #: an ability's use is worth this IP over its ``ip_cost``
    reference_ip: int = 250
    #: the open map the area's tiles are counted on is at most this many tiles across
    open_map_most: int = 81


DEFAULT_MODEL = ValueModel()


@dataclass(frozen=True, slots=True)
class AbilityTerm:
    """What one ability adds to the offense: its area's tiles on an open map, the
    victims that makes, the worth of one use, and the offense added."""

    name: str
    tiles: int
    victims: float
    use: float
    added: float


@dataclass(frozen=True, slots=True)
class CostTerms:
    """Every term of the suggested cost of one archetype."""

    melee: float
    ranged: float
    offense_kind: str
    basic_offense: float
    abilities: tuple[AbilityTerm, ...]
    offense: float
    defense_factor: float
    dr_factor: float
    durability: float
    #: sqrt(offense x durability) scaled (before rounding)
    raw: float
    cost: int

    def lines(self) -> list[str]:
        """The terms as lines of text (the roster editor's hover)."""
        out = [f"melee offense {self.melee:.2f}, ranged {self.ranged:.2f}: "
               f"{self.offense_kind} x Initiative/100 = {self.basic_offense:.2f}"]
        out += [f"+ {a.name}: {a.tiles} tiles, {a.victims:.2f} victims, one use "
                f"{a.use:.2f}, adds {a.added:.2f}" for a in self.abilities]
        out += [f"offense {self.offense:.2f}",
                f"durability = Health / ({self.defense_factor:.2f} hit chance x "
                f"{self.dr_factor:.2f} DR factor) = {self.durability:.2f}",
                f"sqrt(offense x durability) scaled = {self.raw:.1f} -> {self.cost}"]
        return out


def hit_chance(difficulty: int, model: ValueModel = DEFAULT_MODEL) -> float:
    """The model's ``p(d)``: the share of d100 rolls at or above ``d`` (clamped).

    >>> hit_chance(50), hit_chance(0), hit_chance(150)
    (0.51, 0.99, 0.01)
    """
    return (101 - min(max(difficulty, model.lowest_roll), 100)) / 100


def _basic(values: Mapping[str, int], move: int, attack_range: int,
           m: ValueModel) -> tuple[float, float]:
    melee = (hit_chance(m.standard_defense - values["melee_accuracy"], m)
             * (values["melee_damage"] - m.standard_dr) * (1 + move * m.per_tile)
             * m.melee_factor)
    ranged = (hit_chance(m.standard_defense - values["ranged_accuracy"], m)
              * (values["ranged_damage"] - m.standard_dr) * (1 + attack_range * m.per_tile)
              if attack_range >= 2 else 0.0)
    return melee, ranged


def _durability(values: Mapping[str, int], m: ValueModel) -> tuple[float, float, float]:
    hit = (hit_chance(values["melee_defense"] + values["evasion"] - m.standard_accuracy, m)
           + hit_chance(values["ranged_defense"] + values["evasion"] - m.standard_accuracy,
                        m)) / 2
    dr = max(1.0, m.dr_base - values["damage_reduction"])
    return hit, dr, values["health"] / (hit * dr)


@lru_cache(maxsize=512)
def area_tiles(ability: AbilityDef, most: int = DEFAULT_MODEL.open_map_most) -> int:
    """Tiles the ability's area reaches on an open map (aimed east at its aim range).

    >>> from sodwa_editor.battle.sheet import load_roster
    >>> area_tiles(load_roster().find("Mage").abilities[0])
    9
    """
    s = ability.spec
    sizes = [s.range, s.reach, s.size, s.emanating, *(r for _, r in s.anchors)]
    across = min(most, 2 * (sum(v or 0 for v in sizes) + 2) + 1)
    centre = across // 2
    caster = (centre, centre)
    target = (min(across - 1, centre + ability.aim_range), centre) if ability.aimed else None
    found = area(MapModel(across, across), s, caster, target=target)
    return max(1, len(found.affected))


def ability_term(ability: AbilityDef, basic_offense: float, initiative: int,
                 m: ValueModel = DEFAULT_MODEL) -> AbilityTerm:
    """One use of an area ability and the offense it adds (docs/map-format.md *Roster*:
    "it replaces the Basic Attack on up to ``uses`` of a character's ~8 turns")."""
    tiles = area_tiles(ability, m.open_map_most)
    victims = 1 + (tiles - 1) / m.tiles_per_victim
    damage = ability.damage if ability.spec.type is AreaType.ENGULF \
        else ability.damage - m.standard_dr
    use = (hit_chance(m.standard_defense - ability.accuracy, m) * damage * victims
           * (1 + ability.aim_range * m.per_tile))
    if ability.lingers:
        use *= 1 + (ability.spec.duration or 0)
    if ability.spec.type is AreaType.FALLING:
        use *= m.falling_factor
    use *= m.reference_ip / max(1, ability.ip_cost)
    share = min(m.turns if ability.uses is None else ability.uses, m.turns) / m.turns
    added = share * max(0.0, use * initiative / 100 - basic_offense)
    return AbilityTerm(ability.name, tiles, victims, use, added)


def _unscaled(values: Mapping[str, int], move: int, attack_range: int,
              abilities: tuple[AbilityDef, ...], m: ValueModel) -> CostTerms:
    melee, ranged = _basic(values, move, attack_range, m)
    basic = max(melee, ranged) * values["initiative"] / 100
    terms = tuple(ability_term(a, basic, values["initiative"], m) for a in abilities)
    offense = basic + sum(t.added for t in terms)
    hit, dr, durability = _durability(values, m)
    raw = math.sqrt(max(0.0, offense) * durability)
    return CostTerms(melee, ranged, "melee" if melee >= ranged else "ranged", basic, terms,
                     offense, hit, dr, durability, raw, 0)


def suggested_cost(archetype: Archetype, roster: Roster,
                   model: ValueModel = DEFAULT_MODEL) -> CostTerms:
    """The value model's cost of ``archetype`` with every term, scaled by the roster's
    default sheet (the model's Move and Range, no abilities: ``scale_to`` points)."""
    base = _unscaled(roster.defaults, model.default_move, model.default_range, (), model).raw
    own = _unscaled(archetype.values, archetype.move, archetype.range, archetype.abilities,
                    model)
    raw = own.raw / base * model.scale_to if base > 0 else 0.0
    cost = int(model.round_to * round(raw / model.round_to))
    return CostTerms(own.melee, own.ranged, own.offense_kind, own.basic_offense, own.abilities,
                     own.offense, own.defense_factor, own.dr_factor, own.durability, raw, cost)
