"""Turns and actions (RB *The Turn System*, *Action Types*, *Attacking and
Defending*): the only code that changes a :class:`~.state.BattleState`.

A turn, whoever plays it (the loop's controllers, a UI, an AI's lookahead)::

    choice = next_turn(state)               # the clock jumps to the next ready tick
    begin_turn(state, choice.candidates[k]) # the team picks when there are several
    apply(state, Move((4, 7)))              # at most one action of each type
    apply(state, Attack(5))
    apply(state, Pass())                    # ends the turn

:func:`legal_actions` lists what the actor may do now; :func:`refusal` says why
another action is not allowed, in one line a UI can show, and :func:`apply`
raises :class:`IllegalAction` with that line.  Attacks on characters follow
:mod:`.targeting`, attacks on terrain :mod:`.obstructions`, abilities
:mod:`.abilities`.

>>> from sodwa_editor.engine.generate import make_mixed_map
>>> from sodwa_editor.battle.state import BattleState
>>> s = BattleState.from_map(make_mixed_map(16, seed=2), seed=1)
>>> choice = next_turn(s); _ = begin_turn(s, choice.candidates[0])
>>> [type(a).__name__ for a in legal_actions(s)][-1]
'Pass'
>>> apply(s, Pass())[-1].kind
'turn_ended'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..engine.footprint import cannot_stand
from . import abilities as ab
from .abilities import UseAbility
from .attack import resolve_attack
from .board import Feature, Tile
from .clock import FIRST_TIE, ActionType, Clock, Turn, TurnChoice
from .dice import D100, d100_from_value
from .events import Attacked, BattleEnded, Event, FirstTie, Moved, TurnEnded, TurnStarted
from .obstructions import feature_refusal, feature_targets, strike
from .state import TURN_LIMIT, BattleState, Result
from .targeting import (
    IllegalAction,
    attack_refusal,
    attack_targets,
    bip,
    preview_attack,
    situation,
)


@dataclass(frozen=True, slots=True)
class Move:
    """A Move Action to tile ``to`` along the engine's shortest path."""

    to: Tile


@dataclass(frozen=True, slots=True)
class Attack:
    """A Basic Attack (Attack Action) on character ``target`` (battle index)."""

    target: int


@dataclass(frozen=True, slots=True)
class AttackTerrain:
    """A Basic Attack on an Obstructing tile (``side == ""``) or border (``"E"``/``"S"``)."""

    x: int
    y: int
    side: str = ""

    @property
    def feature(self) -> Feature:
        return (self.x, self.y, self.side)


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn.  A turn with no other action is the rulebook's pass (500 IP)."""


Action = Move | Attack | AttackTerrain | Pass | UseAbility
Roll = Callable[[], D100]
#: Action types the hot paths ask about, looked up once (an enum member is a slow read).
MOVE, ATTACK = ActionType.MOVE, ActionType.ATTACK

__all__ = ["Action", "Attack", "AttackTerrain", "IllegalAction", "Move", "Pass", "UseAbility",
           "Options", "apply", "apply_checked", "begin_turn", "defeat", "legal_actions",
           "move_allowance", "next_turn", "options", "preview_attack", "refusal", "turn_spent"]


# ------------------------------------------------------------------ turns
def next_turn(state: BattleState) -> TurnChoice | None:
    """Who takes the next turn, advancing the clock to the next tick with a ready
    character when this tick's turns are done (RB: "It continues to advance until one
    or more characters get a turn"); None when the battle is over."""
    if state.result is not None:
        return None
    choice = state.clock.next_turn()
    while choice is None:
        state.clock.advance()
        choice = state.clock.next_turn()
    return choice


#: The roll of an upkeep on a copy without random streams and without a ``roll`` given
#: (an AI's lookahead): the median of the d100, 50.
MEDIAN_ROLL = d100_from_value(50)


