"""Battle invariants, checked independently of the code that keeps them (for the
property tests and ``bench/battle_soak.py``).

:func:`state_problems` checks a state: no two characters on a tile, nobody on
Obstructing terrain or off the map, HP never above the sheet's Health Points,
the tile index agreeing with the positions.  :func:`action_problems` re-derives
whether an action is legal through a different path than :mod:`.actions`: the
engine's public ``los``, ``pair_crossing`` and ``reach`` on a copy of the
battle's map with the characters put on it as map characters.
"""

from __future__ import annotations

from ..engine.adjacency import pair_crossing
from ..engine.footprint import Footprint, cannot_stand, creatures_adjacent
from ..engine.footprint_los import footprint_los
from ..engine.footprint_movement import footprint_reach
from ..engine.los import los
from ..engine.model import Character, Edge, MapModel
from ..engine.movement import reach
from ..engine.terrain import Base, Crossing
from . import altitude as alt
from .abilities import UseAbility
from .actions import Action, Attack, AttackTerrain, Move, Pass, move_allowance
from .area_abilities import USES, AreaAbility, find_area
from .area_effects import EFFECT, FALLING, STRIKE, Effect
from .attack import within_range
from .clock import ActionType
from .state import BattleState
from .terrain_effects import attack_adjacent, targeting_refusal


def state_problems(state: BattleState) -> list[str]:
    """Every broken state invariant, as one line each (empty: all hold)."""
    if state.sized:
        return _sized_problems(state) + effect_problems(state)
    out: list[str] = []
    seen: dict[tuple[int, int], int] = {}
    model = state.board.model
    for i, (x, y) in enumerate(state.pos):
        if state.hp[i] > state.sheets[i].health:
            out.append(f"{state.names[i]}: HP {state.hp[i]} above {state.sheets[i].health}")
        if not state.alive(i):
            continue
        if not model.in_bounds(x, y):
            out.append(f"{state.names[i]}: off the map at ({x}, {y})")
            continue
        if model.base_at(x, y) is Base.OBSTRUCTING:
            out.append(f"{state.names[i]}: on Obstructing terrain at ({x}, {y})")
        if (x, y) in seen:
            out.append(f"{state.names[i]} and {state.names[seen[(x, y)]]} share ({x}, {y})")
        seen[(x, y)] = i
    if seen != state.occ:
        out.append("the tile index disagrees with the positions")
    return out + effect_problems(state)


def _sized_problems(state: BattleState) -> list[str]:
    """:func:`state_problems` for a battle with creatures larger than a tile (S21-S23):
    no footprint off the map, on an Obstructing tile, across two levels or cut by an
    Obstructing border; no two footprints sharing a tile; the tile index holding every
    square of every undefeated character."""
    out: list[str] = []
    seen: dict[tuple[int, int], int] = {}
    model = state.board.model
    for i, (x, y) in enumerate(state.pos):
        if state.hp[i] > state.sheets[i].health:
            out.append(f"{state.names[i]}: HP {state.hp[i]} above {state.sheets[i].health}")
        if not state.alive(i):
            continue
        fp = state.fp[i]
        why = cannot_stand(model, (x, y), fp)
        if why is not None:
            out.append(f"{state.names[i]}: its {fp} footprint at ({x}, {y}): {why.text}")
        for t in fp.squares((x, y)):
            if t in seen:
                out.append(f"{state.names[i]} and {state.names[seen[t]]} share {t}")
            seen[t] = i
    if seen != state.occ:
        out.append("the tile index disagrees with the footprints")
    return out


def effect_problems(state: BattleState) -> list[str]:
    """Abilities' own state (docs/rules.md AB1, AB10-AB12): no ability used more often
    than its uses; every effect on the board has an undefeated caster and upkeeps left;
    no falling object has taken its durability."""
    out: list[str] = []
    durability = state.rules.abilities.falling_object_durability
    for key, value in state.effects.items():
        if key[0] == USES:
            _u, i, name = key
            a = find_area(state, name)
            if a is None or a.d not in state.sheets[i].abilities:
                out.append(f"{state.names[i]} used {name!r}, which it does not have")
            elif a.d.uses is not None and value > a.d.uses:
                out.append(f"{state.names[i]} used {name!r} {value} times, of {a.d.uses}")
        elif key[0] == EFFECT:
            e: Effect = value
            if not state.alive(e.caster):
                out.append(f"effect {e.id} ({e.ability}) outlived its caster")
            if e.upkeeps < 1:
                out.append(f"effect {e.id} ({e.ability}) on the board with {e.upkeeps} upkeeps")
            if e.kind == FALLING and e.damage >= durability:
                out.append(f"falling object {e.id} took {e.damage} damage and still falls")
    return out


