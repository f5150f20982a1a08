"""Importing hand-made Tiled maps that follow the documented layer names and
properties (docs/map-format.md, *Tiled*): every Tiled feature that maps to SODWA
is read, and whatever cannot be mapped is listed as a problem naming the Tiled
layer or object and its JSON pointer, never dropped silently (issue 29)."""

from __future__ import annotations

import base64
import gzip
import json
import zlib
from pathlib import Path

import pytest

from sodwa_editor.engine.model import INDOOR_YES, Edge
from sodwa_editor.engine.terrain import Base
from sodwa_editor.engine.terrain_properties import make_custom
from sodwa_editor.io.tiled_import import import_tiled

T = 16  # the hand-made maps use 16 px tiles (the exporter 32)
W, H = 5, 4
FLIP_H, FLIP_D = 0x80000000, 0x20000000


def props(**values):
    kinds = {bool: "bool", int: "int", float: "float", str: "string"}
    return [{"name": k.replace("__", "."), "type": kinds[type(v)], "value": v}
            for k, v in values.items()]


#: tiles of the hand-made tileset (local id -> properties)
HAND_TILES = {
    0: props(sodwa_terrain="clear"), 1: props(sodwa_terrain="impeding"),
    2: props(sodwa_terrain="obstructing"),
    3: props(sodwa_terrain="icy", sodwa_base="difficult", properties__reflex_save=10),
    4: props(note="stairs"), 5: props(sodwa_elevation=1), 6: props(sodwa_elevation=2),
    7: [], 8: props(sodwa_indoor=True),
}


def tileset_doc(tiles=HAND_TILES, name="hand"):
    return {"columns": 4, "image": "hand.png", "imagewidth": 64, "imageheight": 64,
            "margin": 0, "spacing": 0, "name": name, "tilecount": 16, "tilewidth": T,
            "tileheight": T, "type": "tileset", "version": "1.10", "tiledversion": "1.10.2",
            "tiles": [{"id": i, "properties": p} for i, p in tiles.items() if p]}


def tile_layer(lid, name, data):
    return {"id": lid, "name": name, "type": "tilelayer", "width": W, "height": H,
            "x": 0, "y": 0, "opacity": 1, "visible": True, "data": data}


def object_layer(lid, name, objects):
    return {"id": lid, "name": name, "type": "objectgroup", "draworder": "topdown",
            "x": 0, "y": 0, "opacity": 1, "visible": True, "objects": objects}


def obj(oid, name="", kind="", **fields):
    base = {"id": oid, "name": name, "type": kind, "x": 0, "y": 0, "width": 0,
            "height": 0, "rotation": 0, "visible": True}
    return {**base, **fields}


def tiled_doc(layers, tilesets=None, properties=None, **extra):
    return {"type": "map", "version": "1.10", "tiledversion": "1.10.2",
            "orientation": "orthogonal", "renderorder": "right-down", "infinite": False,
            "width": W, "height": H, "tilewidth": T, "tileheight": T,
            "nextlayerid": 20, "nextobjectid": 50, "layers": layers,
            "tilesets": tilesets if tilesets is not None else [
                {"firstgid": 1, **tileset_doc()}],
            "properties": properties if properties is not None else props(name="Hand made"),
            **extra}


def write(tmp_path: Path, doc, name="hand.tmj") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def grid(rows):
    return [v for row in rows for v in row]


TERRAIN = grid([[1, 1, 2, 1, 1],
                [1, 3 | FLIP_H, 1, 4, 1],  # a flipped wall is a wall
                [1, 1, 1, 4 | FLIP_D, 1],
                [0, 1, 1, 1, 1]])  # an empty cell is Clear


