"""Batches of AI-vs-AI battles (issue 11 section 5, ``sodwa simulate``).

A batch plays battles ``0 .. N-1`` of a setup, battle ``i`` a pure function of the
setup and ``(root seed, i)`` (:mod:`.batch_play`: the seeds, the records, the
chunks).  Battles run in chunks of consecutive indices and the records reach the
caller in index order, so the result is the same for any number of workers and
either backend: :func:`run_batch` returns them as a list (the editor, tests);
:func:`stream_batch` hands each to a callback as soon as every battle before it is
in, so a caller that tallies them as they come (``sodwa simulate``,
:class:`.report.Tally`) keeps memory flat in the number of battles.

Backends: ``process`` (the default: in this process for one worker, else worker
processes of :mod:`.batch_pool`, which survive a lost worker by playing its chunk
again) and ``ray`` (:mod:`.batch_ray`: the same chunks as Ray tasks).  This module
imports each backend; no backend imports this module.

Cancelling: ``cancel`` (a callable, polled between battles in this process and
every ``POLL`` seconds while workers play) makes the batch raise
:class:`BatchCancelled`; leaving the workers terminates and joins them, so no
process outlives the batch.  ``pool=True`` plays even one worker's battles in a
worker process (the editor: the battle never competes with the GUI thread for the
interpreter lock, and a cancel needs no battle to finish).  A batch its workers
could not finish (:data:`.batch_pool.LOST_WORKERS_MAX` lost workers, a Ray
cluster that cannot be reached) raises :class:`BatchFailed` with one line.

>>> from sodwa_editor.engine.generate import make_mixed_map
>>> from sodwa_editor.battle.setup import BattleSetup
>>> setup = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("random", "random"))
>>> recs = run_batch(setup, 4, seed=1, swap_sides=True)
>>> [r["index"] for r in recs], [r["swapped"] for r in recs]
([0, 1, 2, 3], [False, True, False, True])
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from .batch_play import (
    CHUNKS_PER_WORKER,
    MAX_CHUNK,
    POLL,
    BatchCancelled,
    BatchFailed,
    Cancel,
    Notice,
    Progress,
    Record,
    battle_seed,
    chunks,
    is_swapped,
    play,
    play_chunk,
    settle_worker,
    setup_seed,
    tile_counts,
)
from .batch_pool import run_pool
from .jsonfiles import BattleInputError
from .setup import BattleSetup

__all__ = ["BACKENDS", "CHUNKS_PER_WORKER", "MAX_BATTLES", "MAX_CHUNK", "POLL",
           "BatchCancelled", "BatchFailed", "Record", "available_cores", "battle_seed",
           "chunks", "is_swapped", "play", "play_chunk", "run_batch", "settle_worker",
           "setup_seed", "stream_batch", "tile_counts"]

BACKENDS = ("process", "ray")
#: The most battles one batch plays (per map for ``sodwa simulate``): about two
#: hours of greedy battles on two cores; more is a mistake, or a job for a cluster
#: split into several batches of other seeds.
MAX_BATTLES = 1_000_000


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity): the most workers a batch
    starts unless told to oversubscribe (``sodwa simulate``, the editor's Balance Run)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        cores = os.cpu_count() or 1
    return max(1, cores)


class InOrder:
    """Takes chunks of records in any order and hands the records on in index order
    (a chunk that came early waits for the ones before it); counts the progress."""

    def __init__(self, battles: int, on_record: Callable[[Record], None],
                 progress: Progress | None) -> None:
        self.battles = battles
        self.on_record = on_record
        self.progress = progress
        self.waiting: dict[int, list[Record]] = {}
        self.next = 0  # the index of the next record to hand on
        self.done = 0

    def deliver(self, start: int, records: list[Record]) -> None:
        self.waiting[start] = records
        self.done += len(records)
        while self.next in self.waiting:
            chunk = self.waiting.pop(self.next)
            self.next += len(chunk)
            for r in chunk:
                self.on_record(r)
        if self.progress is not None:
            self.progress(self.done, self.battles)


def stream_batch(setup: BattleSetup, battles: int, on_record: Callable[[Record], None], *,
                 seed: int = 0, swap_sides: bool = False, workers: int = 1,
                 backend: str = "process", progress: Progress | None = None,
                 cancel: Cancel | None = None, chunk_size: int | None = None,
                 pool: bool = False, notice: Notice | None = None,
                 address: str | None = None) -> None:
    """Play battles ``0 .. battles-1`` and hand each record to ``on_record`` in index
    order (``cancel``, ``chunk_size``, ``pool``: see the module docstring and
    :func:`chunks`, none of them changes a record; ``notice``: one line when a lost
    worker is replaced; ``address``: the Ray cluster, :func:`.batch_ray.run_ray`)."""
    if backend not in BACKENDS:
        raise BattleInputError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if seed < 0:
        raise BattleInputError(f"the seed must be 0 or more, not {seed}")
    if not 0 <= battles <= MAX_BATTLES:
        raise BattleInputError(f"a batch plays 0 to {MAX_BATTLES:,} battles, not {battles}")
    order = InOrder(battles, on_record, progress)
    try:
        if backend == "ray":
            from .batch_ray import run_ray

            run_ray(setup, battles, seed, swap_sides, workers, order.deliver,
                    chunk_size=chunk_size, cancel=cancel, address=address)
            return
        parts = chunks(battles, workers, chunk_size)
        if not pool and (workers <= 1 or len(parts) <= 1):
            for start, stop in parts:
                played: list[Record] = []
                for i in range(start, stop):
                    if cancel is not None and cancel():
                        raise BatchCancelled(f"cancelled after {order.done + len(played)} "
                                             f"of {battles} battles")
                    played.append(play(setup, seed, i, swap_sides))
                order.deliver(start, played)
        else:
            run_pool(setup, parts, seed, swap_sides, workers, order.deliver, cancel, notice)
    except BatchCancelled as exc:
        if exc.args:
            raise
        raise BatchCancelled(f"cancelled after {order.done} of {battles} battles") from None


def run_batch(setup: BattleSetup, battles: int, **options: Any) -> list[Record]:
    """Play battles ``0 .. battles-1`` and return their records in index order (the
    options: :func:`stream_batch`'s)."""
    records: list[Record] = []
    stream_batch(setup, battles, records.append, **options)
    return records
