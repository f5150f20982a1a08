"""The process backend of :mod:`.batch`: worker processes of its own, one chunk of
battles at a time each, so that the batch knows which chunk every worker holds.

Each worker is a ``spawn`` process with a pipe of its own: it receives the setup
once (the first message on its pipe), then ``(root, start, stop, swap_sides)``
tasks, and sends back each chunk's records.  The setup goes through the pipe, not
as the process's argument: ``multiprocessing`` writes a spawned process's
arguments into a pipe whose reading end it keeps open itself until the write is
done, so a worker that died while starting (killed during its imports, before
reading them) left the write of a setup larger than a pipe's buffer (64 KiB: a
128 x 128 map) blocked forever.  Sent on the worker's own pipe, which only the
worker reads, a dead worker's setup fails at once (``BrokenPipeError``) and the
worker is replaced as any lost worker.  The parent waits on every worker's pipe and process
at once (:func:`multiprocessing.connection.wait`), so a worker that dies -- killed
(``kill -9``, the kernel's out-of-memory killer), crashed -- is noticed at once,
and only the chunk it held is lost: a new worker plays that chunk again.  Battles
are pure functions of their seeds (:mod:`.batch_play`), so the records are those
of an undisturbed batch.  The batch survives at most :data:`LOST_WORKERS_MAX` lost
workers; one more stops it with :class:`.batch_play.BatchFailed` (one line).

A worker that is stopped (SIGSTOP, a debugger: state ``T``/``t`` in ``/proc``) while
it holds a chunk would hold the batch forever: after :data:`STOPPED_GRACE` seconds
stopped it is killed and lost like a dead worker.  Stopped time is counted only
while the parent itself runs: when the whole job is suspended (Ctrl+Z) and
resumed, the parent notices the gap in its own watch and starts counting again,
so a resumed batch loses nobody.  Where there is no ``/proc``, no worker is seen
stopped.

No queue, lock or semaphore is shared with the workers (only pipes), so a batch
ended by a signal leaves nothing behind for the resource tracker to warn about.
Leaving :func:`run_pool` any way -- the end, Ctrl+C, SIGTERM turned into an
exception by the caller, a cancel, a failed chunk -- terminates the workers still
running and waits for each (no process outlives the batch).  A worker whose parent
is gone stops quietly at its next send or receive.
"""

from __future__ import annotations

import contextlib
import pickle
import signal
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing import get_context
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from .batch_play import (
    POLL,
    BatchCancelled,
    BatchFailed,
    Cancel,
    Deliver,
    Notice,
    battles_text,
    play_chunk,
)
from .setup import BattleSetup

#: Worker processes a batch may lose (each loss costs only the chunk the worker
#: held, played again by a new worker); one more stops the batch.
LOST_WORKERS_MAX = 3
#: Seconds a worker gets to leave on its own at the end before it is terminated.
JOIN_TIMEOUT = 5.0
#: Seconds a worker holding a chunk may stay stopped before it is killed and lost.
STOPPED_GRACE = 10.0
#: Seconds between two looks at the workers' states; a gap over
#: :data:`WATCH_RESET` seconds (the parent was suspended too) restarts the count.
WATCH_EVERY = 0.5
WATCH_RESET = 5.0

Task = tuple[int, int, int, bool]


def worker_main(conn: Connection) -> None:
    """A worker process: take the setup, then play the chunks the parent sends until
    it sends None.  Ctrl+C is the parent's to handle (it cancels the batch); a
    parent that is gone (its end of the pipe closed) ends the worker without a word."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        setup: BattleSetup = pickle.loads(conn.recv_bytes())
        while (task := conn.recv()) is not None:
            root, start, stop, swap_sides = task
            try:
                reply: tuple[str, int, Any] = (
                    "done", start, play_chunk(setup, root, start, stop, swap_sides,
                                              worker=True))
            except Exception as exc:  # noqa: BLE001 -- the parent raises it again
                reply = ("error", start, _picklable(exc))
            conn.send(reply)
    except (EOFError, OSError):  # the parent is gone (BrokenPipeError is an OSError)
        return


def _picklable(exc: Exception) -> Exception:
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 -- any failure to pickle: send its text instead
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


@dataclass(eq=False)
class Worker:
    """A worker process, the parent's end of its pipe and the chunk it is playing."""

    process: BaseProcess
    conn: Connection
    chunk: tuple[int, int] | None = None
    stopped_since: float | None = None


