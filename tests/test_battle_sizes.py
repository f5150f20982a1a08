"""Creatures of any size in battles (docs/rules.md S19-S27): the roster's sizes, footprints
placed by formation and from the map, movement, melee and ranged attacks by footprint,
areas hitting a creature once, flanking and cover as attack modifiers, invariants, the
AIs and replays."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest

from sodwa_editor.battle import invariants, sized
from sodwa_editor.battle.actions import Move, apply, begin_turn, next_turn, refusal
from sodwa_editor.battle.ai import make_controllers
from sodwa_editor.battle.jsonfiles import BattleInputError
from sodwa_editor.battle.loop import run_battle
from sodwa_editor.battle.replay import load_replay, record, rerun
from sodwa_editor.battle.rules import default_rules
from sodwa_editor.battle.setup import BattleSetup
from sodwa_editor.battle.sheet import load_roster, roster_from_dict
from sodwa_editor.battle.state import BattleState
from sodwa_editor.battle.targeting import attack_refusal, attack_targets, preview_attack
from sodwa_editor.battle.teams import Team, place_formation, team_from_dict
from sodwa_editor.benchmarks import huge_teams, random_teams
from sodwa_editor.engine.footprint import Footprint
from sodwa_editor.engine.generate import make_mixed_map
from sodwa_editor.engine.model import Character, MapModel, Rect
from sodwa_editor.engine.terrain import Base

OBS, IMP = int(Base.OBSTRUCTING), int(Base.IMPEDING)


def rules_with(**sections: dict[str, object]):  # type: ignore[no-untyped-def]
    r = default_rules()
    return dataclasses.replace(r, **{k: dataclasses.replace(getattr(r, k), **v)
                                     for k, v in sections.items()})


def team(name: str, archetypes: list[str]) -> Team:
    return team_from_dict({"format": "sodwa-team", "format_version": 1, "name": name,
                           "members": [{"id": f"m{i}", "archetype": a}
                                       for i, a in enumerate(archetypes)]}, load_roster())


def board_of(chars: list[Character], w: int = 12, h: int = 12) -> MapModel:
    m = MapModel(w, h)
    for c in chars:
        m.put_character(c)
    return m


def giant(cid: str, team_name: str, x: int, y: int) -> Character:
    return Character(cid, team_name, x, y, move=6, range=1, name="Giant", size="huge")


def knight(cid: str, team_name: str, x: int, y: int) -> Character:
    return Character(cid, team_name, x, y, move=5, range=1, name="Knight")


def archer(cid: str, team_name: str, x: int, y: int) -> Character:
    return Character(cid, team_name, x, y, move=5, range=8, name="Archer")


def start(state: BattleState, actor: int) -> None:
    while True:
        choice = next_turn(state)
        if actor in choice.candidates:
            begin_turn(state, actor)
            return
        begin_turn(state, choice.candidates[0])
        state.clock.end_turn(state.clock.current)  # type: ignore[arg-type]


# ------------------------------------------------------------------ roster and placement
def test_the_roster_has_a_large_and_a_huge_archetype_near_the_point_budget():
    """S21: roster format 3 gives archetypes a size; the shipped Minotaur is Large and the
    Giant Huge, costed by the value model so teams stay near 400 points."""
    roster = load_roster()
    assert roster.find("Minotaur").size == "large" and roster.find("Giant").size == "huge"
    assert roster.find("Giant").sheet().footprint() == Footprint(4, 4)
    assert roster.find("Giant").sheet().footprint(2) == Footprint(2, 2)
    costs = sorted(a.values["cost"] for a in roster.archetypes)
    giant_team = roster.find("Giant").values["cost"] + sum(costs[len(costs) // 2:][:3])
    assert 380 <= giant_team <= 480


def test_versions_1_and_2_rosters_are_still_read_and_sizes_need_version_3():
    doc = json.loads((load_roster.__globals__["DEFAULT_ROSTER_PATH"]).read_text())
    v2 = json.loads(json.dumps(doc))
    v2["format_version"] = 2
    v2["characters"] = [c for c in v2["characters"] if "size" not in c]
    assert all(a.size == "medium" for a in roster_from_dict(v2).archetypes)
    v2["characters"][0]["size"] = "large"
    with pytest.raises(BattleInputError, match=r"characters\[0\]\.size: a roster of "
                                               "format_version 2 has no size"):
        roster_from_dict(v2, "r.json")
    doc["characters"][0]["footprint"] = [4, 8]
    doc["characters"][0]["size"] = "massive"
    assert roster_from_dict(doc).archetypes[0].sheet().footprint() == Footprint(4, 8)


def test_a_formation_places_footprints_largest_first_in_the_zone():
    """S22: the formation is laid out one tile per member, then members are placed
    largest first, every square in the zone where there is room."""
    m = MapModel(16, 16)
    m.start_zones = {"red": {(x, y) for x in range(6) for y in range(6)},
                     "blue": {(x, y) for x in range(10, 16) for y in range(10, 16)}}
    t = team("red", ["Knight", "Giant", "Archer"])
    fps = [mm.sheet.footprint() for mm in t.members]
    p = place_formation(m, "red", t.formation(), (), fps)
    squares = [s for tile, fp in zip(p.tiles, fps, strict=True) for s in fp.squares(tile)]
    assert len(squares) == len(set(squares)) == 18
    assert all(s in m.start_zones["red"] for s in squares)
    state = BattleState.from_teams(m, [("red", t, None), ("blue", team("b", ["Minotaur"]), None)])
    assert state.sized and state.fp[1] == Footprint(4, 4)
    assert invariants.state_problems(state) == []


def test_a_footprint_with_no_room_is_refused_with_its_reason():
    m = MapModel(8, 8)
    m.fill_terrain(Rect(0, 0, 7, 7), OBS)
    for x in range(2):
        for y in range(2):
            m.set_terrain(x, y, 0)
    m.start_zones = {"red": {(0, 0), (1, 0), (0, 1), (1, 1)}}
    with pytest.raises(BattleInputError, match="no room for member 1's 4x4 footprint"):
        place_formation(m, "red", team("red", ["Giant"]).formation(), (), [Footprint(4, 4)])


def test_map_characters_keep_their_size_and_a_misplaced_one_is_refused():
    """S22: a battle from the map honours each character's size; a footprint in a wall
    is refused naming the character and the tile."""
    m = board_of([giant("g", "red", 0, 0), knight("k", "blue", 8, 8)])
    s = BattleState.from_map(m)
    assert s.fp == (Footprint(1, 1), Footprint(4, 4)) or s.fp == (Footprint(4, 4),
                                                                   Footprint(1, 1))
    assert len(s.occ) == 17
    m.set_terrain(3, 3, OBS)
    with pytest.raises(BattleInputError, match=r"character 'g' \(huge, 4x4 at \(0, 0\)\) "
                                               r"cannot stand there: the Obstructing tile"):
        BattleState.from_map(m)
    m.set_terrain(3, 3, 0)
    m.put_character(knight("k2", "blue", 2, 2))
    with pytest.raises(BattleInputError, match="share the tile"):
        BattleState.from_map(m)


# ------------------------------------------------------------------ moves and attacks
def test_a_huge_creature_moves_by_its_footprint_and_its_squares_follow():
    """S23: its range is the engine's footprint range; the tile index follows."""
    m = board_of([giant("g", "red", 0, 0), knight("k", "blue", 10, 10)], 14, 14)
    m.fill_terrain(Rect(5, 0, 5, 2), OBS)  # a wall with a 1-tile gap is not enough
    s = BattleState.from_map(m)
    g = s.names.index("g")
    start(s, g)
    assert refusal(s, Move((3, 0))) is not None  # (5, 0) under the footprint: a wall
    assert "no room for its 4x4 footprint" in refusal(s, Move((3, 0)))
    assert refusal(s, Move((2, 4))) is None
    apply(s, Move((2, 4)))
    assert sorted(t for t, i in s.occ.items() if i == g) == sorted(Footprint(4, 4).squares((2, 4)))
    assert invariants.state_problems(s) == []


