"""Movement range: the rulebook's movement sentences and the project's decisions."""

from __future__ import annotations

import numpy as np
import pytest

from sodwa_editor.engine.model import Character, Edge, MapModel
from sodwa_editor.engine.movement import move_budget, reach
from sodwa_editor.engine.terrain import Base

IMP, OBS, DIF, LIQ = (int(b) for b in (Base.IMPEDING, Base.OBSTRUCTING, Base.DIFFICULT,
                                       Base.LIQUID))


def grid(rows: str) -> MapModel:
    """Map from text rows: '.' clear, 'I' impeding, 'X' obstructing, 'D' difficult, 'L'
    liquid."""
    lines = rows.split()
    m = MapModel(len(lines[0]), len(lines))
    codes = {".": 0, "I": IMP, "X": OBS, "D": DIF, "L": LIQ}
    m.terrain[:] = [[codes[c] for c in line] for line in lines]
    m.notify_bulk_change()
    return m


def reachable(r) -> set:
    return set(r.tiles())


def test_each_step_costs_one_diagonals_included():
    """RB: "Move determines the maximum number of tiles a character may move through"."""
    m = MapModel(11, 11)
    r = reach(m, (5, 5), 3)
    ys, xs = np.mgrid[0:11, 0:11]
    cheb = np.maximum(abs(xs - 5), abs(ys - 5))
    assert np.array_equal(r.steps, np.where(cheb <= 3, cheb, -1))
    assert not r.must_stop.any()
    assert r.path_to((8, 2)) == [(5, 5), (6, 4), (7, 3), (8, 2)]
    assert r.tiles()[(5, 5)].steps == 0 and r.tiles()[(5, 5)].path == [(5, 5)]


@pytest.mark.parametrize("terrain", [IMP, DIF, LIQ])
def test_entering_hindering_tile_ends_movement(terrain):
    """RB: "If a character moves into a Tile of Impeding Terrain ... they must end their
    movement"; Difficult "is identical to Impeding Terrain, except that it does not affect
    LoS"; Liquid "is identical to Difficult Terrain"."""
    m = MapModel(5, 1)
    m.set_terrain(2, 0, terrain)
    r = reach(m, (0, 0), 9)
    assert r.steps.tolist() == [[0, 1, 2, -1, -1]]
    assert r.must_stop.tolist() == [[False, False, True, False, False]]


def test_crossing_impeding_border_ends_movement():
    """RB: "... or crosses a Border of Impeding Terrain, they must end their movement"."""
    m = MapModel(5, 1)
    m.set_border(Edge(1, 0, "E"), IMP)
    r = reach(m, (0, 0), 9)
    assert r.steps.tolist() == [[0, 1, 2, -1, -1]]
    assert bool(r.must_stop[0, 2])


def test_corner_example_movement_stops_after_the_intersection():
    """RB: "If this was movement instead of LoS, then the character would have to stop after
    passing the intersection"."""
    m = grid("I. .X ..")
    r = reach(m, (1, 0), 5)
    assert r.steps[1, 0] == 1 and r.must_stop[1, 0]
    assert (0, 2) not in r and (1, 2) not in r  # nothing beyond the stop


def test_corner_detour_across_a_transition_border_ends_movement():
    """Issue 10's 2x2 map (A6): both ways round the corner from (0,0) to (1,1) hinder,
    one through the Impeding tile (1,0), the other across the transition border 0,0,S
    (RB: transition borders "are considered to be Difficult Terrain"), so the move ends
    after the intersection (RB: "the character would have to stop after passing the
    intersection")."""
    m = MapModel(2, 2)
    m.elevation[:] = [[1, 1], [0, 1]]
    m.terrain[0, 1] = IMP
    m.transition_s[0, 0] = True
    m.notify_bulk_change()
    r = reach(m, (0, 0), 1)
    assert r.steps[1, 1] == 1 and r.must_stop[1, 1]


