"""Adjacency: the rulebook's own examples and the project's decisions (docs/rules.md)."""

from __future__ import annotations

import gc

import pytest

from sodwa_editor.engine.adjacency import (
    blocked_pairs,
    pair_crossing,
    steps,
)
from sodwa_editor.engine.adjacency_graph import AdjacencyGraph
from sodwa_editor.engine.model import Character, Edge, MapModel, Rect
from sodwa_editor.engine.terrain import Base, Crossing

CLEAR, IMPEDED, BLOCKED = Crossing.CLEAR, Crossing.IMPEDED, Crossing.BLOCKED


def cls(m: MapModel, a, b, *, flight: bool = False) -> Crossing:
    c, _ = pair_crossing(m, a, b, flight=flight)
    assert pair_crossing(m, b, a, flight=flight)[0] is c  # adjacency is symmetric
    return c


def block(**tiles: str) -> MapModel:
    """The rulebook's block of 4 tiles: 1:1 upper left, 1:2 upper right, 2:1 bottom
    left, 2:2 bottom right (row:column), as tiles (0,0), (1,0), (0,1), (1,1)."""
    m = MapModel(2, 2)
    where = {"t11": (0, 0), "t12": (1, 0), "t21": (0, 1), "t22": (1, 1)}
    for key, name in tiles.items():
        x, y = where[key]
        m.set_terrain(x, y, m.registry.id_of(name))
    return m


# ------------------------------------------------------------------ corners
def test_corner_least_restrictive_governs():
    """RB: "Tiles 1:1 and 2:2 ... are Impeding and Obstructing respectively. Tiles 1:2 and
    2:1 ... are clear. If LoS moved through those tiles of Clear Terrain across that
    intersection ... that intersection would be considered Impeding Terrain. If this was
    movement instead of LoS, then the character would have to stop after passing the
    intersection"."""
    m = block(t11="impeding", t22="obstructing")
    c, why = pair_crossing(m, (1, 0), (0, 1))
    assert c is IMPEDED and why == "corner 1,1 impeded"


def test_corner_two_obstructing_is_a_wall():
    """RB: "If 1:1 and 2:2 were both Obstructing Terrain, then any movement or LoS through
    that intersection would be considered blocked, as if the Obstructing Terrain was a
    solid wall across those tiles"."""
    m = block(t11="obstructing", t22="obstructing")
    c, why = pair_crossing(m, (1, 0), (0, 1))
    assert c is BLOCKED and why == "corner 1,1 blocked"


@pytest.mark.parametrize("other", ["clear", "impeding", "difficult", "liquid"])
def test_corner_one_obstructing_does_not_block(other):
    """The least restrictive way around governs: one Obstructing tile does not block."""
    m = block(t11="obstructing", t22=other)
    expected = CLEAR if other == "clear" else IMPEDED
    assert cls(m, (1, 0), (0, 1)) is expected


def test_diagonal_tiles_of_the_same_type_are_contiguous_corner_is_not_their_class():
    """The destination's own terrain is not part of the pair's class: two Impeding tiles
    touching diagonally, with Clear tiles on the other diagonal, are adjacent clear."""
    m = block(t11="impeding", t22="impeding")
    assert cls(m, (0, 0), (1, 1)) is CLEAR
    assert cls(m, (1, 0), (0, 1)) is IMPEDED  # ... but passing between them is impeded


def test_corner_class_does_not_depend_on_the_endpoints():
    m = block(t12="impeding", t21="liquid")
    assert cls(m, (1, 0), (0, 1)) is CLEAR
    assert cls(m, (0, 0), (1, 1)) is IMPEDED


# ------------------------------------------------------------- border walls
def walls(*edges: Edge, terrain: str = "obstructing", size: int = 3) -> MapModel:
    m = MapModel(size, size)
    for e in edges:
        m.set_border(e, m.registry.id_of(terrain))
    return m


