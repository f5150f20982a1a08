"""The fast greedy scoring (issue 11 section 7) against the straightforward reference
scorer (tests/ai_reference.py): same plans, same utilities, same choice, on random
battles part-played by random controllers; the array TSB against Clock.predict."""

from __future__ import annotations

import ai_reference as ref
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodwa_editor.battle.abilities import UseAbility
from sodwa_editor.battle.actions import Move, apply, begin_turn, next_turn
from sodwa_editor.battle.ai import make_controllers
from sodwa_editor.battle.ai.memo import Memo
from sodwa_editor.battle.ai.profile import default_profile
from sodwa_editor.battle.ai.scoring import plans
from sodwa_editor.battle.ai.tsb import turns_by
from sodwa_editor.battle.clock import Clock
from sodwa_editor.battle.karma import add
from sodwa_editor.battle.loop import View
from sodwa_editor.battle.rules import default_rules
from sodwa_editor.battle.state import BattleState
from sodwa_editor.benchmarks import random_teams
from sodwa_editor.engine.generate import make_mixed_map

WEIGHTS = default_profile().greedy


def _positions(seed: int, size: int, n: int, count: int):
    """``count`` decision points of one battle played by random controllers: at each,
    the state with a turn in progress (a copy)."""
    rng = np.random.default_rng(seed)
    state = BattleState.from_teams(make_mixed_map(size, seed=seed), random_teams(rng, n), seed=seed)
    players = make_controllers(["random", "random"], state)
    out = []
    while state.result is None and len(out) < count:
        if state.turn is None:
            choice = next_turn(state)
            assert choice is not None
            begin_turn(state, choice.candidates[0])
        if rng.random() < 0.2:  # karma held changes the hit chances (memo keys)
            state.karma = add(state.karma, int(rng.integers(2)), int(rng.integers(1, 20)))
        if rng.random() < 0.5:
            out.append(state.copy(log=False, streams=False))
        team = state.team[state.actor]
        apply(state, players[team].decide(View(state, team)))
    return out


def _same(fast, slow) -> None:
    """The same plans with the same utilities and stay terms (up to float rounding:
    the compiled sums add in another order), so the same best plan.  The area
    abilities' plans (docs/battle-ai.md, *Abilities*; the reference scores none) are
    left out: tests/test_battle_abilities_play.py checks them."""
    fast = [p for p in fast if not isinstance(p.steps[-1], UseAbility)]
    got = {p.steps: (p.utility, p.stay) for p in fast}
    want = {p.steps: (p.utility, p.stay) for p in slow}
    assert got.keys() == want.keys()
    keys = list(want)
    assert np.allclose([got[k] for k in keys], [want[k] for k in keys], rtol=1e-9, atol=1e-9)
    assert fast[0].utility == pytest.approx(slow[0].utility, rel=1e-9, abs=1e-9)
    close = {p.steps for p in slow if abs(p.utility - slow[0].utility) <= 1e-9}
    assert fast[0].steps in close


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), size=st.sampled_from([10, 14, 18]),
       n=st.integers(1, 4))
def test_fast_scoring_equals_the_reference_scorer(seed, size, n):
    """Every plan, its utility and its stay terms equal the reference's, so the
    choice (the best plan, ties drawn the same way) is the same; one memo across the
    battle's decisions, as a controller keeps it."""
    memo = Memo()
    for state in _positions(seed, size, n, 6):
        view = View(state, state.team[state.actor])
        _same(plans(view, WEIGHTS, None, memo), ref.plans(view, WEIGHTS))


def test_scoring_with_pools_that_start_again_at_every_decision_equals_the_reference():
    """The walks and firing-tile pools hand out slots that hold until their next
    ``reserve``: with pools so small that every decision starts them again, every
    plan still equals the reference scorer's."""
    from sodwa_editor.battle.ai.memo import Pool

    for state in _positions(11, 14, 3, 8):
        view = View(state, state.team[state.actor])
        shape = (state.board.height, state.board.width)
        enemies = sum(1 for j in range(len(state.pos))
                      if state.alive(j) and state.team[j] != view.team)
        state.board.kept["walks"] = Pool(shape, max(1, enemies))
        state.board.kept["firing"] = Pool(shape, max(1, enemies))
        memo = Memo()
        _same(plans(view, WEIGHTS, None, memo), ref.plans(view, WEIGHTS))
        _same(plans(view, WEIGHTS, None, memo), ref.plans(view, WEIGHTS))  # pools full


