"""The greedy AI (issue 11 section 4): what it prefers, its profile file, determinism."""

from __future__ import annotations

import json

import numpy as np
import pytest
from battle_maps import battle, fighter, grid, index, turn_of

from sodwa_editor.battle.actions import Attack, Move, Pass
from sodwa_editor.battle.ai import make_controllers
from sodwa_editor.battle.ai.greedy import Greedy
from sodwa_editor.battle.ai.profile import default_profile, load_profile
from sodwa_editor.battle.ai.scoring import plans
from sodwa_editor.battle.jsonfiles import BattleInputError
from sodwa_editor.battle.loop import View, run_battle
from sodwa_editor.battle.state import BattleState
from sodwa_editor.benchmarks import random_teams
from sodwa_editor.engine.generate import make_mixed_map


def decide(state: BattleState, team: int = 0):
    return Greedy(team, np.random.default_rng(0)).decide(View(state, team))


def test_greedy_takes_a_sure_kill_over_a_weak_hit():
    """Greedy scoring: P(kill) x the target's value outweighs an equal hit that does
    not defeat."""
    s = battle(grid("....."), [fighter("a", 0, 2, 0, move=0),
                               fighter("weak", 1, 3, 0, health=3),
                               fighter("whole", 1, 1, 0, melee_defense=60)])
    turn_of(s, "a")
    assert decide(s) == Attack(index(s, "weak"))


def test_greedy_attacks_rather_than_passes():
    s = battle(grid("...."), [fighter("a", 0, 1, 0, move=0), fighter("b", 1, 2, 0)])
    turn_of(s, "a")
    assert decide(s) == Attack(index(s, "b"))
    top = plans(View(s, 0), default_profile().greedy)
    assert top[0].utility > next(p.utility for p in top if p.steps == (Pass(),))


def test_greedy_does_not_walk_where_enemies_acting_first_can_defeat_it():
    """The threat of enemies the TSB puts before the character's next turn: the
    tile beside the killer is a step closer to an enemy, but deadly."""
    s = battle(grid("." * 16), [
        fighter("a", 0, 7, 0, move=4, health=2, damage_reduction=0),
        fighter("killer", 1, 0, 0, move=2, initiative=1000, melee_accuracy=200,
                melee_damage=20),
        fighter("harmless", 1, 15, 0, move=0, melee_damage=0, ranged_damage=0)])
    turn_of(s, "a")
    action = decide(s)
    assert isinstance(action, Move) and action.to[0] > 7
    # without the threat terms the deadly tile would win (the test can fail)
    from dataclasses import replace

    from sodwa_editor.battle.ai.profile import GreedyWeights

    blind: GreedyWeights = replace(default_profile().greedy, threat=0.0, death=0.0)
    assert plans(View(s, 0), blind)[0].steps[0].to[0] < 7  # type: ignore[union-attr]


def play(names: list[str], seed: int, size: int = 16, n: int = 3) -> BattleState:
    model = make_mixed_map(size, seed=seed)
    s = BattleState.from_teams(model, random_teams(seed, n), seed=seed)
    run_battle(s, make_controllers(names, s))
    return s


def test_same_seed_gives_the_same_greedy_battle():
    a, b = play(["greedy", "greedy"], 5), play(["greedy", "greedy"], 5)
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    assert a.state_hash() == b.state_hash()


def test_the_choice_does_not_depend_on_dict_insertion_order():
    s = BattleState.from_teams(make_mixed_map(16, seed=3), random_teams(3, 3), seed=3)
    from sodwa_editor.battle.actions import begin_turn, next_turn

    choice = next_turn(s)
    assert choice is not None
    begin_turn(s, choice.candidates[0])
    t = s.team[choice.candidates[0]]
    other = s.copy()
    other.occ = dict(reversed(list(s.occ.items())))
    other.changed()
    a = [(p.utility, p.steps) for p in plans(View(s, t), default_profile().greedy)]
    b = [(p.utility, p.steps) for p in plans(View(other, t), default_profile().greedy)]
    assert a == b


def test_greedy_beats_random_with_sides_swapped():
    """40 seeded battles on generated 16x16 maps, greedy on each side half the time."""
    wins = 0
    for k in range(40):
        names = ["greedy", "random"] if k % 2 == 0 else ["random", "greedy"]
        s = play(names, 100 + k, n=2)
        assert s.result is not None
        wins += s.result.winner == k % 2
    assert wins >= 32


def test_profile_file_errors_are_one_line(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"format": "sodwa-ai-profile", "format_version": 1,
                                "greedy": {"agression": 2}}))
    with pytest.raises(BattleInputError, match=r"^.*p\.json: greedy\.agression: unknown key"):
        load_profile(path)
    path.write_text(json.dumps({"format": "sodwa-ai-profile", "format_version": 1,
                                "expectimax": {"depth": 3}}))
    with pytest.raises(BattleInputError, match=r"expectimax\.depth: 3 is greater than"):
        load_profile(path)
    path.write_text(json.dumps({"format": "sodwa-ai-profile", "format_version": 1,
                                "greedy": {"kill": 9}}))
    p = load_profile(path)
    assert p.greedy.kill == 9 and p.greedy.damage == default_profile().greedy.damage


