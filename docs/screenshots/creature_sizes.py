"""Regenerate the creature-size screenshots (issue 26):

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/creature_sizes.py

``creature-huge-reach.png``: ``maps/outdoor-skirmish.json`` with a Huge wyrm (4x4,
Move 6) beside the river; the movement range pinned on it shows the tiles its footprint
can cover at the end of a move (the river's hindering tiles end its move: hatched), and
the hovered tile the path of the wyrm centred there, through its middle.
``creature-flanking.png``: the same map with the Lancer flanked by a Large ogre (two
squares count) and the hawk; the wyrm pinned as the attacker, so the status bar and the
rings say the Lancer's cover from it (the Page, directly between) and the direct line it
is read on.
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
from sodwa_editor.engine.model import Character, MapModel  # noqa: E402
from sodwa_editor.io import load_map  # noqa: E402


def skirmish() -> MapModel:
    """The outdoor skirmish with a Huge wyrm (south) east of the river."""
    m = load_map(ROOT / "maps" / "outdoor-skirmish.json", strict=False)
    m.put_character(Character("wyrm", "south", 14, 6, move=6, range=3, name="Wyrm",
                              size="huge"))
    return m


def window(app: QApplication, model: MapModel, tmp: Path, name: str) -> MainWindow:
    win = MainWindow(model, settings=QSettings(str(tmp / f"{name}.ini"),
                                               QSettings.Format.IniFormat),
                     recovery_dir=tmp / "recovery")
    win.resize(1400, 900)
    win.show()
    app.processEvents()
    win.view.zoom_fit()
    return win


def save(app: QApplication, win: MainWindow, name: str) -> None:
    for _ in range(3):
        app.processEvents()
    out = Path(__file__).with_name(name)
    win.grab().save(str(out))
    print(f"wrote {out}: {win.statusBar().currentMessage()}")
    win.document.undo_stack.setClean()
    win.close()


def main() -> None:
    app = QApplication([])
    tmp = Path(tempfile.mkdtemp())
    win = window(app, skirmish(), tmp, "reach")
    win.action_map["preview_reach"].setChecked(True)
    win.previews.pin((15, 7))
    move(win.view, 20.5, 10.5)
    win.previews.update_now()
    save(app, win, "creature-huge-reach.png")

    m = skirmish()
    m.put_character(Character("lancer", "north", 6, 9, name="Lancer", move=6, range=1))
    m.put_character(Character("ogre", "south", 4, 8, name="Ogre", move=4, range=1,
                              size="large"))
    m.put_character(Character("hawk", "south", 7, 10, name="Hawk", move=8, range=1,
                              flight=True))
    m.put_character(Character("page", "north", 9, 9, name="Page", move=5, range=1))
    win = window(app, m, tmp, "flank")
    win.action_map["preview_flank"].setChecked(True)
    win.previews.pin((15, 7))
    move(win.view, 6.5, 9.5)
    win.previews.update_now()
    save(app, win, "creature-flanking.png")


if __name__ == "__main__":
    main()
