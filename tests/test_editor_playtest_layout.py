"""Issue 24, Playtest: the Battle UI laid out as the rulebook draws it (RB *The
Battle UI*): the Turn-Sequence Bar across the top with the characters'
portraits, the active character's panel bottom left, the Battle Information
Panel in the bottom middle (with the hovered tile's terrain and the log beside
the attack, never squeezed by it), the clicked character's panel bottom right;
each panel's Action Shot with HP (red bars) and DR over it, a roster's portrait
image; the last attack cleared when the next turn begins; a readable result;
one naming of the sides everywhere; stale status lines taken back."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json
import re
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QGroupBox, QLabel, QWidget

from sodwa_editor.battle.events import Attacked, TerrainAttacked
from sodwa_editor.battle.jsonfiles import BattleInputError
from sodwa_editor.battle.session import BattleSession
from sodwa_editor.battle.sheet import DEFAULT_ROSTER_PATH, roster_from_dict
from sodwa_editor.editor.playtest.model import PlaytestModel
from sodwa_editor.editor.playtest.setup_dialog import PlaytestChoice, SetupDialog, build_setup
from sodwa_editor.editor.testing import click_tile, move
from sodwa_editor.engine.model import Character, MapModel
from sodwa_editor.io import read_map

MAPS = Path(__file__).parents[1] / "maps"
LEFT = Qt.MouseButton.LeftButton
BOTTOM = Qt.DockWidgetArea.BottomDockWidgetArea


def open_map(make_window, name: str):
    model, _ = read_map(MAPS / name)
    return make_window(model, MAPS / name)


def rect_in(win, w: QWidget) -> QRect:
    """``w``'s rectangle in window coordinates."""
    return QRect(w.mapTo(win, QPoint(0, 0)), w.size())


def corners(win) -> list[Qt.DockWidgetArea]:
    return [win.corner(c) for c in (Qt.Corner.BottomLeftCorner, Qt.Corner.BottomRightCorner)]


def duel_map() -> MapModel:
    """An archer (left, team 0) and a knight (right, team 1) five tiles apart, a
    wall beside."""
    m = MapModel(9, 5)
    m.terrain[0, 4] = m.registry.id_of("obstructing")
    m.characters = {"a": Character("a", "left", 1, 2, name="Archer"),
                    "e": Character("e", "right", 6, 2, name="Knight")}
    m.start_zones = {"left": [(0, 0)], "right": [(8, 0)]}
    m.notify_bulk_change()
    return m


def human_turn(qtbot, win, controllers=("human", "pass")):
    mode = win.playtest
    assert mode.start(PlaytestChoice(controllers=controllers, seed=2))
    if not mode.playing:
        QTest.keyClick(win.view, Qt.Key.Key_F6)
    qtbot.waitUntil(lambda: mode.session.waiting is not None, timeout=30000)
    return mode, mode.session