def begin_turn(state: BattleState, actor: int, roll: Roll | None = None) -> TurnStarted:
    """Start ``actor``'s turn (one of :func:`next_turn`'s candidates).

    The turn cost is deducted (B8); the actor's Move Action modifiers end (RB: "until
    the beginning of its next turn", B22); its Move for this turn is fixed now (RB
    Impeding: the halving "should be applied the moment the character's turn
    starts", :func:`~sodwa_editor.engine.movement.move_budget` via the board's
    :meth:`~.board.Board.move_budget`; then the Liquid Move modifier, B37; then the
    abilities' ``turn_move`` hooks: Maim, AB9).  Then the abilities' ``upkeep`` hooks
    run (the actor's effects, AB10), rolling with ``roll`` (default: the dice stream;
    a copy without streams rolls :data:`MEDIAN_ROLL`); an actor they defeat ends its
    turn at once (B40a).
    """
    if state.result is not None:
        raise IllegalAction("the battle is over")
    clock = state.clock
    choice = clock.next_turn()
    if choice is None or actor not in choice.candidates:
        raise IllegalAction(f"it is not {state.names[actor]!r}'s turn")
    ip_before = clock.ip[actor]
    if clock.turns == 0:  # the first turn: the first-tie coin is logged (B12)
        state.log(FirstTie(clock.first_tie_team, state.rules.order.first_tie,
                           choice.reason == FIRST_TIE))
    clock.begin_turn(actor)
    state.moved[actor] = False
    team = state.team[actor]
    state.last_actor[team] = actor
    pos, sheet, board = state.pos[actor], state.sheets[actor], state.board
    budget, halved = board.move_budget(pos[0], pos[1], sheet.move, sheet.flight,
                                       state.fp[actor])
    if state.on_liquid(actor):
        budget = max(0, budget + state.rules.terrain.liquid.move)
    for ability in state.abilities:
        hook = getattr(ability, "turn_move", None)
        if hook is not None:
            budget = hook(state, actor, budget)
    state.turn_start, state.turn_move, state.turn_hindered = pos, budget, halved
    event = TurnStarted(clock.turns, clock.tick, actor, team, ip_before, clock.ip[actor],
                        choice.reason, choice.candidates, budget)
    state.log(event)
    if state.abilities:
        _upkeep(state, actor, roll)
    return event


def _upkeep(state: BattleState, actor: int, roll: Roll | None) -> None:
    """The abilities' ``upkeep`` hooks at the start of ``actor``'s turn (AB10), their
    events seen by every ability's ``on_event``; an actor they defeat ends its turn."""
    if roll is None:
        roll = _stream_roll(state) if state.streams is not None else (lambda: MEDIAN_ROLL)
    events: list[Event] = []
    for ability in state.abilities:
        hook = getattr(ability, "upkeep", None)
        if hook is not None:
            events += hook(state, actor, roll)
    _reactions(state, events)
    turn = state.clock.current
    if turn is not None and not state.alive(actor):
        events += _end_turn(state, state.clock, turn)
    state.events += events


def _reactions(state: BattleState, events: list[Event]) -> None:
    """Every ability's ``on_event`` answers to ``events`` (appended to it)."""
    for ability in state.abilities:
        for event in list(events):
            events += ability.on_event(state, event)


def move_allowance(state: BattleState) -> int:
    """Steps the actor's Move Action may cover now: its Move for this turn, or a quarter
    of it after an Attack Action (RB: "rounded down to a minimum of 1", B15)."""
    turn = state.turn
    if turn is None:
        return 0
    return turn.move_allowance(state.turn_move, state.rules.actions)


def defeat(state: BattleState, i: int, by: int) -> list[Event]:
    """Character ``i`` is defeated: it leaves the board and the clock (B32, B35); a team
    with no character left loses (B41).  (:meth:`.state.BattleState.defeat`.)"""
    return state.defeat(i, by)


def turn_spent(state: BattleState) -> bool:
    """The actor's turn has nothing left to do, so it ends on its own (B40): no Move or
    Attack Action left, and no ability it may still use (an ability without the optional
    ``usable(state, actor)`` hook always may)."""
    turn = state.clock.current
    assert turn is not None
    if turn.can_take(MOVE) or turn.can_take(ATTACK):
        return False
    for ability in state.abilities:
        usable = getattr(ability, "usable", None)
        if usable is None or usable(state, turn.actor):
            return False
    return True


# ------------------------------------------------------------------ legality
@dataclass(frozen=True, slots=True)
class Options:
    """The actor's legal actions by kind, without building one object per move:
    ``move_x``/``move_y`` the tiles a Move Action may end on (row-major), ``attacks``
    the characters it may attack (by index), ``features`` the Obstructing tiles and
    borders (row-major, tiles first), ``abilities`` the ability actions; ``Pass`` is
    always allowed during a turn."""

    move_x: tuple[int, ...] = ()
    move_y: tuple[int, ...] = ()
    attacks: tuple[int, ...] = ()
    features: tuple[Feature, ...] = ()
    abilities: tuple[UseAbility, ...] = ()

    def moves(self) -> list[Move]:
        return [Move(t) for t in zip(self.move_x, self.move_y, strict=True)]

    def actions(self) -> list[Action]:
        """Every legal action: moves, attacks on characters, on terrain, abilities, Pass."""
        out: list[Action] = list(self.moves())
        out += [Attack(j) for j in self.attacks]
        out += [AttackTerrain(*f) for f in self.features]
        out += self.abilities
        out.append(Pass())
        return out


