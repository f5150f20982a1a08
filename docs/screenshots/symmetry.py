"""Regenerate ``editor-symmetry.png``: symmetry painting (issue 29) on a new
24 x 16 map, rotate 180 degrees: brush strokes, a wall, a start zone and a
character painted on one side with real events appear on the other (the zone
and the character for the other team); one tile painted with symmetry off is
listed by the Validation dock; the hover and its image are shown.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/symmetry.py
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
from sodwa_editor.editor.testing import click, click_tile, drag_tiles, move  # noqa: E402
from sodwa_editor.engine.model import MapModel  # noqa: E402


def main() -> None:
    app = QApplication([])
    tmp = Path(tempfile.mkdtemp())
    win = MainWindow(MapModel(24, 16), settings=QSettings(str(tmp / "s.ini"),
                                                         QSettings.Format.IniFormat),
                     recovery_dir=tmp / "recovery")
    win.resize(1500, 950)
    win.show()
    app.processEvents()
    win.view.zoom_fit()
    v = win.view
    QTest.keyClick(v, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)  # symmetry on: rotate 180
    QTest.keyClick(v, Qt.Key.Key_A)
    win.state.set("team", "blue")
    drag_tiles(v, [(1, 12), (3, 12), (3, 14), (1, 14)])
    QTest.keyClick(v, Qt.Key.Key_B)
    drag_tiles(v, [(5, 3), (9, 3), (9, 6)])
    QTest.keyClick(v, Qt.Key.Key_W)
    for x in range(6, 11):
        click(v, x + 0.5, 9.0)
    QTest.keyClick(v, Qt.Key.Key_H)
    drag_tiles(v, [(14, 9), (15, 9)])
    QTest.keyClick(v, Qt.Key.Key_C)
    click_tile(v, 3, 13)
    QTest.keyClick(v, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)  # off: one unfair tile
    QTest.keyClick(v, Qt.Key.Key_B)
    click_tile(v, 11, 1)
    QTest.keyClick(v, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)  # on again
    move(v, 4.5, 8.5)
    win.validation.run()
    for _ in range(3):
        app.processEvents()
    out = Path(__file__).with_name("editor-symmetry.png")
    win.grab().save(str(out))
    print(f"wrote {out}")
    win.document.undo_stack.setClean()
    win.close()


if __name__ == "__main__":
    main()
