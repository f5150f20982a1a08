"""Resizing a map (engine/resize.py): every layer moves with its tiles, whatever
falls outside is dropped, sizes are checked before allocating."""

from __future__ import annotations

import pytest

from sodwa_editor.engine import samples
from sodwa_editor.engine.model import MAX_SIDE, Character, Edge, MapModel, MapObject
from sodwa_editor.engine.resize import ANCHORS, anchor_offset, resized
from sodwa_editor.engine.terrain import Base


def every_layer() -> MapModel:
    m = MapModel(4, 3, name="r", setting="indoor")
    m.description = "d"
    icy = m.registry.register("icy", Base.DIFFICULT)
    m.set_terrain(0, 0, icy)
    m.set_terrain(3, 2, int(Base.OBSTRUCTING))
    m.set_tile_indoor(3, 2, False)
    m.set_elevation(1, 0, 2)
    m.set_transition(1, 1, True)
    m.set_border(Edge(2, 1, "E"), int(Base.OBSTRUCTING), indoor=False)
    m.set_border(Edge(0, 1, "S"), int(Base.IMPEDING))
    m.set_transition_edge(Edge(1, 0, "S"), True)
    m.set_start_zone("red", {(0, 2), (3, 0)})
    m.put_character(Character("a", "red", 0, 2, move=5))
    m.put_object(MapObject("crate", "crate", 3, 0))
    return m


def test_growing_moves_every_layer_by_the_offset_and_shrinking_back_restores_it():
    m = every_layer()
    big = resized(m, 7, 6, 2, 1)
    assert (big.width, big.height, big.name, big.setting, big.description) == (
        7, 6, "r", "indoor", "d")
    assert big.registry.id_of("icy") == m.registry.id_of("icy")
    assert big.terrain[1, 2] == m.terrain[0, 0] and big.terrain[3, 5] == Base.OBSTRUCTING
    assert big.tile_is_indoor(5, 3) is False
    assert big.elevation[1, 3] == 2 and big.transition[2, 3]
    assert big.border_at(Edge(4, 2, "E")) == Base.OBSTRUCTING
    assert big.border_is_indoor(Edge(4, 2, "E")) is False
    assert big.border_at(Edge(2, 2, "S")) == Base.IMPEDING
    assert big.is_transition_edge(Edge(3, 1, "S"))
    assert big.start_zones == {"red": {(2, 3), (5, 1)}}
    assert (big.characters["a"].x, big.characters["a"].y, big.characters["a"].move) == (2, 3, 5)
    assert (big.objects["crate"].x, big.objects["crate"].y) == (5, 1)
    assert resized(big, 4, 3, -2, -1).same_content(m)
    assert m.characters["a"].x == 0  # the source is untouched


def test_shrinking_drops_what_falls_outside():
    m = every_layer()
    small = resized(m, 2, 2, -1, 0)  # keeps columns 1..2, rows 0..1
    assert small.elevation.tolist() == [[2, 0], [0, 0]]
    assert small.transition.tolist() == [[False, False], [True, False]]
    assert small.is_transition_edge(Edge(0, 0, "S"))
    assert small.border_e.tolist() == [[0], [0]]  # the wall east of (2, 1) is gone
    assert small.start_zones == {} and small.characters == {} and small.objects == {}


@pytest.mark.parametrize(("anchor", "expected"), [
    ("top-left", (0, 0)), ("center", (2, 1)), ("bottom-right", (4, 3)), ("right", (4, 1)),
    ("top", (2, 0)), ("bottom-left", (0, 3))])
def test_anchor_offsets_keep_the_anchored_side_in_place(anchor, expected):
    assert anchor_offset(4, 3, 8, 6, anchor) == expected
    assert anchor_offset(8, 6, 4, 3, anchor) == tuple(-v for v in expected)
    m = every_layer()
    grown = resized(m, 8, 6, *anchor_offset(4, 3, 8, 6, anchor))
    assert resized(grown, 4, 3, *anchor_offset(8, 6, 4, 3, anchor)).same_content(m)


def test_bad_sizes_and_anchors_are_refused_clearly():
    m = samples.tiered_keep()
    with pytest.raises(ValueError, match=r"map width 0 is outside 1\.\.256"):
        resized(m, 0, 5)
    with pytest.raises(ValueError, match="map height"):
        resized(m, 5, MAX_SIDE + 1)
    with pytest.raises(ValueError, match="unknown anchor 'middle'; use one of top-left"):
        anchor_offset(1, 1, 2, 2, "middle")
    assert len(ANCHORS) == 9