def good_layers():
    return [
        tile_layer(1, "terrain", TERRAIN),
        tile_layer(2, "elevation", grid([[0, 0, 0, 6, 6], [0, 0, 0, 6, 6], [0] * 5, [0] * 5])),
        tile_layer(3, "transitions", grid([[0] * 5, [0] * 5, [0, 0, 0, 5, 0], [0] * 5])),
        tile_layer(4, "indoor", grid([[0] * 5, [0, 9, 0, 0, 0], [0] * 5, [0] * 5])),
        tile_layer(5, "start_zone:red", grid([[0] * 5, [0] * 5, [0] * 5, [8, 8, 0, 0, 0]])),
        object_layer(6, "borders", [
            # the line x = 4 from row 0 to row 2: three edges, Indoor Obstructing walls
            obj(1, kind="obstructing", x=4 * T, y=0,
                polyline=[{"x": 0, "y": 0}, {"x": 0, "y": 3 * T}],
                properties=props(indoor=True)),
            # a room of one tile around (1, 2): its four sides, Impeding
            obj(2, kind="impeding", x=1 * T, y=2 * T, width=T, height=T),
            # a transition edge with no border terrain (between (3, 2) and (3, 1))
            obj(3, x=3 * T, y=2 * T, polyline=[{"x": 0, "y": 0}, {"x": T, "y": 0}],
                properties=props(transition=True)),
        ]),
        object_layer(7, "characters", [
            obj(10, "archer", point=True, x=24, y=56,
                properties=props(team="red", move=6, flight=False, attributes__health=9)),
        ]),
        object_layer(8, "objects", [
            {**obj(11, "crate", x=2 * T, y=3 * T, width=T, height=T), "class": "crate",
             "type": None},  # Tiled 1.9 wrote the class as "class"
            obj(12, "barrel", "barrel", gid=2, x=4 * T, y=4 * T, width=T, height=T,
                properties=props(impedes_los=False, properties__hp=3,
                                 properties_json__tags='["wood", 2]')),
        ]),
    ]


def test_hand_made_map_is_read(tmp_path):
    result = import_tiled(write(tmp_path, tiled_doc(good_layers())))
    m = result.model
    assert m is not None, [str(p) for p in result.problems]
    assert not [p for p in result.problems if p.code.startswith("tiled")]
    assert m.name == "Hand made" and (m.width, m.height) == (W, H)
    icy = m.registry.id_of("icy")
    assert m.registry[icy].base is Base.DIFFICULT
    # a format-1 export's free property becomes a typed custom property
    assert dict(m.registry[icy].custom) == {"reflex_save": make_custom("int", 10)}
    assert m.terrain.tolist() == [[0, 0, 1, 0, 0], [0, 2, 0, icy, 0], [0, 0, 0, icy, 0],
                                  [0, 0, 0, 0, 0]]
    assert m.elevation[0:2, 3:5].tolist() == [[1, 1], [1, 1]] and m.elevation.sum() == 4
    assert m.transition.nonzero() == ([2], [3])
    assert m.tile_indoor[1, 1] == INDOOR_YES
    assert m.start_zones == {"red": {(0, 3), (1, 3)}}
    walls = [Edge(3, y, "E") for y in range(3)]
    assert [m.border_at(e) for e in walls] == [Base.OBSTRUCTING] * 3
    assert all(m.border_is_indoor(e) for e in walls)
    room = [Edge(1, 1, "S"), Edge(1, 2, "E"), Edge(1, 2, "S"), Edge(0, 2, "E")]
    assert [m.border_at(e) for e in room] == [Base.IMPEDING] * 4
    assert m.is_transition_edge(Edge(3, 1, "S")) and not m.border_at(Edge(3, 1, "S"))
    archer = m.characters["archer"]
    assert (archer.team, archer.x, archer.y, archer.move, archer.range) == ("red", 1, 3, 6, 5)
    assert archer.attributes == {"health": 9}
    assert (m.objects["crate"].kind, m.objects["crate"].x, m.objects["crate"].y) == (
        "crate", 2, 3)
    barrel = m.objects["barrel"]  # a tile object: (x, y) is its bottom-left corner
    assert (barrel.x, barrel.y, barrel.impedes_los) == (4, 3, False)
    assert barrel.custom == {"hp": make_custom("int", 3),
                             "tags": make_custom("string", '["wood",2]')}


@pytest.mark.parametrize("compression", ["", "zlib", "gzip"])
def test_base64_tile_data(tmp_path, compression):
    raw = b"".join(v.to_bytes(4, "little") for v in TERRAIN)
    packed = {"": raw, "zlib": zlib.compress(raw), "gzip": gzip.compress(raw)}[compression]
    layers = good_layers()
    layers[0] = {**layers[0], "encoding": "base64", "compression": compression,
                 "data": base64.b64encode(packed).decode()}
    plain = import_tiled(write(tmp_path, tiled_doc(good_layers()), "a.tmj")).model
    packed_model = import_tiled(write(tmp_path, tiled_doc(layers), "b.tmj")).model
    assert packed_model is not None and plain is not None
    assert packed_model.same_content(plain)


