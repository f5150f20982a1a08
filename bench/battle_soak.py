"""Battle soak: many random-AI battles on generated maps, every invariant checked.

    python bench/battle_soak.py [--battles 1000] [--seed 0] [--min-size 8] [--max-size 16]
                                [--max-turns 300] [--no-check] [--verify-every 10]
                                [--roster FILE] [--flanking]

Battle ``k`` is fully determined by ``(--seed, k)``: a mixed map
(``engine/generate.py``) of a size in ``--min-size..--max-size``, two teams of 2-4
roster archetypes placed by formation into the map's start zones, and a battle
seed, all drawn from ``numpy.random.SeedSequence(seed, spawn_key=(k,))``.  Both
teams are played by the ``random`` controller (random legal actions), area abilities
included (the shipped roster's, or ``--roster FILE``'s): their uses are re-derived and
their effects checked too (docs/rules.md AB1-AB12), and the roster's Large and Huge
archetypes (their footprints checked: no overlap, none in a wall or across levels;
S21-S26).  Teams with a footprint that has no room on the map are refused (the rule,
S22), counted in ``refused_setups``, and drawn again from the same stream.  ``--flanking``
turns the rules key ``flanking.enabled`` on.

With checks on (the default) every action is re-derived through the engine's
public functions before it is applied and every state is checked after each turn
(``sodwa_editor/battle/invariants.py``): no two characters on a tile, nobody on
Obstructing terrain, HP never above max, every move within the movement range,
every attack legal by range, LoS and adjacency at the moment it was made.  Every
battle ends (the turn cap is ``--max-turns``).  Every ``--verify-every``-th battle
is played twice and must give the same event log and state hash.

It prints one JSON line (battles, seconds, battles/s and turns/s, results, event
counts, violations with the first few messages) and exits 1 if any invariant
broke.  ``tests/test_battle_properties.py`` runs a few hundred battles of it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sodwa_editor.battle import invariants  # noqa: E402
from sodwa_editor.battle.ai import make_controllers  # noqa: E402
from sodwa_editor.battle.jsonfiles import BattleInputError  # noqa: E402
from sodwa_editor.battle.loop import run_battle  # noqa: E402
from sodwa_editor.battle.rules import Rules, default_rules  # noqa: E402
from sodwa_editor.battle.sheet import Roster, load_roster  # noqa: E402
from sodwa_editor.battle.state import BattleState  # noqa: E402
from sodwa_editor.battle.teams import team_from_dict  # noqa: E402
from sodwa_editor.engine.generate import make_mixed_map  # noqa: E402

#: Team draws tried for one battle when a footprint has no room (then it is refused).
REDRAWS = 20


def setup(seed: int, k: int, min_size: int, max_size: int, rules: Rules,
          roster: Roster | None = None, refused: Counter[str] | None = None) -> BattleState:
    """Battle ``k`` of a soak seeded ``seed`` (map, teams and battle seed); the teams are
    drawn from ``roster`` (default the shipped one, whose area abilities take part)."""
    ss = np.random.SeedSequence(seed, spawn_key=(k,))
    rng = np.random.default_rng(ss)
    size = int(rng.integers(min_size, max_size + 1))
    model = make_mixed_map(size, seed=int(rng.integers(1 << 31)))
    roster = roster or load_roster()
    names = roster.names()
    battle_seed = ss.spawn(1)[0]
    for attempt in range(REDRAWS + 1):
        sides = []
        for side in ("red", "blue"):
            n = int(rng.integers(2, 5))
            members = [{"id": f"m{i}", "archetype": names[int(rng.integers(len(names)))]}
                       for i in range(n)]
            doc = {"format": "sodwa-team", "format_version": 1, "name": side,
                   "members": members}
            sides.append((side, team_from_dict(doc, roster), None))
        try:
            return BattleState.from_teams(model, sides, rules=rules, seed=battle_seed)
        except BattleInputError as exc:  # no room for large members (S22): draw again
            if refused is not None:
                refused[str(exc).split(" footprint")[0].split("'s ")[-1] + " footprint"] += 1
            if attempt == REDRAWS or not any(m.sheet.size != "medium" for _s, t, _f in sides
                                             for m in t.members):
                raise
    raise AssertionError("unreachable")


def play(state: BattleState, check: bool, problems: Counter[str], moves: bool = True) -> None:
    def before(s: BattleState, action: object) -> None:
        problems.update(invariants.action_problems(s, action,  # type: ignore[arg-type]
                                                   moves=moves))

    def after(s: BattleState) -> None:
        problems.update(invariants.state_problems(s))

    controllers = make_controllers(["random", "random"], state)
    if check:
        run_battle(state, controllers, before_action=before, after_turn=after)
        problems.update(invariants.state_problems(state))
    else:
        run_battle(state, controllers)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--battles", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--min-size", type=int, default=8)
    p.add_argument("--max-size", type=int, default=16)
    p.add_argument("--max-turns", type=int, default=300)
    p.add_argument("--no-check", action="store_true", help="skip the invariant checks")
    p.add_argument("--no-move-check", action="store_true",
                   help="skip re-deriving each move's range (the slowest check)")
    p.add_argument("--verify-every", type=int, default=10,
                   help="replay every N-th battle and compare (0: never)")
    p.add_argument("--flanking", action="store_true",
                   help="play with the rules key flanking.enabled on")
    p.add_argument("--roster", default=None,
                   help="roster file the teams are drawn from (default the shipped one)")
    args = p.parse_args(argv)
    roster = load_roster(args.roster) if args.roster else load_roster()
    if args.battles < 0 or not 8 <= args.min_size <= args.max_size or args.max_turns < 1:
        p.error("need --battles >= 0, 8 <= --min-size <= --max-size, --max-turns >= 1")
    base = default_rules()
    rules = dataclasses.replace(base, battle=dataclasses.replace(base.battle,
                                                                 max_turns=args.max_turns))
    if args.flanking:
        rules = dataclasses.replace(rules, flanking=dataclasses.replace(rules.flanking,
                                                                        enabled=True))
    problems: Counter[str] = Counter()
    results: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    turns = with_abilities = sized = 0
    refused: Counter[str] = Counter()
    start = time.perf_counter()
    for k in range(args.battles):
        state = setup(args.seed, k, args.min_size, args.max_size, rules, roster, refused)
        sized += state.sized
        play(state, not args.no_check, problems, not args.no_move_check)
        if state.result is None:
            problems[f"battle {k} did not end"] += 1
            continue
        winner = state.result.winner
        results["draw" if winner is None else f"team {winner}"] += 1
        turns += state.clock.turns
        kinds.update(e.kind for e in state.events)
        with_abilities += bool(state.abilities)
        if args.verify_every and k % args.verify_every == 0:
            again = setup(args.seed, k, args.min_size, args.max_size, rules, roster)
            play(again, False, problems)
            if ([e.to_dict() for e in again.events] != [e.to_dict() for e in state.events]
                    or again.state_hash() != state.state_hash()):
                problems[f"battle {k} is not reproducible"] += 1
    seconds = time.perf_counter() - start
    report = {
        "battles": args.battles, "seed": args.seed, "seconds": round(seconds, 2),
        "checked": not args.no_check, "moves_checked": not (args.no_check or args.no_move_check),
        "battles_per_s": round(args.battles / seconds, 2) if seconds else None,
        "turns_per_s": round(turns / seconds, 1) if seconds else None,
        "turns": turns, "results": dict(sorted(results.items())),
        "battles_with_area_abilities": with_abilities,
        "battles_with_large_creatures": sized,
        "refused_setups": dict(sorted(refused.items())),
        "events": dict(sorted(kinds.items())),
        "violations": sum(problems.values()),
        "first_violations": [f"{n} x {msg}" for msg, n in problems.most_common(5)],
    }
    print(json.dumps(report))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
