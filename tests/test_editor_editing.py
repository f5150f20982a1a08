"""Editing that does what it shows (issue 12, part 2), driven by real mouse and
key events on the map view: cancelled strokes, per-tool options, layer
visibility/lock/opacity, the fill preview, room walls, zone rectangles, stairs."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.editor.testing import (
    Shift,
    click,
    click_tile,
    drag,
    drag_tiles,
    move,
    press,
    release,
    view_point,
)
from sodwa_editor.engine.model import Character, Edge, MapModel

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


def test_a_stroke_still_is_one_undo_step_and_shift_strokes_too(make_window):
    win = make_window(MapModel(12, 10))
    doc = win.document
    win.set_tool("brush")
    before = doc.model.copy()
    drag_tiles(win.view, [(1, 1), (5, 1), (5, 4)])
    drag_tiles(win.view, [(3, 1), (5, 1)], modifiers=Shift)
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


def walled_room() -> MapModel:
    """A 16x12 map with a room: tiles 2..7 x 3..8, Obstructing walls on its outline
    (an Indoor one on the north side), a transition border and a door gap."""
    m = MapModel(16, 12)
    wall = m.registry.id_of("obstructing")
    m.elevation[3:9, 2:8] = 1
    for y in range(3, 9):
        m.set_border(Edge(1, y, "E"), wall)
        m.set_border(Edge(7, y, "E"), wall)
    for x in range(2, 8):
        m.set_border(Edge(x, 2, "S"), wall, indoor=True)
        if x != 4:
            m.set_border(Edge(x, 8, "S"), wall)
    m.set_transition_edge(Edge(4, 8, "S"), True)  # the door is a stair down
    m.terrain[5, 4] = m.registry.id_of("impeding")
    m.set_border(Edge(4, 5, "E"), m.registry.id_of("impeding"))  # one inside
    return m


def test_copy_paste_carries_the_walls_on_the_outline_and_shows_them_first(make_window):
    win = make_window(walled_room())
    doc, view = win.document, win.view
    QTest.keyClick(view, Qt.Key.Key_S)
    drag_tiles(view, [(2, 3), (7, 8)])  # the room's tiles, not the tiles around them
    QTest.keyClick(view, Qt.Key.Key_C, CTRL)
    # 23 walls on the outline (one is the door gap) and the Impeding border inside
    assert "24 border edge(s)" in win.statusBar().currentMessage()
    QTest.keyClick(view, Qt.Key.Key_V, CTRL)
    move(view, 12.5, 6.5)  # origin (9, 3): the copy goes to tiles 9..14 x 3..8
    # before the click the view shows the walls where they will go: the pixel on
    # the pasted west wall is dark, the floor beside it is not
    image = view.viewport().grab().toImage()
    assert view.zoom() == 1.0  # 32 px per tile: a border is 6 px wide
    wall = image.pixelColor(view_point(view, 9.0, 5.5) - QPoint(2, 0))  # outside the room
    floor = image.pixelColor(view_point(view, 11.5, 6.5))
    assert wall.lightness() < floor.lightness() - 40
    inner = image.pixelColor(view_point(view, 12.0, 5.5))  # the Impeding border inside
    assert inner.red() > inner.blue() + 60 and inner.green() > inner.blue() + 40
    item = win.select_tool.stamp_item  # semi-transparent: the map shows through
    assert item.isVisible() and 0.2 < item.effectiveOpacity() < 0.9
    before = doc.model.copy()
    press(view, 12.5, 6.5)
    release(view, 12.5, 6.5)
    m, wall_id = doc.model, doc.model.registry.id_of("obstructing")
    assert [m.border_at(Edge(8, y, "E")) for y in range(3, 9)] == [wall_id] * 6
    assert [m.border_at(Edge(14, y, "E")) for y in range(3, 9)] == [wall_id] * 6
    assert [m.border_at(Edge(x, 2, "S")) for x in range(9, 15)] == [wall_id] * 6
    assert all(m.border_is_indoor(Edge(x, 2, "S")) for x in range(9, 15))
    assert [bool(m.border_at(Edge(x, 8, "S"))) for x in range(9, 15)] == \
        [True, True, False, True, True, True]
    assert m.is_transition_edge(Edge(11, 8, "S"))
    assert m.border_at(Edge(11, 5, "E")) == m.registry.id_of("impeding")
    assert (m.elevation[3:9, 9:15] == 1).all() and m.terrain[5, 11] == m.terrain[5, 4]
    assert doc.undo_stack.undoText() == "Paste Stamp"
    doc.undo_stack.undo()
    assert m.same_content(before)
    QTest.keyClick(view, Qt.Key.Key_Escape)
    assert not item.isVisible()


def test_cut_clears_the_walls_it_copied(make_window):
    win = make_window(walled_room())
    QTest.keyClick(win.view, Qt.Key.Key_S)
    drag_tiles(win.view, [(2, 3), (7, 8)])
    QTest.keyClick(win.view, Qt.Key.Key_X, CTRL)
    m = win.document.model
    assert not m.border_e.any() and not m.border_s.any() and not m.transition_s.any()


def test_a_rotated_stamp_turns_its_outline(make_window):
    win = make_window(walled_room())
    view, m = win.view, win.document.model
    QTest.keyClick(view, Qt.Key.Key_S)
    drag_tiles(view, [(2, 3), (7, 8)])
    QTest.keyClick(view, Qt.Key.Key_C, CTRL)
    QTest.keyClick(view, Qt.Key.Key_V, CTRL)
    move(view, 12.5, 6.5)
    QTest.keyClick(view, Qt.Key.Key_Z)  # clockwise: the south door now faces west
    press(view, 12.5, 6.5)
    release(view, 12.5, 6.5)
    wall = m.registry.id_of("obstructing")
    west = [m.border_at(Edge(8, y, "E")) for y in range(3, 9)]
    assert west == [wall, wall, 0, wall, wall, wall]  # the door: 3rd from the top
    assert m.is_transition_edge(Edge(8, 5, "E"))
    assert all(m.border_is_indoor(Edge(14, y, "E")) for y in range(3, 9))  # north -> east


def click_box(box) -> None:
    """A real click on a check box of a dock."""
    QTest.mouseClick(box, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     box.rect().center())
    QApplication.processEvents()


def test_a_hidden_layer_refuses_edits_and_says_why(make_window):
    win = make_window(MapModel(12, 10))
    view = win.view
    click_box(win.layers.boxes["characters"])
    assert not win.scene.layer_visible("characters")
    QTest.keyClick(view, Qt.Key.Key_C)
    click_tile(view, 3, 3)
    assert win.document.model.characters == {}
    assert win.statusBar().currentMessage() == ("The Characters layer is hidden: show it in "
                                               "the Layers dock to edit it")
    assert win.document.undo_stack.count() == 0
    click_box(win.layers.boxes["characters"])  # shown again: placing works
    click_tile(view, 3, 3)
    assert win.document.model.character_at(3, 3) is not None


def test_a_locked_layer_refuses_edits_until_unlocked(make_window):
    win = make_window(MapModel(12, 10))
    view, m = win.view, win.document.model
    click_box(win.layers.locks["borders"])
    QTest.keyClick(view, Qt.Key.Key_W)
    drag(view, [(2.0, 1.5), (2.0, 4.5)])  # along the grid line x = 2
    assert not m.border_e.any()
    assert win.statusBar().currentMessage() == ("The Borders layer is locked: unlock it in "
                                               "the Layers dock to edit it")
    QTest.keyClick(view, Qt.Key.Key_S)  # a paste writes borders too: refused
    drag_tiles(view, [(1, 1), (3, 3)])
    QTest.keyClick(view, Qt.Key.Key_C, CTRL)
    QTest.keyClick(view, Qt.Key.Key_V, CTRL)
    move(view, 8.5, 6.5)
    press(view, 8.5, 6.5)
    release(view, 8.5, 6.5)
    assert win.document.undo_stack.count() == 0
    QTest.keyClick(view, Qt.Key.Key_Escape)
    click_box(win.layers.locks["borders"])
    QTest.keyClick(view, Qt.Key.Key_W)
    drag(view, [(2.0, 1.5), (2.0, 4.5)])
    assert m.border_e[1:5, 1].all()


def test_layer_opacity_and_locks_are_remembered(make_window):
    win = make_window(MapModel(12, 10))
    assert "terrain" not in win.layers.opacity  # the opaque base layer has none
    spin = win.layers.opacity["borders"]
    spin.setFocus()
    spin.selectAll()
    QTest.keyClicks(spin, "40")
    QTest.keyClick(spin, Qt.Key.Key_Return)
    assert win.scene.items_by_name["borders"].opacity() == 0.4
    click_box(win.layers.locks["start zones"])
    win.close()
    again = make_window(MapModel(12, 10))  # the same settings
    assert again.layers.opacity["borders"].value() == 40
    assert again.scene.items_by_name["borders"].opacity() == 0.4
    assert again.layers.locks["start zones"].isChecked()
    assert not again.layers.locks["borders"].isChecked()
    QTest.keyClick(again.view, Qt.Key.Key_A)
    click_tile(again.view, 2, 2)
    assert again.document.model.start_zones == {}
    assert "Start zones layer is locked" in again.statusBar().currentMessage()


def room_in_a_field(door: bool) -> MapModel:
    """A 16x12 map with a walled room on tiles 2..7 x 3..8, with or without a
    door gap in the south wall at (4, 8)."""
    m = MapModel(16, 12)
    wall = m.registry.id_of("obstructing")
    for y in range(3, 9):
        m.set_border(Edge(1, y, "E"), wall)
        m.set_border(Edge(7, y, "E"), wall)
    for x in range(2, 8):
        m.set_border(Edge(x, 2, "S"), wall)
        if not (door and x == 4):
            m.set_border(Edge(x, 8, "S"), wall)
    return m


def test_fill_shows_its_area_and_count_before_the_click(make_window):
    m = room_in_a_field(door=True)  # a door gap at (4, 8)
    win = make_window(m)
    view = win.view
    QTest.keyClick(view, Qt.Key.Key_F)
    win.state.set("terrain_id", m.registry.id_of("impeding"))
    move(view, 3.5, 4.5)  # inside the room: the fill leaks through the door
    assert len(win.scene.fill_preview.tiles) == 16 * 12
    assert win.statusBar().currentMessage().startswith(
        "Fill: click changes 192 clear tile(s) to impeding")
    assert win.document.undo_stack.count() == 0  # nothing changed yet
    QTest.keyClick(view, Qt.Key.Key_W)  # close the door
    drag(view, [(4.2, 9.0), (4.8, 9.0)])
    QTest.keyClick(view, Qt.Key.Key_F)
    move(view, 3.5, 5.5)
    assert sorted(win.scene.fill_preview.tiles) == [
        (x, y) for x in range(2, 8) for y in range(3, 9)]
    assert "changes 36 clear tile(s)" in win.statusBar().currentMessage()
    press(view, 3.5, 5.5)
    release(view, 3.5, 5.5)
    assert int((win.document.model.terrain != 0).sum()) == 36
    move(view, 3.5, 4.5)
    assert "already impeding" in win.statusBar().currentMessage()


def test_fill_preview_builds_each_region_once_until_the_map_changes(make_window, monkeypatch):
    from sodwa_editor.editor.tools import fill

    floods = []

    def counted(model, start, **kw):
        floods.append(start)
        return flood_region(model, start, **kw)

    flood_region = fill.flood_region
    monkeypatch.setattr(fill, "flood_region", counted)
    m = room_in_a_field(door=False)  # a closed room: tiles 2..7 x 3..8
    win = make_window(m)
    view = win.view
    QTest.keyClick(view, Qt.Key.Key_F)
    win.state.set("terrain_id", m.registry.id_of("impeding"))
    plain = view.viewport().grab().toImage()
    move(view, 3.5, 4.5)  # the room
    shown = view.viewport().grab().toImage()
    inside, outside = view_point(view, 5.5, 6.5), view_point(view, 11.5, 6.5)
    assert shown.pixelColor(inside) != plain.pixelColor(inside)  # tinted: in the region
    assert shown.pixelColor(outside) == plain.pixelColor(outside)
    move(view, 11.5, 6.5)  # outside the room
    assert "changes 156 clear tile(s)" in win.statusBar().currentMessage()
    move(view, 6.5, 7.5)  # the room again, another tile of it: nothing computed again
    assert "changes 36 clear tile(s)" in win.statusBar().currentMessage()
    move(view, 14.5, 1.5)
    assert len(floods) == 2
    press(view, 14.5, 1.5)  # fill the outside: the map changed
    release(view, 14.5, 1.5)
    move(view, 14.5, 2.5)
    assert "already impeding" in win.statusBar().currentMessage()
    move(view, 4.5, 4.5)
    assert len(floods) == 4
    assert "changes 36 clear tile(s)" in win.statusBar().currentMessage()
    assert sorted(win.scene.fill_preview.tiles) == [
        (x, y) for x in range(2, 8) for y in range(3, 9)]


def choose(combo, text: str) -> None:
    """Pick an entry of a tool options combo box with the keyboard; Enter hands the
    keys back to the map."""
    combo.setFocus()
    for _ in range(combo.count()):
        if combo.currentText() == text:
            break
        QTest.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentText() == text
    QTest.keyClick(combo, Qt.Key.Key_Return)
    QApplication.processEvents()


def test_border_room_mode_walls_a_room_in_one_step_and_clicks_open_doors(make_window):
    win = make_window(MapModel(12, 10))
    view, doc, m = win.view, win.document, win.document.model
    wall = m.registry.id_of("obstructing")
    QTest.keyClick(view, Qt.Key.Key_W)
    choose(win.tool_options.border_mode, "room")
    before = m.copy()
    drag_tiles(view, [(2, 3), (4, 5), (7, 8)], release_at_end=False)
    assert len(win.scene.preview.edges) == 24  # the walls to be, before the release
    release(view, 7.5, 8.5)
    walls = ([Edge(1, y, "E") for y in range(3, 9)] + [Edge(7, y, "E") for y in range(3, 9)]
             + [Edge(x, 2, "S") for x in range(2, 8)] + [Edge(x, 8, "S") for x in range(2, 8)])
    assert all(m.border_at(e) == wall for e in walls)
    assert int((m.border_e > 0).sum() + (m.border_s > 0).sum()) == 24  # nothing inside
    assert (doc.undo_stack.count(), doc.undo_stack.undoText()) == (1, "Place Room Walls")
    press(view, 4.5, 8.95)  # a click on the south wall of tile (4, 8): a door
    release(view, 4.5, 8.95)
    assert m.border_at(Edge(4, 8, "S")) == 0
    assert doc.undo_stack.undoText() == "Open Door"
    press(view, 4.5, 9.05)  # again: closed
    release(view, 4.5, 9.05)
    assert m.border_at(Edge(4, 8, "S")) == wall
    assert doc.undo_stack.undoText() == "Close Door"
    drag_tiles(view, [(9, 1), (10, 2)], release_at_end=False)
    QTest.keyClick(view, Qt.Key.Key_Escape)  # Escape drops the room being dragged
    release(view, 10.5, 2.5)
    assert win.scene.preview.edges == [] and doc.undo_stack.count() == 3
    drag_tiles(view, [(2, 3), (7, 8)], modifiers=Shift)  # Shift: walls removed
    assert not m.border_e.any() and not m.border_s.any()
    assert doc.undo_stack.undoText() == "Remove Room Walls"
    for _ in range(4):
        doc.undo_stack.undo()
    assert m.same_content(before)


def test_start_zone_rectangle_mode(make_window):
    win = make_window(MapModel(12, 10))
    view, doc = win.view, win.document
    QTest.keyClick(view, Qt.Key.Key_A)
    choose(win.tool_options.zone_mode, "rectangle")
    team = win.state.team
    drag_tiles(view, [(1, 1), (3, 2), (4, 3)], release_at_end=False)
    assert len(win.scene.preview.tiles) == 12
    release(view, 4.5, 3.5)
    assert doc.model.start_zones[team] == {(x, y) for x in range(1, 5) for y in range(1, 4)}
    assert doc.undo_stack.count() == 1
    drag_tiles(view, [(2, 2), (4, 3)], modifiers=Shift)
    assert doc.model.start_zones[team] == {(x, y) for x in range(1, 5) for y in range(1, 4)} - {
        (x, y) for x in range(2, 5) for y in range(2, 4)}
    assert doc.undo_stack.count() == 2


def test_transition_tool_makes_a_stair_on_a_bare_edge_in_one_step(make_window):
    m = MapModel(8, 8)
    m.elevation[:4, :] = 1  # a plateau over rows 0..3
    m.set_transition(6, 4, True)  # an existing stair tile at (6, 4)
    win = make_window(m)
    view, doc = win.view, win.document
    QTest.keyClick(view, Qt.Key.Key_T)
    before = m.copy()
    click(view, 2.5, 4.02)  # the edge between (2, 3) up and (2, 4) down: neither there
    assert m.transition[4, 2] and not m.transition[3, 2]  # the lower tile
    assert m.is_transition_edge(Edge(2, 3, "S"))
    assert (doc.undo_stack.count(), doc.undo_stack.undoText()) == (1, "Add Stair")
    assert win.statusBar().currentMessage() == ("Stair made: transition tile (2, 4) and "
                                               "transition border 2,3,S (one undo step)")
    QTest.keyClick(view, Qt.Key.Key_Z, CTRL)
    assert m.same_content(before)
    QTest.keyClick(view, Qt.Key.Key_Y, CTRL)
    click(view, 6.5, 3.98)  # beside a transition tile already: the border only
    assert m.is_transition_edge(Edge(6, 3, "S"))
    assert not m.transition[3, 6]
    assert doc.undo_stack.undoText() == "Add Transition Border"
    click(view, 2.5, 4.02)  # on the stair's border: removes the border only
    assert not m.is_transition_edge(Edge(2, 3, "S")) and m.transition[4, 2]


def test_png_export_leaves_out_the_pinned_marker_with_previews_off(make_window, tmp_path):
    from PySide6.QtGui import QImage

    win = make_window(walled_room())
    view = win.view
    assert not any(win.previews.enabled.values())
    assert win.files.export_png(tmp_path / "plain.png")
    move(view, 4.5, 5.5)
    QTest.keyClick(view, Qt.Key.Key_P)  # pin the preview source: a white outline
    assert win.previews.pinned == (4, 5) and win.scene.marker.tiles == [(4, 5)]
    QTest.keyClick(view, Qt.Key.Key_S)
    drag_tiles(view, [(1, 1), (3, 2)])  # a selection is not part of the map either
    assert win.files.export_png(tmp_path / "pinned.png")
    assert QImage(str(tmp_path / "pinned.png")) == QImage(str(tmp_path / "plain.png"))
    assert win.scene.marker.isVisible() and win.scene.selection.tiles  # still on screen


def test_map_pack_save_dialog_names_packs(make_window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    win = make_window(MapModel(5, 4, name="draft"))
    asked = {}

    def save_name(parent, title, start, filters, *rest):
        asked.update(title=title, filters=filters)
        return str(tmp_path / "p.json"), filters.split(";;")[0]

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_name)
    from sodwa_editor.editor.dialogs import OPEN_MAP

    assert win.files.export_pack(values={"maps": [OPEN_MAP], "name": "demo", "version": "1.0"})
    assert asked["filters"].split(";;")[0] == "SODWA map packs (*.json)"


def test_pack_version_follows_the_schema_pattern_with_a_clear_message(make_window):
    from PySide6.QtWidgets import QDialog, QDialogButtonBox

    from sodwa_editor.editor.dialogs import OPEN_MAP, ExportPackDialog

    win = make_window(MapModel(5, 4))
    dlg = ExportPackDialog([OPEN_MAP], win)
    dlg.show()
    ok = dlg.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    for bad in ("final version", "v2", "1..2"):
        dlg.version.selectAll()
        QTest.keyClicks(dlg.version, bad)
        QTest.mouseClick(ok, Qt.MouseButton.LeftButton)
        assert dlg.isVisible() and dlg.result() != QDialog.DialogCode.Accepted
        assert dlg.problem.text() == (
            f'"{bad}" is not a version number: whole numbers separated by dots '
            "(e.g. 1.2.0), optionally followed by -beta.1 or +build.7.")
    dlg.version.selectAll()
    QTest.keyClicks(dlg.version, "1.2.0-beta.1")
    QTest.mouseClick(ok, Qt.MouseButton.LeftButton)
    assert dlg.result() == QDialog.DialogCode.Accepted
    assert dlg.values()["version"] == "1.2.0-beta.1"


def test_pack_files_refuse_a_version_outside_the_pattern():
    from sodwa_editor.io.packs import pack_from_doc

    doc = {"format": "sodwa-mappack", "format_version": 1, "name": "p", "version": "latest",
           "maps": []}
    _pack, problems = pack_from_doc(doc)
    assert any('"latest" is not a version number' in p.message for p in problems)


def _resize_through_the_dialog(win, width: int, height: int) -> None:
    """Map > Resize Map... as a user does it: type the size in the dialog, click OK,
    then Yes when it asks about what the resize removes (both are modal)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

    from sodwa_editor.editor.dialogs import ResizeDialog

    steps: list[str] = []

    def answer_yes() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox), box
        steps.append(box.text())
        QTest.mouseClick(box.button(QMessageBox.StandardButton.Yes), Qt.MouseButton.LeftButton)

    def fill_in() -> None:
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, ResizeDialog), dlg
        for spin, value in ((dlg.width_spin, width), (dlg.height_spin, height)):
            spin.selectAll()
            QTest.keyClicks(spin, str(value))
        QTimer.singleShot(50, answer_yes)
        ok = dlg.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        QTest.mouseClick(ok, Qt.MouseButton.LeftButton)

    QTimer.singleShot(50, fill_in)
    win.action_map["resize"].trigger()
    assert steps and "Resize anyway?" in steps[0]


