"""Every worked example of the rulebook's battle sections, as golden tests
(battle-spec section 2, G1-G23 where they concern the foundation: numbers, dice,
karma, the clock and turn order).  Each test quotes the sentence it checks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sodwa_editor.battle import karma
from sodwa_editor.battle.attack import Situation, preview_attack, resolve_attack
from sodwa_editor.battle.clock import (
    FIRST_TIE,
    HIGHEST_IP,
    OTHER_TEAM,
    ActionRefused,
    ActionType,
    Clock,
    move_after_attack,
)
from sodwa_editor.battle.dice import D100, d100_from_value
from sodwa_editor.battle.rules import default_rules
from sodwa_editor.battle.sheet import load_roster

RULES = default_rules()
A_TEAM, B_TEAM = 0, 1


def sheet(**values):
    """The roster's default sheet with some values changed."""
    base = load_roster().find("Knight").sheet()
    return replace(base, **values)


def attack_40_vs_100(**situation):
    attacker = sheet(melee_accuracy=40, ranged_accuracy=40)
    defender = sheet(melee_defense=100, ranged_defense=100, evasion=0)
    return preview_attack(attacker, defender, Situation(**situation), RULES)


# ---------------------------------------------------------------- the attack roll
def test_attack_example_accuracy_40_vs_defense_100_needs_60():
    """G1 RB: "Character A, with an Accuracy of 40, attacks character B, with a Defense
    of 100. They are both on clear terrain with no other modifiers to apply. So,
    character A must roll a 60% or better to succeed." """
    p = attack_40_vs_100(adjacent=False)
    assert (p.tav, p.tdv, p.difficulty, p.need_roll, p.modifiers) == (40, 100, 60, 60, ())
    assert p.hits == 41 and p.p_hit == pytest.approx(0.41)
    assert resolve_attack(p, d100_from_value(60), 0, A_TEAM, 10, RULES).success
    assert not resolve_attack(p, d100_from_value(59), 0, A_TEAM, 10, RULES).success


def test_impeded_los_adds_20_to_defense_once():
    """G2 RB: "if LoS passes through a tile of Impeding Terrain, the difficulty of the
    attack increases by 20%"; "If the LoS ... passes through one or more tiles or
    borders of Impeding Terrain" -- one modifier however many are crossed."""
    p = attack_40_vs_100(adjacent=False, impeded=True)
    assert p.difficulty == 80
    assert [(m.source, m.stat, m.amount) for m in p.modifiers] == [
        ("impeded line of sight", "defense", 20)]


def test_adjacent_attack_ignores_impeding():
    """G3 RB Yellow paragraph: adjacent characters' LoS "is unaffected by the Impeding
    Terrain"; a melee attack needs no LoS."""
    p = attack_40_vs_100(adjacent=True, impeded=True)
    assert (p.kind, p.difficulty, p.modifiers) == ("melee", 60, ())


def test_d100_examples_and_doubles():
    """G4 RB: "a roll of 0 and 6 would equal 6%. 7 and 7 would equal 77%. 0 and 0 would
    equal 100%, not 0%." "A roll of 00 (100%) ... counts as rolling Doubles." """
    assert (D100(0, 6).value, D100(0, 6).doubles) == (6, False)
    assert (D100(7, 7).value, D100(7, 7).doubles) == (77, True)
    assert (D100(0, 0).value, D100(0, 0).doubles) == (100, True)


def test_01_always_fails_and_00_always_succeeds():
    """G5 RB: "A roll of 01 (1%) is always a failure, regardless of difficulty. A roll
    of 00 (100%) is always a success." """
    easy = replace(attack_40_vs_100(adjacent=False), difficulty=-50)
    hard = replace(easy, difficulty=250)
    assert not resolve_attack(easy, D100(0, 1), 0, A_TEAM, 10, RULES).success
    out = resolve_attack(hard, D100(0, 0), 0, A_TEAM, 10, RULES)
    assert out.success and out.natural and out.doubles and out.doubles_effect


# ---------------------------------------------------------------- karma
def test_karma_gain_example_difficulty_30_gains_20():
    """G6 RB: "if you fail an attack roll with a difficulty of 30%, you would gain 20
    Karma Points (50% - 30% = 20)." """
    out = karma.resolve_roll(30, 12, 0, A_TEAM, RULES)
    assert (out.success, out.karma_gained, out.pool_after) == (False, 20, 20)


def test_karma_spend_example_reads_70_where_the_text_says_40():
    """G7 RB: "let's say you have 20 Karma Points. You make an Attack Roll with a
    difficulty of 70% but roll a 60. You would automatically use 10 Karma Points to
    bring that roll up to a 40, thus ensuring its success."  60 + 10 = 70: the roll
    is brought up to the difficulty, 70 (decision B28)."""
    out = karma.resolve_roll(70, 60, 20, A_TEAM, RULES)
    assert (out.success, out.natural, out.karma_spent, out.pool_after) == (True, False, 10, 10)
    # The same for team B, whose points are the negative side of the pool.
    out = karma.resolve_roll(70, 60, -20, B_TEAM, RULES)
    assert (out.success, out.karma_spent, out.pool_after) == (True, 10, -10)


