"""A balance run off the GUI thread: :class:`BalanceRun` (a ``QThread``) makes the
very call ``sodwa simulate`` makes -- :func:`~sodwa_editor.battle.batch.run_batch`
then :func:`~sodwa_editor.battle.report.summarize`, with the same file names and
threshold -- so its result equals the CLI's for the same map, inputs and seed.

The battles are played in worker processes even for one worker (``pool=True``):
the thread only waits for their records, so the GUI thread keeps the interpreter
lock, and Cancel needs no battle to finish -- the batch notices within
``batch.POLL`` seconds, leaves its pool, and the pool's workers are terminated
and joined (no orphan process).  A worker process that dies (killed, out of
memory) costs only its chunk, played again by a new worker (``noticed`` says
so); past ``batch_pool.LOST_WORKERS_MAX`` lost workers the run fails with one
line, so the dialog never waits for a worker that is gone.  The
progress reaches the dialog as queued signals; the time left is estimated from
the battles done so far.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QThread, Signal

from ...battle.batch import BatchCancelled, BatchFailed, Record, run_batch
from ...battle.jsonfiles import BattleInputError
from ...battle.report import summarize
from ...battle.report_verdict import DEFAULT_THRESHOLD
from ...battle.setup import BattleSetup

#: The dialog cuts a run into chunks of about this fraction of it (progress and the
#: time left are told per chunk; the records do not depend on it).
PROGRESS_STEPS = 100


@dataclass(frozen=True)
class RunSettings:
    """What ``sodwa simulate`` is given: battles, seed, swapped sides, workers, the
    verdict's threshold (``--balanced-within``) and the team and profile files by name
    (for the report's entries, :class:`~sodwa_editor.battle.report.Tally`)."""

    battles: int
    seed: int = 0
    swap_sides: bool = False
    workers: int = 1
    threshold: int = DEFAULT_THRESHOLD
    names: Mapping[str, Sequence[str]] = field(default_factory=dict, hash=False)

    def chunk_size(self) -> int:
        return max(1, math.ceil(self.battles / PROGRESS_STEPS))


def time_left(done: int, total: int, elapsed: float) -> float | None:
    """Seconds left at the pace so far (None before the first battle is done)."""
    if done <= 0 or elapsed <= 0:
        return None
    return elapsed / done * (total - done)


def format_seconds(seconds: float | None) -> str:
    if seconds is None:
        return "estimating..."
    s = int(round(seconds))
    if s < 60:
        return f"{s} s left"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s left"
    return f"{s // 3600} h {s % 3600 // 60:02d} min left"


class BalanceRun(QThread):
    """One balance run; ``progressed(done, total)`` and ``noticed(line)`` (a lost
    worker replaced), then exactly one of ``succeeded(records, report)``,
    ``cancelled()`` or ``failed(message)``."""

    progressed = Signal(int, int)
    noticed = Signal(str)
    succeeded = Signal(object, object)
    cancelled = Signal()
    failed = Signal(str)

    def __init__(self, setup: BattleSetup, settings: RunSettings, parent: Any = None) -> None:
        super().__init__(parent)
        self.setup = setup
        self.settings = settings
        self._stop = threading.Event()
        self.started_at = time.monotonic()

    def cancel(self) -> None:
        self._stop.set()

    def run(self) -> None:  # the worker thread
        s = self.settings
        self.started_at = time.monotonic()
        try:
            records: list[Record] = run_batch(
                self.setup, s.battles, seed=s.seed, swap_sides=s.swap_sides,
                workers=s.workers, progress=self.progressed.emit, cancel=self._stop.is_set,
                chunk_size=s.chunk_size(), pool=True, notice=self.noticed.emit)
            report = summarize(self.setup, records, seed=s.seed, swap_sides=s.swap_sides,
                               names=s.names, threshold=s.threshold)
        except BatchCancelled:
            self.cancelled.emit()
        except BattleInputError as exc:
            self.failed.emit(str(exc))
        except BatchFailed as exc:  # workers lost beyond the batch's retries
            self.failed.emit(f"the balance run failed: {exc}")
        except Exception as exc:  # noqa: BLE001 -- a crashed worker: one line, no editor crash
            self.failed.emit(f"the balance run failed: {type(exc).__name__}: {exc}")
        else:
            self.succeeded.emit(records, report)
