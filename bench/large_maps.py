"""Time and peak memory of every whole-map operation on the largest maps
(issue 9: the sizes the format accepts must be fast, and the budget per size is
stated in docs/map-format.md, *Size budget*).

    python bench/large_maps.py [--sizes 128 256] [--json]

For each size two worst-case maps are written to a temporary folder:

* ``ramp``: elevation ``(x + y) % 100`` on every tile, so that no neighbour
  pair is level and every one is a blocked pair with a reason (the worst case of
  ``sodwa graph`` and ``blocked_pairs``), plus the generated mixed features;
* ``snake``: Obstructing wall borders across every row with one gap at
  alternating ends (the longest paths a map of that size can have) and one
  character in the top-left corner.

Each operation then runs in a fresh child process (so its figures include the
imports and nothing else's memory): ``read`` (``sodwa validate``: read, schema
and semantic checks), ``graph`` (``sodwa graph``: the networkx adjacency graph
and the blocked pairs), ``graph_json`` (``sodwa graph --json`` written to a
file), ``reach`` (``sodwa reach`` with Move = the map's tile count from the snake's
character), ``fan`` (``sodwa los`` fan from the centre) and ``editor`` (the main
window opened offscreen on the ramp map, fitted and painted once).
Reported: wall seconds and peak resident memory (MB) of each child.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

EDITOR_CHILD = """
import os, sys
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from pathlib import Path
from PySide6.QtWidgets import QApplication
from sodwa_editor.editor.testing import bench_window
from sodwa_editor.io.files import load_map
win = bench_window(load_map(sys.argv[1], strict=False), Path(sys.argv[1]),
                   folder=Path(sys.argv[2]))
win.view.zoom_fit()
QApplication.processEvents()
win.view.viewport().grab()
win.document.undo_stack.setClean()
win.close()
"""


def make_maps(size: int, folder: Path) -> dict[str, Path]:
    import numpy as np

    from sodwa_editor.engine.generate import make_mixed_map
    from sodwa_editor.engine.model import Character, Edge, MapModel
    from sodwa_editor.io.files import save_map

    ramp = make_mixed_map(size, seed=7)
    ys, xs = np.mgrid[0:size, 0:size]
    ramp.elevation[:, :] = (xs + ys) % 100
    ramp.notify_bulk_change()
    snake = MapModel(size, size, name=f"snake {size}")
    wall = snake.registry.id_of("obstructing")
    for y in range(size - 1):
        gap = size - 1 if y % 2 == 0 else 0
        for x in range(size):
            if x != gap:
                snake.set_border(Edge(x, y, "S"), wall)
    snake.put_character(Character("runner", "red", 0, 0, move=5))
    paths = {"ramp": folder / f"ramp-{size}.json", "snake": folder / f"snake-{size}.json"}
    save_map(ramp, paths["ramp"])
    save_map(snake, paths["snake"])
    return paths


def measured(args: list[str]) -> tuple[float, float, int]:
    """Run ``python args`` in a fresh grandchild and return its own figures."""
    code = ("import resource, subprocess, sys, time, json;"
            "t0 = time.perf_counter();"
            "p = subprocess.run([sys.executable] + sys.argv[1:], stdout=subprocess.DEVNULL);"
            "s = time.perf_counter() - t0;"
            "print(json.dumps([s, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,"
            " p.returncode]))")
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         cwd=ROOT, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    seconds, mb, rc = json.loads(out.stdout.strip().splitlines()[-1])
    return seconds, mb, rc


def measure(size: int, folder: Path) -> dict[str, dict[str, float]]:
    paths = make_maps(size, folder)
    cli = ["-m", "sodwa_editor.cli"]
    ramp, snake = str(paths["ramp"]), str(paths["snake"])
    c = size // 2
    ops = {
        "read": cli + ["validate", ramp],
        "graph": cli + ["graph", ramp],
        "graph_json": ["-c", "import sys; from sodwa_editor.cli import main; "
                       f"sys.stdout = open({str(folder / 'g.json')!r}, 'w'); "
                       f"sys.exit(main(['graph', {ramp!r}, '--json']))"],
        "reach": cli + ["reach", snake, "--from", "0,0", "--move", str(min(size * size, 999)),
                        "--json"],
        "fan": cli + ["los", ramp, "--from", f"{c},{c}"],
        "editor": ["-c", EDITOR_CHILD, ramp, str(folder)],
    }
    out = {}
    for name, args in ops.items():
        seconds, mb, rc = measured(args)
        out[name] = {"s": round(seconds, 2), "peak_mb": round(mb), "exit": rc}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[128, 256])
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    results = {}
    with tempfile.TemporaryDirectory(prefix="sodwa-large-") as tmp:
        for size in args.sizes:
            results[size] = measure(size, Path(tmp))
    if args.json:
        print(json.dumps({str(k): v for k, v in results.items()}, indent=2))
        return 0
    names = list(next(iter(results.values())))
    print("seconds / peak MB per operation (each in a fresh process, imports included)")
    print(f"{'map':>9} " + " ".join(f"{n:>16}" for n in names))
    for size, r in results.items():
        print(f"{size:>4}x{size:<4} " + " ".join(
            f"{r[n]['s']:>7.2f}s {r[n]['peak_mb']:>5.0f}MB" + ("!" if r[n]["exit"] > 1 else " ")
            for n in names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
