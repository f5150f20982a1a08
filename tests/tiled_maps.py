"""Random maps with every field the SODWA format holds, for the Tiled round trip
(tests/test_tiled_roundtrip.py): special terrain types with free properties,
elevation 0..99, transition and indoor layers, borders with terrain, transition
and indoor flags, start zones, characters with attributes and objects with
nested JSON properties, and awkward text everywhere."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from sodwa_editor.engine.model import Character, MapModel, MapObject
from sodwa_editor.engine.terrain import BORDER_BASES, Base

#: free-form JSON: what object and terrain-type ``properties`` may hold
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=6)
free_props = st.dictionaries(st.text(max_size=8), json_values, max_size=4)
texts = st.text(max_size=20)
idents = st.text(min_size=1, max_size=12)
type_names = st.from_regex(r"\A[a-z][a-z0-9_-]{0,8}\Z").filter(
    lambda n: n not in {b.label for b in Base})


@st.composite
def tiled_maps(draw: st.DrawFn, max_side: int = 8) -> MapModel:
    w, h = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    m = MapModel(w, h, name=draw(st.text(max_size=30)),
                 setting=draw(st.sampled_from(["outdoor", "indoor"])))
    m.description = draw(texts)
    for name in draw(st.lists(type_names, max_size=4, unique=True)):
        m.registry.register(name, draw(st.sampled_from(list(Base))), draw(free_props))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = len(m.registry)
    m.terrain[:] = rng.integers(0, n, (h, w))
    if draw(st.booleans()):
        m.elevation[:] = rng.choice([0, 0, 1, 2, 9, 10, 99], (h, w))
    m.transition[:] = rng.random((h, w)) < 0.2
    m.tile_indoor[:] = rng.choice([-1, -1, -1, 0, 1], (h, w))
    border_ids = [0, 0, 0] + [i for i, t in enumerate(m.registry) if t.base in BORDER_BASES]
    for b, t, ind in ((m.border_e, m.transition_e, m.indoor_e),
                      (m.border_s, m.transition_s, m.indoor_s)):
        b[:] = rng.choice(border_ids, b.shape)
        t[:] = rng.random(t.shape) < 0.15
        ind[:] = rng.choice([-1, -1, -1, 0, 1], ind.shape)
    tiles = [(x, y) for y in range(h) for x in range(w)]
    for team in draw(st.lists(idents, max_size=3, unique=True)):
        picks = rng.choice(len(tiles), int(rng.integers(1, len(tiles) + 1)), replace=False)
        m.start_zones[team] = {tiles[i] for i in picks}
    for ident in draw(st.lists(idents, max_size=4, unique=True)):
        x, y = tiles[int(rng.integers(len(tiles)))]
        m.characters[ident] = Character(
            ident, draw(idents), x, y, move=draw(st.integers(-999, 999)),
            range=draw(st.integers(-999, 999)), flight=draw(st.booleans()),
            name=draw(texts), attributes=draw(st.dictionaries(
                st.text(max_size=8), st.integers(-999_999, 999_999), max_size=3)))
    for ident in draw(st.lists(idents, max_size=3, unique=True)):
        x, y = tiles[int(rng.integers(len(tiles)))]
        m.objects[ident] = MapObject(ident, draw(idents), x, y, draw(st.booleans()),
                                     draw(free_props))
    m.notify_bulk_change()
    return m