def test_melee_from_any_square_adjacent_to_any_occupied_square():
    """S5, S23: adjacency by footprints; an adjacent enemy must be the target (B38)."""
    m = board_of([giant("g", "red", 0, 0), knight("k", "blue", 4, 3),
                  archer("a", "blue", 9, 9)])
    s = BattleState.from_map(m)
    g, k, a = (s.names.index(n) for n in ("g", "k", "a"))
    assert sized.adjacent(s, g, k)  # (3, 3) and (4, 3): the knight touches its corner
    assert attack_targets(s, g) == [k]
    assert attack_refusal(s, k, g) is None
    assert preview_attack(s, k, g).kind == "melee"
    assert "must target the adjacent enemy" in attack_refusal(s, g, a)


def test_range_counts_to_the_nearest_square_and_lines_go_round_a_pillar():
    """S24, S9: Range to the nearest square; the best line between any two squares."""
    m = board_of([giant("g", "red", 0, 0), archer("a", "blue", 11, 1)], 14, 6)
    m.set_terrain(7, 1, OBS)
    s = BattleState.from_map(m)
    g, a = s.names.index("g"), s.names.index("a")
    assert sized.gap(s, a, g) == 8  # from x=11 to the Giant's x=3
    assert attack_refusal(s, a, g) is None
    s.sheets = tuple(dataclasses.replace(sh, range=7) if i == a else sh
                     for i, sh in enumerate(s.sheets))
    assert "out of range" in attack_refusal(s, a, g)


