"""The playtest's actions (their rows of the action table: the Play menu, the
playtest tool bar with its banner and the battle's seed) and the controls that
follow the playtest model: which actions are enabled, Play / Pause checked, the
speed shown.  The slots are the mode's and the model's; this module only builds
the buttons and keeps them in step with the battle.

Esc (:data:`ESCAPE`: drop the attack previewed, else leave) is in no menu: the
mode adds it to the window, so that it works whatever has the keyboard focus in
the window (issue 24), as every menu shortcut does."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QLabel, QToolBar, QWidget

from ..actions import ActionSpec, build_actions
from .ability_aim import SLOTS, AbilityAim
from .ability_text import button_text
from .model import SPEEDS, PlaytestModel

BANNER = "PLAYTEST: editing is off. Esc or Stop returns to the editor"
#: the action of Esc (in no menu: the window holds it)
ESCAPE = "playtest_escape"


def ability_key(slot: int) -> str:
    """The action of the acting character's ability ``slot`` (from 0; key ``slot + 1``)."""
    return f"playtest_ability_{slot + 1}"


#: the rows of the acting character's abilities (a row per key, named after the
#: ability while a battle runs)
ABILITY_ROWS = tuple(ActionSpec(
    ability_key(k), f"Ability &{k + 1}", str(k + 1),
    f"Use the acting character's ability {k + 1}: the template follows the pointer, a "
    "click aims, Enter confirms", False, f"Ability {k + 1}") for k in range(SLOTS))
#: the playtest's rows of the action table (``short``: the tool bar's text)
PLAYTEST_ACTIONS = tuple(ActionSpec(*row) for row in (
    ("playtest", "&Playtest...", "F5",
     "Play or watch a battle on this map (unsaved edits included)", False, "Play"),
    ("playtest_stop", "&Stop Playtest", "Shift+F5", "Back to editing (Esc)", False, "Stop"),
    (ESCAPE, "Cancel the Attack or Stop", "Esc",
     "Drop the attack previewed, else back to editing"),
    ("playtest_confirm", "&Confirm Attack", ("Return", "Enter"),
     "Roll the attack previewed in the Battle Information Panel", False, "Confirm"),
    ("playtest_play", "&Play / Pause", "F6",
     "Let the AI turns play out at the chosen speed", True, "Play"),
    ("playtest_step", "One &Action", "F7", "Play the next AI action", False, "Action"),
    ("playtest_turn", "One &Turn", "F8", "Play to the end of the current turn", False, "Turn"),
    ("playtest_pass", "P&ass", "P", "End the human character's turn", False, "Pass"),
    ("playtest_back", "Step &Back", "Alt+Left",
     "Back to the start of this turn (or the one before)", False, "Back"),
    ("playtest_forward", "Step &Forward", "Alt+Right",
     "Forward to the end of a turn played before", False, "Forward"),
    ("playtest_restart", "&Restart", "F9", "The same battle again, with the same seed", False,
     "Restart"),
    ("playtest_new_seed", "Restart with a &New Seed", "Shift+F9",
     "The same setup with a new random seed", False, "New Seed"),
    ("playtest_take_over", "Take &Over", "Ctrl+T",
     "Play the AI side whose turn it is yourself from here", False, "Take Over"),
    ("playtest_give_back", "&Give Back to the AI", "Ctrl+Shift+T",
     "The side you took over is played by its AI again", False, "Give Back"),
    ("playtest_autoplay", "Start Battles P&laying", None,
     "New, restarted and opened battles play at once at the chosen speed (else they "
     "start paused at turn 1)", True),
    ("playtest_save_replay", "Save &Replay...", None,
     "Save the finished battle as a replay file"),
    ("open_replay", "Open Re&play...", None, "Watch a replay file made on the open map"),
)) + ABILITY_ROWS
#: the ability actions (keys 1 to 4)
ABILITIES = tuple(row.key for row in ABILITY_ROWS)
#: the actions enabled while no playtest runs
IDLE = ("playtest", "open_replay", "playtest_autoplay")
#: the playtest tool bar's buttons, in order
BAR = ("playtest_play", "playtest_step", "playtest_turn", "playtest_pass", "playtest_back",
       "playtest_forward", "playtest_restart", "playtest_new_seed", "playtest_take_over",
       "playtest_stop")


def playtest_actions(parent: QObject, model: PlaytestModel,
                     slots: Mapping[str, Callable[[], object]],
                     aim: AbilityAim | None = None) -> dict[str, QAction]:
    """The playtest actions by key, each calling its slot, kept enabled and checked
    as the model's battle (and ``aim``, the ability being aimed) allows
    (:class:`ActionStates`)."""
    actions = build_actions(parent, PLAYTEST_ACTIONS, slots)
    ActionStates(model, actions, parent, aim)
    return actions


