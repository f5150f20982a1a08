"""The ``random`` controller: a uniformly random legal action, the baseline opponent
and the fuzzer of the battle rules.

Each decision first picks one kind of action uniformly among the kinds available
(move, attack on a character, attack on terrain, ability, pass) and then one
action of that kind uniformly, so attacks are common even when there are many
tiles to move to.  All draws come from the team's own stream.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..actions import Action, Attack, AttackTerrain, Move, Pass
from ..loop import View


class RandomLegal:
    """Random legal actions from ``rng`` (the team's AI stream)."""

    def __init__(self, team: int, rng: np.random.Generator) -> None:
        self.team = team
        self.rng = rng

    def pick(self, n: int) -> int:
        """A uniform index below ``n`` (``floor(u * n)``: one float draw, faster than
        ``Generator.integers``; the bias, ``n / 2**53``, is nil)."""
        return int(self.rng.random() * n)

    def choose_actor(self, view: View, candidates: Sequence[int]) -> int:
        return candidates[self.pick(len(candidates))]

    def decide(self, view: View) -> Action:
        opts = view.options()
        assert opts is not None, "decide is asked only during the team's turn"
        kinds = [k for k, n in (("move", len(opts.move_x)), ("attack", len(opts.attacks)),
                                ("terrain", len(opts.features)),
                                ("ability", len(opts.abilities)), ("pass", 1)) if n]
        kind = kinds[self.pick(len(kinds))]
        if kind == "move":
            k = self.pick(len(opts.move_x))
            return Move((opts.move_x[k], opts.move_y[k]))
        if kind == "attack":
            return Attack(opts.attacks[self.pick(len(opts.attacks))])
        if kind == "terrain":
            return AttackTerrain(*opts.features[self.pick(len(opts.features))])
        if kind == "ability":
            return opts.abilities[self.pick(len(opts.abilities))]
        return Pass()
