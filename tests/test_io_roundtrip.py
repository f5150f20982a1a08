"""Map files round-trip byte for byte, and the layout keeps diffs line-local."""

from __future__ import annotations

import difflib
import json

import pytest

from sodwa_editor.engine.generate import make_mixed_map, make_open_map
from sodwa_editor.engine.model import Character, Edge, MapModel, MapObject
from sodwa_editor.engine.samples import SAMPLE_MAPS
from sodwa_editor.engine.terrain import MAX_TERRAIN_TYPES, Base
from sodwa_editor.engine.terrain_properties import make_custom
from sodwa_editor.io import (
    dumps_map,
    legend_chars,
    load_map,
    map_to_dict,
    parse_map,
    read_map,
    save_map,
)


def full_map() -> MapModel:
    """Every layer and field the format has, with awkward values."""
    m = MapModel(9, 7, name='Full "map" — ünïcode', setting="indoor")
    m.description = 'Line one\nline "two" \\ tab\t end'
    icy = m.registry.register(
        "icy", Base.DIFFICULT, {"precarious": {"dc": 20}, "dark": {}},
        custom={"a": {"type": "string", "value": '[1,{"z":1}]'},
                "tint": {"type": "color", "value": "#80aabbcc"},
                "ratio": {"type": "float", "value": 0.5}})
    deep = m.registry.register("deep-water", Base.LIQUID, {"deep_water": {}},
                               custom={"swim": {"type": "bool", "value": True}})
    bramble = m.registry.register("bramble", Base.IMPEDING, {
        "hazardous": {"hazard": "thorns"}, "trapped": {"trap": "pit", "dc": 12}, "cover": {}})
    m.registry.register("void_zone", Base.CLEAR, {"full_dark": {}, "exposed": {}}, custom={
        "note": {"type": "string", "value": "never used on a border"},
        "art": {"type": "file", "value": "art/void.png"}, "hp": {"type": "int", "value": -3}})
    m.terrain[0, 0:3] = [icy, deep, bramble]
    m.terrain[6, 8] = Base.OBSTRUCTING
    m.terrain[5, 0] = Base.OBSTRUCTING
    m.elevation[0:3, 5:9] = 12  # two-digit levels
    m.elevation[1, 7] = 99
    m.transition[3, 6] = True
    m.set_transition_edge(Edge(6, 2, "S"), True)
    m.set_border(Edge(3, 4, "E"), Base.OBSTRUCTING, indoor=True)
    m.set_border(Edge(3, 5, "E"), Base.OBSTRUCTING, indoor=False)
    m.set_border(Edge(0, 4, "S"), bramble)
    m.set_border(Edge(1, 4, "S"), deep)
    m.set_border(Edge(4, 2, "E"), Base.IMPEDING)
    m.set_transition_edge(Edge(4, 2, "E"), True)  # impeding + transition on one edge
    m.set_border(Edge(4, 3, "S"), Base.DIFFICULT)
    m.set_tile_indoor(8, 6, False)
    m.set_tile_indoor(0, 5, True)
    m.set_start_zone("blue", [(0, 6), (1, 6), (2, 6)])
    m.set_start_zone("amber", [(8, 0), (7, 0)])
    m.set_zone_custom("amber", {"reinforcements": make_custom("int", 2)})
    m.put_character(Character("z-last", "blue", 2, 6, move=0, range=0, name="Zed"))
    m.put_character(Character("a-first", "blue", 0, 6, flight=True, name="Ä 'quoted'",
                              attributes={"initiative": 3, "health": 12},
                              custom={"portrait": make_custom("file", "a.png")}))
    m.put_character(Character("sky", "amber", 8, 0, move=9, range=2))
    m.put_object(MapObject("crate", "crate", 4, 4))
    m.put_object(MapObject("banner", "banner", 2, 2, impedes_los=False,
                           custom={"colour": make_custom("color", "#ff0000"),
                                   "size": make_custom("string", "[1, 2]")}))
    m.put_object(MapObject("lamp", "light", 1, 1, radius=2))
    return m


def many_types_map() -> MapModel:
    """The most special terrain types a map can hold, all used on tiles."""
    m = MapModel(MAX_TERRAIN_TYPES, 2, name="many types")
    for i in range(MAX_TERRAIN_TYPES - 5):
        m.registry.register(f"t{i}", Base(i % 5))
    m.terrain[0, :] = list(range(MAX_TERRAIN_TYPES))
    return m


MAPS = {
    **SAMPLE_MAPS,
    "one-tile": lambda: MapModel(1, 1, name="one"),
    "open-8": lambda: make_open_map(8),
    "mixed-48": lambda: make_mixed_map(48, seed=5),
    "full": full_map,
    "many-types": many_types_map,
}


@pytest.mark.parametrize("name", sorted(MAPS))
def test_text_round_trip_is_byte_identical(name):
    model = MAPS[name]()
    text = dumps_map(model)
    loaded, problems = parse_map(text)
    assert loaded is not None, problems
    assert loaded.same_content(model)
    assert dumps_map(loaded) == text


@pytest.mark.parametrize("name", sorted(MAPS))
def test_file_round_trip_is_byte_identical(tmp_path, name):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    save_map(MAPS[name](), first)
    save_map(load_map(first, strict=False), second)
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes().endswith(b"}\n")