def test_obstructing_border_separates_orthogonal_tiles():
    """RB: "Tiles on opposite sides of an Obstructing Terrain Border are not considered
    adjacent"."""
    m = walls(Edge(0, 0, "E"))
    assert pair_crossing(m, (0, 0), (1, 0)) == (BLOCKED, "obstructing border 0,0,E")


def test_impeding_border_impedes():
    """RB (fence): "if they wanted to cross the fence, they would suffer the effects of
    crossing into Impeding Terrain"."""
    m = walls(Edge(0, 0, "S"), terrain="impeding")
    assert pair_crossing(m, (0, 1), (0, 0)) == (IMPEDED, "impeding border 0,0,S")


def test_straight_border_wall_blocks_the_corner():
    """Two wall segments in a line meeting at the corner (1,1) are a solid wall."""
    m = walls(Edge(0, 0, "E"), Edge(0, 1, "E"))
    assert cls(m, (0, 0), (1, 1)) is BLOCKED
    assert cls(m, (1, 0), (0, 1)) is BLOCKED


@pytest.mark.parametrize("corner_tile", ["P", "Q"])
def test_l_shaped_border_wall_blocks_the_diagonal_it_wraps(corner_tile):
    """An L of two wall segments around P (or Q) blocks the diagonal P-Q; the other
    diagonal at that corner stays open (its tiles are on the same side of the wall)."""
    if corner_tile == "P":  # L around (0,0): its east and south edges
        m = walls(Edge(0, 0, "E"), Edge(0, 0, "S"))
    else:  # L around (1,1): its west and north edges
        m = walls(Edge(0, 1, "E"), Edge(1, 0, "S"))
    assert cls(m, (0, 0), (1, 1)) is BLOCKED
    assert cls(m, (1, 0), (0, 1)) is CLEAR


def test_end_of_a_single_wall_segment_does_not_block():
    m = walls(Edge(0, 0, "E"))
    assert cls(m, (0, 0), (1, 1)) is CLEAR
    assert cls(m, (1, 0), (0, 1)) is CLEAR


def test_corner_route_border_and_tile_combine_by_max():
    # Way via (1,0) crosses an Impeding border; way via (0,1) an Obstructing tile.
    m = walls(Edge(0, 0, "E"), terrain="impeding")
    m.set_terrain(0, 1, int(Base.OBSTRUCTING))
    assert pair_crossing(m, (0, 0), (1, 1)) == (IMPEDED, "corner 1,1 impeded")


def test_destroyed_obstructing_border_makes_tiles_adjacent():
    """RB: "If a Border of Obstructing Terrain is destroyed, the tiles on either side become
    Difficult Terrain ... They also become Adjacent"."""
    m = walls(Edge(1, 1, "E"))
    graph = AdjacencyGraph(m)
    assert not graph.graph.has_edge((1, 1), (2, 1))
    m.destroy_obstruction_border(Edge(1, 1, "E"))
    assert cls(m, (1, 1), (2, 1)) is CLEAR
    assert graph.graph.edges[(1, 1), (2, 1)] == {"crossing": "clear", "reason": ""}
    assert graph.graph.nodes[(1, 1)]["terrain"] == int(Base.DIFFICULT)


# ------------------------------------------------------------ obstructing tiles
def test_obstructing_tile_is_adjacent_to_nothing():
    """RB: "A Tile of Obstructing Terrain may not be occupied by a character, object, or
    effect"."""
    m = MapModel(3, 3)
    m.set_terrain(1, 1, int(Base.OBSTRUCTING))
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if (dx, dy) != (0, 0):
                c, why = pair_crossing(m, (1 + dx, 1 + dy), (1, 1))
                assert c is BLOCKED and why == "obstructing tile 1,1"


