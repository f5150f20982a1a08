"""Area abilities in battles (docs/rules.md *Abilities*, AB1-AB16): golden tests from the
seeds' sentences on small hand-made battles with chosen dice."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from battle_maps import RULES, battle, fighter, grid, index, turn_of, with_rules

from sodwa_editor.battle.abilities import UseAbility
from sodwa_editor.battle.ability_defs import ability_from_dict
from sodwa_editor.battle.actions import (
    Attack,
    AttackTerrain,
    Move,
    Pass,
    apply,
    legal_actions,
    move_allowance,
    refusal,
)
from sodwa_editor.battle.area_abilities import ability_actions, ability_area, preview_ability
from sodwa_editor.battle.area_effects import STRIKE, board_effects
from sodwa_editor.battle.dice import d100_from_value
from sodwa_editor.battle.jsonfiles import BattleInputError
from sodwa_editor.battle.sheet import DEFAULT_ROSTER_PATH, load_roster, roster_from_dict
from sodwa_editor.battle.state import BOTH_WIPED
from sodwa_editor.engine.model import MapModel

OPEN = grid("\n".join(["." * 11] * 9))

V1 = Path(__file__).parent / "data" / "roster-v1-no-abilities.json"


def ab(area: str, *, name: str = "Zap", damage: int = 5, accuracy: int = 60,
       ip_cost: int = 250, damage_type: str = "physical", **more: object):
    return ability_from_dict({"name": name, "area": area, "damage": damage,
                              "damage_type": damage_type, "ip_cost": ip_cost,
                              "accuracy": accuracy, **more}, "physical", "test")


def rolls(*values: int):
    """A roll function giving these d100 values in order."""
    it = iter(values)
    return lambda: d100_from_value(next(it))


def events_of(events, kind):
    return [e for e in events if e.kind == kind]


# ------------------------------------------------------------------ AB1: data
def roster_doc():
    return json.loads(DEFAULT_ROSTER_PATH.read_text(encoding="utf-8"))


def test_roster_abilities_are_parsed_with_one_line_errors_naming_the_json_path():
    """AB1: abilities are roster data, their areas read by the engine's notation parser;
    a bad one is one line naming where it is."""
    roster = load_roster()
    fireball = roster.find("Mage").abilities[0]
    assert (fireball.name, fireball.spec.range, fireball.spec.reach, fireball.uses) == \
        ("Fireball", 6, 1, 2)
    shipped = {d.spec.type.value + " " + d.spec.shape.value
               for a in roster.archetypes for d in a.abilities}
    assert {"Blast Sphere", "Blast Line", "Emanation Cone", "Aura Ray", "Engulf Sphere",
            "Falling Sphere", "Rising Sphere"} <= shipped
    assert any(d.spec.emanating and d.lingers for a in roster.archetypes for d in a.abilities)
    cases = [("AoE - Blast - Cone: 5|3:7", "characters[2].abilities[0].area: Cone: 5|3:7: "
              "anchor reach 7 exceeds the cone's range 5"),
             ("AoE - Blast - Trail: 3", "not playable in battles yet"),
             ("AoE - Engulf - Sphere: 2, Emanating: 1", "needs a Duration"),
             ("Fireball!", "not an AoE entry")]
    for text, message in cases:
        doc = roster_doc()
        doc["characters"][2]["abilities"][0]["area"] = text
        with pytest.raises(BattleInputError) as err:
            roster_from_dict(doc, "r.json")
        assert message in str(err.value) and "\n" not in str(err.value)
        assert str(err.value).startswith("r.json: characters[2].abilities[0]")
    doc = roster_doc()
    doc["characters"][2]["abilities"][0]["damage"] = -1
    with pytest.raises(BattleInputError, match=r"r.json: characters\[2\].abilities\[0\]"
                                               r".damage: -1 is less than the minimum of 0"):
        roster_from_dict(doc, "r.json")
    doc = roster_doc()
    doc["characters"][4]["abilities"][0]["name"] = "Fireball"  # Brute's, another definition
    with pytest.raises(BattleInputError, match="defined differently by another archetype"):
        roster_from_dict(doc, "r.json")


def test_a_version_1_roster_is_read_and_has_no_abilities():
    """AB1: format_version bumped to 2; a version 1 roster is still read (no abilities),
    and a version 1 roster listing abilities is refused in one line."""
    old = json.loads((DEFAULT_ROSTER_PATH.parents[0] / "roster.json").read_text())
    assert old["format_version"] == 3
    v1 = roster_from_dict(json.loads(V1.read_text(encoding="utf-8")))
    assert v1.find("Mage").sheet().abilities == ()
    bad = copy.deepcopy(old)
    bad["format_version"] = 1
    with pytest.raises(BattleInputError, match=r"characters\[2\].abilities: a roster of "
                                               "format_version 1 has no abilities"):
        roster_from_dict(bad, "r.json")


# ------------------------------------------------------------------ AB2, AB3: use
def test_ability_aims_follow_range_sight_and_the_adjacent_enemy_rule():
    """AB2: a point of origin at Range needs Range, a line of sight not blocked by
    characters and a tile something may stand on (AE1); a line is aimed within its
    length and never at its own tile; a caster beside an enemy may aim only at an
    adjacent enemy (RB: "may only target the adjacent enemy characters")."""
    m = grid("""
        ...........
        ...X.......
        ...........
        ...........
        ...........""")
    sphere = ab("AoE - Blast - Sphere: Range: 4, Reach: 1")
    line = ab("AoE - Blast - Line: 3", name="Bolt")
    s = battle(m, [fighter("c", 0, 1, 2, abilities=(sphere, line)), fighter("w", 1, 3, 2),
                   fighter("e", 1, 6, 2)])
    turn_of(s, "c")
    assert refusal(s, UseAbility("Zap", (3, 2))) is None
    assert refusal(s, UseAbility("Zap", (6, 2))) == "(6, 2) is 5 tiles away, beyond 'Zap''s 4"
    assert refusal(s, UseAbility("Zap", (3, 1))) == \
        "(3, 1) is Obstructing terrain: nothing stands there"
    assert refusal(s, UseAbility("Zap", (5, 2))) == \
        "no line of sight to (5, 2): blocked by character 'w' on (3, 2)"
    assert refusal(s, UseAbility("Bolt", (1, 2))) == \
        "'Bolt' is aimed away from its caster: choose another tile"
    assert refusal(s, UseAbility("Bolt", (4, 4))) is None
    assert refusal(s, UseAbility("Zap")) == "'Zap' is aimed: give a tile"
    listed = {a for a in legal_actions(s) if isinstance(a, UseAbility)}
    assert listed == set(ability_actions(s, index(s, "c")))
    assert all(refusal(s, a) is None for a in listed)
    assert UseAbility("Zap", (5, 2)) not in listed and UseAbility("Zap", (3, 2)) in listed
    beside = battle(m, [fighter("c", 0, 2, 2, abilities=(sphere,)), fighter("w", 1, 3, 2),
                        fighter("e", 1, 5, 4)])
    turn_of(beside, "c")
    assert refusal(beside, UseAbility("Zap", (5, 4))) == "must target the adjacent enemy: 'w'"
    assert set(ability_actions(beside, 0)) == {UseAbility("Zap", (3, 2))}


def test_uses_per_battle_and_one_special_action_a_turn():
    """AB2: "Special Actions have varying IP costs"; one of each type per turn (B8);
    an ability's uses per battle."""
    a = ab("AoE - Blast - Sphere: 1", uses=1, ip_cost=300)
    b = ab("AoE - Blast - Sphere: 2", name="Big", ip_cost=100)
    s = battle(OPEN, [fighter("c", 0, 1, 1, abilities=(a, b)), fighter("e", 1, 9, 7)])
    c = turn_of(s, "c")
    ip = s.clock.ip[c]
    used = apply(s, UseAbility("Zap"), roll=rolls(1))  # its caster is in it: one roll
    assert used[0].kind == "ability_used" and used[0].uses_left == 0
    assert s.clock.ip[c] == ip - 300
    assert refusal(s, UseAbility("Big")) == "Special Action already taken this turn"
    turn_of(s, "c")
    assert refusal(s, UseAbility("Zap")) == "'Zap' has no uses left (1 per battle)"
    assert refusal(s, UseAbility("Big")) is None