class ActionStates(QObject):
    """Enables and checks the playtest actions as ``model``'s battle allows: only
    Playtest, Open Replay and the autoplay choice without a battle; Save Replay
    once it is over, Pass when a person is asked for an action, Confirm while an
    attack or an area ability is previewed, Give Back once a side was taken over.
    Forward stays enabled (with nothing ahead it says so), so that Alt+Right never
    reaches the widget with the focus.  The ability actions are shown for the
    acting character's abilities (named after them, their uses left in brackets)
    and enabled when it may use them."""

    def __init__(self, model: PlaytestModel, actions: Mapping[str, QAction],
                 parent: QObject | None = None, aim: AbilityAim | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.actions = actions
        self.aim = aim
        self._idle()
        model.started.connect(self._started)
        model.stopped.connect(self._idle)
        model.changed.connect(self._changed)
        model.attack_changed.connect(self._changed)
        model.playing_changed.connect(actions["playtest_play"].setChecked)
        actions["playtest_autoplay"].setChecked(model.autoplay)
        if aim is not None:
            aim.changed.connect(self._changed)

    def _started(self) -> None:
        for key, action in self.actions.items():
            action.setEnabled(key not in ("playtest_save_replay", "playtest_confirm",
                                          "playtest_give_back", *ABILITIES))

    def _idle(self) -> None:
        for key, action in self.actions.items():
            action.setEnabled(key in IDLE)
        self.actions["playtest_play"].setChecked(False)
        self._show_abilities()

    def _show_abilities(self) -> None:
        """The ability actions of the acting character (none: all hidden)."""
        mine = self.aim.abilities() if self.aim is not None and \
            self.model.session is not None else []
        state = self.model.state if mine else None
        for k, key in enumerate(ABILITIES):
            action = self.actions[key]
            if k < len(mine) and state is not None and state.actor is not None:
                a, why = mine[k]
                text = button_text(a, a.uses_left(state, state.actor))
                action.setIconText(text)
                action.setText(f"&{k + 1} {text}")
                tip = f"{a.name}: {a.d.spec}, {a.d.ip_cost} IP" + (f" ({why})" if why else "")
                action.setToolTip(f"{tip} ({k + 1})")
                action.setStatusTip(tip)
                action.setEnabled(why is None)
                action.setVisible(True)
            else:
                action.setEnabled(False)
                action.setVisible(False)

    def _changed(self) -> None:
        s = self.model.session
        if s is None:
            return
        a = self.actions
        a["playtest_save_replay"].setEnabled(s.state.result is not None)
        a["playtest_pass"].setEnabled(self.model.human_action())
        aimed = self.aim is not None and self.aim.pending is not None
        a["playtest_confirm"].setEnabled(self.model.pending is not None or aimed)
        a["playtest_give_back"].setEnabled(bool(self.model.taken))
        a["playtest_play"].setChecked(self.model.playing)
        self._show_abilities()


class PlaytestBar(QToolBar):
    """The banner, the battle's seed, the playback buttons and the speed, shown while
    a playtest runs (the seed first: it is never pushed into the bar's overflow)."""

    def __init__(self, model: PlaytestModel, actions: Mapping[str, QAction],
                 parent: QWidget | None = None) -> None:
        super().__init__("Playtest", parent)
        self.model = model
        self.setObjectName("playtest_toolbar")
        self.banner = QLabel(BANNER)
        self.banner.setObjectName("playtest_banner")
        self.banner.setStyleSheet("QLabel { background: #e69f00; color: black; "
                                  "font-weight: bold; padding: 3px 8px; }")
        self.addWidget(self.banner)
        self.seed = QLabel()
        self.seed.setObjectName("playtest_seed")
        self.seed.setToolTip("The battle's seed: the same seed and setup play the same "
                             "battle (Restart, F9); Shift+F9 draws a new one")
        self.seed.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.seed.setContentsMargins(8, 0, 4, 0)
        self.addWidget(self.seed)
        self.addSeparator()
        self.addActions([actions[key] for key in BAR])
        self.speed = QComboBox()
        self.speed.setObjectName("playtest_speed")
        self.speed.addItems(list(SPEEDS))
        self.speed.setCurrentText(model.speed)
        self.speed.setToolTip("Speed of the AI turns")
        self.speed.currentTextChanged.connect(model.set_speed)
        model.speed_changed.connect(self._show_speed)
        self.addWidget(QLabel(" Speed "))
        self.addWidget(self.speed)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.setVisible(False)
        model.started.connect(self._show)
        model.restarted.connect(self._show_seed)
        model.stopped.connect(self.hide)

    def _show(self) -> None:
        self._show_seed()
        self.setVisible(True)

    def _show_seed(self) -> None:
        self.seed.setText(f"Seed {self.model.seed_text()}")

    def _show_speed(self, speed: str) -> None:
        if self.speed.currentText() != speed:
            self.speed.setCurrentText(speed)
