"""Movement of creatures larger than one tile (docs/rules.md S6-S8): golden cases from the
rulebook's movement sentences applied to every square."""

from __future__ import annotations

import numpy as np
import pytest
from test_movement import grid

from sodwa_editor.engine.footprint import Footprint
from sodwa_editor.engine.footprint_movement import footprint_reach
from sodwa_editor.engine.model import Edge, MapModel
from sodwa_editor.engine.movement import move_budget
from sodwa_editor.engine.terrain import Base

IMP, OBS, DIF = int(Base.IMPEDING), int(Base.OBSTRUCTING), int(Base.DIFFICULT)
TWO = Footprint(2, 2)


def ends(r) -> set:
    return set(r.tiles())


def test_a_large_creature_needs_a_gap_as_wide_as_itself():
    """S6: every square's step must be allowed (RB: "Obstructing Terrain prohibits
    movement"), so a 2x2 does not fit through a gap one tile wide; a 1x1 does."""
    m = grid(".... .... X.XX .... ....")
    assert (0, 3) not in footprint_reach(m, (0, 0), TWO, 9)
    assert footprint_reach(m, (0, 0), Footprint(1, 1), 9).steps[4, 1] == 4
    m.set_terrain(2, 2, 0)
    r = footprint_reach(m, (0, 0), TWO, 9)
    assert r.steps[3, 1] == 3 and r.path_to((1, 3)) == [(0, 0), (1, 1), (1, 2), (1, 3)]


def test_each_step_costs_one_and_the_covered_tiles_follow():
    """M1 for footprints: one step moves every square one tile; ``covered`` is where the
    footprint can stand (a preview's area)."""
    m = MapModel(9, 9)
    r = footprint_reach(m, (3, 3), TWO, 2)
    ys, xs = np.mgrid[0:9, 0:9]
    cheb = np.maximum(abs(xs - 3), abs(ys - 3))
    assert np.array_equal(r.steps, np.where((cheb <= 2) & (xs < 8) & (ys < 8), cheb, -1))
    covered = np.zeros((9, 9), bool)
    covered[1:7, 1:7] = True  # anchors (1..5) x (1..5) cover the tiles (1..6) x (1..6)
    assert np.array_equal(r.covered(), covered)


def test_a_diagonal_step_needs_the_corner_rule_for_every_square():
    """S6 with A5: "If 1:1 and 2:2 were both Obstructing Terrain, then any movement ...
    through that intersection would be considered blocked": two wall tiles meeting at a
    corner that one square of the 2x2 would pass stop its diagonal step, although the
    other squares' corners are open; one wall tile alone does not."""
    m = MapModel(6, 6)
    m.set_terrain(3, 0, OBS)
    m.set_terrain(2, 1, OBS)  # diagonal walls meeting at the grid point (3, 1)
    r = footprint_reach(m, (1, 2), TWO, 1)
    assert (2, 1) not in r  # the square (2, 2) -> (3, 1) crosses the corner: blocked
    m.set_terrain(2, 1, 0)
    m.set_terrain(4, 0, OBS)
    assert (2, 1) in footprint_reach(m, (1, 2), TWO, 1)  # one wall at the corner only


def test_entering_hindering_terrain_with_one_square_ends_the_move():
    """S7: RB "If a character moves into a Tile of Impeding Terrain ... they must end
    their movement": one leading square entering one is enough."""
    m = grid("...... ...I..")
    r = footprint_reach(m, (0, 0), TWO, 9)
    assert r.steps.tolist()[0] == [0, 1, 2, -1, -1, -1] and bool(r.must_stop[0, 2])
    assert r.path_to((2, 0)) == [(0, 0), (1, 0), (2, 0)]


def test_a_fence_is_crossed_once_by_the_leading_squares():
    """S7: RB "If a character ... crosses a Border of Impeding Terrain, they must end their
    movement": the move ends when the leading squares cross it; the next move carries the
    rest of the body over it without stopping again (the creature stands astride the fence,
    which S4 allows)."""
    m = MapModel(8, 2)
    for y in range(2):
        m.set_border(Edge(2, y, "E"), IMP)
    r = footprint_reach(m, (0, 0), TWO, 9)
    assert r.steps.tolist()[0] == [0, 1, 2, -1, -1, -1, -1, -1] and bool(r.must_stop[0, 2])
    r = footprint_reach(m, (2, 0), TWO, 3)
    assert not r.halved  # a fence under it is not a hindering tile
    assert r.steps.tolist()[0] == [2, 1, 0, 1, 2, 3, -1, -1]
    assert not r.must_stop.any()  # both ways: the leading squares cross no fence


