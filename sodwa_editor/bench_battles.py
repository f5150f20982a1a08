"""Battle benchmarks behind ``sodwa bench battles``: greedy-vs-greedy battles per
CPU second, AI decision times, and the Huge-creature and abilities speed ratios.

Times are CPU times (:func:`time.process_time` / :func:`time.thread_time`), so time
slices lost to other processes on a shared machine do not count.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np

from .bench_teams import ability_rosters, ability_teams, huge_teams


@dataclass(frozen=True)
class BattleMetric:
    """One battle figure: ``value`` in the unit its name ends with (``_per_s`` or
    ``_core``: higher is better; ``_ms``: lower is better)."""

    name: str
    work: str
    value: float
    must: float
    goal: float
    higher_is_better: bool


class _Timed:
    """A controller wrapper that records the CPU time of each decision (this thread's
    CPU clock, so time slices lost to other processes on a shared machine do not
    count)."""

    def __init__(self, inner: object, samples: list[float]) -> None:
        self.inner, self.samples = inner, samples

    def choose_actor(self, view: object, candidates: object) -> int:
        t0 = time.thread_time()
        out = self.inner.choose_actor(view, candidates)  # type: ignore[attr-defined]
        self.samples.append(time.thread_time() - t0)
        return out

    def decide(self, view: object) -> object:
        t0 = time.thread_time()
        out = self.inner.decide(view)  # type: ignore[attr-defined]
        self.samples.append(time.thread_time() - t0)
        return out


def _p95_ms(samples: list[float]) -> float:
    return float(np.percentile(np.array(samples), 95)) * 1000 if samples else float("nan")


def huge_speed(battles: int, model: Any, board: Any, members: int, without: float,
               progress: TextIO | None = None) -> list[BattleMetric]:
    """Greedy battles with one Huge creature a side (:func:`huge_teams`: the first member
    of each :func:`random_teams` team a Giant, the same seeds as ``battles_per_s_core``'s
    battles), and their rate over ``without``, that figure (issue 26: at least 70 %)."""
    from .battle.ai import make_controllers
    from .battle.loop import run_battle
    from .battle.state import BattleState

    def seconds(k: int) -> float:
        state = BattleState.from_teams(model, huge_teams(k, members),  # type: ignore[arg-type]
                                       seed=k, board=board)
        t0 = time.process_time()
        run_battle(state, make_controllers(["greedy", "greedy"], state))
        return time.process_time() - t0

    seconds(10_000)  # warm, as the figure without was: the footprint code
    total = 0.0
    for k in range(battles):
        if progress:
            print(f"  Huge battles {k + 1}/{battles} ...", file=progress, flush=True)
        total += seconds(k)
    work = (f"greedy vs greedy, {members}v{members}, one Huge (4x4) creature a side, the "
            "benchmark's map and seeds")
    rate = battles / total
    return [BattleMetric("battles_per_s_core_huge", work, rate, 25, 100, True),
            BattleMetric("huge_speed_ratio", "over battles_per_s_core (issue 26)",
                         rate / without, 0.7, 1.0, True)]


def ability_speed(battles: int, model: Any, board: Any, members: int,
                  progress: TextIO | None = None) -> list[BattleMetric]:
    """Greedy battles with area abilities in both teams (:func:`ability_teams`) and the
    same teams with the abilities taken off, alternated battle by battle (CPU seconds),
    and their ratio (issue 25: at least 70 %)."""
    from .battle.ai import make_controllers
    from .battle.loop import run_battle
    from .battle.state import BattleState

    with_roster, bare_roster = ability_rosters()
    casters = [a.name for a in with_roster.archetypes if a.abilities]

    def seconds(k: int, roster: Any) -> float:
        state = BattleState.from_teams(model, ability_teams(k, members, roster, casters),  # type: ignore[arg-type]
                                       seed=k, board=board)
        t0 = time.process_time()
        run_battle(state, make_controllers(["greedy", "greedy"], state))
        return time.process_time() - t0

    seconds(10_000, with_roster)  # warm: the abilities' code and the board's areas
    seconds(10_000, bare_roster)
    with_s = bare_s = 0.0
    for k in range(battles):
        if progress:
            print(f"  ability battles {k + 1}/{battles} (with, then without) ...",
                  file=progress, flush=True)
        with_s += seconds(k, with_roster)
        bare_s += seconds(k, bare_roster)
    work = (f"greedy vs greedy, {members}v{members}, 2+ area-ability archetypes a side, the "
            "benchmark's map")
    rate_with, rate_bare = battles / with_s, battles / bare_s
    return [BattleMetric("battles_per_s_core_abilities", work, rate_with, 25, 100, True),
            BattleMetric("battles_per_s_core_abilities_off",
                         "the same teams and seeds, abilities taken off", rate_bare, 25, 100,
                         True),
            BattleMetric("abilities_speed_ratio", "the first over the second (issue 25)",
                         rate_with / rate_bare, 0.7, 1.0, True)]


def _python_reference() -> float:
    """CPU ms of a fixed pure-Python workload (calls, attribute and dict lookups,
    integer arithmetic: what most of a battle's time is spent on), median of 15."""
    class Cell:
        __slots__ = ("x", "y")

        def __init__(self, x: int, y: int) -> None:
            self.x, self.y = x, y

    def work() -> int:
        seen: dict[tuple[int, int], int] = {}
        total = 0
        for i in range(20_000):
            c = Cell(i % 97, i % 89)
            key = (c.x, c.y)
            seen[key] = seen.get(key, 0) + 1
            total += c.x * c.y
        return total + len(seen)

    samples = []
    for _ in range(15):
        t0 = time.thread_time()
        work()
        samples.append(time.thread_time() - t0)
    return statistics.median(samples) * 1000


def format_battle_table(results: list[BattleMetric]) -> str:
    lines = ["| metric | value | must | goal | verdict |", "|---|---|---|---|---|"]
    for r in results:
        if r.must == 0 and r.goal == 0:
            lines.append(f"| `{r.name}` (machine reference) | {r.value:.3f} | | | |")
            continue
        if r.higher_is_better:
            verdict = ("goal met" if r.value >= r.goal else "must met" if r.value >= r.must
                       else "MISSED")
            bounds = f">= {r.must:g} | >= {r.goal:g}"
        else:
            verdict = ("goal met" if r.value <= r.goal else "must met" if r.value <= r.must
                       else "MISSED")
            bounds = f"<= {r.must:g} | <= {r.goal:g}"
        lines.append(f"| `{r.name}` | {r.value:.3f} | {bounds} | {verdict} |")
    return "\n".join(lines)
