"""The playtest's Turn-Sequence Bar and Character Panels (RB *The Battle UI*):
built from a battle session, stepped with it, clicked with real mouse events, and
in a running playtest following the active character and leaving on Stop."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import dataclasses
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest

from sodwa_editor.battle.actions import Attack, refusal
from sodwa_editor.battle.events import Attacked, Defeated
from sodwa_editor.battle.session import BattleSession
from sodwa_editor.editor.playtest.character_panel import SECTIONS, CharacterPanel
from sodwa_editor.editor.playtest.setup_dialog import PlaytestChoice, build_setup
from sodwa_editor.editor.playtest.tsb_bar import TurnSequenceBar
from sodwa_editor.editor.testing import click_tile
from sodwa_editor.io import read_map

MAPS = Path(__file__).parents[1] / "maps"
LEFT = Qt.MouseButton.LeftButton


def session(name="tiered-keep.json", controllers=("greedy", "random"), seed=9):
    model, _ = read_map(MAPS / name)
    setup = build_setup(model, PlaytestChoice(controllers=controllers, seed=seed))
    return BattleSession(setup, list(controllers), seed=seed)


def shown_entries(bar: TurnSequenceBar) -> list[tuple[str, str]]:
    return [tuple(b.text().split("\n")) for b in bar.buttons if not b.isHidden()]


def expected_entries(state, n) -> list[tuple[str, str]]:
    """What the bar must show: the actor now, then ``clock.predict(n)``."""
    out = [(state.names[state.actor], "now")] if state.actor is not None else []
    for p in state.clock.predict(n):
        t = p.tick - state.clock.tick
        out.append((state.names[p.actor], f"{t} tick{'s' if t != 1 else ''}"))
    return out


def test_the_bar_is_the_clock_prediction_with_ticks_the_actor_first(qtbot):
    s = session()
    bar = TurnSequenceBar(length=8)
    qtbot.addWidget(bar)
    bar.show()
    seen_actor = seen_between = False
    for _ in range(40):
        bar.show_state(s.state)
        state = s.state
        assert shown_entries(bar) == expected_entries(state, 8)
        assert [e.actor for e in bar.entries[-8:]] == [p.actor for p in state.clock.predict(8)]
        if state.actor is not None:
            seen_actor = True
            assert bar.entries[0].actor == state.actor and bar.entries[0].now
            assert bar.buttons[0].now and not bar.buttons[1].now  # the actor is framed
        else:
            seen_between = True
            assert len(bar.entries) == 8
        s.step_action()
    assert seen_actor and seen_between
    while s.result is None:
        s.step_action()
    bar.show_state(s.state)
    assert shown_entries(bar) == [] and not bar.over.isHidden()


def test_entries_have_their_team_colour_and_a_click_emits_the_character(qtbot):
    s = session()
    s.step_action()
    bar = TurnSequenceBar()
    qtbot.addWidget(bar)
    bar.show()
    bar.show_state(s.state)
    state = s.state
    sides = {state.fighters[e.actor].side for e in bar.entries}
    assert len(sides) == 2  # both teams are in the bar, in two colours
    backgrounds = {state.fighters[e.actor].side: b.color.name()
                   for e, b in zip(bar.entries, bar.buttons, strict=False)}
    assert len(set(backgrounds.values())) == 2
    # as drawn: the entry now is framed in yellow, the others are not; each entry's
    # portrait shows its team colour
    now, later = bar.buttons[0].grab().toImage(), bar.buttons[1].grab().toImage()
    yellow = QColor(255, 200, 0)
    assert now.pixelColor(1, now.height() // 2) == yellow
    assert later.pixelColor(1, later.height() // 2) != yellow
    for e, b in zip(bar.entries, bar.buttons, strict=False):
        image = b.grab().toImage()
        centre = image.pixelColor(image.width() // 2 - 14, 10)  # the portrait's corner
        team = QColor(backgrounds[state.fighters[e.actor].side])
        assert abs(centre.hue() - team.hue()) <= 12 or team.saturation() < 40, (
            centre.name(), team.name())
    k = 3
    with qtbot.waitSignal(bar.picked) as blocker:
        QTest.mouseClick(bar.buttons[k], LEFT)
    assert blocker.args == [bar.entries[k].actor]


def test_a_character_panel_shows_every_sheet_attribute_grouped_and_hp_as_a_bar(qtbot):
    s = session()
    panel = CharacterPanel("Active character")
    qtbot.addWidget(panel)
    panel.show()
    while not any(isinstance(e, Attacked) and e.damage > 0 for e in s.state.events):
        s.step_action()
    state = s.state
    hit = next(e for e in state.events if isinstance(e, Attacked) and e.damage > 0)
    i = hit.target
    panel.show_character(state, i)
    sheet = state.sheets[i]
    assert [b.title() for b in panel.sections.values()] == list(SECTIONS)
    # RB: "The character's HP and Damage Reduction are both displayed over its Action
    # Shot ... the HP will be represented by red bars"
    assert (panel.shot.hp, panel.shot.health, panel.shot.dr) == (
        state.hp[i], sheet.health, sheet.damage_reduction)
    assert panel.shot.bars() == (state.hp[i], sheet.health)  # one bar per point
    assert panel.shot.toolTip().startswith(f"HP {state.hp[i]} of {sheet.health}, Damage "
                                           f"Reduction {sheet.damage_reduction}")
    assert state.names[i] in panel.name.text()
    groups = {"Combat": ("melee_accuracy", "ranged_accuracy", "melee_defense",
                         "ranged_defense", "melee_damage", "ranged_damage"),
              "Character Info": ("cost", "move", "range", "evasion"),
              "Initiative": ("initiative",),
              "Saving Throws": ("fortitude", "reflex", "power")}
    for section, keys in groups.items():
        for key in keys:
            label = " ".join(w.capitalize() for w in key.split("_"))
            assert panel.value(section, label) == str(getattr(sheet, key)), (section, key)
            # the value sits in its section's box
            assert panel.values[(section, label)].parent() is panel.sections[section]
    assert panel.value("Character Info", "Flight") == ("yes" if sheet.flight else "no")
    assert panel.value("Initiative", "IP") == str(state.clock.ip[i])
    if state.actor != i and state.alive(i):
        n = state.clock.ticks_until_turn(i)
        assert panel.value("Initiative", "Next turn") == f"in {n} tick{'s' if n != 1 else ''}"
    # every attribute of the sheet is shown (only the name fields and health are not
    # values of a section: the name is the title, health the bar)
    shown = {" ".join(w.capitalize() for w in f.name.split("_"))
             for f in dataclasses.fields(sheet)} - {"Name", "Archetype", "Health",
                                                    "Damage Type", "Damage Reduction",
                                                    "Abilities",  # (issue 25: buttons)
                                                    "Dimensions"}  # (in Size: "Huge 4x4")
    assert shown <= {label for (_, label) in panel.values}


def test_a_defeated_character_is_shown_defeated(qtbot):
    s = session()
    while not any(isinstance(e, Defeated) for e in s.state.events) and s.result is None:
        s.step_action()
    state = s.state
    gone = next(e for e in state.events if isinstance(e, Defeated)).character
    panel = CharacterPanel("Selected character")
    qtbot.addWidget(panel)
    panel.show_character(state, gone)
    assert "(defeated)" in panel.name.text()
    assert panel.shot.hp == 0 and panel.shot.defeated and panel.shot.bars()[0] == 0
    assert panel.value("Initiative", "Next turn") == "defeated"


# ------------------------------------------------------------------ in the editor
def start(make_window, qtbot, controllers, seed, name="tiered-keep.json"):
    model, _ = read_map(MAPS / name)
    win = make_window(model, MAPS / name)
    mode = win.playtest
    assert not mode.views.tsb_bar.isVisible() and not mode.views.docks[0].isVisible()
    assert mode.start(PlaytestChoice(controllers=controllers, seed=seed))
    return win, mode


def test_panels_follow_the_active_character_a_tsb_click_selects_and_stop_hides(
        make_window, qtbot):
    win, mode = start(make_window, qtbot, ("greedy", "random"), 5)
    assert not mode.playing  # a new battle starts paused
    assert mode.views.tsb_bar.isVisible() and all(d.isVisible() for d in mode.views.docks)
    s = mode.session
    actors = set()
    for _ in range(4):  # one turn after the other, each played by an AI
        QTest.keyClick(win.view, Qt.Key.Key_F8)
        QTest.keyClick(win.view, Qt.Key.Key_F7)  # the next turn starts
        state = s.state
        assert state.actor is not None
        actors.add(state.actor)
        assert mode.views.active_panel.index == state.actor
        assert state.names[state.actor] in mode.views.active_panel.name.text()
        assert mode.views.tsb.entries[0].actor == state.actor
        assert shown_entries(mode.views.tsb) == expected_entries(state, mode.views.tsb.length)
    assert len(actors) > 1
    # a click on a TSB entry (not the actor): the right panel shows that character
    k = next(k for k, e in enumerate(mode.views.tsb.entries) if e.actor != s.state.actor)
    who = mode.views.tsb.entries[k].actor
    QTest.mouseClick(mode.views.tsb.buttons[k], LEFT)
    assert mode.views.picked_panel.index == who
    assert s.state.names[who] in mode.views.picked_panel.name.text()
    assert mode.views.picked_panel.value("Initiative", "IP") == str(s.state.clock.ip[who])
    # a click on a character's token on the map: the same
    other = next(j for j in range(len(s.state.names))
                 if s.state.alive(j) and j not in (who, s.state.actor))
    click_tile(win.view, *s.state.pos[other])
    assert mode.views.picked_panel.index == other
    QTest.keyClick(win.view, Qt.Key.Key_Escape)  # stop
    assert not mode.active
    assert not mode.views.tsb_bar.isVisible() and not any(d.isVisible() for d in mode.views.docks)


def test_a_tsb_click_on_an_enemy_in_a_human_turn_is_the_click_on_its_tile(
        make_window, qtbot):
    win, mode = start(make_window, qtbot, ("human", "greedy"), 7, "rulebook-elevated-los.json")
    mode.bar.speed.setCurrentText("instant")
    QTest.keyClick(win.view, Qt.Key.Key_F6)  # play
    s = mode.session
    tried = 0
    for _ in range(30):
        qtbot.waitUntil(lambda: s.result is not None or s.waiting is not None, timeout=30000)
        if s.result is not None:
            break
        w = s.waiting
        if w.kind == "actor":
            QTest.mouseClick(mode.views.tsb.buttons[next(
                k for k, e in enumerate(mode.views.tsb.entries) if e.actor in w.candidates)], LEFT)
            assert s.waiting is None or s.waiting.kind == "action"
            continue
        state = s.state
        assert mode.views.active_panel.index == state.actor  # the human's actor, on the left
        for enemy in state.enemies(state.actor):
            k = next(k for k, e in enumerate(mode.views.tsb.entries) if e.actor == enemy)
            QTest.mouseClick(mode.views.tsb.buttons[k], LEFT)
            legal = refusal(state, Attack(enemy)) is None
            assert mode.human.pending == (enemy if legal else None)
            assert mode.panel.attack_box.isVisible() == legal
            assert mode.views.picked_panel.index == enemy
            tried += legal
            if legal:
                QTest.mouseClick(mode.panel.confirm_button, LEFT)  # the attack is made
                assert isinstance(next(e for e in reversed(s.state.events)
                                       if e.kind in ("attacked", "turn_started")), Attacked)
                break
        if tried:
            break
        QTest.keyClick(win.view, Qt.Key.Key_P)
    assert tried


def test_the_battle_dock_log_and_the_command_line_log_have_one_wording(qtbot, capsys):
    from sodwa_editor.battle.describe import describe
    from sodwa_editor.cli import main
    from sodwa_editor.editor.playtest.battle_panel import BattlePanel

    s = session("indoor-compound.json", ("random", "random"), 3)
    while s.result is None:
        s.step_action()
    state = s.state
    panel = BattlePanel()
    qtbot.addWidget(panel)
    panel.show_state(state, "", state.events, len(state.events))
    lines = [panel.log.item(k).text() for k in range(panel.log.count())]
    assert len(lines) == len(state.events)
    sides = {f.team: f.side for f in state.fighters}
    teams = (f"{sides[0]} (team 0)", f"{sides[1]} (team 1)")  # the one naming (issue 24)
    assert lines == [describe(e, list(state.names), teams) for e in state.events]
    attack = next(line for line in lines if " vs difficulty " in line)
    assert "karma" in attack and "HP left" in attack
    # the command line prints the same battle in the same words (its teams from 0)
    assert main(["battle", str(MAPS / "indoor-compound.json"), "--seed", "3",
                 "--ai", "random,random"]) == 0
    printed = capsys.readouterr().out.splitlines()[2:]  # (after the sides and the rules)
    assert printed == [describe(e, list(state.names)) for e in state.events]
    assert [p.replace("(team 0)", f"({teams[0]})").replace("(team 1)", f"({teams[1]})")
            .replace("result: team 0", f"result: {teams[0]}")
            .replace("result: team 1", f"result: {teams[1]}")
            .replace("first tie: team 0", f"first tie: {teams[0]}")
            .replace("first tie: team 1", f"first tie: {teams[1]}") for p in printed] == lines