def test_the_battle_ui_is_laid_out_as_the_rulebook_draws_it(make_window, qtbot):
    win = make_window(duel_map())
    assert (win.width(), win.height()) == (1280, 860)  # the default window
    before = corners(win)
    mode, s = human_turn(qtbot, win)
    views, state = mode.views, s.state
    # the bottom area: one dock of the bottom area, across the whole window
    assert win.dockWidgetArea(views.dock) == BOTTOM and views.dock.isVisible()
    # (Reset Layout would restore the editor's docks and hide it: off meanwhile)
    assert not win.action_map["reset_layout"].isEnabled()
    area = rect_in(win, views.dock)
    assert area.left() <= 2 and win.width() - 3 <= area.right() < win.width()  # not wider
    view = rect_in(win, win.view)
    tsb = rect_in(win, views.tsb_bar)
    active, bip, picked = (rect_in(win, w) for w in (
        views.active_panel, views.bip, views.picked_panel))
    assert tsb.bottom() <= view.top()  # the TSB across the top
    for r in (active, bip, picked):  # the panels under the map
        assert r.top() >= view.bottom() and r.height() >= 140
    assert active.right() <= bip.left() and bip.right() <= picked.left()  # left, middle, right
    assert active.left() <= 6 and picked.right() >= win.width() - 7
    # no Battle dock in the right dock area any more
    assert all(win.dockWidgetArea(d) != Qt.DockWidgetArea.RightDockWidgetArea
               for d in win.findChildren(type(views.dock)) if d.objectName().startswith("battle"))
    # nobody picked yet: the right panel says how to pick one, no empty "HP 0 / 1" bar
    assert views.picked_panel.pages.currentWidget() is views.picked_panel.hint
    assert not views.picked_panel.shot.isVisible()
    # the TSB and the panels show the same portraits
    actor = state.actor
    assert views.tsb.buttons[0].portrait.cacheKey() == mode.model.portraits.pixmap(
        actor, 40).cacheKey()
    assert views.active_panel.shot.portrait.cacheKey() == mode.model.portraits.pixmap(
        actor, views.active_panel.shot.side).cacheKey()
    # the attack previewed sits beside the log: the log keeps its height
    log = views.bip.log
    qtbot.wait(20)  # laid out
    lines = log.height() // log.fontMetrics().lineSpacing()
    enemy = next(iter(state.enemies(actor)))
    click_tile(win.view, *state.pos[enemy])
    assert views.bip.attack_box.isVisible() and mode.human.pending == enemy
    qtbot.wait(20)
    assert log.height() // log.fontMetrics().lineSpacing() == lines >= 7
    assert rect_in(win, views.bip.attack_box).right() <= rect_in(win, log).left()
    # a TSB portrait click selects that character (here the enemy: the attack again)
    k = next(k for k, e in enumerate(views.tsb.entries) if e.actor == enemy)
    QTest.mouseClick(views.tsb.buttons[k], LEFT)
    assert views.picked_panel.index == enemy and views.picked_panel.shot.isVisible()
    QTest.keyClick(win.view, Qt.Key.Key_Escape)  # the preview
    QTest.keyClick(win.view, Qt.Key.Key_Escape)  # the playtest
    assert not mode.active and not views.dock.isVisible() and not views.tsb_bar.isVisible()
    assert win.action_map["reset_layout"].isEnabled()
    assert corners(win) == before  # the editor's corners back


def red_bars(image: QImage, y: int) -> int:
    """How many separate red runs the row ``y`` of ``image`` has."""
    runs, inside = 0, False
    for x in range(image.width()):
        c = image.pixelColor(x, y)
        red = c.red() > 180 and c.green() < 80 and c.blue() < 80
        runs += red and not inside
        inside = red
    return runs


def test_the_action_shot_shows_hp_as_red_bars_and_dr(make_window, qtbot):
    win = make_window(duel_map())
    mode, s = human_turn(qtbot, win)
    shot = mode.views.active_panel.shot
    state = s.state
    actor = state.actor
    sheet = state.sheets[actor]
    image = shot.grab().toImage()
    y = int(shot.side * 0.9)
    assert red_bars(image, y) == sheet.health  # one red bar per Health Point
    assert shot.dr == sheet.damage_reduction and f"Damage Reduction {shot.dr}" in shot.toolTip()
    # the enemy hit: its bars drop to its HP left
    enemy = next(iter(state.enemies(actor)))
    for _ in range(20):  # attack every turn until a hit
        if state.hp[enemy] < state.sheets[enemy].health:
            break
        if s.waiting is not None and s.waiting.kind == "action":
            click_tile(win.view, *state.pos[enemy])
            QTest.keyClick(win.view, Qt.Key.Key_Return)
            if s.waiting is not None:
                QTest.keyClick(win.view, Qt.Key.Key_P)
        qtbot.waitUntil(lambda: s.waiting is not None or s.result is not None, timeout=30000)
    assert state.hp[enemy] < state.sheets[enemy].health
    tsb = mode.views.tsb
    k = next(k for k, e in enumerate(tsb.entries) if e.actor == enemy)
    QTest.mouseClick(tsb.buttons[k], LEFT)  # its portrait in the bar: the right panel
    assert mode.views.picked_panel.index == enemy and mode.active
    picked = mode.views.picked_panel.shot
    image = picked.grab().toImage()
    assert red_bars(image, int(picked.side * 0.9)) == max(0, state.hp[enemy])


