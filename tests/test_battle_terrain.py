"""Obstructing terrain in battle (B39): attacks on tiles and borders, accumulated damage,
destruction at the rules' threshold on the battle's own copy of the map."""

from __future__ import annotations

from battle_maps import battle, fighter, grid, index, turn_of, with_rules

from sodwa_editor.battle.actions import Attack, AttackTerrain, apply, legal_actions, refusal
from sodwa_editor.battle.board import prepare
from sodwa_editor.battle.obstructions import feature_targets
from sodwa_editor.battle.state import BattleState
from sodwa_editor.engine.model import Edge
from sodwa_editor.engine.terrain import Base, Crossing


def test_damage_on_a_wall_accumulates_until_the_threshold_destroys_it():
    """RB: "Obstructing Terrain can be destroyed by taking 3 or more damage ... If a Tile
    of Obstructing Terrain is destroyed, that tile becomes Difficult Terrain"; the damage
    of several attacks adds up and the threshold is ``terrain.obstruction_damage_threshold``;
    no roll (terrain has no Defense) and no Damage Reduction."""
    m = grid(".X..")
    s = battle(m, [fighter("a", 0, 0, 0, melee_damage=2), fighter("b", 1, 3, 0, range=5)])
    a, b = index(s, "a"), index(s, "b")
    shared = s.board
    turn_of(s, "a")
    assert AttackTerrain(1, 0) in legal_actions(s)
    rolled = s.streams.dice.rolled
    hit = apply(s, AttackTerrain(1, 0))
    assert [e.kind for e in hit] == ["terrain_attacked"]
    assert (hit[0].damage, hit[0].total, hit[0].threshold, hit[0].attack_kind) == \
        (2, 2, 3, "melee")
    assert s.streams.dice.rolled == rolled and s.damage == {(1, 0, ""): 2}
    turn_of(s, "b")
    assert s.los_board().crossing((3, 0), (0, 0)) is Crossing.BLOCKED
    turn_of(s, "a")
    hit = apply(s, AttackTerrain(1, 0))
    assert [e.kind for e in hit] == ["terrain_attacked", "terrain_destroyed"]
    assert hit[0].total == 4 and hit[1].rubble == ((1, 0),)
    assert s.board.model.base_at(1, 0) is Base.DIFFICULT and s.damage == {}
    assert s.destroyed == [(1, 0, "")]
    turn_of(s, "b")  # the line is open for the rest of the battle
    assert Attack(a) in legal_actions(s)
    assert shared.model.base_at(1, 0) is Base.OBSTRUCTING  # copy on write
    assert b != a


def test_destroying_a_border_makes_its_tiles_adjacent_rubble():
    """RB: "If a Border of Obstructing Terrain is destroyed, the tiles on either side
    become Difficult Terrain ... They also become Adjacent": melee across it is legal
    afterwards, not before."""
    m = grid("...")
    m.set_border(Edge(0, 0, "E"), int(Base.OBSTRUCTING))
    s = battle(m, [fighter("a", 0, 0, 0, range=1, melee_damage=5), fighter("b", 1, 1, 0)])
    b = index(s, "b")
    turn_of(s, "a")
    assert refusal(s, Attack(b)).startswith("line of sight blocked by the Obstructing border")
    assert feature_targets(s, index(s, "a")) == [(0, 0, "E")]
    events = apply(s, AttackTerrain(0, 0, "E"))
    assert events[-1].rubble == ((0, 0), (1, 0))
    turn_of(s, "a")
    assert s.board.adjacent((0, 0), (1, 0))
    assert Attack(b) in legal_actions(s)
    assert s.board.model.base_at(0, 0) is Base.DIFFICULT


def test_ranged_attacks_reach_the_first_wall_on_the_line_only():
    """B39: a ranged attack on a wall needs Range and a line blocked first by that wall;
    a border is aimed at through the tile beyond it."""
    m = grid("...XX. ......")
    m.set_border(Edge(1, 1, "E"), int(Base.OBSTRUCTING))
    s = battle(m, [fighter("a", 0, 0, 0, range=3, ranged_damage=1),
                   fighter("b", 1, 5, 1)])
    a = turn_of(s, "a")
    assert feature_targets(s, a) == [(3, 0, ""), (1, 1, "E")]
    assert refusal(s, AttackTerrain(4, 0)) == \
        "out of range: the tile (4, 0) is 4 tiles away, Range 3"
    near = battle(m, [fighter("a", 0, 0, 0, range=9), fighter("b", 1, 5, 1)])
    turn_of(near, "a")
    assert refusal(near, AttackTerrain(4, 0)) == \
        "line of sight to the tile (4, 0) blocked by the Obstructing tile (3, 0)"
    assert refusal(near, AttackTerrain(2, 0)) == "the tile (2, 0) is not Obstructing terrain"
    event = apply(s, AttackTerrain(3, 0))[0]
    assert (event.attack_kind, event.damage) == ("ranged", 1)


def test_threshold_and_switch_come_from_the_rules():
    rules = with_rules(terrain={"obstruction_damage_threshold": 5})
    s = battle(grid("X..."), [fighter("a", 0, 1, 0, melee_damage=2), fighter("b", 1, 3, 0)],
               rules)
    for total in (2, 4):
        turn_of(s, "a")
        assert apply(s, AttackTerrain(0, 0))[-1].total == total
    turn_of(s, "a")
    assert apply(s, AttackTerrain(0, 0))[-1].kind == "terrain_destroyed"
    off = with_rules(terrain={"basic_attack_targets_obstructions": False})
    s = battle(grid("X..."), [fighter("a", 0, 1, 0), fighter("b", 1, 3, 0)], off)
    a = turn_of(s, "a")
    assert feature_targets(s, a) == []
    assert refusal(s, AttackTerrain(0, 0)) == \
        "the rules do not let a Basic Attack target terrain"


def test_a_character_beside_an_enemy_cannot_attack_terrain():
    s = battle(grid("X.."), [fighter("a", 0, 1, 0), fighter("b", 1, 2, 0)])
    a = turn_of(s, "a")
    assert feature_targets(s, a) == []
    assert refusal(s, AttackTerrain(0, 0)) == "must target the adjacent enemy: 'b'"


def test_destruction_never_reaches_the_source_map_or_another_battle():
    """B34: a battle plays on a copy; the board it shares with other battles is copied
    before it changes."""
    m = grid(".X..")
    before = m.copy()
    board = prepare(m)
    fighters = [fighter("a", 0, 0, 0, melee_damage=9), fighter("b", 1, 3, 0)]
    one = BattleState(board, fighters, with_rules(), 0)
    two = BattleState(board, fighters, with_rules(), 0)
    turn_of(one, "a")
    apply(one, AttackTerrain(1, 0))
    assert one.board is not board and one.board.model.base_at(1, 0) is Base.DIFFICULT
    assert two.board is board and board.model.base_at(1, 0) is Base.OBSTRUCTING
    assert m.same_content(before) and m.revision == before.revision