def process_state(pid: int) -> str:
    """The one-letter state of a process in ``/proc/PID/stat`` (``R``, ``S``, ``T``
    stopped, ``t`` traced, ...); ``""`` where it cannot be read."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (OSError, ValueError):
        return ""
    return stat[stat.rindex(")") + 2:][:1]


def how_it_ended(process: BaseProcess) -> str:
    """``was killed by SIGKILL`` or ``exited with status 1``: why a worker is gone."""
    process.join(1.0)
    code = process.exitcode
    if code is None:
        return "closed its pipe"
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """While a worker is started: a worker inherits an ignored SIGINT, so a Ctrl+C
    during its first second (importing the engine) prints nothing in it either.
    The main thread only (the editor starts batches from another thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


class Pool:
    """The workers of one batch (see the module docstring)."""

    def __init__(self, setup: BattleSetup, seed: int, swap_sides: bool,
                 parts: list[tuple[int, int]], notice: Notice | None) -> None:
        self.ctx = get_context("spawn")
        self.setup = pickle.dumps(setup, pickle.HIGHEST_PROTOCOL)  # (once for all workers)
        self.seed = seed
        self.swap_sides = swap_sides
        self.todo: deque[tuple[int, int]] = deque(parts)
        self.left = len(parts)
        self.notice = notice
        self.workers: list[Worker] = []
        self.lost = 0
        self.watched = time.monotonic()

    def start_workers(self, count: int = 1) -> None:
        """Start ``count`` workers, then send each the setup and its first chunk (a
        worker reads its setup once it has imported the engine, about a second: the
        workers import at the same time)."""
        started = []
        for _ in range(count):
            parent, child = self.ctx.Pipe()
            process = self.ctx.Process(target=worker_main, args=(child,), daemon=True,
                                       name="sodwa-batch-worker")
            with _sigint_ignored():
                process.start()
            child.close()  # (the worker holds the only other end: a dead worker's pipe breaks)
            started.append(Worker(process, parent))
        self.workers += started
        for worker in started:
            with contextlib.suppress(OSError):  # it died already: noticed through its process
                worker.conn.send_bytes(self.setup)
            self.hand_out(worker)

    def hand_out(self, worker: Worker) -> None:
        """Send the worker the next chunk, or tell it to leave when none is left."""
        worker.chunk = self.todo.popleft() if self.todo else None
        task: Task | None = None
        if worker.chunk is not None:
            task = (self.seed, *worker.chunk, self.swap_sides)
        with contextlib.suppress(OSError):  # it died already: noticed through its process
            worker.conn.send(task)
        if task is None:
            self.retire(worker)

    def retire(self, worker: Worker) -> None:
        self.workers.remove(worker)
        worker.conn.close()
        worker.process.join(JOIN_TIMEOUT)

    def lose(self, worker: Worker, why: str | None = None) -> None:
        """A worker died (or was killed for being stopped, ``why`` saying so): put its
        chunk back first in line and start another worker -- or stop the batch when
        it has lost too many."""
        why = why or how_it_ended(worker.process)
        self.workers.remove(worker)
        worker.conn.close()
        self.lost += 1
        held = f" while playing {battles_text(*worker.chunk)}" if worker.chunk else ""
        if self.lost > LOST_WORKERS_MAX:
            raise BatchFailed(f"a worker process {why}{held}; {self.lost} workers lost, more "
                              f"than the {LOST_WORKERS_MAX} a batch survives: stopped (short "
                              "of memory? see dmesg)")
        if worker.chunk is not None:
            self.todo.appendleft(worker.chunk)
        if self.notice is not None:
            again = ""
            if worker.chunk is not None:
                them = "it" if worker.chunk[1] - worker.chunk[0] == 1 else "them"
                again = f"; a new worker plays {them} again"
            self.notice(f"a worker process {why}{held}{again} ({self.lost} of the "
                        f"{LOST_WORKERS_MAX} lost workers a batch survives)")
        if self.todo:
            self.start_workers()

    def receive(self, worker: Worker, deliver: Deliver) -> None:
        """Take a worker's reply, or notice that it died."""
        try:
            kind, start, body = worker.conn.recv()
        except (EOFError, OSError):
            self.lose(worker)
            return
        if kind == "error":
            raise body
        worker.chunk = None
        self.left -= 1
        self.hand_out(worker)  # (its next chunk first: the worker never waits for the tally)
        deliver(start, body)

    def watch_stopped(self) -> None:
        """Kill and lose a worker that has held its chunk stopped for
        :data:`STOPPED_GRACE` seconds of the parent's own running time."""
        now = time.monotonic()
        if now - self.watched < WATCH_EVERY:
            return
        gap, self.watched = now - self.watched, now
        for worker in list(self.workers):
            pid = worker.process.pid
            state = process_state(pid) if worker.chunk is not None and pid else ""
            if state not in ("T", "t") or gap > WATCH_RESET:
                worker.stopped_since = None if state not in ("T", "t") else now
                continue
            if worker.stopped_since is None:
                worker.stopped_since = now
            elif now - worker.stopped_since >= STOPPED_GRACE:
                worker.process.kill()  # (SIGKILL ends a stopped process too)
                worker.process.join(JOIN_TIMEOUT)
                what = "stopped" if state == "T" else "stopped by a tracer"
                self.lose(worker, f"was {what} for {now - worker.stopped_since:.0f} s and "
                                  "killed")

    def run(self, workers: int, deliver: Deliver, cancel: Cancel | None) -> None:
        self.start_workers(min(workers, len(self.todo)))
        while self.left:
            if cancel is not None and cancel():
                raise BatchCancelled()  # (the batch says how far it got)
            self.watch_stopped()
            ends: dict[Any, Worker] = {w.conn: w for w in self.workers}
            ends.update((w.process.sentinel, w) for w in self.workers)
            ready = wait(list(ends), POLL if cancel is not None else WATCH_EVERY)
            seen: set[int] = set()
            for end in ready:
                worker = ends[end]
                if id(worker) in seen or worker not in self.workers:
                    continue
                seen.add(id(worker))
                if worker.conn.poll():  # a reply (or the end of the pipe: it died)
                    self.receive(worker, deliver)
                elif not worker.process.is_alive():
                    self.lose(worker)

    def close(self) -> None:
        """Terminate every worker still running and wait for each."""
        for w in self.workers:
            if w.process.is_alive():
                w.process.terminate()
        for w in self.workers:
            w.process.join(JOIN_TIMEOUT)
            if w.process.is_alive():
                w.process.kill()
                w.process.join()
            w.conn.close()
        self.workers.clear()


def run_pool(setup: BattleSetup, parts: list[tuple[int, int]], seed: int, swap_sides: bool,
             workers: int, deliver: Deliver, cancel: Cancel | None = None,
             notice: Notice | None = None) -> None:
    """Play ``parts`` on ``workers`` worker processes, handing each chunk's records to
    ``deliver`` as it comes (in any order); see the module docstring."""
    pool = Pool(setup, seed, swap_sides, parts, notice)
    try:
        pool.run(workers, deliver, cancel)
    finally:
        pool.close()
