"""Cross-check the compiled integer LoS walk against the Fraction oracle."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from los_maps import random_maps
from los_oracle import oracle_los

from sodwa_editor.engine import los_kernel
from sodwa_editor.engine.los import los_inputs


def draw_tile(data, model) -> tuple[int, int]:
    return (data.draw(st.integers(0, model.width - 1)), data.draw(st.integers(0, model.height - 1)))


def kernel_class(model, src, dst) -> int:
    inp = los_inputs(model)
    a, b = int(inp.elev[src[1], src[0]]), int(inp.elev[dst[1], dst[0]])
    tc, ec, sc = inp.context(min(a, b), a == b)
    return int(los_kernel.walk(src[0], src[1], dst[0], dst[1], tc, ec, sc, inp.target)[0])


@settings(max_examples=150, deadline=None)
@given(random_maps())
def test_kernel_matches_oracle_on_every_pair(model):
    tiles = list(model.tiles())
    for src in tiles:
        for dst in tiles:
            assert kernel_class(model, src, dst) == oracle_los(model, src, dst), (src, dst)


@settings(max_examples=60, deadline=None)
@given(random_maps(max_side=24, max_level=3), st.data())
def test_kernel_matches_oracle_on_larger_maps(model, data):
    for _ in range(40):
        src = draw_tile(data, model)
        dst = draw_tile(data, model)
        assert kernel_class(model, src, dst) == oracle_los(model, src, dst), (src, dst)


def test_oracle_detects_exact_corner():
    from los_oracle import _events

    # (0,0) -> (2,2): passes exactly through grid points (1,1) and (2,2)
    kinds = [e[1] for e in _events((0, 0), (2, 2))]
    assert kinds == ["c", "c"]
    # (0,0) -> (2,1): slope 1/2, passes through no corner
    assert "c" not in [e[1] for e in _events((0, 0), (2, 1))]


@settings(max_examples=80, deadline=None)
@given(random_maps(max_side=12, max_level=3), st.data())
def test_fan_matches_oracle_beyond_the_neighbours(model, data):
    """The fan (one context per target elevation) equals the oracle for every target
    that is not a neighbour of the viewer (neighbours get the adjacency exception)."""
    from sodwa_editor.engine.los import los_fan

    src = draw_tile(data, model)
    fan = los_fan(model, src)
    for x, y in model.tiles():
        if max(abs(x - src[0]), abs(y - src[1])) > 1:
            assert fan[y, x] == oracle_los(model, src, (x, y)), (src, (x, y))