def test_one_hindering_square_halves_and_its_group_is_passed_freely():
    """S7 with M5, M6: "If they start their turn occupying a Tile of Impeding Terrain, their
    Move attribute is halved but they may move through any contiguous tiles of Impeding
    Terrain without ending their movement": the creature occupies every square, so one
    Impeding square halves, and the start group is that of every hindering square."""
    m = grid("........ .IIII...")
    r = footprint_reach(m, (0, 0), TWO, 9)
    assert r.halved and r.budget == 4
    assert r.steps.tolist()[0] == [0, 1, 2, 3, 4, -1, -1, -1] and not r.must_stop.any()
    assert r.start_group.sum() == 4
    assert move_budget(m, (0, 0), 9, size=(2, 2)) == (4, True)
    assert move_budget(m, (0, 0), 9) == (9, False)  # its top-left tile alone does not hinder
    # The turn did not begin on hindering terrain (B36): no start group, the move ends.
    r = footprint_reach(m, (0, 0), TWO, 9, budget=9, hindered_start=False)
    assert r.steps.tolist()[0] == [0, 1, -1, -1, -1, -1, -1, -1] and bool(r.must_stop[0, 1])


def test_the_start_group_is_left_when_no_square_is_on_it_any_more():
    """S7 with M8: "If the character exits the Impeding Terrain and then enters a new Tile
    of Impeding Terrain ..., they must end their movement".  A 1x2 creature on the left
    Impeding column is still in its group while any square is on it, so it reaches (2, 0)
    through (1, 1) without stopping; with that way cut by a wall it must leave the group
    through the clear gap, and re-entering the group at (2, 0) ends the move."""
    tall = Footprint(1, 2)
    m = grid("I.I. I.I. III.")
    r = footprint_reach(m, (0, 0), tall, 20)
    assert r.steps[0, 2] == 2 and not r.must_stop[0, 2]
    assert r.path_to((2, 0)) == [(0, 0), (1, 1), (2, 0)]
    m = grid("I.I. I.I. III. III.")
    m.set_border(Edge(1, 1, "S"), OBS)  # the 1x2 no longer fits on (1, 1)-(1, 2)
    r = footprint_reach(m, (0, 0), tall, 20)
    assert r.steps[0, 2] == 2 and r.must_stop[0, 2]
    assert r.path_to((2, 0)) == [(0, 0), (1, 0), (2, 0)]
    assert r.steps[0, 3] == 4 and r.path_to((3, 0)) == [(0, 0), (0, 1), (1, 2), (2, 1),
                                                        (3, 0)]


def stairway(tiles_below: bool) -> MapModel:
    """8x2: a plateau (level 1) on columns 4-7, a transition border all along edge 3|4,
    transition tiles on columns 4-5 and, with ``tiles_below``, on columns 2-3."""
    m = MapModel(8, 2)
    m.elevation[:, 4:] = 1
    m.transition[:, 4:6] = True
    if tiles_below:
        m.transition[:, 2:4] = True
    m.transition_e[:, 3] = True
    m.notify_bulk_change()
    return m


def test_a_large_creature_climbs_a_stairway_as_wide_as_itself():
    """S6, S7 with M7: a 2x2 starting on a stairway's lower tiles passes the transition
    border of its own start tiles freely ("If the border is part of a transition tile and
    the character starts its turn in that tile, ... it does not need to end it turn after
    passing through the transition border"), straddles the two levels in the middle of the
    move (it may not end there: S4) and ends on the upper tiles or beyond."""
    m = stairway(tiles_below=True)
    r = footprint_reach(m, (2, 0), TWO, 6)
    assert r.halved and r.budget == 3
    assert r.steps.tolist()[0] == [2, 1, 0, -1, 2, 3, -1, -1]  # (3, 0) straddles
    assert not r.must_stop[0, 4] and r.path_to((4, 0)) == [(2, 0), (3, 0), (4, 0)]


def test_a_diagonal_step_of_a_creature_on_two_levels_checks_its_inner_squares_too():
    """S6 with A4 ("Characters, objects, and effects that exist on different elevations
    are not considered to be adjacent"; transitions are edges): in the middle of a climb a
    2x2 stands with only its bottom-left square below (its start squares' own transition
    borders are free, M7); a diagonal step NE would take that inner square diagonally up a
    level, so it is not allowed although every leading square stays on the plateau."""
    m = MapModel(6, 5)
    m.elevation[:, 3:] = 1
    m.elevation[:2, :] = 1
    m.transition[2:4, 1:3] = True  # the 2x2 starts on these stair tiles (level 0)
    m.transition_e[2:4, 2] = True  # 2|3 on rows 2 and 3
    m.transition_s[1, 2] = True  # (2, 1) over (2, 2)
    m.notify_bulk_change()
    r = footprint_reach(m, (1, 2), TWO, 8)
    assert r.budget == 4 and r.steps[2, 3] == 2  # over the stair's east borders
    assert r.steps[0, 3] == 4  # not 3 by (2, 2), (2, 1) and a diagonal step
    assert r.path_to((3, 0)) == [(1, 2), (2, 2), (3, 2), (3, 1), (3, 0)]
    assert (2, 1) not in r  # it passes there on two levels, never ends there (S4)


