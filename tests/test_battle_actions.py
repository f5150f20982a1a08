"""Turns and actions on small hand-made maps: the quarter move, the Move Action
modifiers, one action of each type, IP costs and the refusals a UI shows."""

from __future__ import annotations

import pytest
from battle_maps import battle, fighter, grid, index, turn_of, with_rules

from sodwa_editor.battle.actions import (
    Attack,
    AttackTerrain,
    IllegalAction,
    Move,
    Pass,
    apply,
    begin_turn,
    legal_actions,
    move_allowance,
    next_turn,
    options,
    preview_attack,
    refusal,
)
from sodwa_editor.battle.attack import Modifier
from sodwa_editor.battle.dice import D100


def fifty() -> D100:
    return D100(5, 0)


@pytest.mark.parametrize(("move", "start", "full", "after_attack"),
                         [(5, ".", 5, 1), (8, ".", 8, 2), (3, ".", 3, 1), (9, "I", 4, 1),
                          (0, ".", 0, 0)])
def test_quarter_move_after_an_attack(move, start, full, after_attack):
    """RB *Action Types*: "If the Attack Action is used first, the character may only
    move a quarter of its normal Speed value afterwards (rounded down to a minimum of
    1)"; *Impeding*: the halving "is always applied before any additional movement
    penalties" (B15; Move 9 on Impeding: 4, then 1).  B16: Move 0 stays 0."""
    m = grid("X" + start + "..........")
    s = battle(m, [fighter("a", 0, 1, 0, move=move, melee_damage=1),
                   fighter("b", 1, 11, 0)])
    turn_of(s, "a")
    assert move_allowance(s) == full
    farthest = max((abs(mv.to[0] - 1) for mv in legal_actions(s) if isinstance(mv, Move)),
                   default=0)
    assert farthest == full
    apply(s, AttackTerrain(0, 0))
    assert move_allowance(s) == after_attack
    moves = [a.to for a in legal_actions(s) if isinstance(a, Move)]
    assert moves == [(1 + k, 0) for k in range(1, after_attack + 1)]
    if after_attack:
        event = apply(s, Move((1 + after_attack, 0)))[0]
        assert (event.steps, event.allowance) == (after_attack, after_attack)


def test_move_then_attack_carries_the_move_penalty_until_the_next_turn():
    """RB: "any time a character takes a Move Action it receives a penalty to its
    Accuracy and a bonus to its Defense until the beginning of its next turn"; "If a
    Move is used first, the Attack Action receives a penalty" (B22)."""
    m = grid("." * 12)
    s = battle(m, [fighter("a", 0, 0, 0, range=10), fighter("b", 1, 8, 0, range=10)])
    a, b = index(s, "a"), index(s, "b")
    turn_of(s, "a")
    assert preview_attack(s, a, b).modifiers == ()
    apply(s, Move((2, 0)))
    moved = Modifier("attacker moved", "accuracy", -10)
    assert preview_attack(s, a, b).modifiers == (moved,)
    event = apply(s, Attack(b), roll=fifty)[0]
    assert event.modifiers == (moved,)
    turn_of(s, "b")  # a's bonus to Defense lasts through b's turn ...
    assert preview_attack(s, b, a).modifiers == (Modifier("defender moved", "defense", 10),)
    turn_of(s, "a")  # ... and ends when a's next turn begins
    assert not s.moved[a]
    event = apply(s, Attack(b), roll=fifty)[0]
    assert event.modifiers == ()
    apply(s, Move((1, 0)))  # attack first, then move: the attack had no penalty
    assert s.moved[a]