def move_tiles(state: BattleState) -> tuple[np.ndarray, np.ndarray]:
    """The tiles the actor's Move Action may end on now (``x`` and ``y`` arrays,
    row-major, read-only; empty when it may not move): its movement range with
    :func:`move_allowance` steps, its own tile excluded."""
    turn, actor = state.turn, state.actor
    if actor is not None and turn is not None and state.result is None \
            and turn.can_take(ActionType.MOVE):
        allowance = move_allowance(state)
        if allowance > 0:
            return state.reach_of(actor, allowance).moves
    return np.zeros(0, np.int64), np.zeros(0, np.int64)


def options(state: BattleState) -> Options | None:
    """The actor's :class:`Options`; None between turns and once the battle is over."""
    actor, turn = state.actor, state.turn
    if actor is None or turn is None or state.result is not None:
        return None
    xx, yy = move_tiles(state)
    xs, ys = tuple(xx.tolist()), tuple(yy.tolist())
    attacks: tuple[int, ...] = ()
    features: tuple[Feature, ...] = ()
    if turn.can_take(ActionType.ATTACK):
        attacks = tuple(attack_targets(state, actor))
        features = tuple(feature_targets(state, actor))
    uses = tuple(a for ability in state.abilities for a in ability.actions(state, actor)
                 if _ability_refusal(state, actor, a) is None)
    return Options(xs, ys, attacks, features, uses)


def legal_actions(state: BattleState) -> list[Action]:
    """What the actor may do now: moves (row-major), attacks on characters (by index)
    and on Obstructing terrain (row-major, tiles first), abilities, then ``Pass``.
    Empty between turns and once the battle is over."""
    opts = options(state)
    return [] if opts is None else opts.actions()


def refusal(state: BattleState, action: Action) -> str | None:
    """Why ``action`` is not allowed now (one line), or None."""
    if state.result is not None:
        return "the battle is over"
    turn = state.clock.current  # state.turn, one call less (hot)
    if turn is None:
        return "no turn has begun"
    actor = turn.actor
    if isinstance(action, Pass):
        return None
    if isinstance(action, Move):
        return _move_refusal(state, turn, actor, action.to)
    if isinstance(action, (Attack, AttackTerrain)):
        if not turn.can_take(ATTACK):
            return "Attack Action already taken this turn"
        if isinstance(action, Attack):
            return attack_refusal(state, actor, action.target)
        return feature_refusal(state, actor, action.feature)
    if isinstance(action, UseAbility):
        return _ability_refusal(state, actor, action)
    return f"unknown action {action!r}"


def _move_refusal(state: BattleState, turn: Turn, actor: int, to: Tile) -> str | None:
    if not turn.can_take(MOVE):
        return "Move Action already taken this turn"
    allowance = move_allowance(state)
    if allowance <= 0:
        return f"no movement this turn ({state.names[actor]!r} has Move 0 now)"
    x, y = to
    if not state.board.in_bounds(x, y):
        return f"({x}, {y}) is off the map"
    if to == state.pos[actor]:
        return "a Move Action must leave the tile"
    if state.sized and state.fp[actor] != (1, 1):
        return _footprint_move_refusal(state, actor, to, allowance)
    other = state.at(to)
    if other is not None:
        return f"({x}, {y}) is taken by {state.names[other]!r}"
    if not state.board.standable[y][x]:
        return f"({x}, {y}) is Obstructing terrain"
    if state.reach_of(actor, allowance).steps[y, x] < 0:
        return f"({x}, {y}) is out of reach ({allowance} step{'s' * (allowance != 1)} " \
               "allowed, and hindering terrain ends a move)"
    return None


def _footprint_move_refusal(state: BattleState, actor: int, to: Tile, allowance: int
                            ) -> str | None:
    """:func:`_move_refusal` for a creature larger than a tile: ``to`` is the top-left
    tile its footprint would cover from (S23)."""
    fp = state.fp[actor]
    for t in fp.squares(to):
        other = state.at(t)
        if other is not None and other != actor:
            return f"{to} is no room for its {fp} footprint: ({t[0]}, {t[1]}) is taken by " \
                   f"{state.names[other]!r}"
    why = cannot_stand(state.board.model, to, fp)
    if why is not None:
        return f"{to} is no room for its {fp} footprint: {why.text}"
    x, y = to
    if state.reach_of(actor, allowance).steps[y, x] < 0:
        return f"{to} is out of reach ({allowance} step{'s' * (allowance != 1)} " \
               "allowed, and hindering terrain ends a move)"
    return None