def test_falling_is_refused_indoors_unless_the_rules_allow_it():
    """AB2 (AE15): "Falling Area of Effects come from above their Target"; an indoor map
    has a ceiling (rules key abilities.falling_indoors)."""
    m = MapModel(9, 9, setting="indoor")
    fall = ab("AoE - Falling 2/1 - Sphere: Range: 5, Reach: 1")
    s = battle(m, [fighter("c", 0, 1, 1, abilities=(fall,)), fighter("e", 1, 6, 6)])
    turn_of(s, "c")
    assert "indoor map" in refusal(s, UseAbility("Zap", (4, 4)))
    allowed = battle(m, [fighter("c", 0, 1, 1, abilities=(fall,)), fighter("e", 1, 6, 6)],
                     with_rules(abilities={"falling_indoors": True}))
    turn_of(allowed, "c")
    assert refusal(allowed, UseAbility("Zap", (4, 4))) is None


def test_an_attack_ability_takes_the_basic_attacks_place_and_quarters_a_later_move():
    """AB3: RB "Special Actions usually have specific rules that determine whether or not
    they can be used in combination with Move and Attack Actions"; an Attack Ability
    used as a new method of damaging takes the Basic Attack's place, and like an Attack
    Action used first leaves a quarter Move (B15); after a Move it carries the Move
    penalty (B22)."""
    z = ab("AoE - Blast - Sphere: Range: 6, Reach: 0")
    both = ab("AoE - Blast - Sphere: Range: 6, Reach: 0", name="Both", with_attack=True)
    s = battle(OPEN, [fighter("c", 0, 1, 1, abilities=(z, both), range=8, move=8),
                      fighter("e", 1, 5, 1)])
    c, e = turn_of(s, "c"), index(s, "e")
    apply(s, UseAbility("Zap", (5, 1)), roll=rolls(1))
    assert refusal(s, Attack(e)) == "Attack Action already taken this turn"
    assert move_allowance(s) == 2  # a quarter of Move 8
    turn_of(s, "c")
    apply(s, Attack(e), roll=rolls(1))
    assert refusal(s, UseAbility("Zap", (5, 1))) == \
        "'Zap' takes the Basic Attack's place: the Attack Action was taken this turn"
    assert refusal(s, UseAbility("Both", (5, 1))) is None
    turn_of(s, "c")
    apply(s, Move((2, 2)))
    hit = apply(s, UseAbility("Zap", (5, 1)), roll=rolls(1))
    assert [m.source for m in events_of(hit, "area_hit")[0].modifiers] == ["attacker moved"]
    assert c == 0


