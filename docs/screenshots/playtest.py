"""Regenerate ``playtest-battle.png``, ``playtest-battle-ui.png`` and
``playtest-area-ability.png``: the editor's playtest mode, with the Battle UI as
the rulebook lays it out.

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/playtest.py

``playtest-battle.png`` (1500x950): ``maps/indoor-compound.json``, the blue team
played by a person (through real clicks on the view), the red one by the greedy
AI, seed 3: the person walks towards the enemy and passes until an enemy is in
reach, then hovers it (the LoS line and its class) and clicks it: the Battle
Information Panel shows the attack preview with Confirm (Enter) / Cancel (Esc)
and the hovered tile's terrain; the movement range, the marked targets and the
active character's ring are on the map; the Turn-Sequence Bar with the
characters' portraits above it; the Character Panels of the archer and of the
rogue it clicked below it, left and right of the Battle Information Panel.

``playtest-battle-ui.png`` (the default window, 1280x860): ``maps/tiered-keep.json``
watched, greedy against greedy, seed 5, paused after the first attack that hit:
the last attack's roll in the Battle Information Panel, the character it hit in
the right panel (its HP bars down), the terrain of the tile under the pointer.

``playtest-area-ability.png`` (1280x860): ``maps/indoor-compound.json`` watched,
greedy against greedy, seed 2, paused after the first area ability an AI used (the
Brute's Ground Slam): the Battle Information Panel shows it with a line per victim
(each its own roll), the log the same, the caster in the left panel and its first
victim in the right one.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtWidgets import QApplication  # noqa: E402

from sodwa_editor.battle.events import AbilityUsed, AreaHit, Attacked  # noqa: E402
from sodwa_editor.editor.playtest.setup_dialog import PlaytestChoice  # noqa: E402
from sodwa_editor.editor.testing import bench_window, click_tile, move  # noqa: E402
from sodwa_editor.io import read_map  # noqa: E402


def settle(app: QApplication, n: int = 3) -> None:
    for _ in range(n):
        app.processEvents()


def human_preview(app: QApplication) -> None:
    path = ROOT / "maps" / "indoor-compound.json"
    win = bench_window(read_map(path)[0], path, size=(1500, 950))
    mode = win.playtest
    mode.start(PlaytestChoice(controllers=("human", "greedy"), seed=3))
    mode.bar.speed.setCurrentText("instant")
    mode.model.set_playing(True)
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
    settle(app)
    out = Path(__file__).with_name("playtest-battle.png")
    win.grab().save(str(out))
    print(f"wrote {out}")
    mode.stop()
    win.document.undo_stack.setClean()
    win.close()


def watched_battle(app: QApplication) -> None:
    path = ROOT / "maps" / "tiered-keep.json"
    win = bench_window(read_map(path)[0], path, size=(1280, 860))
    mode = win.playtest
    mode.start(PlaytestChoice(controllers=("greedy", "greedy"), seed=5))
    s = mode.session
    assert s is not None
    hit = None
    for _ in range(2000):  # one action at a time (F7) to the first attack that hits
        mode.model.step_action()
        last = s.state.events[-1] if s.state.events else None
        if isinstance(last, Attacked) and last.damage > 0:
            hit = last
            break
    assert hit is not None
    win.view.zoom_fit()
    x, y = s.state.pos[hit.target]
    click_tile(win.view, x, y)  # the character hit, in the right panel
    move(win.view, x + 0.5, y + 0.5)
    settle(app)
    out = Path(__file__).with_name("playtest-battle-ui.png")
    win.grab().save(str(out))
    print(f"wrote {out}")
    mode.stop()
    win.document.undo_stack.setClean()
    win.close()


def area_ability(app: QApplication) -> None:
    path = ROOT / "maps" / "indoor-compound.json"
    win = bench_window(read_map(path)[0], path, size=(1280, 860))
    mode = win.playtest
    mode.start(PlaytestChoice(controllers=("greedy", "greedy"), seed=2))
    s = mode.session
    assert s is not None
    used = None
    for _ in range(2000):  # one action at a time (F7) to the first area ability
        n = len(s.state.events)
        mode.model.step_action()
        used = next((e for e in s.state.events[n:] if isinstance(e, AbilityUsed)), None)
        if used is not None:
            break
    assert used is not None
    victim = next(e.target for e in s.state.events[s.state.events.index(used):]
                  if isinstance(e, AreaHit))
    win.view.zoom_fit()
    x, y = s.state.pos[victim]
    click_tile(win.view, x, y)  # its first victim, in the right panel
    move(win.view, x + 0.5, y + 0.5)
    settle(app)
    out = Path(__file__).with_name("playtest-area-ability.png")
    win.grab().save(str(out))
    print(f"wrote {out}")
    mode.stop()
    win.document.undo_stack.setClean()
    win.close()


def main() -> None:
    app = QApplication.instance() or QApplication([])
    human_preview(app)
    watched_battle(app)
    area_ability(app)


if __name__ == "__main__":
    main()
