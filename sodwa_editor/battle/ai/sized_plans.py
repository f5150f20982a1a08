"""Plans of a creature larger than a tile (docs/rules.md S27; docs/battle-ai.md).

The compiled passes of :mod:`.scoring` walk one tile per character; a Large or Huge
actor moves by its top-left tile and attacks from any of its squares, so its turn is
planned here with the battle's own rules: the same plan kinds (pass, attack, move, move
then attack; an attack then a move is planned again after the attack, as the greedy
controller re-plans after every attack) and the same utility terms in hit points:

    damage * P(hit) * min(damage on hit, HP)  + kill * P(hit and defeat) * cost / 100
  - threat * sum over enemies that can strike the end position of P(hit) * damage
  - ip * IP spent / 250  - approach * tiles still to go to strike the nearest enemy
  + flank * Evasion its end position takes from adjacent enemies by flanking

``P(hit)`` is the BIP's (:func:`..targeting.preview_attack` on a fork where the move was
played: flanking and cover included, so a move that flanks its target scores its lower
Evasion); the threat of an enemy counts when the end position is within its Move plus
its Range (at least 1) of the enemy's footprint, at the BIP numbers of a plain melee or
ranged attack.  The flank term (when ``flanking.enabled``) is worth ``damage`` weight x
the Evasion lost / 100 x the mean Damage of the actor's team, per enemy: every friend's
next attack on it hits that much more often.  Moves are first ranked by the position
terms (threat, approach, flank); the best :data:`MOVE_CANDIDATES` and every move that
may attack an enemy from its end position are played on forks.
"""

from __future__ import annotations

from ...engine.flanking import flanking
from .. import karma as karma_rules
from ..actions import Action, Attack, Move, Pass
from ..attack import Situation, difficulty_and_damage
from ..clock import ActionType
from ..loop import View
from ..sized import gap
from ..state import BattleState
from ..targeting import attack_targets, bip
from .plan import Plan
from .profile import GreedyWeights

#: Moves played on a fork besides the ones next to an enemy (ranked by position terms).
MOVE_CANDIDATES = 6


def _attack_value(state: BattleState, actor: int, j: int, w: GreedyWeights) -> float:
    """Expected damage and kill value of ``actor`` attacking ``j`` now (BIP numbers)."""
    p = bip(state, actor, j)
    hit = p.hits_with_karma / 100
    hp = state.hp[j] - state.rules.combat.defeated_at_or_below
    kills = p.damage_on_hit >= hp
    return (w.damage * hit * min(p.damage_on_hit, max(0, hp))
            + (w.kill * hit * state.sheets[j].cost / 100 if kills else 0.0))


def _threat(state: BattleState, actor: int, w: GreedyWeights) -> float:
    """Expected damage the enemies that can strike the actor where it stands deal it."""
    total = 0.0
    me = state.sheets[actor]
    for j in state.enemies(actor):
        sheet = state.sheets[j]
        if gap(state, j, actor) > sheet.move + max(1, sheet.range):
            continue
        melee = sheet.range <= 1
        s = Situation(adjacent=melee)
        difficulty, damage = difficulty_and_damage(sheet, me, s, state.rules)
        total += karma_rules.successes(difficulty, 0, state.rules) / 100 * damage
    return w.threat * total


def _approach(state: BattleState, actor: int, w: GreedyWeights) -> float:
    """Tiles still to go before the actor can strike its nearest enemy, weighted."""
    reach = max(1, state.sheets[actor].range)
    near = min((gap(state, actor, j) for j in state.enemies(actor)), default=0.0)
    return w.approach * max(0.0, near - reach)


def _flank(state: BattleState, actor: int, w: GreedyWeights) -> float:
    """What the actor standing here takes off adjacent enemies' Evasion by flanking
    (docs/rules.md S19), worth the team's next attacks on them."""
    rules = state.rules.flanking
    if not rules.enabled:
        return 0.0
    mine = [i for i in range(len(state.pos)) if state.alive(i)
            and state.team[i] == state.team[actor]]
    mean = sum(state.sheets[i].melee_damage for i in mine) / max(1, len(mine))
    model = state.board.model
    total = 0.0
    foes_of = {i: (state.pos[i], state.fp[i]) for i in mine}
    for j in state.enemies(actor):
        if gap(state, actor, j) > 1:
            continue
        f = flanking(model, (state.pos[j], state.fp[j]),
                     {state.names[i]: p for i, p in foes_of.items()},
                     minimum_foes=rules.minimum_foes)
        if f.flanked:
            lost = min(state.sheets[j].evasion, rules.evasion_per_square * f.count)
            total += w.damage * lost / 100 * mean
    return total


def _position(state: BattleState, actor: int, w: GreedyWeights) -> float:
    return -_threat(state, actor, w) - _approach(state, actor, w) + _flank(state, actor, w)


def plans(view: View, weights: GreedyWeights, limit: int | None = None) -> list[Plan]:
    """The actor's plans, best first (ties in enumeration order: pass, attacks by target,
    moves row-major, each move's attacks), the best ``limit`` and every plan as good."""
    actor = view.actor
    assert actor is not None, "plans are made during a turn"
    base = view.fork()
    rules = view.rules.clock
    w = weights
    scored: list[tuple[float, float, tuple[Action, ...]]] = []
    here = _position(base, actor, w)
    scored.append((here, here, (Pass(),)))
    if view.can_take(ActionType.ATTACK):
        for j in attack_targets(base, actor):
            value = _attack_value(base, actor, j, w) - w.ip * rules.attack_cost / 250
            scored.append((value + here, here, (Attack(j),)))
    if view.can_take(ActionType.MOVE):
        xs, ys = view.move_tiles()
        ranked: list[tuple[float, int, BattleState]] = []
        for k, to in enumerate(zip(xs.tolist(), ys.tolist(), strict=True)):
            fork = base.copy(log=False, streams=False)
            fork.move_to(actor, to)
            fork.moved[actor] = True
            fork.changed()
            ranked.append((_position(fork, actor, w), k, fork))
        ranked.sort(key=lambda r: (-r[0], r[1]))
        attack = view.can_take(ActionType.ATTACK)
        for rank, (value, k, fork) in enumerate(ranked):
            to = (int(xs[k]), int(ys[k]))
            move = Move(to)
            cost = w.ip * rules.move_cost / 250
            near = attack and any(gap(fork, actor, j) <= max(1, fork.sheets[actor].range)
                                  for j in fork.enemies(actor))
            if rank >= MOVE_CANDIDATES and not near:
                scored.append((value - cost, value, (move,)))
                continue
            scored.append((value - cost, value, (move,)))
            if near:
                for j in attack_targets(fork, actor):
                    gain = _attack_value(fork, actor, j, w) - w.ip * rules.attack_cost / 250
                    scored.append((value - cost + gain, value, (move, Attack(j))))
    order = sorted(range(len(scored)), key=lambda r: -scored[r][0])
    best = scored[order[0]][0]
    ties = sum(1 for r in order if scored[r][0] == best)
    keep = order if limit is None else order[:max(limit, ties)]
    return [Plan(scored[r][0], r, scored[r][2], scored[r][1]) for r in keep]