def test_bench_battles_reports_the_battle_figures(capsys):
    """``sodwa bench battles`` (small: one battle on a 12x12 map) gives every figure."""
    from sodwa_editor.benchmarks import format_battle_table, run_battles

    metrics = run_battles(battles=1, size=12, members=2, expectimax_turns=2)
    names = [m.name for m in metrics]
    assert names[:9] == ["battles_per_s_core", "ai_turn_p95_ms", "expectimax_turn_p95_ms",
                         "battles_per_s_core_abilities", "battles_per_s_core_abilities_off",
                         "abilities_speed_ratio", "battles_per_s_core_huge",
                         "huge_speed_ratio", "python_reference_ms"]
    assert names[9:] in ([], ["tcod_fov_128_mixed_ms"])
    assert all(m.value > 0 for m in metrics)
    table = format_battle_table(metrics)
    assert "| `battles_per_s_core` |" in table and ">= 25" in table
    assert "| `abilities_speed_ratio` |" in table and ">= 0.7" in table
    assert "| `huge_speed_ratio` |" in table
    # the references carry no bounds and no verdict
    assert "| `python_reference_ms` (machine reference) |" in table
    assert table.count("MISSED") + table.count("met |") == 8


def test_bench_battles_refuses_zero_battles(capsys):
    from sodwa_editor.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["bench", "battles", "--battles", "0"])
    assert exc.value.code == 2
    assert "must be 1 or more" in capsys.readouterr().err


# ---------------------------------------------------------------------- expectimax
def test_chance_nodes_are_the_d100_outcomes_with_their_exact_chances():
    """RB: roll >= difficulty succeeds, karma rescues a failure it can pay for; the
    three outcomes' chances are :func:`karma.successes`' counts."""
    from sodwa_editor.battle.actions import apply
    from sodwa_editor.battle.ai.expectimax import outcomes
    from sodwa_editor.battle.karma import successes
    from sodwa_editor.battle.targeting import preview_attack

    s = battle(grid("...."), [fighter("a", 0, 1, 0), fighter("b", 1, 2, 0)])
    turn_of(s, "a")
    s.karma = 20  # team 0 holds 20 Karma Points
    p = preview_attack(s, 0, 1)
    got = outcomes(s, 1)
    assert [round(q * 100) for q, _ in got] == [
        successes(p.difficulty, 0, s.rules),
        successes(p.difficulty, 20, s.rules) - successes(p.difficulty, 0, s.rules),
        100 - successes(p.difficulty, 20, s.rules)]
    seen = []
    for _, dice in got:
        child = s.copy(log=False, streams=False)
        event = apply(child, Attack(1), roll=lambda d=dice: d)[0]
        seen.append((event.success, event.karma_spent > 0))
    assert seen == [(True, False), (True, True), (False, False)]


def test_expectimax_takes_a_sure_kill_and_keeps_to_its_node_budget():
    from dataclasses import replace

    from sodwa_editor.battle.ai.expectimax import Expectimax, _Search

    s = battle(grid("....."), [fighter("a", 0, 2, 0, move=0),
                               fighter("weak", 1, 3, 0, health=3),
                               fighter("whole", 1, 1, 0, melee_defense=60)])
    turn_of(s, "a")
    ai = Expectimax(0, np.random.default_rng(0))
    assert ai.decide(View(s, 0)) == Attack(index(s, "weak"))
    tight = replace(ai.profile, expectimax=replace(ai.settings, node_budget=1))
    search = _Search(0, tight)
    ranked = search.rank(View(s, 0), plans(View(s, 0), tight.greedy)[:4])
    assert len(ranked) == 1  # past the budget no other candidate is searched


def test_same_seed_gives_the_same_expectimax_battle():
    a = play(["expectimax", "greedy"], 9, size=10, n=2)
    b = play(["expectimax", "greedy"], 9, size=10, n=2)
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]


def test_a_same_team_tie_goes_to_the_candidate_with_the_best_plan():
    """RB: "If the characters are on the same team, the player gets to decide": the
    AI decides by its scoring, not by list order (the first candidate cannot attack)."""
    from sodwa_editor.battle.actions import next_turn

    s = battle(grid("......"), [fighter("far", 0, 0, 0, move=0),
                                fighter("near", 0, 3, 0, move=0),
                                fighter("weak", 1, 4, 0, health=3)])
    clock = s.clock
    for j, ip in enumerate((1000, 1000, 0)):
        clock.adjust_ip(j, ip - clock.ip[j])
    choice = next_turn(s)
    assert choice is not None and choice.candidates == (0, 1)
    ai = Greedy(0, np.random.default_rng(0))
    assert ai.choose_actor(View(s, 0), choice.candidates) == index(s, "near")


def test_greedy_battle_113_of_the_indoor_compound_ends_before_the_turn_cap():
    """The batch battle that found the walled-off stalemate (``sodwa simulate
    maps/indoor-compound.json --ai greedy,greedy --seed 1``, battle 113): its last
    archer and sniper passed until the 2,000-turn cap; they now seek a line of sight
    and one side wins."""
    from pathlib import Path

    from sodwa_editor.battle.batch import play
    from sodwa_editor.battle.setup import BattleSetup
    from sodwa_editor.io.files import load_map

    root = Path(__file__).resolve().parent.parent
    setup = BattleSetup.from_map(load_map(root / "maps" / "indoor-compound.json"),
                                 ai=("greedy", "greedy"))
    record = play(setup, 1, 113, False)
    assert record["winner"] is not None
    assert record["turns"] < setup.rules.battle.max_turns
