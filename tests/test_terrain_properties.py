"""Terrain-property vocabulary, presets, custom properties, light sources and the
map format version 2 (issue 27, seed terrain-properties-vertical-space.txt)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from sodwa_editor.engine.model import Character, MapModel, MapObject
from sodwa_editor.engine.property_layers import DARK, FULL_DARK, LIT, dark_levels, lit_tiles
from sodwa_editor.engine.terrain import Base, TerrainRegistry
from sodwa_editor.engine.terrain_properties import (
    CUSTOM_TYPES,
    PRESETS,
    PROPERTY_NAMES,
    VOCABULARY,
    contradictions,
    make_custom,
    make_property,
    parse_custom,
    parse_properties,
    properties_to_json,
)
from sodwa_editor.io import dumps_map, parse_map, validate_model
from sodwa_editor.io.schemas import load_schema

ROOT = Path(__file__).resolve().parents[1]

#: The seed's *Example Terrains* table, verbatim (River's "Hazard (DC15 Body
#: Defense or Knocked Prone)" is Hazardous).
SEED_TABLE = """\
Plains | Exposed |
Long Grass | Obscured |
Woodlands | Obscured, Cover |
Dense Woodlands | Obscured, Dark, Difficult, Cover |
Hillside | Exposed, Steep |
Plateau | Obscured, High |
Mountainside | Exposed, Steep, High |
Peak | Obscured, Very High |
Mountain Pass | Exposed, Very High, Precarious |
Soft Sand | Exposed, Difficult |
Sand Dunes | Exposed, Difficult, Steep |
Swamp | Obscured, Difficult, Shallow Water, Dark |
Coast | Exposed, Shallow Water |
Town | Obscured, Cover |
Sea | Exposed, Deep Water |
Caves | Fully Obscured, Dark, Difficult, Full Cover |
Fortification | Fully Obscured, Full Cover |
Low Altitude, Clear Sky | Exposed, High |
High Altitude, Clouds | Obscured, Very High |
River | Obscured, Difficult, Shallow Water, Hazardous |"""


def test_vocabulary_is_the_seeds_list():
    labels = [s.label for s in VOCABULARY.values()]
    assert labels == ["Difficult", "Very Difficult", "Cover", "Full Cover", "Steep", "High",
                      "Very High", "Shallow Water", "Deep Water", "Precarious", "Dark",
                      "Full Dark", "Exposed", "Obscured", "Fully Obscured", "Hazardous",
                      "Trapped"]
    assert all(s.effect.endswith(".") and "\n" not in s.effect for s in VOCABULARY.values())


def test_presets_are_the_seeds_example_terrains_table():
    by_label = {p.label: p for p in PRESETS.values()}
    for line in SEED_TABLE.splitlines():
        label, props = line.rstrip(" |").split(" | ")
        label = label.strip()
        wanted = {p.strip().lower().replace(" ", "_") for p in props.split(",")}
        assert set(by_label[label].properties) == wanted, label
    assert len(PRESETS) == len(SEED_TABLE.splitlines())
    for p in PRESETS.values():
        assert p.base in [b.label for b in Base]
        assert not contradictions(p.properties), p.name
    river = PRESETS["river"].properties["hazardous"].params
    assert (river["condition"], river["dc"], river["damage"]) == ("prone", 15, "")
    assert PRESETS["fortification"].base == "obstructing"
    assert {PRESETS[n].base for n in ("sea", "coast", "swamp", "river")} == {"liquid"}


def test_every_preset_declares_saves_and_loads():
    m = MapModel(len(PRESETS), 1)
    for i, p in enumerate(PRESETS.values()):
        m.terrain[0, i] = m.registry.register(p.name, Base[p.base.upper()], p.properties)
    loaded, problems = parse_map(dumps_map(m))
    assert loaded is not None and loaded.same_content(m), problems
    assert not [p for p in problems if p.code.startswith("property")]


def test_schema_holds_the_same_vocabulary():
    schema = load_schema("map")["$defs"]["terrain_properties"]["properties"]
    assert list(schema) == list(PROPERTY_NAMES)
    for name, spec in VOCABULARY.items():
        params = schema[name].get("properties", {})
        assert list(params) == [p.name for p in spec.params], name
        for p in spec.params:
            if p.kind == "enum":
                assert params[p.name]["enum"] == list(p.choices)
            if p.kind == "int":
                assert (params[p.name]["minimum"], params[p.name]["maximum"]) == (
                    p.minimum, p.maximum)
    custom = load_schema("map")["$defs"]["custom_properties"]["additionalProperties"]["oneOf"]
    assert [c["properties"]["type"]["const"] for c in custom] == list(CUSTOM_TYPES)


def test_hazard_and_trap_examples_fill_the_parameters():
    lava = make_property("hazardous", {"hazard": "lava"})
    assert (lava.params["damage"], lava.params["damage_type"], lava.params["dc"]) == (
        "2d12", "fire", 15)
    smoke = make_property("hazardous", {"hazard": "smoke", "dc": 12})
    assert smoke.params["condition"] == "poisoned" and smoke.params["ignores_dr"]
    assert smoke.to_json() == {"hazard": "smoke", "dc": 12}
    pit = make_property("trapped", {"trap": "pit"})
    assert (pit.params["damage"], pit.params["condition"], pit.params["hidden"]) == (
        "2d6", "prone", True)
    assert "2d6" in pit.effect_text()
    assert properties_to_json({"trapped": pit}) == {"trapped": {"trap": "pit"}}


@pytest.mark.parametrize(("raw", "message"), [
    ({"sticky": {}}, "sticky: unknown terrain property"),
    ({"cover": {"dc": 3}}, "cover/dc: unknown parameter of cover (known: none)"),
    ({"precarious": {"dc": 101}}, "precarious/dc: 101 is outside 0..100"),
    ({"precarious": {"dc": True}}, "precarious/dc: True is not a whole number"),
    ({"hazardous": {"damage": "2d7"}}, "hazardous/damage: '2d7' is not dice"),
    ({"hazardous": {"hazard": "acid rain"}}, "hazardous/hazard: 'acid rain' is not one of"),
    ({"trapped": {"save": "will"}}, "trapped/save: 'will' is not one of reflex"),
    ({"trapped": 3}, "trapped: parameters must be an object"),
])
def test_bad_properties_say_what_and_where(raw, message):
    with pytest.raises(ValueError) as exc:
        parse_properties(raw, "")
    assert message in str(exc.value)


def test_properties_are_kept_in_vocabulary_order_and_lists_are_accepted():
    assert list(parse_properties(["dark", "cover", "difficult"])) == [
        "difficult", "cover", "dark"]


@pytest.mark.parametrize(("kind", "value", "ok"), [
    ("string", "x", True), ("string", 3, False), ("int", 2**31 - 1, True),
    ("int", 2**31, False), ("int", True, False), ("float", 2, True),
    ("float", float("nan"), False), ("bool", False, True), ("bool", 0, False),
    ("color", "#A0B0C0", True), ("color", "#a0b0c0d0", True), ("color", "red", False),
    ("file", "art/x.png", True), ("file", "/etc/passwd", False), ("object", 1, False),
])
def test_custom_values_are_typed_as_tileds(kind, value, ok):
    if ok:
        c = make_custom(kind, value)
        assert c.type == kind and parse_custom({"k": c.to_json()})["k"] == c
    else:
        with pytest.raises(ValueError, match="k: "):
            make_custom(kind, value, "k")


def test_colors_are_stored_lower_case_and_floats_as_floats():
    assert make_custom("color", "#A0B0C0").value == "#a0b0c0"
    assert make_custom("float", 2).value == 2.0


def test_registry_update_and_property_mask():
    reg = TerrainRegistry()
    bog = reg.register("bog", Base.LIQUID, {"shallow_water": {}})
    assert reg.has_properties() and reg.property_mask("shallow_water")[bog]
    reg.update("bog", properties={"deep_water": {}},
               custom={"smell": {"type": "string", "value": "bad"}})
    assert list(reg[bog].properties) == ["deep_water"] and reg[bog].base is Base.LIQUID
    assert reg[bog].custom["smell"].value == "bad"
    assert reg.copy() == reg
    with pytest.raises(ValueError, match="built in"):
        reg.update("clear", properties={"cover": {}})
    with pytest.raises(ValueError, match="terrain type 'bog' properties/hot"):
        reg.update("bog", properties={"hot": {}})
    assert not TerrainRegistry().has_properties()


def test_set_terrain_properties_tells_listeners_without_touching_los():
    m = MapModel(2, 2)
    m.registry.register("bog", Base.LIQUID)
    seen = []
    m.add_listener(seen.append)
    m.set_terrain_properties("bog", properties={"dark": {}})
    assert [c.layer for c in seen] == ["terrain_properties"]
    from sodwa_editor.engine.los_inputs import NO_LOS
    assert "terrain_properties" in NO_LOS


# ------------------------------------------------------------------ light sources
def _cave(width: int, height: int = 1, prop: str = "full_dark") -> MapModel:
    m = MapModel(width, height)
    cave = m.registry.register("cave", Base.CLEAR, {prop: {}})
    m.terrain[:] = cave
    return m


def test_light_suppresses_dark_on_its_tile_and_the_adjacent_ones():
    """Seed: "The Dark Property is suppressed by Light Sources which are either in
    the same Space or an Adjacent Space"."""
    m = _cave(5, 5, "dark")
    assert (dark_levels(m) == DARK).all()
    m.put_object(MapObject("torch", "light", 2, 2))
    levels = dark_levels(m)
    assert (levels[1:4, 1:4] == LIT).all()
    assert levels[0].tolist() == [DARK] * 5 and levels[:, 4].tolist() == [DARK] * 5


