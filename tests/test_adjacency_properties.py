"""Adjacency invariants on random maps (hypothesis)."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st
from test_adjacency_strategies import ICY, classes, neighbour_pairs, random_maps

from sodwa_editor.engine.adjacency import blocked_pairs, pair_crossing
from sodwa_editor.engine.adjacency_graph import AdjacencyGraph
from sodwa_editor.engine.model import Character, Edge, Rect
from sodwa_editor.engine.terrain import Base, Crossing
from sodwa_editor.engine.transform import SYMMETRIES, apply


@settings(max_examples=80, deadline=None)
@given(random_maps(), st.booleans())
def test_adjacency_is_symmetric(m, flight):
    for a, b in neighbour_pairs(m):
        assert pair_crossing(m, a, b, flight=flight)[0] is \
            pair_crossing(m, b, a, flight=flight)[0]


@settings(max_examples=60, deadline=None)
@given(random_maps(), st.data())
def test_adding_an_obstruction_never_adds_adjacency(m, data):
    """Making a tile or a border Obstructing can only make crossings more restrictive."""
    before = classes(m)
    if data.draw(st.booleans(), label="tile") or (m.width == 1 and m.height == 1):
        x = data.draw(st.integers(0, m.width - 1), label="x")
        y = data.draw(st.integers(0, m.height - 1), label="y")
        m.set_terrain(x, y, int(Base.OBSTRUCTING))
    else:
        edges = [Edge(x, y, "E") for y in range(m.height) for x in range(m.width - 1)]
        edges += [Edge(x, y, "S") for y in range(m.height - 1) for x in range(m.width)]
        m.set_border(data.draw(st.sampled_from(edges), label="edge"), int(Base.OBSTRUCTING))
    after = classes(m)
    assert all(after[p] >= before[p] for p in before)


@settings(max_examples=60, deadline=None)
@given(random_maps(max_side=7), st.data())
def test_patched_graph_equals_full_rebuild(m, data):
    """The listening graph, patched after each random edit, equals a fresh build."""
    graph = AdjacencyGraph(m)
    for _ in range(data.draw(st.integers(1, 8), label="n_edits")):
        x = data.draw(st.integers(0, m.width - 1), label="x")
        y = data.draw(st.integers(0, m.height - 1), label="y")
        kind = data.draw(st.sampled_from(["terrain", "elevation", "transition", "border",
                                          "transition_edge", "fill", "character", "indoor"]))
        if kind == "terrain":
            m.set_terrain(x, y, data.draw(st.sampled_from([0, 1, 2, 3, 4, ICY])))
        elif kind == "elevation":
            m.set_elevation(x, y, data.draw(st.integers(0, 2)))
        elif kind == "transition":
            m.set_transition(x, y, data.draw(st.booleans()))
        elif kind == "fill":
            x1 = data.draw(st.integers(x, m.width - 1))
            y1 = data.draw(st.integers(y, m.height - 1))
            m.fill_terrain(Rect(x, y, x1, y1), data.draw(st.sampled_from([0, 2, 3])))
        elif kind == "character":
            m.put_character(Character("c", "red", x, y))
        elif kind == "indoor":
            m.set_tile_indoor(x, y, data.draw(st.sampled_from([None, True, False])))
        else:
            side = data.draw(st.sampled_from(["E", "S"]))
            edge = Edge(x, y, side)
            if not m.edge_in_bounds(edge):
                continue
            if kind == "border":
                m.set_border(edge, data.draw(st.sampled_from([0, 1, 2, 3, 4, ICY])))
            elif m.border_at(edge) and m.registry[m.border_at(edge)].base is Base.OBSTRUCTING \
                    and data.draw(st.booleans()):
                m.destroy_obstruction_border(edge)
            else:
                m.set_transition_edge(edge, data.draw(st.booleans()))
    fresh = AdjacencyGraph(m, listen=False).graph
    assert dict(graph.graph.nodes(data=True)) == dict(fresh.nodes(data=True))
    assert nx.utils.edges_equal(graph.graph.edges(data=True), fresh.edges(data=True))


@settings(max_examples=60, deadline=None)
@given(random_maps(), st.sampled_from(SYMMETRIES), st.booleans())
def test_adjacency_is_equivariant_under_the_8_symmetries(m, sym, flight):
    """Rotating or mirroring a map rotates or mirrors its adjacency, class for class."""
    t = apply(m, sym)
    for a, b in neighbour_pairs(m):
        ta, tb = (sym.tile(p, m.width, m.height) for p in (a, b))
        assert pair_crossing(m, a, b, flight=flight)[0] is \
            pair_crossing(t, ta, tb, flight=flight)[0], (a, b, ta, tb)


@settings(max_examples=80, deadline=None)
@given(random_maps(), st.data(), st.booleans())
def test_transition_border_on_a_detour_behaves_like_a_difficult_border(m, data, flight):
    """A6: an edge carrying only a transition border gives every pair the class it gets
    with a Difficult border there instead (RB: transition borders "are considered to be
    Difficult Terrain"), walkers and flyers alike; only the orthogonal pair across the
    edge may differ, and only at different elevations (a transition joins levels, a
    Difficult border does not)."""
    edges = [Edge(x, y, "E") for y in range(m.height) for x in range(m.width - 1)]
    edges += [Edge(x, y, "S") for y in range(m.height - 1) for x in range(m.width)]
    if not edges:
        return
    edge = data.draw(st.sampled_from(edges), label="edge")
    stairs, fence = m.copy(), m.copy()
    stairs.set_border(edge, 0)
    stairs.set_transition_edge(edge, True)
    fence.set_border(edge, int(Base.DIFFICULT))
    fence.set_transition_edge(edge, False)
    a, b = edge.tiles
    level = m.elevation[a[1], a[0]] == m.elevation[b[1], b[0]] or flight
    got, want = classes(stairs, flight=flight), classes(fence, flight=flight)
    for pair, c in got.items():
        if level or set(pair) != {a, b}:
            assert c is want[pair], (edge, pair)


@settings(max_examples=40, deadline=None)
@given(random_maps())
def test_graph_and_blocked_pairs_partition_the_neighbour_pairs(m):
    g = AdjacencyGraph(m, listen=False).graph
    blocked = {frozenset((a, b)) for a, b, _ in blocked_pairs(m)}
    edges = {frozenset(e) for e in g.edges}
    every = {frozenset(p) for p in neighbour_pairs(m)}
    assert blocked | edges == every and not blocked & edges
    for a, b, data in g.edges(data=True):
        c, why = pair_crossing(m, a, b)
        assert data["crossing"] == c.label
        assert data["reason"] == why and (why == "") is (c is Crossing.CLEAR)
