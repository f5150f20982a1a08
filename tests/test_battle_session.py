"""The playtest's model (issue 13): a battle played step by step, humans answering,
snapshots per turn, taking over a side, and replays of a session."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from battle_maps import battle, fighter, grid
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sodwa_editor.battle.actions import Attack, Move, Pass, legal_actions
from sodwa_editor.battle.ai import make_controllers
from sodwa_editor.battle.events import TurnStarted
from sodwa_editor.battle.loop import run_battle
from sodwa_editor.battle.replay import load_replay, rerun
from sodwa_editor.battle.session import AwaitingHuman, BattleSession
from sodwa_editor.battle.setup import BattleSetup
from sodwa_editor.battle.targeting import IllegalAction
from sodwa_editor.cli import main
from sodwa_editor.cli_battle import load_maps
from sodwa_editor.engine.generate import make_mixed_map

COMPOUND = Path(__file__).resolve().parents[1] / "maps" / "indoor-compound.json"


def logs(events) -> list[dict]:
    return [e.to_dict() for e in events]


def setup_of(map_seed: int = 4, size: int = 12, ai=("random", "random")) -> BattleSetup:
    return BattleSetup.from_map(make_mixed_map(size, seed=map_seed), ai=ai)


def play_human(session: BattleSession, rng: np.random.Generator, max_steps: int = 100_000
               ) -> None:
    """Play to the end, a human answering with random legal choices."""
    for _ in range(max_steps):
        if session.result is not None:
            return
        w = session.waiting
        if w is None:
            session.step_action()
        elif w.kind == "actor":
            assert session.choose_actor(int(rng.choice(w.candidates))) is None
        else:
            acts = legal_actions(session.state)
            assert session.submit(acts[int(rng.integers(len(acts)))]) is None
    raise AssertionError("the battle did not end")


# ------------------------------------------------------------------ same as run_battle
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(map_seed=st.integers(0, 50), seed=st.integers(0, 2**32 - 1),
       ais=st.sampled_from([("random", "random"), ("greedy", "random"), ("random", "pass")]))
def test_two_ai_session_gives_run_battles_event_log(map_seed, seed, ais):
    """Issue 13: the session drives the same engine calls as run_battle, step by step."""
    setup = setup_of(map_seed, 10, ais)
    state = setup.state(seed)
    out = run_battle(state, make_controllers(list(ais), state))
    s = BattleSession(setup, list(ais), seed=seed)
    steps = 0
    while s.result is None:
        assert s.waiting is None
        s.step_action()
        steps += 1
    assert logs(s.events) == logs(out.events)
    assert s.decisions == out.decisions and s.result == out.result
    assert s.state.state_hash() == state.state_hash()
    assert steps > len(out.decisions)  # one action (or turn start) per step


def test_step_turn_ends_with_the_turn_and_run_to_end_finishes():
    s = BattleSession(setup_of(), ["random", "random"], seed=3)
    first = s.step_turn()
    assert [e.kind for e in first[:2]] == ["first_tie", "turn_started"]  # the coin, logged once
    assert first[-1].kind in ("turn_ended", "battle_ended")
    assert s.state.turn is None and s.state.clock.turns == 1
    s.step_action()  # the next turn starts
    assert s.state.turn is not None
    mid = s.step_turn()
    assert s.state.turn is None and mid[-1].kind in ("turn_ended", "battle_ended")
    s.run_to_end()
    assert s.result is not None and s.events[-1].kind == "battle_ended"
    assert s.step_action() == [] and s.waiting is None


# ------------------------------------------------------------------ humans
def duel(b_tile=(4, 0), **kw) -> BattleSession:
    state = battle(grid("...... ......"),
                   [fighter("a", 0, 0, 0, range=6), fighter("b", 1, *b_tile, range=6),
                    fighter("c", 1, 5, 1, range=6)], **kw)
    return BattleSession(state, [None, "pass"], seed=0)


def to_human_turn(s: BattleSession, team: int = 0) -> None:
    for _ in range(1000):
        w = s.waiting
        if w is not None and w.team == team and w.kind == "action":
            return
        if w is not None and w.kind == "actor":
            s.choose_actor(w.candidates[0])
            continue
        s.step_action()
    raise AssertionError("no human turn")


def test_a_refused_human_action_returns_the_engines_line_and_changes_nothing():
    s = duel(b_tile=(1, 0))  # 'b' adjacent to 'a': 'a' may attack only 'b'
    to_human_turn(s)
    before, n = s.state.state_hash(), len(s.events)
    with pytest.raises(AwaitingHuman):
        s.step_action()
    assert "must target the adjacent enemy" in s.submit(Attack(2))
    assert "taken by" in s.submit(Move((1, 0)))
    assert s.state.state_hash() == before and len(s.events) == n
    assert s.submit(Attack(1)) is None
    assert s.submit(Attack(1)) == "Attack Action already taken this turn"
    assert s.choose_actor(0) == "no character needs to be chosen now"
    assert s.submit(Pass()) is None and s.state.turn is None


def test_out_of_range_is_refused_and_preview_changes_nothing():
    s = duel(b_tile=(5, 0))
    to_human_turn(s)
    rng = s.state.sheets[0].range
    far = BattleSession(battle(grid("." * (rng + 3)),
                               [fighter("a", 0, 0, 0, range=rng),
                                fighter("b", 1, rng + 2, 0, range=rng)]),
                        [None, "pass"], seed=0)
    to_human_turn(far)
    assert far.submit(Attack(1)).startswith("out of range")
    with pytest.raises(IllegalAction, match="out of range"):
        far.preview(0, 1)
    before = s.state.state_hash()
    rolled = s.state.streams.dice.rolled
    p = s.preview(0, 1)
    assert p.kind == "ranged" and 0 <= p.hits <= 100
    assert s.state.state_hash() == before and s.state.streams.dice.rolled == rolled


def test_a_human_pass_for_the_ai_team_is_refused():
    s = duel()
    s.step_action()  # a turn starts
    if s.waiting is None:  # the AI's turn
        assert s.submit(Pass()) == "it is not a human's turn"


# ------------------------------------------------------------------ snapshots
def starts_of(s: BattleSession, upto: int) -> dict[int, tuple[str, int]]:
    """Step to the start of turn ``upto``; the state hash and log length at every turn start."""
    seen: dict[int, tuple[str, int]] = {}
    while s.turn < upto:
        if s.state.turn is None:
            seen[s.turn] = (s.state.state_hash(), len(s.events))
        w = s.waiting
        if w is not None:  # a human: the first candidate, then a pass
            assert (s.choose_actor(w.candidates[0]) if w.kind == "actor"
                    else s.submit(Pass())) is None
        s.step_turn()
    seen[s.turn] = (s.state.state_hash(), len(s.events))
    return seen


@pytest.mark.parametrize("ais", [("random", "random"), ("greedy", "greedy")])
def test_back_to_turn_5_and_forward_to_10_is_identical(ais):
    s = BattleSession(setup_of(6, 12, ais), list(ais), seed=21)
    seen = starts_of(s, 10)
    want_hash, want_log = s.state.state_hash(), logs(s.events)
    s.go_to_turn(5)
    assert (s.state.state_hash(), len(s.events)) == seen[5] and s.turn == 5
    assert s.turn_count == 10
    for k in range(5, 10):
        assert s.forward()
        assert (s.state.state_hash(), len(s.events)) == seen[k + 1]
    assert s.state.state_hash() == want_hash and logs(s.events) == want_log
    assert not s.forward()  # no recorded history beyond turn 10


def test_back_goes_to_the_turn_start_then_to_the_previous_turn():
    s = BattleSession(setup_of(), ["random", "random"], seed=8)
    seen = starts_of(s, 4)
    s.step_action()
    s.step_action()  # mid-turn 4
    assert s.back() and (s.state.state_hash(), len(s.events)) == seen[4]
    assert s.back() and (s.state.state_hash(), len(s.events)) == seen[3]
    s.go_to_turn(1)
    assert not s.back() and len(s.events) == 0
    with pytest.raises(ValueError, match="no turn 99"):
        s.go_to_turn(99)
    s.go_to_turn(4)
    assert (s.state.state_hash(), len(s.events)) == seen[4]


def test_stepping_the_ai_again_after_back_gives_the_same_battle():
    """The AIs' streams and plans are part of a snapshot: re-stepping is identical."""
    s = BattleSession(setup_of(3, 12, ("greedy", "random")), ["greedy", "random"], seed=2)
    s.run_to_end()
    final, log = s.state.state_hash(), logs(s.events)
    s.go_to_turn(3)
    s.run_to_end()  # acting discards the recorded history, then replays it identically
    assert s.state.state_hash() == final and logs(s.events) == log


