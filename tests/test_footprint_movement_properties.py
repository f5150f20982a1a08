"""Movement of footprints on random maps: a 1x1 footprint moves exactly as
:func:`movement.reach` (S6), any footprint agrees with a plain-Python reference search
written from the S-rules, and ranges are equivariant under the 8 symmetries (S10)."""

from __future__ import annotations

import importlib.util
from collections import deque
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_adjacency_strategies import random_maps
from test_movement_properties import hindering, starts

from sodwa_editor.engine.adjacency import pair_crossing
from sodwa_editor.engine.footprint import Footprint, cannot_stand, transform_anchor
from sodwa_editor.engine.footprint_movement import footprint_reach
from sodwa_editor.engine.model import MapModel
from sodwa_editor.engine.movement import reach
from sodwa_editor.engine.terrain import Crossing
from sodwa_editor.engine.transform import SYMMETRIES, apply

ONE = Footprint(1, 1)


def assert_same_as_reach(m: MapModel, start, move, team, flight, budget, hindered) -> None:
    r = reach(m, start, move, team=team, flight=flight, budget=budget,
              hindered_start=hindered)
    f = footprint_reach(m, start, ONE, move, team=r.team, flight=flight, budget=budget,
                        hindered_start=hindered)
    assert (f.budget, f.halved) == (r.budget, r.halved)
    assert np.array_equal(f.steps, r.steps)
    assert np.array_equal(f.must_stop, r.must_stop)
    assert np.array_equal(f.start_group, r.start_group)
    for tile in r.tiles():
        assert f.path_to(tile) == r.path_to(tile)  # the same tie-breaking too


@settings(max_examples=200, deadline=None)
@given(random_maps(max_side=7, characters=4), st.data())
def test_a_one_tile_footprint_moves_exactly_as_reach(m, data):
    """Every start (hindering ones and start groups included), Move, team, flight, exact
    budget and hindered start: the same steps, stops, start group and paths."""
    s = starts(m)
    if not s:
        return
    start = data.draw(st.sampled_from(s), label="start")
    assert_same_as_reach(m, start, data.draw(st.integers(0, 9), label="move"),
                         data.draw(st.sampled_from([None, "red", "blue"]), label="team"),
                         data.draw(st.booleans(), label="flight"),
                         data.draw(st.none() | st.integers(0, 9), label="budget"),
                         data.draw(st.booleans(), label="hindered"))


