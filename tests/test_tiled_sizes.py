"""Creatures of every size in a Tiled map (issue 26 x issue 29): a larger creature is
a rectangle over its footprint or a point on its top-left tile, its ``size`` and
``footprint`` typed properties; a bad size, footprint or shape in a hand-made map is
one problem naming the Tiled object, never a creature silently shrunk or moved."""

from __future__ import annotations

import pytest
from test_tiled_import import T, good_layers, obj, props, tiled_doc, write

from sodwa_editor.engine.sizes import Footprint
from sodwa_editor.io import dumps_map
from sodwa_editor.io.tiled_export import write_tiled
from sodwa_editor.io.tiled_import import import_tiled


def with_characters(*objects):
    layers = good_layers()
    layers[6]["objects"] = list(objects)  # the characters layer
    return tiled_doc(layers)


def test_hand_made_sized_creatures_are_read(tmp_path):
    doc = with_characters(
        # a Large rectangle over (0, 2)-(1, 3)
        obj(20, "ogre", "character", x=0, y=2 * T, width=2 * T, height=2 * T,
            properties=props(team="red", size="large")),
        # a point on the top-left tile of a 1x2 footprint at (2, 2)
        obj(21, "worm", point=True, x=2.5 * T, y=2.5 * T,
            properties=props(team="blue", size="small", footprint="1x2")),
        # a footprint without a size: a Medium creature of 2x1 tiles at (3, 3)
        obj(22, "cart", x=3 * T, y=3 * T, width=2 * T, height=T,
            properties=props(team="blue", footprint="2X1")),
        # a one-tile rectangle, not on the grid: the tile of its centre, as before
        obj(23, "imp", x=4 * T + 2, y=2 * T + 3, width=T - 4, height=T - 4,
            properties=props(team="red", size="tiny")))
    result = import_tiled(write(tmp_path, doc))
    m = result.model
    assert m is not None and not [p for p in result.problems if p.is_error], [
        str(p) for p in result.problems]
    got = {c.id: (c.x, c.y, c.size, c.footprint) for c in m.characters.values()}
    assert got == {"ogre": (0, 2, "large", None), "worm": (2, 2, "small", Footprint(1, 2)),
                   "cart": (3, 3, "medium", Footprint(2, 1)), "imp": (4, 2, "tiny", None)}


BAD = [
    (props(team="red", size="enormous"), {"point": True},
     "property 'size' is 'enormous', not a size: one of mini, tiny, small, medium, large, "
     "huge, massive, gigantic"),
    (props(team="red", size=4), {"point": True}, "property 'size' must be of type string, "
                                                 "not int"),
    (props(team="red", footprint="2 by 2"), {"point": True},
     "property 'footprint': a footprint is WIDTHxHEIGHT in tiles, like 2x2 or 4x8, not "
     "'2 by 2'"),
    (props(team="red", footprint="0x3"), {"point": True},
     "property 'footprint': a footprint is at least 1x1, not '0x3'"),
    (props(team="red", footprint="300x1"), {"point": True},
     "property 'footprint' is '300x1': a side is at most 256 tiles"),
    (props(team="red", size="large"), {"width": 3 * T, "height": 2 * T},
     "its shape covers 3x2 tiles but a large creature covers 2x2: draw it along the grid "
     "over 2x2 tiles, or as a point on its top-left tile"),
    (props(team="red"), {"width": 2 * T, "height": 2 * T},
     "its shape covers 2x2 tiles but a character with no size or footprint covers 1x1: "
     "draw it along the grid over 1x1 tiles, or as a point on its top-left tile, and give "
     "it a 'size' property ('large') or a 'footprint' property ('2x2')"),
    (props(team="red"), {"width": 4 * T, "height": 2 * T}, "and give it a 'footprint' "
                                                          "property ('4x2')"),
    (props(team="red"), {"width": 1.5 * T, "height": 2 * T}, "and give it a 'size' or "
                                                            "'footprint' property"),
    (props(team="red", size="huge", footprint="4x2"), {"width": 4 * T, "height": 4 * T},
     "its shape covers 4x4 tiles but a huge creature covers 4x2"),
    (props(team="red", size="large"), {"polyline": [{"x": 0, "y": 0}, {"x": T, "y": 0}]},
     "a polyline cannot be a character"),
]


@pytest.mark.parametrize(("properties", "shape", "text"), BAD, ids=[b[2][:40] for b in BAD])
def test_a_bad_size_footprint_or_shape_is_one_problem_naming_the_object(
        tmp_path, properties, shape, text):
    doc = with_characters(
        obj(10, "archer", point=True, x=24, y=56, properties=props(team="red")),
        obj(31, "brute", "character", x=0, y=2 * T, properties=properties, **shape))
    result = import_tiled(write(tmp_path, doc))
    assert result.model is None
    [p] = [p for p in result.problems if p.is_error]
    assert (p.code, p.path) == ("tiled", "/layers/6/objects/1")
    assert p.message.startswith("object 31 'brute' in layer 'characters': ") and (
        text in p.message), p.message


def test_a_creature_that_cannot_stand_opens_with_its_rule_error_at_the_object(tmp_path):
    """A footprint over a wall or off the map is a rule error of the map (code
    ``footprint``), as in a map file: the map opens to be fixed, the problem at the
    Tiled object."""
    doc = with_characters(
        obj(40, "ogre", x=0, y=0, width=2 * T, height=2 * T,  # (1, 1) is a wall
            properties=props(team="red", size="large")),
        obj(41, "giant", point=True, x=3.5 * T, y=2.5 * T,  # 4x4 from (3, 2): off the map
            properties=props(team="blue", size="huge")))
    result = import_tiled(write(tmp_path, doc))
    assert result.model is not None
    errors = {p.path: p for p in result.problems if p.is_error}
    assert set(errors) == {"/layers/6/objects/0", "/layers/6/objects/1"}
    wall, off = errors["/layers/6/objects/0"], errors["/layers/6/objects/1"]
    assert (wall.code, wall.tile) == ("footprint", (1, 1))
    assert "obstructing tile (1, 1) is under the footprint" in wall.message.lower()
    assert wall.message.endswith("(Tiled object 40 'ogre' in layer 'characters')")
    assert off.code == "footprint" and "does not fit on the 5x4 map" in off.message
    assert off.message.endswith("(Tiled object 41 'giant' in layer 'characters')")


def test_exported_sized_creatures_read_back_after_a_hand_edit(tmp_path):
    """A designer moves a Huge creature's rectangle in Tiled (snapped to the grid) and
    turns a Large one into a point: both are read where they now stand."""
    from sodwa_editor.engine.model import Character, MapModel

    model = MapModel(10, 8, name="edit")
    model.characters["giant"] = Character("giant", "red", 0, 0, size="huge")
    model.characters["ogre"] = Character("ogre", "blue", 7, 5, size="large")
    path = write_tiled(model, tmp_path / "edit.tmj")[0]
    import json

    doc = json.loads(path.read_text(encoding="utf-8"))
    [layer] = [ly for ly in doc["layers"] if ly["name"] == "characters"]
    objs = {o["name"]: o for o in layer["objects"]}
    objs["giant"]["x"] += 3 * 32
    objs["giant"]["y"] += 2 * 32
    ogre = objs["ogre"]
    ogre.update(point=True, x=ogre["x"] + 16, y=ogre["y"] + 16, width=0, height=0)
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = import_tiled(path)
    assert result.model is not None, [str(p) for p in result.problems]
    model.characters["giant"].x, model.characters["giant"].y = 3, 2
    assert dumps_map(result.model) == dumps_map(model)
