"""Vertical space in battles (docs/rules.md, *Vertical space*, VS rows; seed
``terrain-properties-vertical-space.txt``, *Vertical Space*, *Flying*, *Falling*,
*Collision Damage*), behind the rules switch ``altitude.enabled`` (off: flight is
SODWA's, movement only).

A flying character has an **altitude layer**: 0 Ground, 1 Low, 2 High, 3 Very High
(``state.effects[("altitude", i)]``, absent = Ground).  Its **height** is the tile's
elevation level plus its layer, so SODWA's elevation and the seed's layers share one
scale.  It changes layer with the ``fly up`` / ``fly down`` action (its Move Action
for the turn).  Characters at Ground are adjacent as SODWA says (A1-A9); otherwise two
characters are adjacent when their tiles are adjacent for a flyer and their heights
differ by at most one ("within one Layer of each other").  A flyer at altitude that
becomes Prone or Restrained falls (:func:`fall`).  With ``altitude.collision`` a hit
with effective Doubles knocks its target back one tile (:func:`knock_back`).

>>> LAYERS[2], layer_of_name("very high")
('high', 3)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..engine import adjacency as adj
from .abilities import UseAbility
from .attack import Modifier
from .clock import ActionType
from .dice import D100
from .events import NOBODY, Attacked, Event
from .records import quick_init
from .terrain_entering import TerrainEffect, roll_dice, save_roll, scaled_damage, set_condition

Tile = tuple[int, int]
Roll = Callable[[], D100]
LAYERS = ("ground", "low", "high", "very_high")
ALTITUDE = "altitude"
UP, DOWN = "fly up", "fly down"


def layer_of_name(name: str) -> int:
    return LAYERS.index(name.replace(" ", "_"))


@quick_init
@dataclass(frozen=True, slots=True)
class AltitudeChanged(Event):
    """A flyer changed layer (``fell``: it fell, with its save, roll and damage)."""

    kind: ClassVar[str] = "altitude_changed"
    actor: int
    before: int
    after: int
    fell: bool = False
    roll: int = 0
    difficulty: int = 0
    damage: int = 0
    hp_after: int = 0


@quick_init
@dataclass(frozen=True, slots=True)
class KnockedBack(Event):
    """A hit with Doubles pushed ``target`` from ``start`` (to ``to``, or None: a wall or
    a character stopped it and it took collision damage)."""

    kind: ClassVar[str] = "knocked_back"
    target: int
    start: Tile
    to: Tile | None
    roll: int
    difficulty: int
    damage: int
    hp_after: int


def altitude_of(state: Any, i: int) -> int:
    return state.effects.get((ALTITUDE, i), 0)


def height_of(state: Any, i: int) -> int:
    x, y = state.pos[i]
    return state.board.level[y][x] + altitude_of(state, i)


def max_layer(state: Any) -> int:
    """VS1: the highest layer: Very High outdoors ("the limits of how high a Character
    can fly without Leaving the Scene"); on an indoor map ``altitude.indoor_max_layer``
    (RB: Indoor Obstructing Terrain "is considered to rise from the floor to the
    ceiling")."""
    if state.board.model.setting == "indoor":
        return state.rules.altitude.indoor_max_layer
    return len(LAYERS) - 1


def adjacent_in_space(state: Any, i: int, j: int) -> bool:
    """VS2: SODWA's adjacency when both are on the Ground layer; otherwise adjacent
    tiles for a flyer and heights within one of each other."""
    if not altitude_of(state, i) and not altitude_of(state, j):
        return bool(state.board.adjacent(state.pos[i], state.pos[j]))
    if not adj.adjacent(state.board.model, state.pos[i], state.pos[j], flight=True):
        return False
    return abs(height_of(state, i) - height_of(state, j)) <= 1


class Altitude:
    """The altitude layers of a battle's flyers: one ability per action (``fly up``,
    ``fly down``, as the abilities interface finds an action's ability by name); the
    ``fly up`` one also answers events (falls, knock-backs)."""

    def __init__(self, name: str, events: bool = False) -> None:
        self.name = name
        self.events = events

    def actions(self, state: Any, actor: int) -> Iterable[UseAbility]:
        if self.name == UP:
            out = [UseAbility(UP)]
        else:
            out = [UseAbility(DOWN, (n,))
                   for n in range(1, state.rules.altitude.descend_layers + 1)]
        return [a for a in out if self.refusal(state, actor, a) is None]

    def usable(self, state: Any, actor: int) -> bool:
        turn = state.turn
        return bool(turn is not None and turn.can_take(ActionType.MOVE) and
                     self.actions(state, actor))

    def refusal(self, state: Any, actor: int, action: UseAbility) -> str | None:
        """VS3: only a flyer changes layer: up one, down up to ``altitude.descend_layers``
        ("Flying with gravity ... can move 2 Spaces for each Space of Movement"), within
        Ground .. the ceiling (:func:`max_layer`)."""
        if not state.rules.altitude.enabled:
            return "altitude layers are off (rules key altitude.enabled)"
        if not state.sheets[actor].flight:
            return f"{state.names[actor]!r} cannot fly"
        now = altitude_of(state, actor)
        if action.ability != self.name:
            return f"not a {self.name} action"
        if action.ability == UP:
            if action.args:
                return "fly up takes no argument"
            top = max_layer(state)
            return f"already at the highest layer here ({LAYERS[top]})" if now >= top else None
        if len(action.args) != 1 or type(action.args[0]) is not int:
            return "fly down takes the number of layers"
        n = action.args[0]
        if not 1 <= n <= state.rules.altitude.descend_layers:
            return f"fly down 1 to {state.rules.altitude.descend_layers} layer(s), not {n}"
        return f"only {now} layer(s) above the ground" if n > now else None

    def action_type(self, action: UseAbility) -> ActionType:
        return ActionType.MOVE

    def cost(self, state: Any, action: UseAbility) -> int:
        return state.rules.clock.move_cost

    def preview(self, state: Any, actor: int, action: UseAbility) -> Any:
        now = altitude_of(state, actor)
        return now + 1 if action.ability == UP else now - action.args[0]

    def resolve(self, state: Any, actor: int, action: UseAbility, roll: Roll
                ) -> Sequence[Event]:
        before = altitude_of(state, actor)
        after = self.preview(state, actor, action)
        _set(state, actor, after)
        state.moved[actor] = True
        return [AltitudeChanged(actor, before, after)]

    def modifiers(self, state: Any, attacker: int, defender: int) -> Iterable[Modifier]:
        return ()

    def on_event(self, state: Any, event: Event) -> Sequence[Event]:
        """A flyer at altitude left Prone or Restrained falls (VS4: "A Flying Character
        which is Knocked Down, Restrained or Frozen will immediately begin Falling"); a
        hit with Doubles knocks back (VS5)."""
        if not self.events:
            return ()
        if isinstance(event, TerrainEffect) and event.condition in ("prone", "restrained") \
                and altitude_of(state, event.actor) and state.alive(event.actor):
            return fall(state, event.actor, _roll_of(state))
        if isinstance(event, Attacked) and state.rules.altitude.collision and event.success \
                and event.doubles and event.attack_kind == "ranged" \
                and state.alive(event.target):
            return knock_back(state, event.actor, event.target, _roll_of(state))
        return ()


def _roll_of(state: Any) -> Roll:
    from .terrain_entering import _roll_of as stream

    return stream(state)


def _set(state: Any, i: int, layer: int) -> None:
    if layer:
        state.effects[(ALTITUDE, i)] = layer
    else:
        state.effects.pop((ALTITUDE, i), None)
    state.changed()


def fall(state: Any, i: int, roll: Roll) -> list[Event]:
    """VS4: "When a Character Falls, they must make a DC15 FIGHT Effect Check. On a
    Successful Check they take 3 Bludgeoning Damage for each Layer they fell by. On a
    Failed Check, the Damage is 5 for each Layer ... and the Character is Knocked
    Down": a Fortitude save (TP-B6) against ``altitude.fall_save_dc``; the damage per
    layer scaled as a hazard's (TP-B7)."""
    layers = altitude_of(state, i)
    if not layers:
        return []
    a = state.rules.altitude
    difficulty, value, landed = save_roll(state, i, "fortitude", a.fall_save_dc, roll)
    per = a.fall_damage_failed if landed else a.fall_damage_saved
    damage = scaled_damage(state, i, per * layers, "bludgeoning", False)
    _set(state, i, 0)
    if landed:
        set_condition(state, i, "prone", True)
    state.hp[i] -= damage
    events: list[Event] = [AltitudeChanged(i, layers, 0, True, value, difficulty, damage,
                                           state.hp[i])]
    if damage and state.hp[i] <= state.rules.combat.defeated_at_or_below:
        events += state.defeat(i, NOBODY, cause="fall")  # nobody's kill (B54)
    return events


def knock_back(state: Any, attacker: int, target: int, roll: Roll) -> list[Event]:
    """VS5: a ranged hit with Doubles pushes the target one tile straight away from the
    attacker (RB: "causing the target to get knocked back by a ranged attack").  When
    a wall, the map's edge, a tile nobody may stand on or another character prevents
    it: "For each Space a Character is prevented from Moving, they
    will take 1d6 Bludgeoning Damage ... and they must make a DC15 Body Defense Check.
    On a Failed Check, Double the Damage" (``altitude.collision_dice`` d6 scaled as a
    hazard's, a Reflex save against ``altitude.collision_save_dc``)."""
    (ax, ay), (tx, ty) = state.pos[attacker], state.pos[target]
    dx, dy = (tx > ax) - (tx < ax), (ty > ay) - (ty < ay)
    to = (tx + dx, ty + dy)
    board = state.board
    fp = getattr(state, "fp", None)
    big = fp is not None and fp[target] != (1, 1)  # pushing a large creature: not here
    free = (not big and board.in_bounds(*to) and board.standable[to[1]][to[0]]
            and to not in state.occ and board.adjacent((tx, ty), to))
    if free:
        del state.occ[(tx, ty)]
        state.pos[target] = to
        state.occ[to] = target
        state.changed()
        return [KnockedBack(target, (tx, ty), to, 0, 0, 0, state.hp[target])]
    a = state.rules.altitude
    raw = roll_dice(f"{a.collision_dice}d6" if a.collision_dice else "", roll)
    difficulty, value, landed = save_roll(state, target, "reflex", a.collision_save_dc, roll)
    damage = scaled_damage(state, target, raw * (2 if landed else 1), "bludgeoning", False)
    state.hp[target] -= damage
    events: list[Event] = [KnockedBack(target, (tx, ty), None, value, difficulty, damage,
                                       state.hp[target])]
    if damage and state.hp[target] <= state.rules.combat.defeated_at_or_below:
        events += state.defeat(target, attacker)
    return events


def altitude_for(sheets: Sequence[Any], rules: Any) -> tuple[Altitude, ...]:
    """The battle's :class:`Altitude` when ``altitude.enabled`` and some character
    flies, or ``altitude.collision`` is on; else none (a battle as before)."""
    a = rules.altitude
    if a.enabled and any(s.flight for s in sheets):
        return (Altitude(UP, events=True), Altitude(DOWN))
    return (Altitude(UP, events=True),) if a.collision else ()


def active(state: Any) -> bool:
    return any(type(x) is Altitude for x in state.abilities)


__all__ = ["Altitude", "AltitudeChanged", "KnockedBack", "adjacent_in_space",
           "altitude_for", "altitude_of", "fall", "height_of", "knock_back", "max_layer"]