def test_karma_cancel_example_10_against_25_leaves_15():
    """G8 RB: "if Player A has 10 Karma Points when Player B earns 25 Karma Points, 10 of
    Player B's Karma Points would be used to negate Player A's Karma Points before
    the remaining 15 are added to Player B's Karma Pool." """
    pool = karma.add(0, A_TEAM, 10)
    pool = karma.add(pool, B_TEAM, 25)
    assert (karma.available(pool, A_TEAM), karma.available(pool, B_TEAM)) == (0, 15)


def test_not_enough_karma_spends_nothing_and_high_difficulty_gains_nothing():
    """G9: pool 5, difficulty 70, roll 60: 10 points needed, 5 held: a plain failure
    (all or nothing), and 70 is not "less than 50%" so nothing is gained."""
    out = karma.resolve_roll(70, 60, 5, A_TEAM, RULES)
    assert (out.success, out.karma_spent, out.karma_gained, out.pool_after) == (False, 0, 0, 5)


def test_difficulty_exactly_50_gains_nothing():
    """G10 RB: "a difficulty less than 50%" -- 50 is not less."""
    assert karma.resolve_roll(50, 20, 0, A_TEAM, RULES).karma_gained == 0
    assert karma.resolve_roll(49, 20, 0, A_TEAM, RULES).karma_gained == 1


def test_karma_does_not_rescue_01():
    """G11 RB: "A roll of 01 (1%) is always a failure, regardless of difficulty" -- even
    with 99 points held (decision B30); the failure gains 50 - 30."""
    out = karma.resolve_roll(30, 1, 99, A_TEAM, RULES)
    assert (out.success, out.karma_spent, out.karma_gained, out.pool_after) == (False, 0, 20, 119)


# ---------------------------------------------------------------- turn order
def run_turn(clock, actor, *actions):
    turn = clock.begin_turn(actor)
    for action in actions:
        clock.take(turn, action)
    clock.end_turn(turn)


def test_highest_ip_goes_first_1002_before_1001():
    """G12 RB: "resulting in Character A having 1,001 IP and Character B having 1,002
    IP, then it would be Character B's turn." """
    clock = Clock([1001, 1002], [A_TEAM, B_TEAM], RULES.clock)
    clock.advance()
    assert clock.ip == [1001, 1002]
    assert clock.next_turn() == (B_TEAM, (1,), HIGHEST_IP)
    run_turn(clock, 1)
    assert clock.next_turn() == (A_TEAM, (0,), HIGHEST_IP)


def test_cross_team_tie_goes_to_the_team_that_did_not_take_the_last_turn():
    """G13 RB: "if a character on Team A took a turn, and then a character on Team A and
    a character on Team B both gained enough IP to put them at 1,002 IP each, the
    character on Team B would get to take its turn first." """
    clock = Clock([1000, 501, 501], [A_TEAM, A_TEAM, B_TEAM], RULES.clock)
    clock.advance()
    run_turn(clock, 0, ActionType.MOVE, ActionType.ATTACK)  # Team A took a turn
    assert clock.next_turn() is None
    clock.advance()
    assert clock.ip == [1000, 1002, 1002]
    assert clock.next_turn() == (B_TEAM, (2,), OTHER_TEAM)
    run_turn(clock, 2)
    assert clock.next_turn().candidates == (1,)


def test_same_team_tie_is_the_players_decision():
    """G14 RB: "If the characters are on the same team, the player gets to decide which
    character gets to go first." -- never list order."""
    clock = Clock([500, 500, 100], [A_TEAM, A_TEAM, B_TEAM], RULES.clock)
    clock.advance()
    choice = clock.next_turn()
    assert (choice.team, choice.candidates, choice.decision) == (A_TEAM, (0, 1), True)
    run_turn(clock, 1)  # the player chose the second character
    assert clock.next_turn() == (A_TEAM, (0,), HIGHEST_IP)
    with pytest.raises(ValueError, match="not character 2's turn"):
        clock.begin_turn(2)


def test_both_teams_tied_alternate_starting_with_the_team_that_did_not_act_last():
    """G15 RB: "The team that has not taken the most recent action gets to go first. They
    can choose which of their tied characters get to act, but then it becomes the
    other team's turn, since now this team is the one that took the most recent
    action." """
    # B0 acts alone at tick 1 (full action); at tick 2 A1, A2, B1, B2 all have 1002.
    clock = Clock([1000, 501, 501, 501, 501], [B_TEAM, A_TEAM, A_TEAM, B_TEAM, B_TEAM],
                  RULES.clock)
    clock.advance()
    run_turn(clock, 0, ActionType.MOVE, ActionType.ATTACK)
    clock.advance()
    assert clock.ip == [1000, 1002, 1002, 1002, 1002]
    seen = []
    for pick in (2, 3, 1, 4):  # each team picks one of its tied characters in turn
        choice = clock.next_turn()
        seen.append((choice.team, choice.candidates))
        run_turn(clock, pick)
    assert seen == [(A_TEAM, (1, 2)), (B_TEAM, (3, 4)), (A_TEAM, (1,)), (B_TEAM, (4,))]
    assert clock.next_turn().candidates == (0,)  # 1000 IP after the 1002s


