"""Playtest mode: enter (F5) from an in-memory copy of the open map, play or watch
the battle on the map view, leave (Esc, Stop) with the document untouched.

Entering copies the document's model (unsaved edits included; nothing is written
to disk) and binds the map scene to the battle's own board; the editing actions,
tools and editing docks are locked (:mod:`.lock`) and a banner says so.  Leaving
binds the scene back to the document's model and unlocks every action and the
tool as they were: the document, its undo stack and its modified mark are never
touched.

:class:`PlaytestMode` is the small controller that enters and leaves: the battle
and its playback are the :class:`~.model.PlaytestModel`'s, which every view of
the playtest takes (the board items, the Turn-Sequence Bar, the Character
Panels, the Battle dock, the controls); a person's clicks are :mod:`.human_turn`'s.
AI turns play on the model's timer in slices of at most :data:`SLICE_MS` ms.
"""

from __future__ import annotations

import dataclasses
import random
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox, QWidget

from ...battle.jsonfiles import BattleInputError
from ...battle.session import BattleSession
from ...engine.model import MapModel
from . import replays
from .ability_aim import AbilityAim
from .ability_items import AbilityBoard
from .board_items import BattleBoard
from .controls import ABILITIES, ESCAPE, playtest_actions
from .human_turn import HumanTurn, PlaytestTool
from .model import MAX_SEED, PlaytestModel
from .origin import Origin
from .setup_dialog import PlaytestChoice, SetupDialog, build_setup

if TYPE_CHECKING:
    from ..context import EditorContext
    from .battle_views import BattleViews
    from .controls import PlaytestBar
    from .lock import EditingLock

#: the longest an instant-speed slice of AI actions runs before the event loop turns
SLICE_MS = 30
#: the setting that remembers the user's choice "Start Battles Playing"
AUTOPLAY_KEY = "playtest/autoplay"


