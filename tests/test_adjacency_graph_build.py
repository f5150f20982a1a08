"""The bulk-built adjacency graph equals the graph built the straightforward way
(a node per tile, an edge per adjacent pair from :func:`pair_crossing`): the same
nodes in the same order, the same edges, the same attributes, each tile's neighbours
in :data:`DIRS` order, one shared read-only data dict per edge."""

from __future__ import annotations

import networkx as nx
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_adjacency_strategies import neighbour_pairs, random_maps

from sodwa_editor.engine.adjacency import DIRS, pair_crossing
from sodwa_editor.engine.adjacency_graph import AdjacencyGraph, ReadOnlyAttrs
from sodwa_editor.engine.generate import make_mixed_map
from sodwa_editor.engine.model import MapModel
from sodwa_editor.engine.terrain import Base, Crossing


def reference_graph(m: MapModel) -> nx.Graph:
    g = nx.Graph()
    for y in range(m.height):
        for x in range(m.width):
            g.add_node((x, y), terrain=int(m.terrain[y, x]), elevation=int(m.elevation[y, x]))
    for a, b in neighbour_pairs(m):
        c, why = pair_crossing(m, a, b)
        if c is not Crossing.BLOCKED:
            g.add_edge(a, b, crossing=c.label, reason=why)
    return g


def assert_same_graph(g: nx.Graph, ref: nx.Graph) -> None:
    assert list(g.nodes(data=True)) == list(ref.nodes(data=True))
    edges = {frozenset((a, b)): d for a, b, d in g.edges(data=True)}
    assert len(edges) == g.number_of_edges() == ref.number_of_edges()
    assert edges == {frozenset((a, b)): d for a, b, d in ref.edges(data=True)}
    for (x, y), nbrs in g.adj.items():
        assert list(nbrs) == [b for dx, dy in DIRS if (b := (x + dx, y + dy)) in ref.adj[(x, y)]]
        for b, data in nbrs.items():
            assert type(data) is ReadOnlyAttrs and data is g.adj[b][(x, y)]
    for _, data in g.nodes(data=True):
        assert type(data) is ReadOnlyAttrs


@settings(max_examples=80, deadline=None)
@given(random_maps(max_side=9))
def test_bulk_build_equals_the_straightforward_build(m):
    assert_same_graph(AdjacencyGraph(m, listen=False).graph, reference_graph(m))


@settings(max_examples=30, deadline=None)
@given(random_maps(max_side=7), st.integers(0, 2**32 - 1))
def test_rebuilds_of_one_model_stay_equal_after_edits_and_graph_mutations(m, seed):
    """Later builds of the same model (which reuse its per-size templates) equal the
    straightforward build too, whatever was done to earlier graphs and the map."""
    first = AdjacencyGraph(m)
    first.graph.remove_edges_from(list(first.graph.edges))  # a user's edit of its graph
    rng = np.random.default_rng(seed)
    m.terrain[:] = rng.choice(np.array([0, 1, 2, 3, 4], np.uint8), size=m.shape)
    m.notify_bulk_change()  # first rebuilds itself
    assert_same_graph(first.graph, reference_graph(m))
    assert_same_graph(AdjacencyGraph(m, listen=False).graph, reference_graph(m))


def test_bulk_build_equals_the_straightforward_build_on_a_generated_map():
    m = make_mixed_map(20, seed=3)
    m.set_terrain(0, 0, int(Base.OBSTRUCTING))
    assert_same_graph(AdjacencyGraph(m, listen=False).graph, reference_graph(m))
