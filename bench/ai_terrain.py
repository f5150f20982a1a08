"""Strength and speed of the AI's terrain terms (docs/battle-ai.md, *Terrain properties*).

    python bench/ai_terrain.py [--seeds 40] [--plans 12]

Plays greedy against greedy on the outdoor sample painted with the seed's presets
(``bench/terrain_properties.py``'s map), one side with the terrain-aware profile
(``resources/ai-profile-terrain.json``; its ``terrain.plans`` replaced by ``--plans``),
the other with every terrain weight 0 (the AI before it valued properties), each seed
twice with the sides swapped, and prints the wins of each and the draws, with the
battles per CPU-second of the run.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

from sodwa_editor.battle.ai.greedy import Greedy
from sodwa_editor.battle.ai.profile import (
    TERRAIN_PROFILE,
    Profile,
    TerrainWeights,
    load_profile,
)
from sodwa_editor.battle.loop import run_battle
from sodwa_editor.battle.state import BattleState
from sodwa_editor.benchmarks import random_teams


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # (the sibling script)
    from terrain_properties import props_map

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--plans", type=int, default=None,
                        help="terrain.plans of the terrain side (default: the profile's)")
    args = parser.parse_args()
    model = props_map()
    shipped = load_profile(TERRAIN_PROFILE)
    terrain = shipped.terrain if args.plans is None else replace(shipped.terrain,
                                                                  plans=float(args.plans))
    valued = Profile(shipped.greedy, shipped.expectimax, terrain)
    blind = Profile(shipped.greedy, shipped.expectimax, TerrainWeights())
    wins = {"terrain": 0, "no terrain": 0, "draw": 0}
    start = time.process_time()
    for seed in range(args.seeds):
        for swap in (False, True):
            teams = [(z, t, f) for z, (_, t, f) in zip(("north", "south"),
                                                       random_teams(seed, 4), strict=True)]
            state = BattleState.from_teams(model, teams, seed=seed)
            profiles = [blind, valued] if swap else [valued, blind]
            assert state.streams is not None
            run_battle(state, [Greedy(t, state.streams.ai[t], profiles[t]) for t in range(2)])
            assert state.result is not None
            winner = state.result.winner
            wins["draw" if winner is None else
                 "terrain" if profiles[winner] is valued else "no terrain"] += 1
    spent = time.process_time() - start
    print(f"terrain.plans {terrain.plans:g}: terrain {wins['terrain']}, no terrain "
          f"{wins['no terrain']}, draws {wins['draw']} ({2 * args.seeds} battles, "
          f"{2 * args.seeds / spent:.2f} battles per CPU-second)")


if __name__ == "__main__":
    main()
