"""The map model: conventions, mutators, change notifications, destruction rules."""

from __future__ import annotations

import pytest

from sodwa_editor.engine.model import (
    MAX_SIDE,
    Change,
    Character,
    Edge,
    MapModel,
    MapObject,
    Rect,
    edge_between,
)
from sodwa_editor.engine.terrain import Base, TerrainRegistry


def test_edge_keys_are_canonical():
    assert edge_between((3, 4), (4, 4)) == Edge(3, 4, "E")
    assert edge_between((4, 4), (3, 4)) == Edge(3, 4, "E")
    assert edge_between((3, 5), (3, 4)) == Edge(3, 4, "S")
    assert Edge(3, 4, "S").tiles == ((3, 4), (3, 5))
    with pytest.raises(ValueError, match="not orthogonal neighbours"):
        edge_between((0, 0), (1, 1))


def test_layer_shapes_follow_the_coordinate_convention():
    m = MapModel(5, 3)
    assert m.terrain.shape == (3, 5)  # [y, x]
    assert m.border_e.shape == (3, 4) and m.border_s.shape == (2, 5)
    assert m.edge_in_bounds(Edge(3, 2, "E")) and not m.edge_in_bounds(Edge(4, 0, "E"))
    assert not m.edge_in_bounds(Edge(0, 2, "S"))


@pytest.mark.parametrize("size", [(0, 5), (5, 0), (MAX_SIDE + 1, 2), (1_000_000, 1_000_000)])
def test_absurd_sizes_are_refused_before_allocating(size):
    with pytest.raises(ValueError, match="outside 1.."):
        MapModel(*size)


def test_mutators_validate_and_notify_with_the_touched_rect():
    m = MapModel(4, 4)
    changes: list[Change] = []
    m.add_listener(changes.append)
    m.set_terrain(1, 2, int(Base.IMPEDING))
    m.set_border(Edge(2, 1, "S"), int(Base.OBSTRUCTING))
    m.set_elevation(0, 0, 3)
    assert [c.layer for c in changes] == ["terrain", "borders", "elevation"]
    assert changes[0].rect == Rect(1, 2, 1, 2) and changes[1].rect == Rect(2, 1, 2, 2)
    assert m.revision == 3
    with pytest.raises(IndexError, match=r"tile \(4, 0\) is outside the 4x4 map"):
        m.set_terrain(4, 0, 1)
    meadow = m.registry.register("meadow", Base.CLEAR)  # a special type with Clear base
    with pytest.raises(ValueError, match="cannot be a border"):
        m.set_border(Edge(0, 0, "E"), meadow)
    with pytest.raises(ValueError, match="outside 0..99"):
        m.set_elevation(0, 0, 100)
    assert m.revision == 3  # refused edits change nothing


def test_indoor_resolution_uses_override_then_map_setting():
    m = MapModel(3, 1, setting="outdoor")
    m.set_terrain(1, 0, int(Base.OBSTRUCTING))
    assert not m.tile_is_indoor(1, 0)
    m.set_tile_indoor(1, 0, True)
    assert m.tile_is_indoor(1, 0)
    m.set_border(Edge(0, 0, "E"), int(Base.OBSTRUCTING))
    m.set_setting("indoor")
    assert m.border_is_indoor(Edge(0, 0, "E"))
    m.set_border(Edge(0, 0, "E"), int(Base.OBSTRUCTING), indoor=False)
    assert not m.border_is_indoor(Edge(0, 0, "E"))


def test_destroyed_obstructing_tile_becomes_difficult():
    """RB: "If a Tile of Obstructing Terrain is destroyed, that tile becomes Difficult
    Terrain.\""""
    m = MapModel(3, 1)
    m.set_terrain(1, 0, int(Base.OBSTRUCTING))
    m.destroy_obstruction_tile(1, 0)
    assert m.base_at(1, 0) is Base.DIFFICULT
    with pytest.raises(ValueError, match="not Obstructing"):
        m.destroy_obstruction_tile(0, 0)


def test_destroyed_obstructing_border_leaves_rubble_on_both_sides():
    """RB: "If a Border of Obstructing Terrain is destroyed, the tiles on either side become
    Difficult Terrain ... They also become Adjacent\""""
    m = MapModel(2, 2)
    e = Edge(0, 0, "S")
    m.set_border(e, int(Base.OBSTRUCTING))
    m.destroy_obstruction_border(e)
    assert m.border_at(e) == 0
    assert m.base_at(0, 0) is Base.DIFFICULT and m.base_at(0, 1) is Base.DIFFICULT
    assert m.base_at(1, 0) is Base.CLEAR
    with pytest.raises(ValueError, match="no Obstructing border"):
        m.destroy_obstruction_border(e)


def test_copy_is_deep_and_same_content_compares_everything():
    m = MapModel(3, 3, name="a")
    m.registry.register("icy", Base.DIFFICULT, {"cover": {}},
                        custom={"reflex_save": {"type": "int", "value": 10}})
    m.put_character(Character("k", "blue", 1, 1, move=4))
    m.put_object(MapObject("o", "crate", 2, 2))
    m.set_start_zone("blue", [(0, 0), (1, 0)])
    c = m.copy()
    assert c.same_content(m)
    c.characters["k"].move = 5
    assert not c.same_content(m)
    c = m.copy()
    c.start_zones["blue"].add((2, 0))
    assert not c.same_content(m) and (2, 0) not in m.start_zones["blue"]


def test_registry_rejects_bad_and_duplicate_names():
    reg = TerrainRegistry()
    with pytest.raises(ValueError, match="lower-case"):
        reg.register("Icy Ground", Base.DIFFICULT)
    reg.register("icy", Base.DIFFICULT)
    with pytest.raises(ValueError, match="already declared"):
        reg.register("icy", Base.LIQUID)
    with pytest.raises(KeyError, match="unknown terrain type 'lava'"):
        reg.id_of("lava")