# ------------------------------------------------------------------ AB5-AB8: victims
def test_every_character_in_the_area_is_a_victim_with_its_own_roll_and_difficulty():
    """AB5, AB7: "every character in the area is a victim", allies included; each its own
    d100 at its own difficulty (its Defense, Evasion if aware, modifiers: RB "take the
    defending character's Defense, add Evasion (if applicable)"), the ability's Accuracy
    for the attacker's; karma as for any roll against an enemy, none against an ally."""
    fire = ab("AoE - Blast - Sphere: Range: 6, Reach: 1", damage=5, accuracy=60)
    s = battle(OPEN, [fighter("c", 0, 1, 4, abilities=(fire,)), fighter("f", 0, 4, 3),
                      fighter("e1", 1, 5, 4), fighter("e2", 1, 6, 5, evasion=20,
                                                      damage_reduction=1)])
    turn_of(s, "c")
    p = preview_ability(s, 0, UseAbility("Zap", (5, 4)))
    assert p.refused is None
    assert [(s.names[v.character], v.ally, v.difficulty, v.damage_on_hit) for v in p.victims] \
        == [("f", True, 45, 3), ("e1", False, 45, 3), ("e2", False, 60, 4)]
    assert [v.evasion for v in p.victims] == [5, 5, 20]  # all aware of the blast
    events = apply(s, UseAbility("Zap", (5, 4)), roll=rolls(50, 44, 60))
    hits = events_of(events, "area_hit")
    assert [(s.names[h.target], h.roll, h.success, h.damage, h.hp_after) for h in hits] == \
        [("f", 50, True, 3, 11), ("e1", 44, False, 0, 14), ("e2", 60, True, 4, 10)]
    assert (hits[1].karma_before, hits[1].karma_gained, hits[1].karma_after) == (0, 5, 5)
    assert (hits[0].karma_gained, hits[2].karma_spent) == (0, 0)


