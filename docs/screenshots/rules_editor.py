"""Regenerate ``rules-editor.png`` (Tools > Rules Editor: a variant that makes turns
cheaper and karma rarer, B10's key selected with its decision quoted).

    Xvfb :58 -screen 0 1920x1080x24 &
    DISPLAY=:58 QT_QPA_PLATFORM=xcb .venv/bin/python docs/screenshots/rules_editor.py

(offscreen, the default here, works too: the dialog has its own size.)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

from sodwa_editor.editor.rules_editor.dialog import RulesEditor  # noqa: E402
from sodwa_editor.editor.rules_editor.model import RulesDocument  # noqa: E402


def main() -> None:
    app = QApplication.instance() or QApplication([])
    doc = RulesDocument()
    doc.rename("fast turns, rare karma", "cheaper turns; karma only below 40")
    doc.set_value("clock.turn_cost", 400)
    doc.set_value("karma.gain_below", 40)
    dialog = RulesEditor(doc)
    dialog.resize(1240, 720)
    dialog.show()
    dialog.tree.setCurrentItem(dialog.items["clock.one_turn_per_tick"])
    dialog.tree.scrollToItem(dialog.items["clock.turn_cost"])
    for _ in range(5):
        app.processEvents()
    dialog.grab().save(str(Path(__file__).parent / "rules-editor.png"))
    doc.undo_stack.setClean()
    dialog.close()


if __name__ == "__main__":
    main()
