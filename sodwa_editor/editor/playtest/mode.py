"""Playtest mode: enter (F5) from an in-memory copy of the open map, play or watch
the battle on the map view, leave (Esc, Stop) with the document untouched.

Entering copies the document's model (unsaved edits included; nothing is written
to disk) and binds the map scene to the battle's own board; the editing actions,
tools and editing docks are disabled and a banner says so.  Leaving binds the
scene back to the document's model and restores every action and the tool as
they were: the document, its undo stack and its modified mark are never touched.

A human turn is clicks on the map (a tile to move, a target to attack, through
the attack preview's Confirm), Pass (P); what the rules refuse is said in the
status bar.  AI turns play on a timer (x1, x2, x4, or instant in slices of at
most :data:`SLICE_MS` ms), so the window never freezes.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QDialog, QDockWidget

from ...battle.actions import Attack, AttackTerrain, Move, Pass, refusal
from ...battle.events import Attacked, Event
from ...battle.jsonfiles import BattleInputError
from ...engine.model import MapModel
from ..geometry import nearest_edge
from ..tools.base import Tool, ToolEvent
from . import replays
from .battle_panel import BattlePanel, preview_text, roll_text
from .battle_views import BattleViews
from .board_items import BattleBoard
from .controls import SPEEDS, PlaytestBar, build_actions, build_menu
from .driver import PlaytestSession
from .lock import EditingLock
from .setup_dialog import MAX_SEED, PlaytestChoice, SetupDialog, build_setup

if TYPE_CHECKING:
    from ..main_window import MainWindow

SLICE_MS = 30
#: a click this close (tile units) to an Obstructing border attacks the border
EDGE_PICK = 0.15
class PlaytestTool(Tool):
    """The view's tool while a playtest runs: clicks and keys go to the mode."""

    name = "playtest"
    label = "Playtest"
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, mode: PlaytestMode) -> None:
        win = mode.win
        super().__init__(win.document, win.scene, win.state)
        self.mode = mode

    def press(self, ev: ToolEvent) -> None:
        if ev.button == Qt.MouseButton.LeftButton:
            self.mode.click(ev.tile, (ev.fx, ev.fy))

    def hover(self, ev: ToolEvent) -> None:
        self.mode.hover(ev.tile)

    def leave(self) -> None:
        self.mode.hover(None)

    def cancel(self) -> None:  # Escape
        self.mode.escape()

    def deactivate(self) -> None:
        self.active = False


