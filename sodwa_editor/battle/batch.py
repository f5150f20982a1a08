"""Batches of AI-vs-AI battles (issue 11 section 5, ``sodwa simulate``).

Battle ``i`` of a batch with root seed ``S`` is a pure function of the setup and
``(S, i)``: its seed is ``SeedSequence(S, spawn_key=(k,))`` -- the ``k``-th child
``SeedSequence(S).spawn`` would give -- with ``k = i``, or with ``--swap-sides``
``k = i // 2`` and the odd battles swapped (the same dice for both arrangements,
so the side comparison is paired) -- unless swapping changes nothing (both teams
played by the same AI and profile from the map's placed characters,
:meth:`.setup.BattleSetup.swap_repeats`): then ``k = i``, since a pair would be one
battle counted twice.  Battles run in chunks of consecutive
indices and the records are put back in index order, so the result is the same
for any number of workers and either backend.

Backends: ``process`` (the default: in this process for one worker, else a pool
of worker processes, each receiving the setup once through its initializer) and
``ray`` (:mod:`.batch_ray`: the same chunks as Ray tasks, the setup put once).

A record is a small plain dict (cheap to send between processes, JSON as is):
``index``, ``swapped``, ``winner`` (team or None), ``first_team`` (team of the
first turn), ``turns``, ``ticks``, ``chars`` (per battle index: ``[damage dealt,
damage taken, kills, survived, attacks, natural hits, expected natural hits]``),
``karma`` (per team: ``[gained, spent, rescues]``) and ``tiles``: per-tile counts
for the editor's heat map, ``{"defeated": [[x, y, n], ...], "attacked_from":
[[x, y, n], ...]}`` sorted by ``(y, x)`` -- where characters were defeated (the
``Defeated`` event's tile) and where attacks on characters were made from (the
attacker's tile, followed from its starting tile through its ``Moved`` events,
since ``Attacked`` carries no tile).  :mod:`.report` turns records into the
balance report.

Cancelling: ``cancel`` (a callable, polled between battles in this process and
every ``POLL`` seconds while a pool runs) makes :func:`run_batch` raise
:class:`BatchCancelled`; leaving the pool terminates and joins its workers, so
no process outlives the batch.  ``pool=True`` plays even one worker's battles in
a worker process (the editor: the battle never competes with the GUI thread for
the interpreter lock, and a cancel needs no battle to finish).

>>> from sodwa_editor.engine.generate import make_mixed_map
>>> from sodwa_editor.battle.setup import BattleSetup
>>> setup = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("random", "random"))
>>> recs = run_batch(setup, 4, seed=1, swap_sides=True)
>>> [r["index"] for r in recs], [r["swapped"] for r in recs]
([0, 1, 2, 3], [False, True, False, True])
"""

from __future__ import annotations

import gc
import math
import signal
from collections import Counter
from collections.abc import Callable
from multiprocessing import TimeoutError as PoolTimeout
from multiprocessing import get_context
from typing import Any

import numpy as np

from .events import Attacked, BattleEnded, Defeated, Moved, TurnStarted
from .jsonfiles import BattleInputError
from .loop import run_battle
from .setup import BattleSetup

Record = dict[str, Any]
Progress = Callable[[int, int], None]  # (battles done, battles in all)
Cancel = Callable[[], bool]  # True: stop the batch
BACKENDS = ("process", "ray")
#: Chunks per worker a batch is cut into (enough to balance uneven battle lengths) ...
CHUNKS_PER_WORKER = 8
#: ... but never more battles per chunk than this (progress stays live), nor fewer than 1.
MAX_CHUNK = 200
#: Seconds between two looks at ``cancel`` while waiting for a pool's next chunk.
POLL = 0.05


class BatchCancelled(Exception):
    """The batch was cancelled (``cancel`` returned True) before it was complete."""