def test_a_flyer_measures_its_approach_with_its_own_adjacency():
    """A wall of Obstructing tiles a flyer passes over (flight adjacency) but a walker
    must go round: the flyer's approach term counts the straight way."""
    from battle_maps import battle, fighter, grid, turn_of

    rows = "\n".join(["...X...", "...X...", "...X...", "...X...", "......."])
    walker = battle(grid(rows), [fighter("a", 0, 0, 0, move=1, range=1),
                                 fighter("b", 1, 6, 0, move=0)])
    flyer = battle(grid(rows), [fighter("a", 0, 0, 0, move=1, range=1, flight=True),
                                fighter("b", 1, 6, 0, move=0)])
    turn_of(walker, "a")
    turn_of(flyer, "a")
    from sodwa_editor.battle.ai.scoring import TurnFacts

    walk = TurnFacts(View(walker, 0), WEIGHTS).gap(np.array([0]), np.array([0]))[0]
    fly = TurnFacts(View(flyer, 0), WEIGHTS).gap(np.array([0]), np.array([0]))[0]
    assert fly == 5 and walk > fly


@settings(max_examples=200, deadline=None)
@given(ips=st.lists(st.integers(-600, 1600), min_size=2, max_size=6),
       inits=st.lists(st.integers(1, 400), min_size=6, max_size=6),
       acted=st.lists(st.booleans(), min_size=6, max_size=6),
       once=st.booleans(), span=st.integers(0, 40))
def test_turn_counts_equal_the_clock_prediction(ips, inits, acted, once, span):
    """:func:`turns_by` counts the turns :meth:`Clock.predict` lists per character up
    to a tick (B14: every future turn a pass)."""
    from dataclasses import replace

    rules = replace(default_rules().clock, one_turn_per_tick=once)
    n = len(ips)
    clock = Clock(inits[:n], [i % 2 for i in range(n)], rules, ip=ips)
    clock.tick = 7
    clock.acted = acted[:n]
    until = clock.tick + span
    tsb = clock.predict(4000)
    assert tsb[-1].tick > until
    for j in range(n):
        want = sum(1 for p in tsb if p.actor == j and p.tick <= until)
        got = turns_by(ips[j], inits[j], clock.ticks_until_turn(j) == 0, clock.tick, until,
                       rules)
        assert got == want


def test_a_ranged_character_walled_off_from_its_enemy_walks_to_a_tile_it_can_shoot_from():
    """Seed 1, battle 113 of ``sodwa simulate maps/indoor-compound.json``: an archer and
    a sniper, each within walking distance of the other (steps <= Range + 1) but cut
    off by walls from every tile they could reach, passed for 2,000 turns: the
    approach term was 1 on every tile.  It now counts the steps to the nearest tile
    with a line of sight to the enemy (through the door here)."""
    from battle_maps import battle, fighter, grid, turn_of

    rows = "\n".join(["............",
                      "......XXXXX.",
                      "......X...X.",
                      "......X...X.",
                      "......X...X.",
                      "......XX.XX.",
                      "............"])
    state = battle(grid(rows), [fighter("archer", 0, 1, 3, move=2, range=14, melee_damage=1,
                                        ranged_damage=6, ranged_accuracy=60),
                                fighter("guard", 1, 8, 3, move=0, range=1)])
    turn_of(state, "archer")
    view = View(state, 0)
    from sodwa_editor.battle.ai.scoring import TurnFacts

    facts = TurnFacts(view, WEIGHTS)
    here = facts.gap(np.array([1]), np.array([3]))[0]
    best = plans(view, WEIGHTS, 1)[0]
    assert isinstance(best.steps[0], Move)
    to = best.steps[0].to
    assert facts.gap(np.array([to[0]]), np.array([to[1]]))[0] < here
    assert here > 1  # the old estimate, max(1, steps - Range), was 1 everywhere here


def test_terrain_caches_are_shared_by_battles_on_one_board_and_not_across_destroyed_terrain():
    """The walks and firing tiles hang on the board (``Board.kept``): a second battle on
    the same board reads the first one's; a battle that destroys a wall plays on its own
    forked board, whose caches start empty, and the shared board's stay as they were."""
    from battle_maps import battle, fighter, grid, turn_of

    from sodwa_editor.battle.actions import AttackTerrain, apply
    from sodwa_editor.battle.board import prepare
    from sodwa_editor.battle.loop import run_battle

    model = make_mixed_map(16, seed=3)
    board = prepare(model)
    first = BattleState.from_teams(model, random_teams(1, 2), seed=1, board=board)
    run_battle(first, make_controllers(["greedy", "greedy"], first))
    walks = board.kept["walks"]
    assert walks.slots and walks.block.shape[1:] == (16, 16)
    second = BattleState.from_teams(model, random_teams(2, 2), seed=2, board=board)
    memo = make_controllers(["greedy", "greedy"], second)[0].memo
    memo.check(View(second, 0))
    assert memo.walks is walks and memo.firing is board.kept["firing"]

    s = battle(grid(".X.."), [fighter("a", 0, 0, 0, melee_damage=5),
                              fighter("b", 1, 3, 0, range=5)])
    shared = s.board
    memo = Memo()
    turn_of(s, "a")
    memo.check(View(s, 0))
    plans(View(s, 0), WEIGHTS, None, memo)
    before = dict(shared.kept["walks"].slots)
    apply(s, AttackTerrain(1, 0))  # destroyed: the battle forks its board
    turn_of(s, "a")
    assert s.board is not shared and s.board.kept == {}
    memo.check(View(s, 0))
    assert memo.walks is not shared.kept["walks"]
    plans(View(s, 0), WEIGHTS, None, memo)
    assert shared.kept["walks"].slots == before


