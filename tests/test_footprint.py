"""Creature sizes, footprints, where they may stand and adjacency between creatures
(docs/rules.md S1-S5, S10): the companion rulebook's sentences as golden tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_adjacency_strategies import random_maps

from sodwa_editor.engine.area_notation import parse_area
from sodwa_editor.engine.areas import area
from sodwa_editor.engine.footprint import (
    SIZES,
    Footprint,
    cannot_stand,
    creatures_adjacent,
    creatures_hit,
    footprint_for,
    size_rank,
    touching_squares,
    transform_anchor,
)
from sodwa_editor.engine.model import Edge, MapModel
from sodwa_editor.engine.terrain import Base
from sodwa_editor.engine.transform import SYMMETRIES, Symmetry, apply, rotation

IMP, OBS, DIF = int(Base.IMPEDING), int(Base.OBSTRUCTING), int(Base.DIFFICULT)


def test_size_table_and_free_dimensions():
    """*CS*: "Medium | 1x1 | Large | 2x2 | Huge | 4x4 | Massive | 6x6 | Gigantic | 10x10";
    "a Wailord is longer than it is wide, and might be more appropriate as 4x8 instead of
    6x6"."""
    assert {s.name: footprint_for(s.name) for s in SIZES if s.rank >= 3} == {
        "medium": Footprint(1, 1), "large": Footprint(2, 2), "huge": Footprint(4, 4),
        "massive": Footprint(6, 6), "gigantic": Footprint(10, 10)}
    assert footprint_for("Massive", dimensions=Footprint(4, 8)) == Footprint(4, 8)
    assert [s.name for s in sorted(SIZES, key=lambda s: s.rank)] == [
        "mini", "tiny", "small", "medium", "large", "huge", "massive", "gigantic"]
    assert Footprint.parse(" 4X8 ") == Footprint(4, 8) and str(Footprint(4, 8)) == "4x8"
    for bad in ("4", "0x2", "ax2", "2x-1", "1x2x3"):
        with pytest.raises(ValueError, match="footprint"):
            Footprint.parse(bad)
    with pytest.raises(ValueError, match="unknown size 'colossal'"):
        footprint_for("colossal")


def test_mini_tiny_and_small_take_a_whole_tile_and_share_it_with_nobody():
    """SODWA wins: RB *Terrain* "a character can't occupy a tile already occupied by another
    character" over *CS* "Up to 100 Mini creatures, 25 Tiny creatures, or 4 Small creatures
    can fit into a single square"."""
    for name in ("mini", "tiny", "small"):
        assert footprint_for(name) == Footprint(1, 1)
        assert footprint_for(name, grid_scale_m=0.25) == Footprint(1, 1)
    m = MapModel(3, 3)
    refusal = cannot_stand(m, (1, 1), Footprint(1, 1), others=[(1, 1, "sprite")])
    assert refusal is not None and refusal.kind == "character"
    assert refusal.text == "character 'sprite' is on (1, 1)"
    assert size_rank("Tiny") == 1 and size_rank("gigantic") == 7


def test_grid_scale_divides_the_combat_dimensions():
    """*CS*: "Each square is 1 square meter in size"; *TP*: "Characters which are Large,
    Medium or Small Sized may each occupy a single Space Only" and Huge "may occupy
    multiple Spaces, with the number of Spaces varying depending upon the scale of the
    Abstract Grid (... in a Conflict whose squares are 10m they may occupy a single
    square)"."""
    assert footprint_for("large", grid_scale_m=2) == Footprint(1, 1)
    assert footprint_for("huge", grid_scale_m=2) == Footprint(2, 2)
    assert footprint_for("massive", grid_scale_m=4) == Footprint(2, 2)  # ceil(1.5)
    assert footprint_for("huge", grid_scale_m=10) == Footprint(1, 1)
    assert footprint_for("medium", grid_scale_m=0.1) == Footprint(10, 10)  # exact: not 11
    assert footprint_for("massive", dimensions=Footprint(4, 8), grid_scale_m=2) == \
        Footprint(2, 4)
    for bad in (0, -1):
        with pytest.raises(ValueError, match="positive number of metres"):
            footprint_for("huge", grid_scale_m=bad)


