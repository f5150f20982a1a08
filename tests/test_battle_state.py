"""Battle state: built from a copy of the map, cheap independent copies, a state hash
that is the same in every process, and one-line refusals of impossible setups."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from battle_maps import RULES as RULES_DEFAULT
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
from sodwa_editor.engine.terrain import Crossing

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
    assert placed.sheets[1].flight and placed.hp == [14, 7, 14, 7]


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


def test_the_kept_lines_of_sight_are_the_boards_and_go_with_the_arrangement():
    """``crossing`` keeps each line per arrangement: equal to :meth:`los_board`'s, and
    asked again after a move (a character on the line blocks it)."""
    s = battle(grid("...... ......"), [fighter("a", 0, 0, 0, range=5), fighter("b", 1, 5, 0),
                                fighter("c", 1, 3, 1)])
    assert s.crossing((0, 0), (5, 0)) is s.los_board().crossing((0, 0), (5, 0))
    assert s.crossing((0, 0), (5, 0)) is Crossing.CLEAR
    turn_of(s, "c")
    apply(s, Move((3, 0)))
    assert s.crossing((0, 0), (5, 0)) is Crossing.BLOCKED
    assert s.crossing((5, 0), (0, 0)) is s.los_board().crossing((5, 0), (0, 0))


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


def _same_reach(a, b):
    assert (a.start, a.move, a.budget, a.halved, a.flight, a.team) == (
        b.start, b.move, b.budget, b.halved, b.flight, b.team)
    assert (a.steps == b.steps).all() and (a.must_stop == b.must_stop).all()
    assert (a.start_group == b.start_group).all()
    ys, xs = (a.steps >= 0).nonzero()
    for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
        assert a.path_to((x, y)) == b.path_to((x, y))


def test_the_board_keeps_movement_ranges_within_its_byte_bound(monkeypatch):
    """The board's range cache counts the bytes its ranges hold (``Reach.nbytes``: the
    steps, stop flags and choices per tile, the links of the states reached) and drops
    the oldest before it would hold more than ``REACH_CACHE_BYTES``."""
    from sodwa_editor.battle import state as state_module

    bound = 40_000
    monkeypatch.setattr(state_module, "REACH_CACHE_BYTES", bound)
    made = []
    search = state_module.placed_reach
    monkeypatch.setattr(state_module, "placed_reach",
                        lambda *a, **k: made.append(search(*a, **k)) or made[-1])
    model = make_mixed_map(16, seed=2)
    board = prepare(model)
    state = BattleState.from_map(model, seed=1, board=board)
    peak = 0

    def check(s):
        nonlocal peak
        held = sum(r.nbytes for r in s.board.reaches.values())
        assert s.board.reach_bytes == held <= bound
        peak = max(peak, len(s.board.reaches))

    run_battle(state, make_controllers(["random", "random"], state), after_turn=check)
    one = next(iter(board.reaches.values()))
    assert one.nbytes < 16 * 16 * 12  # no per-map-state links: 9 bytes a tile and a few
    assert peak >= 2  # several ranges fit
    assert sum(r.nbytes for r in made) > bound  # and the bound was kept by dropping some


def test_the_cached_range_tells_a_friend_from_an_enemy_on_the_same_tile():
    """Two battles on one board: the same tile beside the mover holds a friend (passed)
    in one and an enemy (blocks) in the other; the board's cache keeps them apart."""
    board = prepare(grid("........"))
    friend = BattleState(board, [fighter("a", 0, 0, 0), fighter("f", 0, 1, 0),
                                 fighter("z", 1, 7, 0)], RULES_DEFAULT)
    foe = BattleState(board, [fighter("a", 0, 0, 0), fighter("z", 0, 7, 0),
                              fighter("e", 1, 1, 0)], RULES_DEFAULT)
    assert friend.reach_of(0, 3).steps[0].tolist() == [0, -1, 2, 3, -1, -1, -1, -1]
    assert foe.reach_of(0, 3).steps[0].tolist() == [0, -1, -1, -1, -1, -1, -1, -1]


def test_a_cached_movement_range_is_the_engines_search_with_every_character():
    """``reach_of`` keeps ranges on the board, keyed by the characters near the mover
    only: from every arrangement random battles reach, each character's range (a few
    budgets, whether its turn began hindered or not) equals the engine's search with
    all the characters where they stand."""
    from dataclasses import replace

    from sodwa_editor.battle.actions import next_turn
    from sodwa_editor.engine.movement import reach

    hits = 0
    for size, seed in ((10, 3), (12, 5)):
        model = make_mixed_map(size, seed=seed)
        board = prepare(model)
        for battle_seed in range(3):
            state = BattleState.from_map(model, seed=battle_seed, board=board)
            state.rules = replace(state.rules, battle=replace(state.rules.battle, max_turns=80))
            ais = make_controllers(["random", "random"], state)

            def check(s):
                nonlocal hits
                if s.result is not None:
                    return
                next_turn(s)
                for i in range(len(s.pos)):
                    if not s.alive(i):
                        continue
                    for budget, hindered in ((1, True), (3, True), (s.sheets[i].move, True),
                                             (s.sheets[i].move, False)):
                        before = len(s.board.reaches)
                        fresh_here = (i, budget, True) not in s._cache.reach
                        got = (s.reach_of(i, budget) if hindered
                               else s._reach(i, budget, False))  # as a turn begun unhindered
                        hits += fresh_here and len(s.board.reaches) == before
                        me = s.pos[i]
                        fresh = reach(s.board.model, me, s.sheets[i].move, team=str(s.team[i]),
                                      flight=s.sheets[i].flight, budget=budget,
                                      occupants=[(t[0], t[1], str(s.team[j]))
                                                 for t, j in s.occ.items() if t != me],
                                      hindered_start=hindered)
                        _same_reach(got, fresh)

            run_battle(state, ais, after_turn=check)
    assert hits > 100  # the board's cache answered often
