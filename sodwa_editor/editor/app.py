"""``sodwa-editor``: the desktop map editor, and headless screenshots.

    sodwa-editor [MAP]
    sodwa-editor --screenshot OUT.png MAP [--overlay los:X,Y|reach:X,Y:N|graph] [--scale S]

``MAP`` is a map file or ``sample:NAME`` for one of the engine's sample maps
(``rulebook-elevated-los``, ``indoor-compound``, ``tiered-keep``,
``outdoor-skirmish``).  Screenshots use Qt's offscreen platform and never open
a window.  Without a display, or without a system library Qt's xcb platform
needs, the editor says so in one line instead of letting Qt abort.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

NO_DISPLAY = ("sodwa-editor: no display available (DISPLAY and WAYLAND_DISPLAY are unset); "
              "to render a map without one use: sodwa-editor --screenshot OUT.png MAP")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="sodwa-editor", description="SODWA map editor")
    p.add_argument("map", nargs="?", metavar="MAP",
                   help="map file to open (or sample:NAME for a built-in sample)")
    p.add_argument("--screenshot", metavar="OUT.png", type=Path,
                   help="render MAP to a PNG without opening a window, then exit")
    p.add_argument("--overlay", action="append", default=[], metavar="SPEC",
                   help="with --screenshot: los:X,Y | reach:X,Y[:N] | graph (repeatable)")
    p.add_argument("--scale", type=_scale, default=1.0,
                   help="with --screenshot: image scale, 0.05 to 8 (1 = 32 px per tile)")
    p.add_argument("--layers", metavar="NAMES",
                   help="with --screenshot: comma-separated layers to hide, e.g. grid,coordinates")
    return p


def has_display() -> bool:
    """False on X11/Wayland systems with neither display set (and no platform
    override such as offscreen)."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return True
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


#: The shared libraries Qt's xcb platform plugin loads (``ldd libqxcb.so``) besides
#: Qt's own, with the Debian/Ubuntu package of each: a fresh desktop may lack some
#: (libxcb-cursor0, libxcb-icccm4, libxcb-keysyms1), and Qt then aborts with
#: "Could not load the Qt platform plugin xcb".
XCB_LIBRARIES = {
    "libxcb-cursor.so.0": "libxcb-cursor0", "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1", "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0", "libxcb-util.so.1": "libxcb-util1",
    "libxcb-randr.so.0": "libxcb-randr0", "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0", "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0", "libxcb-render.so.0": "libxcb-render0",
    "libxcb-xkb.so.1": "libxcb-xkb1", "libxcb.so.1": "libxcb1", "libX11-xcb.so.1": "libx11-xcb1",
    "libxkbcommon.so.0": "libxkbcommon0", "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
}


def loadable(soname: str) -> bool:
    """True if the shared library ``soname`` can be loaded (as Qt will load it)."""
    import ctypes

    try:
        ctypes.CDLL(soname)
    except OSError:
        return False
    return True


def missing_xcb_packages(found=None) -> list[str]:
    """The packages of the libraries Qt's xcb plugin needs that cannot be loaded, when
    Qt will use xcb: on Linux with ``DISPLAY`` set and ``QT_QPA_PLATFORM`` unset (and
    no Wayland display) or ``xcb``.  ``found`` says whether a library loads."""
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    xcb = platform == "xcb" or (not platform and bool(os.environ.get("DISPLAY"))
                                and not os.environ.get("WAYLAND_DISPLAY"))
    if not sys.platform.startswith("linux") or not xcb:
        return []
    found = found or loadable
    return [pkg for lib, pkg in XCB_LIBRARIES.items() if not found(lib)]


def missing_xcb_line(packages: Sequence[str]) -> str:
    return (f"sodwa-editor: Qt's xcb platform needs libraries this system lacks "
            f"({', '.join(packages)}); install them with: sudo apt install "
            f"{' '.join(packages)}")