def test_an_area_hits_a_large_creature_once():
    """S11, S25: the victims of an area are counted once each."""
    from sodwa_editor.battle.area_rules import on_tiles

    s = BattleState.from_map(board_of([giant("g", "red", 2, 2), knight("k", "blue", 9, 9)]))
    g = s.names.index("g")
    assert on_tiles(s, [(2, 2), (3, 3), (5, 5), (9, 9)]) == sorted([g, s.names.index("k")])


# ------------------------------------------------------------------ flanking and cover
def flank_board() -> BattleState:
    m = board_of([knight("t", "blue", 5, 5), knight("w", "red", 4, 5),
                  knight("e", "red", 6, 5)])
    return BattleState.from_map(m, rules=rules_with(flanking={"enabled": True}))


def test_flanking_lowers_the_defenders_evasion_and_is_listed_in_the_bip():
    """S19: -5 Evasion per counted foe square, never below 0, listed by source."""
    s = flank_board()
    w, t = s.names.index("w"), s.names.index("t")
    p = preview_attack(s, w, t)
    mods = {m.source: (m.stat, m.amount) for m in p.modifiers}
    assert mods["flanked by 2 foes (2 squares)"] == ("evasion", -5)
    off = dataclasses.replace(s.rules, flanking=default_rules().flanking)
    s.rules = off
    s.changed()
    assert preview_attack(s, w, t).tdv == p.tdv + 5


def test_flanking_is_off_by_default_and_a_large_foe_counts_per_square():
    m = board_of([knight("t", "blue", 4, 4), giant("g", "red", 0, 2), knight("e", "red", 5, 4)])
    s = BattleState.from_map(m)
    t, e = s.names.index("t"), s.names.index("e")
    assert not any("flanked" in x.source for x in preview_attack(s, e, t).modifiers)
    s.rules = rules_with(flanking={"enabled": True})
    s.changed()
    f = sized.flanked(s, t)
    assert f.flankers == {"g": 3, "e": 1}
    evasion = s.sheets[t].evasion  # a Knight has 5: the penalty stops there
    mod = next(x for x in preview_attack(s, e, t).modifiers if "flanked" in x.source)
    assert mod.amount == -min(evasion, 5 * 4)


def test_cover_adds_nothing_between_one_tile_characters_by_default():
    """S16, S17: Covered is SODWA's impeded line, +20 once."""
    m = board_of([archer("a", "red", 0, 1), knight("k", "blue", 6, 1)], 8, 3)
    m.set_terrain(3, 1, IMP)
    s = BattleState.from_map(m)
    p = preview_attack(s, s.names.index("a"), s.names.index("k"))
    assert [(x.source, x.amount) for x in p.modifiers if x.stat == "defense"] == [
        ("impeded line of sight", 20)]
    s.rules = rules_with(cover={"covered_defense": 30})
    s.changed()
    p = preview_attack(s, s.names.index("a"), s.names.index("k"))
    assert ("covered", 10) in [(x.source, x.amount) for x in p.modifiers]


def test_a_large_target_half_behind_a_wall_is_heavily_covered():
    """S15, S20: the best line goes round the pillar, the direct line meets it."""
    m = board_of([archer("a", "red", 11, 1), giant("g", "blue", 0, 0)], 14, 4)
    m.set_terrain(7, 1, OBS)
    s = BattleState.from_map(m)
    a, g = s.names.index("a"), s.names.index("g")
    assert sized.cover_of(s, a, g).level == "heavy"
    mods = [(x.source, x.stat, x.amount) for x in preview_attack(s, a, g).modifiers]
    assert ("heavily covered", "defense", 40) in mods
    s.rules = rules_with(cover={"enabled": False})
    s.changed()
    assert not any("covered" in x.source for x in preview_attack(s, a, g).modifiers)


