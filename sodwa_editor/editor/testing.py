"""Helpers for driving the map view with real mouse and key events (tests,
benchmarks, scripted demos).  Positions are in tile units: (2.5, 3.5) is the
centre of tile (2, 3); (3.0, 3.5) lies on the edge between (2, 3) and (3, 3)."""

from __future__ import annotations

import statistics
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QGraphicsView

from .style import TILE

if TYPE_CHECKING:
    from ..engine.model import MapModel
    from .main_window import MainWindow

Left = Qt.MouseButton.LeftButton
Right = Qt.MouseButton.RightButton
NoMod = Qt.KeyboardModifier.NoModifier
Shift = Qt.KeyboardModifier.ShiftModifier


def view_point(view: QGraphicsView, fx: float, fy: float) -> QPoint:
    return view.mapFromScene(QPointF(fx * TILE, fy * TILE))


def _send(view: QGraphicsView, kind: QEvent.Type, fx: float, fy: float,
          button: Qt.MouseButton, buttons: Qt.MouseButton,
          modifiers: Qt.KeyboardModifier, settle: bool = True) -> None:
    vp = view.viewport()
    local = QPointF(view_point(view, fx, fy))
    glob = QPointF(vp.mapToGlobal(local.toPoint()))
    event = QMouseEvent(kind, local, glob, button, buttons, modifiers)
    QApplication.sendEvent(vp, event)
    if settle:
        QApplication.processEvents()  # let 0 ms timers (scene flush, previews) run


def press(view, fx, fy, button=Left, modifiers=NoMod) -> None:
    _send(view, QEvent.Type.MouseButtonPress, fx, fy, button, button, modifiers)


def move(view, fx, fy, buttons=Qt.MouseButton.NoButton, modifiers=NoMod,
         settle: bool = True) -> None:
    """A mouse move; with ``settle`` the events it posted (timers, repaints) are
    processed before it returns, without only the view's handlers have run."""
    _send(view, QEvent.Type.MouseMove, fx, fy, Qt.MouseButton.NoButton, buttons, modifiers,
          settle)


def release(view, fx, fy, button=Left, modifiers=NoMod) -> None:
    _send(view, QEvent.Type.MouseButtonRelease, fx, fy, button, Qt.MouseButton.NoButton,
          modifiers)


def click(view, fx, fy, button=Left, modifiers=NoMod) -> None:
    move(view, fx, fy)
    press(view, fx, fy, button, modifiers)
    release(view, fx, fy, button, modifiers)


def click_tile(view, x: int, y: int, button=Left, modifiers=NoMod) -> None:
    click(view, x + 0.5, y + 0.5, button, modifiers)


def drag(view, points: Iterable[tuple[float, float]], button=Left, modifiers=NoMod,
         release_at_end: bool = True) -> None:
    """Press at the first point, move through the others, release at the last."""
    pts = list(points)
    move(view, *pts[0])
    press(view, *pts[0], button, modifiers)
    for p in pts[1:]:
        move(view, *p, button, modifiers)
    if release_at_end:
        release(view, *pts[-1], button, modifiers)


def drag_tiles(view, tiles: Iterable[tuple[int, int]], button=Left, modifiers=NoMod,
               release_at_end: bool = True) -> None:
    drag(view, [(x + 0.5, y + 0.5) for x, y in tiles], button, modifiers, release_at_end)


class WindowFactory:
    """Creates main windows for tests with private settings and recovery
    folders, shown, active and at 100% zoom; ``close_all`` closes them without
    the unsaved-changes prompt."""

    def __init__(self, qtbot, folder) -> None:
        self.qtbot = qtbot
        self.folder = folder
        self.windows: list = []

    def __call__(self, model=None, path=None, *, recovery_dir=None):
        from PySide6.QtCore import QSettings

        from ..engine.model import MapModel
        from .main_window import MainWindow

        settings = QSettings(str(self.folder / "settings.ini"), QSettings.Format.IniFormat)
        win = MainWindow(model if model is not None else MapModel(12, 10), path,
                         settings=settings,
                         recovery_dir=recovery_dir or self.folder / "recovery")
        win.show()
        self.qtbot.waitExposed(win)
        win.raise_()
        win.activateWindow()
        try:  # shortcuts need an active window; a second window may not get it
            self.qtbot.waitUntil(win.isActiveWindow, timeout=1000)
        except Exception:  # noqa: BLE001
            if hasattr(win.windowHandle(), "requestActivate"):
                win.windowHandle().requestActivate()
        win.view.setFocus()
        win.view.zoom_reset()
        m = win.document.model
        win.view.centerOn(m.width * TILE / 2, m.height * TILE / 2)
        self.windows.append(win)
        return win

    def close_all(self) -> None:
        for win in self.windows:
            win.document.undo_stack.setClean()
            if win.team_editor is not None:  # no unsaved-team prompt either
                win.team_editor.team.undo_stack.setClean()
            win.close()
            win.deleteLater()
        self.windows.clear()


def bench_window(model: MapModel, path: Path | None = None, size: tuple[int, int] = (1400, 900),
                 folder: Path | None = None) -> MainWindow:
    """A main window on ``model`` for benchmarks and scripts: its settings and
    recovery files in ``folder`` (a new temporary folder by default, never the
    user's), resized, shown and laid out (the QApplication is made if there is
    none yet)."""
    from PySide6.QtCore import QSettings

    from .main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    tmp = folder if folder is not None else Path(tempfile.mkdtemp(prefix="sodwa-bench-"))
    win = MainWindow(model, path,
                     settings=QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat),
                     recovery_dir=tmp / "recovery")
    win.resize(*size)
    win.show()
    app.processEvents()
    return win


def percentiles(samples_ms: Iterable[float]) -> dict[str, float]:
    """``p50``, ``p95`` and ``max`` of latency samples in milliseconds, as the editor's
    latency benchmarks report them (p95: the sample of rank ``int(0.95 * (n - 1))``
    in sorted order)."""
    s = sorted(samples_ms)
    if not s:
        raise ValueError("no samples")
    return {"p50": statistics.median(s), "p95": s[int(0.95 * (len(s) - 1))], "max": s[-1]}


def format_percentiles(stats: dict[str, float]) -> str:
    """``p50 1.2 ms, p95 3.4 ms, max 5.6 ms`` (the keys :func:`percentiles` gives)."""
    return ", ".join(f"{k} {stats[k]:.1f} ms" for k in ("p50", "p95", "max") if k in stats)
