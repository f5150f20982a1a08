"""Go to Tile (issue 29): Ctrl+G opens a small dialog; a wrong entry is said in one
line and the dialog stays; a good one centres the view on the tile and rings it.
Real key events (Ctrl+G on the map view, typing and Enter in the dialog)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.editor.goto_tile import GoToTileDialog, parse_tile
from sodwa_editor.editor.style import TILE
from sodwa_editor.engine.model import MapModel


def open_dialog(win, qtbot) -> GoToTileDialog:
    QTest.keyClick(win.view, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: win.findChild(GoToTileDialog) is not None
                    and win.findChild(GoToTileDialog).isVisible(), timeout=2000)
    return win.findChild(GoToTileDialog)


def centre_tile(win) -> tuple[float, float]:
    c = win.view.scene_point(QRectF(win.view.viewport().rect()).center())
    return c.x() / TILE, c.y() / TILE


def test_ctrl_g_centres_and_rings_the_typed_tile(make_window, qtbot):
    win = make_window(MapModel(80, 60))
    win.view.set_zoom(2.0)
    win.view.centerOn(QPointF(2 * TILE, 2 * TILE))
    dialog = open_dialog(win, qtbot)
    QTest.keyClicks(dialog.edit, "80, 3")  # off the map: said, the dialog stays
    QTest.keyClick(dialog.edit, Qt.Key.Key_Return)
    assert dialog.isVisible()
    assert dialog.error.text() == "X 80 is off the map: X runs from 0 to 79"
    dialog.edit.clear()
    QTest.keyClicks(dialog.edit, "7 by 3")
    assert "type two whole numbers X, Y" in dialog.error.text()
    dialog.edit.clear()
    QTest.keyClicks(dialog.edit, "61, 47")
    assert dialog.error.text() == ""
    QTest.keyClick(dialog.edit, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert not dialog.isVisible()
    cx, cy = centre_tile(win)
    assert abs(cx - 61.5) < 0.5 and abs(cy - 47.5) < 0.5
    assert win.scene.focus.tiles == [(61, 47)]
    assert "tile 61, 47" in win.statusBar().currentMessage()
    assert win.document.undo_stack.count() == 0  # goes there, edits nothing


def test_escape_leaves_the_view_where_it_was(make_window, qtbot):
    win = make_window(MapModel(80, 60))
    win.view.set_zoom(2.0)
    win.view.centerOn(QPointF(5 * TILE, 5 * TILE))
    before = centre_tile(win)
    dialog = open_dialog(win, qtbot)
    QTest.keyClicks(dialog.edit, "70, 50")
    QTest.keyClick(dialog.edit, Qt.Key.Key_Escape)
    QApplication.processEvents()
    assert not dialog.isVisible() and centre_tile(win) == before


@pytest.mark.parametrize("text,reason", [
    ("", "type the tile as X, Y"), ("3", "two whole numbers"), ("3, 4, 5", "two whole"),
    ("-1, 2", "X -1 is off the map"), ("2, 10", "Y 10 is off the map: Y runs from 0 to 9"),
    ("1.5, 2", "two whole numbers")])
def test_parse_tile_refuses_in_one_line(text, reason):
    with pytest.raises(ValueError, match=reason) as err:
        parse_tile(text, 12, 10)
    assert "\n" not in str(err.value)


def test_parse_tile_reads_the_usual_forms():
    assert parse_tile(" 3, 4 ", 12, 10) == (3, 4)
    assert parse_tile("11 9", 12, 10) == (11, 9)
    assert parse_tile("0;0", 12, 10) == (0, 0)
