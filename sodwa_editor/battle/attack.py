"""The attack roll (RB *Attacking and Defending*, *Combat Modifiers*, BIP).

"take the defending character's Defense, add Evasion (if applicable), and apply
any relevant modifiers ... This total is the Total Defense Value. Then, take the
attacking character's Accuracy and apply any relevant modifiers. This total is
the Total Attack Value. Then, subtract the Total Attack Value from the Total
Defense Value. The result is the difficulty of the attack."

:func:`preview_attack` is pure: from two sheets and the :class:`Situation` (the
facts the battle state reads off the board: adjacency, LoS class, levels, who
moved, awareness, Liquid) it gives everything the Battle Information Panel shows
before the attack is confirmed, and touches no random stream.
:func:`resolve_attack` applies one d100 roll to a preview.

>>> from sodwa_editor.battle.rules import default_rules
>>> from sodwa_editor.battle.sheet import load_roster
>>> rules = default_rules()
>>> a = load_roster().find("Archer").sheet()
>>> p = preview_attack(a, a, Situation(adjacent=False, defender_aware=False), rules)
>>> p.kind, p.tav, p.tdv, p.difficulty, p.hits
('ranged', 60, 100, 40, 61)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..engine.distance import distance
from . import karma as karma_rules
from .dice import D100, needed_roll
from .records import quick_init
from .rules import Rules
from .sheet import Sheet

Kind = Literal["melee", "ranged"]
Stat = Literal["accuracy", "defense", "evasion"]


@quick_init
@dataclass(frozen=True, slots=True)
class Modifier:
    """One modifier of an attack, listed by source in the BIP (``stat`` it changes)."""

    source: str
    stat: Stat
    amount: int


@quick_init
@dataclass(frozen=True, slots=True)
class Situation:
    """Facts about one attack that the battle state reads off the board.

    ``adjacent``: the engine's adjacency (a melee attack iff true).  ``impeded``:
    the engine's LoS class from attacker to defender is *impeded*.  Levels are
    the tiles' elevations.  ``*_moved``: took a Move Action since the start of
    its own last turn.  ``defender_aware``: the awareness rule's answer
    (:func:`is_aware`).  ``extra``: modifiers from abilities.
    """

    adjacent: bool
    impeded: bool = False
    attacker_level: int = 0
    defender_level: int = 0
    attacker_moved: bool = False
    defender_moved: bool = False
    defender_aware: bool = True
    attacker_on_liquid: bool = False
    defender_on_liquid: bool = False
    extra: tuple[Modifier, ...] = ()


@quick_init
@dataclass(frozen=True, slots=True)
class AttackPreview:
    """Everything the BIP shows before an attack is confirmed (RB *The Battle UI*).

    ``accuracy``/``defense`` are the sheets' base values of the attack's kind,
    ``evasion`` the Evasion added (0 when the defender is not aware), ``modifiers``
    every other term by source; ``difficulty = tdv - tav``; ``need_roll`` the lowest
    roll that succeeds; ``dr`` the damage the defender ignores; ``hits`` and
    ``hits_with_karma`` the successful rolls out of 100 without and with the
    ``karma`` points the attacker's team holds.
    """

    kind: Kind
    accuracy: int
    defense: int
    evasion: int
    modifiers: tuple[Modifier, ...]
    tav: int
    tdv: int
    difficulty: int
    need_roll: int
    dr: int
    damage_on_hit: int
    hits: int
    karma: int
    hits_with_karma: int

    @property
    def p_hit(self) -> float:
        return self.hits / 100

    @property
    def p_hit_with_karma(self) -> float:
        return self.hits_with_karma / 100


def is_aware(mode: str, defender_sees_attacker: bool) -> bool:
    """Whether the defender adds its Evasion (RB *Attributes*: "Evasion raises a
    character's defense against any attacks it is aware of. Typically, if an
    attack originates from within the character's Line-of-Sight, the character
    is aware of the attack"; decision B19).  ``defender_sees_attacker``: the
    defender's own LoS to the attacker's tile is not blocked."""
    return True if mode == "always" else defender_sees_attacker


def modifiers(s: Situation, rules: Rules) -> tuple[Modifier, ...]:
    """Every modifier of an attack, in a fixed order, zero ones left out.

    RB *Combat Modifiers*: Impeding LoS (+impeded_defense once, ranged only,
    B20), elevation (B21), a Move Action (Accuracy penalty for the mover, Defense
    bonus for a moved defender, until its next turn; B22), Liquid (B23), then the
    abilities' ``extra`` modifiers.
    """
    m = rules.modifiers
    out: list[Modifier] = []
    gap = s.attacker_level - s.defender_level
    if gap:
        steps = abs(gap) if m.elevation_per_level else 1
        amount = (m.elevation_higher_accuracy if gap > 0 else m.elevation_lower_accuracy) * steps
        if amount:
            out.append(Modifier("higher ground" if gap > 0 else "lower ground", "accuracy",
                                amount))
    if s.attacker_moved and m.moved_accuracy:
        out.append(Modifier("attacker moved", "accuracy", m.moved_accuracy))
    liquid = rules.terrain.liquid
    if s.attacker_on_liquid and liquid.accuracy:
        out.append(Modifier("attacker in liquid", "accuracy", liquid.accuracy))
    if s.impeded and not s.adjacent and m.impeded_defense:
        out.append(Modifier("impeded line of sight", "defense", m.impeded_defense))
    if s.defender_moved and m.moved_defense:
        out.append(Modifier("defender moved", "defense", m.moved_defense))
    if s.defender_on_liquid:
        if liquid.defense:
            out.append(Modifier("defender in liquid", "defense", liquid.defense))
        if liquid.evasion and s.defender_aware:
            out.append(Modifier("defender in liquid", "evasion", liquid.evasion))
    out.extend(s.extra)
    return tuple(out)


def damage_on_hit(attacker: Sheet, defender: Sheet, melee: bool, rules: Rules) -> tuple[int, int]:
    """``(dr, damage)``: the Damage Reduction that applies and the damage a hit deals.

    RB: "Damage Reduction lowers the value of incoming Physical, Energy, and
    Magical damage": damage of a type in ``combat.dr_applies_to`` is lowered by
    DR, never below ``combat.min_damage`` (decision B25).
    """
    dr = defender.damage_reduction if attacker.damage_type in rules.combat.dr_applies_to else 0
    return dr, max(rules.combat.min_damage, attacker.damage(melee) - dr)


def preview_attack(attacker: Sheet, defender: Sheet, situation: Situation, rules: Rules,
                   karma: int = 0) -> AttackPreview:
    """The BIP's numbers for a Basic Attack (pure; no random stream is touched).

    Kind: melee iff adjacent (RB: "If the target is adjacent to the attacking
    character, the attack is considered a Melee Attack"); the kind's Accuracy,
    Defense (B17) and Damage; TDV = Defense + Evasion if aware + modifiers;
    TAV = Accuracy + modifiers; difficulty = TDV - TAV.  ``karma``: points the
    attacker's team holds (:func:`.karma.available`).
    """
    melee = situation.adjacent
    mods, acc, dfn, evasion, tav, tdv = _totals(attacker, defender, situation, rules)
    difficulty = tdv - tav
    dr, dealt = damage_on_hit(attacker, defender, melee, rules)
    need = needed_roll(difficulty, rules.dice)
    hits = karma_rules.successes(difficulty, 0, rules)
    return AttackPreview(
        kind="melee" if melee else "ranged", accuracy=acc, defense=dfn, evasion=evasion,
        modifiers=mods, tav=tav, tdv=tdv, difficulty=difficulty, need_roll=need, dr=dr,
        damage_on_hit=dealt, hits=hits, karma=karma,
        hits_with_karma=karma_rules.successes(difficulty, karma, rules) if karma > 0 else hits)


def _totals(attacker: Sheet, defender: Sheet, situation: Situation, rules: Rules
            ) -> tuple[tuple[Modifier, ...], int, int, int, int, int]:
    """``(modifiers, accuracy, defense, evasion, TAV, TDV)`` of an attack (the
    arithmetic of :func:`preview_attack`, which documents it)."""
    melee = situation.adjacent
    mods = modifiers(situation, rules)
    acc = attacker.accuracy(melee)
    dfn = defender.defense(melee)
    evasion = defender.evasion if situation.defender_aware else 0
    tav, tdv = acc, dfn + evasion
    for mod in mods:
        if mod.stat == "accuracy":
            tav += mod.amount
        else:
            tdv += mod.amount
    return mods, acc, dfn, evasion, tav, tdv


def difficulty_and_damage(attacker: Sheet, defender: Sheet, situation: Situation,
                          rules: Rules) -> tuple[int, int]:
    """:func:`preview_attack`'s ``difficulty`` and ``damage_on_hit`` without the rest of
    the preview (for callers that ask many situations: the AIs)."""
    _mods, _acc, _dfn, _evasion, tav, tdv = _totals(attacker, defender, situation, rules)
    return tdv - tav, damage_on_hit(attacker, defender, situation.adjacent, rules)[1]


@quick_init
@dataclass(frozen=True, slots=True)
class AttackResult:
    """What the BIP shows after the attack (RB: "the Attack Difficulty ..., your roll
    result (01 to 100), how much damage was dealt, and how much HP the target has
    left"), plus the dice, Doubles and karma for the battle log."""

    preview: AttackPreview
    dice: D100
    roll: int
    success: bool
    natural: bool
    doubles: bool
    doubles_effect: bool
    karma_spent: int
    karma_gained: int
    pool_before: int
    pool_after: int
    damage: int
    hp_before: int
    hp_after: int
    defeated: bool


def resolve_attack(preview: AttackPreview, dice: D100, pool: int, team: int, hp_before: int,
                   rules: Rules) -> AttackResult:
    """Apply one d100 roll to a previewed attack by ``team`` (0 or 1).

    Success and karma by :func:`.karma.resolve_roll`; Doubles always recorded from
    the raw dice, effective only on a success when ``doubles.require_success``
    (B26); damage on a success; defeated when HP falls to
    ``combat.defeated_at_or_below`` or below (B32).
    """
    roll = dice.value
    success, natural, spent, gained, pool_after = karma_rules.resolve_roll(
        preview.difficulty, roll, pool, team, rules)
    doubles = dice.doubles
    damage = preview.damage_on_hit if success else 0
    hp_after = hp_before - damage
    return AttackResult(
        preview=preview, dice=dice, roll=roll, success=success, natural=natural,
        doubles=doubles, doubles_effect=doubles and (success or not rules.doubles.require_success),
        karma_spent=spent, karma_gained=gained, pool_before=pool, pool_after=pool_after,
        damage=damage, hp_before=hp_before, hp_after=hp_after,
        defeated=hp_after <= rules.combat.defeated_at_or_below)


def within_range(a: tuple[int, int], b: tuple[int, int], attack_range: int, rules: Rules) -> bool:
    """RB: "the attacking character must select a target within a number of tiles
    equal to the attacker's Range attribute"."""
    return distance(a, b, rules.targeting.range_metric) <= attack_range
