"""Engine benchmarks behind ``sodwa bench`` and ``bench/run.py``.

Each metric times one piece of engine work with :func:`time.perf_counter` after
a warm-up (which also triggers numba compilation) and reports the median.  A
metric's value is in the unit its name ends with (``_ms`` milliseconds, ``_us``
microseconds).  Where python-tcod is installed, its symmetric shadowcast FOV on
the same transparency grid is timed as a reference line.

A designer's machine is rarely idle, so every LoS fan metric (and its tcod
reference) is also timed with one busy background process (``python -c
"while True: pass"``, started before and stopped after that metric): the
``_busy_ms`` twin of each name.
"""

from __future__ import annotations

import contextlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np

from .bench_battles import (  # noqa: F401 - the battle benchmarks, re-exported for callers
    BattleMetric,
    _p95_ms,
    _python_reference,
    _Timed,
    ability_speed,
    format_battle_table,
    huge_speed,
)
from .bench_teams import (  # noqa: F401 - the team builders, re-exported for callers
    ability_rosters,
    ability_teams,
    huge_teams,
    medium_names,
    random_teams,
)

if TYPE_CHECKING:
    from .engine.model import MapModel


@dataclass(frozen=True)
class Metric:
    name: str
    work: str
    must: float
    goal: float
    run: Callable[[], Callable[[], object]]  # setup -> timed callable
    repeat: int = 30
    reference: str | None = None  # name of the tcod reference metric
    busy: bool = False  # timed with one busy background process


@dataclass(frozen=True)
class Result:
    name: str
    work: str
    median_ms: float  # in the metric's own unit (see module docstring)
    must: float | None
    goal: float | None
    reference: str | None = None


def _unit_scale(name: str) -> float:
    return 1e6 if name.endswith("_us") else 1e3


def _open(n: int) -> MapModel:
    from .engine.generate import make_open_map

    return make_open_map(n)


def _mixed(n: int) -> MapModel:
    from .engine.generate import make_mixed_map

    return make_mixed_map(n, seed=1)