def with_characters(state: BattleState) -> MapModel:
    """A copy of the battle's map with every undefeated character on it (team = its
    team number)."""
    m = state.board.model.copy()
    m.characters = {}
    for i, (x, y) in enumerate(state.pos):
        if state.alive(i):
            s = state.sheets[i]
            fp = state.fp[i]
            m.characters[state.names[i]] = Character(
                state.names[i], str(state.team[i]), x, y, move=s.move, range=s.range,
                flight=s.flight, size=s.size if fp != (1, 1) else "medium",
                footprint=fp if fp != (1, 1) else None)
    m.notify_bulk_change("characters")
    return m


def action_problems(state: BattleState, action: Action, *, moves: bool = True) -> list[str]:
    """Why ``action`` (about to be applied by the actor) breaks a targeting or
    movement rule, re-derived through the engine's public functions (empty: legal).
    ``moves=False`` skips Move Actions (their check runs a full movement search on a
    fresh map: the slowest check)."""
    actor = state.actor
    if actor is None or isinstance(action, Pass):
        return []
    if isinstance(action, UseAbility) and action.ability in (alt.UP, alt.DOWN):
        return _fly_problems(state, actor, action)
    if isinstance(action, UseAbility):
        return _ability_problems(state, actor, action)
    if isinstance(action, Move) and not moves:
        return []
    if state.sized:
        return _sized_action_problems(state, actor, action)
    m = with_characters(state)
    a = state.pos[actor]
    name = state.names[actor]
    if isinstance(action, Move):
        r = reach(m, a, budget=move_allowance(state), hindered_start=state.turn_hindered)
        if action.to == a or action.to not in r:
            return [f"{name} moves to {action.to}, outside its range"]
        return []
    enemies = [state.pos[j] for j in state.enemies(actor)]
    engaged = [e for e in enemies if pair_crossing(m, a, e)[0] is not Crossing.BLOCKED]
    if state.abilities:  # terrain heights and altitude layers (docs/rules.md TP-B3, VS2)
        engaged = [state.pos[j] for j in state.enemies(actor)
                   if attack_adjacent(state, actor, j)]
    rng = state.sheets[actor].range
    if isinstance(action, Attack):
        d = state.pos[action.target]
        if not state.alive(action.target) or state.team[action.target] == state.team[actor]:
            return [f"{name} attacks {state.names[action.target]}, not a living enemy"]
        if d in engaged:
            return []
        if engaged:
            return [f"{name} is adjacent to an enemy but attacks {state.names[action.target]}"]
        if not within_range(a, d, rng, state.rules):
            return [f"{name} attacks {state.names[action.target]} out of Range {rng}"]
        if los(m, a, d).crossing is Crossing.BLOCKED:
            return [f"{name} attacks {state.names[action.target]} through blocked LoS"]
        why = targeting_refusal(state, actor, action.target, False)
        return [f"{name} attacks {state.names[action.target]}: {why}"] if why else []
    assert isinstance(action, AttackTerrain)
    return _terrain_problems(state, m, a, engaged, action)


def _others(state: BattleState, actor: int, *also: int) -> list[tuple[int, int]]:
    """Every square of every undefeated character but ``actor`` and ``also``."""
    return [t for j in range(len(state.pos)) if state.alive(j) and j != actor
            and j not in also for t in state.squares(j)]


