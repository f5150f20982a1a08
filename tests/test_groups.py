"""Terrain, elevation and transition groups (8-connected components)."""

from __future__ import annotations

import networkx as nx
import numpy as np
from hypothesis import given, settings
from test_adjacency_strategies import random_maps

from sodwa_editor.engine.groups import (
    elevation_groups,
    terrain_group_mask,
    terrain_groups,
    transition_group_mask,
    transition_groups,
)
from sodwa_editor.engine.model import MapModel, Rect
from sodwa_editor.engine.terrain import Base

IMP = int(Base.IMPEDING)


def test_three_adjacent_impeding_tiles_are_one_group():
    """RB: "3 adjacent tiles of Impeding Terrain would all be surrounded by a single
    border"."""
    m = MapModel(5, 3)
    m.fill_terrain(Rect(1, 1, 3, 1), IMP)
    g = terrain_groups(m, skip_clear=True)
    assert len(g) == 1
    grp = g.groups[0]
    assert (grp.terrain, grp.elevation, grp.size, grp.rect) == (IMP, 0, 3, Rect(1, 1, 3, 1))
    assert g.tiles(0) == [(1, 1), (2, 1), (3, 1)]
    assert g.group_at(0, 0) is None and g.group_at(2, 1) is grp


def test_diagonal_tiles_of_the_same_type_are_contiguous():
    """RB: "If the diagonal tiles are of the same terrain type, then they are considered to
    be contiguous"."""
    m = MapModel(3, 3)
    for i in range(3):
        m.set_terrain(i, i, IMP)
    assert len(terrain_groups(m, skip_clear=True)) == 1
    assert terrain_group_mask(m, (1, 1)).sum() == 3


def test_different_type_or_elevation_splits_groups():
    m = MapModel(4, 1)
    m.terrain[0] = [IMP, IMP, int(Base.DIFFICULT), IMP]
    m.elevation[0, 1] = 1
    g = terrain_groups(m, skip_clear=True)
    assert [(x.terrain, x.elevation, x.size) for x in g.groups] == [
        (IMP, 0, 1), (IMP, 1, 1), (int(Base.DIFFICULT), 0, 1), (IMP, 0, 1)]
    assert len(terrain_groups(m)) == 4  # no Clear tiles here
    assert terrain_groups(m).labels.min() == 0


def test_elevation_and_transition_groups():
    m = MapModel(6, 3)
    m.elevation[:, 0:2] = 1
    m.elevation[:, 4:6] = 2
    m.elevation[0, 3] = 2  # joins the level-2 block through (4,0)
    m.transition[1, 1] = m.transition[1, 2] = True  # a stair: level 1 and level 0 tiles
    m.transition[2, 5] = True
    e = elevation_groups(m)
    assert [(x.elevation, x.size) for x in e.groups] == [(1, 6), (2, 7)]
    assert e.labels[0, 2] == -1
    t = transition_groups(m)
    assert [x.size for x in t.groups] == [2, 1]
    assert transition_group_mask(m, (1, 1)).sum() == 2
    assert not transition_group_mask(m, (0, 0)).any()


def test_an_obstructing_tile_is_in_no_stairway():
    """G2: an Obstructing tile flagged as a transition tile is a wall ("A Tile of
    Obstructing Terrain may not be occupied"), so it neither belongs to a stairway nor
    joins the transition tiles on either side of it into one."""
    m = MapModel(3, 1)
    m.transition[:] = True
    m.terrain[0, 1] = int(Base.OBSTRUCTING)
    assert [x.size for x in transition_groups(m).groups] == [1, 1]
    assert transition_group_mask(m, (0, 0)).tolist() == [[True, False, False]]
    assert not transition_group_mask(m, (1, 0)).any()


@settings(max_examples=60, deadline=None)
@given(random_maps(max_side=8))
def test_terrain_groups_are_the_connected_components(m):
    g = nx.Graph()
    keys = {t: (int(m.terrain[t[1], t[0]]), int(m.elevation[t[1], t[0]])) for t in m.tiles()}
    g.add_nodes_from(keys)
    for (x, y), key in keys.items():
        for dx, dy in ((1, 0), (0, 1), (1, 1), (-1, 1)):
            u = (x + dx, y + dy)
            if u in keys and keys[u] == key:
                g.add_edge((x, y), u)
    groups = terrain_groups(m)
    expected = {frozenset(c) for c in nx.connected_components(g)}
    got = {frozenset(groups.tiles(i)) for i in range(len(groups))}
    assert got == expected
    assert sum(x.size for x in groups.groups) == m.width * m.height
    for grp in groups.groups:
        assert np.array_equal(terrain_group_mask(m, grp.seed), groups.mask(grp.label))
