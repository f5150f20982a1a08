"""The history of a :class:`.session.BattleSession`: the decisions taken, the
state hash after every turn and a snapshot at the start of every turn, so a
battle played step by step can go back to any turn, forward along what was
played, and on from there (see :mod:`.session`)."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import turn_spent
from .clock import ActionType, TurnChoice
from .events import Event
from .loop import Controller, Decision
from .state import BattleState

#: A team's player: an AI name (``"greedy"``), or None / ``"human"`` for a person.
Player = str | None


@dataclass
class _Snap:
    """The state at the start of turn ``turn`` (between turns, before the clock runs
    to it) and where the history stood then."""

    turn: int
    state: BattleState  # copied without its log, with its random streams
    events: int
    decisions: int
    hashes: int


class SessionHistory:
    """The recorded history of a session and the moves through it; the session
    (:class:`.session.BattleSession`) plays the steps."""

    _state: BattleState
    _players: list[Player]
    _ctrl: list[Controller | None]
    _decisions: list[Decision]
    _human: list[bool]
    _watching: bool
    _pos: int  # decisions the live state has consumed
    _hashes: list[str]
    _hpos: int
    _snaps: list[_Snap]
    _furthest: list[Event]  # the log of the battle as played furthest
    _pending: TurnChoice | None  # a tie a human is to break

    def _make(self, team: int, player: Player) -> Controller | None:
        raise NotImplementedError

    def _step(self, *, replay: bool) -> list[Event]:
        raise NotImplementedError

    def future_events(self) -> list[Event]:
        """The log of the battle as played furthest: after going back, the recorded
        turns ahead of the live state follow its own events."""
        events = self._state.events
        return self._furthest if len(self._furthest) > len(events) else events

    @property
    def decisions(self) -> list[Decision]:
        """The controller answers that led to the current state."""
        return self._decisions[:self._pos]

    @property
    def turn(self) -> int:
        """The number of the current turn (from 1), or of the next one between turns
        and after the end (the end is "the start of" turn N + 1 after N turns)."""
        s = self._state
        return s.clock.turns if s.turn is not None and s.result is None else s.clock.turns + 1

    @property
    def turn_count(self) -> int:
        """Turns with a snapshot: the turns :meth:`go_to_turn` can reach (the recorded
        history, later turns after :meth:`back` included)."""
        return self._snaps[-1].turn if self._snaps else 0

    @property
    def hashes(self) -> list[str]:
        """The state hash after every finished turn (as a replay stores them)."""
        return self._hashes[:self._hpos]

    def _auto_pass(self) -> bool:
        """The turn ends on its own: no Move or Attack Action left, no ability the actor
        may use (as :func:`.loop.run_battle`: :func:`.actions.turn_spent`)."""
        s, turn = self._state, self._state.turn
        assert turn is not None
        return not (turn.can_take(ActionType.MOVE) or turn.can_take(ActionType.ATTACK)) \
            and turn_spent(s)

    def _record(self, d: Decision, *, human: bool) -> None:
        """A decision taken now: along the recorded history when it is the recorded
        one, else the later history is discarded (an undo stack)."""
        if self._pos < len(self._decisions):
            if self._decisions[self._pos] == d:
                self._human[self._pos] = self._human[self._pos] or human
                self._pos += 1
                return
            self._truncate()
        elif self._hpos < len(self._hashes) or self.turn_count > self.turn:
            self._truncate()
        self._decisions.append(d)
        self._human.append(human)
        self._pos += 1

    def _truncate(self) -> None:
        """Played otherwise than recorded: the later history is gone."""
        del self._decisions[self._pos:]
        del self._human[self._pos:]
        del self._hashes[self._hpos:]
        k = self.turn
        self._snaps = [sn for sn in self._snaps if sn.turn <= k]
        self._furthest = self._state.events
        self._watching = False

    def _recorded(self, team: int, want: str) -> Decision:
        if self._pos >= len(self._decisions):
            raise RuntimeError("no recorded decision to re-play")
        d = self._decisions[self._pos]
        got = "actor" if d.actor is not None else "action"
        if d.team != team or got != want:
            raise RuntimeError(f"the recorded decision {self._pos + 1} is team {d.team}'s "
                               f"{got}; the battle asks team {team} for an {want}")
        self._pos += 1
        return d

    def _snapshot(self) -> None:
        s = self._state
        if s.turn is not None and s.result is None:
            return
        k = self.turn
        if self._snaps and self._snaps[-1].turn >= k:
            return  # re-played: the recorded snapshot is the same
        self._snaps.append(_Snap(k, s.copy(log=False), len(s.events), self._pos, self._hpos))

    def _restore(self, snap: _Snap) -> None:
        state = snap.state.copy(log=False)
        state.events = self._state.events[:snap.events]
        if len(self._state.events) >= len(self._furthest):
            self._furthest = self._state.events
        self._state = state
        self._ctrl = [self._make(t, p) for t, p in enumerate(self._players)]
        self._pos, self._hpos = snap.decisions, snap.hashes
        self._pending = None

    def go_to_turn(self, k: int) -> None:
        """The state as at the start of turn ``k`` (1 .. :attr:`turn_count`); later
        turns are re-played from the recorded decisions."""
        self._snapshot()
        snap = self._snap_of(k)
        if snap is None:
            first = self._snaps[0].turn if self._snaps else 0
            raise ValueError(f"no turn {k} (turns {first}..{self.turn_count})")
        if k <= self.turn:
            self._restore(snap)
            return
        while self.turn < k or self._state.turn is not None:
            if not self._forward_step():
                break

    def back(self) -> bool:
        """To the start of the current turn, or of the previous one when already there.
        False when there is nothing earlier."""
        self._snapshot()
        s, here = self._state, self._snap_of(self.turn)
        at_start = ((s.turn is None or s.result is not None) and here is not None
                    and len(s.events) == here.events)  # (a tie being broken: no event yet)
        snap = self._snap_of(self.turn - 1) if at_start else here
        if snap is None:
            return False
        self._restore(snap)
        return True

    def _snap_of(self, k: int) -> _Snap | None:
        return next((sn for sn in self._snaps if sn.turn == k), None)

    def forward(self) -> bool:
        """Re-play the recorded decisions to the start of the next turn (or the end of
        the history).  False when there is no recorded later history."""
        if not self._forward_step():
            return False
        while self._state.turn is not None:
            if not self._forward_step():
                break
        return True

    def _forward_step(self) -> bool:
        """One re-played step; False at the end of the recorded history."""
        s = self._state
        if s.result is not None:
            return False
        if s.turn is None:
            if self._pos >= len(self._decisions):  # every turn's actor decides once at least
                return False
            self._step(replay=True)
            return True
        if not self._auto_pass() and self._pos >= len(self._decisions):
            return False
        self._step(replay=True)
        return True