def test_full_dark_likewise_and_radius_zero_and_two():
    m = _cave(7)
    m.put_object(MapObject("candle", "light", 0, 0, radius=0))
    m.put_object(MapObject("bonfire", "light", 4, 0, radius=2))
    assert dark_levels(m).tolist() == [[LIT, FULL_DARK, LIT, LIT, LIT, LIT, LIT]]


def test_light_stops_at_walls_and_elevation():
    m = _cave(5)
    m.terrain[0, 3] = m.registry.id_of("obstructing")
    m.put_object(MapObject("torch", "light", 2, 0, radius=3))
    assert lit_tiles(m).tolist() == [[True, True, True, False, False]]
    m.set_elevation(0, 0, 1)  # no transition: not adjacent
    assert lit_tiles(m).tolist() == [[False, True, True, False, False]]


def test_map_without_dark_has_no_dark_levels():
    m = MapModel(3, 3)
    m.put_object(MapObject("torch", "light", 1, 1))
    assert not dark_levels(m).any()


# ------------------------------------------------------------------ format version 2
V1 = {
    "format": "sodwa-map", "format_version": 1, "name": "old", "width": 3, "height": 1,
    "terrain_types": [{"name": "icy", "base": "difficult",
                       "properties": {"reflex_save": 10, "slick": True, "f": 0.5,
                                      "tags": ["a", {"b": None}], "huge": 2**40}}],
    "legend": {".": "clear", "I": "icy"},
    "terrain": [".I."],
    "objects": [{"id": "crate", "kind": "crate", "x": 0, "y": 0,
                 "properties": {"hp": 3, "owner": "red"}}],
}