def test_obstructing_tiles_cannot_be_entered():
    """RB: "a character may never end their movement on a tile of Obstructing Terrain"."""
    m = grid(".X. .X. ...")
    r = reach(m, (0, 0), 3)
    assert (1, 0) not in r and (1, 1) not in r
    assert r.steps[1, 2] == 3 and (2, 0) not in r
    assert reach(m, (0, 0), 4).path_to((2, 0)) == [(0, 0), (0, 1), (1, 2), (2, 1), (2, 0)]


def test_friends_can_be_passed_enemies_cannot_and_no_move_ends_on_a_character():
    """RB: "a character can't occupy a tile already occupied by another character";
    passing is not addressed: decided friends can be passed, enemies not."""
    m = MapModel(6, 1)
    m.put_character(Character("me", "red", 0, 0, move=5))
    m.put_character(Character("friend", "red", 1, 0))
    m.put_character(Character("foe", "blue", 3, 0))
    r = reach(m, (0, 0))
    assert r.steps.tolist() == [[0, -1, 2, -1, -1, -1]]
    assert r.path_to((2, 0)) == [(0, 0), (1, 0), (2, 0)]
    # The other team sees it the other way round.
    assert reach(m, (0, 0), team="blue").steps.tolist() == [[0, -1, -1, -1, -1, -1]]


def test_without_a_known_team_every_character_blocks():
    m = MapModel(4, 1)
    m.put_character(Character("x", "red", 1, 0))
    assert reach(m, (0, 0), 3).steps.tolist() == [[0, -1, -1, -1]]
    assert reach(m, (0, 0), 3, team="red").steps.tolist() == [[0, -1, 2, 3]]


def test_defaults_come_from_the_character_on_the_start():
    m = MapModel(8, 1)
    m.set_terrain(3, 0, OBS)
    m.put_character(Character("bird", "red", 0, 0, move=6, flight=True))
    r = reach(m, (0, 0))
    assert (r.move, r.budget, r.flight, r.team, r.halved) == (6, 6, True, "red", False)
    assert r.steps[0, 4] == 4  # flew over the (outdoor) wall
    assert reach(m, (0, 0), 2, flight=False).steps.tolist()[0][:4] == [0, 1, 2, -1]
    with pytest.raises(ValueError, match="no character"):
        reach(m, (5, 0))
    with pytest.raises(ValueError):
        reach(m, (5, 0), -1)
    with pytest.raises(IndexError):
        reach(m, (8, 0), 1)


# ------------------------------------------------------- starting in hindering
def test_start_in_impeding_halves_move_and_frees_the_contiguous_group():
    """RB: "If they start their turn occupying a Tile of Impeding Terrain, their Move
    attribute is halved but they may move through any contiguous tiles of Impeding Terrain
    without ending their movement"."""
    m = grid("IIII....")
    r = reach(m, (0, 0), 9)
    assert r.halved and r.budget == 4
    assert r.steps.tolist() == [[0, 1, 2, 3, 4, -1, -1, -1]]
    assert not r.must_stop.any()


def test_halving_rounds_down_and_applies_before_other_penalties():
    """RB: "This movement penalty is always applied before any additional movement
    penalties": the Move used is halved first (5 -> 2)."""
    m = grid("D......")
    assert reach(m, (0, 0), 5).budget == 2
    assert reach(m, (0, 0), 1).budget == 0
    assert reach(m, (0, 0), 0).steps.tolist() == [[0, -1, -1, -1, -1, -1, -1]]


def test_diagonally_touching_tiles_of_the_same_type_are_contiguous():
    """RB: "If the diagonal tiles are of the same terrain type, then they are considered to
    be contiguous"."""
    m = grid("I... .I.. ..I. ....")
    r = reach(m, (0, 0), 20)
    assert [r.steps[i, i] for i in range(3)] == [0, 1, 2]
    assert not r.must_stop[2, 2]


def test_another_type_or_group_ends_movement_from_a_hindering_start():
    m = grid("IID.I")
    r = reach(m, (0, 0), 20)
    assert r.steps.tolist() == [[0, 1, 2, -1, -1]] and bool(r.must_stop[0, 2])
    m2 = grid("II.I.")
    r = reach(m2, (0, 0), 20)  # (3,0) is Impeding but not contiguous with the start
    assert r.steps.tolist() == [[0, 1, 2, 3, -1]] and bool(r.must_stop[0, 3])


