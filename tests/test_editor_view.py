"""Map view navigation: zoom (wheel, shortcuts, fit, 100%), pan (middle drag,
Space + drag) and the status bar read-outs."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.editor.testing import drag, move, press, release
from sodwa_editor.engine import samples
from sodwa_editor.engine.model import Edge, MapModel

CTRL = Qt.KeyboardModifier.ControlModifier


def test_zoom_shortcuts_and_wheel(make_window):
    win = make_window(MapModel(128, 128))
    view = win.view
    QTest.keyClick(view, Qt.Key.Key_1, CTRL)
    assert view.zoom() == pytest.approx(1.0)
    QTest.keyClick(view, Qt.Key.Key_Equal, CTRL)
    assert view.zoom() == pytest.approx(1.25)
    QTest.keyClick(view, Qt.Key.Key_Minus, CTRL)
    assert view.zoom() == pytest.approx(1.0)
    QTest.keyClick(view, Qt.Key.Key_0, CTRL)
    assert view.zoom() < 0.3  # the whole 128x128 map fits
    assert win.zoom_label.text() == f"{view.zoom() * 100:.0f}%"
    before = view.zoom()
    pos = QPointF(view.viewport().rect().center())
    wheel = QWheelEvent(pos, QPointF(view.viewport().mapToGlobal(pos.toPoint())), QPoint(0, 0),
                        QPoint(0, 120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), wheel)
    assert view.zoom() > before


def test_pan_with_middle_drag_and_space_drag(make_window):
    win = make_window(MapModel(128, 128))
    view = win.view
    view.set_zoom(2)
    view.center_on_tile(64, 64)
    h = view.horizontalScrollBar()
    start = h.value()
    drag(view, [(64, 64), (62, 64)], button=Qt.MouseButton.MiddleButton)
    assert h.value() != start
    assert win.document.undo_stack.count() == 0  # panning never edits
    start = h.value()
    QTest.keyPress(view, Qt.Key.Key_Space)
    press(view, 64, 64)
    move(view, 60, 64, Qt.MouseButton.LeftButton)
    release(view, 60, 64)
    QTest.keyRelease(view, Qt.Key.Key_Space)
    assert h.value() != start
    assert win.document.undo_stack.count() == 0


def test_status_bar_reads_tile_terrain_elevation_and_edge(make_window):
    win = make_window(samples.tiered_keep())
    move(win.view, 7.5, 13.5)
    assert win.tile_label.text() == "7, 13"
    assert win.terrain_label.text() == "clear, level 0 transition"
    move(win.view, 7.5, 13.02)  # on the stairs' transition border
    assert win.edge_label.text() == "edge 7,12,S: no border, transition"


def test_status_bar_says_indoor_or_outdoor_for_obstructions(make_window):
    m = MapModel(6, 4)
    m.terrain[1, 1] = 2
    m.set_border(Edge(3, 1, "E"), 2)
    m.set_tile_indoor(1, 1, True)
    win = make_window(m)
    move(win.view, 1.5, 1.5)
    assert win.terrain_label.text() == "obstructing, level 0, indoor"
    move(win.view, 4.02, 1.5)
    assert win.edge_label.text() == "edge 3,1,E: obstructing, outdoor"



def test_hovering_does_not_lay_out_the_window_again(make_window):
    """Once the status fields have shown their widest texts, hovering and the
    steps of a stroke change their texts without a layout request to the
    status bar or the window: a label that resized with its text made the
    main window lay out its docks again on every move (a third of a stroke
    step's repaint)."""
    from PySide6.QtCore import QEvent, QObject

    class Requests(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.count = 0

        def eventFilter(self, obj, event):  # noqa: N802 (Qt override)
            if event.type() == QEvent.Type.LayoutRequest:
                self.count += 1
            return False

    m = MapModel(12, 12)
    m.terrain[1, 1] = 2
    m.set_border(Edge(10, 10, "E"), 2)
    win = make_window(m)
    move(win.view, 10.5, 10.5)
    move(win.view, 11.02, 10.5)  # the widest texts: an edge and its wall
    move(win.view, 1.5, 1.5)  # an obstruction, indoor or outdoor
    assert win.edge_label.text() == "" and "outdoor" in win.terrain_label.text()
    for _ in range(3):  # the fields' last resize laid out (the read-outs refresh once
        QApplication.processEvents()  # per event-loop turn, after the hover)
    requests = Requests()
    for widget in (win, win.statusBar()):
        widget.installEventFilter(requests)
    for x in range(2, 8):
        move(win.view, x + 0.5, 5.5)
        assert win.tile_label.text() == f"{x}, 5"
    for _ in range(3):
        QApplication.processEvents()
    hover_count = requests.count
    press(win.view, 2.5, 7.5)
    for x in range(3, 8):
        move(win.view, x + 0.5, 7.5, Qt.MouseButton.LeftButton)
    for _ in range(3):
        QApplication.processEvents()
    stroke_count = requests.count
    for widget in (win, win.statusBar()):
        widget.removeEventFilter(requests)
    release(win.view, 7.5, 7.5)  # the stroke's end: one undo step (the History dock)
    assert win.tile_label.text() == "7, 7"
    assert win.document.model.terrain[7, 7] == win.state.terrain_id
    assert (hover_count, stroke_count) == (0, 0)


def test_tool_tips_show_shortcuts(make_window):
    win = make_window()
    assert win.action_map["tool_brush"].toolTip().endswith("(B)")
    assert "Ctrl+Z" in win.action_map["undo"].toolTip()
    assert win.action_map["zoom_fit"].shortcut().toString() == "Ctrl+0"


def test_readme_lists_every_menu_shortcut(make_window):
    """The README's shortcut table is the one users read: it is the generated
    sheet (editor/shortcuts.py), which names every key sequence of every action
    as the menus write it (portable text)."""
    from pathlib import Path

    from PySide6.QtGui import QKeySequence

    from sodwa_editor.editor import shortcuts

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    assert shortcuts.readme_block(readme) == shortcuts.markdown(), (
        "README.md is out of date: python -m sodwa_editor.editor.shortcuts README.md")
    win = make_window()
    keys = {seq.toString(QKeySequence.SequenceFormat.PortableText)
            for action in win.action_map.values() for seq in action.shortcuts()}
    assert {"Ctrl+Shift+L", "Del", "B", "Ctrl+Y", "F1"} <= keys
    missing = sorted(keys - shortcuts.sheet_keys())
    assert missing == []


def test_main_tool_bar_fits_a_1280_pixel_screen(make_window):
    from PySide6.QtWidgets import QToolBar

    win = make_window()
    bar = win.findChild(QToolBar, "main_toolbar")
    assert bar.sizeHint().width() <= 1280
    los = win.action_map["preview_los"]
    assert los.iconText() == "LoS" and los.text() == "&LoS Fan"
    assert los.toolTip().startswith("LoS Fan")
