"""Editing that does what it shows (issue 12, part 2), driven by real mouse and
key events on the map view: cancelled strokes, per-tool options, layer
visibility/lock/opacity, the fill preview, room walls, zone rectangles, stairs."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.editor.testing import Right, click_tile, drag_tiles, move
from sodwa_editor.engine.model import MapModel

CTRL = Qt.KeyboardModifier.ControlModifier


def test_escape_mid_stroke_leaves_the_undo_stack_as_it_was(make_window):
    win = make_window(MapModel(12, 10))
    doc, stack = win.document, win.document.undo_stack
    win.set_tool("brush")
    drag_tiles(win.view, [(1, 1), (4, 1)])
    painted = doc.model.copy()
    QTest.keyClick(win.view, Qt.Key.Key_Z, CTRL)  # undo: "Redo Paint Terrain" is available
    before = doc.model.copy()
    stack.setClean()
    assert (stack.count(), stack.index(), stack.redoText()) == (1, 0, "Paint Terrain")
    drag_tiles(win.view, [(1, 5), (6, 5), (6, 7)], release_at_end=False)
    assert doc.model.terrain[5, 1:7].tolist() == [1] * 6  # the stroke shows while drawn
    QTest.keyClick(win.view, Qt.Key.Key_Z, CTRL)  # no undo in the middle of a stroke
    assert doc.model.terrain[5, 1:7].tolist() == [1] * 6
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    assert doc.model.same_content(before)
    assert (stack.count(), stack.index(), stack.redoText()) == (1, 0, "Paint Terrain")
    assert stack.isClean() and not win.isWindowModified()
    QTest.keyClick(win.view, Qt.Key.Key_Y, CTRL)  # the redo step still works
    assert doc.model.same_content(painted)


def test_a_stroke_still_is_one_undo_step_and_right_button_strokes_too(make_window):
    win = make_window(MapModel(12, 10))
    doc = win.document
    win.set_tool("brush")
    before = doc.model.copy()
    drag_tiles(win.view, [(1, 1), (5, 1), (5, 4)])
    drag_tiles(win.view, [(3, 1), (5, 1)], button=Right)
    assert doc.undo_stack.count() == 2
    assert [doc.undo_stack.text(i) for i in range(2)] == ["Paint Terrain", "Erase Terrain"]
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.model.same_content(before)
    move(win.view, 1.5, 1.5)


def test_each_tool_keeps_its_own_brush_size(make_window):
    win = make_window(MapModel(12, 10))
    view, spin = win.view, win.tool_options.size_spin
    QTest.keyClick(view, Qt.Key.Key_A)  # Start Zone tool
    spin.setFocus()
    spin.selectAll()
    QTest.keyClicks(spin, "3")
    QTest.keyClick(spin, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert win.state.brush_size == 3
    QTest.keyClick(view, Qt.Key.Key_B)  # Brush: its own size, still 1
    assert spin.value() == 1
    click_tile(view, 8, 7)
    assert int((win.document.model.terrain != 0).sum()) == 1
    QTest.keyClick(view, Qt.Key.Key_A)  # back to the zone: 3 again
    assert spin.value() == 3
    click_tile(view, 2, 2)
    assert len(win.document.model.start_zones[win.state.team]) == 9
    for key, size in ((Qt.Key.Key_E, 1), (Qt.Key.Key_L, 1), (Qt.Key.Key_H, 1)):
        QTest.keyClick(view, key)
        assert spin.value() == size
