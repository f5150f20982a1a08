"""Terrain types copied between maps keep everything they are (issue 27: custom
properties kept on tiles' types; issue 29: paste, stamps and the stamp library):
a paste into another map, a stamp saved to the library and placed in another map
declare the type with its vocabulary and its custom properties, in the placing
step, and undo/redo round trip.  And a preset's first stroke undone leaves the
preset chosen (not Impeding or Clear), so the next stroke declares it again.
Real mouse and key events on the map view, the palette and the stamp library."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit
from test_props_editor import click_item, open_presets, redo, settle, undo

from sodwa_editor.editor.properties.document_props import preset_id
from sodwa_editor.editor.testing import Left, click_tile, drag_tiles
from sodwa_editor.engine.model import MapModel
from sodwa_editor.engine.terrain import Base
from sodwa_editor.io import load_map, save_map
from sodwa_editor.io.stamp_library import read_library

CTRL = Qt.KeyboardModifier.ControlModifier
CTRL_SHIFT = CTRL | Qt.KeyboardModifier.ShiftModifier
CUSTOM = {"loot": {"type": "int", "value": 3}, "tint": {"type": "color", "value": "#336699"}}


def marsh() -> MapModel:
    """A map with special type ``bog`` (Liquid, shallow water, two custom
    properties) on tiles (1..2, 1..2) and a ``reed`` border west of them."""
    m = MapModel(10, 8)
    bog = m.registry.register("bog", Base.LIQUID, {"shallow_water": {}}, custom=CUSTOM)
    reed = m.registry.register("reed", Base.IMPEDING, {"obscured": {}},
                               custom={"height": {"type": "float", "value": 1.5}})
    m.terrain[1:3, 1:3] = bog
    m.border_e[1:3, 0] = reed  # reed walls on the region's west outline
    return m


def assert_same_type(model: MapModel, source: MapModel, name: str) -> None:
    got = model.registry[model.registry.id_of(name)]
    want = source.registry[source.registry.id_of(name)]
    assert (got.base, dict(got.properties), dict(got.custom)) == \
        (want.base, dict(want.properties), dict(want.custom))


def select_region(win, a, b) -> None:
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_S)
    drag_tiles(win.view, [a, b])


def test_a_paste_into_another_map_keeps_custom_and_vocabulary_properties(make_window):
    source = make_window(marsh())
    select_region(source, (1, 1), (2, 2))
    QTest.keyClick(source.view, Qt.Key.Key_C, CTRL)
    target = make_window(MapModel(10, 8))
    doc = target.document
    before = doc.model.copy()
    target.view.setFocus()
    QTest.keyClick(target.view, Qt.Key.Key_V, CTRL)
    click_tile(target.view, 5, 4)  # the stamp's centre under the pointer
    settle()
    m = doc.model
    assert doc.undo_stack.count() == 1
    for name in ("bog", "reed"):
        assert_same_type(m, source.document.model, name)
    bog = m.registry.id_of("bog")
    assert (m.terrain == bog).sum() == 4
    after = m.copy()
    undo(target)
    assert doc.model.same_content(before) and "bog" not in doc.model.registry
    redo(target)
    assert doc.model.same_content(after)
    assert dict(doc.model.registry[bog].custom) == dict(
        source.document.model.registry[source.document.model.registry.id_of("bog")].custom)


def test_a_library_stamp_keeps_its_types_custom_properties_into_another_map(
        make_window, tmp_path):
    folder = tmp_path / "maps"
    folder.mkdir()
    save_map(marsh(), folder / "marsh.json")
    save_map(MapModel(10, 8), folder / "plain.json")
    source = make_window(load_map(folder / "marsh.json"), folder / "marsh.json")
    select_region(source, (1, 1), (2, 2))
    QTest.keyClick(source.view, Qt.Key.Key_B, CTRL_SHIFT)  # Save Selection as Stamp
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)
    editor.selectAll()
    QTest.keyClicks(editor, "Bog")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    settle()
    (stored,), problems = read_library(folder / "stamps.sodwa-stamps.json")
    assert problems == []
    for name in ("bog", "reed"):  # in the library file
        assert_same_type(stored.model, source.document.model, name)
    target = make_window(load_map(folder / "plain.json"), folder / "plain.json")
    doc = target.document
    before = doc.model.copy()
    QTest.mouseClick(target.stamp_library.buttons["place"], Left)
    click_tile(target.view, 5, 4)
    settle()
    for name in ("bog", "reed"):
        assert_same_type(doc.model, source.document.model, name)
    after = doc.model.copy()
    undo(target)
    assert doc.model.same_content(before)
    redo(target)
    assert doc.model.same_content(after)


def test_undoing_a_presets_first_stroke_leaves_the_preset_chosen(make_window):
    win = make_window(MapModel(12, 10))
    doc = win.document
    presets = open_presets(win)
    click_item(presets, presets.items["woodlands"])
    before = doc.model.copy()
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_B)
    drag_tiles(win.view, [(1, 1), (4, 1)])
    settle()
    wood = doc.model.registry.id_of("woodlands")
    painted = doc.model.copy()
    assert win.state.terrain_id == wood
    undo(win)
    assert doc.model.same_content(before)  # the terrain types table included
    assert list(doc.model.registry) == list(before.registry)
    assert win.state.terrain_id == preset_id("woodlands")  # not Impeding, not Clear
    assert win.tool_options.terrain.currentText() == "Woodlands (preset)"
    assert win.palette_dock.presets.currentItem() is presets.items["woodlands"]
    redo(win)
    assert doc.model.same_content(painted)
    assert win.state.terrain_id == wood
    undo(win)
    drag_tiles(win.view, [(1, 3), (2, 3)])  # the next stroke declares it again
    settle()
    m = doc.model
    assert m.registry[m.registry.id_of("woodlands")].base is Base.IMPEDING
    assert m.terrain[3, 1:3].tolist() == [m.registry.id_of("woodlands")] * 2
    assert doc.undo_stack.undoText() == "Paint Terrain (Woodlands)"


def test_a_type_of_a_presets_name_with_custom_properties_is_not_the_preset(make_window):
    """Undoing the declaration of a designer's own type named like a preset falls
    back to Impeding: choosing the preset would paint another type."""
    from sodwa_editor.editor.properties.document_props import TypeSpec
    from sodwa_editor.engine.terrain_properties import PRESETS, parse_custom

    win = make_window(MapModel(8, 6))
    doc = win.document
    spec = TypeSpec("woodlands", Base.IMPEDING, dict(PRESETS["woodlands"].properties),
                    parse_custom({"loot": {"type": "int", "value": 1}}))
    assert doc.declare_terrain_type(spec)
    win.palette_dock.list.setCurrentRow(doc.model.registry.id_of("woodlands"))
    undo(win)
    assert win.state.terrain_id == 1