def test_karma_counts_against_enemies_only():
    """AB7: a failed roll against an ally earns nothing and held points do not rescue it
    (the rulebook's karma rescues "your" failed action; the player does not aim at its
    own side); ``abilities.karma_against_own_team`` makes them count."""
    fire = ab("AoE - Blast - Sphere: Range: 6, Reach: 1", accuracy=60)
    fighters = [fighter("c", 0, 1, 4, abilities=(fire,)), fighter("f", 0, 4, 3),
                fighter("e", 1, 9, 8)]
    s = battle(OPEN, fighters)
    turn_of(s, "c")
    s.karma = 10
    hit = events_of(apply(s, UseAbility("Zap", (5, 4)), roll=rolls(40)), "area_hit")[0]
    assert (hit.success, hit.karma_spent, hit.karma_gained, s.karma) == (False, 0, 0, 10)
    counted = battle(OPEN, fighters, with_rules(abilities={"karma_against_own_team": True}))
    turn_of(counted, "c")
    counted.karma = 10
    hit = events_of(apply(counted, UseAbility("Zap", (5, 4)), roll=rolls(40)), "area_hit")[0]
    assert (hit.success, hit.karma_spent, counted.karma) == (True, 5, 5)


def test_engulf_ignores_damage_reduction_and_blast_does_not():
    """AB8: SODWA's Armor is Damage Reduction; "Blast Areas of Effect deal damage to both
    Armor and Victim" (DR lowers it); "Engulf Effects ignore Armor, but still damage it"
    (DR is not lowered by damage in SODWA, so only the first half acts)."""
    blast = ab("AoE - Blast - Sphere: Range: 6, Reach: 0", damage=4)
    gas = ab("AoE - Engulf - Sphere: Range: 6, Reach: 0", name="Gas", damage=4)
    s = battle(OPEN, [fighter("c", 0, 1, 4, abilities=(blast, gas)),
                      fighter("e", 1, 5, 4, damage_reduction=3)])
    turn_of(s, "c")
    assert preview_ability(s, 0, UseAbility("Zap", (5, 4))).victims[0].damage_on_hit == 1
    assert preview_ability(s, 0, UseAbility("Gas", (5, 4))).victims[0].damage_on_hit == 4
    assert preview_ability(s, 0, UseAbility("Gas", (5, 4))).victims[0].dr == 0


def test_rising_does_not_affect_flyers():
    """AB8: "Rising Areas of Effect do not affect flying creatures"."""
    spike = ab("AoE - Rising - Sphere: Range: 6, Reach: 1")
    s = battle(OPEN, [fighter("c", 0, 1, 4, abilities=(spike,)), fighter("e", 1, 5, 4),
                      fighter("h", 1, 5, 5, flight=True)])
    turn_of(s, "c")
    p = preview_ability(s, 0, UseAbility("Zap", (5, 4)))
    assert [s.names[v.character] for v in p.victims] == ["e"]
    assert p.spared == ((index(s, "h"), "flying: a Rising area does not affect flying "
                                        "creatures"),)


