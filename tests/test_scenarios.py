"""Scenarios (issue 28 section 4): kept in map packs (format version 3) and scenario
files, played by ``sodwa battle PACK.json#SCENARIO`` and ``sodwa simulate``, checked
by ``sodwa validate`` with one line and a JSON pointer per problem."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from sodwa_editor.battle.jsonfiles import BattleInputError, read_json
from sodwa_editor.battle.scenario import scenario_rules, scenario_setup, side_labels
from sodwa_editor.battle.sheet import DEFAULT_ROSTER_PATH, roster_from_dict
from sodwa_editor.cli import main
from sodwa_editor.io import read_map
from sodwa_editor.io.packs import build_pack, read_pack, save_pack

MAPS = Path(__file__).resolve().parents[1] / "maps"
SKIRMISH = MAPS / "outdoor-skirmish.json"  # zones north, south; characters of both
KEEP = MAPS / "tiered-keep.json"


def team(name: str, *archetypes: str, formations: list | None = None) -> dict:
    doc = {"format": "sodwa-team", "format_version": 1, "name": name,
           "members": [{"id": f"m{i}", "archetype": a} for i, a in enumerate(archetypes)]}
    if formations is not None:
        doc["formations"] = formations
    return doc


def knights_vs_archers() -> dict:
    line = {"name": "line", "positions": {"m0": [0, 0], "m1": [1, 0]}}
    column = {"name": "column", "positions": {"m0": [0, 0], "m1": [0, 1]}}
    return {
        "format": "sodwa-scenario", "format_version": 1, "name": "Knights vs archers",
        "briefing": "Hold the ford.", "map": "Outdoor skirmish",
        "rules": {"format": "sodwa-rules", "format_version": 1, "clock": {"turn_cost": 400}},
        "point_cap": 300,
        "sides": [
            {"label": "knights", "team": team("Knights", "Knight", "Knight",
                                              formations=[line, column]),
             "formation": "column", "zone": "north", "controller": "human", "ai": "greedy"},
            {"team": team("Archers", "Archer", "Archer"), "zone": "south",
             "controller": "ai", "ai": "random"}]}


def map_characters() -> dict:
    return {"format": "sodwa-scenario", "format_version": 1, "name": "As placed",
            "map": "Outdoor skirmish",
            "sides": [{"map_team": "south", "controller": "ai"},
                      {"map_team": "north", "controller": "human", "ai": "random"}]}


def write_pack(tmp_path: Path, *scenarios: dict) -> Path:
    pack, problems = build_pack([SKIRMISH, KEEP], name="p", version="1")
    assert pack is not None, problems
    pack["scenarios"] = list(scenarios)
    path = tmp_path / "pack.json"
    path.write_text(json.dumps(pack), encoding="utf-8")
    return path


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def roster():
    doc = read_json(DEFAULT_ROSTER_PATH)
    return roster_from_dict(doc), doc


def test_a_scenario_sets_up_its_teams_formation_rules_cap_and_ais():
    model = read_map(SKIRMISH)[0]
    r, doc = roster()
    sc = knights_vs_archers()
    setup = scenario_setup(sc, model, r, roster_doc=doc)
    assert setup.rules.clock.turn_cost == 400 and setup.rules.battle.point_cap == 300
    assert setup.ai == ("greedy", "random")
    (z0, t0, f0), (z1, t1, f1) = setup.teams
    assert (z0, t0.name, f0, z1, t1.name, f1) == ("north", "Knights", "column", "south",
                                                   "Archers", None)
    assert setup.docs["teams"] == [sc["sides"][0]["team"], sc["sides"][1]["team"]]


def test_a_scenario_of_the_maps_characters_orders_its_sides_as_the_map_numbers_them():
    model = read_map(SKIRMISH)[0]
    r, doc = roster()
    sc = map_characters()
    setup = scenario_setup(sc, model, r, roster_doc=doc)
    assert setup.teams is None  # the map's characters where they stand (B3)
    assert setup.ai == ("random", "greedy")  # north is team 0 by name, its side plays random
    assert side_labels(sc, model) == ["north", "south"]


def test_the_scenarios_rules_are_its_variant_over_the_defaults_with_its_cap():
    sc = knights_vs_archers()
    assert scenario_rules(sc).clock.turn_cost == 400
    del sc["point_cap"]
    assert scenario_rules(sc).battle.point_cap is None
    sc["point_cap"] = None
    sc["rules"]["battle"] = {"point_cap": 250}
    assert scenario_rules(sc).battle.point_cap is None  # point_cap: null replaces it


@pytest.mark.parametrize("edit, message", [
    (lambda s: s["sides"][0].pop("zone"), "sides[0]: 'team' needs 'zone'"),
    (lambda s: s["sides"][1].update(map_team="north"), "sides[1]: a side is 'map_team'"),
    (lambda s: s["sides"][0].update(zone="west"), "sides[0].zone: the map has no start zone "
                                                  "'west' (it has: 'north', 'south')"),
    (lambda s: s["sides"][0].update(formation="wedge"),
     "sides[0].formation: team 'Knights' has no formation 'wedge' (has: line, column)"),
    (lambda s: s.update(point_cap=200), "sides[0].team: team 'Knights' costs 240 points, "
                                        "over the 200-point cap"),
    (lambda s: s["sides"][1]["team"]["members"][0].update(archetype="Dragon"),
     "sides[1].team: members[0].archetype: no archetype 'Dragon' in the roster"),
])
def test_a_scenario_no_battle_can_start_from_is_one_line_naming_the_key(edit, message):
    model = read_map(SKIRMISH)[0]
    r, doc = roster()
    sc = knights_vs_archers()
    edit(sc)
    with pytest.raises(BattleInputError) as exc:
        scenario_setup(sc, model, r, roster_doc=doc, source="s.json")
    assert str(exc.value).startswith(f"s.json: {message}"), str(exc.value)


def test_a_pack_keeps_scenarios_and_reads_back_byte_for_byte(tmp_path):
    path = write_pack(tmp_path, knights_vs_archers(), map_characters())
    pack, problems = read_pack(path)
    assert problems == [] and pack is not None and pack["format_version"] == 3
    save_pack(pack, tmp_path / "again.json")
    again, problems = read_pack(tmp_path / "again.json")
    assert problems == [] and again == pack


def test_sodwa_battle_plays_a_packs_scenario_by_name_the_same_battle_each_time(
        tmp_path, capsys):
    path = write_pack(tmp_path, knights_vs_archers())
    code, out, err = run(capsys, "battle", f"{path}#Knights vs archers", "--seed", "5",
                         "--json")
    assert code == 0, err
    code2, out2, _ = run(capsys, "battle", f"{path}#Knights vs archers", "--seed", "5",
                         "--json")
    assert out == out2
    text = out
    assert "Knights vs archers" in text and "north.m0" in text and "south.m1" in text


def test_command_line_options_replace_the_scenarios_own(tmp_path, capsys):
    path = write_pack(tmp_path, knights_vs_archers())
    code, _, err = run(capsys, "battle", f"{path}#Knights vs archers", "--ai", "pass,pass",
                       "--seed", "1")
    assert code == 0, err
    code, _, err = run(capsys, "battle", f"{path}#Knights vs archers", "--teams", SKIRMISH)
    assert code == 2 and "is a scenario: its sides are its teams" in err


def test_sodwa_simulate_runs_a_scenario(tmp_path, capsys):
    path = write_pack(tmp_path, map_characters())
    code, out, err = run(capsys, "simulate", f"{path}#As placed", "--battles", "4",
                         "--workers", "1", "--json")
    assert code == 0, err
    report = json.loads(out)["maps"][0]
    assert report["battles"] == 4 and report["map"].endswith("#As placed")


def test_a_scenario_file_names_its_map_relative_to_itself(tmp_path, capsys):
    folder = tmp_path / "scenarios"
    folder.mkdir()
    sc = knights_vs_archers()
    sc["map"] = "../maps/skirmish.json"
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "skirmish.json").write_bytes(SKIRMISH.read_bytes())
    path = folder / "kva.json"
    path.write_text(json.dumps(sc), encoding="utf-8")
    code, out, err = run(capsys, "battle", path, "--seed", "2")
    assert code == 0, err
    sc["map"] = "../maps/nowhere.json"
    path.write_text(json.dumps(sc), encoding="utf-8")
    code, out, err = run(capsys, "battle", path)
    assert code == 1 and err.count("\n") == 1 and "kva.json: map:" in err, err


def test_sodwa_validate_lists_each_scenario_problem_with_its_pointer(tmp_path, capsys):
    over_cap = knights_vs_archers()
    over_cap["point_cap"] = 200
    no_map = copy.deepcopy(map_characters())
    no_map.update(name="Lost", map="Atlantis")
    bad_arch = knights_vs_archers()
    bad_arch["name"] = "Dragons"
    bad_arch["sides"][1]["team"]["members"][1]["archetype"] = "Dragon"
    crowded = knights_vs_archers()
    crowded["name"] = "Crowded"
    crowded["point_cap"] = None
    crowded["sides"][0]["team"] = team("Horde", *["Knight"] * 40)
    crowded["sides"][0].pop("formation")
    twice = knights_vs_archers()
    clash = map_characters()
    clash["name"] = "Tiered keep"
    path = write_pack(tmp_path, over_cap, no_map, bad_arch, crowded, twice, clash)
    code, out, err = run(capsys, "validate", path, "--json")
    found = {(p["path"], p["message"]) for f in json.loads(out)["files"]
             for p in f["problems"]}
    paths = {p for p, _ in found}
    assert "/scenarios/0/sides/0/team" in paths
    assert "/scenarios/1/map" in paths
    assert "/scenarios/2/sides/1/team/members/1/archetype" in paths
    assert "/scenarios/3/sides" in paths
    assert "/scenarios/4/name" in paths  # a name used twice
    assert "/scenarios/5/name" in paths  # a map's name
    messages = dict(found)
    assert messages["/scenarios/0/sides/0/team"] == ("team 'Knights' costs 240 points, over "
                                                     "the 200-point cap")
    assert messages["/scenarios/1/map"].startswith("the scenario's map 'Atlantis' is not in")
    assert code == 1


def test_sodwa_pack_build_takes_scenario_files_and_names_their_maps(tmp_path, capsys):
    sc = knights_vs_archers()
    sc["map"] = str(SKIRMISH)  # a file: the pack keeps the map's name
    path = tmp_path / "kva.json"
    path.write_text(json.dumps(sc), encoding="utf-8")
    out_pack = tmp_path / "pack.json"
    code, out, err = run(capsys, "pack", "build", SKIRMISH, KEEP, "-o", out_pack,
                         "--scenario", path)
    assert code == 0, err
    assert "and its scenarios" in out
    pack = json.loads(out_pack.read_text())
    assert pack["scenarios"][0]["map"] == "Outdoor skirmish"
    sc["map"] = str(MAPS / "indoor-compound.json")  # not in the pack
    path.write_text(json.dumps(sc), encoding="utf-8")
    code, out, err = run(capsys, "pack", "build", SKIRMISH, "-o", tmp_path / "p2.json",
                         "--scenario", path)
    assert code == 1 and "is not one of the pack's maps" in err


def test_a_replay_of_a_scenario_verifies(tmp_path, capsys):
    path = write_pack(tmp_path, knights_vs_archers())
    replay = tmp_path / "r.json"
    code, _, err = run(capsys, "battle", f"{path}#Knights vs archers", "--seed", "4",
                       "--replay", replay)
    assert code == 0, err
    assert json.loads(replay.read_text())["map"]["file"].endswith("#Knights vs archers")
    code, out, err = run(capsys, "replay", replay, "--verify")
    assert code == 0, err