def test_the_bip_describes_the_hovered_tile(make_window, qtbot):
    win = make_window(duel_map())
    mode, s = human_turn(qtbot, win)
    terrain = mode.views.bip.terrain
    assert "Point at a tile" in terrain.text()
    move(win.view, 4.5, 0.5)
    assert terrain.text().startswith("Tile 4, 0: obstructing: blocks movement and LoS; "
                                     "destroyed by 3 damage")
    move(win.view, 3.5, 3.5)
    assert terrain.text().startswith("Tile 3, 3: clear: no effect; level 0")
    archer = s.state.actor
    x, y = s.state.pos[archer]
    move(win.view, x + 0.5, y + 0.5)
    assert f"{s.state.names[archer]} (left (team 0)) stands here" in terrain.text()
    # a strike on the wall: its damage so far is in the description
    click_tile(win.view, 4, 0)
    hits = [e for e in s.state.events if isinstance(e, TerrainAttacked)]
    if hits:  # in reach: the strike landed
        move(win.view, 4.5, 0.5)
        assert f"damage {hits[-1].total} of 3" in terrain.text() or "rubble" in terrain.text()


def roll_shown(panel: QWidget) -> bool:
    """The panel shows an attack's roll (Hit or Miss)."""
    return any(w.isVisible() and ("Hit</b>" in w.text() or "Miss</b>" in w.text())
               for w in panel.findChildren(QLabel))


def test_the_last_attack_result_is_cleared_when_the_next_turn_begins(make_window, qtbot):
    win = make_window(duel_map())
    mode, s = human_turn(qtbot, win)
    state = s.state
    archer = state.actor
    enemy = next(iter(state.enemies(archer)))
    QTest.keyClick(win.view, Qt.Key.Key_F6)  # paused: the next turn waits for F7
    click_tile(win.view, 1, 3)  # the Move Action first
    click_tile(win.view, *state.pos[enemy])
    bip = mode.panel  # the Battle Information Panel
    QTest.mouseClick(bip.confirm_button, LEFT)  # the Attack Action: the turn is over
    assert any(isinstance(e, Attacked) for e in state.events) and state.actor is None
    assert mode.model.roll is not None and roll_shown(bip)
    QTest.keyClick(win.view, Qt.Key.Key_F7)  # the knight's turn begins
    assert state.actor not in (None, archer)
    assert mode.model.roll is None and not roll_shown(bip)


def test_the_result_is_readable_and_the_active_panel_no_longer_acting(make_window, qtbot):
    win = open_map(make_window, "tiered-keep.json")
    mode = win.playtest
    assert mode.start(PlaytestChoice(controllers=("greedy", "greedy"), seed=5))
    mode.bar.speed.setCurrentText("instant")
    if not mode.playing:
        QTest.keyClick(win.view, Qt.Key.Key_F6)
    qtbot.waitUntil(lambda: mode.session.result is not None, timeout=120000)
    state = mode.session.state
    bip = mode.views.bip
    result = bip.result
    assert bip.tabs.currentWidget() is result and result.isVisible()
    table = result.table
    header = table.horizontalHeader()
    assert [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())] == [
        "Character", "HP left", "Damage dealt", "Kills", "Terrain damage"]
    for c in range(table.columnCount()):  # every column as wide as its widest cell
        assert table.columnWidth(c) >= header.sectionSizeHint(c), c
        assert table.columnWidth(c) >= table.sizeHintForColumn(c), c
    # every column in view: nothing cut, no sideways scrolling
    assert header.length() <= table.viewport().width()
    assert table.horizontalScrollBar().maximum() == 0
    # a row per side (its name as everywhere), then its characters
    assert table.rowCount() == len(state.fighters) + 2
    assert [table.item(r, 0).text() for r in range(table.rowCount())
            if table.columnSpan(r, 0) > 1] == ["attackers (team 0)", "defenders (team 1)"]
    terrain = {table.item(r, 0).text(): int(table.item(r, 4).text()) for r in result.rows}
    assert terrain == {s.name: s.terrain_damage for s in result.stats}
    for r in range(table.rowCount()):  # every row's text fits its cell
        for c in range(table.columnSpan(r, 0) > 1 and 1 or table.columnCount()):
            item = table.item(r, c)
            width = sum(table.columnWidth(c + k) for k in range(table.columnSpan(r, c)))
            assert table.fontMetrics().horizontalAdvance(item.text()) < width, item.text()
    # the active panel: the last actor, no longer "acting now"
    active = mode.views.active_panel
    assert active.index is not None
    assert active.value("Initiative", "Next turn") in ("battle over", "defeated")
    assert mode.views.bip.status.text() == "The battle is over."