def test_an_area_defeats_its_victims_together_and_two_empty_teams_draw():
    """AB6: "Blast Area of Effects kill their Victims if they drop them to 0 Hit Points":
    in SODWA a victim at or below ``combat.defeated_at_or_below`` is defeated (B32);
    victims fall together, so an area that empties both teams is a draw; a caster
    defeated by its own area ends its turn."""
    self_blast = ab("AoE - Blast - Sphere: 1", damage=5, accuracy=100)
    s = battle(OPEN, [fighter("c", 0, 4, 4, abilities=(self_blast,), health=2),
                      fighter("e", 1, 5, 4, health=2)])
    turn_of(s, "c")
    events = apply(s, UseAbility("Zap"), roll=rolls(100, 100))
    assert [e.kind for e in events][-3:] == ["defeated", "defeated", "battle_ended"]
    assert s.result.winner is None and s.result.reason == BOTH_WIPED
    alone = battle(OPEN, [fighter("c", 0, 4, 4, abilities=(self_blast,), health=2),
                          fighter("f", 0, 0, 0), fighter("e", 1, 8, 8)])
    turn_of(alone, "c")
    events = apply(alone, UseAbility("Zap"), roll=rolls(100))
    assert [e.kind for e in events][-2:] == ["defeated", "turn_ended"]
    assert alone.turn is None and alone.result is None


def test_an_impact_may_maim_an_unarmored_victim_and_halves_its_move():
    """AB9: "Impact AoE may Maim Unarmored Victims. 50% Chance without them being
    Vulnerable": an unarmored victim (Damage Reduction 0) hit by a Blast or a Falling
    area rolls a d100; at ``abilities.maim_chance`` or below it is Maimed: its Move is
    divided by ``abilities.maim_move_divisor`` at each of its turns (SODWA has no
    Vulnerable)."""
    fire = ab("AoE - Blast - Sphere: Range: 6, Reach: 1", damage=1)
    gas = ab("AoE - Engulf - Sphere: Range: 6, Reach: 1", name="Gas", damage=1)
    s = battle(OPEN, [fighter("c", 0, 1, 4, abilities=(fire, gas)),
                      fighter("bare", 1, 5, 4, damage_reduction=0, move=5),
                      fighter("arm", 1, 5, 5, damage_reduction=1)])
    turn_of(s, "c")
    hits = events_of(apply(s, UseAbility("Zap", (5, 4)), roll=rolls(90, 50, 90)), "area_hit")
    assert [(h.maim_roll, h.maimed) for h in hits] == [(50, True), (0, False)]
    turn_of(s, "bare")
    assert s.turn_move == 2  # Move 5 halved, rounded down
    again = battle(OPEN, [fighter("c", 0, 1, 4, abilities=(fire, gas)),
                          fighter("bare", 1, 5, 4, damage_reduction=0)])
    turn_of(again, "c")
    hit = events_of(apply(again, UseAbility("Zap", (5, 4)), roll=rolls(90, 51)), "area_hit")
    assert (hit[0].maim_roll, hit[0].maimed) == (51, False)
    turn_of(again, "c")
    gassed = events_of(apply(again, UseAbility("Gas", (5, 4)), roll=rolls(90)), "area_hit")
    assert gassed[0].maim_roll == 0  # Engulf "fills the area without an Impact"


