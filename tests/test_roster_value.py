"""The roster's value model (docs/map-format.md, Roster): the shipped costs of the
archetypes without abilities are the model's own; with abilities within 5 points (the
shipped costs were scaled from older ones); every term is reported."""

from __future__ import annotations

import dataclasses
import math

import pytest

from sodwa_editor.battle.roster_value import (
    DEFAULT_MODEL,
    ValueModel,
    area_tiles,
    hit_chance,
    suggested_cost,
)
from sodwa_editor.battle.sheet import load_roster


def test_the_default_sheet_costs_100():
    roster = load_roster()
    plain = dataclasses.replace(roster.archetypes[0], values=roster.defaults, move=5, range=5,
                                abilities=())
    terms = suggested_cost(plain, roster)
    assert terms.raw == pytest.approx(100) and terms.cost == 100


#: the first shipped archetypes, priced by the model alone (no abilities, no size)
MODEL_PRICED = ("Knight", "Archer", "Rogue", "Sniper", "Lancer", "Ogre")


def test_shipped_costs_follow_the_model():
    """The first six cost exactly the model's price; the others (abilities scaled an
    older price, docs/map-format.md; archetypes added later) are within 5 points."""
    roster = load_roster()
    for arch in roster.archetypes:
        terms = suggested_cost(arch, roster)
        if arch.name in MODEL_PRICED:
            assert terms.cost == arch.values["cost"], arch.name
        else:
            assert abs(terms.cost - arch.values["cost"]) <= 5, arch.name
    assert all(roster.find(name) is not None for name in MODEL_PRICED)


def test_knight_terms_by_hand():
    """Knight: melee p(115 - 65) = 0.51 x (5 - 1) x (1 + 5/10) x 0.6 = 1.836; ranged
    Range 1: none; x Initiative 0.9 = 1.6524.  Durability 14 / (mean(p(105 + 5 - 55),
    p(100 + 5 - 55)) = (0.46 + 0.51) / 2 x max(1, 4.5 - 2)) = 14 / 1.2125."""
    roster = load_roster()
    t = suggested_cost(roster.find("Knight"), roster)
    assert t.melee == pytest.approx(0.51 * 4 * 1.5 * 0.6)
    assert (t.ranged, t.offense_kind, t.abilities) == (0.0, "melee", ())
    assert t.basic_offense == pytest.approx(t.melee * 0.9)
    assert t.defense_factor == pytest.approx((0.46 + 0.51) / 2)
    assert t.dr_factor == 2.5
    assert t.durability == pytest.approx(14 / (0.485 * 2.5))
    # the default sheet (Move 5, Range 5): ranged p(115 - 55) x (4 - 1) x 1.5 beats
    # melee (x 0.6); durability 12 / (p(100 + 10 - 55) x (4.5 - 1))
    base = math.sqrt(0.41 * 3 * 1.5 * 12 / (0.46 * 3.5))
    assert t.raw == pytest.approx(math.sqrt(t.offense * t.durability) / base * 100)
    assert round(t.raw, 1) == 117.8
    text = "\n".join(t.lines())
    assert "melee" in text and "-> 120" in text


def test_ability_terms():
    roster = load_roster()
    mage = roster.find("Mage")
    t = suggested_cost(mage, roster)
    (fire,) = t.abilities
    # a Sphere of Reach 1 at Range 6: 9 tiles, 1 + 8/8 = 2 victims
    assert (fire.name, fire.tiles, fire.victims) == ("Fireball", 9, 2.0)
    # p(115 - 55) x (4 - 1) x 2 x (1 + 6/10) x 250/250
    assert fire.use == pytest.approx(0.41 * 3 * 2 * 1.6)
    assert fire.added == pytest.approx(2 / 8 * (fire.use * 0.95 - t.basic_offense))
    assert t.offense == pytest.approx(t.basic_offense + fire.added)
    assert "Fireball: 9 tiles" in "\n".join(t.lines())
    assert area_tiles(roster.find("Robot").abilities[0]) == 6


def test_a_model_of_other_numbers():
    roster = load_roster()
    cheap = ValueModel(round_to=1)
    assert suggested_cost(roster.find("Knight"), roster, cheap).cost == 118
    assert hit_chance(120) == 0.01 and hit_chance(-5, DEFAULT_MODEL) == 0.99
