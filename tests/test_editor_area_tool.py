"""The AoE template tool (issue 25, section 2) with real events on the view's
viewport: M takes it, the notation typed in the tool options bar (a bad one said
in one line there, never a crash), a click places the origin, the template
follows the pointer, a second click (or a drag) leaves it; stopped tiles crossed
out, the reason on hover with its cause ringed; from a selected character; the
roster's abilities and the recent entries listed; the document never edited."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from sodwa_editor.editor.testing import click_tile, drag_tiles, move
from sodwa_editor.engine.area_notation import parse_area
from sodwa_editor.engine.areas import area
from sodwa_editor.engine.model import Character, MapModel

WALL = (6, 4)


def wall_map() -> MapModel:
    m = MapModel(12, 9)
    m.terrain[WALL[1], WALL[0]] = m.registry.id_of("obstructing")
    m.characters = {"Mage": Character("Mage", "blue", 2, 2, name="Mage")}
    m.notify_bulk_change()
    return m


def type_area(win, text: str) -> None:
    edit = win.tool_options.area.lineEdit()
    edit.selectAll()
    QTest.keyClicks(edit, text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def test_template_follows_the_pointer_and_says_why_a_tile_was_stopped(make_window, qtbot):
    win = make_window(wall_map())
    view, scene = win.view, win.scene
    before = (win.document.undo_stack.count(), win.document.model.revision)
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_M)
    tool = win.tools["area"]
    assert win.state.tool == "area" and tool.active
    bar = win.tool_options
    qtbot.waitUntil(lambda: bar.area.isVisible() and bar.area_said.isVisible(), timeout=2000)
    # a bad notation: one line in the options bar, and a click only says it
    type_area(win, "AoE - Blast - Cone: 5|3:7")
    assert bar.area_said.text().strip() == ("cannot read the area: Cone: 5|3:7: anchor reach 7 "
                                            "exceeds the cone's range 5")
    click_tile(view, 3, 3)
    assert tool.origin is None and not tool.item.isVisible()
    # a Sphere at Range: click the origin, the point of origin follows the pointer
    type_area(win, "AoE - Blast - Sphere: Range: 8, Reach: 2")
    assert bar.area_said.text().strip() == "AoE - Blast - Sphere: Range: 8, Reach: 2"
    view.setFocus()
    click_tile(view, 2, 4)
    move(view, 5.5, 4.5, settle=True)
    spec = parse_area("AoE - Blast - Sphere: Range: 8, Reach: 2")
    want = area(win.document.model, spec, (2, 4), target=(5, 4),
                occupied=[(2, 2)])
    assert tool.item.isVisible() and tool.item.origin == (5, 4)
    assert tool.item.affected == want.affected
    assert tool.item.stopped == tuple(s.tile for s in want.stopped) and WALL in tool.item.stopped
    move(view, 4.5, 6.5, settle=True)
    assert tool.item.origin == (4, 6)
    move(view, 5.5, 4.5, settle=True)
    click_tile(view, 5, 4)  # the second click leaves it there
    assert not tool.placing and tool.item.origin == (5, 4)
    # hovering the crossed-out wall: why, and the wall ringed
    move(view, WALL[0] + 0.5, WALL[1] + 0.5, settle=True)
    assert tool.item.origin == (5, 4)
    assert tool.item.culprit.isVisible() and tool.item.culprit.place == WALL
    assert "not reached" in win.statusBar().currentMessage()
    behind = next(s for s in want.stopped if s.tile == (7, 4))  # stopped by the wall
    move(view, 7.5, 4.5, settle=True)
    assert tool.item.culprit.place == behind.reason.tile == WALL
    assert behind.reason.text in win.statusBar().currentMessage()
    move(view, 3.5, 3.5, settle=True)
    assert not tool.item.culprit.isVisible()
    # the notation used is a recent entry of the list, with the roster's abilities
    texts = [bar.area.itemText(i) for i in range(bar.area.count())]
    assert texts[0] == "recent: AoE - Blast - Sphere: Range: 8, Reach: 2"
    assert any(t.startswith("Fireball (Mage): AoE - Blast - Sphere") for t in texts)
    # Esc clears; nothing was edited
    QTest.keyClick(view, Qt.Key.Key_Escape)
    assert not tool.item.isVisible() and tool.origin is None
    assert (win.document.undo_stack.count(), win.document.model.revision) == before
    assert tool.item not in win.scene.items() or not tool.item.isVisible()
    assert scene is win.scene


def test_from_a_selected_character_and_by_a_drag_a_cone_from_the_list(make_window, qtbot):
    win = make_window(wall_map())
    view = win.view
    win.set_tool("select")
    click_tile(view, 2, 2)  # the Mage
    assert win.state.selection is not None and win.state.selection.kind == "character"
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_M)
    tool = win.tools["area"]
    assert tool.origin == (2, 2) and tool.placing  # from the selected character
    bar = win.tool_options
    i = next(i for i in range(bar.area.count())
             if bar.area.itemText(i).startswith("Ground Slam (Brute)"))
    bar.area.setCurrentIndex(i)
    bar.area.activated.emit(i)  # (picking an entry: the edit gets its notation)
    assert win.state.area_notation == "AoE - Emanation - Cone: 3|2:1|3:1"
    view.setFocus()
    cone = parse_area("AoE - Emanation - Cone: 3|2:1|3:1")
    # from the Mage toward the pointer, then a click leaves it
    move(view, 5.5, 2.5, settle=True)
    want = area(win.document.model, cone, (2, 2), target=(5, 2), occupied=[(2, 2)])
    assert tool.placing and tool.item.affected == want.affected
    assert all(x > 2 for x, _ in tool.item.affected)
    click_tile(view, 5, 2)
    assert not tool.placing and tool.item.affected == want.affected
    # a drag from another tile lays a new one from there, southward
    drag_tiles(view, [(4, 5), (4, 6), (4, 7)])
    want = area(win.document.model, cone, (4, 5), target=(4, 7), occupied=[(2, 2)])
    assert not tool.placing and tool.item.affected == want.affected
    assert all(y > 5 for _, y in tool.item.affected)
    # another tool: the template goes
    QTest.keyClick(view, Qt.Key.Key_B)
    assert not tool.item.isVisible() and tool.item.scene() is None
