"""Area abilities in whole battles (docs/rules.md AB14-AB16, B46, B47, B49): the AIs use
them, the preview equals what happens, replays and ``--verify`` carry them, the same
seed gives the same log, and a battle without abilities is the battle it was."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from battle_maps import battle, fighter, grid, turn_of

from sodwa_editor.battle import invariants
from sodwa_editor.battle.abilities import UseAbility
from sodwa_editor.battle.ability_defs import ability_from_dict
from sodwa_editor.battle.actions import Move, apply, begin_turn, next_turn
from sodwa_editor.battle.ai import make_controllers
from sodwa_editor.battle.ai.ability_plans import outcomes
from sodwa_editor.battle.ai.greedy import Greedy
from sodwa_editor.battle.ai.profile import default_profile
from sodwa_editor.battle.ai.scoring import plans
from sodwa_editor.battle.area_abilities import preview_ability
from sodwa_editor.battle.area_effects import STRIKE
from sodwa_editor.battle.events import AreaHit
from sodwa_editor.battle.loop import View, run_battle
from sodwa_editor.battle.replay import load_replay, record, rerun
from sodwa_editor.battle.session import BattleSession
from sodwa_editor.battle.setup import BattleSetup
from sodwa_editor.battle.sheet import load_roster, roster_from_dict
from sodwa_editor.battle.state import BattleState
from sodwa_editor.battle.teams import team_from_dict
from sodwa_editor.engine.generate import make_mixed_map

CASTERS = ["Mage", "Witch", "Ranger", "Robot", "Brute", "Hawk", "Druid"]

V1 = Path(__file__).parent / "data" / "roster-v1-no-abilities.json"


def team(name: str, members: list[str]):
    return team_from_dict({"format": "sodwa-team", "format_version": 1, "name": name,
                           "members": [{"id": f"m{i}", "archetype": a}
                                       for i, a in enumerate(members)]}, load_roster())


def ability_battle(seed: int, size: int = 20) -> BattleState:
    rng = np.random.default_rng(seed)
    sides = [(side, team(side, [CASTERS[int(rng.integers(len(CASTERS)))] for _ in range(3)]),
              None) for side in ("red", "blue")]
    return BattleState.from_teams(make_mixed_map(size, seed=seed), sides, seed=seed)


def play(state: BattleState, ai: list[str]):
    return run_battle(state, make_controllers(ai, state))


def ab(area: str, **more):
    return ability_from_dict({"name": "Fire", "area": area, "damage": 5, "ip_cost": 250,
                              "accuracy": 70, **more}, "physical", "test")


# ------------------------------------------------------------------ AI
def test_greedy_uses_an_area_ability_on_a_cluster_rather_than_one_basic_attack():
    """B46: greedy scores each ability use among its plans (expected damage to enemies,
    kills, IP): a Blast on three clustered enemies beats one Basic Attack."""
    m = grid("\n".join(["." * 12] * 9))
    fire = ab("AoE - Blast - Sphere: Range: 8, Reach: 1")
    s = battle(m, [fighter("c", 0, 1, 4, abilities=(fire,), range=8),
                   fighter("e1", 1, 8, 4), fighter("e2", 1, 8, 5), fighter("e3", 1, 9, 4)])
    turn_of(s, "c")
    best = plans(View(s, 0), default_profile().greedy, 1)[0]
    assert isinstance(best.steps[-1], UseAbility)  # (after a Move closer: the approach term)
    ai = Greedy(0, np.random.default_rng(0))
    action = ai.decide(View(s, 0))
    if isinstance(action, Move):
        apply(s, action)
        action = ai.decide(View(s, 0))
    assert isinstance(action, UseAbility) and action.ability == "Fire"
    hit = [v.character for v in preview_ability(s, 0, action).victims]
    assert sorted(s.names[i] for i in hit) == ["e1", "e2", "e3"]


def test_greedy_keeps_its_allies_out_of_its_own_area():
    """B46: friendly fire counts against a use: greedy aims where its ally is not."""
    m = grid("\n".join(["." * 12] * 9))
    fire = ab("AoE - Blast - Sphere: Range: 8, Reach: 1")
    s = battle(m, [fighter("c", 0, 1, 4, abilities=(fire,), range=8),
                   fighter("f", 0, 8, 3, health=5), fighter("e1", 1, 8, 4),
                   fighter("e2", 1, 9, 6)])
    turn_of(s, "c")
    near = battle(m, [fighter("c", 0, 1, 4, abilities=(fire,), range=8),
                      fighter("e1", 1, 8, 4), fighter("e2", 1, 9, 6)])
    turn_of(near, "c")
    here = (UseAbility("Fire", (8, 4)),)

    def worth(state: BattleState) -> float:  # the plan's utility less its stay terms
        plan = next(p for p in plans(View(state, 0), default_profile().greedy, None)
                    if p.steps == here)
        return plan.utility - plan.stay

    ally = preview_ability(s, 0, here[0]).victims[0]
    assert s.names[ally.character] == "f" and ally.ally
    loss = default_profile().greedy.damage * ally.hits / 100 * ally.damage_on_hit
    assert worth(near) - worth(s) == pytest.approx(loss)


def test_greedy_and_expectimax_use_abilities_in_battle_and_keep_every_invariant():
    """B46, B49: both AIs use the roster's abilities in whole battles, legally."""
    used: Counter[str] = Counter()
    for seed, ai in ((1, ["greedy", "greedy"]), (2, ["expectimax", "greedy"])):
        s = ability_battle(seed)
        problems: list[str] = []
        if ai[0] == "expectimax":
            from dataclasses import replace
            s.rules = replace(s.rules, battle=replace(s.rules.battle, max_turns=40))
        def before(st: BattleState, a: object, found: list[str] = problems) -> None:
            found.extend(invariants.action_problems(st, a, moves=False))  # type: ignore[arg-type]

        def after(st: BattleState, found: list[str] = problems) -> None:
            found.extend(invariants.state_problems(st))

        out = run_battle(s, make_controllers(ai, s), before_action=before, after_turn=after)
        assert problems == []
        used.update(f"{ai[0]}:{s.team[e.actor]}" for e in out.events
                    if e.kind == "ability_used")
    assert used["greedy:0"] and used["greedy:1"] and used["expectimax:0"]


