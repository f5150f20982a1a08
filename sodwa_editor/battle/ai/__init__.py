"""Battle controllers (AIs), by name: ``greedy`` (greedy utility, :mod:`.greedy`),
``expectimax`` (the greedy plans searched over the dice, :mod:`.expectimax`),
``random`` (random legal actions: the baseline and fuzzer) and ``pass`` (always
passes: for clock tests).  Each AI of team ``t`` draws only from its own stream,
``Streams.ai[t]``, spawned from the battle's seed, so it never shifts the dice or
the other team's choices.

>>> sorted(CONTROLLERS)
['expectimax', 'greedy', 'pass', 'random']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..jsonfiles import BattleInputError
from ..loop import Controller
from ..state import BattleState
from .expectimax import Expectimax
from .greedy import Greedy
from .passer import PassController
from .random_legal import RandomLegal

#: Name -> factory ``(team, rng) -> Controller``.
CONTROLLERS: dict[str, Callable[[int, np.random.Generator], Controller]] = {
    "expectimax": Expectimax,
    "greedy": Greedy,
    "pass": PassController,
    "random": RandomLegal,
}


def make_controller(name: str, team: int, rng: np.random.Generator) -> Controller:
    """The controller called ``name`` for ``team`` drawing from ``rng``; an unknown
    name is one line listing the known ones."""
    factory = CONTROLLERS.get(name)
    if factory is None:
        raise BattleInputError(f"unknown AI {name!r} (known: {', '.join(sorted(CONTROLLERS))})")
    return factory(team, rng)


def make_controllers(names: Sequence[str], state: BattleState) -> list[Controller]:
    """One controller per team, each on the team's own AI stream of ``state``."""
    if len(names) != 2:
        raise BattleInputError(f"a battle needs 2 AI names, not {len(names)}")
    if state.streams is None:
        raise ValueError("the battle has no random streams")
    return [make_controller(n, t, state.streams.ai[t]) for t, n in enumerate(names)]
