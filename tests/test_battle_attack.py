"""The d100, the random streams, karma and the attack roll: exact hit probabilities,
karma invariants, modifiers by source, damage and defeat."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodwa_editor.battle import karma
from sodwa_editor.battle.attack import (
    Modifier,
    Situation,
    distance,
    is_aware,
    preview_attack,
    resolve_attack,
    within_range,
)
from sodwa_editor.battle.dice import D100, DiceStream, Streams, d100_from_value, needed_roll
from sodwa_editor.battle.rules import default_rules
from sodwa_editor.battle.sheet import load_roster

RULES = default_rules()


def rules_variant(rescues: bool = False, fail: int = 1, success: int = 100,
                  effective: bool = True):
    return replace(RULES, dice=replace(RULES.dice, auto_fail_at_or_below=fail,
                                       auto_success_at_or_above=success),
                   karma=replace(RULES.karma, rescues_auto_fail=rescues,
                                 gain_from_effective_difficulty=effective))


variants = st.builds(rules_variant, st.booleans(), st.integers(0, 5), st.integers(95, 101),
                     st.booleans())


# ---------------------------------------------------------------- dice and streams
def test_every_pair_of_dice_is_one_value_1_to_100():
    """RB: two d10 "0-9"; "0 and 0 would equal 100%, not 0%": a bijection onto 1..100."""
    values = [D100(t, o).value for t in range(10) for o in range(10)]
    assert sorted(values) == list(range(1, 101))
    assert all(d100_from_value(D100(t, o).value) == (t, o) for t in range(10) for o in range(10))
    assert [v for t in range(10) for o in range(10) if D100(t, o).doubles
            for v in [D100(t, o).value]] == [100, 11, 22, 33, 44, 55, 66, 77, 88, 99]


def test_dice_stream_is_uniform_and_seeded():
    rolls = [r.value for r in _rolls(Streams(3).dice, 50_000)]
    counts = Counter(rolls)
    assert set(counts) == set(range(1, 101))
    chi2 = sum((c - 500) ** 2 / 500 for c in counts.values())
    assert chi2 < 160  # 99 degrees of freedom; p ~ 1e-4
    assert rolls[:600] == [r.value for r in _rolls(Streams(3).dice, 600)]
    assert rolls[:600] != [r.value for r in _rolls(Streams(4).dice, 600)]


def _rolls(stream: DiceStream, n: int) -> list[D100]:
    return [stream.roll() for _ in range(n)]


def test_streams_are_independent_per_purpose():
    """One root seed, one spawned stream per purpose: drawing from an AI or the setup
    stream never changes the dice."""
    plain = Streams(11)
    busy = Streams(11)
    expected = _rolls(plain.dice, 700)
    got = []
    for k in range(700):
        busy.ai[k % 2].random()
        busy.setup.integers(0, 6)
        got.append(busy.dice.roll())
    assert got == expected
    a, b = Streams(11), Streams(11)
    firsts = [a.setup.integers(0, 1 << 30), a.ai[0].integers(0, 1 << 30),
              a.ai[1].integers(0, 1 << 30)]
    assert len(set(firsts)) == 3
    assert firsts == [b.setup.integers(0, 1 << 30), b.ai[0].integers(0, 1 << 30),
                      b.ai[1].integers(0, 1 << 30)]
    assert Streams(np.random.SeedSequence(11)).dice.roll() == Streams(11).dice.roll()


# ---------------------------------------------------------------- karma
def test_needed_roll_clamps_to_what_can_be_rolled():
    assert [needed_roll(d, RULES.dice) for d in (-50, 1, 2, 60, 100, 250)] == [
        2, 2, 2, 60, 100, 100]


@settings(max_examples=300, deadline=None)
@given(st.integers(-150, 250), st.integers(0, 120), variants)
def test_success_count_equals_resolving_every_roll(difficulty, points, rules):
    """The closed form of hit chances with and without karma counts exactly the rolls
    that :func:`karma.resolve_roll` turns into successes."""
    for team, pool in ((0, points), (1, -points)):
        brute = sum(karma.resolve_roll(difficulty, v, pool, team, rules).success
                    for v in range(1, 101))
        assert karma.successes(difficulty, points, rules) == brute
    natural = sum(karma.resolve_roll(difficulty, v, 0, 0, rules).success for v in range(1, 101))
    assert karma.successes(difficulty, 0, rules) == natural


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(-60, 160), st.integers(1, 100)),
                max_size=80), variants)
def test_only_one_team_ever_holds_karma_and_points_are_conserved(rolls, rules):
    """RB: "This means only one player at a time has access to Karma Points"; points
    are only earned by failures below 50 and only spent on rescues."""
    pool = 0
    for team, difficulty, value in rolls:
        out = karma.resolve_roll(difficulty, value, pool, team, rules)
        sign = 1 if team == 0 else -1
        assert out.pool_after == pool + sign * (out.karma_gained - out.karma_spent)
        assert not (out.karma_gained and out.karma_spent)
        assert out.karma_spent <= karma.available(pool, team)
        assert out.karma_gained == (0 if out.success else karma.gain(difficulty, rules))
        pool = out.pool_after
        assert min(karma.available(pool, 0), karma.available(pool, 1)) == 0


def test_karma_gain_uses_the_roll_that_is_needed():
    """B29: a failure at difficulty -50 (only 01 fails) gains 50 - 2 = 48, not 100;
    ``karma.gain_from_effective_difficulty = false`` gives the raw difference."""
    assert karma.gain(-50, RULES) == 48
    assert karma.gain(-50, rules_variant(effective=False)) == 100
    assert karma.gain(30, RULES) == 20 and karma.gain(60, RULES) == 0


def test_karma_rescues_01_only_when_configured():
    """B30: with ``karma.rescues_auto_fail`` an 01 is lifted like any other roll."""
    out = karma.resolve_roll(30, 1, 99, 0, rules_variant(rescues=True))
    assert (out.success, out.karma_spent) == (True, 29)


def test_spend_refuses_more_than_the_team_holds():
    assert karma.spend(10, 0, 4) == 6
    with pytest.raises(ValueError, match="holds 0 Karma Points"):
        karma.spend(10, 1, 1)


# ---------------------------------------------------------------- the attack
ROSTER = load_roster()
KNIGHT = ROSTER.find("Knight").sheet()
ARCHER = ROSTER.find("Archer").sheet()


def test_melee_uses_melee_attributes_and_ranged_the_ranged_ones():
    """RB: "When attacking an adjacent target, the Melee attributes are used.
    Otherwise, the Ranged attributes are used." (Defense too: B17)."""
    melee = preview_attack(KNIGHT, ARCHER, Situation(adjacent=True), RULES)
    ranged = preview_attack(ARCHER, KNIGHT, Situation(adjacent=False), RULES)
    assert (melee.kind, melee.accuracy, melee.defense) == (
        "melee", KNIGHT.melee_accuracy, ARCHER.melee_defense)
    assert (ranged.kind, ranged.accuracy, ranged.defense) == (
        "ranged", ARCHER.ranged_accuracy, KNIGHT.ranged_defense)
    assert melee.damage_on_hit == KNIGHT.melee_damage - ARCHER.damage_reduction
    assert ranged.damage_on_hit == ARCHER.ranged_damage - KNIGHT.damage_reduction


