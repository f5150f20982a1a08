"""A battle played step by step for a UI (issue 13): the playtest's model, no Qt.

:class:`BattleSession` drives the same engine calls as :func:`.loop.run_battle`
(``next_turn``, ``begin_turn``, ``refusal``, ``apply``) one step at a time, so a
UI can show every action, let a person play a side, and step back.  Each team is
played by an AI (its name: made on the team's AI stream with the setup's AI
profile) or by a human (``None`` or ``"human"``): when a human must answer,
:attr:`BattleSession.waiting` says what (an actor among tied ones, or an action)
and :meth:`~BattleSession.choose_actor` / :meth:`~BattleSession.submit` take the
answer, refusing what the rules refuse with the engine's one line.

With two AIs, stepping to the end gives exactly the event log and the decisions
of ``run_battle`` from the same seed (tests/test_battle_session.py).

History (:mod:`.session_history`): the state at the start of every turn is kept
(:meth:`BattleState.copy`, random streams included; an AI is made afresh on the
restored stream, which is what it was at that turn's start since an AI plans
one turn at a time), so :meth:`~BattleSession.back` and
:meth:`~BattleSession.go_to_turn` restore it
exactly and :meth:`~BattleSession.forward` re-plays the recorded decisions.
Playing on after going back keeps the recorded later turns as long as every
decision is the one recorded (the AIs, from the same streams, decide the same);
the first different decision discards them, like an undo stack.  A replay is
watched by giving its decisions as ``script``: they are re-played in order (a
side taken over answers for itself).  :meth:`~BattleSession.to_replay` writes the
document of :func:`.replay.record` (human decisions included).

>>> from sodwa_editor.engine.generate import make_mixed_map
>>> from sodwa_editor.battle.setup import BattleSetup
>>> setup = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("random", "random"))
>>> s = BattleSession(setup, ["random", None], seed=5)
>>> while s.waiting is None and s.result is None:
...     _ = s.step_action()
>>> s.waiting
Waiting(kind='actor', team=1, actor=None, candidates=(3, 4, 5))
>>> s.choose_actor(0)
"'blue-1' cannot take this turn (choose one of 'red-1', 'red-2', 'red-3')"
>>> s.choose_actor(4), s.waiting.kind, s.submit(Pass()), s.state.turn
(None, 'action', None, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from . import replay
from .actions import Action, Pass, apply, begin_turn, next_turn, refusal
from .ai import make_controller
from .attack import AttackPreview
from .events import Event
from .loop import Controller, ControllerError, Decision, View
from .session_history import Player, SessionHistory
from .setup import HUMAN, BattleSetup
from .state import BattleState, Result
from .targeting import preview_attack

Seed = int | np.random.SeedSequence


class AwaitingHuman(RuntimeError):
    """The session was asked to step while a human must answer."""


@dataclass(frozen=True)
class Waiting:
    """What the session needs from a human now: ``kind == "actor"``: team ``team``
    picks one of ``candidates`` (a same-team tie); ``kind == "action"``: ``actor``'s
    next action."""

    kind: Literal["actor", "action"]
    team: int
    actor: int | None = None
    candidates: tuple[int, ...] = ()


class BattleSession(SessionHistory):
    """One battle played step by step (see the module docstring).

    ``setup_or_state``: a :class:`~.setup.BattleSetup` (the battle starts from
    ``seed``; needed by :meth:`to_replay` and by :meth:`restart` with a new seed)
    or a :class:`~.state.BattleState` to continue (``seed`` is then only recorded).
    ``controllers``: team 0's and team 1's player.  ``script``: the decisions of a
    replay to watch.
    """

    def __init__(self, setup_or_state: BattleSetup | BattleState, controllers: Sequence[Player],
                 *, seed: Seed = 0, swapped: bool = False,
                 script: Sequence[Decision] | None = None) -> None:
        if len(controllers) != 2:
            raise ValueError(f"a battle needs 2 controllers, not {len(controllers)}")
        self.setup: BattleSetup | None = None
        self._initial: BattleState | None = None
        if isinstance(setup_or_state, BattleSetup):
            self.setup = setup_or_state
        else:
            self._initial = setup_or_state.copy()
        self.swapped = swapped
        self._players: list[Player] = [None if p == HUMAN else p for p in controllers]
        self._script = None if script is None else list(script)
        self._start(seed)

    # ------------------------------------------------------------ construction
    def _start(self, seed: Seed) -> None:
        self.seed = seed
        if self.setup is not None:
            state = self.setup.state(seed, self.swapped)
        else:
            assert self._initial is not None
            state = self._initial.copy()
        self._state = state
        self._ctrl = [self._make(t, p) for t, p in enumerate(self._players)]
        self._decisions = list(self._script or ())
        self._human = [False] * len(self._decisions)
        self._watching = self._script is not None  # the script's decisions are played
        self._taken: set[int] = set()  # sides whose player changed while watching
        self._switched: set[int] = set()  # sides whose AI was swapped for another this battle
        self._pos = 0
        self._hashes = []
        self._hpos = 0
        self._snaps = []
        self._furthest = []
        self._pending = None
        self._snapshot()

    def _make(self, team: int, player: Player) -> Controller | None:
        if player is None:
            return None
        s = self._state
        if s.streams is None:
            raise ValueError("the battle has no random streams for its AI")
        if self.setup is not None:
            return self.setup.controller(s, team, player, self.swapped)
        return make_controller(player, team, s.streams.ai[team])

    # ------------------------------------------------------------ reading
    @property
    def state(self) -> BattleState:
        """The current state (read-only by contract: change it only through the session)."""
        return self._state

    def view(self, team: int) -> View:
        return View(self._state, team)

    @property
    def events(self) -> list[Event]:
        """Every event so far (the live state's log)."""
        return self._state.events

    @property
    def result(self) -> Result | None:
        return self._state.result

    def controller(self, team: int) -> Controller | None:
        """Team ``team``'s AI (None: a human)."""
        return self._ctrl[team]

    def player(self, team: int) -> str:
        """Team ``team``'s player now: an AI name or ``"human"``."""
        return self._players[team] or HUMAN

    def is_human(self, team: int) -> bool:
        """A person plays team ``team`` (a watched replay's human side included)."""
        return self._ctrl[team] is None

    def asks_person(self, team: int) -> bool:
        """A person answers for team ``team`` now (not the watched replay)."""
        return self._ctrl[team] is None and (not self._watching or team in self._taken)

    def preview(self, attacker: int, target: int) -> AttackPreview:
        """The BIP for ``attacker`` attacking ``target`` now (the engine's
        :func:`~.targeting.preview_attack`): no state or random stream changes.
        Raises :class:`~.targeting.IllegalAction` with the refusal line."""
        return preview_attack(self._state, attacker, target)

    def refusal(self, action: Action) -> str | None:
        """Why ``action`` is not allowed for the actor now (the engine's line)."""
        return refusal(self._state, action)

    @property
    def waiting(self) -> Waiting | None:
        """What a human must answer now; None when the session can step by itself
        (an AI acts, a watched replay's decision is next, a turn starts or ends on
        its own) or the battle is over."""
        s = self._state
        if s.result is not None:
            return None
        turn = s.turn
        if turn is None:
            choice = self._pending
            if choice is not None and self._ctrl[choice.team] is None \
                    and not self.scripted(choice.team):
                return Waiting("actor", choice.team, candidates=choice.candidates)
            return None
        team = s.team[turn.actor]
        if self._ctrl[team] is None and not self._auto_pass() and not self.scripted(team):
            return Waiting("action", team, actor=turn.actor)
        return None

    def scripted(self, team: int) -> bool:
        """Team ``team``'s next decision comes from the watched replay (not taken
        over, and the replay has decisions left)."""
        return self._watching and team not in self._taken and self._pos < len(self._decisions)

    # ------------------------------------------------------------ stepping
    def step_action(self) -> list[Event]:
        """Advance by one step without a human: start the next turn (an AI picking
        among its tied characters), one AI action, or the end of a turn with no
        action left.  Raises :class:`AwaitingHuman` when a human must answer."""
        if self._state.result is not None:
            return []
        if self.waiting is not None:
            raise AwaitingHuman(f"team {self.waiting.team} (a human) must choose an "
                                f"{self.waiting.kind}")
        return self._step(replay=False)

    def step_turn(self, max_steps: int = 1000) -> list[Event]:
        """Step until the current turn (or the next one, between turns) ends, a human
        must answer, or the battle is over."""
        out: list[Event] = []
        turns = self._state.clock.turns
        started = self._state.turn is not None
        for _ in range(max_steps):
            if self._state.result is not None or self.waiting is not None:
                break
            out += self._step(replay=False)
            if self._state.turn is None and (started or self._state.clock.turns > turns):
                break
        return out

    def run_to_end(self, max_steps: int = 1_000_000) -> list[Event]:
        """Step until the battle is over or a human must answer (instant speed)."""
        out: list[Event] = []
        for _ in range(max_steps):
            if self._state.result is not None or self.waiting is not None:
                break
            out += self._step(replay=False)
        return out

    def _step(self, *, replay: bool) -> list[Event]:
        """One step; ``replay``: the recorded decision is taken, nobody is asked."""
        s = self._state
        n = len(s.events)
        if s.turn is None:
            choice = self._pending  # a tie a human was asked to break, now an AI's
            if choice is None:
                self._snapshot()
                choice = next_turn(s)
            assert choice is not None
            actor = choice.candidates[0]
            if choice.decision:
                ctrl = self._ctrl[choice.team]
                if replay or self.scripted(choice.team):
                    actor = self._recorded(choice.team, "actor").actor  # type: ignore[assignment]
                elif ctrl is None:
                    self._pending = choice  # a human picks: waiting says so
                    return []
                else:
                    actor = ctrl.choose_actor(View(s, choice.team), choice.candidates)
                    if actor not in choice.candidates:
                        raise ControllerError(f"team {choice.team} chose {actor}, not one "
                                              f"of {list(choice.candidates)}")
                    self._record(Decision(choice.team, actor=actor), human=False)
            self._begin(actor)
            return s.events[n:]
        team = s.team[s.actor]  # type: ignore[index]
        action: Action
        if self._auto_pass():
            action = Pass()
        elif replay or self.scripted(team):
            action = self._recorded(team, "action").action  # type: ignore[assignment]
        else:
            ctrl = self._ctrl[team]
            assert ctrl is not None
            action = ctrl.decide(View(s, team))
            why = refusal(s, action)
            if why is not None:
                raise ControllerError(f"team {team}'s controller: {why}")
            self._record(Decision(team, action=action), human=False)
        self._apply(action)
        return s.events[n:]

    def _apply(self, action: Action) -> None:
        s = self._state
        turn = s.turn
        apply(s, action)
        if s.result is not None or s.turn is not turn:  # the turn is over: its hash
            self._turn_over()
        if len(s.events) >= len(self._furthest):
            self._furthest = s.events

    def _turn_over(self) -> None:
        """The turn is over (or the battle): its state hash, checked against the recorded
        one when re-playing the history."""
        s = self._state
        h = s.state_hash()
        if self._hpos < len(self._hashes):  # along the recorded history
            if self._hashes[self._hpos] != h:
                raise RuntimeError(f"turn {s.clock.turns} re-played differently")
        else:
            self._hashes.append(h)
        self._hpos += 1
        if s.result is not None:
            self._snapshot()  # the end: go_to_turn(turns + 1) shows it

    # ------------------------------------------------------------ human answers
    def choose_actor(self, i: int) -> str | None:
        """A human's pick among tied characters; the reason if refused (nothing changes)."""
        w = self.waiting
        s = self._state
        if w is None or w.kind != "actor":
            return "no character needs to be chosen now"
        if i not in w.candidates:
            name = s.names[i] if 0 <= i < len(s.names) else str(i)
            return (f"{name!r} cannot take this turn (choose one of "
                    f"{', '.join(repr(s.names[j]) for j in w.candidates)})")
        self._record(Decision(w.team, actor=i), human=True)
        self._begin(i)
        return None

    def _begin(self, actor: int) -> None:
        self._pending = None
        begin_turn(self._state, actor)
        if self._state.result is not None or self._state.turn is None:
            self._turn_over()  # over in its upkeep (docs/rules.md AB10)
        if len(self._state.events) >= len(self._furthest):
            self._furthest = self._state.events

    def submit(self, action: Action) -> str | None:
        """A human's action for the actor; the engine's refusal line if refused
        (nothing changes then).  A turn left with nothing to do ends at once."""
        w = self.waiting
        if w is None or w.kind != "action":
            if self._state.result is not None:
                return "the battle is over"
            return "it is not a human's turn"
        why = refusal(self._state, action)
        if why is not None:
            return why
        self._record(Decision(w.team, action=action), human=True)
        self._apply(action)
        s = self._state
        if s.turn is not None and s.result is None and self._auto_pass():
            self._apply(Pass())  # as the loop does: no Move or Attack Action left
        return None

    # ------------------------------------------------------------ players, restart
    def set_controller(self, team: int, player: Player) -> None:
        """Team ``team`` is played by ``player`` from now on (an AI name, or None /
        ``"human"`` for a person); a watched replay's decisions stop for it."""
        player = None if player == HUMAN else player
        if player is not None and self._players[team] not in (None, player):
            self._switched.add(team)  # (its decisions come from two AIs: see controller_names)
        self._ctrl[team] = self._make(team, player)
        self._players[team] = player
        self._taken.add(team)

    def take_over(self, team: int) -> None:
        """A human plays team ``team`` from here on."""
        self.set_controller(team, None)

    def restart(self, seed: Seed | None = None) -> None:
        """The battle from its start, with the same seed (a watched replay plays
        again) or ``seed`` (a new battle).  A new seed needs a session made from a
        setup."""
        if seed is not None and self.setup is None and seed != self.seed:
            raise ValueError("a session started from a state restarts with its own seed")
        if seed is not None and seed != self.seed:
            self._script = None
        taken = set(getattr(self, "_taken", ()))
        self._start(self.seed if seed is None else seed)
        self._taken = taken

    # ------------------------------------------------------------ replay
    def controller_names(self) -> tuple[str, str]:
        """The replay's controller names: ``human`` for a team a human answered for, or
        whose AI was swapped for another during the battle (its decisions are then
        not one AI's: ``replay --verify`` takes them as recorded, as a person's)."""
        names = [HUMAN if t in self._switched else self.player(t) for t in (0, 1)]
        for d, human in zip(self._decisions[:self._pos], self._human, strict=False):
            if human:
                names[d.team] = HUMAN
        return names[0], names[1]

    def to_replay(self, map_file: str, map_hash: str) -> dict[str, Any]:
        """The finished battle as a replay document (the format of
        :func:`.replay.record`; ``sodwa replay --verify`` re-runs it)."""
        if self.setup is None:
            raise ValueError("a replay needs a session made from a battle setup")
        return replay.document(self.setup, self.seed, self._state, map_file=map_file,
                               map_hash=map_hash, swapped=self.swapped,
                               controllers=self.controller_names(), decisions=self.decisions,
                               turn_hashes=self.hashes)
