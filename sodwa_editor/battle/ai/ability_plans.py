"""The AIs' plans that use an area ability (docs/battle-ai.md, *Abilities*; docs/rules.md
B46, B47, B49).

Beside the kernel's plans (:func:`.scoring.plans`) a character with a usable area
ability gets, for each ability and aim: the ability from where it stands, and a Move
to one of the :data:`MOVE_TILES` best Move tiles of the kernel's plans then the
ability.  Aims: the character itself for an area centred on it, else every enemy's
tile it may aim at (within the ability's Range or length, a line of sight for a point
of origin at Range; only an adjacent enemy's tile when it is beside one, B38).

Utility, in hit points, with the greedy weights::

    sum over enemies in the area:  damage * P(hit) * min(damage, HP)
                                 + kill * P(hit and defeat) * cost / 100
                                 + karma * P(miss) * Karma Points earned
  - sum over allies (the caster too): damage * P(hit) * min(damage, HP)
                                 + kill (death for the caster) * P(hit and defeat) * cost / 100
  + the stay terms of the end tile with the IP the plan spends (threat, death, ip, approach)

P(hit) is the area BIP's (karma for enemies only, AB7).  A falling object lands after
``T`` upkeeps: its hits count ``1 / (T + 1)`` (its victims may walk away); a lingering
area hits again at each of its ``D`` upkeeps: the cast's hits count ``1 + sum 1/(u + 1)``
for ``u = 1..D``.  Expectimax plays an ability as a chance node (:func:`outcomes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...engine.distance import distance
from ...engine.terrain import Crossing
from .. import karma as karma_rules
from ..abilities import UseAbility
from ..ability_defs import IMPACT
from ..actions import Action, Move
from ..area_abilities import AreaAbility, find_area
from ..area_rules import MAIMED, VictimPreview, area_of, victims
from ..clock import ActionType
from ..dice import D100, d100_from_value
from ..loop import View
from ..state import BattleState
from . import kernels as k
from . import plan_passes as pp
from .plan import Plan
from .profile import GreedyWeights

#: Move tiles an ability is weighed from: the best ones of the kernel's Move plans.
MOVE_TILES = 3
#: Victims whose hit or miss a chance node of expectimax tells apart (2**3 outcomes);
#: the rest count as their likelier outcome.
SPLIT_VICTIMS = 3
#: Plan kinds of the kernel's table (:data:`.scoring.MOVE`, :data:`.scoring.MOVE_ATTACK`).
MOVE_KINDS = (3, 4)
HIT, MISS = d100_from_value(100), d100_from_value(1)
IMPEDED = int(Crossing.IMPEDED)
NONE = np.zeros(0, np.int64)


def usable(view: View, actor: int) -> list[AreaAbility]:
    """The actor's area abilities it may use now."""
    if not view.has_abilities:
        return []
    return [a for a, why in view.area_abilities(actor) if why is None]


def aims(view: View, ability: AreaAbility, actor: int, at: tuple[int, int],
         enemies: Sequence[tuple[int, int]]) -> list[tuple[int, int] | None]:
    """The aims an AI weighs for ``ability`` cast from ``at`` (module docstring)."""
    d = ability.d
    if not d.aimed:
        return [None]
    board, metric = view.board, view.rules.targeting.range_metric
    engaged = [t for t in enemies if board.adjacent(at, t)]
    out: list[tuple[int, int] | None] = []
    for t in engaged or enemies:
        if t == at or distance(at, t, metric) > d.aim_range:
            continue
        if d.at_range and view.crossing(at, t) is Crossing.BLOCKED:
            continue
        out.append(t)
    return out


def worth(view: View, w: GreedyWeights, ability: AreaAbility, actor: int,
          hit: Sequence[VictimPreview]) -> float:
    """The area's hits in the greedy utility's units (module docstring)."""
    rules = view.rules
    floor = rules.combat.defeated_at_or_below
    total = 0.0
    for v in hit:
        j = v.character
        lethal = view.hp(j) - floor
        if lethal <= 0:
            continue
        p = v.hits_with_karma / 100
        dealt = min(v.damage_on_hit, lethal)
        kill = p * view.sheet(j).cost / 100 if v.damage_on_hit >= lethal else 0.0
        if v.ally:
            total -= w.damage * p * dealt + (w.death if j == actor else w.kill) * kill
        else:
            total += w.damage * p * dealt + w.kill * kill \
                + w.karma * (1 - p) * karma_rules.gain(v.difficulty, rules)
    d = ability.d
    if d.falls:
        total /= (d.spec.timer or 0) + 1
    elif d.lingers:
        total *= 1 + sum(1 / (u + 1) for u in range(1, (d.spec.duration or 0) + 1))
    return total


