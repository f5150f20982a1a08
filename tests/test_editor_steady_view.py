"""The view does not move under the pointer (issue 12, part 1): wheel zoom keeps
the tile under the pointer, docks and tool bars keep their geometry whatever they
show, maps open fitted, and Enter/Escape in a tool option give the keys back to
the map.  All driven by real events on the window."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolBar

from sodwa_editor.editor.style import TILE
from sodwa_editor.editor.testing import click, click_tile, drag_tiles, move, view_point
from sodwa_editor.engine import samples
from sodwa_editor.engine.model import MapModel
from sodwa_editor.io import save_map

CTRL = Qt.KeyboardModifier.ControlModifier


def wheel(view, pos: QPoint, notches: int) -> None:
    """``notches`` real wheel events (120 units each, negative: towards the user)."""
    step = QPoint(0, 120 if notches > 0 else -120)
    for _ in range(abs(notches)):
        event = QWheelEvent(QPointF(pos), QPointF(view.viewport().mapToGlobal(pos)), QPoint(0, 0),
                            step, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                            Qt.ScrollPhase.NoScrollPhase, False)
        QApplication.sendEvent(view.viewport(), event)
        QApplication.processEvents()


def scene_at(view, pos: QPoint) -> QPointF:
    """The scene point (pixels) at a viewport pixel."""
    inverse, _ok = view.viewportTransform().inverted()
    return inverse.map(QPointF(pos))


def test_wheel_zoom_keeps_the_tile_under_the_pointer(make_window):
    win = make_window(MapModel(256, 256))
    view = win.view
    QTest.keyClick(view, Qt.Key.Key_0, CTRL)  # fitted: the whole map in view
    fit = view.zoom()
    move(view, 110.5, 72.5)
    pos = view_point(view, 110.5, 72.5)
    before = scene_at(view, pos)
    wheel(view, pos, 10)
    assert view.zoom() > 5 * fit
    after = scene_at(view, pos)
    assert (int(after.x() // TILE), int(after.y() // TILE)) == (110, 72)
    # to the screen pixel, not just the tile
    assert abs(after.x() - before.x()) * view.zoom() <= 1
    assert abs(after.y() - before.y()) * view.zoom() <= 1
    wheel(view, pos, -10)  # and back out again: still the same point
    back = scene_at(view, pos)
    assert view.zoom() == pytest.approx(fit, rel=1e-6)
    assert abs(back.x() - before.x()) * view.zoom() <= 1
    assert abs(back.y() - before.y()) * view.zoom() <= 1


def test_wheel_zoom_near_the_map_corner_keeps_the_corner_tile(make_window):
    """The view scrolls beyond the map's sides, so even a corner tile stays put."""
    win = make_window(MapModel(64, 48))
    view = win.view
    QTest.keyClick(view, Qt.Key.Key_0, CTRL)
    move(view, 0.5, 0.5)
    pos = view_point(view, 0.5, 0.5)
    wheel(view, pos, 8)
    after = scene_at(view, pos)
    assert (int(after.x() // TILE), int(after.y() // TILE)) == (0, 0)


def geometry(win) -> dict:
    """Where the map sits on the window and what surrounds it."""
    bar = win.findChild(QToolBar, "main_toolbar")
    return {
        "map": (win.view.viewport().mapTo(win, QPoint(0, 0)), win.view.viewport().size()),
        "docks": {k: d.width() for k, d in win.docks.items() if d.isVisible()},
        "options": win.tool_options.height(),
        "buttons": [bar.widgetForAction(win.action_map[k]).geometry()
                    for k in ("undo", "redo", "tool_brush", "tool_object", "preview_graph")],
    }


def test_docks_keep_their_width_whatever_they_show(make_window):
    win = make_window(MapModel(24, 16))
    QApplication.processEvents()
    start = geometry(win)
    win.set_tool("character")
    click_tile(win.view, 22, 13)  # the first character: the Inspector shows its form
    QApplication.processEvents()
    assert win.document.model.character_at(22, 13) is not None
    assert geometry(win)["docks"] == start["docks"]
    assert geometry(win)["map"] == start["map"]
    win.set_tool("select")
    click(win.view, 3.0, 4.5)  # an edge
    click_tile(win.view, 22, 13)  # back to the character
    win.document.update_character(next(iter(win.document.model.characters)),
                                  name="A very long character name for the inspector")
    QApplication.processEvents()
    assert geometry(win)["docks"] == start["docks"]
    assert geometry(win)["map"] == start["map"]


def test_tool_bars_keep_their_geometry(make_window):
    """A tool without options keeps the options bar's height, and the Undo button
    keeps its width whatever the command is called; the name is in its tool tip."""
    win = make_window(MapModel(24, 16))
    QApplication.processEvents()
    start = geometry(win)
    for name in ("transition", "indoor", "select", "zone", "character", "brush"):
        QTest.keyClick(win.view, win.tools[name].shortcut)
        QApplication.processEvents()
        assert win.tool is win.tools[name]
        assert geometry(win) == start, name
    win.set_tool("line")
    drag_tiles(win.view, [(1, 3), (6, 3)])
    QApplication.processEvents()
    assert geometry(win) == start
    undo = win.action_map["undo"]
    assert undo.toolTip() == "Undo Paint Line (Ctrl+Z)"
    assert undo.text().replace("&", "") == "Undo Paint Line"  # the Edit menu names it
    QTest.keyClick(win.view, Qt.Key.Key_Z, CTRL)
    QApplication.processEvents()
    assert win.action_map["redo"].toolTip().startswith("Redo Paint Line (")
    assert geometry(win) == start


def fitted(view) -> bool:
    """The whole map (and its labels) is in view and fills it in one direction."""
    rect = view.scene().sceneRect()
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    vp = view.viewport().size()
    fill = max(rect.width() * view.zoom() / vp.width(), rect.height() * view.zoom() / vp.height())
    return shown.contains(rect) and fill > 0.98


def test_a_256_map_opens_fitted_and_stays_fitted_while_the_window_is_laid_out(
        make_window, tmp_path):
    path = tmp_path / "big.json"
    save_map(MapModel(256, 256, name="big"), path)
    win = make_window(MapModel(8, 8))
    assert win.files.open_map(path)
    QApplication.processEvents()
    assert fitted(win.view)
    for size in ((1000, 700), (1400, 980), (1280, 860)):  # e.g. maximised by the window manager
        win.resize(*size)
        QApplication.processEvents()
        assert fitted(win.view), size
    QTest.keyClick(win.view, Qt.Key.Key_Equal, CTRL)  # the user zooms: no more refitting
    zoom = win.view.zoom()
    win.resize(1100, 800)
    QApplication.processEvents()
    assert win.view.zoom() == zoom


def test_a_new_window_shows_its_map_fitted(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from sodwa_editor.editor.main_window import MainWindow

    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    win = MainWindow(MapModel(256, 256), settings=settings, recovery_dir=tmp_path / "rec")
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    win.resize(1200, 800)
    QApplication.processEvents()
    assert fitted(win.view)
    win.document.undo_stack.setClean()
    win.close()


def test_a_recovered_map_opens_fitted(make_window, tmp_path):
    rec = tmp_path / "rec"
    first = make_window(MapModel(96, 64), recovery_dir=rec)
    first.set_tool("brush")
    drag_tiles(first.view, [(10, 5), (12, 5)])
    assert first.recovery.autosave()
    first.recovery.lock.unlock()  # the first editor crashed
    first.recovery.lock = None
    first.recovery.file = tmp_path / "elsewhere.json"
    second = make_window(samples.tiered_keep(), recovery_dir=rec)
    assert second.offer_recovery(ask=False)
    QApplication.processEvents()
    assert second.document.model.width == 96
    assert fitted(second.view)


@pytest.mark.parametrize("key", [Qt.Key.Key_Return, Qt.Key.Key_Escape])
def test_enter_or_escape_in_a_tool_option_gives_the_keys_back_to_the_map(make_window, key):
    win = make_window(MapModel(24, 16))
    win.set_tool("brush")
    spin = win.tool_options.size_spin
    spin.setFocus()
    QApplication.processEvents()
    assert QApplication.focusWidget() is not win.view
    spin.selectAll()
    QTest.keyClicks(QApplication.focusWidget(), "3")
    QTest.keyClick(QApplication.focusWidget(), key)
    QApplication.processEvents()
    assert QApplication.focusWidget() is win.view
    if key == Qt.Key.Key_Return:
        assert win.state.brush_size == 3
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_R)  # single-key shortcut at once
    assert win.tool is win.tools["rect"]


def test_enter_in_the_team_box_gives_the_keys_back_to_the_map(make_window):
    win = make_window(samples.tiered_keep())
    win.set_tool("zone")
    move(win.view, 3.5, 4.5)
    box = win.tool_options.team
    box.setFocus()
    box.lineEdit().selectAll()
    QTest.keyClicks(QApplication.focusWidget(), "orcs")
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    QApplication.processEvents()
    assert win.state.team == "orcs"
    assert QApplication.focusWidget() is win.view
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_P)  # pin the preview source
    assert win.previews.pinned == (3, 4)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_B)
    assert win.tool is win.tools["brush"]

