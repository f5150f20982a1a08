"""The turn loop: a battle played to its end by two controllers (issue 11 section 4).

A controller is anything with the two methods of :class:`Controller`: it picks
one of its team's tied characters (RB: "If the characters are on the same team,
the player gets to decide which character gets to go first") and decides the
actor's next action.  It sees the battle through a :class:`View`: the board, every
character's sheet, tile, HP and IP, the karma pools, the TSB and the log, as the
Battle UI shows them, but never the dice stream or the other team's random
stream; :meth:`View.fork` gives it a copy without random streams to look ahead.

Everything is a pure function of (map, teams, rules, controllers, seed): the
same inputs give the same event log (tests/test_battle_loop.py).

>>> from sodwa_editor.engine.generate import make_mixed_map
>>> from sodwa_editor.battle.state import BattleState
>>> from sodwa_editor.battle.ai import make_controllers
>>> state = BattleState.from_map(make_mixed_map(12, seed=4), seed=3)
>>> out = run_battle(state, make_controllers(["random", "random"], state))
>>> out.result == state.result, out.events[-1].kind
(True, 'battle_ended')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..engine.areas import Area
from ..engine.footprint import Footprint
from ..engine.los import LosBoard
from ..engine.model import MapModel
from ..engine.movement import Reach
from ..engine.terrain import Crossing
from .abilities import UseAbility
from .actions import (
    Action,
    Options,
    Pass,
    apply,
    apply_checked,
    begin_turn,
    legal_actions,
    move_tiles,
    next_turn,
    options,
    refusal,
    turn_spent,
)
from .area_abilities import AreaAbility, AreaPreview, area_abilities, preview_ability
from .area_effects import EffectView, board_effects
from .area_rules import VictimPreview, area_of, victims
from .attack import AttackPreview
from .board import Board
from .clock import ActionType, Prediction
from .events import Event
from .karma import available
from .records import quick_init
from .rules import Rules
from .sheet import Sheet
from .state import BattleState, Result
from .targeting import preview_attack

#: Actions one controller may take in one turn before the loop stops it (only a
#: faulty controller with unlimited Free Actions could get there).
MAX_ACTIONS_PER_TURN = 1000


class ControllerError(RuntimeError):
    """A controller answered something the rules do not allow."""


class View:
    """What team ``team``'s player sees of the battle (read-only by contract)."""

    __slots__ = ("_state", "team")

    def __init__(self, state: BattleState, team: int) -> None:
        self._state = state
        self.team = team

    # the board and the rules
    @property
    def map(self) -> MapModel:
        """The battlefield as it is now (destroyed terrain included); do not change it."""
        return self._state.board.model

    @property
    def rules(self) -> Rules:
        return self._state.rules

    @property
    def board(self) -> Board:
        """The battlefield's terrain facts (levels, Liquid, adjacency); do not change it."""
        return self._state.board

    def los(self) -> LosBoard:
        """Lines of sight with the characters where they stand."""
        return self._state.los_board()

    def reach(self, i: int, budget: int) -> Reach:
        """Character ``i``'s movement range with ``budget`` steps from where it stands
        (the range the UI highlights; friends passed, enemies block)."""
        return self._state.reach_of(i, budget)

    # characters (Character Panels)
    @property
    def size(self) -> int:
        return len(self._state.pos)

    @property
    def actor(self) -> int | None:
        return self._state.actor

    def name(self, i: int) -> str:
        return self._state.names[i]

    def team_of(self, i: int) -> int:
        return self._state.team[i]

    def sheet(self, i: int) -> Sheet:
        return self._state.sheets[i]

    @property
    def sheets(self) -> tuple[Sheet, ...]:
        """Every character's sheet, by index (the battle's own tuple: the same object
        for the whole battle and its copies)."""
        return self._state.sheets

    def tile(self, i: int) -> tuple[int, int]:
        """Character ``i``'s tile (the top-left tile of a larger creature's footprint)."""
        return self._state.pos[i]

    @property
    def sized(self) -> bool:
        """Some character is larger than a tile (docs/rules.md S21)."""
        return self._state.sized

    def footprint(self, i: int) -> Footprint:
        return self._state.fp[i]

    def squares(self, i: int) -> list[tuple[int, int]]:
        """The tiles character ``i`` covers."""
        return self._state.squares(i)

    @property
    def placement(self) -> tuple[tuple[int, int] | None, ...]:
        """Every character's tile by index, None once defeated (the same tuple while
        nobody moves or falls: a cheap key for what rests on the arrangement)."""
        return self._state.placement()

    @property
    def hps(self) -> Sequence[int]:
        """Every character's HP, by index (the battle's own list: do not change it)."""
        return self._state.hp

    def hp(self, i: int) -> int:
        return self._state.hp[i]

    def alive(self, i: int) -> bool:
        return self._state.clock.active[i]  # BattleState.alive, one call less (hot)

    def moved(self, i: int) -> bool:
        """Took a Move Action since the start of its last turn (B22)."""
        return self._state.moved[i]

    @property
    def moved_flags(self) -> Sequence[bool]:
        """:meth:`moved` of every character, by index (the battle's own list: do not
        change it)."""
        return self._state.moved

    def ip(self, i: int) -> int:
        return self._state.clock.ip[i]

    def ticks_until_turn(self, i: int) -> int:
        return self._state.clock.ticks_until_turn(i)

    @property
    def ips(self) -> Sequence[int]:
        """Every character's IP, by index (the clock's own list: do not change it)."""
        return self._state.clock.ip

    @property
    def acted(self) -> Sequence[bool]:
        """Whether each character has had its turn in the current tick (the TSB's
        input beside IP and Initiative; the clock's own list: do not change it)."""
        return self._state.clock.acted

    # clock, karma, TSB, log
    @property
    def tick(self) -> int:
        return self._state.clock.tick

    @property
    def turns(self) -> int:
        return self._state.clock.turns

    def karma(self, team: int) -> int:
        """Karma Points team ``team`` holds."""
        return available(self._state.karma, team)

    def last_actor(self, team: int) -> int | None:
        """The character of ``team`` that took that team's most recent turn."""
        return self._state.last_actor[team]

    def tsb(self, n: int) -> list[Prediction]:
        return self._state.clock.predict(n)

    @property
    def events(self) -> Sequence[Event]:
        return tuple(self._state.events)

    # the actor's options
    def legal_actions(self) -> list[Action]:
        return legal_actions(self._state)

    def options(self) -> Options | None:
        """The actor's legal actions by kind (cheaper than :meth:`legal_actions`)."""
        return options(self._state)

    def move_tiles(self) -> tuple[np.ndarray, np.ndarray]:
        """The tiles the actor may move to now (``x``, ``y`` arrays; as
        :meth:`options`' moves, without working out the rest)."""
        return move_tiles(self._state)

    def refusal(self, action: Action) -> str | None:
        return refusal(self._state, action)

    def preview(self, attacker: int, target: int) -> AttackPreview:
        return preview_attack(self._state, attacker, target)

    def crossing(self, a: tuple[int, int], b: tuple[int, int]) -> Crossing:
        """The LoS class from tile ``a`` to tile ``b`` with the characters where they stand."""
        return self._state.crossing(a, b)

    # area abilities (docs/rules.md *Abilities*)
    @property
    def has_abilities(self) -> bool:
        """The battle has area abilities (some sheet lists one)."""
        return bool(self._state.abilities)

    def area_abilities(self, i: int) -> list[tuple[AreaAbility, str | None]]:
        """Character ``i``'s area abilities, each with why it cannot be used now (None:
        it can)."""
        return area_abilities(self._state, i)

    def uses_left(self, ability: AreaAbility, i: int) -> int | None:
        return ability.uses_left(self._state, i)

    def ability_area(self, ability: AreaAbility, source: tuple[int, int],
                     aim: tuple[int, int] | None) -> Area:
        """The area of ``ability`` cast from ``source`` aimed at ``aim`` on the board now."""
        return area_of(self._state, ability.d, source, aim)

    def ability_victims(self, ability: AreaAbility, caster: int, a: Area, *,
                        at: tuple[int, int] | None = None,
                        moved: bool | None = None) -> list[VictimPreview]:
        """The victims of area ``a`` cast by ``caster`` (standing on ``at`` with the Move
        flag ``moved``, if given), with their BIP numbers."""
        return victims(self._state, ability.d, caster, a, at=at, moved=moved)

    def preview_ability(self, actor: int, action: UseAbility) -> AreaPreview:
        return preview_ability(self._state, actor, action)

    def effects(self) -> list[EffectView]:
        """The lingering areas and falling objects on the board."""
        return board_effects(self._state)

    def effects_key(self) -> str:
        """A stable text of every ability's own state (uses, effects, Maim): what an AI's
        kept plans must also match."""
        e = self._state.effects
        return repr(sorted(e.items(), key=repr)) if e else ""

    @property
    def move_this_turn(self) -> int:
        """The actor's Move for this turn (after the start-of-turn halving; the BIP's
        movement)."""
        return self._state.turn_move

    def can_take(self, action_type: ActionType) -> bool:
        turn = self._state.turn
        return turn is not None and turn.can_take(action_type)

    def fork(self) -> BattleState:
        """A copy of the battle without random streams or log, for lookahead (apply its
        actions with your own ``roll=``)."""
        return self._state.copy(log=False, streams=False)


