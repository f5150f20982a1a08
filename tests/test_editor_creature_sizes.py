"""Creatures of any size in the editor (issue 26 section 2): the Character tool's size
chooser, the footprint under the pointer and its refusal with the reason ringed, tokens
over the whole footprint, dragging, undo; the Inspector's size row; the Select tool's
whole-creature selection, copy and paste, region moves; symmetry images.  Real mouse and
key events on the map view and the widgets."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.editor.style import TILE
from sodwa_editor.editor.testing import click_tile, drag_tiles, move, press, release
from sodwa_editor.engine.footprint import Footprint
from sodwa_editor.engine.model import Character, Edge, MapModel

Left = Qt.MouseButton.LeftButton
CTRL = Qt.KeyboardModifier.ControlModifier


def choose(combo, data: str) -> None:
    """Pick a size in ``combo`` with the arrow keys, as a person does on a closed combo
    box (each step is a choice: from Medium, Down picks Large, Down again Huge)."""
    QApplication.processEvents()  # the tool options bar lays out the tool's options
    assert combo.isVisible()
    combo.setFocus()
    target = combo.findData(data)
    while combo.currentIndex() != target:
        before = combo.currentIndex()
        QTest.keyClick(combo, Qt.Key.Key_Down if target > before else Qt.Key.Key_Up)
        if combo.currentIndex() == before:
            break  # the row refused and shows what the character has
    QApplication.processEvents()


def key(win, k, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(QApplication.focusWidget() or win, k, modifiers)


def arena() -> MapModel:
    """12 x 10, a wall tile at (6, 4), a level-1 tile at (10, 8), a wall border east
    of (1, 8)."""
    m = MapModel(12, 10)
    m.set_terrain(6, 4, m.registry.id_of("obstructing"))
    m.set_elevation(10, 8, 1)
    m.set_border(Edge(1, 8, "E"), m.registry.id_of("obstructing"))
    return m


def status(win) -> str:
    return win.statusBar().currentMessage()


def character_tool_huge(win) -> None:
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_C)
    choose(win.tool_options.creature_size, "huge")
    assert win.state.creature_size == "huge"
    assert win.tool_options.creature_size.currentText() == "Huge 4x4"
    win.view.setFocus()


# ------------------------------------------------------------------ placement
def test_the_footprint_under_the_pointer_fits_or_says_why_and_a_click_places_it(make_window):
    win = make_window(arena())
    character_tool_huge(win)
    move(win.view, 3.5, 3.5)
    ghost = win.tool.ghost
    assert ghost.isVisible() and ghost.fits
    assert (ghost.anchor, ghost.footprint) == ((2, 2), Footprint(4, 4))  # centred
    assert ghost.boundingRect().contains(2 * TILE + 1, 2 * TILE + 1)
    assert "Place Knight (Huge 4x4) at 2, 2" in status(win)
    move(win.view, 5.5, 4.5)  # anchor (4, 3): the wall at (6, 4) is under it
    assert not ghost.fits
    assert ghost.refusal.kind == "tile" and ghost.refusal.tile == (6, 4)
    assert not ghost.ring().isEmpty()
    assert status(win) == ("Cannot place Knight (Huge 4x4) at 4, 3: the Obstructing tile "
                           "(6, 4) is under the footprint")
    click_tile(win.view, 5, 4)
    m = win.document.model
    assert m.characters == {} and win.document.undo_stack.count() == 0
    assert "Cannot place Knight (Huge 4x4) at 4, 3: the Obstructing tile (6, 4)" in status(win)
    move(win.view, 1.5, 7.5)  # anchor (0, 6): the wall east of (1, 8) runs through it
    assert ghost.refusal.kind == "border" and ghost.refusal.edge == Edge(1, 8, "E")
    move(win.view, 9.5, 7.5)  # anchor (8, 6): (10, 8) is a level higher
    assert ghost.refusal.kind == "level" and ghost.refusal.tile == (10, 8)
    move(win.view, 0.5, 0.5)  # anchor (-1, -1): off the map
    assert ghost.refusal.kind == "off-map"
    click_tile(win.view, 3, 3)
    (c,) = m.characters.values()
    assert (c.x, c.y, c.size, c.footprint) == (2, 2, "huge", None)
    assert win.document.undo_stack.text(0) == "Place Character"
    assert not ghost.isVisible()  # the token shows it now
    token = win.scene.items_by_name["tokens"].tokens[c.id]
    assert token.boundingRect().width() == token.boundingRect().height() == 4 * TILE
    assert m.character_at(5, 5) is c and m.character_at(6, 6) is None
    win.document.undo()
    assert win.document.model.characters == {}
    win.document.redo()
    assert win.document.model.characters[c.id].size == "huge"


def test_a_creature_is_dragged_by_any_tile_and_refused_where_it_does_not_fit(make_window):
    m = arena()
    m.put_character(Character("ogre", "red", 1, 1, name="Ogre", size="large"))
    m.put_character(Character("imp", "blue", 8, 1, name="Imp"))
    win = make_window(m)
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_C)
    press(win.view, 2.5, 2.5)  # the ogre's lower-right tile
    move(win.view, 4.5, 2.5, Left)
    ghost = win.tool.ghost
    assert (ghost.anchor, ghost.fits) == ((3, 1), True)
    assert "Move Ogre (Large 2x2) at 3, 1" in status(win)
    move(win.view, 8.5, 2.5, Left)  # anchor (7, 1): the imp is on (8, 1)
    assert ghost.refusal.kind == "character" and ghost.refusal.tile == (8, 1)
    assert status(win) == "Cannot move Ogre (Large 2x2) at 7, 1: character 'imp' is on (8, 1)"
    release(win.view, 8.5, 2.5)
    m = win.document.model
    assert (m.characters["ogre"].x, m.characters["ogre"].y) == (1, 1)
    assert "Cannot move Ogre (Large 2x2) at 7, 1: character 'imp' is on (8, 1)" in status(win)
    assert win.document.undo_stack.count() == 0
    drag_tiles(win.view, [(1, 1), (3, 2)])  # grabbed by its anchor: moved by (2, 1)
    assert (m.characters["ogre"].x, m.characters["ogre"].y) == (3, 2)
    assert win.document.undo_stack.text(0) == "Move Character"
    assert not ghost.isVisible()


def test_the_size_chooser_follows_the_roster_entry_and_the_eyedropper(make_window):
    m = MapModel(8, 8)
    m.put_character(Character("ogre", "red", 4, 4, name="Ogre", size="large"))
    win = make_window(m)
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_C)
    win.state.set("roster_entry", {"name": "Wyvern", "move": 4, "range": 1, "size": "huge"})
    assert win.tool_options.creature_size.currentData() == "huge"
    win.state.set("roster_entry", {"name": "Scout", "move": 6, "range": 4})
    assert win.tool_options.creature_size.currentData() == "medium"
    click_tile(win.view, 5, 5, button=Qt.MouseButton.RightButton)  # pick the ogre
    assert win.state.creature_size == "large"
    assert win.tool_options.creature_size.currentData() == "large"


# ------------------------------------------------------------------ inspector
def test_the_inspector_edits_size_and_free_dimensions_one_undo_step_each(make_window):
    m = arena()
    m.put_character(Character("ogre", "red", 3, 3, name="Ogre"))
    win = make_window(m)
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_S)
    click_tile(win.view, 3, 3)
    row = win.inspector.fields["size"]
    choose(row.size_box, "large")
    m = win.document.model
    assert m.characters["ogre"].size == "large"
    assert win.document.undo_stack.text(win.document.undo_stack.count() - 1) == \
        "Resize Character"
    row = win.inspector.fields["size"]
    choose(row.size_box, "huge")  # 3..6 x 3..6 holds the wall at (6, 4)
    assert m.characters["ogre"].size == "large"
    assert "Cannot resize Ogre (Huge 4x4) at 3, 3: the Obstructing tile (6, 4)" in status(win)
    row = win.inspector.fields["size"]
    assert row.size_box.currentData() == "large"  # shows what the character has
    QTest.mouseClick(row.free, Left)
    assert m.characters["ogre"].footprint == Footprint(2, 2)
    row = win.inspector.fields["size"]
    assert row.width_spin.isEnabled()
    row.height_spin.setFocus()
    row.height_spin.selectAll()
    QTest.keyClicks(row.height_spin, "4")
    QTest.keyClick(row.height_spin, Qt.Key.Key_Return)
    assert m.characters["ogre"].footprint == Footprint(2, 4)
    assert m.character_at(4, 6).id == "ogre"
    stack = win.document.undo_stack
    assert [stack.text(i) for i in range(stack.count())] == ["Resize Character"] * 3
    win.document.undo()
    assert win.document.model.characters["ogre"].footprint == Footprint(2, 2)
    win.document.undo()
    win.document.undo()
    assert win.document.model.characters["ogre"].size == "medium"


# ------------------------------------------------------------------ select
def test_select_picks_the_whole_creature_and_copy_paste_places_copies(make_window):
    m = arena()
    m.put_character(Character("ogre", "red", 1, 1, name="Ogre", size="large"))
    win = make_window(m)
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_S)
    click_tile(win.view, 2, 2)
    assert win.state.selection.kind == "character" and win.state.selection.value == "ogre"
    assert sorted(win.scene.selection.tiles) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    key(win, Qt.Key.Key_C, CTRL)
    assert "Copied character ogre (Large 2x2)" in status(win)
    key(win, Qt.Key.Key_V, CTRL)
    move(win.view, 6.5, 3.5)  # anchor (6, 3) covers the wall at (6, 4)
    ghost = win.tool.ghost
    assert ghost.refusal is not None and ghost.refusal.tile == (6, 4)
    click_tile(win.view, 6, 3)
    assert len(win.document.model.characters) == 1
    click_tile(win.view, 8, 2)
    m = win.document.model
    copies = [c for c in m.characters.values() if c.id != "ogre"]
    assert [(c.x, c.y, c.size, c.team) for c in copies] == [(8, 2, "large", "red")]
    assert win.document.undo_stack.text(0) == "Place Character"
    after = m.copy()
    win.document.undo()
    assert list(win.document.model.characters) == ["ogre"]
    win.document.redo()
    assert win.document.model.same_content(after)
    key(win, Qt.Key.Key_Escape)
    assert win.tool.creature is None and not ghost.isVisible()


def test_a_region_move_keeps_creatures_whole(make_window):
    m = arena()
    m.put_character(Character("ogre", "red", 1, 1, name="Ogre", size="large"))
    win = make_window(m)
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_S)
    drag_tiles(win.view, [(0, 0), (1, 3)])  # half the ogre
    drag_tiles(win.view, [(0, 0), (0, 4)])
    assert "holds 2 of the 4 tiles of character ogre (2x2 at 1, 1)" in status(win)
    assert win.document.undo_stack.count() == 0
    key(win, Qt.Key.Key_Escape)  # the selection dropped
    drag_tiles(win.view, [(0, 0), (3, 3)])  # all of it
    drag_tiles(win.view, [(0, 0), (0, 5)])
    m = win.document.model
    assert (m.characters["ogre"].x, m.characters["ogre"].y) == (1, 6)
    assert win.document.undo_stack.text(0) == "Move Selection"


def test_a_paste_that_would_wall_in_a_creature_is_refused(make_window):
    m = arena()
    m.put_character(Character("ogre", "red", 7, 1, name="Ogre", size="large"))
    win = make_window(m)
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_S)
    drag_tiles(win.view, [(5, 4), (6, 4)])  # a 2x1 region holding the wall
    key(win, Qt.Key.Key_C, CTRL)
    key(win, Qt.Key.Key_V, CTRL)
    click_tile(win.view, 8, 2)  # the stamp centred there puts the wall under the ogre
    assert "Not pasted: it would leave character ogre (large 2x2 at 7, 1)" in status(win)
    assert win.document.model.base_at(8, 2).name == "CLEAR"
    assert win.document.undo_stack.count() == 0
    click_tile(win.view, 4, 7)  # away from the ogre: pasted
    assert win.document.model.base_at(4, 7).name == "OBSTRUCTING"


# ------------------------------------------------------------------ symmetry
def test_symmetry_painting_places_the_mirrored_footprint(make_window):
    win = make_window(MapModel(12, 10))
    win.state.set("symmetry", "x")
    character_tool_huge(win)
    click_tile(win.view, 2, 2)  # anchor (1, 1): covers 1..4
    m = win.document.model
    placed = sorted((c.x, c.y, c.team) for c in m.characters.values())
    assert placed == [(1, 1, "blue"), (7, 1, "red")]  # 12 - 1 - 4 = 7
    assert win.document.undo_stack.count() == 1
    from sodwa_editor.engine.symmetry import differences

    assert differences(m, "x") == []
    m.put_character(Character("imp", "blue", 5, 8))  # not an image of the wyrm
    shift = Qt.KeyboardModifier.ShiftModifier
    click_tile(win.view, 9, 3, modifiers=shift)  # remove the image: the wyrm goes too
    assert sorted(m.characters) == ["imp"]
    assert win.document.undo_stack.count() == 2


def test_a_roster_entry_gives_its_size_and_free_dimensions_unless_another_size_is_chosen():
    from sodwa_editor.editor.roster import load_roster, make_character

    eel = {"name": "Eel", "size": "massive", "footprint": [4, 8]}
    c = make_character(eel, "eel", "red", 0, 0)
    assert (c.size, c.footprint, c.footprint_at()) == ("massive", (4, 8), Footprint(4, 8))
    assert make_character(eel, "eel", "red", 0, 0, size="massive").footprint == (4, 8)
    other = make_character(eel, "eel", "red", 0, 0, size="huge")
    assert (other.size, other.footprint) == ("huge", None)
    sized = [e for e in load_roster()["characters"] if e.get("size", "medium") != "medium"]
    for entry in sized:  # the shipped roster's large archetypes place at their size
        assert make_character(entry, "x", "red", 0, 0).size == entry["size"]
