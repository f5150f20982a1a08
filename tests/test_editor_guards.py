"""The editor protects the user's work: nothing typed or pasted can make a file
that will not load again, showing a value never changes it, refused edits say
why, and broken leftovers (recovery files, missing recent files) never crash it."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json
import subprocess
import sys

import numpy as np
import pytest
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from sodwa_editor.editor.dialogs import ProblemsDialog
from sodwa_editor.editor.docks.inspector import parse_attributes
from sodwa_editor.editor.testing import click_tile, drag_tiles, move, press
from sodwa_editor.engine import samples
from sodwa_editor.engine.model import Character, MapModel, MapObject
from sodwa_editor.engine.terrain import Base
from sodwa_editor.io import load_map, read_map, save_map


def select_character(win, x: int, y: int) -> None:
    win.set_tool("select")
    click_tile(win.view, x, y)
    assert win.state.selection.kind == "character"


# ----------------------------------------------------------- text limits
def test_inspector_text_boxes_stop_at_the_file_format_limit(make_window, tmp_path):
    m = MapModel(6, 5)
    m.characters["k"] = Character("k", "blue", 1, 1)
    win = make_window(m)
    select_character(win, 1, 1)
    name, team = win.inspector.fields["name"], win.inspector.fields["team"]
    name.setText("")
    QTest.keyClicks(name, "n" * 250)
    name.editingFinished.emit()
    team.setText("")
    QTest.keyClicks(team, "t" * 90)
    team.editingFinished.emit()
    c = win.document.model.characters["k"]
    assert (len(c.name), len(c.team)) == (200, 64)
    path = tmp_path / "long.json"
    assert win.files.save_as(path)
    assert load_map(path).characters["k"].name == "n" * 200  # the file opens again


def test_document_refuses_text_the_format_cannot_hold(make_window, tmp_path):
    win = make_window()
    doc, messages = win.document, []
    doc.message.connect(messages.append)
    assert not doc.set_properties("m" * 201, "")
    assert not doc.set_zone_tiles("t" * 65, [(0, 0)], True)
    assert not doc.place_object(MapObject("o", "k" * 65, 1, 1))
    assert not doc.place_character(Character("c", "blue", 1, 1, name="n" * 201))
    assert doc.undo_stack.count() == 0
    assert messages[0] == "the map name is 201 characters long; a map file holds at most 200"
    assert len(messages) == 4
    assert len(doc.new_character_id("x" * 300)) <= 64 - 8  # room for a "-123" suffix
    assert doc.set_properties("m" * 200, "d" * 1000)
    assert win.files.save_as(tmp_path / "ok.json")


def test_properties_dialog_and_tool_options_are_capped(make_window):
    from sodwa_editor.editor.dialogs import PropertiesDialog

    win = make_window()
    dlg = PropertiesDialog("x", "", win)
    assert dlg.name.maxLength() == 200
    assert win.tool_options.team.lineEdit().maxLength() == 64
    assert win.tool_options.kind.lineEdit().maxLength() == 64


# --------------------------------------------------------- shown values
def test_showing_a_move_outside_the_spin_box_does_not_change_it(make_window):
    """A file may hold Move -2 (a rule error it still opens with; the spin boxes
    step 0..999)."""
    m = MapModel(6, 5)
    m.characters["k"] = Character("k", "blue", 1, 1, move=-2, range=-5)
    win = make_window(m)
    select_character(win, 1, 1)
    for attr, value in (("move", -2), ("range", -5)):
        spin = win.inspector.fields[attr]
        assert spin.value() == value
        spin.editingFinished.emit()  # focus in and out without typing
    assert win.document.undo_stack.count() == 0
    assert not win.isWindowModified()
    assert win.document.model.characters["k"].move == -2


# --------------------------------------------------------- refused edits
def test_inspector_cannot_move_a_character_onto_obstructing(make_window):
    m = MapModel(6, 5)
    m.terrain[1, 3] = 2  # Obstructing at (3, 1)
    m.characters["k"] = Character("k", "blue", 1, 1)
    win = make_window(m)
    messages = []
    win.document.message.connect(messages.append)
    select_character(win, 1, 1)
    x = win.inspector.fields["x"]
    x.setValue(3)
    x.editingFinished.emit()
    assert (win.document.model.characters["k"].x, win.document.undo_stack.count()) == (1, 0)
    assert messages == ["A character cannot stand on the Obstructing tile (3, 1)"]


def test_a_character_already_on_obstructing_can_still_be_edited(make_window):
    """Painting a wall under a character is allowed (the Validation dock reports it);
    the character can then be renamed or moved off."""
    m = MapModel(6, 5)
    m.characters["k"] = Character("k", "blue", 1, 1)
    win = make_window(m)
    win.document.paint_terrain([(1, 1)], 2)
    assert win.validation.run()[0].code == "character-on-obstructing"
    assert win.document.update_character("k", name="Stuck")
    assert win.document.update_character("k", x=2)
    assert not any(p.is_error for p in win.validation.run())


def test_attribute_text_errors_are_reported_not_dropped(make_window):
    assert parse_attributes("health=10, defense = -2") == {"health": 10, "defense": -2}
    assert parse_attributes("  ") == {}
    for bad, part in (("garbage", "'garbage'"), ("=5", "'=5'"), ("hp=ten", "'hp=ten'")):
        with pytest.raises(ValueError, match=part):
            parse_attributes(bad)
    m = MapModel(6, 5)
    m.characters["k"] = Character("k", "blue", 1, 1, attributes={"health": 10})
    win = make_window(m)
    select_character(win, 1, 1)
    field = win.inspector.fields["attributes"]
    field.setText("garbage")
    field.editingFinished.emit()
    assert win.document.model.characters["k"].attributes == {"health": 10}
    assert "'garbage' is not name=whole number" in win.statusBar().currentMessage()
    assert field.text() == "health=10"  # the box shows what the character has


# ------------------------------------------------------ paste between maps
def test_stamp_paste_between_maps_matches_terrain_by_name(make_window):
    src = MapModel(6, 4)
    icy = src.registry.register("icy", Base.DIFFICULT)
    src.terrain[0, 0:2] = icy
    src.terrain[0, 2] = 2
    dst = MapModel(8, 6)
    dst.registry.register("lava", Base.OBSTRUCTING)  # holds the id icy has in src
    a, b = make_window(src), make_window(dst)
    a.set_tool("select")
    drag_tiles(a.view, [(0, 0), (2, 0)])
    a.action_map["copy"].trigger()
    before = b.document.model.copy()
    b.set_tool("select")
    b.action_map["paste"].trigger()
    move(b.view, 4.5, 3.5)
    press(b.view, 4.5, 3.5)
    m = b.document.model
    names = [m.registry[int(t)].name for t in m.terrain[3, 3:6]]
    assert names == ["icy", "icy", "obstructing"]
    assert "lava" in m.registry and m.registry[m.registry.id_of("icy")].base is Base.DIFFICULT
    b.document.undo_stack.undo()  # one step takes back the paste and the declaration
    assert b.document.model.same_content(before)
    assert "icy" not in b.document.model.registry


# ------------------------------------------------------------- leftovers
@pytest.mark.parametrize("text", ["[]", '{"original": null}', '{"map": 5}', "not json",
                                  '{"map": "{}", "saved_at": "yesterday"}',
                                  '{"map": "{}", "saved_at": NaN, "original": "/"}',
                                  '{"map": "{}", "saved_at": 1e300}', "[" * 100_000])
def test_malformed_recovery_files_do_not_stop_start_up(make_window, tmp_path, text):
    rec = tmp_path / "rec"
    rec.mkdir()
    (rec / "old.json").write_text(text, encoding="utf-8")
    win = make_window(recovery_dir=rec)
    entries = win.recovery.pending()
    if entries:  # a wrapper with map text is offered; its map fails to parse
        assert not win.offer_recovery(ask=False)
        assert "could not recover old.json" in win.statusBar().currentMessage()
    assert win.document.model.width == 12


def test_quitting_with_discard_prints_no_traceback(tmp_path):
    """Export Map Pack, then File > Quit, Discard, then interpreter shutdown: the
    document's last signals must not reach the deleted window (they once raised
    'already deleted') and no dialog may outlive it (one once aborted the exit)."""
    script = tmp_path / "quit.py"
    script.write_text(f"""
