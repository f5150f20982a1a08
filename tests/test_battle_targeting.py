"""Targeting (B38): melee iff adjacent by the engine's rule, ranged within Range with
LoS, the adjacent-enemy restriction; the BIP preview is pure."""

from __future__ import annotations

import pytest
from battle_maps import battle, fighter, grid, index, turn_of

from sodwa_editor.battle.actions import Attack, IllegalAction, apply, legal_actions, refusal
from sodwa_editor.battle.attack import Modifier
from sodwa_editor.battle.dice import D100
from sodwa_editor.battle.targeting import attack_targets, preview_attack
from sodwa_editor.engine.model import Edge


def attacks(state) -> list[int]:
    return [a.target for a in legal_actions(state) if isinstance(a, Attack)]


def test_a_character_adjacent_to_an_enemy_may_only_target_adjacent_enemies():
    """RB *Line of Sight*: "Any character that is adjacent to one or more enemy characters
    may only target the adjacent enemy characters, though it may still be the ranged
    target of other non-adjacent characters"."""
    m = grid("..... ..... ..... ..... .....")
    s = battle(m, [fighter("a", 0, 0, 1, range=6), fighter("c", 0, 4, 4, range=6),
                   fighter("e1", 1, 1, 1), fighter("e2", 1, 0, 3)])
    e1, e2 = index(s, "e1"), index(s, "e2")
    turn_of(s, "a")
    assert attacks(s) == [e1]
    assert refusal(s, Attack(e2)) == "must target the adjacent enemy: 'e1'"
    with pytest.raises(IllegalAction, match="must target the adjacent enemy"):
        apply(s, Attack(e2))
    turn_of(s, "c")
    assert attacks(s) == [e1, e2]  # e2 can still be shot by a character not engaged


def test_melee_needs_adjacency_only_and_ranged_needs_range_and_line_of_sight():
    """RB: "LoS is not required for Melee attacks, though Melee Attacks do require that
    the attacking and defending characters are adjacent"; a ranged target must be
    "within a number of tiles equal to the attacker's Range attribute" and LoS "blocked
    ... cannot be made"."""
    m = grid("........")
    s = battle(m, [fighter("a", 0, 0, 0, range=0), fighter("b", 1, 1, 0),
                   fighter("f", 0, 3, 0, range=4), fighter("g", 1, 7, 0)])
    a, b, g = index(s, "a"), index(s, "b"), index(s, "g")
    turn_of(s, "a")
    assert attacks(s) == [b] and preview_attack(s, a, b).kind == "melee"
    turn_of(s, "f")
    assert attacks(s) == [b, g]  # b 2 tiles away (a stands beside it, not between), g 4
    far = battle(grid("........"), [fighter("f", 0, 0, 0, range=4), fighter("g", 1, 5, 0)])
    turn_of(far, "f")
    assert refusal(far, Attack(index(far, "g"))) == "out of range: 'g' is 5 tiles away, Range 4"
    blocked = battle(grid("........"), [fighter("f", 0, 0, 0, range=6),
                                        fighter("w", 0, 2, 0), fighter("g", 1, 4, 0)])
    turn_of(blocked, "f")
    assert refusal(blocked, Attack(index(blocked, "g"))) == \
        "line of sight blocked by character 'w' on (2, 0)"


def test_impeded_line_of_sight_adds_20_defense_and_walls_block():
    """RB: "If LoS crosses Impeding Terrain, the target gains a bonus modifier of 20% to
    its Defense" (B20); Obstructing terrain blocks LoS: not a legal target."""
    s = battle(grid("..I...X."), [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 4, 0),
                                   fighter("c", 1, 7, 0)])
    a, b, c = turn_of(s, "a"), index(s, "b"), index(s, "c")
    assert preview_attack(s, a, b).modifiers == (Modifier("impeded line of sight", "defense",
                                                          20),)
    assert attacks(s) == [b]
    assert refusal(s, Attack(c)) == "line of sight blocked by character 'b' on (4, 0)"


def test_melee_across_a_transition_border_between_levels():
    """B38 with the engine's adjacency (A3): tiles on either side of a transition border
    are adjacent though at different elevations, so a melee attack is legal there and
    not where the edge has no transition."""
    m = grid("... ...", "011 011")
    m.transition[0, 0] = True
    m.set_transition_edge(Edge(0, 0, "E"), True)
    s = battle(m, [fighter("a", 0, 0, 0, range=0), fighter("b", 1, 1, 0),
                   fighter("c", 0, 0, 1, range=0), fighter("d", 1, 1, 1)])
    a, b, d = turn_of(s, "a"), index(s, "b"), index(s, "d")
    p = preview_attack(s, a, b)
    assert p.kind == "melee"
    assert Modifier("lower ground", "accuracy", -10) in p.modifiers
    turn_of(s, "c")
    assert attacks(s) == []  # no transition between (0,1) and (1,1); Range 0
    assert refusal(s, Attack(d)) == "out of range: 'd' is 1 tiles away, Range 0"


def test_only_living_enemies_are_targets():
    s = battle(grid("...."), [fighter("a", 0, 0, 0), fighter("f", 0, 1, 0),
                              fighter("b", 1, 2, 0, health=1)])
    a, f, b = turn_of(s, "a"), index(s, "f"), index(s, "b")
    assert refusal(s, Attack(f)) == "'f' is on your own team"
    assert refusal(s, Attack(a)) == "a character cannot attack itself"
    assert refusal(s, Attack(9)) == "no character 9"
    turn_of(s, "f")
    apply(s, Attack(b), roll=lambda: D100(0, 0))
    assert s.result is not None and attack_targets(s, f) == []


def test_preview_is_pure_and_equals_the_resolved_numbers():
    """RB BIP; B31: the preview changes neither the state nor the dice stream, and the
    attack then resolves with exactly the previewed numbers."""
    s = battle(grid("..I...."), [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 5, 0)])
    a, b = turn_of(s, "a"), index(s, "b")
    before, rolled = s.state_hash(), s.streams.dice.rolled
    p = preview_attack(s, a, b)
    assert (s.state_hash(), s.streams.dice.rolled) == (before, rolled)
    event = apply(s, Attack(b))[0]
    assert s.streams.dice.rolled == rolled + 1
    assert (event.attack_kind, event.tav, event.tdv, event.difficulty, event.modifiers) == \
        (p.kind, p.tav, p.tdv, p.difficulty, p.modifiers)
    assert event.hp_after == s.hp[b] == s.sheets[b].health - event.damage
    with pytest.raises(IllegalAction, match="cannot attack itself"):
        preview_attack(s, b, b)
