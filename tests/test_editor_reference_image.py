"""The reference image layer (issue 29): View -> Reference Image... (Ctrl+Shift+R)
picks the file and sets opacity, scale and offset (real key events in the
dialog), saved in the map's editor settings as a path relative to the map file;
a missing file is a one-line warning, never a crash."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sodwa_editor.editor.reference_image import ReferenceImageDialog
from sodwa_editor.editor.style import TILE
from sodwa_editor.engine.annotations import ReferenceImage
from sodwa_editor.engine.model import MapModel
from sodwa_editor.io import load_map, save_map

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def make_png(path: Path, w: int = 64, h: int = 32) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    image = QImage(w, h, QImage.Format.Format_ARGB32)
    image.fill(QColor(200, 30, 30))
    assert image.save(str(path))
    return path


def open_dialog(win, qtbot) -> ReferenceImageDialog:
    QTest.keyClick(win.view, Qt.Key.Key_R, CTRL_SHIFT)
    qtbot.waitUntil(lambda: win.findChild(ReferenceImageDialog) is not None, timeout=2000)
    return win.findChild(ReferenceImageDialog)


def test_pick_and_adjust_the_image_saved_relative_to_the_map(make_window, qtbot, tmp_path):
    make_png(tmp_path / "sketches" / "keep.png")
    map_path = tmp_path / "maps" / "keep.json"
    map_path.parent.mkdir()
    save_map(MapModel(10, 8), map_path)
    win = make_window(load_map(map_path), map_path)
    dialog = open_dialog(win, qtbot)
    QTest.keyClicks(dialog.path, "../sketches/keep.png")
    QTest.keyClick(dialog.path, Qt.Key.Key_Return)
    ref = win.document.model.reference_image
    assert ref == ReferenceImage("../sketches/keep.png", 0.5, 1.0, 0.0, 0.0)
    assert win.document.undo_stack.undoText() == "Set Reference Image"
    item = win.scene.items_by_name["reference_image"]
    QApplication.processEvents()
    assert not item.image.isNull() and item.problem is None
    dialog.opacity.selectAll()
    QTest.keyClicks(dialog.opacity, "80")
    dialog.scale.selectAll()
    QTest.keyClicks(dialog.scale, "2")
    dialog.offset[0].selectAll()
    QTest.keyClicks(dialog.offset[0], "1.5")
    ref = win.document.model.reference_image
    assert (ref.opacity, ref.scale, ref.offset_x) == (0.8, 2.0, 1.5)
    assert win.document.undo_stack.count() == 2  # the adjustments merged into one step
    assert win.document.undo_stack.undoText() == "Adjust Reference Image"
    QApplication.processEvents()
    rect = item.target()
    assert (rect.x(), rect.width(), rect.height()) == (1.5 * TILE, 128, 64)
    win.files.save()
    text = map_path.read_text()
    assert '"editor": {"reference_image": {"path": "../sketches/keep.png", "opacity": 0.8' in text
    assert load_map(map_path).reference_image == ref
    win.document.undo()
    win.document.undo()
    assert win.document.model.reference_image is None


def test_browse_stores_the_path_relative_to_the_map(make_window, qtbot, tmp_path):
    png = make_png(tmp_path / "ref" / "a.png")
    map_path = tmp_path / "m.json"
    save_map(MapModel(6, 6), map_path)
    win = make_window(load_map(map_path), map_path)
    dialog = open_dialog(win, qtbot)
    assert dialog.choose(png)  # what Browse... calls with the chosen file
    assert win.document.model.reference_image.path == "ref/a.png"
    QTest.mouseClick(dialog.remove, Qt.MouseButton.LeftButton)
    assert win.document.model.reference_image is None
    assert win.document.undo_stack.undoText() == "Remove Reference Image"


def test_a_missing_image_is_one_line_and_the_map_opens(make_window, tmp_path):
    m = MapModel(6, 6)
    m.reference_image = ReferenceImage("gone.png", 0.5)
    path = tmp_path / "m.json"
    save_map(m, path)
    win = make_window(load_map(path), path)
    QApplication.processEvents()
    message = win.statusBar().currentMessage()
    assert "reference image" in message and "gone.png not found" in message
    assert "\n" not in message
    item = win.scene.items_by_name["reference_image"]
    assert item.image.isNull() and item.boundingRect().isEmpty()
    (tmp_path / "gone.png").write_text("not an image")
    win.document.set_reference_image(ReferenceImage("gone.png", 0.6))
    QApplication.processEvents()
    assert "is not an image Qt can read" in win.statusBar().currentMessage()


def test_the_layer_toggle_hides_the_image(make_window, tmp_path):
    make_png(tmp_path / "r.png")
    m = MapModel(6, 6)
    m.reference_image = ReferenceImage(str(tmp_path / "r.png"))
    win = make_window(m)
    assert win.scene.layer_visible("reference")
    QTest.keyClick(win.view, Qt.Key.Key_I, CTRL_SHIFT)
    assert not win.scene.layer_visible("reference")
    assert not win.action_map["layer_reference"].isChecked()
    win.context.layers.set_visible("reference", True)  # (as View -> Show Reference Image)
    assert win.action_map["layer_reference"].isChecked()
    assert win.layers.boxes["reference"].isChecked()  # the Layers dock follows


def test_save_as_elsewhere_keeps_the_image_found(make_window, tmp_path):
    png = make_png(tmp_path / "art" / "ref.png")
    m = MapModel(6, 6)
    m.reference_image = ReferenceImage(str(png))  # an unsaved map: absolute
    win = make_window(m)
    first = tmp_path / "maps" / "a.json"
    first.parent.mkdir()
    assert win.files.save_as(first)
    assert win.document.model.reference_image.path == "../art/ref.png"
    assert not win.document.modified  # the rebase is part of the saved state
    deeper = tmp_path / "maps" / "v2" / "b.json"
    deeper.parent.mkdir()
    assert win.files.save_as(deeper)
    assert load_map(deeper).reference_image.path == "../../art/ref.png"
    assert win.document.undo_stack.undoText() == "Rebase Reference Image"
    QApplication.processEvents()
    item = win.scene.items_by_name["reference_image"]
    assert item.problem is None and not item.image.isNull()
    assert win.files.save()  # saved in place again: nothing to rebase
    assert win.document.undo_stack.undoText() == "Rebase Reference Image"
    assert win.document.undo_stack.count() == 2


def test_a_tiled_map_opened_finds_its_image_beside_the_tmj(make_window, tmp_path):
    from sodwa_editor.io.tiled_export import write_tiled

    make_png(tmp_path / "tiled" / "sketch.png")
    m = MapModel(6, 6)
    m.reference_image = ReferenceImage("sketch.png", 0.7)
    write_tiled(m, tmp_path / "tiled" / "t.tmj")
    win = make_window(MapModel(4, 4))
    assert win.files.open_map(tmp_path / "tiled" / "t.tmj")
    ref = win.document.model.reference_image
    assert ref.path == str((tmp_path / "tiled" / "sketch.png").resolve()) and ref.opacity == 0.7
    QApplication.processEvents()
    assert not win.scene.items_by_name["reference_image"].image.isNull()
    assert win.files.save_as(tmp_path / "m.json")
    assert load_map(tmp_path / "m.json").reference_image.path == "tiled/sketch.png"