def test_a_long_message_wraps_inside_the_view(make_window):
    from PySide6.QtCore import QRectF

    m = MapModel(24, 16)
    for i in range(3):
        m.put_character(Character(f"c{i}", "red", 20 + i, 14))
    m.set_start_zone("red", {(22, 15), (23, 15)})
    win = make_window(m)
    win.resize(760, 600)
    QApplication.processEvents()
    move(win.view, 10.5, 8.5)
    _resize_through_the_dialog(win, 12, 10)  # Map > Resize Map..., typed, OK, then Yes
    assert (win.document.model.width, win.document.model.height) == (12, 10)
    note = win.last_note
    assert "removed 3 characters, 2 start-zone tiles (Undo restores them)" in \
        note.text().replace("\n", " ")
    assert "\n" in note.text()  # wrapped: the view is narrower than the message
    view = win.view
    shown = QRectF(view.viewportTransform().map(note.pos()), note.boundingRect().size())
    assert QRectF(view.viewport().rect()).contains(shown)


def test_fill_status_follows_the_chosen_terrain_over_the_same_region(make_window):
    """The count and the target terrain in the status bar follow the chosen terrain
    while the pointer rests on one region (no move needed), and a move inside the
    region after the change says the same."""
    m = room_in_a_field(door=False)
    win = make_window(m)
    view = win.view
    QTest.keyClick(view, Qt.Key.Key_F)
    win.state.set("terrain_id", m.registry.id_of("clear"))
    move(view, 3.5, 4.5)  # the room: clear already
    assert "already clear" in win.statusBar().currentMessage()
    win.state.set("terrain_id", m.registry.id_of("impeding"))  # as the palette does
    assert win.statusBar().currentMessage().startswith(
        "Fill: click changes 36 clear tile(s) to impeding")
    move(view, 5.5, 6.5)  # another tile of the same room
    assert "to impeding" in win.statusBar().currentMessage()
    win.state.set("terrain_id", m.registry.id_of("clear"))
    move(view, 6.5, 7.5)
    assert "already clear" in win.statusBar().currentMessage()
    QTest.keyClick(view, Qt.Key.Key_B)  # another tool: the fill no longer speaks
    win.state.set("terrain_id", m.registry.id_of("impeding"))
    assert not win.statusBar().currentMessage().startswith("Fill:")
