"""The Label tool and labels layer (issue 29): real mouse and key events on the
map view and in the inline text box; each edit one undo step; labels saved in
the map and never read by the rules."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.editor.testing import Shift, click_tile, drag
from sodwa_editor.engine.annotations import Label
from sodwa_editor.engine.model import MapModel
from sodwa_editor.io import load_map, save_map


def label_tool(win):
    QTest.keyClick(win.view, Qt.Key.Key_N)  # the Label tool's key
    assert win.tool.name == "label"
    return win.tool


def test_click_type_enter_places_a_label_and_undo_takes_it_back(make_window):
    win = make_window(MapModel(12, 8))
    tool = label_tool(win)
    click_tile(win.view, 3, 2)
    assert tool.editor is not None and tool.editor.isVisible()
    QTest.keyClicks(tool.editor, "Ford (shallow)")
    QTest.keyClick(tool.editor, Qt.Key.Key_Return)
    QApplication.processEvents()
    labels = list(win.document.model.labels.values())
    assert [(lb.x, lb.y, lb.text) for lb in labels] == [(3, 2, "Ford (shallow)")]
    assert win.document.undo_stack.undoText() == "Add Label"
    assert win.scene.items_by_name["labels"].items[labels[0].id].label.text == "Ford (shallow)"
    assert win.inspector.fields["label_text"].text() == "Ford (shallow)"
    win.document.undo()
    assert win.document.model.labels == {}
    win.document.redo()
    assert len(win.document.model.labels) == 1


def test_escape_drops_the_text_and_adds_nothing(make_window):
    win = make_window(MapModel(12, 8))
    tool = label_tool(win)
    click_tile(win.view, 1, 1)
    QTest.keyClicks(tool.editor, "never")
    QTest.keyClick(tool.editor, Qt.Key.Key_Escape)
    QApplication.processEvents()
    assert win.document.model.labels == {} and tool.editor is None
    assert win.document.undo_stack.count() == 0


def test_click_a_label_edits_it_inline_drag_moves_shift_click_deletes(make_window):
    m = MapModel(12, 8)
    m.labels["label-1"] = Label("label-1", 4, 4, "Gate")
    win = make_window(m)
    tool = label_tool(win)
    click_tile(win.view, 4, 4)
    assert tool.editor.text() == "Gate"
    tool.editor.selectAll()
    QTest.keyClicks(tool.editor, "North gate")
    QTest.keyClick(tool.editor, Qt.Key.Key_Return)
    assert win.document.model.labels["label-1"].text == "North gate"
    assert win.document.undo_stack.undoText() == "Edit Label"
    drag(win.view, [(4.5, 4.5), (6.5, 4.5), (7.5, 5.5)])
    lb = win.document.model.labels["label-1"]
    assert (lb.x, lb.y) == (7, 5) and win.document.undo_stack.undoText() == "Move Label"
    assert tool.editor is None  # a drag is a move, not an edit
    click_tile(win.view, 7, 5, modifiers=Shift)
    assert win.document.model.labels == {}
    assert win.document.undo_stack.undoText() == "Delete Label"
    for text in ("Delete Label", "Move Label", "Edit Label"):
        assert win.document.undo_stack.undoText() == text
        win.document.undo()
    assert win.document.model.labels["label-1"] == Label("label-1", 4, 4, "Gate")


def test_delete_key_removes_the_selected_label(make_window):
    m = MapModel(12, 8)
    m.labels["label-1"] = Label("label-1", 2, 3, "Here")
    win = make_window(m)
    tool = label_tool(win)
    click_tile(win.view, 2, 3)  # selects it (and opens its text box)
    QTest.keyClick(tool.editor, Qt.Key.Key_Escape)
    QTest.keyClick(win.view, Qt.Key.Key_Delete)
    assert win.document.model.labels == {}
    assert win.document.undo_stack.undoText() == "Delete Label"


def test_inspector_edits_colour_and_size_and_refuses_a_bad_colour(make_window):
    m = MapModel(12, 8)
    m.labels["label-1"] = Label("label-1", 2, 3, "Here")
    win = make_window(m)
    label_tool(win)
    drag(win.view, [(2.5, 3.5), (2.5, 3.5)])  # a click selects it (and opens the box)
    QTest.keyClick(win.tool.editor, Qt.Key.Key_Escape)
    colour = win.inspector.fields["label_color"]
    colour.clear()
    QTest.keyClicks(colour, "red")
    QTest.keyClick(colour, Qt.Key.Key_Return)
    assert win.document.model.labels["label-1"].color == ""
    assert "label colour 'red' is not #rrggbb" in win.statusBar().currentMessage()
    colour = win.inspector.fields["label_color"]
    colour.clear()
    QTest.keyClicks(colour, "#ff8800")
    QTest.keyClick(colour, Qt.Key.Key_Return)
    assert win.document.model.labels["label-1"].color == "#ff8800"
    size = win.inspector.fields["label_size"]
    size.selectAll()
    QTest.keyClicks(size, "14")
    QTest.keyClick(size, Qt.Key.Key_Return)
    assert win.document.model.labels["label-1"].size == 14


def test_a_locked_or_hidden_labels_layer_refuses_and_the_toggle_hides(make_window):
    m = MapModel(12, 8)
    m.labels["label-1"] = Label("label-1", 2, 3, "Here")
    win = make_window(m)
    QTest.keyClick(win.view, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)  # Show Labels off
    assert not win.scene.layer_visible("labels")
    label_tool(win)
    click_tile(win.view, 2, 3, modifiers=Shift)
    assert "label-1" in win.document.model.labels
    assert "Labels layer is hidden" in win.statusBar().currentMessage()
    QTest.keyClick(win.view, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    assert win.scene.layer_visible("labels")


def test_labels_round_trip_through_the_file_and_are_ignored_by_the_rules(tmp_path):
    from sodwa_editor.engine.movement import reach

    m = MapModel(6, 5)
    before = reach(m, (0, 0), 3).steps.copy()
    m.put_label(Label("label-1", 1, 1, "Höhe 3", "#00ff00", 12))
    m.put_label(Label("label-2", 5, 4, "corner"))
    assert (reach(m, (0, 0), 3).steps == before).all()  # on top of a label's tile too
    save_map(m, tmp_path / "m.json")
    back = load_map(tmp_path / "m.json")
    assert back.labels == m.labels
    assert (tmp_path / "m.json").read_text().count('"id": "label-') == 2


def test_exports_carry_the_labels_while_the_layer_is_shown(make_window, tmp_path):
    import json

    from PySide6.QtGui import QImage

    m = MapModel(6, 4)
    m.labels["label-1"] = Label("label-1", 2, 1, "WELL", "#ff00ff", 20)
    win = make_window(m)
    assert win.files.export_png(tmp_path / "with.png")
    assert win.files.export_tiled(tmp_path / "t-with.tmj")  # (its tileset: t-with.png)
    QTest.keyClick(win.view, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)  # Show Labels off
    assert win.files.export_png(tmp_path / "without.png")
    assert win.files.export_tiled(tmp_path / "t-without.tmj")

    def magenta(name: str) -> int:
        img = QImage(str(tmp_path / name))
        return sum(1 for y in range(img.height()) for x in range(img.width())
                   if (c := img.pixelColor(x, y)).red() > 180 and c.blue() > 180
                   and c.green() < 90)

    assert magenta("with.png") > 20 and magenta("without.png") == 0

    def layers(name: str) -> list[str]:
        return [ly["name"] for ly in json.loads((tmp_path / name).read_text())["layers"]]

    assert "labels" in layers("t-with.tmj") and "labels" not in layers("t-without.tmj")
