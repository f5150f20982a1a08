"""Regions (docs/rules.md R1) and the validator's reachability warnings (R2, R3)."""

from __future__ import annotations

import networkx as nx
import numpy as np
from hypothesis import given, settings
from test_adjacency_strategies import random_maps

from sodwa_editor.engine.adjacency_graph import AdjacencyGraph
from sodwa_editor.engine.model import Character, Edge, MapModel
from sodwa_editor.engine.regions import region_sizes, regions
from sodwa_editor.engine.samples import SAMPLE_MAPS
from sodwa_editor.engine.terrain import Base
from sodwa_editor.io import validate_model
from sodwa_editor.io.checks import check_isolated_regions, check_zone_reachability


def reach_problems(m: MapModel) -> list[tuple]:
    return [(p.code, p.tile, p.path, p.message)
            for p in validate_model(m, checks=[check_zone_reachability, check_isolated_regions])]


@settings(max_examples=80, deadline=None)
@given(random_maps(max_side=8))
def test_regions_are_the_components_of_the_adjacency_graph(m):
    """R1: the labels partition exactly the graph's connected components (any class
    but blocked joins two tiles), numbered in row-major order of their first tile."""
    label = regions(m)
    g = AdjacencyGraph(m, listen=False).graph
    walls = m.registry.base_table()[m.terrain] == Base.OBSTRUCTING
    comps = sorted(sorted((y, x) for x, y in c) for c in nx.connected_components(g)
                    if not walls[next(iter(c))[1], next(iter(c))[0]])
    assert len(comps) == label.max() + 1
    for i, comp in enumerate(comps):  # sorted by first tile = row-major numbering
        assert {int(label[y, x]) for y, x in comp} == {i}
    assert (label < 0).sum() == walls.sum()
    assert region_sizes(label).tolist() == [len(c) for c in comps]


def test_impeded_pairs_join_regions_and_blocked_ones_split_them():
    imp, obs = (MapModel(1, 1).registry.id_of(n) for n in ("impeding", "obstructing"))
    m = MapModel(5, 3)
    m.set_border(Edge(0, 0, "E"), imp)  # impeded: still one region
    for y in range(3):
        m.set_border(Edge(2, y, "E"), obs)  # a wall from top to bottom
    m.set_terrain(4, 1, obs)
    assert regions(m).tolist() == [[0, 0, 0, 1, 1], [0, 0, 0, 1, -1], [0, 0, 0, 1, 1]]
    m.set_border(Edge(2, 1, "E"), 0)  # a door in the wall
    assert regions(m).tolist() == [[0, 0, 0, 0, 0], [0, 0, 0, 0, -1], [0, 0, 0, 0, 0]]
    m.set_elevation(4, 0, 1)  # a different level with no transition
    assert regions(m)[0].tolist() == [0, 0, 0, 0, 1]
    m.set_transition_edge(Edge(3, 0, "E"), True)
    assert regions(m)[0].tolist() == [0, 0, 0, 0, 0]
    assert not regions(m).flags.writeable and regions(m) is regions(m)  # cached


def test_start_zones_that_cannot_reach_each_other_are_reported():
    obs = MapModel(1, 1).registry.id_of("obstructing")
    m = MapModel(5, 2)
    for y in range(2):
        m.set_terrain(2, y, obs)
    m.set_start_zone("red", {(0, 0), (0, 1)})
    m.set_start_zone("blue", {(4, 1)})
    m.set_start_zone("green", {(1, 1)})
    assert reach_problems(m) == [
        ("zones-unreachable", (4, 1), "/start_zones/blue",
         "start zones of teams 'blue' and 'green' cannot reach each other on foot: "
         "no chain of adjacent tiles joins them"),
        ("zones-unreachable", (4, 1), "/start_zones/blue",
         "start zones of teams 'blue' and 'red' cannot reach each other on foot: "
         "no chain of adjacent tiles joins them"),
    ]
    m.set_terrain(2, 1, 0)  # open the wall
    assert reach_problems(m) == []


def test_isolated_regions_are_reported_at_their_first_tile():
    """R3, in row-major order of the regions' first tiles."""
    obs = MapModel(1, 1).registry.id_of("obstructing")
    m = MapModel(6, 3)
    for y in range(3):
        m.set_terrain(3, y, obs)
    m.set_elevation(0, 2, 1)  # a one-tile ledge with no transition
    m.put_character(Character("a", "red", 0, 0))
    m.set_start_zone("red", {(0, 0)})
    assert reach_problems(m) == [
        ("isolated-region", (4, 0), "/terrain/0",
         "isolated region of 6 tile(s) from (4, 0): no start zone or character can reach "
         "it on foot"),
        ("isolated-region", (0, 2), "/terrain/2",
         "isolated region of 1 tile(s) from (0, 2): no start zone or character can reach "
         "it on foot"),
    ]
    m.put_character(Character("b", "blue", 5, 2))  # someone over there: not isolated
    assert [p[1] for p in reach_problems(m)] == [(0, 2)]


def test_without_zones_or_characters_every_region_but_the_largest_is_isolated():
    obs = MapModel(1, 1).registry.id_of("obstructing")
    m = MapModel(5, 1)
    m.set_terrain(1, 0, obs)
    assert reach_problems(m) == [
        ("isolated-region", (0, 0), "/terrain/0",
         "isolated region of 1 tile(s) from (0, 0): it is cut off from the largest region "
         "(3 tiles, at (2, 0))"),
    ]
    assert reach_problems(MapModel(3, 3)) == []


def test_reachability_checks_skip_maps_the_integrity_check_rejects():
    m = MapModel(3, 1)
    m.terrain[0, 0] = 200  # unknown terrain id: reported by check_integrity
    m.notify_bulk_change()
    assert reach_problems(m) == []
    assert "unknown-terrain" in [p.code for p in validate_model(m)]


def test_sample_maps_reachability():
    """The sample maps connect their teams, except the rulebook LoS diagram whose
    plateau has no transition (docs/rules.md, after R3)."""
    for name, build in SAMPLE_MAPS.items():
        found = {p[0] for p in reach_problems(build())}
        expected = {"zones-unreachable"} if name == "rulebook-elevated-los" else set()
        assert found == expected, name
        assert np.all(regions(build()) >= -1)
