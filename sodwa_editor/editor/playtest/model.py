"""The playtest model: a :class:`~sodwa_editor.battle.session.BattleSession` with
Qt signals, and what the playtest's views share about it (no widget here).

Every view of a playtest takes this model and listens to it: the Turn-Sequence
Bar, the Character Panels, the Battle Information Panel (status, karma, the
hovered tile, the attack, the log, the result), the board items on the map and
the playback controls.  The model plays the AI turns on a timer (x1, x2, x4, or
instant in slices of at most ``slice_ms`` ms, so the window never freezes),
applies a person's decisions (:meth:`PlaytestModel.submit`,
:meth:`~PlaytestModel.choose_actor`, the attack awaiting Confirm), goes back and
forward in the battle, and says what happened in one line
(:attr:`~PlaytestModel.message`; a line that no longer holds, such as the
hovered line of sight or a refusal after the next action, is taken back with an
empty one).

A new battle (:meth:`~PlaytestModel.begin`) and a restarted one
(:meth:`~PlaytestModel.restart`, from the battle's :class:`~.origin.Origin`:
the players and the replay it was set up with) start paused at the start of turn
1, unless :attr:`~PlaytestModel.autoplay` (the user's explicit choice) says to
play at once.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QColor

from ...battle.actions import Action, Attack, Pass, refusal
from ...battle.events import Event, TurnStarted
from ...battle.session import BattleSession, Seed, Waiting
from ...battle.setup import HUMAN
from ...battle.sheet import DEFAULT_ROSTER_PATH
from ...battle.state import BattleState, Result
from ...engine.model import MapModel
from .. import style
from .last_result import LastResult, follow
from .origin import Origin, seed_text
from .portraits import Portraits
from .status import side_name, status_text

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
    #: the tile under the pointer on the map ((x, y), or None)
    hovered_changed = Signal(object)
    #: the battle started again from its start (Restart): the views drop what they kept
    restarted = Signal()
    #: a line for the status bar ('' takes back the model's last line)
    message = Signal(str)

    def __init__(self, slice_ms: int = 30, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session: BattleSession | None = None
        #: the map the battle started from (team colours, names)
        self.source: MapModel | None = None
        self.slice_ms = slice_ms
        self.playing = False
        #: new, restarted and opened battles play at once (else: paused at turn 1)
        self.autoplay = False
        self.speed = "x1"
        #: how the battle was set up (what Restart plays again)
        self.origin: Origin | None = None
        #: the sides a person took over (Take Over) and may give back to their AI
        self.taken: set[int] = set()
        #: the tile under the pointer on the map
        self.hovered: tuple[int, int] | None = None
        #: the line the model said last ('' once taken back)
        self.said = ""
        #: the characters' portraits (the Character Panels' and the TSB's), and the
        #: folder the roster's portrait images are relative to (the roster file's)
        self.portraits: Portraits | None = None
        self.roster_dir = DEFAULT_ROSTER_PATH.parent
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._tick)
        #: the target of an attack awaiting Confirm; the last attack's result (a Basic
        #: Attack's roll, an area ability's rolls: :mod:`.last_result`)
        self.pending: int | None = None
        self.roll: LastResult | None = None
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
    def begin(self, session: BattleSession, source: MapModel,
              origin: Origin | None = None) -> None:
        """Show ``session``, a battle on (a copy of) ``source``: paused at the start
        of turn 1, or playing when :attr:`autoplay`.  ``origin``: how it was set up
        (what Restart plays again; by default the session's setup and players)."""
        self.session, self.source = session, source
        self.origin = origin if origin is not None else Origin.of(session)
        self.pending, self.roll, self.picked, self.active = None, None, None, None
        self.taken = set()
        sides = {f.side for f in session.state.fighters}
        self.colors = style.team_colors(set(style.map_team_colors(source)) | sides)
        roster = session.setup.docs.get("roster") if session.setup is not None else None
        self.portraits = Portraits(session.state, self.colors, source, roster,
                                   self.roster_dir)
        self._seen = (len(session.state.events), None, None)
        self.playing = self.autoplay
        self.playing_changed.emit(self.playing)
        self.started.emit()
        self._open()

    def _open(self) -> None:
        """A battle from its start: to the start of turn 1 and paused, or playing."""
        if not self.autoplay:
            self._to_turn_one()
        self.refresh()
        self._kick()

    def _to_turn_one(self) -> None:
        """Begin turn 1 (who acts first is shown; nobody has acted yet)."""
        s = self.session
        assert s is not None
        if s.state.clock.turns == 0 and s.state.turn is None and s.waiting is None \
                and s.result is None:
            try:
                s.step_action()
            except Exception as exc:  # noqa: BLE001  (an AI or replay fault: reported)
                self.say(f"the battle stopped: {exc}")

    def end(self) -> None:
        """The playtest ends (the views hide); nothing is played any more."""
        if self.session is None:
            return
        self.timer.stop()
        self.session = None
        self.pending = self.roll = None
        self.hovered = None
        self.attack_changed.emit()
        self.unsay()
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
            self._follow_attack(new)
            self.action_resolved.emit(new)
            for e in new:
                if isinstance(e, TurnStarted):
                    self.turn_started.emit(e.to_dict()["turn"])
        if state.result is not result:
            self.result_changed.emit(state.result)
        if w != waiting:
            self.human_to_act.emit(w)
        self.changed.emit()

    def _follow_attack(self, new: list[Event]) -> None:
        """The Battle Information Panel's attack: a new turn drops the attack
        previewed and the last result (issue 24); an attack made, an area ability
        used, shows its rolls."""
        roll, pending = self.roll, self.pending
        self.pending = None if any(isinstance(e, TurnStarted) for e in new) else pending
        self.roll = follow(self.roll, new)
        if (roll, pending) != (self.roll, self.pending):
            self.attack_changed.emit()

    def side_name(self, team: int) -> str:
        """Side ``team`` as people read it everywhere (``attackers (team 0)``)."""
        return side_name(self.state, team)

    def seed_text(self) -> str:
        """The battle's seed as a person types it (``7``, never a SeedSequence)."""
        return seed_text(self.session.seed) if self.session is not None else ""

    def status_text(self) -> str:
        """What the game waits for, in one line (the Battle Information Panel's)."""
        assert self.session is not None
        return status_text(self.session, self.playing)

    def human_action(self) -> bool:
        """A person is asked for an action (not for who acts)."""
        s = self.session
        w = s.waiting if s is not None else None
        return w is not None and w.kind == "action"

    def waiting(self) -> Waiting | None:
        return self.session.waiting if self.session is not None else None

    def say(self, text: str) -> None:
        self.said = text
        self.message.emit(text)

    def unsay(self) -> None:
        """Take back the last line said (it no longer holds: the pointer left the
        target, the next action was taken, a turn began)."""
        if self.said:
            self.say("")

    def pick(self, i: int) -> None:
        """Character ``i`` into the right Character Panel."""
        self.picked = i
        self.picked_changed.emit(i)

    def hover(self, tile: tuple[int, int] | None) -> None:
        """The pointer is over ``tile`` of the map (None: off the map)."""
        if tile != self.hovered:
            self.hovered = tile
            self.hovered_changed.emit(tile)

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
        self.unsay()
        if self.pending is not None:  # its numbers were for the state before
            self.pending = None
            self.attack_changed.emit()
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
        self._after_human(s.submit(Attack(target)))  # the roll: by refresh
        self.attack_changed.emit()

    def cancel_attack(self) -> None:
        """Drop the attack awaiting Confirm (and the roll shown)."""
        if self.pending is not None:
            self.unsay()  # "attack X? Confirm ..."
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
        if self.session is not None:
            self.changed.emit()  # the status says paused or not

    def set_autoplay(self, on: bool) -> None:
        """The user's choice: new and restarted battles play at once (else paused)."""
        self.autoplay = on

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

    def _side_now(self) -> int:
        """The side whose turn it is, or comes next."""
        state = self.state
        if state.actor is not None:
            return state.team[state.actor]
        choice = state.clock.next_turn()
        return choice.team if choice is not None else 0

    def take_over(self) -> None:
        """The AI side whose turn it is (or comes next) is played by a person."""
        s = self.session
        if s is None:
            return
        team = self._side_now()
        if s.asks_person(team):
            self.say(f"{self.side_name(team)} is already played by a person")
            return
        s.take_over(team)
        self.taken.add(team)
        self.say(f"{self.side_name(team)} is yours from here (Give Back returns it to "
                 "its AI)")
        self.refresh()
        self._kick()

    def give_back(self) -> None:
        """A side taken over is played by its AI again: the side whose turn it is (or
        comes next) if it was taken over, else the other one."""
        s = self.session
        if s is None:
            return
        if not self.taken:
            self.say("no side was taken over: Take Over (Ctrl+T) gives you the side "
                     "whose turn it is")
            return
        now = self._side_now()
        team = now if now in self.taken else min(self.taken)
        player = self.origin.players[team] if self.origin is not None else None
        if player is None or player == HUMAN:
            player = "greedy"  # (a side set up for a person has no AI of its own)
        self.cancel_attack()
        s.set_controller(team, player)
        self.taken.discard(team)
        self.say(f"{self.side_name(team)} is played by AI {player} again")
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
        if s is None:
            return
        if s.turn >= s.turn_count:
            self.say("nothing ahead: this is as far as the battle was played (F6 plays on, "
                     "F7 one action)")
            return
        self.cancel_attack()
        s.forward()
        self.refresh()

    def restart(self, seed: Seed | None = None) -> None:
        """The battle again as it was set up (the same players, a watched replay's
        decisions): with the same seed, or with ``seed`` (a new battle); paused at
        turn 1 unless :attr:`autoplay`."""
        s = self.session
        if s is None:
            return
        self.cancel_attack()
        self.timer.stop()
        if self.origin is not None:
            s = self.session = self.origin.session(seed)
        else:
            s.restart(seed)
        self.taken = set()
        self._seen = (0, self._seen[1], self._seen[2])
        self.playing = self.autoplay
        self.playing_changed.emit(self.playing)
        self.restarted.emit()
        self._open()
        self.say(f"restarted with seed {self.seed_text()}"
                 + ("" if self.playing else ", paused at turn 1: F6 plays"))

    def restart_new_seed(self) -> int:
        """:meth:`restart` with a new random seed (returned)."""
        seed = random.randint(0, MAX_SEED)
        self.restart(seed)
        if self.origin is not None:  # the next Restart keeps the new seed
            o = self.origin
            self.origin = Origin(o.setup, o.players, seed, o.swapped, None)
        return seed
