"""A replay recorded before map format 2 (issue 27) still verifies on the same map:
the map's hash as a format-1 file is accepted beside its current hash."""

from __future__ import annotations

import json
from pathlib import Path

from sodwa_editor.battle.replay import digest
from sodwa_editor.cli import main
from sodwa_editor.io import map_to_dict, read_map
from sodwa_editor.io.encode import map_hashes

MAP = Path(__file__).resolve().parents[1] / "maps" / "indoor-compound.json"


def test_a_replay_naming_the_maps_format_1_hash_verifies(tmp_path, capsys):
    replay = tmp_path / "r.json"
    assert main(["battle", str(MAP), "--seed", "3", "--replay", str(replay)]) == 0
    doc = json.loads(replay.read_text())
    model = read_map(MAP)[0]
    now, before = map_hashes(model)
    assert now == digest(map_to_dict(model)) and doc["map"]["hash"] == now
    assert before == digest({**map_to_dict(model), "format_version": 1}) != now
    doc["map"]["hash"] = before  # as a replay recorded when maps were format 1 names it
    if "hashes" in doc and "map" in doc["hashes"]:
        doc["hashes"]["map"] = before
    replay.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["replay", str(replay), "--verify"]) == 0, capsys.readouterr().err
    doc["map"]["hash"] = "sha256:" + "0" * 64  # any other hash: another map
    if "hashes" in doc and "map" in doc["hashes"]:
        doc["hashes"]["map"] = doc["map"]["hash"]
    replay.write_text(json.dumps(doc))
    assert main(["replay", str(replay), "--verify"]) == 1
    assert "made on a different map" in capsys.readouterr().err
