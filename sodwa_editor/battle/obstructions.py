"""Attacking Obstructing terrain (RB *Obstructing Terrain*; decision B39).

"Obstructing Terrain can be destroyed by taking 3 or more damage. If a Border of
Obstructing Terrain is destroyed, the tiles on either side become Difficult
Terrain ... They also become Adjacent ... If a Tile of Obstructing Terrain is
destroyed, that tile becomes Difficult Terrain."

With ``terrain.basic_attack_targets_obstructions`` a Basic Attack may aim at an
Obstructing tile or border ("feature" ``(x, y, side)``, side ``""`` for a tile):

* melee when the attacker touches it: the tile is one of its 8 neighbours and the
  line to it meets nothing that blocks before the tile itself (RB: "A character
  can still be adjacent to a tile of Elevated Terrain, just as they would be
  adjacent to a tile of Obstructing Terrain"), or the border lies on an edge of
  the attacker's tile;
* ranged otherwise: the tile is within Range and the line to it is blocked first
  by the tile itself; a border is within Range when the tile on the attacker's
  side of it is, and the line to the tile beyond it is blocked first by that
  border;
* never by a character adjacent to an enemy (it "may only target the adjacent
  enemy characters").

The test is compiled (:func:`.kernels.features`, one call for every feature).
Terrain has no Defense, Evasion or Damage Reduction in the rulebook, so there is
no roll: the attack deals the attacker's Damage of its kind.  Damage on a
feature accumulates; at ``terrain.obstruction_damage_threshold`` the engine's
destroy operation runs on the battle's own copy of the map, which changes LoS
and adjacency for the rest of that battle only.
"""

from __future__ import annotations

import numpy as np

from ..engine.los import LosBoard
from ..engine.model import Edge
from . import kernels as kn
from .attack import distance
from .board import Feature, Tile
from .events import Event, TerrainAttacked, TerrainDestroyed
from .state import BattleState
from .targeting import engaged_with


def _touching(a: Tile, feature: Feature) -> bool:
    x, y, side = feature
    if side == "":
        return max(abs(x - a[0]), abs(y - a[1])) == 1
    return a in Edge(x, y, side).tiles  # type: ignore[arg-type]


def feature_refusal(state: BattleState, attacker: int, feature: Feature) -> str | None:
    """Why ``attacker`` may not attack the Obstructing ``feature`` now (None: it may)."""
    if not state.rules.terrain.basic_attack_targets_obstructions:
        return "the rules do not let a Basic Attack target terrain"
    x, y, side = feature
    what = f"tile ({x}, {y})" if side == "" else f"border {x},{y},{side}"
    if not state.board.is_obstruction(feature):
        return f"the {what} is not Obstructing terrain"
    engaged = engaged_with(state, attacker)
    if engaged:
        names = ", ".join(repr(state.names[j]) for j in engaged)
        return f"must target the adjacent enem{'y' if len(engaged) == 1 else 'ies'}: {names}"
    code = _reach(state, attacker, np.array([x]), np.array([y]),
                  np.array([" ES".index(side)]))[0]
    if code == kn.REACHED:
        return None
    a = state.pos[attacker]
    if code == kn.OUT_OF_RANGE:
        near = (x, y) if side == "" else _near(a, feature)
        dist = distance(a, near, state.rules.targeting.range_metric)
        return (f"out of range: the {what} is {dist:g} tiles away, "
                f"Range {state.sheets[attacker].range}")
    if side == "":
        return f"line of sight to the {what} {state.los_board().los(a, (x, y)).describe()}"
    return f"line of sight to the {what} is blocked before it"


def _near(a: Tile, feature: Feature) -> Tile:
    """The tile of a border on the attacker's side of it."""
    x, y, side = feature
    p, q = Edge(x, y, side).tiles  # type: ignore[arg-type]
    return p if (a[0] <= x if side == "E" else a[1] <= y) else q


def _reach(state: BattleState, attacker: int, fx: np.ndarray, fy: np.ndarray,
           fs: np.ndarray) -> np.ndarray:
    """Per feature: reached, out of range or blocked from the attacker.  A creature
    larger than a tile strikes from any of its squares, the best answer of any (S26;
    its own squares do not block its lines)."""
    a = state.pos[attacker]
    fp = state.fp[attacker]
    if fp == (1, 1):
        board = state.los_board()
        squares = [a]
    else:
        board = LosBoard(state.board.model,
                         sorted(t for t, j in state.occ.items() if j != attacker))
        squares = fp.squares(a)
    ctx, tcs, ecs, scs = board.stack(state.board.level[a[1]][a[0]])
    out = np.empty(fx.shape[0], np.int8)
    best = np.full(fx.shape[0], kn.BLOCKED, np.int8)
    for x, y in squares:
        kn.features(x, y, state.sheets[attacker].range,
                    kn.METRICS[state.rules.targeting.range_metric], ctx, tcs, ecs, scs,
                    board.inputs.target, fx, fy, fs, out)
        np.minimum(best, out, out=best)
    return best


def feature_kind(state: BattleState, attacker: int, feature: Feature) -> str:
    """``"melee"`` when the attacker touches the feature, else ``"ranged"``."""
    return "melee" if any(_touching(t, feature) for t in state.squares(attacker)) \
        else "ranged"


def feature_targets(state: BattleState, attacker: int) -> list[Feature]:
    """Every Obstructing feature ``attacker`` may attack now (row-major, tiles first)."""
    board = state.board
    if not state.rules.terrain.basic_attack_targets_obstructions or not board.obstructions:
        return []
    if engaged_with(state, attacker):
        return []
    fx, fy, fs = board.feature_arrays
    features = board.obstructions
    return [features[k] for k in np.flatnonzero(_reach(state, attacker, fx, fy, fs)
                                                == kn.REACHED).tolist()]


def strike(state: BattleState, attacker: int, feature: Feature, ip: int) -> list[Event]:
    """Deal the attacker's Damage of its kind to ``feature`` (no roll; B39) and destroy
    it on the battle's own board once its damage reaches the threshold."""
    kind = feature_kind(state, attacker, feature)
    dealt = state.sheets[attacker].damage(kind == "melee")
    total = state.damage.get(feature, 0) + dealt
    threshold = state.rules.terrain.obstruction_damage_threshold
    events: list[Event] = [TerrainAttacked(attacker, feature, kind, dealt, total, threshold, ip)]
    if total >= threshold:
        state.damage.pop(feature, None)
        rubble = state.own_board().destroy(feature)
        state.destroyed.append(feature)
        state.changed()
        events.append(TerrainDestroyed(feature, rubble))
    else:
        state.damage[feature] = total
    return events