def test_full_map_is_valid_and_keeps_every_field():
    model = full_map()
    loaded, problems = parse_map(dumps_map(model))
    # only the level-99 tile (7, 1), a step no one can climb, is reported (R3)
    assert [(p.code, p.tile) for p in problems] == [("isolated-region", (7, 1))]
    assert loaded.characters["a-first"].attributes == {"initiative": 3, "health": 12}
    icy = loaded.registry[loaded.registry.id_of("icy")]
    assert icy.custom["a"].value == '[1,{"z":1}]'
    assert icy.properties["precarious"].params["dc"] == 20
    assert loaded.zone_custom == {"amber": {"reinforcements": make_custom("int", 2)}}
    assert loaded.objects["lamp"].radius == 2
    assert loaded.border_is_indoor(Edge(3, 4, "E")) and not loaded.border_is_indoor(
        Edge(3, 5, "E"))
    assert loaded.description == model.description


def test_layout_one_item_per_line():
    text = dumps_map(full_map())
    lines = text.splitlines()
    assert '    {"edge": [3, 4, "E"], "terrain": "obstructing", "indoor": true},' in lines
    assert '    {"edge": [4, 2, "E"], "terrain": "impeding", "transition": true},' in lines
    assert '    {"edge": [6, 2, "S"], "transition": true},' in lines
    assert '    {"tile": [8, 6], "indoor": false}' in lines
    assert '    "blue": [[0, 6], [1, 6], [2, 6]]' in lines
    assert ('    {"id": "a-first", "team": "blue", "x": 0, "y": 6, "move": 5, "range": 5, '
            '"flight": true, "name": "Ä \'quoted\'", "attributes": {"health": 12, '
            '"initiative": 3}, "custom": {"portrait": {"type": "file", "value": "a.png"}}},') \
        in lines
    assert '    "0 0 0 0 0 12 12 99 12",' in lines
    assert all(not ln.endswith(" ") for ln in lines)
    assert all(len(ln) - len(ln.lstrip(" ")) in (0, 2, 4) for ln in lines)


def test_lists_are_sorted_whatever_the_insertion_order():
    a, b = MapModel(6, 6), MapModel(6, 6)
    chars = [Character("b", "t", 1, 1), Character("a", "t", 2, 2), Character("c", "u", 3, 3)]
    for c in chars:
        a.put_character(c)
    for c in reversed(chars):
        b.put_character(Character(c.id, c.team, c.x, c.y))
    a.set_start_zone("u", [(3, 3)])
    a.set_start_zone("t", [(2, 2), (1, 1)])
    b.set_start_zone("t", [(1, 1), (2, 2)])
    b.set_start_zone("u", [(3, 3)])
    for e in (Edge(4, 0, "S"), Edge(0, 1, "E"), Edge(0, 0, "S")):
        a.set_border(e, Base.IMPEDING)
    for e in (Edge(0, 0, "S"), Edge(4, 0, "S"), Edge(0, 1, "E")):
        b.set_border(e, Base.IMPEDING)
    assert dumps_map(a) == dumps_map(b)
    edges = [tuple(b["edge"]) for b in map_to_dict(a)["borders"]]
    assert edges == [(0, 0, "S"), (4, 0, "S"), (0, 1, "E")]


def _diff(a: str, b: str) -> list[str]:
    return [ln for ln in difflib.unified_diff(a.splitlines(), b.splitlines(), n=0, lineterm="")
            if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]


@pytest.mark.parametrize("edit", ["terrain", "elevation", "border", "character"])
def test_one_change_is_a_one_line_diff(edit):
    m = make_mixed_map(32, seed=2)
    before = dumps_map(m)
    if edit == "terrain":
        m.set_terrain(20, 17, int(Base.LIQUID))
    elif edit == "elevation":
        m.set_elevation(20, 17, 3)
    elif edit == "border":
        m.set_border(Edge(20, 17, "S"), int(Base.LIQUID))
    else:
        c = m.characters["red-1"]
        m.put_character(Character(c.id, c.team, c.x, c.y, move=c.move + 1, range=c.range))
    changes = _diff(before, dumps_map(m))
    assert 1 <= len(changes) <= 2, changes  # "-old, +new" or a single "+" for a new border
    assert len({ln[1:].strip().rstrip(",")[:12] for ln in changes}) == 1


def test_elevation_omitted_when_flat_and_empty_lists_kept():
    doc = map_to_dict(MapModel(3, 2))
    assert "elevation" not in doc
    assert doc["borders"] == [] and doc["characters"] == [] and doc["terrain_types"] == []
    assert doc["format"] == "sodwa-map" and doc["format_version"] == 2
    assert doc["generator"].startswith("sodwa-editor ")


def test_legend_characters_are_unique_and_json_safe():
    reg = many_types_map().registry
    chars = legend_chars(reg)
    assert len(chars) == len(set(chars)) == MAX_TERRAIN_TYPES
    assert chars[:5] == [".", "i", "#", "d", "~"]
    assert all(len(c) == 1 and not c.isspace() and c not in '"\\' for c in chars)
    assert all(json.dumps(c, ensure_ascii=False) == f'"{c}"' for c in chars)
    assert legend_chars(full_map().registry)[5:] == ["I", "D", "B", "V"]


def test_minimal_hand_written_map_uses_defaults(tmp_path):
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps({
        "format": "sodwa-map", "format_version": 1, "name": "tiny", "width": 3, "height": 2,
        "terrain": [".#i", "d~."],
    }), encoding="utf-8")
    model, problems = read_map(path)
    assert problems == []
    assert [model.base_at(x, y).label for y in range(2) for x in range(3)] == [
        "clear", "obstructing", "impeding", "difficult", "liquid", "clear"]
    assert model.setting == "outdoor" and not model.elevation.any()


def test_hand_written_legend_is_canonicalised_on_save():
    doc = json.loads(dumps_map(MapModel(2, 1)))
    doc["legend"] = {"o": "clear", "X": "obstructing"}
    doc["terrain"] = ["oX"]
    model, problems = parse_map(json.dumps(doc))
    assert problems == []
    assert map_to_dict(model)["terrain"] == [".#"]
