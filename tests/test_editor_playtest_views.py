"""The playtest model and every view of it built alone from it (no main window):
the model's signals as a battle plays, goes back and ends; the Turn-Sequence Bar,
the Character Panels, the Battle dock (status, Battle Information Panel, log), the
result panel, the board items and the controls, driven with real events and
checked for what they show."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget

from sodwa_editor.battle.actions import Attack, refusal
from sodwa_editor.battle.events import Attacked, TurnStarted
from sodwa_editor.battle.session import BattleSession
from sodwa_editor.editor.playtest.model import PlaytestModel
from sodwa_editor.editor.playtest.setup_dialog import PlaytestChoice, build_setup
from sodwa_editor.io import read_map

MAPS = Path(__file__).parents[1] / "maps"
LEFT = Qt.MouseButton.LeftButton


def battle(name="tiered-keep.json", controllers=("greedy", "random"), seed=9, pm=None):
    """A playtest model with a battle begun on ``name`` (paused at the start of turn
    1, as a new battle starts: the test steps it)."""
    model, _ = read_map(MAPS / name)
    setup = build_setup(model, PlaytestChoice(controllers=controllers, seed=seed))
    pm = pm if pm is not None else PlaytestModel()
    pm.begin(BattleSession(setup, list(controllers), seed=seed), model)
    return pm


def shown(qtbot, widget: QWidget) -> QWidget:
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


class Recorder:
    """Every signal of a playtest model, with its arguments, in order."""

    NAMES = ("started", "stopped", "changed", "turn_started", "action_resolved",
             "result_changed", "human_to_act", "speed_changed", "playing_changed",
             "attack_changed", "picked_changed", "message")

    def __init__(self, pm: PlaytestModel) -> None:
        self.seen: list[tuple] = []
        for name in self.NAMES:
            getattr(pm, name).connect(lambda *args, n=name: self.seen.append((n, *args)))

    def names(self) -> list[str]:
        return [s[0] for s in self.seen]

    def of(self, name: str) -> list[tuple]:
        return [s[1:] for s in self.seen if s[0] == name]


def test_the_model_tells_turns_actions_the_result_speed_and_a_person_to_act(qtbot):
    pm = PlaytestModel()
    rec = Recorder(pm)
    battle(pm=pm)  # begun paused at the start of turn 1
    s = pm.session
    assert rec.names()[:2] == ["playing_changed", "started"] and not pm.playing
    assert rec.of("turn_started") == [(1,)] and s.state.turn is not None
    assert rec.of("action_resolved")[0][0] == s.state.events[:2]  # the first-tie coin, turn 1
    assert rec.names()[-1] == "changed"
    while s.result is None:
        pm.step_turn()
    turns = [e.to_dict()["turn"] for e in s.state.events if isinstance(e, TurnStarted)]
    assert [t for (t,) in rec.of("turn_started")] == turns
    resolved = [e for (events,) in rec.of("action_resolved") for e in events]
    assert resolved == s.state.events  # every event told once, in order
    assert rec.of("result_changed") == [(s.state.result,)]
    pm.back()  # no longer over
    assert rec.of("result_changed")[-1] == (None,) and rec.of("playing_changed")[-1] == (False,)
    pm.set_speed("x4")
    pm.set_speed("x4")  # the same speed: said once
    assert rec.of("speed_changed") == [("x4",)]
    pm.set_speed("warp")
    assert pm.speed == "x1"
    human = battle("rulebook-elevated-los.json", ("human", "greedy"), 7)
    rec = Recorder(human)
    human.set_speed("instant")
    human.set_playing(True)
    qtbot.waitUntil(lambda: human.waiting() is not None, timeout=30000)
    asked = rec.of("human_to_act")
    assert asked and asked[-1] == (human.waiting(),) and human.waiting().team == 0
    human.end()
    assert rec.names()[-1] == "stopped" and not human.running


def test_the_turn_sequence_bar_follows_the_model_and_a_click_names_the_character(qtbot):
    from sodwa_editor.editor.playtest.tsb_bar import TurnSequenceBar

    pm = battle()
    bar = shown(qtbot, TurnSequenceBar(pm, length=6))
    assert not any(b.isVisible() for b in bar.buttons)  # nothing drawn before a change
    pm.step_action()
    state = pm.state
    assert bar.entries[0].actor == state.actor and bar.entries[0].now
    assert [b.text().split("\n")[0] for b in bar.buttons if b.isVisible()] == [
        state.names[e.actor] for e in bar.entries]
    assert len(bar.entries) == 7  # the actor, then six predicted turns
    with qtbot.waitSignal(bar.picked) as got:
        QTest.mouseClick(bar.buttons[2], LEFT)
    assert got.args == [bar.entries[2].actor]
    while pm.session.result is None:
        pm.step_turn()
    assert bar.entries == [] and bar.over.isVisible()


def test_the_character_panels_show_the_active_and_the_picked_character(qtbot):
    from sodwa_editor.editor.playtest.character_panel import CharacterPanel

    pm = battle()
    active = shown(qtbot, CharacterPanel("Active character", pm, "active"))
    picked = shown(qtbot, CharacterPanel("Selected character", pm, "picked"))
    pm.refresh()
    state = pm.state
    assert active.index == state.actor and state.names[state.actor] in active.name.text()
    # nobody picked yet: the right panel says how to pick one (no empty sheet, no
    # "HP 0 / 1" bar)
    assert picked.index is None and picked.pages.currentWidget() is picked.hint
    assert not picked.shot.isVisible() and "Click a character" in picked.hint.text()
    pm.step_turn()
    pm.step_action()  # between turns the next actor; then its turn starts
    assert active.index == pm.state.actor
    while not any(isinstance(e, Attacked) and e.damage > 0 for e in pm.state.events):
        pm.step_action()
    state = pm.state
    hit = next(e for e in state.events if isinstance(e, Attacked) and e.damage > 0)
    pm.pick(hit.target)
    assert picked.index == hit.target and state.names[hit.target] in picked.name.text()
    assert picked.value("Initiative", "IP") == str(state.clock.ip[hit.target])
    hp = state.hp[hit.target] if state.alive(hit.target) else 0
    assert picked.shot.hp == hp < state.sheets[hit.target].health
    assert picked.pages.currentIndex() == 1 and picked.shot.isVisible()


def duel():
    """Two knights side by side: the person's can attack at once."""
    from sodwa_editor.engine.model import Character, MapModel

    m = MapModel(5, 3)
    m.characters = {"k": Character("k", "a", 1, 1, name="Knight"),
                    "e": Character("e", "b", 2, 1, name="Knight")}
    m.start_zones = {"a": [(0, 0)], "b": [(4, 0)]}
    m.notify_bulk_change()
    setup = build_setup(m, PlaytestChoice(controllers=("human", "pass"), seed=2))
    pm = PlaytestModel()
    pm.begin(BattleSession(setup, ["human", "pass"], seed=2), m)
    pm.set_playing(True)
    return pm


