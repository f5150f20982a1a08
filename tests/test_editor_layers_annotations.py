"""The reference image and the labels in the Layers dock (issue 29): their rows
show and hide them in step with View -> Show Reference Image / Show Labels,
lock them, and set the labels' opacity and the reference image's (the map's
own: one undo step, adjustments in a row merged).  Real mouse and key events on
the dock's boxes and spin boxes and on the map view."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.editor.testing import Left, click_tile
from sodwa_editor.engine.annotations import Label, ReferenceImage
from sodwa_editor.engine.model import MapModel

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def click_box(box) -> None:
    box.window().activateWindow()
    QTest.mouseClick(box, Left, pos=QPoint(8, box.height() // 2))
    QApplication.processEvents()


def type_into(spin, text: str) -> None:
    spin.setFocus()
    spin.selectAll()
    QTest.keyClicks(spin, text)
    QTest.keyClick(spin, Qt.Key.Key_Return)
    QApplication.processEvents()


def annotated(tmp_path) -> MapModel:
    from test_editor_reference_image import make_png

    m = MapModel(8, 6)
    m.reference_image = ReferenceImage(str(make_png(tmp_path / "r.png")), 0.5)
    m.labels["label-1"] = Label("label-1", 2, 2, "Ford")
    return m


def test_the_rows_and_the_view_menu_show_the_same_layers(make_window, tmp_path):
    win = make_window(annotated(tmp_path))
    dock = win.layers
    for name, action in (("reference", "layer_reference"), ("labels", "layer_labels")):
        box = dock.boxes[name]
        assert box.isChecked() and win.action_map[action].isChecked()
        click_box(box)
        assert not win.scene.layer_visible(name) and not win.action_map[action].isChecked()
        win.action_map[action].trigger()  # View -> Show ...
        assert box.isChecked() and win.scene.layer_visible(name)
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_N, CTRL_SHIFT)  # Show Labels' key
    assert not dock.boxes["labels"].isChecked()
    assert dock.boxes["reference"].text() == "Reference"  # as its refusals name it


def test_a_hidden_or_locked_labels_row_refuses_label_edits(make_window, tmp_path):
    win = make_window(annotated(tmp_path))
    click_box(win.layers.locks["labels"])
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_N)
    click_tile(win.view, 2, 2, modifiers=Qt.KeyboardModifier.ShiftModifier)  # delete it
    assert "label-1" in win.document.model.labels
    assert "Labels layer is locked" in win.statusBar().currentMessage()
    type_into(win.layers.opacity["labels"], "40")
    assert win.context.layers.opacity["labels"] == 40
    assert win.scene.items_by_name["labels"].opacity() == 0.4


def test_the_reference_opacity_is_the_maps_one_undo_step(make_window, tmp_path):
    win = make_window(annotated(tmp_path))
    spin = win.layers.reference_opacity
    assert spin is not None and spin.isEnabled() and spin.value() == 50
    type_into(spin, "30")
    doc = win.document
    assert doc.model.reference_image.opacity == 0.3
    assert doc.undo_stack.count() == 1  # typed "3", then "30": one step
    assert doc.undo_stack.undoText() == "Adjust Reference Image"
    spin.setFocus()
    QTest.keyClick(spin, Qt.Key.Key_Up)
    assert doc.model.reference_image.opacity == 0.31 and doc.undo_stack.count() == 1
    doc.undo()
    assert doc.model.reference_image.opacity == 0.5 and spin.value() == 50
    doc.redo()
    assert spin.value() == 31
    click_box(win.layers.locks["reference"])
    type_into(spin, "80")
    assert doc.model.reference_image.opacity == 0.31 and spin.value() == 31  # refused
    assert "Reference layer is locked" in win.statusBar().currentMessage()


def test_without_a_reference_image_its_opacity_is_off(make_window, tmp_path):
    win = make_window(MapModel(6, 4))
    spin = win.layers.reference_opacity
    assert not spin.isEnabled() and "View -> Reference Image" in spin.toolTip()
    win.document.set_reference_image(ReferenceImage(str(tmp_path / "x.png"), 0.25))
    assert spin.isEnabled() and spin.value() == 25
