"""Minimap dock: click or drag in it to move the view; shown for maps of 64x64
and more, hidden (its menu entry disabled) for smaller ones."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest

from sodwa_editor.editor.style import TILE
from sodwa_editor.engine.model import MapModel


def _widget_point(minimap, fx: float, fy: float) -> QPoint:
    r = minimap.map_rect()
    m = minimap.document.model
    return QPoint(round(r.left() + fx / m.width * r.width()),
                  round(r.top() + fy / m.height * r.height()))


def _view_centre(win) -> QPointF:
    c = win.view.mapToScene(win.view.viewport().rect().center())
    return QPointF(c.x() / TILE, c.y() / TILE)


def test_click_and_drag_in_the_minimap_move_the_view(make_window, qtbot):
    win = make_window(MapModel(128, 96))
    dock, minimap = win.docks["minimap"], win.minimap
    assert dock.isVisible() and dock.toggleViewAction().isEnabled()
    win.view.set_zoom(1.0)
    qtbot.waitUntil(lambda: minimap.width() > 50)
    QTest.mouseClick(minimap, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     _widget_point(minimap, 100, 70))
    c = _view_centre(win)
    assert abs(c.x() - 100) < 2 and abs(c.y() - 70) < 2
    # the frame follows the view
    frame = minimap.view_rect()
    assert frame.contains(QPointF(_widget_point(minimap, 100, 70)))
    QTest.mousePress(minimap, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     _widget_point(minimap, 30, 20))
    QTest.mouseMove(minimap, _widget_point(minimap, 40, 30))
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication
    # QTest.mouseMove carries no buttons: send the drag step as the platform would
    pos = QPointF(_widget_point(minimap, 45, 35))
    QApplication.sendEvent(minimap, QMouseEvent(
        QMouseEvent.Type.MouseMove, pos, minimap.mapToGlobal(pos), Qt.MouseButton.NoButton,
        Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    QTest.mouseRelease(minimap, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       _widget_point(minimap, 45, 35))
    c = _view_centre(win)
    assert abs(c.x() - 45) < 2 and abs(c.y() - 35) < 2
    assert win.document.undo_stack.count() == 0  # navigating never edits


@pytest.mark.parametrize("size, shown", [((63, 63), False), ((64, 20), True), ((32, 24), False)])
def test_minimap_only_for_maps_of_64_tiles_or_more(make_window, size, shown):
    win = make_window(MapModel(*size))
    dock = win.docks["minimap"]
    assert dock.isVisible() is shown
    assert dock.toggleViewAction().isEnabled() is shown
    if not shown:
        assert "64x64" in dock.toggleViewAction().toolTip()


def test_minimap_comes_back_as_left_when_a_big_map_opens(make_window):
    win = make_window(MapModel(20, 20))
    dock = win.docks["minimap"]
    assert not dock.isVisible()
    win.document.reset(MapModel(100, 100), None)
    assert dock.isVisible() and dock.toggleViewAction().isEnabled()
    dock.toggleViewAction().trigger()  # the user closes it
    assert not dock.isVisible()
    win.document.reset(MapModel(10, 10), None)
    win.document.reset(MapModel(90, 90), None)
    assert not dock.isVisible()  # stays closed: the user's choice


def test_runs_on_small_maps_never_turn_the_minimap_off_for_the_next_big_map(
        make_window, qtbot):
    """Two runs of the editor on small maps, then a run on a 128x128 map: its
    minimap is shown (the second run read the first one's "shown" before its
    window was on screen, took the dock for closed by the user, and saved the
    minimap off: the big map came without it, its View entry unchecked).  A
    minimap the user closes stays closed in the next runs."""
    from test_editor_help import _click_menu_entry

    for _ in range(2):
        win = make_window(MapModel(16, 16))  # the same settings file each run
        assert not win.docks["minimap"].isVisible()
        win.close()
    win = make_window(MapModel(128, 128))
    dock = win.docks["minimap"]
    assert dock.isVisible() and dock.toggleViewAction().isChecked()
    _click_menu_entry(win, qtbot, "View", "Minimap")  # the user closes it
    assert not dock.isVisible()
    win.close()
    win = make_window(MapModel(16, 16))
    win.close()
    win = make_window(MapModel(128, 128))
    assert not win.docks["minimap"].isVisible()  # still closed: the user's choice
    assert win.docks["minimap"].toggleViewAction().isEnabled()
