"""Battle state: built from a copy of the map, cheap independent copies, a state hash
that is the same in every process, and one-line refusals of impossible setups."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from battle_maps import battle, fighter, grid, index, turn_of

from sodwa_editor.battle.actions import Attack, Move, Pass, apply
from sodwa_editor.battle.ai import make_controllers
from sodwa_editor.battle.board import prepare
from sodwa_editor.battle.dice import D100
from sodwa_editor.battle.jsonfiles import BattleInputError
from sodwa_editor.battle.loop import run_battle
from sodwa_editor.battle.sheet import load_roster
from sodwa_editor.battle.state import BattleState
from sodwa_editor.battle.teams import team_from_dict
from sodwa_editor.engine.generate import make_mixed_map

ROOT = Path(__file__).resolve().parents[1]


def test_a_battle_never_changes_the_map_it_was_made_from():
    """B34: the battle's map is a copy with the characters taken off; moves, defeats and
    destroyed walls stay in the battle (the editor's document is never touched)."""
    source = make_mixed_map(12, seed=5)
    snapshot = source.copy()
    revision = source.revision
    for seed in range(6):
        state = BattleState.from_map(source, seed=seed)
        run_battle(state, make_controllers(["random", "random"], state))
        assert state.board.model is not source
    assert any(BattleState.from_map(source, seed=s).board.model.characters == {}
               for s in range(1))
    assert source.same_content(snapshot) and source.revision == revision


def test_the_battle_starts_from_the_characters_on_the_map_or_from_placed_teams():
    m = make_mixed_map(16, seed=2)
    s = BattleState.from_map(m, seed=0)
    assert s.names == tuple(sorted(c.id for c in m.characters.values()
                                   if c.team == "blue")) + tuple(
        sorted(c.id for c in m.characters.values() if c.team == "red"))
    assert [s.pos[i] for i in range(len(s.pos))] == [
        (m.characters[n].x, m.characters[n].y) for n in s.names]
    roster = load_roster()
    team = team_from_dict({"format": "sodwa-team", "format_version": 1, "name": "t",
                           "members": [{"id": "k", "archetype": "Knight"},
                                       {"id": "h", "archetype": "Hawk"}]}, roster)
    placed = BattleState.from_teams(m, [("red", team, None), ("blue", team, None)], seed=0)
    assert placed.names == ("red.k", "red.h", "blue.k", "blue.h")
    assert all(placed.pos[i] in m.start_zones["red" if i < 2 else "blue"] for i in range(4))
    assert placed.sheets[1].flight and placed.hp == [14, 8, 14, 8]


@pytest.mark.parametrize(("fighters", "message"), [
    ([("a", 0, 0, 0), ("b", 0, 2, 0)], "needs characters on both teams 0 and 1; it has 0"),
    ([("a", 0, 1, 0), ("b", 1, 2, 0)], "character 'a' stands on (1, 0), where no character"),
    ([("a", 0, 0, 0), ("b", 1, 0, 0)], "characters 'a' and 'b' share the tile (0, 0)"),
])
def test_impossible_setups_are_one_line(fighters, message):
    with pytest.raises(BattleInputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        battle(grid(".X.."), [fighter(*f) for f in fighters])


def test_copies_are_independent_and_share_what_does_not_change():
    s = battle(grid("....."), [fighter("a", 0, 0, 0, range=4),
                               fighter("b", 1, 4, 0, range=4, ranged_damage=5)])
    turn_of(s, "a")
    c = s.copy()
    assert c.state_hash() == s.state_hash() and c.board is s.board
    apply(c, Move((3, 0)))
    assert s.pos[0] == (0, 0) and c.pos[0] == (3, 0)
    assert s.state_hash() != c.state_hash()
    apply(s, Move((1, 0)))
    assert s.los_board() is not c.los_board()
    assert s.reach_of(0, 1).start == (1, 0) and c.reach_of(0, 1).start == (3, 0)
    fork = s.copy(log=False, streams=False)
    assert fork.events == [] and fork.streams is None
    with pytest.raises(ValueError, match="no random streams"):
        apply(fork, Attack(index(fork, "b")))
    apply(fork, Pass())
    turn_of(fork, "b")
    apply(fork, Attack(index(fork, "a")), roll=lambda: D100(0, 0))
    assert fork.hp[0] < s.hp[0] and s.turn is not None


def test_state_hash_is_the_same_in_another_process():
    code = ("from sodwa_editor.engine.generate import make_mixed_map\n"
            "from sodwa_editor.battle.state import BattleState\n"
            "from sodwa_editor.battle.loop import run_battle\n"
            "from sodwa_editor.battle.ai import make_controllers\n"
            "s = BattleState.from_map(make_mixed_map(10, seed=3), seed=11)\n"
            "run_battle(s, make_controllers(['random', 'random'], s))\n"
            "print(s.state_hash(), len(s.events))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT, env={"PYTHONHASHSEED": "123"}).stdout.split()
    s = BattleState.from_map(make_mixed_map(10, seed=3), seed=11)
    run_battle(s, make_controllers(["random", "random"], s))
    assert out == [s.state_hash(), str(len(s.events))]


def test_battles_on_one_map_share_its_board():
    m = make_mixed_map(12, seed=1)
    board = prepare(m)
    a = BattleState.from_map(m, seed=1, board=board)
    b = BattleState.from_map(m, seed=2, board=board)
    assert a.board is b.board is board and board.model.characters == {}