def test_evasion_only_against_attacks_the_defender_is_aware_of():
    """RB: "Evasion raises a character's defense against any attacks it is aware of"."""
    seen = preview_attack(ARCHER, KNIGHT, Situation(adjacent=False, defender_aware=True), RULES)
    unseen = preview_attack(ARCHER, KNIGHT, Situation(adjacent=False, defender_aware=False),
                            RULES)
    assert (seen.evasion, unseen.evasion) == (KNIGHT.evasion, 0)
    assert seen.tdv - unseen.tdv == KNIGHT.evasion
    assert is_aware("los", False) is False and is_aware("always", False) is True


@pytest.mark.parametrize(("attacker", "defender", "per_level", "expected"), [
    (1, 0, False, [("higher ground", 10)]),
    (0, 1, False, [("lower ground", -10)]),
    (3, 1, False, [("higher ground", 10)]),
    (3, 1, True, [("higher ground", 20)]),
    (0, 2, True, [("lower ground", -20)]),
    (2, 2, True, []),
])
def test_elevation_modifiers(attacker, defender, per_level, expected):
    """B21 RB: "Characters enjoy an Accuracy bonus against characters on a lower
    elevation, and characters at a lower elevation have a more difficult time
    attacking characters at a higher elevation." """
    rules = replace(RULES, modifiers=replace(RULES.modifiers, elevation_per_level=per_level))
    p = preview_attack(ARCHER, KNIGHT, Situation(adjacent=False, attacker_level=attacker,
                                                 defender_level=defender), rules)
    assert [(m.source, m.amount) for m in p.modifiers] == expected
    assert p.tav == ARCHER.ranged_accuracy + sum(a for _s, a in expected)