def stays(f: Any, view: View, fx: np.ndarray, fy: np.ndarray, moved: int,
          extra: int) -> np.ndarray:
    """The stay terms (threat, death, ip, approach: :func:`.kernels.stay`) of ending the
    turn on each tile ``(fx[i], fy[i])`` with Move flag ``moved`` having spent ``extra``
    more IP; ``f``: the decision's :class:`.scoring.TurnFacts`."""
    rules, sheet, w = f.rules, f.sheet, f.w
    cost = rules.clock
    m = len(f.enemies)
    numbers = f.numbers
    cx, cy = f.tile
    present = np.array([1, 0, 0, 1, 0], np.int64)
    extras = np.array([0, 0, 0, extra, 0], np.int64)
    no = np.zeros(0, np.int64)
    times, strike, levels = pp.stay_facts(
        cx, cy, no, no, fx, fy, present, f.level, view.ip(f.i), sheet.initiative,
        extras, f.eidx, np.array(view.ips, np.int64), numbers.initiative,
        np.array(view.acted, np.int64), cost.turn_threshold, cost.turn_cost,
        cost.one_turn_per_tick, f.ex, f.ey, numbers.square)
    zones, q, threat_dmg = f.threat_inputs(strike, levels)
    if m:
        walks, walk_slots, fire, fire_slots, melee = f.approach_inputs()
    else:
        walks = fire = f.memo.walks.block
        walk_slots = fire_slots = NONE
        melee = np.zeros(0, bool)
    sight = np.zeros((len(fx), m), np.int64)
    if m and not bool(melee.all()):
        sight = f.sight(fx, fy)
    index = {int(v): i for i, v in enumerate(levels.tolist())}
    lev = np.array([index[int(f.level[y, x])] for x, y in
                    zip(fx.tolist(), fy.tolist(), strict=True)], np.int64)
    floor = rules.combat.defeated_at_or_below
    out = np.empty(len(fx))
    k.stay(fx, fy, np.array([len(fx)], np.int64), np.array([3], np.int64),
           np.array([moved], np.int64), np.array([extra], np.int64), times, zones, q, lev,
           threat_dmg, max(0, view.hp(f.i) - floor), walks, walk_slots, fire,
           fire_slots, melee, sight, sheet.range, IMPEDED,
           np.array([w.threat, w.death, w.ip, w.approach]), sheet.cost / 100, out)
    return out


def ability_plans(view: View, f: Any, w: GreedyWeights, kind: np.ndarray,
                  tile: np.ndarray, utility: np.ndarray, dx: np.ndarray, dy: np.ndarray
                  ) -> list[Plan]:
    """The actor's ability plans (module docstring); ``kind``, ``tile``, ``utility``: the
    kernel's plan table, ``dx``, ``dy`` its Move tiles.  Orders follow the table's."""
    actor = f.i
    abilities = usable(view, actor)
    if not abilities:
        return []
    enemies = list(f.enemy_tiles)
    if not enemies:
        return []
    here = f.tile
    can_move = view.can_take(ActionType.MOVE) and len(dx) > 0
    # no enemy within a Move, the aim and the Reach of any ability: no ability plan
    bound = max(a.d.aim_range + reach_bound(a) for a in abilities) \
        + (view.move_this_turn if can_move else 0)
    if min(max(abs(x - here[0]), abs(y - here[1])) for x, y in enemies) > bound:
        return []
    starts: list[tuple[tuple[int, int], bool]] = [(here, False)]
    if can_move:
        rows = np.flatnonzero((kind == MOVE_KINDS[0]) | (kind == MOVE_KINDS[1]))
        rows = rows[np.argsort(-utility[rows], kind="stable")]
        seen: set[tuple[int, int]] = set()
        for r in rows.tolist():
            t = (int(dx[int(tile[r])]), int(dy[int(tile[r])]))
            if t not in seen:
                seen.add(t)
                starts.append((t, True))
                if len(seen) >= MOVE_TILES:
                    break
    rules = view.rules
    found: list[tuple[float, int, tuple[int, int], bool, UseAbility, int]] = []
    moved_now = view.moved(actor)
    for ability in abilities:
        for at, moves in starts:
            for aim in aims(view, ability, actor, at, enemies):
                a = view.ability_area(ability, at, aim)
                if a.refused is not None:
                    continue
                # (a falling object lands later: who stands there now is weighed)
                hit = view.ability_victims(ability, actor, a, at=at if moves else None,
                                           moved=True if moves else None)
                if not any(not v.ally for v in hit):
                    continue
                value = worth(view, w, ability, actor, hit)
                action = UseAbility(ability.name, () if aim is None else aim)
                found.append((value, len(found), at, moves, action, ability.d.ip_cost))
    if not found:
        return []
    order0 = len(utility)
    out: list[Plan] = []
    for moves in (False, True):
        for cost in sorted({x[5] for x in found if x[3] == moves}):
            group = [x for x in found if x[3] == moves and x[5] == cost]
            fx = np.array([x[2][0] for x in group], np.int64)
            fy = np.array([x[2][1] for x in group], np.int64)
            extra = cost + (rules.clock.move_cost if moves else 0)
            stay = stays(f, view, fx, fy, int(moves or moved_now), extra)
            for i, (value, n, at, _m, action, _c) in enumerate(group):
                steps: tuple[Action, ...] = (Move(at), action) if moves else (action,)
                out.append(Plan(value + float(stay[i]), order0 + n, steps, float(stay[i])))
    return out


