"""How a playtest battle was set up, so that Restart plays it again as it was
(issue 24: "Restart replays the battle as set up"), and how its seed is written
for people (Qt-free).

A side taken over during the battle (Take Over) is a change of the battle, not of
its setup: :meth:`Origin.session` starts a new session from the setup with the
players it was set up with, and a watched replay with its own decisions again.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...battle.loop import Decision
from ...battle.session import BattleSession, Seed
from ...battle.session_history import Player
from ...battle.setup import BattleSetup


@dataclass(frozen=True)
class Origin:
    """A battle as set up: the setup, each side's player (an AI name or ``human``),
    the seed, whether the sides were swapped, and the decisions of a watched replay
    (None: a battle played here)."""

    setup: BattleSetup
    players: tuple[Player, Player]
    seed: Seed
    swapped: bool = False
    script: tuple[Decision, ...] | None = None

    def session(self, seed: Seed | None = None) -> BattleSession:
        """A new session from the start: with the setup's seed (a watched replay is
        watched again) or with ``seed`` (a new battle; a replay's decisions, made
        with the other seed, are dropped)."""
        if seed is None or same_seed(seed, self.seed):
            script = list(self.script) if self.script is not None else None
            return BattleSession(self.setup, list(self.players), seed=fresh(self.seed),
                                 swapped=self.swapped, script=script)
        return BattleSession(self.setup, list(self.players), seed=fresh(seed),
                             swapped=self.swapped)

    @classmethod
    def of(cls, session: BattleSession) -> Origin | None:
        """The origin of a session made from a setup, as it stands now (None for a
        session continuing a state: it restarts with its own ``restart``)."""
        if session.setup is None:
            return None
        return cls(session.setup, (session.player(0), session.player(1)), session.seed,
                   session.swapped)


def fresh(seed: Seed) -> Seed:
    """``seed`` as it was before any battle drew from it.  A ``SeedSequence`` counts
    the child streams spawned from it (``battle.dice.Streams`` spawns them from the
    seed it is given), so a second battle from the same object would draw other
    streams: a restarted replay then played another battle than the one recorded
    (and its seed read ``SeedSequence(entropy=7, n_children_spawned=8)``).  An int
    is returned as it is."""
    if isinstance(seed, np.random.SeedSequence):
        return np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key,
                                      pool_size=seed.pool_size)
    return seed


def same_seed(a: Seed, b: Seed) -> bool:
    return seed_key(a) == seed_key(b)


def seed_key(seed: Seed) -> tuple[int, tuple[int, ...]]:
    """(entropy, spawn key): an int seed ``n`` is ``SeedSequence(n)``."""
    if isinstance(seed, np.random.SeedSequence):
        entropy = seed.entropy
        return (int(entropy) if isinstance(entropy, int) else -1,
                tuple(int(k) for k in seed.spawn_key))
    return int(seed), ()


def seed_text(seed: Seed) -> str:
    """A seed as a person types it: ``7``; a batch battle's (a replay saved from a
    Balance Run) with its place in the batch: ``7 (battle 3 of the batch)``.

    >>> seed_text(7), seed_text(np.random.SeedSequence(7)), seed_text(
    ...     np.random.SeedSequence(7, spawn_key=(3,)))
    ('7', '7', '7 (battle 3 of the batch)')
    """
    entropy, spawn = seed_key(seed)
    if entropy < 0:
        return "a non-integer seed"
    if not spawn:
        return str(entropy)
    where = ", ".join(str(k) for k in spawn)
    return f"{entropy} (battle {where} of the batch)"
