"""The battle commands' input files: never blocked on by a FIFO, AI profile files
(``--ai-profile``) and their hash in a replay, and map packs that carry their own
rules and roster."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sodwa_editor.battle.replay import profiles_hash
from sodwa_editor.cli import main

ROOT = Path(__file__).resolve().parents[1]
MAPS = ROOT / "maps"
COMPOUND = MAPS / "indoor-compound.json"  # zones blue, red (9 tiles each); 3 v 3 on the map
fifos = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 1, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, err


def write_json(path: Path, doc: object) -> Path:
    path.write_text(json.dumps(doc))
    return path


def team_file(tmp_path: Path, name: str, archetypes: list[str]) -> Path:
    return write_json(tmp_path / f"{name}.json", {
        "format": "sodwa-team", "format_version": 1, "name": name,
        "members": [{"id": f"m{i}", "archetype": a} for i, a in enumerate(archetypes)]})


# ------------------------------------------------------------------ FIFOs
@fifos
@pytest.mark.parametrize("role", ["teams", "rules", "roster", "ai-profile", "replay"])
def test_a_fifo_as_an_input_file_is_one_line_not_a_hang(tmp_path, role):
    """A named pipe with no writer given as a battle input: refused before it is
    opened (a plain ``open`` would wait for a writer forever)."""
    fifo = tmp_path / "input.json"
    os.mkfifo(fifo)
    if role == "replay":
        args = ["replay", str(fifo), "--verify"]
    else:
        args = ["battle", str(COMPOUND), f"--{role}", str(fifo)]
    done = subprocess.run([sys.executable, "-m", "sodwa_editor.cli", *args],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert f"{fifo}: cannot read the file: it is a named pipe (FIFO), not a regular file" \
        in done.stderr


# ------------------------------------------------------------------ AI profiles
def rules_file(tmp_path: Path, name: str, **battle: object) -> Path:
    return write_json(tmp_path / name, {"format": "sodwa-rules", "format_version": 1,
                                        "battle": battle})


def profile_file(tmp_path: Path, name: str, **greedy: float) -> Path:
    return write_json(tmp_path / name, {"format": "sodwa-ai-profile", "format_version": 1,
                                        "greedy": greedy})


def test_an_ai_profile_reaches_the_ai_of_its_team(tmp_path):
    from sodwa_editor.battle.ai.profile import default_profile, load_profile
    from sodwa_editor.battle.setup import BattleSetup
    from sodwa_editor.engine.generate import make_mixed_map

    mine = load_profile(profile_file(tmp_path, "p.json", kill=9))
    setup = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("greedy", "expectimax"),
                                 profiles=[mine, default_profile()])
    state = setup.state(1)
    g, e = setup.controllers(state)
    assert g.weights.kill == 9 and e.profile == default_profile()
    e, g = setup.controllers(setup.state(1, True), swapped=True)  # the profile moves with it
    assert g.weights.kill == 9 and e.profile == default_profile()


@pytest.fixture(scope="module")
def greedy_replay(tmp_path_factory):
    """A short greedy-vs-random battle made with a profile of kill weight 7."""
    tmp = tmp_path_factory.mktemp("greedy")
    prof = profile_file(tmp, "prof.json", kill=7)
    rep = tmp / "r.json"
    code = main(["battle", str(COMPOUND), "--ai", "greedy,random", "--ai-profile", str(prof),
                 "--rules", str(rules_file(tmp, "short.json", max_turns=12)),
                 "--replay", str(rep)])
    assert code == 0
    return rep, prof


def test_a_replay_records_the_profile_its_ai_played_by(greedy_replay):
    rep, _prof = greedy_replay
    doc = json.loads(rep.read_text())
    assert doc["ai_profiles"][0]["greedy"]["kill"] == 7.0 and doc["ai_profiles"][1] is None


def test_verify_refuses_a_replay_made_with_another_profile(greedy_replay, capsys):
    rep, prof = greedy_replay
    code, _, err = run(capsys, "replay", rep, "--verify")
    one_line_error(code, err, "ai_profiles[0].greedy.kill", "another AI profile",
                   "7.0 in the replay, 4.0 in", "ai-profile.json", "--ai-profile FILE")
    code, out, err = run(capsys, "replay", rep, "--verify", "--ai-profile", prof)
    assert code == 0, err
    assert out.rstrip().splitlines()[-1].startswith("verified: ")
    assert run(capsys, "replay", rep)[0] == 0  # printing needs no profile


def test_the_profile_hash_covers_the_embedded_profiles(greedy_replay, capsys, tmp_path):
    rep, prof = greedy_replay
    doc = json.loads(rep.read_text())
    doc["ai_profiles"][0]["greedy"]["kill"] = 4.0  # the default's: still caught
    bad = write_json(tmp_path / "bad.json", doc)
    code, _, err = run(capsys, "replay", bad, "--verify")
    one_line_error(code, err, "hashes.ai_profiles", "does not match")


def test_random_ais_use_no_profile_so_any_profile_verifies(tmp_path, capsys):
    rep = tmp_path / "r.json"
    code, _, err = run(capsys, "battle", COMPOUND, "--seed", "4", "--replay", rep,
                       "--ai", "random,random",
                       "--ai-profile", profile_file(tmp_path, "p.json", kill=7))
    assert code == 0, err
    assert json.loads(rep.read_text())["ai_profiles"] == [None, None]
    assert run(capsys, "replay", rep, "--verify")[0] == 0


def test_an_older_replay_without_embedded_profiles_still_verifies(tmp_path, capsys):
    """Replays written before the profiles were embedded hash only the controller
    names: that is still the hash of a random-vs-random battle."""
    rep = tmp_path / "r.json"
    assert run(capsys, "battle", COMPOUND, "--seed", "4", "--replay", rep,
               "--ai", "random,random")[0] == 0
    doc = json.loads(rep.read_text())
    del doc["ai_profiles"]
    old = write_json(tmp_path / "old.json", doc)
    code, _, err = run(capsys, "replay", old, "--verify", "--map", COMPOUND)
    assert code == 0, err
    doc["controllers"] = ["greedy", "random"]  # (names then hashed alone)
    doc["hashes"]["ai_profiles"] = profiles_hash(["greedy", "random"], None)
    code, _, err = run(capsys, "replay", write_json(old, doc), "--verify", "--map", COMPOUND)
    one_line_error(code, err, "hashes.ai_profiles", "does not embed")


def test_a_bad_profile_file_is_one_line(tmp_path, capsys):
    code, _, err = run(capsys, "battle", COMPOUND, "--ai-profile",
                       profile_file(tmp_path, "p.json", kill=-1))
    one_line_error(code, err, "p.json: greedy.kill: -1 is less than the minimum of 0")
    files = [profile_file(tmp_path, f"p{i}.json") for i in range(3)]
    code = main(["battle", str(COMPOUND), *(a for f in files for a in ("--ai-profile", str(f)))])
    assert code == 2


# ------------------------------------------------------------------ map packs
KEEP = MAPS / "tiered-keep.json"


def roster_doc() -> dict:
    return json.loads((ROOT / "resources" / "roster.json").read_text())


def build(tmp_path: Path, capsys, *extra: object, maps=(COMPOUND,), name="pack.json"):
    out = tmp_path / name
    code, stdout, err = run(capsys, "pack", "build", *maps, "-o", out, *extra)
    return code, out, stdout, err


def test_a_pack_carries_its_rules_and_roster_and_reads_back_byte_for_byte(tmp_path, capsys):
    from sodwa_editor.io import dumps_pack, read_pack

    roster = roster_doc()
    roster["characters"][0]["attributes"]["cost"] = 777
    code, pack, out, err = build(tmp_path, capsys, "--rules",
                                 rules_file(tmp_path, "r.json", max_turns=5), "--roster",
                                 write_json(tmp_path / "roster.json", roster),
                                 maps=(COMPOUND, KEEP))
    assert code == 0, err
    assert "2 map(s) and its rules and roster" in out
    doc, problems = read_pack(pack)
    assert problems == [] and doc is not None
    assert doc["format_version"] == 3 and doc["rules"]["battle"] == {"max_turns": 5}
    assert doc["roster"] == roster
    assert dumps_pack(doc) == pack.read_text()
    assert run(capsys, "pack", "validate", pack)[0] == 0


def test_an_old_pack_without_rules_or_roster_still_loads_and_battles(tmp_path, capsys):
    from sodwa_editor.io import load_pack, read_pack, save_pack

    code, pack, _, err = build(tmp_path, capsys)
    assert code == 0, err
    doc = json.loads(pack.read_text())
    doc["format_version"] = 1
    old = write_json(tmp_path / "old.json", doc)
    read, problems = read_pack(old)
    assert problems == [] and read["format_version"] == 3  # read as version 3
    meta, models = load_pack(old)
    assert "rules" not in meta and len(models) == 1
    save_pack(read, tmp_path / "again.json")
    assert json.loads((tmp_path / "again.json").read_text())["format_version"] == 3
    code, out, err = run(capsys, "battle", old, "--seed", "3")
    assert code == 0, err
    code, plain, _ = run(capsys, "battle", COMPOUND, "--seed", "3")
    assert out.splitlines()[1:] == plain.splitlines()[1:]  # the default rules and roster


def test_battle_on_a_pack_uses_its_rules_unless_rules_is_given(tmp_path, capsys):
    code, pack, _, err = build(tmp_path, capsys, "--rules",
                               rules_file(tmp_path, "r.json", max_turns=5))
    assert code == 0, err
    code, out, err = run(capsys, "battle", pack, "--seed", "3", "--json")
    assert code == 0, err
    log = json.loads(out)
    assert log["map"] == f"{pack}#Indoor compound"
    end = log["events"][-1]
    assert (end["winner"], end["turns"]) == (None, 5) and "max_turns" in end["reason"]
    longer = rules_file(tmp_path, "long.json", max_turns=7)
    code, out, err = run(capsys, "battle", pack, "--seed", "3", "--json", "--rules", longer)
    assert code == 0, err
    assert json.loads(out)["events"][-1]["turns"] == 7


def test_battle_on_a_pack_uses_its_roster_unless_roster_is_given(tmp_path, capsys):
    roster = roster_doc()
    for entry in roster["characters"]:
        entry["attributes"]["cost"] = 5
    code, pack, _, err = build(tmp_path, capsys, "--roster",
                               write_json(tmp_path / "cheap.json", roster))
    assert code == 0, err

    def costs(*extra: object) -> set[int]:
        code, out, err = run(capsys, "battle", pack, "--json", *extra)
        assert code == 0, err
        return {c["cost"] for c in json.loads(out)["characters"] if c["archetype"]}

    assert costs() == {5}
    assert 5 not in costs("--roster", ROOT / "resources" / "roster.json")


def test_a_map_of_a_pack_by_name_and_its_replay(tmp_path, capsys):
    code, pack, _, err = build(tmp_path, capsys, "--rules",
                               rules_file(tmp_path, "r.json", max_turns=9),
                               maps=(COMPOUND, KEEP))
    assert code == 0, err
    code, _, err = run(capsys, "battle", pack)
    assert code == 2 and "holds 2 maps; name one as" in err and "'Tiered keep'" in err
    code, _, err = run(capsys, "battle", f"{pack}#Nowhere")
    one_line_error(code, err, "no map named 'Nowhere'", "'Indoor compound'")
    rep = tmp_path / "r.json"
    code, out, err = run(capsys, "battle", f"{pack}#Tiered keep", "--replay", rep)
    assert code == 0, err
    assert json.loads(rep.read_text())["map"]["file"] == f"{pack}#Tiered keep"
    code, again, err = run(capsys, "replay", rep, "--verify")
    assert code == 0, err
    assert again.splitlines()[1:-1] == out.splitlines()[1:]
    code, _, err = run(capsys, "replay", rep, "--verify", "--map", f"{pack}#Indoor compound")
    one_line_error(code, err, "different map")


def test_simulate_plays_every_map_of_a_pack_with_its_rules(tmp_path, capsys):
    code, pack, _, err = build(tmp_path, capsys, "--rules",
                               rules_file(tmp_path, "r.json", max_turns=4),
                               maps=(COMPOUND, KEEP))
    assert code == 0, err
    code, out, err = run(capsys, "simulate", pack, "--battles", "2", "--json")
    assert code == 0, err
    maps = json.loads(out)["maps"]
    assert [m["map"] for m in maps] == [f"{pack}#Indoor compound", f"{pack}#Tiered keep"]
    assert all(m["length"]["turns"]["max"] == 4 for m in maps)


@pytest.mark.parametrize(("key", "change", "where"), [
    ("rules", lambda d: d.update(clock={"turn_cost": -5}), "/rules/clock/turn_cost"),
    ("rules", lambda d: d.update(dice={"auto_fail_at_or_below": 100}),
     "/rules/dice/auto_fail_at_or_below"),
    ("roster", lambda d: d["characters"][1].update(name=d["characters"][0]["name"].upper()),
     "/roster/characters/1/name"),
    ("roster", lambda d: d["characters"][2]["attributes"].update(initiative=-3),
     "/roster/characters/2/attributes/initiative"),
])
def test_bad_pack_contents_are_one_line_with_the_json_path(tmp_path, capsys, key, change,
                                                           where):
    good = {"rules": {"format": "sodwa-rules", "format_version": 1}, "roster": roster_doc()}
    bad = good[key]
    change(bad)
    source = write_json(tmp_path / f"{key}.json", bad)
    code, pack, _, err = build(tmp_path, capsys, f"--{key}", source)
    assert code == 1 and not pack.exists()
    assert f"{source}: {where.removeprefix('/' + key)}: " in err
    code, pack, _, err = build(tmp_path, capsys)
    doc = json.loads(pack.read_text())
    doc[key] = bad
    broken = write_json(tmp_path / "broken.json", doc)
    code, _, err = run(capsys, "battle", broken)
    one_line_error(code, err, f"{broken}: not a valid map pack: {where}: ")
    code, out, _ = run(capsys, "pack", "validate", broken)
    assert code == 1 and f"error: {where}: " in out