def test_acting_otherwise_after_back_discards_the_later_history():
    s = duel()
    starts_of(s, 6)  # the human passed every turn
    s.go_to_turn(2)
    assert s.turn_count == 6
    to_human_turn(s)
    step = next(a for a in legal_actions(s.state) if isinstance(a, Move))
    assert s.submit(step) is None
    assert s.turn_count <= s.turn and not s.forward()
    assert s.future_events() == s.events


def test_acting_as_recorded_after_back_keeps_the_later_history():
    """Going back and playing the same decisions (a human's, or the AIs' from the
    same streams) keeps the turns ahead: forward still reaches them."""
    s = duel()
    starts_of(s, 6)
    want, log = s.state.state_hash(), logs(s.events)
    s.go_to_turn(2)
    assert len(s.future_events()) == len(log) > len(s.events)
    to_human_turn(s)
    assert s.submit(Pass()) is None  # as recorded
    assert s.turn_count == 6
    while s.forward():
        pass
    assert s.turn == 6 and s.state.state_hash() == want and logs(s.events) == log


def test_a_watched_replay_plays_its_decisions_and_a_side_taken_over_answers():
    setup = setup_of(3, 12, ("greedy", "random"))
    played = BattleSession(setup, ["greedy", None], seed=4)
    play_human(played, np.random.default_rng(2))
    watch = BattleSession(setup, ["greedy", "human"], seed=4, script=played.decisions)
    assert watch.waiting is None  # the human side's decisions come from the script
    assert watch.is_human(1) and not watch.asks_person(1) and watch.scripted(1)
    watch.run_to_end()
    assert logs(watch.events) == logs(played.events)
    watch.restart()  # the same replay again; this time team 1 is taken over
    watch.step_turn()
    watch.take_over(1)
    assert watch.asks_person(1) and not watch.scripted(1)
    to_human_turn(watch, 1)
    assert watch.waiting.team == 1