def test_exiting_and_reentering_the_start_group_ends_movement():
    """RB: "If the character exits the Impeding Terrain and then enters a new Tile of
    Impeding Terrain or crosses a Border of Impeding Terrain, they must end their
    movement"; re-entering the start group counts as entering a new tile."""
    m = grid("I.I. I.I. III.")
    r = reach(m, (0, 0), 12)
    # (2,0) is 2 steps away through the clear gap, and that way ends the move there ...
    assert r.steps[0, 2] == 2 and r.must_stop[0, 2]
    # ... while going round inside the group keeps moving: (3,0) in 4 steps.
    assert r.steps[0, 3] == 4 and not r.must_stop[0, 3]
    assert r.path_to((3, 0)) == [(0, 0), (0, 1), (1, 2), (2, 1), (3, 0)]


def test_impeding_border_inside_the_start_group_still_ends_movement():
    m = grid("IIII")
    m.set_border(Edge(1, 0, "E"), IMP)
    r = reach(m, (0, 0), 8)
    assert r.steps.tolist() == [[0, 1, 2, -1]] and bool(r.must_stop[0, 2])


# ------------------------------------------------------- elevation / stairs
def stairs(two_tiles: bool) -> MapModel:
    """5x3: plateau (level 1) on columns 2-4; stairs across edge (1,1,E).  With
    ``two_tiles`` both (1,1) and (2,1) are transition tiles, else only (1,1)."""
    m = MapModel(5, 3)
    m.elevation[:, 2:] = 1
    m.transition[1, 1] = True
    if two_tiles:
        m.transition[1, 2] = True
    m.transition_e[1, 1] = True
    m.notify_bulk_change()
    return m


def test_elevation_needs_a_transition():
    """RB: "To transition between tiles of different elevation, a character must pass
    through a Transition Border or Transition Tile"."""
    m = MapModel(4, 1)
    m.set_elevation(2, 0, 1)
    assert reach(m, (0, 0), 5).steps.tolist() == [[0, 1, -1, -1]]


def test_transition_tiles_and_borders_are_difficult():
    """RB: "These borders and tiles are considered to be Difficult Terrain, meaning once a
    character has passed over the border, they must end their turn"."""
    m = stairs(two_tiles=True)
    r = reach(m, (0, 1), 6)
    assert r.steps[1, 1] == 1 and r.must_stop[1, 1]  # entering the transition tile
    assert (2, 1) not in r
    m = stairs(two_tiles=False)
    m.set_transition(1, 1, False)
    r = reach(m, (1, 1), 6)
    assert r.steps[1, 2] == 1 and r.must_stop[1, 2]  # crossing the transition border


@pytest.mark.parametrize("two_tiles", [True, False])
def test_starting_on_a_transition_tile_halves_but_does_not_stop_at_its_border(two_tiles):
    """RB: "If the border is part of a transition tile and the character starts its turn in
    that tile, its movement is halved like normal but it does not need to end it turn
    after passing through the transition border"."""
    m = stairs(two_tiles)
    r = reach(m, (1, 1), 6)
    assert r.halved and r.budget == 3
    assert r.steps[1, 2] == 1 and not r.must_stop[1, 2]
    assert r.steps[1, 4] == 3
    assert r.path_to((4, 1)) == [(1, 1), (2, 1), (3, 1), (4, 1)]


def test_transition_border_of_another_tile_still_stops_a_transition_starter():
    m = stairs(two_tiles=False)
    m.set_transition_edge(Edge(1, 0, "E"), True)  # a second stair from plain (1,0)
    m.set_border(Edge(2, 0, "S"), OBS)  # (2,0) only reachable up that second stair
    r = reach(m, (1, 1), 8)
    assert r.steps[1, 2] == 1 and not r.must_stop[1, 2]  # up its own border: goes on
    assert r.steps[0, 2] == 2 and r.must_stop[0, 2]  # up another border: stops