def _fan(make: Callable[[], MapModel]) -> Callable[[], Callable[[], object]]:
    def setup() -> Callable[[], object]:
        from .engine.los import los_fan

        model = make()
        centre = (model.width // 2, model.height // 2)
        los_fan(model, centre)
        return lambda: los_fan(model, centre)

    return setup


def _single() -> Callable[[], object]:
    from .engine.los import los

    model = _open(128)
    los(model, (0, 0), (127, 127))
    return lambda: los(model, (0, 0), (127, 127))


def _reach() -> Callable[[], object]:
    from .engine.movement import reach

    model = _mixed(128)
    start = _free_tile_near_centre(model)
    reach(model, start, 12)
    return lambda: reach(model, start, 12, team="bench")


def _reach_footprint(make: Callable[[], MapModel]) -> Callable[[], Callable[[], object]]:
    """Movement range of a Huge (4x4) creature with Move 12 (issue 26: <= 0.5 ms on the
    mixed 128x128 map) from the anchor nearest the centre whose 16 tiles are Clear."""
    def setup() -> Callable[[], object]:
        from .engine.footprint import Footprint
        from .engine.footprint_movement import footprint_reach

        model = make()
        fp = Footprint(4, 4)
        start = _free_tile_near_centre(model, fp)
        footprint_reach(model, start, fp, 12)
        return lambda: footprint_reach(model, start, fp, 12, team="bench")

    return setup


def _area(text: str, **kw: object) -> Callable[[], Callable[[], object]]:
    """One area of effect query (issue 25: <= 1 ms on a 128x128 map with Reach 10) from
    a clear tile near the centre of the mixed 128x128 map."""
    def setup() -> Callable[[], object]:
        from .engine.area_notation import parse_area
        from .engine.areas import area

        model = _mixed(128)
        start = _free_tile_near_centre(model)
        spec = parse_area(text)
        area(model, spec, start, **kw)  # type: ignore[arg-type]
        return lambda: area(model, spec, start, **kw)  # type: ignore[arg-type]

    return setup


def _free_tile_near_centre(model, footprint=None) -> tuple[int, int]:
    """The tile nearest the centre that is Clear and free (with ``footprint``: the
    anchor nearest the centre whose every tile is, and where it may stand)."""
    from .engine.footprint import MEDIUM, cannot_stand
    from .engine.terrain import Base

    fp = footprint or MEDIUM
    cx, cy = model.width // 2, model.height // 2
    for r in range(model.width):
        for y in range(cy - r, cy + r + 1):
            for x in range(cx - r, cx + r + 1):
                squares = fp.squares((x, y))
                if (all(model.in_bounds(*t) and model.base_at(*t) is Base.CLEAR
                        and model.character_at(*t) is None for t in squares)
                        and (fp == MEDIUM or cannot_stand(model, (x, y), fp) is None)):
                    return (x, y)
    raise ValueError("no clear tile")


def _adjacency_build() -> Callable[[], object]:
    from .engine.adjacency_graph import AdjacencyGraph

    model = _mixed(128)
    AdjacencyGraph(model)
    return lambda: AdjacencyGraph(model)


def _adjacency_patch() -> Callable[[], object]:
    from .engine.adjacency_graph import AdjacencyGraph

    model = _mixed(128)
    graph = AdjacencyGraph(model)  # listens to the model and patches itself
    rng = np.random.default_rng(7)
    ids = np.array([0, 1, 2, 3, 4])

    def edit() -> object:
        x, y = (int(v) for v in rng.integers(1, 127, size=2))
        model.set_terrain(x, y, int(rng.choice(ids)))
        return graph

    return edit


def _load_validate() -> Callable[[], object]:
    from .io import read_map, save_map

    model = _mixed(256)
    path = Path(tempfile.mkdtemp(prefix="sodwa-bench-")) / "mixed256.json"
    save_map(model, path)

    def load() -> object:
        loaded, problems = read_map(path)
        assert loaded is not None, problems
        return loaded

    return load


def _tcod(make: Callable[[], MapModel]) -> Callable[[], Callable[[], object]]:
    def setup() -> Callable[[], object]:
        import tcod.constants
        import tcod.map

        from .engine.los import los_inputs

        model = make()
        inp = los_inputs(model)
        transparency = np.ascontiguousarray((inp.tile_los < 2) & ~inp.occ)
        pov = (model.height // 2, model.width // 2)

        def fov() -> object:
            return tcod.map.compute_fov(
                transparency, pov, radius=0, light_walls=True,
                algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST,
            )

        return fov

    return setup


METRICS = [
    Metric("los_fan_128_open_ms", "LoS fan from the centre of an open 128x128 map", 16, 3,
           _fan(lambda: _open(128)), reference="tcod_fov_128_open_ms"),
    Metric("los_fan_256_open_ms", "LoS fan from the centre of an open 256x256 map", 150, 33,
           _fan(lambda: _open(256)), repeat=10, reference="tcod_fov_256_open_ms"),
    Metric("los_fan_128_mixed_ms", "LoS fan, 128x128 mixed map", 16, 3,
           _fan(lambda: _mixed(128)), reference="tcod_fov_128_mixed_ms"),
    Metric("los_single_us", "one LoS query across 127 tiles (diagonal)", 100, 30, _single,
           repeat=2000),
    Metric("reach_128_move12_ms", "movement range, Move 12, mixed 128x128", 2, 0.5, _reach,
           repeat=200),
    Metric("reach_128_4x4_move12_ms", "movement range of a 4x4 (Huge) creature, Move 12, "
           "mixed 128x128", 0.5, 0.25, _reach_footprint(lambda: _mixed(128)), repeat=200),
    Metric("reach_128_open_4x4_move12_ms", "movement range of a 4x4 (Huge) creature, Move "
           "12, open 128x128 (625 positions)", 0.5, 0.25, _reach_footprint(lambda: _open(128)),
           repeat=200),
    Metric("area_blast_sphere_128_reach10_ms", "Blast Sphere, Reach 10, damage 9, mixed "
           "128x128", 1, 0.25, _area("AoE - Blast - Sphere: 10", damage=9), repeat=100),
    Metric("area_engulf_sphere_128_reach10_ms", "Engulf Sphere (flood), Reach 10, mixed "
           "128x128", 1, 0.25, _area("AoE - Engulf - Sphere: 10"), repeat=100),
    Metric("area_rail_128_reach2_ms", "Blast Rail, Range 20, Reach 2, damage 9, mixed "
           "128x128", 1, 0.25, _area("AoE - Blast - Rail: Range: 20, Reach: 2",
                                     direction="NE", damage=9), repeat=100),
    Metric("adjacency_build_128_ms", "whole adjacency graph, mixed 128x128", 50, 10,
           _adjacency_build, repeat=10),
    Metric("adjacency_patch_ms", "adjacency update after one tile change", 1, 0.1,
           _adjacency_patch, repeat=300),
    Metric("load_validate_256_ms", "load + schema + semantic validation, 256x256 file", 500,
           100, _load_validate, repeat=10),
]

REFERENCES = [
    Metric("tcod_fov_128_open_ms", "tcod symmetric shadowcast, open 128x128", 0, 0,
           _tcod(lambda: _open(128))),
    Metric("tcod_fov_256_open_ms", "tcod symmetric shadowcast, open 256x256", 0, 0,
           _tcod(lambda: _open(256)), repeat=10),
    Metric("tcod_fov_128_mixed_ms", "tcod symmetric shadowcast, mixed 128x128", 0, 0,
           _tcod(lambda: _mixed(128))),
]


def busy_twin(metric: Metric) -> Metric:
    """The same metric timed with one busy background process (``_busy`` before
    the unit in its name)."""
    stem, unit = metric.name.rsplit("_", 1)
    ref = metric.reference
    return replace(metric, name=f"{stem}_busy_{unit}",
                   work=f"{metric.work}, one busy background process", busy=True,
                   reference=None if ref is None else busy_twin_name(ref))


def busy_twin_name(name: str) -> str:
    stem, unit = name.rsplit("_", 1)
    return f"{stem}_busy_{unit}"


@contextlib.contextmanager
def busy_process() -> Iterator[subprocess.Popen]:
    """One process spinning on a core for as long as the block runs."""
    proc = subprocess.Popen([sys.executable, "-c", "while True: pass"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    try:
        time.sleep(0.2)  # let it reach its loop
        yield proc
    finally:
        proc.kill()
        proc.wait()


def _fan_metrics(metrics: list[Metric]) -> list[Metric]:
    """Each metric, followed by its busy twin when it times a LoS fan or a tcod FOV."""
    out = []
    for m in metrics:
        out.append(m)
        if m.name.startswith(("los_fan_", "tcod_fov_")):
            out.append(busy_twin(m))
    return out


def _time(metric: Metric, repeat: int | None) -> Result:
    if metric.busy:
        with busy_process():
            return _time(replace(metric, busy=False), repeat)
    fn = metric.run()
    for _ in range(3):
        fn()
    samples = []
    for _ in range(repeat or metric.repeat):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    median = statistics.median(samples) * _unit_scale(metric.name)
    is_ref = metric.must == 0
    return Result(metric.name, metric.work, median, None if is_ref else metric.must,
                  None if is_ref else metric.goal, metric.reference)


def run_all(*, repeat: int | None = None, progress: TextIO | None = None) -> list[Result]:
    """Run every metric (and the tcod references when tcod is installed)."""
    metrics = list(METRICS)
    try:
        import tcod  # noqa: F401
    except ImportError:
        if progress:
            print("python-tcod not installed: reference lines skipped", file=progress)
    else:
        metrics += REFERENCES
    metrics = _fan_metrics(metrics)
    results = []
    for metric in metrics:
        if progress:
            print(f"  {metric.name} ...", file=progress, flush=True)
        results.append(_time(metric, repeat))
    return results


def format_table(results: list[Result]) -> str:
    by_name = {r.name: r for r in results}
    lines = ["| metric | median | must | goal | verdict | tcod reference (ratio) |",
             "|---|---|---|---|---|---|"]
    for r in results:
        if r.must is None:
            continue
        verdict = ("goal met" if r.median_ms <= (r.goal or 0)
                   else "must met" if r.median_ms <= r.must else "MISSED")
        ref = by_name.get(r.reference or "")
        ref_text = f"{ref.median_ms:.3f} ({r.median_ms / ref.median_ms:.1f}x)" if ref else ""
        lines.append(f"| `{r.name}` | {r.median_ms:.3f} | <= {r.must:g} | <= {r.goal:g} | "
                     f"{verdict} | {ref_text} |")
    for r in results:
        if r.must is None:
            lines.append(f"| `{r.name}` (reference) | {r.median_ms:.3f} | | | | |")
    return "\n".join(lines)


# ---------------------------------------------------------------------- battles
def run_battles(*, battles: int = 8, size: int = 32, members: int = 4,
                expectimax_turns: int = 40, progress: TextIO | None = None
                ) -> list[BattleMetric]:
    """``sodwa bench battles``: ``battles`` greedy-vs-greedy battles of ``members``
    a side on one ``size`` x ``size`` mixed map (full default rules, the board
    prepared once and shared), then ``expectimax_turns`` expectimax decisions in
    battles against greedy.  Battle ``k`` uses seed ``k``; sides alternate.  Times
    are CPU times of this process (battles per CPU-second of one core, decisions in
    this thread's CPU time): on a shared machine wall time measures the other load."""
    from .battle.ai import make_controllers
    from .battle.board import prepare
    from .battle.loop import run_battle
    from .battle.state import BattleState
    from .engine.generate import make_mixed_map

    model = make_mixed_map(size, seed=1)
    board = prepare(model)

    def battle(k: int) -> BattleState:
        return BattleState.from_teams(model, random_teams(k, members),  # type: ignore[arg-type]
                                      seed=k, board=board)

    warm = battle(10_000)  # numba compilation and the board's caches
    run_battle(warm, make_controllers(["greedy", "greedy"], warm))
    decisions: list[float] = []
    total = 0.0
    for k in range(battles):
        if progress:
            print(f"  greedy battle {k + 1}/{battles} ...", file=progress, flush=True)
        state = battle(k)
        controllers = [_Timed(c, decisions)
                       for c in make_controllers(["greedy", "greedy"], state)]
        t0 = time.process_time()  # CPU seconds: "per core", robust to other load
        run_battle(state, controllers)  # type: ignore[arg-type]
        total += time.process_time() - t0
    work = f"greedy vs greedy, {members}v{members}, {size}x{size} mixed map, full rules"
    out = [BattleMetric("battles_per_s_core", work, battles / total, 25, 100, True),
           BattleMetric("ai_turn_p95_ms", "greedy AI decision, same battles",
                        _p95_ms(decisions), 20, 5, False)]
    searched: list[float] = []
    k = 0
    while len(searched) < expectimax_turns:
        if progress:
            print(f"  expectimax decisions {len(searched)}/{expectimax_turns} ...",
                  file=progress, flush=True)
        state = battle(k)
        names = ["expectimax", "greedy"] if k % 2 == 0 else ["greedy", "expectimax"]
        players: list[Any] = list(make_controllers(names, state))
        players[k % 2] = _Timed(players[k % 2], searched)
        # stop the battle once enough decisions are timed (the figure is per decision)
        cap = replace(state.rules.battle, max_turns=2 * (expectimax_turns - len(searched)) + 2)
        state.rules = replace(state.rules, battle=cap)
        run_battle(state, players)
        k += 1
    out.append(BattleMetric("expectimax_turn_p95_ms",
                            "expectimax AI decision (depth 2), against greedy, same map",
                            _p95_ms(searched), 200, 50, False))
    return (out + ability_speed(battles, model, board, members, progress)
            + huge_speed(battles, model, board, members, battles / total, progress)
            + machine_references())


def machine_references() -> list[BattleMetric]:
    """Reference figures of this machine from the same run, for comparing battle
    figures across machines: a fixed pure-Python workload (the battle's figures are
    mostly interpreter time) and, when python-tcod is installed, its FOV on the mixed
    128x128 map (the engine benchmark's reference).  ``must == goal == 0``: no
    verdict."""
    out = [BattleMetric("python_reference_ms",
                        "fixed pure-Python workload (20,000 objects, dict and arithmetic)",
                        _python_reference(), 0, 0, False)]
    try:
        import tcod  # noqa: F401
    except ImportError:
        return out
    tcod_ref = next(m for m in REFERENCES if m.name == "tcod_fov_128_mixed_ms")
    timed = _time(tcod_ref, 50)  # the engine benchmark's own timing of its reference
    out.append(BattleMetric(timed.name, timed.work, timed.median_ms, 0, 0, False))
    return out
