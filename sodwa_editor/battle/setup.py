"""One battle's inputs in one object: everything a battle is a function of except
its seed (issue 11 section 4: map, teams, rules, roster, AI names).

A :class:`BattleSetup` is built once (reading and checking every input, so bad
input is one line before any battle starts) and then starts any number of
battles, each from its own seed: ``sodwa battle`` plays one, a replay re-plays
one, ``sodwa simulate`` plays thousands, in worker processes that each receive
the setup once.  The board is prepared once per process and shared by every
battle on it (:func:`.board.prepare`).

``swapped=True`` starts the same battle with the sides swapped: the AI named
second plays team 0 and, when the battle starts from team files, each team
enters the other team's start zone (the balance report's first-mover and
side-advantage figures compare the two).

>>> from sodwa_editor.engine.generate import make_mixed_map
>>> setup = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("random", "pass"))
>>> state = setup.state(3)
>>> setup.controller_names(swapped=True)
('pass', 'random')
>>> setup.state(3).state_hash() == state.state_hash()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engine.model import MapModel
from .ai import CONTROLLERS, make_controllers
from .board import Board, prepare
from .jsonfiles import BattleInputError, read_json
from .loop import Controller
from .rules import Rules, default_rules
from .sheet import DEFAULT_ROSTER_PATH, Roster, load_roster, roster_from_dict
from .state import BattleState
from .teams import Team, check_point_cap, combatants_from_map, place_teams, team_cost

Seed = int | np.random.SeedSequence


def check_ai_names(names: Sequence[str]) -> tuple[str, str]:
    """Two registered controller names (one line naming the unknown one otherwise)."""
    if len(names) != 2:
        raise BattleInputError(f"give 2 AI names (one per team), not {len(names)}: "
                               f"{','.join(names)}")
    for name in names:
        if name not in CONTROLLERS:
            raise BattleInputError(f"unknown AI {name!r} (known: "
                                   f"{', '.join(sorted(CONTROLLERS))})")
    return names[0], names[1]


@dataclass
class BattleSetup:
    """The inputs of a battle (see the module docstring).

    ``teams``: ``(zone, team, formation)`` for team 0 and team 1, or None to start
    from the characters placed on the map (decision B3).  ``docs``: the source
    documents (rules, roster, teams) a replay embeds; filled by the caller that
    read them.
    """

    model: MapModel
    rules: Rules
    roster: Roster
    ai: tuple[str, str]
    teams: tuple[tuple[str, Team, str | None], ...] | None = None
    docs: dict[str, Any] = field(default_factory=dict)
    _board: Board | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_map(cls, model: MapModel, *, rules: Rules | None = None,
                 roster: Roster | None = None, ai: Sequence[str] = ("random", "random"),
                 teams: Sequence[tuple[str, Team, str | None]] | None = None,
                 docs: dict[str, Any] | None = None) -> BattleSetup:
        """A checked setup: AI names known, teams within the point cap and placeable
        (both arrangements when teams are given), map characters with valid sheets."""
        setup = cls(model, rules or default_rules(), roster or load_roster(),
                    check_ai_names(ai), None if teams is None else tuple(teams), dict(docs or {}))
        if roster is None:
            setup.docs.setdefault("roster", read_json(DEFAULT_ROSTER_PATH))
        setup.check()
        return setup

    def check(self) -> None:
        """Raise :class:`BattleInputError` for inputs no battle can start from."""
        cap = self.rules.battle.point_cap
        if self.teams is None:
            combatants_from_map(self.model, self.roster, cap)
            return
        if len(self.teams) != 2:
            raise BattleInputError(f"a battle needs exactly 2 teams, not {len(self.teams)}")
        for _zone, team, _formation in self.teams:
            check_point_cap(team.name, team_cost(team), cap)
        for swapped in (False, True):
            place_teams(self.model, self.sides(swapped), cap)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the prepared board (each process prepares its own) and with
        the roster as its document (a roster holds read-only mappings pickle refuses)."""
        if "roster" not in self.docs:
            raise ValueError("a setup is pickled with its roster document (docs['roster'])")
        state = dict(self.__dict__)
        state["_board"] = None
        state["roster"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.roster = roster_from_dict(state["docs"]["roster"])

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = prepare(self.model)
        return self._board

    def sides(self, swapped: bool = False) -> list[tuple[str, Team, str | None]]:
        """The teams in their zones; ``swapped``: each team in the other's zone."""
        assert self.teams is not None
        (z0, t0, f0), (z1, t1, f1) = self.teams
        return [(z0, t1, f1), (z1, t0, f0)] if swapped else [(z0, t0, f0), (z1, t1, f1)]

    def controller_names(self, swapped: bool = False) -> tuple[str, str]:
        return (self.ai[1], self.ai[0]) if swapped else self.ai

    def state(self, seed: Seed, swapped: bool = False) -> BattleState:
        """A new battle from ``seed`` (an int or a spawned ``SeedSequence``)."""
        if self.teams is None:
            return BattleState.from_map(self.model, rules=self.rules, roster=self.roster,
                                        seed=seed, board=self.board)
        return BattleState.from_teams(self.model, self.sides(swapped), rules=self.rules,
                                      seed=seed, board=self.board)

    def controllers(self, state: BattleState, swapped: bool = False) -> list[Controller]:
        return make_controllers(self.controller_names(swapped), state)