class Controller(Protocol):
    """A player: a person behind a UI, or an AI (``ai/``)."""

    def choose_actor(self, view: View, candidates: Sequence[int]) -> int: ...

    def decide(self, view: View) -> Action: ...


@quick_init
@dataclass(frozen=True, slots=True)
class Decision:
    """One controller answer: the actor picked among tied ones, or an action."""

    team: int
    actor: int | None = None
    action: Action | None = None


@dataclass(frozen=True)
class Outcome:
    """A finished battle: its result, the event log and every controller decision."""

    result: Result
    events: list[Event]
    decisions: list[Decision]


def run_battle(state: BattleState, controllers: Sequence[Controller], *,
               before_action: Callable[[BattleState, Action], None] | None = None,
               after_turn: Callable[[BattleState], None] | None = None) -> Outcome:
    """Play ``state`` to the end (from a turn in progress, too): team ``t`` is played
    by ``controllers[t]``.

    Each turn: the clock runs to the next ready character; a same-team tie is the
    team's ``choose_actor``; then ``decide`` until the actor passes.  When the actor
    has no Move or Attack Action left and no ability it may use the loop ends the turn
    itself (:func:`.actions.turn_spent`).  ``before_action`` sees every action before it is applied,
    ``after_turn`` the state after every turn (checks, replay hashes).
    """
    if len(controllers) != 2:
        raise ValueError(f"a battle needs 2 controllers, not {len(controllers)}")
    decisions: list[Decision] = []
    views = (View(state, 0), View(state, 1))
    clock = state.clock
    move, attack, end = ActionType.MOVE, ActionType.ATTACK, Pass()
    while state.result is None:
        if clock.current is None:
            choice = next_turn(state)
            assert choice is not None
            actor = choice.candidates[0]
            if choice.decision:
                actor = controllers[choice.team].choose_actor(views[choice.team],
                                                              choice.candidates)
                if actor not in choice.candidates:
                    raise ControllerError(f"team {choice.team} chose {actor}, not one of "
                                          f"{list(choice.candidates)}")
                decisions.append(Decision(choice.team, actor))
            begin_turn(state, actor)
            if state.result is not None or clock.current is None:  # over in its upkeep (AB10)
                if after_turn is not None:
                    after_turn(state)
                continue
        turn = clock.current
        assert turn is not None
        team = state.team[turn.actor]
        for _ in range(MAX_ACTIONS_PER_TURN):
            if state.result is not None or clock.current is not turn:
                break
            if not (turn.can_take(move) or turn.can_take(attack)) and turn_spent(state):
                action: Action = end
            else:
                action = controllers[team].decide(views[team])
                decisions.append(Decision(team, None, action))
            why = refusal(state, action)
            if why is not None:
                raise ControllerError(f"team {team}'s controller: {why}")
            if before_action is None:
                apply_checked(state, action)
            else:  # it may have changed the state: check again
                before_action(state, action)
                apply(state, action)
        else:
            raise ControllerError(f"team {team}'s controller took {MAX_ACTIONS_PER_TURN} "
                                  "actions in one turn")
        if after_turn is not None:
            after_turn(state)
    return Outcome(state.result, state.events, decisions)
