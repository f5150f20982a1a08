"""Regenerate ``editor-aoe-template.png`` and ``playtest-ability-preview.png``
(issue 25): areas of effect in the editor and in a playtest.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/area_templates.py

``editor-aoe-template.png`` (1280x860): ``maps/indoor-compound.json``, the AoE
template tool (M) with the seed's ``AoE - Emanation - Cone: 5|3:2|5:3`` typed in
the options bar, laid from tile 3, 3 toward 8, 5: the affected tiles tinted, the
tiles the walls stopped crossed out, the pointer on a stopped tile (the status bar
says why, the wall that stopped it ringed).

``playtest-ability-preview.png`` (1500x950): a small open map with a wall, the
Mage and a Knight (a person's) against a Brute and a Rogue; the Mage's Fireball
picked with its button, aimed by a click: the template on the board and the Battle
Information Panel's preview of every victim (the Knight, an ally, marked) with
Confirm / Cancel, the Brute in the right panel.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from sodwa_editor.editor.playtest.setup_dialog import PlaytestChoice  # noqa: E402
from sodwa_editor.editor.testing import bench_window, click_tile, move  # noqa: E402
from sodwa_editor.engine.model import Character, MapModel  # noqa: E402
from sodwa_editor.io import read_map  # noqa: E402


def settle(app: QApplication, n: int = 3) -> None:
    for _ in range(n):
        app.processEvents()


def editor_template(app: QApplication) -> None:
    path = ROOT / "maps" / "indoor-compound.json"
    win = bench_window(read_map(path)[0], path, size=(1280, 860))
    win.view.zoom_fit()
    win.set_tool("area")
    bar = win.tool_options
    edit = bar.area.lineEdit()
    edit.selectAll()
    QTest.keyClicks(edit, "AoE - Emanation - Cone: 5|3:2|5:3")
    win.view.setFocus()
    tool = win.tools["area"]
    click_tile(win.view, 3, 3)  # the origin
    click_tile(win.view, 8, 5)  # aimed east-south-east
    stop = next(s for s in tool.area.stopped if s.reason.edge is not None)
    move(win.view, stop.tile[0] + 0.5, stop.tile[1] + 0.5)
    settle(app)
    out = Path(__file__).with_name("editor-aoe-template.png")
    win.grab().save(str(out))
    print(f"wrote {out}")
    win.document.undo_stack.setClean()
    win.close()


def ability_map() -> MapModel:
    m = MapModel(14, 9)
    m.terrain[5, 7] = m.registry.id_of("obstructing")
    for name, team, (x, y) in (("Mage", "blue", (2, 3)), ("Knight", "blue", (6, 5)),
                               ("Brute", "red", (7, 3)), ("Rogue", "red", (8, 4))):
        m.characters[name] = Character(name, team, x, y, name=name)
    m.start_zones = {"blue": [(0, 0)], "red": [(13, 0)]}
    m.notify_bulk_change()
    return m


def playtest_preview(app: QApplication) -> None:
    win = bench_window(ability_map(), None, size=(1500, 950))
    mode = win.playtest
    mode.start(PlaytestChoice(controllers=("human", "greedy"), seed=5))
    s = mode.session
    assert s is not None
    mage = s.state.names.index("Mage")
    for _ in range(50):  # the red side taken over and passed, to the Mage's turn
        w = s.waiting
        if w is None and not mode.model.taken:
            mode.model.take_over()
        elif w is None:
            mode.model.step_action()
        elif w.kind == "actor":
            mode.model.choose_actor(mage if mage in w.candidates else w.candidates[0])
        elif s.state.actor == mage:
            break
        else:
            mode.model.pass_turn()
    win.view.zoom_fit()
    mode.model.pick(s.state.names.index("Brute"))  # the right panel: the first victim
    settle(app)
    button = next(b for b in mode.views.active_panel.action_buttons
                  if b.text().startswith("Fireball"))
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    click_tile(win.view, 7, 4)
    move(win.view, 7.5, 5.5)  # over the wall the Fireball stops at: ringed
    settle(app)
    out = Path(__file__).with_name("playtest-ability-preview.png")
    win.grab().save(str(out))
    print(f"wrote {out}")
    mode.stop()
    win.document.undo_stack.setClean()
    win.close()


def main() -> None:
    app = QApplication.instance() or QApplication([])
    editor_template(app)
    playtest_preview(app)


if __name__ == "__main__":
    main()
