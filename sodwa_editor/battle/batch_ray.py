"""The Ray backend of :mod:`.batch` (``sodwa simulate --backend ray``, optional extra
``pip install sodwa-editor[cluster]``).

The setup (map, rules, roster, teams, AI names) is put into Ray's object store
once (``ray.put``); each task plays one chunk of consecutive battles, exactly the
chunks the process backend plays, and a worker process deserializes the setup
once and keeps it for the following chunks.  Ray connects to the cluster named
by ``RAY_ADDRESS`` if set, else starts a local instance.  Records are put back in
index order by :func:`.batch.run_batch`, so the result equals the process
backend's.
"""

from __future__ import annotations

import os
from typing import Any

from .batch import Progress, Record, play_chunk
from .jsonfiles import BattleInputError
from .setup import BattleSetup

#: Setups already deserialized in this (Ray worker) process, by object id.
_SETUPS: dict[str, BattleSetup] = {}


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BattleInputError("the ray backend needs Ray, which is not installed: "
                               "pip install sodwa-editor[cluster]") from None
    return ray


def _chunk(boxed: list[Any], root: int, start: int, stop: int, swap_sides: bool
           ) -> list[Record]:
    """One Ray task: the setup comes boxed in a list so Ray passes its reference, not
    its value, and each worker process fetches it only once."""
    ray = _ray()
    ref = boxed[0]
    key = ref.hex()
    setup = _SETUPS.get(key)
    if setup is None:
        setup = _SETUPS[key] = ray.get(ref)
    return play_chunk(setup, root, start, stop, swap_sides, worker=True)


def run_ray(setup: BattleSetup, parts: list[tuple[int, int]], seed: int, swap_sides: bool,
            workers: int, battles: int, progress: Progress | None
            ) -> dict[int, list[Record]]:
    """Play ``parts`` as Ray tasks; ``workers`` caps the CPUs of a local instance."""
    ray = _ray()
    if not ray.is_initialized():
        ray.init(num_cpus=None if "RAY_ADDRESS" in os.environ else workers,
                 include_dashboard=False, logging_level="ERROR")
    task = ray.remote(_chunk)
    ref = ray.put(setup)
    pending = {task.remote([ref], seed, a, b, swap_sides): (a, b) for a, b in parts}
    results: dict[int, list[Record]] = {}
    done = 0
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for r in ready:
            a, b = pending.pop(r)
            results[a] = ray.get(r)
            done += b - a
            if progress is not None:
                progress(done, battles)
    return results