def test_the_battle_panel_shows_status_log_and_the_attack_to_confirm(qtbot):
    from sodwa_editor.editor.playtest.battle_panel import TURN_ROLE, BattlePanel

    pm = duel()
    panel = shown(qtbot, BattlePanel(pm))
    pm.set_speed("instant")
    qtbot.waitUntil(lambda: pm.waiting() is not None, timeout=30000)
    s = pm.session
    assert panel.status.text() == pm.status_text() and "Human" in panel.status.text()
    assert panel.log.count() == len(s.state.events)
    state = s.state
    actor = state.actor
    target = next(iter(state.enemies(actor)))
    assert refusal(state, Attack(target)) is None
    assert pm.preview_attack(target) is None
    assert panel.attack_box.isVisible() and panel.confirm_button.isVisible()
    assert "TAV" in panel.attack_text.text()
    assert state.names[target] in panel.attack_text.text()
    with qtbot.waitSignal(panel.cancel):
        QTest.mouseClick(panel.cancel_button, LEFT)
    pm.cancel_attack()
    assert not panel.attack_box.isVisible()
    pm.preview_attack(target)
    with qtbot.waitSignal(panel.confirm):
        QTest.mouseClick(panel.confirm_button, LEFT)
    n = len(state.events)
    pm.confirm_attack()
    assert panel.attack_box.isVisible() and not panel.confirm_button.isVisible()
    assert panel.attack_text.text().startswith(f"<b>{state.names[actor]} attacked")
    assert ": Hit</b>" in panel.attack_text.text() or ": Miss</b>" in panel.attack_text.text()
    assert any(isinstance(e, Attacked) for e in s.state.events[n:])
    assert panel.log.count() == len(s.state.events)
    # the Attack Action is spent: a second one is refused with the rules' words
    said: list[str] = []
    pm.message.connect(said.append)
    assert pm.preview_attack(target) == said[-1] and "already taken" in said[-1]
    assert " attacked " in panel.attack_text.text()  # still the roll
    turn = next(k for k in range(panel.log.count()) if panel.log.item(k).data(TURN_ROLE) == 1)
    rect = panel.log.visualItemRect(panel.log.item(turn))
    with qtbot.waitSignal(panel.turn_clicked) as got:
        QTest.mouseClick(panel.log.viewport(), LEFT, pos=rect.center())
    assert got.args == [1]
    pm.end()
    assert not panel.attack_box.isVisible()


