"""The editor's Tiled interop (issue 29): File -> Export As Tiled Map and File ->
Open of a ``.tmj``, driven through the menus with real clicks (the file dialogs
replaced by a chooser that answers)."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox
from test_editor_help import _click_menu_entry

from sodwa_editor.io import load_map
from sodwa_editor.io.tiled_export import write_tiled
from sodwa_editor.io.tiled_import import import_tiled

ROOT = Path(__file__).resolve().parents[1]
KEEP = ROOT / "maps" / "tiered-keep.json"


def choose(monkeypatch, kind: str, path: Path) -> list:
    """Replace QFileDialog.get<kind>FileName with a chooser answering ``path``; the
    list records the filters it was offered."""
    offered: list = []

    def chooser(parent, title, start, filters, *a, **k):
        offered.append((title, start, filters))
        return str(path), ""

    monkeypatch.setattr(QFileDialog, f"get{kind}FileName", chooser)
    return offered


def test_export_as_tiled_map_from_the_file_menu(make_window, qtbot, tmp_path, monkeypatch):
    win = make_window(load_map(KEEP), KEEP)
    offered = choose(monkeypatch, "Save", tmp_path / "keep")  # no suffix typed: .tmj added
    _click_menu_entry(win, qtbot, "File", "Export As Tiled Map...")
    assert offered == [("Export As Tiled Map", str(KEEP.with_suffix(".tmj")),
                        "Tiled maps (*.tmj)")]  # opens beside the map, named after it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.png", "keep.tmj", "keep.tsj"]
    back = import_tiled(tmp_path / "keep.tmj")
    assert back.model is not None and back.model.same_content(win.document.model)
    assert json.loads((tmp_path / "keep.tmj").read_text())["tilesets"] == [
        {"firstgid": 1, "source": "keep.tsj"}]
    assert not win.document.modified and win.document.path == KEEP


def test_export_never_writes_over_the_open_map(make_window, qtbot, tmp_path, monkeypatch):
    src = tmp_path / "keep.png"  # (an odd name, but the open map's file all the same)
    src.write_bytes(KEEP.read_bytes())
    win = make_window(load_map(src), src)
    errors: list = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a: errors.append(a[2]))
    choose(monkeypatch, "Save", tmp_path / "keep.tmj")
    _click_menu_entry(win, qtbot, "File", "Export As Tiled Map...")
    assert len(errors) == 1 and "it is one of the input files" in errors[0]
    assert src.read_bytes() == KEEP.read_bytes()
    assert not (tmp_path / "keep.tmj").exists()


def test_open_a_tiled_map_from_the_file_menu(make_window, qtbot, tmp_path, monkeypatch):
    write_tiled(load_map(KEEP, strict=False), tmp_path / "keep.tmj")
    win = make_window()
    offered = choose(monkeypatch, "Open", tmp_path / "keep.tmj")
    _click_menu_entry(win, qtbot, "File", "Open...")
    assert "*.tmj" in offered[0][2]
    model = win.document.model
    assert model.same_content(load_map(KEEP, strict=False))
    assert win.files.last_dialog is None  # nothing left out, no problem to show
    # a Tiled map is never saved over: Save asks where the SODWA map goes
    assert win.document.path is None
    saved = tmp_path / "saved.json"
    offered = choose(monkeypatch, "Save", saved)
    _click_menu_entry(win, qtbot, "File", "Save")
    assert offered[0][0] == "Save Map As"
    assert saved.read_bytes() == KEEP.read_bytes()
    assert json.loads((tmp_path / "keep.tmj").read_text())["type"] == "map"


def test_what_a_tiled_map_cannot_give_is_shown(make_window, qtbot, tmp_path, monkeypatch):
    write_tiled(load_map(KEEP, strict=False), tmp_path / "keep.tmj")
    doc = json.loads((tmp_path / "keep.tmj").read_text())
    doc["layers"].append({"id": 40, "name": "decor", "type": "tilelayer", "width": 16,
                          "height": 16, "data": [0] * 256})
    (tmp_path / "extra.tmj").write_text(json.dumps(doc), encoding="utf-8")
    doc["layers"][0]["data"][5] = 777
    (tmp_path / "broken.tmj").write_text(json.dumps(doc), encoding="utf-8")
    win = make_window()
    choose(monkeypatch, "Open", tmp_path / "extra.tmj")
    _click_menu_entry(win, qtbot, "File", "Open...")
    dialog = win.files.last_dialog
    assert dialog is not None and dialog.windowTitle() == "Tiled Map Opened"
    [line] = dialog.lines()
    assert "/layers/9" in line and "layer 'decor' (id 40): a tile layer SODWA has no use " \
        "for; ignored" in line
    assert win.document.model.name == "Tiered keep"  # opened all the same
    dialog.close()
    choose(monkeypatch, "Open", tmp_path / "broken.tmj")
    _click_menu_entry(win, qtbot, "File", "Open...")
    dialog = win.files.last_dialog
    assert dialog.windowTitle() == "Cannot Open Map"
    lines = dialog.lines()
    assert any("gid 777 at tile (5, 0) belongs to no tileset" in ln for ln in lines), lines
    assert any("layer 'decor'" in ln for ln in lines)  # the warnings come along
    assert win.document.model.name == "Tiered keep"  # the open map is untouched
    dialog.close()
