"""Hover latency of the Fill tool (a benchmark, not a timed test).

    python bench/fill_hover.py [--size 256] [--moves 600] [--zoom fit|paint] [--json]

Opens the main window (offscreen, 1400x900) on the engine's generated mixed map
with the Fill tool chosen, then moves the pointer tile by tile along rows of the
map with real mouse events.  Every move shows the region a click would fill
(the flood from the tile under the pointer) and its tile count in the status
bar.  For each move the time is measured from sending the event until the tool
has shown the region and the view has repainted what changed, in two phases:
``hover`` (the view's and the tool's handlers: the region, the preview item,
the status bar) and ``paint`` (the repaint of what changed, as the event loop
does on screen).  Reported: p50 / p95 / max in milliseconds over all moves, and
over the moves that showed another region than the move before ("new area":
the pointer left one component of same terrain and elevation for another).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PAINT_TILE_PX = 16


def _stats(samples: list[float]) -> dict[str, float]:
    if not samples:
        return {"n": 0, "p50_ms": float("nan"), "p95_ms": float("nan"), "max_ms": float("nan")}
    s = sorted(samples)
    return {"n": len(s), "p50_ms": statistics.median(s), "p95_ms": s[int(0.95 * (len(s) - 1))],
            "max_ms": s[-1]}


def measure(size: int, moves: int, zoom: str = "fit") -> dict[str, dict[str, float]]:
    from PySide6.QtWidgets import QApplication

    from sodwa_editor.editor.style import TILE
    from sodwa_editor.editor.testing import bench_window, move
    from sodwa_editor.engine.generate import make_mixed_map

    win = bench_window(make_mixed_map(size, seed=1))
    view = win.view
    if zoom == "fit":
        win.view.zoom_fit()
        x_lo, x_hi = 0, size
    else:
        win.view.set_zoom(PAINT_TILE_PX / TILE)
        win.view.center_on_tile(size // 2, size // 4)
        QApplication.processEvents()
        half = max(2, min(size, int(view.viewport().width() / PAINT_TILE_PX) - 4) // 2)
        x_lo, x_hi = size // 2 - half, size // 2 + half
    win.set_tool("fill")
    QApplication.processEvents()
    move(view, x_lo + 0.5, size // 4 + 0.5)  # warm-up: the compiled flood is loaded
    QApplication.processEvents()
    every: dict[str, list[float]] = {}
    new_area: dict[str, list[float]] = {}
    span = x_hi - x_lo
    for i in range(moves):
        row, col = divmod(i, span)
        x = (x_lo + col if row % 2 == 0 else x_hi - 1 - col) + 0.5
        y = size // 4 + row + 0.5
        before = win.statusBar().currentMessage(), win.scene.fill_preview.boundingRect()
        t0 = time.perf_counter()
        move(view, x, y, settle=False)  # the tool's hover: region, preview item, status bar
        t1 = time.perf_counter()
        for _ in range(2):  # the view repaints the regions that changed, as on screen
            QApplication.sendPostedEvents()
            QApplication.processEvents()
        t2 = time.perf_counter()
        ms = ((t2 - t0) * 1000, (t1 - t0) * 1000, (t2 - t1) * 1000)
        for name, v in zip(("", "_hover", "_paint"), ms, strict=True):
            every.setdefault("all" + name, []).append(v)
            if (win.statusBar().currentMessage(),
                    win.scene.fill_preview.boundingRect()) != before:
                new_area.setdefault("new_area" + name, []).append(v)
    win.close()
    return {k: _stats(v) for k, v in (every | new_area).items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=256)
    p.add_argument("--moves", type=int, default=600)
    p.add_argument("--zoom", choices=("fit", "paint"), default="fit")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    r = measure(args.size, args.moves, args.zoom)
    if args.json:
        print(json.dumps(r, indent=2))
        return 0
    print(f"fill hover on a {args.size}x{args.size} mixed map ({args.zoom} zoom), ms; "
          f"load average {os.getloadavg()[0]:.2f}")
    for name, s in r.items():
        print(f"{name:>14}: {s['n']:4d} moves  p50 {s['p50_ms']:7.2f}  p95 {s['p95_ms']:7.2f}  "
              f"max {s['max_ms']:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
