"""The Stamp Library dock (issue 29): save the selection as a named stamp (what
Copy takes: tiles, edges with the outline, start zones, characters, objects)
into a library file beside the map or into a map pack, thumbnails drawn from the
stamp, place it rotated or flipped through the paste preview (one undo step per
placement), rename, delete, reorder, load errors in one line.  Real mouse and key
events on the map view and the dock's list and buttons."""

from __future__ import annotations

import json
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit

from sodwa_editor.editor.testing import click_tile, drag_tiles
from sodwa_editor.engine.model import Character, MapModel, MapObject
from sodwa_editor.io import load_map, save_map
from sodwa_editor.io.stamp_library import read_library

Left = Qt.MouseButton.LeftButton
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def tower() -> MapModel:
    """A 2x3 tower at (1..2, 1..3): obstructing (1, 1), level 2, a wall on its
    west outline, a blue zone tile, a knight and a crate on it."""
    m = MapModel(14, 10)
    m.terrain[1, 1] = 2
    m.elevation[1:4, 1:3] = 2
    m.border_e[1:4, 0] = 2  # the wall west of the tower: its outline
    m.start_zones["blue"] = {(2, 3)}
    m.characters["k"] = Character("k", "blue", 2, 2, name="Knight")
    m.objects["c"] = MapObject("c", "crate", 1, 3)
    return m


def saved_window(make_window, tmp_path, model=None):
    path = tmp_path / "maps" / "keep.json"
    path.parent.mkdir(exist_ok=True)
    save_map(model or tower(), path)
    win = make_window(load_map(path), path)
    return win, path


def save_tower(win, name: str = "Tower") -> None:
    QTest.keyClick(win.view, Qt.Key.Key_S)
    drag_tiles(win.view, [(1, 1), (2, 3)])
    QTest.keyClick(win.view, Qt.Key.Key_B, CTRL_SHIFT)  # Save Selection as Stamp
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)  # the new stamp's name, open for typing
    editor.selectAll()
    QTest.keyClicks(editor, name)
    QTest.keyClick(editor, Qt.Key.Key_Return)
    QApplication.processEvents()


def test_save_selection_writes_the_library_beside_the_map(make_window, tmp_path):
    win, path = saved_window(make_window, tmp_path)
    dock = win.stamp_library
    save_tower(win)
    library = path.parent / "stamps.sodwa-stamps.json"
    stamps, problems = read_library(library)
    assert problems == [] and [s.name for s in stamps] == ["Tower"]
    st = stamps[0]
    assert st.size == (2, 3)
    assert st.model.characters["k"].x == 2 and st.model.objects["c"].y == 3  # margin 1
    assert st.model.start_zones == {"blue": {(2, 3)}}
    assert int(st.model.border_e[1, 0]) == 2  # the west wall on its outline
    assert dock.list.item(0).text() == "Tower"
    assert not dock.list.item(0).icon().isNull()  # the thumbnail
    assert win.document.undo_stack.count() == 0  # the map is not edited


def test_place_rotated_is_one_undo_step_with_what_stands_on_it(make_window, tmp_path):
    win, _ = saved_window(make_window, tmp_path)
    save_tower(win)
    dock = win.stamp_library
    QTest.mouseClick(dock.buttons["place"], Left)
    assert win.tool.name == "select" and win.tool.stamp is not None
    QTest.keyClick(win.view, Qt.Key.Key_Z)  # rotate clockwise: 3 wide, 2 high
    assert (win.tool.stamp.width, win.tool.stamp.height) == (3, 2)
    before = win.document.undo_stack.count()
    click_tile(win.view, 9, 6)  # the stamp's centre under the pointer: origin (8, 5)
    m = win.document.model
    assert win.document.undo_stack.count() == before + 1
    assert int(m.elevation[5, 8]) == 2 and int(m.elevation[6, 10]) == 2
    # (1, 1) obstructing -> rotated cw in a 2x3 stamp: (h-1-y, x) = (2, 0)
    assert int(m.terrain[5, 10]) == 2
    knights = [c for c in m.characters.values() if c.name == "Knight"]
    assert len(knights) == 2 and {c.id for c in knights} == {"k", "k-2"}
    new = next(c for c in knights if c.id == "k-2")
    assert (new.x, new.y) == (8 + 1, 5 + 1)  # (1, 1) in the stamp -> (1, 1) rotated
    assert any(o.id == "c-2" for o in m.objects.values())
    assert len(m.start_zones["blue"]) == 2
    win.document.undo()
    assert set(win.document.model.characters) == {"k"}
    assert int(win.document.model.elevation[5, 8]) == 0
    assert win.document.model.start_zones == {"blue": {(2, 3)}}


def test_flip_and_a_taken_tile_keeps_its_character(make_window, tmp_path):
    m = tower()
    m.characters["g"] = Character("g", "red", 9, 6)
    win, _ = saved_window(make_window, tmp_path, m)
    save_tower(win)
    QTest.mouseClick(win.stamp_library.buttons["place"], Left)
    QTest.keyClick(win.view, Qt.Key.Key_X)  # flip left-right
    click_tile(win.view, 9, 6)  # origin (8, 5): the knight's stamp tile (1, 1) -> (0, 1)
    model = win.document.model
    assert (model.characters["k-2"].x, model.characters["k-2"].y) == (8, 6)
    click_tile(win.view, 10, 6)  # origin (9, 5): (0, 1) -> (9, 6), the guard's tile
    assert "not placed" in win.statusBar().currentMessage()
    assert model.characters["g"].team == "red" and "k-3" not in model.characters


