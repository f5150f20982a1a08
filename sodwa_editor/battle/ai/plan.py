"""One turn plan of the greedy and expectimax controllers (:func:`.scoring.plans`
makes them; :class:`.memo.Memo` keeps a tie's plans for its losers)."""

from __future__ import annotations

from collections.abc import Callable

from ..actions import Action


class Plan:
    """One turn plan: its actions in order (the last may be a Move after an Attack)
    and its utility; ``order`` is its place in the fixed enumeration (ties);
    ``stay`` the part of the utility for where it ends and the IP it spends (the
    threat, death, tempo and approach terms).

    ``steps`` may be given as a function that builds them: the plans of a decision
    tied at the best utility are all returned, and only the one a controller picks
    needs its actions.

    >>> from sodwa_editor.battle.actions import Pass
    >>> plan = Plan(1.5, 0, lambda: (Pass(),))
    >>> plan.steps, plan.utility
    ((Pass(),), 1.5)
    """

    __slots__ = ("utility", "order", "stay", "_steps")

    def __init__(self, utility: float, order: int,
                 steps: tuple[Action, ...] | Callable[[], tuple[Action, ...]],
                 stay: float = 0.0) -> None:
        self.utility, self.order, self.stay, self._steps = utility, order, stay, steps

    @property
    def steps(self) -> tuple[Action, ...]:
        steps = self._steps
        if not isinstance(steps, tuple):
            steps = self._steps = steps()
        return steps

    def __repr__(self) -> str:
        return f"Plan({self.utility!r}, {self.order!r}, {self.steps!r}, {self.stay!r})"
