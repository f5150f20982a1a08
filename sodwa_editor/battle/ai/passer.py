"""The ``pass`` controller: every turn is a pass (RB TSB: "pass (losing 500 IP)").
For clock and turn-order tests, and as the weakest opponent."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..actions import Action, Pass
from ..loop import View


class PassController:
    """Always passes; among tied characters it takes the lowest index (its choice)."""

    def __init__(self, team: int, rng: np.random.Generator | None = None) -> None:
        self.team = team

    def choose_actor(self, view: View, candidates: Sequence[int]) -> int:
        return min(candidates)

    def decide(self, view: View) -> Action:
        return Pass()
