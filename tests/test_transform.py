"""Whole-map rotations and mirrors: every layer moves with its tiles."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_adjacency_strategies import build_map, random_maps

from sodwa_editor.engine.model import Character, Edge, MapModel, MapObject
from sodwa_editor.engine.terrain import Base
from sodwa_editor.engine.transform import (
    SYMMETRIES,
    Symmetry,
    apply,
    mirror_x,
    mirror_y,
    rotate90,
    rotation,
    transpose,
)


def sample() -> MapModel:
    m = MapModel(4, 3, name="s", setting="indoor")
    m.description = "d"
    m.set_terrain(0, 0, int(Base.IMPEDING))
    m.set_elevation(3, 2, 2)
    m.set_transition(3, 1, True)
    m.set_tile_indoor(0, 0, False)
    m.set_border(Edge(0, 0, "E"), int(Base.OBSTRUCTING), indoor=False)
    m.set_border(Edge(2, 1, "S"), int(Base.LIQUID))
    m.set_transition_edge(Edge(2, 2, "E"), True)
    m.set_start_zone("red", [(0, 2), (1, 2)])
    m.put_character(Character("a", "red", 1, 2, move=4, flight=True))
    m.put_object(MapObject("o", "crate", 3, 0))
    return m


def test_rotate90_moves_every_layer_clockwise():
    m = sample()
    r = rotate90(m)
    assert (r.width, r.height, r.name, r.setting, r.description) == (3, 4, "s", "indoor", "d")
    # (x, y) -> (H-1-y, x) with H = 3
    assert r.base_at(2, 0) is Base.IMPEDING and r.elevation[3, 0] == 2
    assert r.transition[3, 1] and not r.tile_is_indoor(2, 0)
    # East edge of (0,0) (between (0,0),(1,0)) -> between (2,0),(2,1): south edge of (2,0)
    assert r.border_at(Edge(2, 0, "S")) == int(Base.OBSTRUCTING)
    assert not r.border_is_indoor(Edge(2, 0, "S"))
    # South edge of (2,1) (between (2,1),(2,2)) -> between (1,2),(0,2): east edge of (0,2)
    assert r.border_at(Edge(0, 2, "E")) == int(Base.LIQUID)
    # East edge of (2,2) (between (2,2),(3,2)) -> between (0,2),(0,3): south edge of (0,2)
    assert r.is_transition_edge(Edge(0, 2, "S"))
    assert r.start_zones == {"red": {(0, 0), (0, 1)}}
    c = r.characters["a"]
    assert (c.x, c.y, c.move, c.flight) == (0, 1, 4, True)
    assert (r.objects["o"].x, r.objects["o"].y) == (2, 3)
    assert m.characters["a"].x == 1  # the input is untouched


def test_mirrors_and_transpose_move_edges():
    m = sample()
    mx, my, t = mirror_x(m), mirror_y(m), transpose(m)
    assert mx.border_at(Edge(2, 0, "E")) == int(Base.OBSTRUCTING)
    assert mx.border_at(Edge(1, 1, "S")) == int(Base.LIQUID)
    assert my.border_at(Edge(0, 2, "E")) == int(Base.OBSTRUCTING)
    assert my.border_at(Edge(2, 0, "S")) == int(Base.LIQUID)
    assert t.border_at(Edge(0, 0, "S")) == int(Base.OBSTRUCTING)
    assert t.border_at(Edge(1, 2, "E")) == int(Base.LIQUID)
    assert (t.characters["a"].x, t.characters["a"].y) == (2, 1)


@pytest.mark.parametrize("k", [1, 2, 3, -1])
def test_rotation_symmetry_matches_rotate90(k):
    m = sample()
    assert rotate90(m, k).same_content(apply(m, rotation(k)))
    if k % 4 == 1:  # (x, y) -> (H-1-y, x)
        assert rotation(k).tile((1, 0), m.width, m.height) == (m.height - 1, 1)


@settings(max_examples=40, deadline=None)
@given(random_maps(max_side=7, characters=3))
def test_four_quarter_turns_and_double_mirrors_give_the_same_map(m):
    assert rotate90(rotate90(rotate90(rotate90(m)))).same_content(m)
    assert rotate90(m, 4).same_content(m)
    assert rotate90(rotate90(m, 2), -2).same_content(m)
    assert rotate90(rotate90(m, 1), 3).same_content(m)
    assert mirror_x(mirror_x(m)).same_content(m)
    assert mirror_y(mirror_y(m)).same_content(m)
    assert transpose(transpose(m)).same_content(m)
    assert rotate90(m, 2).same_content(mirror_x(mirror_y(m)))
    assert rotate90(m).same_content(mirror_x(transpose(m)))


@settings(max_examples=40, deadline=None)
@given(random_maps(max_side=7), st.sampled_from(SYMMETRIES))
def test_symmetry_tile_and_array_agree(m, sym: Symmetry):
    t = apply(m, sym)
    for x, y in m.tiles():
        tx, ty = sym.tile((x, y), m.width, m.height)
        assert t.terrain[ty, tx] == m.terrain[y, x]
        assert t.elevation[ty, tx] == m.elevation[y, x]
    assert (sym.array(m.terrain) == t.terrain).all()


def test_symmetries_are_eight_distinct_maps():
    m = build_map(5, 4, 9, density=0.4)
    outs = [apply(m, s) for s in SYMMETRIES]
    assert len(SYMMETRIES) == 8
    assert all(not outs[i].same_content(outs[j]) for i in range(8) for j in range(i))