def _ability_refusal(state: BattleState, actor: int, action: UseAbility) -> str | None:
    ability = ab.find(state.abilities, action.ability)
    if ability is None:
        return f"no ability {action.ability!r} in this battle"
    turn = state.turn
    kind = ability.action_type(action)
    if turn is None or not turn.can_take(kind):
        return f"{kind.name.title()} Action already taken this turn"
    return ability.refusal(state, actor, action)


# ------------------------------------------------------------------ resolution
def apply(state: BattleState, action: Action, roll: Roll | None = None) -> list[Event]:
    """Carry out ``action`` for the actor and return its events (also logged).

    ``roll`` gives the d100s (default: the battle's dice stream; a state copied
    without streams, for an AI's lookahead, needs its own).  Raises
    :class:`IllegalAction` with :func:`refusal`'s line for an action not allowed now.
    """
    why = refusal(state, action)
    if why is not None:
        raise IllegalAction(why)
    return apply_checked(state, action, roll)


def apply_checked(state: BattleState, action: Action, roll: Roll | None = None) -> list[Event]:
    """:func:`apply` for an action :func:`refusal` has just allowed (the turn loop checks
    every action once, to name the controller that broke the rules)."""
    clock = state.clock
    turn = clock.current
    assert turn is not None
    actor = turn.actor
    events: list[Event]
    if isinstance(action, Pass):
        events = _end_turn(state, clock, turn)
    elif isinstance(action, Move):
        allowance = move_allowance(state)
        path = state.reach_of(actor, allowance).path_to(action.to)
        assert path is not None
        clock.take(turn, MOVE)
        if state.sized:
            state.move_to(actor, action.to)
        else:
            del state.occ[state.pos[actor]]
            state.pos[actor] = action.to
            state.occ[action.to] = actor
        state.moved[actor] = True
        state.changed()
        events = [Moved(actor, tuple(path), len(path) - 1, allowance, clock.ip[actor])]
    elif isinstance(action, Attack):
        events = _attack(state, turn, actor, action.target, roll or _stream_roll(state))
    elif isinstance(action, AttackTerrain):
        clock.take(turn, ATTACK)
        events = strike(state, actor, action.feature, clock.ip[actor])
    else:
        ability = ab.find(state.abilities, action.ability)
        assert ability is not None
        clock.take(turn, ability.action_type(action), ability.cost(state, action))
        events = list(ability.resolve(state, actor, action, roll or _stream_roll(state)))
    if state.abilities:
        _reactions(state, events)
        if turn.open and not state.alive(actor) and state.result is None:
            events += _end_turn(state, clock, turn)  # defeated in its own turn (B40a)
    state.events += events
    return events


def _stream_roll(state: BattleState) -> Roll:
    streams = state.streams
    if streams is not None:
        return streams.dice.roll

    def missing() -> D100:
        raise ValueError("this state has no random streams: pass roll=")

    return missing


def _attack(state: BattleState, turn: Turn, actor: int, target: int, roll: Roll
            ) -> list[Event]:
    """A Basic Attack on a character (RB *Attacking and Defending*): the BIP numbers,
    one d100, karma, damage, and a defeat."""
    facts = situation(state, actor, target)
    preview = bip(state, actor, target, facts)  # allowed: refusal said so
    los = state.crossing(state.pos[actor], state.pos[target]).name.lower()  # (for the log)
    dice = roll()
    state.clock.take(turn, ATTACK)
    team = state.team[actor]
    res = resolve_attack(preview, dice, state.karma, team, state.hp[target], state.rules)
    state.karma = res.pool_after
    state.hp[target] = res.hp_after
    events: list[Event] = [Attacked(
        actor, target, preview.kind, preview.tav, preview.tdv, preview.evasion,
        preview.modifiers, preview.difficulty, preview.need_roll, (dice.tens, dice.ones),
        res.roll, res.doubles, res.pool_before, res.pool_after, res.karma_spent,
        res.karma_gained, res.success, res.natural, res.damage, res.hp_after,
        state.clock.ip[actor], los, facts.defender_aware)]
    if res.defeated:
        events += defeat(state, target, actor)
    return events


def _end_turn(state: BattleState, clock: Clock, turn: Turn) -> list[Event]:
    """End the turn (a pass if it took no action); at ``battle.max_turns`` turns the
    battle is a draw (B41)."""
    clock.end_turn(turn)
    state.turn_start = None
    events: list[Event] = [TurnEnded(turn.actor, sum(turn.used) == 0, turn.spent,
                                     clock.ip[turn.actor])]
    if state.result is None and clock.turns >= state.rules.battle.max_turns:
        state.result = Result(None, TURN_LIMIT)
        events.append(BattleEnded(None, TURN_LIMIT, clock.turns, clock.tick))
    return events
