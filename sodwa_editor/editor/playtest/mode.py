"""Playtest mode: enter (F5) from an in-memory copy of the open map, play or watch
the battle on the map view, leave (Esc, Stop) with the document untouched.

Entering copies the document's model (unsaved edits included; nothing is written
to disk) and binds the map scene to the battle's own board; the editing actions,
tools and editing docks are disabled and a banner says so.  Leaving binds the
scene back to the document's model and restores every action and the tool as
they were: the document, its undo stack and its modified mark are never touched.

The battle is a :class:`~sodwa_editor.battle.session.BattleSession` (no Qt);
a human turn's clicks are :mod:`.human_turn`'s.  AI turns play on a timer (x1,
x2, x4, or instant in slices of at most :data:`SLICE_MS` ms), so the window
never freezes.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QDialog, QDockWidget

from ...battle.events import Event
from ...battle.jsonfiles import BattleInputError
from ...battle.session import BattleSession
from ...engine.model import MapModel
from . import replays
from .battle_panel import BattlePanel
from .battle_views import BattleViews
from .board_items import BattleBoard
from .controls import SPEEDS, PlaytestBar, build_actions, build_menu
from .human_turn import HumanTurn, PlaytestTool
from .lock import EditingLock
from .setup_dialog import MAX_SEED, PlaytestChoice, SetupDialog, build_setup

if TYPE_CHECKING:
    from ..main_window import MainWindow

SLICE_MS = 30


class PlaytestMode(QObject):
    """The playtest of one main window (see the module docstring)."""

    #: the battle changed (an action, a step back, a restart)
    changed = Signal()
    started = Signal()
    stopped = Signal()

    def __init__(self, win: MainWindow) -> None:
        super().__init__(win)
        self.win = win
        self.session: BattleSession | None = None
        self.board: BattleBoard | None = None
        self.model: MapModel | None = None
        self.choice: PlaytestChoice | None = None
        self.human = HumanTurn(self)
        self.playing = True
        self.speed = "x1"
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._tick)
        self.tool = PlaytestTool(self)
        self.actions = build_actions(win, self)
        self.lock = EditingLock(win, self.actions, self.tool)

    def build_ui(self) -> None:
        """The Play menu, the tool bar and the Battle dock (after the window's menus)."""
        win = self.win
        build_menu(win, self.actions)
        self.bar = PlaytestBar(win, self.actions, self)
        win.addToolBarBreak()
        win.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.bar)
        self.panel = BattlePanel()
        self.panel.confirm.connect(self.human.confirm)
        self.panel.cancel.connect(self.human.cancel_attack)
        self.panel.turn_clicked.connect(self.go_to_turn)
        self.panel.result.save_replay.connect(self.save_replay)
        self.panel.result.restart.connect(self.restart_same)
        self.dock = QDockWidget("Battle", win)
        self.dock.setObjectName("battle_dock")
        self.dock.setWidget(self.panel)
        win.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        win.tabifyDockWidget(win.docks["validation"], self.dock)
        self.dock.setVisible(False)
        self.views = BattleViews(win)  # the TSB and the Character Panels
        self.views.tsb.picked.connect(self.human.pick_from_tsb)

    @property
    def active(self) -> bool:
        return self.session is not None

    # ------------------------------------------------------------ enter, leave
    def enter(self) -> bool:
        """F5: the setup dialog, then the playtest (True when it started)."""
        if self.active:
            self.stop()
        model = self.win.document.model.copy()
        dialog = SetupDialog(model, self.win, self._next_choice())
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        return self.start(dialog.choice(), model)

    def _next_choice(self) -> PlaytestChoice | None:
        """The last setup again, with a new random seed."""
        if self.choice is None:
            return None
        c = self.choice
        return PlaytestChoice(c.controllers, c.team_files, c.zones, c.rules_path, c.cap,
                              random.randint(0, MAX_SEED))

    def start(self, choice: PlaytestChoice, model: MapModel | None = None) -> bool:
        """Start a playtest of ``choice`` on ``model`` (a copy of the document's map
        by default); a setup no battle can start from is refused with its reason."""
        model = model if model is not None else self.win.document.model.copy()
        try:
            setup = build_setup(model, choice)
        except BattleInputError as exc:
            self.win.show_message(f"cannot start the playtest: {exc}")
            return False
        if self.active:
            self.stop()
        self.choice, self.model = choice, model
        try:
            session = BattleSession(setup, choice.controllers, seed=choice.seed)
        except BattleInputError as exc:
            self.win.show_message(f"cannot start the playtest: {exc}")
            return False
        self.begin(session)
        return True

    def begin(self, session: BattleSession) -> None:
        win = self.win
        self.session = session
        self.lock.lock()
        self.board = BattleBoard(win.scene, self.model or win.document.model)
        self.human.pending = None
        self.playing = True
        self.bar.setVisible(True)
        self.dock.setVisible(True)
        self.views.set_visible(True)
        self.dock.raise_()
        self.started.emit()
        self.refresh()
        self._kick()

    def stop(self) -> None:
        """Back to editing: the document as it was, the scene on its model."""
        if not self.active:
            return
        self.timer.stop()
        win = self.win
        if self.board is not None:
            self.board.remove()
            self.board = None
        self.session = None
        self.human.pending = None
        win.scene.set_model(win.document.model)
        self.lock.unlock()
        self.bar.setVisible(False)
        self.dock.setVisible(False)
        self.views.set_visible(False)
        self.panel.hide_preview()
        win.statusBar().showMessage("Playtest stopped: back to editing", 4000)
        self.stopped.emit()

    def escape(self) -> None:
        """Escape: drop the attack being previewed, else stop the playtest."""
        if self.human.pending is not None:
            self.human.cancel_attack()
        else:
            self.stop()

    # ------------------------------------------------------------ showing
    def refresh(self) -> None:
        s = self.session
        if s is None or self.board is None:
            return
        state = s.state
        w = s.waiting
        self.board.show(state, w.candidates if w is not None and w.kind == "actor" else ())
        log = s.future_events()  # the turns ahead after going back too
        self.panel.show_state(state, self.status_text(), log, len(state.events))
        self.views.show(state, self.board._colors or None)
        if state.result is not None:
            self.panel.result.show_result(state)
        self.panel.result.setVisible(state.result is not None)
        self.actions["playtest_save_replay"].setEnabled(state.result is not None)
        self.actions["playtest_pass"].setEnabled(self._human_action())
        self.actions["playtest_forward"].setEnabled(s.turn < s.turn_count)
        self.actions["playtest_play"].setChecked(self.playing)
        self.changed.emit()

    def status_text(self) -> str:
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

    def _human_action(self) -> bool:
        s = self.session
        w = s.waiting if s is not None else None
        return w is not None and w.kind == "action"

    def say(self, text: str) -> None:
        self.win.statusBar().showMessage(text, 8000)

    def after_human(self, refused: str | None) -> None:
        """After a person's decision: the reason when refused, else redraw and play on."""
        if refused is not None:
            self.say(refused)
            return
        self.refresh()
        self._kick()

    # ------------------------------------------------------------ AI playback
    def set_speed(self, speed: str) -> None:
        self.speed = speed if speed in SPEEDS else "x1"
        if self.bar.speed.currentText() != self.speed:
            self.bar.speed.setCurrentText(self.speed)  # comes back here once, unchanged
        self._kick()

    def toggle_play(self) -> None:
        self.playing = not self.playing
        self.actions["playtest_play"].setChecked(self.playing)
        if self.playing:
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
                        or (time.perf_counter() - t0) * 1000 >= SLICE_MS):
                    break
        except Exception as exc:  # noqa: BLE001  (an AI or replay fault: reported, paused)
            self.playing = False
            self.say(f"the battle stopped: {exc}")
        self.refresh()
        self._kick()

    def _manual(self, fn) -> list[Event]:
        s = self.session
        if s is None:
            return []
        if s.waiting is not None:
            self.say("a human player is asked: click on the map, or P to pass")
            return []
        try:
            events = fn()
        except Exception as exc:  # noqa: BLE001
            self.say(f"the battle stopped: {exc}")
            events = []
        self.refresh()
        return events

    def step_action(self) -> None:
        """One AI action (or the start of the next turn)."""
        self._manual(lambda: self.session.step_action() if self.session else [])

    def step_turn(self) -> None:
        self._manual(lambda: self.session.step_turn() if self.session else [])

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
    def go_to_turn(self, n: int) -> None:
        """To the start of turn ``n`` (from 1: a turn of the log)."""
        s = self.session
        if s is None:
            return
        self.human.cancel_attack()
        self.playing = False
        self.timer.stop()
        s.go_to_turn(n)
        self.refresh()

    def back(self) -> None:
        s = self.session
        if s is not None:
            self.human.cancel_attack()
            self.playing = False
            self.timer.stop()
            s.back()
            self.refresh()

    def forward(self) -> None:
        s = self.session
        if s is not None:
            self.human.cancel_attack()
            s.forward()
            self.refresh()

    def restart_same(self) -> None:
        self._restart(None)

    def restart_new(self) -> None:
        self._restart(random.randint(0, MAX_SEED))

    def _restart(self, seed: int | None) -> None:
        s = self.session
        if s is None:
            return
        self.human.cancel_attack()
        s.restart(seed)
        if seed is not None and self.choice is not None:
            self.choice.seed = seed
        self.playing = True
        self.say(f"restarted with seed {s.seed}")
        self.refresh()
        self._kick()

    # ------------------------------------------------------------ replays
    def save_replay(self, path: Path | None = None) -> Path | None:
        """Save the finished battle as a replay file (asks where when ``path`` is None)."""
        return replays.save_replay(self, path)

    def open_replay(self, path: Path | None = None) -> bool:
        """Watch a replay made on the open map (its hash must match)."""
        return replays.open_replay(self, path)