def test_destroyed_obstructing_tile_becomes_difficult_and_adjacent():
    """RB: "If a Tile of Obstructing Terrain is destroyed, that tile becomes Difficult
    Terrain" (the pair is clear; entering the Difficult tile is what ends a move)."""
    m = MapModel(2, 1)
    m.set_terrain(1, 0, int(Base.OBSTRUCTING))
    m.destroy_obstruction_tile(1, 0)
    assert cls(m, (0, 0), (1, 0)) is CLEAR


# --------------------------------------------------------------- elevation
def test_different_elevations_without_transition_are_not_adjacent():
    """RB: "Characters, objects, and effects that exist on different elevations are not
    considered to be adjacent"."""
    m = MapModel(2, 1)
    m.set_elevation(1, 0, 1)
    assert pair_crossing(m, (0, 0), (1, 0)) == (BLOCKED, "elevation 0/1, no transition border")


def test_transition_border_joins_elevations_as_difficult():
    """RB: "The tiles on opposite sides of a Transition Border are considered to be
    Adjacent, even though they exist at different elevations"; "These borders and tiles
    are considered to be Difficult Terrain"."""
    m = MapModel(2, 1)
    m.set_elevation(1, 0, 1)
    m.set_transition_edge(Edge(0, 0, "E"), True)
    assert pair_crossing(m, (0, 0), (1, 0)) == (IMPEDED, "transition border 0,0,E")
    m.set_border(Edge(0, 0, "E"), int(Base.OBSTRUCTING))  # a wall on the stairs wins
    assert cls(m, (0, 0), (1, 0)) is BLOCKED


def test_transition_border_on_level_tiles_is_difficult():
    m = MapModel(2, 1)
    m.set_transition_edge(Edge(0, 0, "E"), True)
    assert cls(m, (0, 0), (1, 0)) is IMPEDED


def test_diagonal_across_elevations_is_never_adjacent():
    """Transitions are edges, so a diagonal pair at different levels is not adjacent."""
    m = MapModel(2, 2)
    m.set_elevation(1, 1, 1)
    m.set_transition_edge(Edge(0, 1, "E"), True)
    m.set_transition_edge(Edge(1, 0, "S"), True)
    assert pair_crossing(m, (0, 0), (1, 1)) == (BLOCKED, "elevation 0/1, diagonal")


def test_higher_ground_at_a_corner_is_obstructing_for_the_lower_pair():
    """RB: "For Grounded characters, Elevated Terrain is considered to be Obstructing
    Terrain for movement": two raised tiles on the other diagonal are a wall."""
    m = MapModel(2, 2)
    m.set_elevation(1, 0, 1)
    assert cls(m, (0, 0), (1, 1)) is CLEAR  # one way around is still open
    m.set_elevation(0, 1, 2)
    assert cls(m, (0, 0), (1, 1)) is BLOCKED


def test_lower_ground_at_a_corner_does_not_obstruct_the_higher_pair():
    m = MapModel(2, 2)
    m.elevation[:] = [[1, 0], [0, 1]]
    m.terrain[0, 1] = m.terrain[1, 0] = int(Base.IMPEDING)
    m.notify_bulk_change()
    assert cls(m, (0, 0), (1, 1)) is CLEAR


def test_transition_tile_at_a_corner_counts_as_difficult():
    m = MapModel(2, 2)
    m.set_transition(1, 0, True)
    m.set_transition(0, 1, True)
    assert cls(m, (0, 0), (1, 1)) is IMPEDED


def issue10_corner_map() -> MapModel:
    """Issue 10's 2x2 map: (0,0) Clear level 1, (1,0) Impeding level 1, (0,1) Clear level 0,
    (1,1) Clear level 1, a transition border on edge 0,0,S."""
    m = MapModel(2, 2)
    m.elevation[:] = [[1, 1], [0, 1]]
    m.terrain[0, 1] = int(Base.IMPEDING)
    m.transition_s[0, 0] = True
    m.notify_bulk_change()
    return m