# ------------------------------------------------------------------ players
def test_take_over_makes_a_side_wait_for_a_human():
    s = BattleSession(setup_of(), ["random", "random"], seed=4)
    s.step_turn()
    s.take_over(0)
    assert s.is_human(0) and not s.is_human(1)
    to_human_turn(s, 0)
    assert s.waiting.team == 0 and s.waiting.actor == s.state.actor
    with pytest.raises(AwaitingHuman):
        s.step_action()
    s.set_controller(0, "random")
    assert s.waiting is None and s.step_action()


def test_restart_with_the_same_seed_replays_and_a_new_seed_differs():
    s = BattleSession(setup_of(), ["random", "random"], seed=9)
    s.run_to_end()
    log = logs(s.events)
    s.restart()
    assert s.events == [] and s.turn_count == 1
    s.run_to_end()
    assert logs(s.events) == log
    s.restart(seed=10)
    s.run_to_end()
    assert logs(s.events) != log and s.seed == 10


# ------------------------------------------------------------------ replays
@pytest.mark.parametrize("seed", [1, 7])
def test_a_session_replay_with_human_decisions_verifies(seed):
    model = make_mixed_map(12, seed=5)
    setup = BattleSetup.from_map(model, ai=("random", "random"))
    s = BattleSession(setup, ["greedy", None], seed=seed)
    play_human(s, np.random.default_rng(seed))
    doc = json.loads(json.dumps(s.to_replay("m.json", "sha256:cd")))
    assert doc["controllers"] == ["greedy", "human"]
    out = rerun(load_replay(doc, "r.json"), model, "sha256:cd", verify=True)
    assert logs(out.events) == logs(s.events)
    assert len(doc["turn_hashes"]) == doc["result"]["turns"]


def test_a_session_replay_after_back_and_take_over_verifies_with_the_cli(tmp_path, capsys):
    (src,) = load_maps(COMPOUND, one=True)
    model, map_hash = src.model, src.hash
    s = BattleSession(BattleSetup.from_map(model), ["random", "random"], seed=3)
    starts_of(s, 8)
    s.go_to_turn(4)
    s.take_over(1)
    with pytest.raises(ValueError, match="not over"):
        s.to_replay(str(COMPOUND), map_hash)
    play_human(s, np.random.default_rng(0))
    path = tmp_path / "session.json"
    path.write_text(json.dumps(s.to_replay(str(COMPOUND), map_hash)))
    assert main(["replay", str(path), "--verify", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["events"] == logs(s.events)


def test_human_is_a_replay_name_but_not_an_ai_to_battle_with(capsys):
    assert main(["battle", str(COMPOUND), "--ai", "human,random"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown AI 'human'" in err


def test_a_session_from_a_state_started_mid_battle():
    state = setup_of().state(5)
    s0 = BattleSession(state, ["random", "random"], seed=5)
    s0.step_turn()
    s0.step_action()  # mid-turn 2
    s = BattleSession(s0.state, ["random", "random"], seed=5)
    assert s.turn == 2 and isinstance(s.events[-1], TurnStarted)
    s.run_to_end()
    assert s.result is not None
    with pytest.raises(ValueError, match="battle setup"):
        s.to_replay("m.json", "sha256:00")