@pytest.mark.parametrize("seed", [3, 8])
def test_a_threat_zone_lies_within_move_plus_range_so_far_enemies_are_skipped(seed):
    """Every enemy's threat zone lies inside the square of its Move plus its Range (at
    least 1) about its tile, which is why ``TurnFacts.may_strike`` may skip the zone
    of an enemy with no end tile in that square: at those tiles the zone is empty.
    Checked on the decisions of random battles on a 32x32 map, where far enemies are
    common."""
    from sodwa_editor.battle.ai.scoring import TurnFacts

    skipped = 0
    for state in _positions(seed, 32, 4, 12):
        facts = TurnFacts(View(state, state.team[state.actor]), WEIGHTS, Memo())
        fx, fy = state.pos[state.actor]
        mx, my = View(state, state.team[state.actor]).move_tiles()
        fx, fy = np.append(mx, fx), np.append(my, fy)
        near = facts.may_strike(fx, fy)
        for b, j in enumerate(facts.enemies):
            zone = facts._zone(b)
            sheet, (x, y) = state.sheets[j], state.pos[j]
            square = sheet.move + max(1, sheet.range)
            ys, xs = np.nonzero(zone)
            assert (np.maximum(abs(xs - x), abs(ys - y)) <= square).all()
            if not near[b]:
                skipped += 1
                assert not zone[fy, fx].any()
    assert skipped > 0  # the case the skip is for occurs


@pytest.mark.parametrize("metric", [0, 1, 2])
def test_a_threat_zone_from_the_range_steps_equals_the_tile_by_tile_zone(metric):
    """``kernels.zone_of`` (one span per row) marks what the reference's ``zone`` marks
    tile by tile with the range rule, for every metric and Range, on random movement
    ranges held in a random window (the whole map among them)."""
    from sodwa_editor.battle.ai import kernels as k

    rng = np.random.default_rng(metric)
    for r in (1, 2, 3, 5, 8):
        for i in range(20):
            steps = np.where(rng.random((13, 17)) < 0.1, 1, -1).astype(np.int32)
            x0, x1 = sorted(rng.integers(0, 18, 2)) if i else (0, 17)
            y0, y1 = sorted(rng.integers(0, 14, 2)) if i else (0, 13)
            steps[:, :x0] = steps[:, x1:] = steps[:y0] = steps[y1:] = -1
            want = np.zeros(steps.shape, bool)
            got = np.zeros(steps.shape, bool)
            ys, xs = np.nonzero(steps >= 0)
            ref.zone(xs.astype(np.int64), ys.astype(np.int64), r, metric, want)
            k.zone_of(steps, x0, y0, x1, y1, r, metric, got)
            assert (got == want).all()


