"""Work around a PySide6 reference-count bug on Python < 3.12.

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
"""

from __future__ import annotations

import ctypes
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
