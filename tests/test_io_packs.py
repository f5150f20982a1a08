"""Map packs: build, save, read back byte for byte, and locate problems in their maps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sodwa_editor.cli import main as cli_main
from sodwa_editor.engine.model import Character, MapModel
from sodwa_editor.engine.samples import SAMPLE_MAPS
from sodwa_editor.engine.terrain import Base
from sodwa_editor.io import (
    MapSaveError,
    build_pack,
    dumps_pack,
    load_map,
    load_pack,
    map_to_dict,
    read_any,
    read_pack,
    save_map,
    save_pack,
)

DATA = Path(__file__).parent / "data"


@pytest.fixture
def map_files(tmp_path):
    paths = []
    for name, make in sorted(SAMPLE_MAPS.items()):
        path = tmp_path / f"{name}.json"
        save_map(make(), path)
        paths.append(path)
    return paths


def make_pack(paths, **kw):
    meta = {"name": "Sample pack", "version": "1.2.0", "author": "QA", "description": "All"}
    return build_pack(paths, **{**meta, **kw})


def test_build_save_read_round_trip(map_files, tmp_path):
    pack, problems = make_pack(map_files)
    # a warning does not stop a pack: the rulebook diagram's plateau has no way up (R2)
    assert [(p.code, p.map_name) for p in problems] == [
        ("zones-unreachable", None)] and pack is not None
    assert [m["name"] for m in pack["maps"]] == [SAMPLE_MAPS[p.stem]().name for p in map_files]
    first, second = tmp_path / "pack1.json", tmp_path / "pack2.json"
    save_pack(pack, first)
    read, problems = read_pack(first)
    assert [(p.code, p.map_name) for p in problems] == [
        ("zones-unreachable", "Rulebook: Elevated Terrain LoS")]
    assert {k: read[k] for k in ("format", "format_version", "name", "version", "author")} == {
        "format": "sodwa-mappack", "format_version": 3, "name": "Sample pack",
        "version": "1.2.0", "author": "QA"}
    save_pack(read, second)
    assert first.read_bytes() == second.read_bytes()
    meta, models = load_pack(first)
    assert meta["name"] == "Sample pack" and "maps" not in meta
    for path, model in zip(map_files, models, strict=True):
        assert model.same_content(SAMPLE_MAPS[path.stem]())


def test_pack_layout_keeps_map_rows_on_their_own_lines(map_files):
    pack, _ = make_pack(map_files[:1])
    lines = dumps_pack(pack).splitlines()
    assert lines[:2] == ["{", '  "format": "sodwa-mappack",']
    assert '  "maps": [' in lines
    assert '      "terrain": [' in lines
    assert any(ln.startswith('        {"edge": [') for ln in lines)


def test_duplicate_map_names_are_an_error(map_files):
    pack, problems = make_pack([map_files[0], map_files[1], map_files[0]])
    assert pack is None
    assert [(p.code, p.path, p.map_name) for p in problems] == [
        ("duplicate-map-name", "/maps/2/name", SAMPLE_MAPS[map_files[0].stem]().name)]


def test_broken_map_file_stops_the_build(map_files):
    pack, problems = make_pack([map_files[0], DATA / "wrong_types.json"])
    assert pack is None
    assert problems and all(p.source == str(DATA / "wrong_types.json") for p in problems)


def test_problems_inside_a_pack_are_located_by_map(map_files, tmp_path):
    pack, _ = make_pack(map_files[:2])
    bad = MapModel(4, 4, name="Walled in")
    bad.terrain[1, 1] = Base.OBSTRUCTING
    doc = json.loads(dumps_pack(pack))
    bad.characters["hero"] = Character("hero", "red", 1, 1)
    bad.start_zones["red"] = {(1, 1)}
    doc["maps"].append(map_to_dict(bad))
    doc["maps"][0]["width"] = "wide"
    path = tmp_path / "broken-pack.json"
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    read, problems = read_pack(path)
    assert read is not None  # the pack's own structure is fine
    got = [(p.code, p.path, p.map_name) for p in problems]
    first_name = doc["maps"][0]["name"]
    assert got == [
        ("schema", "/maps/0/width", first_name),
        ("character-on-obstructing", "/maps/2/characters/0", "Walled in"),
        ("zone-on-obstructing", "/maps/2/start_zones/red/0", "Walled in"),
    ]
    assert str(problems[1]) == (f"{path}: /maps/2/characters/0 (map 'Walled in'): character "
                                "'hero' stands on Obstructing tile (1, 1)")
    assert read_any(path) == ("pack", problems)
    with pytest.raises(MapSaveError, match="3 error"):
        save_pack(doc, tmp_path / "out.json")
    assert not (tmp_path / "out.json").exists()


def test_pack_header_errors(tmp_path, map_files):
    pack, _ = make_pack(map_files[:1])
    del pack["version"]
    pack["maps"].append(7)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(pack), encoding="utf-8")
    read, problems = read_pack(path)
    assert read is None
    assert [(p.path, p.message) for p in problems] == [
        ("", "missing required field 'version'"),
        ("/maps/1", "must be an object, not number 7"),
    ]
    path.write_text(json.dumps({"format": "sodwa-map"}), encoding="utf-8")
    assert [p.message for p in read_pack(path)[1]] == ["this file is a map, not a map pack"]


def test_cli_validate_and_pack_commands(map_files, tmp_path, capsys):
    out = tmp_path / "cli-pack.json"
    assert cli_main(["pack", "build", *map(str, map_files), "-o", str(out),
                     "--pack-version", "2.0"]) == 0
    assert cli_main(["pack", "validate", str(out)]) == 0
    assert cli_main(["validate", str(map_files[0]), str(out)]) == 0
    assert cli_main(["validate", str(DATA / "semantic_errors.json")]) == 1
    text = capsys.readouterr().out
    assert "error: /characters/1: character 'b' stands on Obstructing tile (2, 0)" in text


def test_open_maps_replace_their_files_in_the_pack(map_files):
    """The editor exports what is on screen: an open map with unsaved edits goes in
    instead of its file, checked like a file."""
    path = map_files[0]
    edited = load_map(path)
    edited.description = "edited, not saved"
    pack, problems = make_pack(map_files, open_maps={path: edited})
    assert pack is not None and not any(p.is_error for p in problems)
    assert pack["maps"][0]["description"] == "edited, not saved"
    edited.name = "x" * 300  # the format cannot hold it: an error, located at the file
    pack, problems = make_pack(map_files, open_maps={path: edited})
    assert pack is None
    errors = [p for p in problems if p.is_error]
    assert [(p.code, p.source) for p in errors] == [("unstorable", str(path))]
    assert "/name" in errors[0].message