import os
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from pathlib import Path
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog, QMessageBox
QMessageBox.warning = staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
QFileDialog.getSaveFileName = staticmethod(lambda *a, **k: (r"{tmp_path / 'p.json'}", ""))
from sodwa_editor.editor.main_window import MainWindow
app = QApplication([])
win = MainWindow(settings=QSettings(r"{tmp_path / 's.ini'}", QSettings.Format.IniFormat),
                 recovery_dir=Path(r"{tmp_path / 'rec'}"))
win.show()
win.document.set_elevation([(1, 1)], 3)
def press_ok():  # the Export Map Pack dialog, as a user would
    box = QApplication.activeModalWidget().findChild(QDialogButtonBox)
    box.button(QDialogButtonBox.StandardButton.Ok).click()
QTimer.singleShot(50, press_ok)
win.action_map["export_pack"].trigger()  # a dialog left alive once aborted the exit
print("pack", Path(r"{tmp_path / 'p.json'}").exists())
QTimer.singleShot(50, win.close)
print("exit", app.exec())
""", encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0 and "pack True" in done.stdout and "exit 0" in done.stdout
    assert "Traceback" not in done.stderr, done.stderr


def test_a_missing_recent_file_leaves_the_menu(make_window, tmp_path):
    win = make_window()
    path = tmp_path / "gone.json"
    save_map(MapModel(3, 3), path)
    assert win.files.open_map(path)
    path.unlink()
    assert not win.files.open_map(path)
    assert str(path.resolve()) not in win.files.recent()
    assert "gone.json" in win.files.last_dialog.lines()[0]


# ---------------------------------------------------------------- export
def test_export_pack_takes_the_open_map_with_its_unsaved_edits(make_window, tmp_path):
    win = make_window(samples.indoor_compound())
    path = tmp_path / "indoor.json"
    assert win.files.save_as(path)
    win.set_tool("brush")
    win.state.set("terrain_id", 4)
    click_tile(win.view, 1, 1)
    assert win.isWindowModified()
    pack = tmp_path / "pack.json"
    assert win.files.export_pack(pack, {"maps": [path], "name": "demo", "version": "1"})
    row = json.loads(pack.read_text(encoding="utf-8"))["maps"][0]["terrain"][1]
    assert row[1] == "~"  # liquid, painted but not saved
    assert read_map(path)[0].terrain[1, 1] != 4  # the file itself is untouched


def test_pack_problems_name_their_file(make_window, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    win = make_window()
    assert not win.files.export_pack(tmp_path / "p.json",
                                     {"maps": [bad], "name": "demo", "version": "1"})
    dlg = win.files.last_dialog
    assert isinstance(dlg, ProblemsDialog)
    assert dlg.lines()[0].startswith("error: bad.json: invalid JSON")


def test_export_png_of_a_huge_map_is_scaled_to_fit(make_window, tmp_path, monkeypatch):
    monkeypatch.setattr("sodwa_editor.editor.render.MAX_IMAGE_SIDE", 256)
    win = make_window(MapModel(40, 20))
    png = tmp_path / "big.png"
    assert win.files.export_png(png)
    img = QImage(str(png))
    assert max(img.width(), img.height()) == 256
    assert "at 19%" in win.statusBar().currentMessage()  # 256 / (40 * 32 + 64)


def test_export_png_failure_says_why(make_window, tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda _p, _t, text: shown.append(text))
    win = make_window()
    assert not win.files.export_png(tmp_path / "no" / "dir" / "x.png")
    assert shown and shown[0].startswith(f"could not write {tmp_path}") and len(shown[0]) > len(
        f"could not write {tmp_path / 'no' / 'dir' / 'x.png'}: ")


# ---------------------------------------------------------------- resize
def test_resize_that_drops_characters_asks_and_says_so(make_window, monkeypatch):
    m = MapModel(10, 8)
    m.characters["far"] = Character("far", "red", 8, 6)
    m.start_zones["red"] = {(8, 6), (9, 7)}
    win = make_window(m)
    asked = []

    def answer(_parent, _title, text):
        asked.append(text)
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", answer)
    monkeypatch.setattr("sodwa_editor.editor.file_ops.ResizeDialog.exec", lambda _s: 1)
    monkeypatch.setattr("sodwa_editor.editor.file_ops.ResizeDialog.values",
                        lambda _s: (5, 5, 0, 0))
    assert not win.files.resize_map()
    assert asked == ["Resizing removes 1 character, 2 start-zone tiles. Resize anyway?"]
    assert win.document.model.width == 10
    assert win.files.resize_map((5, 5, 0, 0))  # scripted: no question, a message
    assert "removed 1 character, 2 start-zone tiles" in win.statusBar().currentMessage()
    assert not win.files.resize_map((0, 5, 0, 0))
    assert win.statusBar().currentMessage().startswith("cannot resize:")


# ------------------------------------------------------- robustness (tools)
def test_a_map_without_the_chosen_border_type_falls_back_by_name(make_window, tmp_path):
    win = make_window()
    assert win.files.add_terrain_type(("glass", Base.OBSTRUCTING))
    box = win.tool_options.border
    box.setCurrentIndex(box.findText("Glass"))
    assert win.state.border_id == 5
    other = MapModel(8, 8)
    other.registry.register("icy", Base.DIFFICULT)  # a border type at the same id
    save_map(other, tmp_path / "icy.json")
    assert win.files.open_map(tmp_path / "icy.json", ask_save=False)
    assert (box.currentText(), win.state.border_id) == ("Impeding", 1)
    win.document.undo_stack.clear()
    win.files.add_terrain_type(("glass", Base.OBSTRUCTING))
    box.setCurrentIndex(box.findText("Glass"))
    win.document.undo_stack.undo()  # the type goes away under the tool
    assert win.state.border_id == 1
    win.set_tool("border")
    drag_tiles(win.view, [(3, 1), (3, 3)])
    stack = win.document.undo_stack
    assert stack.command(stack.index() - 1).text() == "Place Border"
    m = win.document.model
    assert set(np.unique(np.concatenate([m.border_e.ravel(), m.border_s.ravel()]))) == {0, 1}


def test_palette_keeps_the_chosen_terrain_by_name(make_window, tmp_path):
    a = MapModel(6, 6)
    a.registry.register("lava", Base.OBSTRUCTING)
    a.registry.register("icy", Base.DIFFICULT)
    b = MapModel(6, 6)
    b.registry.register("icy", Base.DIFFICULT)  # id 5 here, 6 in a
    save_map(b, tmp_path / "b.json")
    win = make_window(a)
    win.palette_dock.list.setCurrentRow(6)
    assert win.files.open_map(tmp_path / "b.json", ask_save=False)
    assert win.document.model.registry[win.state.terrain_id].name == "icy"


def test_a_failing_tool_cancels_its_gesture_instead_of_crashing(make_window, monkeypatch,
                                                              capsys):
    win = make_window()
    brush = win.tools["brush"]
    real = brush.stroke_to
    calls = []

    def flaky(ev):
        calls.append(ev)
        if len(calls) == 2:  # the press painted, the first move fails
            raise RuntimeError("simulated tool bug")
        real(ev)

    monkeypatch.setattr(brush, "stroke_to", flaky)
    before = win.document.model.copy()
    drag_tiles(win.view, [(0, 0), (4, 0)])
    assert win.document.model.same_content(before)  # the partial stroke was taken back
    assert win.document.undo_stack.count() == 0
    assert "Brush tool failed (RuntimeError: simulated tool bug)" in \
        win.statusBar().currentMessage()
    assert "simulated tool bug" in capsys.readouterr().err  # traceback for the report


def test_properties_dialog_stays_open_on_an_over_long_description(make_window):
    from sodwa_editor.editor.dialogs import PropertiesDialog

    win = make_window()
    dlg = PropertiesDialog("x", "d" * 100_001, win)
    dlg.accept()
    assert dlg.result() == 0 and dlg.problem.isVisibleTo(dlg)
    assert "100001 characters" in dlg.problem.text()
    dlg.description.setPlainText("short")
    dlg.accept()
    assert dlg.result() == 1


def test_raising_past_the_top_level_says_so(make_window):
    m = MapModel(4, 4)
    m.elevation[1, 1] = 99
    win = make_window(m)
    win.set_tool("elevation")
    click_tile(win.view, 1, 1)
    assert "level 99 is the highest" in win.statusBar().currentMessage()


def test_recent_files_of_one_name_show_their_folder(make_window, tmp_path):
    win = make_window()
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        save_map(MapModel(2, 2), tmp_path / sub / "m.json")
        win.files.add_recent(tmp_path / sub / "m.json")
    labels = [a.text() for a in win.recent_menu.actions()]
    assert labels == [f"m.json  ({(tmp_path / 'b').resolve()})",
                      f"m.json  ({(tmp_path / 'a').resolve()})"]


def test_export_pack_of_a_map_never_saved(make_window, tmp_path, monkeypatch):
    win = make_window(MapModel(5, 4, name="draft"))
    from sodwa_editor.editor.dialogs import OPEN_MAP, ExportPackDialog

    dlg = ExportPackDialog([OPEN_MAP], win)
    assert dlg.maps.item(0).text() == "the open map (not saved to a file)"
    values = {**dlg.values(), "name": "demo", "version": "1"}
    pack = tmp_path / "p.json"
    assert win.files.export_pack(pack, values)
    assert [m["name"] for m in json.loads(pack.read_text(encoding="utf-8"))["maps"]] == ["draft"]
