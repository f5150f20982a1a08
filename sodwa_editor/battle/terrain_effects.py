"""Terrain properties in battles (docs/rules.md, *Terrain properties*, TP-B rows; seed
``terrain-properties-vertical-space.txt``, quoted as *TP*).

A battle on a map whose terrain types carry properties gets one
:class:`TerrainEffects` among its abilities (:func:`terrain_effects_for`; a map
without properties gets none, so it plays exactly as before).  It takes part through
the abilities interface (:mod:`.abilities`: ``turn_move``, ``upkeep``,
``on_event``) and a few hooks the targeting and area rules call:

* :func:`attack_modifiers` -- Cover and height Cover (a Defense bonus against ranged
  attacks), an attacker the defender cannot see (no Evasion: Dark, Obscured), water,
  conditions; each a :class:`~.attack.Modifier` listed in the BIP and the log;
* :func:`area_modifiers` -- an area through or into Cover (TP-B4);
* :func:`targeting_refusal` -- Full Cover, Fully Obscured and Full Dark targets of
  ranged attacks;
* :func:`attack_adjacent` -- adjacency for attacks: not between heights without a
  Steep link (TP-B3).

Entering effects (Hazardous, Trapped, Precarious) and conditions are in
:mod:`.terrain_entering`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..engine.footprint import touching_squares
from . import altitude as alt
from .abilities import UseAbility
from .attack import Modifier
from .clock import ActionType
from .dice import D100
from .events import Event, Moved
from .footprint_lines import ONE, facing_squares, squares_of
from .rules import Rules
from .terrain_entering import (
    conditions_of,
    entering_effects,
    turn_start_effects,
    upkeep_effects,
    water_under,
)
from .terrain_layers import DARK, FULL_DARK, Layers, between, crossings, layers_of

Tile = tuple[int, int]
NAME = "terrain properties"


class TerrainEffects:
    """The map's terrain properties in a battle (an ability of the battle that no
    character uses: it offers no action and is never usable)."""

    name = NAME

    # ------------------------------------------------------------ the ability contract
    def actions(self, state: Any, actor: int) -> Iterable[UseAbility]:
        return ()

    def usable(self, state: Any, actor: int) -> bool:
        return False

    def refusal(self, state: Any, actor: int, action: UseAbility) -> str | None:
        return "terrain properties are no action"

    def action_type(self, action: UseAbility) -> ActionType:  # pragma: no cover - no action
        raise ValueError("terrain properties are no action")

    def cost(self, state: Any, action: UseAbility) -> int:  # pragma: no cover - no action
        return 0

    def preview(self, state: Any, actor: int, action: UseAbility) -> Any:  # pragma: no cover
        return None

    def resolve(self, state: Any, actor: int, action: UseAbility,
                roll: Callable[[], D100]) -> Sequence[Event]:  # pragma: no cover - no action
        return ()

    def modifiers(self, state: Any, attacker: int, defender: int) -> Iterable[Modifier]:
        return ()  # the targeting and area rules call attack_modifiers / area_modifiers

    def turn_move(self, state: Any, actor: int, budget: int) -> int:
        """Water's Move modifier where the actor starts its turn (TP-B9); a Prone actor
        stands up, a Restrained one stays (TP-B10)."""
        return turn_start_effects(state, actor, budget, _layers(state))

    def upkeep(self, state: Any, actor: int, roll: Callable[[], D100]) -> list[Event]:
        """A Prone actor stands up, a Restrained one tries to break free (TP-B10)."""
        return upkeep_effects(state, actor, roll)

    def on_event(self, state: Any, event: Event) -> Sequence[Event]:
        if isinstance(event, Moved) and state.alive(event.actor):
            return entering_effects(state, event, _layers(state))
        return ()


def terrain_effects_for(model: Any, rules: Rules) -> tuple[TerrainEffects, ...]:
    """The battle's terrain effects: one :class:`TerrainEffects` when the rules apply
    properties and some terrain type of ``model`` has one, else none."""
    if rules.terrain_properties.enabled and model.registry.has_properties():
        return (TerrainEffects(),)
    return ()


def _layers(state: Any) -> Layers:
    return layers_of(state.board.model)


def active(state: Any) -> bool:
    """Whether the battle applies terrain properties."""
    return any(type(a) is TerrainEffects for a in state.abilities)


# ------------------------------------------------------------------ seeing
def sees_in_dark(state: Any, i: int) -> bool:
    return state.sheets[i].archetype in state.rules.terrain_properties.darkvision


def hidden(state: Any, lay: Layers, observer: int, seen: int, melee: bool) -> int:
    """How hidden character ``seen`` is from ``observer``: 0 seen, 1 Obscured, 2 Fully
    Obscured (TP-B5).  Obscured: ``seen`` in Obscured terrain, in unlit Dark (unless
    ``observer`` sees in the dark), or the line runs out of or through Obscured terrain;
    Fully: the same with Fully Obscured terrain and unlit Full Dark.  At arm's length
    (``melee``) only darkness hides.  Larger creatures are read at the squares the line
    between them joins (TP-B12)."""
    (ox, oy), (sx, sy) = facing_squares(state, observer, seen)
    level = 0
    if lay.any_dark and not sees_in_dark(state, observer):
        level = {DARK: 1, FULL_DARK: 2}.get(lay.dark[sy][sx], 0)
    if melee or level == 2:
        return level
    for prop, value in (("fully_obscured", 2), ("obscured", 1)):
        if value <= level:
            continue
        rows = lay.on.get(prop)
        if rows is not None and (rows[sy][sx] or rows[oy][ox] or any(
                rows[y][x] for x, y in between((ox, oy), (sx, sy)))):
            return value
        if lay.border_on and any(lay.border_has(c, prop)  # a screen between (TP-B16)
                                 for c in crossings((ox, oy), (sx, sy))):
            return value
    return level


# ------------------------------------------------------------------ hooks
def attack_adjacent(state: Any, i: int, j: int) -> bool:
    """Adjacency for attacks: the engine's, except between two heights with no Steep
    terrain under either character (TP-B3: "If Adjacent Characters are on Terrain at
    different Heights ... they cannot hit each other with Melee Attacks")."""
    if state.abilities and alt.active(state):
        if not alt.adjacent_in_space(state, i, j):
            return False  # VS2: altitude layers
    elif not state.board.adjacent(state.pos[i], state.pos[j]):
        return False
    return not (active(state) and _apart(state, _layers(state), i, j))


def heights_apart(state: Any, i: int, j: int) -> bool:
    """TP-B3 for creatures of any size: ``i`` and ``j`` stand at different heights with
    no Steep terrain under either, so no melee; larger creatures by their touching
    squares (TP-B13: melee when some touching pair is level or joined by Steep)."""
    return active(state) and _apart(state, _layers(state), i, j)


def _apart(state: Any, lay: Layers, i: int, j: int) -> bool:
    if not state.rules.terrain_properties.height_melee_needs_steep:
        return False
    fp = getattr(state, "fp", None)
    if fp is not None and (fp[i] != ONE or fp[j] != ONE):
        pairs = touching_squares(state.board.model, state.pos[i], fp[i], state.pos[j], fp[j])
        return bool(pairs) and all(_pair_apart(lay, a, b) for a, b in pairs)
    return _pair_apart(lay, state.pos[i], state.pos[j])


def _pair_apart(lay: Layers, a: Tile, b: Tile) -> bool:
    """Two tiles at different height ranks with no Steep terrain under either."""
    (ax, ay), (bx, by) = a, b
    if lay.height[ay][ax] == lay.height[by][bx]:
        return False
    return not (lay.has("steep", ax, ay) or lay.has("steep", bx, by))


def targeting_refusal(state: Any, attacker: int, target: int, adjacent: bool) -> str | None:
    """Why a ranged attack may not target ``target`` (None: it may): Full Cover (TP:
    "Full Cover causes Ranged Attacks against Targets benefitting from it to
    automatically fail"), or ``target`` Fully Obscured from ``attacker`` (TP-B5)."""
    if adjacent or not active(state):
        return None
    lay = _layers(state)
    a, (x, y) = facing_squares(state, attacker, target)  # TP-B12
    name = state.names[target]
    if lay.has("full_cover", x, y):
        return f"{name!r} is in Full Cover: ranged attacks at it fail automatically"
    if _border_entering(lay, a, (x, y), "full_cover"):
        return (f"{name!r} is behind Full Cover (a border): ranged attacks at it fail "
                "automatically")
    if hidden(state, lay, attacker, target, False) == 2:
        return f"{name!r} is Fully Obscured from here"
    return None


def attack_modifiers(state: Any, attacker: int, target: int, adjacent: bool, impeded: bool,
                     aware: bool) -> tuple[Modifier, ...]:
    """The terrain properties' modifiers of a Basic Attack (TP-B1 to TP-B10)."""
    if not active(state):
        return ()
    lay, r = _layers(state), state.rules
    out: list[Modifier] = []
    cover = None if adjacent else _cover_source(state, lay, attacker, target)
    tp = r.terrain_properties
    if cover is not None and not (impeded and r.modifiers.impeded_defense >= tp.cover_defense):
        out.append(Modifier(f"cover ({cover})", "defense", tp.cover_defense))
    if aware and hidden(state, lay, target, attacker, adjacent):
        evasion = state.sheets[target].evasion + _evasion_terms(state, lay, target)
        if evasion:
            out.append(Modifier("attacker unseen (no Evasion)", "evasion", -evasion))
    out += _water(state, lay, attacker, target, aware)
    out += _conditions(state, attacker, target, adjacent)
    return tuple(out)


def area_modifiers(state: Any, caster: int, victim: int, origin: Tile,
                   square: Tile | None = None) -> tuple[Modifier, ...]:
    """TP-B4: "if an Area Effect extends from a point of origin through Cover, or into a
    Space whose Terrain provides Cover, then Characters will have Advantage on Body
    Defense Checks against that effect": a Defense bonus; plus water and conditions.
    ``square``: the victim's square the area hits it on (S11; TP-B12), else its tile."""
    if not active(state):
        return ()
    lay, tp = _layers(state), state.rules.terrain_properties
    x, y = state.pos[victim] if square is None else square
    out: list[Modifier] = []
    through = False
    if "cover" in lay.on or "full_cover" in lay.on:
        line = [origin, *between(origin, (x, y))] if origin != (x, y) else []
        through = any(lay.has("cover", *t) or lay.has("full_cover", *t)
                      for t in [*line, (x, y)])
    if not through and lay.border_on and origin != (x, y):  # a Cover border (TP-B16)
        through = any(lay.border_has(c, "cover") or lay.border_has(c, "full_cover")
                      for c in crossings(origin, (x, y)))
    if through:
        out.append(Modifier("area through cover", "defense", tp.aoe_cover_defense))
    out += _water(state, lay, caster, victim, True)
    out += _conditions(state, caster, victim, False)
    return tuple(out)


def _cover_source(state: Any, lay: Layers, attacker: int, target: int) -> str | None:
    """What gives ``target`` Cover against ``attacker``'s ranged attack, or None: its
    terrain's Cover (TP-B1), or its height above the attacker's where the map's
    elevation does not already say so (TP-B2); larger creatures at the squares the
    attack's line joins (TP-B12)."""
    (ax, ay), (tx, ty) = facing_squares(state, attacker, target)
    if lay.has("cover", tx, ty):
        return "cover terrain"
    if _border_entering(lay, (ax, ay), (tx, ty), "cover"):
        return "cover border"
    ht, ha = lay.height[ty][tx], lay.height[ay][ax]
    if ht > ha:
        level = state.board.level
        if level[ty][tx] > level[ay][ax]:
            return None  # SODWA's elevation applies (B21), not the property
        tp = state.rules.terrain_properties
        if tp.exposed_cancels_height_cover and lay.has("exposed", tx, ty):
            return None
        return "very high ground" if ht == 2 else "high ground"
    return None


def _border_entering(lay: Layers, a: Tile, b: Tile, prop: str) -> bool:
    """The line from ``a`` enters ``b``'s tile across a border with ``prop`` (TP-B16:
    the side of the target's Space facing the attacker)."""
    if not lay.border_on or a == b:
        return False
    return lay.border_has(crossings(a, b)[-1], prop)


def _on_water(state: Any, lay: Layers, i: int) -> str | None:
    if state.sheets[i].flight and state.rules.terrain_properties.flyers_ignore_ground:
        return None
    return water_under(lay, squares_of(state, i))



def _evasion_terms(state: Any, lay: Layers, i: int) -> int:
    """Evasion an aware defender adds besides its sheet's and water's (Liquid's, B23;
    water's own is left out for an unseen attacker by :func:`_water`)."""
    liquid = state.board.liquid
    on = any(liquid[y][x] for x, y in squares_of(state, i))  # any square (S23)
    return state.rules.terrain.liquid.evasion if on else 0


def _water(state: Any, lay: Layers, attacker: int, target: int, aware: bool) -> list[Modifier]:
    """TP-B9: Shallow and Deep Water as Liquid's modifiers (added to Liquid's own)."""
    out: list[Modifier] = []
    tp = state.rules.terrain_properties
    w = _on_water(state, lay, attacker)
    if w is not None and getattr(tp, w).accuracy:
        out.append(Modifier(f"attacker in {w.replace('_', ' ')}", "accuracy",
                            getattr(tp, w).accuracy))
    w = _on_water(state, lay, target)
    if w is not None:
        label = f"defender in {w.replace('_', ' ')}"
        if getattr(tp, w).defense:
            out.append(Modifier(label, "defense", getattr(tp, w).defense))
        if aware and getattr(tp, w).evasion and not hidden(state, lay, target, attacker,
                                                            False):
            out.append(Modifier(label, "evasion", getattr(tp, w).evasion))
    return out


def _conditions(state: Any, attacker: int, target: int, melee: bool) -> list[Modifier]:
    """TP-B10: Poisoned attackers, Prone and Restrained defenders."""
    c = state.rules.conditions
    out: list[Modifier] = []
    if "poisoned" in conditions_of(state, attacker) and c.poisoned_accuracy:
        out.append(Modifier("attacker poisoned", "accuracy", c.poisoned_accuracy))
    held = conditions_of(state, target)
    if "prone" in held:
        amount = c.prone_melee_defense if melee else c.prone_ranged_defense
        if amount:
            out.append(Modifier("defender prone", "defense", amount))
    if "restrained" in held and c.restrained_defense:
        out.append(Modifier("defender restrained", "defense", c.restrained_defense))
    return out
