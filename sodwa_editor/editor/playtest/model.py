"""The playtest model: a :class:`~sodwa_editor.battle.session.BattleSession` with
Qt signals, and what the playtest's views share about it (no widget here).

Every view of a playtest takes this model and listens to it: the Turn-Sequence
Bar, the Character Panels, the Battle dock (status, karma, the Battle
Information Panel, the log), the result panel, the board items on the map and
the playback controls.  The model plays the AI turns on a timer (x1, x2, x4, or
instant in slices of at most ``slice_ms`` ms, so the window never freezes),
applies a person's decisions (:meth:`PlaytestModel.submit`,
:meth:`~PlaytestModel.choose_actor`, the attack awaiting Confirm), goes back and
forward in the battle, and says what happened in one line
(:attr:`~PlaytestModel.message`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QColor

from ...battle.actions import Action, Attack, Pass, refusal
from ...battle.events import Attacked, Event, TurnStarted
from ...battle.session import BattleSession, Waiting
from ...battle.state import BattleState, Result
from ...engine.model import MapModel
from .. import style

#: playback speeds: label -> milliseconds between AI actions (0: instant, in slices)
SPEEDS = {"x1": 800, "x2": 400, "x4": 200, "instant": 0}
MAX_SEED = 2**31 - 1


class PlaytestModel(QObject):
    """One playtest's battle and its playback (see the module docstring)."""

    #: a battle began (a playtest, a replay): the views show
    started = Signal()
    #: the playtest ended: the views hide
    stopped = Signal()
    #: the battle changed (an action, a step back, a restart): the views redraw
    changed = Signal()
    #: a turn started (its number, from 1)
    turn_started = Signal(int)
    #: actions were applied (the new events, in order)
    action_resolved = Signal(object)
    #: the battle ended (its BattleResult), or, going back, is no longer over (None)
    result_changed = Signal(object)
    #: a person is asked (the session's Waiting: who acts, or what), or no longer (None)
    human_to_act = Signal(object)
    speed_changed = Signal(str)
    playing_changed = Signal(bool)
    #: the attack awaiting Confirm or the roll of the last one changed (pending, roll)
    attack_changed = Signal()
    #: the character of the right Character Panel (battle index, or None)
    picked_changed = Signal(object)
    #: a line for the status bar
    message = Signal(str)

    def __init__(self, slice_ms: int = 30, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session: BattleSession | None = None
        #: the map the battle started from (team colours, names)
        self.source: MapModel | None = None
        self.slice_ms = slice_ms
        self.playing = True
        self.speed = "x1"
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._tick)
        #: the target of an attack awaiting Confirm; the last roll a Confirm made
        self.pending: int | None = None
        self.roll: Attacked | None = None
        self.picked: int | None = None
        #: the character of the left Character Panel (the actor; between turns the
        #: next one; the last one once the battle is over)
        self.active: int | None = None
        #: side -> colour, as on the map
        self.colors: dict[str, QColor] = {}
        #: (events, result, waiting) at the last refresh
        self._seen: tuple[int, Result | None, Waiting | None] = (0, None, None)

    @property
    def running(self) -> bool:
        return self.session is not None

    @property
    def state(self) -> BattleState:
        assert self.session is not None
        return self.session.state

    # ------------------------------------------------------------ begin, end
    def begin(self, session: BattleSession, source: MapModel) -> None:
        """Show and play ``session``, a battle on (a copy of) ``source``."""
        self.session, self.source = session, source
        self.pending, self.roll, self.picked, self.active = None, None, None, None
        sides = {f.side for f in session.state.fighters}
        self.colors = style.team_colors(set(style.map_team_colors(source)) | sides)
        self._seen = (len(session.state.events), None, None)
        self.playing = True
        self.playing_changed.emit(True)
        self.started.emit()
        self.refresh()
        self._kick()

    def end(self) -> None:
        """The playtest ends (the views hide); nothing is played any more."""
        if self.session is None:
            return
        self.timer.stop()
        self.session = None
        self.pending = self.roll = None
        self.attack_changed.emit()
        self.stopped.emit()

    # ------------------------------------------------------------ showing
    def refresh(self) -> None:
        """Tell the views the battle as it stands (and what changed since last time)."""
        s = self.session
        if s is None:
            return
        state = s.state
        w = s.waiting
        if state.actor is not None:
            self.active = state.actor
        elif state.result is None:
            coming = state.clock.predict(1)
            self.active = coming[0].actor if coming else self.active
        count, result, waiting = self._seen
        self._seen = (len(state.events), state.result, w)
        if len(state.events) > count:
            new = state.events[count:]
            self.action_resolved.emit(new)
            for e in new:
                if isinstance(e, TurnStarted):
                    self.turn_started.emit(e.to_dict()["turn"])
        if state.result is not result:
            self.result_changed.emit(state.result)
        if w != waiting:
            self.human_to_act.emit(w)
        self.changed.emit()

    def status_text(self) -> str:
        """What the game waits for, in one line (the Battle dock's status)."""
        s = self.session
        assert s is not None
        state = s.state
        if state.result is not None:
            return "The battle is over."
        head = f"Turn {state.clock.turns}, tick {state.clock.tick}"
        w = s.waiting
        if w is not None and w.kind == "actor":
            names = ", ".join(state.names[i] for i in w.candidates)
            return f"{head}: team {w.team + 1} (Human) picks who acts: click one of {names}"
        if state.actor is None:
            return f"{head}: between turns"
        who = f"{state.names[state.actor]} (team {state.team[state.actor] + 1}"
        if w is not None:
            return (f"{head}: {who}, Human): click a blue tile to move, a marked enemy to "
                    "attack, P to pass")
        team = state.team[state.actor]
        how = "from the replay" if s.scripted(team) else f"AI {s.player(team)}"
        return f"{head}: {who}, {how})"

    def human_action(self) -> bool:
        """A person is asked for an action (not for who acts)."""
        s = self.session
        w = s.waiting if s is not None else None
        return w is not None and w.kind == "action"

    def waiting(self) -> Waiting | None:
        return self.session.waiting if self.session is not None else None

    def say(self, text: str) -> None:
        self.message.emit(text)

    def pick(self, i: int) -> None:
        """Character ``i`` into the right Character Panel."""
        self.picked = i
        self.picked_changed.emit(i)

    # ------------------------------------------------------------ a person's turn
    def submit(self, action: Action) -> str | None:
        """A person's action; the rules' reason when refused (said, nothing changes)."""
        if self.session is None:
            return "no battle"
        return self._after_human(self.session.submit(action))

    def choose_actor(self, i: int) -> str | None:
        """A person picks who of a same-team tie acts."""
        if self.session is None:
            return "no battle"
        return self._after_human(self.session.choose_actor(i))

    def _after_human(self, refused: str | None) -> str | None:
        if refused is not None:
            self.say(refused)
            return refused
        self.refresh()
        self._kick()
        return None

    def preview_attack(self, target: int) -> str | None:
        """Show the attack on ``target`` for Confirm (the Battle Information Panel);
        the rules' reason when the actor cannot attack it (said, nothing shown)."""
        if self.session is None:
            return "no battle"
        why = refusal(self.session.state, Attack(target))
        if why is not None:
            self.say(why)
            return why
        self.pending, self.roll = target, None
        self.attack_changed.emit()
        return None

    def confirm_attack(self) -> None:
        """Confirm: the attack, then its roll in the Battle Information Panel."""
        s, target = self.session, self.pending
        if s is None or target is None:
            return
        self.pending = None
        n = len(s.state.events)
        self._after_human(s.submit(Attack(target)))
        hits = [e for e in s.state.events[n:] if isinstance(e, Attacked)]
        self.roll = hits[0] if hits else None
        self.attack_changed.emit()

    def cancel_attack(self) -> None:
        """Drop the attack awaiting Confirm (and the roll shown)."""
        self.pending = self.roll = None
        self.attack_changed.emit()

    def pass_turn(self) -> None:
        """P: the person's character ends its turn."""
        if self.session is None:
            return
        if not self.human_action():
            self.say("it is not a human player's turn")
            return
        self.cancel_attack()
        self.submit(Pass())

    # ------------------------------------------------------------ AI playback
    def set_speed(self, speed: str) -> None:
        speed = speed if speed in SPEEDS else "x1"
        if speed != self.speed:
            self.speed = speed
            self.speed_changed.emit(speed)
        self._kick()

    def toggle_play(self) -> None:
        self.set_playing(not self.playing)

    def set_playing(self, on: bool) -> None:
        self.playing = on
        self.playing_changed.emit(on)
        if on:
            self._kick()
        else:
            self.timer.stop()

    def _kick(self) -> None:
        s = self.session
        if s is None or not self.playing or s.result is not None or s.waiting is not None:
            self.timer.stop()
            return
        self.timer.start(SPEEDS[self.speed])

    def _tick(self) -> None:
        s = self.session
        if s is None:
            return
        t0 = time.perf_counter()
        try:
            while True:
                s.step_action()
                if (SPEEDS[self.speed] or s.result is not None or s.waiting is not None
                        or (time.perf_counter() - t0) * 1000 >= self.slice_ms):
                    break
        except Exception as exc:  # noqa: BLE001  (an AI or replay fault: reported, paused)
            self.set_playing(False)
            self.say(f"the battle stopped: {exc}")
        self.refresh()
        self._kick()

    def _manual(self, fn: Callable[[BattleSession], list[Event]]) -> list[Event]:
        s = self.session
        if s is None:
            return []
        if s.waiting is not None:
            self.say("a human player is asked: click on the map, or P to pass")
            return []
        try:
            events = fn(s)
        except Exception as exc:  # noqa: BLE001
            self.say(f"the battle stopped: {exc}")
            events = []
        self.refresh()
        return events

    def step_action(self) -> None:
        """One AI action (or the start of the next turn)."""
        self._manual(lambda s: s.step_action())

    def step_turn(self) -> None:
        self._manual(lambda s: s.step_turn())

    def take_over(self) -> None:
        """The AI side whose turn it is (or comes next) is played by a person."""
        s = self.session
        if s is None:
            return
        state = s.state
        if state.actor is not None:
            team = state.team[state.actor]
        else:
            choice = state.clock.next_turn()
            team = choice.team if choice is not None else 0
        if s.asks_person(team):
            self.say(f"team {team + 1} is already played by a person")
            return
        s.take_over(team)
        self.say(f"team {team + 1} is yours from here")
        self.refresh()
        self._kick()

    # ------------------------------------------------------------ history
    def _pause_at(self, move: Callable[[BattleSession], object]) -> None:
        s = self.session
        if s is None:
            return
        self.cancel_attack()
        self.set_playing(False)
        move(s)
        self.refresh()

    def go_to_turn(self, n: int) -> None:
        """To the start of turn ``n`` (from 1: a turn of the log), paused."""
        self._pause_at(lambda s: s.go_to_turn(n))

    def back(self) -> None:
        """To the start of this turn (or the one before), paused."""
        self._pause_at(lambda s: s.back())

    def forward(self) -> None:
        s = self.session
        if s is not None:
            self.cancel_attack()
            s.forward()
            self.refresh()

    def restart(self, seed: int | None = None) -> None:
        """The same battle again (``seed`` None: the same seed), playing."""
        s = self.session
        if s is None:
            return
        self.cancel_attack()
        s.restart(seed)
        self.set_playing(True)
        self.say(f"restarted with seed {s.seed}")
        self.refresh()
        self._kick()

    def restart_new_seed(self) -> int:
        """:meth:`restart` with a new random seed (returned)."""
        seed = random.randint(0, MAX_SEED)
        self.restart(seed)
        return seed
