"""The `sodwa` command: every subcommand, its JSON output and its errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sodwa_editor.cli import main

MAPS = Path(__file__).resolve().parents[1] / "maps"
RULEBOOK = str(MAPS / "rulebook-elevated-los.json")


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_all_sample_maps(capsys):
    code, out, _ = run(capsys, "validate", *sorted(str(p) for p in MAPS.glob("*.json")))
    assert code == 0
    assert out.count(": map: ok") == len(list(MAPS.glob("*.json")))


def test_validate_reports_every_problem_and_fails(tmp_path, capsys):
    doc = json.loads(Path(RULEBOOK).read_text())
    doc["characters"][0]["x"] = 99
    doc["terrain"][0] = doc["terrain"][0][:-1]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    code, out, _ = run(capsys, "validate", str(bad), "--json")
    assert code == 1
    report = json.loads(out)
    assert report["valid"] is False
    paths = [p["path"] for p in report["files"][0]["problems"]]
    assert "/terrain/0" in paths and any(p.startswith("/characters/0") for p in paths)


def test_validate_broken_json_names_line(tmp_path, capsys):
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "sodwa-map",\n  "width": }')
    code, out, _ = run(capsys, "validate", str(bad))
    assert code == 1 and "line 2" in out


def test_los_single_text_and_json(capsys):
    code, out, _ = run(capsys, "los", RULEBOOK, "--from", "1,2", "--to", "11,2")
    assert code == 0 and out.startswith("1,2 -> 11,2: blocked by character 'green'")
    code, out, _ = run(capsys, "los", RULEBOOK, "--from", "3,2", "--to", "7,3", "--json")
    data = json.loads(out)
    assert data["class"] == "impeded" and data["reason"]["kind"] == "target-tile"
    assert data["reason"]["tile"] == [7, 3]


def test_los_fan_grid_and_json(capsys):
    code, out, _ = run(capsys, "los", RULEBOOK, "--from", "3,2")
    rows = out.splitlines()[1:]
    assert code == 0 and len(rows) == 5 and rows[2][3] == "@" and rows[3][7] == "i"
    code, out, _ = run(capsys, "los", RULEBOOK, "--from", "3,2", "--json")
    data = json.loads(out)
    assert len(data["classes"]) == 5 and data["classes"][3][7] == 1
    assert sum(data["counts"].values()) == 13 * 5


def test_reach_uses_the_characters_move_and_prints_path(capsys):
    keep = str(MAPS / "tiered-keep.json")
    code, out, _ = run(capsys, "reach", keep, "--from", "5,14", "--to", "7,13", "--json")
    data = json.loads(out)
    assert code == 0 and data["move"] == 7
    assert data["path"][0] == [5, 14] and data["path"][-1] == [7, 13]
    stairs = [r for r in data["reachable"] if r["tile"] == [7, 13]][0]
    assert stairs["must_stop"] is True
    code, out, _ = run(capsys, "reach", keep, "--from", "0,0", "--move", "2")
    assert code == 0 and "Move 2" in out


def test_reach_without_character_needs_move(capsys):
    code, _, err = run(capsys, "reach", RULEBOOK, "--from", "0,0")
    assert code == 2 and "give --move N" in err


def test_graph_json_is_node_link(capsys):
    code, out, _ = run(capsys, "graph", RULEBOOK, "--json")
    data = json.loads(out)
    assert code == 0 and len(data["nodes"]) == 65
    assert {e["crossing"] for e in data["edges"]} <= {"clear", "impeded"}
    assert data["blocked"] and "reason" in data["blocked"][0]
    assert out.count("\n") == 1  # compact: one line, as the README says


def test_graph_json_equals_networkx_node_link_data(capsys):
    """The one-pass conversion writes exactly what networkx.node_link_data gives,
    tiles as [x, y] lists."""
    import networkx as nx

    from sodwa_editor.engine.adjacency import AdjacencyGraph
    from sodwa_editor.io import load_map

    path = str(MAPS / "tiered-keep.json")
    code, out, _ = run(capsys, "graph", path, "--json")
    data = json.loads(out)
    expected = json.loads(json.dumps(
        nx.node_link_data(AdjacencyGraph(load_map(path)).graph, edges="edges")))
    del data["blocked"]
    assert code == 0 and data == expected


def test_pack_build_and_validate(tmp_path, capsys):
    pack = tmp_path / "pack.json"
    code, out, _ = run(capsys, "pack", "build", *sorted(str(p) for p in MAPS.glob("*.json")),
                       "-o", str(pack), "--name", "Samples", "--author", "QA")
    assert code == 0 and pack.exists()
    code, out, _ = run(capsys, "pack", "validate", str(pack))
    assert code == 0 and "ok" in out
    code, out, _ = run(capsys, "validate", str(pack))
    assert code == 0 and ": pack: ok" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["los", RULEBOOK, "--from", "99,2"], "--from 99,2 is outside the 13x5 map"),
        (["los", RULEBOOK, "--from", "1,2", "--to", "1,-1"], "--to 1,-1 is outside"),
        (["los", "/nonexistent/map.json", "--from", "0,0"], "/nonexistent/map.json"),
    ],
)
def test_bad_input_is_one_clear_line(capsys, args, message):
    code, _, err = run(capsys, *args)
    assert code != 0 and message in err and "Traceback" not in err


def test_bad_tile_syntax_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["los", RULEBOOK, "--from", "3;2"])
    assert exc.value.code == 2
    assert "expected X,Y" in capsys.readouterr().err


def test_console_script_runs():
    out = subprocess.run([sys.executable, "-m", "sodwa_editor.cli", "--version"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.startswith("sodwa ")


def test_a_reader_that_stops_early_gets_no_traceback():
    """``sodwa graph MAP --json | head``: the closed pipe ends the command quietly."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "sodwa_editor.cli", "graph", str(MAPS / "tiered-keep.json"),
         "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(10) == b'{\n  "direc'
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in err and err == ""


def test_pack_build_errors_are_one_line_each(tmp_path, capsys):
    code, _, err = run(capsys, "pack", "build", str(MAPS / "indoor-compound.json"),
                       "-o", str(tmp_path / "no" / "dir" / "p.json"))
    assert code == 1 and "Traceback" not in err
    assert err.strip() == (f"sodwa pack: error: pack not written: cannot save "
                           f"{tmp_path / 'no' / 'dir' / 'p.json'}: cannot create a file in "
                           f"{tmp_path / 'no' / 'dir'}: No such file or directory")
    code, _, err = run(capsys, "pack", "build", str(MAPS / "indoor-compound.json"),
                       "-o", str(tmp_path / "p.json"), "--pack-version", "")
    assert code == 1
    assert err.splitlines() == ['  error: /version: "" is too short (at least 1 character(s))',
                                "sodwa pack: error: pack not written: 1 error(s), listed above"]