class PlaytestMode(QObject):
    """The playtest of one main window (see the module docstring)."""

    #: the battle changed (an action, a step back, a restart)
    changed = Signal()
    started = Signal()
    stopped = Signal()

    def __init__(self, win: MainWindow) -> None:
        super().__init__(win)
        self.win = win
        self.session: PlaytestSession | None = None
        self.board: BattleBoard | None = None
        self.model: MapModel | None = None
        self.choice: PlaytestChoice | None = None
        self.pending: int | None = None  # the target of an attack awaiting Confirm
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
        self.panel.confirm.connect(self.confirm)
        self.panel.cancel.connect(self.cancel_attack)
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
        self.views.tsb.picked.connect(self.pick_from_tsb)

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
            session = PlaytestSession(setup, choice.controllers, choice.seed)
        except BattleInputError as exc:
            self.win.show_message(f"cannot start the playtest: {exc}")
            return False
        self.begin(session)
        return True

    def begin(self, session: PlaytestSession) -> None:
        win = self.win
        self.session = session
        self.lock.lock()
        self.board = BattleBoard(win.scene, self.model or win.document.model)
        self.pending = None
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
        self.pending = None
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
        if self.pending is not None:
            self.cancel_attack()
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
        future = getattr(s, "future_events", None)  # the turns ahead after going back
        log = future() if future is not None else state.events
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

    def pick_from_tsb(self, i: int) -> None:
        """A TSB entry clicked: while a person picks a target (or the actor) it is the
        click on that character's tile; else it only shows the character."""
        s = self.session
        if s is None:
            return
        state, w = s.state, s.waiting
        actor = state.actor
        if w is not None and state.alive(i) and (
                (w.kind == "actor" and i in w.candidates)
                or (w.kind == "action" and actor is not None
                    and state.team[i] != state.team[actor])):
            self.click(state.pos[i])
        if i != state.actor:
            self.views.pick(state, i, self.board._colors if self.board else None)

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
        return f"{head}: {who}, AI {s.controller_names()[state.team[state.actor]]})"

    def _human_action(self) -> bool:
        s = self.session
        w = s.waiting if s is not None else None
        return w is not None and w.kind == "action"

    def say(self, text: str) -> None:
        self.win.statusBar().showMessage(text, 8000)

    def hover(self, tile: tuple[int, int] | None) -> None:
        if self.board is not None and self.pending is None:
            text = self.board.hover(tile)
            if text:
                self.say(text)

    # ------------------------------------------------------------ a human turn
    def click(self, tile: tuple[int, int], point: tuple[float, float] | None = None) -> None:
        """A click on ``tile`` (at ``point`` in tile units: near a border it is the
        border that is clicked)."""
        s = self.session
        if s is None:
            return
        state = s.state
        clicked = state.at(tile)
        if clicked is not None and clicked != state.actor:
            self.views.pick(state, clicked, self.board._colors if self.board else None)
        if state.result is not None:
            self.say("the battle is over: Restart, Save Replay, or Esc to edit")
            return
        w = s.waiting
        if w is None:
            self.say("an AI is playing this turn: Play, One Action or One Turn, or Take Over")
            return
        who = state.at(tile)
        if w.kind == "actor":
            if who is None:
                self.say("pick the character to act: click one of the characters marked in yellow")
                return
            self._after(s.choose_actor(who))
            return
        actor = state.actor
        assert actor is not None
        feature = self._feature(tile, point)
        if feature is not None:  # an Obstructing tile or border: a Basic Attack on it
            self._after(s.submit(AttackTerrain(*feature)))
        elif who is None:
            self._after(s.submit(Move(tile)))
        elif who == actor:
            self.say(f"{state.names[actor]} acts now: click a tile to move, an enemy to "
                     "attack, P to pass")
        elif state.team[who] == state.team[actor]:
            self.say(f"{state.names[who]!r} is on your team")
        else:
            why = refusal(state, Attack(who))
            if why is not None:
                self.say(why)
                return
            self.pending = who
            html = preview_text(state, actor, who, s.preview(actor, who))
            self.panel.show_preview(html, True)
            self.board.hover(tile) if self.board else None
            self.say(f"attack {state.names[who]}? Confirm in the Battle panel (Esc cancels)")

    def _feature(self, tile: tuple[int, int],
                 point: tuple[float, float] | None) -> tuple[int, int, str] | None:
        """The Obstructing border within :data:`EDGE_PICK` of ``point``, else the
        Obstructing tile clicked, else None."""
        assert self.session is not None
        board = self.session.state.board
        if point is not None:
            edge, dist = nearest_edge(board.model, *point)
            if edge is not None and dist < EDGE_PICK \
                    and board.is_obstruction((edge.x, edge.y, edge.side)):
                return (edge.x, edge.y, edge.side)
        x, y = tile
        if board.in_bounds(x, y) and not board.standable[y][x]:
            return (x, y, "")
        return None

    def confirm(self) -> None:
        s, target = self.session, self.pending
        if s is None or target is None:
            return
        self.pending = None
        n = len(s.state.events)
        self._after(s.submit(Attack(target)))
        hits = [e for e in s.state.events[n:] if isinstance(e, Attacked)]
        if hits:
            self.panel.show_preview(roll_text(s.state, hits[0]), False)
        else:
            self.panel.hide_preview()

    def cancel_attack(self) -> None:
        self.pending = None
        self.panel.hide_preview()
        if self.board is not None:
            self.board.hide_line()

    def pass_turn(self) -> None:
        s = self.session
        if s is None:
            return
        if not self._human_action():
            self.say("it is not a human player's turn")
            return
        self.cancel_attack()
        self._after(s.submit(Pass()))

    def _after(self, refused: str | None) -> None:
        """After a human decision: the reason when refused, else redraw and play on."""
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
        if s.is_human(team):
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
        self.cancel_attack()
        self.playing = False
        self.timer.stop()
        s.go_to_turn(n)
        self.refresh()

    def back(self) -> None:
        s = self.session
        if s is not None:
            self.cancel_attack()
            self.playing = False
            self.timer.stop()
            s.back()
            self.refresh()

    def forward(self) -> None:
        s = self.session
        if s is not None:
            self.cancel_attack()
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
        self.cancel_attack()
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