def test_rename_delete_reorder_and_a_taken_name(make_window, tmp_path):
    win, path = saved_window(make_window, tmp_path)
    save_tower(win, "Tower")
    save_tower(win, "Gate")
    dock = win.stamp_library
    dock.list.setCurrentRow(1)
    dock.list.setFocus()
    QTest.keyClick(dock.list, Qt.Key.Key_F2)
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)
    editor.selectAll()
    QTest.keyClicks(editor, "Tower")  # taken: refused, the old name stays
    QTest.keyClick(editor, Qt.Key.Key_Return)
    QApplication.processEvents()  # the list's editor commits on the next turn
    assert dock.library.names() == ["Tower", "Gate"]
    assert "named 'Tower' already" in win.statusBar().currentMessage()
    assert dock.list.item(1).text() == "Gate"
    QTest.mouseClick(dock.buttons["up"], Left)
    assert dock.library.names() == ["Gate", "Tower"] and dock.list.currentRow() == 0
    library = path.parent / "stamps.sodwa-stamps.json"
    assert [s.name for s in read_library(library)[0]] == ["Gate", "Tower"]
    dock.list.setCurrentRow(1)
    QTest.mouseClick(dock.buttons["delete"], Left)
    assert [s.name for s in read_library(library)[0]] == ["Gate"]
    QTest.mouseClick(dock.buttons["rename"], Left)
    editor = QApplication.focusWidget()
    editor.selectAll()
    QTest.keyClicks(editor, "Gatehouse")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert [s.name for s in read_library(library)[0]] == ["Gatehouse"]


def test_a_broken_library_is_one_line_and_keeps_the_file(make_window, tmp_path):
    folder = tmp_path / "maps"
    folder.mkdir()
    library = folder / "stamps.sodwa-stamps.json"
    library.write_text('{"format": "sodwa-stamps", "format_version": 1, "stamps": [{"name": 3')
    win, _ = saved_window(make_window, tmp_path)
    text = win.stamp_library.problem.text()
    assert text.startswith("stamp library not loaded: ") and "\n" not in text
    assert "stamps.sodwa-stamps.json" in text
    assert library.read_text().endswith('"name": 3')  # untouched
    bad = tmp_path / "bad.sodwa-stamps.json"
    bad.write_text(json.dumps({"format": "sodwa-stamps", "format_version": 1, "stamps": [
        {"name": "a", "map": {"format": "sodwa-map", "format_version": 2, "name": "a",
                              "width": 2, "height": 3, "terrain": ["..", "..", ".."]}}]}))
    assert not win.stamp_library.use_file(bad)
    assert "stamp 'a': its map is 2 x 3" in win.stamp_library.problem.text()


def test_the_library_in_a_map_pack(make_window, tmp_path):
    from sodwa_editor.io import build_pack, read_pack, save_pack

    win, path = saved_window(make_window, tmp_path)
    pack, _ = build_pack([path], name="p", version="1")
    save_pack(pack, tmp_path / "pack.json")
    assert json.loads((tmp_path / "pack.json").read_text())["format_version"] == 3
    assert win.stamp_library.use_file(tmp_path / "pack.json")
    assert "Library pack: pack.json" in win.stamp_library.where.text()
    save_tower(win)
    doc = json.loads((tmp_path / "pack.json").read_text())
    assert doc["format_version"] == 4 and [s["name"] for s in doc["stamps"]] == ["Tower"]
    again, problems = read_pack(tmp_path / "pack.json")
    assert again is not None and not [p for p in problems if p.is_error]
    assert [s.name for s in read_library(tmp_path / "pack.json")[0]] == ["Tower"]


def test_save_selection_without_a_selection_says_so(make_window, tmp_path):
    win, path = saved_window(make_window, tmp_path)
    QTest.keyClick(win.view, Qt.Key.Key_B, CTRL_SHIFT)
    assert "Select a region first" in win.statusBar().currentMessage()
    assert not (path.parent / "stamps.sodwa-stamps.json").exists()


def test_cut_then_paste_moves_what_stands_on_the_tiles(make_window, tmp_path):
    win, _ = saved_window(make_window, tmp_path)
    QTest.keyClick(win.view, Qt.Key.Key_S)
    drag_tiles(win.view, [(1, 1), (2, 3)])
    QTest.keyClick(win.view, Qt.Key.Key_X, Qt.KeyboardModifier.ControlModifier)
    m = win.document.model
    assert m.characters == {} and m.objects == {} and m.start_zones == {}
    assert win.document.undo_stack.undoText() == "Cut Region"
    QTest.keyClick(win.view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    click_tile(win.view, 9, 6)  # origin (9 - 1, 6 - 1)
    m = win.document.model
    assert [(c.id, c.x, c.y) for c in m.characters.values()] == [("k", 9, 6)]  # no copy
    assert [(o.id, o.x, o.y) for o in m.objects.values()] == [("c", 8, 7)]
    assert m.start_zones == {"blue": {(9, 7)}}
    win.document.undo()
    win.document.undo()
    assert win.document.model.same_content(tower())