def reach_bound(ability: AreaAbility) -> int:
    """How far past its aim an ability's area may reach (its Reach and anchors; a
    lingering area's growth over its Duration)."""
    s = ability.d.spec
    reach = max([s.reach or 0, (s.size or 1) // 2, *(r for _t, r in s.anchors)])
    return reach + (s.emanating or 0) * (s.duration or 0)


def merge(kernel: list[Plan], extra: list[Plan], limit: int | None) -> list[Plan]:
    """The kernel's plans and the ability plans, best first (ties by order): the best
    ``limit`` (None: all) and every plan as good as the best."""
    if not extra:
        return kernel
    both = sorted(kernel + extra, key=lambda p: (-p.utility, p.order))
    ties = sum(1 for p in both if p.utility == both[0].utility)
    if limit == 1:
        return both[:ties]
    return both if limit is None else both[:max(limit, ties)]


# ------------------------------------------------------------------ expectimax
def outcomes(state: BattleState, action: UseAbility) -> list[tuple[float, list[D100]]]:
    """An area ability as a chance node: per outcome (the hit or miss of each of the
    first :data:`SPLIT_VICTIMS` victims; the others their likelier outcome), its
    chance and the rolls that give it (00 for a hit, 01 for a miss, a Maim roll of 00
    after a hit that may Maim: no Maim in the lookahead).  Chances are per victim,
    with the karma pool as it stands before the rolls."""
    actor = state.actor
    assert actor is not None
    a = find_area(state, action.ability)
    if a is None or a.d.falls:
        return [(1.0, [])]
    area = area_of(state, a.d, state.pos[actor], _aim(action))
    hit = victims(state, a.d, actor, area)
    if not hit:
        return [(1.0, [])]
    split = hit[:SPLIT_VICTIMS]
    rest = [v.hits_with_karma >= 50 for v in hit[SPLIT_VICTIMS:]]
    chance = state.rules.abilities.maim_chance
    out = []
    for pattern in range(1 << len(split)):
        prob = 1.0
        hits = []
        for b, v in enumerate(split):
            yes = bool(pattern >> b & 1)
            p = v.hits_with_karma / 100
            prob *= p if yes else 1 - p
            hits.append(yes)
        if prob <= 0:
            continue
        rolls: list[D100] = []
        for v, yes in zip(hit, hits + rest, strict=True):
            rolls.append(HIT if yes else MISS)
            if yes and a.d.spec.type in IMPACT and chance > 0 \
                    and state.sheets[v.character].damage_reduction == 0 \
                    and (MAIMED, v.character) not in state.effects:
                rolls.append(HIT)
        out.append((prob, rolls))
    return out


def _aim(action: UseAbility) -> tuple[int, int] | None:
    args = action.args
    return (args[0], args[1]) if len(args) == 2 else None
