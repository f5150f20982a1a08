"""The LoS fan kept up to date across edits (engine/los_fan.py) and the fan's
thread runner (engine/fan_runner.py)."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from los_maps import random_maps

from sodwa_editor.engine import fan_runner
from sodwa_editor.engine.generate import make_mixed_map, make_open_map
from sodwa_editor.engine.los import los_fan, los_inputs
from sodwa_editor.engine.los_fan import FanTracker, cone_mask
from sodwa_editor.engine.model import Character, Edge, MapObject, Rect
from sodwa_editor.engine.terrain import Crossing


def _tile(data, model) -> tuple[int, int]:
    return (data.draw(st.integers(0, model.width - 1)),
            data.draw(st.integers(0, model.height - 1)))


def _edit(data, model) -> None:
    x, y = _tile(data, model)
    kind = data.draw(st.sampled_from(["terrain", "elevation", "border", "character",
                                      "object", "fill", "zone"]))
    if kind == "terrain":
        model.set_terrain(x, y, data.draw(st.integers(0, 4)))
    elif kind == "elevation":
        model.set_elevation(x, y, data.draw(st.integers(0, 3)))
    elif kind == "border":
        edge = Edge(x, y, data.draw(st.sampled_from("ES")))
        if model.edge_in_bounds(edge):
            model.set_border(edge, data.draw(st.sampled_from([0, 1, 2, 3, 4])))
    elif kind == "character":
        cid = data.draw(st.sampled_from(["c0", "new"]))
        model.put_character(Character(cid, "a", x, y))
    elif kind == "object":
        model.put_object(MapObject(data.draw(st.sampled_from(["o0", "o9"])), "crate", x, y,
                                   data.draw(st.booleans())))
    elif kind == "fill":
        x1, y1 = _tile(data, model)
        model.fill_terrain(Rect(min(x, x1), min(y, y1), max(x, x1), max(y, y1)),
                           data.draw(st.integers(0, 4)))
    else:
        model.set_start_zone("a", {(x, y)})


@settings(max_examples=150, deadline=None)
@given(random_maps(max_side=12, max_level=2), st.data())
def test_tracked_fan_equals_a_fan_computed_from_scratch(model, data):
    """After any edits, recomputing only the edits' cones gives the whole fan."""
    tracker = FanTracker(model)
    src = _tile(data, model)
    tracker.fan(src)
    for _ in range(data.draw(st.integers(1, 6))):
        for _ in range(data.draw(st.integers(1, 3))):
            _edit(data, model)
        if data.draw(st.booleans()):
            src = _tile(data, model)
        # the reference: a copy of the map, whose kernel inputs are built afresh
        assert np.array_equal(tracker.fan(src), los_fan(model.copy(), src))


@settings(max_examples=100, deadline=None)
@given(random_maps(max_side=12, max_level=3), st.data())
def test_patched_kernel_inputs_equal_inputs_built_afresh(model, data):
    """Edits patch the cached LoS inputs where they changed the map."""
    inp = los_inputs(model)
    keys = [(lo, lvl) for lo in range(4) for lvl in (False, True)]
    for key in keys:
        inp.context(*key)
        inp.terrain_context(*key)
    inp.levels()
    for _ in range(data.draw(st.integers(1, 5))):
        _edit(data, model)
        inp = los_inputs(model)
        fresh = los_inputs(model.copy())
        for name in ("tile_los", "obj", "occ", "elev", "be", "bs", "target"):
            assert np.array_equal(getattr(inp, name), getattr(fresh, name)), name
        for a, b in zip(inp.levels(), fresh.levels(), strict=True):
            assert np.array_equal(a, b)
        for key in keys:
            for a, b in zip(inp.context(*key), fresh.context(*key), strict=True):
                assert np.array_equal(a, b), key
            for a, b in zip(inp.terrain_context(*key), fresh.terrain_context(*key),
                            strict=True):
                assert np.array_equal(a, b), key


