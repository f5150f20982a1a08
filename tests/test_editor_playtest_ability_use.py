"""A person uses an area ability in a playtest (issue 25), with real events: its
button in the active character's panel (or its key), the template following the
pointer over the view's viewport (affected tiles, stopped ones, what stopped the
one under the pointer ringed), a click aims, the Battle Information Panel previews
every victim (difficulty, chance with and without karma, damage, allies marked)
with Confirm / Cancel (Enter / Esc), and the turn goes on; a lingering effect is
drawn on the board; the battle's replay verifies."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from sodwa_editor.battle.abilities import UseAbility
from sodwa_editor.battle.area_abilities import preview_ability
from sodwa_editor.battle.area_effects import board_effects
from sodwa_editor.battle.events import AbilityUsed, AreaHit
from sodwa_editor.editor.playtest.setup_dialog import PlaytestChoice
from sodwa_editor.editor.testing import click_tile, move
from sodwa_editor.engine.model import Character, MapModel
from sodwa_editor.io import save_map

#: the Mage's Fireball: AoE - Blast - Sphere: Range: 6, Reach: 1
MAGE, KNIGHT, BRUTE, ROGUE = (2, 3), (6, 5), (7, 3), (8, 4)
AIM = (7, 4)  # the Fireball there hits the Brute, the Rogue and the Knight (an ally)
CTRL = Qt.KeyboardModifier.ControlModifier
WALL = (7, 5)  # in the Fireball's reach there: stopped


def ability_map(witch: bool = False) -> MapModel:
    """An open 12x8 map: the Mage (or the Witch) and a Knight against a Brute and a
    Rogue, and a wall south of the aim (a Sphere stops at it)."""
    m = MapModel(12, 8)
    caster = "Witch" if witch else "Mage"  # (ids are the names the battle shows)
    for name, team, (x, y) in ((caster, "blue", MAGE), ("Knight", "blue", KNIGHT),
                               ("Brute", "red", BRUTE), ("Rogue", "red", ROGUE)):
        m.characters[name] = Character(name, team, x, y, name=name)
    m.terrain[WALL[1], WALL[0]] = m.registry.id_of("obstructing")
    m.start_zones = {"blue": [(0, 0)], "red": [(11, 0)]}
    m.notify_bulk_change()
    return m


def start(make_window, qtbot, tmp_path, witch: bool = False):
    """A playtest of :func:`ability_map` at the turn of its caster, the red side taken
    over (Ctrl+T) so that nobody moves before it: every other turn is passed (P)."""
    model = ability_map(witch)
    path = tmp_path / "abilities.json"
    save_map(model, path)
    win = make_window(model, path)
    mode = win.playtest
    assert mode.start(PlaytestChoice(controllers=("human", "greedy"), seed=5))
    s = mode.session
    caster = s.state.names.index("Witch" if witch else "Mage")
    for _ in range(50):
        w = s.waiting
        if w is None and not mode.model.taken:
            QTest.keyClick(win.view, Qt.Key.Key_T, CTRL)  # the red side is the person's
        elif w is None:
            QTest.keyClick(win.view, Qt.Key.Key_F7)  # the start of the next turn
        elif w.kind == "actor":
            click_tile(win.view, *s.state.pos[caster if caster in w.candidates
                                              else w.candidates[0]])
        elif s.state.actor == caster:
            break
        else:
            QTest.keyClick(win.view, Qt.Key.Key_P)
    assert s.waiting is not None and s.state.actor == caster
    assert s.state.pos[caster] == MAGE
    return win, mode, s, caster


def ability_button(win):
    panel = win.playtest.views.active_panel
    shown = [b for b in panel.action_buttons if b.isVisible()]
    return next(b for b in shown if b.text().startswith(("Fireball", "Miasma")))


def test_a_person_aims_a_fireball_previews_every_victim_and_confirms(make_window, qtbot,
                                                                     tmp_path, capsys):
    win, mode, s, mage = start(make_window, qtbot, tmp_path)
    state = s.state
    bip = mode.views.bip
    button = ability_button(win)
    assert button.text() == "Fireball [2] (1)"  # its uses left, its key
    assert win.playtest.actions["playtest_ability_1"].isEnabled()
    assert not win.playtest.actions["playtest_ability_2"].isVisible()  # one ability only
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    assert mode.aim.chosen == "Fireball"
    template = mode.ability_board.template
    # the template follows the pointer over the viewport
    move(win.view, AIM[0] + 0.5, AIM[1] + 0.5, settle=True)
    assert template.isVisible() and template.origin == AIM
    assert set(template.affected) == {(x, y) for x in range(6, 9) for y in range(3, 6)} - {WALL}
    assert template.stopped == (WALL,) and template.look.dash == "solid"
    move(win.view, 4.5, 2.5, settle=True)
    assert template.origin == (4, 2)
    # out of Range: drawn dashed, the reason said, a click changes nothing
    move(win.view, 10.5, 7.5, settle=True)
    assert template.look.dash == "dash"
    assert "cannot aim here" in win.statusBar().currentMessage()
    click_tile(win.view, 10, 7)
    assert mode.aim.pending is None and not bip.attack_box.isVisible()
    # a click aims: every victim previewed, the ally marked
    click_tile(win.view, *AIM)
    assert mode.aim.pending == UseAbility("Fireball", AIM)
    assert bip.attack_box.isVisible() and bip.confirm_button.isVisible()
    text = bip.attack_text.text()
    p = preview_ability(state, mage, UseAbility("Fireball", AIM))
    assert {state.names[v.character] for v in p.victims} == {"Brute", "Rogue", "Knight"}
    for v in p.victims:
        line = (f"<b>{state.names[v.character]}</b>{' <b>(ally)</b>' if v.ally else ''}: "
                f"difficulty {v.difficulty} ({v.need_roll}+), {v.hits}%")
        assert line in text
        assert f"{v.damage_on_hit} dmg" in text
        if v.karma:
            assert f", {v.hits_with_karma}% with {v.karma} karma" in text
    assert "<b>Knight</b> <b>(ally)</b>" in text and "3 victims, <b>1 ally</b>" in text
    # moving the pointer no longer moves the aimed template; over the stopped tile,
    # what stopped it is ringed (the wall itself)
    move(win.view, 3.5, 3.5, settle=True)
    assert template.origin == AIM and not template.culprit.isVisible()
    move(win.view, WALL[0] + 0.5, WALL[1] + 0.5, settle=True)
    assert template.origin == AIM
    assert template.culprit.isVisible() and template.culprit.place == WALL
    # Esc cancels (the playtest goes on), the key picks it again, Enter confirms
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    assert mode.active and mode.aim.chosen is None and not template.isVisible()
    assert not bip.attack_box.isVisible()
    QTest.keyClick(win.view, Qt.Key.Key_1)
    assert mode.aim.chosen == "Fireball"
    click_tile(win.view, *AIM)
    n = len(state.events)
    QTest.keyClick(win.view, Qt.Key.Key_Return)
    used = [e for e in state.events[n:] if isinstance(e, AbilityUsed)]
    assert len(used) == 1 and used[0].ability == "Fireball" and used[0].aim == AIM
    hits = [e for e in state.events[n:] if isinstance(e, AreaHit)]
    assert {state.names[h.target] for h in hits} == {"Brute", "Rogue", "Knight"}
    assert mode.aim.chosen is None and not template.isVisible()
    # the result in the BIP, the turn goes on: the Special Action is spent
    assert bip.attack_text.text().startswith("<b>Mage used Fireball at 7, 4")
    assert s.waiting is not None and state.actor == mage
    used_up = win.playtest.actions["playtest_ability_1"]
    assert not used_up.isEnabled() and "Special Action already taken" in used_up.toolTip()
    assert ability_button(win).text() == "Fireball [1] (1)"
    QTest.keyClick(win.view, Qt.Key.Key_1)
    assert mode.aim.chosen is None
    # the person's decision is in the replay, which verifies: the red side back to its
    # AI (Ctrl+Shift+T), the blue one passes until the battle is over
    QTest.keyClick(win.view, Qt.Key.Key_P)
    QTest.keyClick(win.view, Qt.Key.Key_T, CTRL | Qt.KeyboardModifier.ShiftModifier)
    mode.bar.speed.setCurrentText("instant")
    for _ in range(2000):
        if s.result is not None:
            break
        if s.waiting is None:
            QTest.keyClick(win.view, Qt.Key.Key_F8)
        elif s.waiting.kind == "actor":
            click_tile(win.view, *s.state.pos[s.waiting.candidates[0]])
        else:
            QTest.keyClick(win.view, Qt.Key.Key_P)
    assert s.result is not None
    out = mode.save_replay(tmp_path / "r.json")
    assert out is not None
    import json

    decisions = json.loads(out.read_text())["decisions"]
    assert any(d.get("ability") == "Fireball" for d in decisions)
    from sodwa_editor.cli import main

    capsys.readouterr()
    assert main(["replay", str(out), "--verify"]) == 0
    assert "verified" in capsys.readouterr().out


def test_a_lingering_effect_is_drawn_on_the_board_until_it_ends(make_window, qtbot, tmp_path):
    win, mode, s, witch = start(make_window, qtbot, tmp_path, witch=True)
    state = s.state
    QTest.mouseClick(ability_button(win), Qt.MouseButton.LeftButton)
    click_tile(win.view, *AIM)
    QTest.keyClick(win.view, Qt.Key.Key_Enter)
    assert any(isinstance(e, AbilityUsed) for e in state.events)
    views = board_effects(state)
    assert len(views) == 1
    item = mode.ability_board.effects[views[0].effect.id]
    assert item.isVisible() and item.scene() is win.scene
    assert set(item.affected) == set(views[0].tiles) and item.label == "Miasma (2)"
    # stopping the playtest takes it off the map
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    assert not mode.active and item.scene() is None
