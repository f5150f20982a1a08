"""Validation dock: the io layer's semantic checks re-run (debounced) after
edits; double-click focuses and highlights the place."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


from sodwa_editor.editor.style import TILE
from sodwa_editor.editor.testing import click_tile, drag_tiles
from sodwa_editor.engine.model import Character, Edge, MapModel


def broken_map() -> MapModel:
    m = MapModel(30, 20)
    m.terrain[12, 20] = m.registry.id_of("obstructing")
    m.characters["a"] = Character("a", "red", 20, 12)
    m.start_zones = {"red": {(20, 12)}}
    m.transition_e[1, 1] = True
    return m


def messages(win) -> list[str]:
    lst = win.validation.list
    return [lst.item(i).text() for i in range(lst.count())]


def test_problems_listed_and_refreshed_after_edits(make_window, qtbot):
    win = make_window(broken_map())
    qtbot.waitUntil(lambda: bool(win.validation.problems), timeout=3000)
    texts = messages(win)
    assert any("Obstructing" in t and "(20, 12)" in t for t in texts)
    assert any("transition" in t for t in texts)
    assert "error" in win.validation.summary.text()
    # fix the wall under the character with the brush: the error goes away
    win.set_tool("brush")
    win.state.set("terrain_id", 0)
    win.view.center_on_tile(20, 12)
    click_tile(win.view, 20, 12)
    qtbot.waitUntil(lambda: not any("Obstructing" in t for t in messages(win)), timeout=3000)
    win.document.undo_stack.undo()
    qtbot.waitUntil(lambda: any("Obstructing" in t for t in messages(win)), timeout=3000)


def test_double_click_focuses_tile_and_edge(make_window):
    win = make_window(broken_map())
    problems = win.validation.run()
    lst = win.validation.list
    i = next(k for k, p in enumerate(problems) if p.tile == (20, 12) and p.is_error)
    win.view.set_zoom(4)
    win.view.center_on_tile(0, 0)
    lst.itemDoubleClicked.emit(lst.item(i))
    assert win.scene.focus.tiles == [(20, 12)]
    center = win.view.mapToScene(win.view.viewport().rect().center())
    assert abs(center.x() - 20.5 * TILE) < TILE and abs(center.y() - 12.5 * TILE) < TILE
    j = next(k for k, p in enumerate(problems) if p.edge is not None)
    lst.itemDoubleClicked.emit(lst.item(j))
    assert win.scene.focus.edges == [Edge(1, 1, "E")]
    assert win.statusBar().currentMessage() == problems[j].message


def test_clean_map_says_no_problems(make_window):
    win = make_window(MapModel(6, 6))
    win.validation.run()
    assert win.validation.summary.text() == "No problems"
    assert win.validation.list.count() == 0
    assert win.docks["validation"].isVisible()


def test_walling_off_a_start_zone_warns_and_highlights_the_region(make_window, qtbot):
    """Painting a wall across the map splits it (docs/rules.md R2); double-click
    outlines the whole region of the first team's zone; undo clears the warning."""
    m = MapModel(8, 6)
    m.set_start_zone("red", {(0, 0)})
    m.set_start_zone("blue", {(7, 5)})
    win = make_window(m)
    assert win.validation.run() == []
    win.set_tool("brush")
    win.state.set("terrain_id", m.registry.id_of("obstructing"))
    drag_tiles(win.view, [(4, y) for y in range(6)])
    qtbot.waitUntil(lambda: any("cannot reach each other" in t for t in messages(win)),
                    timeout=3000)
    lst = win.validation.list
    i = next(k for k, p in enumerate(win.validation.problems) if p.code == "zones-unreachable")
    lst.itemDoubleClicked.emit(lst.item(i))
    assert sorted(win.scene.focus.tiles) == sorted(
        (x, y) for x in range(5, 8) for y in range(6))  # blue's side: 'blue' < 'red'
    assert len(win.scene.focus.lines) == 4  # one outline around the region, not per tile
    win.document.undo_stack.undo()  # the stroke is one step
    qtbot.waitUntil(lambda: win.validation.summary.text() == "No problems", timeout=3000)


def test_each_line_names_its_place_once(make_window):
    win = make_window(broken_map())
    win.validation.run()
    for text in messages(win):
        assert text.count("(20, 12)") <= 1 and text.count("(1, 1, E)") <= 1, text
    assert any(t.endswith("at (20, 12)") or "(20, 12)" in t for t in messages(win))
