"""Every tool driven by real mouse and key events on the map view: the model
changes, one undo restores it exactly, redo re-applies it."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from sodwa_editor.editor.main_window import MainWindow
from sodwa_editor.editor.testing import (
    Shift,
    click,
    click_tile,
    drag,
    drag_tiles,
    move,
    press,
    release,
)
from sodwa_editor.engine.model import Character, Edge, MapModel, MapObject


def round_trip(win: MainWindow, before: MapModel, steps: int = 1) -> MapModel:
    """Assert ``steps`` undos restore ``before`` exactly and redos re-apply; return after."""
    doc = win.document
    after = doc.model.copy()
    assert not doc.model.same_content(before)
    for _ in range(steps):
        doc.undo_stack.undo()
    assert doc.model.same_content(before)
    for _ in range(steps):
        doc.undo_stack.redo()
    assert doc.model.same_content(after)
    return after


def test_brush_stroke_is_one_undo_step(make_window):
    win = make_window()
    win.set_tool("brush")
    win.state.set("terrain_id", 1)
    before = win.document.model.copy()
    drag_tiles(win.view, [(1, 1), (2, 1), (3, 1), (4, 2)])
    t = win.document.model.terrain
    assert t[1, 1] == t[1, 2] == t[1, 3] == t[2, 4] == 1
    assert win.document.undo_stack.count() == 1
    assert win.document.undo_stack.text(0) == "Paint Terrain"
    round_trip(win, before)


def test_brush_size_and_line_interpolation(make_window):
    win = make_window()
    win.set_tool("brush")
    win.state.set("terrain_id", 3)
    win.state.set("brush_size", 3)
    drag_tiles(win.view, [(2, 2), (8, 2)])  # one move event far away: the gap is filled
    t = win.document.model.terrain
    assert (t[1:4, 1:10] == 3).all()
    assert t[0].sum() == 0 and t[4].sum() == 0


def test_right_button_erases_and_eraser_tool(make_window):
    m = MapModel(12, 10)
    m.terrain[:, :] = 1
    win = make_window(m)
    win.set_tool("brush")
    before = win.document.model.copy()
    drag_tiles(win.view, [(0, 0), (1, 0)], modifiers=Shift)
    assert win.document.model.terrain[0, :2].tolist() == [0, 0]
    round_trip(win, before)
    QTest.keyClick(win.view, Qt.Key.Key_E)
    assert win.tool.name == "eraser"
    click_tile(win.view, 5, 5)
    assert win.document.model.terrain[5, 5] == 0


def test_escape_cancels_stroke_without_partial_edit(make_window):
    win = make_window()
    win.set_tool("brush")
    before = win.document.model.copy()
    drag_tiles(win.view, [(1, 1), (2, 1), (3, 1)], release_at_end=False)
    assert win.document.model.terrain[1, 1:4].tolist() == [1, 1, 1]
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    assert win.document.model.same_content(before)
    assert win.document.undo_stack.count() == 0
    # the release after Escape does nothing
    move(win.view, 4.5, 1.5, Qt.MouseButton.LeftButton)
    assert win.document.model.same_content(before)


def test_rectangle_tool_preview_then_commit(make_window):
    win = make_window()
    QTest.keyClick(win.view, Qt.Key.Key_R)
    assert win.tool.name == "rect"
    win.state.set("terrain_id", 2)
    before = win.document.model.copy()
    drag_tiles(win.view, [(2, 2), (4, 3), (5, 4)], release_at_end=False)
    assert win.document.model.same_content(before)  # only a preview so far
    assert len(win.scene.preview.tiles) == 12
    release(win.view, 5.5, 4.5)
    assert (win.document.model.terrain[2:5, 2:6] == 2).all()
    assert win.document.model.terrain.sum() == 2 * 12
    assert win.document.undo_stack.text(win.document.undo_stack.count() - 1) == "Paint Rectangle"
    round_trip(win, before)


def test_rectangle_escape_cancels(make_window):
    win = make_window()
    win.set_tool("rect")
    before = win.document.model.copy()
    drag_tiles(win.view, [(2, 2), (5, 4)], release_at_end=False)
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    release(win.view, 5.5, 4.5)
    assert win.document.model.same_content(before)
    assert not win.scene.preview.tiles


def test_line_tool(make_window):
    win = make_window()
    QTest.keyClick(win.view, Qt.Key.Key_L)
    win.state.set("terrain_id", 4)
    before = win.document.model.copy()
    drag_tiles(win.view, [(0, 0), (3, 3), (5, 5)])
    t = win.document.model.terrain
    assert [t[i, i] for i in range(6)] == [4] * 6
    assert t.astype(bool).sum() == 6
    round_trip(win, before)


def test_flood_fill_stops_at_terrain_and_borders(make_window):
    m = MapModel(8, 6)
    m.terrain[:, 4] = 2  # wall column
    for y in range(6):
        m.set_border(Edge(1, y, "E"), 2)  # border wall between x=1 and x=2
    win = make_window(m)
    QTest.keyClick(win.view, Qt.Key.Key_F)
    win.state.set("terrain_id", 1)
    before = win.document.model.copy()
    click_tile(win.view, 3, 3)
    t = win.document.model.terrain
    assert (t[:, 2:4] == 1).all()
    assert (t[:, :2] == 0).all() and (t[:, 5:] == 0).all() and (t[:, 4] == 2).all()
    round_trip(win, before)


def test_border_tool_snaps_and_drags_along_edges(make_window):
    win = make_window()
    QTest.keyClick(win.view, Qt.Key.Key_W)
    assert win.tool.name == "border"
    win.state.set("border_id", 1)  # impeding
    before = win.document.model.copy()
    # along the vertical grid line x = 3, from row 1 to row 4 (slightly off the line)
    drag(win.view, [(3.1, 1.5), (2.95, 2.5), (3.05, 3.5), (3.0, 4.5)])
    m = win.document.model
    assert [m.border_at(Edge(2, y, "E")) for y in range(1, 5)] == [1, 1, 1, 1]
    assert len(list(m.borders())) == 4
    assert win.document.undo_stack.count() == 1
    round_trip(win, before)
    # right-drag removes
    drag(win.view, [(3.0, 1.5), (3.0, 2.5)], modifiers=Shift)
    assert len(list(win.document.model.borders())) == 2


def test_border_tool_places_no_stray_edges(make_window):
    win = make_window()
    win.set_tool("border")
    win.state.set("border_id", 1)
    click(win.view, 4.5, 3.5)  # the middle of a tile: no grid line near
    assert list(win.document.model.borders()) == []
    assert "near a grid line" in win.statusBar().currentMessage()
    drag(win.view, [(0.5, 0.05), (3.5, 0.02)])  # along the map's outer edge
    assert list(win.document.model.borders()) == []
    drag(win.view, [(3.0, 1.3), (3.0, 3.5)])  # starts off-centre on a vertical line
    assert {e.side for e, _t in win.document.model.borders()} == {"E"}


def test_border_indoor_flag(make_window):
    win = make_window()
    win.set_tool("border")
    win.state.set("border_id", 2)
    win.state.set("border_indoor", True)
    click(win.view, 4.5, 3.0)  # horizontal line y = 3 -> south edge of (4, 2)
    m = win.document.model
    assert m.border_at(Edge(4, 2, "S")) == 2
    assert m.border_is_indoor(Edge(4, 2, "S"))


def test_elevation_raise_lower_set_and_plateau(make_window):
    win = make_window()
    QTest.keyClick(win.view, Qt.Key.Key_H)
    assert win.tool.name == "elevation"
    before = win.document.model.copy()
    # a stroke passing a tile twice still raises it once
    drag_tiles(win.view, [(1, 1), (2, 1), (1, 1)])
    e = win.document.model.elevation
    assert e[1, 1] == 1 and e[1, 2] == 1
    round_trip(win, before)
    drag_tiles(win.view, [(1, 1)])
    assert win.document.model.elevation[1, 1] == 2
    drag_tiles(win.view, [(1, 1)], modifiers=Shift)  # lower
    assert win.document.model.elevation[1, 1] == 1
    win.state.set("elevation_mode", "plateau")
    win.state.set("elevation_level", 3)
    before = win.document.model.copy()
    drag_tiles(win.view, [(5, 5), (7, 6)])
    assert (win.document.model.elevation[5:7, 5:8] == 3).all()
    round_trip(win, before)


def test_transition_tool_tile_edge_and_refusal(make_window):
    m = MapModel(8, 6)
    m.elevation[:, 4:] = 1
    win = make_window(m)
    QTest.keyClick(win.view, Qt.Key.Key_T)
    assert win.tool.name == "transition"
    before = win.document.model.copy()
    click_tile(win.view, 3, 2)  # next to the cliff
    assert win.document.model.transition[2, 3]
    round_trip(win, before)
    before = win.document.model.copy()
    click(win.view, 4.0, 2.5)  # on the cliff edge between (3,2) and (4,2)
    assert win.document.model.is_transition_edge(Edge(3, 2, "E"))
    round_trip(win, before)
    # refused: no elevation change around (1, 1) nor across edge (1,1)-(2,1)
    count = win.document.undo_stack.count()
    click_tile(win.view, 1, 1)
    click(win.view, 2.0, 1.5)
    assert win.document.undo_stack.count() == count
    assert not win.document.model.transition[1, 1]
    assert "elevation" in win.statusBar().currentMessage()
    assert "elevation" in win.last_note.text()


def test_zone_tool_paints_team_zone(make_window):
    win = make_window()
    win.set_tool("zone")
    win.state.set("team", "red")
    before = win.document.model.copy()
    drag_tiles(win.view, [(0, 0), (2, 0)])
    assert win.document.model.start_zones["red"] == {(0, 0), (1, 0), (2, 0)}
    assert win.document.undo_stack.count() == 1
    round_trip(win, before)
    drag_tiles(win.view, [(1, 0)], modifiers=Shift)
    assert win.document.model.start_zones["red"] == {(0, 0), (2, 0)}
    # the zone tint shows the team colour on the scene
    rgba = win.scene.items_by_name["zones"].rgba
    assert rgba[0, 0, 3] > 0 and rgba[0, 1, 3] == 0


def test_a_tile_starts_one_team_and_the_eraser_clears_any_zone(make_window):
    win = make_window()
    win.document.set_zone_tiles("red", [(0, 0), (1, 0), (2, 0)], True)
    win.set_tool("zone")
    win.state.set("team", "blue")
    before = win.document.model.copy()
    drag_tiles(win.view, [(1, 0), (3, 0)])  # over red's (1, 0), (2, 0)
    zones = win.document.model.start_zones
    assert zones == {"red": {(0, 0)}, "blue": {(1, 0), (2, 0), (3, 0)}}
    round_trip(win, before)  # one undo step for both teams
    drag_tiles(win.view, [(0, 0), (1, 0)], modifiers=Shift)  # team box says blue
    assert zones == {"blue": {(2, 0), (3, 0)}}


def test_shift_click_removes_characters_and_objects(make_window):
    m = MapModel(8, 6)
    m.put_character(Character("k", "blue", 1, 1))
    m.put_object(MapObject("o", "crate", 3, 1))
    win = make_window(m)
    win.set_tool("character")
    click_tile(win.view, 1, 1, modifiers=Qt.KeyboardModifier.ShiftModifier)
    win.set_tool("object")
    click_tile(win.view, 3, 1, modifiers=Qt.KeyboardModifier.ShiftModifier)
    assert not win.document.model.characters and not win.document.model.objects


def test_character_place_move_remove(make_window):
    m = MapModel(8, 6)
    m.terrain[5, 7] = 2  # obstructing
    win = make_window(m)
    win.set_tool("character")
    win.state.set("team", "blue")
    before = win.document.model.copy()
    click_tile(win.view, 2, 2)
    chars = win.document.model.characters
    assert len(chars) == 1
    c = next(iter(chars.values()))
    assert (c.x, c.y, c.team) == (2, 2, "blue")
    assert win.scene.items_by_name["tokens"].tokens[c.id].pos().x() == 2 * 32
    round_trip(win, before)
    before = win.document.model.copy()
    drag_tiles(win.view, [(2, 2), (3, 3), (4, 3)])
    assert (chars[c.id].x, chars[c.id].y) == (4, 3)
    round_trip(win, before)
    click_tile(win.view, 7, 5)  # refused on Obstructing
    assert len(win.document.model.characters) == 1
    click_tile(win.view, 4, 3, modifiers=Shift)
    assert not win.document.model.characters


def test_character_attributes_edited_in_inspector(make_window):
    m = MapModel(8, 6)
    m.characters["k"] = Character("k", "blue", 1, 1, name="Knight")
    win = make_window(m)
    win.set_tool("select")
    click_tile(win.view, 1, 1)
    assert win.state.selection.kind == "character"
    spin = win.inspector.fields["move"]
    before = win.document.model.copy()
    spin.setValue(9)
    spin.editingFinished.emit()
    assert win.document.model.characters["k"].move == 9
    round_trip(win, before)


def test_select_copy_paste_rotate(make_window):
    m = MapModel(10, 8)
    m.terrain[0, 0:3] = 2  # a 3x1 wall
    m.set_border(Edge(0, 0, "E"), 1)  # inside the copied region
    win = make_window(m)
    QTest.keyClick(win.view, Qt.Key.Key_S)
    drag_tiles(win.view, [(0, 0), (2, 0)])
    assert win.state.selection.kind == "region"
    win.action_map["copy"].trigger()
    win.action_map["paste"].trigger()
    move(win.view, 5.5, 4.5)
    QTest.keyClick(win.view, Qt.Key.Key_Z)  # rotate: now 1 wide, 3 tall
    before = win.document.model.copy()
    press(win.view, 5.5, 4.5)
    t = win.document.model.terrain
    assert t[3:6, 5].tolist() == [2, 2, 2]
    # the E border between the first two wall tiles became a S border
    assert win.document.model.border_at(Edge(5, 3, "S")) == 1
    round_trip(win, before)
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    assert win.tools["select"].stamp is None


def test_cut_and_delete_region(make_window):
    m = MapModel(6, 6)
    m.terrain[:, :] = 3
    m.elevation[2:4, 2:4] = 2
    win = make_window(m)
    win.set_tool("select")
    drag_tiles(win.view, [(2, 2), (3, 3)])
    before = win.document.model.copy()
    win.action_map["cut"].trigger()
    assert (win.document.model.terrain[2:4, 2:4] == 0).all()
    assert (win.document.model.elevation == 0).all()
    round_trip(win, before)


def test_indoor_tool_cycles_obstruction(make_window):
    m = MapModel(6, 4)
    m.terrain[1, 1] = 2
    win = make_window(m)
    win.set_tool("indoor")
    click_tile(win.view, 1, 1)
    assert win.document.model.tile_is_indoor(1, 1)
    click_tile(win.view, 1, 1)
    assert win.document.model.tile_indoor[1, 1] == 0  # explicit outdoor
    click_tile(win.view, 1, 1)
    stack = win.document.undo_stack
    assert [stack.text(i) for i in range(stack.count())] == [
        "Set Obstruction Indoor", "Set Obstruction Outdoor", "Set Obstruction to Map Default"]
    click_tile(win.view, 3, 3)  # not an obstruction: refused
    assert "not an obstruction" in win.statusBar().currentMessage()
    win.action_map["indoor"].trigger()
    assert win.document.model.setting == "indoor"
    win.document.undo_stack.undo()
    assert win.document.model.setting == "outdoor"


def test_undo_redo_shortcuts_and_modified_title(make_window):
    win = make_window()
    win.set_tool("brush")
    click_tile(win.view, 1, 1)
    assert win.isWindowModified()
    QTest.keyClick(win.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.document.model.terrain[1, 1] == 0
    assert not win.isWindowModified()
    QTest.keyClick(win.view, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert win.document.model.terrain[1, 1] == 1
    QTest.keyClick(win.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(win.view, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert win.document.model.terrain[1, 1] == 1


def test_scene_redraws_only_changed_region(make_window):
    win = make_window(MapModel(64, 64))
    item = win.scene.items_by_name["terrain_fill"]
    calls = []
    original = item.refresh
    item.refresh = lambda rect: (calls.append(rect), original(rect))[1]
    win.set_tool("brush")
    click_tile(win.view, 3, 3)
    assert calls and all(r is not None and r.x1 - r.x0 < 3 for r in calls)
    assert item.rgba[3, 3, :3].tolist() != item.rgba[0, 0, :3].tolist()
    assert np.array_equal(item.rgba[10, 10], item.rgba[0, 0])


@pytest.mark.parametrize("seed", range(3))
def test_random_gestures_undo_and_redo_exactly(make_window, seed):
    """Random drags with every tool on a sample map: undoing everything gives
    back the original map exactly, redoing everything the final one."""
    import random

    from sodwa_editor.engine import samples

    rng = random.Random(seed)
    win = make_window(samples.tiered_keep())
    win.action_map["preview_graph"].setChecked(True)  # rebuilt around every edit
    original = win.document.model.copy()
    tools = ["brush", "eraser", "rect", "line", "fill", "border", "elevation", "transition",
             "zone", "character", "object", "indoor", "select"]
    for _ in range(40):
        win.set_tool(rng.choice(tools))
        win.state.set("terrain_id", rng.randrange(5))
        win.state.set("border_id", rng.randrange(1, 5))
        win.state.set("elevation_mode", rng.choice(["raise", "lower", "set", "plateau"]))
        win.state.set("elevation_level", rng.randrange(3))
        win.state.set("brush_size", rng.randrange(1, 3))
        win.state.set("team", rng.choice(["red", "blue"]))
        pts = [(rng.uniform(0, 16), rng.uniform(0, 16)) for _ in range(rng.randrange(1, 4))]
        shift = rng.choice([Qt.KeyboardModifier.NoModifier, Shift])
        drag(win.view, pts, modifiers=shift)
        if rng.random() < 0.1:
            QTest.keyClick(win.view, Qt.Key.Key_Escape)
    stack = win.document.undo_stack
    final = win.document.model.copy()
    assert stack.count() > 5
    while stack.canUndo():
        stack.undo()
    assert win.document.model.same_content(original)
    while stack.canRedo():
        stack.redo()
    assert win.document.model.same_content(final)
    assert_scene_matches_fresh_scene(win)


def assert_scene_matches_fresh_scene(win) -> None:
    """The incrementally updated scene draws exactly what a scene built from
    scratch for the same map draws."""
    from sodwa_editor.editor.scene.map_scene import MapScene

    win.scene.flush()
    fresh = MapScene(win.document.model.copy())
    try:
        for name in ("terrain_fill", "transition_tint", "zones"):
            assert np.array_equal(win.scene.items_by_name[name].rgba,
                                  fresh.items_by_name[name].rgba), name
        for name in ("terrain_outlines", "elevation_outlines", "borders", "transition_marks",
                     "zone_outlines"):
            mine = {k: sorted((ln.x1(), ln.y1(), ln.x2(), ln.y2()) for ln in v)
                    for k, v in win.scene.items_by_name[name].lines().items()}
            ref = {k: sorted((ln.x1(), ln.y1(), ln.x2(), ln.y2()) for ln in v)
                   for k, v in fresh.items_by_name[name].lines().items()}
            assert mine == ref, name
        assert set(win.scene.items_by_name["tokens"].tokens) == set(
            fresh.items_by_name["tokens"].tokens)
        graph = win.scene.items_by_name["graph"]
        if graph.isVisible():  # the adjacency graph preview, shown afresh for the copy
            fresh.items_by_name["graph"].setVisible(True)
            assert {k: sorted((ln.x1(), ln.y1(), ln.x2(), ln.y2()) for ln in v)
                    for k, v in graph.lines().items()} == {
                k: sorted((ln.x1(), ln.y1(), ln.x2(), ln.y2()) for ln in v)
                for k, v in fresh.items_by_name["graph"].lines().items()}
    finally:
        fresh.detach()


def test_inspector_keeps_its_form_while_painting_with_nothing_selected(make_window):
    """A stroke edits many times a second; with nothing selected the Inspector
    updates its map line in place instead of rebuilding its widgets."""
    win = make_window(MapModel(8, 6, name="yard"))
    body = win.inspector.body
    drag_tiles(win.view, [(0, 0), (3, 0)])
    assert win.inspector.body is body
    win.document.set_properties("court", "")
    assert win.inspector.summary.text() == "court: 8 x 6, outdoor"
    win.set_tool("select")
    click_tile(win.view, 1, 1)
    assert win.inspector.body is not body and win.inspector.summary is None


def test_the_brush_footprint_follows_the_pointer_with_its_outline(make_window):
    """The hovered footprint of a size-3 brush, moved over the map (cut at its
    edges) and while painting, is drawn with the path and outline made from
    its tiles where it is (a footprint's shape is made once and moved)."""
    from sodwa_editor.editor.scene.overlay_items import mask_lines, mask_path, tiles_mask

    win = make_window(MapModel(12, 10))
    win.set_tool("brush")
    win.state.set("brush_size", 3)
    hover = win.scene.hover

    def drawn_as_built() -> None:
        mask, x0, y0 = tiles_mask(hover.tiles)
        assert hover.path == mask_path(mask, x0, y0)
        assert hover.lines == mask_lines(mask, x0, y0)
        assert hover.boundingRect().contains(hover.path.boundingRect())

    for fx, fy in [(5.5, 5.5), (6.5, 5.5), (0.5, 0.5), (11.5, 9.5), (6.5, 4.5), (0.5, 5.5)]:
        move(win.view, fx, fy)
        assert (int(fx), int(fy)) in hover.tiles
        drawn_as_built()
    assert len(hover.tiles) == 6  # at the left edge: 2 columns of 3
    press(win.view, 3.5, 3.5)
    move(win.view, 4.5, 3.5, Qt.MouseButton.LeftButton)
    drawn_as_built()
    release(win.view, 4.5, 3.5)
    assert set(hover.tiles) == {(x, y) for x in (3, 4, 5) for y in (2, 3, 4)}