def test_only_the_start_tiles_transition_border_is_free():
    """Issue 10's 3x1 map (M7): the mover starts on (2,0), an Impeding tile that is not a
    transition tile; (1,0), a transition tile of the same Impeding group, may be passed
    freely (M6), but its transition border 0,0,E is not part of the tile the mover
    started in, so crossing it ends the move (RB: "If the border is part of a transition
    tile and the character starts its turn in that tile, ... it does not need to end it
    turn after passing through the transition border")."""
    m = MapModel(3, 1)
    m.terrain[0, 1:] = IMP
    m.elevation[0, 1:] = 1
    m.transition[0, 1] = True
    m.transition_e[0, 0] = True
    m.notify_bulk_change()
    r = reach(m, (2, 0), 4)
    assert r.halved and r.start_group.tolist() == [[False, True, True]]
    assert r.steps.tolist() == [[2, 1, 0]]
    assert r.must_stop.tolist() == [[True, False, False]]
    r = reach(m, (1, 0), 4)  # started in that tile: its own border is free
    assert r.steps.tolist() == [[1, 0, 1]] and not r.must_stop.any()


def test_rubble_start_beside_a_stair_does_not_free_the_stairs_border():
    """M7 with a rubble start: destroying the wall 2,0,E turns (2,0) (the top of a stair)
    and (3,0) into Difficult rubble (RB: "the tiles on either side become Difficult
    Terrain"), one terrain group.  Starting on (3,0) the mover crosses the rubble freely
    but the stair's border 1,0,E ends its move; starting on the stair it does not."""
    m = MapModel(5, 1)
    m.elevation[0, 2:] = 1
    m.transition[0, 2] = True
    m.transition_e[0, 1] = True
    m.border_e[0, 2] = OBS
    m.notify_bulk_change()
    m.destroy_obstruction_border(Edge(2, 0, "E"))
    assert m.terrain[0].tolist() == [0, 0, DIF, DIF, 0]
    r = reach(m, (3, 0), 8)
    assert r.budget == 4 and r.start_group.tolist() == [[False, False, True, True, False]]
    assert r.steps.tolist() == [[-1, 2, 1, 0, 1]] and bool(r.must_stop[0, 1])
    r = reach(m, (2, 0), 8)
    assert r.steps.tolist() == [[2, 1, 0, 1, 2]] and not r.must_stop[0, 1]


def test_another_transition_tile_of_the_same_stairway_does_not_free_its_border():
    """Decision M12: a stairway two tiles wide, (0,0) and (0,1) on the ground, each with a
    transition border up to the plateau; the plateau tiles are split by a wall.  Starting
    on (0,0) the mover walks onto (0,1) freely (contiguous transition tiles, M6) but
    crossing (0,1)'s border ends its move: RB "If the border is part of a transition tile
    and the character starts its turn in that tile" names one tile, and a hindering
    border crossed inside the start group ends a move (RB: "or crosses a Border of
    Impeding Terrain, they must end their movement")."""
    m = MapModel(3, 2)
    m.elevation[:, 1:] = 1
    m.transition[:, 0] = True
    m.transition_e[:, 0] = True
    m.border_s[0, 1:] = OBS
    m.notify_bulk_change()
    r = reach(m, (0, 0), 8)
    assert r.start_group.tolist() == [[True, False, False], [True, False, False]]
    assert r.steps.tolist() == [[0, 1, 2], [1, 2, -1]]
    assert r.must_stop.tolist() == [[False, False, False], [False, True, False]]


