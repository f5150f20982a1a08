"""The ``greedy`` controller: each decision takes the best plan of
:func:`.scoring.plans` (the Wesnoth RCA pattern with one utility; weights from the
AI profile) and plays its first action; after it, the rest of the turn is planned
again from what happened (a hit, a miss, a defeat).

A same-team tie (RB: "the player gets to decide which character gets to go
first") is answered by the same scoring: the candidate whose best plan is worth
most acts, each candidate's turn tried on a fork of the battle.  Equal
utilities keep the fixed enumeration order's first, unless several are exactly
equal, then one is drawn from the team's own AI stream.  Nothing depends on dict
or set order, ids or the clock.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..actions import Action, Move, Pass, begin_turn
from ..loop import View
from .memo import Memo
from .profile import GreedyWeights, Profile, TerrainWeights, default_profile
from .scoring import Plan, allowed_plans, plans


def pick(candidates: Sequence[Plan], rng: np.random.Generator) -> Plan:
    """The best plan; among exactly equal utilities one drawn from ``rng`` (a NaN
    utility equals nothing: then the first plan)."""
    best = [p for p in candidates if p.utility == candidates[0].utility] or [candidates[0]]
    return best[int(rng.random() * len(best))] if len(best) > 1 else best[0]


def best_actor(view: View, candidates: Sequence[int], weights: GreedyWeights,
               rng: np.random.Generator, memo: Memo | None = None,
               limit: int | None = 1, terrain: TerrainWeights | None = None) -> int:
    """The tied character whose best plan is worth most (its turn begun on a fork).
    Every candidate's plans (``limit`` of them) are kept in ``memo``: the winner's
    first decision sees the same position, and so does a loser's when the winner's
    turn changed nothing its plans read (:func:`.memo.fingerprint`)."""
    scored, made = [], []
    for order, c in enumerate(sorted(candidates)):
        state = view.fork()
        begin_turn(state, c)
        fork = View(state, view.team)
        made.append((fork, plans(fork, weights, limit, memo, terrain)))
        scored.append(Plan(made[-1][1][0].utility, order, (Pass(),)))
    scored.sort(key=lambda p: (-p.utility, p.order))
    chosen = pick(scored, rng).order
    if memo is not None:
        for fork, kept in made:
            memo.keep(fork, weights, limit, kept)
    return sorted(candidates)[chosen]


class Greedy:
    """Greedy utility AI for ``team`` drawing tie-breaks from ``rng`` (its AI stream)."""

    def __init__(self, team: int, rng: np.random.Generator,
                 profile: Profile | None = None) -> None:
        self.team = team
        self.rng = rng
        profile = profile or default_profile()
        self.weights, self.terrain = profile.greedy, profile.terrain
        self._rest: tuple[Action, ...] = ()
        self._turn = -1
        self.memo = Memo()

    def choose_actor(self, view: View, candidates: Sequence[int]) -> int:
        return best_actor(view, candidates, self.weights, self.rng, self.memo,
                          terrain=self.terrain)

    def decide(self, view: View) -> Action:
        """The plan's next step; a new plan at the start of a turn and after every
        attack (a hit, a miss or a defeat changes what is best).  After a Move the
        plan stands (it was scored for the tile moved to; a plan of a Move alone then
        ends the turn)."""
        if self._turn == view.turns and self._rest and view.refusal(self._rest[0]) is None:
            step, self._rest = self._rest[0], self._rest[1:]
            return step
        plan = pick(plans(view, self.weights, 1, self.memo, self.terrain), self.rng)
        if view.refusal(plan.steps[0]) is not None:
            plan = pick(allowed_plans(view, self.weights, self.memo, self.terrain), self.rng)
        step = plan.steps[0]
        self._turn = view.turns
        self._rest = (plan.steps[1:] or (Pass(),)) if isinstance(step, Move) else ()
        return step