def _sized_action_problems(state: BattleState, actor: int, action: Action) -> list[str]:
    """:func:`action_problems` by footprints (S21-S26), through the engine's
    ``footprint_reach``, ``creatures_adjacent`` and ``footprint_los`` and the range
    metric between every two squares."""
    m = with_characters(state)
    a, fa, name = state.pos[actor], state.fp[actor], state.names[actor]
    if isinstance(action, Move):
        occupants = [(x, y, str(state.team[j]), state.sheets[j].size)
                     for j in range(len(state.pos)) if state.alive(j) and j != actor
                     for x, y in state.squares(j)]
        r = footprint_reach(m, a, fa, state.sheets[actor].move, team=str(state.team[actor]),
                            flight=state.sheets[actor].flight, budget=move_allowance(state),
                            occupants=occupants, hindered_start=state.turn_hindered,
                            size=state.sheets[actor].size,
                            pass_hostile_by_size=state.rules.movement.pass_hostile_by_size)
        if action.to == a or action.to not in r:
            return [f"{name} moves to {action.to}, outside its range"]
        return []
    engaged = [j for j in state.enemies(actor)
               if creatures_adjacent(m, a, fa, state.pos[j], state.fp[j])]
    if isinstance(action, Attack):
        j = action.target
        if not state.alive(j) or state.team[j] == state.team[actor]:
            return [f"{name} attacks {state.names[j]}, not a living enemy"]
        if j in engaged:
            return []
        if engaged:
            return [f"{name} is adjacent to an enemy but attacks {state.names[j]}"]
        rng = state.sheets[actor].range
        if not any(within_range(p, q, rng, state.rules) for p in state.squares(actor)
                   for q in state.squares(j)):
            return [f"{name} attacks {state.names[j]} out of Range {rng}"]
        line = footprint_los(m, a, fa, state.pos[j], state.fp[j],
                             occupied=_others(state, actor, j))
        if line.crossing is Crossing.BLOCKED:
            return [f"{name} attacks {state.names[j]} through blocked LoS"]
        return []
    if isinstance(action, AttackTerrain):
        bare = with_characters(state)
        del bare.characters[name]
        bare.notify_bulk_change("characters")
        tiles = [state.pos[j] for j in engaged]
        found = [_terrain_problems(state, bare, t, tiles, action) for t in state.squares(actor)]
        return [] if any(not f for f in found) else found[0]
    return []


def _terrain_problems(state: BattleState, m: MapModel, a: tuple[int, int],
                      engaged: list[tuple[int, int]], action: AttackTerrain) -> list[str]:
    x, y, side = action.feature
    rng = state.sheets[state.actor or 0].range
    what = f"terrain {action.feature}"
    if engaged:
        return [f"attack on {what} while adjacent to an enemy"]
    if side == "":
        if m.base_at(x, y) is not Base.OBSTRUCTING:
            return [f"attack on {what}, not Obstructing"]
        touching = max(abs(x - a[0]), abs(y - a[1])) == 1
        if not touching and not within_range(a, (x, y), rng, state.rules):
            return [f"attack on {what} out of Range {rng}"]
        r = los(m, a, (x, y))
        if r.reason is None or r.reason.kind != "target-tile":
            return [f"attack on {what}: the line is blocked before it"]
        return []
    edge = Edge(x, y, side)  # type: ignore[arg-type]
    if m.registry[m.border_at(edge)].base is not Base.OBSTRUCTING:
        return [f"attack on {what}, not Obstructing"]
    p, q = edge.tiles
    if a in (p, q):
        return []
    near, far = (p, q) if (a[0] <= x if side == "E" else a[1] <= y) else (q, p)
    if not within_range(a, near, rng, state.rules):
        return [f"attack on {what} out of Range {rng}"]
    r = los(m, a, far)
    if r.reason is None or r.reason.kind != "border" or r.reason.edge != edge:
        return [f"attack on {what}: the line does not meet it first"]
    return []


def _fly_problems(state: BattleState, actor: int, action: UseAbility) -> list[str]:
    """A change of altitude layer (docs/rules.md VS1, VS3): a flyer, within Ground .. the
    highest layer, up one or down at most ``altitude.descend_layers``."""
    name, now = state.names[actor], alt.altitude_of(state, actor)
    if not state.rules.altitude.enabled or not state.sheets[actor].flight:
        return [f"{name} changes layer without flying"]
    after = now + 1 if action.ability == alt.UP else now - int(action.args[0])
    if not 0 <= after <= alt.max_layer(state) or now - after > state.rules.altitude.descend_layers:
        return [f"{name} flies from layer {now} to {after}"]
    return []


