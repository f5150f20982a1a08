"""The Qt-free roster document (io/roster_doc.py): columns from the schema, cells typed
and checked with the loaders' one-line messages, opening from a roster file or a pack,
and saving that never loses data."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from sodwa_editor.battle.jsonfiles import BattleInputError, load_schema, read_json
from sodwa_editor.battle.sheet import DEFAULT_ROSTER_PATH, ROSTER_VERSION, load_roster
from sodwa_editor.io import build_pack, read_pack, save_pack
from sodwa_editor.io.problems import MapSaveError
from sodwa_editor.io.roster_doc import (
    ABSENT,
    added,
    cell_value,
    column_by_key,
    deleted,
    duplicated,
    open_roster,
    parse_cell,
    problem,
    roster_columns,
    roster_text,
    save_into_pack,
    save_roster_file,
    with_value,
)

MAPS = Path(__file__).resolve().parents[1] / "maps"


def shipped() -> dict:
    return read_json(DEFAULT_ROSTER_PATH)


@pytest.fixture
def pack_path(tmp_path):
    pack, problems = build_pack([MAPS / "outdoor-skirmish.json"], name="skirmish", version="1")
    assert pack is not None, problems
    path = tmp_path / "pack.json"
    save_pack(pack, path)
    return path


def test_columns_follow_the_schema_and_its_additions():
    keys = [c.key for c in roster_columns()]
    sheet = load_schema("roster")["$defs"]["sheet"]["properties"]
    assert keys[:5] == ["name", "move", "range", "flight", "damage_type"]
    assert [k for k in keys if k.startswith("attributes.")] == [f"attributes.{k}"
                                                                 for k in sheet]
    assert "abilities" in keys and column_by_key("abilities").type == "json"
    # a key another change adds (a creature size with its choices, a footprint) is a
    # column without code changes
    schema = copy.deepcopy(load_schema("roster"))
    schema["$defs"]["archetype"]["properties"]["size"] = {
        "type": "string", "enum": ["small", "medium", "large"], "description": "Size."}
    schema["$defs"]["archetype"]["properties"]["footprint"] = {
        "type": "array", "items": {"type": "integer"}}
    schema["$defs"]["sheet"]["properties"]["stamina"] = {"type": "integer", "minimum": 0}
    cols = {c.key: c for c in roster_columns(schema)}
    assert cols["size"].enum == ("small", "medium", "large") and cols["size"].type == "string"
    assert cols["footprint"].type == "json" and not cols["footprint"].required
    assert cols["attributes.stamina"].minimum == 0


def test_cells_are_parsed_with_one_line_errors():
    health, flight = column_by_key("attributes.health"), column_by_key("flight")
    assert parse_cell("7", health) == 7
    assert parse_cell("yes", flight) is True and parse_cell("No", flight) is False
    with pytest.raises(ValueError, match=r"^Health: 'seven' is not a whole number$"):
        parse_cell("seven", health)
    with pytest.raises(ValueError, match="a value is required"):
        parse_cell(" ", health)
    assert parse_cell("", column_by_key("portrait")) is ABSENT
    with pytest.raises(ValueError, match="Abilities: invalid JSON"):
        parse_cell("[{", column_by_key("abilities"))


def test_problems_are_the_loaders_messages(tmp_path):
    doc = shipped()
    bad = with_value(doc, 2, column_by_key("attributes.initiative"), 0)
    file = tmp_path / "roster.json"
    file.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(BattleInputError) as loaded:
        load_roster(file)
    assert problem(bad, "roster.json") == str(loaded.value).replace(str(file), "roster.json")
    assert problem(bad, "roster.json") == (
        "roster.json: characters[2].attributes.initiative: 0 is less than the minimum of 1")
    twice = with_value(doc, 1, column_by_key("name"), "knight")
    assert problem(twice, "r.json") == "r.json: characters[1].name: archetype 'knight' " \
                                       "appears twice"
    assert problem(doc, "r.json") is None and doc == shipped()  # edits copy


def test_add_duplicate_delete_and_optional_keys():
    doc = shipped()
    new, row = added(doc)
    assert row == len(doc["characters"]) and new["characters"][row]["name"] == "New Archetype"
    assert new["characters"][row]["attributes"] == doc["defaults"]["attributes"]
    again, row2 = added(new, 0)
    assert row2 == 0 and again["characters"][0]["name"] == "New Archetype 2"
    copied, at = duplicated(doc, 2)
    assert at == 3 and copied["characters"][3]["name"] == "Mage copy"
    assert copied["characters"][3]["abilities"] == doc["characters"][2]["abilities"]
    assert problem(copied, "r") is None and problem(again, "r") is None
    assert [c["name"] for c in deleted(doc, 0)["characters"]] == [
        c["name"] for c in doc["characters"][1:]]
    portrait = column_by_key("portrait")
    with_portrait = with_value(doc, 0, portrait, "p/knight.png")
    assert cell_value(with_portrait, 0, portrait) == "p/knight.png"
    assert "portrait" not in with_value(with_portrait, 0, portrait, ABSENT)["characters"][0]
    only = {**doc, "characters": doc["characters"][:1]}
    assert "characters" in (problem(deleted(only, 0), "r") or "")


def test_open_default_file_and_pack(tmp_path, pack_path):
    d = open_roster(None)
    assert d.source.kind == "default" and d.doc == shipped() and d.note == ""
    # a pack without a roster starts from the shipped one, saying so
    p = open_roster(pack_path)
    assert p.source.kind == "pack" and p.doc == shipped() and "carries no roster" in p.note
    # a version-1 roster is read as the current version
    old = shipped()
    old["format_version"] = 1
    version_1 = ("name", "move", "range", "flight", "damage_type", "attributes")
    old["characters"] = [{k: c[k] for k in version_1 if k in c} for c in old["characters"]]
    file = tmp_path / "old.json"
    file.write_text(json.dumps(old), encoding="utf-8")
    o = open_roster(file)
    assert o.doc["format_version"] == ROSTER_VERSION and "format_version 1" in o.note
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "sodwa-roster"', encoding="utf-8")
    with pytest.raises(BattleInputError, match=r"broken.json: invalid JSON at line 1"):
        open_roster(broken)


def test_save_round_trip_and_refusals(tmp_path):
    doc = with_value(shipped(), 0, column_by_key("attributes.health"), 15)
    path = tmp_path / "mine.json"
    save_roster_file(doc, path)
    assert read_json(path) == doc and path.read_text(encoding="utf-8") == roster_text(doc)
    assert open_roster(path).doc == doc
    before = path.read_bytes()
    bad = with_value(doc, 0, column_by_key("attributes.health"), 0)
    with pytest.raises(BattleInputError, match="health"):
        save_roster_file(bad, path)
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["mine.json"]


def test_save_into_a_pack_keeps_its_maps(pack_path):
    pack_before, _ = read_pack(pack_path)
    doc, _row = duplicated(shipped(), 0)
    save_into_pack(doc, pack_path)
    pack_after, problems = read_pack(pack_path)
    assert not [p for p in problems if p.is_error]
    assert pack_after["roster"] == doc
    assert pack_after["maps"] == pack_before["maps"]
    assert {k: v for k, v in pack_after.items() if k != "roster"} == pack_before
    assert open_roster(pack_path).doc == doc
    # a file that is not a pack is refused, untouched
    other = pack_path.with_name("not-a-pack.json")
    other.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(MapSaveError, match="cannot save the roster into"):
        save_into_pack(doc, other)
    assert other.read_text(encoding="utf-8") == "[1, 2]"


def test_abilities_are_edited_as_entries():
    from sodwa_editor.io.roster_doc import ability_columns, added_ability, deleted_ability

    cols = {c.key: c for c in ability_columns()}
    sub = load_schema("roster")["$defs"]["ability"]["properties"]
    assert list(cols) == list(sub) and cols["with_attack"].type == "boolean"
    assert cols["name"].required and not cols["uses"].required
    doc = shipped()
    mage = [c["name"] for c in doc["characters"]].index("Mage")
    fire = cell_value(doc, mage, cols["damage"], 0)
    assert fire == 4
    hotter = with_value(doc, mage, cols["damage"], 6, 0)
    assert hotter["characters"][mage]["abilities"][0]["damage"] == 6 and problem(hotter, "r") \
        is None
    bad = with_value(doc, mage, cols["area"], "AoE - Blast - Blob: 1", 0)
    assert problem(bad, "r.json").startswith(
        f"r.json: characters[{mage}].abilities[0].area: Blob: unknown shape (known: ")
    more, k = added_ability(doc, 0)
    assert k == 0 and more["characters"][0]["abilities"][0]["name"] == "New Ability"
    assert problem(more, "r") is None
    again, k2 = added_ability(more, 1)
    assert again["characters"][1]["abilities"][k2]["name"] == "New Ability 2"
    assert "abilities" not in deleted_ability(more, 0, 0)["characters"][0]
    assert deleted_ability(doc, mage, 0)["characters"][mage].get("abilities") is None


def test_a_new_archetype_gets_the_schemas_defaults_for_required_keys():
    from sodwa_editor.engine.model import Character

    schema = copy.deepcopy(load_schema("roster"))
    arch = schema["$defs"]["archetype"]
    arch["properties"]["size"] = {"type": "string", "enum": ["small", "medium"],
                                  "default": "medium"}
    arch["required"] = [*arch["required"], "size"]
    doc, row = added(shipped(), None, roster_columns(schema))
    entry = doc["characters"][row]
    assert entry["size"] == "medium"
    plain = Character("", "", 0, 0)
    assert (entry["move"], entry["range"], entry["flight"]) == (plain.move, plain.range,
                                                                 plain.flight)
    assert "size" not in added(shipped())[0]["characters"][-1]  # the shipped schema: none


def test_saving_elsewhere_keeps_the_portraits_found(tmp_path, pack_path):
    first = tmp_path / "a" / "roster.json"
    first.parent.mkdir()
    (first.parent / "art").mkdir()
    (first.parent / "art" / "k.png").write_bytes(b"png")
    doc = with_value(shipped(), 0, column_by_key("portrait"), "art/k.png")
    save_roster_file(doc, first)
    opened = open_roster(first)
    assert opened.folder == first.parent
    moved = tmp_path / "b" / "c" / "roster.json"
    moved.parent.mkdir(parents=True)
    save_roster_file(opened.doc, moved, opened.folder)
    portrait = read_json(moved)["characters"][0]["portrait"]
    assert portrait == "../../a/art/k.png" and (moved.parent / portrait).is_file()
    save_into_pack(opened.doc, pack_path, opened.folder)
    in_pack = read_pack(pack_path)[0]["roster"]["characters"][0]["portrait"]
    assert (pack_path.parent / in_pack).resolve() == (first.parent / "art/k.png").resolve()
    assert opened.doc["characters"][0]["portrait"] == "art/k.png"  # the document unchanged
