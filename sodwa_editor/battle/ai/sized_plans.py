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
next attack on it hits that much more often.  Every move is scored by the position terms
(threat, approach, flank) for its end position without playing it; a move whose end
position is within striking distance of an enemy is also played on a fork, where each
legal attack's BIP is read (move then attack).
"""

from __future__ import annotations

from ...engine.flanking import flanking
from .. import karma as karma_rules
from ..actions import Action, Attack, Move, Pass
from ..attack import Situation, difficulty_and_damage
from ..clock import ActionType
from ..loop import View
from ..sheet import Sheet
from ..sized import gap_between
from ..state import BattleState
from ..targeting import attack_targets, bip
from .plan import Plan
from .profile import GreedyWeights, TerrainWeights
from .terrain_terms import TerrainTerms, applies

Tile = tuple[int, int]


def _attack_value(state: BattleState, actor: int, j: int, w: GreedyWeights) -> float:
    """Expected damage and kill value of ``actor`` attacking ``j`` now (BIP numbers)."""
    p = bip(state, actor, j)
    hit = p.hits_with_karma / 100
    hp = state.hp[j] - state.rules.combat.defeated_at_or_below
    kills = p.damage_on_hit >= hp
    return (w.damage * hit * min(p.damage_on_hit, max(0, hp))
            + (w.kill * hit * state.sheets[j].cost / 100 if kills else 0.0))


def _threat(state: BattleState, actor: int, at: Tile, w: GreedyWeights,
            hits: dict[int, float]) -> float:
    """Expected damage the enemies that can strike the actor standing at ``at`` deal it
    (``hits``: each enemy's P(hit) x damage, filled as needed)."""
    total = 0.0
    me, fp = state.sheets[actor], state.fp[actor]
    for j in state.enemies(actor):
        sheet = state.sheets[j]
        if gap_between(state, state.pos[j], state.fp[j], at, fp) \
                > sheet.move + max(1, sheet.range):
            continue
        hit = hits.get(j)
        if hit is None:
            hit = hits[j] = _hit_of(state, j, actor, sheet, me)
        total += hit
    return w.threat * total


def _hit_of(state: BattleState, j: int, actor: int, sheet: Sheet, me: Sheet) -> float:
    """P(hit) x damage of enemy ``j``'s plain attack of its better kind on the actor."""
    s = Situation(adjacent=sheet.range <= 1)
    difficulty, damage = difficulty_and_damage(sheet, me, s, state.rules)
    return karma_rules.successes(difficulty, 0, state.rules) / 100 * damage


def _approach(state: BattleState, actor: int, at: Tile, w: GreedyWeights) -> float:
    """Tiles still to go before the actor at ``at`` can strike its nearest enemy."""
    reach = max(1, state.sheets[actor].range)
    fp = state.fp[actor]
    near = min((gap_between(state, at, fp, state.pos[j], state.fp[j])
                for j in state.enemies(actor)), default=0.0)
    return w.approach * max(0.0, near - reach)


def _flank(state: BattleState, actor: int, w: GreedyWeights, at: Tile | None = None
           ) -> float:
    """What the actor standing at ``at`` (default: where it stands) takes off adjacent
    enemies' Evasion by flanking (docs/rules.md S19), worth the team's next attacks."""
    rules = state.rules.flanking
    if not rules.enabled:
        return 0.0
    at = state.pos[actor] if at is None else at
    fp = state.fp[actor]
    near = [j for j in state.enemies(actor)
            if gap_between(state, at, fp, state.pos[j], state.fp[j]) <= 1]
    if not near:
        return 0.0
    mine = [i for i in range(len(state.pos)) if state.alive(i)
            and state.team[i] == state.team[actor]]
    mean = sum(state.sheets[i].melee_damage for i in mine) / max(1, len(mine))
    foes = {state.names[i]: ((at, fp) if i == actor else (state.pos[i], state.fp[i]))
            for i in mine}
    total = 0.0
    for j in near:
        f = flanking(state.board.model, (state.pos[j], state.fp[j]), foes,
                     minimum_foes=rules.minimum_foes)
        if f.flanked:
            lost = min(state.sheets[j].evasion, rules.evasion_per_square * f.count)
            total += w.damage * lost / 100 * mean
    return total


def _threats(state: BattleState, actor: int, at: Tile) -> list[tuple[int, bool]]:
    """The enemies that may strike the actor standing at ``at`` (as :func:`_threat`
    counts them), each with whether by melee."""
    fp = state.fp[actor]
    return [(j, state.sheets[j].range <= 1) for j in state.enemies(actor)
            if gap_between(state, state.pos[j], state.fp[j], at, fp)
            <= state.sheets[j].move + max(1, state.sheets[j].range)]


def _position(state: BattleState, actor: int, at: Tile, w: GreedyWeights,
              hits: dict[int, float], terms: TerrainTerms | None = None) -> float:
    value = (-_threat(state, actor, at, w, hits) - _approach(state, actor, at, w)
             + _flank(state, actor, w, at))
    if terms is not None:  # the terrain's cover term (terrain_terms.py)
        value += terms.stand(at, _threats(state, actor, at))
    return value


def plans(view: View, weights: GreedyWeights, limit: int | None = None,
          terrain: TerrainWeights | None = None) -> list[Plan]:
    """The actor's plans, best first (ties in enumeration order: pass, attacks by target,
    moves row-major, each move's attacks), the best ``limit`` and every plan as good.
    ``terrain``: the profile's terrain weights (the cover and path terms; the attacks'
    values are the BIP's, terrain included, whatever they say)."""
    actor = view.actor
    assert actor is not None, "plans are made during a turn"
    base = view.fork()
    rules = view.rules.clock
    w = weights
    terms = (TerrainTerms(view, terrain, w) if terrain is not None and applies(view, terrain)
             else None)
    scored: list[tuple[float, float, tuple[Action, ...]]] = []
    hits: dict[int, float] = {}
    here = _position(base, actor, base.pos[actor], w, hits, terms)
    scored.append((here, here, (Pass(),)))
    if view.can_take(ActionType.ATTACK):
        for j in attack_targets(base, actor):
            value = _attack_value(base, actor, j, w) - w.ip * rules.attack_cost / 250
            scored.append((value + here, here, (Attack(j),)))
    if view.can_take(ActionType.MOVE):
        xs, ys = view.move_tiles()
        tiles = list(zip(xs.tolist(), ys.tolist(), strict=True))
        ranked = sorted(((_position(base, actor, to, w, hits, terms), k)
                         for k, to in enumerate(tiles)),
                        key=lambda r: (-r[0], r[1]))
        attack = view.can_take(ActionType.ATTACK)
        strike = max(1, base.sheets[actor].range)
        fp = base.fp[actor]
        cost = w.ip * rules.move_cost / 250
        for value, k in ranked:
            to = tiles[k]
            move = Move(to)
            risk = terms.path(to) if terms is not None else 0.0  # (entering effects)
            scored.append((value - cost - risk, value, (move,)))
            near = attack and any(
                gap_between(base, to, fp, base.pos[j], base.fp[j]) <= strike
                for j in base.enemies(actor))
            if not near:
                continue
            fork = base.copy(log=False, streams=False)  # the attack's BIP after the move
            fork.move_to(actor, to)
            fork.moved[actor] = True
            fork.changed()
            for j in attack_targets(fork, actor):
                gain = _attack_value(fork, actor, j, w) - w.ip * rules.attack_cost / 250
                scored.append((value - cost - risk + gain, value, (move, Attack(j))))
    order = sorted(range(len(scored)), key=lambda r: -scored[r][0])
    best = scored[order[0]][0]
    ties = sum(1 for r in order if scored[r][0] == best)
    keep = order if limit is None else order[:max(limit, ties)]
    return [Plan(scored[r][0], r, scored[r][2], scored[r][1]) for r in keep]

