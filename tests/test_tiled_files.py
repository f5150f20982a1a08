"""The files ``sodwa export-tiled`` writes, read back with a maintained Tiled reader
(pytiled-parser) and Pillow: the layers, objects and properties a game engine
sees, and the tileset image in the editor's colours (issue 29)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import pytiled_parser as tp
from PIL import Image
from test_io_roundtrip import full_map

from sodwa_editor.engine.model import MAX_ELEVATION, Character, Edge, MapModel
from sodwa_editor.engine.sizes import Footprint
from sodwa_editor.engine.terrain import Base
from sodwa_editor.io import palette
from sodwa_editor.io.tiled_export import write_tiled
from sodwa_editor.io.tiled_tileset import (
    COLUMNS,
    FIRST_LEVEL_ID,
    FIRST_SPECIAL_ID,
    INDOOR_ID,
    OUTDOOR_ID,
    TILE_PX,
    TRANSITION_ID,
    ZONE_ID,
)


@pytest.fixture
def exported(tmp_path):
    model = full_map()
    paths = write_tiled(model, tmp_path / "full.tmj")
    return model, paths, tp.parse_map(paths[0])


def layer(tiled, name):
    [found] = [ly for ly in tiled.layers if ly.name == name]
    return found


def test_pytiled_parser_reads_the_map(exported):
    model, paths, tiled = exported
    assert tiled.map_size == tp.Size(model.width, model.height)
    assert tiled.tile_size == tp.Size(TILE_PX, TILE_PX)
    assert tiled.orientation == "orthogonal" and not tiled.infinite
    assert tiled.properties == {"name": model.name, "description": model.description,
                                "setting": "indoor", "format_version": 2}
    assert [ly.name for ly in tiled.layers] == [
        "terrain", "indoor", "elevation", "transitions", "start_zone:amber",
        "start_zone:blue", "borders", "objects", "characters"]
    assert [ly.id for ly in tiled.layers] == list(range(1, 10))
    assert tiled.next_layer_id == 10
    ids = [o.id for ly in tiled.layers if isinstance(ly, tp.ObjectLayer)
           for o in ly.tiled_objects]
    assert ids == list(range(1, len(ids) + 1)) and tiled.next_object_id == len(ids) + 1


def test_tile_layers_hold_the_tileset_tiles(exported):
    model, paths, tiled = exported
    [(firstgid, tileset)] = tiled.tilesets.items()
    assert firstgid == 1 and tileset.name == "full"
    assert Path(tileset.image).name == "full.png"

    def props_at(name, x, y):
        gid = layer(tiled, name).data[y][x]
        return None if gid == 0 else tileset.tiles[gid - firstgid].properties

    names = [t.name for t in model.registry]
    for y in range(model.height):
        for x in range(model.width):
            p = props_at("terrain", x, y)
            assert p["sodwa_terrain"] == names[model.terrain[y, x]]
            level = int(model.elevation[y, x])
            assert props_at("elevation", x, y) == (
                None if level == 0 else {"sodwa_elevation": level})
            assert (props_at("transitions", x, y) is not None) == bool(model.transition[y, x])
    assert props_at("indoor", 8, 6) == {"sodwa_indoor": False}
    assert props_at("indoor", 0, 5) == {"sodwa_indoor": True}
    zone = layer(tiled, "start_zone:blue").data
    assert {(x, y) for y, row in enumerate(zone) for x, g in enumerate(row) if g} == (
        model.start_zones["blue"])
    icy = tileset.tiles[FIRST_SPECIAL_ID]
    assert icy.class_ == "terrain"
    assert icy.properties == {"sodwa_terrain": "icy", "sodwa_base": "difficult",
                              "custom.a": '[1,{"z":1}]', "custom.ratio": 0.5,
                              "custom.tint": tp.Color(170, 187, 204, 128),
                              "sodwa_properties": '{"precarious":{"dc":20},"dark":{}}'}


def test_objects_carry_every_field_as_a_typed_property(exported):
    model, paths, tiled = exported
    chars = {o.name: o for o in layer(tiled, "characters").tiled_objects}
    a = chars["a-first"]
    assert isinstance(a, tp.tiled_object.Point) and a.class_ == "character"
    assert (a.coordinates.x, a.coordinates.y) == (0.5 * TILE_PX, 6.5 * TILE_PX)
    assert a.properties == {"team": "blue", "move": 5, "range": 5, "flight": True,
                            "name": "Ä 'quoted'", "size": "medium", "attributes.health": 12,
                            "attributes.initiative": 3, "custom.portrait": Path("a.png")}
    banner = {o.name: o for o in layer(tiled, "objects").tiled_objects}["banner"]
    assert banner.class_ == "banner"
    assert banner.properties == {"impedes_los": False, "custom.colour": tp.Color(255, 0, 0, 255),
                                 "custom.size": "[1, 2]"}
    lamp = {o.name: o for o in layer(tiled, "objects").tiled_objects}["lamp"]
    assert lamp.class_ == "light" and lamp.properties == {"impedes_los": True, "radius": 2}
    walls = {}
    for o in layer(tiled, "borders").tiled_objects:
        assert isinstance(o, tp.tiled_object.Polyline)
        (x0, y0), (x1, y1) = [(o.coordinates.x + p.x, o.coordinates.y + p.y) for p in o.points]
        assert x0 == x1 or y0 == y1  # along a grid line
        walls[(x0 / TILE_PX, y0 / TILE_PX, x1 / TILE_PX, y1 / TILE_PX)] = (o.class_,
                                                                          o.properties)
    # the east edge of (3, 4): the line x = 4 from y = 4 to 5; an indoor wall
    assert walls[(4, 4, 4, 5)] == ("obstructing", {"indoor": True, "transition": False})
    assert walls[(4, 5, 4, 6)] == ("obstructing", {"indoor": False, "transition": False})
    assert walls[(6, 3, 7, 3)] == ("", {"transition": True})  # the S edge of (6, 2)
    assert walls[(5, 2, 5, 3)] == ("impeding", {"transition": True})
    assert len(walls) == sum(1 for _ in model.borders()) + 1  # + the bare transition edge


def test_a_large_creature_is_a_rectangle_over_its_footprint(tmp_path):
    """Issue 26 x 29: a creature larger than one tile is a rectangle over its whole
    footprint (x, y: its top-left tile's corner), its size and footprint typed string
    properties; a one-tile creature stays a point, a footprint only when the map gives one."""
    model = MapModel(12, 10, name="sizes")
    model.characters["ogre"] = Character("ogre", "red", 1, 2, size="large")
    model.characters["giant"] = Character("giant", "red", 6, 1, size="huge")
    model.characters["eel"] = Character("eel", "blue", 0, 6, size="massive",
                                        footprint=Footprint(4, 3))
    model.characters["mouse"] = Character("mouse", "blue", 11, 9, size="tiny")
    paths = write_tiled(model, tmp_path / "sizes.tmj")
    tiled = tp.parse_map(paths[0])
    objs = {o.name: o for o in layer(tiled, "characters").tiled_objects}
    for name, (x, y, w, h) in {"ogre": (1, 2, 2, 2), "giant": (6, 1, 4, 4),
                               "eel": (0, 6, 4, 3)}.items():
        o = objs[name]
        assert isinstance(o, tp.tiled_object.Rectangle) and o.class_ == "character"
        assert (o.coordinates.x, o.coordinates.y) == (x * TILE_PX, y * TILE_PX)
        assert (o.size.width, o.size.height) == (w * TILE_PX, h * TILE_PX)
    assert objs["ogre"].properties["size"] == "large"
    assert "footprint" not in objs["ogre"].properties
    assert (objs["eel"].properties["size"], objs["eel"].properties["footprint"]) == (
        "massive", "4x3")
    mouse = objs["mouse"]
    assert isinstance(mouse, tp.tiled_object.Point) and mouse.properties["size"] == "tiny"
    assert (mouse.coordinates.x, mouse.coordinates.y) == (11.5 * TILE_PX, 9.5 * TILE_PX)


def test_a_wall_of_neighbouring_edges_is_one_polyline(tmp_path):
    m = MapModel(6, 4)
    for y in range(3):
        m.set_border(Edge(2, y, "E"), Base.OBSTRUCTING)
    m.set_border(Edge(2, 3, "E"), Base.IMPEDING)
    for x in (0, 1, 3):
        m.set_border(Edge(x, 1, "S"), Base.IMPEDING)
    tiled = tp.parse_map(write_tiled(m, tmp_path / "w.tmj")[0])
    lines = sorted((o.class_, o.coordinates.x, o.coordinates.y, o.points[1].x, o.points[1].y)
                   for o in layer(tiled, "borders").tiled_objects)
    assert lines == [("impeding", 0, 64, 64, 0), ("impeding", 96, 64, 32, 0),
                     ("impeding", 96, 96, 0, 32), ("obstructing", 96, 0, 0, 96)]


def pixel(img: np.ndarray, tile_id: int, x: int = 2, y: int = 1) -> tuple[int, ...]:
    ty, tx = divmod(tile_id, COLUMNS)
    return tuple(int(v) for v in img[ty * TILE_PX + y, tx * TILE_PX + x])


def test_tileset_image_in_the_editor_colours(exported, tmp_path):
    model, paths, tiled = exported
    image = Image.open(paths[2])
    assert image.format == "PNG" and image.mode == "RGBA"
    tileset = next(iter(tiled.tilesets.values()))
    assert image.size == (tileset.image_width, tileset.image_height)
    n_tiles = FIRST_SPECIAL_ID + len(model.registry.special_types())
    assert image.size == (COLUMNS * TILE_PX, -(-n_tiles // COLUMNS) * TILE_PX)
    assert tileset.tile_count == n_tiles
    img = np.asarray(image)
    fills = palette.terrain_fills(model.registry)
    for tid, t in enumerate(model.registry):
        tile = tid if t.builtin else FIRST_SPECIAL_ID + tid - 5
        if t.base is Base.OBSTRUCTING:  # an indoor map: near-black
            assert pixel(img, tile) == (*palette.FILL_INDOOR_OBSTRUCTING, 255)
        else:
            assert pixel(img, tile) == (*fills[tid], 255), t.name
    assert len(set(fills)) == len(fills)  # every terrain type has its own colour
    assert pixel(img, TRANSITION_ID) == palette.TRANSITION_TILE_RGBA
    assert pixel(img, OUTDOOR_ID) == (*palette.FILL[Base.OBSTRUCTING], 255)
    assert pixel(img, INDOOR_ID, 0, 0)[3] == 255 and pixel(img, INDOOR_ID, 0, 0) != pixel(
        img, INDOOR_ID, 2, 1)  # hatched
    assert pixel(img, ZONE_ID, 16, 16)[3] == palette.START_ZONE_ALPHA
    alphas = palette.elevation_alpha(np.arange(MAX_ELEVATION + 1))
    for level in (0, 1, 5, 99):
        assert pixel(img, FIRST_LEVEL_ID + level, 0, 0) == (*palette.ELEVATION_TINT,
                                                            int(alphas[level]))
        ty, tx = divmod(FIRST_LEVEL_ID + level, COLUMNS)
        cell = img[ty * TILE_PX:(ty + 1) * TILE_PX, tx * TILE_PX:(tx + 1) * TILE_PX]
        number = (cell[..., :3] != palette.ELEVATION_TINT).any(axis=2)
        assert number.sum() > 20 and number[:, :6].sum() == 0  # written, centred
    outdoor = MapModel(2, 2)
    write_tiled(outdoor, tmp_path / "o.tmj")
    assert pixel(np.asarray(Image.open(tmp_path / "o.png")), Base.OBSTRUCTING) == (
        *palette.FILL[Base.OBSTRUCTING], 255)


def qt_special_fills(types):
    """The editor's special-type fills as it computed them with QColor before the
    palette moved to io/palette.py (the oracle of the Qt-free conversion)."""
    import hashlib

    from PySide6.QtGui import QColor

    taken, out = [], []
    for name, base in types:
        c = QColor(*palette.FILL[base])
        h, s, v = c.hue(), c.saturation(), c.value()
        hue = (max(h, 0) + 60 + hashlib.sha1(name.encode()).digest()[0]) % 360
        for _ in range(12):
            if not 80 <= hue <= 160 and all(min(abs(hue - t), 360 - abs(hue - t)) >= 30
                                            for t in taken):
                break
            hue = (hue + 37) % 360
        taken.append(hue)
        c.setHsv(hue, max(s, 90), v)
        out.append((c.red(), c.green(), c.blue()))
    return out


def test_palette_is_the_editors_qt_colours():
    from PySide6.QtGui import QColor

    from sodwa_editor.editor import style

    # the editor draws with the palette (one place for every tile colour)
    assert style.FILL is palette.FILL and style.special_fills is palette.special_fills
    assert style.LEVEL_NUMBER.getRgb() == palette.LEVEL_NUMBER_RGBA
    assert style.INDOOR_HATCH.getRgb() == palette.INDOOR_HATCH_RGBA
    assert {b: c.getRgb()[:3] for b, c in style.OUTLINE.items()} == palette.OUTLINE
    # Qt's HSV conversion, for every hue a name can pick on every base
    for rgb in palette.FILL.values():
        q = QColor(*rgb)
        h, s, v = palette._hsv(rgb)
        assert (h, s, v) == (q.hue(), q.saturation(), q.value())
        for hue in range(360):
            q.setHsv(hue, max(s, 90), v)
            assert palette._rgb(hue, max(s, 90), v) == (q.red(), q.green(), q.blue())
    names = [(f"type{i}", Base(i % 5)) for i in range(300)]
    assert palette.special_fills(names) == qt_special_fills(names)


def test_custom_properties_keep_their_tiled_types(tmp_path):
    """Map format 2's typed custom properties are Tiled's own types (float, int,
    bool, string, color, file), written as ``custom.<name>``."""
    from sodwa_editor.engine.model import MapObject
    from sodwa_editor.engine.terrain_properties import make_custom as mc

    m = MapModel(2, 2)
    m.put_object(MapObject("o", "crate", 0, 0, custom={
        "half": mc("float", 0.5), "small": mc("int", -7), "ok": mc("bool", True),
        "art": mc("file", "art/o.png"), "tint": mc("color", "#00ff00"),
        "note": mc("string", "x")}))
    tiled = tp.parse_map(write_tiled(m, tmp_path / "n.tmj")[0])
    [o] = layer(tiled, "objects").tiled_objects
    assert o.properties == {"impedes_los": True, "custom.half": 0.5, "custom.small": -7,
                            "custom.ok": True, "custom.art": Path("art/o.png"),
                            "custom.tint": tp.Color(0, 255, 0, 255), "custom.note": "x"}


def test_png_writer_gives_the_pixels_back_through_pillow():
    import io

    from sodwa_editor.io.png import encode_png

    pixels = np.random.default_rng(7).integers(0, 256, (37, 53, 4), dtype=np.uint8)
    image = Image.open(io.BytesIO(encode_png(pixels)))
    assert (image.format, image.mode, image.size) == ("PNG", "RGBA", (53, 37))
    assert (np.asarray(image) == pixels).all()
    with pytest.raises(ValueError, match="expected an"):
        encode_png(pixels[..., :3])