def test_version_1_file_is_upgraded_without_losing_a_value():
    m, problems = parse_map(json.dumps(V1))
    assert m is not None
    icy = m.registry[m.registry.id_of("icy")]
    assert not icy.properties
    assert {k: (v.type, v.value) for k, v in icy.custom.items()} == {
        "reflex_save": ("int", 10), "slick": ("bool", True), "f": ("float", 0.5),
        "tags": ("string", '["a",{"b":null}]'), "huge": ("string", str(2**40))}
    assert m.objects["crate"].custom == {"hp": make_custom("int", 3),
                                         "owner": make_custom("string", "red")}
    assert [(p.code, p.path) for p in problems] == [
        ("upgraded-value", "/terrain_types/0/custom/tags"),
        ("upgraded-value", "/terrain_types/0/custom/huge")]
    assert '"format_version": 2' in dumps_map(m)


def test_version_1_properties_that_are_not_an_object_are_an_error():
    bad = {**V1, "objects": [{"id": "c", "kind": "c", "x": 0, "y": 0, "properties": [1]}]}
    m, problems = parse_map(json.dumps(bad))
    assert m is None
    assert [(p.code, p.path) for p in problems if p.severity == "error"] == [
        ("schema", "/objects/0/properties")]


def test_version_2_rejects_free_properties():
    doc = {**V1, "format_version": 2}
    m, problems = parse_map(json.dumps(doc))
    assert m is None and {p.code for p in problems} == {"schema"}
    assert any(p.path == "/terrain_types/0/properties" for p in problems)


@pytest.mark.parametrize("name", ["outdoor-skirmish", "indoor-compound", "tiered-keep",
                                  "rulebook-elevated-los"])