def test_the_bip_numbers_are_shared_by_battles_with_the_same_rules_and_equal_the_bip():
    """The BIP's karma-free numbers per (sheets, situation) hang on the board for the
    battles played by one rules object; each equals a fresh ``preview_attack``; a
    battle with another rules object starts its own."""
    from dataclasses import replace

    from sodwa_editor.battle import karma as karma_rules
    from sodwa_editor.battle.attack import Situation, preview_attack
    from sodwa_editor.battle.board import prepare
    from sodwa_editor.battle.loop import run_battle

    model = make_mixed_map(16, seed=5)
    board = prepare(model)
    first = BattleState.from_teams(model, random_teams(3, 2), seed=3, board=board)
    run_battle(first, make_controllers(["greedy", "greedy"], first))
    rules, shared, numbers = board.kept["bip"]
    assert rules is first.rules and shared
    sheet_of = {n: sheet for sheet, n in numbers.items()}
    assert len(sheet_of) == len(numbers)  # one number per distinct sheet
    for (na, nd, *facts), (difficulty, damage, gain) in list(shared.items())[:200]:
        sa, sd = sheet_of[na], sheet_of[nd]
        p = preview_attack(sa, sd, Situation(*(bool(f) if i not in (2, 3) else f
                                                 for i, f in enumerate(facts))), rules)
        assert (difficulty, damage, gain) == (p.difficulty, p.damage_on_hit,
                                              karma_rules.gain(p.difficulty, rules))
    second = BattleState.from_teams(model, random_teams(4, 2), seed=4, board=board)
    second.rules = first.rules
    memo = Memo()
    memo.check(View(second, 0))
    assert memo.shared_bases is shared
    sheet_of = {n: sheet for sheet, n in numbers.items()}  # the second battle's added
    assert [sheet_of[n] for n in memo.sheet_keys] == list(second.sheets)
    third = BattleState.from_teams(model, random_teams(4, 2), seed=4, board=board)
    third.rules = replace(first.rules)  # equal, but another object: not trusted
    memo.check(View(third, 0))
    assert memo.shared_bases is not shared and memo.shared_bases == {}



def test_threat_zones_are_kept_per_arrangement_and_dropped_with_the_terrain(monkeypatch):
    """An enemy's threat zone is worked out once per arrangement of the characters: a
    second plan on a copy with everyone where they were (a same-team tie's candidate,
    the plan after an attack) asks for no movement range; destroyed terrain, with
    everyone still in place, starts afresh, and the zone then equals a fresh memo's."""
    from battle_maps import battle, fighter, grid, index, turn_of

    from sodwa_editor.battle.actions import AttackTerrain, apply

    s = battle(grid(".X......\n........\n........"),
               [fighter("a", 0, 0, 0, melee_damage=5), fighter("c", 0, 0, 2),
                fighter("b", 1, 7, 0, range=1, move=6)])  # near enough to threaten
    b = index(s, "b")
    asked: list[int] = []
    real = BattleState.reach_of
    monkeypatch.setattr(BattleState, "reach_of",
                        lambda self, i, budget: asked.append(i) or real(self, i, budget))
    memo = Memo()
    turn_of(s, "a")
    plans(View(s, 0), WEIGHTS, None, memo)
    assert b in asked
    kept = memo.zones_placed(View(s, 0).placement)[b]

    asked.clear()
    again = s.copy(log=False, streams=False)
    plans(View(again, 0), WEIGHTS, None, memo)
    assert b not in asked and memo.zones_placed(View(again, 0).placement)[b] is kept

    shared = s.board
    apply(s, AttackTerrain(1, 0))  # destroyed: the battle forks its board
    assert s.board is not shared and s.pos[b] == (7, 0)
    asked.clear()
    plans(View(s, 0), WEIGHTS, None, memo)
    assert b in asked
    fresh = Memo()
    plans(View(s, 0), WEIGHTS, None, fresh)
    placement = View(s, 0).placement
    assert np.array_equal(memo.zones_placed(placement)[b], fresh.zones_placed(placement)[b])


def test_plans_kept_for_a_tie_loser_are_the_plans_it_would_make(monkeypatch):
    """A same-team tie scores every candidate's turn on a fork and keeps each one's
    plans; a loser takes them at its own turn when the winner's turn changed nothing
    the plans read (:func:`memo.fingerprint`).  On greedy battles with many ties,
    every plan taken equals the plans made afresh for the position, and some are a
    loser's."""
    from sodwa_editor.battle.ai import greedy
    from sodwa_editor.battle.loop import run_battle

    winners: list[int] = []
    taken = {"winner": 0, "loser": 0}
    real_take, real_best = Memo.take, greedy.best_actor

    def best_actor(view, candidates, *args, **kwargs):
        winners.append(real_best(view, candidates, *args, **kwargs))
        return winners[-1]

    def take(self, view, weights, limit):
        kept = real_take(self, view, weights, limit)
        if kept is not None:
            fresh = plans(view, weights, limit, Memo())
            assert [(p.utility, p.steps) for p in kept] == [(p.utility, p.steps)
                                                             for p in fresh]
            taken["winner" if winners and view.actor == winners[-1] else "loser"] += 1
        return kept

    monkeypatch.setattr(greedy, "best_actor", best_actor)
    monkeypatch.setattr(Memo, "take", take)
    model = make_mixed_map(20, seed=5)
    for seed in range(4):
        state = BattleState.from_teams(model, random_teams(seed, 4), seed=seed)
        run_battle(state, make_controllers(["greedy", "greedy"], state))
    assert taken["winner"] > 10 and taken["loser"] > 2, taken
