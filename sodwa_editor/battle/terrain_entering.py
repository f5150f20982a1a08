"""Effects of entering terrain and the conditions they leave (docs/rules.md TP-B6 to
TP-B10): Hazardous and Trapped saves with their damage and condition, Precarious
balance, Knocked Prone, Poisoned and Restrained.

A save mirrors the attack roll (battle spec 48: ``difficulty = save - effect
power``): the effect lands when the d100 roll equals or exceeds ``the defender's
save attribute - (DC - save_dc_baseline) * save_percent_per_dc`` (01 always fails,
00 always lands, RB), so a DC 15 effect lands on a character with Reflex 50 on a
roll of 50 or more.  Karma plays no part (no player attempts it, as AB9's Maim).

Conditions live in ``state.effects[("condition", i)]`` (a sorted tuple of names),
sprung traps in ``state.effects[("trap sprung", x, y)]``: copied with the state and
part of its hash.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from .dice import D100, d100_from_value, natural_success
from .events import NOBODY, Event, Moved
from .records import quick_init
from .terrain_layers import Layers

Tile = tuple[int, int]
Roll = Callable[[], D100]
CONDITION, SPRUNG = "condition", "trap sprung"
#: SODWA damage class of the seed's damage types (RB: "Damage Reduction lowers the
#: value of incoming Physical, Energy, and Magical damage"); poison is Bio, which DR
#: does not lower (battle spec 46).
DAMAGE_CLASS = {"bludgeoning": "physical", "piercing": "physical", "slashing": "physical",
                "fire": "energy", "cold": "energy", "lightning": "energy", "acid": "energy",
                "psychic": "magical", "poison": "bio", "none": "physical"}
_DICE = re.compile(r"^(?:(\d+)d(\d+)(?:\+(\d+))?|(\d+))$")


@quick_init
@dataclass(frozen=True, slots=True)
class TerrainEffect(Event):
    """A terrain property acted on a character (the battle log's line): ``source`` the
    property (``hazardous: lava``, ``trapped: pit``, ``precarious``, ``restrained``,
    ``prone``), the save made (``""``: none), its difficulty and roll, whether the
    effect landed, the damage, the condition it left (``""``: none), HP after, and
    ``stopped`` the tile a failed balance ended the move on (or None)."""

    kind: ClassVar[str] = "terrain_effect"
    actor: int
    tile: Tile
    source: str
    save: str
    difficulty: int
    roll: int
    landed: bool
    damage: int
    condition: str
    hp_after: int
    stopped: Tile | None = None


def conditions_of(state: Any, i: int) -> tuple[str, ...]:
    return state.effects.get((CONDITION, i), ())


def set_condition(state: Any, i: int, name: str, on: bool) -> None:
    held = set(conditions_of(state, i))
    held = held | {name} if on else held - {name}
    if held:
        state.effects[(CONDITION, i)] = tuple(sorted(held))
    else:
        state.effects.pop((CONDITION, i), None)


def _roll_of(state: Any) -> Roll:
    """The battle's dice stream, or the median roll on a copy without streams (an AI's
    lookahead, as the abilities' upkeep: actions.MEDIAN_ROLL)."""
    streams = state.streams
    if streams is not None:
        return streams.dice.roll
    median = d100_from_value(50)
    return lambda: median


def save_roll(state: Any, i: int, save: str, dc: int, roll: Roll) -> tuple[int, int, bool]:
    """``(difficulty, roll, landed)`` of an effect of DC ``dc`` against character ``i``'s
    ``save`` attribute (``none``: it always lands, no roll)."""
    if save == "none":
        return 0, 0, True
    tp = state.rules.terrain_properties
    power = (dc - tp.save_dc_baseline) * tp.save_percent_per_dc
    difficulty = getattr(state.sheets[i], save) - power
    value = roll().value
    return difficulty, value, natural_success(value, difficulty, state.rules.dice)


def roll_dice(text: str, roll: Roll) -> int:
    """The total of dice text (``2d6``, ``1d4+1``, ``3``, ``""``), each die drawn from d100
    rolls without bias (a roll above the largest multiple of the die's sides is rolled
    again; a copy rolling only the median gets the median's face)."""
    m = _DICE.match(text)
    if not text or m is None:
        return 0
    if m.group(4) is not None:
        return int(m.group(4))
    count, sides, plus = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    top = 100 - 100 % sides
    total = plus
    for _ in range(count):
        value = roll().value
        for _retry in range(8):
            if value <= top:
                break
            value = roll().value
        total += (value - 1) % sides + 1
    return total


def scaled_damage(state: Any, i: int, raw: int, damage_type: str, ignores_dr: bool) -> int:
    """The seed's damage on SODWA's scale (TP-B7): ``damage_percent`` of it, at least
    ``min_damage`` when there is any, less DR unless the damage ignores it."""
    if raw <= 0:
        return 0
    tp, combat = state.rules.terrain_properties, state.rules.combat
    dealt = max(tp.min_damage, raw * tp.damage_percent // 100)
    if not ignores_dr and DAMAGE_CLASS.get(damage_type, "physical") in combat.dr_applies_to:
        dealt = max(combat.min_damage, dealt - state.sheets[i].damage_reduction)
    return dealt


def _apply(state: Any, i: int, tile: Tile, source: str, params: Any, roll: Roll,
           events: list[Event]) -> None:
    """A Hazardous or Trapped effect on ``i`` entering ``tile`` (TP-B6 to TP-B8)."""
    difficulty, value, landed = save_roll(state, i, params["save"], params["dc"], roll)
    damage, condition = 0, ""
    if landed:
        raw = roll_dice(params["damage"], roll)
        damage = scaled_damage(state, i, raw, params["damage_type"], params["ignores_dr"])
        if params["condition"] != "none":
            condition = params["condition"]
            set_condition(state, i, condition, True)
        state.hp[i] -= damage
    events.append(TerrainEffect(i, tile, source, params["save"] if params["save"] != "none"
                                else "", difficulty, value, landed, damage, condition,
                                state.hp[i]))
    if damage and state.hp[i] <= state.rules.combat.defeated_at_or_below:
        events += state.defeat(i, NOBODY, cause=source)  # nobody's kill (B54)


def entering_effects(state: Any, moved: Moved, lay: Layers) -> list[Event]:
    """What the tiles of a Move Action's path do to the mover, step by step (TP-B6 to
    TP-B9): Hazardous (a save or its damage and condition), Trapped (the first to enter
    a hidden trap springs it), Precarious (a tile passed over, not stopped on, asks a
    balance save; on a failure the mover is Knocked Prone and its move ends there when
    the tile is free).  Flyers are spared (``flyers_ignore_ground``).  A larger mover
    enters at each step the tiles its leading squares arrive on (TP-B15): one save per
    Hazardous terrain type among them, each hidden trap among them, one balance per
    step onto Precarious tiles (the highest DC)."""
    i = moved.actor
    tp = state.rules.terrain_properties
    if (state.sheets[i].flight and tp.flyers_ignore_ground) or state.effects.get(
            ("altitude", i)):
        return []  # above the ground (an altitude layer: battle/altitude.py)
    events: list[Event] = []
    roll = _roll_of(state)
    registry = state.board.model.registry
    terrain = state.board.model.terrain
    path = moved.path
    fp = getattr(state, "fp", None)
    size = fp[i] if fp is not None and fp[i] != (1, 1) else None
    for k in range(1, len(path)):
        entered = [path[k]] if size is None else sorted(
            set(size.squares(path[k])) - set(size.squares(path[k - 1])),
            key=lambda t: (t[1], t[0]))
        types = [(t, registry[int(terrain[t[1], t[0]])]) for t in entered]
        types = [(t, tt) for t, tt in types if tt.properties]
        if not types:
            continue
        seen: set[str] = set()
        for (x, y), t in types:  # one save per Hazardous terrain type entered
            if "hazardous" in t.properties and t.name not in seen and state.alive(i):
                seen.add(t.name)
                p = t.properties["hazardous"].params
                _apply(state, i, (x, y), f"hazardous: {p['hazard']}", p, roll, events)
        for (x, y), t in types:  # every hidden trap entered
            trap = t.properties.get("trapped")
            if trap is not None and state.alive(i) and trap.params["hidden"] \
                    and not state.effects.get((SPRUNG, x, y)):
                if tp.trap_springs_once:
                    state.effects[(SPRUNG, x, y)] = True
                _apply(state, i, (x, y), f"trapped: {trap.params['trap']}", trap.params,
                       roll, events)
        if not state.alive(i):
            break
        footing = [(t.properties["precarious"].params["dc"], xy) for xy, t in types
                   if "precarious" in t.properties]
        if footing and k < len(path) - 1:
            dc = max(d for d, _xy in footing)
            x, y = next(xy for d, xy in footing if d == dc)
            difficulty, value, landed = save_roll(state, i, "reflex", dc, roll)
            stopped = None
            if landed:
                set_condition(state, i, "prone", True)
                stopped = _stop(state, i, (x, y))
            events.append(TerrainEffect(i, (x, y), "precarious", "reflex", difficulty, value,
                                        landed, 0, "prone" if landed else "", state.hp[i],
                                        stopped))
            if landed:
                break
    return events


def _stop(state: Any, i: int, tile: Tile) -> Tile | None:
    """End ``i``'s move on ``tile`` after a failed balance (None: it goes on to where it
    was going: the tile is taken, or the mover covers more than one tile)."""
    fp = getattr(state, "fp", None)
    if tile in state.occ or (fp is not None and fp[i] != (1, 1)):
        return None
    del state.occ[state.pos[i]]
    state.pos[i] = tile
    state.occ[tile] = i
    state.changed()
    return tile


def water_under(lay: Layers, squares: list[Tile]) -> str | None:
    """The deepest water under any of ``squares`` (TP-B14: in water as in Liquid, when
    any square is, S23)."""
    if any(lay.has("deep_water", x, y) for x, y in squares):
        return "deep_water"
    return "shallow_water" if any(lay.has("shallow_water", x, y) for x, y in squares) \
        else None


def turn_start_effects(state: Any, actor: int, budget: int, lay: Layers) -> int:
    """The actor's Move for its turn (TP-B9, TP-B10): water's Move modifier where it
    stands; 0 while Restrained, and 0 when it stands up from Prone
    (``conditions.prone_loses_move``)."""
    tp = state.rules.terrain_properties
    if not (state.sheets[actor].flight and tp.flyers_ignore_ground):
        fp = getattr(state, "fp", None)
        squares = [state.pos[actor]] if fp is None else fp[actor].squares(state.pos[actor])
        water = water_under(lay, squares)
        if water is not None:
            budget = max(0, budget + getattr(tp, water).move)
    held = conditions_of(state, actor)
    if "restrained" in held or ("prone" in held and state.rules.conditions.prone_loses_move):
        budget = 0
    return budget


def upkeep_effects(state: Any, actor: int, roll: Roll) -> list[Event]:
    """At the start of the actor's turn: a Prone actor stands up; a Restrained one makes
    its save to break free (TP Net Trap: "Body Defense DC15 to end the effect")."""
    held = conditions_of(state, actor)
    events: list[Event] = []
    if "prone" in held:
        set_condition(state, actor, "prone", False)
        events.append(TerrainEffect(actor, state.pos[actor], "prone", "", 0, 0, False, 0,
                                    "", state.hp[actor]))
    if "restrained" in held:
        dc = state.rules.conditions.restrained_escape_dc
        difficulty, value, landed = save_roll(state, actor, "reflex", dc, roll)
        if not landed:
            set_condition(state, actor, "restrained", False)
        events.append(TerrainEffect(actor, state.pos[actor], "restrained", "reflex",
                                    difficulty, value, landed, 0,
                                    "restrained" if landed else "", state.hp[actor]))
    return events
