"""Regenerate ``editor-window.png`` and ``editor-big-map.png`` (the main
window as a user sees it).

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/editor_window.py

``editor-window.png``: ``maps/outdoor-skirmish.json``, the LoS fan pinned on
the Ranger, tile (10, 4) hovered so the line, the tile that decided it and the
reason show.  ``editor-big-map.png``: the generated 128x128 mixed map at
painting zoom with the Minimap and the Legend dock.  ``editor-paste.png``: a
walled room copied and about to be pasted against another room, whose wall
(a fence there) and door it would change: the marks and the status bar say so.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from sodwa_editor.editor.main_window import MainWindow  # noqa: E402
from sodwa_editor.editor.testing import move  # noqa: E402


def main() -> None:
    app = QApplication([])
    tmp = Path(tempfile.mkdtemp())
    win = MainWindow(settings=QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat),
                     recovery_dir=tmp / "recovery")
    win.files.open_map(ROOT / "maps" / "outdoor-skirmish.json", ask_save=False)
    win.resize(1500, 950)
    win.show()
    app.processEvents()
    win.view.zoom_fit()
    ranger = win.document.model.characters["ranger"]
    win.action_map["preview_los"].setChecked(True)
    win.previews.pin((ranger.x, ranger.y))
    move(win.view, 10.5, 4.5)
    win.previews.update_now()
    win.validation.run()
    for _ in range(3):
        app.processEvents()
    out = Path(__file__).with_name("editor-window.png")
    win.grab().save(str(out))
    print(f"wrote {out}")
    win.document.undo_stack.setClean()
    win.close()
    big_map(app, tmp)
    paste(app, tmp)


def big_map(app: QApplication, tmp: Path) -> None:
    from sodwa_editor.engine.generate import make_mixed_map

    win = MainWindow(make_mixed_map(128, seed=1),
                     settings=QSettings(str(tmp / "big.ini"), QSettings.Format.IniFormat),
                     recovery_dir=tmp / "recovery")
    win.resize(1500, 950)
    win.show()
    app.processEvents()
    win.view.set_zoom(0.6)
    win.view.center_on_tile(40, 40)
    win.action_map["preview_los"].setChecked(True)
    win.previews.pin((44, 42))
    move(win.view, 52.5, 36.5)
    win.previews.update_now()
    win.docks["legend"].show()
    win.docks["legend"].raise_()
    for _ in range(3):
        app.processEvents()
    out = Path(__file__).with_name("editor-big-map.png")
    win.grab().save(str(out))
    print(f"wrote {out}")
    win.close()


def paste(app: QApplication, tmp: Path) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from sodwa_editor.editor.testing import drag_tiles
    from sodwa_editor.engine.model import Edge, MapModel
    from sodwa_editor.engine.terrain import Base

    m = MapModel(20, 10, name="two rooms")
    wall, fence = int(Base.OBSTRUCTING), int(Base.IMPEDING)
    for x0, x1 in ((2, 4), (10, 13)):
        for x in range(x0, x1 + 1):
            m.set_border(Edge(x, 1, "S"), wall)
            m.set_border(Edge(x, 5, "S"), wall)
        for y in range(2, 6):
            m.set_border(Edge(x0 - 1, y, "E"), wall)
            m.set_border(Edge(x1, y, "E"), wall)
    m.set_border(Edge(4, 4, "E"), fence)  # the copied room's east wall: a fence on row 4
    m.set_border(Edge(9, 3, "E"), 0)  # the other room's door
    win = MainWindow(m, settings=QSettings(str(tmp / "paste.ini"), QSettings.Format.IniFormat),
                     recovery_dir=tmp / "recovery")
    win.resize(1200, 700)
    win.show()
    app.processEvents()
    win.view.set_zoom(1.6)
    win.view.center_on_tile(8, 4)
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_S)
    drag_tiles(win.view, [(2, 2), (4, 5)])
    QTest.keyClick(win.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(win.view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    win.notes.drop()
    move(win.view, 8.5, 4.5)
    for _ in range(3):
        app.processEvents()
    out = Path(__file__).with_name("editor-paste.png")
    win.grab().save(str(out))
    print(f"wrote {out}")
    win.document.undo_stack.setClean()
    win.close()


if __name__ == "__main__":
    main()