def test_an_ability_is_a_chance_node_whose_outcomes_add_up_to_one():
    """B49: expectimax plays an area ability as a chance node over its victims' hits
    and misses (the first three apart), with the BIP's chances."""
    m = grid("\n".join(["." * 12] * 9))
    fire = ab("AoE - Blast - Sphere: Range: 8, Reach: 1", accuracy=50)
    s = battle(m, [fighter("c", 0, 1, 4, abilities=(fire,)), fighter("e1", 1, 8, 4),
                   fighter("e2", 1, 8, 5)])
    turn_of(s, "c")
    nodes = outcomes(s, UseAbility("Fire", (8, 4)))
    assert len(nodes) == 4 and abs(sum(p for p, _ in nodes) - 1) < 1e-12
    p = [v.hits_with_karma / 100 for v in preview_ability(s, 0, UseAbility("Fire", (8, 4))
                                                         ).victims]
    assert max(nodes)[0] == max(p[0] * p[1], (1 - p[0]) * (1 - p[1]),
                                p[0] * (1 - p[1]), (1 - p[0]) * p[1])


# ------------------------------------------------------------------ preview, log, replay
def test_preview_equals_resolution_for_every_victim():
    """AB15: the BIP of an ability is what its use does: per victim the difficulty, the
    TAV and TDV, and the damage of a hit (random battles of the shipped roster)."""
    checked = 0
    for seed in range(6):
        s = ability_battle(seed, 14)
        ctl = make_controllers(["random", "random"], s)
        while s.result is None and s.clock.turns < 400:
            if s.turn is None:
                begin_turn(s, next_turn(s).candidates[0])
                continue
            action = ctl[s.team[s.actor]].decide(View(s, s.team[s.actor]))
            p = None
            if isinstance(action, UseAbility) and action.ability != STRIKE:
                p = preview_ability(s, s.actor, action)
                assert p.refused is None
            events = apply(s, action)
            if p is not None and not p.falls:
                hits = [e for e in events if isinstance(e, AreaHit)]
                assert [(h.target, h.difficulty, h.tav, h.tdv) for h in hits] == \
                    [(v.character, v.difficulty, v.tav, v.tdv) for v in p.victims]
                assert all(h.damage == v.damage_on_hit for h, v in zip(hits, p.victims,
                                                                       strict=True)
                           if h.success)
                checked += len(hits)
    assert checked > 10


def test_same_seed_gives_the_same_ability_battle_log():
    """AB14 (B44): with abilities the event log is a pure function of the inputs."""
    for ai in (["greedy", "greedy"], ["random", "random"]):
        a, b = ability_battle(5), ability_battle(5)
        logs = [[e.to_dict() for e in play(s, ai).events] for s in (a, b)]
        assert logs[0] == logs[1]
        assert any(e["kind"] == "ability_used" for e in logs[0])
        assert a.state_hash() == b.state_hash()
        assert json.dumps(logs[0])  # plain JSON


