"""The generated benchmark maps (engine/generate.py) are deterministic and well formed."""

from __future__ import annotations

import numpy as np
import pytest

from sodwa_editor.engine.generate import make_mixed_map, make_open_map
from sodwa_editor.engine.terrain import Base
from sodwa_editor.io import dumps_map, validate_model


def test_mixed_map_is_deterministic_per_seed():
    a, b = make_mixed_map(64, seed=7), make_mixed_map(64, seed=7)
    assert a.same_content(b) and dumps_map(a) == dumps_map(b)
    assert not a.same_content(make_mixed_map(64, seed=8))


def test_mixed_map_densities_and_features():
    m = make_mixed_map(256, seed=1)
    assert abs((m.terrain == Base.IMPEDING).mean() - 0.10) < 0.01
    assert abs((m.terrain == Base.OBSTRUCTING).mean() - 0.05) < 0.01
    edges = m.border_e.size + m.border_s.size
    assert abs(((m.border_e != 0).sum() + (m.border_s != 0).sum()) / edges - 0.05) < 0.01
    assert set(np.unique(m.elevation)) == {0, 1}
    assert m.transition.sum() == 3 and m.transition_e.sum() + m.transition_s.sum() == 3
    assert sorted(m.start_zones) == ["blue", "red"]
    assert sorted(m.characters) == ["blue-1", "blue-2", "blue-3", "red-1", "red-2", "red-3"]


@pytest.mark.parametrize("size", [8, 9, 17, 100])
def test_mixed_maps_validate_cleanly(size):
    """No rule broken; random walls may wall off pockets (an isolated-region warning)."""
    for seed in range(3):
        found = validate_model(make_mixed_map(size, seed=seed))
        assert {p.code for p in found} <= {"isolated-region"}


def test_open_map_and_size_limit():
    m = make_open_map(16)
    assert (m.terrain == 0).all() and not m.characters and m.width == m.height == 16
    with pytest.raises(ValueError, match="size >= 8"):
        make_mixed_map(7)