def test_a_bare_transition_border_is_not_a_way_up_for_a_large_creature():
    """S7: crossing a transition border ends the move (RB "once a character has passed
    over the border, they must end their turn"), and the leading squares cross it while the
    others are still below: a position on two levels, where no move may end (S4).  So a
    2x2 walks up only a stairway of transition tiles; walking onto its lower tiles ends the
    move there first (they are Difficult)."""
    m = stairway(tiles_below=False)
    assert (4, 0) not in footprint_reach(m, (0, 0), TWO, 9)
    m = stairway(tiles_below=True)
    r = footprint_reach(m, (0, 0), TWO, 9)
    assert r.steps.tolist()[0] == [0, 1, -1, -1, -1, -1, -1, -1] and bool(r.must_stop[0, 1])
    assert footprint_reach(m, (0, 0), TWO, 9, flight=True).steps[0, 4] == -1  # Difficult
    assert footprint_reach(m, (4, 0), TWO, 9, flight=True).steps[0, 6] == 2


def test_friends_are_passed_and_every_square_of_an_enemy_blocks():
    """S8 with M4: "a character can't occupy a tile already occupied by another
    character"; friends may be passed, enemies not, and a large enemy is every square."""
    m = MapModel(7, 2)
    friend = [(3, 0, "red"), (3, 1, "red")]
    r = footprint_reach(m, (0, 0), TWO, 9, team="red", occupants=friend)
    assert r.steps.tolist()[0] == [0, 1, -1, -1, 4, 5, -1]  # through, not onto
    enemy = [(x, y, "blue", "large") for x in (3, 4) for y in (0, 1)]
    r = footprint_reach(m, (0, 0), TWO, 9, team="red", occupants=enemy)
    assert r.steps.tolist()[0] == [0, 1, -1, -1, -1, -1, -1]
    r = footprint_reach(m, (0, 0), TWO, 9, occupants=friend)  # no team: everyone blocks
    assert r.steps.tolist()[0] == [0, 1, -1, -1, -1, -1, -1]
    # a row on the mover's own squares is the mover
    assert footprint_reach(m, (0, 0), TWO, 1, team="red",
                           occupants=[(1, 1, "red")]).steps[0, 1] == 1


def test_passing_a_hostile_by_size_is_a_switch_off_by_default():
    """S8: *TP* "You may Move through a Hostile Character's Space if you are two or more
    size categories larger or smaller than the other Character, or you are Tiny Sized
    Character" only with ``pass_hostile_by_size`` (``movement.pass_hostile_by_size``)."""
    m = MapModel(5, 1)
    hostile = [(2, 0, "blue", "small")]
    one = Footprint(1, 1)
    assert footprint_reach(m, (0, 0), one, 4, team="red", occupants=hostile).steps[0, 3] == -1
    big = footprint_reach(m, (0, 0), one, 4, team="red", occupants=hostile, size="large",
                          pass_hostile_by_size=True)
    assert big.steps.tolist() == [[0, 1, -1, 3, 4]]  # passed, never ended on
    near = footprint_reach(m, (0, 0), one, 4, team="red", occupants=hostile, size="medium",
                           pass_hostile_by_size=True)
    assert near.steps[0, 3] == -1  # one category apart
    tiny = footprint_reach(m, (0, 0), one, 4, team="red", occupants=[(2, 0, "blue", "tiny")],
                           size="tiny", pass_hostile_by_size=True)
    assert tiny.steps[0, 3] == 3  # "or you are Tiny Sized Character"


def test_bad_starts_are_one_line_errors():
    m = MapModel(5, 5)
    with pytest.raises(IndexError, match="a 2x2 footprint at 4,4 is not on the 5x5 map"):
        footprint_reach(m, (4, 4), TWO, 3)
    m.set_terrain(1, 1, OBS)
    with pytest.raises(ValueError, match=r"cannot start at 0,0: the Obstructing tile"):
        footprint_reach(m, (0, 0), TWO, 3)
    with pytest.raises(ValueError, match="Move must be at least 0"):
        footprint_reach(m, (2, 2), TWO, -1)