def test_transition_border_on_a_way_around_a_corner_counts_as_difficult():
    """RB *Elevated Terrain*: transition borders "are considered to be Difficult Terrain";
    *Terrain*: "the least restrictive type governs".  (0,0)-(1,1): one way around crosses
    the Impeding tile (1,0), the other the transition border 0,0,S, so both hinder."""
    m = issue10_corner_map()
    assert pair_crossing(m, (0, 0), (1, 1)) == (IMPEDED, "corner 1,1 impeded")
    m.set_transition_edge(Edge(0, 0, "S"), False)
    assert cls(m, (0, 0), (1, 1)) is CLEAR  # without it, the way via (0,1) is clear
    m.set_border(Edge(0, 0, "S"), int(Base.DIFFICULT))
    assert cls(m, (0, 0), (1, 1)) is IMPEDED  # exactly as a Difficult border there


# -------------------------------------------------------------------- flight
def flight_map(setting: str) -> MapModel:
    m = MapModel(3, 2, setting=setting)  # type: ignore[arg-type]
    m.set_terrain(1, 0, int(Base.OBSTRUCTING))
    m.set_border(Edge(1, 1, "E"), int(Base.OBSTRUCTING))
    return m


@pytest.mark.parametrize("setting", ["outdoor", "indoor"])
def test_flight_crosses_outdoor_obstructions_only(setting):
    """RB: "A character can fly over Outdoor Obstructing Terrain but would be unable to fly
    over Indoor Obstructing Terrain since it is considered to rise from the floor to the
    ceiling"."""
    m = flight_map(setting)
    expected = CLEAR if setting == "outdoor" else BLOCKED
    assert cls(m, (0, 0), (1, 0), flight=True) is expected
    assert cls(m, (1, 1), (2, 1), flight=True) is expected
    assert cls(m, (0, 0), (1, 0)) is BLOCKED  # walkers never
    if setting == "indoor":
        assert pair_crossing(m, (1, 1), (2, 1), flight=True)[1] == \
            "indoor obstructing border 1,1,E"


def test_flight_indoor_override_per_obstruction():
    m = flight_map("outdoor")
    m.set_tile_indoor(1, 0, True)
    m.set_border(Edge(1, 1, "E"), int(Base.OBSTRUCTING), indoor=True)
    assert cls(m, (0, 0), (1, 0), flight=True) is BLOCKED
    assert cls(m, (1, 1), (2, 1), flight=True) is BLOCKED


def test_flight_changes_elevation_without_transition():
    """EL: a character with "the Flight ability" has another "means to enter and leave
    areas of elevated terrain"."""
    m = MapModel(2, 2)
    m.set_elevation(1, 0, 2)
    assert cls(m, (0, 0), (1, 0)) is BLOCKED
    assert cls(m, (0, 0), (1, 0), flight=True) is CLEAR
    assert cls(m, (1, 0), (0, 1), flight=True) is CLEAR


# ------------------------------------------------------------------ queries
def test_pair_crossing_of_non_neighbours_and_bounds():
    m = MapModel(4, 4)
    assert pair_crossing(m, (0, 0), (2, 0)) == (BLOCKED, "not neighbours")
    assert pair_crossing(m, (1, 1), (1, 1)) == (BLOCKED, "not neighbours")
    with pytest.raises(IndexError):
        pair_crossing(m, (0, 0), (-1, 0))


def test_scalar_query_with_and_without_cache_agree():
    from test_adjacency_strategies import build_map, neighbour_pairs

    m = build_map(7, 6, 11, density=0.3)
    cold = {(a, b): pair_crossing(m, a, b) for a, b in neighbour_pairs(m)}
    steps(m)  # whole-map classes now cached for this revision
    warm = {(a, b): pair_crossing(m, a, b) for a, b in neighbour_pairs(m)}
    assert cold == warm


