"""The roster's area abilities in battles (docs/rules.md *Abilities*, AB1-AB13): each
:class:`AreaAbility` is one ability of the roster, used as a Special Action
(``UseAbility(name, (x, y))`` aimed at a tile, ``UseAbility(name)`` on its caster),
through the abilities interface (:mod:`.abilities`).

A battle whose sheets have area abilities gets one :class:`AreaAbility` per ability
and one :class:`~.area_effects.EffectKeeper` (:func:`abilities_for`; the battle state
calls it when it is built).  A battle without them is exactly as before.

The Battle Information Panel's API, Qt-free (for the playtest):

* :func:`ability_actions`: the actor's legal ability uses (and falling objects to
  strike);
* :func:`ability_area`: the area of a use (affected tiles, stopped tiles with the
  reason, a Blast's damage left and walls);
* :func:`preview_ability`: per victim its difficulty, chance without and with karma,
  damage, and whether it is an ally (:class:`AreaPreview`); pure;
* :func:`.area_effects.board_effects`: the effects on the board, for drawing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..engine.area_notation import AreaType
from ..engine.areas import Area
from ..engine.distance import distance
from ..engine.footprint import Footprint, creatures_adjacent
from ..engine.footprint_los import FootprintLos, footprint_los
from ..engine.terrain import Crossing
from .abilities import UseAbility
from .ability_defs import AbilityDef
from .area_effects import FALLING, LINGERING, Effect, EffectKeeper, place
from .area_rules import (
    AreaState,
    Roll,
    VictimPreview,
    area_of,
    base_reach,
    break_walls,
    hit_victims,
    spared_in,
    victims,
    wall_feature,
)
from .attack import Modifier
from .board import Feature, Tile
from .clock import ActionType
from .events import AbilityUsed, EffectPlaced, Event
from .sheet import Sheet

#: ``state.effects`` key of a character's uses of an ability: ``(USES, actor, name)``.
USES = "uses"


@dataclass(frozen=True)
class AreaPreview:
    """What the BIP shows before an area ability is confirmed (pure): the ability, its
    caster and aim, the area (``area.affected``, ``area.stopped`` with the reasons), why
    it is refused (None: it may be used), every victim (:class:`VictimPreview`: allies
    marked ``ally``), the characters in it that are no victims and why, the walls a
    Blast breaks and the damage it leaves in others, and for an effect that stays the
    upkeeps it lasts (``lingers``) or falls (``falls``)."""

    ability: AbilityDef
    caster: int
    aim: Tile | None
    area: Area
    refused: str | None
    victims: tuple[VictimPreview, ...] = ()
    spared: tuple[tuple[int, str], ...] = ()
    walls: tuple[Feature, ...] = ()
    wall_damage: tuple[tuple[Feature, int], ...] = field(default=())
    lingers: int = 0
    falls: int = 0


class AreaAbility:
    """One area ability of the roster (an Attack Ability used as a Special Action)."""

    def __init__(self, d: AbilityDef) -> None:
        self.d = d
        self.name = d.name

    # ------------------------------------------------------------ who, when, where
    def has(self, state: AreaState, actor: int) -> bool:
        return self.d in state.sheets[actor].abilities

    def uses_left(self, state: AreaState, actor: int) -> int | None:
        """Uses left this battle (None: no limit)."""
        if self.d.uses is None:
            return None
        return self.d.uses - state.effects.get((USES, actor, self.name), 0)

    def turn_refusal(self, state: AreaState, actor: int) -> str | None:
        """Why ``actor`` cannot use it now, wherever it aims (AB1-AB3; the Special
        Action's own per-turn limit is checked by :func:`.actions.refusal`)."""
        d = self.d
        if not self.has(state, actor):
            return f"{state.names[actor]!r} has no ability {self.name!r}"
        if self.uses_left(state, actor) == 0:
            return f"{self.name!r} has no uses left ({d.uses} per battle)"
        turn = state.clock.current
        if turn is not None and not d.with_attack and turn.used[ActionType.ATTACK]:
            return (f"{self.name!r} takes the Basic Attack's place: the Attack Action was "
                    "taken this turn")
        if d.spec.type is AreaType.FALLING and state.board.model.setting == "indoor" \
                and not state.rules.abilities.falling_indoors:
            return (f"{self.name!r}: an indoor map: nothing falls through its ceiling "
                    "(rules key abilities.falling_indoors)")
        return None

    def engaged(self, state: AreaState, actor: int) -> list[Tile]:
        """The tiles of the enemies adjacent to ``actor`` (B38), row-major."""
        a, board = state.pos[actor], state.board
        if state.sized:  # every square of each enemy adjacent by footprints (S5, S25)
            fp = state.fp
            return sorted((t for j in range(len(state.pos))
                           if state.alive(j) and state.team[j] != state.team[actor]
                           and creatures_adjacent(board.model, a, fp[actor], state.pos[j],
                                                  fp[j])
                           for t in fp[j].squares(state.pos[j])), key=lambda t: (t[1], t[0]))
        return sorted((state.pos[j] for j in range(len(state.pos))
                       if state.alive(j) and state.team[j] != state.team[actor]
                       and board.adjacent(a, state.pos[j])), key=lambda t: (t[1], t[0]))

    def aim_refusal(self, state: AreaState, actor: int, aim: Tile | None,
                    engaged: Sequence[Tile] | None = None) -> str | None:
        """Why ``aim`` is not a legal aim for ``actor`` (AB2)."""
        d = self.d
        if not d.aimed:
            return None if aim is None else \
                f"{self.name!r} is centred on its caster: it takes no tile"
        if aim is None:
            return f"{self.name!r} is aimed: give a tile"
        x, y = aim
        if not state.board.in_bounds(x, y):
            return f"({x}, {y}) is off the map"
        a, fp = state.pos[actor], state.fp[actor]
        own = fp.covers(a, aim)
        if own and not d.at_range:
            return f"{self.name!r} is aimed away from its caster: choose another tile"
        rng = d.aim_range  # from the caster's nearest square (S24, S29)
        dist = distance(fp.nearest(a, aim), aim, state.rules.targeting.range_metric)
        if dist > rng:
            return f"({x}, {y}) is {dist:g} tiles away, beyond {self.name!r}'s {rng}"
        engaged = self.engaged(state, actor) if engaged is None else engaged
        if engaged and aim not in engaged:
            names = ", ".join(repr(state.names[state.occ[t]]) for t in engaged)
            return f"must target the adjacent enem{'y' if len(engaged) == 1 else 'ies'}: {names}"
        if d.at_range and not own:
            if not state.board.standable[y][x]:
                return f"({x}, {y}) is Obstructing terrain: nothing stands there"
            if fp == (1, 1):
                if state.crossing(a, aim) is Crossing.BLOCKED:
                    return (f"no line of sight to ({x}, {y}): "
                            f"{state.los_board().los(a, aim).describe()}")
            else:  # the best line from any square (S9, S29)
                line = sight_to_tile(state, actor, aim)
                if line.crossing is Crossing.BLOCKED:
                    return f"no line of sight to ({x}, {y}): {line.describe()}"
        return None

    def aims(self, state: AreaState, actor: int) -> list[Tile | None]:
        """Every legal aim of ``actor`` now, row-major (``[None]``: on its caster)."""
        if not self.d.aimed:
            return [None]
        engaged = self.engaged(state, actor)
        if engaged:
            candidates = list(engaged)
        else:
            (ax, ay), r, fp = state.pos[actor], self.d.aim_range, state.fp[actor]
            w, h = state.board.width, state.board.height
            candidates = [(x, y) for y in range(max(0, ay - r), min(h, ay + fp.height + r))
                          for x in range(max(0, ax - r), min(w, ax + fp.width + r))]
        return [t for t in candidates if self.aim_refusal(state, actor, t, engaged) is None]

    def usable(self, state: AreaState, actor: int) -> bool:
        """``actor`` may still use it this turn somewhere (the turn's Special Action is
        left and :meth:`turn_refusal` has nothing against it): the turn is not over."""
        turn = state.clock.current
        return turn is not None and turn.can_take(ActionType.SPECIAL) \
            and self.turn_refusal(state, actor) is None

    # ------------------------------------------------------------ the Ability contract
    def actions(self, state: AreaState, actor: int) -> Iterable[UseAbility]:
        if self.turn_refusal(state, actor) is not None:
            return []
        return [UseAbility(self.name, () if t is None else t) for t in self.aims(state, actor)]

    def refusal(self, state: AreaState, actor: int, action: UseAbility) -> str | None:
        why = self.turn_refusal(state, actor)
        if why is not None:
            return why
        if not _well_formed(action):
            return f"{self.name!r}: give a tile (x, y) or nothing, not {list(action.args)!r}"
        return self.aim_refusal(state, actor, _aim(action))

    def action_type(self, action: UseAbility) -> ActionType:
        return ActionType.SPECIAL

    def cost(self, state: AreaState, action: UseAbility) -> int:
        return self.d.ip_cost

    def preview(self, state: AreaState, actor: int, action: UseAbility) -> AreaPreview:
        """:class:`AreaPreview` of ``action`` (pure)."""
        d = self.d
        aim = _aim(action)
        why = self.refusal(state, actor, action)
        a = area_of(state, d, state.pos[actor], aim, fp=state.fp[actor])
        why = why or a.refused
        if why is not None:
            return AreaPreview(d, actor, aim, a, why)
        if d.falls:  # it lands later (AB12): nobody is hit now
            return AreaPreview(d, actor, aim, a, None, spared=tuple(spared_in(state, d, a)),
                               falls=d.spec.timer or 0)
        return AreaPreview(
            d, actor, aim, a, None, tuple(victims(state, d, actor, a)),
            tuple(spared_in(state, d, a)), tuple(wall_feature(w) for w in a.walls),
            tuple(sorted((wall_feature(w), v) for w, v in a.wall_damage.items())),
            lingers=d.spec.duration or 0 if d.lingers else 0)

    def resolve(self, state: AreaState, actor: int, action: UseAbility, roll: Roll
                ) -> Sequence[Event]:
        """Use it (AB1-AB12): the area from where the caster stands, the turn's Attack
        Action closed unless ``with_attack`` (and a later Move a quarter one, as after a
        Basic Attack: AB3), then a lingering area or a falling object is put on the
        board, a Blast breaks its walls, and every victim is rolled against."""
        d = self.d
        p = self.preview(state, actor, action)
        turn = state.clock.current
        assert turn is not None and p.refused is None, p.refused
        if not d.with_attack:
            turn.close(ActionType.ATTACK)
            if not turn.used[ActionType.MOVE]:
                turn.attack_first = True
        key = (USES, actor, self.name)
        state.effects[key] = state.effects.get(key, 0) + 1
        left = self.uses_left(state, actor)
        team, ip = state.team[actor], state.clock.ip[actor]
        a = p.area
        events: list[Event] = [AbilityUsed(actor, self.name, p.aim, a.origin, a.affected, ip,
                                           -1 if left is None else left)]
        assert a.origin is not None
        effect = -1
        if d.lingers or d.falls:
            e = place(state, Effect(
                0, self.name, actor, team, LINGERING if d.lingers else FALLING,
                state.pos[actor], p.aim, a.origin, base_reach(d.spec),
                (d.spec.duration if d.lingers else d.spec.timer) or 0,
                d.spec.height or 0 if d.falls else 0))
            events.append(EffectPlaced(e.id, e.ability, actor, e.kind, e.origin, e.upkeeps))
            if d.falls:
                return events
            effect = e.id
        events += break_walls(state, actor, a, ip)
        events += hit_victims(state, d, actor, team, p.victims, roll, effect)
        return events

    def modifiers(self, state: AreaState, attacker: int, defender: int) -> Iterable[Modifier]:
        return ()

    def on_event(self, state: AreaState, event: Event) -> Sequence[Event]:
        return ()


def _well_formed(action: UseAbility) -> bool:
    """The action's arguments are a tile ``(x, y)`` or nothing."""
    args = action.args
    return not args or (len(args) == 2 and all(type(v) is int for v in args))


def _aim(action: UseAbility) -> Tile | None:
    """The tile an action aims at (None: none, or arguments that are no tile)."""
    args = action.args
    return (args[0], args[1]) if args and _well_formed(action) else None


def abilities_for(sheets: Sequence[Sheet]) -> tuple[AreaAbility | EffectKeeper, ...]:
    """The abilities of a battle of ``sheets``: one :class:`AreaAbility` per distinct area
    ability, in the order the sheets list them, and the :class:`EffectKeeper`; none
    when no sheet has an area ability (a battle without abilities is as before)."""
    defs: dict[str, AbilityDef] = {}
    for s in sheets:
        for d in s.abilities:
            defs.setdefault(d.name, d)
    if not defs:
        return ()
    return (*(AreaAbility(d) for d in defs.values()), EffectKeeper(defs))


# ------------------------------------------------------------------ the BIP's API
def area_abilities(state: AreaState, actor: int) -> list[tuple[AreaAbility, str | None]]:
    """The actor's area abilities with why each cannot be used now (None: it can),
    for a panel's buttons."""
    out = []
    for a in state.abilities:
        if isinstance(a, AreaAbility) and a.has(state, actor):
            why = a.turn_refusal(state, actor)
            turn = state.clock.current
            if why is None and (turn is None or not turn.can_take(ActionType.SPECIAL)):
                why = "Special Action already taken this turn"
            out.append((a, why))
    return out


def ability_actions(state: AreaState, actor: int, name: str | None = None
                    ) -> list[UseAbility]:
    """The legal uses of ``actor``'s area abilities now (only ``name``'s when given),
    and its Basic Attacks on falling objects (``name`` :data:`STRIKE`)."""
    turn = state.clock.current
    out: list[UseAbility] = []
    for a in state.abilities:
        if name is not None and a.name != name:
            continue
        if isinstance(a, AreaAbility) and turn is not None \
                and turn.can_take(ActionType.SPECIAL) or isinstance(a, EffectKeeper):
            out += a.actions(state, actor)
    return out


def find_area(state: AreaState, name: str) -> AreaAbility | None:
    return next((a for a in state.abilities if isinstance(a, AreaAbility) and a.name == name),
                None)


def ability_area(state: AreaState, actor: int, action: UseAbility) -> Area:
    """The area ``action`` would affect, cast by ``actor`` from where it stands (for a
    template following the pointer: it may be refused, see ``Area.refused``)."""
    a = find_area(state, action.ability)
    if a is None:
        raise ValueError(f"no area ability {action.ability!r} in this battle")
    return area_of(state, a.d, state.pos[actor], _aim(action), fp=state.fp[actor])


def sight_to_tile(state: AreaState, actor: int, tile: Tile) -> FootprintLos:
    """The best line of sight from any square of ``actor`` to ``tile`` (S9, S29), every
    other character's squares blocking (a character on ``tile`` is the target)."""
    a, fp = state.pos[actor], state.fp[actor]
    occupied = [t for t in state.occ if t != tile and not fp.covers(a, t)]
    names, occ = state.names, state.occ
    return footprint_los(state.board.model, a, fp, tile, Footprint(), occupied=occupied,
                         names=lambda t: names[occ[t]] if t in occ else None)


def preview_ability(state: AreaState, actor: int, action: UseAbility) -> AreaPreview:
    """The BIP of ``action`` for ``actor`` now (pure; ``refused`` says why it may not be
    confirmed)."""
    a = find_area(state, action.ability)
    if a is None:
        raise ValueError(f"no area ability {action.ability!r} in this battle")
    return a.preview(state, actor, action)
