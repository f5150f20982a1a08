"""Playtest latency: from an AI decision to the repainted board (a benchmark, not a
timed test; issue 13 asks p95 <= 50 ms on a 64x64 map with 8 characters).

    python bench/playtest_latency.py [--size 64] [--characters 8] [--ai greedy]
        [--steps 300] [--seed 1] [--json]

A main window (offscreen, 1400x900, map fitted) plays an AI-against-AI playtest
on the engine's generated mixed map with ``--characters`` characters (the
generated ones, plus copies placed on free tiles of the same teams).  For each
step the time is taken (1) for the AI's decision and the rules applying it
(``BattleSession.step_action``), and (2) from then until the board is redrawn: the
battle items rebuilt from the state (:meth:`PlaytestMode.refresh`: tokens, ring,
movement range, targets; the Turn-Sequence Bar's portraits, the Character Panels
and the Battle Information Panel with its log) and the window repainted.  Reported: p50 / p95 / max
of (2), the figure the goal is about, and of (1) + (2).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

GOAL_MS = 50.0


def with_characters(model, n: int):
    """``model`` with ``n`` characters: copies of its own on free standable tiles."""
    import dataclasses

    from sodwa_editor.engine.terrain import Base

    chars = sorted(model.characters.values(), key=lambda c: c.id)
    taken = {(c.x, c.y) for c in chars}
    k = 0
    while len(model.characters) < n:
        src = chars[k % len(chars)]
        spot = next(((x, y) for r in range(1, 8) for y in range(src.y - r, src.y + r + 1)
                     for x in range(src.x - r, src.x + r + 1)
                     if model.in_bounds(x, y) and (x, y) not in taken
                     and model.base_at(x, y) is not Base.OBSTRUCTING), None)
        if spot is not None:
            ident = f"{src.id}-copy{k}"
            model.characters[ident] = dataclasses.replace(src, id=ident, x=spot[0], y=spot[1])
            taken.add(spot)
        k += 1
    model.notify_bulk_change("characters")
    return model


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--characters", type=int, default=8)
    ap.add_argument("--ai", default="greedy")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from PySide6.QtWidgets import QApplication

    from sodwa_editor.editor.playtest.setup_dialog import PlaytestChoice
    from sodwa_editor.editor.testing import bench_window, format_percentiles, percentiles
    from sodwa_editor.engine.generate import make_mixed_map

    model = with_characters(make_mixed_map(args.size, seed=args.seed), args.characters)
    win = bench_window(model, size=(1400, 900))
    app = QApplication.instance()  # made by bench_window
    assert app is not None
    win.view.zoom_fit()
    mode = win.playtest
    if not mode.start(PlaytestChoice(controllers=(args.ai, args.ai), seed=args.seed)):
        print(win.statusBar().currentMessage(), file=sys.stderr)
        return 1
    mode.model.set_playing(False)  # paused: the benchmark steps by itself
    session = mode.session
    assert session is not None
    board_ms: list[float] = []
    refresh_ms: list[float] = []
    total_ms: list[float] = []
    for _ in range(args.steps):
        if session.result is not None:
            session.restart(session.seed + 1 if isinstance(session.seed, int) else None)
        t0 = time.perf_counter()
        session.step_action()
        t1 = time.perf_counter()
        mode.refresh()
        t_refresh = time.perf_counter()
        for _ in range(2):  # the view repaints the regions that changed, as on screen
            QApplication.sendPostedEvents()
            app.processEvents()
        t2 = time.perf_counter()
        board_ms.append((t2 - t1) * 1000)
        refresh_ms.append((t_refresh - t1) * 1000)
        total_ms.append((t2 - t0) * 1000)
    out = {"size": args.size, "characters": len(model.characters), "ai": args.ai,
           "steps": args.steps, "goal_p95_ms": GOAL_MS,
           "board_ms": percentiles(board_ms), "items_ms": percentiles(refresh_ms),
           "decision_and_board_ms": percentiles(total_ms)}
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{args.size}x{args.size}, {out['characters']} characters, {args.ai} vs "
              f"{args.ai}, {args.steps} steps")
        print(f"  decision -> repainted board: {format_percentiles(out['board_ms'])} "
              f"(goal p95 <= {GOAL_MS:.0f} ms)")
        print(f"    of which the battle items and panels: {format_percentiles(out['items_ms'])}"
              " (the rest: painting)")
        print(f"  with the AI's decision:      "
              f"{format_percentiles(out['decision_and_board_ms'])}")
    mode.stop()
    win.document.undo_stack.setClean()
    win.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
