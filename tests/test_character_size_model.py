"""A character's size and footprint in the map model and the map file (issue 26 section 2):
the effective footprint from the size table or free dimensions at a grid scale, the tiles
it covers for the model's queries, and the optional ``size`` / ``footprint`` keys, written
only when not the default and read back unchanged."""

from __future__ import annotations

import json

import pytest

from sodwa_editor.engine.footprint import Footprint
from sodwa_editor.engine.model import Character, MapModel, Rect
from sodwa_editor.io import dumps_map, map_to_dict, parse_map


def test_effective_footprint_from_size_table_free_dimensions_and_grid_scale():
    assert Character("a", "red", 0, 0).footprint_at() == Footprint(1, 1)
    assert Character("a", "red", 0, 0, size="large").footprint_at() == Footprint(2, 2)
    assert Character("a", "red", 0, 0, size="huge").footprint_at() == Footprint(4, 4)
    assert Character("a", "red", 0, 0, size="tiny").footprint_at() == Footprint(1, 1)
    eel = Character("a", "red", 0, 0, size="massive", footprint=Footprint(4, 8))
    assert eel.footprint_at() == Footprint(4, 8)
    assert eel.footprint_at(grid_scale_m=2) == Footprint(2, 4)
    assert Character("a", "red", 0, 0, size="huge").footprint_at(grid_scale_m=10) == (1, 1)
    with pytest.raises(ValueError, match="unknown size 'enormous'"):
        Character("a", "red", 0, 0, size="enormous").footprint_at()


def test_the_models_queries_see_every_square_of_a_footprint():
    m = MapModel(8, 8)
    m.put_character(Character("wyrm", "red", 2, 3, size="large"))
    m.put_character(Character("imp", "blue", 6, 6))
    for t in [(2, 3), (3, 3), (2, 4), (3, 4)]:
        assert m.character_at(*t).id == "wyrm"
    assert m.character_at(4, 4) is None
    assert m.character_at(6, 6).id == "imp"
    occ = m.occupancy()
    assert occ.sum() == 5 and occ[4, 3] and occ[6, 6]


def test_putting_and_removing_a_large_character_reports_its_whole_rectangle():
    m = MapModel(8, 8)
    changes = []
    m.add_listener(changes.append)
    m.put_character(Character("wyrm", "red", 5, 5, size="huge"))  # clipped at the map edge
    m.put_character(Character("wyrm", "red", 1, 1, size="huge"))
    m.remove_character("wyrm")
    assert [c.rect for c in changes] == [Rect(5, 5, 7, 7), Rect(1, 1, 7, 7), Rect(1, 1, 4, 4)]


def test_size_and_footprint_are_written_only_when_not_default_and_read_back():
    m = MapModel(12, 12)
    m.put_character(Character("grunt", "blue", 0, 0))
    m.put_character(Character("ogre", "red", 2, 2, size="large"))
    m.put_character(Character("eel", "red", 4, 2, size="massive", footprint=Footprint(4, 8)))
    doc = map_to_dict(m)
    by_id = {c["id"]: c for c in doc["characters"]}
    assert "size" not in by_id["grunt"] and "footprint" not in by_id["grunt"]
    assert by_id["ogre"]["size"] == "large" and "footprint" not in by_id["ogre"]
    assert by_id["eel"]["size"] == "massive" and by_id["eel"]["footprint"] == [4, 8]
    text = dumps_map(m)
    assert '"size": "massive", "footprint": [4, 8]}' in text
    back, problems = parse_map(text)
    assert back is not None and not [p for p in problems if p.severity == "error"]
    assert back.same_content(m)
    assert back.characters["eel"].footprint == Footprint(4, 8)
    assert isinstance(back.characters["eel"].footprint, Footprint)
    assert dumps_map(back) == text


def test_a_map_without_sizes_keeps_its_bytes():
    m = MapModel(4, 4)
    m.put_character(Character("grunt", "blue", 1, 1))
    text = dumps_map(m)
    assert "size" not in text and "footprint" not in text


@pytest.mark.parametrize(("patch", "message"), [
    ({"size": "enormous"}, "/characters/0/size"),
    ({"footprint": [0, 2]}, "/characters/0/footprint/0"),
    ({"footprint": [2]}, "/characters/0/footprint"),
    ({"footprint": [2, 2, 2]}, "/characters/0/footprint"),
    ({"footprint": "2x2"}, "/characters/0/footprint"),
])
def test_a_bad_size_or_footprint_is_a_schema_error_naming_the_key(patch, message):
    m = MapModel(4, 4)
    m.put_character(Character("grunt", "blue", 1, 1))
    doc = json.loads(dumps_map(m))
    doc["characters"][0].update(patch)
    model, problems = parse_map(json.dumps(doc))
    assert model is None
    assert any(message in str(p) for p in problems), [p.format() for p in problems]


