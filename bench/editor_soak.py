"""Editor soak: many real hover moves and edits on one main window (issue 9 §1).

    python bench/editor_soak.py [--moves 12000] [--edits 3000] [--size 32]

Opens the main window (offscreen unless a display is set) on a generated mixed
map with the LoS fan and movement previews on, then sends ``--moves`` real mouse
moves over the map (each one a ``view.hovered`` emit, a status-bar update and a
preview re-query) and brush strokes painting ``--edits`` tiles (each tile a paint command merged
into the stroke's undo step, a scene update and a re-validation), then undoes
and redoes every stroke.  It prints one JSON line: the counts, the seconds taken and the drift of
the reference counts of ``True``, ``False`` and ``None`` over the run.

A PySide6 release that drops a reference on every signal emit (6.12.0 dropped
one to ``True`` per emit) either aborts this process ("Fatal Python error:
bool_dealloc") or shows a drift in the thousands; a sound one shows a drift
near 0.  ``tests/test_qt_regressions.py`` runs it with CI-sized counts.
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


def refcounts() -> dict[str, int]:
    return {"True": sys.getrefcount(True), "False": sys.getrefcount(False),
            "None": sys.getrefcount(None)}


def run(win, view, size: int, *, moves: int, edits: int, step: float = 0.05
        ) -> tuple[int, int]:
    """Hover ``moves`` times, paint ``edits`` tiles in strokes, then undo and
    redo every step on the stack; returns (tiles painted, strokes)."""
    from sodwa_editor.editor.testing import drag_tiles, move

    # A pointer wandering over the map in small steps, as a real mouse does
    # (``1 / step`` events per tile; the previews re-query when the tile changes).
    per_row = int(size / step)
    for i in range(moves):
        row, col = divmod(i, per_row)
        fx = ((col if row % 2 == 0 else per_row - 1 - col) + 0.5) * step
        fy = (row * 0.37) % size
        move(view, fx, fy)
    # Brush strokes: every tile a stroke enters is one paint edit (merged into
    # one undo step per stroke, as Tiled does).
    win.set_tool("brush")
    ids = [0, 1, 3]  # clear, impeding, difficult: never refused under a token
    strokes = painted = 0
    while painted < edits:
        win.state.set("terrain_id", ids[strokes % len(ids)])
        y = (strokes * 5) % size
        length = min(size - 1, edits - painted - 1)
        drag_tiles(view, [(x, y) for x in range(length + 1)])
        painted += length + 1
        strokes += 1
    stack = win.document.undo_stack
    steps = stack.count()
    for _ in range(steps):
        stack.undo()
    for _ in range(steps):
        stack.redo()
    win.set_tool("select")
    return painted, strokes


def soak(moves: int, edits: int, size: int) -> dict[str, object]:
    from PySide6.QtWidgets import QApplication

    from sodwa_editor.editor.testing import bench_window
    from sodwa_editor.engine.generate import make_mixed_map

    app = QApplication.instance() or QApplication([])
    win = bench_window(make_mixed_map(size, seed=3), size=(900, 640))
    win.view.zoom_fit()
    for name in ("los", "reach"):
        win.action_map[f"preview_{name}"].setChecked(True)
    view = win.view
    app.processEvents()
    # Warm-up: the first hovers and strokes import modules and compile kernels,
    # which keeps references to True/None for good; measure after it.
    run(win, view, size, moves=20 * size, edits=size)
    app.processEvents()
    before = refcounts()
    t0 = time.perf_counter()
    painted, strokes = run(win, view, size, moves=moves, edits=edits)
    app.processEvents()
    seconds = time.perf_counter() - t0
    after = refcounts()
    stack = win.document.undo_stack
    result = {
        "moves": moves, "edits": painted, "strokes": strokes, "undo_steps": stack.count(),
        "seconds": round(seconds, 2), "drift": {k: after[k] - before[k] for k in before},
    }
    stack.setClean()
    win.close()
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--moves", type=int, default=12000)
    p.add_argument("--edits", type=int, default=3000)
    p.add_argument("--size", type=int, default=32)
    args = p.parse_args(argv)
    print(json.dumps(soak(args.moves, args.edits, args.size)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
