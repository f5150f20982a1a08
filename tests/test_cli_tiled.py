"""``sodwa export-tiled`` and ``sodwa import-tiled`` (issue 29): the round trip on the
command line, and the output checks every command has (never a file the command
reads, a one-line error, the README's exit codes)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sodwa_editor.cli import main

ROOT = Path(__file__).resolve().parents[1]
KEEP = ROOT / "maps" / "tiered-keep.json"


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_export_then_import_gives_the_same_file(tmp_path, capsys):
    code, out, err = run(capsys, "export-tiled", KEEP, "-o", tmp_path / "keep.tmj")
    assert (code, err) == (0, "")
    assert out == (f"wrote {tmp_path / 'keep.tmj'} (16x16), its tileset keep.tsj and image "
                   "keep.png\n")
    assert json.loads((tmp_path / "keep.tsj").read_text())["image"] == "keep.png"
    assert (tmp_path / "keep.png").read_bytes()[:4] == b"\x89PNG"
    code, out, err = run(capsys, "import-tiled", tmp_path / "keep.tmj", "-o",
                         tmp_path / "keep.json")
    assert (code, err) == (0, "")
    assert out == f"wrote {tmp_path / 'keep.json'}: 'Tiered keep', 16x16\n"
    assert (tmp_path / "keep.json").read_bytes() == KEEP.read_bytes()


@pytest.mark.parametrize("output", ["map.json", "map.tsj", "map.png"])
def test_export_never_writes_over_its_input(tmp_path, capsys, output):
    src = tmp_path / output
    src.write_bytes(KEEP.read_bytes())
    target = tmp_path / "map.json" if output == "map.json" else tmp_path / "map.tmj"
    before = src.read_bytes()
    code, out, err = run(capsys, "export-tiled", src, "-o", target)
    assert code == 2 and out == ""
    assert err == (f"sodwa export-tiled: error: cannot write {src}: it is one of the input "
                   "files; choose another output file\n")
    assert src.read_bytes() == before
    assert not (tmp_path / "map.tmj").exists()


def test_export_refuses_another_suffix_and_a_missing_folder(tmp_path, capsys):
    code, _, err = run(capsys, "export-tiled", KEEP, "-o", tmp_path / "keep.txt")
    assert code == 2 and "a Tiled map file ends in .tmj (or .json)" in err
    code, _, err = run(capsys, "export-tiled", KEEP, "-o", tmp_path / "no" / "keep.tmj")
    assert code == 1 and err.count("\n") == 1 and "No such file or directory" in err
    assert not list(tmp_path.iterdir())


def test_export_of_an_invalid_map_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    code, _, err = run(capsys, "export-tiled", bad, "-o", tmp_path / "x.tmj")
    assert code == 1 and f"{bad} is not a valid map" in err
    assert not (tmp_path / "x.tmj").exists()


def test_import_never_writes_over_the_map_or_its_tileset(tmp_path, capsys):
    run(capsys, "export-tiled", KEEP, "-o", tmp_path / "keep.tmj")
    for name in ("keep.tmj", "keep.tsj"):
        before = (tmp_path / name).read_bytes()
        code, out, err = run(capsys, "import-tiled", tmp_path / "keep.tmj", "-o",
                             tmp_path / name)
        assert code == 2 and out == "" and "it is one of the input files" in err
        assert (tmp_path / name).read_bytes() == before
    if hasattr(os, "link"):  # a hard link to the tileset is the tileset
        os.link(tmp_path / "keep.tsj", tmp_path / "alias.json")
        code, _, err = run(capsys, "import-tiled", tmp_path / "keep.tmj", "-o",
                           tmp_path / "alias.json")
        assert code == 2 and "(the same file as" in err


def test_import_with_errors_writes_nothing(tmp_path, capsys):
    run(capsys, "export-tiled", KEEP, "-o", tmp_path / "keep.tmj")
    doc = json.loads((tmp_path / "keep.tmj").read_text())
    doc["layers"][0]["data"][0] = 999  # a gid of no tileset
    doc["layers"].append({"id": 99, "name": "notes", "type": "objectgroup", "objects": []})
    (tmp_path / "keep.tmj").write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = run(capsys, "import-tiled", tmp_path / "keep.tmj", "-o",
                         tmp_path / "out.json")
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert lines == [
        f"  warning: {tmp_path / 'keep.tmj'}: /layers/9: layer 'notes' (id 99): an object "
        "layer SODWA has no use for; ignored (SODWA layers: terrain, indoor, elevation, "
        "transitions, borders, objects, characters, start_zone:<team>)",
        f"  error: {tmp_path / 'keep.tmj'}: /layers/0/data: layer 'terrain' (id 1): gid 999 "
        "at tile (0, 0) belongs to no tileset",
        "sodwa import-tiled: error: map not written: 1 error(s), listed above"]
    assert not (tmp_path / "out.json").exists()


def test_import_with_warnings_writes_the_map(tmp_path, capsys):
    run(capsys, "export-tiled", KEEP, "-o", tmp_path / "keep.tmj")
    doc = json.loads((tmp_path / "keep.tmj").read_text())
    doc["properties"].append({"name": "author", "type": "string", "value": "me"})
    (tmp_path / "keep.tmj").write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = run(capsys, "import-tiled", tmp_path / "keep.tmj", "-o",
                         tmp_path / "out.json")
    assert code == 0
    assert "property 'author' is not a SODWA field and is ignored" in err
    assert out.endswith(", 1 warning(s) listed above\n")
    assert (tmp_path / "out.json").read_bytes() == KEEP.read_bytes()
