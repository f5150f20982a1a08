"""The schema files are valid Draft 2020-12 schemas, and the fast array tests used
while loading never accept what the schema refuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from sodwa_editor.engine.generate import make_mixed_map
from sodwa_editor.engine.model import MAX_ATTRIBUTE, MAX_MOVE, MAX_RANGE, MAX_SIDE
from sodwa_editor.engine.samples import outdoor_skirmish
from sodwa_editor.engine.terrain import MAX_TERRAIN_TYPES
from sodwa_editor.io import dumps_map, map_to_dict, parse_map
from sodwa_editor.io.schemas import (
    FAST_ARRAYS,
    MAX_ELEVATION_ROW,
    _def_validator,
    _to_problems,
    load_schema,
    map_schema_problems,
    map_validator,
    pack_validator,
    tile_ok,
)

SCHEMAS = {"map": "urn:sodwa:schema:map:2", "mappack": "urn:sodwa:schema:mappack:3"}


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_schema_files_are_valid_2020_12_with_id(name):
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == SCHEMAS[name]


def test_schema_limits_match_the_model():
    props = load_schema("map")["properties"]
    assert props["width"]["maximum"] == props["height"]["maximum"] == MAX_SIDE
    assert props["terrain"]["maxItems"] == MAX_SIDE
    assert props["terrain"]["items"]["maxLength"] == MAX_SIDE
    assert props["elevation"]["maxItems"] == MAX_SIDE
    assert props["elevation"]["items"]["maxLength"] == MAX_ELEVATION_ROW == 3 * MAX_SIDE - 1
    assert props["terrain_types"]["maxItems"] == MAX_TERRAIN_TYPES - 5
    assert props["format_version"]["const"] == 2


def test_written_documents_pass_the_plain_validators():
    """Without the fast path: the full jsonschema validation of a written map and pack."""
    doc = map_to_dict(make_mixed_map(24, seed=3))
    assert list(map_validator().iter_errors(doc)) == []
    pack = {"format": "sodwa-mappack", "format_version": 3, "name": "p", "version": "1",
            "maps": [doc, json.loads(dumps_map(outdoor_skirmish()))]}
    assert list(pack_validator().iter_errors(pack)) == []
    pack["maps"][1]["width"] = 0
    assert [list(e.absolute_path) for e in pack_validator().iter_errors(pack)] == [
        ["maps", 1, "width"]]


def plain_problems(doc):
    return _to_problems(((), e) for e in map_validator().iter_errors(doc))


def test_fast_path_reports_exactly_what_the_plain_validator_reports():
    doc = map_to_dict(make_mixed_map(16, seed=1))
    doc["borders"][3]["edge"] = [1, 2, "W"]
    doc["borders"][5]["terrain"] = "Bad Name"
    doc["borders"][7]["extra"] = 1
    doc["borders"][0] = "not an object"
    doc["terrain"][4] = ""
    doc["elevation"] = ["0 0"] * 15 + ["0  1"]
    doc["transition_tiles"].append([1.5, 2])
    doc["start_zones"]["red"].append([1, "2"])
    doc["start_zones"]["blue"][0] = []
    doc["indoor_overrides"] = [{"tile": [0, 0]}, {"tile": [0, 0], "indoor": True}]
    fast = {(p.path, p.message) for p in map_schema_problems(doc)}
    plain = {(p.path, p.message) for p in plain_problems(doc)}
    assert fast == plain
    assert len(fast) >= 10


_ANY = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False)
    | st.sampled_from(["E", "S", "N", "icy", "Icy", "0 1", "0  1", "7", "", "a b", "99 100"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["edge", "terrain", "transition", "indoor", "tile", "x"]),
                      inner, max_size=4),
    max_leaves=10,
)
_EDGEISH = st.fixed_dictionaries(
    {"edge": st.tuples(st.integers(-1, 3), st.integers(-1, 3) | st.booleans(),
                       st.sampled_from(["E", "S", "s", 1])).map(list)},
    optional={"terrain": st.sampled_from(["icy", "deep-water", "A", "1x", 3]),
              "transition": st.booleans() | st.integers(0, 1),
              "indoor": st.booleans() | st.none()},
)
_CASES = [(key, test, ref) for key, (test, ref) in FAST_ARRAYS.items()]
_CASES.append(("start_zones", tile_ok, "#/$defs/tile"))


@pytest.mark.parametrize(("key", "test", "ref"), _CASES, ids=[c[0] for c in _CASES])
@settings(max_examples=400, deadline=None)
@given(item=_ANY | _EDGEISH)
def test_fast_tests_never_accept_what_the_schema_refuses(key, test, ref, item):
    if test(item):
        assert list(_def_validator(ref).iter_errors(item)) == []


def test_text_limits_are_read_from_the_schema():
    from sodwa_editor.io.schemas import map_text_limits

    assert map_text_limits() == {"name": 200, "description": 100000, "team": 64, "id": 64,
                                 "character_name": 200, "object_kind": 64}


def test_type_errors_name_the_value_once():
    doc = map_to_dict(outdoor_skirmish())
    doc["borders"] = None
    messages = [p.message for p in map_schema_problems(doc)]
    assert messages == ["must be a list, not null"]
    doc["borders"] = 5
    assert [p.message for p in map_schema_problems(doc)] == ["must be a list, not number 5"]


def test_character_numbers_are_bounded_by_the_model_constants():
    """One constant per bound (engine/model.py); the static schema mirrors it."""
    props = load_schema("map")["$defs"]["character"]["properties"]
    assert (props["move"]["minimum"], props["move"]["maximum"]) == (-MAX_MOVE, MAX_MOVE)
    assert (props["range"]["minimum"], props["range"]["maximum"]) == (-MAX_RANGE, MAX_RANGE)
    attr = props["attributes"]["additionalProperties"]
    assert (attr["minimum"], attr["maximum"]) == (-MAX_ATTRIBUTE, MAX_ATTRIBUTE)


@pytest.mark.parametrize("thing", ["character", "object"])
def test_every_number_of_a_character_or_object_has_bounds(thing):
    """Coordinates are bounded by the map size (the loader's `outside` check); every
    other integer has a minimum and a maximum in the schema."""
    props = load_schema("map")["$defs"][thing]["properties"]
    found = []
    for name, schema in props.items():
        for s in (schema, schema.get("additionalProperties")):
            if isinstance(s, dict) and s.get("type") in ("integer", "number"):
                found.append(name)
                if name not in ("x", "y"):
                    assert "minimum" in s and "maximum" in s, name
    assert {"x", "y"} <= set(found)


def test_the_roster_fits_the_bounds():
    roster = json.loads((Path(__file__).parents[1] / "resources" / "roster.json").read_text())
    for entry in roster["characters"]:
        assert 0 <= entry["move"] <= MAX_MOVE and 0 <= entry["range"] <= MAX_RANGE
        assert all(abs(v) <= MAX_ATTRIBUTE for v in entry["attributes"].values())


def test_numbers_past_the_bounds_are_schema_errors_with_their_path():
    doc = map_to_dict(outdoor_skirmish())
    c = doc["characters"][0]
    c.update(move=MAX_MOVE + 1, range=-MAX_RANGE - 1, attributes={"health": MAX_ATTRIBUTE + 1})
    model, problems = parse_map(json.dumps(doc))
    assert model is None
    assert [(p.path, p.message) for p in problems] == [
        ("/characters/0/move", f"{MAX_MOVE + 1} is outside the allowed range "
                               f"{-MAX_MOVE}..{MAX_MOVE}"),
        ("/characters/0/range", f"{-MAX_RANGE - 1} is outside the allowed range "
                                f"{-MAX_RANGE}..{MAX_RANGE}"),
        ("/characters/0/attributes/health", f"{MAX_ATTRIBUTE + 1} is outside the allowed "
                                            f"range {-MAX_ATTRIBUTE}..{MAX_ATTRIBUTE}"),
    ]
    c.update(move=MAX_MOVE, range=-1, attributes={"health": -MAX_ATTRIBUTE})
    model, problems = parse_map(json.dumps(doc))
    assert model is not None  # a negative Range is a rule error: the map opens to be fixed
    assert [(p.code, p.path) for p in problems if p.is_error] == [
        ("negative-attribute", "/characters/0/range")]
