"""File operations through the GUI: save/open round trip, failed saves, bad
files, recovery after a crash, the close prompt, recent files, resize, export."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import json
import stat

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QMessageBox

from sodwa_editor.editor.dialogs import ProblemsDialog
from sodwa_editor.editor.testing import click_tile, drag_tiles
from sodwa_editor.engine import samples
from sodwa_editor.engine.model import MapModel
from sodwa_editor.io import read_map


def test_save_and_open_round_trip(make_window, tmp_path):
    win = make_window(samples.tiered_keep())
    win.set_tool("brush")
    win.state.set("terrain_id", 4)
    drag_tiles(win.view, [(0, 0), (2, 0)])
    edited = win.document.model.copy()
    path = tmp_path / "keep.json"
    assert win.isWindowModified()
    assert win.files.save_as(path)
    assert not win.isWindowModified()
    assert win.windowTitle().startswith("keep.json")
    model, problems = read_map(path)
    assert model is not None and model.same_content(edited)
    other = make_window()
    assert other.files.open_map(path)
    assert other.document.model.same_content(edited)
    assert other.document.path == path
    assert not other.isWindowModified()
    assert str(path.resolve()) in other.files.recent()
    assert [a.text() for a in other.recent_menu.actions()][0] == "keep.json"


def test_failed_save_keeps_document(make_window, tmp_path):
    win = make_window()
    click_tile(win.view, 1, 1)
    edited = win.document.model.copy()
    bad = tmp_path / "no-such-folder" / "map.json"
    assert not win.files.save_as(bad)
    assert not bad.exists()
    assert win.isWindowModified()
    assert win.document.path is None
    assert win.document.model.same_content(edited)
    assert win.files.last_dialog.isVisible()
    assert "not saved" in win.files.last_dialog.text()
    win.files.last_dialog.close()


def test_bad_file_shows_problem_list(make_window, tmp_path):
    win = make_window(samples.indoor_compound())
    before = win.document.model.copy()
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "sodwa-map", "width": 3,\n  "height": }', encoding="utf-8")
    assert not win.files.open_map(bad, ask_save=False)
    dlg = win.files.last_dialog
    assert isinstance(dlg, ProblemsDialog) and dlg.isVisible()
    lines = dlg.lines()
    assert lines and all(line.startswith("error") for line in lines)
    assert "line 2" in " ".join(lines).lower()
    assert win.document.model.same_content(before)
    dlg.close()
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"format": "sodwa-map", "width": -1}), encoding="utf-8")
    assert not win.files.open_map(wrong, ask_save=False)
    assert win.files.last_dialog.lines()
    win.files.last_dialog.close()


def test_recovery_after_simulated_crash(make_window, tmp_path):
    rec = tmp_path / "rec"
    path = tmp_path / "m.json"
    first = make_window(samples.outdoor_skirmish(), recovery_dir=rec)
    assert first.files.save_as(path)
    first.set_tool("brush")
    drag_tiles(first.view, [(0, 5), (3, 5)])
    edited = first.document.model.copy()
    assert first.recovery.autosave()
    assert first.recovery.file.exists()
    # crash: the process dies without closing the window; its lock goes stale
    first.recovery.lock.unlock()
    first.recovery.lock = None
    first.recovery.file = tmp_path / "elsewhere.json"  # keep its teardown away from rec/
    second = make_window(MapModel(4, 4), recovery_dir=rec)
    entries = second.recovery.pending()
    assert len(entries) == 1 and entries[0].original == path
    assert second.offer_recovery(ask=False)
    assert second.document.model.same_content(edited)
    assert second.document.path == path
    assert second.isWindowModified()
    assert second.recovery.pending() == []


def test_live_editor_recovery_file_is_not_offered(make_window, tmp_path):
    rec = tmp_path / "rec"
    first = make_window(recovery_dir=rec)
    click_tile(first.view, 0, 0)
    assert first.recovery.autosave()
    second = make_window(recovery_dir=rec)
    assert second.recovery.pending() == []


def test_save_discards_recovery_file(make_window, tmp_path):
    win = make_window()
    click_tile(win.view, 0, 0)
    assert win.recovery.autosave()
    assert win.files.save_as(tmp_path / "x.json")
    assert not win.recovery.file.exists()



def test_a_stroke_leaves_the_recovery_file_alone_until_it_ends(make_window, monkeypatch):
    """The steps of a stroke on a map with no unsaved changes do not touch the
    recovery file (they are not on the undo stack yet: the map looked
    unmodified, and every step deleted the recovery file); releasing the
    button makes the stroke an edit, which arms the autosave."""
    from PySide6.QtCore import Qt

    from sodwa_editor.editor.testing import move, press, release

    win = make_window(MapModel(16, 16))
    assert not win.document.modified
    discards = []
    real = win.recovery.discard
    monkeypatch.setattr(win.recovery, "discard",
                        lambda *a, **k: discards.append(a) or real(*a, **k))
    win.set_tool("brush")
    press(win.view, 2.5, 2.5)
    for x in range(3, 9):
        move(win.view, x + 0.5, 2.5, Qt.MouseButton.LeftButton)
    assert win.document.model.terrain[2, 8] == win.state.terrain_id
    assert discards == [] and not win.recovery.timer.isActive()
    release(win.view, 8.5, 2.5)
    assert win.document.modified and win.recovery.timer.isActive()
    assert win.recovery.autosave()
    assert win.recovery.file.exists()

def test_close_prompt(make_window, monkeypatch):
    win = make_window()
    click_tile(win.view, 0, 0)
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda *a, **k: QMessageBox.StandardButton.Cancel)
    assert not win.close()
    assert win.isVisible()
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda *a, **k: QMessageBox.StandardButton.Discard)
    assert win.close()


def test_revert_new_and_resize(make_window, tmp_path):
    win = make_window(samples.tiered_keep())
    path = tmp_path / "k.json"
    win.files.save_as(path)
    saved = win.document.model.copy()
    click_tile(win.view, 1, 1)
    assert win.files.revert(confirm=False)
    assert win.document.model.same_content(saved)
    assert not win.isWindowModified()
    before = win.document.model.copy()
    assert win.files.resize_map((20, 18, 2, 1))
    m = win.document.model
    assert (m.width, m.height) == (20, 18)
    assert m.characters["captain"].x == saved.characters["captain"].x + 2
    assert m.elevation[7 + 1, 7 + 2] == saved.elevation[7, 7]
    assert win.scene.sceneRect().width() == 20 * 32 + 64
    win.document.undo_stack.undo()
    assert win.document.model.same_content(before)
    assert win.scene.items_by_name["terrain_fill"].rgba.shape[:2] == (16, 16)
    win.document.undo_stack.redo()
    assert win.document.model.width == 20
    win.document.undo_stack.setClean()
    assert win.files.new_map(("arena", 9, 7, "indoor"))
    m = win.document.model
    assert (m.name, m.width, m.height, m.setting) == ("arena", 9, 7, "indoor")
    assert win.document.undo_stack.count() == 0


def test_export_png_and_pack(make_window, tmp_path):
    win = make_window(samples.indoor_compound())
    png = tmp_path / "map.png"
    assert win.files.export_png(png)
    img = QImage(str(png))
    assert img.width() == 20 * 32 + 64 and img.height() == 14 * 32 + 64
    path = tmp_path / "indoor.json"
    win.files.save_as(path)
    pack = tmp_path / "pack.json"
    assert win.files.export_pack(pack, {"maps": [path], "name": "demo", "version": "1.0.0"})
    data = json.loads(pack.read_text(encoding="utf-8"))
    assert len(data["maps"]) == 1


def test_add_terrain_type_is_undoable(make_window):
    from sodwa_editor.engine.terrain import Base

    win = make_window()
    n = len(win.document.model.registry)
    assert win.files.add_terrain_type(("icy", Base.DIFFICULT))
    assert len(win.document.model.registry) == n + 1
    assert win.palette_dock.list.count() == n + 1
    win.document.undo_stack.undo()
    assert len(win.document.model.registry) == n
    assert win.palette_dock.list.count() == n


def test_save_as_and_open_through_the_menu_actions(make_window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    win = make_window(samples.indoor_compound())
    win.set_tool("zone")
    win.state.set("team", "green")
    drag_tiles(win.view, [(5, 5), (6, 5)])
    edited = win.document.model.copy()
    path = tmp_path / "menu.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    win.action_map["save_as"].trigger()
    assert path.exists() and not win.isWindowModified()
    other = make_window()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    other.action_map["open"].trigger()
    assert other.document.model.same_content(edited)
    assert other.windowTitle().startswith("menu.json")
    other.recent_menu.actions()[0].trigger()  # Open Recent re-opens it
    assert other.document.path == path


def test_autosave_fires_during_continuous_editing(make_window, qtbot):
    win = make_window()
    win.recovery.timer.setInterval(150)
    win.set_tool("brush")
    for x in range(6):  # keep editing: the autosave is not pushed back by each edit
        click_tile(win.view, x, 0)
        qtbot.wait(40)
    qtbot.waitUntil(win.recovery.file.exists, timeout=2000)
    win.document.undo_stack.setClean()
    win.recovery.schedule()
    assert not win.recovery.file.exists()


MAPS = sorted((__import__("pathlib").Path(__file__).resolve().parents[1] / "maps").glob("*.json"))


@pytest.mark.parametrize("path", MAPS, ids=[p.stem for p in MAPS])
def test_sample_map_files_open_and_render(make_window, path, tmp_path):
    win = make_window()
    assert win.files.open_map(path, ask_save=False)
    model, _ = read_map(path)
    assert win.document.model.same_content(model)
    assert win.files.export_png(tmp_path / "x.png")
    assert win.files.save_as(tmp_path / path.name)
    again, problems = read_map(tmp_path / path.name)
    assert again.same_content(model)


# ------------------------------------------------ files never overwritten or hidden
posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs, links and lock files")


@posix_only
def test_saving_onto_a_fifo_is_refused_and_the_fifo_kept(make_window, tmp_path):
    win = make_window()
    click_tile(win.view, 1, 1)
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert not win.files.save_as(fifo)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert "named pipe (FIFO), not a regular file" in win.files.last_dialog.text()
    assert win.isWindowModified() and win.document.path is None
    win.files.last_dialog.close()


@posix_only
def test_exporting_a_png_onto_a_fifo_writes_nothing_into_it(make_window, tmp_path, monkeypatch):
    win = make_window(MapModel(3, 3))
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a: shown.append(a[2]))
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # (a writer then cannot block)
    try:
        assert not win.files.export_png(fifo)
        assert os.read(reader, 1) == b""  # nothing was written into the pipe
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and "FIFO" in shown[0]


def test_a_pack_is_not_exported_over_one_of_its_maps(make_window, tmp_path, monkeypatch):
    win = make_window(samples.indoor_compound())
    path = tmp_path / "indoor.json"
    assert win.files.save_as(path)
    before = path.read_bytes()
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a: shown.append(a[2]))
    assert not win.files.export_pack(path, {"maps": [path], "name": "demo", "version": "1"})
    assert path.read_bytes() == before
    assert "it is one of the input files" in shown[0]


@posix_only
def test_opening_a_symlink_loop_shows_the_problem(make_window, tmp_path):
    win = make_window()
    (tmp_path / "a.json").symlink_to(tmp_path / "b.json")
    (tmp_path / "b.json").symlink_to(tmp_path / "a.json")
    assert not win.files.open_map(tmp_path / "a.json", ask_save=False)
    assert "Too many levels of symbolic links" in win.files.last_dialog.lines()[0]
    win.files.last_dialog.close()


def _crashed_session(make_window, tmp_path, rec):
    """A recovery file of an editor that died (its lock released), and the map in it."""
    first = make_window(samples.outdoor_skirmish(), recovery_dir=rec)
    click_tile(first.view, 2, 2)
    edited = first.document.model.copy()
    assert first.recovery.autosave()
    file = first.recovery.file
    first.recovery.lock.unlock()
    first.recovery.lock = None
    first.recovery.file = tmp_path / "elsewhere.json"  # keep its teardown away from rec/
    return file, edited


@posix_only
@pytest.mark.parametrize("lock", ["folder", "garbage"])
def test_a_broken_lock_does_not_hide_a_recovery_file(make_window, tmp_path, lock):
    rec = tmp_path / "rec"
    file, edited = _crashed_session(make_window, tmp_path, rec)
    lock_path = file.with_suffix(".lock")
    if lock == "folder":
        lock_path.mkdir()
    else:
        lock_path.write_bytes(b"\x00garbage\nnot a pid\n")
    second = make_window(MapModel(4, 4), recovery_dir=rec)
    assert [e.file for e in second.recovery.pending()] == [file]
    assert second.offer_recovery(ask=False)
    assert second.document.model.same_content(edited)
    assert not lock_path.exists() and second.recovery.pending() == []


_PACK_TEXT = json.dumps({"format": "sodwa-mappack", "format_version": 1, "name": "p",
                         "version": "1", "maps": []})


@pytest.mark.parametrize("map_text", [
    __import__("sodwa_editor.io", fromlist=["dumps_map"]).dumps_map(samples.tiered_keep())[:900],
    _PACK_TEXT,
    '{"format": "sodwa-map", "format_version": 1, "width": NaN}',
    "[" * 100_000,
    '{"format": "sodwa-map", "width": ' + "9" * 4301 + "}",  # (once raised at every start)
], ids=["truncated", "pack", "nan", "deep", "huge-int"])
def test_an_unrecoverable_file_is_moved_aside_once_and_not_offered_again(
        make_window, tmp_path, map_text):
    rec = tmp_path / "rec"
    rec.mkdir()
    file = rec / "0123456789ab.json"
    file.write_text(json.dumps({"original": None, "saved_at": 1.7e9, "map_name": "lost",
                                "map": map_text}), encoding="utf-8")
    before = file.read_bytes()
    win = make_window(recovery_dir=rec)
    assert [e.file for e in win.recovery.pending()] == [file]
    assert not win.offer_recovery(ask=False)
    aside = rec / "0123456789ab.json.broken"
    assert aside.read_bytes() == before and not file.exists()  # kept, never deleted
    message = win.statusBar().currentMessage()
    assert message.startswith("could not recover 0123456789ab.json")
    assert message.endswith(f"; moved it to {aside}")
    assert win.recovery.pending() == []
    assert make_window(recovery_dir=rec).recovery.pending() == []


@posix_only
def test_a_fifo_among_the_recovery_files_does_not_block_start_up(make_window, tmp_path):
    import threading

    rec = tmp_path / "rec"
    file, edited = _crashed_session(make_window, tmp_path, rec)
    fifo = rec / "0000aaaa0000.json"
    os.mkfifo(fifo)
    second = make_window(MapModel(4, 4), recovery_dir=rec)
    found: list = []
    worker = threading.Thread(target=lambda: found.append(second.recovery.pending()),
                              daemon=True)
    worker.start()
    worker.join(10)
    if worker.is_alive():
        with open(fifo, "wb"):  # let the blocked reader go on, then fail
            pass
        worker.join(5)
        pytest.fail("pending() blocked on a FIFO in the recovery folder")
    assert [e.file for e in found[0]] == [file]


def test_stale_temp_files_of_killed_autosaves_are_removed(make_window, tmp_path):
    import time

    from sodwa_editor.io.paths import STALE_TEMP_SECONDS

    rec = tmp_path / "rec"
    rec.mkdir()
    stale, fresh = rec / ".0123456789ab.json.0badcafe.tmp", rec / ".ffff.json.00c0ffee.tmp"
    other = rec / "notes.tmp"
    for p in (stale, fresh, other):
        p.write_text("partial")
    old = time.time() - 2 * STALE_TEMP_SECONDS
    for p in (stale, other):
        os.utime(p, (old, old))
    make_window(recovery_dir=rec).recovery.pending()
    assert not stale.exists() and fresh.exists() and other.exists()
