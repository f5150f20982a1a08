"""Symmetry painting for fair 1v1 maps (issue 29 section 2): Ctrl+Shift+Y (Edit
menu) turns it on; every painting tool writes the mirrored edit in the same undo
step (tiles, borders, elevation, transitions, zones; characters and zones of the
mirrored side go to the other team); the hover is mirrored; the Validation dock
lists where the sides differ.  Real mouse and key events on the map view."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from sodwa_editor.editor.testing import click, click_tile, drag_tiles, move
from sodwa_editor.engine.model import Character, Edge, MapModel
from sodwa_editor.engine.symmetry import differences
from sodwa_editor.io.symmetry_check import check_symmetry

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def toggle(win) -> None:
    QTest.keyClick(win.view, Qt.Key.Key_Y, CTRL_SHIFT)


def round_trip(win, before: MapModel) -> None:
    after = win.document.model.copy()
    win.document.undo()
    assert win.document.model.same_content(before)
    win.document.redo()
    assert win.document.model.same_content(after)


def test_brush_stroke_is_mirrored_by_the_180_degree_rotation_in_one_step(make_window):
    win = make_window(MapModel(12, 8))
    before = win.document.model.copy()
    toggle(win)
    assert win.state.symmetry == "rotate" and win.action_map["symmetry"].isChecked()
    assert "Symmetry painting: rotate" in win.statusBar().currentMessage()
    QTest.keyClick(win.view, Qt.Key.Key_B)
    drag_tiles(win.view, [(1, 1), (3, 1)])
    t = win.document.model.terrain
    painted = {(int(x), int(y)) for y, x in zip(*t.nonzero(), strict=True)}
    assert painted == {(1, 1), (2, 1), (3, 1), (10, 6), (9, 6), (8, 6)}
    assert win.document.undo_stack.count() == 1
    round_trip(win, before)
    move(win.view, 4.5, 2.5)  # the hover and its image under the pointer
    echo = win.symmetry.echoes[0][1]
    assert win.scene.hover.tiles == [(4, 2)] and echo.tiles == [(7, 5)]
    toggle(win)  # off: a click paints one tile
    click_tile(win.view, 0, 0)
    assert t[0, 0] == 1 and t[7, 11] == 0 and echo.tiles == []


def test_mirror_x_borders_elevation_zones_and_characters_swap_teams(make_window):
    m = MapModel(10, 6)
    m.start_zones = {"blue": {(0, 5)}, "red": {(9, 5)}}
    win = make_window(m)
    win.action_map["symmetry_x"].trigger()  # Edit -> Symmetry: Mirror X
    assert win.state.symmetry == "x" and win.document.symmetry == "x"
    QTest.keyClick(win.view, Qt.Key.Key_W)  # a wall on the east edge of (2, 1)
    click(win.view, 3.0, 1.5)
    mm = win.document.model
    assert mm.border_at(Edge(2, 1, "E")) and mm.border_at(Edge(6, 1, "E"))
    QTest.keyClick(win.view, Qt.Key.Key_H)
    click_tile(win.view, 1, 3)
    assert mm.elevation[3, 1] == 1 and mm.elevation[3, 8] == 1
    QTest.keyClick(win.view, Qt.Key.Key_A)
    win.state.set("team", "blue")
    click_tile(win.view, 1, 4)
    assert (1, 4) in mm.start_zones["blue"] and (8, 4) in mm.start_zones["red"]
    QTest.keyClick(win.view, Qt.Key.Key_C)
    before = win.document.model.copy()
    click_tile(win.view, 2, 2)  # a blue character and its red image at (7, 2)
    chars = {(c.x, c.y): c.team for c in win.document.model.characters.values()}
    assert chars == {(2, 2): "blue", (7, 2): "red"}
    assert win.document.undo_stack.undoText() == "Place Character"
    round_trip(win, before)
    click_tile(win.view, 2, 2, modifiers=Qt.KeyboardModifier.ShiftModifier)  # removes both
    assert win.document.model.characters == {}
    assert differences(win.document.model, "x") == []  # everything painted is symmetric


def test_the_validation_dock_lists_where_the_sides_differ(make_window, qtbot):
    m = MapModel(8, 6)
    m.terrain[1, 1] = 1  # no image at (6, 4) under the rotation
    m.border_e[2, 0] = 2  # a wall east of (0, 2), none east of (6, 3)
    win = make_window(m)
    dock = win.validation
    qtbot.waitUntil(lambda: not dock.timer.isActive(), timeout=3000)
    assert not any(p.code == "asymmetric" for p in dock.problems)  # opt-in: off
    toggle(win)
    qtbot.waitUntil(lambda: any(p.code == "asymmetric" for p in dock.problems), timeout=3000)
    lines = [dock.list.item(i).text() for i in range(dock.list.count())]
    assert "W  tile (1, 1) differs from (6, 4) under rotate 180\N{DEGREE SIGN}: " \
        "terrain impeding vs clear" in lines
    assert any(t.startswith("W  edge (0, 2, E) differs from (6, 3, E)") for t in lines)
    row = next(i for i, p in enumerate(dock.problems) if p.tile == (1, 1))
    win.docks["validation"].show()
    win.docks["validation"].raise_()  # on top of the docks tabbed with it
    qtbot.waitUntil(dock.list.isVisible, timeout=3000)
    with qtbot.waitSignal(dock.place_chosen) as got:
        dock.list.scrollToItem(dock.list.item(row))
        vp = dock.list.viewport()
        pos = dock.list.visualItemRect(dock.list.item(row)).center()
        QTest.mouseClick(vp, Qt.MouseButton.LeftButton, pos=pos)  # as the platform sends it
        QTest.mouseDClick(vp, Qt.MouseButton.LeftButton, pos=pos)
    assert got.args[0].tiles == [(1, 1)]
    QTest.keyClick(win.view, Qt.Key.Key_B)  # paint the image: the warning goes
    click_tile(win.view, 1, 1)
    qtbot.waitUntil(lambda: not any(p.tile == (1, 1) for p in dock.problems), timeout=3000)


def test_check_symmetry_is_quiet_on_a_symmetric_map_and_counts_team_swaps():
    m = MapModel(6, 4)
    m.characters["a"] = Character("a", "blue", 0, 0)
    m.characters["b"] = Character("b", "red", 5, 3)
    m.start_zones = {"blue": {(0, 0)}, "red": {(5, 3)}}
    assert check_symmetry(m, "rotate") == []
    m.characters["b"].team = "blue"  # the same team on both sides: unfair
    m.characters["c"] = Character("c", "red", 3, 3)
    [p] = [p for p in check_symmetry(m, "rotate") if p.tile == (0, 0)]
    assert "character blue vs blue" in p.message
