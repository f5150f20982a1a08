"""Playtest mode in the editor (issue 13): F5 and the setup dialog, a human turn
with real clicks (move, attack through the attack preview, Confirm), AI turns
played on the timer, step back, stop with the document untouched, unsaved edits
played, AI against AI to the result panel, replays saved and opened, bad setups
refused with the battle package's words."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.battle.actions import Move as MoveAction
from sodwa_editor.battle.actions import refusal
from sodwa_editor.battle.clock import ActionType
from sodwa_editor.battle.events import AreaHit, Attacked, Moved, TurnStarted
from sodwa_editor.battle.replay import digest
from sodwa_editor.editor.playtest.battle_panel import TURN_ROLE
from sodwa_editor.editor.playtest.setup_dialog import PlaytestChoice, SetupDialog
from sodwa_editor.editor.testing import click_tile, move
from sodwa_editor.engine.terrain import Base
from sodwa_editor.io import map_to_dict, read_map

MAPS = Path(__file__).parents[1] / "maps"
ALT = Qt.KeyboardModifier.AltModifier


def open_map(make_window, name: str, folder: Path | None = None):
    path = MAPS / name
    if folder is not None:
        path = Path(shutil.copy(path, folder / name))
    model, _ = read_map(path)
    return make_window(model, path)


def document_snapshot(win) -> tuple:
    d = win.document
    s = d.undo_stack
    return (digest(map_to_dict(d.model)), d.model, s.index(), s.count(), s.isClean(),
            d.modified, win.isWindowModified(), d.path)


def press_f5_and_start(win, qtbot, controllers=("human", "greedy"), seed=7, cap=0):
    """F5, then set the dialog's controllers and seed and press Start (from a timer:
    the dialog is modal)."""
    seen: dict[str, object] = {}

    def fill() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, SetupDialog)
        seen["dialog"] = dlg
        for box, name in zip(dlg.teams, controllers, strict=True):
            box.controller.setCurrentIndex(box.controller.findData(name))
        dlg.seed.setValue(seed)
        dlg.cap.setValue(cap)
        seen["problem"] = dlg.problem.text()
        start = dlg.buttons.buttons()[0]
        if start.isEnabled():
            QTest.mouseClick(start, Qt.MouseButton.LeftButton)
        else:
            dlg.reject()

    QTimer.singleShot(50, fill)
    QTest.keyClick(win.view, Qt.Key.Key_F5)
    assert "dialog" in seen
    win.activateWindow()  # back from the modal dialog: the window's shortcuts work again
    qtbot.waitUntil(win.isActiveWindow, timeout=2000)
    win.view.setFocus()
    return seen


def instant(win) -> None:
    """Instant speed, and Play (F6) when paused (a new battle starts paused)."""
    win.playtest.bar.speed.setCurrentText("instant")
    if not win.playtest.playing:
        QTest.keyClick(win.view, Qt.Key.Key_F6)


def refused_replay(win, mode, path) -> str:
    """Open the replay ``path``, which is refused: the text of the dialog that says
    why (closed with its OK button)."""
    from PySide6.QtWidgets import QMessageBox

    seen: list[str] = []

    def close() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen.append(box.text())
        QTest.mouseClick(box.button(QMessageBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

    QTimer.singleShot(50, close)
    assert not mode.open_replay(path)
    assert seen, "no dialog said why"
    return seen[0]


def wait_human(qtbot, mode, timeout=30000) -> None:
    qtbot.waitUntil(lambda: mode.session.result is not None or mode.session.waiting is not None,
                    timeout=timeout)


def test_human_turn_ai_turn_step_back_and_stop_leave_the_document_untouched(
        make_window, qtbot):
    win = open_map(make_window, "rulebook-elevated-los.json")
    # an edit and its undo: a redo step, a non-clean stack, the modified mark
    win.set_tool("brush")
    click_tile(win.view, 6, 0)
    click_tile(win.view, 6, 4)
    win.document.undo()
    before = document_snapshot(win)
    assert before[2:6] == (1, 2, False, True)
    press_f5_and_start(win, qtbot, ("human", "greedy"), seed=11)
    mode = win.playtest
    assert mode.active and mode.bar.isVisible()
    assert mode.bar.banner.text().startswith("PLAYTEST")
    assert not win.action_map["undo"].isEnabled() and not win.action_map["tool_brush"].isEnabled()
    assert win.scene.model is mode.session.state.board.model  # the battle's board, not the doc
    instant(win)
    wait_human(qtbot, mode)
    s = mode.session
    if s.waiting.kind == "actor":  # a tie of the human team: click one of them
        assert set(mode.board.candidates.tiles) == {s.state.pos[i] for i in s.waiting.candidates}
        x, y = s.state.pos[s.waiting.candidates[0]]
        click_tile(win.view, x, y)
    for _ in range(40):  # move towards the enemy and pass until one is in reach
        assert s.waiting.kind == "action" and s.waiting.team == 0
        if mode.board.target_tiles:
            break
        state = s.state
        foes = [state.pos[j] for j in state.enemies(state.actor)]
        if mode.board.move_tiles:
            click_tile(win.view, *min(mode.board.move_tiles, key=lambda t: min(
                abs(t[0] - f[0]) + abs(t[1] - f[1]) for f in foes)))
        if not mode.board.target_tiles:
            QTest.keyClick(win.view, Qt.Key.Key_P)
            wait_human(qtbot, mode)
            if s.waiting is not None and s.waiting.kind == "actor":
                x, y = s.state.pos[s.waiting.candidates[0]]
                click_tile(win.view, x, y)
    state = s.state
    actor = state.actor
    # what the rules refuse is said in the status bar and changes nothing
    n = len(state.events)
    if state.turn.can_take(ActionType.MOVE):
        far = next((x, y) for y in range(state.board.height) for x in range(state.board.width)
                   if (x, y) not in mode.board.move_tiles and state.at((x, y)) is None
                   and (x, y) != state.pos[actor])
        click_tile(win.view, *far)
        assert len(state.events) == n
        assert win.statusBar().currentMessage() == refusal(state, MoveAction(far))
    # attack a marked target: the preview opens, Confirm rolls
    assert mode.board.target_tiles
    tile, target = next(iter(mode.board.target_tiles.items()))
    move(win.view, tile[0] + 0.5, tile[1] + 0.5)
    assert win.scene.previews["path"].isVisible()  # the LoS line to the hovered target
    click_tile(win.view, *tile)
    assert mode.panel.attack_box.isVisible() and mode.human.pending == target
    QTest.keyClick(win.view, Qt.Key.Key_Escape)  # Escape drops the preview, not the playtest
    assert mode.active and not mode.panel.attack_box.isVisible() and mode.human.pending is None
    assert len(state.events) == n
    click_tile(win.view, *tile)
    assert mode.panel.attack_box.isVisible() and mode.human.pending == target
    text = mode.panel.attack_text.text()
    assert "TAV" in text and "roll needed" in text
    QTest.mouseClick(mode.panel.confirm_button, Qt.MouseButton.LeftButton)
    hits = [e for e in state.events[n:] if isinstance(e, Attacked)]
    assert len(hits) == 1 and hits[0].actor == actor and hits[0].target == target
    assert "roll" in mode.panel.attack_text.text()
    # the Attack Action is spent: a second attack is refused with the engine's reason
    if not state.over and state.actor == actor and state.alive(target):
        click_tile(win.view, *state.pos[target])
        assert "already taken" in win.statusBar().currentMessage()
    # then a move through a real click on a legal tile
    if not state.over and mode.board.move_tiles:
        dest = sorted(mode.board.move_tiles)[0]
        click_tile(win.view, *dest)
        assert state.pos[actor] == dest
        assert any(isinstance(e, Moved) for e in state.events[n:])
    # Pass (P): the AI's turn plays on the timer
    turns = s.turn
    QTest.keyClick(win.view, Qt.Key.Key_P)
    qtbot.waitUntil(lambda: s.result is not None or s.turn > turns + 1 or s.waiting is not None,
                    timeout=30000)
    ai_turns = [e for e in s.state.events if isinstance(e, TurnStarted) and e.team == 1]
    assert ai_turns, "the AI played no turn"
    # step back (Alt+Left) goes to an earlier turn; forward returns
    where, logged = s.turn, len(s.state.events)
    QTest.keyClick(win.view, Qt.Key.Key_Left, ALT)
    assert s.turn <= where and len(s.state.events) < logged
    QTest.keyClick(win.view, Qt.Key.Key_Escape)  # back to editing
    assert not mode.active and not mode.bar.isVisible()
    assert document_snapshot(win) == before
    assert win.scene.model is win.document.model
    assert win.action_map["undo"].isEnabled() and win.action_map["redo"].isEnabled()
    assert win.action_map["tool_brush"].isEnabled() and win.view.tool is win.tools["brush"]


def test_playtest_uses_the_unsaved_map_and_stop_edit_f5_uses_the_new_one(
        make_window, qtbot, tmp_path):
    win = open_map(make_window, "outdoor-skirmish.json", tmp_path)
    on_disk = win.document.path.read_bytes()
    m = win.document.model
    win.set_tool("brush")
    win.state.set("terrain_id", m.registry.id_of("obstructing"))
    click_tile(win.view, 12, 16)
    assert win.document.modified
    press_f5_and_start(win, qtbot, ("pass", "pass"))
    board = win.playtest.session.state.board
    assert board.model.base_at(12, 16) is Base.OBSTRUCTING
    assert not board.standable[16][12]
    assert win.document.path.read_bytes() == on_disk  # nothing written
    QTest.keyClick(win.view, Qt.Key.Key_F5, Qt.KeyboardModifier.ShiftModifier)  # Stop
    assert not win.playtest.active
    click_tile(win.view, 13, 16)
    press_f5_and_start(win, qtbot, ("pass", "pass"))
    assert win.playtest.session.state.board.model.base_at(13, 16) is Base.OBSTRUCTING
    assert win.document.model.base_at(13, 16) is Base.OBSTRUCTING
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    assert win.document.path.read_bytes() == on_disk


def test_ai_against_ai_at_instant_speed_reaches_the_result_panel(make_window, qtbot,
                                                                  monkeypatch):
    """Instant speed plays in slices: between two slices the event loop turns (a
    timer sees the battle half played), so the window never freezes, however fast
    the AI is (short slices here, so that a fast battle still takes several)."""
    from sodwa_editor.editor.playtest import mode as playtest_mode

    monkeypatch.setattr(playtest_mode, "SLICE_MS", 2)
    win = open_map(make_window, "outdoor-skirmish.json")
    press_f5_and_start(win, qtbot, ("greedy", "greedy"), seed=4)
    mode = win.playtest
    instant(win)
    seen: list[int] = []
    probe = QTimer(win)
    probe.timeout.connect(lambda: seen.append(mode.session.state.clock.turns))
    probe.start(0)  # every turn of the event loop
    qtbot.waitUntil(lambda: mode.session.result is not None, timeout=120000)
    probe.stop()
    state = mode.session.state
    midway = {t for t in seen if 0 < t < state.clock.turns}
    assert len(midway) > 3, seen  # the event loop turned between slices of the battle
    result = mode.panel.result
    assert result.isVisible() and mode.panel.tabs.currentWidget() is result
    assert "wins" in result.title.text() or "Draw" in result.title.text()
    assert f"{state.clock.turns} turns" in result.title.text()
    assert len(result.rows) == len(state.fighters)
    dealt = sum(e.damage for e in state.events if isinstance(e, Attacked | AreaHit))
    assert sum(s.damage for s in result.stats) == dealt > 0
    assert win.playtest.actions["playtest_save_replay"].isEnabled()
    # restart with the same seed: paused at turn 1, then the same battle again
    final = state.state_hash()
    QTest.keyClick(win.view, Qt.Key.Key_F9)
    assert not mode.playing and mode.session.state.clock.turns == 1
    assert not result.isVisible()
    QTest.keyClick(win.view, Qt.Key.Key_F6)
    qtbot.waitUntil(lambda: mode.session.result is not None, timeout=120000)
    assert mode.session.state.state_hash() == final


def test_replay_saved_from_the_gui_verifies_with_the_cli_and_opens_again(
        make_window, qtbot, tmp_path, capsys):
    from sodwa_editor.cli import main

    win = open_map(make_window, "indoor-compound.json", tmp_path)
    press_f5_and_start(win, qtbot, ("human", "greedy"), seed=3)
    mode = win.playtest
    s = mode.session
    instant(win)
    wait_human(qtbot, mode)
    QTest.keyClick(win.view, Qt.Key.Key_Left, ALT)  # a step back before playing on
    QTest.keyClick(win.view, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)  # take over
    for _ in range(2000):  # the person passes every turn, the AI plays
        if s.result is not None:
            break
        w = s.waiting
        if w is None:
            QTest.keyClick(win.view, Qt.Key.Key_F8)  # one turn (play is paused by Back)
        elif w.kind == "actor":
            x, y = s.state.pos[w.candidates[-1]]
            click_tile(win.view, x, y)
        else:
            QTest.keyClick(win.view, Qt.Key.Key_P)
    assert s.result is not None
    out = mode.save_replay(tmp_path / "r.json")
    assert out is not None
    capsys.readouterr()
    assert main(["replay", str(out), "--verify"]) == 0
    assert "verified" in capsys.readouterr().out
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    assert mode.open_replay(out)
    instant(win)
    if not mode.playing:
        QTest.keyClick(win.view, Qt.Key.Key_F6)
    qtbot.waitUntil(lambda: mode.session.result is not None, timeout=60000)
    assert mode.session.state.state_hash() == s.state.state_hash()
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    # a replay whose turns do not match what it claims: refused, with why
    import json

    doc = json.loads(out.read_text())
    doc["turn_hashes"][0] = "0" * 32
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    said = refused_replay(win, mode, bad)
    assert "turn_hashes[0]: the state after turn 1 differs" in said
    assert "turn_hashes[0]: the state after turn 1 differs" in win.statusBar().currentMessage()
    # another map: refused, with why
    win.set_tool("brush")
    click_tile(win.view, 1, 1)
    assert "made on another map" in refused_replay(win, mode, out)
    assert not mode.active


@pytest.mark.parametrize("case", ["one team", "mixed teams", "over the cap", "on a wall"])
def test_bad_setups_are_refused_with_the_battle_packages_words(make_window, qtbot, tmp_path,
                                                               case):
    win = open_map(make_window, "tiered-keep.json")
    d = win.document
    if case == "one team":
        for c in list(d.model.characters.values()):
            if c.team == "defenders":
                d.remove_character(c.id)
        expected = "a battle needs characters of exactly 2 teams; the map has 1: attackers"
        seen = press_f5_and_start(win, qtbot)
        assert seen["problem"] == expected
        assert not win.playtest.active
        assert not win.playtest.start(PlaytestChoice())
        assert expected in win.statusBar().currentMessage()
    elif case == "mixed teams":
        team = tmp_path / "t.json"
        team.write_text('{"format": "sodwa-team", "format_version": 1, "name": "duo", '
                        '"members": [{"id": "a", "archetype": "Archer"}]}')
        assert not win.playtest.start(PlaytestChoice(team_files=(team, None),
                                                     zones=("attackers", None)))
        assert "one team from the map and one from a team file" in \
            win.statusBar().currentMessage()
    elif case == "on a wall":
        c = sorted(d.model.characters.values(), key=lambda c: c.id)[0]
        win.set_tool("brush")
        win.state.set("terrain_id", d.model.registry.id_of("obstructing"))
        click_tile(win.view, c.x, c.y)
        seen = press_f5_and_start(win, qtbot)
        assert seen["problem"] == (f"character {c.id!r} stands on ({c.x}, {c.y}), where no "
                                   "character may stand")
        assert not win.playtest.active
    else:
        seen = press_f5_and_start(win, qtbot, cap=10)
        assert "over the 10-point cap" in str(seen["problem"])
        dlg = seen["dialog"]
        assert any("10 cap" in b.points.text() for b in dlg.teams)
        assert not win.playtest.active


def wall_map():
    from sodwa_editor.engine.model import Character, MapModel

    m = MapModel(7, 3)
    m.terrain[1, 2] = m.registry.id_of("obstructing")
    m.characters = {"k": Character("k", "a", 1, 1, name="Knight"),
                    "e": Character("e", "b", 6, 2, name="Knight")}
    m.start_zones = {"a": [(0, 0)], "b": [(6, 0)]}
    m.notify_bulk_change()
    return m


def test_a_wall_destroyed_by_a_click_disappears_from_the_map_not_from_the_document(
        make_window, qtbot):
    win = make_window(wall_map())
    mode = win.playtest
    assert mode.start(PlaytestChoice(controllers=("human", "pass"), seed=1))
    instant(win)
    wait_human(qtbot, mode)
    s = mode.session
    state = s.state
    threshold = state.rules.terrain.obstruction_damage_threshold
    for _ in range(threshold + 2):  # one strike per turn until the wall falls
        if (2, 1, "") in s.state.destroyed:
            break
        assert s.waiting.kind == "action"
        click_tile(win.view, 2, 1)
        if s.waiting is not None:  # the Move Action is left: pass
            QTest.keyClick(win.view, Qt.Key.Key_P)
        wait_human(qtbot, mode)
    state = s.state
    assert (2, 1, "") in state.destroyed
    assert win.scene.model is state.board.model  # the scene shows the battle's board
    assert win.scene.model.base_at(2, 1) is not Base.OBSTRUCTING
    assert win.document.model.base_at(2, 1) is Base.OBSTRUCTING  # the map is untouched
    move(win.view, 2.5, 1.5)
    assert "obstructing" not in win.terrain_label.text()  # the status bar reads the board
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    assert win.scene.model.base_at(2, 1) is Base.OBSTRUCTING


def test_log_jump_defeated_tokens_and_forward(make_window, qtbot):
    win = open_map(make_window, "rulebook-elevated-los.json")
    mode = win.playtest
    assert mode.start(PlaytestChoice(controllers=("greedy", "greedy"), seed=2))
    instant(win)
    qtbot.waitUntil(lambda: mode.session.result is not None, timeout=120000)
    s = mode.session
    state = s.state
    alive = [i for i in range(len(state.fighters)) if state.alive(i)]
    assert sorted(mode.board.tokens) == alive  # the defeated left the map
    assert len(alive) < len(state.fighters)
    log = mode.panel.log
    rows = [log.item(k) for k in range(log.count())]
    turn3 = next(r for r in rows if r.data(TURN_ROLE) == 3)
    assert " turn    3 " in turn3.text() and turn3.font().bold()
    log.scrollToItem(turn3)
    rect = log.visualItemRect(turn3)
    QTest.mouseClick(log.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert s.turn == 3 and s.state.clock.turns == 2 and s.state.turn is None
    assert sorted(mode.board.tokens) == [i for i in range(len(s.state.fighters))
                                         if s.state.alive(i)]
    greyed = [log.item(k).foreground().color().name() for k in range(log.count())]
    assert "#969696" in greyed  # the turns ahead, greyed
    QTest.keyClick(win.view, Qt.Key.Key_Right, ALT)
    assert s.turn == 4
    while s.turn < s.turn_count:
        QTest.keyClick(win.view, Qt.Key.Key_Right, ALT)
    assert s.result is not None and s.state.state_hash() == state.state_hash()
    assert mode.panel.result.isVisible()  # the Result tab, back at the end


def test_pause_one_action_one_turn_and_speeds(make_window, qtbot):
    win = open_map(make_window, "tiered-keep.json")
    mode = win.playtest
    assert mode.start(PlaytestChoice(controllers=("greedy", "random"), seed=5))
    # a new battle starts paused, at the start of turn 1
    assert not mode.playing and not mode.timer.isActive()
    s = mode.session
    assert s.state.turn is not None
    assert [e.kind for e in s.state.events] == ["first_tie", "turn_started"]
    QTest.keyClick(win.view, Qt.Key.Key_F8)  # one turn: to its end
    assert s.state.turn is None and s.turn == 2
    assert mode.board.ring.isVisible() is False
    for speed, ms in (("x2", 400), ("x4", 200), ("x1", 800)):
        win.playtest.bar.speed.setCurrentText(speed)
        QTest.keyClick(win.view, Qt.Key.Key_F6)  # play: the timer runs at the speed
        assert mode.playing and mode.timer.interval() == ms and mode.timer.isActive()
        QTest.keyClick(win.view, Qt.Key.Key_F6)
        assert not mode.timer.isActive()


def test_the_session_plays_what_the_turn_loop_plays_and_replays_after_going_back():
    from sodwa_editor.battle.loop import run_battle
    from sodwa_editor.battle.session import BattleSession
    from sodwa_editor.editor.playtest.setup_dialog import build_setup

    model, _ = read_map(MAPS / "tiered-keep.json")
    setup = build_setup(model, PlaytestChoice(controllers=("greedy", "random"), seed=9))
    state = setup.state(9)
    out = run_battle(state, setup.controllers(state))
    s = BattleSession(setup, ["greedy", "random"], seed=9)
    while s.result is None:
        s.step_action()
    assert [e.to_dict() for e in s.state.events] == [e.to_dict() for e in out.events]
    assert s.decisions == out.decisions
    final = s.state.state_hash()
    s.go_to_turn(4)
    assert s.state.clock.turns == 3 and s.state.turn is None
    while s.result is None:  # the AIs, from the same streams, play the same battle
        s.step_action()
    assert s.state.state_hash() == final and s.turn_count == s.turn


def test_the_characters_layer_toggle_and_opacity_apply_to_the_battle_tokens(
        make_window, qtbot):
    win = open_map(make_window, "tiered-keep.json")
    press_f5_and_start(win, qtbot, ("greedy", "greedy"), seed=5)
    mode = win.playtest
    tokens = list(mode.board.tokens.values())
    assert tokens and all(t.isVisible() for t in tokens)
    box = win.layers.boxes["characters"]
    QTest.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
    assert not box.isChecked()
    assert not any(t.isVisible() for t in mode.board.tokens.values())
    QTest.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
    assert all(t.isVisible() for t in mode.board.tokens.values())
    win.scene.set_layer_opacity("characters", 0.4)
    assert all(abs(t.effectiveOpacity() - 0.4) < 1e-6 for t in mode.board.tokens.values())
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not mode.active, timeout=5000)
