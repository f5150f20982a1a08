"""Terrain properties in the editor (issue 27 sections 1 and 3), driven with real
mouse and key events: painting a preset from the palette, the terrain type
dialog, custom properties in the Inspector with undo, light sources placed with
the Object tool."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.editor.properties.document_props import preset_id
from sodwa_editor.editor.testing import Left, click_tile, drag_tiles
from sodwa_editor.engine.model import MapModel, MapObject
from sodwa_editor.engine.property_layers import lit_tiles
from sodwa_editor.engine.terrain import Base

CTRL = Qt.KeyboardModifier.ControlModifier


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def open_presets(win):
    """Click the palette's Presets tab; the preset tree."""
    bar = win.palette_dock.tabs.tabBar()
    QTest.mouseClick(bar, Left, pos=bar.tabRect(1).center())
    settle()
    assert win.palette_dock.presets.isVisible()
    return win.palette_dock.presets


def click_item(tree, item) -> None:
    tree.scrollToItem(item)
    QTest.mouseClick(tree.viewport(), Left, pos=tree.visualItemRect(item).center())


def tick(dialog, row) -> None:
    """Click a property's box in the dialog (scrolled into view first)."""
    from PySide6.QtWidgets import QScrollArea

    dialog.findChild(QScrollArea).ensureWidgetVisible(row.box)
    settle()
    QTest.mouseClick(row.box, Left, pos=QPoint(8, row.box.height() // 2))  # the box itself


def type_into(widget, text: str) -> None:
    widget.setFocus()
    if hasattr(widget, "selectAll"):
        widget.selectAll()
    QTest.keyClicks(widget, text)
    QTest.keyClick(widget, Qt.Key.Key_Return)
    settle()


def shown_editors(win) -> dict:
    """The Inspector's custom-properties editors on show, by their box's name (the
    forms replaced by a rebuild wait for deletion, hidden)."""
    from sodwa_editor.editor.properties.custom_editor import CustomPropertiesEditor

    return {e.parent().objectName(): e for e in win.inspector.findChildren(
        CustomPropertiesEditor) if e.isVisible()}


def shown_editor(win):
    (editor,) = shown_editors(win).values()
    return editor


def undo(win) -> None:
    win.activateWindow()  # a dialog that closed may have had it
    settle()
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_Z, CTRL)
    settle()


def redo(win) -> None:
    win.activateWindow()
    settle()
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_Y, CTRL)
    settle()


# ------------------------------------------------------------------ presets
def test_a_preset_is_declared_by_its_first_stroke_in_the_same_undo_step(make_window):
    win = make_window(MapModel(12, 10))
    doc = win.document
    presets = open_presets(win)
    click_item(presets, presets.items["woodlands"])
    assert win.state.terrain_id == preset_id("woodlands")
    assert "woodlands" not in doc.model.registry  # choosing it changes no map
    assert win.tool_options.terrain.currentText() == "Woodlands (preset)"
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_B)
    drag_tiles(win.view, [(1, 1), (4, 1), (4, 3)])
    settle()
    reg = doc.model.registry
    wood = reg.id_of("woodlands")
    assert reg[wood].base is Base.IMPEDING
    assert list(reg[wood].properties) == ["cover", "obscured"] or \
        set(reg[wood].properties) == {"cover", "obscured"}
    assert doc.model.terrain[1, 1:5].tolist() == [wood] * 4 and doc.model.terrain[3, 4] == wood
    assert doc.undo_stack.count() == 1
    assert doc.undo_stack.undoText() == "Paint Terrain (Woodlands)"
    assert win.state.terrain_id == wood  # now the map's type: the list shows it
    assert win.palette_dock.list.currentRow() == wood
    assert win.tool_options.terrain.currentText() == "Woodlands"
    drag_tiles(win.view, [(1, 6), (3, 6)])  # painted again: no second declaration
    assert doc.undo_stack.count() == 2 and len(doc.model.registry) == 6
    undo(win)
    undo(win)
    assert "woodlands" not in doc.model.registry and not doc.model.terrain.any()
    assert win.palette_dock.list.count() == 5
    redo(win)
    assert doc.model.registry.id_of("woodlands") == wood
    assert doc.model.terrain[1, 1:5].tolist() == [wood] * 4


