"""Line-of-sight invariants that follow from the rules (hypothesis, random maps)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from los_maps import random_maps

from sodwa_editor.engine.los import LosBoard, crossing_among, los, los_fan
from sodwa_editor.engine.model import Edge
from sodwa_editor.engine.terrain import Base, Crossing
from sodwa_editor.engine.transform import SYMMETRIES, apply


def draw_tile(data, model) -> tuple[int, int]:
    return (data.draw(st.integers(0, model.width - 1)), data.draw(st.integers(0, model.height - 1)))


@settings(max_examples=60, deadline=None)
@given(random_maps(max_side=10, max_level=2), st.data())
def test_fan_is_equivariant_under_the_8_symmetries(model, data):
    """Rotating or mirroring the map rotates or mirrors the fan: the rules name no
    direction (docs/rules.md L2 treats both ways around a corner alike)."""
    src = draw_tile(data, model)
    fan = los_fan(model, src)
    for s in SYMMETRIES:
        moved = apply(model, s)
        assert np.array_equal(
            los_fan(moved, s.tile(src, model.width, model.height)), s.array(fan)
        ), s


@settings(max_examples=60, deadline=None)
@given(random_maps(max_side=10, max_level=2), st.data())
def test_adding_an_obstruction_never_makes_los_less_restrictive(model, data):
    """Obstructing is the most restrictive class (RB *Terrain*), and min/max of the
    corner rule are monotone, so no class may drop anywhere in the fan."""
    src = draw_tile(data, model)
    before = los_fan(model, src)
    x, y = draw_tile(data, model)
    if data.draw(st.booleans()):
        model.set_terrain(x, y, int(Base.OBSTRUCTING))
    else:
        side = data.draw(st.sampled_from(["E", "S"]))
        edge = Edge(x, y, side)
        if not model.edge_in_bounds(edge):
            return
        model.set_border(edge, int(Base.OBSTRUCTING))
    after = los_fan(model, src)
    assert (after >= before).all()


@settings(max_examples=80, deadline=None)
@given(random_maps(max_side=10, max_level=2), st.data())
def test_blocked_is_symmetric_between_standing_tiles(model, data):
    """Whether LoS is blocked does not depend on who looks: the same features are
    crossed both ways and the elevation rules use min/max of the two levels.  (Only
    impeded differs: the target's tile counts, the attacker's does not.)"""
    a, b = draw_tile(data, model), draw_tile(data, model)
    if any(model.base_at(*t) is Base.OBSTRUCTING for t in (a, b)):
        return
    ab = los(model, a, b).crossing is Crossing.BLOCKED
    ba = los(model, b, a).crossing is Crossing.BLOCKED
    assert ab == ba


@settings(max_examples=40, deadline=None)
@given(random_maps(max_side=8, max_level=2), st.data())
def test_fan_equals_single_queries_everywhere(model, data):
    src = draw_tile(data, model)
    fan = los_fan(model, src)
    for x, y in model.tiles():
        assert fan[y, x] == los(model, src, (x, y)).crossing


@settings(max_examples=80, deadline=None)
@given(random_maps(max_side=9, max_level=2), st.data())
def test_los_board_equals_los_with_the_characters_on_the_model(model, data):
    """``LosBoard`` and ``crossing_among`` (characters given apart from the model, as a
    battle keeps them) answer exactly as ``los``/``los_fan`` on the model with those
    characters."""
    occupied = sorted({(c.x, c.y) for c in model.characters.values()})
    bare = model.copy()
    bare.characters = {}
    bare.notify_bulk_change()
    names = {(c.x, c.y): c.id for c in model.characters.values()}
    board = LosBoard(bare, occupied, names.get)
    src, dst = draw_tile(data, model), draw_tile(data, model)
    assert board.los(src, dst) == los(model, src, dst)
    assert board.crossing(src, dst) == los(model, src, dst).crossing
    xs, ys = (np.array([t[i] for t in occupied], np.int64) for i in (0, 1))
    assert crossing_among(bare, xs, ys, src, dst) == los(model, src, dst).crossing
    assert np.array_equal(board.fan(src), los_fan(model, src))


@settings(max_examples=80, deadline=None)
@given(random_maps(max_side=9, max_level=3))
def test_packed_stacks_walk_as_each_levels_stack(model):
    """``LosBoard.packed`` (every viewer level's contexts in one set of arrays, for
    compiled callers) gives each viewer level and target tile the same context
    arrays as that level's own ``stack``, characters included."""
    occupied = sorted({(c.x, c.y) for c in model.characters.values()})
    bare = model.copy()
    bare.characters = {}
    bare.notify_bulk_change()
    board = LosBoard(bare, occupied)
    lo, (ctx, tcs, ecs, scs) = board.packed()
    for level in np.unique(bare.elevation).tolist():
        own_ctx, own_tcs, own_ecs, own_scs = board.stack(level)
        for y in range(bare.height):
            for x in range(bare.width):
                c, own = ctx[level - lo, y, x], own_ctx[y, x]
                assert np.array_equal(tcs[c], own_tcs[own])
                assert np.array_equal(ecs[c], own_ecs[own])
                assert np.array_equal(scs[c], own_scs[own])
