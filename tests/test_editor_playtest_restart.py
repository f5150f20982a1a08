"""Issue 24, Playtest: Take Over can be given back and Restart replays the battle
as set up; new, restarted and opened battles start paused at turn 1 (also at
"instant" speed) unless the user chose otherwise, explicitly; the seed is shown
as a number, also after restarting a watched replay."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu

from sodwa_editor.editor.playtest.setup_dialog import PlaytestChoice, SetupDialog
from sodwa_editor.io import read_map

MAPS = Path(__file__).parents[1] / "maps"
LEFT = Qt.MouseButton.LeftButton
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def open_map(make_window, name: str):
    model, _ = read_map(MAPS / name)
    return make_window(model, MAPS / name)


def key(win, k, mods=Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(win.view, k, mods)


def side_now(s) -> int:
    """The side whose turn it is, or the next one's."""
    state = s.state
    who = state.actor if state.actor is not None else state.clock.predict(1)[0].actor
    return state.team[who]


def play_out(win, s, turns: int = 500) -> None:
    """F8 (one turn) until the battle is over (at most ``turns`` times)."""
    for _ in range(turns):
        if s.result is not None:
            return
        key(win, Qt.Key.Key_F8)
    raise AssertionError(f"the battle did not end: {win.statusBar().currentMessage()}")


def settle(qtbot, ms: int = 400) -> None:
    """Let the event loop turn for ``ms`` (an AI playing on its timer would play)."""
    qtbot.wait(ms)


def test_take_over_is_given_back_and_restart_plays_the_battle_as_set_up(make_window, qtbot):
    win = open_map(make_window, "tiered-keep.json")
    mode = win.playtest
    assert mode.start(PlaytestChoice(controllers=("greedy", "random"), seed=5))
    players = ("greedy", "random")
    for restart in (Qt.Key.Key_F9, "shift+f9"):
        s = mode.session
        if mode.playing:
            key(win, Qt.Key.Key_F6)
        if s.state.actor is None:
            key(win, Qt.Key.Key_F7)
        team = side_now(s)
        key(win, Qt.Key.Key_T, CTRL)  # Take Over: the side whose turn it is
        assert mode.session.is_human(team)
        if restart == Qt.Key.Key_F9:
            key(win, Qt.Key.Key_F9)
        else:
            key(win, Qt.Key.Key_F9, SHIFT)
        s = mode.session
        # the battle as set up: both sides played by their AIs again
        assert [s.player(t) for t in (0, 1)] == list(players), restart
        assert not s.is_human(team) and s.state.clock.turns == 1
    # the new seed of Shift+F9 is the one shown, and the one F9 plays again
    seed = mode.session.seed
    assert seed != 5 and mode.bar.seed.text() == f"Seed {seed}"
    key(win, Qt.Key.Key_F9)
    assert mode.session.seed == seed and mode.bar.seed.text() == f"Seed {seed}"
    # Give Back (Play menu, Ctrl+Shift+T): the side taken over is its AI's again
    s = mode.session
    team = side_now(s)
    key(win, Qt.Key.Key_T, CTRL)
    give_back = mode.actions["playtest_give_back"]
    assert give_back.isEnabled()
    trigger_from_menu(qtbot, win, "Play", give_back)  # clicked in the Play menu
    assert not s.is_human(team) and s.player(team) == players[team]
    assert not give_back.isEnabled()
    assert "is played by AI" in win.statusBar().currentMessage()
    events = len(s.state.events)
    key(win, Qt.Key.Key_F8)  # its AI plays the turn (no person is asked)
    assert s.waiting is None and len(s.state.events) > events
    team = side_now(s)  # and by its key, Ctrl+Shift+T
    key(win, Qt.Key.Key_T, CTRL)
    assert s.is_human(team)
    key(win, Qt.Key.Key_T, CTRL | SHIFT)
    assert not s.is_human(team) and s.player(team) == players[team]


def test_restart_watches_a_replay_again_with_its_seed_shown_as_a_number(
        make_window, qtbot, tmp_path):
    win = open_map(make_window, "indoor-compound.json")
    mode = win.playtest
    assert mode.start(PlaytestChoice(controllers=("greedy", "greedy"), seed=7))
    s = mode.session
    play_out(win, s)
    final = s.state.state_hash()
    replay = mode.save_replay(tmp_path / "r.json")
    assert replay is not None
    key(win, Qt.Key.Key_Escape)
    assert mode.open_replay(replay)
    s = mode.session
    team = side_now(s)
    key(win, Qt.Key.Key_T, CTRL)  # take a side of the replay over, then restart
    key(win, Qt.Key.Key_F9)
    said = win.statusBar().currentMessage()
    assert said.startswith("restarted with seed 7") and "SeedSequence" not in said
    s = mode.session
    assert s.scripted(team) and not s.asks_person(team)  # the replay plays it again
    play_out(win, s)  # the battle recorded (a restarted replay used to play another)
    assert s.state.state_hash() == final
    # the seed is in the playtest bar, as a number, whatever the focus or the width
    assert mode.bar.seed.text() == "Seed 7" and mode.bar.seed.isVisible()
    assert mode.bar.seed.geometry().right() < mode.bar.width()


