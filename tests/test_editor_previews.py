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


def test_live_fan_follows_every_step_of_a_stroke_recomputing_only_the_cone(make_window):
    """In ``live`` mode (the benchmark's alternative to the editor's deferred
    previews) the fan drawn after each brush step is the fan computed from
    scratch, while the engine recomputes only the targets behind the painted
    tiles."""
    import numpy as np

    from sodwa_editor.editor.testing import press, release
    from sodwa_editor.engine.los import los_fan

    win = make_window(MapModel(40, 30))
    win.previews.in_stroke = "live"
    win.view.set_zoom(0.5)
    win.action_map["preview_los"].setChecked(True)
    click_tile(win.view, 20, 15, modifiers=ALT)
    fan = win.scene.previews["los"]
    tracker = win.previews.tracker()
    win.set_tool("brush")
    win.state.set("terrain_id", win.document.model.registry.id_of("obstructing"))
    press(win.view, 5.5, 4.5)
    for x in range(8, 30, 3):
        move(win.view, x + 0.5, 4.5, Qt.MouseButton.LeftButton)  # runs the preview update
        m = win.document.model
        expected = los_fan(m.copy(), (20, 15))
        drawn = np.array([[fan.class_at(tx, ty) for tx in range(40)] for ty in range(30)])
        assert np.array_equal(drawn, expected), x
        assert 0 < tracker.last_computed < 40 * 30 // 2
    release(win.view, 29.5, 4.5)


def test_live_stroke_over_the_source_of_a_big_map_shows_the_fan_updating(make_window, qtbot):
    """In ``live`` mode a fan update that would recompute most of a big map
    waits for the end of the stroke, faded and saying so; then it catches up."""
    import numpy as np

    from sodwa_editor.editor.previews import DEFER_ABOVE
    from sodwa_editor.editor.testing import press, release
    from sodwa_editor.engine.los import los_fan

    win = make_window(MapModel(140, 140))
    win.previews.in_stroke = "live"
    assert DEFER_ABOVE < 140 * 140
    win.action_map["preview_los"].setChecked(True)
    click_tile(win.view, 70, 70, modifiers=ALT)
    fan = win.scene.previews["los"]
    win.set_tool("brush")
    win.state.set("terrain_id", win.document.model.registry.id_of("impeding"))
    press(win.view, 68.5, 70.5)
    move(win.view, 70.5, 70.5, Qt.MouseButton.LeftButton)  # over the source tile
    assert win.previews.stale and fan.opacity() < 1
    assert "updating" in win.statusBar().currentMessage()
    move(win.view, 72.5, 70.5, Qt.MouseButton.LeftButton)
    release(win.view, 72.5, 70.5)
    qtbot.waitUntil(lambda: not win.previews.stale, timeout=3000)
    assert fan.opacity() == 1
    expected = los_fan(win.document.model.copy(), (70, 70))
    assert np.array_equal(fan.fan, expected) and fan.class_at(69, 70) is Crossing.CLEAR


def _pinned_fan_and_range(make_window):
    """A 30x20 map of open ground at painting zoom, the fan and the movement
    range of a pinned tile shown, the brush loaded with Obstructing terrain."""
    win = make_window(MapModel(30, 20))
    win.view.set_zoom(16 / style.TILE)
    win.view.center_on_tile(15, 10)
    win.action_map["preview_los"].setChecked(True)
    win.action_map["preview_reach"].setChecked(True)
    click_tile(win.view, 15, 15, modifiers=ALT)
    win.set_tool("brush")
    win.state.set("terrain_id", win.document.model.registry.id_of("obstructing"))
    return win