def test_every_modifier_listed_by_source_in_a_fixed_order():
    liquid = replace(RULES.terrain.liquid, accuracy=-5, defense=7, evasion=3)
    rules = replace(RULES, terrain=replace(RULES.terrain, liquid=liquid))
    ability = Modifier("blessing", "accuracy", 15)
    s = Situation(adjacent=False, impeded=True, attacker_level=1, attacker_moved=True,
                  defender_moved=True, attacker_on_liquid=True, defender_on_liquid=True,
                  extra=(ability,))
    p = preview_attack(ARCHER, KNIGHT, s, rules)
    assert [(m.source, m.stat, m.amount) for m in p.modifiers] == [
        ("higher ground", "accuracy", 10), ("attacker moved", "accuracy", -10),
        ("attacker in liquid", "accuracy", -5), ("impeded line of sight", "defense", 20),
        ("defender moved", "defense", 10), ("defender in liquid", "defense", 7),
        ("defender in liquid", "evasion", 3), ("blessing", "accuracy", 15)]
    assert p.tav == ARCHER.ranged_accuracy + 10 - 10 - 5 + 15
    assert p.tdv == KNIGHT.ranged_defense + KNIGHT.evasion + 20 + 10 + 7 + 3
    assert p.difficulty == p.tdv - p.tav


def test_damage_reduction_applies_to_listed_types_with_a_floor():
    """B25 RB: "Damage Reduction lowers the value of incoming Physical, Energy, and
    Magical damage"."""
    tough = replace(KNIGHT, damage_reduction=9)
    hit = preview_attack(ARCHER, tough, Situation(adjacent=False), RULES)
    assert (hit.dr, hit.damage_on_hit) == (9, 0)
    floor = replace(RULES, combat=replace(RULES.combat, min_damage=1))
    assert preview_attack(ARCHER, tough, Situation(adjacent=False), floor).damage_on_hit == 1
    bio = replace(ARCHER, damage_type="bio")
    p = preview_attack(bio, tough, Situation(adjacent=False), RULES)
    assert (p.dr, p.damage_on_hit) == (0, ARCHER.ranged_damage)


@settings(max_examples=150, deadline=None)
@given(st.integers(-40, 140), st.integers(0, 60), st.integers(0, 1), st.booleans())
def test_preview_probabilities_count_the_rolls_that_hit(accuracy, points, team, aware):
    """The preview's hit chances, without and with the team's karma, are exactly the
    share of the 100 dice results whose resolution is a hit."""
    attacker = replace(ARCHER, ranged_accuracy=accuracy)
    p = preview_attack(attacker, KNIGHT, Situation(adjacent=False, defender_aware=aware),
                       RULES, karma=points)
    pool = points if team == 0 else -points
    outcomes = [resolve_attack(p, d100_from_value(v), pool, team, 10, RULES)
                for v in range(1, 101)]
    assert p.hits == sum(resolve_attack(p, d100_from_value(v), 0, team, 10, RULES).success
                         for v in range(1, 101))
    assert p.hits_with_karma == sum(o.success for o in outcomes)
    assert p.need_roll == min(r.roll for r in outcomes if r.natural)


def test_resolve_records_dice_karma_damage_and_defeat():
    """RB BIP: "the Attack Difficulty ..., your roll result (01 to 100), how much damage
    was dealt, and how much HP the target has left"; defeated at 0 HP (B32)."""
    p = preview_attack(ARCHER, KNIGHT, Situation(adjacent=False), RULES, karma=30)
    out = resolve_attack(p, D100(3, 3), 30, 0, p.damage_on_hit, RULES)
    assert (out.roll, out.doubles, out.success, out.natural) == (33, True, True, False)
    assert out.doubles_effect and out.karma_spent == p.difficulty - 33
    assert (out.damage, out.hp_after, out.defeated) == (p.damage_on_hit, 0, True)
    miss = resolve_attack(p, D100(0, 2), 0, 0, 10, RULES)
    assert (miss.success, miss.doubles, miss.damage, miss.hp_after, miss.defeated) == (
        False, False, 0, 10, False)
    assert p.difficulty == 45 and miss.karma_gained == 5  # 50 - 45
    doubles_miss = resolve_attack(p, D100(1, 1), 0, 0, 10, RULES)
    assert doubles_miss.doubles and not doubles_miss.doubles_effect
    lax = replace(RULES, doubles=replace(RULES.doubles, require_success=False))
    assert resolve_attack(p, D100(1, 1), 0, 0, 10, lax).doubles_effect


def test_range_metrics():
    """B18: Range counted as steps with diagonals by default."""
    assert distance((0, 0), (3, 4), "chebyshev") == 4
    assert distance((0, 0), (3, 4), "manhattan") == 7
    assert distance((0, 0), (3, 4), "euclidean") == 5
    assert within_range((0, 0), (4, 4), 4, RULES)
    assert not within_range((0, 0), (5, 1), 4, RULES)