def test_step_array_matches_pair_crossing():
    from test_adjacency_strategies import build_map

    m = build_map(6, 5, 4, density=0.3)
    for flight in (False, True):
        step = steps(m, flight=flight).step
        for y in range(m.height):
            for x in range(m.width):
                for d, (dx, dy) in enumerate(((1, 0), (1, 1), (0, 1), (-1, 1),
                                              (-1, 0), (-1, -1), (0, -1), (1, -1))):
                    if m.in_bounds(x + dx, y + dy):
                        c = pair_crossing(m, (x, y), (x + dx, y + dy), flight=flight)[0]
                        assert step[d, y, x] == c
                    else:
                        assert step[d, y, x] == BLOCKED


def test_graph_nodes_edges_and_blocked_pairs():
    m = MapModel(3, 2)
    m.set_terrain(2, 1, int(Base.OBSTRUCTING))
    m.set_elevation(0, 1, 1)
    m.set_border(Edge(0, 0, "E"), int(Base.LIQUID))
    g = AdjacencyGraph(m).graph
    assert g.number_of_nodes() == 6
    assert g.nodes[(2, 1)] == {"terrain": int(Base.OBSTRUCTING), "elevation": 0}
    assert g.edges[(0, 0), (1, 0)] == {"crossing": "impeded", "reason": "liquid border 0,0,E"}
    assert not g.has_edge((0, 0), (0, 1))
    assert {frozenset(e) for e in g.edges} == {
        frozenset(e) for e in (((0, 0), (1, 0)), ((1, 0), (2, 0)), ((0, 0), (1, 1)),
                               ((1, 0), (1, 1)), ((2, 0), (1, 1)))}
    # (0,0)-(1,1): around via (1,0) crosses the Liquid border, via (0,1) is higher ground
    assert g.edges[(0, 0), (1, 1)] == {"crossing": "impeded", "reason": "corner 1,1 impeded"}
    blocked = {(a, b): why for a, b, why in blocked_pairs(m)}
    assert blocked[((0, 0), (0, 1))] == "elevation 0/1, no transition border"
    assert blocked[((1, 1), (2, 1))] == "obstructing tile 2,1"
    assert len(blocked) + g.number_of_edges() == 11  # every neighbour pair once


def test_graph_follows_model_changes_and_ignores_characters():
    m = MapModel(4, 4)
    graph = AdjacencyGraph(m)
    m.set_border(Edge(1, 1, "S"), int(Base.IMPEDING))
    assert graph.graph.edges[(1, 1), (1, 2)]["crossing"] == "impeded"
    m.set_elevation(3, 3, 1)
    assert not graph.graph.has_edge((2, 3), (3, 3))
    assert graph.graph.nodes[(3, 3)]["elevation"] == 1
    before = set(graph.graph.edges)
    m.put_character(Character("a", "red", 0, 0))
    assert set(graph.graph.edges) == before  # characters don't affect adjacency
    m.fill_terrain(Rect(0, 0, 3, 3), int(Base.OBSTRUCTING))
    assert graph.graph.number_of_edges() == 0
    graph.close()
    m.fill_terrain(Rect(0, 0, 3, 3), 0)
    assert graph.graph.number_of_edges() == 0  # closed: no longer follows


def test_unused_graph_is_collected_and_unhooked():
    m = MapModel(3, 3)
    AdjacencyGraph(m)
    gc.collect()
    assert len(m._listeners) == 1
    m.set_terrain(0, 0, 1)  # the dead graph's listener removes itself
    assert m._listeners == []


def test_graph_matches_numpy_classes_on_generated_map():
    from sodwa_editor.engine.generate import make_mixed_map

    m = make_mixed_map(24, seed=5)
    g = AdjacencyGraph(m).graph
    step = steps(m).step
    n_clear = sum(1 for *_, c in g.edges(data="crossing") if c == "clear")
    n_imp = g.number_of_edges() - n_clear
    # each undirected pair appears twice in step (once per direction)
    assert 2 * n_clear == int((step == CLEAR).sum())
    assert 2 * n_imp == int((step == IMPEDED).sum())