def test_a_preset_the_map_has_paints_the_maps_type(make_window):
    m = MapModel(8, 6)
    sea = m.registry.register("sea", Base.LIQUID, {"deep_water": {}})
    win = make_window(m)
    presets = open_presets(win)
    assert presets.items["sea"].font(0).italic()  # "in this map"
    click_item(presets, presets.items["sea"])
    assert win.state.terrain_id == sea
    win.set_tool("rect")
    drag_tiles(win.view, [(0, 0), (2, 1)])
    assert win.document.model.terrain[0:2, 0:3].tolist() == [[sea] * 3] * 2
    assert len(win.document.model.registry) == 6


# -------------------------------------------------------------- type dialog
def test_the_terrain_type_dialog_adds_a_type_from_a_preset_and_edits_it(make_window):
    win = make_window(MapModel(8, 6))
    doc = win.document
    add = next(b for b in win.palette_dock.findChildren(type(win.palette_dock.edit_button))
               if b.text() == "Add Terrain Type...")
    QTest.mouseClick(add, Left)
    dialog = win.terrain_types.dialog
    assert dialog is not None and dialog.isVisible()
    combo = dialog.preset
    combo.setFocus()
    while combo.currentData() != "river":
        QTest.keyClick(combo, Qt.Key.Key_Down)
    assert dialog.name.text() == "river" and dialog.base.currentText() == "liquid"
    assert dialog.rows["hazardous"].box.isChecked()
    type_into(dialog.name, "ford")
    assert dialog.isVisible()  # Enter ends typing; OK closes the dialog
    dc = dialog.rows["precarious"]
    tick(dialog, dc)
    spin = dc.params["dc"]
    spin.setFocus()
    spin.selectAll()
    QTest.keyClicks(spin, "15")
    type_into(dialog.custom.new_name, "depth")
    assert dialog.custom.target.rows()[0].name == "depth"
    ok = dialog.buttons.button(dialog.buttons.StandardButton.Ok)
    QTest.mouseClick(ok, Left)
    settle()
    reg = doc.model.registry
    ford = reg[reg.id_of("ford")]
    assert ford.base is Base.LIQUID
    assert set(ford.properties) == {"obscured", "difficult", "shallow_water", "hazardous",
                                    "precarious"}
    assert ford.properties["precarious"].params["dc"] == 15
    assert ford.custom["depth"].type == "string"
    assert doc.undo_stack.undoText() == "Add Terrain Type ford"
    assert win.state.terrain_id == reg.id_of("ford")
    # Edit...: take Hazardous away, rename
    QTest.mouseClick(win.palette_dock.edit_button, Left)
    dialog = win.terrain_types.dialog
    hz = dialog.rows["hazardous"]
    tick(dialog, hz)
    type_into(dialog.name, "shallows")
    QTest.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), Left)
    settle()
    reg = doc.model.registry
    assert "ford" not in reg and reg.id_of("shallows") == 5
    assert "hazardous" not in reg[5].properties and "precarious" in reg[5].properties
    assert doc.undo_stack.undoText() == "Edit Terrain Type ford"
    undo(win)
    assert "hazardous" in doc.model.registry[doc.model.registry.id_of("ford")].properties


def test_the_dialog_refuses_a_taken_name_and_a_wrong_parameter_in_one_line(make_window):
    m = MapModel(8, 6)
    m.registry.register("icy", Base.DIFFICULT)
    win = make_window(m)
    dialog = win.terrain_types.add()
    type_into(dialog.name, "icy")
    QTest.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), Left)
    assert dialog.isVisible()
    assert dialog.problem.text() == "this map has a terrain type named 'icy' already"
    type_into(dialog.name, "lava")
    hz = dialog.rows["hazardous"]
    tick(dialog, hz)
    type_into(hz.params["damage"], "lots")
    QTest.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), Left)
    assert dialog.isVisible() and "Hazardous/damage: 'lots' is not dice" in dialog.problem.text()
    assert len(win.document.model.registry) == 6 and win.document.undo_stack.count() == 0
    type_into(hz.params["damage"], "2d12")
    QTest.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Ok), Left)
    settle()
    lava = win.document.model.registry[6]
    assert lava.properties["hazardous"].params["damage"] == "2d12"