def test_one_action_of_each_type_and_the_ip_they_cost():
    """RB: "500 IP is automatically deducted ... Move Actions and Attack Actions each use
    up 250 additional IP ... it may not take the same type of action more than once per
    turn" (B8); the refusals are one line for the UI."""
    m = grid("." * 8)
    s = battle(m, [fighter("a", 0, 0, 0, range=6), fighter("b", 1, 5, 0)])
    a = turn_of(s, "a")
    assert s.clock.ip[a] == 500
    apply(s, Move((1, 0)))
    assert s.clock.ip[a] == 250
    with pytest.raises(IllegalAction, match="^Move Action already taken this turn$"):
        apply(s, Move((2, 0)))
    apply(s, Attack(index(s, "b")), roll=fifty)
    assert s.clock.ip[a] == 0
    assert refusal(s, Attack(index(s, "b"))) == "Attack Action already taken this turn"
    assert refusal(s, AttackTerrain(3, 0)) == "Attack Action already taken this turn"
    assert legal_actions(s) == [Pass()]
    ended = apply(s, Pass())[0]
    assert (ended.passed, ended.spent, ended.ip) == (False, 1000, 0)
    b = turn_of(s, "b")
    ended = apply(s, Pass())[0]
    assert (ended.actor, ended.passed, ended.spent, ended.ip) == (b, True, 500, 500)


def test_move_refusals_name_the_reason():
    m = grid("..X.... .......")
    s = battle(m, [fighter("a", 0, 0, 0, move=2), fighter("b", 1, 1, 1),
                   fighter("c", 0, 6, 1)])
    turn_of(s, "a")
    assert refusal(s, Move((0, 0))) == "a Move Action must leave the tile"
    assert refusal(s, Move((1, 1))) == "(1, 1) is taken by 'b'"
    assert refusal(s, Move((2, 0))) == "(2, 0) is Obstructing terrain"
    assert refusal(s, Move((9, 0))) == "(9, 0) is off the map"
    assert refusal(s, Move((4, 0))).startswith("(4, 0) is out of reach (2 steps allowed")
    assert refusal(s, Move((1, 0))) is None


def test_nothing_is_allowed_between_turns_or_after_the_battle():
    m = grid("....")
    s = battle(m, [fighter("a", 0, 0, 0), fighter("b", 1, 1, 0, health=1)])
    assert legal_actions(s) == [] and options(s) is None
    assert refusal(s, Pass()) == "no turn has begun"
    turn_of(s, "a")
    apply(s, Attack(index(s, "b")), roll=lambda: D100(0, 0))
    assert s.over and s.result.winner == 0
    assert legal_actions(s) == []
    with pytest.raises(IllegalAction, match="the battle is over"):
        apply(s, Pass())
    assert next_turn(s) is None
    with pytest.raises(IllegalAction, match="the battle is over"):
        begin_turn(s, 0)


def test_begin_turn_refuses_a_character_whose_turn_it_is_not():
    m = grid("....")
    s = battle(m, [fighter("a", 0, 0, 0, initiative=200), fighter("b", 1, 3, 0)])
    choice = next_turn(s)
    assert choice.candidates == (index(s, "a"),)
    with pytest.raises(IllegalAction, match="not 'b''s turn"):
        begin_turn(s, index(s, "b"))


def test_liquid_modifiers_and_liquid_move_come_from_the_rules():
    """B23 and B37: the ``terrain.liquid`` keys apply to a character occupying Liquid:
    Accuracy on its attacks, Defense and Evasion against attacks on it, and Move after
    the start-of-turn halving (Liquid hinders movement like Difficult terrain)."""
    rules = with_rules(terrain={"liquid": {"accuracy": -5, "defense": 7, "evasion": 3,
                                           "move": -2}})
    m = grid("L......L")
    s = battle(m, [fighter("a", 0, 0, 0, move=6, range=9), fighter("b", 1, 7, 0)], rules)
    a, b = turn_of(s, "a"), index(s, "b")
    assert move_allowance(s) == 1  # 6 halved to 3 on a hindering start, then -2
    p = preview_attack(s, a, b)
    assert p.modifiers == (Modifier("attacker in liquid", "accuracy", -5),
                           Modifier("defender in liquid", "defense", 7),
                           Modifier("defender in liquid", "evasion", 3))
    assert p.tav == p.accuracy - 5 and p.tdv == p.defense + p.evasion + 10
    zero = battle(m, [fighter("a", 0, 0, 0, move=6, range=9), fighter("b", 1, 7, 0)])
    turn_of(zero, "a")
    assert move_allowance(zero) == 3 and preview_attack(zero, a, b).modifiers == ()