@pytest.mark.parametrize("flight", [False, True])
def test_an_obstructing_transition_tile_is_not_part_of_the_stairway(flight):
    """M13: an Obstructing tile flagged as a transition tile is a wall, not part of
    the mover's stairway, so it is not in the start group and stays Obstructing (M3,
    M9: Indoor walls stop flyers too); a corner between two Obstructing tiles stays
    closed (A5).  Regression: hypothesis seed 3 of test_paths_are_valid_moves found a
    path through such a tile."""
    m = MapModel(3, 1, setting="indoor")
    m.set_terrain(1, 0, OBS)
    m.set_transition(0, 0, True)
    m.set_transition(1, 0, True)  # 8-connected to the start, but a wall
    r = reach(m, (0, 0), 4, flight=flight)
    assert r.halved and r.start_group.tolist() == [[True, False, False]]
    assert r.steps.tolist() == [[0, -1, -1]]
    m = MapModel(2, 2, setting="indoor")
    m.set_terrain(1, 0, OBS)
    m.set_terrain(0, 1, OBS)
    m.set_transition(0, 0, True)
    m.set_transition(1, 0, True)
    assert reach(m, (0, 0), 4, flight=flight).steps.tolist() == [[0, -1], [-1, -1]]


# ------------------------------------------------------------------ flight
def test_flyer_on_a_stairway_does_not_pass_an_outdoor_wall_flagged_as_transition():
    """Issue 10: a flyer starting on the stairway (0,0) next to an Outdoor wall (1,0) that
    is also flagged as a transition tile.  The wall is no part of the stairway (M13), so
    it is not a free start-group tile; as a transition tile it is Difficult (RB: "These
    borders and tiles are considered to be Difficult Terrain") and the flyer would have to
    stop over it, which it may not (M9).  The transition tile (2,0) beyond it is another
    stairway: entering it ends the move."""
    m = MapModel(4, 2)
    m.set_terrain(1, 0, OBS)
    for x in (0, 1, 2):
        m.set_transition(x, 0, True)
    r = reach(m, (0, 0), 8, flight=True)
    assert r.start_group.tolist() == [[True, False, False, False], [False] * 4]
    assert r.path_to((2, 0)) == [(0, 0), (1, 1), (2, 0)]
    assert r.steps[0, 2] == 2 and r.must_stop[0, 2]
    m2 = MapModel(3, 1)
    m2.set_terrain(1, 0, OBS)
    m2.set_transition(0, 0, True)
    m2.set_transition(1, 0, True)
    assert reach(m2, (0, 0), 8, flight=True).steps.tolist() == [[0, -1, -1]]


@pytest.mark.parametrize("setting", ["outdoor", "indoor"])
def test_flight_over_outdoor_but_not_indoor_obstructions(setting):
    """RB: "A character can fly over Outdoor Obstructing Terrain but would be unable to fly
    over Indoor Obstructing Terrain"; a flyer never ends on an Obstructing tile."""
    m = MapModel(5, 3, setting=setting)  # type: ignore[arg-type]
    m.terrain[:, 2] = OBS
    m.notify_bulk_change()
    r = reach(m, (0, 1), 4, flight=True)
    assert (2, 1) not in r
    assert ((3, 1) in r) is (setting == "outdoor")
    assert (3, 1) not in reach(m, (0, 1), 4)


def test_flight_over_obstructing_borders():
    m = MapModel(3, 1)
    m.set_border(Edge(0, 0, "E"), OBS)
    assert (1, 0) in reach(m, (0, 0), 1, flight=True)
    m.set_border(Edge(0, 0, "E"), OBS, indoor=True)
    assert (1, 0) not in reach(m, (0, 0), 1, flight=True)


def test_flight_enters_elevated_terrain_without_transition_but_other_terrain_still_counts():
    """EL: Flight is a "means to enter and leave areas of elevated terrain"; other terrain
    effects on flyers are unchanged (Impeding still ends the move)."""
    m = MapModel(5, 1)
    m.elevation[0, 2:] = 1
    m.set_terrain(3, 0, IMP)
    r = reach(m, (0, 0), 9, flight=True)
    assert r.steps.tolist() == [[0, 1, 2, 3, -1]] and bool(r.must_stop[0, 3])


def test_flyer_cannot_stop_over_a_wall_so_a_stop_there_is_not_allowed():
    m = MapModel(4, 1)
    m.set_terrain(1, 0, OBS)
    m.set_border(Edge(0, 0, "E"), IMP)  # crossing it would end the move on the wall
    assert reach(m, (0, 0), 5, flight=True).steps.tolist() == [[0, -1, -1, -1]]


