"""Replays (issue 11 section 4) and ``sodwa battle`` / ``sodwa replay``: determinism,
verification, and one clear line for every bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sodwa_editor.battle.jsonfiles import validate
from sodwa_editor.battle.replay import ReplayError, load_replay, record, rerun
from sodwa_editor.battle.setup import BattleSetup
from sodwa_editor.cli import main
from sodwa_editor.engine.generate import make_mixed_map

MAPS = Path(__file__).resolve().parents[1] / "maps"
COMPOUND = MAPS / "indoor-compound.json"  # zones blue, red (9 tiles each); 3 v 3 on the map


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 1
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, err


def team_file(tmp_path: Path, name: str, archetypes: list[str]) -> Path:
    doc = {"format": "sodwa-team", "format_version": 1, "name": name,
           "members": [{"id": f"m{i}", "archetype": a} for i, a in enumerate(archetypes)]}
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc))
    return path


def map_variant(tmp_path: Path, change) -> Path:
    doc = json.loads(COMPOUND.read_text())
    change(doc)
    path = tmp_path / "variant.json"
    path.write_text(json.dumps(doc))
    return path


# ------------------------------------------------------------------ replay module
@pytest.fixture(scope="module")
def recorded():
    setup = BattleSetup.from_map(make_mixed_map(14, seed=8), ai=("random", "random"))
    out, doc = record(setup, 11, map_file="m.json", map_hash="sha256:ab")
    return setup, out, doc


def test_a_replay_matches_its_schema_and_rebuilds_the_same_event_log(recorded):
    setup, out, doc = recorded
    validate(json.loads(json.dumps(doc)), "replay", "r.json")
    again = rerun(load_replay(json.loads(json.dumps(doc)), "r.json"), setup.model,
                  "sha256:ab", verify=True)
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in out.events]
    assert len(doc["turn_hashes"]) == doc["result"]["turns"] > 0


def test_verify_names_the_first_turn_whose_state_differs(recorded):
    setup, _out, doc = recorded
    bad = json.loads(json.dumps(doc))
    bad["turn_hashes"][3] = "0" * 32
    rerun(load_replay(bad, "r.json"), setup.model, "sha256:ab")  # without --verify: fine
    with pytest.raises(ReplayError, match=r"turn_hashes\[3\].*turn 4"):
        rerun(load_replay(bad, "r.json"), setup.model, "sha256:ab", verify=True)


def test_a_changed_decision_is_refused_in_one_line(recorded):
    setup, _out, doc = recorded
    bad = json.loads(json.dumps(doc))
    k = next(i for i, d in enumerate(bad["decisions"]) if "move" in d)
    bad["decisions"][k]["move"] = [0, 0]  # a tile the mover cannot reach (or a wall)
    with pytest.raises(ReplayError) as info:
        rerun(load_replay(bad, "r.json"), setup.model, "sha256:ab", verify=True)
    assert "\n" not in str(info.value) and str(info.value).startswith("r.json: ")


def test_extra_or_missing_decisions_are_refused(recorded):
    setup, _out, doc = recorded
    more = json.loads(json.dumps(doc))
    more["decisions"].append({"team": 0, "pass": True})
    with pytest.raises(ReplayError, match="1 decision\\(s\\) left"):
        rerun(load_replay(more, "r.json"), setup.model, "sha256:ab")
    fewer = json.loads(json.dumps(doc))
    fewer["decisions"] = fewer["decisions"][:5]
    with pytest.raises(ReplayError, match="more decisions"):
        rerun(load_replay(fewer, "r.json"), setup.model, "sha256:ab")


def test_embedded_documents_must_match_their_hashes(recorded):
    _setup, _out, doc = recorded
    bad = json.loads(json.dumps(doc))
    bad["rules"]["clock"]["turn_cost"] = 400
    with pytest.raises(ReplayError, match="hashes.rules"):
        load_replay(bad, "r.json")


def test_a_replay_refuses_a_different_map(recorded):
    setup, _out, doc = recorded
    with pytest.raises(ReplayError, match="different map"):
        rerun(load_replay(doc, "r.json"), setup.model, "sha256:cd")


# ------------------------------------------------------------------ sodwa battle
def test_battle_prints_a_readable_turn_by_turn_log(capsys):
    code, out, err = run(capsys, "battle", COMPOUND, "--seed", "3")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("battle: team 0 blue (greedy) vs team 1 red (greedy)")  # default
    assert any(line.startswith("tick ") and "IP" in line for line in lines)
    attack = next(line for line in lines if " vs difficulty " in line)
    assert "roll" in attack and "damage" in attack and "karma" in attack
    assert lines[-1].startswith("result: ")


def test_same_seed_same_log_other_seed_other_log(capsys):
    logs = []
    for seed in ("5", "5", "6"):
        code, out, _ = run(capsys, "battle", COMPOUND, "--seed", seed, "--json")
        assert code == 0
        logs.append(json.loads(out))
    assert logs[0] == logs[1]
    assert logs[0]["events"] != logs[2]["events"]
    assert logs[0]["events"][-1]["kind"] == "battle_ended"
    assert [c["id"] for c in logs[0]["characters"]][:1] == ["archer"]


def test_battle_from_team_files_and_replay_verify(tmp_path, capsys):
    a = team_file(tmp_path, "a", ["Archer", "Knight"])
    b = team_file(tmp_path, "b", ["Mage", "Knight"])
    rep = tmp_path / "r.json"
    code, out, err = run(capsys, "battle", COMPOUND, "--teams", a, "--teams", b, "--seed", "2",
                         "--ai", "random,pass", "--replay", rep, "--json")
    assert code == 0, err
    log = json.loads(out)
    assert {c["id"] for c in log["characters"]} == {"blue.m0", "blue.m1", "red.m0", "red.m1"}
    code, out2, err = run(capsys, "replay", rep, "--verify", "--json")
    assert code == 0, err
    assert json.loads(out2)["events"] == log["events"]
    code, text, _ = run(capsys, "replay", rep, "--verify")
    assert code == 0 and text.rstrip().splitlines()[-1].startswith("verified: ")


@pytest.mark.parametrize("ai", ["random,nobody", "random", "random,pass,pass"])
def test_battle_unknown_or_wrong_number_of_ai(capsys, ai):
    code, _, err = run(capsys, "battle", COMPOUND, "--ai", ai)
    one_line_error(code, err, "AI")


def test_battle_team_over_the_point_cap(tmp_path, capsys):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"format": "sodwa-rules", "format_version": 1,
                                 "battle": {"point_cap": 150}}))
    a = team_file(tmp_path, "big", ["Archer", "Knight"])
    code, _, err = run(capsys, "battle", COMPOUND, "--teams", a, "--rules", rules)
    one_line_error(code, err, "'big'", "150-point cap")


def test_battle_team_with_no_start_zone(tmp_path, capsys):
    path = map_variant(tmp_path, lambda d: d["start_zones"].pop("red"))
    a = team_file(tmp_path, "a", ["Archer"])
    code, _, err = run(capsys, "battle", path, "--teams", a)
    one_line_error(code, err, "no start zone", "blue")


def test_battle_start_zone_too_small(tmp_path, capsys):
    path = map_variant(tmp_path, lambda d: d["start_zones"].update(red=[[17, 11], [18, 11]]))
    a = team_file(tmp_path, "trio", ["Archer", "Knight", "Mage"])
    code, _, err = run(capsys, "battle", path, "--teams", a)
    one_line_error(code, err, "'red'", "room for 2", "has 3")


def test_battle_roster_entry_with_negative_initiative(tmp_path, capsys):
    roster = json.loads((MAPS.parent / "resources" / "roster.json").read_text())
    roster["characters"][0]["attributes"]["initiative"] = -5
    path = tmp_path / "roster.json"
    path.write_text(json.dumps(roster))
    code, _, err = run(capsys, "battle", COMPOUND, "--roster", path)
    one_line_error(code, err, "initiative", "-5")


def test_battle_map_character_with_negative_initiative(tmp_path, capsys):
    path = map_variant(tmp_path, lambda d: d["characters"][0].update(
        attributes={"initiative": -3}))
    code, _, err = run(capsys, "battle", path)
    one_line_error(code, err, "'archer'", "initiative", "-3")


# ------------------------------------------------------------------ sodwa replay errors
@pytest.fixture()
def replay_file(tmp_path, capsys):
    rep = tmp_path / "r.json"
    code, _, err = run(capsys, "battle", COMPOUND, "--seed", "4", "--replay", rep)
    assert code == 0, err
    return rep


def test_replay_corrupt_file(replay_file, capsys):
    replay_file.write_text(replay_file.read_text()[:500])
    code, _, err = run(capsys, "replay", replay_file)
    one_line_error(code, err, "invalid JSON")
    replay_file.write_text(json.dumps({"format": "sodwa-replay", "format_version": 1}))
    code, _, err = run(capsys, "replay", replay_file)
    one_line_error(code, err, "missing required key")


def test_replay_for_a_different_map(replay_file, tmp_path, capsys):
    other = map_variant(tmp_path, lambda d: d["characters"][0].update(x=2, y=0))
    code, _, err = run(capsys, "replay", replay_file, "--map", other, "--verify")
    one_line_error(code, err, "different map")


def test_replay_with_its_map_missing(replay_file, tmp_path, capsys):
    doc = json.loads(replay_file.read_text())
    doc["map"]["file"] = str(tmp_path / "gone.json")
    replay_file.write_text(json.dumps(doc))
    code, _, err = run(capsys, "replay", replay_file)
    one_line_error(code, err, "gone.json", "missing")


def test_replay_with_a_tampered_turn_hash_fails_verify(replay_file, capsys):
    doc = json.loads(replay_file.read_text())
    doc["turn_hashes"][-1] = "f" * 32
    replay_file.write_text(json.dumps(doc))
    assert run(capsys, "replay", replay_file)[0] == 0
    code, _, err = run(capsys, "replay", replay_file, "--verify")
    one_line_error(code, err, "turn_hashes")


@pytest.mark.parametrize("fmt", [[], ["--json"]])
def test_battle_log_to_a_reader_that_stops_early(fmt):
    """``sodwa battle MAP | head``: exit 141, nothing on stderr (the log of this
    battle is far larger than a pipe's buffer: a side that only passes makes a long
    battle, 140 kB of text; greedy against greedy wrote 9 kB, which a 64 kB pipe
    takes whole before the reader stops, so the battle exited 0 when the reader was
    slow)."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "sodwa_editor.cli", "battle", str(COMPOUND),
                             "--seed", "3", "--ai", "pass,random", *fmt],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(6) in (b"battle", b'{\n  "f')
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert err == ""


def test_battle_replay_output_never_replaces_an_input_or_a_fifo(tmp_path, capsys):
    import os

    path = map_variant(tmp_path, lambda d: None)
    before = path.read_bytes()
    code, _, err = run(capsys, "battle", path, "--replay", path)
    assert code == 2 and "one of the input files" in err and err.count("\n") == 1
    assert path.read_bytes() == before
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code, _, err = run(capsys, "battle", path, "--replay", fifo)
    one_line_error(code, err, "not a regular file")
