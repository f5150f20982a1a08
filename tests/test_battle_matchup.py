"""The matchup calculator against hand derivations from the rulebook (RB *Attacking and
Defending*, *Combat Modifiers*, *The Karma System*, *Turn System*) and the rules config:
the numbers must be the battle's own, so a changed rules key changes them."""

from __future__ import annotations

import dataclasses

import pytest

from sodwa_editor.battle.matchup import STANDARD_CASES, Case, flagged, matchup, matchup_table
from sodwa_editor.battle.rules import default_rules, rules_from_dict
from sodwa_editor.battle.sheet import load_roster


@pytest.fixture(scope="module")
def sheets():
    return {a.name: a.sheet() for a in load_roster().archetypes}


def test_the_hawk_that_had_moved_cannot_be_hit(sheets):
    """Issue 28: "a hawk that had moved had Total Defense 175 against Total Attack 50".
    Hawk Ranged Defense 115 + Evasion 30 + moved 10 + impeded 20 = 175; Archer Ranged
    Accuracy 60 - moved 10 = 50; difficulty 125: only 00 (RB "always a success") hits."""
    case = Case("ranged", attacker_moved=True, defender_moved=True, impeded=True)
    m = matchup(sheets["Archer"], sheets["Hawk"], case, default_rules())
    p = m.preview
    assert (p.tdv, p.tav, p.difficulty) == (175, 50, 125)
    assert [(x.source, x.amount) for x in p.modifiers] == [
        ("attacker moved", -10), ("impeded line of sight", 20), ("defender moved", 10)]
    assert (m.need, m.chance, m.impossible, m.near_certain) == (100, 0.01, True, False)
    # a miss needing 50 or more earns no karma: "karma never triggered"
    assert (m.karma_per_miss, m.expected_karma) == (0, 0.0)
    # 4 damage, DR 0; a turn that moves and attacks costs 500 + 250 + 250 IP
    assert (m.damage, m.ip_per_attack) == (4, 1000)
    assert m.damage_per_1000_ip == pytest.approx(0.04)


def test_knight_against_brute_in_melee_standing(sheets):
    """TDV = Brute Melee Defense 90 + Evasion 0; TAV = Knight Melee Accuracy 65;
    difficulty 25: rolls 25..100 hit (76 in 100).  A miss earns 50 - 25 = 25 karma
    (RB: 'the difference between the action's difficulty and 50%').  Damage 5 - DR 1 =
    4; attacking without moving costs 500 + 250 = 750 IP: 0.76 x 4 x 1000 / 750."""
    m = matchup(sheets["Knight"], sheets["Brute"], Case("melee"), default_rules())
    assert (m.preview.tdv, m.preview.tav, m.need) == (90, 65, 25)
    assert m.chance == pytest.approx(0.76)
    assert m.karma_per_miss == 25
    assert m.expected_karma == pytest.approx(0.24 * 25)
    assert (m.damage, m.preview.dr, m.ip_per_attack) == (4, 1, 750)
    assert m.damage_per_1000_ip == pytest.approx(0.76 * 4 * 1000 / 750)
    assert not m.impossible and not m.near_certain


def test_a_range_1_attacker_has_no_ranged_attack(sheets):
    m = matchup(sheets["Knight"], sheets["Archer"], Case("ranged"), default_rules())
    assert not m.possible and m.preview is None
    assert "Range 1" in m.reason
    assert "Range 1" in "\n".join(m.lines())


def test_near_certain_when_only_01_misses(sheets):
    sure = dataclasses.replace(sheets["Knight"], melee_accuracy=500)
    m = matchup(sure, sheets["Ogre"], Case("melee"), default_rules())
    assert (m.need, m.preview.hits, m.near_certain, m.impossible) == (2, 99, True, False)


def test_an_unaware_defender_loses_its_evasion(sheets):
    aware = matchup(sheets["Archer"], sheets["Rogue"], Case("ranged"), default_rules())
    blind = matchup(sheets["Archer"], sheets["Rogue"], Case("ranged", defender_aware=False),
                    default_rules())
    assert aware.preview.tdv - blind.preview.tdv == sheets["Rogue"].evasion == 25


def test_the_rules_config_is_read_not_copied(sheets):
    """A rules variant changes the table: the calculator has no rule of its own."""
    variant = rules_from_dict({"format": "sodwa-rules", "format_version": 1,
                               "modifiers": {"moved_defense": 30},
                               "karma": {"gain_below": 80},
                               "clock": {"move_cost": 500},
                               "combat": {"dr_applies_to": ["physical"]}})
    case = Case("ranged", defender_moved=True, attacker_moved=True)
    base = matchup(sheets["Mage"], sheets["Knight"], case, default_rules())
    new = matchup(sheets["Mage"], sheets["Knight"], case, variant)
    assert new.preview.tdv - base.preview.tdv == 20
    assert new.ip_per_attack == 500 + 250 + 500
    # the Mage's magical damage 6 ignores the Knight's DR 2 when DR lowers physical only
    assert (base.damage, new.damage) == (4, 6)
    # karma.gain_below 80: a Knight's miss at difficulty 45 earns 80 - 45 (default: 5)
    knight = matchup(sheets["Knight"], sheets["Knight"], Case("melee"), variant)
    assert knight.need == 45 and knight.karma_per_miss == 80 - 45


def test_the_standard_tables_cover_every_pair(sheets):
    rules = default_rules()
    order = list(sheets.values())
    assert len(STANDARD_CASES) == 8
    assert {(c.kind, c.attacker_moved, c.defender_moved) for c in STANDARD_CASES} == {
        (k, a, d) for k in ("melee", "ranged") for a in (False, True) for d in (False, True)}
    table = matchup_table(order, Case("ranged", True, True, impeded=True), rules)
    assert len(table) == len(order) and all(len(row) == len(order) for row in table)
    assert [c.defender for c in table[0]] == [s.name for s in order]
    impossible, certain = flagged(table)
    hawk = [s.name for s in order].index("Hawk")
    assert all(row[hawk].impossible for row in table if row[hawk].possible)
    assert impossible >= sum(row[hawk].possible for row in table) and certain == 0
