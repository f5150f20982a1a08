"""Random maps with every field the SODWA format holds, for the Tiled round trip
(tests/test_tiled_roundtrip.py): special terrain types with vocabulary and custom
properties, elevation 0..99, transition and indoor layers, borders with terrain,
transition and indoor flags, start zones with custom properties, characters of every
size (footprints from the table and free ones, square or not) with attributes, objects
(lights with a radius) with typed custom properties, and awkward text everywhere."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from sodwa_editor.engine.model import Character, MapModel, MapObject
from sodwa_editor.engine.sizes import SIZES, Footprint, footprint_for
from sodwa_editor.engine.terrain import BORDER_BASES, Base
from sodwa_editor.engine.terrain_properties import (
    HAZARDS,
    PROPERTY_NAMES,
    TRAPS,
    make_custom,
    make_property,
)

#: typed custom values (Tiled's types)
custom_values = st.one_of(
    st.booleans().map(lambda v: make_custom("bool", v)),
    st.integers(-(2**31), 2**31 - 1).map(lambda v: make_custom("int", v)),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda v: make_custom("float", v)),
    st.text(max_size=8).map(lambda v: make_custom("string", v)),
    st.from_regex(r"\A#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?\Z").map(lambda v: make_custom("color", v)),
    st.from_regex(r"\A[a-z][a-z/._]{0,10}\Z").map(lambda v: make_custom("file", v)))
custom_props = st.dictionaries(st.text(min_size=1, max_size=8).filter(
    lambda k: all(ord(c) >= 32 for c in k)), custom_values, max_size=4)
vocab_props = st.lists(st.sampled_from(PROPERTY_NAMES), max_size=4, unique=True).flatmap(
    lambda names: st.tuples(*[st.just(n) for n in names],
                            st.sampled_from(list(HAZARDS)), st.sampled_from(list(TRAPS)),
                            st.integers(0, 100)).map(
        lambda t: {n: make_property(n, {"hazard": t[-3], "dc": t[-1]} if n == "hazardous"
                                    else {"trap": t[-2]} if n == "trapped"
                                    else {"dc": t[-1]} if n == "precarious" else {})
                   for n in t[:-3]}))
#: a creature's size and the footprint the map gives it (issue 26): Medium most often,
#: Large 2x2 and Huge 4x4 by the table, and free footprints, square or not (4x8-like)
sizes = st.tuples(st.sampled_from([s.name for s in SIZES] + ["medium", "large", "huge"]),
                  st.none() | st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)).map(
                      lambda t: Footprint(*t)))
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
        m.registry.register(name, draw(st.sampled_from(list(Base))), draw(vocab_props),
                            custom=draw(custom_props))
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
        if draw(st.booleans()):
            m.zone_custom[team] = draw(custom_props)
    for ident in draw(st.lists(idents, max_size=4, unique=True)):
        size, dims = draw(sizes)
        fp = footprint_for(size, dimensions=dims)
        # where the footprint fits when it does (else anywhere: a rule error, kept)
        cols, rows = fp.anchor_grid(w, h)
        x, y = ((int(rng.integers(cols)), int(rng.integers(rows))) if cols and rows
                else tiles[int(rng.integers(len(tiles)))])
        m.characters[ident] = Character(
            ident, draw(idents), x, y, move=draw(st.integers(-999, 999)),
            range=draw(st.integers(-999, 999)), flight=draw(st.booleans()),
            name=draw(texts), attributes=draw(st.dictionaries(
                st.text(max_size=8), st.integers(-999_999, 999_999), max_size=3)),
            custom=draw(custom_props), size=size, footprint=dims)
    for ident in draw(st.lists(idents, max_size=3, unique=True)):
        x, y = tiles[int(rng.integers(len(tiles)))]
        m.objects[ident] = MapObject(ident, draw(st.sampled_from(["light"]) | idents), x, y,
                                     draw(st.booleans()), draw(custom_props),
                                     draw(st.integers(0, 8)))
    m.notify_bulk_change()
    return m