def test_the_result_panel_shows_at_the_end_and_goes_when_going_back(qtbot):
    from sodwa_editor.editor.playtest.result_panel import ResultPanel

    pm = battle("indoor-compound.json", ("random", "random"), 3)
    result = shown(qtbot, ResultPanel(pm))
    pm.refresh()
    assert result.stats == [] and result.table.rowCount() == 0
    while pm.session.result is None:
        pm.step_turn()
    state = pm.state
    assert len(result.rows) == len(state.fighters) and result.table.rowCount() > len(state.fighters)
    assert f"{state.clock.turns} turns" in result.title.text()
    with qtbot.waitSignal(result.save_replay):
        QTest.mouseClick(result.save_button, LEFT)
    pm.back()
    assert result.stats == [] and result.table.rowCount() == 0


def test_the_board_items_draw_the_battle_on_the_scene_and_leave_with_it(qtbot):
    from sodwa_editor.editor.playtest.board_items import BattleBoard
    from sodwa_editor.editor.scene.map_scene import MapScene

    model, _ = read_map(MAPS / "tiered-keep.json")
    scene = MapScene(model)
    pm = PlaytestModel()
    board = BattleBoard(scene, pm)
    setup = build_setup(model, PlaytestChoice(controllers=("greedy", "random"), seed=9))
    pm.begin(BattleSession(setup, ["greedy", "random"], seed=9), model)
    state = pm.state  # paused at the start of turn 1
    assert scene.model is state.board.model  # the battle's own board
    assert sorted(board.tokens) == [i for i in range(len(state.fighters)) if state.alive(i)]
    for i, token in board.tokens.items():
        assert (token.character.x, token.character.y) == state.pos[i]
    assert board.ring.isVisible() and board.ring.scene() is scene
    assert board.move_tiles and scene.previews["reach"].isVisible()
    pm.end()
    assert board.ring.scene() is None and board.tokens == {}
    assert not scene.previews["reach"].isVisible()