def test_zstd_data_is_a_problem(tmp_path):
    layers = good_layers()
    layers[0] = {**layers[0], "encoding": "base64", "compression": "zstd", "data": "AAAA"}
    result = import_tiled(write(tmp_path, tiled_doc(layers)))
    assert result.model is None
    [p] = result.problems
    assert (p.code, p.path) == ("tiled", "/layers/0/compression")
    assert "layer 'terrain' (id 1): zstd compression is not supported" in p.message


def test_external_json_and_tsx_tilesets(tmp_path):
    (tmp_path / "hand.tsj").write_text(json.dumps(tileset_doc()), encoding="utf-8")
    tiles = "".join(
        f'<tile id="{i}"><properties>' + "".join(
            f'<property name="{p["name"]}"'
            + ("" if p["type"] == "string" else f' type="{p["type"]}"')
            + f' value="{str(p["value"]).lower() if p["type"] == "bool" else p["value"]}"/>'
            for p in ps) + "</properties></tile>"
        for i, ps in HAND_TILES.items() if ps)
    (tmp_path / "hand.tsx").write_text(
        f'<?xml version="1.0" encoding="UTF-8"?><tileset version="1.10" name="hand" '
        f'tilewidth="16" tileheight="16" tilecount="16" columns="4">{tiles}</tileset>',
        encoding="utf-8")
    models = []
    for source in ("hand.tsj", "hand.tsx"):
        doc = tiled_doc(good_layers(), tilesets=[{"firstgid": 1, "source": source}])
        result = import_tiled(write(tmp_path, doc, f"via-{source}.tmj"))
        assert result.model is not None, [str(p) for p in result.problems]
        assert tmp_path / source in result.inputs
        models.append(result.model)
    embedded = import_tiled(write(tmp_path, tiled_doc(good_layers()))).model
    assert models[0].same_content(embedded) and models[1].same_content(embedded)
    missing = import_tiled(write(tmp_path, tiled_doc(
        good_layers(), tilesets=[{"firstgid": 1, "source": "gone.tsj"}]), "m.tmj"))
    assert missing.model is None
    assert "tileset 'gone.tsj': file not found" in missing.problems[0].message
    assert missing.problems[0].path == "/tilesets/0/source"


def messages(result):
    return [(p.severity, p.code, p.path, p.message) for p in result.problems]