def test_where_a_footprint_may_not_stand_and_why():
    """S4: each refusal with its reason, the first one found."""
    m = MapModel(8, 6)
    fp = Footprint(2, 2)
    assert cannot_stand(m, (7, 0), fp).kind == "off-map"
    assert cannot_stand(m, (-1, 0), fp).text == \
        "a 2x2 footprint at -1,0 does not fit on the 8x6 map"
    m.set_terrain(1, 1, OBS)
    r = cannot_stand(m, (0, 0), fp)
    assert (r.kind, r.tile, r.text) == ("tile", (1, 1),
                                        "the Obstructing tile (1, 1) is under the footprint")
    m.set_elevation(4, 1, 1)
    r = cannot_stand(m, (3, 0), fp)
    assert (r.kind, r.tile) == ("level", (4, 1))
    assert r.text == "the footprint is on two levels: 0 at (3, 0) and 1 at (4, 1)"
    m.set_transition_edge(Edge(3, 1, "E"), True)  # a stair between the two levels
    assert cannot_stand(m, (3, 0), fp).kind == "level"  # still two levels
    m.set_border(Edge(5, 3, "S"), OBS)
    r = cannot_stand(m, (5, 3), fp)
    assert (r.kind, r.edge) == ("border", Edge(5, 3, "S"))
    assert r.to_json() == {"kind": "border", "text": "the Obstructing border 5,3,S runs "
                           "through the footprint", "edge": [5, 3, "S"]}
    assert cannot_stand(m, (5, 2), fp) is None  # the wall on its edge, not through it
    assert cannot_stand(m, (6, 0), fp, others=[(7, 1, "ogre")]).kind == "character"


def test_a_footprint_may_stand_over_hindering_terrain_and_stairs_of_one_level():
    """S4: Impeding, Difficult and Liquid tiles and borders, a transition tile, a transition
    border between tiles of one level, and an Outdoor wall under a flyer's route are not
    refusals; a Huge creature stands over a fence."""
    m = MapModel(6, 6)
    m.set_terrain(1, 1, IMP)
    m.set_terrain(2, 2, DIF)
    m.set_border(Edge(0, 0, "E"), IMP)
    m.set_transition(3, 3, True)
    m.set_transition_edge(Edge(2, 3, "E"), True)
    assert cannot_stand(m, (0, 0), Footprint(4, 4)) is None


def test_creatures_touching_at_a_corner_are_adjacent():
    """*CS*: "2 combatants are Adjacent to each other if any squares they occupy touch each
    other, including corners"."""
    m = MapModel(10, 10)
    huge, one = Footprint(4, 4), Footprint(1, 1)
    assert creatures_adjacent(m, (0, 0), huge, (4, 4), one)  # diagonal to (3, 3)
    assert not creatures_adjacent(m, (0, 0), huge, (5, 4), one)
    assert touching_squares(m, (0, 0), huge, (4, 2), Footprint(2, 2)) == [
        ((3, 1), (4, 2)), ((3, 2), (4, 2)), ((3, 2), (4, 3)), ((3, 3), (4, 2)),
        ((3, 3), (4, 3))]
    with pytest.raises(ValueError, match="overlap"):
        creatures_adjacent(m, (0, 0), huge, (3, 3), one)


