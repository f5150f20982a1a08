"""Work around a PySide6 reference-count bug on Python < 3.12, and keep Qt's
raster painting on the GUI thread.

PySide6 6.12 returns ``None`` from void C++ methods (``QPainterPath.lineTo``,
``QPainter.drawRect``, ...) without taking a reference to it.  On Python 3.12+
``None`` is immortal and nothing happens; on 3.11 every such call lowers
``None``'s reference count by one, and after a few thousand calls (about 5000
at start-up) the interpreter aborts with "Fatal Python error: none_dealloc".
An editor makes millions of such calls.

:func:`protect_none` measures the leak with a harmless call; if it is there,
it raises ``None``'s reference count by 2**48 (``None`` is never deallocated
anyway), so the process can make ~10**14 leaking calls.  It is a no-op on
Python 3.12+ and on PySide6 builds without the bug.

:func:`serial_raster` turns off Qt's GUI thread pool (``QT_NO_GUI_THREADPOOL``,
read once, when Qt first wants the pool): the raster engine hands every fill
of 96 rows or more (a scaled image, a cached item's pixmap over a region of
several rectangles) to that pool in 64-row pieces and waits for them.  For the
editor's repaints, a tile or a graph chunk wide, the hand-over and the wait
cost more than the fill, and when the other core is busy the GUI thread waits
for the pool's time slice (as numba's parallel LoS fan did, see docs/editor.md).
"""

from __future__ import annotations

import ctypes
import os
import sys

BOOST = 1 << 48
_done = False


def leaks_none() -> bool:
    """Whether void PySide6 methods drop a reference to ``None``."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QPainterPath

    path = QPainterPath()
    point = QPointF(1.0, 2.0)
    before = sys.getrefcount(None)
    for _ in range(50):
        path.lineTo(point)
    return sys.getrefcount(None) < before - 25


def protect_none() -> bool:
    """Apply the workaround once if needed; True when it was applied."""
    global _done
    if _done or sys.version_info >= (3, 12):
        return False
    _done = True
    if not leaks_none():
        return False
    ctypes.c_ssize_t.from_address(id(None)).value += BOOST
    return True


def serial_raster() -> None:
    """Paint on the calling thread only (see the module doc); before Qt first
    paints, which importing the editor package is.  A value already in the
    environment is left as it is (Qt only asks whether the variable is set)."""
    os.environ.setdefault("QT_NO_GUI_THREADPOOL", "1")