def test_a_stroke_leaves_the_previews_faded_until_the_release_then_fresh(make_window):
    """While a stroke is drawn the fan and range stay as they were after its
    first tile, faded, the line to the hovered tile hidden, and the status bar
    says they are updating; the release recomputes them: they equal a fresh
    computation."""
    import numpy as np

    from sodwa_editor.editor.previews import STALE_OPACITY
    from sodwa_editor.editor.testing import press, release
    from sodwa_editor.engine.los import los_fan
    from sodwa_editor.engine.movement import reach

    win = _pinned_fan_and_range(make_window)
    fan, rng, line = (win.scene.previews[k] for k in ("los", "reach", "path"))
    move(win.view, 20.5, 5.5)  # hover: the line from the pinned tile
    assert line.isVisible()
    press(win.view, 10.5, 8.5)  # the first tile: shown at once (see the click test)
    assert not win.previews.stale
    before, steps_before = fan.fan.copy(), rng.steps.copy()
    for x in range(11, 21):
        move(win.view, x + 0.5, 8.5, Qt.MouseButton.LeftButton)
        assert win.previews.stale
        assert fan.opacity() == rng.opacity() == STALE_OPACITY
        assert np.array_equal(fan.fan, before) and np.array_equal(rng.steps, steps_before)
        assert not line.isVisible()
        assert "updating when the stroke ends" in win.statusBar().currentMessage()
    m = win.document.model
    assert (m.terrain[8, 10:21] == m.registry.id_of("obstructing")).all()
    release(win.view, 20.5, 8.5)
    assert not win.previews.stale and fan.opacity() == rng.opacity() == 1.0
    fresh = los_fan(m.copy(), (15, 15))
    assert not np.array_equal(fresh, before)  # the wall casts a shadow
    assert np.array_equal(fan.fan, fresh)
    drawn = np.array([[fan.class_at(x, y) for x in range(30)] for y in range(20)])
    assert np.array_equal(drawn, fresh)
    assert np.array_equal(rng.steps, reach(m.copy(), (15, 15), win.previews.move_value).steps)
    assert line.isVisible()  # the line to the hovered tile is back


def test_escape_in_a_stroke_restores_the_previews_of_the_map_before_it(make_window):
    """Escape takes the stroke back; the previews catch up at once and show
    the map as it was: the same fan as before the stroke, not faded."""
    import numpy as np
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from sodwa_editor.editor.testing import press

    win = _pinned_fan_and_range(make_window)
    fan = win.scene.previews["los"]
    original = win.document.model.copy()
    before = fan.fan.copy()
    press(win.view, 10.5, 8.5)
    for x in range(11, 21):
        move(win.view, x + 0.5, 8.5, Qt.MouseButton.LeftButton)
    assert win.previews.stale
    QTest.keyClick(win.view, Qt.Key.Key_Escape)
    QApplication.processEvents()
    assert win.document.model.same_content(original)
    assert not win.previews.stale and fan.opacity() == 1.0
    assert np.array_equal(fan.fan, before)
    assert win.scene.previews["reach"].opacity() == 1.0


def test_a_stroke_that_changes_nothing_still_ends_the_updating_state(make_window):
    """A stroke over tiles that already hold the brush's terrain changes
    nothing (no undo step) yet showed the previews as updating while the
    button was down: the release ends that state (``Document.stroke_ended``)."""
    from sodwa_editor.editor.testing import press, release

    win = _pinned_fan_and_range(make_window)
    win.state.set("terrain_id", win.document.model.registry.id_of("clear"))
    stack = win.document.undo_stack
    count = stack.count()
    press(win.view, 10.5, 8.5)
    for x in (12.5, 14.5):  # hovering schedules updates: the second one waits
        move(win.view, x, 8.5, Qt.MouseButton.LeftButton)
    assert win.previews.stale
    release(win.view, 14.5, 8.5)
    assert stack.count() == count
    assert not win.previews.stale
    assert win.scene.previews["los"].opacity() == 1.0


def test_a_click_updates_the_previews_at_once_without_fading_them(make_window):
    """A click is a stroke of one tile: the fan and range follow it at once,
    at full strength, and the release leaves them so."""
    import numpy as np

    from sodwa_editor.editor.testing import press, release
    from sodwa_editor.engine.los import los_fan

    win = _pinned_fan_and_range(make_window)
    fan = win.scene.previews["los"]
    before = fan.fan.copy()
    press(win.view, 15.5, 12.5)  # a wall tile between the source and the top
    assert not win.previews.stale and fan.opacity() == 1.0
    fresh = los_fan(win.document.model.copy(), (15, 15))
    assert not np.array_equal(fresh, before) and np.array_equal(fan.fan, fresh)
    release(win.view, 15.5, 12.5)
    assert not win.previews.stale and fan.opacity() == 1.0
    assert np.array_equal(fan.fan, fresh)
