"""The custom-properties editor (issue 27 section 1) driven with real keys and
clicks: add, rename, retype, edit and remove typed properties; what it refuses
it says in one line."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.editor.properties.custom_editor import CustomPropertiesEditor, LocalTarget
from sodwa_editor.editor.properties.typed import PropertyRow


def typed_in(widget, text: str) -> None:
    widget.setFocus()
    widget.selectAll()
    QTest.keyClicks(widget, text)
    QTest.keyClick(widget, Qt.Key.Key_Return)


def rename_row(table, row: int, text: str) -> None:
    """Double-click a name, type ``text`` over it and press Enter."""
    edit_cell(table, table.visualItemRect(table.item(row, 0)))
    box = table.focusWidget()
    box.selectAll()
    QTest.keyClicks(box, text)
    QTest.keyClick(box, Qt.Key.Key_Return)
    QApplication.processEvents()  # the delegate commits a queued call later


def edit_cell(table, rect) -> None:
    """A double-click on a cell (an item view takes a click before its double-click)."""
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def editor(qtbot, rows=()):
    target = LocalTarget([PropertyRow(*r) for r in rows])
    ed = CustomPropertiesEditor(target)
    qtbot.addWidget(ed)
    ed.show()
    qtbot.waitExposed(ed)
    return ed, target


def test_add_a_property_of_each_type_by_typing_its_name(qtbot):
    ed, target = editor(qtbot)
    for i, kind in enumerate(("string", "int", "float", "bool", "color", "file")):
        ed.new_type.setFocus()
        while ed.new_type.currentText() != kind:  # the keyboard, as a person picks it
            QTest.keyClick(ed.new_type, Qt.Key.Key_Down)
        typed_in(ed.new_name, f"p{i}")
    assert [(r.name, r.type, r.value) for r in target.rows()] == [
        ("p0", "string", ""), ("p1", "int", 0), ("p2", "float", 0.0),
        ("p3", "bool", False), ("p4", "color", "#000000"), ("p5", "file", "")]
    assert ed.table.rowCount() == 6


def test_values_are_typed_and_a_wrong_one_is_refused_in_one_line(qtbot):
    ed, target = editor(qtbot, [("hp", "int", 3), ("speed", "float", 1.5),
                                ("tint", "color", "#112233"), ("lit", "bool", False)])
    said = []
    ed.message.connect(said.append)
    spin = ed.values["hp"]
    typed_in(spin, "12")
    assert target.rows()[0].value == 12
    typed_in(ed.line_edit("speed"), "fast")
    assert said == ["property 'speed' not changed: 'fast' is not a number"]
    assert target.rows()[1].value == 1.5 and ed.line_edit("speed").text() == "1.5"
    typed_in(ed.line_edit("speed"), "2.25")
    assert target.rows()[1].value == 2.25
    typed_in(ed.line_edit("tint"), "#FF0000")
    assert target.rows()[2].value == "#ff0000"
    box = ed.values["lit"]
    QTest.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())
    assert target.rows()[3].value is True


def test_rename_by_editing_the_name_cell_and_refuse_a_taken_name(qtbot):
    ed, target = editor(qtbot, [("loot", "string", "gold"), ("key", "bool", True)])
    said = []
    ed.message.connect(said.append)
    table = ed.table
    rename_row(table, 0, "treasure")
    assert [r.name for r in target.rows()] == ["treasure", "key"]
    assert target.rows()[0].value == "gold"
    rename_row(table, 1, "treasure")
    assert said == ["property not renamed: there is a property named 'treasure' already"]
    assert [r.name for r in target.rows()] == ["treasure", "key"]
    assert table.item(1, 0).text() == "key"


def test_changing_the_type_keeps_what_reads_as_the_new_type(qtbot):
    ed, target = editor(qtbot, [("n", "string", "42"), ("w", "string", "wide")])
    combo = ed.table.cellWidget(0, 1)
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Down)  # string -> int
    assert target.rows()[0] == ("n", "int", 42)
    combo = ed.table.cellWidget(1, 1)
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Down)
    assert target.rows()[1] == ("w", "int", 0)  # "wide" is no number: the default


def test_remove_with_the_button_or_delete_and_refuse_an_empty_name(qtbot):
    ed, target = editor(qtbot, [("a", "int", 1), ("b", "int", 2), ("c", "int", 3)])
    said = []
    ed.message.connect(said.append)
    table = ed.table
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                     pos=table.visualItemRect(table.item(1, 0)).center())
    QTest.mouseClick(ed.remove_button, Qt.MouseButton.LeftButton)
    assert [r.name for r in target.rows()] == ["a", "c"]
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                     pos=table.visualItemRect(table.item(0, 0)).center())
    QTest.keyClick(table, Qt.Key.Key_Delete)
    assert [r.name for r in target.rows()] == ["c"]
    typed_in(ed.new_name, "   ")
    assert said == ["property not added: give the property a name"]
    typed_in(ed.new_name, "c")
    assert said[-1] == "property not added: there is a property named 'c' already"
