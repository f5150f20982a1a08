"""The Battle Clock, Initiative Points and turn order (RB *The Turn System*,
*Action Types*, *The Battle UI*: Character Panel and TSB).

State is a few parallel lists indexed by a character's battle index (no dicts
in the hot path): ``ip``, ``initiative``, ``team`` (0 or 1), ``active`` (not
defeated), ``acted`` (took its turn in the current tick).  One battle loop::

    while ...:
        choice = clock.next_turn()
        if choice is None:            # every ready character has had its turn
            clock.advance()           # jump to the next tick with a ready character
            continue
        actor = choice.candidates[0] if not choice.decision else controller_pick(choice)
        turn = clock.begin_turn(actor)      # turn_cost deducted
        clock.take(turn, MOVE)              # move_cost, once per turn ...
        clock.end_turn(turn)

>>> from sodwa_editor.battle.rules import default_rules
>>> c = Clock([100], [0], default_rules().clock)
>>> c.advance(), c.tick, c.ip
(10, 10, [1000])
>>> t = c.begin_turn(0); c.end_turn(t)          # a pass: 500
>>> c.ip, c.ticks_until_turn(0)
([500], 5)
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from enum import IntEnum
from typing import NamedTuple

import numpy as np
from numba.extending import register_jitable

from .rules import ActionRules, ClockRules, OrderRules


class ActionType(IntEnum):
    """RB *Action Types*: "There are 4 different types of actions in SODWA"."""

    FREE = 0
    MOVE = 1
    ATTACK = 2
    SPECIAL = 3


class ActionRefused(ValueError):
    """An action the turn does not allow (e.g. a second Attack Action)."""


class TurnChoice(NamedTuple):
    """Who takes the next turn: ``team`` picks one of ``candidates`` (battle indices,
    ascending).  More than one candidate is a decision for that team's controller
    (RB: "If the characters are on the same team, the player gets to decide");
    ``reason`` says which tie-break applied (for the battle log)."""

    team: int
    candidates: tuple[int, ...]
    reason: str

    @property
    def decision(self) -> bool:
        return len(self.candidates) > 1


#: ``TurnChoice.reason`` values.
HIGHEST_IP = "highest IP"
OTHER_TEAM = "tie across teams: the team that did not take the most recent turn"
FIRST_TIE = "tie across teams before any turn: order.first_tie"


class Prediction(NamedTuple):
    """One turn of the TSB: the tick, the character, its team, and whether its place
    stands for a same-team choice not yet made (placeholder: lowest index first)."""

    tick: int
    actor: int
    team: int
    choice: bool


def first_tie_team(order: OrderRules, setup: np.random.Generator) -> int:
    """The team that goes first if the teams are tied before any turn was taken
    (the rulebook's tie-break needs a previous turn; decision B12).  ``seeded_coin``
    draws one coin from the battle's setup stream; ``team_order``: team 0."""
    if order.first_tie == "team_order":
        return 0
    return int(setup.integers(0, 2))


@register_jitable  # also callable from compiled code (the AIs' TSB counts)
def ticks_to_reach(ip: int, initiative: int, threshold: int) -> int:
    """Ticks until ``ip`` reaches ``threshold`` gaining ``initiative`` per tick
    (RB: "Characters gain IP equal to their Initiative attribute once per tick")."""
    return 0 if ip >= threshold else -(-(threshold - ip) // initiative)


@register_jitable  # also callable from compiled code (the AIs' TSB counts)
def turn_wait(ip: int, initiative: int, acted: bool, threshold: int, once: bool) -> int:
    """Ticks until an undefeated character's next turn (RB Character Panel: "how many
    ticks until they get another turn"); 0 = it is due in this tick.  ``acted``: it
    had its turn in this tick, which with ``once`` (one turn per tick, B10) puts its
    next turn in the next tick at the earliest."""
    need = ticks_to_reach(ip, initiative, threshold)
    if need == 0 and acted and once:
        return 1  # had its turn in this tick (B10; _eligible's other terms hold)
    return need


def tie_break(top: list[int], team: Sequence[int], last_team: int | None,
              first_tie: int) -> TurnChoice:
    """Who goes among ``top``, the ready characters tied at the highest IP (ascending).

    RB: "the character with the highest IP total gets to take their turn first"; a
    tie across teams goes to "the team that has not taken the most recent turn"
    (``last_team``; before any turn ``first_tie``, B12); a tie within a team is that
    player's decision (B11).
    """
    side = team[top[0]]
    if len(top) == 1:
        return TurnChoice(side, (top[0],), HIGHEST_IP)
    for i in top:
        if team[i] != side:
            break
    else:
        return TurnChoice(side, tuple(top), HIGHEST_IP)
    if last_team is None:
        side, reason = first_tie, FIRST_TIE
    else:
        side, reason = 1 - last_team, OTHER_TEAM
    return TurnChoice(side, tuple(i for i in top if team[i] == side), reason)


def move_after_attack(move: int, actions: ActionRules) -> int:
    """Move left for a Move Action after an Attack Action (RB: "If the Attack Action
    is used first, the character may only move a quarter of its normal Speed value
    afterwards (rounded down to a minimum of 1)").  ``move`` is Move after the
    start-of-turn Impeding halving, which "is always applied before any additional
    movement penalties" (decision B15); a Move of 0 stays 0 (B16)."""
    if move <= 0:
        return 0
    return max(actions.move_after_attack_min, move // actions.move_after_attack_divisor)


class Turn:
    """One character's turn: actions taken per type and the IP they cost.

    RB: "it may not take the same type of action more than once per turn, unless
    it has some ability or effect that says otherwise" (``allow_more``).
    """

    __slots__ = ("actor", "used", "allowed", "attack_first", "spent", "open")

    def __init__(self, actor: int, per_type: int) -> None:
        self.actor = actor
        self.used = [0, 0, 0, 0]
        self.allowed = [-1, per_type, per_type, per_type]  # FREE: no limit
        self.attack_first = False  # an Attack Action came before any Move Action
        self.spent = 0  # IP spent in this turn, turn cost included
        self.open = True

    def can_take(self, action: ActionType) -> bool:
        return self.open and (self.allowed[action] < 0 or self.used[action] < self.allowed[action])

    def allow_more(self, action: ActionType, extra: int = 1) -> None:
        """An ability or effect lets the character take ``extra`` more of ``action``."""
        if self.allowed[action] >= 0:
            self.allowed[action] += extra

    def close(self, action: ActionType) -> None:
        """No more of ``action`` this turn (an Attack Ability used in the Basic Attack's
        place closes the Attack Action: docs/rules.md AB3)."""
        self.allowed[action] = self.used[action]

    def move_allowance(self, move: int, actions: ActionRules) -> int:
        """Tiles the Move Action may cover: ``move`` (after the Impeding halving), or
        :func:`move_after_attack` of it when the attack came first."""
        return move_after_attack(move, actions) if self.attack_first else move


class Clock:
    """The Battle Clock and every character's IP (RB *The Turn System*)."""

    __slots__ = ("rules", "tick", "ip", "initiative", "team", "active", "acted",
                 "last_team", "first_tie_team", "turns", "current", "_choice",
                 "_idle")

    def __init__(self, initiative: Sequence[int], team: Sequence[int], rules: ClockRules,
                 first_tie_team: int = 0, ip: Sequence[int] | None = None) -> None:
        """RB: the clock "starts every game at 0"; "all characters start with 0
        Initiative Points (IP)" (``ip`` is for tests and saved states)."""
        if len(initiative) != len(team):
            raise ValueError("initiative and team lists differ in length")
        for i, (init, t) in enumerate(zip(initiative, team, strict=True)):
            if init < 1:
                raise ValueError(f"character {i}: Initiative must be at least 1, not {init}")
            if t not in (0, 1):
                raise ValueError(f"character {i}: team must be 0 or 1, not {t}")
        if first_tie_team not in (0, 1):
            raise ValueError(f"first_tie_team must be 0 or 1, not {first_tie_team}")
        self.rules = rules
        self.tick = 0
        self.initiative = list(initiative)
        self.team = list(team)
        self.ip = list(ip) if ip is not None else [0] * len(self.initiative)
        self.active = [True] * len(self.initiative)
        self.acted = [False] * len(self.initiative)
        self.last_team: int | None = None  # team that took the most recent turn
        self.first_tie_team = first_tie_team
        self.turns = 0
        self.current: Turn | None = None
        self._choice: TurnChoice | None = None  # next_turn's answer until the state changes
        self._idle = False  # next_turn's answer is None until the state changes

    def copy(self) -> Clock:
        other = Clock.__new__(Clock)
        other.rules, other.tick, other.turns = self.rules, self.tick, self.turns
        other.initiative, other.team = self.initiative, self.team  # never changed
        other.ip, other.active, other.acted = list(self.ip), list(self.active), list(self.acted)
        other.last_team, other.first_tie_team = self.last_team, self.first_tie_team
        other.current = other._choice = None
        other._idle = False
        return other

    # ------------------------------------------------------------- the clock
    def tick_once(self) -> None:
        """Advance one tick (RB: "Characters gain IP equal to their Initiative attribute
        once per tick").  The reference that :meth:`advance` must equal."""
        self._check_phase_over()
        self.tick += 1
        ip, init = self.ip, self.initiative
        for i, alive in enumerate(self.active):
            if alive:
                ip[i] += init[i]
        self.acted = [False] * len(ip)
        self._choice, self._idle = None, False

    def advance_stepwise(self) -> int:
        """Tick one by one until a character is ready; the ticks taken."""
        start = self.tick
        self.tick_once()
        while self.next_turn() is None:
            self.tick_once()
        return self.tick - start

    def advance(self) -> int:
        """Jump to the next tick at which a character is ready; the ticks taken.

        RB: "It continues to advance until one or more characters get a turn. Once
        all turns are resolved for that tick, it resumes advancing."  Gains are
        linear, so the clock jumps ``k = min_i max(1, ceil((threshold - IP_i) /
        Initiative_i))`` ticks at once (B9; equal to :meth:`advance_stepwise`,
        property-tested).
        """
        self._check_phase_over()
        threshold = self.rules.turn_threshold
        ip, init = self.ip, self.initiative
        k = -1
        for i, alive in enumerate(self.active):
            if alive:
                need = -(-(threshold - ip[i]) // init[i]) if ip[i] < threshold else 1
                if k < 0 or need < k:
                    k = need
        if k < 0:
            raise RuntimeError("no active character: the clock cannot advance")
        self.tick += k
        for i, alive in enumerate(self.active):
            if alive:
                ip[i] += k * init[i]
        self.acted = [False] * len(ip)
        self._choice, self._idle = None, False
        return k

    def _check_phase_over(self) -> None:
        # RB: "The Battle Clock doesn't resume ticking until all applicable characters
        # have completed their turns."
        if self.current is not None or self.next_turn() is not None:
            raise RuntimeError("characters with turns in this tick have not all acted")

    # ------------------------------------------------------------- turn order
    def _eligible(self, i: int) -> bool:
        return (self.active[i] and self.ip[i] >= self.rules.turn_threshold
                and not (self.acted[i] and self.rules.one_turn_per_tick))

    def pending(self) -> list[int]:
        """Characters still to take a turn in this tick (decision B10)."""
        return [i for i in range(len(self.ip)) if self._eligible(i)]

    def next_turn(self) -> TurnChoice | None:
        """Who takes the next turn of this tick, or None when the tick's turns are done.

        RB: the highest IP total goes first; a tie across teams goes to "the
        team that has not taken the most recent turn"; a tie within a team is that
        player's decision; when both teams have several tied characters the teams
        alternate, each picking one ("then it becomes the other team's turn").
        Recomputed after every turn, that alternation is the cross-team rule
        applied again (B11).
        """
        if self.current is not None:
            raise RuntimeError(f"character {self.current.actor}'s turn has not ended")
        if self._choice is not None or self._idle:
            return self._choice
        ip, active, acted = self.ip, self.active, self.acted
        threshold, once = self.rules.turn_threshold, self.rules.one_turn_per_tick
        best = threshold
        top: list[int] = []
        for i, v in enumerate(ip):  # _eligible inlined: the hot loop
            if v >= best and active[i] and not (once and acted[i]):
                if v > best or not top:
                    best, top = v, [i]
                else:
                    top.append(i)
        if not top:
            self._idle = True
            return None
        choice = tie_break(top, self.team, self.last_team, self.first_tie_team)
        self._choice = choice
        return choice

    def begin_turn(self, actor: int) -> Turn:
        """Start ``actor``'s turn (one of :meth:`next_turn`'s candidates).

        RB: "When a character's turn comes up, 500 IP is automatically deducted
        from its current IP total" (``clock.turn_cost``).
        """
        choice = self.next_turn()
        if choice is None or actor not in choice.candidates:
            raise ValueError(f"it is not character {actor}'s turn "
                             f"(candidates: {choice.candidates if choice else 'none'})")
        self._choice, self._idle = None, False
        self.ip[actor] -= self.rules.turn_cost
        self.acted[actor] = True
        self.last_team = self.team[actor]
        self.turns += 1
        turn = Turn(actor, self.rules.actions_per_type)
        turn.spent = self.rules.turn_cost
        self.current = turn
        return turn

    def take(self, turn: Turn, action: ActionType, cost: int | None = None) -> int:
        """Record an action of ``turn`` and deduct its IP; returns the cost.

        RB: "Move Actions and Attack Actions each use up 250 additional IP. Special
        Actions have varying IP costs" (``cost``); Free Actions "have no IP cost";
        one action of each type per turn (:class:`Turn`).
        """
        if turn is not self.current:
            raise ActionRefused("that turn is over")
        if not turn.can_take(action):
            raise ActionRefused(f"{action.name.title()} Action already taken this turn")
        if action == ActionType.MOVE:
            cost = self.rules.move_cost
        elif action == ActionType.ATTACK:
            cost = self.rules.attack_cost
            if turn.used[ActionType.MOVE] == 0:
                turn.attack_first = True
        elif action == ActionType.FREE:
            cost = 0
        elif cost is None or cost < 0:
            raise ValueError("a Special Action needs its IP cost (0 or more)")
        turn.used[action] += 1
        turn.spent += cost
        self.ip[turn.actor] -= cost
        return cost

    def end_turn(self, turn: Turn) -> None:
        """End ``turn``.  A turn with no action is a pass: it cost ``turn_cost`` only
        (RB TSB: "pass (losing 500 IP)")."""
        if turn is not self.current:
            raise ValueError("that turn is not the current one")
        turn.open = False
        self.current = None

    def remove(self, i: int) -> None:
        """Character ``i`` is defeated: it gains no IP and takes no turn (B32)."""
        self.active[i] = False
        self._choice, self._idle = None, False

    def adjust_ip(self, i: int, amount: int) -> None:
        """Add ``amount`` (may be negative) to character ``i``'s IP, for abilities and
        effects that change IP outside the turn costs.  Change IP only through the
        clock's methods: it caches the next turn's choice."""
        self.ip[i] += amount
        self._choice, self._idle = None, False

    # ------------------------------------------------------------- Character Panel, TSB
    def ticks_until_turn(self, i: int) -> int:
        """Ticks until character ``i``'s next turn (RB Character Panel: "how many ticks
        until they get another turn"); 0 = it is due in this tick."""
        if not self.active[i]:
            raise ValueError(f"character {i} is defeated")
        rules = self.rules
        return turn_wait(self.ip[i], self.initiative[i], self.acted[i], rules.turn_threshold,
                         rules.one_turn_per_tick)

    def predict(self, n: int) -> list[Prediction]:
        """The TSB: the next ``n`` turns, assuming every future turn is a pass.

        RB: "it always assumes the character will pass, meaning their following
        turn is predicted to occur as quickly as possible ... a character will never
        get to act sooner than predicted by the TSB" (property-tested, B14).  The
        current turn, if any, is taken as ending with the IP spent so far; ties use
        the same tie-breaks (:func:`tie_break`), a same-team choice shown lowest
        index first.

        Without playing the clock: under passes a character's IP grows linearly with
        the ticks, so its next turn (tick, IP then) follows from its own numbers
        (:func:`ticks_to_reach`); a heap of those gives the turns in order (earliest
        tick, then highest IP, then lowest index) and only a tie at the top needs the
        other characters.  Equal to :meth:`predict_stepwise` (property-tested).
        """
        out: list[Prediction] = []
        rules = self.rules
        threshold, cost, once = rules.turn_threshold, rules.turn_cost, rules.one_turn_per_tick
        init, team, acted, first = self.initiative, self.team, self.acted, self.first_tie_team
        tick, last = self.tick, self.last_team
        heap: list[tuple[int, int, int]] = []  # (tick of the next turn, -IP then, index)
        for i, alive in enumerate(self.active):
            if alive:
                v = self.ip[i]
                if v < threshold or (once and acted[i]):
                    k = max(1, ticks_to_reach(v, init[i], threshold))
                    heap.append((tick + k, -(v + k * init[i]), i))
                else:
                    heap.append((tick, -v, i))
        if not heap or n <= 0:
            return out
        heapq.heapify(heap)
        pop, push = heapq.heappop, heapq.heappush
        while True:
            t, neg, pick = pop(heap)
            if heap and heap[0][0] == t and heap[0][1] == neg:  # tied at the top
                top = [pick]
                while heap and heap[0][0] == t and heap[0][1] == neg:
                    top.append(pop(heap)[2])
                tie = tie_break(top, team, last, first)
                pick, side, choice = tie.candidates[0], tie.team, tie.decision
                for j in top:
                    if j != pick:
                        push(heap, (t, neg, j))
            else:
                side, choice = team[pick], False
            out.append(Prediction(t, pick, side, choice))
            if len(out) >= n:
                return out
            last = side
            v = -neg - cost  # the pass
            if v >= threshold and not once:
                push(heap, (t, -v, pick))  # again in this tick
            else:
                k = max(1, ticks_to_reach(v, init[pick], threshold))
                push(heap, (t + k, -(v + k * init[pick]), pick))

    def predict_stepwise(self, n: int) -> list[Prediction]:
        """:meth:`predict` by playing a copy of the clock turn by turn: the reference
        that :meth:`predict` must equal (property-tested).

        The TSB: the next ``n`` turns, assuming every future turn is a pass.

        RB: "it always assumes the character will pass, meaning their following
        turn is predicted to occur as quickly as possible ... a character will never
        get to act sooner than predicted by the TSB" (property-tested, B14).  The
        current turn, if any, is taken as ending with the IP spent so far; ties use
        the same tie-breaks, a same-team choice shown lowest index first.
        """
        sim = self.copy()
        out: list[Prediction] = []
        if not any(sim.active):
            return out
        while len(out) < n:
            choice = sim.next_turn()
            if choice is None:
                sim.advance()
                continue
            pick = choice.candidates[0]
            out.append(Prediction(sim.tick, pick, choice.team, choice.decision))
            sim.end_turn(sim.begin_turn(pick))
        return out