class PlaytestMode(QObject):
    """The playtest of one window: enters and leaves it (see the module docstring).

    ``context``: the editor's (the document copied, the scene the battle is drawn
    on, the status bar); ``lock``: what editing it turns off; ``window``: the parent
    of its dialogs (and the holder of Esc).  Its views (the window places them) are
    :attr:`bar` and :attr:`views` (the Turn-Sequence Bar, the Character Panels and
    the Battle Information Panel, :attr:`panel`)."""

    def __init__(self, context: EditorContext, lock: EditingLock, window: QWidget) -> None:
        super().__init__(window)
        self.context = context
        self.document = context.document
        self.scene = context.scene
        self.lock = lock
        self.window = window
        self.model = PlaytestModel(SLICE_MS, self)
        self.model.message.connect(self._say)
        self.model.set_autoplay(str(context.settings.value(AUTOPLAY_KEY, "false")).lower()
                                == "true")
        self.choice: PlaytestChoice | None = None
        self.board = BattleBoard(self.scene, self.model)
        #: the area ability a person aims, and its template and the effects drawn
        self.aim = AbilityAim(self.model, self)
        self.ability_board = AbilityBoard(self.scene, self.model, self.aim)
        self.human = HumanTurn(self.model, self.board, self.aim)
        self.tool = PlaytestTool(self.human, self.escape)
        self.actions = playtest_actions(self, self.model, {
            "playtest": self.enter, "playtest_stop": self.stop,
            "playtest_play": self.model.toggle_play, "playtest_step": self.model.step_action,
            "playtest_turn": self.model.step_turn, "playtest_pass": self.model.pass_turn,
            "playtest_back": self.model.back, "playtest_forward": self.model.forward,
            "playtest_restart": self.restart_same, "playtest_new_seed": self.restart_new,
            "playtest_take_over": self.model.take_over,
            "playtest_give_back": self.model.give_back,
            "playtest_confirm": self.human.confirm, ESCAPE: self.escape,
            "playtest_autoplay": self._toggle_autoplay,
            "playtest_save_replay": self.save_replay, "open_replay": self.open_replay,
            **{key: partial(self.aim.choose, k) for k, key in enumerate(ABILITIES)}},
            self.aim)
        # Esc is in no menu: held by the window, it works whatever has the focus
        window.addAction(self.actions[ESCAPE])
        self.bar: PlaytestBar | None = None
        self.views: BattleViews | None = None

    def connect_views(self, bar: PlaytestBar, views: BattleViews) -> None:
        """The views the window placed: their buttons and clicks come here."""
        self.bar, self.views = bar, views
        panel = views.bip
        panel.confirm.connect(self.human.confirm)
        panel.cancel.connect(self.human.cancel_attack)
        panel.follow_aim(self.aim)
        panel.turn_clicked.connect(self.model.go_to_turn)
        panel.result.save_replay.connect(self.save_replay)
        panel.result.restart.connect(self.restart_same)
        views.tsb.picked.connect(self.human.pick_from_tsb)
        views.active_panel.set_actions([self.actions["playtest_pass"],
                                        *(self.actions[key] for key in ABILITIES)])

    @property
    def panel(self):
        """The Battle Information Panel (status, karma, terrain, attack, log, result)."""
        return self.views.bip if self.views is not None else None

    # ------------------------------------------------------------ the model's
    @property
    def active(self) -> bool:
        return self.model.running

    @property
    def session(self) -> BattleSession | None:
        return self.model.session

    @property
    def playing(self) -> bool:
        return self.model.playing

    @property
    def timer(self) -> QTimer:
        """The timer the AI turns play on."""
        return self.model.timer

    def refresh(self) -> None:
        self.model.refresh()

    def toggle_play(self) -> None:
        self.model.toggle_play()

    def _say(self, text: str) -> None:
        self.context.say(text, "info")

    def _toggle_autoplay(self) -> None:
        on = self.actions["playtest_autoplay"].isChecked()
        self.model.set_autoplay(on)
        self.context.settings.setValue(AUTOPLAY_KEY, "true" if on else "false")
        self.model.say("new and restarted battles play at once" if on else
                       "new and restarted battles start paused at turn 1 (F6 plays)")

    # ------------------------------------------------------------ enter, leave
    def enter(self) -> bool:
        """F5: the setup dialog, then the playtest (True when it started)."""
        if self.active:
            self.stop()
        model = self.document.model.copy()
        dialog = SetupDialog(model, self.window, self._next_choice(),
                             roster_in_use=self.context.roster_in_use)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        return self.start(dialog.choice(), model)

    def _next_choice(self) -> PlaytestChoice | None:
        """The last setup again, with a new random seed."""
        if self.choice is None:
            return None
        return dataclasses.replace(self.choice, seed=random.randint(0, MAX_SEED))

    def start(self, choice: PlaytestChoice, model: MapModel | None = None) -> bool:
        """Start a playtest of ``choice`` on ``model`` (a copy of the document's map
        by default); a setup no battle can start from is refused with its reason."""
        model = model if model is not None else self.document.model.copy()
        if choice.roster is None:  # the roster in use (a pack's scenario names its own)
            choice = dataclasses.replace(choice, roster=self.context.roster_in_use.current)
        try:
            setup = build_setup(model, choice)
        except BattleInputError as exc:
            self.context.say(f"cannot start the playtest: {exc}", "note")
            return False
        if self.active:
            self.stop()
        self.choice = choice
        assert choice.roster is not None
        self.model.roster_dir = choice.roster.folder  # its portraits are relative to it
        origin = Origin(setup, choice.controllers, choice.seed)
        try:
            session = origin.session()
        except BattleInputError as exc:
            self.context.say(f"cannot start the playtest: {exc}", "note")
            return False
        self.begin(session, model, origin)
        return True

    def begin(self, session: BattleSession, source: MapModel,
              origin: Origin | None = None) -> None:
        """Editing off, ``session`` (a battle on ``source``, set up as ``origin``)
        shown: paused at turn 1, or playing (the user's choice)."""
        self.lock.lock(self.tool)
        self.model.begin(session, source, origin)

    def stop(self) -> None:
        """Back to editing: the document as it was, the scene on its model."""
        if not self.active:
            return
        self.model.end()
        self.scene.set_model(self.document.model)
        self.model.hover(None)
        self.lock.unlock()
        self.context.say("Playtest stopped: back to editing", "brief")

    def escape(self) -> None:
        """Escape: drop the area ability picked or aimed, else the attack being
        previewed, else stop the playtest."""
        if self.aim.cancel():
            return
        if self.model.pending is not None:
            self.model.cancel_attack()
        else:
            self.stop()

    def restart_same(self) -> None:
        self.model.restart()

    def restart_new(self) -> None:
        seed = self.model.restart_new_seed()
        if self.active and self.choice is not None:
            self.choice.seed = seed

    # ------------------------------------------------------------ replays
    def save_replay(self, path: Path | None = None) -> Path | None:
        """Save the finished battle as a replay file (asks where when ``path`` is None)."""
        s = self.model.session
        if s is None or s.result is None:
            self.model.say("a replay is saved once the battle is over")
            return None
        if path is None:
            name, _ = QFileDialog.getSaveFileName(self.window, "Save Replay", "replay.json",
                                                  "Replays (*.json)")
            if not name:
                return None
            path = Path(name)
        return replays.save_replay(self.model, self.document, path)

    def open_replay(self, path: Path | None = None) -> bool:
        """Watch a replay made on the open map (its hash must match); a replay that
        cannot be watched is refused in a dialog that says why."""
        if path is None:
            name, _ = QFileDialog.getOpenFileName(self.window, "Open Replay", "",
                                                  "Replays (*.json)")
            if not name:
                return False
            path = Path(name)
        model = self.document.model.copy()
        try:
            origin, said = replays.replay_origin(path, model)
            session = origin.session()
        except (BattleInputError, KeyError, TypeError, ValueError) as exc:
            self.context.say(f"cannot open the replay: {exc}", "status")
            QMessageBox.warning(self.window, "Open Replay",
                                f"Cannot watch the replay {path.name}:\n\n{exc}")
            return False
        self.stop()
        self.choice = None
        self.begin(session, model, origin)
        self.model.say(said)
        return True
