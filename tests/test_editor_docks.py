"""Each dock built alone from the models it takes (no main window anywhere), driven
with real mouse and key events, and checked for what it shows (napari's way: build
the widget from its model, change the model, look at the view; use the widget,
look at the model)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QListWidget, QWidget

from sodwa_editor.editor.context import EditorContext
from sodwa_editor.editor.document import Document
from sodwa_editor.editor.layer_state import LayerState
from sodwa_editor.editor.previews import PreviewController
from sodwa_editor.editor.scene.map_scene import MapScene
from sodwa_editor.editor.style import TILE
from sodwa_editor.editor.tools.base import EditorState, Selection
from sodwa_editor.engine.model import Character, Edge, MapModel
from sodwa_editor.engine.terrain import Base

Left = Qt.MouseButton.LeftButton


@pytest.fixture
def settings(tmp_path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


def shown(qtbot, widget: QWidget) -> QWidget:
    qtbot.addWidget(widget)
    widget.resize(320, 480)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def click_row(lst: QListWidget, row: int, double: bool = False) -> None:
    item = lst.item(row)
    lst.scrollToItem(item)
    pos = lst.visualItemRect(item).center()
    QTest.mouseClick(lst.viewport(), Left, pos=pos)
    if double:  # as the platform sends it: press, release, double click, release
        QTest.mouseDClick(lst.viewport(), Left, pos=pos)


def click_box(box) -> None:
    QTest.mouseClick(box, Left, pos=QPoint(8, box.height() // 2))


def type_into(spin, text: str) -> None:
    spin.setFocus()
    spin.selectAll()
    QTest.keyClicks(spin, text)
    QTest.keyClick(spin, Qt.Key.Key_Return)


# ------------------------------------------------------------------ palette
def test_palette_lists_the_maps_types_and_a_click_chooses_one(qtbot):
    from sodwa_editor.editor.docks.palette import PaletteDock

    doc, state = Document(MapModel(8, 6)), EditorState()
    dock = shown(qtbot, PaletteDock(doc, state))
    reg = doc.model.registry
    assert dock.list.count() == len(reg)
    assert dock.list.currentRow() == state.terrain_id
    wall = reg.id_of("obstructing")
    click_row(dock.list, wall)
    assert state.terrain_id == wall and state.border_id == wall  # a wall is a border too
    click_row(dock.list, reg.id_of("clear"))
    assert state.terrain_id == 0 and state.border_id == wall  # clear is no border to place
    state.set("terrain_id", 3)  # chosen elsewhere (the tool options): the list follows
    assert dock.list.currentRow() == 3
    more = doc.model.copy()
    more.registry.register("lava", Base.LIQUID)
    doc.replace_map(more, "Add Terrain Type lava")
    assert dock.list.count() == len(reg) + 1
    assert dock.list.item(len(reg)).text().startswith("Lava")
    with qtbot.waitSignal(dock.add_requested):
        button = next(b for b in dock.findChildren(QWidget) if getattr(b, "text", None)
                      and b.text() == "Add Terrain Type...")
        QTest.mouseClick(button, Left)


# ------------------------------------------------------------------ inspector
def test_inspector_shows_the_selection_and_edits_through_the_document(qtbot):
    from sodwa_editor.editor.docks.inspector import InspectorDock

    m = MapModel(8, 6, name="court")
    m.characters["k"] = Character("k", "blue", 1, 1, name="Knight")
    doc, state = Document(m), EditorState()
    dock = shown(qtbot, InspectorDock(doc, state))
    assert dock.summary is not None and dock.summary.text() == "court: 8 x 6, outdoor"
    doc.set_properties("keep", "")
    assert dock.summary.text() == "keep: 8 x 6, outdoor"  # the map line follows edits
    state.select(Selection("tile", (2, 3)))
    titles = [w.text() for w in dock.body.findChildren(QLabel)]
    assert "<b>Tile 2, 3</b>" in titles
    type_into(dock.fields["elevation"], "3")
    assert doc.model.elevation[3, 2] == 3 and doc.undo_stack.count() == 2
    state.select(Selection("character", "k"))
    assert dock.fields["name"].text() == "Knight"
    attrs = dock.fields["attributes"]
    said: list[str] = []
    dock.message.connect(said.append)
    attrs.setFocus()
    attrs.selectAll()
    QTest.keyClicks(attrs, "health=lots")
    QTest.keyClick(attrs, Qt.Key.Key_Return)
    assert said and said[0].startswith("attributes not changed: 'health=lots'")
    assert doc.model.characters["k"].attributes == {}
    attrs = dock.fields["attributes"]
    attrs.setFocus()
    attrs.selectAll()
    QTest.keyClicks(attrs, "health=12")
    QTest.keyClick(attrs, Qt.Key.Key_Return)
    assert doc.model.characters["k"].attributes == {"health": 12}
    state.select(None)
    assert dock.summary is not None


# ------------------------------------------------------------------ layers
def layer_models(settings):
    doc = Document(MapModel(8, 6))
    return LayerState(settings), PreviewController(doc, MapScene(doc.model)), doc


def test_layers_dock_shows_and_sets_the_layer_state_and_the_previews(qtbot, settings):
    from sodwa_editor.editor.docks.layers import LayersDock

    layers, previews, _doc = layer_models(settings)
    dock = shown(qtbot, LayersDock(layers, previews))
    click_box(dock.boxes["grid"])
    assert layers.visible["grid"] is False and not dock.boxes["grid"].isChecked()
    click_box(dock.locks["borders"])
    assert layers.locked["borders"] and "locked" in (layers.refusal(["borders"]) or "")
    assert dock.refusal(["borders"]) == layers.refusal(["borders"])
    type_into(dock.opacity["start zones"], "40")
    assert layers.opacity["start zones"] == 40
    assert settings.value("layers/opacity/start zones") in (40, "40")
    # the models changed elsewhere (Reset Layout, the Preview menu): the dock follows
    layers.reset()
    assert dock.boxes["grid"].isChecked() and not dock.locks["borders"].isChecked()
    assert dock.opacity["start zones"].value() == 100
    click_box(dock.boxes["los"])
    assert previews.enabled["los"]
    previews.set_enabled("graph", True)
    assert dock.boxes["graph"].isChecked()
    type_into(dock.move_spin, "7")
    assert previews.move_value == 7
    extra = QLabel("a section")
    dock.add_section(extra)
    assert dock.layout().indexOf(extra) == dock.layout().count() - 2  # before the stretch


def test_layer_locks_and_opacities_are_read_back_from_the_settings(qtbot, settings):
    from sodwa_editor.editor.docks.layers import LayersDock

    settings.setValue("layers/locked", "characters")  # one item comes back as a string
    settings.setValue("layers/opacity/grid", "35")
    layers, previews, _doc = layer_models(settings)
    dock = shown(qtbot, LayersDock(layers, previews))
    assert dock.locks["characters"].isChecked() and not dock.locks["grid"].isChecked()
    assert dock.opacity["grid"].value() == 35
    assert "terrain" not in dock.opacity  # the opaque base layer


# ------------------------------------------------------------------ validation
def test_validation_dock_lists_problems_and_a_double_click_gives_the_place(qtbot):
    from sodwa_editor.editor.docks.validation import ValidationDock

    m = MapModel(12, 8)
    m.terrain[4, 6] = m.registry.id_of("obstructing")
    m.characters["a"] = Character("a", "red", 6, 4)
    m.start_zones = {"red": {(6, 4)}}
    m.transition_e[1, 1] = True
    doc = Document(m)
    dock = shown(qtbot, ValidationDock(doc))
    qtbot.waitUntil(lambda: dock.list.count() > 0, timeout=3000)  # debounced first run
    assert dock.summary.text() == "3 error(s), 0 warning(s)"
    texts = [dock.list.item(i).text() for i in range(dock.list.count())]
    row = next(i for i, t in enumerate(texts) if t.startswith("E ") and "(6, 4)" in t)
    with qtbot.waitSignal(dock.place_chosen) as got:
        click_row(dock.list, row, double=True)
    place = got.args[0]
    assert place.tiles == [(6, 4)] and place.centre == (6.5, 4.5) and place.text
    edge_row = next(i for i, p in enumerate(dock.problems) if p.edge is not None)
    with qtbot.waitSignal(dock.place_chosen) as got:
        click_row(dock.list, edge_row, double=True)
    assert got.args[0].edges == [Edge(1, 1, "E")] and got.args[0].tiles == []
    doc.paint_terrain([(6, 4)], 0)  # the wall under the character goes: re-run after edits
    qtbot.waitUntil(lambda: dock.summary.text() == "1 error(s), 0 warning(s)", timeout=3000)
    assert dock.problems[0].code == "transition-same-elevation"


# ------------------------------------------------------------------ minimap
def test_minimap_draws_the_document_and_a_click_moves_the_view(qtbot):
    from sodwa_editor.editor.docks.minimap import Minimap
    from sodwa_editor.editor.view import MapView

    m = MapModel(96, 64)
    m.characters["a"] = Character("a", "red", 80, 50)
    doc = Document(m)
    view = shown(qtbot, MapView(MapScene(doc.model)))
    view.set_zoom(1.0)
    minimap = shown(qtbot, Minimap(doc, view))
    r = minimap.map_rect()
    assert r.width() / r.height() == pytest.approx(96 / 64, rel=0.02)  # aspect kept
    target = QPoint(round(r.left() + 70 / 96 * r.width()), round(r.top() + 20 / 64 * r.height()))
    QTest.mouseClick(minimap, Left, pos=target)
    c = view.mapToScene(view.viewport().rect().center())
    assert abs(c.x() / TILE - 70) < 2 and abs(c.y() / TILE - 20) < 2
    assert minimap.view_rect().contains(QPointF(target))  # the frame follows the view
    image = minimap.grab().toImage()
    dot = QPoint(round(r.left() + 80.5 / 96 * r.width()), round(r.top() + 50.5 / 64 * r.height()))
    assert image.pixelColor(dot).red() > image.pixelColor(dot).blue()  # the red character
    doc.paint_terrain([(1, 1)], 2)
    assert minimap._timer.isActive()  # an edit repaints it, at most every 200 ms
    assert doc.undo_stack.count() == 1  # navigating never edits


# ------------------------------------------------------------------ tool options
def test_tool_options_show_the_tools_settings_and_write_the_state(qtbot):
    from sodwa_editor.editor.docks.tool_options import ToolOptionsBar
    from sodwa_editor.editor.tools import BrushTool, ZoneTool

    m = MapModel(8, 6)
    m.start_zones = {"north": {(0, 0)}}
    doc, state = Document(m), EditorState()
    scene = MapScene(m)
    bar = shown(qtbot, ToolOptionsBar(doc, state))
    brush = BrushTool(doc, scene, state)
    state.set_tool("brush")
    bar.show_for(brush)
    assert bar.widgets["terrain_id"][1].isVisible() and not bar.widgets["team"][1].isVisible()
    bar.terrain.setFocus()
    QTest.keyClick(bar.terrain, Qt.Key.Key_Down)
    assert state.terrain_id == bar.terrain.currentData() == 2
    with qtbot.waitSignal(bar.finished):  # Enter gives the keys back to the map
        type_into(bar.size_spin, "4")
    assert state.brush_size == 4
    state.set_tool("zone")  # per-tool size: the zone tool has its own
    assert bar.size_spin.value() == 1
    bar.show_for(ZoneTool(doc, scene, state))
    assert bar.widgets["team"][1].isVisible() and not bar.widgets["terrain_id"][1].isVisible()
    assert [bar.team.itemText(i) for i in range(bar.team.count())] == ["blue", "north"]
    doc.set_zone_tiles("south", [(3, 3)], True)  # a new team in the map: offered
    assert "south" in [bar.team.itemText(i) for i in range(bar.team.count())]
    state.set("terrain_id", 1)
    assert bar.terrain.currentData() == 1


# ------------------------------------------------------------------ the context
def test_the_context_wires_its_models_without_a_window(qtbot, settings):
    c = EditorContext(MapModel(8, 6), settings=settings)
    said: list[tuple[str, str]] = []
    c.message.connect(lambda text, kind: said.append((text, kind)))
    c.layers.set_visible("borders", False)
    assert not c.scene.layer_visible("borders")
    assert not c.document.set_borders([Edge(1, 1, "E")], 2)  # refused: the layer is hidden
    assert said[-1] == ("The Borders layer is hidden: show it in the Layers dock to edit it",
                        "note")
    c.layers.set_opacity("grid", 30)
    assert c.scene.items_by_name["grid"].opacity() == pytest.approx(0.3)
    c.state.select(Selection("tile", (1, 1)))
    other = MapModel(5, 5)
    c.document.reset(other, None)
    assert c.scene.model is other and c.state.selection is None
    c.previews.set_enabled("los", True)
    c.previews.pin((2, 2))
    assert said[-1][1] == "info" and "LoS fan from 2, 2" in said[-1][0]
    with pytest.raises(ValueError, match="message kind"):
        c.say("?", "shout")
