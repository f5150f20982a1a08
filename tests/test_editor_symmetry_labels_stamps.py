"""Symmetry painting applied to labels and stamp placements (issue 29 section 2:
"applied to every tool"): a label written with the Label tool and a stamp placed
(paste or the Stamp Library) get their mirrored copies in the same undo step;
the stamp's image is flipped as the map is mirrored and its characters and zones
swap teams; where the copies overlap the placed stamp wins; Delete of a
selection is never mirrored.  Real mouse and key events on the map view."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.editor.stamp import Stamp
from sodwa_editor.editor.symmetry_edits import stamp_images
from sodwa_editor.editor.testing import Shift, click_tile, drag_tiles, move
from sodwa_editor.engine.model import Character, MapModel, Rect
from sodwa_editor.engine.symmetry import differences

CTRL = Qt.KeyboardModifier.ControlModifier


def round_trip(win, before: MapModel) -> None:
    after = win.document.model.copy()
    win.document.undo()
    assert win.document.model.same_content(before)
    win.document.redo()
    assert win.document.model.same_content(after)


def write_label(win, x: int, y: int, text: str) -> None:
    click_tile(win.view, x, y)
    QTest.keyClicks(win.tool.editor, text)
    QTest.keyClick(win.tool.editor, Qt.Key.Key_Return)
    QApplication.processEvents()


def test_a_label_and_its_images_are_one_step_and_delete_takes_them_together(make_window):
    win = make_window(MapModel(10, 6))
    before = win.document.model.copy()
    win.action_map["symmetry_both"].trigger()
    QTest.keyClick(win.view, Qt.Key.Key_N)
    write_label(win, 1, 2, "Ford")
    m = win.document.model
    assert sorted((lb.x, lb.y, lb.text) for lb in m.labels.values()) == [
        (1, 2, "Ford"), (1, 3, "Ford"), (8, 2, "Ford"), (8, 3, "Ford")]
    assert win.document.undo_stack.count() == 1
    assert win.document.undo_stack.undoText() == "Add Label"
    round_trip(win, before)
    write_label(win, 4, 0, "Gate")  # a label of another text stays when Ford goes
    click_tile(win.view, 8, 3, modifiers=Shift)  # Shift+click an image: all four go
    assert [lb.text for lb in win.document.model.labels.values()].count("Ford") == 0
    assert len(win.document.model.labels) == 4  # Gate and its three images
    win.document.undo()
    assert [lb.text for lb in win.document.model.labels.values()].count("Ford") == 4


def test_a_label_on_its_own_image_tile_is_written_once(make_window):
    win = make_window(MapModel(9, 5))
    win.action_map["symmetry_rotate"].trigger()
    QTest.keyClick(win.view, Qt.Key.Key_N)
    write_label(win, 4, 2, "Centre")  # the centre of a 9 x 5 map is its own image
    assert [(lb.x, lb.y) for lb in win.document.model.labels.values()] == [(4, 2)]


def camp() -> MapModel:
    """A blue camp to copy: obstructing (1, 1), Difficult (2, 1), level 1 under
    both, a wall east of (2, 1), a blue zone tile and a blue knight; red's zone
    across the map so the mirrored side is red."""
    m = MapModel(12, 6)
    m.terrain[1, 1], m.terrain[1, 2] = 2, 3
    m.elevation[1, 1:3] = 1
    m.border_e[1, 2] = 2
    m.start_zones = {"blue": {(1, 1)}, "red": {(11, 5)}}
    m.characters["k"] = Character("k", "blue", 2, 1, name="Knight")
    return m


def test_a_pasted_stamp_is_mirrored_with_teams_swapped_in_one_step(make_window):
    win = make_window(camp())
    view = win.view
    QTest.keyClick(view, Qt.Key.Key_S)
    drag_tiles(view, [(1, 1), (2, 1)])
    QTest.keyClick(view, Qt.Key.Key_C, CTRL)
    win.action_map["symmetry_x"].trigger()
    before = win.document.model.copy()
    QTest.keyClick(view, Qt.Key.Key_V, CTRL)
    move(view, 2.5, 3.5)  # the preview shows where the mirrored copy lands
    assert sorted(win.tool.copies.tiles) == [(9, 3), (10, 3)]
    click_tile(view, 2, 3)  # 2 x 1 stamp, its centre under the pointer: origin (1, 3)
    m = win.document.model
    assert win.document.undo_stack.count() == 1
    assert m.terrain[3, 1:3].tolist() == [2, 3]
    assert m.terrain[3, 9:11].tolist() == [3, 2]  # the image, flipped left-right
    assert m.elevation[3, 9] == m.elevation[3, 10] == 1
    assert m.border_e[3, 2] == 2 and m.border_e[3, 8] == 2  # the wall's image
    chars = {(c.x, c.y): c.team for c in m.characters.values()}
    assert chars == {(2, 1): "blue", (2, 3): "blue", (9, 3): "red"}
    assert (1, 3) in m.start_zones["blue"] and (10, 3) in m.start_zones["red"]
    assert differences(m, "x") == differences(before, "x")  # the paste added none
    round_trip(win, before)
    QTest.keyClick(view, Qt.Key.Key_Escape)  # out of the paste: no copies drawn
    assert win.tool.copies.tiles == []


def test_a_stamp_crossing_the_mirror_line_keeps_its_own_tiles(make_window):
    m = MapModel(6, 4)
    win = make_window(m)
    stamp = Stamp.from_region(_row(2, 3), Rect(0, 0, 3, 0))  # 4 wide: 2, 3, 0, 0
    # covering x 1..4 of 6, its image covers the same tiles: no image
    assert stamp_images("x", win.document.model, stamp, 1, 1) == []
    (image, x, y), = stamp_images("x", win.document.model, stamp, 0, 1)
    assert (x, y) == (2, 1) and image.mask.tolist() == [[False, False, True, True]]
    win.document.symmetry = "x"
    assert win.document.paste_stamp(stamp, 0, 1)  # covers 0..3; its image 2..5
    assert win.document.model.terrain[1].tolist() == [2, 3, 0, 0, 3, 2]
    assert win.document.undo_stack.count() == 1


def _row(*values: int) -> MapModel:
    m = MapModel(4, 1)
    m.terrain[0, :len(values)] = values
    return m


def test_delete_of_a_selection_is_not_mirrored(make_window):
    m = camp()
    m.terrain[1, 9:11] = 2
    win = make_window(m)
    win.action_map["symmetry_x"].trigger()
    QTest.keyClick(win.view, Qt.Key.Key_S)
    drag_tiles(win.view, [(1, 1), (2, 1)])
    QTest.keyClick(win.view, Qt.Key.Key_Delete)
    mm = win.document.model
    assert mm.terrain[1, 1:3].tolist() == [0, 0] and mm.terrain[1, 9:11].tolist() == [2, 2]


def test_an_image_that_would_wall_in_a_creature_is_not_placed(make_window):
    m = camp()
    m.characters["g"] = Character("g", "red", 10, 3)  # where the image puts its wall
    win = make_window(m)
    view = win.view
    QTest.keyClick(view, Qt.Key.Key_S)
    drag_tiles(view, [(1, 1), (2, 1)])
    QTest.keyClick(view, Qt.Key.Key_C, CTRL)
    win.action_map["symmetry_x"].trigger()
    QTest.keyClick(view, Qt.Key.Key_V, CTRL)
    click_tile(view, 2, 3)
    mm = win.document.model
    assert mm.terrain[3, 1:3].tolist() == [2, 3]  # the stamp itself is placed
    assert mm.terrain[3, 9:11].tolist() == [0, 0] and mm.characters["g"].x == 10
    assert "its image at (9, 3) is not placed" in win.statusBar().currentMessage()
    assert win.document.undo_stack.count() == 1
