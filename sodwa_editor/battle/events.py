"""The battle log: one immutable event per thing that happens (issue 11 section 4).

Every event is a frozen dataclass with a ``kind`` and :meth:`Event.to_dict` (plain
JSON types, keys in field order).  The log is a pure function of the map, the
teams, the rules, the controllers and the seed: the same inputs give an equal
list of events (tests/test_battle_loop.py).

>>> TurnStarted(1, 10, 0, 0, 1000, 500, "highest IP", (0,)).to_dict()["kind"]
'turn_started'
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .attack import Modifier
from .records import quick_init

Tile = tuple[int, int]
#: An Obstructing feature: ``(x, y, "")`` a tile, ``(x, y, "E")``/``(x, y, "S")`` the border
#: on that edge (the engine's :class:`~sodwa_editor.engine.model.Edge` key).
Feature = tuple[int, int, str]


def _plain(value: Any) -> Any:
    if isinstance(value, Modifier):
        return {"source": value.source, "stat": value.stat, "amount": value.amount}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every battle event (abilities add their own subclasses)."""

    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


@quick_init
@dataclass(frozen=True, slots=True)
class FirstTie(Event):
    """The team that wins a tie across teams before any turn was taken (B12), logged
    once, before the first turn: ``rule`` is ``order.first_tie`` (``"seeded_coin"``: a
    coin drawn from the battle's setup stream; ``"team_order"``: team 0) and
    ``decided`` whether the first turn was such a tie, so the coin chose who acts."""

    kind: ClassVar[str] = "first_tie"
    team: int
    rule: str
    decided: bool


@quick_init
@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """A turn begins (RB *The Turn System*): the turn number (from 1), the tick, the
    actor, its team, its IP before and after the turn cost, the tie-break that
    applied and the candidates the team chose from."""

    kind: ClassVar[str] = "turn_started"
    turn: int
    tick: int
    actor: int
    team: int
    ip_before: int
    ip: int
    reason: str
    candidates: tuple[int, ...]
    move: int = 0  # steps a Move Action may cover this turn (after the halving, B15)


@quick_init
@dataclass(frozen=True, slots=True)
class Moved(Event):
    """A Move Action: the path (start and end included), steps, the allowance it had,
    and the actor's IP afterwards."""

    kind: ClassVar[str] = "moved"
    actor: int
    path: tuple[Tile, ...]
    steps: int
    allowance: int
    ip: int


@quick_init
@dataclass(frozen=True, slots=True)
class Attacked(Event):
    """A Basic Attack on a character, as the BIP shows it after confirming (RB: "the
    Attack Difficulty ..., your roll result (01 to 100), how much damage was dealt,
    and how much HP the target has left") plus everything needed to check it: ``los``
    the engine's line-of-sight class from attacker to defender (``"clear"``,
    ``"impeded"``; a melee attack, which needs none, may also be ``"blocked"``) and
    ``aware`` whether the defender was aware of the attack (its Evasion counts, B19);
    every modifier by source (``modifiers``).  ``sodwa audit-log`` re-derives the
    numbers (docs/battle-log.md)."""

    kind: ClassVar[str] = "attacked"
    actor: int
    target: int
    attack_kind: str
    tav: int
    tdv: int
    evasion: int
    modifiers: tuple[Modifier, ...]
    difficulty: int
    need_roll: int
    dice: tuple[int, int]
    roll: int
    doubles: bool
    karma_before: int
    karma_after: int
    karma_spent: int
    karma_gained: int
    success: bool
    natural: bool
    damage: int
    hp_after: int
    ip: int
    los: str
    aware: bool


@quick_init
@dataclass(frozen=True, slots=True)
class TerrainAttacked(Event):
    """A Basic Attack on an Obstructing tile or border: damage dealt, the feature's
    accumulated damage and the threshold that destroys it (B39); the log adds
    ``left``, the damage the feature still takes before it is destroyed (0: destroyed
    now, a :class:`TerrainDestroyed` follows)."""

    kind: ClassVar[str] = "terrain_attacked"
    actor: int
    feature: Feature
    attack_kind: str
    damage: int
    total: int
    threshold: int
    ip: int

    @property
    def left(self) -> int:
        """Damage the feature takes before it is destroyed (0: destroyed by this one)."""
        return max(0, self.threshold - self.total)

    def to_dict(self) -> dict[str, Any]:
        out = Event.to_dict(self)
        out["left"] = self.left
        return out


