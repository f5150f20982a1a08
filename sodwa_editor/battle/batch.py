"""Batches of AI-vs-AI battles (issue 11 section 5, ``sodwa simulate``).

Battle ``i`` of a batch with root seed ``S`` is a pure function of the setup and
``(S, i)``: its seed is ``SeedSequence(S, spawn_key=(k,))`` -- the ``k``-th child
``SeedSequence(S).spawn`` would give -- with ``k = i``, or with ``--swap-sides``
``k = i // 2`` and the odd battles swapped (the same dice for both arrangements,
so the side comparison is paired).  Battles run in chunks of consecutive
indices and the records are put back in index order, so the result is the same
for any number of workers and either backend.

Backends: ``process`` (the default: in this process for one worker, else a pool
of worker processes, each receiving the setup once through its initializer) and
``ray`` (:mod:`.batch_ray`: the same chunks as Ray tasks, the setup put once).

A record is a small plain dict (cheap to send between processes, JSON as is):
``index``, ``swapped``, ``winner`` (team or None), ``first_team`` (team of the
first turn), ``turns``, ``ticks``, ``chars`` (per battle index: ``[damage dealt,
damage taken, kills, survived, attacks, natural hits, expected natural hits]``)
and ``karma`` (per team: ``[gained, spent, rescues]``).  :mod:`.report` turns
records into the balance report.

>>> from sodwa_editor.engine.generate import make_mixed_map
>>> from sodwa_editor.battle.setup import BattleSetup
>>> setup = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("random", "random"))
>>> recs = run_batch(setup, 4, seed=1, swap_sides=True)
>>> [r["index"] for r in recs], [r["swapped"] for r in recs]
([0, 1, 2, 3], [False, True, False, True])
"""

from __future__ import annotations

import math
import signal
from collections.abc import Callable
from multiprocessing import get_context
from typing import Any

import numpy as np

from .events import Attacked, BattleEnded, Defeated, TurnStarted
from .jsonfiles import BattleInputError
from .loop import run_battle
from .setup import BattleSetup

Record = dict[str, Any]
Progress = Callable[[int, int], None]  # (battles done, battles in all)
BACKENDS = ("process", "ray")
#: Chunks per worker a batch is cut into (enough to balance uneven battle lengths) ...
CHUNKS_PER_WORKER = 8
#: ... but never more battles per chunk than this (progress stays live), nor fewer than 1.
MAX_CHUNK = 200


def battle_seed(root: int, index: int, swap_sides: bool) -> np.random.SeedSequence:
    """The seed of battle ``index`` (see the module docstring)."""
    return np.random.SeedSequence(root, spawn_key=(index // 2 if swap_sides else index,))


def is_swapped(index: int, swap_sides: bool) -> bool:
    return swap_sides and index % 2 == 1


def play(setup: BattleSetup, root: int, index: int, swap_sides: bool) -> Record:
    """Play battle ``index`` of a batch and return its record."""
    swapped = is_swapped(index, swap_sides)
    state = setup.state(battle_seed(root, index, swap_sides), swapped)
    out = run_battle(state, setup.controllers(state, swapped))
    n = len(state.team)
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
        elif isinstance(e, Defeated):
            chars[e.by][2] += 1
        elif isinstance(e, TurnStarted) and first_team is None:
            first_team = e.team
        elif isinstance(e, BattleEnded):
            end = e
    assert end is not None
    for c in chars:
        c[6] = round(c[6], 6)
    return {"index": index, "swapped": swapped, "winner": end.winner,
            "first_team": first_team, "turns": end.turns, "ticks": end.tick,
            "chars": chars, "karma": karma}


def play_chunk(setup: BattleSetup, root: int, start: int, stop: int, swap_sides: bool
               ) -> list[Record]:
    return [play(setup, root, i, swap_sides) for i in range(start, stop)]


def chunks(battles: int, workers: int) -> list[tuple[int, int]]:
    """Consecutive ``[start, stop)`` index ranges covering ``battles``."""
    size = max(1, min(MAX_CHUNK, math.ceil(battles / (max(1, workers) * CHUNKS_PER_WORKER))))
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
    return start, play_chunk(_WORKER_SETUP, root, start, stop, swap_sides)


def run_batch(setup: BattleSetup, battles: int, *, seed: int = 0, swap_sides: bool = False,
              workers: int = 1, backend: str = "process", progress: Progress | None = None
              ) -> list[Record]:
    """Play battles ``0 .. battles-1`` and return their records in index order."""
    if backend not in BACKENDS:
        raise BattleInputError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if seed < 0:
        raise BattleInputError(f"the seed must be 0 or more, not {seed}")
    parts = chunks(battles, workers)
    if backend == "ray":
        from .batch_ray import run_ray

        results = run_ray(setup, parts, seed, swap_sides, workers, battles, progress)
    elif workers <= 1 or len(parts) <= 1:
        results = {}
        done = 0
        for start, stop in parts:
            results[start] = play_chunk(setup, seed, start, stop, swap_sides)
            done += stop - start
            if progress is not None:
                progress(done, battles)
    else:
        results = _run_pool(setup, parts, seed, swap_sides, workers, battles, progress)
    return [r for start, _stop in parts for r in results[start]]


def _run_pool(setup: BattleSetup, parts: list[tuple[int, int]], seed: int, swap_sides: bool,
              workers: int, battles: int, progress: Progress | None
              ) -> dict[int, list[Record]]:
    """The chunks on a pool of worker processes (each gets the setup once); leaving
    the pool, also on Ctrl+C or a failed chunk, terminates the workers at once."""
    results: dict[int, list[Record]] = {}
    done = 0
    tasks = [(seed, a, b, swap_sides) for a, b in parts]
    with get_context("spawn").Pool(min(workers, len(parts)), _init_worker, (setup,)) as pool:
        for start, records in pool.imap_unordered(_worker_chunk, tasks):
            results[start] = records
            done += len(records)
            if progress is not None:
                progress(done, battles)
    return results
