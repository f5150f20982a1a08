"""The playtest's actions (Play menu, the playtest tool bar with its banner) and
their shortcuts.  The mode (:mod:`.mode`) owns the slots; this module only
builds the buttons and keeps their enabled state in step with the battle."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QLabel, QMenu, QToolBar

from ..actions import make_action

if TYPE_CHECKING:
    from ..main_window import MainWindow
    from .mode import PlaytestMode

#: playback speeds: label -> milliseconds between AI actions (0: instant, in slices)
SPEEDS = {"x1": 800, "x2": 400, "x4": 200, "instant": 0}
BANNER = "PLAYTEST: editing is off. Esc or Stop returns to the editor"


def build_actions(win: MainWindow, mode: PlaytestMode) -> dict[str, QAction]:
    """The playtest actions, by name (``playtest``, ``playtest_stop``, ...)."""
    a: dict[str, QAction] = {}
    a["playtest"] = make_action(win, "&Playtest...", mode.enter, "F5",
                                "Play or watch a battle on this map (unsaved edits included)")
    a["playtest_stop"] = make_action(win, "&Stop Playtest", mode.stop, "Shift+F5",
                                     "Back to editing (Esc)")
    a["playtest_play"] = make_action(win, "&Play / Pause", mode.toggle_play, "F6",
                                     "Let the AI turns play out at the chosen speed",
                                     checkable=True)
    a["playtest_step"] = make_action(win, "One &Action", mode.step_action, "F7",
                                     "Play the next AI action")
    a["playtest_turn"] = make_action(win, "One &Turn", mode.step_turn, "F8",
                                     "Play to the end of the current turn")
    a["playtest_pass"] = make_action(win, "P&ass", mode.human.pass_turn, "P",
                                     "End the human character's turn")
    a["playtest_back"] = make_action(win, "Step &Back", mode.back, "Alt+Left",
                                     "Back to the start of this turn (or the one before)")
    a["playtest_forward"] = make_action(win, "Step &Forward", mode.forward, "Alt+Right",
                                        "Forward to the end of a turn played before")
    a["playtest_restart"] = make_action(win, "&Restart", mode.restart_same, "F9",
                                        "The same battle again, with the same seed")
    a["playtest_new_seed"] = make_action(win, "Restart with a &New Seed", mode.restart_new,
                                         "Shift+F9", "The same setup with a new random seed")
    a["playtest_take_over"] = make_action(win, "Take &Over", mode.take_over, "Ctrl+T",
                                          "Play the AI side whose turn it is yourself from here")
    a["playtest_save_replay"] = make_action(win, "Save &Replay...", mode.save_replay, None,
                                            "Save the finished battle as a replay file")
    a["open_replay"] = make_action(win, "Open Re&play...", mode.open_replay, None,
                                   "Watch a replay file made on the open map")
    for key in a:
        if key not in ("playtest", "open_replay"):
            a[key].setEnabled(False)
    return a


def build_menu(win: MainWindow, a: dict[str, QAction]) -> None:
    m = QMenu("P&lay", win)
    win.menuBar().insertMenu(win.help_menu.menuAction(), m)
    m.addAction(a["playtest"])
    m.addAction(a["playtest_stop"])
    m.addSeparator()
    m.addActions([a[k] for k in ("playtest_play", "playtest_step", "playtest_turn",
                                 "playtest_pass")])
    m.addSeparator()
    m.addActions([a[k] for k in ("playtest_back", "playtest_forward", "playtest_restart",
                                 "playtest_new_seed", "playtest_take_over")])
    m.addSeparator()
    m.addActions([a["playtest_save_replay"], a["open_replay"]])


class PlaytestBar(QToolBar):
    """The banner and the playback buttons, shown while a playtest runs."""

    def __init__(self, win: MainWindow, a: dict[str, QAction], mode: PlaytestMode) -> None:
        super().__init__("Playtest", win)
        self.setObjectName("playtest_toolbar")
        self.banner = QLabel(BANNER)
        self.banner.setObjectName("playtest_banner")
        self.banner.setStyleSheet("QLabel { background: #e69f00; color: black; "
                                  "font-weight: bold; padding: 3px 8px; }")
        self.addWidget(self.banner)
        self.addSeparator()
        for key, short in (("playtest_play", "Play"), ("playtest_step", "Action"),
                           ("playtest_turn", "Turn"), ("playtest_pass", "Pass"),
                           ("playtest_back", "Back"), ("playtest_forward", "Forward"),
                           ("playtest_restart", "Restart"), ("playtest_new_seed", "New Seed"),
                           ("playtest_take_over", "Take Over"), ("playtest_stop", "Stop")):
            a[key].setIconText(short)
            self.addAction(a[key])
        self.speed = QComboBox()
        self.speed.setObjectName("playtest_speed")
        self.speed.addItems(list(SPEEDS))
        self.speed.setToolTip("Speed of the AI turns")
        self.speed.currentTextChanged.connect(mode.set_speed)
        self.addWidget(QLabel(" Speed "))
        self.addWidget(self.speed)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.setVisible(False)
