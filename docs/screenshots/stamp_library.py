"""Regenerate ``editor-stamp-library.png``: the Stamp Library dock (issue 29) with
three stamps saved from a 28 x 18 map with real events (a walled tower on a
rise, a bridge over a river, a camp with a start zone and a character), the
tower placed once rotated, and the paste preview of the next placement under
the pointer; two labels name the places.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/stamp_library.py
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from sodwa_editor.editor.main_window import MainWindow  # noqa: E402
from sodwa_editor.editor.testing import click_tile, drag_tiles, move  # noqa: E402
from sodwa_editor.engine.annotations import Label  # noqa: E402
from sodwa_editor.engine.model import Character, MapModel, MapObject  # noqa: E402
from sodwa_editor.io import load_map, save_map  # noqa: E402

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def sample() -> MapModel:
    m = MapModel(28, 18, name="Stamp library demo")
    m.elevation[2:6, 2:6] = 1
    m.elevation[3:5, 3:5] = 2
    m.terrain[3, 3] = 2  # the tower's corner post: obstructing
    m.border_s[1, 2:6] = 2  # the tower's north wall
    m.border_e[2:6, 1] = 2  # and its west wall (door gaps stay open in the south)
    m.terrain[:, 12:14] = 4  # a river
    m.terrain[8:10, 12:14] = 3  # a ford (difficult)
    m.terrain[2:4, 20:22] = 1  # camp bushes (impeding)
    m.start_zones["blue"] = {(x, y) for x in range(20, 24) for y in range(4, 6)}
    m.characters["scout"] = Character("scout", "blue", 22, 4, name="Scout")
    m.objects["tent"] = MapObject("tent", "tent", 21, 5)
    m.labels["label-1"] = Label("label-1", 12, 7, "Ford", "#1a4f9c")
    m.labels["label-2"] = Label("label-2", 3, 1, "Watchtower")
    return m


def save_stamp(win, app, rect, name: str) -> None:
    QTest.keyClick(win.view, Qt.Key.Key_S)
    drag_tiles(win.view, rect)
    QTest.keyClick(win.view, Qt.Key.Key_B, CTRL_SHIFT)
    editor = QApplication.focusWidget()
    editor.selectAll()
    QTest.keyClicks(editor, name)
    QTest.keyClick(editor, Qt.Key.Key_Return)
    app.processEvents()


def main() -> None:
    app = QApplication([])
    tmp = Path(tempfile.mkdtemp())
    path = tmp / "demo.json"
    save_map(sample(), path)
    win = MainWindow(load_map(path), path, settings=QSettings(str(tmp / "s.ini"),
                                                             QSettings.Format.IniFormat),
                     recovery_dir=tmp / "recovery")
    win.resize(1500, 950)
    win.show()
    app.processEvents()
    win.view.zoom_fit()
    win.docks["stamps"].raise_()
    save_stamp(win, app, [(1, 1), (6, 6)], "Watchtower")
    save_stamp(win, app, [(11, 8), (14, 9)], "Ford")
    save_stamp(win, app, [(19, 2), (24, 6)], "Blue camp")
    dock = win.stamp_library
    dock.list.setCurrentRow(0)
    QTest.mouseClick(dock.buttons["place"], Qt.MouseButton.LeftButton)
    QTest.keyClick(win.view, Qt.Key.Key_Z)
    click_tile(win.view, 5, 13)
    dock.list.setCurrentRow(2)
    QTest.mouseClick(dock.buttons["place"], Qt.MouseButton.LeftButton)
    QTest.keyClick(win.view, Qt.Key.Key_X)
    move(win.view, 21.5, 13.5)
    for _ in range(3):
        app.processEvents()
    out = Path(__file__).with_name("editor-stamp-library.png")
    win.grab().save(str(out))
    print(f"wrote {out}")
    win.document.undo_stack.setClean()
    win.close()


if __name__ == "__main__":
    main()
