"""The battle loop's own cost, without an AI's thinking: CPU ms per battle.

    python bench/battle_loop.py [--battles 4] [--runs 5]

Records ``--battles`` greedy-vs-greedy battles of ``sodwa bench battles`` (4 a side,
32x32 mixed map, battle ``k`` seed ``k``), then replays their decisions with
scripted controllers, ``--runs`` times (the best is printed), in two modes:

* ``loop``: the turn loop alone (next turn, begin turn, refusal, apply, events);
* ``view``: also, before every decision, the View calls a greedy AI makes (the
  actor's options, each enemy's movement range and turn wait, the TSB of 30 turns).

CPU time (``time.process_time``), so a shared machine's waits do not count.  The
board's caches are emptied before every run.  Run it with ``PYTHONPATH`` on another
checkout to compare.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from sodwa_editor.battle.actions import Action
from sodwa_editor.battle.ai import make_controllers
from sodwa_editor.battle.board import prepare
from sodwa_editor.battle.loop import View, run_battle
from sodwa_editor.battle.state import BattleState
from sodwa_editor.benchmarks import random_teams
from sodwa_editor.engine.generate import make_mixed_map


class Script:
    """Plays one team's recorded decisions; ``view``: first asks what greedy asks."""

    def __init__(self, items: list[tuple[int | None, Action | None]], view: bool) -> None:
        self.items, self.view, self.k = items, view, 0

    def choose_actor(self, view: View, candidates: Any) -> int:
        actor = self.items[self.k][0]
        self.k += 1
        assert actor is not None
        return actor

    def decide(self, view: View) -> Action:
        if self.view:
            view.options()
            for j in range(view.size):
                if view.alive(j) and view.team_of(j) != view.team:
                    view.reach(j, view.sheet(j).move)
                    view.ticks_until_turn(j)
            view.tsb(30)
        action = self.items[self.k][1]
        self.k += 1
        assert action is not None
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=4)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    model = make_mixed_map(32, seed=1)
    board = prepare(model)

    def battle(k: int) -> BattleState:
        return BattleState.from_teams(model, random_teams(k, 4),  # type: ignore[arg-type]
                                      seed=k, board=board)

    records = []
    for k in range(args.battles):
        state = battle(k)
        out = run_battle(state, make_controllers(["greedy", "greedy"], state))
        records.append([[(d.actor, d.action) for d in out.decisions if d.team == t]
                        for t in (0, 1)])
    decisions = sum(len(r[0]) + len(r[1]) for r in records)
    for mode in ("loop", "view"):
        best = float("inf")
        for _ in range(args.runs + 1):  # the first run warms up
            getattr(board, "reaches", {}).clear()  # (older checkouts have none)
            total = 0.0
            for k, teams in enumerate(records):
                state = battle(k)
                players = [Script(teams[0], mode == "view"), Script(teams[1], mode == "view")]
                t0 = time.process_time()
                run_battle(state, players)
                total += time.process_time() - t0
            best = min(best, total)
        print(f"{mode}: {best / args.battles * 1000:.1f} ms a battle, "
              f"{best / decisions * 1e6:.1f} us a decision ({decisions} decisions)")


if __name__ == "__main__":
    main()
