"""A battle played one step at a time (no Qt): the turn loop of
:func:`sodwa_editor.battle.loop.run_battle`, cut into steps a GUI can take on a
timer, with a person behind any team.

Every step does what one pass of ``run_battle`` does: start the next turn (the
team picks among tied characters), or take one action of the actor's
controller, or end a turn with nothing left to do.  Decisions are recorded as
the loop records them, with the state hash after every turn, so a battle played
here saves as a replay ``sodwa replay --verify`` accepts.  A copy of the state
is kept before every turn: going back to a turn restores it (dice and AI streams
included), and playing on from there drops the turns after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ... import __version__
from ...battle.actions import Action, Pass, apply, begin_turn, next_turn, refusal
from ...battle.attack import AttackPreview
from ...battle.clock import ActionType
from ...battle.events import Event
from ...battle.loop import Decision, View
from ...battle.replay import (
    REPLAY_FORMAT,
    REPLAY_VERSION,
    _inputs,
    encode_decision,
    header_hashes,
    seed_doc,
)
from ...battle.setup import BattleSetup, Seed
from ...battle.state import BattleState
from ...battle.targeting import preview_attack

HUMAN = "human"


@dataclass(frozen=True)
class Waiting:
    """A person is asked: ``kind`` "actor" (pick one of ``candidates``) or "action"."""

    kind: str
    team: int
    candidates: tuple[int, ...] = ()


@dataclass
class _Snapshot:
    """The state between two turns, the decisions made before it and its hash."""

    state: BattleState
    decisions: int
    hash: str


class PlaytestSession:
    """One playtest battle (see the module docstring).  ``controllers``: per team
    ``"human"`` or an AI name."""

    def __init__(self, setup: BattleSetup, controllers: Sequence[str], seed: Seed,
                 script: Sequence[Decision] | None = None) -> None:
        """``script``: the decisions of a replay to watch (its AIs are not re-run)."""
        self.setup = setup
        self.names = list(controllers)
        self.seed = seed
        #: watching a replay: the AI sides' decisions come from ``decisions``
        self.script = script is not None
        #: every decision along the battle played, maybe beyond the state shown
        #: (after going back); ``applied`` of them are in the state
        self.decisions: list[Decision] = list(script or ())
        self.restart()

    # ------------------------------------------------------------- lifecycle
    def restart(self, seed: Seed | None = None) -> None:
        """Start the battle again from ``seed`` (the same seed when None: what was
        played stays available to step forward through)."""
        if seed is not None:
            self.seed = seed
            self.script = False
            self.decisions = []
        self.state = self.setup.state(self.seed)
        self._ai = self.setup.controllers(self.state)
        self.applied = 0
        self.snapshots = [_Snapshot(self.state.copy(), 0, "")]
        self.turn_index = 0  # turns finished: snapshots[turn_index] is where this turn began

    def human(self, team: int) -> bool:
        return self.names[team] == HUMAN

    def take_over(self, team: int) -> None:
        """Team ``team`` is played by a person from now on."""
        self.names[team] = HUMAN

    @property
    def result(self):
        return self.state.result

    def is_human(self, team: int) -> bool:
        return self.names[team] == HUMAN

    def controller_names(self) -> tuple[str, str]:
        return self.names[0], self.names[1]

    def view(self, team: int) -> View:
        return View(self.state, team)

    # ------------------------------------------------------------- stepping
    @property
    def waiting(self) -> Waiting | None:
        """What a person must decide before the battle can go on (None: nothing)."""
        s = self.state
        if s.result is not None:
            return None
        if s.turn is None:
            choice = s.clock.next_turn()
            if choice is not None and choice.decision and self.human(choice.team):
                return Waiting("actor", choice.team, tuple(choice.candidates))
            return None
        team = s.team[s.turn.actor]
        if self.human(team) and self._must_decide():
            return Waiting("action", team)
        return None

    def _must_decide(self) -> bool:
        turn = self.state.turn
        assert turn is not None
        return bool(self.state.abilities or turn.can_take(ActionType.MOVE)
                    or turn.can_take(ActionType.ATTACK))

    def step_action(self) -> list[Event]:
        """One step of the loop for an AI (or the rules); nothing while a person is
        asked or the battle is over."""
        s = self.state
        if s.result is not None or self.waiting is not None:
            return []
        if s.turn is None:
            choice = next_turn(s)
            assert choice is not None
            actor = choice.candidates[0]
            if choice.decision:
                picked = self._scripted(choice.team, "actor").actor if self.script else \
                    self._ai[choice.team].choose_actor(self.view(choice.team),
                                                       choice.candidates)
                assert picked is not None
                actor = picked
                self._record(Decision(choice.team, actor=actor))
            return [begin_turn(s, actor)]
        team = s.team[s.turn.actor]
        if not self._must_decide():
            return self._apply(Pass())
        if self.script:
            scripted = self._scripted(team, "action").action
            assert scripted is not None
            action = scripted
        else:
            action = self._ai[team].decide(self.view(team))
        why = refusal(s, action)
        if why is not None:
            raise RuntimeError(f"team {team + 1}'s {'replay' if self.script else 'AI'}: {why}")
        self._record(Decision(team, action=action))
        return self._apply(action)

    def step_turn(self) -> list[Event]:
        """Steps until the current turn ends (or a person is asked)."""
        events: list[Event] = []
        start = self.turn_index
        while self.result is None and self.waiting is None and self.turn_index == start:
            events += self.step_action()
        return events

    def choose_actor(self, actor: int) -> str | None:
        """A person picks the tied character to act; the reason when refused."""
        w = self.waiting
        if w is None or w.kind != "actor":
            return "no character to pick now"
        if actor not in w.candidates:
            return f"{self.state.names[actor]!r} is not one of the characters due now"
        next_turn(self.state)
        self._record(Decision(w.team, actor=actor))
        begin_turn(self.state, actor)
        return None

    def submit(self, action: Action) -> str | None:
        """A person's action; the reason (one line) when the rules refuse it."""
        w = self.waiting
        if w is None or w.kind != "action":
            return "it is not a human player's turn"
        why = refusal(self.state, action)
        if why is not None:
            return why
        self._record(Decision(w.team, action=action))
        self._apply(action)
        if self.state.turn is not None and self.state.result is None \
                and not self._must_decide():
            self._apply(Pass())  # nothing left to do: the loop ends the turn itself
        return None

    def preview(self, attacker: int, target: int) -> AttackPreview:
        return preview_attack(self.state, attacker, target)

    def _record(self, decision: Decision) -> None:
        if self.applied < len(self.decisions):  # after going back
            if self.decisions[self.applied] == decision:  # as played before: keep what follows
                self.applied += 1
                return
            del self.decisions[self.applied:]  # played otherwise: the old future is gone
            del self.snapshots[self.turn_index + 1:]
            self.script = False
        self.decisions.append(decision)
        self.applied += 1

    def _scripted(self, team: int, want: str) -> Decision:
        """The replay's next decision (a replay being watched)."""
        if self.applied >= len(self.decisions):
            raise RuntimeError("the replay has no more decisions")
        d = self.decisions[self.applied]
        got = "actor" if d.actor is not None else "action"
        if d.team != team or got != want:
            raise RuntimeError(f"the replay's decision {self.applied + 1} is team "
                               f"{d.team + 1}'s {got}; the battle asks team {team + 1} for "
                               f"an {want}")
        return d

    def _apply(self, action: Action) -> list[Event]:
        s = self.state
        events = apply(s, action)
        if s.turn is None or s.result is not None:  # the loop's after_turn
            self.turn_index += 1
            del self.snapshots[self.turn_index:]
            self.snapshots.append(_Snapshot(s.copy(), self.applied, s.state_hash()))
        return events

    # ------------------------------------------------------------- history
    @property
    def turn(self) -> int:
        """The current turn's number (from 1), or the next one's between turns."""
        return self.turn_index + 1

    @property
    def turn_count(self) -> int:
        """The last turn :meth:`go_to_turn` can reach (the recorded history)."""
        return len(self.snapshots)

    @property
    def hashes(self) -> list[str]:
        """The state hash after every finished turn (as a replay stores them)."""
        return [s.hash for s in self.snapshots[1:self.turn_index + 1]]

    def future_events(self) -> list[Event]:
        """The log of the battle as played furthest (beyond the state after going back)."""
        last = self.snapshots[-1].state.events
        return last if len(last) > len(self.state.events) else self.state.events

    def go_to_turn(self, k: int) -> None:
        """To the start of turn ``k`` (1 .. :attr:`turn_count`; back, or forward along
        what was played)."""
        n = max(0, min(k - 1, len(self.snapshots) - 1))
        snap = self.snapshots[n]
        self.state = snap.state.copy()
        self._ai = self.setup.controllers(self.state)
        self.turn_index = n
        self.applied = snap.decisions

    def back(self) -> bool:
        """To the start of the current turn, or of the one before when nothing has
        happened since this one's start; False when there is nothing earlier."""
        start = self.snapshots[self.turn_index].state
        fresh = len(self.state.events) == len(start.events)
        if fresh and self.turn_index == 0:
            return False
        self.go_to_turn(self.turn if not fresh else self.turn - 1)
        return True

    def forward(self) -> bool:
        """To the end of the current turn as it was played before (redo); False when
        nothing was played beyond."""
        if self.turn >= self.turn_count:
            return False
        self.go_to_turn(self.turn + 1)
        return True

    # ------------------------------------------------------------- replay
    def to_replay(self, map_file: str, map_hash: str) -> dict[str, Any]:
        """The battle so far as a replay document (``sodwa replay`` verifies a
        finished one)."""
        s = self.state
        if s.result is None:
            raise ValueError("the battle has not ended")
        inputs = {**_inputs(self.setup), "ai_profiles": self.setup.profile_docs()}
        ai = list(self.setup.ai)
        return {
            "format": REPLAY_FORMAT, "format_version": REPLAY_VERSION,
            "engine_version": __version__,
            "map": {"file": map_file, "hash": map_hash},
            "hashes": header_hashes(inputs, map_hash, ai),
            "seed": seed_doc(self.seed), "controllers": ai, "swapped": False,
            **inputs,
            "decisions": [encode_decision(d) for d in self.decisions[:self.applied]],
            "turn_hashes": self.hashes,
            "result": {"winner": s.result.winner, "reason": s.result.reason,
                       "turns": s.clock.turns, "tick": s.clock.tick,
                       "events": len(s.events)},
        }
