"""Regenerate ``balance-dialog.png`` and ``balance-heatmap.png`` (Tools > Balance
Run on ``maps/outdoor-skirmish.json``: the dialog after the run at its default
size, on its Table tab under the headline, and the main window at 156 % zoom with
the heat map of where attacks were made from, its counts in the tiles' corners).

    Xvfb :58 -screen 0 1920x1080x24 &
    DISPLAY=:58 QT_QPA_PLATFORM=xcb .venv/bin/python docs/screenshots/balance_run.py [BATTLES]

(the pictures in docs/ were made so: the dialog's default size follows the screen;
Qt's offscreen platform, the default here, has an 800 x 800 screen, which gives a
smaller dialog).

The run is greedy vs greedy, sides swapped, seed 1, 2 workers (BATTLES: 100; about
half a minute).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

from sodwa_editor.editor.testing import bench_window  # noqa: E402
from sodwa_editor.io import read_map  # noqa: E402


def main() -> None:
    battles = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    path = ROOT / "maps" / "outdoor-skirmish.json"
    win = bench_window(read_map(path)[0], path, size=(1500, 950))
    app = QApplication.instance()
    assert app is not None
    win.view.zoom_fit()
    dialog = win.open_balance_dialog()
    dialog.battles.setValue(battles)
    dialog.swap.setChecked(True)
    dialog.seed.setValue(1)
    dialog.workers.setValue(2)
    dialog.run_button.click()
    while dialog.is_running():
        app.processEvents()
        time.sleep(0.02)
    if dialog.report is None:
        raise SystemExit(dialog.status.text())
    dialog.tabs.setCurrentIndex(0)
    for _ in range(3):
        app.processEvents()
    here = Path(__file__).parent
    dialog.grab().save(str(here / "balance-dialog.png"))
    dialog.heat_kind.setCurrentIndex(dialog.heat_kind.findData("attacked_from"))
    dialog.heat_button.click()
    dialog.hide()
    win.view.set_zoom(1.5625)  # two Ctrl++ from 100 %: tiles large enough for their counts
    win.center_on(11, 8)
    win.docks["palette"].hide()  # room for the Layers dock and the heat map's legend
    for _ in range(3):
        app.processEvents()
    body = win.docks["layers"].widget()
    body.ensureWidgetVisible(win.heat_map, 0, 0)
    for _ in range(3):
        app.processEvents()
    win.grab().save(str(here / "balance-heatmap.png"))
    print(f"wrote {here / 'balance-dialog.png'} and {here / 'balance-heatmap.png'}")
    win.document.undo_stack.setClean()
    win.close()


if __name__ == "__main__":
    main()