def test_no_adjacency_across_a_wall_or_between_levels_without_a_transition():
    """S5 with A2-A5: "Tiles on opposite sides of an Obstructing Terrain Border are not
    considered adjacent"; "Characters, objects, and effects that exist on different
    elevations are not considered to be adjacent"; "The tiles on opposite sides of a
    Transition Border are considered to be Adjacent"."""
    m = MapModel(6, 2)
    two = Footprint(2, 2)
    for y in range(2):
        m.set_border(Edge(1, y, "E"), OBS)
    assert not creatures_adjacent(m, (0, 0), two, (2, 0), two)  # a wall all along
    m.set_border(Edge(1, 1, "E"), 0)  # the wall ends at the corner (2, 1): round its end
    assert touching_squares(m, (0, 0), two, (2, 0), two) == [
        ((1, 0), (2, 1)), ((1, 1), (2, 0)), ((1, 1), (2, 1))]
    m = MapModel(4, 2)
    m.elevation[:, 2:] = 1
    m.notify_bulk_change()
    assert not creatures_adjacent(m, (0, 0), two, (2, 0), two)
    m.set_transition_edge(Edge(1, 0, "E"), True)
    assert touching_squares(m, (0, 0), two, (2, 0), two) == [((1, 0), (2, 0))]


def test_transform_anchor_moves_the_covered_rectangle():
    """S10: under a symmetry the footprint's rectangle moves and its new top-left tile is
    the anchor; a quarter turn swaps width and height."""
    assert transform_anchor(rotation(1), (0, 0), Footprint(4, 2), 10, 10) == \
        ((8, 0), Footprint(2, 4))
    assert transform_anchor(Symmetry(flip_x=True), (1, 2), Footprint(3, 1), 10, 5) == \
        ((6, 2), Footprint(3, 1))


@settings(max_examples=80, deadline=None)
@given(random_maps(max_side=7), st.builds(Footprint, st.integers(1, 3), st.integers(1, 3)),
       st.sampled_from(SYMMETRIES), st.data())
def test_standing_and_adjacency_are_equivariant_under_the_8_symmetries(m, fp, sym, data):
    t = apply(m, sym)
    cols, rows = fp.anchor_grid(m.width, m.height)
    if not cols or not rows:
        return
    a = (data.draw(st.integers(0, cols - 1)), data.draw(st.integers(0, rows - 1)))
    at, fpt = transform_anchor(sym, a, fp, m.width, m.height)
    assert set(sym.tile(s, m.width, m.height) for s in fp.squares(a)) == set(fpt.squares(at))
    here, there = cannot_stand(m, a, fp), cannot_stand(t, at, fpt)
    assert (here is None) == (there is None)
    if here is not None:
        assert here.kind == there.kind or {here.kind, there.kind} <= {"tile", "level",
                                                                       "border"}
    b = (data.draw(st.integers(0, m.width - 1)), data.draw(st.integers(0, m.height - 1)))
    if not fp.covers(a, b):
        bt, one = transform_anchor(sym, b, Footprint(1, 1), m.width, m.height)
        assert creatures_adjacent(m, a, fp, b, Footprint(1, 1)) == \
            creatures_adjacent(t, at, fpt, bt, one)


def test_an_area_hits_a_creature_on_any_of_its_squares_and_once():
    """S11: issue 26 "Areas of effect ... hit a creature when they reach any of its
    squares, once"; a Blast's damage is taken where most of it is left."""
    m = MapModel(12, 5)
    m.set_border(Edge(7, 2, "E"), OBS)
    blast = area(m, parse_area("AoE - Blast - Line: 8"), (0, 2), direction="E", damage=9)
    creatures = {"huge": ((4, 1), Footprint(4, 4)), "far": ((9, 2), Footprint(1, 1)),
                 "beside": ((2, 0), Footprint(1, 1))}
    assert creatures_hit(blast.affected, creatures) == {"huge": (4, 2)}
    line = area(m, parse_area("AoE - Blast - Line: 8"), (0, 2), direction="E")
    assert creatures_hit(line.affected, creatures) == {"huge": (4, 2)}
    spent = {(4, 2): 2, (5, 2): 5, (6, 2): 5, (7, 2): 1}
    assert creatures_hit(spent, creatures, spent) == {"huge": (5, 2)}