# -------------------------------------------------------- custom properties
def test_a_custom_property_of_an_object_is_one_undo_step_each_edit(make_window):
    win = make_window(MapModel(10, 8))
    doc = win.document
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_O)
    click_tile(win.view, 3, 2)
    oid = next(iter(doc.model.objects))
    settle()
    ed = shown_editor(win)
    assert ed is not None
    ed.new_type.setCurrentText("int")
    type_into(ed.new_name, "loot")
    assert doc.model.objects[oid].custom["loot"].value == 0
    assert doc.undo_stack.undoText() == f"Add Property 'loot' of Object {oid}"
    ed = shown_editor(win)  # the form was rebuilt
    type_into(ed.values["loot"], "250")
    assert doc.model.objects[oid].custom["loot"].value == 250
    assert doc.undo_stack.undoText() == f"Edit Property 'loot' of Object {oid}"
    undo(win)
    assert doc.model.objects[oid].custom["loot"].value == 0
    undo(win)
    assert doc.model.objects[oid].custom == {}
    ed = shown_editor(win)
    assert ed.table.rowCount() == 0  # the Inspector follows the undo
    redo(win)
    redo(win)
    assert doc.model.objects[oid].custom["loot"].value == 250


def test_custom_properties_of_a_terrain_type_a_zone_and_a_character(make_window):
    from sodwa_editor.engine.model import Character

    m = MapModel(10, 8)
    icy = m.registry.register("icy", Base.DIFFICULT, {"precarious": {}})
    m.terrain[2, 2] = icy
    m.set_start_zone("red", {(2, 2)})
    m.put_character(Character("k", "red", 5, 5, name="Knight"))
    win = make_window(m)
    doc = win.document
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_S)
    click_tile(win.view, 2, 2)
    settle()
    boxes = shown_editors(win)
    assert set(boxes) == {"custom_terrain", "custom_zone"}
    boxes["custom_terrain"].new_type.setCurrentText("color")
    type_into(boxes["custom_terrain"].new_name, "tint")
    assert doc.model.registry[icy].custom["tint"].value == "#000000"
    assert doc.undo_stack.undoText() == "Add Property 'tint' of Terrain icy"
    boxes = shown_editors(win)
    boxes["custom_zone"].new_type.setCurrentText("bool")
    type_into(boxes["custom_zone"].new_name, "reinforcements")
    assert doc.model.zone_custom["red"]["reinforcements"].value is False
    click_tile(win.view, 5, 5)
    settle()
    ed = shown_editor(win)
    type_into(ed.new_name, "motto")
    assert doc.model.characters["k"].custom["motto"].type == "string"
    for _ in range(3):
        undo(win)
    assert doc.model.registry[icy].custom == {} and not doc.model.zone_custom
    assert doc.model.characters["k"].custom == {}


# ------------------------------------------------------------ light sources
def test_a_light_source_is_placed_with_the_object_tool_with_its_radius(make_window):
    m = MapModel(12, 8)
    cave = m.registry.register("cave", Base.CLEAR, {"dark": {}})
    m.terrain[:, :] = cave
    win = make_window(m)
    doc = win.document
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_O)
    opts = win.tool_options
    assert not opts.widgets["light_radius"][1].isVisible()  # a crate has no radius
    kind = opts.kind
    kind.setFocus()
    kind.lineEdit().selectAll()
    QTest.keyClicks(kind, "light")
    QTest.keyClick(kind, Qt.Key.Key_Return)
    settle()
    assert win.state.object_kind == "light" and opts.widgets["light_radius"][1].isVisible()
    type_into(opts.light_radius, "2")
    assert win.state.light_radius == 2
    win.view.setFocus()
    click_tile(win.view, 5, 4)
    settle()
    (light,) = doc.model.objects.values()
    assert (light.kind, light.x, light.y, light.radius, light.impedes_los) == (
        "light", 5, 4, 2, False)
    assert doc.undo_stack.undoText() == "Place Object"
    layer = win.scene.items_by_name["lights"]
    want = lit_tiles(doc.model)
    assert sorted(layer.lit_area(light.id)) == sorted(
        (int(x), int(y)) for y, x in zip(*want.nonzero(), strict=True))
    assert (3, 4) in layer.lit_area(light.id) and (2, 4) not in layer.lit_area(light.id)
    marks = win.scene.items_by_name["property_marks"]
    assert marks.lit[4, 5] and not marks.lit[4, 9]  # Dark drawn faded where lit
    # the Inspector edits the radius: one step
    spin = win.inspector.fields["radius"]
    type_into(spin, "0")
    assert doc.model.objects[light.id].radius == 0
    assert layer.lit_area(light.id) == [(5, 4)]
    undo(win)
    assert doc.model.objects[light.id].radius == 2


