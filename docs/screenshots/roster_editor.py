"""Regenerate ``roster-editor.png`` (Tools > Roster Editor on the shipped roster: the
archetype table with the suggested costs, the Hawk's row current, and below it the
matchup table of ranged attacks when both sides moved through impeding terrain,
the case of issue 28's playtest: every attack on the Hawk needs 00).

    .venv/bin/python docs/screenshots/roster_editor.py

Rendered with Qt's offscreen platform (no window opens).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

from sodwa_editor.editor.roster_editor.dialog import RosterEditorDialog  # noqa: E402
from sodwa_editor.editor.roster_editor.editing import RosterEditing  # noqa: E402


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv)
    dialog = RosterEditorDialog(RosterEditing())
    dialog.resize(1180, 860)
    dialog.show()
    panel = dialog.matchups
    panel.kind.setCurrentIndex(1)  # ranged
    panel.moves.setCurrentIndex(3)  # both moved
    panel.impeded.setChecked(True)
    hawk = dialog.editing.roster.names().index("Hawk")
    dialog.table.setCurrentIndex(dialog.table_model.index(hawk, 0))
    for _ in range(3):
        app.processEvents()
    out = Path(__file__).parent / "roster-editor.png"
    dialog.grab().save(str(out))
    print(out)


if __name__ == "__main__":
    main()
