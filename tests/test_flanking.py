"""Flanking (docs/rules.md S12-S14): the companion rulebook's sentences as golden tests,
and flanking unchanged under the map's 8 symmetries."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_adjacency_strategies import random_maps

from sodwa_editor.engine.flanking import flanking
from sodwa_editor.engine.footprint import Footprint, overlaps, transform_anchor
from sodwa_editor.engine.model import Edge, MapModel
from sodwa_editor.engine.terrain import Base
from sodwa_editor.engine.transform import SYMMETRIES, apply

ONE, LARGE, HUGE = Footprint(1, 1), Footprint(2, 2), Footprint(4, 4)
OBS = int(Base.OBSTRUCTING)


def test_two_foes_adjacent_to_you_but_not_to_each_other_flank_you():
    """S12, *CS*: "You are Flanked when at least 2 foes are adjacent to you, but not
    adjacent to each other"."""
    m = MapModel(5, 5)
    me = ((2, 2), ONE)
    opposite = flanking(m, me, {"w": ((1, 2), ONE), "e": ((3, 2), ONE)})
    assert opposite.flanked and opposite.flankers == {"w": 1, "e": 1} and opposite.count == 2
    corners = flanking(m, me, {"nw": ((1, 1), ONE), "se": ((3, 3), ONE)})
    assert corners.flanked and corners.count == 2  # corners count: "including corners"
    side_by_side = flanking(m, me, {"w": ((1, 2), ONE), "sw": ((1, 3), ONE)})
    assert not side_by_side.flanked and side_by_side.flankers == {}
    assert side_by_side.adjacent == ("w", "sw")
    assert "adjacent to each other" in side_by_side.describe()
    alone = flanking(m, me, {"w": ((1, 2), ONE), "far": ((4, 4), ONE)})
    assert not alone.flanked and alone.adjacent == ("w",)


def test_a_foe_touching_every_other_adjacent_foe_does_not_count():
    """S13: "For every foe that counts towards Flanking you": a foe counts when some other
    adjacent foe is not adjacent to it; one standing between the two flankers does not."""
    m = MapModel(5, 5)
    f = flanking(m, ((2, 2), ONE), {"w": ((1, 2), ONE), "e": ((3, 2), ONE),
                                    "n": ((2, 1), ONE)})
    assert f.flankers == {"w": 1, "e": 1} and f.count == 2
    assert f.describe() == "flanked by 'w' (1 square), 'e' (1 square): counts 2"


def test_a_larger_creature_counts_once_per_square_adjacent_to_the_target():
    """S14, *CS*: "count as a # of foes ... equal to the # of squares adjacent to the
    Flanked target that they are occupying"."""
    m = MapModel(8, 8)
    f = flanking(m, ((4, 3), ONE), {"huge": ((0, 2), HUGE), "e": ((5, 3), ONE)})
    # the Huge creature's squares (3, 2), (3, 3), (3, 4) touch the target at (4, 3)
    assert f.flankers == {"huge": 3, "e": 1} and f.count == 4
    big = flanking(m, ((2, 4), LARGE), {"huge": ((0, 0), HUGE), "s": ((2, 6), ONE)})
    # the Huge creature's bottom row y=3: (1, 3) diagonal, (2, 3), (3, 3) above the target
    assert big.flankers == {"huge": 3, "s": 1}


def test_a_minimum_of_two_combatants_is_always_required():
    """S12, *CS*: "A minimum of 2 combatants is always required to flank someone": a Huge
    creature around a corner of the target, however many squares touch it, never flanks
    alone; ``minimum_foes`` below 2 is refused."""
    m = MapModel(9, 9)
    lone = flanking(m, ((4, 4), ONE), {"huge": ((0, 0), HUGE)})
    assert not lone.flanked and lone.count == 0
    three = {"w": ((3, 4), ONE), "e": ((5, 4), ONE)}
    assert not flanking(m, ((4, 4), ONE), three, minimum_foes=3).flanked
    with pytest.raises(ValueError, match="at least 2 foes"):
        flanking(m, ((4, 4), ONE), three, minimum_foes=1)


def test_adjacency_is_sodwas_no_flanking_across_a_wall():
    """S12 with S5: a foe across an Obstructing border is not adjacent, so does not
    flank; two foes with a wall between them are not adjacent to each other."""
    m = MapModel(5, 5)
    m.set_border(Edge(2, 2, "E"), OBS)
    assert not flanking(m, ((2, 2), ONE), {"w": ((1, 2), ONE), "e": ((3, 2), ONE)}).flanked
    m = MapModel(5, 5)
    m.set_border(Edge(1, 1, "E"), OBS)  # between (1, 1) and (2, 1)
    f = flanking(m, ((1, 2), ONE), {"a": ((1, 1), ONE), "b": ((2, 1), ONE)})
    assert f.flanked and f.count == 2  # both touch the target, not each other


def test_overlapping_foes_are_refused():
    with pytest.raises(ValueError, match="overlaps the target"):
        flanking(MapModel(4, 4), ((1, 1), LARGE), {"a": ((2, 2), ONE)})


@settings(max_examples=60, deadline=None)
@given(random_maps(max_side=7), st.sampled_from(SYMMETRIES), st.data())
def test_flanking_is_the_same_under_the_8_symmetries(m, sym, data):
    """Issue 26 section 4: "flanking symmetric under map rotations/mirrors"."""
    fps = [ONE, LARGE, Footprint(2, 1)]
    placed: dict[str, tuple[tuple[int, int], Footprint]] = {}
    for name in ("t", "a", "b", "c"):
        fp = data.draw(st.sampled_from(fps))
        cols, rows = fp.anchor_grid(m.width, m.height)
        if not cols or not rows:
            return
        at = (data.draw(st.integers(0, cols - 1)), data.draw(st.integers(0, rows - 1)))
        if not any(overlaps(at, fp, *p) for p in placed.values()):
            placed[name] = (at, fp)
    if "t" not in placed:
        return
    t = apply(m, sym)
    moved = {n: transform_anchor(sym, a, fp, m.width, m.height) for n, (a, fp) in placed.items()}
    foes = {n: p for n, p in placed.items() if n != "t"}
    here = flanking(m, placed["t"], foes)
    there = flanking(t, moved["t"], {n: moved[n] for n in foes})
    assert here == there
