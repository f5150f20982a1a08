"""Moving a selection by dragging it with the Select tool (issue 29 section 2):
walls and contents come along as one undo step, the paste preview follows the
pointer, refused moves say why and change nothing, Escape cancels.  Real mouse
and key events on the map view's viewport."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from sodwa_editor.editor.style import TILE
from sodwa_editor.editor.testing import click_tile, drag_tiles, move, press, release
from sodwa_editor.editor.tools.wand import selection_mask
from sodwa_editor.engine.model import Character, Edge, MapModel, MapObject

Left = Qt.MouseButton.LeftButton


def room() -> MapModel:
    """A 3x2 room at (2..4, 2..3): impeding floor, level 1 on (3, 2), walls on its
    north side and one wall inside, a transition tile, a zone tile, a knight and
    a crate; a guard outside at (12, 7)."""
    m = MapModel(16, 10)
    m.terrain[2:4, 2:5] = 1
    m.elevation[2, 3] = 1
    m.transition[3, 4] = 1
    for x in (2, 3, 4):
        m.border_s[1, x] = 2  # the room's north wall (on the selection's outline)
    m.border_e[3, 2] = 2  # inside: east of (2, 3)
    m.start_zones["blue"] = {(2, 3), (0, 0)}
    m.characters["k"] = Character("k", "blue", 3, 3, name="Knight")
    m.objects["c"] = MapObject("c", "crate", 4, 2)
    m.characters["g"] = Character("g", "red", 12, 7)
    return m


def select_room(win) -> None:
    QTest.keyClick(win.view, Qt.Key.Key_S)
    drag_tiles(win.view, [(2, 2), (4, 3)])


def test_drag_moves_the_selection_with_walls_and_contents_as_one_step(make_window):
    win = make_window(room())
    before = win.document.model.copy()
    select_room(win)
    drag_tiles(win.view, [(3, 2), (5, 3), (8, 5)])  # press inside, drag by (5, 3)
    m = win.document.model
    assert (m.terrain[5:7, 7:10] == 1).all() and (m.terrain[2:4, 2:5] == 0).all()
    assert m.elevation[5, 8] == 1 and m.elevation[2, 3] == 0
    assert m.transition[6, 9] == 1 and m.transition[3, 4] == 0
    assert [m.border_at(Edge(x, 4, "S")) for x in (7, 8, 9)] == [2, 2, 2]  # outline wall
    assert m.border_at(Edge(7, 6, "E")) == 2  # the inner wall
    assert not m.border_s[1, 2:5].any() and m.border_e[3, 2] == 0  # none left behind
    assert m.start_zones["blue"] == {(7, 6), (0, 0)}
    assert (m.characters["k"].x, m.characters["k"].y) == (8, 6)
    assert (m.objects["c"].x, m.objects["c"].y) == (9, 5)
    assert (m.characters["g"].x, m.characters["g"].y) == (12, 7)  # outside: stays
    stack = win.document.undo_stack
    assert stack.count() == 1 and stack.text(0) == "Move Selection"
    ys, xs = np.nonzero(selection_mask(win.state, m))  # the selection went along
    assert (xs.min(), ys.min(), xs.max(), ys.max()) == (7, 5, 9, 6)
    after = m.copy()
    win.document.undo()
    assert win.document.model.same_content(before)
    win.document.redo()
    assert win.document.model.same_content(after)


def test_the_paste_preview_follows_and_escape_cancels(make_window):
    win = make_window(room())
    before = win.document.model.copy()
    select_room(win)
    press(win.view, 3.5, 2.5)
    move(win.view, 6.5, 4.5, Left)
    item = win.tool.stamp_item
    assert item.isVisible() and item.size == (3, 2)
    assert (item.pos().x(), item.pos().y()) == (4 * TILE, 3 * TILE)  # top-left (5, 4)
    assert "Move selection by 3, 2" in win.statusBar().currentMessage()
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    assert not item.isVisible()
    release(win.view, 6.5, 4.5)
    assert win.document.model.same_content(before)
    assert win.document.undo_stack.count() == 0


def test_refused_moves_say_why_and_change_nothing(make_window):
    win = make_window(room())
    before = win.document.model.copy()
    select_room(win)
    drag_tiles(win.view, [(3, 2), (15, 2)])  # the room's east side would be at x 16
    assert "would leave the map" in win.statusBar().currentMessage()
    drag_tiles(win.view, [(3, 2), (12, 6)])  # the room over the guard at (12, 7)
    assert "would cover character g at (12, 7)" in win.statusBar().currentMessage()
    assert win.document.model.same_content(before)
    assert win.document.undo_stack.count() == 0
    click_tile(win.view, 3, 3)  # a click inside the selection still inspects
    assert win.state.selection.kind == "character"


def test_a_wand_selection_moves_only_its_tiles(make_window):
    m = MapModel(12, 8)
    m.terrain[1, 1:4] = 1  # an L of impeding: (1..3, 1) and (1, 2)
    m.terrain[2, 1] = 1
    m.terrain[2, 2] = 3  # a difficult tile in the L's bounding box, not selected
    win = make_window(m)
    QTest.keyClick(win.view, Qt.Key.Key_Q)
    click_tile(win.view, 1, 1)
    QTest.keyClick(win.view, Qt.Key.Key_S)
    drag_tiles(win.view, [(1, 1), (3, 2), (5, 4)])  # by (4, 3)
    t = win.document.model.terrain
    assert {(int(x), int(y)) for y, x in zip(*np.nonzero(t == 1), strict=True)} == \
        {(5, 4), (6, 4), (7, 4), (5, 5)}
    assert t[2, 2] == 3 and t[5, 6] == 0  # the unselected tile stays; none comes along
    win.document.undo()
    assert (win.document.model.terrain == m.terrain).all()
