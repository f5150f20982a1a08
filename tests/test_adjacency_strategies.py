"""Hypothesis strategies shared by the adjacency, movement, groups and transform tests
(random small maps with every layer used), plus small helpers.  No tests here."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from sodwa_editor.engine.adjacency import DIRS, pair_crossing
from sodwa_editor.engine.model import Character, MapModel, MapObject
from sodwa_editor.engine.terrain import BORDER_BASES, Base, Crossing

#: Terrain ids of a random map: the five built-ins and a special Difficult type "icy".
ICY = 5


def build_map(w: int, h: int, seed: int, *, levels: int = 2, density: float = 0.2,
              characters: int = 0, setting: str = "outdoor") -> MapModel:
    """A random ``w`` x ``h`` map: terrain, elevation, transitions, borders, indoor flags."""
    rng = np.random.default_rng(seed)
    m = MapModel(w, h, setting=setting)  # type: ignore[arg-type]
    assert m.registry.register("icy", Base.DIFFICULT) == ICY
    ids = np.array([1, 2, 3, 4, ICY], np.uint8)
    mask = rng.random((h, w)) < density
    m.terrain[mask] = rng.choice(ids, size=int(mask.sum()))
    # Blocky elevation: a few rectangles raised one level each.
    for _ in range(int(rng.integers(0, levels + 1))):
        x0, y0 = (int(v) for v in rng.integers(0, (w, h)))
        x1, y1 = (int(v) for v in rng.integers((x0, y0), (w, h)))
        m.elevation[y0 : y1 + 1, x0 : x1 + 1] += 1
    m.transition[rng.random((h, w)) < density / 2] = True
    m.tile_indoor[:] = rng.integers(-1, 2, size=(h, w))
    border_ids = np.array(sorted(int(b) for b in BORDER_BASES) + [ICY], np.uint8)
    for b, t, ind in ((m.border_e, m.transition_e, m.indoor_e),
                      (m.border_s, m.transition_s, m.indoor_s)):
        bm = rng.random(b.shape) < density
        b[bm] = rng.choice(border_ids, size=int(bm.sum()))
        ind[:] = rng.integers(-1, 2, size=ind.shape)
        t[rng.random(t.shape) < density] = True
    free = [(x, y) for y in range(h) for x in range(w)]
    rng.shuffle(free)
    for i, (x, y) in enumerate(free[:characters]):
        m.characters[f"c{i}"] = Character(f"c{i}", str(rng.choice(["red", "blue"])), int(x),
                                          int(y), move=int(rng.integers(0, 7)),
                                          flight=bool(rng.random() < 0.3))
    if w * h > 1:
        x, y = free[-1]
        m.objects["o"] = MapObject("o", "crate", int(x), int(y))
    m.start_zones = {"red": {free[0]}} if free else {}
    m.notify_bulk_change()
    return m


@st.composite
def random_maps(draw: st.DrawFn, max_side: int = 6, characters: int = 0) -> MapModel:
    w = draw(st.integers(1, max_side))
    h = draw(st.integers(1, max_side))
    seed = draw(st.integers(0, 2**32 - 1))
    density = draw(st.sampled_from([0.05, 0.2, 0.4]))
    levels = draw(st.integers(0, 3))
    setting = draw(st.sampled_from(["outdoor", "indoor"]))
    n_chars = draw(st.integers(0, characters))
    return build_map(w, h, seed, levels=levels, density=density, characters=n_chars,
                     setting=setting)


def neighbour_pairs(m: MapModel):
    """Every ordered pair of 8-neighbours."""
    for y in range(m.height):
        for x in range(m.width):
            for dx, dy in DIRS:
                if m.in_bounds(x + dx, y + dy):
                    yield (x, y), (x + dx, y + dy)


def classes(m: MapModel, *, flight: bool = False) -> dict:
    """{(a, b): Crossing} for every ordered neighbour pair, through the scalar query."""
    return {(a, b): pair_crossing(m, a, b, flight=flight)[0] for a, b in neighbour_pairs(m)}


def adjacent_set(m: MapModel) -> set:
    return {p for p, c in classes(m).items() if c is not Crossing.BLOCKED}