def load_model(spec: str):
    """(model, path, problems) for a map file or ``sample:NAME``."""
    if spec.startswith("sample:"):
        from ..engine.samples import SAMPLE_MAPS

        name = spec.split(":", 1)[1]
        if name not in SAMPLE_MAPS:
            raise SystemExit(f"sodwa-editor: unknown sample {name!r} "
                             f"(known: {', '.join(SAMPLE_MAPS)})")
        return SAMPLE_MAPS[name](), None, []
    from ..io import read_map

    model, problems = read_map(Path(spec))
    return model, Path(spec), problems


_OVERLAY = re.compile(r"(?P<kind>los|reach):(?P<x>\d+),(?P<y>\d+)(?::(?P<n>\d+))?|graph")


def parse_overlay(spec: str) -> tuple[str, tuple[int, int] | None, int | None]:
    """``los:3,2`` -> ("los", (3, 2), None); ``reach:3,2:5`` -> ("reach", (3, 2), 5).

    Raises ``ValueError`` naming the overlay and the accepted forms.
    """
    from ..engine.model import MAX_MOVE

    shown = spec if len(spec) <= 40 else spec[:37] + "..."
    m = _OVERLAY.fullmatch(spec.strip())
    if m is None or (m["kind"] == "los" and m["n"] is not None):
        raise ValueError(f"bad overlay {shown!r}: use los:X,Y, reach:X,Y[:MOVE] or graph "
                         "(X, Y and MOVE whole numbers from 0)")
    if m["kind"] is None:
        return "graph", None, None
    if m["n"] and (len(m["n"]) > 9 or int(m["n"]) > MAX_MOVE):
        raise ValueError(f"bad overlay {shown!r}: MOVE is at most {MAX_MOVE}")
    if len(m["x"]) > 9 or len(m["y"]) > 9:
        raise ValueError(f"bad overlay {shown!r}: the tile is outside any map")
    return m["kind"], (int(m["x"]), int(m["y"])), (int(m["n"]) if m["n"] else None)


def _scale(text: str) -> float:
    """argparse type of ``--scale``: a number from 0.05 to 8."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.05 <= value <= 8:  # also refuses nan
        raise argparse.ArgumentTypeError(f"{text!r} is not a scale from 0.05 to 8")
    return value


def screenshot(args: argparse.Namespace) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if args.map is None:
        print("sodwa-editor: --screenshot needs a MAP", file=sys.stderr)
        return 2
    try:
        overlays = [parse_overlay(o) for o in args.overlay]
    except ValueError as exc:
        print(f"sodwa-editor: {exc}", file=sys.stderr)
        return 2
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(["sodwa-editor"])  # noqa: F841
    model, path, problems = load_model(args.map)
    if model is None:
        print(f"sodwa-editor: cannot open {args.map}:", file=sys.stderr)
        for p in problems:
            print(f"  {p.severity}: {p.location()}: {p.message}", file=sys.stderr)
        return 1
    from ..io.paths import refuse_output_among_inputs
    from ..io.problems import MapSaveError

    try:  # never replace the map with its picture (also through a link)
        refuse_output_among_inputs(args.screenshot, [path] if path else [])
    except MapSaveError as exc:
        print(f"sodwa-editor: {exc}", file=sys.stderr)
        return 2
    from .headless import render_map

    try:
        hidden = [s.strip() for s in (args.layers or "").split(",") if s.strip()]
        render_map(model, args.screenshot, overlays, scale=args.scale, hidden=hidden)
    except (ValueError, IndexError, OSError, ImportError) as exc:
        print(f"sodwa-editor: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.screenshot}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.screenshot is not None:
        return screenshot(args)
    if not has_display():
        print(NO_DISPLAY, file=sys.stderr)
        return 2
    missing = missing_xcb_packages()
    if missing:  # (before Qt, which would abort the process)
        print(missing_xcb_line(missing), file=sys.stderr)
        return 1
    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow

    app = QApplication.instance() or QApplication(["sodwa-editor"])
    app.setApplicationName("SODWA Editor")
    app.setOrganizationName("SODWA")
    win = MainWindow()
    win.show()
    recovered = win.offer_recovery()
    if args.map and not recovered:
        if args.map.startswith("sample:"):
            model, _p, _pr = load_model(args.map)
            win.document.reset(model, None)
        else:
            win.files.open_map(args.map, ask_save=False)
    return app.exec()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
