"""The greedy utility's approach term: how many steps a character still has to go
before it can strike its nearest enemy (:meth:`.scoring.TurnFacts.gap`), from the
walking distances to every enemy and, for a ranged attack, to the nearest tile it
could shoot the enemy from.  Both are kept in the controller's :class:`.memo.Memo`
while the terrain stands."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...engine import adjacency as adj
from ...engine.terrain import Crossing
from . import kernels as k

if TYPE_CHECKING:
    from .scoring import TurnFacts

IMPEDED = int(Crossing.IMPEDED)
DDX = np.array([d[0] for d in adj.DIRS], np.int64)
DDY = np.array([d[1] for d in adj.DIRS], np.int64)


def firing(facts: TurnFacts, melee: np.ndarray) -> np.ndarray:
    """Per enemy ``b`` not approached for melee, per tile: steps to the nearest
    tile from which the character could shoot it (within its Range, a line of
    sight over the terrain that is not blocked; characters, which move, are not
    counted), over the character's own steps; -1 where none is walkable.

    Without it a ranged character walled off from its enemy saw every tile as near
    as another and passed (docs/battle-ai.md, ``greedy.approach``).  Kept per (enemy
    tile, Range, metric, flight) while the terrain stands."""
    board, memo, rng = facts.board, facts.memo, facts.sheet.range
    flight = facts.sheet.flight
    whole = (rng, facts.metric, flight, *facts.ex.tolist(), *facts.ey.tolist(),
             *melee.tolist())
    out = memo.firing_stacks.get(whole)
    if out is not None:
        return out
    out = np.full((len(facts.enemies), board.height, board.width), -1, np.int64)
    packed = None
    for b in np.nonzero(~melee)[0].tolist():
        x, y = int(facts.ex[b]), int(facts.ey[b])
        key = (x, y, rng, facts.metric, flight)
        hit = memo.firing.get(key)
        if hit is None:
            if packed is None:
                terrain = memo.los_board(facts.view, [])
                packed = (*terrain.packed(), terrain.inputs.target)
            lo, (ctx, tcs, ecs, scs), target = packed
            hit = np.empty((board.height, board.width), np.int64)
            k.firing_walks(x, y, rng, facts.metric, facts.level, lo, ctx, tcs, ecs, scs,
                           target, IMPEDED, own_steps(facts), adj.BLOCKED, DDX, DDY, hit)
            if len(memo.firing) >= memo.limit:
                memo.firing.clear()
            memo.firing[key] = hit
        out[b] = hit
    if len(memo.firing_stacks) >= 64:
        memo.firing_stacks.clear()
    memo.firing_stacks[whole] = out
    return out


def own_steps(facts: TurnFacts) -> np.ndarray:
    """The character's own step classes: grounded, or a flyer's (A9: flight is
    movement)."""
    b = facts.board
    return adj.steps(b.model, flight=True).step if facts.sheet.flight else b.step


def walks(facts: TurnFacts) -> np.ndarray:
    """Per enemy, per tile: steps to the enemy's tile (:func:`.kernels.walking` over
    the character's own steps: grounded, or a flyer's; beyond every walk: the map's
    width plus height)."""
    if facts.walk_stack is None:
        b, flight, memo = facts.board, facts.sheet.flight, facts.memo
        key = (flight, *facts.ex.tolist(), *facts.ey.tolist())
        facts.walk_stack = memo.walk_stacks.get(key)
        if facts.walk_stack is not None:
            return facts.walk_stack
        walks = []
        for x, y in zip(facts.ex.tolist(), facts.ey.tolist(), strict=True):
            one = memo.walks.get((x, y, flight))
            if one is None:
                one = np.empty((b.height, b.width), np.int64)
                k.walking(own_steps(facts), adj.BLOCKED, DDX, DDY, np.array([x]),
                          np.array([y]), one)
                one[one < 0] = b.width + b.height
                if len(memo.walks) >= memo.limit:
                    memo.walks.clear()
                memo.walks[(x, y, flight)] = one
            walks.append(one)
        facts.walk_stack = (np.stack(walks) if walks
                            else np.zeros((0, b.height, b.width), np.int64))
        if len(memo.walk_stacks) >= 64:
            memo.walk_stacks.clear()
        memo.walk_stacks[key] = facts.walk_stack
    return facts.walk_stack

