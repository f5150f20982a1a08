"""Regenerate ``team-editor.png`` and ``team-preview.png`` (Tools > Teams and
Formations on ``maps/tiered-keep.json``: a five-member team with two formations,
the wedge the default, against a 500-point cap; the window with the wedge on the
formation grid, and the map with the wedge (five abreast, two deep) previewed in
the defenders' 4 x 4 start zone, where it does not fit as drawn: the
inexact-placement warning on the map).

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/team_editor.py

The edits are the editor's own (its team document's methods, one undo step each),
the pictures Qt's offscreen rendering of the windows.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QEvent, Qt  # noqa: E402
from PySide6.QtGui import QMouseEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from sodwa_editor.editor.testing import bench_window  # noqa: E402
from sodwa_editor.io import read_map  # noqa: E402


def settle(app: QApplication) -> None:
    for _ in range(3):
        app.processEvents()


def main() -> None:
    path = ROOT / "maps" / "tiered-keep.json"
    win = bench_window(read_map(path)[0], path, size=(1280, 860))
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    editor = win.open_team_editor()
    team = editor.team
    team.set_name("Vanguard")
    for archetype in ("Knight", "Knight", "Archer", "Mage", "Rogue"):
        team.add_member(archetype)
    team.set_member_name("knight", "Sir Roland")
    team.set_member_name("archer", "Robin")
    team.set_cap(500)
    team.add_formation()
    team.rename_formation(0, "line")
    team.add_formation()
    team.rename_formation(1, "wedge")
    for member, cell in (("knight", (2, 0)), ("knight-2", (1, 1)), ("mage", (3, 1)),
                         ("archer", (0, 1)), ("rogue", (4, 1))):
        team.place_member(member, cell)
    team.move_formation(1, 0)
    editor.members.select_member("knight")
    editor.grid.select_member("knight")
    editor.zone.setCurrentText("attackers")
    editor.resize(1180, 720)
    settle(app)
    at = editor.grid.cell_rect((2, 0)).center()  # the pointer over Sir Roland
    QApplication.sendEvent(editor.grid, QMouseEvent(
        QEvent.Type.MouseMove, at, editor.grid.mapToGlobal(at), Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier))
    settle(app)
    here = Path(__file__).parent
    editor.grab().save(str(here / "team-editor.png"))
    editor.zone.setCurrentText("defenders")
    win.view.set_zoom(1.25)
    win.center_on(8, 9)
    settle(app)
    win.grab().save(str(here / "team-preview.png"))
    print(f"wrote {here / 'team-editor.png'} and {here / 'team-preview.png'}")
    print(editor.preview_line.text())
    team.undo_stack.setClean()
    win.document.undo_stack.setClean()
    win.close()


if __name__ == "__main__":
    main()