def _ability_problems(state: BattleState, actor: int, action: UseAbility) -> list[str]:
    """An area ability's use or a strike at a falling object, re-derived through the
    engine's public ``los`` and ``pair_crossing`` (docs/rules.md AB1-AB3, AB12)."""
    name = state.names[actor]
    turn = state.turn
    assert turn is not None
    m = with_characters(state)
    a = state.pos[actor]
    if state.sized:  # every square of an adjacent enemy (S5, S25)
        engaged = [t for j in state.enemies(actor)
                   if creatures_adjacent(m, a, state.fp[actor], state.pos[j], state.fp[j])
                   for t in state.squares(j)]
    else:
        engaged = [state.pos[j] for j in state.enemies(actor)
                   if pair_crossing(m, a, state.pos[j])[0] is not Crossing.BLOCKED]
    if action.ability == STRIKE:
        e = state.effects.get((EFFECT, action.args[0])) if action.args else None
        if not isinstance(e, Effect) or e.kind != FALLING:
            return [f"{name} strikes {action.args}, no falling object"]
        if engaged:
            return [f"{name} strikes a falling object while adjacent to an enemy"]
        rng, fp = state.sheets[actor].range, state.fp[actor]
        near = fp.nearest(a, e.origin)
        if not within_range(near, e.origin, rng, state.rules):
            return [f"{name} strikes the falling object {e.id} out of Range {rng}"]
        if near != e.origin and (
                los(state.board.model, a, e.origin) if fp == (1, 1) else
                footprint_los(state.board.model, a, fp, e.origin, Footprint(), occupied=())
        ).crossing is Crossing.BLOCKED:
            return [f"{name} strikes the falling object {e.id} through blocked terrain"]
        return []
    ability = find_area(state, action.ability)
    if not isinstance(ability, AreaAbility) or ability.d not in state.sheets[actor].abilities:
        return [f"{name} uses {action.ability!r}, which it does not have"]
    d = ability.d
    used = state.effects.get((USES, actor, d.name), 0)
    if d.uses is not None and used >= d.uses:
        return [f"{name} uses {d.name!r} a {used + 1}th time, of {d.uses}"]
    if turn.used[ActionType.SPECIAL] >= turn.allowed[ActionType.SPECIAL]:
        return [f"{name} takes a second Special Action"]
    if turn.used[ActionType.ATTACK] and not d.with_attack:
        return [f"{name} uses {d.name!r} after its Basic Attack"]
    if not d.aimed:
        return [] if not action.args else [f"{name} aims {d.name!r}, centred on itself"]
    aim = tuple(action.args)
    fp = state.fp[actor]
    if len(aim) != 2:
        return [f"{name} aims {d.name!r} at {aim}, no tile"]
    near = fp.nearest(a, aim)  # Range from the nearest square (S24, S29)
    if max(abs(aim[0] - near[0]), abs(aim[1] - near[1])) > d.aim_range \
            or not within_range(near, aim, d.aim_range, state.rules):
        return [f"{name} aims {d.name!r} at {aim}, beyond its {d.aim_range}"]
    if engaged and aim not in engaged:
        return [f"{name} is adjacent to an enemy but aims {d.name!r} at {aim}"]
    own = fp.covers(a, aim)
    if not d.at_range and own:
        return [f"{name} aims {d.name!r} at its own square {aim}"]
    if d.at_range and not own:
        if m.base_at(*aim) is Base.OBSTRUCTING:
            return [f"{name} puts {d.name!r}'s point of origin on Obstructing terrain"]
        if fp == (1, 1):
            blocked = los(m, a, aim).crossing is Crossing.BLOCKED
        else:  # the best line from any square, other characters' squares blocking (S9)
            others = [t for t in state.occ if t != aim and not fp.covers(a, t)]
            blocked = footprint_los(state.board.model, a, fp, aim, Footprint(),
                                    occupied=others).crossing is Crossing.BLOCKED
        if blocked:
            return [f"{name} puts {d.name!r}'s point of origin out of sight"]
    return []