def test_a_blast_breaks_walls_and_leaves_its_damage_in_the_one_that_stops_it():
    """AB4 (AE8): a Blast "must reduce the objects they Hit Durability to 0 first": a wall
    it breaks is destroyed as B39 destroys it; one that stops it keeps the damage left,
    added up with later damage (B39)."""
    m = grid("""
        ...........
        ....X......
        ...........""")
    bolt = ab("AoE - Blast - Line: 6", damage=5)
    weak = ab("AoE - Blast - Line: 6", name="Weak", damage=2)
    s = battle(m, [fighter("c", 0, 2, 1, abilities=(bolt, weak), melee_damage=1),
                   fighter("e", 1, 7, 1, damage_reduction=0)])
    turn_of(s, "c")
    p = preview_ability(s, 0, UseAbility("Weak", (7, 1)))
    assert p.walls == () and p.wall_damage == (((4, 1, ""), 2),) and p.victims == ()
    events = apply(s, UseAbility("Weak", (7, 1)), roll=rolls())
    assert s.damage == {(4, 1, ""): 2} and events_of(events, "terrain_attacked")[0].total == 2
    turn_of(s, "c")
    apply(s, Move((3, 1)))
    apply(s, AttackTerrain(4, 1))  # 1 more: 3, the threshold (B39 adds damage up)
    assert (4, 1, "") in s.destroyed
    other = battle(m, [fighter("c", 0, 2, 1, abilities=(bolt,)),
                       fighter("e", 1, 7, 1, damage_reduction=0)])
    turn_of(other, "c")
    events = apply(other, UseAbility("Zap", (7, 1)), roll=rolls(100, 90))
    assert events_of(events, "terrain_destroyed")[0].feature == (4, 1, "")
    assert events_of(events, "area_hit")[0].damage == 2  # 5 less the wall's 3


# ------------------------------------------------------------------ AB10-AB12: effects
MIASMA = "AoE - Engulf - Sphere: Range: 6, Reach: 1, Emanating: 1, Duration: 2"


def test_an_emanating_engulf_lingers_grows_and_ends():
    """AB10, AB11: "Emanating: (x) Emanating Effects increase their reach by (x) at each
    Upkeep for the Duration of the Effect"; the upkeep is at the start of each of the
    caster's turns; every character in it is hit again then."""
    gas = ab(MIASMA, damage=1, accuracy=200)
    s = battle(OPEN, [fighter("c", 0, 0, 0, abilities=(gas,)), fighter("e1", 1, 6, 4),
                      fighter("e2", 1, 8, 4), fighter("e3", 1, 9, 4)])
    turn_of(s, "c")
    cast = apply(s, UseAbility("Zap", (6, 4)), roll=rolls(*[50] * 3))
    assert [s.names[h.target] for h in events_of(cast, "area_hit")] == ["e1"]
    assert [e.kind for e in cast][:2] == ["ability_used", "effect_placed"]
    assert [(v.effect.reach, len(v.tiles)) for v in board_effects(s)] == [(1, 9)]
    n = len(s.events)
    turn_of(s, "e1")
    assert len(s.events) == n + 2  # its pass and its turn start: no upkeep on others' turns
    turn_of(s, "c")
    up = s.events[-4:]
    assert [e.kind for e in up] == ["turn_started", "effect_upkeep", "area_hit", "area_hit"]
    assert (up[1].reach, up[1].upkeeps_left) == (2, 1)
    assert [s.names[e.target] for e in up[2:]] == ["e1", "e2"]
    turn_of(s, "c")
    last = s.events[s.events.index(next(e for e in reversed(s.events)
                                         if e.kind == "turn_started")):]
    assert [e.kind for e in last] == ["turn_started", "effect_upkeep", "area_hit", "area_hit",
                                      "area_hit", "effect_ended"]
    assert last[1].reach == 3 and last[-1].reason == "duration over"
    assert board_effects(s) == []


def test_effects_end_with_their_caster():
    """AB10: an effect's upkeep is its caster's; a defeated caster's effects end."""
    gas = ab(MIASMA, damage=1)
    s = battle(OPEN, [fighter("c", 0, 0, 0, abilities=(gas,), health=1),
                      fighter("e", 1, 1, 0)])
    turn_of(s, "c")
    apply(s, UseAbility("Zap", (1, 0)), roll=rolls(1, 1))  # its caster is in it too
    assert len(board_effects(s)) == 1
    turn_of(s, "e")
    events = apply(s, Attack(0), roll=rolls(100))
    assert [e.kind for e in events][-3:] == ["defeated", "battle_ended", "effect_ended"]
    assert events[-1].reason == "caster defeated" and board_effects(s) == []


