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
from ..engine.los import los
from ..engine.model import Character, Edge, MapModel
from ..engine.movement import reach
from ..engine.terrain import Base, Crossing
from .abilities import UseAbility
from .actions import Action, Attack, AttackTerrain, Move, Pass, move_allowance
from .attack import within_range
from .state import BattleState


def state_problems(state: BattleState) -> list[str]:
    """Every broken state invariant, as one line each (empty: all hold)."""
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
    return out


def with_characters(state: BattleState) -> MapModel:
    """A copy of the battle's map with every undefeated character on it (team = its
    team number)."""
    m = state.board.model.copy()
    m.characters = {}
    for i, (x, y) in enumerate(state.pos):
        if state.alive(i):
            s = state.sheets[i]
            m.characters[state.names[i]] = Character(state.names[i], str(state.team[i]), x, y,
                                                     move=s.move, range=s.range, flight=s.flight)
    m.notify_bulk_change("characters")
    return m


def action_problems(state: BattleState, action: Action, *, moves: bool = True) -> list[str]:
    """Why ``action`` (about to be applied by the actor) breaks a targeting or
    movement rule, re-derived through the engine's public functions (empty: legal).
    ``moves=False`` skips Move Actions (their check runs a full movement search on a
    fresh map: the slowest check)."""
    actor = state.actor
    if actor is None or isinstance(action, Pass | UseAbility):
        return []
    if isinstance(action, Move) and not moves:
        return []
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
        return []
    assert isinstance(action, AttackTerrain)
    return _terrain_problems(state, m, a, engaged, action)


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
