"""What every backend of a batch shares (:mod:`.batch` runs a batch, :mod:`.batch_pool`
and :mod:`.batch_ray` are its backends; each imports this module and none imports
another backend, so there is no import circle): the seed of each battle, one
battle's record, the chunks a batch is cut into, and the batch's exceptions.

Battle ``i`` of a batch with root seed ``S`` is a pure function of the setup and
``(S, i)``: its seed is ``SeedSequence(S, spawn_key=(k,))`` -- the ``k``-th child
``SeedSequence(S).spawn`` would give -- with ``k = i``, or with ``--swap-sides``
``k = i // 2`` and the odd battles swapped (the same dice for both arrangements,
so the side comparison is paired) -- unless swapping changes nothing (both teams
played by the same AI and profile from the map's placed characters,
:meth:`.setup.BattleSetup.swap_repeats`): then ``k = i``, since a pair would be one
battle counted twice.  So a chunk of battles played again (its worker was lost)
gives the very same records.

A record is a small plain dict (cheap to send between processes, JSON as is):
``index``, ``swapped``, ``winner`` (team or None), ``first_team`` (team of the
first turn), ``turns``, ``ticks``, ``chars`` (per battle index: ``[damage dealt,
damage taken, kills, survived, attacks, natural hits, expected natural hits]``),
``karma`` (per team: ``[gained, spent, rescues]``) and ``tiles``: per-tile counts
for the editor's heat map, ``{"defeated": [[x, y, n], ...], "attacked_from":
[[x, y, n], ...]}`` sorted by ``(y, x)`` -- where characters were defeated (the
``Defeated`` event's tile) and where attacks on characters were made from (the
attacker's tile, followed from its starting tile through its ``Moved`` events,
since ``Attacked`` carries no tile) -- and ``abilities``: per character and area
ability used, its uses, victims, damage and kills (:func:`.ability_use.ability_rows`).
:mod:`.report` turns records into the balance report.
"""

from __future__ import annotations

import gc
import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from .ability_use import ability_rows
from .events import Attacked, BattleEnded, Defeated, Moved, TurnStarted
from .loop import run_battle
from .setup import BattleSetup

Record = dict[str, Any]
Progress = Callable[[int, int], None]  # (battles done, battles in all)
Cancel = Callable[[], bool]  # True: stop the batch
Notice = Callable[[str], None]  # one line about the batch (a lost worker replaced)
Deliver = Callable[[int, list[Record]], None]  # (first index of a chunk, its records)
#: Chunks per worker a batch is cut into (enough to balance uneven battle lengths) ...
CHUNKS_PER_WORKER = 8
#: ... but never more battles per chunk than this (progress stays live), nor fewer than 1.
MAX_CHUNK = 200
#: Seconds between two looks at ``cancel`` while waiting for a worker's next chunk.
POLL = 0.05


class BatchCancelled(Exception):
    """The batch was cancelled (``cancel`` returned True) before it was complete."""


class BatchFailed(Exception):
    """The batch could not be played to its end by its workers (worker processes lost
    beyond the retries, a Ray cluster unreachable or refusing us): one line saying
    what happened and what to do."""


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
            if e.by >= 0:  # a kill is a character's (B54: terrain and falls are nobody's)
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
                      "attacked_from": tile_counts(attacked_from)},
            "abilities": ability_rows(out.events)}


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


def battles_text(start: int, stop: int) -> str:
    """``battles 300-399`` (or ``battle 7``): the chunk a message is about."""
    return f"battle {start}" if stop - start == 1 else f"battles {start}-{stop - 1}"