def test_a_falling_strike_lands_after_its_timer():
    """AB12: "Falling Effects often have an Impact Timer. Impact timers count down and
    resolve during Upkeep"; "AoE - Falling 5/5 - Sphere: is summoned 5 Tiles high and will
    take 5 Upkeeps to impact": nobody is hit at the cast; whoever stands there when it
    lands is."""
    rain = ab("AoE - Falling 4/2 - Sphere: Range: 8, Reach: 1")
    s = battle(OPEN, [fighter("c", 0, 0, 0, abilities=(rain,)), fighter("e", 1, 6, 4)])
    turn_of(s, "c")
    cast = apply(s, UseAbility("Zap", (6, 4)))
    assert [e.kind for e in cast] == ["ability_used", "effect_placed"]
    [view] = board_effects(s)
    assert (view.effect.height, view.effect.upkeeps, view.durability_left) == (4, 2, 3)
    turn_of(s, "c")
    assert [e.kind for e in s.events[-2:]] == ["turn_started", "effect_upkeep"]
    turn_of(s, "e")
    apply(s, Move((7, 5)))  # still within Reach 1 of (6, 4)
    turn_of(s, "c")
    landed = s.events[-4:]
    assert [e.kind for e in landed] == ["turn_started", "effect_upkeep", "effect_ended",
                                        "area_hit"]
    assert landed[2].reason == "landed" and board_effects(s) == []


def test_a_falling_object_can_be_shot_down():
    """AB12: "Falling Areas of Effect that involve a falling object are typically able to
    be targeted during their fall": a ranged Basic Attack at the tile it hangs over, no
    roll (an object has no Defense, as terrain has none, B39), the Ranged Damage added up
    to ``abilities.falling_object_durability``; destroyed, it never lands."""
    rain = ab("AoE - Falling 4/1 - Sphere: Range: 8, Reach: 1")
    s = battle(OPEN, [fighter("c", 0, 0, 0, abilities=(rain,)),
                      fighter("e", 1, 6, 4, range=5, ranged_damage=2)])
    turn_of(s, "c")
    apply(s, UseAbility("Zap", (6, 8)))
    turn_of(s, "e")
    assert UseAbility(STRIKE, (0,)) in legal_actions(s)
    first = apply(s, UseAbility(STRIKE, (0,)))
    assert (first[0].damage, first[0].total) == (2, 2)
    assert refusal(s, Attack(0)) == "Attack Action already taken this turn"
    turn_of(s, "e")
    second = apply(s, UseAbility(STRIKE, (0,)))
    assert [e.kind for e in second] == ["falling_struck", "effect_ended"]
    assert second[-1].reason == "shot down"
    turn_of(s, "c")
    assert s.events[-1].kind == "turn_started"  # nothing left to land
    far = battle(OPEN, [fighter("c", 0, 0, 0, abilities=(rain,)),
                        fighter("e", 1, 10, 0, range=3)])
    turn_of(far, "c")
    apply(far, UseAbility("Zap", (2, 6)))
    turn_of(far, "e")
    assert "out of range" in refusal(far, UseAbility(STRIKE, (0,)))


def test_a_basic_attack_still_targets_terrain_with_abilities_in_the_battle():
    """AB13: B39 stands with real Attack Abilities: RB "Attack ... allow for completely
    new methods of damaging enemy characters and terrain" speaks of new methods (a Blast
    through walls), which presupposes an old one, and "Obstructing Terrain can be
    destroyed by taking 3 or more damage" names no source."""
    m = grid("""
        ......
        ..X...
        ......""")
    s = battle(m, [fighter("c", 0, 1, 1, abilities=(ab("AoE - Blast - Sphere: 1"),)),
                   fighter("e", 1, 5, 2)])
    turn_of(s, "c")
    assert RULES.terrain.basic_attack_targets_obstructions
    assert AttackTerrain(2, 1) in legal_actions(s)


def test_the_area_of_a_use_is_the_engines():
    """AB15: the BIP's area is the engine's area of the ability from where the caster
    stands (the template a UI draws)."""
    from sodwa_editor.engine.areas import area

    line = ab("AoE - Blast - Line: 4", damage=5)
    s = battle(OPEN, [fighter("c", 0, 1, 1, abilities=(line,)), fighter("e", 1, 9, 7)])
    turn_of(s, "c")
    got = ability_area(s, 0, UseAbility("Zap", (4, 4)))
    want = area(OPEN, line.spec, (1, 1), target=(4, 4), damage=5)
    assert got.affected == want.affected == ((2, 2), (3, 3), (4, 4))
    assert apply(s, Pass())[-1].kind == "turn_ended"