def test_an_edit_far_from_the_source_recomputes_only_its_cone():
    model = make_open_map(128)
    tracker = FanTracker(model)
    tracker.fan((64, 64))
    model.set_terrain(64, 10, 2)  # a wall 54 tiles north of the viewer
    fan = tracker.fan((64, 64))
    assert 0 < tracker.last_computed < 200
    assert fan[5, 64] == Crossing.BLOCKED and fan[5, 40] == Crossing.CLEAR
    model.set_start_zone("red", {(3, 3)})  # zones do not touch LoS
    tracker.fan((64, 64))
    assert tracker.last_computed == 0
    model.set_terrain(64, 63, 2)  # next to the viewer: half the map is behind it
    tracker.fan((64, 64))
    assert tracker.last_computed > 1000
    tracker.close()


def test_a_fan_after_an_edit_does_not_build_the_whole_maps_adjacency():
    """The adjacency exception (an adjacent target is never impeded, L5) asks about
    the source's few neighbours: after an edit (a new revision) the fan runs the
    rule on those pairs, not on the whole map as the per-revision cache would."""
    from sodwa_editor.engine import adjacency

    model = make_open_map(64)
    impeding = model.registry.id_of("impeding")
    model.set_terrain(33, 32, impeding)  # the source's east neighbour: impeded, yet adjacent
    tracker = FanTracker(model)
    for step in range(3):
        model.set_terrain(10 + step, 5, 2)  # a stroke far away: a new revision each step
        fan = tracker.fan((32, 32))
        assert fan[32, 33] == Crossing.CLEAR  # the exception applied
        assert np.array_equal(fan, los_fan(model, (32, 32)))
        assert adjacency._fresh(model, False) is None  # no whole-map pair classes built
    tracker.close()


def test_cone_of_a_tile_holds_the_lines_through_its_corners():
    mask = cone_mask((5, 5), (0, 0), Rect(1, 1, 1, 1))
    assert mask[2, 2] and mask[4, 4] and mask[1, 1]  # through the tile, and the tile
    assert mask[1, 3] and mask[3, 1]  # lines through a corner of the tile count: (2, 1), (1, 2)
    assert not mask[0, 4] and not mask[4, 0]


def test_threaded_fan_equals_the_serial_kernel():
    model = make_mixed_map(96, seed=3)
    src = (40, 50)
    threaded = los_fan(model, src)  # 9216 targets: the worker thread helps
    old = fan_runner.SERIAL_BELOW
    fan_runner.SERIAL_BELOW = 10**9
    try:
        serial = los_fan(model, src)
    finally:
        fan_runner.SERIAL_BELOW = old
    assert np.array_equal(threaded, serial)
    assert (threaded == Crossing.BLOCKED).any() and (threaded == Crossing.CLEAR).any()


class _FakeHelper:
    """Stands in for the helper thread: ``mode`` says what it gets done before
    the caller starts (a helper on a busy core may do anything in between)."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.jobs = self

    def put(self, job: tuple) -> None:
        *_, help_buf, taken, done, rows = job
        if self.mode == "all":  # finished every chunk first
            fan_runner.fan_help(*job)
        elif self.mode == "flags only":  # marked chunks done, writes not visible yet
            done[:] = 1
        # "never": never got a core


@pytest.mark.parametrize("mode", ["never", "all", "flags only"])
def test_caller_never_waits_for_the_helper_and_never_reads_stale_rows(monkeypatch, mode):
    model = make_mixed_map(80, seed=5)
    monkeypatch.setattr(fan_runner, "SERIAL_BELOW", 10**9)
    expected = los_fan(model, (30, 41))  # on this thread alone
    monkeypatch.setattr(fan_runner, "SERIAL_BELOW", 4096)
    monkeypatch.setattr(fan_runner, "_helper", _FakeHelper(mode))
    result: list[np.ndarray] = []
    worker = threading.Thread(target=lambda: result.append(los_fan(model, (30, 41))),
                              daemon=True)
    worker.start()
    worker.join(30)  # the caller alone finishes the fan: nothing to wait for
    assert result and np.array_equal(result[0], expected)
