"""Magic wand (Q) and Select Same (Shift+Q), issue 29: a click selects the
contiguous tiles of one terrain and level (stopped by borders, as Fill), or all
of them; Shift adds, Ctrl takes away (the Select tool's drag too); the selection
feeds Copy, Paste and Delete, which touch only its tiles and their edges.  Real
mouse and key events on the map view."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

from sodwa_editor.editor.testing import Shift, click_tile, drag_tiles, move
from sodwa_editor.editor.tools.wand import selection_mask
from sodwa_editor.engine.model import Edge, MapModel

CTRL = Qt.KeyboardModifier.ControlModifier


def lakes() -> MapModel:
    """Two impeding blobs of level 0 and one of level 1, a wall cutting a blob."""
    m = MapModel(12, 10)
    m.terrain[1:3, 1:4] = 1  # blob A: (1..3, 1..2)
    m.terrain[6:8, 7:10] = 1  # blob B: (7..9, 6..7)
    m.terrain[5, 1] = 1  # C: (1, 5), level 1
    m.elevation[5, 1] = 1
    m.border_e[1, 2] = 2  # walls east of (2, 1) and south of (3, 1): (3, 1) cut off A,
    m.border_s[1, 3] = 2  # which is an L of five tiles
    m.border_e[8, 3] = 2
    return m


def selected(win) -> set[tuple[int, int]]:
    ys, xs = np.nonzero(selection_mask(win.state, win.document.model))
    return set(zip(xs.tolist(), ys.tolist(), strict=True))


def test_wand_select_same_add_and_subtract(make_window):
    win = make_window(lakes())
    QTest.keyClick(win.view, Qt.Key.Key_Q)
    assert win.tool.name == "wand"
    click_tile(win.view, 2, 2)
    a = {(1, 1), (2, 1), (1, 2), (2, 2), (3, 2)}  # the walls keep (3, 1) out, as Fill
    assert selected(win) == a
    assert set(win.scene.selection.tiles) == a
    assert "5 tile(s) selected" in win.statusBar().currentMessage()
    labels = [w.text() for w in win.inspector.findChildren(QLabel)]
    assert "5 of the rectangle's 6" in labels  # the Inspector counts the tiles
    click_tile(win.view, 8, 7, modifiers=Shift)  # Shift adds blob B
    b = {(x, y) for x in range(7, 10) for y in range(6, 8)}
    assert selected(win) == a | b
    click_tile(win.view, 1, 5, modifiers=Shift)  # level 1: its own blob
    assert selected(win) == a | b | {(1, 5)}
    click_tile(win.view, 2, 1, modifiers=CTRL)  # Ctrl takes blob A away
    assert selected(win) == b | {(1, 5)}
    QTest.keyClick(win.view, Qt.Key.Key_Q, Qt.KeyboardModifier.ShiftModifier)
    assert win.tool.name == "select_same"
    click_tile(win.view, 2, 1)  # every impeding tile at level 0, walls or not
    assert selected(win) == a | b | {(3, 1)}
    click_tile(win.view, 0, 0)  # clear ground at level 0: all the rest
    assert len(selected(win)) == 12 * 10 - 6 - 6 - 1
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    assert selected(win) == set() and win.scene.selection.tiles == []
    assert win.document.undo_stack.count() == 0


def test_select_tool_drag_adds_and_subtracts(make_window):
    win = make_window(lakes())
    QTest.keyClick(win.view, Qt.Key.Key_S)
    drag_tiles(win.view, [(0, 0), (2, 1)])
    drag_tiles(win.view, [(5, 5), (6, 6)], modifiers=Shift)
    drag_tiles(win.view, [(1, 0), (1, 1)], modifiers=CTRL)
    assert selected(win) == {(0, 0), (2, 0), (0, 1), (2, 1), (5, 5), (6, 5), (5, 6), (6, 6)}


def test_copy_paste_delete_take_only_the_wand_tiles(make_window):
    m = lakes()
    win = make_window(m)
    doc = win.document
    QTest.keyClick(win.view, Qt.Key.Key_Q)
    click_tile(win.view, 8, 6)  # blob B: a whole rectangle
    QTest.keyClick(win.view, Qt.Key.Key_C, CTRL)
    assert "Copied 3 x 2 tiles" in win.statusBar().currentMessage()
    click_tile(win.view, 1, 1)  # blob A: an L of five tiles
    QTest.keyClick(win.view, Qt.Key.Key_C, CTRL)
    assert "Copied 5 (of 3 x 2) tiles" in win.statusBar().currentMessage()
    before = doc.model.copy()
    QTest.keyClick(win.view, Qt.Key.Key_V, CTRL)  # paste: Select tool, stamp follows
    move(win.view, 6.5, 2.5)
    click_tile(win.view, 6, 2)  # top-left (5, 1): the L on 5..7 x 1..2 but (7, 1)
    t = doc.model.terrain
    assert t[1, 5:7].tolist() == [1, 1] and t[2, 5:8].tolist() == [1, 1, 1]
    assert t[1, 7] == 0  # not of the stamp: left as it was
    assert doc.model.border_at(Edge(6, 1, "E")) == 2  # the L's walls came along
    assert doc.model.border_at(Edge(7, 1, "S")) == 2
    doc.undo_stack.undo()
    assert doc.model.same_content(before)
    doc.undo_stack.redo()
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    # Delete clears only the selected L, its edges included, nothing around it
    QTest.keyClick(win.view, Qt.Key.Key_Q)
    click_tile(win.view, 1, 2)
    before = doc.model.copy()
    QTest.keyClick(win.view, Qt.Key.Key_Delete)
    t = doc.model.terrain
    assert t[1:3, 1:4].tolist() == [[0, 0, 1], [0, 0, 0]]
    assert doc.model.border_at(Edge(2, 1, "E")) == 0  # on the L's outline: cleared
    assert doc.model.border_at(Edge(3, 1, "S")) == 0
    assert doc.model.border_at(Edge(3, 8, "E")) == 2  # elsewhere: kept
    doc.undo_stack.undo()
    assert doc.model.same_content(before)
