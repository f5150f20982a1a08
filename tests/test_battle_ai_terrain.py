"""The AIs and terrain properties (docs/battle-ai.md, *Terrain properties*): the profile's
terrain weights, a Cover tile preferred, a Hazardous path avoided, a target in Full Cover
not shot at, weights of 0 restoring the plans of a map without properties; and the
threat of an enemy larger than a tile read from its whole footprint."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from battle_maps import battle, fighter, grid, index, turn_of, with_rules
from test_terrain_battle import paint

from sodwa_editor.battle.actions import Attack, Move, Pass, apply
from sodwa_editor.battle.ai.expectimax import Expectimax
from sodwa_editor.battle.ai.greedy import Greedy
from sodwa_editor.battle.ai.profile import (
    DEFAULT_PROFILE,
    NO_TERRAIN,
    TERRAIN_PROFILE,
    Profile,
    TerrainWeights,
    load_profile,
    profile_from_dict,
)
from sodwa_editor.battle.ai.scoring import TurnFacts, plans
from sodwa_editor.battle.ai.terrain_terms import TerrainTerms
from sodwa_editor.battle.jsonfiles import BattleInputError
from sodwa_editor.battle.loop import View
from sodwa_editor.battle.targeting import attack_refusal
from sodwa_editor.engine.terrain import Base

PROFILE = load_profile(TERRAIN_PROFILE)  # the shipped terrain-aware profile
ZERO = profile_from_dict({"format": "sodwa-ai-profile", "format_version": 1,
                          "terrain": {"cover": 0, "hazard": 0, "condition": 0, "attack": 0,
                                      "altitude": 0, "plans": 0}}, "zero.json")


def archer(name: str, team: int, x: int, y: int, **values: object):  # type: ignore[no-untyped-def]
    """A ranged enemy that hurts (the test Knight's own ranged attack does no damage)."""
    return fighter(name, team, x, y, range=9, ranged_accuracy=90, ranged_damage=6, **values)


def due_next(s, name: str) -> None:  # type: ignore[no-untyped-def]
    """``name`` has its turn right after the actor's (its IP one short of the threshold)."""
    i = index(s, name)
    s.clock.adjust_ip(i, s.clock.rules.turn_threshold - 1 - s.clock.ip[i])


def utilities(s, team: int, profile: Profile) -> dict[tuple, float]:  # type: ignore[no-untyped-def]
    return {p.steps: p.utility for p in plans(View(s, team), profile.greedy, None, None,
                                              profile.terrain)}


def choice(s, team: int, profile: Profile) -> object:  # type: ignore[no-untyped-def]
    return Greedy(team, np.random.default_rng(0), profile).decide(View(s, team))


# ------------------------------------------------------------------ the profile
def test_the_terrain_weights_are_profile_keys_with_defaults():
    assert PROFILE.terrain == TerrainWeights(1.0, 1.0, 2.0, 1.0, 1.0, 12.0)
    assert ZERO.terrain == TerrainWeights() and not ZERO.terrain.any
    assert ZERO.greedy == PROFILE.greedy  # the other sections keep the shipped values
    assert Profile(PROFILE.greedy, PROFILE.expectimax).terrain is NO_TERRAIN
    with pytest.raises(BattleInputError, match="mine.json: terrain.cover: -1 is less than"):
        profile_from_dict({"format": "sodwa-ai-profile", "format_version": 1,
                           "terrain": {"cover": -1}}, "mine.json")
    with pytest.raises(BattleInputError,
                       match=r"mine.json: terrain.shade: unknown key \(allowed here: cover"):
        profile_from_dict({"format": "sodwa-ai-profile", "format_version": 1,
                           "terrain": {"shade": 1}}, "mine.json")


# ------------------------------------------------------------------ standing in cover
def cover_scene():  # type: ignore[no-untyped-def]
    """The actor at 4,4 with Move 1 below a wall at 4,3; 3,3 and 5,3 mirror each other
    about the archer at 4,0, and 5,3 is Cover terrain."""
    m = grid("\n".join(["........."] * 3 + ["....X....", ".........", "........."]))
    paint(m, "brush", Base.CLEAR, {"cover": {}}, (5, 3))
    s = battle(m, [fighter("a", 0, 4, 4, move=1), archer("b", 1, 4, 0)])
    turn_of(s, "a")
    due_next(s, "b")
    return s


def test_an_ai_prefers_the_cover_tile_when_all_else_is_equal():
    s = cover_scene()
    u = utilities(s, 0, PROFILE)
    west, east = u[(Move((3, 3)),)], u[(Move((5, 3)),)]
    assert east > west  # the same approach and threat; the brush spares the archer's shots
    assert choice(s, 0, PROFILE) == Move((5, 3))
    # by how much: the archer's expected damage the Cover's +20 Defense takes away,
    # weighed as the threat term weighs damage (BIP: 91 -> 71 hits of 4 damage)
    assert east - west == pytest.approx(PROFILE.greedy.threat * (0.91 - 0.71) * 4)
    ex = Expectimax(0, np.random.default_rng(0), PROFILE).decide(View(s, 0))
    assert ex == Move((5, 3))


def test_terrain_weights_of_zero_restore_the_old_choices():
    s = cover_scene()
    u = utilities(s, 0, ZERO)
    assert u[(Move((3, 3)),)] == u[(Move((5, 3)),)]  # a tie again, as before
    # the plans, float for float, are those of the same map with the properties off
    off = cover_scene()
    off.rules = with_rules(terrain_properties={"enabled": False})
    assert u == utilities(off, 0, PROFILE)
    assert utilities(s, 0, Profile(PROFILE.greedy, PROFILE.expectimax)) == u
    assert choice(s, 0, ZERO) == choice(s, 0, Profile(PROFILE.greedy, PROFILE.expectimax))


# ------------------------------------------------------------------ hazards on the way
def hazard_scene(props: dict, **actor: object):  # type: ignore[no-untyped-def]
    """The actor at 4,5 with Move 2 below a wall at 4,3-4,4: the way to 3,3 is by 3,4, to
    5,3 by 5,4, which has ``props``."""
    m = grid("\n".join(["........."] * 3 + ["....X....", "....X....", "........."]))
    paint(m, "hot", Base.CLEAR, props, (5, 4))
    s = battle(m, [fighter("a", 0, 4, 5, move=2, **actor), archer("b", 1, 4, 0)])
    turn_of(s, "a")
    due_next(s, "b")
    return s


def test_an_ai_avoids_a_hazardous_path_when_an_equal_safe_one_exists():
    s = hazard_scene({"hazardous": {"hazard": "lava"}})
    a = index(s, "a")
    assert s.reach_of(a, 2).path_to((5, 3)) == [(4, 5), (5, 4), (5, 3)]
    u = utilities(s, 0, PROFILE)
    assert u[(Move((3, 3)),)] > u[(Move((5, 3)),)]
    assert u[(Move((3, 4)),)] > u[(Move((5, 4)),)]  # ending on the lava enters it too
    assert choice(s, 0, PROFILE) == Move((3, 3))
    zero = utilities(s, 0, ZERO)
    assert zero[(Move((3, 3)),)] == zero[(Move((5, 3)),)]
    # the risk is the rules' own: P(the lava lands) x its mean damage on SODWA's scale
    terms = TerrainTerms(View(s, 0), PROFILE.terrain, PROFILE.greedy)
    assert terms.path((5, 3)) == pytest.approx(u[(Move((3, 3)),)] - u[(Move((5, 3)),)])
    assert terms.path((5, 3)) > 0 and terms.path((3, 3)) == 0


def test_a_flyer_risks_nothing_and_precarious_counts_only_when_passed_over():
    s = hazard_scene({"precarious": {}})
    terms = TerrainTerms(View(s, 0), PROFILE.terrain, PROFILE.greedy)
    assert terms.path((5, 3)) > 0  # passed over: a balance save
    assert terms.path((5, 4)) == 0  # stopped on: none (TP-B8)
    s = hazard_scene({"hazardous": {"hazard": "lava"}}, flight=True)
    terms = TerrainTerms(View(s, 0), PROFILE.terrain, PROFILE.greedy)
    assert terms.path((5, 3)) == 0  # flyers_ignore_ground: the entering effects spare it


def test_a_hidden_trap_counts_only_once_the_side_has_seen_it_spring(monkeypatch):
    import test_terrain_battle as ttb

    from sodwa_editor.battle import terrain_entering as te

    s = hazard_scene({"trapped": {"trap": "pit", "hidden": True}})
    s.rules = with_rules(terrain_properties={"trap_springs_once": False})
    terms = TerrainTerms(View(s, 0), PROFILE.terrain, PROFILE.greedy)
    assert terms.path((5, 3)) == 0  # not known: the AI does not see hidden traps
    ttb.rolls(monkeypatch, 99, 3, 3, 3, *[50] * 20)
    a = index(s, "a")
    apply(s, Move((5, 3)))  # the actor springs it (and is set back for the next turn)
    s.move_to(a, (4, 5))
    te.set_condition(s, a, "prone", False)
    s.changed()
    turn_of(s, "a")
    assert TerrainTerms(View(s, 0), PROFILE.terrain, PROFILE.greedy).path((5, 3)) > 0


# ------------------------------------------------------------------ its own attacks
def test_an_ai_shoots_the_target_out_of_cover_and_never_into_full_cover():
    m = grid("\n".join(["........."] * 5))
    paint(m, "brush", Base.CLEAR, {"cover": {}}, (2, 0))
    paint(m, "wall", Base.CLEAR, {"full_cover": {}}, (6, 0))
    s = battle(m, [archer("a", 0, 4, 4, move=0), fighter("b", 1, 2, 0), fighter("c", 1, 6, 0),
                   fighter("d", 1, 8, 4, health=14)])
    turn_of(s, "a")
    u = utilities(s, 0, PROFILE)
    b, c, d = index(s, "b"), index(s, "c"), index(s, "d")
    assert attack_refusal(s, index(s, "a"), c) is not None  # the rules refuse it
    zero = utilities(s, 0, ZERO)
    assert zero[(Attack(b),)] == zero[(Attack(d),)]  # without terrain: alike
    assert u[(Attack(d),)] > u[(Attack(b),)] > u[(Attack(c),)]
    assert u[(Attack(c),)] < u[(Pass(),)]  # its attack value is gone: only its IP cost left
    assert choice(s, 0, PROFILE) == Attack(d)


# ------------------------------------------------------------------ a Huge enemy's threat
def test_a_huge_enemys_threat_reaches_from_its_whole_footprint():
    m = grid("\n".join(["." * 16] * 16))
    s = battle(m, [fighter("a", 0, 15, 15), fighter("g", 1, 0, 0, size="huge", move=2)])
    turn_of(s, "a")
    g = index(s, "g")
    assert s.fp[g] == (4, 4)
    f = TurnFacts(View(s, 0), PROFILE.greedy)
    b = f.enemies.index(g)
    zone = f._zone(b)
    # its top-left tile can go 2 east (to 2,0); its east squares are then at x = 5, and
    # melee reaches the tiles touching them: x = 6, not x = 7 (a 1x1 reading stopped at 3)
    assert zone[0, 6] and not zone[0, 7] and zone[6, 6] and not zone[7, 7]
    # the battle's own rule agrees: from there it may strike a character at 6,0
    probe = battle(m, [fighter("a", 0, 6, 0), fighter("g", 1, 2, 0, size="huge", move=2)])
    assert attack_refusal(probe, index(probe, "g"), index(probe, "a")) is None
    probe = battle(m, [fighter("a", 0, 7, 0), fighter("g", 1, 2, 0, size="huge", move=2)])
    assert attack_refusal(probe, index(probe, "g"), index(probe, "a")) is not None


def test_the_threat_term_sees_a_huge_enemy_beside_its_far_corner():
    m = grid("\n".join(["." * 12] * 12))
    s = battle(m, [fighter("a", 0, 9, 9, move=3), fighter("g", 1, 0, 0, size="huge", move=2)])
    turn_of(s, "a")
    due_next(s, "g")
    still = Profile(replace(PROFILE.greedy, approach=0.0), PROFILE.expectimax, PROFILE.terrain)
    u = utilities(s, 0, still)
    # 6,6 touches the corner square 5,5 of the Giant stepped to 2,2: threatened;
    # 7,7 is not (before, both read as out of reach of its top-left tile's 3,3)
    assert u[(Move((6, 6)),)] < u[(Move((7, 7)),)] == u[(Move((8, 8)),)]


def test_the_plan_kinds_are_the_scorers():
    from sodwa_editor.battle.ai import scoring, terrain_terms

    assert (terrain_terms.PASS, terrain_terms.ATTACK, terrain_terms.ATTACK_MOVE,
            terrain_terms.MOVE, terrain_terms.MOVE_ATTACK) == (
        scoring.PASS, scoring.ATTACK, scoring.ATTACK_MOVE, scoring.MOVE, scoring.MOVE_ATTACK)


# ------------------------------------------------------------------ altitude layers
ALTITUDE_ON = with_rules(altitude={"enabled": True})


def by_steps(s, profile: Profile) -> dict[tuple, float]:  # type: ignore[no-untyped-def]
    return utilities(s, 0, profile)


def test_a_shooting_flyer_climbs_out_of_a_heavy_hitters_reach():
    from sodwa_editor.battle.abilities import UseAbility

    m = grid("\n".join(["......"] * 4))
    s = battle(m, [fighter("h", 0, 0, 0, flight=True, range=9, move=0, ranged_damage=6,
                           ranged_accuracy=90),
                   fighter("k", 1, 5, 0, melee_damage=20)], rules=ALTITUDE_ON)
    turn_of(s, "h")
    due_next(s, "k")
    u = by_steps(s, PROFILE)
    up = (UseAbility("fly up"),)
    assert u[up] > u[(Pass(),)]  # High (two turns up) is out of the Ogre-like blow
    assert not any(isinstance(step[0], UseAbility) for step in by_steps(s, ZERO))
    # the same flyer without the switch has no such plan (no altitude layers)
    off = battle(m, [fighter("h", 0, 0, 0, flight=True, range=9, move=0),
                     fighter("k", 1, 5, 0, melee_damage=20)])
    turn_of(off, "h")
    assert not any(isinstance(step[0], UseAbility) for step in by_steps(off, PROFILE))


def test_a_fighting_flyer_above_its_enemy_comes_down_to_strike():
    from sodwa_editor.battle.abilities import UseAbility

    m = grid("\n".join(["......"] * 4))
    s = battle(m, [fighter("h", 0, 0, 0, flight=True), fighter("k", 1, 2, 0)],
               rules=ALTITUDE_ON)
    s.effects[("altitude", index(s, "h"))] = 2  # High: no blow reaches the ground from here
    s.changed()
    turn_of(s, "h")
    u = by_steps(s, PROFILE)
    down = (UseAbility("fly down", (1,)),)
    assert u[down] > u[(Pass(),)]
    assert (UseAbility("fly up"),) not in u or u[(UseAbility("fly up"),)] < u[(Pass(),)]


def test_a_large_actor_prefers_cover_too():
    """The larger actors' planner (sized_plans.py) adds the cover term to its positions:
    two mirrored end positions, one with every square in Cover."""
    m = grid("\n".join(["." * 10] * 8))
    paint(m, "brush", Base.CLEAR, {"cover": {}}, (5, 3), (6, 3), (5, 4), (6, 4))
    s = battle(m, [fighter("a", 0, 4, 4, move=1, size="large"), archer("b", 1, 4, 0),
                   archer("c", 1, 5, 0)])
    turn_of(s, "a")
    due_next(s, "b")
    assert s.fp[index(s, "a")] == (2, 2)
    u = utilities(s, 0, PROFILE)
    assert u[(Move((5, 3)),)] > u[(Move((3, 3)),)]
    zero = utilities(s, 0, ZERO)
    assert zero[(Move((5, 3)),)] == zero[(Move((3, 3)),)]


def test_the_default_profile_has_the_terrain_terms_off_and_the_terrain_one_on():
    """The shipped default keeps battles on maps with properties at full speed (issue 27's
    speed target); resources/ai-profile-terrain.json is the terrain-aware AI.  A replay's
    recorded values carry the ``terrain`` section only when a weight is on, so profiles
    with it off keep the values (and replay hashes) they had before the section."""
    from sodwa_editor.battle.ai.profile import default_profile, profile_from_dict
    from sodwa_editor.battle.jsonfiles import read_json
    from sodwa_editor.battle.setup import profile_values

    assert not default_profile().terrain.any
    assert PROFILE.terrain.any
    assert "terrain" not in profile_values(default_profile())
    values = profile_values(PROFILE)
    assert values["terrain"]["cover"] == 1.0 and values["terrain"]["plans"] == 12.0
    doc = read_json(TERRAIN_PROFILE)
    assert {k: v for k, v in doc.items() if k not in ("terrain", "description")} == \
        {k: v for k, v in read_json(DEFAULT_PROFILE).items()
         if k not in ("terrain", "description")}
    assert profile_from_dict(doc, "aware").terrain == PROFILE.terrain