def trigger_from_menu(qtbot, win, title: str, action) -> None:
    """Click ``title`` in the menu bar, then ``action`` in the menu it opens."""
    bar = win.menuBar()
    menu_action = next(a for a in bar.actions() if a.text().replace("&", "") == title)
    QTest.mouseClick(bar, LEFT, pos=bar.actionGeometry(menu_action).center())
    menu = menu_action.menu()
    assert isinstance(menu, QMenu)
    qtbot.waitUntil(menu.isVisible, timeout=2000)
    QTest.mouseClick(menu, LEFT, pos=menu.actionGeometry(action).center())


def start_from_dialog(win, qtbot, controllers, seed) -> None:
    def fill() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, SetupDialog)
        for box, name in zip(dlg.teams, controllers, strict=True):
            box.controller.setCurrentIndex(box.controller.findData(name))
        dlg.seed.setValue(seed)
        QTest.mouseClick(dlg.buttons.buttons()[0], LEFT)

    QTimer.singleShot(50, fill)
    key(win, Qt.Key.Key_F5)
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=2000)
    win.view.setFocus()


def at_turn_one_paused(mode) -> bool:
    s = mode.session
    return (not mode.playing and not mode.timer.isActive() and s.result is None
            and s.state.clock.turns == 1 and s.state.actor is not None)


@pytest.mark.parametrize("how", ["F9 while paused", "F9 at instant", "Shift+F9 at instant",
                                 "F5 at instant", "Open Replay at instant"])
def test_new_restarted_and_opened_battles_start_paused_at_turn_one(
        make_window, qtbot, tmp_path, monkeypatch, how):
    win = open_map(make_window, "tiered-keep.json")
    mode = win.playtest
    start_from_dialog(win, qtbot, ("greedy", "greedy"), 4)
    assert at_turn_one_paused(mode)
    if how == "F9 while paused":
        key(win, Qt.Key.Key_F6)  # play, then pause again
        key(win, Qt.Key.Key_F6)
        key(win, Qt.Key.Key_F8)
        key(win, Qt.Key.Key_F9)
    else:
        mode.bar.speed.setCurrentText("instant")
        if how == "F9 at instant":
            key(win, Qt.Key.Key_F9)
        elif how == "Shift+F9 at instant":
            key(win, Qt.Key.Key_F9, SHIFT)
        elif how == "F5 at instant":
            key(win, Qt.Key.Key_Escape)
            start_from_dialog(win, qtbot, ("greedy", "greedy"), 9)
        else:
            key(win, Qt.Key.Key_F6)
            qtbot.waitUntil(lambda: mode.session.result is not None, timeout=120000)
            path = mode.save_replay(tmp_path / "r.json")
            key(win, Qt.Key.Key_Escape)
            monkeypatch.setattr(QFileDialog, "getOpenFileName",
                                lambda *a, **k: (str(path), "Replays (*.json)"))
            trigger_from_menu(qtbot, win, "File", win.action_map["open_replay"])
            qtbot.waitUntil(lambda: mode.active, timeout=5000)
    settle(qtbot)
    assert mode.model.speed == ("x1" if how == "F9 while paused" else "instant")
    assert at_turn_one_paused(mode), how
    assert not win.action_map["playtest_play"].isChecked()


def test_the_user_may_choose_that_battles_start_playing(make_window, qtbot):
    win = open_map(make_window, "tiered-keep.json")
    mode = win.playtest
    autoplay = mode.actions["playtest_autoplay"]
    trigger_from_menu(qtbot, win, "Play", autoplay)
    assert autoplay.isChecked()
    assert win.settings.value("playtest/autoplay") == "true"  # remembered
    assert mode.start(PlaytestChoice(controllers=("greedy", "greedy"), seed=4))
    assert mode.playing and mode.timer.isActive()
    key(win, Qt.Key.Key_F6)
    key(win, Qt.Key.Key_F9)
    assert mode.playing
    key(win, Qt.Key.Key_Escape)
    trigger_from_menu(qtbot, win, "Play", autoplay)
    assert not autoplay.isChecked()
    assert mode.start(PlaytestChoice(controllers=("greedy", "greedy"), seed=4))
    assert at_turn_one_paused(mode)


def test_a_replay_that_cannot_be_watched_is_refused_in_a_dialog(make_window, qtbot,
                                                                  tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    win = open_map(make_window, "tiered-keep.json")
    bad = tmp_path / "broken.json"
    bad.write_text(json.dumps({"format": "sodwa-replay"}))
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *a, **k: (str(bad), "Replays (*.json)"))
    seen: list[str] = []

    def close() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen.append(box.text())
        QTest.mouseClick(box.button(QMessageBox.StandardButton.Ok), LEFT)

    QTimer.singleShot(300, close)
    trigger_from_menu(qtbot, win, "File", win.action_map["open_replay"])
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)
    assert seen[0].startswith("Cannot watch the replay broken.json")
    assert not win.playtest.active
