"""The ``expectimax`` controller: the greedy AI's best plans searched over the dice.

Each of the ``candidates`` best greedy plans (:func:`.scoring.plans`) is played on a
fork of the battle (:meth:`..loop.View.fork`: no random streams).  Every Attack
is a chance node with the d100's three outcomes and their exact chances (RB
*Attacking and Defending*, *The Karma System*; :func:`..karma.successes`): a
natural success, a failure rescued by the team's Karma Points (they are spent), a
failure (Karma Points earned).  A leaf is worth the battle's material for the
team (:func:`material`: HP left and defeats weighted as the greedy utility weighs
damage and kills, plus the signed karma) plus the plan's ``stay`` terms (threat,
death, tempo, approach).

An area ability is a chance node too, over its victims' hits and misses
(:func:`.ability_plans.outcomes`); any other roll on a fork (an upkeep in the next
turn) is the median roll, 50.

Depth 2 searches this character's next turn as well: between the two turns the
other characters are taken to pass (the TSB's assumption; their danger is in
the ``stay`` terms), and at the next turn the ``reply_candidates`` best plans
are searched the same way, the best one counting.  The search stops at
``node_budget`` nodes (a node = one outcome played on a fork): the candidates
not searched by then are not chosen.  Budgets are in nodes, never seconds.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..abilities import UseAbility
from ..actions import MEDIAN_ROLL as MEDIAN
from ..actions import Action, Attack, Move, Pass, apply, begin_turn, next_turn, refusal
from ..area_abilities import find_area
from ..dice import D100, d100_from_value
from ..karma import available, resolve_roll
from ..loop import View
from ..state import BattleState
from ..targeting import preview_attack
from .ability_plans import outcomes as ability_outcomes
from .greedy import best_actor, pick
from .memo import Memo
from .profile import GreedyWeights, Profile, SearchSettings, default_profile
from .scoring import Plan, allowed_plans, plans

#: Turns played as passes while looking for the character's next turn (a guard).
MAX_PASSES = 10_000


def material(state: BattleState, team: int, w: GreedyWeights) -> float:
    """The battle for ``team`` in the greedy utility's units: each enemy's HP left
    costs ``w.damage`` per point and a defeated enemy is worth ``w.kill`` times its
    cost / 100; its own characters count the other way; karma held counts
    ``w.karma`` per point."""
    total = 0.0
    for j in range(len(state.pos)):
        sign = 1.0 if state.team[j] == team else -1.0
        if state.alive(j):
            total += sign * w.damage * max(0, state.hp[j])
        else:
            total -= sign * w.kill * state.sheets[j].cost / 100
    return total + w.karma * (available(state.karma, team) - available(state.karma, 1 - team))


def outcomes(state: BattleState, target: int) -> list[tuple[float, D100]]:
    """The actor's attack on ``target`` as a chance node: (probability, a roll giving
    that outcome) for a natural success, a karma-rescued failure and a failure;
    outcomes of chance 0 left out."""
    actor = state.actor
    assert actor is not None
    p = preview_attack(state, actor, target)
    team, pool = state.team[actor], state.karma
    rescued = p.hits_with_karma - p.hits
    want = [(p.hits, p.need_roll, True, False),
            (rescued, p.need_roll - (rescued + 1) // 2, True, True),
            (100 - p.hits_with_karma, 1, False, False)]
    out = []
    for count, guess, success, spends in want:
        if count <= 0:
            continue
        value = _roll_of(guess, success, spends, p.difficulty, pool, team, state)
        if value is not None:
            out.append((count / 100, d100_from_value(value)))
    return out


def _roll_of(guess: int, success: bool, spends: bool, difficulty: int, pool: int, team: int,
             state: BattleState) -> int | None:
    """A roll (``guess`` if it fits) with the outcome ``(success, karma spent)``."""
    def fits(v: int) -> bool:
        r = resolve_roll(difficulty, v, pool, team, state.rules)
        return r.success == success and (r.karma_spent > 0) == spends

    if 1 <= guess <= 100 and fits(guess):
        return guess
    return next((v for v in range(1, 101) if fits(v)), None)


class _Search:
    def __init__(self, team: int, profile: Profile, memo: Memo | None = None) -> None:
        self.team, self.w, self.s = team, profile.greedy, profile.expectimax
        self.terrain = profile.terrain
        self.memo = memo
        self.nodes = 0
        self.me = -1

    def play(self, state: BattleState, steps: Sequence[Action], depth: int) -> float:
        """Expected value of playing ``steps`` (then ending the turn) on ``state``."""
        if not steps or state.result is not None:
            return self.leaf(state, depth)
        step, rest = steps[0], steps[1:]
        if refusal(state, step) is not None:  # e.g. a Move no longer possible after a kill
            return self.play(state, rest, depth)
        if isinstance(step, UseAbility) and find_area(state, step.ability) is not None:
            value = 0.0  # an area ability: a chance node over its victims' rolls
            for prob, rolls in ability_outcomes(state, step):
                child = state.copy(log=False, streams=False)
                apply(child, step, roll=iter(rolls + [MEDIAN] * 64).__next__)
                self.nodes += 1
                value += prob * self.play(child, rest, depth)
            return value
        if not isinstance(step, Attack):
            child = state.copy(log=False, streams=False)
            apply(child, step, roll=lambda: MEDIAN)
            self.nodes += 1
            return self.play(child, rest, depth)
        value = 0.0
        for prob, dice in outcomes(state, step.target):
            child = state.copy(log=False, streams=False)
            apply(child, step, roll=lambda d=dice: d)  # type: ignore[misc]
            self.nodes += 1
            value += prob * self.play(child, rest, depth)
        return value

    def leaf(self, state: BattleState, depth: int) -> float:
        value = material(state, self.team, self.w)
        if depth <= 1 or state.result is not None or self.nodes >= self.s.node_budget:
            return value
        me = self.me
        if state.turn is not None:
            apply(state, Pass())
        for _ in range(MAX_PASSES):
            if state.result is not None:
                return material(state, self.team, self.w)
            choice = next_turn(state)
            assert choice is not None
            if me in choice.candidates:
                begin_turn(state, me)
                break
            begin_turn(state, choice.candidates[0])
            apply(state, Pass())
        else:
            return value
        if not state.alive(me):
            return value
        replies = plans(View(state, self.team), self.w, self.s.reply_candidates,
                        self.memo, self.terrain)[:self.s.reply_candidates]
        best = None
        for reply in replies:
            if self.nodes >= self.s.node_budget and best is not None:
                break
            v = reply.stay + self.play(state, reply.steps, 1)
            best = v if best is None or v > best else best
        return value if best is None else best

    def rank(self, view: View, candidates: Sequence[Plan]) -> list[Plan]:
        """The candidates searched within the budget, with their expected values."""
        assert view.actor is not None
        self.me = view.actor
        out: list[Plan] = []
        for plan in candidates:
            if self.nodes >= self.s.node_budget and out:
                break
            value = plan.stay + self.play(view.fork(), plan.steps, self.s.depth)
            out.append(Plan(value, plan.order, plan.steps, plan.stay))
        out.sort(key=lambda p: (-p.utility, p.order))
        return out


def _ties(ranked: Sequence[Plan]) -> int:
    return sum(1 for p in ranked if p.utility == ranked[0].utility)


class Expectimax:
    """Expectimax AI for ``team``: tie-breaks from ``rng`` (its AI stream), search
    settings from the profile."""

    def __init__(self, team: int, rng: np.random.Generator,
                 profile: Profile | None = None) -> None:
        self.team = team
        self.rng = rng
        self.profile = profile or default_profile()
        self.settings: SearchSettings = self.profile.expectimax
        self._rest: tuple[Action, ...] = ()
        self._turn = -1
        self.memo = Memo()

    def choose_actor(self, view: View, candidates: Sequence[int]) -> int:
        return best_actor(view, candidates, self.profile.greedy, self.rng, self.memo,
                          self.settings.candidates, self.profile.terrain)

    def decide(self, view: View) -> Action:
        """The searched plan's next step; searched again at the start of a turn and
        after every attack."""
        if self._turn == view.turns and self._rest and view.refusal(self._rest[0]) is None:
            step, self._rest = self._rest[0], self._rest[1:]
            return step
        top = plans(view, self.profile.greedy, self.settings.candidates, self.memo,
                    self.profile.terrain)
        top = top[:max(self.settings.candidates, _ties(top))]
        plan = pick(_Search(self.team, self.profile, self.memo).rank(view, top), self.rng)
        if view.refusal(plan.steps[0]) is not None:
            plan = pick(allowed_plans(view, self.profile.greedy, self.memo,
                                      self.profile.terrain), self.rng)
        step = plan.steps[0]
        self._turn = view.turns
        self._rest = (plan.steps[1:] or (Pass(),)) if isinstance(step, Move) else ()
        return step