def test_sample_maps_of_version_1_upgrade_to_the_files_of_version_2(name):
    """The samples as the last version-1 commit wrote them load and save as the
    version-2 files in maps/ (only the version and the free properties change)."""
    try:
        old = subprocess.run(["git", "show", f"fba74d5:maps/{name}.json"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    except (subprocess.CalledProcessError, FileNotFoundError):
        pytest.skip("the version-1 commit is not in this checkout")
    m, _ = parse_map(old)
    assert m is not None
    assert dumps_map(m) == (ROOT / "maps" / f"{name}.json").read_text(encoding="utf-8")


def test_custom_properties_on_every_holder_round_trip():
    m = MapModel(3, 3)
    m.registry.register("bog", Base.LIQUID, {"deep_water": {}},
                        custom={"depth": {"type": "float", "value": 2.5}})
    m.put_character(Character("k", "red", 0, 0, custom={"hero": make_custom("bool", True)}))
    m.put_object(MapObject("lamp", "light", 1, 1, impedes_los=False, radius=2,
                           custom={"fuel": make_custom("int", 9)}))
    m.set_start_zone("red", [(0, 0)])
    m.set_zone_custom("red", {"colour": make_custom("color", "#112233")})
    text = dumps_map(m)
    assert '"start_zone_custom": {\n    "red": {"colour": {"type": "color", ' in text
    loaded, _ = parse_map(text)
    assert loaded is not None and loaded.same_content(m)
    m.set_zone_custom("red", {})
    assert m.zone_custom == {} and "start_zone_custom" not in dumps_map(m)


def test_a_bad_custom_value_in_memory_fails_the_save_naming_it():
    m = MapModel(2, 2)
    m.put_object(MapObject("o", "crate", 0, 0, custom={"x": {"type": "int", "value": "3"}}))
    with pytest.raises(ValueError, match="object 'o' custom/x: '3' is not a whole number"):
        dumps_map(m)


# ------------------------------------------------------------------ validation
def _codes(m: MapModel) -> list[tuple[str, str]]:
    return [(p.code, p.path) for p in validate_model(m) if p.severity == "warning"
            and p.code.startswith(("property", "light", "trap"))]


def test_contradictions_warn_with_the_json_path():
    m = MapModel(3, 3)
    m.registry.register("wall", Base.OBSTRUCTING, {"deep_water": {}, "full_cover": {}})
    m.registry.register("mire", Base.CLEAR, {"difficult": {}, "very_difficult": {},
                                             "exposed": {}, "cover": {}})
    assert _codes(m) == [
        ("property-on-obstructing", "/terrain_types/0/properties/deep_water"),
        ("property-contradiction", "/terrain_types/1/properties/difficult"),
        ("property-contradiction", "/terrain_types/1/properties/exposed"),
        ("property-base-mismatch", "/terrain_types/1/properties/difficult"),
        ("property-base-mismatch", "/terrain_types/1/properties/very_difficult"),
    ]
    [p] = [p for p in validate_model(m) if p.code == "property-on-obstructing"]
    assert p.message == ("terrain type 'wall': deep_water on an Obstructing base never "
                         "applies (nothing can stand on Obstructing terrain)")


def test_light_in_a_wall_and_light_without_dark_warn():
    m = _cave(5)
    m.terrain[0, 4] = m.registry.id_of("obstructing")
    m.terrain[0, 0:2] = 0
    m.put_object(MapObject("a-wall-lamp", "light", 4, 0))
    m.put_object(MapObject("b-wasted", "light", 0, 0, radius=0))
    m.put_object(MapObject("c-good", "light", 2, 0))
    assert _codes(m) == [("light-in-wall", "/objects/0"), ("light-without-dark", "/objects/1")]


def test_a_trap_nobody_can_reach_warns_once_per_type():
    m = MapModel(6, 1)
    pit = m.registry.register("pit", Base.CLEAR, {"trapped": {"trap": "pit"}})
    assert _codes(m) == []  # nobody placed: nothing to reach from
    m.set_start_zone("red", [(0, 0)])
    m.terrain[0, 1] = pit
    m.terrain[0, 2] = m.registry.id_of("obstructing")
    m.terrain[0, 4:6] = pit
    problems = [p for p in validate_model(m) if p.code == "trap-unreachable"]
    assert [(p.tile, p.path) for p in problems] == [((4, 0), "/terrain/0")]
    assert problems[0].message.startswith("2 Trapped tile(s) of terrain 'pit' from (4, 0)")


def test_a_pack_holding_a_version_1_map_loads_it_upgraded(tmp_path):
    from sodwa_editor.io import load_pack, read_pack

    pack = {"format": "sodwa-mappack", "format_version": 2, "name": "old pack",
            "version": "1", "maps": [V1]}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(pack), encoding="utf-8")
    doc, problems = read_pack(path)
    assert doc is not None and [p.code for p in problems] == ["upgraded-value"] * 2
    _, [m] = load_pack(path)
    assert m.objects["crate"].custom["hp"] == make_custom("int", 3)
