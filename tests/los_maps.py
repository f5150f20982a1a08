"""Random map strategy shared by the line-of-sight property tests."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from sodwa_editor.engine.model import Character, MapModel, MapObject


@st.composite
def random_maps(draw, max_side: int = 9, max_level: int = 2) -> MapModel:
    """Small maps with every feature LoS reads: terrain, elevation, borders,
    characters and objects."""
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    m = MapModel(w, h)
    # clear-heavy terrain: clear, impeding, obstructing, difficult, liquid
    m.terrain[:] = rng.choice(5, size=(h, w), p=[0.6, 0.15, 0.15, 0.05, 0.05])
    if draw(st.booleans()):
        m.elevation[:] = rng.choice(max_level + 1, size=(h, w), p=_level_p(max_level))
    border_choices = np.array([0, 1, 2, 3, 4], np.uint8)
    p = [0.7, 0.1, 0.14, 0.03, 0.03]
    m.border_e[:] = rng.choice(border_choices, size=m.border_e.shape, p=p)
    m.border_s[:] = rng.choice(border_choices, size=m.border_s.shape, p=p)
    free = [(x, y) for y in range(h) for x in range(w) if m.terrain[y, x] != 2]
    rng.shuffle(free)
    n_chars = int(rng.integers(0, min(4, len(free)) + 1))
    for i in range(n_chars):
        x, y = free[i]
        m.characters[f"c{i}"] = Character(f"c{i}", "ab"[i % 2], int(x), int(y))
    for i in range(int(rng.integers(0, 3))):
        x, y = int(rng.integers(w)), int(rng.integers(h))
        m.objects[f"o{i}"] = MapObject(f"o{i}", "crate", x, y, bool(rng.integers(2)))
    m.notify_bulk_change()
    return m


def _level_p(max_level: int) -> list[float]:
    weights = [4.0] + [1.0] * max_level
    total = sum(weights)
    return [x / total for x in weights]
