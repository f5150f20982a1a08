"""A Blast against walls damaged already, and the damage it leaves in a wall it cannot
break (docs/rules.md AE8; the battle side is AB-rules in tests/test_battle_abilities.py):
the engine takes each wall's Durability left and returns the damage left in the walls
that stopped it."""

from __future__ import annotations

import pytest

from sodwa_editor.engine.area_notation import parse_area
from sodwa_editor.engine.areas import AreaError, area
from sodwa_editor.engine.model import Edge, MapModel
from sodwa_editor.engine.transform import SYMMETRIES, apply

LINE = parse_area("AoE - Blast - Line: 4")
SPHERE = parse_area("AoE - Blast - Sphere: 2")


def walled() -> MapModel:
    m = MapModel(11, 11)
    m.set_terrain(6, 5, m.registry.id_of("obstructing"))
    return m


def test_a_worn_wall_costs_its_durability_left():
    """Seed: "they must reduce the objects they Hit Durability to 0 first": a wall with
    2 damage already (B39 adds damage up) has 1 Durability left, so a Blast of 3 passes
    it with 2 left, where a fresh wall would have spent all 3."""
    m = walled()
    fresh = area(m, LINE, (4, 5), direction="E", damage=3, durability=3)
    assert fresh.affected == ((5, 5),) and fresh.walls == (("tile", 6, 5),)
    worn = area(m, LINE, (4, 5), direction="E", damage=3, durability=3,
                worn={("tile", 6, 5): 2})
    assert worn.damage == {(5, 5): 3, (7, 5): 2, (8, 5): 2}
    assert worn.walls == (("tile", 6, 5),)


def test_a_wall_that_stops_a_blast_keeps_the_damage_it_had_left():
    """"Damage spent reducing the Durability of an object such as a wall is subtracted
    from the total damage": a Blast of 2 against a wall of 3 reduces it by 2 and stops;
    the wall keeps those 2 (``wall_damage``), for the battle to add up."""
    m = walled()
    weak = area(m, LINE, (4, 5), direction="E", damage=2, durability=3)
    assert weak.walls == () and weak.wall_damage == {("tile", 6, 5): 2}
    assert area(m, LINE, (4, 5), direction="E", damage=7).wall_damage == {}
    border = MapModel(11, 11)
    border.set_border(Edge(5, 5, "E"), border.registry.id_of("obstructing"))
    b = area(border, SPHERE, (5, 5), damage=2, durability=3)
    assert b.walls == () and b.wall_damage == {("border", 5, 5, "E"): 2}
    assert "durability 1" in {s.tile: s for s in area(
        border, SPHERE, (5, 5), damage=0, durability=3,
        worn={("border", 5, 5, "E"): 2}).stopped}[(6, 5)].reason.text
    assert area(border, parse_area("AoE - Emanation - Sphere: 2"), (5, 5),
                damage=2).wall_damage == {}  # only a Blast spends damage on walls


def test_per_wall_durability_is_the_same_under_every_symmetry():
    """AE17 holds with worn walls: the damage left, the walls broken and the damage left
    in walls turn with the map."""
    m = walled()
    m.set_terrain(3, 5, m.registry.id_of("obstructing"))
    base = area(m, SPHERE, (5, 5), damage=2, durability=3, worn={("tile", 6, 5): 2})
    assert base.walls == (("tile", 6, 5),) and base.wall_damage == {("tile", 3, 5): 2}
    for sym in SYMMETRIES:
        def moved(t: tuple[int, int], s=sym) -> tuple[int, int]:
            return s.tile(t, m.width, m.height)
        w = moved((6, 5))
        b = area(apply(m, sym), SPHERE, moved((5, 5)), damage=2, durability=3,
                 worn={("tile", *w): 2})
        assert {moved(t): v for t, v in base.damage.items()} == b.damage
        assert b.walls == (("tile", *w),)
        assert b.wall_damage == {("tile", *moved((3, 5))): 2}


def test_durability_below_one_is_refused():
    with pytest.raises(AreaError, match="durability 0 is below 1"):
        area(walled(), LINE, (4, 5), direction="E", damage=3, durability=0)
