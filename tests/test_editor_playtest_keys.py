"""Issue 24, Playtest: the keys work whatever has focus in the window.  Esc and
Shift+F5 leave the playtest after the Speed box was used and after a move click
(the first Esc is never swallowed by a stale attack preview); Enter confirms the
attack previewed; Alt+Right with nothing ahead leaves the log alone."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.battle.actions import Attack, refusal
from sodwa_editor.battle.events import Attacked, Moved
from sodwa_editor.editor.playtest.battle_panel import TURN_ROLE
from sodwa_editor.editor.playtest.setup_dialog import PlaytestChoice
from sodwa_editor.editor.testing import click_tile
from sodwa_editor.engine.model import Character, MapModel
from sodwa_editor.io import read_map

MAPS = Path(__file__).parents[1] / "maps"
LEFT = Qt.MouseButton.LeftButton
ALT = Qt.KeyboardModifier.AltModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def open_map(make_window, name: str):
    model, _ = read_map(MAPS / name)
    return make_window(model, MAPS / name)


def focused():
    w = QApplication.focusWidget()
    assert w is not None
    return w


def choose_speed(qtbot, win, speed: str) -> None:
    """Open the Speed box with a click and choose ``speed`` in its list with the
    arrow keys and Enter, as a person does: the box keeps the keyboard focus."""
    box = win.playtest.bar.speed
    QTest.mouseClick(box, LEFT)
    view = box.view()
    qtbot.waitUntil(view.isVisible, timeout=2000)
    row = box.findText(speed)
    key = Qt.Key.Key_Down if row > box.currentIndex() else Qt.Key.Key_Up
    for _ in range(abs(row - box.currentIndex())):
        QTest.keyClick(view, key)
    QTest.keyClick(view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not view.isVisible(), timeout=2000)
    assert box.currentText() == speed


def test_esc_leaves_the_playtest_after_the_speed_box_was_used(make_window, qtbot):
    win = open_map(make_window, "tiered-keep.json")
    mode = win.playtest
    assert mode.start(PlaytestChoice(controllers=("greedy", "greedy"), seed=3))
    choose_speed(qtbot, win, "x2")
    assert focused() is win.playtest.bar.speed
    QTest.keyClick(focused(), Qt.Key.Key_Escape)
    assert not mode.active
    assert win.scene.model is win.document.model


def test_shift_f5_leaves_the_playtest_whatever_has_focus(make_window, qtbot):
    win = open_map(make_window, "tiered-keep.json")
    mode = win.playtest
    for where in ("speed", "tsb", "log"):
        assert mode.start(PlaytestChoice(controllers=("greedy", "greedy"), seed=3))
        QTest.keyClick(win.view, Qt.Key.Key_F7)  # something in the log and the bar
        if where == "speed":
            choose_speed(qtbot, win, "x4")
        elif where == "tsb":
            button = mode.views.tsb.buttons[1]
            button.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            QTest.mouseClick(button, LEFT)
            button.setFocus()
        else:
            log = mode.panel.log
            log.setFocus()
        QTest.keyClick(focused(), Qt.Key.Key_F5, SHIFT)
        assert not mode.active, where


def duel_map() -> MapModel:
    """An archer and a knight five tiles apart on open ground: the archer can shoot
    at once, or move first."""
    m = MapModel(9, 5)
    m.characters = {"a": Character("a", "a", 1, 2, name="Archer"),
                    "e": Character("e", "b", 6, 2, name="Knight")}
    m.start_zones = {"a": [(0, 0)], "b": [(8, 0)]}
    m.notify_bulk_change()
    return m


def human_turn(qtbot, win, mode):
    """Start a Human (team 0) against pass battle and play to the person's turn."""
    assert mode.start(PlaytestChoice(controllers=("human", "pass"), seed=2))
    if not mode.playing:
        QTest.keyClick(win.view, Qt.Key.Key_F6)
    qtbot.waitUntil(lambda: mode.session.waiting is not None, timeout=30000)
    return mode.session


def test_a_move_after_an_attack_preview_drops_it_and_the_first_esc_leaves(make_window, qtbot):
    win = make_window(duel_map())
    mode = win.playtest
    s = human_turn(qtbot, win, mode)
    state = s.state
    enemy = next(iter(state.enemies(state.actor)))
    assert refusal(state, Attack(enemy)) is None
    click_tile(win.view, *state.pos[enemy])
    assert mode.human.pending == enemy  # the attack previewed
    n = len(state.events)
    click_tile(win.view, 1, 4)  # then a move instead (the preview's numbers are stale)
    assert len(state.events) > n and isinstance(state.events[n], Moved)
    assert mode.human.pending is None  # the preview went with the move
    QTest.keyClick(focused(), Qt.Key.Key_Escape)  # the first Esc leaves
    assert not mode.active


def test_enter_confirms_the_attack_previewed(make_window, qtbot):
    win = make_window(duel_map())
    mode = win.playtest
    s = human_turn(qtbot, win, mode)
    state = s.state
    enemy = next(iter(state.enemies(state.actor)))
    click_tile(win.view, *state.pos[enemy])
    assert mode.human.pending == enemy
    n = len(state.events)
    QTest.keyClick(focused(), Qt.Key.Key_Return)
    hits = [e for e in state.events[n:] if isinstance(e, Attacked)]
    assert len(hits) == 1 and hits[0].target == enemy
    assert mode.human.pending is None
    # Enter with no attack previewed does nothing
    n = len(state.events)
    QTest.keyClick(focused(), Qt.Key.Key_Return)
    assert len(state.events) == n and mode.active


def test_alt_right_with_nothing_ahead_leaves_the_log_alone(make_window, qtbot):
    """A click on a turn of the log goes back to it (the log has the keyboard then);
    Alt+Right steps forward to the furthest turn, and once more with nothing ahead:
    that one changes nothing (it used to make the log's first line current and
    scroll the log to the top)."""
    win = open_map(make_window, "rulebook-elevated-los.json")
    mode = win.playtest
    assert mode.start(PlaytestChoice(controllers=("greedy", "greedy"), seed=2))
    s = mode.session
    for _ in range(6):
        QTest.keyClick(win.view, Qt.Key.Key_F8)
    log = mode.panel.log
    furthest = s.turn
    row = next(k for k in range(log.count()) if log.item(k).data(TURN_ROLE) == 3)
    log.scrollToItem(log.item(row))
    QTest.mouseClick(log.viewport(), LEFT, pos=log.visualItemRect(log.item(row)).center())
    assert s.turn == 3 and focused() is log
    while s.turn < furthest:
        QTest.keyClick(focused(), Qt.Key.Key_Right, ALT)
    assert s.turn == s.turn_count  # nothing ahead
    where, current, events = (log.verticalScrollBar().value(), log.currentRow(),
                              len(s.state.events))
    QTest.keyClick(focused(), Qt.Key.Key_Right, ALT)
    assert len(s.state.events) == events and s.turn == furthest
    assert log.currentRow() == current and log.verticalScrollBar().value() == where
    assert "nothing ahead" in win.statusBar().currentMessage()
