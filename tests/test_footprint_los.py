"""Line of sight to and from large creatures (docs/rules.md S9): golden cases, a one-tile
creature equals the engine's :func:`los` and :func:`los_fan`, any footprints equal the
exact ``Fraction`` oracle over every pair of squares, and the 8 symmetries."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from los_oracle import oracle_los
from test_adjacency_strategies import random_maps

from sodwa_editor.engine.footprint import (
    Footprint,
    cannot_stand,
    creatures_adjacent,
    squares_of,
    transform_anchor,
)
from sodwa_editor.engine.footprint_los import footprint_los, footprint_los_fan
from sodwa_editor.engine.los import LosBoard, los, los_fan
from sodwa_editor.engine.model import Character, MapModel
from sodwa_editor.engine.terrain import Base, Crossing
from sodwa_editor.engine.transform import SYMMETRIES, apply

ONE = Footprint(1, 1)
IMP, OBS = int(Base.IMPEDING), int(Base.OBSTRUCTING)


def test_a_large_creature_on_crossed_tiles_blocks_a_line_as_a_character_does():
    """RB *Line of Sight*: "If this imaginary line crosses ... any tiles occupied by
    characters, then LoS is blocked": every square of a 2x2 standing across the line."""
    m = MapModel(9, 5)
    board = LosBoard(m, squares_of([((3, 1), Footprint(2, 2))]))
    assert board.crossing((0, 2), (8, 2)) is Crossing.BLOCKED  # through (3, 2), (4, 2)
    assert board.crossing((0, 1), (8, 1)) is Crossing.BLOCKED
    assert board.crossing((0, 3), (8, 3)) is Crossing.CLEAR  # below it
    r = footprint_los(m, (0, 0), Footprint(2, 2), (7, 0), ONE,
                      occupied=squares_of([((3, 1), Footprint(2, 2))]))
    assert r.crossing is Crossing.CLEAR and r.src == (1, 0)  # row 0 passes above it
    walled = footprint_los(m, (0, 1), ONE, (8, 1), ONE, occupied=squares_of(
        [((3, 0), Footprint(2, 5))]))
    assert walled.crossing is Crossing.BLOCKED and walled.result.reason.kind == "character"


def test_the_best_line_from_any_square_of_the_viewer_counts():
    """S9: a 2x2 behind a pillar sees round it from its other column of squares."""
    m = MapModel(8, 4)
    m.set_terrain(3, 1, OBS)
    m.set_terrain(3, 2, OBS)
    assert los(m, (1, 1), (6, 1)).crossing is Crossing.BLOCKED
    assert los(m, (1, 2), (6, 1)).crossing is Crossing.BLOCKED
    r = footprint_los(m, (0, 0), Footprint(2, 4), (6, 1), ONE)
    assert r.crossing is Crossing.CLEAR and r.src == (1, 0)
    # and symmetric: the same creature is seen from the tile
    back = footprint_los(m, (6, 1), ONE, (0, 0), Footprint(2, 4))
    assert back.crossing is Crossing.CLEAR and back.dst == (1, 0)


def test_the_viewers_own_squares_never_count_and_the_targets_count_as_its_tile():
    """L3 for every square: "its LoS to the Red character is impeded by the terrain between
    them, but not by the Orange character's occupied tile"; "the Red character would still
    have impeded LoS to the Orange character"."""
    m = MapModel(8, 1)
    m.set_terrain(1, 0, IMP)  # under the viewer's front square
    assert footprint_los(m, (0, 0), Footprint(2, 1), (6, 0), ONE).crossing is Crossing.CLEAR
    m.set_terrain(1, 0, 0)
    m.set_terrain(5, 0, IMP)  # under the target's near square: every line meets it
    r = footprint_los(m, (0, 0), ONE, (5, 0), Footprint(3, 1))
    assert r.crossing is Crossing.IMPEDED and r.result.reason.kind == "target-tile"
    # The line from the back square crosses the front square (Impeding): it does not
    # count, and that line misses the Impeding tile (4, 1) the front square's lines meet.
    m = MapModel(7, 5)
    m.set_terrain(3, 1, IMP)
    m.set_terrain(4, 1, IMP)
    r = footprint_los(m, (2, 1), Footprint(2, 1), (6, 2), Footprint(1, 2))
    assert r.crossing is Crossing.CLEAR and (r.src, r.dst) == ((2, 1), (6, 3))