def battle_seed(root: int, index: int, swap_sides: bool,
                repeats: bool = False) -> np.random.SeedSequence:
    """The seed of battle ``index`` (see the module docstring); ``repeats``: a swapped
    battle would repeat its pair (:meth:`.setup.BattleSetup.swap_repeats`), so every
    battle draws its own seed."""
    paired = swap_sides and not repeats
    return np.random.SeedSequence(root, spawn_key=(index // 2 if paired else index,))


def setup_seed(setup: BattleSetup, root: int, index: int,
               swap_sides: bool) -> np.random.SeedSequence:
    """The seed of battle ``index`` of a batch of ``setup``'s battles."""
    repeats = swap_sides and setup.swap_repeats() is not None
    return battle_seed(root, index, swap_sides, repeats)


def is_swapped(index: int, swap_sides: bool) -> bool:
    return swap_sides and index % 2 == 1


def play(setup: BattleSetup, root: int, index: int, swap_sides: bool) -> Record:
    """Play battle ``index`` of a batch and return its record."""
    swapped = is_swapped(index, swap_sides)
    state = setup.state(setup_seed(setup, root, index, swap_sides), swapped)
    where = list(state.pos)  # each character's tile, followed through the log
    out = run_battle(state, setup.controllers(state, swapped))
    n = len(state.team)
    defeated: Counter[tuple[int, int]] = Counter()
    attacked_from: Counter[tuple[int, int]] = Counter()
    chars = [[0, 0, 0, int(state.alive(i)), 0, 0, 0.0] for i in range(n)]
    karma = [[0, 0, 0], [0, 0, 0]]
    first_team = None
    end: BattleEnded | None = None
    for e in out.events:
        if isinstance(e, Attacked):
            a, t = chars[e.actor], chars[e.target]
            a[0] += e.damage
            t[1] += e.damage
            a[4] += 1
            a[5] += int(e.natural)
            a[6] += (101 - e.need_roll) / 100
            k = karma[state.team[e.actor]]
            k[0] += e.karma_gained
            k[1] += e.karma_spent
            k[2] += int(e.success and not e.natural)
            attacked_from[where[e.actor]] += 1
        elif isinstance(e, Moved):
            where[e.actor] = e.path[-1]
        elif isinstance(e, Defeated):
            chars[e.by][2] += 1
            defeated[e.tile] += 1
        elif isinstance(e, TurnStarted) and first_team is None:
            first_team = e.team
        elif isinstance(e, BattleEnded):
            end = e
    assert end is not None
    for c in chars:
        c[6] = round(c[6], 6)
    return {"index": index, "swapped": swapped, "winner": end.winner,
            "first_team": first_team, "turns": end.turns, "ticks": end.tick,
            "chars": chars, "karma": karma,
            "tiles": {"defeated": tile_counts(defeated),
                      "attacked_from": tile_counts(attacked_from)}}


def tile_counts(counts: Counter[tuple[int, int]]) -> list[list[int]]:
    """``[[x, y, n], ...]`` sorted by row then column (plain JSON, stable order)."""
    return [[int(x), int(y), n] for (x, y), n in sorted(counts.items(),
                                                        key=lambda kv: (kv[0][1], kv[0][0]))]


def play_chunk(setup: BattleSetup, root: int, start: int, stop: int, swap_sides: bool,
               *, worker: bool = False) -> list[Record]:
    """Battles ``start .. stop-1``; ``worker``: this process plays nothing but the
    batch's battles (:func:`settle_worker` after its first one)."""
    out = []
    for i in range(start, stop):
        out.append(play(setup, root, i, swap_sides))
        if worker:
            settle_worker()
    return out


_SETTLED = False


def settle_worker() -> None:
    """Once per worker process, after its first battle has loaded the compiled kernels
    and filled the board's caches: collect, then freeze what is left
    (:func:`gc.freeze`), so that the collector's full passes over the rest of the
    batch skip the ~150,000 objects the worker keeps to its end.  Each such pass
    took ~90 ms, 7 % of a worker's CPU on ``maps/indoor-compound.json``.  A worker
    process only: the objects frozen are never collected."""
    global _SETTLED
    if not _SETTLED:
        _SETTLED = True
        gc.collect()
        gc.freeze()


def chunks(battles: int, workers: int, size: int | None = None) -> list[tuple[int, int]]:
    """Consecutive ``[start, stop)`` index ranges covering ``battles``, of ``size``
    battles each (default: ``CHUNKS_PER_WORKER`` chunks per worker, at most
    ``MAX_CHUNK`` battles).  The chunks change only how often progress is told:
    the records are the same for any size."""
    if size is None:
        size = math.ceil(battles / (max(1, workers) * CHUNKS_PER_WORKER))
    size = max(1, min(MAX_CHUNK, size))
    return [(s, min(s + size, battles)) for s in range(0, battles, size)]


# ------------------------------------------------------------------ process backend
_WORKER_SETUP: BattleSetup | None = None


def _init_worker(setup: BattleSetup) -> None:
    """Keep the setup for every chunk of this worker; Ctrl+C is the parent's to handle
    (it cancels the batch), so a worker does not print a traceback of its own."""
    global _WORKER_SETUP
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_SETUP = setup


def _worker_chunk(task: tuple[int, int, int, bool]) -> tuple[int, list[Record]]:
    root, start, stop, swap_sides = task
    assert _WORKER_SETUP is not None
    return start, play_chunk(_WORKER_SETUP, root, start, stop, swap_sides, worker=True)


def run_batch(setup: BattleSetup, battles: int, *, seed: int = 0, swap_sides: bool = False,
              workers: int = 1, backend: str = "process", progress: Progress | None = None,
              cancel: Cancel | None = None, chunk_size: int | None = None,
              pool: bool = False) -> list[Record]:
    """Play battles ``0 .. battles-1`` and return their records in index order
    (``cancel``, ``chunk_size``, ``pool``: see the module docstring and :func:`chunks`;
    none of them changes a record)."""
    if backend not in BACKENDS:
        raise BattleInputError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if seed < 0:
        raise BattleInputError(f"the seed must be 0 or more, not {seed}")
    parts = chunks(battles, workers, chunk_size)
    if backend == "ray":
        from .batch_ray import run_ray

        results = run_ray(setup, parts, seed, swap_sides, workers, battles, progress)
    elif not pool and (workers <= 1 or len(parts) <= 1):
        results = {}
        done = 0
        for start, stop in parts:
            results[start] = []
            for i in range(start, stop):
                if cancel is not None and cancel():
                    raise BatchCancelled(f"cancelled after {done + i - start} of {battles} "
                                         "battles")
                results[start].append(play(setup, seed, i, swap_sides))
            done += stop - start
            if progress is not None:
                progress(done, battles)
    else:
        results = _run_pool(setup, parts, seed, swap_sides, workers, battles, progress, cancel)
    return [r for start, _stop in parts for r in results[start]]


def _run_pool(setup: BattleSetup, parts: list[tuple[int, int]], seed: int, swap_sides: bool,
              workers: int, battles: int, progress: Progress | None,
              cancel: Cancel | None = None) -> dict[int, list[Record]]:
    """The chunks on a pool of worker processes (each gets the setup once); leaving
    the pool, also on Ctrl+C, a cancel or a failed chunk, terminates the workers
    at once and waits for them (no orphan process)."""
    results: dict[int, list[Record]] = {}
    done = 0
    tasks = [(seed, a, b, swap_sides) for a, b in parts]
    with get_context("spawn").Pool(min(workers, len(parts)), _init_worker, (setup,)) as pool:
        it = pool.imap_unordered(_worker_chunk, tasks)
        while len(results) < len(parts):
            if cancel is not None and cancel():
                raise BatchCancelled(f"cancelled after {done} of {battles} battles")
            try:
                start, records = it.next(POLL if cancel is not None else None)
            except PoolTimeout:
                continue
            results[start] = records
            done += len(records)
            if progress is not None:
                progress(done, battles)
    return results
