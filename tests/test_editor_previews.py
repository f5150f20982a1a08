"""Engine previews in the editor: the rulebook's LoS diagram painted through
the UI and its fan colours read back from the scene; the LoS line and reason;
previews following edits; the adjacency graph overlay."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt

from sodwa_editor.editor import style
from sodwa_editor.editor.testing import click_tile, drag, drag_tiles, move
from sodwa_editor.engine import samples
from sodwa_editor.engine.model import MapModel
from sodwa_editor.engine.samples import RULEBOOK_ELEVATED_LOS_EXPECTED
from sodwa_editor.engine.terrain import Crossing

ALT = Qt.KeyboardModifier.AltModifier
POSITIONS = {"purple": (1, 2), "green": (3, 2), "blue": (11, 2),
             "red": (5, 2), "yellow": (7, 2), "orange": (7, 3)}


def paint_rulebook_diagram(win) -> None:
    """Build the Elevated Terrain LoS diagram with the tools, as a designer would."""
    view, state = win.view, win.state
    win.set_tool("elevation")
    state.set("elevation_mode", "plateau")
    state.set("elevation_level", 1)
    drag_tiles(view, [(0, 0), (3, 4)])
    drag_tiles(view, [(9, 0), (12, 4)])
    win.set_tool("brush")
    state.set("terrain_id", win.document.model.registry.id_of("impeding"))
    click_tile(view, 6, 2)
    click_tile(view, 7, 3)
    win.set_tool("character")
    for name, (x, y) in POSITIONS.items():
        state.set("team", "elevated" if name in ("purple", "green", "blue") else "grounded")
        click_tile(view, x, y)


def test_rulebook_los_diagram_painted_through_the_ui(make_window):
    win = make_window(MapModel(13, 5))
    paint_rulebook_diagram(win)
    m, ref = win.document.model, samples.rulebook_elevated_los()
    assert (m.terrain == ref.terrain).all() and (m.elevation == ref.elevation).all()
    assert {(c.x, c.y) for c in m.characters.values()} == set(POSITIONS.values())
    win.action_map["preview_los"].setChecked(True)
    fan_item = win.scene.previews["los"]
    checked = 0
    for viewer, (vx, vy) in POSITIONS.items():
        click_tile(win.view, vx, vy, modifiers=ALT)  # pin the viewer
        assert win.previews.pinned == (vx, vy)
        assert fan_item.isVisible()
        for target, (tx, ty) in POSITIONS.items():
            if target == viewer:
                continue
            expected = RULEBOOK_ELEVATED_LOS_EXPECTED[(viewer, target)]
            assert fan_item.class_at(tx, ty).label == expected, (viewer, target)
            checked += 1
        click_tile(win.view, vx, vy, modifiers=ALT)  # unpin
        assert win.previews.pinned is None
    assert checked == 30


def test_los_line_and_reason_to_hovered_tile(make_window):
    win = make_window(samples.rulebook_elevated_los())
    win.action_map["preview_los"].setChecked(True)
    click_tile(win.view, 5, 2, modifiers=ALT)  # Red
    move(win.view, 11.5, 2.5)  # hover Blue
    line = win.scene.previews["path"]
    assert line.isVisible() and line.crossing is Crossing.BLOCKED
    assert "blocked" in win.statusBar().currentMessage()
    assert "elevat" in win.previews.last_los.reason.text
    move(win.view, 7.5, 3.5)  # Orange: impeded
    assert line.crossing is Crossing.IMPEDED
    assert "impeded" in win.statusBar().currentMessage()


def test_fan_follows_hover_and_painting(make_window):
    win = make_window(MapModel(9, 5))
    win.action_map["preview_los"].setChecked(True)
    fan = win.scene.previews["los"]
    move(win.view, 1.5, 2.5)  # hover: fan from (1, 2)
    assert fan.isVisible() and fan.class_at(7, 2) is Crossing.CLEAR
    click_tile(win.view, 1, 2, modifiers=ALT)
    win.set_tool("brush")
    win.state.set("terrain_id", win.document.model.registry.id_of("obstructing"))
    drag_tiles(win.view, [(4, 1), (4, 3)])  # a wall between: the fan updates
    win.previews.update_now()
    assert fan.class_at(7, 2) is Crossing.BLOCKED
    assert fan.class_at(1, 0) is Crossing.CLEAR
    win.document.undo_stack.undo()
    win.previews.update_now()
    assert fan.class_at(7, 2) is Crossing.CLEAR


def test_adjacency_graph_overlay(make_window):
    win = make_window(MapModel(6, 4))
    graph = win.scene.items_by_name["graph"]
    assert not graph.isVisible() and not graph.chunks  # nothing computed while hidden
    win.action_map["preview_graph"].setChecked(True)
    assert graph.isVisible()
    lines = graph.lines()
    counts = {k[0][0]: len(v) for k, v in lines.items()}
    # 6x4 grid: 5*4 + 6*3 orthogonal + 2*5*3 diagonal pairs, all clear
    assert sum(counts.values()) == 20 + 18 + 30
    win.set_tool("border")
    win.state.set("border_id", win.document.model.registry.id_of("obstructing"))
    drag(win.view, [(3.0, 0.5), (3.0, 3.5)])  # a wall down the middle
    win.scene.flush()
    blocked = [v for k, v in graph.lines().items() if k[-1][0] == style.GRAPH_BLOCKED.name()]
    assert blocked and len(blocked[0]) == 4 + 2 * 3  # 4 orthogonal + 6 diagonal pairs cut
    assert win.layers.boxes["graph"].isChecked()


def test_movement_preview_with_character_and_move_value(make_window):
    win = make_window(samples.tiered_keep())
    win.action_map["preview_reach"].setChecked(True)
    item = win.scene.previews["reach"]
    click_tile(win.view, 5, 14, modifiers=ALT)  # the scout: Move 7
    assert item.isVisible() and item.steps[14, 5] == 0
    from sodwa_editor.engine.movement import reach
    ref = reach(win.document.model, (5, 14))
    assert (item.steps == ref.steps).all() and (item.stop == ref.must_stop).all()
    move(win.view, 2.5, 13.5)
    assert win.scene.previews["path"].isVisible()
    assert f"path to 2, 13: {ref.steps[13, 2]} step(s)" in win.statusBar().currentMessage()
    move(win.view, 5.5, 11.5)  # up on the terrace: no way there without the stairs
    assert not win.scene.previews["path"].isVisible()
    click_tile(win.view, 5, 14, modifiers=ALT)  # unpin
    win.layers.move_spin.setValue(2)
    move(win.view, 1.5, 1.5)  # hover an empty tile: Move from the spin box
    assert item.count == (reach(win.document.model, (1, 1), 2).steps > 0).sum()


def test_map_transforms_are_undoable(make_window):
    win = make_window(samples.outdoor_skirmish())
    before = win.document.model.copy()
    win.action_map["map_cw"].trigger()
    m = win.document.model
    assert (m.width, m.height) == (before.height, before.width)
    assert win.scene.items_by_name["terrain_fill"].rgba.shape[:2] == (24, 18)
    win.action_map["map_mirror_x"].trigger()
    win.document.undo_stack.undo()
    win.document.undo_stack.undo()
    assert win.document.model.same_content(before)


def test_pin_shortcut_pins_hovered_tile(make_window):
    from PySide6.QtTest import QTest

    win = make_window(MapModel(8, 6))
    win.action_map["preview_los"].setChecked(True)
    move(win.view, 3.5, 2.5)
    QTest.keyClick(win.view, Qt.Key.Key_P)
    assert win.previews.pinned == (3, 2)
    assert win.scene.marker.tiles == [(3, 2)]
    QTest.keyClick(win.view, Qt.Key.Key_P)
    assert win.previews.pinned is None
