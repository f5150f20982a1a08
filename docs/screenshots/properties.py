"""Regenerate ``editor-terrain-properties.png``: terrain properties (issue 27) on a
new 24 x 16 map, painted with real events from the palette's presets (Woodlands,
Dense Woodlands, River, Swamp, Hillside, Plateau, Caves, Fortification), a torch
placed with the Object tool (kind light) in the caves, the pointer over a Dense
Woodlands tile (the Inspector lists its properties and their effects) and the
Legend dock on its terrain-properties section.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/properties.py
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
from sodwa_editor.editor.testing import click_tile, drag_tiles  # noqa: E402
from sodwa_editor.engine.model import MapModel  # noqa: E402

#: preset -> the rectangles (x0, y0, x1, y1) painted with it
PAINT = {
    "woodlands": [(1, 1, 6, 5)],
    "dense-woodlands": [(2, 2, 4, 4)],
    "river": [(9, 0, 10, 15)],
    "swamp": [(7, 10, 8, 14), (11, 11, 12, 14)],
    "hillside": [(14, 2, 19, 6)],
    "plateau": [(15, 3, 18, 5)],
    "caves": [(14, 10, 21, 14)],
    "fortification": [(13, 9, 22, 9), (13, 9, 13, 15)],
}


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
    presets = win.palette_dock.presets
    bar = win.palette_dock.tabs.tabBar()
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    QTest.keyClick(v, Qt.Key.Key_R)  # the Rectangle tool
    for key, rects in PAINT.items():
        item = presets.items[key]
        presets.scrollToItem(item)
        QTest.mouseClick(presets.viewport(), Qt.MouseButton.LeftButton,
                         pos=presets.visualItemRect(item).center())
        v.setFocus()
        for x0, y0, x1, y1 in rects:
            drag_tiles(v, [(x0, y0), (x1, y1)])
    QTest.keyClick(v, Qt.Key.Key_O)
    win.state.set("object_kind", "light")
    click_tile(v, 17, 12)
    win.layers.properties.unfold.click()  # the per-property boxes
    QTest.keyClick(v, Qt.Key.Key_S)
    click_tile(v, 3, 3)  # a Dense Woodlands tile selected: the Inspector lists it
    win.docks["legend"].raise_()
    win.resizeDocks([win.docks["legend"], win.docks["inspector"]], [330, 520],
                    Qt.Orientation.Vertical)
    for _ in range(3):
        app.processEvents()
    body = win.docks["legend"].widget()
    body.verticalScrollBar().setValue(body.verticalScrollBar().maximum())
    head = win.legend.swatches[next(t for t in win.legend.swatches if t.startswith("Difficult: Enter"))]
    for _ in range(3):
        app.processEvents()
    body.verticalScrollBar().setValue(head.mapTo(win.legend, head.rect().topLeft()).y() - 40)
    for _ in range(3):
        app.processEvents()
    out = Path(__file__).with_name("editor-terrain-properties.png")
    win.grab().save(str(out))
    print(f"wrote {out}")
    win.document.undo_stack.setClean()
    win.close()


if __name__ == "__main__":
    main()