# ------------------------------------------------------------------ validation
def _problems(m):
    from sodwa_editor.io import validate_model

    return [p for p in validate_model(m) if p.code == "footprint"]


def test_validation_reports_each_footprint_that_cannot_stand_with_its_json_path():
    from sodwa_editor.engine.model import Edge

    m = MapModel(12, 12)
    wall = m.registry.id_of("obstructing")
    m.set_terrain(5, 1, wall)
    m.set_elevation(9, 9, 2)
    m.set_border(Edge(1, 9, "E"), wall)
    m.put_character(Character("a-wall", "red", 4, 0, size="large"))  # (5, 1) is a wall
    m.put_character(Character("b-edge", "red", 10, 4, size="huge"))  # off the map
    m.put_character(Character("c-level", "red", 8, 8, size="large"))  # 9, 9 is level 2
    m.put_character(Character("d-border", "red", 0, 8, size="huge"))  # a wall through it
    m.put_character(Character("e-ogre", "blue", 0, 2, size="large"))
    m.put_character(Character("f-imp", "blue", 1, 3))  # on the ogre's square
    m.put_character(Character("g-fine", "blue", 3, 3, size="large"))
    problems = _problems(m)
    said = {p.path: (p.message, p.tile, p.edge) for p in problems}
    assert len(problems) == 5, [str(p) for p in problems]
    assert said["/characters/0"][0] == ("character 'a-wall' (large 2x2 at 4, 0) cannot stand "
                                        "there: the Obstructing tile (5, 1) is under the "
                                        "footprint")
    assert said["/characters/0"][1] == (5, 1)
    assert "does not fit on the 12x12 map" in said["/characters/1"][0]
    assert said["/characters/2"][1] == (9, 9) and "two levels" in said["/characters/2"][0]
    assert said["/characters/3"][2] == Edge(1, 9, "E")
    assert said["/characters/5"] == ("character 'f-imp' (medium 1x1 at 1, 3) cannot stand "
                                     "there: character 'e-ogre' is on (1, 3)", (1, 3), None)


def test_what_the_one_tile_checks_say_is_not_said_twice():
    m = MapModel(8, 8)
    m.set_terrain(2, 2, m.registry.id_of("obstructing"))
    m.put_character(Character("ogre", "red", 2, 2, size="large"))  # anchor on the wall
    m.put_character(Character("imp", "red", 5, 5))
    m.put_character(Character("twin", "red", 5, 5))  # shared-tile says it
    assert _problems(m) == []
    from sodwa_editor.io import validate_model

    codes = {p.code for p in validate_model(m)}
    assert {"character-on-obstructing", "shared-tile"} <= codes


# ------------------------------------------------------------------ transforms
@pytest.mark.parametrize("k", range(8))
def test_rotating_or_mirroring_the_map_moves_each_creature_whole(k):
    from sodwa_editor.engine.transform import SYMMETRIES, apply

    s = SYMMETRIES[k]
    m = MapModel(12, 9)
    m.put_character(Character("wyrm", "red", 1, 2, size="huge"))
    m.put_character(Character("eel", "red", 6, 0, size="massive", footprint=Footprint(2, 5)))
    m.put_character(Character("imp", "blue", 11, 8))
    out = apply(m, s)
    for cid, c in m.characters.items():
        image = {s.tile(t, m.width, m.height) for t in c.squares()}
        assert set(out.characters[cid].squares()) == image, cid
    if s.transpose:
        assert out.characters["eel"].footprint == Footprint(5, 2)


def test_the_schema_names_every_size_and_bounds_footprints_by_the_map_side():
    from sodwa_editor.engine.creatures import SIZE_NAMES
    from sodwa_editor.engine.model import MAX_SIDE
    from sodwa_editor.io.schemas import SCHEMA_DIR

    schema = json.loads((SCHEMA_DIR / "map.schema.json").read_text(encoding="utf-8"))
    props = schema["$defs"]["character"]["properties"]
    assert tuple(props["size"]["enum"]) == SIZE_NAMES
    assert [i["maximum"] for i in props["footprint"]["prefixItems"]] == [MAX_SIDE, MAX_SIDE]
