"""Plans of changing altitude layer (``altitude.enabled``; docs/rules.md VS1-VS3;
docs/battle-ai.md, *Terrain properties*): a flyer's ``fly up`` / ``fly down`` actions
(its Move Action for the turn), scored with the profile's ``terrain.altitude`` weight.

A change of layer is worth what it does to the attacks at arm's length, the only thing
the layers change (VS2: adjacency within one layer): the expected damage (the BIP's,
:func:`..targeting.bip`, whatever kind of attack the rules then make it) of each enemy
of Range 1 that the rules let strike the actor (put on a free tile of its movement
range beside the actor on a copy, :func:`..targeting.attack_refusal` asked there),
before less after, weighed as the threat term weighs damage taken; less the same of the
actor's own attacks on each enemy when its Range is 1 (the actor put beside it),
weighed as damage dealt.  ``fly down`` is asked on a copy where the action was played
(:func:`..actions.apply`); ``fly up`` climbs one layer a turn, so it is worth the best
layer above, each weighed by 1 / the turns it takes (a layer put in the state's
``altitude`` effect on a copy, as the action does).  The plan's other terms are the pass
plan's (it ends on the same tile) and the IP of a Move Action.
"""

from __future__ import annotations

from ...engine import adjacency as adj
from ..abilities import UseAbility
from ..actions import MEDIAN_ROLL, apply
from ..altitude import ALTITUDE, DOWN, UP, altitude_of, max_layer
from ..loop import View
from ..state import BattleState
from ..targeting import attack_refusal, bip
from .plan import Plan
from .profile import GreedyWeights, TerrainWeights

Tile = tuple[int, int]
#: Where the altitude plans come in the enumeration order (after every kernel plan).
ORDER = 1 << 40


def wanted(view: View, tw: TerrainWeights | None) -> bool:
    """Whether the actor may have altitude plans: the weight is set, altitude layers
    are on and the actor flies (else nothing here is looked at)."""
    actor = view.actor
    return (tw is not None and tw.altitude > 0 and view.rules.altitude.enabled
            and actor is not None and view.sheet(actor).flight)


def altitude_plans(view: View, gw: GreedyWeights, tw: TerrainWeights, stay: Plan
                   ) -> list[Plan]:
    """The actor's legal ``fly up`` / ``fly down`` actions as plans; ``stay`` the pass
    plan (the terms of ending the turn on this tile)."""
    actions = [a for a in view.legal_actions()
               if isinstance(a, UseAbility) and a.ability in (UP, DOWN)]
    if not actions:
        return []
    actor = view.actor
    assert actor is not None
    now = view.fork()
    before = _arms_length(now, actor)
    tempo = gw.ip * view.rules.clock.move_cost / 250

    def gain(state: BattleState, turns: int) -> float:
        taken, dealt = _arms_length(state, actor)
        return tw.altitude * (gw.threat * (before[0] - taken)
                              - gw.damage * (before[1] - dealt)) / turns

    out = []
    for k, action in enumerate(actions):
        if action.ability == UP:
            layer, best = altitude_of(now, actor), None
            for up in range(layer + 1, max_layer(now) + 1):
                there = now.copy(log=False, streams=False)
                there.effects[(ALTITUDE, actor)] = up
                there.changed()
                value = gain(there, up - layer)
                best = value if best is None or value > best else best
            value = best or 0.0
        else:
            there = now.copy(log=False, streams=False)
            apply(there, action, roll=lambda: MEDIAN_ROLL)
            value = gain(there, 1)
        out.append(Plan(stay.utility - tempo + value, ORDER + k, (action,), stay.stay + value))
    return out


def _arms_length(state: BattleState, me: int) -> tuple[float, float]:
    """(expected damage of the Range 1 enemies' attacks the rules allow on ``me`` from
    beside it, of ``me``'s attacks on the enemies from beside each when its Range is 1)."""
    taken = dealt = 0.0
    mine = state.sheets[me]
    for j in state.enemies(me):
        if state.sheets[j].range <= 1:
            taken += _strike(state, j, me)
        if mine.range <= 1:
            dealt += _strike(state, me, j)
    return taken, dealt


def _strike(state: BattleState, a: int, d: int) -> float:
    """P(hit) x damage (the BIP's) of ``a``'s attack on ``d`` from the first free tile of
    its movement range beside ``d`` (one-tile characters; a larger one from where it
    stands), or 0 when the rules refuse it there or no such tile is free."""
    if state.fp[a] != (1, 1) or state.fp[d] != (1, 1):
        probe = state
    else:
        reach = state.reach_of(a, state.sheets[a].move)
        x, y = state.pos[d]
        spots = [(x + dx, y + dy) for dx, dy in adj.DIRS]
        spot = next((t for t in spots if t == state.pos[a]
                     or (t not in state.occ and t in reach)), None)
        if spot is None:
            return 0.0
        probe = state
        if spot != state.pos[a]:
            probe = state.copy(log=False, streams=False)
            probe.move_to(a, spot)
            probe.changed()
    if attack_refusal(probe, a, d) is not None:
        return 0.0
    p = bip(probe, a, d)
    return p.hits_with_karma / 100 * p.damage_on_hit
