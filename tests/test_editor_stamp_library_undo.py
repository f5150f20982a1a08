"""The Stamp Library's own undo stack (issue 29 stamp library; each edit one
named step, as the Roster Editor's and the team editor's): Save Selection (with
the name typed into it), Rename, Delete, Up/Down round trip with the dock's Undo
and Redo buttons and with Ctrl+Z / Ctrl+Y while the dock has the focus, which
leave the map's undo stack alone; the file on disk follows each step."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit
from test_editor_stamp_library import save_tower, saved_window

from sodwa_editor.editor.testing import Left, drag_tiles
from sodwa_editor.io.stamp_library import read_library

CTRL = Qt.KeyboardModifier.ControlModifier


def on_disk(path) -> list[str]:
    return [s.name for s in read_library(path.parent / "stamps.sodwa-stamps.json")[0]]


def click(dock, key: str) -> None:
    QTest.mouseClick(dock.buttons[key], Left)
    QApplication.processEvents()


def test_each_library_edit_is_one_named_step_undone_and_redone(make_window, tmp_path):
    win, path = saved_window(make_window, tmp_path)
    dock = win.stamp_library
    stack = dock.library.undo_stack
    assert not dock.buttons["undo"].isEnabled() and not dock.buttons["redo"].isEnabled()
    save_tower(win, "Tower")
    save_tower(win, "Gate")
    assert stack.count() == 2 and stack.undoText() == "Save Stamp 'Gate'"  # named in it
    assert dock.buttons["undo"].text() == "Undo Save Stamp 'Gate'"
    dock.list.setCurrentRow(1)
    click(dock, "up")
    assert on_disk(path) == ["Gate", "Tower"] and stack.undoText() == "Move Stamp 'Gate' Up"
    click(dock, "delete")  # Gate, the current row after the move
    assert on_disk(path) == ["Tower"] and stack.undoText() == "Delete Stamp 'Gate'"
    click(dock, "rename")
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)
    editor.selectAll()
    QTest.keyClicks(editor, "Keep")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert on_disk(path) == ["Keep"] and stack.undoText() == "Rename Stamp 'Tower' to 'Keep'"
    assert win.document.undo_stack.count() == 0  # the map's history holds none of it
    click(dock, "undo")
    assert on_disk(path) == ["Tower"] and dock.list.item(0).text() == "Tower"
    click(dock, "undo")
    assert on_disk(path) == ["Gate", "Tower"] and dock.list.currentRow() == 0
    click(dock, "undo")
    assert on_disk(path) == ["Tower", "Gate"] and dock.list.currentRow() == 1
    click(dock, "undo")
    click(dock, "undo")
    assert on_disk(path) == [] and dock.list.count() == 0
    assert not dock.buttons["undo"].isEnabled()
    for want in (["Tower"], ["Tower", "Gate"], ["Gate", "Tower"], ["Tower"], ["Keep"]):
        click(dock, "redo")
        assert on_disk(path) == want and dock.library.names() == want
    assert not dock.buttons["redo"].isEnabled()


def test_ctrl_z_in_the_dock_undoes_the_library_and_on_the_map_the_map(make_window, tmp_path):
    win, path = saved_window(make_window, tmp_path)
    dock = win.stamp_library
    save_tower(win, "Tower")
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_R)  # the rectangle tool paints the map
    drag_tiles(win.view, [(6, 6), (7, 7)])
    assert win.document.undo_stack.count() == 1
    dock.list.setFocus()
    QTest.keyClick(dock.list, Qt.Key.Key_Z, CTRL)
    assert on_disk(path) == [] and win.document.undo_stack.index() == 1  # the map kept
    QTest.keyClick(dock.list, Qt.Key.Key_Y, CTRL)
    assert on_disk(path) == ["Tower"]
    QTest.keyClick(dock.list, Qt.Key.Key_Z, CTRL | Qt.KeyboardModifier.ShiftModifier)
    assert on_disk(path) == ["Tower"]  # nothing left to redo; nothing else happened
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_Z, CTRL)
    assert win.document.undo_stack.index() == 0 and on_disk(path) == ["Tower"]


def test_another_library_starts_its_own_history(make_window, tmp_path):
    win, _ = saved_window(make_window, tmp_path)
    dock = win.stamp_library
    save_tower(win, "Tower")
    assert dock.use_file(tmp_path / "other.sodwa-stamps.json")
    assert dock.library.undo_stack.count() == 0 and not dock.buttons["undo"].isEnabled()