@quick_init
@dataclass(frozen=True, slots=True)
class TerrainDestroyed(Event):
    """An Obstructing feature destroyed (RB: it becomes Difficult Terrain; the tiles
    of a border become Difficult and adjacent); ``rubble``: the tiles now Difficult."""

    kind: ClassVar[str] = "terrain_destroyed"
    feature: Feature
    rubble: tuple[Tile, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Defeated(Event):
    """A character defeated and removed from the board (B32, B35): ``by`` the character
    that defeated it, or :data:`NOBODY` when no character did (terrain, a fall: B54),
    then ``cause`` names what did (``hazardous: lava``, ``fall``; left out of the
    dictionary when a character did, so older logs read the same)."""

    kind: ClassVar[str] = "defeated"
    character: int
    by: int
    tile: Tile
    cause: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = {"kind": self.kind, "character": self.character, "by": self.by,
               "tile": list(self.tile)}
        if self.cause:
            out["cause"] = self.cause
        return out


#: ``Defeated.by`` when no character defeated it (B54: not credited as a kill).
NOBODY = -1


@quick_init
@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """The turn is over: ``passed`` when it took no action (RB TSB: a pass, 500 IP);
    ``spent``: IP the whole turn cost."""

    kind: ClassVar[str] = "turn_ended"
    actor: int
    passed: bool
    spent: int
    ip: int


@quick_init
@dataclass(frozen=True, slots=True)
class BattleEnded(Event):
    """The result: ``winner`` team (None for a draw) and why."""

    kind: ClassVar[str] = "battle_ended"
    winner: int | None
    reason: str
    turns: int
    tick: int


# ------------------------------------------------------------------ area abilities
@quick_init
@dataclass(frozen=True, slots=True)
class AbilityUsed(Event):
    """An area ability used as a Special Action (docs/rules.md *Abilities*): the caster,
    the ability, where it was aimed (None: on its caster), the area's point of origin,
    the tiles it affects now, the IP it cost (the actor's IP after) and its uses left
    (-1: no limit)."""

    kind: ClassVar[str] = "ability_used"
    actor: int
    ability: str
    aim: Tile | None
    origin: Tile | None
    tiles: tuple[Tile, ...]
    ip: int
    uses_left: int


@quick_init
@dataclass(frozen=True, slots=True)
class AreaHit(Event):
    """One victim's roll against an area (AB5-AB9): as :class:`Attacked`, plus whether
    the victim is on the caster's team (``ally``), the effect it came from (-1: the
    cast itself) and the Maim roll (0: none) and its outcome; ``los``: ``"impeded"``
    when the area's line to the victim is impeded (its Impeding modifier, AE), else
    ``"clear"``; ``aware``: the victim's Evasion counts (B19)."""

    kind: ClassVar[str] = "area_hit"
    actor: int
    ability: str
    target: int
    ally: bool
    effect: int
    attack_kind: str
    tav: int
    tdv: int
    evasion: int
    modifiers: tuple[Modifier, ...]
    difficulty: int
    need_roll: int
    dice: tuple[int, int]
    roll: int
    doubles: bool
    karma_before: int
    karma_after: int
    karma_spent: int
    karma_gained: int
    success: bool
    natural: bool
    damage: int
    hp_after: int
    maim_roll: int
    maimed: bool
    los: str
    aware: bool


@quick_init
@dataclass(frozen=True, slots=True)
class EffectPlaced(Event):
    """A lingering area or a falling object put on the board (AB11, AB12): its id, the
    ability and caster, ``effect_kind`` (``"lingering"`` or ``"falling"``), its point
    of origin and the upkeeps it lasts or falls."""

    kind: ClassVar[str] = "effect_placed"
    effect: int
    ability: str
    caster: int
    effect_kind: str
    origin: Tile
    upkeeps: int


@quick_init
@dataclass(frozen=True, slots=True)
class EffectUpkeep(Event):
    """An effect's upkeep at the start of its caster's turn (AB10): its Reach now (a
    lingering area grows by its Emanating), the upkeeps left after this one, and the
    tiles it affects."""

    kind: ClassVar[str] = "effect_upkeep"
    effect: int
    ability: str
    caster: int
    reach: int
    upkeeps_left: int
    tiles: tuple[Tile, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class EffectEnded(Event):
    """An effect leaves the board: ``reason`` ``"duration over"``, ``"landed"``, ``"shot
    down"`` or ``"caster defeated"``."""

    kind: ClassVar[str] = "effect_ended"
    effect: int
    ability: str
    reason: str


@quick_init
@dataclass(frozen=True, slots=True)
class FallingStruck(Event):
    """A Basic Attack on a falling object (AB12): no roll, the attacker's Ranged Damage;
    the damage added up and the durability that destroys it."""

    kind: ClassVar[str] = "falling_struck"
    actor: int
    effect: int
    damage: int
    total: int
    durability: int
    ip: int
