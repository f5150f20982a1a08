"""``sodwa aoe`` (issue 25) and ``sodwa reach`` / ``sodwa los`` with ``--size`` (issue 26):
the engine's answers on the command line, their JSON and their one-line errors."""

from __future__ import annotations

import json

import pytest

from sodwa_editor.cli import main
from sodwa_editor.engine.area_notation import parse_area
from sodwa_editor.engine.areas import area
from sodwa_editor.engine.footprint import Footprint
from sodwa_editor.engine.footprint_los import footprint_los
from sodwa_editor.engine.footprint_movement import footprint_reach
from sodwa_editor.engine.model import MapModel
from sodwa_editor.io import save_map


@pytest.fixture
def walled(tmp_path):
    """A 12x8 open map with an Obstructing pillar at 6,3 and nobody on it."""
    m = MapModel(12, 8, name="walled")
    m.set_terrain(6, 3, m.registry.id_of("obstructing"))
    path = tmp_path / "walled.json"
    save_map(m, path)
    return m, str(path)


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_aoe_prints_the_engines_tiles_and_the_walls_a_blast_breaks(walled, capsys):
    m, path = walled
    text = "AoE - Blast - Line: 5"
    code, out, _ = run(capsys, "aoe", path, "--from", "4,3", "--dir", "E", "--area", text,
                       "--damage", "5", "--json")
    assert code == 0
    data = json.loads(out)
    expect = area(m, parse_area(text), (4, 3), direction="E", damage=5, durability=3)
    assert data["affected"] == [list(t) for t in expect.affected]
    assert data["walls"] == [["tile", 6, 3]]
    assert [d[2] for d in data["damage"]] == [5, 2, 2, 2]
    code, out, _ = run(capsys, "aoe", path, "--from", "4,3", "--dir", "e", "--area", text)
    assert code == 0 and "stopped 6,3:" in out and "@*#" not in out
    assert out.splitlines()[5] == "....@*xxxx..", out  # the line stops at the pillar


def test_aoe_refusals_and_bad_arguments_are_one_line(walled, capsys):
    _m, path = walled
    code, out, _ = run(capsys, "aoe", path, "--from", "1,1", "--to", "11,7",
                       "--area", "AoE - Blast - Sphere: Range: 3, Reach: 1")
    assert code == 1 and "refused:" in out and "out of Range 3" in out
    code, _, err = run(capsys, "aoe", path, "--from", "1,1", "--area",
                       "AoE - Blast - Cone: 5|3:7")
    assert code == 2 and err.strip().endswith("anchor reach 7 exceeds the cone's range 5")
    assert len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "aoe", path, "--from", "1,1", "--dir", "UP", "--area",
                       "AoE - Blast - Ray: 3")
    assert code == 2 and "not a compass direction" in err
    code, _, err = run(capsys, "aoe", path, "--from", "40,1", "--area", "AoE - Blast - Sphere: 1")
    assert code == 2 and "outside the 12x8 map" in err


def test_aoe_picks_the_tiles_of_a_trail_in_order(walled, capsys):
    _m, path = walled
    code, out, _ = run(capsys, "aoe", path, "--from", "1,1", "--area", "AoE - Type - Trail: 3",
                       "--pick", "2,1", "--pick", "3,2", "--pick", "5,5", "--json")
    data = json.loads(out)
    assert code == 0 and data["affected"] == [[2, 1], [3, 2]]
    assert data["stopped"][0]["tile"] == [5, 5]


def test_reach_and_los_with_a_size_answer_for_the_footprint(walled, capsys):
    m, path = walled
    code, out, _ = run(capsys, "reach", path, "--from", "1,1", "--size", "2x2", "--move", "3",
                       "--json")
    assert code == 0
    data = json.loads(out)
    expect = footprint_reach(m, (1, 1), Footprint(2, 2), 3)
    assert {tuple(r["tile"]) for r in data["reachable"]} == set(expect.tiles())
    assert data["size"] == [2, 2]
    code, out, _ = run(capsys, "reach", path, "--from", "1,1", "--size", "large", "--move", "2")
    assert code == 0 and out.splitlines()[0].startswith("2x2 creature from 1,1")
    code, out, _ = run(capsys, "los", path, "--from", "3,2", "--size", "2x2", "--to", "9,3",
                       "--json")
    assert code == 0
    line = footprint_los(m, (3, 2), Footprint(2, 2), (9, 3), Footprint(1, 1))
    assert json.loads(out)["class"] == line.crossing.label
    code, out, _ = run(capsys, "los", path, "--from", "3,2", "--size", "2x2")
    assert code == 0 and out.splitlines()[3].startswith("...@@")


def test_a_size_that_does_not_fit_or_cannot_stand_is_refused_in_one_line(walled, capsys):
    _m, path = walled
    code, _, err = run(capsys, "reach", path, "--from", "10,6", "--size", "4x4", "--move", "2")
    assert code == 2 and "does not fit" in err
    code, _, err = run(capsys, "reach", path, "--from", "5,2", "--size", "2x2", "--move", "2")
    assert code == 1 and "cannot stand" in err
    for size, message in (("0x3", "at least 1x1"), ("300x2", "1x1 to 256x256"),
                          ("enormous", "expected WxH")):
        with pytest.raises(SystemExit) as exc:
            main(["reach", path, "--from", "1,1", "--size", size, "--move", "2"])
        assert exc.value.code == 2 and message in capsys.readouterr().err
