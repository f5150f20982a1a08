"""The previews of creatures larger than one tile and the Flanking/Cover preview (issue
26 sections 2 and 4): the movement range of a Huge creature drawn as the tiles it can
cover, its LoS fan and line from its squares, who flanks a hovered character and the
cover from a pinned attacker, the decisive tile or creature ringed.  Real key and mouse
events on the map view; the answers compared with the engine's."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from sodwa_editor.editor import flank_preview as fpv
from sodwa_editor.editor.footprint_previews import covered_reach, creature_fan
from sodwa_editor.editor.testing import click_tile, move
from sodwa_editor.engine.footprint import Footprint
from sodwa_editor.engine.model import Character, MapModel, Rect

ALT = Qt.KeyboardModifier.AltModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def status(win) -> str:
    return win.statusBar().currentMessage()


def preview_key(win, key) -> None:
    win.view.setFocus()
    QTest.keyClick(win.view, key, CTRL_SHIFT)


def huge_map() -> MapModel:
    m = MapModel(16, 12)
    m.fill_terrain(Rect(9, 0, 9, 5), m.registry.id_of("obstructing"))
    m.put_character(Character("wyrm", "red", 2, 2, name="Wyrm", move=3, size="huge"))
    m.put_character(Character("imp", "blue", 8, 8, name="Imp"))
    return m


def test_the_movement_range_of_a_huge_creature_shows_the_tiles_it_can_cover(make_window):
    win = make_window(huge_map())
    preview_key(win, Qt.Key.Key_M)
    assert win.previews.enabled["reach"]
    move(win.view, 3.5, 3.5)  # over the wyrm
    win.previews.update_now()
    item = win.scene.previews["reach"]
    m = win.document.model
    expected = covered_reach(m, m.characters["wyrm"], 3)
    assert np.array_equal(item.steps, expected.steps)
    assert np.array_equal(item.stop, expected.must_stop)
    assert item.steps[2, 8] == 3 and item.steps[2, 9] == -1  # the wall column
    assert (item.steps[2:6, 2:6] == 0).all()  # where it stands
    assert item.steps[8, 8] == -1  # the imp's tile is never covered
    assert "Move 3 from wyrm (Huge 4x4 at 2, 2)" in status(win)
    assert "tile(s) covered" in status(win)
    QTest.keyClick(win.view, Qt.Key.Key_P)  # pin the wyrm
    move(win.view, 6.5, 5.5)  # centred there: anchor (5, 4), 3 steps away
    win.previews.update_now()
    assert "path of wyrm to 6, 5: 3 step(s)" in status(win)
    line = win.scene.previews["path"]
    assert line.isVisible() and line.crossing is None
    ghost = win.previews.reach_target  # where it would stand
    assert ghost.isVisible() and (ghost.anchor, ghost.footprint) == ((5, 4), Footprint(4, 4))
    move(win.view, 12.5, 8.5)
    win.previews.update_now()
    assert "wyrm cannot stand centred on 12, 8" in status(win)
    assert not ghost.isVisible()


def test_the_los_fan_and_line_of_a_huge_creature_are_its_squares_best(make_window):
    win = make_window(huge_map())
    preview_key(win, Qt.Key.Key_L)
    click_tile(win.view, 3, 3, modifiers=ALT)  # pin the wyrm
    win.previews.update_now()
    m = win.document.model
    fan = win.scene.previews["los"].fan
    assert np.array_equal(fan, creature_fan(m, m.characters["wyrm"]))
    assert fan[0, 12] == 2  # behind the wall, from every square
    assert "LoS fan from 3, 3 (wyrm, Huge 4x4)" in status(win)
    move(win.view, 12.5, 7.5)
    win.previews.update_now()
    assert "clear (from (5, 5) to (12, 7))" in status(win)
    assert win.scene.previews["path"].isVisible()


def flank_map() -> MapModel:
    """A knight (blue) at (5, 5); a Large ogre (red) west of it touching it with two
    squares, an imp (red) east of it; an archer (red) north of it behind impeding
    ground."""
    m = MapModel(16, 10)
    m.set_terrain(5, 3, m.registry.id_of("impeding"))
    m.put_character(Character("knight", "blue", 5, 5, name="Knight"))
    m.put_character(Character("ogre", "red", 3, 4, name="Ogre", size="large"))
    m.put_character(Character("imp", "red", 6, 5, name="Imp"))
    m.put_character(Character("archer", "red", 5, 1, name="Archer"))
    return m


def test_the_flanking_preview_shows_who_flanks_and_by_how_much(make_window):
    win = make_window(flank_map())
    preview_key(win, Qt.Key.Key_F)
    assert win.previews.enabled["flank"] and win.action_map["preview_flank"].isChecked()
    move(win.view, 5.5, 5.5)
    win.previews.update_now()
    view = win.previews.last_flank
    assert view is not None and view.target.id == "knight"
    assert view.flanking.flanked and view.flanking.flankers == {"ogre": 2, "imp": 1}
    assert "knight: flanked by 'ogre' (2 squares), 'imp' (1 square): counts 3 (no effect " \
        "in battles: flanking.enabled is off)" in status(win)  # the shipped default
    rings = win.previews.flank_rings
    assert rings.isVisible()
    assert ((5, 5), Footprint(1, 1), fpv.TARGET, "x3") in rings.rings
    assert ((3, 4), Footprint(2, 2), fpv.FLANKER, "2") in rings.rings
    assert ((6, 5), Footprint(1, 1), fpv.FLANKER, "1") in rings.rings
    move(win.view, 5.5, 1.5)  # the archer: no foe beside it
    win.previews.update_now()
    assert "archer: not flanked: 0 adjacent foe(s), 2 are needed" in status(win)
    preview_key(win, Qt.Key.Key_F)  # off: the rings go
    assert not win.previews.enabled["flank"] and not rings.isVisible()


def test_pinning_an_attacker_shows_the_targets_cover_and_why(make_window):
    win = make_window(flank_map())
    preview_key(win, Qt.Key.Key_F)
    click_tile(win.view, 5, 1, modifiers=ALT)  # pin the archer
    move(win.view, 5.5, 5.5)  # hover the knight
    win.previews.update_now()
    view = win.previews.last_flank
    assert view.attacker.id == "archer" and view.cover.level == "covered"
    assert view.cover.ring == (5, 3)
    assert "from 'archer': covered: the Impeding tile (5, 3)" in status(win)
    assert status(win).endswith("(in a battle: Defense +20 against a ranged attack "
                                "(impeded line +20))")  # SODWA's +20, not counted twice
    rings = win.previews.flank_rings
    assert rings.tile_ring == (5, 3) and rings.tile_color == fpv.COVER["covered"]
    assert ((5, 1), Footprint(1, 1), fpv.ATTACKER, "") in rings.rings
    move(win.view, 5.5, 1.5)  # back over the pinned attacker
    win.previews.update_now()
    assert "hover a target to see its cover from 'archer'" in status(win)


def test_a_creature_directly_between_covers_the_target_and_is_ringed(make_window):
    m = MapModel(16, 10)
    m.put_character(Character("wyrm", "red", 0, 0, name="Wyrm", size="huge"))
    m.put_character(Character("knight", "blue", 10, 2, name="Knight"))
    m.put_character(Character("page", "blue", 7, 2, name="Page"))
    win = make_window(m)
    preview_key(win, Qt.Key.Key_F)
    click_tile(win.view, 1, 3, modifiers=ALT)  # pin the wyrm by one of its tiles
    move(win.view, 10.5, 2.5)
    win.previews.update_now()
    view = win.previews.last_flank
    assert (view.cover.level, view.cover.creature, view.cover.line) == ("covered", "page",
                                                                        "clear")
    assert "covered: creature 'page' is directly between (2, 2) and (10, 2)" in status(win)
    assert status(win).endswith("(in a battle: Defense +20 against a ranged attack "
                                "(cover +20))")
    rings = win.previews.flank_rings
    assert ((7, 2), Footprint(1, 1), fpv.COVER["covered"], "cover") in rings.rings
    assert ((0, 0), Footprint(4, 4), fpv.ATTACKER, "") in rings.rings
    assert rings.tile_ring is None


def test_a_one_tile_range_goes_round_every_square_of_a_large_creature(make_window):
    m = MapModel(9, 5)
    m.put_character(Character("wall-of-meat", "red", 3, 0, size="huge"))  # x 3..6, y 0..3
    m.put_character(Character("scout", "blue", 1, 1, move=4))
    win = make_window(m)
    preview_key(win, Qt.Key.Key_M)
    move(win.view, 1.5, 1.5)
    win.previews.update_now()
    steps = win.scene.previews["reach"].steps
    assert (steps[0:4, 3:7] == -1).all()  # never on the huge creature's squares
    assert steps[4, 3] == 3 and steps[4, 4] == 4  # round it along the bottom row
    assert steps[4, 5] == -1  # 5 steps round (3 through its squares): out of reach


def test_the_screenshot_overlay_shows_a_large_creatures_range(tmp_path):
    from sodwa_editor.editor.headless import build_scene

    m = huge_map()
    scene = build_scene(m, [("reach", (3, 3), None), ("los", (3, 3), None)])
    expected = covered_reach(m, m.characters["wyrm"], 3)
    assert np.array_equal(scene.previews["reach"].steps, expected.steps)
    assert np.array_equal(scene.previews["los"].fan, creature_fan(m, m.characters["wyrm"]))


def test_the_preview_says_what_flanking_does_under_the_rules_given():
    from sodwa_editor.battle.rules import rules_from_dict

    head = {"format": "sodwa-rules", "format_version": 1}
    rules = rules_from_dict({**head, "flanking": {"enabled": True, "evasion_per_square": 5,
                                                  "minimum_foes": 2}})
    view = fpv.flank_view(flank_map(), "knight", rules=rules)
    assert view.describe() == ("knight: flanked by 'ogre' (2 squares), 'imp' (1 square): "
                               "counts 3 (in a battle: Evasion -15, 5 per square, at most "
                               "its Evasion)")
    strict = rules_from_dict({**head, "flanking": {"enabled": True, "evasion_per_square": 5,
                                                   "minimum_foes": 3}})
    assert not fpv.flank_view(flank_map(), "knight", rules=strict).flanking.flanked


def test_a_creature_standing_where_it_may_not_gets_a_reason_not_a_crash(make_window):
    m = MapModel(10, 8)
    m.set_elevation(4, 4, 2)
    m.put_character(Character("wyrm", "red", 2, 2, name="Wyrm", size="huge"))  # two levels
    m.put_character(Character("imp", "blue", 3, 3, name="Imp"))  # on the wyrm's square
    win = make_window(m)
    for k in (Qt.Key.Key_L, Qt.Key.Key_M, Qt.Key.Key_F):
        preview_key(win, k)
    move(win.view, 2.5, 2.5)
    win.previews.update_now()
    text = status(win)
    assert "no LoS fan from wyrm: a 4x4 footprint at 2,2 is on two levels" in text
    assert "no movement range for 'wyrm' on 2, 2: a 4x4 creature cannot start at 2,2" in text
    assert "Flanking: no answer for wyrm: foe 'imp' (1x1 at (3, 3)) overlaps the target" in text
    assert not win.previews.flank_rings.isVisible()
