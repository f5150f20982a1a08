"""How terrain properties read on the map (issue 27 sections 1 and 3), with real
events: the icons on tiles and their per-property toggles, the property filter,
the legend's section, the Inspector's list of the hovered tile's properties and
the validation warnings (a click selects the place)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.editor.scene.property_item import slots
from sodwa_editor.editor.style import TILE
from sodwa_editor.editor.testing import Left, move, view_point
from sodwa_editor.engine.model import MapModel, MapObject
from sodwa_editor.engine.terrain import Base
from sodwa_editor.engine.terrain_properties import PROPERTY_NAMES, VOCABULARY


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def woods_and_sea() -> MapModel:
    """Woodlands (Obscured, Cover) on the left, Sea (Deep Water) on the right."""
    m = MapModel(12, 8)
    wood = m.registry.register("woodlands", Base.IMPEDING, {"obscured": {}, "cover": {}})
    sea = m.registry.register("sea", Base.LIQUID, {"exposed": {}, "deep_water": {}})
    m.terrain[:, 0:5] = wood
    m.terrain[:, 7:12] = sea
    return m


def pixel(win, fx: float, fy: float) -> QColor:
    img = win.view.viewport().grab().toImage()
    return img.pixelColor(view_point(win.view, fx, fy))


def icon_point(x: int, y: int, k: int) -> tuple[float, float]:
    """Tile units of the middle of the k-th icon slot of tile (x, y)."""
    box = slots(k + 1)[k]
    return x + box.center().x() / TILE, y + box.center().y() / TILE


def fill(win, x: int, y: int) -> QColor:
    """The tile's colour away from its icons, outlines and grid."""
    return pixel(win, x + 0.75, y + 0.3)


def test_each_property_has_an_icon_on_its_tiles_and_a_box_that_hides_it(make_window):
    win = make_window(woods_and_sea())
    move(win.view, 11.9, 7.9)
    marks = win.scene.items_by_name["property_marks"]
    assert marks.tiles_with("cover")[3, 2] and not marks.tiles_with("cover")[3, 9]
    # Woodlands: Cover then Obscured (vocabulary order) at the foot of the tile
    assert pixel(win, *icon_point(2, 3, 0)) != fill(win, 2, 3)
    assert pixel(win, *icon_point(2, 3, 1)) != fill(win, 2, 3)
    assert pixel(win, *icon_point(5, 3, 0)) == fill(win, 5, 3)  # clear ground: none
    section = win.layers.properties
    section.unfold.click()
    settle()
    box = section.boxes["cover"]
    win.docks["layers"].widget().ensureWidgetVisible(box)
    QTest.mouseClick(box, Left, pos=QPoint(8, box.height() // 2))
    settle()
    assert not win.context.layers.property_shown["cover"]
    # Obscured moves into the first slot; nothing in the second
    assert pixel(win, *icon_point(2, 3, 1)) == fill(win, 2, 3)
    assert pixel(win, *icon_point(2, 3, 0)) != fill(win, 2, 3)
    QTest.mouseClick(box, Left, pos=QPoint(8, box.height() // 2))
    settle()
    assert pixel(win, *icon_point(2, 3, 1)) != fill(win, 2, 3)
    win.context.layers.set_visible("properties", False)  # the whole layer
    settle()
    assert pixel(win, *icon_point(2, 3, 0)) == fill(win, 2, 3)


def test_the_property_filter_dims_every_tile_without_the_property(make_window):
    win = make_window(woods_and_sea())
    move(win.view, 11.9, 7.9)
    wood_before, clear_before, sea_before = fill(win, 2, 3), fill(win, 5, 3), fill(win, 9, 3)
    combo = win.layers.properties.filter
    combo.setFocus()
    while combo.currentData() != "deep_water":
        QTest.keyClick(combo, Qt.Key.Key_Down)
    settle()
    assert win.context.layers.property_filter == "deep_water"
    assert fill(win, 9, 3) == sea_before  # has it: as before
    for before, x in ((wood_before, 2), (clear_before, 5)):
        after = fill(win, x, 3)
        assert after.lightness() < before.lightness() - 40, (before.getRgb(), after.getRgb())
    while combo.currentIndex() > 0:
        QTest.keyClick(combo, Qt.Key.Key_Up)
    settle()
    assert win.context.layers.property_filter is None
    assert fill(win, 2, 3) == wood_before


def test_the_legend_lists_every_property_with_its_icon_and_effect(make_window):
    win = make_window(MapModel(6, 4))
    swatches = win.legend.swatches
    for name in PROPERTY_NAMES:
        spec = VOCABULARY[name]
        text = f"{spec.label}: {spec.effect}"
        assert text in swatches, text
        img = swatches[text].pixmap().toImage()
        colours = {img.pixelColor(x, y).rgb() for x in range(0, img.width(), 3)
                   for y in range(0, img.height(), 3)}
        assert len(colours) > 3, name  # an icon on the ground, not a plain swatch
    assert any(t.startswith("Light source") for t in swatches)
    assert any(t.startswith("Show tiles with a property") for t in swatches)


def test_the_inspector_lists_the_hovered_tiles_properties_with_their_effect(make_window):
    win = make_window(woods_and_sea())
    view = win.inspector.tile_view
    move(win.view, 2.5, 3.5)
    settle()
    wood = win.document.model.registry[5]
    assert view.rows == [f"{p.spec.label}: {p.effect_text()}" for p in wood.properties.values()]
    move(win.view, 5.5, 3.5)
    settle()
    assert view.rows == []
    move(win.view, 9.5, 3.5)
    settle()
    assert [r.split(":")[0] for r in view.rows] == ["Deep Water", "Exposed"] or \
        sorted(r.split(":")[0] for r in view.rows) == ["Deep Water", "Exposed"]


def test_validation_lists_the_property_warnings_and_a_click_selects_the_place(make_window):
    m = MapModel(10, 6)
    moat = m.registry.register("moat", Base.OBSTRUCTING, {"deep_water": {}})
    cave = m.registry.register("cave", Base.DIFFICULT, {"dark": {}})
    m.terrain[1, 1:4] = moat
    m.terrain[4, 6:9] = cave
    m.put_object(MapObject("torch", "light", 2, 1, impedes_los=False))
    win = make_window(m)
    dock = win.validation
    dock.run()
    texts = [dock.list.item(i).text() for i in range(dock.list.count())]
    codes = {p.code for p in dock.problems}
    assert {"property-on-obstructing", "light-in-wall"} <= codes, texts
    i = next(i for i, p in enumerate(dock.problems) if p.code == "light-in-wall")
    lst = dock.list
    lst.scrollToItem(lst.item(i))
    QTest.mouseClick(lst.viewport(), Left, pos=lst.visualItemRect(lst.item(i)).center())
    settle()
    sel = win.state.selection
    assert (sel.kind, sel.value) == ("object", "torch")
    assert win.scene.focus.tiles == [(2, 1)] or (2, 1) in win.scene.focus.tiles
    j = next(j for j, p in enumerate(dock.problems) if p.code == "property-on-obstructing")
    lst.scrollToItem(lst.item(j))
    QTest.mouseClick(lst.viewport(), Left, pos=lst.visualItemRect(lst.item(j)).center())
    settle()
    sel = win.state.selection
    assert (sel.kind, sel.value) == ("tile", (1, 1))
    assert sorted(win.scene.focus.tiles) == [(1, 1), (2, 1), (3, 1)]