def test_reach_overlay_arrays_and_tiles_agree():
    from sodwa_editor.engine.generate import make_mixed_map

    m = make_mixed_map(24, seed=2)
    c = next(iter(m.characters.values()))
    r = reach(m, (c.x, c.y))
    tiles = r.tiles()
    assert len(tiles) == int((r.steps >= 0).sum())
    for (x, y), info in tiles.items():
        assert info.steps == r.steps[y, x] == len(info.path) - 1
        assert info.must_stop == r.must_stop[y, x]


def _serpentine(size: int, *, walls: str = "tiles") -> MapModel:
    """A snake: Obstructing walls across the map with one gap at alternating
    ends, so the only way from the top-left corner to the bottom walks every
    row.  ``walls="tiles"``: odd rows are walls; ``"borders"``: every row is
    open and the walls are borders on the S edges."""
    from sodwa_editor.engine.model import Rect

    m = MapModel(size, size)
    wall = m.registry.id_of("obstructing")
    if walls == "tiles":
        for y in range(1, size, 2):
            m.fill_terrain(Rect(0, y, size - 1, y), wall)
            m.set_terrain(size - 1 if (y // 2) % 2 == 0 else 0, y, 0)
        return m
    for y in range(size - 1):
        gap = size - 1 if y % 2 == 0 else 0
        for x in range(size):
            if x != gap:
                m.set_border(Edge(x, y, "S"), wall)
    return m


def _bfs_oracle(m: MapModel, start: tuple[int, int]) -> dict[tuple[int, int], int]:
    """Steps on an all-Clear map with Obstructing S borders: an orthogonal step
    needs no border between; a diagonal one needs one way round the corner
    with no border on either of its two edges (least restrictive governs)."""
    from collections import deque

    def open_s(x: int, y: int) -> bool:  # edge between (x, y) and (x, y + 1)
        return m.border_at(Edge(x, y, "S")) == 0

    def orth(a, b) -> bool:
        (ax, ay), (_bx, by) = a, b
        return True if ay == by else open_s(ax, min(ay, by))

    dist = {start: 0}
    queue = deque([start])
    while queue:
        a = queue.popleft()
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                b = (a[0] + dx, a[1] + dy)
                if b == a or not m.in_bounds(*b) or b in dist:
                    continue
                if dx and dy:
                    c1, c2 = (b[0], a[1]), (a[0], b[1])
                    ok = (orth(a, c1) and orth(c1, b)) or (orth(a, c2) and orth(c2, b))
                else:
                    ok = orth(a, b)
                if ok:
                    dist[b] = dist[a] + 1
                    queue.append(b)
    return dist


def test_reach_counts_steps_past_int16_on_a_serpentine():
    """Issue 9: distances were int16, so on a serpentine with paths longer than
    32,767 steps the search wrapped round and wrote past its queue (SIGSEGV).
    A 256x256 snake of wall borders has paths of ~65,000 steps: every tile's
    step count matches an independent breadth-first search, and the path to
    the far end is that long."""
    m = _serpentine(256, walls="borders")
    r = reach(m, (0, 0), 70_000)
    oracle = _bfs_oracle(m, (0, 0))
    expected = np.full(m.shape, -1, np.int64)
    for (x, y), d in oracle.items():
        expected[y, x] = d
    assert r.steps.dtype == np.int32
    assert int(expected.max()) > 65_000
    assert np.array_equal(r.steps, expected)
    far = max(oracle, key=oracle.__getitem__)
    path = r.path_to(far)
    assert path is not None and len(path) == oracle[far] + 1
    assert all(max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1
               for a, b in zip(path, path[1:], strict=False))


def test_reach_tiles_builds_no_path_until_asked(monkeypatch):
    """Issue 9: ``Reach.tiles()`` rebuilt the full path of every tile (quadratic:
    Move 8,000 on a serpentine took 15 s).  Listing tiles builds no path; a
    tile's path is built when read, and is the shortest one."""
    from sodwa_editor.engine import movement

    r = reach(_serpentine(64), (0, 0), 5_000)
    calls = []
    real = movement.Reach.path_to
    monkeypatch.setattr(movement.Reach, "path_to",
                        lambda self, tile: calls.append(tile) or real(self, tile))
    tiles = r.tiles()
    assert len(tiles) == int((r.steps >= 0).sum()) and calls == []
    far = max(tiles, key=lambda t: tiles[t].steps)
    info = tiles[far]
    assert len(info.path) == info.steps + 1 and calls == [far]
    assert info.path[0] == (0, 0) and info.path[-1] == far


@pytest.mark.parametrize(("move", "on_hindering", "halved_budget"),
                         [(5, True, 2), (9, True, 4), (1, True, 0), (5, False, 5)])
def test_move_budget_is_the_one_halving_rule_and_budget_is_exact(move, on_hindering,
                                                                 halved_budget):
    """M5 lives in ``move_budget``; ``reach(..., budget=n)`` allows exactly ``n`` steps and
    does not halve again (the battle's quarter move after an attack, B15: Move 5 on
    Impeding is 2, a quarter of it 1; passing 1 as ``move`` would halve it to 0)."""
    m = grid(("I" if on_hindering else ".") + "........")
    assert move_budget(m, (0, 0), move) == (halved_budget, on_hindering)
    r = reach(m, (0, 0), move)
    assert (r.budget, r.halved) == (halved_budget, on_hindering)
    exact = reach(m, (0, 0), move, budget=1)
    assert exact.budget == 1 and exact.halved == on_hindering and exact.move == move
    assert exact.steps.tolist() == [[0, 1] + [-1] * 7]
    if on_hindering:
        assert reach(m, (0, 0), 1).budget == 0  # the wrong way: the penalty halved again
    assert reach(m, (0, 0), budget=3).move == 3
    with pytest.raises(ValueError, match="budget"):
        reach(m, (0, 0), 5, budget=-1)


def test_occupants_replace_the_models_characters():
    """A battle keeps its characters off the map and passes them as ``occupants``:
    friends are passed, enemies block, no move ends on anyone; the model's own
    characters are then ignored."""
    m = grid("...... ...... ......")
    m.characters["ghost"] = Character("ghost", "blue", 1, 1)
    r = reach(m, (0, 1), 5, team="red", occupants=[(0, 1, "red"), (1, 0, "red"),
                                                   (1, 1, "red"), (1, 2, "blue")])
    # steps[y, x]: nobody ends on (1,1), (1,0) or (1,2); column 1 is full, so (2,1) is
    # reached only by passing a friend
    assert r.steps[1, 1] == -1 and r.steps[0, 1] == -1 and r.steps[2, 1] == -1
    assert r.steps[1, 2] == 2 and r.steps[1, 3] == 3
    with_model = m.copy()
    with_model.characters = {
        "a": Character("a", "red", 0, 1), "b": Character("b", "red", 1, 0),
        "c": Character("c", "red", 1, 1), "d": Character("d", "blue", 1, 2)}
    expected = reach(with_model, (0, 1), 5)
    assert np.array_equal(r.steps, expected.steps)
    assert np.array_equal(r.must_stop, expected.must_stop)
    assert reach(m, (0, 1), 5, occupants=[]).steps[1, 1] == 1  # no ghost


def test_a_start_that_became_hindering_after_the_turn_began_has_no_start_group():
    """M6 frees the start group of a character that *starts its turn* on hindering
    terrain; a battle passes ``hindered_start=False`` when the tile turned to rubble
    during the turn (a wall destroyed beside it), and entering the next rubble tile
    then ends the move."""
    m = grid("DD....")
    assert reach(m, (0, 0), budget=3).steps.tolist() == [[0, 1, 2, 3, -1, -1]]
    fresh = reach(m, (0, 0), budget=3, hindered_start=False)
    assert fresh.steps.tolist() == [[0, 1, -1, -1, -1, -1]]
    assert fresh.must_stop[0, 1] and not fresh.start_group.any()