def test_a_crossed_impeding_square_of_the_target_impedes_even_from_above():
    """L3 for every square of the target: RB bullet 3, "unless the character they are
    targeting occupies a tile of Impeding Terrain, in which case the elevated character's
    LoS is still considered to be impeded": the line to the target's clear square crosses
    its Impeding square, which is not ignored as grounded Impeding Terrain (L8)."""
    m = MapModel(7, 5)
    m.elevation[:, 0] = 1
    m.set_terrain(4, 2, IMP)
    m.notify_bulk_change()
    r = footprint_los(m, (0, 0), ONE, (4, 2), Footprint(2, 1))
    assert r.crossing is Crossing.IMPEDED and r.result.reason.tile == (4, 2)
    m.set_terrain(4, 2, 0)
    assert footprint_los(m, (0, 0), ONE, (4, 2), Footprint(2, 1)).crossing is Crossing.CLEAR


def test_an_elevated_large_creature_sees_down_only_from_its_squares_on_the_rim():
    """RB *Adding Clarity*: "If an elevated character isn't at the edge of elevated
    terrain, he can neither see nor be seen by grounded characters"; its own squares are
    not Elevated Terrain between it and the ground (*EL*: "except the square occupied by
    the character on the higher elevation")."""
    m = MapModel(10, 4)
    m.elevation[:, 0:5] = 1
    m.notify_bulk_change()
    on_rim = footprint_los(m, (3, 0), Footprint(2, 2), (8, 0), ONE)
    assert on_rim.crossing is Crossing.CLEAR and on_rim.src == (4, 0)
    inland = footprint_los(m, (2, 0), Footprint(2, 2), (8, 0), ONE)
    assert inland.crossing is Crossing.BLOCKED and inland.result.reason.kind == "elevation"
    assert footprint_los(m, (8, 0), ONE, (3, 0), Footprint(2, 2)).crossing is Crossing.CLEAR


def test_adjacent_creatures_ignore_impeding_terrain():
    """L5 with S5: "Because the Yellow and Orange characters are adjacent, their LoS to
    each other is unaffected by the Impeding Terrain"."""
    m = MapModel(5, 3)
    m.set_terrain(3, 0, IMP)
    r = footprint_los(m, (0, 0), Footprint(3, 3), (3, 0), ONE)
    assert r.crossing is Crossing.CLEAR
    m.set_terrain(4, 0, IMP)
    assert footprint_los(m, (0, 0), Footprint(3, 3), (4, 0), ONE).crossing is \
        Crossing.IMPEDED


def test_bad_footprints_are_one_line_errors():
    m = MapModel(5, 5)
    with pytest.raises(IndexError, match="not on the 5x5 map"):
        footprint_los(m, (4, 4), Footprint(2, 2), (0, 0), ONE)
    with pytest.raises(ValueError, match="overlap"):
        footprint_los(m, (0, 0), Footprint(2, 2), (1, 1), ONE)
    m.elevation[0, 1] = 1
    with pytest.raises(ValueError, match="on two levels"):
        footprint_los(m, (0, 0), Footprint(2, 2), (4, 4), ONE)


# ------------------------------------------------------------------ properties
@settings(max_examples=200, deadline=None)
@given(random_maps(max_side=8, characters=4), st.data())
def test_one_tile_creatures_see_exactly_as_los(m, data):
    tiles = [(x, y) for y in range(m.height) for x in range(m.width)]
    src = data.draw(st.sampled_from(tiles), label="src")
    dst = data.draw(st.sampled_from(tiles), label="dst")
    if src == dst:
        return
    assert footprint_los(m, src, ONE, dst, ONE).result == los(m, src, dst)