def test_abilities_replay_and_verify():
    """AB14, B53: a replay carries the ability decisions; --verify re-runs them and the
    AIs and checks every turn's state hash, the effects included."""
    model = make_mixed_map(18, seed=3)
    model.start_zones = {"red": {(x, y) for x in range(0, 4) for y in range(0, 4)},
                         "blue": {(x, y) for x in range(14, 18) for y in range(14, 18)}}
    teams = [("red", team("red", ["Mage", "Witch", "Ranger"]), None),
             ("blue", team("blue", ["Robot", "Druid", "Brute"]), None)]
    docs = {"teams": [json.loads(json.dumps({"format": "sodwa-team", "format_version": 1,
                                             "name": t.name, "members": [
                                                 {"id": mm.id, "archetype": mm.archetype}
                                                 for mm in t.members]})) for _z, t, _f in teams]}
    setup = BattleSetup.from_map(model, ai=("greedy", "random"), teams=teams, docs=docs)
    out, doc = record(setup, 4, map_file="m.json", map_hash="sha256:00")
    assert any("ability" in d for d in doc["decisions"])
    again = rerun(load_replay(doc, "r.json"), model, "sha256:00", verify=True)
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in out.events]


def test_a_session_plays_an_ability_battle_as_the_loop_does():
    """AB10: a turn that ends in its own upkeep is a whole turn for the loop and the
    session alike (their event logs and turn hashes agree)."""
    state = ability_battle(7)
    setup_state = state.copy()
    out = play(state, ["greedy", "random"])
    session = BattleSession(setup_state, ["greedy", "random"], seed=0)
    session._ctrl = make_controllers(["greedy", "random"], session.state)  # same streams
    session.run_to_end()
    assert [e.to_dict() for e in session.events] == [e.to_dict() for e in out.events]


# ------------------------------------------------------------------ AB16
def test_a_battle_without_abilities_has_no_ability_objects():
    """AB16: a battle whose sheets list no ability has no ability objects, so it plays
    exactly as before abilities existed (bench/battle_digests.py with the version 1
    roster prints the same lines on main and on this code: docs/rules.md AB16)."""
    v1 = roster_from_dict(json.loads(V1.read_text(encoding="utf-8")))
    sides = [(side, team_from_dict({"format": "sodwa-team", "format_version": 1, "name": side,
                                    "members": [{"id": "a", "archetype": "Mage"},
                                                {"id": "b", "archetype": "Knight"}]}, v1), None)
             for side in ("red", "blue")]
    s = BattleState.from_teams(make_mixed_map(14, seed=2), sides, seed=1)
    assert s.abilities == ()
    out = play(s, ["greedy", "greedy"])
    assert not any(e.kind in ("ability_used", "area_hit") for e in out.events)


def test_an_ability_plan_ends_its_turn_as_the_attack_plan_of_the_same_cost_does():
    """B46: an ability plan's stay terms (threat, death, ip, approach on its end tile)
    are the kernel's: an ability costing what an Attack Action costs (250 IP) from the
    same tile has the stay of the attack plan, before and after the same Move."""
    total = 0
    for seed in range(4):
        s = ability_battle(seed, 14)
        ctl = make_controllers(["random", "random"], s)
        checked = 0
        while s.result is None and checked < 3 and s.clock.turns < 300:
            if s.turn is None:
                begin_turn(s, next_turn(s).candidates[0])
                continue
            view = View(s, s.team[s.actor])
            every = plans(view, default_profile().greedy, None)
            attack_stay = {p.steps[:-1]: p.stay for p in every
                           if p.steps and type(p.steps[-1]).__name__ == "Attack"}
            for p in every:
                if isinstance(p.steps[-1], UseAbility) and p.steps[:-1] in attack_stay:
                    cost = next(a.d.ip_cost for a, _ in view.area_abilities(s.actor)
                                if a.name == p.steps[-1].ability)
                    if cost == s.rules.clock.attack_cost:
                        assert p.stay == pytest.approx(attack_stay[p.steps[:-1]])
                        checked += 1
            apply(s, ctl[s.team[s.actor]].decide(view))
        total += checked
    assert total >= 3


def test_an_ability_battle_gives_the_same_log_in_another_process():
    """AB14 (B44): the log and the state hash, effects included, are the same in another
    process with another hash seed (no ``hash()``, ids or dict order)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    code = ("import sys, hashlib, json; sys.path.insert(0, 'tests')\n"
            "from test_battle_abilities_play import ability_battle, play\n"
            "s = ability_battle(9)\n"
            "out = play(s, ['greedy', 'random'])\n"
            "log = json.dumps([e.to_dict() for e in out.events]).encode()\n"
            "print(s.state_hash(), hashlib.sha256(log).hexdigest())\n")
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=root, env={"PYTHONHASHSEED": "321"}).stdout.split()
    s = ability_battle(9)
    out = play(s, ["greedy", "random"])
    log = json.dumps([e.to_dict() for e in out.events]).encode()
    import hashlib

    assert got == [s.state_hash(), hashlib.sha256(log).hexdigest()]
    assert any(e.kind == "ability_used" for e in out.events)