def test_unmappable_content_is_listed_never_dropped(tmp_path):
    layers = good_layers()
    layers[0]["data"] = list(TERRAIN)
    layers[0]["data"][4] = 8  # tile 7: no sodwa_terrain
    layers[0]["data"][9] = 99  # a gid of no tileset
    layers[0] = {"id": 30, "name": "group", "type": "group", "layers": [layers[0]]}
    layers.append({"id": 9, "name": "background", "type": "imagelayer", "image": "bg.png"})
    layers.append(tile_layer(10, "decor", [0] * (W * H)))
    layers[6]["objects"] += [  # characters
        obj(13, "ghost", point=True, x=8, y=8, properties=props(team="red", hp=4)),
        obj(14, "sign", text={"text": "hello"}, x=8, y=8),
        obj(15, "", point=True, x=8, y=8, properties=props(team="red")),
        obj(16, "knight", point=True, x=40, y=8, properties=props(move="five", team="red")),
    ]
    layers[7]["objects"].append(obj(17, "thing", point=True, x=8, y=8))  # objects: no class
    layers[5]["objects"] += [  # borders
        obj(18, kind="impeding", x=0, y=0, polyline=[{"x": 0, "y": 0}, {"x": T, "y": T}]),
        obj(19, kind="impeding", point=True, x=T, y=T),
        obj(20, kind="impeding", x=5, y=T, polyline=[{"x": 0, "y": 0}, {"x": T, "y": 0}]),
        {"id": 21, "template": "wall.tj", "x": 0, "y": 0},
        obj(22, kind="liquid", x=4 * T, y=T, polyline=[{"x": 0, "y": 0}, {"x": 0, "y": T}]),
    ]
    doc = tiled_doc(layers, properties=props(name="Hand made", author="me"))
    result = import_tiled(write(tmp_path, doc))
    assert result.model is None
    found = messages(result)
    expected = [
        ("warning", "tiled-ignored", "/properties",
         "map properties: property 'author' is not a SODWA field and is ignored"),
        ("warning", "tiled-ignored", "/layers/8",
         "layer 'background' (id 9): an image layer SODWA has no use for; ignored"),
        ("warning", "tiled-ignored", "/layers/9", "layer 'decor' (id 10): a tile layer SODWA"),
        ("error", "tiled", "/layers/0/layers/0/data",
         "layer 'terrain' (id 1): tile 7 of tileset 'hand' (gid 8) at tile (4, 0) has no "
         "sodwa_terrain property"),
        ("error", "tiled", "/layers/0/layers/0/data",
         "layer 'terrain' (id 1): gid 99 at tile (4, 1) belongs to no tileset"),
        ("error", "tiled", "/layers/5/objects/3",
         "object 18 in layer 'borders': its line from grid corner (0, 0) to (1, 1) is not "
         "along a grid line"),
        ("error", "tiled", "/layers/5/objects/4",
         "object 19 in layer 'borders': a point cannot be a border"),
        ("error", "tiled", "/layers/5/objects/5",
         "object 20 in layer 'borders': its point at pixel (5, 16) is not on a corner of the "
         "grid (16x16 px tiles)"),
        ("error", "tiled", "/layers/5/objects/6",
         "object 21 in layer 'borders': a template instance (detach it in Tiled) cannot be"),
        ("error", "tiled", "/layers/5/objects/7",
         "object 22 in layer 'borders': edge (3, 1, E) is also drawn by object 1 in layer "
         "'borders'"),
        ("error", "tiled", "/layers/7/objects/2",
         "object 17 'thing' in layer 'objects': has no class: an object's class is its kind"),
        ("warning", "tiled-ignored", "/layers/6/objects/1",
         "object 13 'ghost' in layer 'characters': property 'hp' is not a SODWA field"),
        ("error", "tiled", "/layers/6/objects/2",
         "object 14 'sign' in layer 'characters': a text object cannot be a character"),
        ("error", "tiled", "/layers/6/objects/3",
         "object 15 in layer 'characters': has no name: in Tiled, a character's name is its "
         "SODWA id"),
        ("error", "tiled", "/layers/6/objects/4",
         "object 16 'knight' in layer 'characters': property 'move' must be of type int, "
         "not string"),
    ]
    for severity, code, path, text in expected:
        assert any(f[:3] == (severity, code, path) and text in f[3] for f in found), (
            text, found)
    assert len(found) == len(expected), found
    assert all(p.source == str(tmp_path / "hand.tmj") for p in result.problems)


def test_rule_and_schema_problems_point_at_the_tiled_object(tmp_path):
    layers = good_layers()
    layers[6]["objects"] = [  # characters: one on the wall at (1, 1), one with Move 5000
        obj(10, "archer", point=True, x=T + 3, y=T + 3, properties=props(team="red")),
        obj(11, "giant", point=True, x=8, y=40, properties=props(team="red", move=5000)),
    ]
    result = import_tiled(write(tmp_path, tiled_doc(layers)))
    assert result.model is None  # (a schema error stops the load, as in a map file)
    [p] = [p for p in result.problems if p.is_error]
    assert (p.code, p.path) == ("schema", "/layers/6/objects/1")
    assert p.message.endswith("(Tiled object 11 'giant' in layer 'characters')")
    assert "5000" in p.message
    layers[6]["objects"].pop()
    result = import_tiled(write(tmp_path, tiled_doc(layers)))
    assert result.model is not None  # a rule error: the map opens to be fixed
    [p] = [p for p in result.problems if p.is_error]
    assert (p.code, p.path, p.tile) == ("character-on-obstructing", "/layers/6/objects/0",
                                        (1, 1))
    assert "(Tiled object 10 'archer' in layer 'characters')" in p.message


