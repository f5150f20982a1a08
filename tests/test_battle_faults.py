"""Issue 22: the battle commands under bad input and long battles.

* item 3: ``sodwa battle`` shows progress on a terminal, stops at ``--time-limit``
  (exit 124, one line), and warns at once about teams that cannot win within
  ``battle.max_turns`` turns;
* item 4: AI profiles the scorer cannot handle are refused, and the scorer
  stays finite whatever weights it is given;
* item 5: a lone surrogate in a team, rules or roster is refused when the file is
  read, naming the file and the key;
* item 7: a replay the writer writes is one the reader reads (the limit is one);
* item 8: ``replay --verify`` re-runs the AIs a replay names;
* item 10: error lines stay short; ``bench`` refuses repeats and battles out of range.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from sodwa_editor.battle.replay import digest, profiles_hash
from sodwa_editor.cli import main
from sodwa_editor.cli_common import EXIT_BUDGET

ROOT = Path(__file__).resolve().parents[1]
COMPOUND = ROOT / "maps" / "indoor-compound.json"  # 3 v 3 on the map, zones blue and red


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, err: str, *words: str, exit_code: int = 1) -> None:
    assert code == exit_code, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, err


def write(path: Path, doc: object) -> Path:
    path.write_text(json.dumps(doc))
    return path


def rules_doc(**sections: dict) -> dict:
    return {"format": "sodwa-rules", "format_version": 1, **sections}


def roster_doc(**attributes: int) -> dict:
    roster = json.loads((ROOT / "resources" / "roster.json").read_text())
    for entry in roster["characters"]:
        entry["attributes"].update(attributes)
    roster["defaults"]["attributes"].update(attributes)
    return roster


@pytest.fixture
def no_battle(monkeypatch):
    """A battle started anyway fails the test: the refusal must come first."""
    from sodwa_editor.battle import loop, replay

    def played(*args, **kwargs):
        raise AssertionError("a battle was played before the input was refused")

    monkeypatch.setattr(loop, "run_battle", played)
    monkeypatch.setattr(replay, "run_battle", played)


# ------------------------------------------------------------------ item 3
class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def slow_turns(monkeypatch, seconds: float) -> None:
    """Every turn of a battle seems to take ``seconds`` (a fake clock)."""
    from sodwa_editor import cli_watch

    now = [0.0]

    def tick() -> float:
        now[0] += seconds
        return now[0]

    monkeypatch.setattr(cli_watch.time, "monotonic", tick)


def test_battle_shows_turns_and_tick_on_a_terminal_and_clears_the_line(monkeypatch, capsys):
    slow_turns(monkeypatch, 0.3)
    term = Terminal()
    monkeypatch.setattr("sys.stderr", term)
    code = main(["battle", str(COMPOUND), "--ai", "random,random", "--seed", "1"])
    assert code == 0
    shown = term.getvalue()
    assert "\rbattle: turn 2 of at most 2000, tick " in shown, shown[:200]
    assert "\rbattle: turn 3 of at most 2000, tick " in shown
    assert "turn 1 of" not in shown  # (the first half second shows nothing)
    assert shown.endswith("\r\x1b[K")  # the line is cleared before the log
    assert capsys.readouterr().out.startswith("battle: team 0")


def test_battle_shows_no_progress_when_stderr_is_not_a_terminal(monkeypatch, capsys):
    slow_turns(monkeypatch, 0.3)
    code, out, err = run(capsys, "battle", COMPOUND, "--ai", "random,random")
    assert code == 0 and err == "" and out.startswith("battle: team 0")


def test_time_limit_stops_the_battle_in_one_line_with_exit_124(monkeypatch, tmp_path, capsys):
    slow_turns(monkeypatch, 1.0)
    out = tmp_path / "r.json"
    code, stdout, err = run(capsys, "battle", COMPOUND, "--ai", "pass,pass", "--time-limit",
                            "5", "--replay", out)
    one_line_error(code, err, "the battle went over --time-limit 5 s at turn 6 of at most "
                   "2000", "no replay written", exit_code=EXIT_BUDGET)
    assert EXIT_BUDGET == 124 and stdout == "" and not out.exists()


@pytest.mark.parametrize(("value", "message"), [
    ("0", "must be more than 0 and at most 604800"), ("nan", "must be more than 0"),
    ("1e9", "must be more than 0 and at most 604800 (a week), got 1e9"),
    ("x", "expected a number of seconds")])
def test_a_time_limit_out_of_range_is_a_usage_error(capsys, value, message):
    with pytest.raises(SystemExit) as exc:
        main(["battle", str(COMPOUND), "--time-limit", value])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and f"argument --time-limit: {message}" in err, err


def test_teams_that_cannot_win_within_the_turn_cap_are_warned_about_at_once(
        tmp_path, capsys, monkeypatch):
    """Health 10**6 (the roster's largest): 3 characters take more hits than 2000
    turns hold, for either team; the warning comes before the battle, which then
    plays (a short cap for a quick test battle is fine)."""
    roster = write(tmp_path / "tough.json", roster_doc(health=1_000_000))
    rules = write(tmp_path / "r.json", rules_doc(battle={"max_turns": 30}))
    code, out, err = run(capsys, "battle", COMPOUND, "--roster", roster, "--rules", rules,
                         "--ai", "random,random")
    assert code == 0 and err.count("\n") == 1, err
    assert "warning:" in err and "no team can win within battle.max_turns = 30 turns" in err
    assert "every battle will be a draw at the turn limit" in err and str(roster) in err
    assert "a draw (turn limit" in out
    code, _, err = run(capsys, "battle", COMPOUND, "--rules", rules, "--ai", "random,random")
    assert code == 0 and err == ""  # the default roster can win in 30 turns


def test_hits_to_win_counts_health_floor_damage_reduction_and_min_damage():
    from dataclasses import replace

    from sodwa_editor.battle.rules import default_rules
    from sodwa_editor.battle.sheet import load_roster
    from sodwa_editor.battle.teams import certain_draw, hits_to_win

    rules = default_rules()
    roster = load_roster()
    knight = roster.find("Knight").sheet()
    archer = roster.find("Archer").sheet()
    a = replace(archer, melee_damage=4, ranged_damage=6, damage_type="physical")
    d = replace(knight, health=25, damage_reduction=2)
    assert hits_to_win([a], [d], rules) == 7  # 25 / (6 - 2), rounded up
    floor = replace(rules, combat=replace(rules.combat, defeated_at_or_below=-3))
    assert hits_to_win([a], [d], floor) == 7  # 28 / 4
    assert hits_to_win([a], [d, d], floor) == 14
    walls = replace(d, damage_reduction=6)
    assert hits_to_win([a], [walls], rules) is None  # no damage gets through
    least = replace(rules, combat=replace(rules.combat, min_damage=1))
    assert hits_to_win([a], [walls], least) == 25
    assert hits_to_win([walls], [walls], rules) is None  # (a Knight's 5 against DR 6)
    assert "team 0 never" in certain_draw([[walls], [walls]], rules)
    assert certain_draw([[walls], [walls]], least) is None  # 25 hits in 2000 turns
    short = replace(least, battle=replace(rules.battle, max_turns=24))
    assert "team 0 needs 25 hits, team 1 needs 25 hits" in certain_draw([[walls], [walls]],
                                                                        short)
    assert certain_draw([[a], [walls]], short) is None  # the knight needs 2 hits on the archer


# ------------------------------------------------------------------ item 4
@pytest.mark.parametrize("weight", ["1e308", "1" + "0" * 400, "1000001"])
def test_an_ai_profile_weight_beyond_the_scorer_is_refused_in_one_line(
        tmp_path, capsys, no_battle, weight):
    path = tmp_path / "p.json"
    path.write_text('{"format": "sodwa-ai-profile", "format_version": 1, '
                    f'"greedy": {{"kill": {weight}}}}}')
    code, _, err = run(capsys, "battle", COMPOUND, "--ai-profile", path)
    one_line_error(code, err, f"{path}: greedy.kill:", "is greater than the maximum of 1000000")
    assert len(err) < 300


def test_replay_verify_refuses_such_a_profile_in_one_line(tmp_path, capsys):
    rep = tmp_path / "r.json"
    assert run(capsys, "battle", COMPOUND, "--replay", rep, "--ai", "pass,pass",
               "--rules", write(tmp_path / "r5.json", rules_doc(battle={"max_turns": 4})))[0] == 0
    path = tmp_path / "p.json"
    path.write_text('{"format": "sodwa-ai-profile", "format_version": 1, '
                    '"greedy": {"kill": 1' + "0" * 400 + "}}")
    code, _, err = run(capsys, "replay", rep, "--verify", "--ai-profile", path)
    one_line_error(code, err, f"{path}: greedy.kill:")


@pytest.mark.parametrize("value", [float("inf"), float("nan"), 1e308, 10**400],
                         ids=["inf", "nan", "1e308", "10**400"])
@pytest.mark.parametrize("ai", ["greedy", "expectimax"])
def test_the_scorer_is_finite_whatever_the_weights(value, ai):
    """Weights made in memory (no file, no schema): inf, NaN, 1e308 and an int
    too large for a float crashed the greedy AI (IndexError, numba TypingError,
    OverflowError); they are kept finite and every AI plays its battle."""
    import math

    from sodwa_editor.battle.ai.profile import MAX_WEIGHT, GreedyWeights, Profile, default_profile
    from sodwa_editor.battle.ai.scoring import plans
    from sodwa_editor.battle.loop import View, run_battle
    from sodwa_editor.battle.rules import default_rules
    from sodwa_editor.battle.setup import BattleSetup
    from sodwa_editor.io import read_map

    weights = GreedyWeights(value, value, value, value, value, value, value)
    assert all(math.isfinite(w) and abs(w) <= MAX_WEIGHT
               for w in (weights.damage, weights.kill, weights.approach))
    model, _ = read_map(COMPOUND)
    rules = default_rules()
    rules = type(rules)(**{**{f: getattr(rules, f) for f in rules.__slots__},
                           "battle": type(rules.battle)(None, 40)})
    setup = BattleSetup.from_map(model, rules=rules, ai=(ai, "random"),
                                 profiles=[Profile(weights, default_profile().expectimax)])
    state = setup.state(3)
    out = run_battle(state, setup.controllers(state))
    assert out.result is not None
    state = setup.state(3)
    from sodwa_editor.battle.actions import begin_turn, next_turn

    begin_turn(state, next_turn(state).candidates[0])
    made = plans(View(state, state.team[state.actor]), weights, None)
    assert made and all(math.isfinite(p.utility) for p in made)


def test_a_nan_utility_still_picks_a_plan():
    import numpy as np

    from sodwa_editor.battle.actions import Pass
    from sodwa_editor.battle.ai.greedy import pick
    from sodwa_editor.battle.ai.scoring import Plan

    nan = float("nan")
    chosen = pick([Plan(nan, 0, (Pass(),)), Plan(nan, 1, (Pass(),))],
                  np.random.default_rng(0))
    assert chosen.order == 0


# ------------------------------------------------------------------ item 5
def team_doc(name: str) -> dict:
    return {"format": "sodwa-team", "format_version": 1, "name": name,
            "members": [{"id": "a", "archetype": "Archer"}, {"id": "k", "archetype": "Knight"}]}


@pytest.mark.parametrize("role", ["teams", "rules", "roster"])
def test_a_lone_surrogate_in_a_name_is_refused_when_the_file_is_read(
        tmp_path, capsys, no_battle, role):
    if role == "teams":
        doc, key = team_doc("bad\ud800"), "name"
    elif role == "rules":
        doc, key = rules_doc(name="bad\ud800"), "name"
    else:
        doc = roster_doc()
        doc["characters"][1]["name"] += "\udc80"
        key = "characters[1].name"
    path = tmp_path / f"{role}.json"
    path.write_text(json.dumps(doc))  # (json escapes the surrogate: \ud800)
    out = tmp_path / "out.json"
    code, _, err = run(capsys, "battle", COMPOUND, f"--{role}", path, "--replay", out)
    one_line_error(code, err, f"{path}: {key}: the text holds \\u", "lone UTF-16 surrogate")
    assert not out.exists()


def test_a_lone_surrogate_in_a_pack_rules_is_refused_by_pack_build(tmp_path, capsys):
    rules = write(tmp_path / "r.json", rules_doc(description="x\udfff"))
    code, _, err = run(capsys, "pack", "build", COMPOUND, "-o", tmp_path / "p.json",
                       "--rules", rules)
    assert code == 1 and "description: the text holds \\udfff" in err, err


# ------------------------------------------------------------------ item 7
def test_a_replay_over_the_small_file_limit_is_read_back(tmp_path, capsys, monkeypatch):
    """Replays may be larger than rules, rosters and teams: a replay the writer
    writes is read (the 4 MiB limit of the small files made to 2 KB here)."""
    from sodwa_editor.battle import jsonfiles

    rep = tmp_path / "r.json"
    assert run(capsys, "battle", COMPOUND, "--ai", "pass,pass", "--replay", rep, "--rules",
               write(tmp_path / "cap.json", rules_doc(battle={"max_turns": 300})))[0] == 0
    monkeypatch.setattr(jsonfiles, "MAX_BYTES", 2048)
    assert rep.stat().st_size > 2048
    code, out, err = run(capsys, "replay", rep, "--verify")
    assert code == 0 and out.rstrip().splitlines()[-1].startswith("verified: 300 turn"), err
    team = write(tmp_path / "big-team.json", {**team_doc("t"), "description": "x" * 3000})
    code, _, err = run(capsys, "battle", COMPOUND, "--teams", team)
    one_line_error(code, err, "the file is over 2048 bytes")


def test_the_writer_stops_a_replay_the_reader_would_refuse(tmp_path, capsys, monkeypatch):
    """The replay limit (32 MiB, made 40 KB here) is the writer's too: a battle whose
    replay would be longer stops once that is certain, in one line, with nothing
    written; the reader refuses a longer file."""
    from sodwa_editor.battle import jsonfiles

    monkeypatch.setattr(jsonfiles, "REPLAY_MAX_BYTES", 40_000)
    rep = tmp_path / "r.json"
    code, out, err = run(capsys, "battle", COMPOUND, "--ai", "pass,pass", "--replay", rep)
    one_line_error(code, err, "the replay would be over 40000 bytes", "at turn 1143 of at "
                   "most 2000 (battle.max_turns)")
    assert out == "" and not rep.exists()
    big = tmp_path / "big.json"
    big.write_bytes(b'{"format":"sodwa-replay",' + b" " * 40_000 + b"}")
    code, _, err = run(capsys, "replay", big)
    one_line_error(code, err, "the file is over 40000 bytes")


def test_replay_text_refuses_what_the_reader_would_not_read(monkeypatch):
    from sodwa_editor.battle import jsonfiles
    from sodwa_editor.battle.replay import ReplayError, replay_text

    doc = {"format": "sodwa-replay", "turn_hashes": ["0" * 32] * 100}
    assert len(replay_text(doc)) < 4000
    monkeypatch.setattr(jsonfiles, "REPLAY_MAX_BYTES", 1000)
    with pytest.raises(ReplayError, match="over the 1000 a replay may be"):
        replay_text(doc)


# ------------------------------------------------------------------ item 8
@pytest.fixture
def greedy_replay(tmp_path, capsys):
    rep = tmp_path / "greedy.json"
    code, _, err = run(capsys, "battle", COMPOUND, "--seed", "4", "--replay", rep)
    assert code == 0, err
    return rep


def relabel(path: Path, controllers: list[str], profiles: list) -> dict:
    """The replay with other controller names and profiles, every hash recomputed
    (as someone editing the file would)."""
    doc = json.loads(path.read_text())
    doc["controllers"], doc["ai_profiles"] = controllers, profiles
    doc["hashes"]["ai_profiles"] = profiles_hash(controllers, profiles)
    path.write_text(json.dumps(doc))
    return doc


def test_verify_refuses_a_replay_whose_controllers_were_relabelled(greedy_replay, capsys):
    relabel(greedy_replay, ["random", "pass"], [None, None])
    code, out, err = run(capsys, "replay", greedy_replay)  # (no --verify: re-played as is)
    assert code == 0, err
    code, _, err = run(capsys, "replay", greedy_replay, "--verify")
    one_line_error(code, err, f"{greedy_replay}: decisions[0]: turn 1: team ",
                   "the replay has", "not a decision of the AI it names")
    assert "'s AI (random) would " in err or "team 1's AI (pass) would pass" in err


def test_verify_refuses_one_side_relabelled_at_its_first_decision(greedy_replay, capsys):
    doc = json.loads(greedy_replay.read_text())
    relabel(greedy_replay, ["greedy", "pass"], [doc["ai_profiles"][0], None])
    code, _, err = run(capsys, "replay", greedy_replay, "--verify")
    first = next(k for k, d in enumerate(doc["decisions"]) if d["team"] == 1)
    one_line_error(code, err, f"decisions[{first}]: turn ", "team 1's AI (pass) would pass")


def test_verify_takes_a_human_side_as_recorded(greedy_replay, capsys):
    doc = json.loads(greedy_replay.read_text())
    relabel(greedy_replay, ["human", "greedy"], [None, doc["ai_profiles"][1]])
    code, out, err = run(capsys, "replay", greedy_replay, "--verify")
    assert code == 0, err
    assert "every AI decision (its AI re-run)" in out


@pytest.mark.parametrize("ai", ["random,random", "random,pass", "expectimax,greedy"])
def test_verify_accepts_what_each_ai_played(tmp_path, capsys, ai):
    rep = tmp_path / "r.json"
    rules = write(tmp_path / "cap.json", rules_doc(battle={"max_turns": 60}))
    assert run(capsys, "battle", COMPOUND, "--ai", ai, "--seed", "9", "--rules", rules,
               "--replay", rep)[0] == 0
    code, out, err = run(capsys, "replay", rep, "--verify")
    assert code == 0, err


def test_verify_refuses_a_random_ai_decision_changed_to_another_legal_one(tmp_path, capsys):
    """The random AI draws from the team's seeded stream: re-run, it makes the same
    choices, so even a legal decision it did not draw is caught."""
    rep = tmp_path / "r.json"
    assert run(capsys, "battle", COMPOUND, "--ai", "random,random", "--seed", "2",
               "--replay", rep)[0] == 0
    doc = json.loads(rep.read_text())
    k = next(k for k, d in enumerate(doc["decisions"]) if "move" in d)
    doc["decisions"][k] = {"team": doc["decisions"][k]["team"], "pass": True}
    rep.write_text(json.dumps(doc))
    code, _, err = run(capsys, "replay", rep, "--verify")
    one_line_error(code, err, f"decisions[{k}]: turn ", "would move to ",
                   "the replay has pass")


# ------------------------------------------------------------------ item 10
def test_a_huge_number_in_a_replay_gives_a_short_line(greedy_replay, capsys):
    doc = json.loads(greedy_replay.read_text())
    text = json.dumps(doc).replace(f'"turns": {doc["result"]["turns"]}',
                                   '"turns": 1' + "0" * 4000)
    greedy_replay.write_text(text)
    code, _, err = run(capsys, "replay", greedy_replay, "--verify")
    one_line_error(code, err, "result.turns")
    assert len(err) < 400


def test_a_long_error_line_is_cut_in_the_middle(capsys, tmp_path):
    from sodwa_editor.cli_common import short

    assert short("x" * 100) == "x" * 100
    cut = short("a" * 3000 + "b" * 3000)
    assert len(cut) <= 600 and cut.startswith("aaa") and cut.endswith("bbb")
    assert "(6000 characters)" in cut
    long_name = tmp_path / ("n" * 200) / ("m" * 200) / ("o" * 200) / "missing.json"
    code, _, err = run(capsys, "battle", COMPOUND, "--rules", long_name)
    assert len(str(long_name)) > 600
    assert code == 1 and len(err) <= 601 and err.endswith("missing.json: file not found\n")
    assert "characters) ..." in err


@pytest.mark.parametrize(("args", "message"), [
    (["bench", "--repeat", "0"], "must be 1 or more, got 0"),
    (["bench", "--repeat", str(10**9)], "must be at most 10000"),
    (["bench", "battles", "--battles", str(10**9)], "must be at most 1000"),
    (["bench", "--repeat", "9" * 5000], "expected a whole number"),
    (["battle", str(COMPOUND), "--seed", str(2**128)], "must be at most"),
])
def test_bench_and_seed_values_out_of_range_are_refused(capsys, args, message):
    with pytest.raises(SystemExit) as exc:
        main(args)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and message in err, err
    assert len(err.splitlines()[-1]) < 200


def test_the_largest_seed_is_recorded_and_read_back(tmp_path, capsys):
    rep = tmp_path / "r.json"
    seed = str(2**128 - 1)
    rules = write(tmp_path / "cap.json", rules_doc(battle={"max_turns": 10}))
    assert run(capsys, "battle", COMPOUND, "--ai", "random,random", "--seed", seed,
               "--rules", rules, "--replay", rep)[0] == 0
    assert run(capsys, "replay", rep, "--verify")[0] == 0
    assert json.loads(rep.read_text())["hashes"]["rules"] == digest(
        json.loads(rep.read_text())["rules"])


def test_a_playtest_side_whose_ai_was_swapped_is_replayed_as_recorded():
    """A playtest may change a side's AI mid-battle: its decisions then come from two
    AIs, so the replay names the side ``human`` (taken as recorded) and verifies;
    named after its last AI it would claim that AI played every turn."""
    from sodwa_editor.battle.replay import load_replay, rerun
    from sodwa_editor.battle.session import BattleSession
    from sodwa_editor.battle.setup import BattleSetup
    from sodwa_editor.cli_battle import load_maps

    (src,) = load_maps(COMPOUND, one=True)
    s = BattleSession(BattleSetup.from_map(src.model), ["greedy", "random"], seed=6)
    for _ in range(6):
        s.step_turn()
    s.set_controller(0, "random")
    s.run_to_end()
    doc = json.loads(json.dumps(s.to_replay(str(COMPOUND), src.hash)))
    assert doc["controllers"] == ["human", "random"]
    rerun(load_replay(doc, "r.json"), src.model, src.hash, verify=True)
    doc["controllers"] = ["random", "random"]
    doc["ai_profiles"] = [None, None]
    doc["hashes"]["ai_profiles"] = profiles_hash(doc["controllers"], doc["ai_profiles"])
    from sodwa_editor.battle.replay import ReplayError

    with pytest.raises(ReplayError, match=r"team 0's AI \(random\) would"):
        rerun(load_replay(doc, "r.json"), src.model, src.hash, verify=True)


def test_an_odd_key_is_quoted_in_one_line(tmp_path, capsys, no_battle):
    """A key holding a line break (found by the fuzz harness) is shown escaped: the
    error stays one line."""
    path = tmp_path / "r.json"
    path.write_text('{"format": "sodwa-rules", "format_version": 1, "clock": {"\\n": 1}}')
    code, _, err = run(capsys, "battle", COMPOUND, "--rules", path)
    one_line_error(code, err, f'{path}: clock."\\n": unknown key')


def test_a_pattern_anchor_matches_at_the_very_end_only(tmp_path, capsys, no_battle):
    """JSON Schema patterns are ECMA-262: ``$`` does not match before a final line
    break as Python's ``re`` does, so a member id ``"m\\n"`` (found by the fuzz
    harness: it made a two-line error further on) is refused by the schema."""
    doc = team_doc("t")
    doc["members"][0]["id"] = "a\n"
    path = write(tmp_path / "t.json", doc)
    code, _, err = run(capsys, "battle", COMPOUND, "--teams", path)
    one_line_error(code, err, f"{path}: members[0].id: 'a\\n' does not match")