@settings(max_examples=60, deadline=None)
@given(random_maps(max_side=8, characters=4), st.data())
def test_one_tile_fan_equals_los_fan(m, data):
    tiles = [(x, y) for y in range(m.height) for x in range(m.width)]
    src = data.draw(st.sampled_from(tiles), label="src")
    assert np.array_equal(footprint_los_fan(m, src, ONE), los_fan(m, src))


footprints = st.builds(Footprint, st.integers(1, 3), st.integers(1, 3))


def standing(m: MapModel, fp: Footprint) -> list[tuple[int, int]]:
    cols, rows = fp.anchor_grid(m.width, m.height)
    return [(x, y) for y in range(rows) for x in range(cols)
            if cannot_stand(m, (x, y), fp) is None]


def _apart(fa: Footprint, a, fb: Footprint, b) -> bool:
    return not set(fa.squares(a)) & set(fb.squares(b))


@settings(max_examples=150, deadline=None)
@given(random_maps(max_side=8, characters=4), footprints, footprints, st.data())
def test_footprint_los_is_the_best_oracle_line_over_every_pair_of_squares(m, fa, fb, data):
    sa, sb = standing(m, fa), standing(m, fb)
    if not sa or not sb:
        return
    a = data.draw(st.sampled_from(sa), label="a")
    b = data.draw(st.sampled_from(sb), label="b")
    if not _apart(fa, a, fb, b):
        return
    mine, theirs = set(fa.squares(a)), set(fb.squares(b))
    others = {(c.x, c.y) for c in m.characters.values()} - mine - theirs
    best = min(oracle_los(m, p, q, own=frozenset(mine - {p}), target=frozenset(theirs - {q}),
                          occupied=others)
               for p in mine for q in theirs)
    if best == Crossing.IMPEDED and creatures_adjacent(m, a, fa, b, fb):
        best = Crossing.CLEAR  # L5, a rule of its own
    assert footprint_los(m, a, fa, b, fb).crossing == best


@settings(max_examples=40, deadline=None)
@given(random_maps(max_side=7, characters=4), footprints, st.data())
def test_footprint_fan_equals_footprint_los_to_every_tile(m, fa, data):
    s = standing(m, fa)
    if not s:
        return
    a = data.draw(st.sampled_from(s), label="a")
    fan = footprint_los_fan(m, a, fa)
    for y in range(m.height):
        for x in range(m.width):
            want = 0 if fa.covers(a, (x, y)) else footprint_los(m, a, fa, (x, y), ONE).crossing
            assert fan[y, x] == want, (x, y)


@settings(max_examples=100, deadline=None)
@given(random_maps(max_side=7, characters=3), footprints, footprints,
       st.sampled_from(SYMMETRIES), st.data())
def test_footprint_los_is_equivariant_under_the_8_symmetries(m, fa, fb, sym, data):
    sa, sb = standing(m, fa), standing(m, fb)
    if not sa or not sb:
        return
    a = data.draw(st.sampled_from(sa), label="a")
    b = data.draw(st.sampled_from(sb), label="b")
    if not _apart(fa, a, fb, b):
        return
    t = apply(m, sym)
    at, fat = transform_anchor(sym, a, fa, m.width, m.height)
    bt, fbt = transform_anchor(sym, b, fb, m.width, m.height)
    assert footprint_los(m, a, fa, b, fb).crossing == footprint_los(t, at, fat, bt, fbt).crossing


def test_characters_given_apart_from_the_model_replace_its_own():
    m = MapModel(7, 1)
    m.put_character(Character("x", "red", 3, 0))
    assert footprint_los(m, (0, 0), ONE, (6, 0), ONE).crossing is Crossing.BLOCKED
    assert footprint_los(m, (0, 0), ONE, (6, 0), ONE, occupied=[]).crossing is Crossing.CLEAR
    assert footprint_los(m, (0, 0), ONE, (6, 0), ONE, occupied=[(4, 0)]).result.reason.tile \
        == (4, 0)