def test_a_certain_draw_with_area_abilities_is_counted_per_enemy():
    """AB16 (B51): an area hits several enemies at once, so with area abilities the
    count is per enemy: in one turn an enemy takes at most one Basic Attack and one area
    per action allowed, a landing falling object and one hit per lingering area."""
    from dataclasses import replace

    from sodwa_editor.battle.teams import certain_draw

    rules = with_rules(battle={"max_turns": 2})
    tough = fighter("t", 0, 0, 0, health=10**6).sheet
    assert certain_draw([[tough], [tough]], rules) is not None
    caster = replace(tough, abilities=(ab("AoE - Blast - Sphere: 1", damage=3),))
    assert "team 0 needs 333334 hits on one enemy, 6 at most" in \
        certain_draw([[caster], [tough]], rules)
    weak = fighter("w", 0, 0, 0, health=13, damage_reduction=5).sheet  # 8 HP over 0
    gas = ab(MIASMA, damage=1)  # ignores DR: 13 hits; 2 turns x (2 + 1 + 2) = 10
    assert certain_draw([[replace(tough, abilities=(gas,))], [weak]], rules) is not None
    three = with_rules(battle={"max_turns": 3})  # 15 hits at most: it can win
    assert certain_draw([[replace(tough, abilities=(gas,))], [weak]], three) is None


def test_a_turn_with_nothing_left_to_use_ends_on_its_own():
    """B40: the turn ends on its own once the actor has no Move or Attack Action and no
    ability it may still use (its Special Action taken, or no uses left)."""
    from sodwa_editor.battle.actions import turn_spent

    z = ab("AoE - Blast - Sphere: Range: 6, Reach: 0", uses=1)
    s = battle(OPEN, [fighter("c", 0, 1, 1, abilities=(z,), range=6), fighter("e", 1, 5, 1)])
    turn_of(s, "c")
    apply(s, Move((2, 1)))
    assert not turn_spent(s)  # the ability is left
    apply(s, UseAbility("Zap", (5, 1)), roll=rolls(1))  # it closes the Attack Action too
    assert turn_spent(s)
    turn_of(s, "c")
    apply(s, Move((2, 2)))
    apply(s, Attack(index(s, "e")), roll=rolls(1))
    assert turn_spent(s)  # no uses left


def test_a_caster_defeated_in_its_own_upkeep_ends_its_turn_and_its_effects():
    """AB10: an actor its own upkeep defeats ends its turn at once (the turn counts), and
    its effects end with it."""
    from sodwa_editor.battle.actions import begin_turn, next_turn

    gas = ab(MIASMA, damage=5, accuracy=200)
    s = battle(OPEN, [fighter("c", 0, 4, 4, abilities=(gas,), health=5), fighter("f", 0, 0, 0),
                      fighter("e", 1, 9, 8)])
    c = turn_of(s, "c")
    apply(s, UseAbility("Zap", (4, 4)), roll=rolls(1))  # on its own tile: it misses itself
    apply(s, Pass())
    for j in range(len(s.pos)):
        s.clock.adjust_ip(j, (1000 if j == c else 0) - s.clock.ip[j])
    s.clock.acted = [False] * len(s.pos)
    turns = s.clock.turns
    begin_turn(s, next_turn(s).candidates[0], roll=rolls(100))
    assert [e.kind for e in s.events[-6:]] == ["turn_started", "effect_upkeep", "area_hit",
                                               "defeated", "effect_ended", "turn_ended"]
    assert s.events[-2].reason == "caster defeated"
    assert s.turn is None and s.clock.turns == turns + 1 and not s.alive(c)
    assert board_effects(s) == [] and s.result is None
