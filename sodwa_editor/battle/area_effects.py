"""Effects that stay on the board: lingering areas and falling objects, their upkeep,
the Basic Attack on a falling object, and Maim's lasting Move penalty (docs/rules.md
*Abilities*, AB9-AB12).

The seed: "Emanating: (x) Emanating Effects increase their reach by (x) at each
Upkeep for the Duration of the Effect"; "Falling Effects often have an Impact Timer.
Impact timers count down and resolve during Upkeep"; "Falling Areas of Effect that
involve a falling object are typically able to be targeted during their fall".
SODWA has no Upkeep; an effect's upkeep comes at the start of each of its caster's
turns (AB10).  Effects live in ``state.effects`` under ``("effect", id)`` as frozen
:class:`Effect` records (hashed and copied with the state); :func:`board_effects`
shows them for drawing, Qt-free.

One :class:`EffectKeeper` per battle with area abilities runs every effect; it is
also the ability whose actions are the Basic Attacks on falling objects
(``UseAbility(STRIKE, (effect id,))``, an Attack Action).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..engine.footprint import Footprint, creatures_adjacent
from ..engine.footprint_los import footprint_los
from ..engine.los import crossing_among
from ..engine.terrain import Crossing
from .abilities import UseAbility
from .ability_defs import AbilityDef
from .area_rules import MAIMED, AreaState, Roll, area_of, hit_victims, victims
from .attack import Modifier, within_range
from .board import Tile
from .clock import ActionType
from .events import Defeated, EffectEnded, EffectUpkeep, Event, FallingStruck
from .records import quick_init

#: The name of the Basic Attack on a falling object (an action of :class:`EffectKeeper`).
STRIKE = "strike falling object"
#: ``state.effects`` keys: an effect by id, and the next id.
EFFECT, NEXT_EFFECT = "effect", ("next effect",)
LINGERING, FALLING = "lingering", "falling"


@quick_init
@dataclass(frozen=True, slots=True)
class Effect:
    """An area on the board: ``kind`` :data:`LINGERING` (hits again at each upkeep,
    ``upkeeps`` left) or :data:`FALLING` (lands after ``upkeeps`` more, ``height``
    tiles up, with ``damage`` taken so far); cast by ``caster`` of ``team`` from
    ``source`` aimed at ``aim``, its point of origin ``origin``, its Reach now."""

    id: int
    ability: str
    caster: int
    team: int
    kind: str
    source: Tile
    aim: Tile | None
    origin: Tile
    reach: int
    upkeeps: int
    height: int = 0
    damage: int = 0


@dataclass(frozen=True)
class EffectView:
    """An effect as the board shows it (Qt-free, for drawing): the tiles it affects now
    (a falling object: where it will land), how many upkeeps it lasts or falls, and
    for a falling object its height and the damage it still takes to destroy it."""

    effect: Effect
    tiles: tuple[Tile, ...]
    durability_left: int | None


def effects_of(state: AreaState) -> list[Effect]:
    """Every effect on the board, by id."""
    return sorted((v for k, v in state.effects.items() if k[0] == EFFECT),
                  key=lambda e: e.id)


def place(state: AreaState, effect: Effect) -> Effect:
    """Put ``effect`` on the board with the next id (its own ``id`` is replaced)."""
    n = state.effects.get(NEXT_EFFECT, 0)
    state.effects[NEXT_EFFECT] = n + 1
    effect = replace(effect, id=n)
    state.effects[(EFFECT, n)] = effect
    return effect


def _remove(state: AreaState, e: Effect, why: str) -> Event:
    del state.effects[(EFFECT, e.id)]
    return EffectEnded(e.id, e.ability, why)


class EffectKeeper:
    """The battle's effects (see the module docstring); ``defs``: the area abilities by
    name."""

    name = STRIKE

    def __init__(self, defs: Mapping[str, AbilityDef]) -> None:
        self.defs = dict(defs)

    def usable(self, state: AreaState, actor: int) -> bool:
        """A falling object is on the board and the actor's Attack Action is left."""
        turn = state.clock.current
        return turn is not None and turn.can_take(ActionType.ATTACK) and any(
            e.kind == FALLING for e in effects_of(state))

    # ------------------------------------------------------------ the Ability contract
    def actions(self, state: AreaState, actor: int) -> Iterable[UseAbility]:
        """A Basic Attack on every falling object the actor may strike (AB12)."""
        turn = state.clock.current
        if turn is None or not turn.can_take(ActionType.ATTACK):
            return []
        return [UseAbility(STRIKE, (e.id,)) for e in effects_of(state)
                if e.kind == FALLING and self._why_not(state, actor, e) is None]

    def refusal(self, state: AreaState, actor: int, action: UseAbility) -> str | None:
        args = action.args
        if len(args) != 1 or type(args[0]) is not int:
            return f"{STRIKE}: give the falling object's id, not {list(args)!r}"
        e = state.effects.get((EFFECT, args[0]))
        if not isinstance(e, Effect) or e.kind != FALLING:
            return f"no falling object {args[0]} on the board"
        return self._why_not(state, actor, e)

    def _why_not(self, state: AreaState, actor: int, e: Effect) -> str | None:
        """Why ``actor`` cannot strike falling object ``e`` (AB12): a ranged Basic Attack
        at the tile it hangs over, within Range, with a line of sight over the terrain
        (the object is above the characters), never by a character beside an enemy."""
        a, board = state.pos[actor], state.board
        for j in range(len(state.pos)):
            if state.alive(j) and state.team[j] != state.team[actor] and (
                    creatures_adjacent(board.model, a, state.fp[actor], state.pos[j],
                                       state.fp[j]) if state.sized
                    else board.adjacent(a, state.pos[j])):
                return f"must target the adjacent enemy: {state.names[j]!r}"
        rng, fp = state.sheets[actor].range, state.fp[actor]
        near = fp.nearest(a, e.origin)  # a larger striker: from its nearest square (S24)
        if not within_range(near, e.origin, rng, state.rules):
            return f"out of range: the falling object over {e.origin} is beyond Range {rng}"
        import numpy as np

        empty = np.zeros(0, np.int64)
        if near == e.origin:
            return None
        if fp == (1, 1):
            blocked = crossing_among(board.model, empty, empty, a, e.origin) is Crossing.BLOCKED
        else:  # the best line from any square over the terrain (S9, S29)
            blocked = footprint_los(board.model, a, fp, e.origin, Footprint(), occupied=()
                                    ).crossing is Crossing.BLOCKED
        if blocked:
            return f"no line of sight to the falling object over {e.origin}"
        return None

    def action_type(self, action: UseAbility) -> ActionType:
        return ActionType.ATTACK

    def cost(self, state: AreaState, action: UseAbility) -> int:
        return state.rules.clock.attack_cost

    def preview(self, state: AreaState, actor: int, action: UseAbility) -> Any:
        e = state.effects[(EFFECT, action.args[0])]
        return {"damage": state.sheets[actor].ranged_damage, "taken": e.damage,
                "durability": state.rules.abilities.falling_object_durability}

    def resolve(self, state: AreaState, actor: int, action: UseAbility, roll: Roll
                ) -> Sequence[Event]:
        """No roll (an object has no Defense, as terrain has none: B39): the actor's
        Ranged Damage, added up; at ``abilities.falling_object_durability`` the object
        is destroyed and never lands."""
        e: Effect = state.effects[(EFFECT, action.args[0])]
        dealt = state.sheets[actor].ranged_damage
        durability = state.rules.abilities.falling_object_durability
        total = e.damage + dealt
        events: list[Event] = [FallingStruck(actor, e.id, dealt, total, durability,
                                             state.clock.ip[actor])]
        if total >= durability:
            events.append(_remove(state, e, "shot down"))
        else:
            state.effects[(EFFECT, e.id)] = replace(e, damage=total)
        return events

    def modifiers(self, state: AreaState, attacker: int, defender: int) -> Iterable[Modifier]:
        return ()

    def on_event(self, state: AreaState, event: Event) -> Sequence[Event]:
        """A defeated caster's effects end with it (AB10: the upkeep is its own)."""
        if isinstance(event, Defeated):
            return self.caster_gone(state, event.character)
        return ()

    # ------------------------------------------------------------ optional hooks
    def turn_move(self, state: AreaState, actor: int, budget: int) -> int:
        """Maim (AB9): a Maimed character's Move this turn, divided by
        ``abilities.maim_move_divisor`` after every other change (B37)."""
        if (MAIMED, actor) in state.effects:
            return budget // state.rules.abilities.maim_move_divisor
        return budget

    def upkeep(self, state: AreaState, actor: int, roll: Roll) -> list[Event]:
        """The upkeep of every effect ``actor`` cast, by id (AB10-AB12): a lingering
        area grows by its Emanating and hits everyone in it, then counts down its
        Duration; a falling object counts down and lands at 0."""
        events: list[Event] = []
        for e in effects_of(state):
            if state.result is not None or not state.alive(actor):
                break  # (a caster defeated in its upkeep: on_event ends the rest)
            if e.caster != actor:
                continue
            d = self.defs[e.ability]
            left = e.upkeeps - 1
            if e.kind == LINGERING:
                reach = e.reach + (d.spec.emanating or 0)
                a = area_of(state, d, e.source, e.aim, reach=reach, fp=state.fp[e.caster])
                events.append(EffectUpkeep(e.id, e.ability, actor, reach, left, a.affected))
                state.effects[(EFFECT, e.id)] = replace(e, reach=reach, upkeeps=left)
                events += hit_victims(state, d, actor, e.team,
                                      victims(state, d, actor, a, cast=False), roll, e.id)
                if left <= 0 and (EFFECT, e.id) in state.effects:
                    events.append(_remove(state, e, "duration over"))
            else:
                a = area_of(state, d, e.source, e.aim, fp=state.fp[e.caster])
                events.append(EffectUpkeep(e.id, e.ability, actor, e.reach, left,
                                           a.affected))
                if left > 0:
                    state.effects[(EFFECT, e.id)] = replace(e, upkeeps=left)
                    continue
                events.append(_remove(state, e, "landed"))
                events += hit_victims(state, d, actor, e.team,
                                      victims(state, d, actor, a, cast=False), roll, e.id)
        return events

    def caster_gone(self, state: AreaState, caster: int) -> list[Event]:
        return [_remove(state, e, "caster defeated") for e in effects_of(state)
                if e.caster == caster]


def board_effects(state: AreaState) -> list[EffectView]:
    """Every effect on the board with the tiles it affects now, for drawing (a falling
    object: where it will land)."""
    keeper = next((a for a in state.abilities if isinstance(a, EffectKeeper)), None)
    if keeper is None:
        return []
    durability = state.rules.abilities.falling_object_durability
    out = []
    for e in effects_of(state):
        d = keeper.defs[e.ability]
        a = area_of(state, d, e.source, e.aim, reach=e.reach if e.kind == LINGERING else None,
                    fp=state.fp[e.caster])
        out.append(EffectView(e, a.affected,
                              durability - e.damage if e.kind == FALLING else None))
    return out
