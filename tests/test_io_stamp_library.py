"""Stamp library files (issue 29): a stamp (what Copy takes, what stands on its
tiles included) survives library file -> stamp -> file unchanged, for random
regions of random maps (magic-wand masks and outline edges on the map's
boundary included); bad files are refused with one line naming the stamp."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiled_maps import tiled_maps

from sodwa_editor.editor.library_stamps import from_library, to_library
from sodwa_editor.editor.stamp import Stamp
from sodwa_editor.engine.model import Rect
from sodwa_editor.io.stamp_library import (
    dumps_library,
    library_from_doc,
    read_library,
    save_library,
)


def named(stamp: Stamp) -> dict[str, list]:
    """The stamp's layers with terrain ids as type names (ids differ between maps:
    a library stamp declares only the types it uses)."""
    def name(i: int) -> str:
        return stamp.types[i].name

    out = {k: a.tolist() for k, a in stamp.tiles.items() if k != "terrain"}
    out["terrain"] = [[name(v) for v in row] for row in stamp.tiles["terrain"].tolist()]
    for k, a in stamp.edge_layers().items():
        out[k] = a.tolist() if k.startswith("transition") else [
            [v if v < 0 else (name(v // 4), v % 4) for v in row] for row in a.tolist()]
    return out


def same_stamp(a: Stamp, b: Stamp) -> bool:
    masks = (a.mask is None) == (b.mask is None) and (
        a.mask is None or np.array_equal(a.mask, b.mask))
    if a.mask is not None:  # outside the mask the tiles are not part of the stamp
        for s in (a, b):
            for k in s.tiles:
                s.tiles[k] = np.where(s.mask, s.tiles[k], 0)
    return named(a) == named(b) and masks and a.contents == b.contents


@st.composite
def stamps(draw: st.DrawFn) -> Stamp:
    m = draw(tiled_maps(max_side=7))
    x0 = draw(st.integers(0, m.width - 1))
    y0 = draw(st.integers(0, m.height - 1))
    x1 = draw(st.integers(x0, m.width - 1))
    y1 = draw(st.integers(y0, m.height - 1))
    mask = None
    if draw(st.booleans()):
        mask = np.array(draw(st.lists(st.lists(st.booleans(), min_size=x1 - x0 + 1,
                                               max_size=x1 - x0 + 1),
                                      min_size=y1 - y0 + 1, max_size=y1 - y0 + 1)), bool)
        if not mask.any():
            mask[0, 0] = True
    stamp = Stamp.from_region(m, Rect(x0, y0, x1, y1), mask)
    for how in draw(st.lists(st.sampled_from(["cw", "h", "v"]), max_size=2)):
        stamp = stamp.rotated() if how == "cw" else stamp.flipped(how == "h")
    return stamp


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.data_too_large])
@given(stamps())
def test_random_stamps_round_trip_through_a_library_file(tmp_path_factory, stamp):
    path = tmp_path_factory.mktemp("lib") / "s.sodwa-stamps.json"
    save_library([to_library(stamp, "Random")], path)
    back, problems = read_library(path)
    assert problems == [], [str(p) for p in problems]
    assert same_stamp(from_library(back[0]), stamp)
    again = path.with_name("again.sodwa-stamps.json")
    save_library(back, again)
    assert again.read_bytes() == path.read_bytes()


def test_library_text_is_canonical_and_one_entry_per_stamp(tmp_path):
    from sodwa_editor.engine.model import MapModel

    m = MapModel(5, 4)
    m.terrain[1, 1] = 2
    a = to_library(Stamp.from_region(m, Rect(0, 0, 1, 1)), "Corner")
    b = to_library(Stamp.from_region(m, Rect(1, 1, 3, 2)), "Middle")
    text = dumps_library([a, b])
    doc = json.loads(text)
    assert [s["name"] for s in doc["stamps"]] == ["Corner", "Middle"]
    # the corner stamp's outline on the map's boundary: left as they are when placed
    assert doc["stamps"][0]["open_edges"] == [[0, 1, "E"], [0, 2, "E"], [1, 0, "S"],
                                              [2, 0, "S"]]
    assert library_from_doc(doc)[1] == []


def test_bad_libraries_say_what_and_where():
    def first(doc) -> str:
        stamps, problems = library_from_doc(doc, source="lib.json")
        assert stamps is None
        return str(problems[0])

    assert "not a stamp library" in first({"format": "sodwa-map"})
    assert "newer SODWA Editor" in first({"format": "sodwa-stamps", "format_version": 9,
                                          "stamps": []})
    base = {"format": "sodwa-map", "format_version": 2, "name": "s", "width": 3,
            "height": 3, "terrain": ["...", "...", "..."]}
    two = {"format": "sodwa-stamps", "format_version": 1,
           "stamps": [{"name": "a", "map": base}, {"name": "a", "map": base}]}
    assert "stamp 'a': the name is used twice (also /stamps/0)" in first(two)
    mask = {"format": "sodwa-stamps", "format_version": 1,
            "stamps": [{"name": "m", "map": base, "tiles": ["#", "#"]}]}
    assert "stamp 'm': 'tiles' must be 1 row(s) of 1 character(s)" in first(mask)
    broken = {"format": "sodwa-stamps", "format_version": 1,
              "stamps": [{"name": "b", "map": {**base, "terrain": ["..", "...", "..."]}}]}
    message = first(broken)
    assert "lib.json" in message and "/stamps/0/map/terrain/0" in message