def test_bad_special_type_points_at_its_tile(tmp_path):
    tiles = {**HAND_TILES, 3: props(sodwa_terrain="Icy!", sodwa_base="difficult")}
    doc = tiled_doc(good_layers(), tilesets=[{"firstgid": 1, **tileset_doc(tiles)}])
    result = import_tiled(write(tmp_path, doc))
    assert result.model is None
    p = next(p for p in result.problems if p.code == "schema")
    assert p.path == "/tilesets/0/tiles/3"
    assert "(Tiled tile 3 of tileset 'hand')" in p.message
    tiles = {**HAND_TILES, 7: props(sodwa_terrain="icy", sodwa_base="liquid")}
    doc = tiled_doc(good_layers(), tilesets=[{"firstgid": 1, **tileset_doc(tiles)}])
    [p] = import_tiled(write(tmp_path, doc)).problems
    assert p.path == "/tilesets/0/tiles/7" and "declares terrain type 'icy' differently" in (
        p.message)


@pytest.mark.parametrize("change, path, text", [
    ({"orientation": "isometric"}, "/orientation", "SODWA maps are orthogonal"),
    ({"infinite": True}, "/infinite", "SODWA maps are finite"),
    ({"width": 300}, "/width", "map width 300 is outside 1..256"),
    ({"type": "tileset"}, "/type", "this file is a Tiled tileset, not a Tiled map"),
    ({"format": "sodwa-map"}, "/format", "this is a SODWA map, not a Tiled map"),
])
def test_maps_sodwa_cannot_be(tmp_path, change, path, text):
    result = import_tiled(write(tmp_path, {**tiled_doc(good_layers()), **change}))
    assert result.model is None
    assert any(p.path == path and text in p.message for p in result.problems), messages(
        result)


def test_broken_files(tmp_path):
    (tmp_path / "bad.tmj").write_text("{", encoding="utf-8")
    [p] = import_tiled(tmp_path / "bad.tmj").problems
    assert p.code == "json" and "line 1, column 2" in p.message
    [p] = import_tiled(tmp_path / "missing.tmj").problems
    assert p.code == "file"


def test_layers_in_the_wrong_form_and_empty_zones(tmp_path):
    layers = good_layers()
    layers.append(object_layer(11, "elevation", []))
    layers.append(tile_layer(12, "start_zone:blue", [0] * (W * H)))
    layers.append(tile_layer(13, "start_zone:red", [8] * (W * H)))
    result = import_tiled(write(tmp_path, tiled_doc(layers)))
    found = messages(result)
    assert ("error", "tiled", "/layers/8",
            "layer 'elevation' (id 11): must be a tile layer, not 'objectgroup'") in found
    assert ("error", "tiled", "/layers/10", "layer 'start_zone:red' (id 13): a second layer "
            "named 'start_zone:red' (the first is layer 'start_zone:red' (id 5))") in found
    assert ("warning", "tiled-ignored", "/layers/9", "layer 'start_zone:blue' (id 12): has no "
            "tiles, so team 'blue' gets no start zone") in found


def test_newer_format_version_is_refused_at_the_map_properties(tmp_path):
    doc = tiled_doc(good_layers(), properties=props(name="x", format_version=99))
    result = import_tiled(write(tmp_path, doc))
    [p] = result.problems
    assert (p.code, p.path) == ("format-version", "/properties")
    assert "written by a newer SODWA Editor" in p.message


def test_control_characters_as_tiled_writes_them(tmp_path):
    """Tiled 1.8.2 writes U+0001..U+001F inside JSON strings unescaped (invalid JSON);
    its files are read all the same, and the character kept."""
    doc = tiled_doc(good_layers(), properties=props(name="x", description="a\x01b"))
    text = json.dumps(doc).replace("\\u0001", "\x01")
    (tmp_path / "raw.tmj").write_text(text, encoding="utf-8")
    result = import_tiled(tmp_path / "raw.tmj")
    assert result.model is not None and result.model.description == "a\x01b"


def test_an_unreadable_tileset_stops_the_import_even_when_unused(tmp_path):
    tilesets = [{"firstgid": 1, **tileset_doc()}, {"firstgid": 100, "source": "gone.tsx"}]
    result = import_tiled(write(tmp_path, tiled_doc(good_layers(), tilesets=tilesets)))
    assert result.model is None
    [p] = [p for p in result.problems if p.is_error]
    assert p.path == "/tilesets/1/source" and "tileset 'gone.tsx': file not found" in p.message
