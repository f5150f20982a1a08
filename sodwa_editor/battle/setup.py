"""One battle's inputs in one object: everything a battle is a function of except
its seed (issue 11 section 4: map, teams, rules, roster, AI names and the AI
profile each team's AI plays with).

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

import inspect
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from typing import Any

import numpy as np

from ..engine.model import MapModel
from .ai import CONTROLLERS, make_controller
from .ai.profile import Profile, default_profile
from .board import Board, prepare
from .jsonfiles import BattleInputError, read_json
from .loop import Controller
from .rules import Rules, default_rules
from .sheet import DEFAULT_ROSTER_PATH, Roster, load_roster, roster_from_dict
from .state import BattleState
from .teams import (
    Team,
    check_footprints,
    check_point_cap,
    combatants_from_map,
    place_teams,
    team_cost,
)

Seed = int | np.random.SeedSequence

#: The controller name a replay records for a side a person played (the editor's
#: playtest, :mod:`.session`); a replay re-runs recorded decisions, so it needs no AI.
HUMAN = "human"


def check_ai_names(names: Sequence[str], *, human: bool = False) -> tuple[str, str]:
    """Two registered controller names (one line naming the unknown one otherwise);
    ``human``: :data:`HUMAN` is allowed too (a replay's sides), not for a setup that
    plays its own battles."""
    if len(names) != 2:
        raise BattleInputError(f"give 2 AI names (one per team), not {len(names)}: "
                               f"{','.join(names)}")
    for name in names:
        if name not in CONTROLLERS and not (human and name == HUMAN):
            raise BattleInputError(f"unknown AI {name!r} (known: "
                                   f"{', '.join(sorted(CONTROLLERS))})")
    return names[0], names[1]


def profile_values(profile: Profile) -> dict[str, Any]:
    """Every value of an AI profile as plain JSON, weights as floats (``2`` and
    ``2.0`` in a file are the same weight, so they hash the same).  The ``terrain``
    section only when one of its weights is on: with all of them off the AIs play as
    before the section existed, and such a profile keeps the values (and a replay's
    hash) it had then."""
    out: dict[str, Any] = {
        "greedy": {k: float(v) for k, v in asdict(profile.greedy).items()},
        "expectimax": {k: int(v) for k, v in asdict(profile.expectimax).items()}}
    if profile.terrain.any:
        out["terrain"] = {k: float(v) for k, v in asdict(profile.terrain).items()}
    return out


@cache
def uses_profile(name: str) -> bool:
    """True if the controller called ``name`` plays by an AI profile (it takes one)."""
    factory = CONTROLLERS.get(name)
    return factory is not None and "profile" in inspect.signature(factory).parameters


@dataclass
class BattleSetup:
    """The inputs of a battle (see the module docstring).

    ``teams``: ``(zone, team, formation)`` for team 0 and team 1, or None to start
    from the characters placed on the map (decision B3).  ``docs``: the source
    documents (rules, roster, teams) a replay embeds; filled by the caller that
    read them.  ``profiles``: the AI profile of team 0's and team 1's controller
    (None: the shipped ``resources/ai-profile.json`` for both); it moves with
    its controller when the sides are swapped.
    """

    model: MapModel
    rules: Rules
    roster: Roster
    ai: tuple[str, str]
    teams: tuple[tuple[str, Team, str | None], ...] | None = None
    docs: dict[str, Any] = field(default_factory=dict)
    profiles: tuple[Profile, Profile] | None = None
    _board: Board | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_map(cls, model: MapModel, *, rules: Rules | None = None,
                 roster: Roster | None = None, ai: Sequence[str] = ("random", "random"),
                 teams: Sequence[tuple[str, Team, str | None]] | None = None,
                 docs: dict[str, Any] | None = None,
                 profiles: Sequence[Profile] | None = None) -> BattleSetup:
        """A checked setup: AI names known, teams within the point cap and placeable
        (both arrangements when teams are given), map characters with valid sheets.
        ``profiles``: one AI profile for both teams' controllers, or one per team."""
        if profiles is not None and len(profiles) not in (1, 2):
            raise BattleInputError(f"give 1 or 2 AI profiles, not {len(profiles)}")
        pair = None if profiles is None else (profiles[0], profiles[-1])
        setup = cls(model, rules or default_rules(), roster or load_roster(),
                    check_ai_names(ai), None if teams is None else tuple(teams), dict(docs or {}),
                    pair)
        if roster is None:
            setup.docs.setdefault("roster", read_json(DEFAULT_ROSTER_PATH))
        setup.check()
        return setup

    def check(self) -> None:
        """Raise :class:`BattleInputError` for inputs no battle can start from."""
        cap = self.rules.battle.point_cap
        scale = self.rules.sizes.grid_scale_m
        if self.teams is None:
            check_footprints(self.model, combatants_from_map(self.model, self.roster, cap),
                             scale)
            return
        if len(self.teams) != 2:
            raise BattleInputError(f"a battle needs exactly 2 teams, not {len(self.teams)}")
        for _zone, team, _formation in self.teams:
            check_point_cap(team.name, team_cost(team), cap)
        for swapped in (False, True):
            place_teams(self.model, self.sides(swapped), cap, scale)

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

    def swap_repeats(self) -> str | None:
        """Why a battle with the sides swapped would repeat the unswapped one (one
        line), or None.  It does when the battle starts from the map's placed
        characters (nobody changes zone) and both teams are played by the same AI
        with the same profile: the swapped battle draws the same seed, so a
        ``--swap-sides`` batch would count every battle twice."""
        if self.teams is not None or self.ai[0] != self.ai[1]:
            return None
        if uses_profile(self.ai[0]):
            p0, p1 = self.team_profiles()
            if profile_values(p0) != profile_values(p1):
                return None
        return (f"{self.ai[0]} with one profile plays both teams, placed from the map, so "
                "a swapped battle would repeat its pair")

    def controller_names(self, swapped: bool = False) -> tuple[str, str]:
        return (self.ai[1], self.ai[0]) if swapped else self.ai

    def state(self, seed: Seed, swapped: bool = False) -> BattleState:
        """A new battle from ``seed`` (an int or a spawned ``SeedSequence``)."""
        if self.teams is None:
            return BattleState.from_map(self.model, rules=self.rules, roster=self.roster,
                                        seed=seed, board=self.board)
        return BattleState.from_teams(self.model, self.sides(swapped), rules=self.rules,
                                      seed=seed, board=self.board)

    def team_profiles(self, swapped: bool = False) -> tuple[Profile, Profile]:
        """The AI profile of team 0's and team 1's controller."""
        p0, p1 = self.profiles or (default_profile(), default_profile())
        return (p1, p0) if swapped else (p0, p1)

    def profile_docs(self, swapped: bool = False) -> list[dict[str, Any] | None]:
        """Per team, the profile its controller actually plays by, as plain values
        (every key, defaults filled in), or None for a controller that uses no
        profile (``random``, ``pass``): what a replay's ``ai_profiles`` hash covers."""
        return [profile_values(p) if uses_profile(n) else None
                for n, p in zip(self.controller_names(swapped), self.team_profiles(swapped),
                                strict=True)]

    def controllers(self, state: BattleState, swapped: bool = False) -> list[Controller]:
        """One controller per team, each on its team's own AI stream of ``state``
        and, if it plays by a profile, with its team's profile."""
        return [self.controller(state, team, name, swapped)
                for team, name in enumerate(self.controller_names(swapped))]

    def controller(self, state: BattleState, team: int, name: str,
                   swapped: bool = False) -> Controller:
        """The controller ``name`` for ``team`` on the team's AI stream of ``state``,
        with the team's profile if it plays by one (a playtest changes a side's AI
        mid-battle)."""
        if state.streams is None:
            raise ValueError("the battle has no random streams")
        rng, profile = state.streams.ai[team], self.team_profiles(swapped)[team]
        return (CONTROLLERS[name](team, rng, profile=profile)  # type: ignore[call-arg]
                if uses_profile(name) else make_controller(name, team, rng))