def test_first_tie_of_a_battle_uses_the_configured_team():
    """Before any turn no team "has taken the most recent turn" (decision B12)."""
    for first in (A_TEAM, B_TEAM):
        clock = Clock([100, 100], [A_TEAM, B_TEAM], RULES.clock, first_tie_team=first)
        clock.advance()
        assert clock.next_turn() == (first, (first,), FIRST_TIE)


# ---------------------------------------------------------------- IP, TSB, actions
def test_initiative_100_turns_at_ticks_10_15_and_20():
    """G16: Initiative 100 from 0 IP reaches 1,000 at tick 10; after a pass ("losing 500
    IP") the next turn is at tick 15, after a full action ("losing 1,000 IP") at 20."""
    for actions, ip_after, next_tick in (((), 500, 15),
                                         ((ActionType.MOVE, ActionType.ATTACK), 0, 20)):
        clock = Clock([100], [A_TEAM], RULES.clock)
        assert clock.advance() == 10 and clock.tick == 10
        run_turn(clock, 0, *actions)
        assert clock.ip == [ip_after]
        assert clock.ticks_until_turn(0) == next_tick - 10
        clock.advance()
        assert clock.tick == next_tick


def test_tsb_predicts_tick_20_after_a_full_action_at_tick_10():
    """G17 RB TSB: "it always assumes the character will pass, meaning their following
    turn is predicted to occur as quickly as possible"."""
    clock = Clock([100], [A_TEAM], RULES.clock)
    clock.advance()
    run_turn(clock, 0, ActionType.MOVE, ActionType.ATTACK)
    assert [p.tick for p in clock.predict(3)] == [20, 25, 30]


def test_move_and_attack_spend_all_1000_and_a_second_attack_is_refused():
    """G18 RB: "500 IP is automatically deducted ... Move Actions and Attack Actions each
    use up 250 additional IP ... it may not take the same type of action more than
    once per turn"."""
    clock = Clock([1000], [A_TEAM], RULES.clock)
    clock.advance()
    turn = clock.begin_turn(0)
    assert clock.ip == [500]
    clock.take(turn, ActionType.MOVE)
    clock.take(turn, ActionType.ATTACK)
    assert clock.ip == [0] and turn.spent == 1000
    with pytest.raises(ActionRefused, match="Attack Action already taken"):
        clock.take(turn, ActionType.ATTACK)
    assert clock.ip == [0]


@pytest.mark.parametrize(("move", "on_impeding", "expected"),
                         [(5, False, 1), (8, False, 2), (3, False, 1), (9, True, 1)])
def test_quarter_move_after_attack(move, on_impeding, expected):
    """G19 RB: "If the Attack Action is used first, the character may only move a quarter
    of its normal Speed value afterwards (rounded down to a minimum of 1)"; the
    Impeding halving "is always applied before any additional movement penalties"
    (Move 9 on Impeding: 4, then a quarter: 1)."""
    base = move // 2 if on_impeding else move
    assert move_after_attack(base, RULES.actions) == expected
    clock = Clock([1000], [A_TEAM], RULES.clock)
    clock.advance()
    turn = clock.begin_turn(0)
    assert turn.move_allowance(base, RULES.actions) == base  # nothing taken yet
    clock.take(turn, ActionType.ATTACK)
    assert turn.move_allowance(base, RULES.actions) == expected


def test_move_then_attack_carries_the_move_penalty_attack_then_move_does_not():
    """G20 RB: "If a Move is used first, the Attack Action receives a penalty";
    "any time a character takes a Move Action it receives a penalty to its Accuracy
    and a bonus to its Defense until the beginning of its next turn"."""
    after_move = attack_40_vs_100(adjacent=False, attacker_moved=True)
    before_move = attack_40_vs_100(adjacent=False, attacker_moved=False)
    assert after_move.difficulty - before_move.difficulty == -RULES.modifiers.moved_accuracy
    moved_target = attack_40_vs_100(adjacent=False, defender_moved=True)
    assert moved_target.difficulty - before_move.difficulty == RULES.modifiers.moved_defense


def test_liquid_modifiers_are_zero_until_designed():
    """G23 RB: Liquid "imposes several modifiers on targets that occupy it. These
    modifiers will be created later." -- all 0: an attack on a character in Liquid
    is an attack on one in Difficult terrain."""
    wet = attack_40_vs_100(adjacent=False, defender_on_liquid=True, attacker_on_liquid=True)
    dry = attack_40_vs_100(adjacent=False)
    assert wet == dry
