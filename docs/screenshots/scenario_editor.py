"""Regenerate ``scenario-editor.png`` (Tools > Scenario Editor on
``maps/outdoor-skirmish.json``: knights in a column entering the north zone against
archers played by the greedy AI, a 300-point cap, the live check saying ready).

    .venv/bin/python docs/screenshots/scenario_editor.py   (offscreen)
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

from sodwa_editor.editor.testing import bench_window  # noqa: E402
from sodwa_editor.io import read_map  # noqa: E402


def team(folder: Path, name: str, archetype: str) -> Path:
    doc = {"format": "sodwa-team", "format_version": 1, "name": name,
           "members": [{"id": f"m{i}", "archetype": archetype} for i in range(2)],
           "formations": [{"name": "column", "positions": {"m0": [0, 0], "m1": [0, 1]}}]}
    path = folder / f"{name.lower()}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def main() -> None:
    path = ROOT / "maps" / "outdoor-skirmish.json"
    win = bench_window(read_map(path)[0], path)
    app = QApplication.instance()
    assert app is not None
    dialog = win.open_scenario_editor()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        dialog.sides[0].pick_team(team(folder, "Knights", "Knight"))
        dialog.sides[1].pick_team(team(folder, "Archers", "Archer"))
    dialog.name.setText("Knights vs archers")
    dialog.briefing.setPlainText("Hold the ford until the archers run out of arrows.")
    s0, s1 = dialog.sides
    s0.formation.setCurrentIndex(s0.formation.findData("column"))
    s1.zone.setCurrentText("south")
    s1.controller.setCurrentIndex(s1.controller.findData("ai"))
    dialog.cap.setValue(300)
    dialog.resize(940, dialog.sizeHint().height())
    for _ in range(5):
        app.processEvents()
    dialog.grab().save(str(Path(__file__).parent / "scenario-editor.png"))


if __name__ == "__main__":
    main()