def test_the_controls_follow_the_model(qtbot):
    from sodwa_editor.editor.playtest.controls import PlaytestBar, playtest_actions

    pm = PlaytestModel()
    calls: list[str] = []
    owner = QWidget()
    qtbot.addWidget(owner)
    actions = playtest_actions(owner, pm, {"playtest_step": lambda: calls.append("step")})
    bar = PlaytestBar(pm, actions, owner)
    idle = ["playtest", "playtest_autoplay", "open_replay"]
    assert [k for k, a in actions.items() if a.isEnabled()] == idle
    model, _ = read_map(MAPS / "rulebook-elevated-los.json")
    setup = build_setup(model, PlaytestChoice(controllers=("human", "greedy"), seed=7))
    pm.begin(BattleSession(setup, ["human", "greedy"], seed=7), model)
    owner.show()
    assert bar.isVisible() and not actions["playtest_play"].isChecked()  # paused at turn 1
    assert bar.seed.text() == "Seed 7"
    pm.set_playing(True)
    assert actions["playtest_play"].isChecked()
    assert not actions["playtest_save_replay"].isEnabled()
    bar.speed.setFocus()
    QTest.keyClick(bar.speed, Qt.Key.Key_Down)  # x1 -> x2
    assert pm.speed == "x2" and pm.timer.interval() == 400
    pm.set_speed("instant")
    assert bar.speed.currentText() == "instant"
    qtbot.waitUntil(lambda: pm.waiting() is not None, timeout=30000)
    assert actions["playtest_pass"].isEnabled() == pm.human_action()
    QTest.mouseClick(bar.widgetForAction(actions["playtest_step"]), LEFT)
    assert calls == ["step"]
    pm.toggle_play()
    assert not actions["playtest_play"].isChecked()
    pm.end()
    assert not bar.isVisible()
    assert [k for k, a in actions.items() if a.isEnabled()] == idle


def test_a_person_clicks_through_the_human_turn(qtbot):
    """The person's clicks on a map view whose tool is the playtest's (no window)
    decide in the model; what the rules refuse is said and changes nothing;
    Escape goes to the mode's escape."""
    from sodwa_editor.editor.playtest.board_items import BattleBoard
    from sodwa_editor.editor.playtest.human_turn import HumanTurn, PlaytestTool
    from sodwa_editor.editor.scene.map_scene import MapScene
    from sodwa_editor.editor.testing import click_tile, move
    from sodwa_editor.editor.view import MapView

    model, _ = read_map(MAPS / "rulebook-elevated-los.json")
    pm = PlaytestModel()
    scene = MapScene(model)
    board = BattleBoard(scene, pm)
    human = HumanTurn(pm, board)
    escaped: list[bool] = []
    view = shown(qtbot, MapView(scene))
    view.resize(900, 600)
    view.set_tool(PlaytestTool(human, lambda: escaped.append(True)))
    view.zoom_fit()
    setup = build_setup(model, PlaytestChoice(controllers=("human", "pass"), seed=5))
    pm.begin(BattleSession(setup, ["human", "pass"], seed=5), model)
    pm.set_speed("instant")
    pm.set_playing(True)
    qtbot.waitUntil(lambda: pm.waiting() is not None, timeout=30000)
    if pm.waiting().kind == "actor":
        click_tile(view, *pm.state.pos[pm.waiting().candidates[0]])
    state = pm.state
    actor = state.actor
    said: list[str] = []
    pm.message.connect(said.append)
    far = next((x, y) for y in range(state.board.height) for x in range(state.board.width)
               if (x, y) not in board.move_tiles and state.at((x, y)) is None
               and state.board.standable[y][x] and (x, y) != state.pos[actor])
    n = len(state.events)
    click_tile(view, *far)
    assert len(state.events) == n and said and state.pos[actor] != far
    dest = sorted(board.move_tiles)[0]
    move(view, dest[0] + 0.5, dest[1] + 0.5)
    assert scene.previews["path"].isVisible() and said[-1].startswith("move to")
    click_tile(view, *dest)
    assert state.pos[actor] == dest
    enemy = next(iter(state.enemies(actor)))
    click_tile(view, *state.pos[enemy])
    assert pm.picked == enemy  # shown in the right panel, attacked or not
    QTest.keyClick(view, Qt.Key.Key_Escape)
    assert escaped == [True]  # the mode decides: drop the attack preview, else stop
    human.pass_turn()
    assert pm.state.turn is None or pm.state.actor != actor  # the turn ended
