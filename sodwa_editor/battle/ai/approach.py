"""The greedy utility's approach term: how many steps a character still has to go
before it can strike its nearest enemy (:meth:`.scoring.TurnFacts.gap`), from the
walking distances to every enemy and, for a ranged attack, to the nearest tile it
could shoot the enemy from.  Both are kept in the controller's :class:`.memo.Memo`
while the terrain stands."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ...engine import adjacency as adj
from ...engine.terrain import Crossing
from ..board import Board
from ..loop import View
from ..sheet import Sheet
from . import kernels as k
from .memo import Memo

IMPEDED = int(Crossing.IMPEDED)
DDX = np.array([d[0] for d in adj.DIRS], np.int64)
DDY = np.array([d[1] for d in adj.DIRS], np.int64)


class TurnFacts(Protocol):
    """What the approach term reads of the actor's turn: the attributes of
    :class:`.scoring.TurnFacts` it uses (a protocol, so that this module, which
    scoring imports, does not import scoring)."""

    @property
    def view(self) -> View: ...
    @property
    def board(self) -> Board: ...
    @property
    def sheet(self) -> Sheet: ...
    @property
    def memo(self) -> Memo: ...
    @property
    def metric(self) -> int: ...
    @property
    def level(self) -> np.ndarray: ...
    @property
    def enemies(self) -> list[int]: ...
    @property
    def enemy_tiles(self) -> list[tuple[int, int]]: ...
    @property
    def ex(self) -> np.ndarray: ...
    @property
    def ey(self) -> np.ndarray: ...


def firing(facts: TurnFacts, melee: np.ndarray) -> np.ndarray:
    """Per enemy ``b`` not approached for melee, the slot in ``facts.memo.firing`` of
    the steps, per tile, to the nearest tile from which the character could shoot it
    (within its Range, a line of sight over the terrain that is not blocked;
    characters, which move, are not counted), over the character's own steps (-1
    where none is walkable); -1 for the enemies approached for melee.

    Without it a ranged character walled off from its enemy saw every tile as near
    as another and passed (docs/battle-ai.md, ``greedy.approach``).  Kept per (enemy
    tile, Range, metric, flight) while the terrain stands; the slots hold until the
    pool's next :meth:`~.memo.Pool.reserve`: read them before another call."""
    memo, rng, flight = facts.memo, facts.sheet.range, facts.sheet.flight
    pool = memo.firing
    at = (tuple(facts.enemy_tiles), melee.tobytes(), rng, facts.metric, flight)
    slots = pool.kept(at)
    if slots is not None:
        return slots
    pool.reserve(len(facts.enemies))
    slots = np.full(len(facts.enemies), -1, np.int64)
    packed = None
    for b in np.nonzero(~melee)[0].tolist():
        x, y = int(facts.ex[b]), int(facts.ey[b])
        key = (x, y, rng, facts.metric, flight)
        slot = pool.get(key)
        if slot < 0:
            if packed is None:
                terrain = memo.lines(facts.view, [])
                packed = (terrain.lo, terrain.stacks, terrain.target)
            lo, (ctx, tcs, ecs, scs), target = packed
            slot = pool.add(key)
            k.firing_walks(x, y, rng, facts.metric, facts.level, lo, ctx, tcs, ecs, scs,
                           target, IMPEDED, own_steps(facts), adj.BLOCKED, DDX, DDY,
                           pool.block[slot])
        slots[b] = slot
    pool.keep(at, slots)
    return slots


def own_steps(facts: TurnFacts) -> np.ndarray:
    """The character's own step classes: grounded, or a flyer's (A9: flight is
    movement)."""
    b = facts.board
    return adj.steps(b.model, flight=True).step if facts.sheet.flight else b.step


def walks(facts: TurnFacts) -> np.ndarray:
    """Per enemy, the slot in ``facts.memo.walks`` of the steps, per tile, to the
    enemy's tile (:func:`.kernels.walking` over the character's own steps: grounded,
    or a flyer's; beyond every walk: the map's width plus height).  The slots hold
    until the pool's next :meth:`~.memo.Pool.reserve`: read them before another
    call."""
    b, flight, pool = facts.board, facts.sheet.flight, facts.memo.walks
    at = (tuple(facts.enemy_tiles), flight)
    slots = pool.kept(at)
    if slots is not None:
        return slots
    pool.reserve(len(facts.enemies))
    slots = np.empty(len(facts.enemies), np.int64)
    for i, (x, y) in enumerate(zip(facts.ex.tolist(), facts.ey.tolist(), strict=True)):
        slot = pool.get((x, y, flight))
        if slot < 0:
            slot = pool.add((x, y, flight))
            one = pool.block[slot]
            k.walking(own_steps(facts), adj.BLOCKED, DDX, DDY, np.array([x]),
                      np.array([y]), one)
            one[one < 0] = b.width + b.height
        slots[i] = slot
    pool.keep(at, slots)
    return slots
