"""Regenerate ``playtest-battle.png``: the editor's playtest mode mid-battle.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/playtest.py

``maps/indoor-compound.json``, team 1 played by a person (through real clicks on
the view), team 2 by the greedy AI, seed 3: the person walks towards the enemy
and passes until an enemy is in reach, then hovers it (the LoS line and its
class) and clicks it: the Battle Information panel shows the attack preview
with Confirm / Cancel; the movement range, the marked targets and the active
character's ring are on the map; the Turn-Sequence Bar above it, the Character
Panels of the archer and of the rogue it clicked below it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

from sodwa_editor.editor.playtest.setup_dialog import PlaytestChoice  # noqa: E402
from sodwa_editor.editor.testing import bench_window, click_tile, move  # noqa: E402
from sodwa_editor.io import read_map  # noqa: E402


def main() -> None:
    path = ROOT / "maps" / "indoor-compound.json"
    win = bench_window(read_map(path)[0], path, size=(1500, 950))
    app = QApplication.instance()
    assert app is not None
    mode = win.playtest
    mode.start(PlaytestChoice(controllers=("human", "greedy"), seed=3))
    mode.bar.speed.setCurrentText("instant")
    s = mode.session
    assert s is not None and mode.board is not None
    for _ in range(60):
        while s.result is None and s.waiting is None:
            app.processEvents()
        if s.result is not None or mode.board.target_tiles:
            break
        w = s.waiting
        assert w is not None
        if w.kind == "actor":
            click_tile(win.view, *s.state.pos[w.candidates[0]])
            continue
        foes = [s.state.pos[j] for j in s.state.enemies(s.state.actor)]
        if mode.board.move_tiles:
            click_tile(win.view, *min(mode.board.move_tiles, key=lambda t: min(
                abs(t[0] - f[0]) + abs(t[1] - f[1]) for f in foes)))
        if not mode.board.target_tiles:
            mode.human.pass_turn()
    win.view.zoom_fit()
    actor = s.state.actor
    tile = max(mode.board.target_tiles,  # the best chance of a hit
               key=lambda t: s.preview(actor, mode.board.target_tiles[t]).hits)
    click_tile(win.view, *tile)
    move(win.view, tile[0] + 0.5, tile[1] + 0.5)
    mode.board.hover(tile)
    for _ in range(3):
        app.processEvents()
    out = Path(__file__).with_name("playtest-battle.png")
    win.grab().save(str(out))
    print(f"wrote {out}")
    mode.stop()
    win.document.undo_stack.setClean()
    win.close()


if __name__ == "__main__":
    main()