def test_object_kind_light_in_a_file_draws_its_lit_area(make_window):
    m = MapModel(8, 6)
    m.put_object(MapObject("torch", "light", 1, 1, radius=1))
    win = make_window(m)
    layer = win.scene.items_by_name["lights"]
    assert sorted(layer.lit_area("torch")) == sorted(
        (x, y) for x in range(3) for y in range(3))  # its tile and the 8 around it
    palette = win.palette_dock.list  # a wall painted next to it: the lit area follows
    row = palette.item(int(Base.OBSTRUCTING))
    QTest.mouseClick(palette.viewport(), Left, pos=palette.visualItemRect(row).center())
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_B)
    drag_tiles(win.view, [(2, 0), (2, 2)])
    settle()
    want = lit_tiles(win.document.model)
    assert sorted(layer.lit_area("torch")) == sorted(
        (int(x), int(y)) for y, x in zip(*want.nonzero(), strict=True))
    assert (2, 1) not in layer.lit_area("torch")


def test_the_fill_tool_fills_with_a_preset_and_says_so_before_the_click(make_window):
    win = make_window(MapModel(10, 8))
    doc = win.document
    presets = open_presets(win)
    click_item(presets, presets.items["sea"])
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_F)
    from sodwa_editor.editor.testing import click, move

    move(win.view, 4.5, 4.5)
    settle()
    assert win.statusBar().currentMessage().startswith("Fill: click changes 80 clear tile(s) "
                                                       "to sea")
    click(win.view, 4.5, 4.5)
    settle()
    sea = doc.model.registry.id_of("sea")
    assert (doc.model.terrain == sea).all()
    assert doc.undo_stack.count() == 1 and doc.undo_stack.undoText() == "Fill Terrain (Sea)"
    undo(win)
    assert "sea" not in doc.model.registry and not doc.model.terrain.any()


def test_a_chosen_preset_stays_chosen_when_another_map_replaces_this_one(make_window):
    win = make_window(MapModel(10, 8))
    presets = open_presets(win)
    click_item(presets, presets.items["caves"])
    bigger = win.document.model.copy()
    win.document.replace_map(bigger, "Resize Map")  # as a resize swaps the map
    settle()
    assert win.state.terrain_id == preset_id("caves")
    assert win.tool_options.terrain.currentText() == "Caves (preset)"


def test_the_object_tools_right_click_picks_a_lights_radius(make_window):
    m = MapModel(8, 6)
    m.put_object(MapObject("lamp", "light", 2, 2, impedes_los=False, radius=3))
    win = make_window(m)
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_O)
    from sodwa_editor.editor.testing import Right

    click_tile(win.view, 2, 2, Right)
    settle()
    assert (win.state.object_kind, win.state.light_radius) == ("light", 3)
    assert win.tool_options.light_radius.value() == 3
    assert "picked light radius 3" in win.statusBar().currentMessage()


def test_properties_are_typed_one_after_the_other_in_the_inspector(make_window):
    """After Enter adds a property the Inspector's form is made again: the keyboard
    is in the new name's box again, so the next name is typed straight away; after
    a value is typed it stays in that value's box."""
    win = make_window(MapModel(10, 8))
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_O)
    click_tile(win.view, 3, 2)
    oid = next(iter(win.document.model.objects))
    settle()
    type_into(shown_editor(win).new_name, "loot")
    for name in ("guard", "door"):
        box = QApplication.focusWidget()
        assert box is shown_editor(win).new_name
        QTest.keyClicks(box, name)
        QTest.keyClick(box, Qt.Key.Key_Return)
        settle()
    assert sorted(win.document.model.objects[oid].custom) == ["door", "guard", "loot"]
    edit = shown_editor(win).line_edit("door")
    type_into(edit, "north")
    assert win.document.model.objects[oid].custom["door"].value == "north"
    assert QApplication.focusWidget() is shown_editor(win).line_edit("door")