def _compare_movement():
    path = Path(__file__).resolve().parents[1] / "bench" / "compare_movement.py"
    spec = importlib.util.spec_from_file_location("compare_movement", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_one_tile_footprint_equals_reach_on_the_compare_movement_maps():
    """The maps and queries of bench/compare_movement.py (stairs two tiles wide, walls
    flagged as stairs, destroyed walls, Indoor overrides, flyers): 150 maps, 6 queries
    each, no difference."""
    cm = _compare_movement()
    for seed in range(150):
        m = cm.random_map(seed)
        for start, move, team, flight, _kind in cm.queries(m, seed, 6):
            c = m.character_at(*start)
            if move is None:
                assert c is not None
                move, flight = c.move, c.flight
            assert_same_as_reach(m, start, move, team, bool(flight), None, True)


# ------------------------------------------------------------------ reference
def reference(m: MapModel, anchor, fp: Footprint, budget: int, team, flight: bool):
    """Breadth-first search over (anchor, stopped) written from S6-S8 with
    ``pair_crossing`` for every square's step and :func:`cannot_stand` for the ends;
    valid when no start square hinders (no start group)."""
    others = {(c.x, c.y): c.team for c in m.characters.values()
              if not fp.covers(anchor, (c.x, c.y))}
    rows = [(x, y, who) for (x, y), who in others.items()]

    def holds(a) -> bool:
        """Every two orthogonally neighbouring squares adjacent (a tile that cannot be
        entered is adjacent to nothing, A1), and no square on a creature not passed."""
        for s in fp.squares(a):
            for dx, dy in ((1, 0), (0, 1)):
                u = (s[0] + dx, s[1] + dy)
                if fp.covers(a, u) and pair_crossing(m, s, u, flight=flight)[0] is \
                        Crossing.BLOCKED:
                    return False
        return not any(t in others and (team is None or others[t] != team)
                       for t in fp.squares(a))

    def can_end(a) -> bool:
        return a == anchor or cannot_stand(m, a, fp, others=rows) is None

    dist = {(anchor, False): 0}
    queue = deque([anchor])
    while queue:
        a = queue.popleft()
        d = dist[(a, False)]
        if d >= budget:
            continue
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                b = (a[0] + dx, a[1] + dy)
                if b == a or b[0] < 0 or b[1] < 0 or b[0] + fp.width > m.width or \
                        b[1] + fp.height > m.height or not holds(b):
                    continue
                stop = False
                blocked = False
                for s in fp.squares(a):
                    u = (s[0] + dx, s[1] + dy)
                    c = pair_crossing(m, s, u, flight=flight)[0]
                    blocked |= c is Crossing.BLOCKED
                    if not fp.covers(a, u):  # a leading square
                        stop |= c is Crossing.IMPEDED or hindering(m, u)
                if blocked or (stop and not can_end(b)) or (b, stop) in dist:
                    continue
                dist[(b, stop)] = d + 1
                if not stop:
                    queue.append(b)
    steps = np.full(m.shape, -1, np.int32)
    must = np.zeros(m.shape, bool)
    for (a, stop), d in sorted(dist.items(), key=lambda kv: (kv[1], kv[0][1])):
        if can_end(a) and steps[a[1], a[0]] < 0:
            steps[a[1], a[0]], must[a[1], a[0]] = d, stop
    return steps, must


def standing_anchors(m: MapModel, fp: Footprint) -> list[tuple[int, int]]:
    cols, rows = fp.anchor_grid(m.width, m.height)
    return [(x, y) for y in range(rows) for x in range(cols)
            if cannot_stand(m, (x, y), fp) is None]


footprints = st.builds(Footprint, st.integers(1, 3), st.integers(1, 3))


@settings(max_examples=150, deadline=None)
@given(random_maps(max_side=8, characters=4), footprints, st.data())
def test_footprint_reach_matches_the_reference_search(m, fp, data):
    s = [a for a in standing_anchors(m, fp)
         if not any(hindering(m, t) for t in fp.squares(a))]
    if not s:
        return
    anchor = data.draw(st.sampled_from(s), label="anchor")
    move = data.draw(st.integers(0, 7), label="move")
    team = data.draw(st.sampled_from([None, "red", "blue"]), label="team")
    flight = data.draw(st.booleans(), label="flight")
    r = footprint_reach(m, anchor, fp, move, team=team, flight=flight)
    steps, must = reference(m, anchor, fp, move, team, flight)
    assert np.array_equal(r.steps, steps)
    assert np.array_equal(r.must_stop, must)


@settings(max_examples=100, deadline=None)
@given(random_maps(max_side=8, characters=4), footprints, st.data())
def test_footprint_paths_are_moves_of_standing_or_holding_positions(m, fp, data):
    s = standing_anchors(m, fp)
    if not s:
        return
    anchor = data.draw(st.sampled_from(s), label="anchor")
    flight = data.draw(st.booleans(), label="flight")
    r = footprint_reach(m, anchor, fp, data.draw(st.integers(0, 7)), team="red",
                        flight=flight)
    rows = [(c.x, c.y, c.id) for c in m.characters.values()
            if not fp.covers(anchor, (c.x, c.y))]
    enemies = {(c.x, c.y) for c in m.characters.values() if c.team != "red"}
    for end, info in r.tiles().items():
        assert end == anchor or cannot_stand(m, end, fp, others=rows) is None
        path = info.path
        assert path[0] == anchor and path[-1] == end and len(path) - 1 == info.steps
        for a, b in zip(path, path[1:], strict=False):
            d = (b[0] - a[0], b[1] - a[1])
            assert max(map(abs, d)) == 1
            for sq in fp.squares(a):
                nxt = (sq[0] + d[0], sq[1] + d[1])
                assert pair_crossing(m, sq, nxt, flight=flight)[0] is not Crossing.BLOCKED
            assert not enemies & (set(fp.squares(b)) - set(fp.squares(anchor)))


@settings(max_examples=100, deadline=None)
@given(random_maps(max_side=7, characters=3), footprints, st.sampled_from(SYMMETRIES),
       st.data())
def test_footprint_reach_is_equivariant_under_the_8_symmetries(m, fp, sym, data):
    """The anchors of a footprint form a (W-w+1) x (H-h+1) grid; a symmetry moves the
    covered rectangle, so its new top-left tile is :func:`transform_anchor`'s, and the
    range over anchors is that grid transformed (start groups and halving included)."""
    s = standing_anchors(m, fp)
    if not s:
        return
    anchor = data.draw(st.sampled_from(s), label="anchor")
    move = data.draw(st.integers(0, 8), label="move")
    flight = data.draw(st.booleans(), label="flight")
    t = apply(m, sym)
    anchor_t, fp_t = transform_anchor(sym, anchor, fp, m.width, m.height)
    r = footprint_reach(m, anchor, fp, move, team="blue", flight=flight)
    rt = footprint_reach(t, anchor_t, fp_t, move, team="blue", flight=flight)
    cols, rows = fp.anchor_grid(m.width, m.height)
    cols_t, rows_t = fp_t.anchor_grid(t.width, t.height)
    assert np.array_equal(sym.array(r.steps[:rows, :cols]), rt.steps[:rows_t, :cols_t])
    assert np.array_equal(sym.array(r.must_stop[:rows, :cols]), rt.must_stop[:rows_t, :cols_t])
    assert np.array_equal(sym.array(r.start_group), rt.start_group)
