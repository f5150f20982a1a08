"""Battle event-log digests, to check that a speed change kept every battle the same.

    PYTHONPATH=/path/to/other/checkout python bench/battle_digests.py > a.txt
    python bench/battle_digests.py > b.txt
    diff a.txt b.txt

Plays a fixed set of seeded battles (greedy, random and expectimax controllers in
several pairings, on 32x32, 24x24 and 16x16 mixed maps; expectimax battles capped at
30 turns) with the code found first on the path, and prints one line per battle:
its setup, the number of events and a digest of the event log, every controller
decision, the state hash after every turn and the result.  Two checkouts that play
the same battles print the same lines.  ``--quick``: every fourth battle only.
``--roster FILE``: the teams are drawn from that roster (default the shipped one);
battles without abilities are compared across a change of the shipped roster with a
roster that has none::

    python bench/battle_digests.py --roster tests/data/roster-v1-no-abilities.json

The digest covers what the battle is; what the log adds for a reader without
changing any battle is left out (:data:`FOR_READERS`: issue 28's line-of-sight
class, awareness, what is left of a feature, the first-tie event), so a checkout
before those additions and one after print the same lines.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import replace

import sodwa_editor
from sodwa_editor.battle.ai import make_controllers
from sodwa_editor.battle.board import Board, prepare
from sodwa_editor.battle.loop import run_battle
from sodwa_editor.battle.state import BattleState
from sodwa_editor.benchmarks import random_teams
from sodwa_editor.engine.generate import make_mixed_map
from sodwa_editor.engine.model import MapModel

Case = tuple[int, int, tuple[str, str], int]

#: Event keys (by kind) and event kinds the log carries only for a reader: they follow
#: from the battle's inputs and its other events (issue 28, docs/battle-log.md).
FOR_READERS: dict[str, tuple[str, ...]] = {"attacked": ("los", "aware"),
                                           "area_hit": ("los", "aware"),
                                           "terrain_attacked": ("left",)}
READER_EVENTS = frozenset({"first_tie"})


def battle_part(event: dict[str, object]) -> dict[str, object] | None:
    """An event's dict without what :data:`FOR_READERS` names (None: a reader's event)."""
    kind = str(event["kind"])
    if kind in READER_EVENTS:
        return None
    drop = FOR_READERS.get(kind, ())
    return {k: v for k, v in event.items() if k not in drop}


def cases(quick: bool) -> list[Case]:
    """``(map size, members a side, AI names, seed)`` of every battle."""
    out: list[Case] = []
    for size, members, seeds in ((32, 4, range(8)), (16, 3, range(6)), (24, 4, range(6))):
        for pair in (("greedy", "greedy"), ("random", "random"), ("greedy", "random"),
                     ("random", "greedy")):
            out += [(size, members, pair, s) for s in seeds
                    if pair == ("greedy", "greedy") or s < 3]
    out += [(20, 3, ("expectimax", "greedy"), 0), (20, 3, ("greedy", "expectimax"), 1)]
    return out[::4] if quick else out


def digest(size: int, members: int, pair: tuple[str, str], seed: int,
           boards: dict[int, tuple[MapModel, Board]], roster: object = None) -> str:
    if size not in boards:
        model = make_mixed_map(size, seed=size)
        boards[size] = (model, prepare(model))
    model, board = boards[size]
    teams = random_teams(seed, members, roster) if roster is not None \
        else random_teams(seed, members)  # (main's random_teams takes no roster)
    state = BattleState.from_teams(model, teams,  # type: ignore[arg-type]
                                   seed=seed, board=board)
    if "expectimax" in pair:
        state.rules = replace(state.rules, battle=replace(state.rules.battle, max_turns=30))
    hashes: list[str] = []
    out = run_battle(state, make_controllers(list(pair), state),
                     after_turn=lambda s: hashes.append(s.state_hash()))
    events = [d for d in (battle_part(e.to_dict()) for e in out.events) if d is not None]
    doc = {"events": events,
           "decisions": [repr(d) for d in out.decisions], "hashes": hashes,
           "result": list(out.result)}
    h = hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]
    return f"{size} {members} {'-'.join(pair)} {seed} events={len(events)} {h}"


def main() -> None:
    print("code:", sodwa_editor.__file__, file=sys.stderr)
    roster = None
    if "--roster" in sys.argv:
        from sodwa_editor.battle.sheet import load_roster

        roster = load_roster(sys.argv[sys.argv.index("--roster") + 1])
    boards: dict[int, tuple[MapModel, Board]] = {}
    for size, members, pair, seed in cases("--quick" in sys.argv):
        print(digest(size, members, pair, seed, boards, roster), flush=True)


if __name__ == "__main__":
    main()
