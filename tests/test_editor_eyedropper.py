"""The eyedropper (issue 29): a right-click in every painting tool picks what is
under the pointer into that tool, says so in the status bar and edits nothing;
K does the same at the pointer; Shift + left button does the opposite action;
the Eraser paints Clear with both buttons.  Real mouse and key events on the
map view's viewport."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from sodwa_editor.editor.testing import Right, Shift, click, click_tile, drag_tiles, move
from sodwa_editor.engine.model import INDOOR_YES, Character, Edge, MapModel, MapObject


def sample() -> MapModel:
    m = MapModel(12, 10)
    m.terrain[2, 3] = 1  # impeding at (3, 2)
    m.terrain[4, 5] = 3  # difficult? (whatever type id 3 is)
    m.elevation[6, 6] = 4
    m.border_e[1, 7] = 2  # obstructing east of (7, 1)
    m.indoor_e[1, 7] = INDOOR_YES
    m.start_zones["red"] = {(9, 8)}
    m.put_character(Character("k", "green", 1, 8, name="Knight"))
    m.put_object(MapObject("o", "barrel", 2, 8))
    return m


def status(win) -> str:
    return win.statusBar().currentMessage()


def test_right_click_picks_the_terrain_into_brush_rect_line_and_fill(make_window):
    win = make_window(sample())
    doc = win.document
    before = doc.model.copy()
    names = doc.model.registry
    for key in (Qt.Key.Key_B, Qt.Key.Key_R, Qt.Key.Key_L, Qt.Key.Key_F):
        QTest.keyClick(win.view, key)
        win.state.set("terrain_id", 0)
        click_tile(win.view, 3, 2, button=Right)
        assert win.state.terrain_id == 1, win.tool.name
        assert win.tool_options.terrain.currentData() == 1  # the options bar follows
        assert f"picked {names[1].name} (tile 3, 2) into the {win.tool.label} tool" in status(win)
        click_tile(win.view, 5, 4, button=Right)
        assert win.state.terrain_id == 3
    assert doc.model.same_content(before) and doc.undo_stack.count() == 0  # picks edit nothing
    QTest.keyClick(win.view, Qt.Key.Key_B)
    click_tile(win.view, 0, 0)  # the brush paints what it picked
    assert doc.model.terrain[0, 0] == 3
    drag_tiles(win.view, [(0, 0)], modifiers=Shift)  # Shift paints Clear
    assert doc.model.terrain[0, 0] == 0


def test_right_click_picks_border_level_zone_character_and_object(make_window):
    win = make_window(sample())
    doc, st = win.document, win.state
    before = doc.model.copy()
    QTest.keyClick(win.view, Qt.Key.Key_W)
    st.set("border_id", 1)
    click(win.view, 8.0, 1.5, button=Right)  # on the edge east of (7, 1)
    assert (st.border_id, st.border_indoor) == (2, True)
    assert "border, indoor of edge 7,1,E" in status(win)
    assert win.tool_options.indoor.currentText() == "indoor"
    click(win.view, 4.0, 5.5, button=Right)  # an edge without a border: nothing picked
    assert st.border_id == 2 and "nothing picked" in status(win)
    QTest.keyClick(win.view, Qt.Key.Key_H)
    click_tile(win.view, 6, 6, button=Right)
    assert (st.elevation_level, st.elevation_mode) == (4, "set")
    assert win.tool_options.level.value() == 4
    QTest.keyClick(win.view, Qt.Key.Key_A)
    click_tile(win.view, 9, 8, button=Right)
    assert st.team == "red" and "team red's start zone" in status(win)
    QTest.keyClick(win.view, Qt.Key.Key_C)
    click_tile(win.view, 1, 8, button=Right)
    assert st.team == "green" and st.roster_entry["name"] == "Knight"
    QTest.keyClick(win.view, Qt.Key.Key_O)
    click_tile(win.view, 2, 8, button=Right)
    assert st.object_kind == "barrel" and win.tool_options.kind.currentText() == "barrel"
    assert doc.model.same_content(before) and doc.undo_stack.count() == 0
    # the level picked is painted: set mode, one undo step
    QTest.keyClick(win.view, Qt.Key.Key_H)
    click_tile(win.view, 0, 0)
    assert doc.model.elevation[0, 0] == 4
    doc.undo_stack.undo()
    assert doc.model.same_content(before)
    doc.undo_stack.redo()
    assert doc.model.elevation[0, 0] == 4


def test_k_picks_at_the_pointer_and_the_eraser_keeps_clear_on_both_buttons(make_window):
    win = make_window(sample())
    doc, st = win.document, win.state
    QTest.keyClick(win.view, Qt.Key.Key_B)
    st.set("terrain_id", 0)
    move(win.view, 3.5, 2.5)
    QTest.keyClick(win.view, Qt.Key.Key_K)
    assert st.terrain_id == 1
    QTest.keyClick(win.view, Qt.Key.Key_E)
    QTest.keyClick(win.view, Qt.Key.Key_K)  # the eraser picks nothing, and says so
    assert "Eraser tool has nothing to pick" in status(win)
    drag_tiles(win.view, [(3, 2)], button=Right)  # the right button erases
    assert doc.model.terrain[2, 3] == 0 and doc.undo_stack.count() == 1
    drag_tiles(win.view, [(5, 4)])
    assert doc.model.terrain[4, 5] == 0


def test_shift_click_removes_what_right_click_used_to(make_window):
    win = make_window(sample())
    doc = win.document
    QTest.keyClick(win.view, Qt.Key.Key_A)
    drag_tiles(win.view, [(9, 8)], modifiers=Shift)
    assert "red" not in doc.model.start_zones
    QTest.keyClick(win.view, Qt.Key.Key_W)
    click(win.view, 8.0, 1.5, modifiers=Shift)
    assert doc.model.border_at(Edge(7, 1, "E")) == 0
    QTest.keyClick(win.view, Qt.Key.Key_C)
    click_tile(win.view, 1, 8, modifiers=Shift)
    assert not doc.model.characters
    assert doc.undo_stack.count() == 3
