"""A balance run from the editor's dialog vs ``sodwa simulate`` for the same run
(issue 13 section 4: the dialog within 1.5x the CLI's time).

``python bench/balance_run.py [--battles N] [--workers W] [--map MAP] [--ai A,B]``
plays the run both ways, alternately, ``--repeat`` times each: the CLI as its own
process (``python -m sodwa_editor.cli simulate ... --json``: start-up, map load,
battles, report) and the dialog in an offscreen editor with the map open, from
the click on Run until the table and the plots are shown.  It prints each time,
the median ratio dialog / CLI, and checks that both gave the same report.
``--only cli`` or ``--only dialog`` plays one of them once (to time whole
processes from outside).  The issue's figure is 1,000 battles; the default is
fewer while the battle engine is slow.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cli_run(args: argparse.Namespace) -> tuple[float, dict]:
    cmd = [sys.executable, "-m", "sodwa_editor.cli", "simulate", str(args.map), "--battles",
           str(args.battles), "--workers", str(args.workers), "--seed", str(args.seed),
           "--ai", args.ai, "--json"] + (["--swap-sides"] if args.swap_sides else [])
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT)
    took = time.perf_counter() - t0
    return took, json.loads(out.stdout)["maps"][0]


def dialog_run(args: argparse.Namespace, app) -> tuple[float, dict]:
    from PySide6.QtWidgets import QApplication

    from sodwa_editor.editor.testing import bench_window
    from sodwa_editor.io import read_map

    model, _ = read_map(args.map)
    win = bench_window(model, args.map, folder=Path(os.environ["XDG_CONFIG_HOME"]))
    dialog = win.open_balance_dialog()
    dialog.battles.setValue(args.battles)
    dialog.workers.setValue(args.workers)
    dialog.seed.setValue(args.seed)
    dialog.swap.setChecked(args.swap_sides)
    for box, name in zip(dialog.ai, args.ai.split(","), strict=True):
        box.setCurrentText(name)
    QApplication.processEvents()
    t0 = time.perf_counter()
    dialog.run_button.click()
    gaps = [0.0]  # the GUI thread's longest wait for the event loop during the run
    last = time.perf_counter()
    while dialog.is_running() or dialog.report is None:
        app.processEvents()
        now = time.perf_counter()
        if dialog.is_running():
            gaps.append(now - last)
        last = now
        time.sleep(0.005)
        if not dialog.is_running() and dialog.report is None:
            raise SystemExit(f"the dialog's run ended without a report: {dialog.status.text()}")
    app.processEvents()  # the table and plots shown
    took = time.perf_counter() - t0
    print(f"  dialog: longest event-loop turn during the run {1000 * max(gaps):.0f} ms")
    report = dialog.report
    dialog.close()
    win.document.undo_stack.setClean()
    win.close()
    return took, report


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--battles", type=int, default=40)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ai", default="random,random")
    p.add_argument("--swap-sides", action="store_true")
    p.add_argument("--map", type=Path, default=ROOT / "maps" / "indoor-compound.json")
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--only", choices=("cli", "dialog"))
    args = p.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("XDG_CONFIG_HOME", str(Path("/tmp") / f"sodwa-bench-{os.getpid()}"))
    app = None
    if args.only != "cli":
        from PySide6.QtWidgets import QApplication

        app = QApplication.instance() or QApplication([])
    if args.only == "cli":
        print(f"cli {cli_run(args)[0]:.2f} s")
        return 0
    if args.only == "dialog":
        print(f"dialog {dialog_run(args, app)[0]:.2f} s")
        return 0
    cli_times, dialog_times = [], []
    for _ in range(args.repeat):
        t, cli_report = cli_run(args)
        cli_times.append(t)
        t, dialog_report = dialog_run(args, app)
        dialog_times.append(t)
    same = {k: v for k, v in cli_report.items() if k not in ("map", "map_hash")} == dialog_report
    ratios = [d / c for d, c in zip(dialog_times, cli_times, strict=True)]
    print(f"{args.battles} battles, {args.workers} worker(s), AI {args.ai}, map {args.map.name}")
    print("cli    s: " + " ".join(f"{t:.2f}" for t in cli_times))
    print("dialog s: " + " ".join(f"{t:.2f}" for t in dialog_times))
    print(f"dialog / cli: median {statistics.median(ratios):.2f}x (target <= 1.5x); "
          f"same report: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