# ------------------------------------------------------------------ AIs, soak, replays
@pytest.mark.parametrize("flank", [False, True])
def test_greedy_battles_with_a_huge_creature_a_side_keep_every_invariant(flank):
    """S27: the AIs move and attack with large creatures; every action legal."""
    m = make_mixed_map(24, seed=24)
    problems: Counter[str] = Counter()
    attacks = Counter()
    for seed in range(2):
        s = BattleState.from_teams(m, huge_teams(seed, 3), seed=seed)
        s.rules = rules_with(flanking={"enabled": flank})
        out = run_battle(s, make_controllers(["greedy", "greedy"], s),
                         before_action=lambda st, act: problems.update(
                             invariants.action_problems(st, act)),
                         after_turn=lambda st: problems.update(invariants.state_problems(st)))
        assert out.result is not None
        big = {i for i in range(len(s.pos)) if s.fp[i] != (1, 1)}
        attacks.update(e.actor in big for e in out.events if e.kind == "attacked")
    assert problems == Counter()
    assert attacks[True] > 0


def test_the_large_actors_planner_scores_flanking():
    """S27: with flanking on, a position that flanks an enemy is worth more."""
    from sodwa_editor.battle.ai.profile import default_profile
    from sodwa_editor.battle.ai.sized_plans import _flank

    w = default_profile().greedy
    m = board_of([giant("g", "red", 0, 3), knight("t", "blue", 4, 4), knight("e", "red", 5, 4)])
    s = BattleState.from_map(m)
    g = s.names.index("g")
    assert _flank(s, g, w) == 0
    s.rules = rules_with(flanking={"enabled": True})
    s.changed()
    assert _flank(s, g, w) > 0


def test_a_battle_with_large_creatures_replays_and_verifies():
    m = make_mixed_map(24, seed=24)
    teams = huge_teams(3, 3)
    docs = {"teams": [{"format": "sodwa-team", "format_version": 1, "name": t.name,
                       "members": [{"id": mm.id, "archetype": mm.archetype}
                                   for mm in t.members]} for _z, t, _f in teams]}
    setup = BattleSetup.from_map(m, ai=("greedy", "random"), teams=teams, docs=docs)
    out, doc = record(setup, 5, map_file="m.json", map_hash="sha256:00")
    again = rerun(load_replay(json.loads(json.dumps(doc)), "r.json"), m, "sha256:00",
                  verify=True)
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in out.events]


def test_random_teams_stay_medium_and_huge_teams_have_one_huge_a_side():
    for side, t, _f in random_teams(4, 4):
        assert all(mm.sheet.size == "medium" for mm in t.members), side
    for _side, t, _f in huge_teams(4, 4):
        assert [mm.sheet.size for mm in t.members].count("huge") == 1


def test_invariants_catch_an_overlap_and_a_footprint_in_a_wall():
    s = BattleState.from_map(board_of([giant("g", "red", 0, 0), knight("k", "blue", 8, 8)]))
    g = s.names.index("g")
    bad = s.copy()
    bad.pos[g] = (6, 6)  # covers (8, 8): the knight's tile; the index not updated
    problems = invariants.state_problems(bad)
    assert any("share (8, 8)" in p for p in problems)
    assert "the tile index disagrees with the footprints" in problems
    walled = s.copy()
    walled.own_board().model.set_terrain(2, 2, OBS)
    assert any("Obstructing tile (2, 2)" in p for p in invariants.state_problems(walled))


def test_passing_a_hostile_by_size_is_the_rules_key_and_off_by_default():
    """S8, S23: ``movement.pass_hostile_by_size`` lets a Tiny mover through an enemy."""
    m = MapModel(7, 3)
    m.fill_terrain(Rect(0, 0, 6, 0), OBS)
    m.fill_terrain(Rect(0, 2, 6, 2), OBS)
    m.put_character(Character("mouse", "red", 0, 1, move=6, range=1, name="Rogue",
                              size="tiny"))
    m.put_character(Character("k", "blue", 3, 1, move=5, range=1, name="Knight"))
    s = BattleState.from_map(m)
    mouse = s.names.index("mouse")
    start(s, mouse)
    assert refusal(s, Move((5, 1))) is not None
    s.rules = rules_with(movement={"pass_hostile_by_size": True})
    s.changed()
    assert refusal(s, Move((5, 1))) is None


def test_cover_is_defense_and_leaves_awareness_to_sodwas_line():
    """S18: no spotting penalty (SODWA has no spotting roll): a heavily covered defender
    that sees its attacker still adds its Evasion; cover only adds Defense."""
    m = board_of([archer("a", "red", 11, 1), giant("g", "blue", 0, 0)], 14, 4)
    m.set_terrain(7, 1, OBS)
    s = BattleState.from_map(m)
    a, g = s.names.index("a"), s.names.index("g")
    p = preview_attack(s, a, g)
    assert sized.cover_of(s, a, g).level == "heavy"
    assert p.evasion == s.sheets[g].evasion
    assert {x.stat for x in p.modifiers if "covered" in x.source} == {"defense"}
