"""Runs the LoS fan kernel on the calling thread, helped by one worker thread
when the work is large enough to pay for it.

A machine is rarely idle.  numba's ``parallel=True`` splits the rows evenly
between its threads up front and waits for the slowest: with one core busy
elsewhere, the thread that lands on it holds every fan up for a whole time
slice (a 128x128 fan went from 0.4 ms to 8 ms).  Here the caller computes
chunks of rows from the top (:func:`.los_kernel.fan_lead`) while the helper
computes them from the bottom into a buffer of its own
(:func:`.los_kernel.fan_help`); the caller takes over every chunk the helper
has not finished when it gets there and **never waits for it**, and neither
holds a lock or the GIL while computing.  A descheduled helper costs at most
the chunk it was on, done again by the caller; on a quiet machine two cores
share the fan.  Chunks the helper finishes are read through a 255 sentinel,
so a result not yet visible to the caller is computed again, never read stale.

Small fans (fewer than :data:`SERIAL_BELOW` targets) run on the calling
thread alone: waking the helper costs more than it saves.
"""

from __future__ import annotations

import os
import queue
import threading

import numpy as np

from .los_kernel import fan_help, fan_lead, fan_rows

#: fans with fewer targets to compute than this run on the calling thread only
SERIAL_BELOW = 4096
#: rows per chunk
CHUNK_ROWS = 4


class _Helper:
    """One daemon thread that takes its share of whatever fan it is handed."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[tuple] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="sodwa-los-fan", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            fan_help(*self.jobs.get())


_helper: _Helper | None = None
_helper_lock = threading.Lock()


def run(args: tuple, mask: np.ndarray, out: np.ndarray) -> None:
    """Compute ``out`` where ``mask`` is set; ``args`` are the kernel's leading
    arguments (``ax, ay, ctx, tcs, ecs, scs, sats, tg``)."""
    global _helper
    targets = int(np.count_nonzero(mask))
    if targets == 0:
        return
    if targets < SERIAL_BELOW or (os.cpu_count() or 1) < 2:
        fan_rows(*args, mask, out, 0)  # type: ignore[call-arg]  # numba stubs
        return
    n = -(-out.shape[0] // CHUNK_ROWS)
    help_buf = np.full(out.shape, 255, np.uint8)
    taken = np.zeros(n, np.uint8)
    done = np.zeros(n, np.uint8)
    with _helper_lock:
        if _helper is None:
            _helper = _Helper()
        _helper.jobs.put((*args, mask, help_buf, taken, done, CHUNK_ROWS))
    fan_lead(*args, mask, out, help_buf, taken, done, CHUNK_ROWS)  # type: ignore[call-arg]