NUMBERED = re.compile(r"\b[Tt]eam (\d+)\b")


def team_mentions(text: str, sides: dict[int, str]) -> list[str]:
    """Every "team N" of ``text`` that is not the one naming ``side (team N)``."""
    bad = []
    for m in NUMBERED.finditer(text):
        n = int(m.group(1))
        before = text[:m.start()]
        if n not in sides or not before.endswith(f"{sides[n]} ("):
            bad.append(text[max(0, m.start() - 20):m.end() + 2])
    return bad


def texts_of(widget: QWidget) -> list[str]:
    out = [w.text() for w in widget.findChildren(QLabel)]
    out += [w.title() for w in widget.findChildren(QGroupBox)]
    out += [w.toolTip() for w in widget.findChildren(QWidget) if w.toolTip()]
    return out


def test_one_naming_of_the_sides_everywhere(make_window, qtbot):
    win = open_map(make_window, "tiered-keep.json")
    mode = win.playtest
    said: list[str] = []
    mode.model.message.connect(said.append)
    seen: dict[str, list[str]] = {}

    def read_dialog() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, SetupDialog)
        seen["dialog"] = texts_of(dlg)
        dlg.teams[0].controller.setCurrentIndex(dlg.teams[0].controller.findData("greedy"))
        dlg.seed.setValue(5)
        QTest.mouseClick(dlg.buttons.buttons()[0], LEFT)

    QTimer.singleShot(50, read_dialog)
    QTest.keyClick(win.view, Qt.Key.Key_F5)
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=2000)
    win.view.setFocus()
    assert mode.active
    state = mode.session.state
    sides = {f.team: f.side for f in state.fighters}
    assert sides == {0: "attackers", 1: "defenders"}
    assert [t for t in seen["dialog"] if "(team" in t][:2] == ["attackers (team 0)",
                                                                "defenders (team 1)"]
    QTest.keyClick(win.view, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(win.view, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    mode.bar.speed.setCurrentText("instant")
    QTest.keyClick(win.view, Qt.Key.Key_F6)
    qtbot.waitUntil(lambda: mode.session.result is not None, timeout=120000)
    views = mode.views
    texts = seen["dialog"] + said + texts_of(views.dock) + texts_of(views.tsb_bar)
    texts += [views.bip.log.item(k).text() for k in range(views.bip.log.count())]
    table = views.bip.result.table
    texts += [table.item(r, 0).text() for r in range(table.rowCount())]
    QTest.keyClick(win.view, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    texts += texts_of(views.dock) + texts_of(views.tsb_bar)  # the bar and panels mid-battle
    tokens = [t.toolTip() for t in mode.board.tokens.values()]  # the tokens on the map
    assert tokens and all(re.search(r" \((attackers \(team 0\)|defenders \(team 1\))\)", t)
                          for t in tokens), tokens
    texts += tokens
    # take over, give back: the side named
    assert any(re.search(r"(attackers \(team 0\)|defenders \(team 1\)) is yours", t)
               for t in said)
    assert any("(team 1)" in t for t in texts) and any("(team 0)" in t for t in texts)
    assert not [t for t in texts if "Team 1" in t or "Team 2" in t or "team 2" in t]
    bad = [b for t in texts for b in team_mentions(t, sides)]
    assert bad == []
    karma = views.bip.karma.text()
    assert re.fullmatch(r"Karma: (none held|(attackers \(team 0\)|defenders \(team 1\)) \d+)",
                        karma), karma


def test_stale_status_lines_are_taken_back(make_window, qtbot):
    win = make_window(duel_map())
    mode, s = human_turn(qtbot, win)
    state = s.state
    enemy = next(iter(state.enemies(state.actor)))
    ex, ey = state.pos[enemy]
    status = win.statusBar()
    move(win.view, ex + 0.5, ey + 0.5)  # hovering the enemy: the line of sight
    assert status.currentMessage().startswith("LoS ")
    move(win.view, 4.5, 0.5)  # off the target, on the wall (no move): the line goes
    assert status.currentMessage() == ""
    click_tile(win.view, ex, ey)  # the attack previewed: "attack ...? Enter ..."
    assert status.currentMessage().startswith("attack ")
    QTest.keyClick(win.view, Qt.Key.Key_Escape)  # cancelled: the question goes
    assert mode.active and status.currentMessage() == ""
    far = (8, 0)
    click_tile(win.view, *far)  # refused: the rules' reason
    refused = status.currentMessage()
    assert refused
    x, y = state.pos[state.actor]
    click_tile(win.view, x, y + 1)  # the next action taken: the refusal no longer holds
    assert status.currentMessage() != refused


def portrait_roster(folder: Path, color: QColor) -> dict:
    """The shipped roster with a portrait image for the Archer."""
    doc = json.loads(DEFAULT_ROSTER_PATH.read_text(encoding="utf-8"))
    image = QImage(64, 80, QImage.Format.Format_RGB32)
    image.fill(color)
    (folder / "portraits").mkdir()
    assert image.save(str(folder / "portraits" / "archer.png"))
    for entry in doc["characters"]:
        if entry["name"] == "Archer":
            entry["portrait"] = "portraits/archer.png"
        if entry["name"] == "Knight":
            entry["portrait"] = "portraits/missing.png"
    (folder / "roster.json").write_text(json.dumps(doc), encoding="utf-8")
    return doc


def test_a_roster_may_name_a_portrait_image(qtbot, tmp_path):
    color = QColor(10, 200, 120)
    doc = portrait_roster(tmp_path, color)
    roster_from_dict(doc, "roster.json")  # valid (and a roster without one stays valid)
    old = dict(doc, format_version=1, characters=[
        {k: v for k, v in e.items() if k != "abilities"} for e in doc["characters"]])
    with pytest.raises(BattleInputError, match=r"characters\[\d\]\.portrait: a roster of "
                                               "format_version 1 has no portrait"):
        roster_from_dict(old, "roster.json")  # a new field: new in format_version 2
    roster_from_dict(json.loads(DEFAULT_ROSTER_PATH.read_text(encoding="utf-8")), "shipped")
    m = duel_map()
    setup = build_setup(m, PlaytestChoice(controllers=("greedy", "greedy"), seed=2))
    setup.docs["roster"] = doc
    pm = PlaytestModel()
    pm.roster_dir = tmp_path
    pm.begin(BattleSession(setup, ["greedy", "greedy"], seed=2), m)
    from sodwa_editor.editor.playtest.character_panel import CharacterPanel
    from sodwa_editor.editor.playtest.tsb_bar import TurnSequenceBar

    panel = CharacterPanel("Selected", pm, "picked")
    bar = TurnSequenceBar(pm)
    for w in (panel, bar):
        qtbot.addWidget(w)
        w.show()
    pm.refresh()
    state = pm.state
    archer = next(i for i, sh in enumerate(state.sheets) if sh.archetype == "Archer")
    knight = next(i for i, sh in enumerate(state.sheets) if sh.archetype == "Knight")
    pm.pick(archer)
    shot = panel.shot.grab().toImage()
    assert shot.pixelColor(shot.width() // 2, shot.height() // 3) == color  # the image
    entry = bar.buttons[[e.actor for e in bar.entries].index(archer)]
    image = entry.grab().toImage()
    assert image.pixelColor(image.width() // 2, 20) == color
    pm.pick(knight)  # its image is missing: the drawn token, in the team colour
    shot = panel.shot.grab().toImage()
    drawn = shot.pixelColor(4, shot.height() // 2)
    team = pm.colors[state.fighters[knight].side]
    assert drawn != color and abs(drawn.hue() - team.hue()) <= 15
