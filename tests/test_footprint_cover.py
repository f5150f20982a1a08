"""Cover (docs/rules.md S15-S18): the companion rulebook's sentences as golden tests, the
one-tile case equal to SODWA's own line, and cover unchanged under the 8 symmetries."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_adjacency_strategies import random_maps

from sodwa_editor.engine.footprint import Footprint, cannot_stand, overlaps, transform_anchor
from sodwa_editor.engine.footprint_cover import cover, direct_line, middle_square
from sodwa_editor.engine.los import los
from sodwa_editor.engine.model import Edge, MapModel, Rect
from sodwa_editor.engine.terrain import Base
from sodwa_editor.engine.transform import SYMMETRIES, apply

ONE, LARGE, HUGE = Footprint(1, 1), Footprint(2, 2), Footprint(4, 4)
IMP, OBS = int(Base.IMPEDING), int(Base.OBSTRUCTING)


def test_blocking_terrain_directly_between_is_heavy_cover():
    """S15, *CS*: "You are Heavily Covered when there's Blocking Terrain directly in between
    you and someone else's line of sight" -- SODWA's Obstructing terrain on the direct
    line, while the best line (S9) goes round it ("it can be seen around")."""
    m = MapModel(12, 4)
    m.set_terrain(6, 1, OBS)
    c = cover(m, ((0, 0), HUGE), ((10, 1), ONE), creatures={})
    assert (c.level, c.ring, c.creature, c.line) == ("heavy", (6, 1), None, "clear")
    assert c.reason == ("heavily covered: the Obstructing tile (6, 1) is directly between "
                        "(2, 1) and (10, 1)")
    m.set_terrain(6, 1, 0)
    m.set_border(Edge(6, 1, "E"), OBS)
    c = cover(m, ((0, 0), HUGE), ((10, 1), ONE), creatures={})
    assert c.level == "heavy" and c.ring == (6, 1) and "border" in c.reason


def test_rough_terrain_or_a_creature_directly_between_is_cover():
    """S15, *CS*: "Rough Terrain directly in between" (SODWA's Impeding terrain) and "a
    creature directly in between you and someone else (since creatures are also Rough
    Terrain)": the creature is named and its anchor ringed."""
    m = MapModel(12, 4)
    m.set_terrain(6, 1, IMP)
    c = cover(m, ((0, 0), HUGE), ((10, 1), ONE), creatures={})
    assert (c.level, c.ring, c.line) == ("covered", (6, 1), "clear")
    assert "the Impeding tile (6, 1)" in c.reason
    m.set_terrain(6, 1, 0)
    c = cover(m, ((0, 0), HUGE), ((10, 1), ONE), creatures={"ogre": ((6, 1), ONE)})
    assert (c.level, c.ring, c.creature) == ("covered", (6, 1), "ogre")
    assert c.reason == "covered: creature 'ogre' is directly between (2, 1) and (10, 1)"


def test_heavy_cover_wins_over_a_creature_on_the_same_line():
    m = MapModel(12, 4)
    m.set_terrain(6, 1, OBS)
    c = cover(m, ((0, 0), HUGE), ((10, 1), ONE), creatures={"ogre": ((4, 1), ONE)})
    assert c.level == "heavy" and c.ring == (6, 1)


def test_no_cover_in_melee_or_without_a_line():
    """S16, *CS*: "Cover can help prevent ranged attacks": adjacent creatures fight in melee;
    with no line of sight there is no ranged attack (the blocker ringed)."""
    m = MapModel(8, 3)
    m.set_terrain(1, 1, IMP)
    assert cover(m, ((0, 0), LARGE), ((2, 1), ONE), creatures={}).level == "none"
    m = MapModel(8, 3)
    m.fill_terrain(Rect(3, 0, 3, 2), OBS)
    c = cover(m, ((0, 0), LARGE), ((6, 1), ONE), creatures={})
    assert (c.level, c.line) == ("none", "blocked") and c.ring is not None
    assert c.reason.startswith("no cover: no line of sight (blocked by")


def test_one_tile_creatures_get_exactly_sodwas_line():
    """S16: for two one-tile creatures the direct line is the line SODWA walks: covered
    exactly when it is impeded (by terrain), none when clear, and no attack when blocked."""
    m = MapModel(7, 3)
    m.set_terrain(3, 1, IMP)
    c = cover(m, ((0, 1), ONE), ((6, 1), ONE), creatures={})
    assert (c.level, c.line) == ("covered", "impeded")
    assert cover(m, ((0, 0), ONE), ((6, 0), ONE), creatures={}).level == "none"


@settings(max_examples=80, deadline=None)
@given(random_maps(max_side=7), st.data())
def test_one_tile_cover_follows_los_on_random_maps(m, data):
    """S16 property: for 1x1 creatures the cover level is "covered" iff SODWA's line is
    impeded, "none" otherwise (clear, blocked or adjacent), and ``line`` is its class."""
    a = (data.draw(st.integers(0, m.width - 1)), data.draw(st.integers(0, m.height - 1)))
    b = (data.draw(st.integers(0, m.width - 1)), data.draw(st.integers(0, m.height - 1)))
    if a == b or cannot_stand(m, a, ONE) or cannot_stand(m, b, ONE):
        return
    c = cover(m, (a, ONE), (b, ONE), creatures={})
    line = los(m, a, b)
    assert c.level == ("covered" if line.crossing.label == "impeded" else "none")
    assert c.line == line.crossing.label


def test_the_direct_line_joins_the_middle_squares_toward_each_other():
    """S15: the middle square of an even side is the one nearer the other creature."""
    assert middle_square((0, 0), HUGE, (21, 3)) == (2, 1)
    assert middle_square((0, 0), HUGE, (-5, 9)) == (1, 2)
    assert direct_line(((0, 0), HUGE), ((10, 0), LARGE)) == ((2, 1), (10, 1))


@settings(max_examples=60, deadline=None)
@given(random_maps(max_side=7), st.sampled_from(SYMMETRIES), st.data())
def test_cover_level_is_the_same_under_the_8_symmetries(m, sym, data):
    """Issue 26 section 4: symmetric under map rotations and mirrors (the direct line's
    middle squares move with the map, so the level does)."""
    fa = data.draw(st.sampled_from([ONE, LARGE, Footprint(3, 1)]))
    cols, rows = fa.anchor_grid(m.width, m.height)
    if not cols or not rows:
        return
    a = (data.draw(st.integers(0, cols - 1)), data.draw(st.integers(0, rows - 1)))
    b = (data.draw(st.integers(0, m.width - 1)), data.draw(st.integers(0, m.height - 1)))
    if overlaps(a, fa, b, ONE) or cannot_stand(m, a, fa) or cannot_stand(m, b, ONE):
        return
    t = apply(m, sym)
    at, fat = transform_anchor(sym, a, fa, m.width, m.height)
    bt, _ = transform_anchor(sym, b, ONE, m.width, m.height)
    here = cover(m, (a, fa), (b, ONE), creatures={})
    there = cover(t, (at, fat), (bt, ONE), creatures={})
    assert (here.level, here.line) == (there.level, there.line)
