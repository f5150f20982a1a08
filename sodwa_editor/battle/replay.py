"""Replay files (issue 11 section 4): a battle as its inputs and its decisions.

A replay (``schemas/replay.schema.json``) holds a header -- engine version, the
map file and its hash, the rules, roster and team documents the battle used
(embedded, each with its hash), the AI names and the AI profiles they played by
(embedded, with one hash over both), the seed -- and
the sequence of controller decisions (tied actor picked, action taken).  The
dice come from the seed, so re-running the decisions through the rules
reproduces the whole event log; the file stores the state hash after every turn
(:meth:`.state.BattleState.state_hash`) and the result, which ``--verify``
compares turn by turn.  ``--verify`` also re-runs each side's AI (its name in
``controllers``, on its team's own seeded stream, with the AI profile it played
by) and checks that every decision of that team is the one the AI makes, so a
replay cannot claim an AI played what it did not (a side a person played,
``human``, is taken as recorded); and it refuses a replay whose AI profiles
differ from the ones it is given (:func:`check_profiles`).

A replay is at most :data:`.jsonfiles.REPLAY_MAX_BYTES` long, the most the
reader reads: :func:`record` stops a battle whose replay would be longer as
soon as that is certain, and :func:`replay_text` refuses to write one.

The map itself is not embedded (maps can be large): the replay names its file
and hash, and re-running refuses a map whose hash differs.  The battle package
does not read maps; the caller passes the map model and its hash
(``sodwa_editor.cli`` hashes the map's canonical JSON).

>>> from sodwa_editor.engine.generate import make_mixed_map
>>> from sodwa_editor.battle.setup import BattleSetup
>>> setup = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("random", "random"))
>>> out, doc = record(setup, 5, map_file="m.json", map_hash="sha256:00")
>>> again = rerun(load_replay(doc, "r.json"), setup.model, "sha256:00", verify=True)
>>> [e.to_dict() for e in again.events] == [e.to_dict() for e in out.events]
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import __version__
from ..engine.model import MapModel
from . import jsonfiles
from .abilities import UseAbility
from .actions import Action, Attack, AttackTerrain, Move, Pass
from .ai import CONTROLLERS, make_controller
from .ai.profile import Profile, profile_from_dict
from .jsonfiles import BattleInputError, validate
from .jsonfiles import brief as _brief
from .loop import Controller, ControllerError, Decision, Outcome, View, run_battle
from .rules import canonical_json, rules_doc_hash, rules_from_dict, rules_hash, rules_to_dict
from .setup import HUMAN, BattleSetup, Seed, check_ai_names, profile_values, uses_profile
from .sheet import roster_from_dict
from .state import BattleState
from .teams import team_from_dict

REPLAY_FORMAT = "sodwa-replay"
#: Version 2 (issue 28): ``rules_hash`` (:func:`.rules.rules_hash`, the one a battle log
#: of the same battle names) and ``result.events`` counting the ``first_tie`` event;
#: version 1 replays are read and verified as before.
REPLAY_VERSION = 2
#: Event kinds a version 1 replay's ``result.events`` did not count (added since).
NEW_IN_V2 = frozenset({"first_tie"})
#: Bytes one turn adds to a replay at least: its state hash (32 hex digits, the
#: quotes and a comma).
TURN_HASH_BYTES = 35


class ReplayError(BattleInputError):
    """A replay that cannot be re-run or does not match what it claims (one line)."""


def digest(doc: Any) -> str:
    """``sha256:`` of a JSON document's canonical form (sorted keys, no spaces)."""
    return "sha256:" + hashlib.sha256(canonical_json(doc).encode("utf-8")).hexdigest()


# ------------------------------------------------------------------ decisions
def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, tuple | list) else value


def _frozen(value: Any) -> Any:
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def encode_decision(d: Decision) -> dict[str, Any]:
    """One decision as JSON: ``{"team": 0, "actor": 3}`` or ``{"team": 0, <action>}``."""
    out: dict[str, Any] = {"team": d.team}
    a = d.action
    if d.actor is not None:
        out["actor"] = d.actor
    elif isinstance(a, Move):
        out["move"] = list(a.to)
    elif isinstance(a, Attack):
        out["attack"] = a.target
    elif isinstance(a, AttackTerrain):
        out["attack_terrain"] = [a.x, a.y, a.side]
    elif isinstance(a, Pass):
        out["pass"] = True
    elif isinstance(a, UseAbility):
        out["ability"] = a.ability
        out["args"] = _plain(a.args)
    else:
        raise TypeError(f"cannot record the decision {d!r}")
    return out


def decode_action(doc: dict[str, Any]) -> Action:
    if "move" in doc:
        return Move((doc["move"][0], doc["move"][1]))
    if "attack" in doc:
        return Attack(doc["attack"])
    if "attack_terrain" in doc:
        x, y, side = doc["attack_terrain"]
        return AttackTerrain(x, y, side)
    if "ability" in doc:
        return UseAbility(doc["ability"], _frozen(doc.get("args", [])))
    return Pass()


# ------------------------------------------------------------------ the file
@dataclass(frozen=True)
class Replay:
    """A parsed, checked replay document and where it came from."""

    doc: dict[str, Any]
    source: str

    @property
    def map_file(self) -> str:
        return str(self.doc["map"]["file"])

    @property
    def map_hash(self) -> str:
        return str(self.doc["map"]["hash"])

    @property
    def rules_hash(self) -> str:
        """The rules hash (:func:`.rules.rules_hash`) of the rules the battle used: the
        recorded one, or for a version 1 replay, which lacks it, the embedded rules'."""
        recorded = self.doc.get("rules_hash")
        if recorded is not None:
            return str(recorded)
        return rules_doc_hash(self.doc["rules"])

    def seed(self) -> np.random.SeedSequence:
        s = self.doc["seed"]
        return np.random.SeedSequence(s["entropy"], spawn_key=tuple(s["spawn_key"]))


def seed_doc(seed: Seed) -> dict[str, Any]:
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    if not isinstance(ss.entropy, int):
        raise ValueError("a replay's seed must be one whole number")
    return {"entropy": ss.entropy, "spawn_key": list(ss.spawn_key)}


def _inputs(setup: BattleSetup) -> dict[str, Any]:
    """The embedded documents of a setup and their hashes."""
    rules = rules_to_dict(setup.rules)
    roster = setup.docs.get("roster")
    if roster is None:
        raise ValueError("the setup lacks its roster document (docs['roster'])")
    teams = None
    if setup.teams is not None:
        team_docs = setup.docs.get("teams")
        if team_docs is None or len(team_docs) != 2:
            raise ValueError("the setup lacks its team documents (docs['teams'])")
        teams = [{"zone": z, "formation": f, "team": d}
                 for (z, _t, f), d in zip(setup.teams, team_docs, strict=True)]
    return {"rules": rules, "roster": roster, "teams": teams}


def profiles_hash(ai: Sequence[str], profiles: Sequence[Any] | None) -> str:
    """The ``ai_profiles`` hash: the controller names and, per team, the profile
    its controller played by (None for one that uses none); the ``profiles`` key
    is left out when neither uses one (so a random-vs-random replay does not
    depend on the profile files)."""
    doc: dict[str, Any] = {"controllers": list(ai)}
    if profiles is not None and any(p is not None for p in profiles):
        doc["profiles"] = list(profiles)
    return digest(doc)


def header_hashes(inputs: dict[str, Any], map_hash: str, ai: Sequence[str]) -> dict[str, str]:
    return {"map": map_hash, "rules": digest(inputs["rules"]),
            "roster": digest(inputs["roster"]), "teams": digest(inputs["teams"]),
            "ai_profiles": profiles_hash(ai, inputs.get("ai_profiles"))}


def record(setup: BattleSetup, seed: Seed, *, map_file: str, map_hash: str,
           swapped: bool = False,
           after_turn: Callable[[BattleState], None] | None = None
           ) -> tuple[Outcome, dict[str, Any]]:
    """Play one battle of ``setup`` from ``seed`` and return it with its replay document.

    ``after_turn`` sees the state after every turn (progress, a time limit).  A
    battle whose replay would be over :data:`.jsonfiles.REPLAY_MAX_BYTES` (its turn
    hashes alone) is stopped then with :class:`ReplayError`: no reader would read it.
    """
    state = setup.state(seed, swapped)
    hashes: list[str] = []
    limit = jsonfiles.REPLAY_MAX_BYTES  # (read now: one limit for the writer and the reader)
    most = limit // TURN_HASH_BYTES

    def turn_done(s: BattleState) -> None:
        hashes.append(s.state_hash())
        if len(hashes) > most:
            raise ReplayError(f"the replay would be over {limit} bytes, the most a "
                              f"replay may be, at turn {len(hashes)} of at most "
                              f"{s.rules.battle.max_turns} (battle.max_turns); lower it, or "
                              "play without a replay")
        if after_turn is not None:
            after_turn(s)

    out = run_battle(state, setup.controllers(state, swapped), after_turn=turn_done)
    return out, document(setup, seed, state, map_file=map_file, map_hash=map_hash,
                         swapped=swapped, controllers=setup.controller_names(swapped),
                         decisions=out.decisions, turn_hashes=hashes)


def replay_text(doc: dict[str, Any]) -> str:
    """The text of a replay file (compact JSON, ``format`` first, one line).  Raises
    :class:`ReplayError` when it is over :data:`.jsonfiles.REPLAY_MAX_BYTES`, the
    most the reader reads (so every replay written can be read back)."""
    text = json.dumps(doc, separators=(",", ":")) + "\n"
    limit = jsonfiles.REPLAY_MAX_BYTES
    if len(text) > limit:  # (ASCII: json.dumps escapes the rest)
        raise ReplayError(f"the replay would be {len(text)} bytes, over the {limit} "
                          f"a replay may be ({len(doc.get('turn_hashes', []))} turns); lower "
                          "battle.max_turns, or play without a replay")
    return text


def document(setup: BattleSetup, seed: Seed, state: BattleState, *, map_file: str,
             map_hash: str, swapped: bool, controllers: Sequence[str],
             decisions: Sequence[Decision], turn_hashes: Sequence[str]) -> dict[str, Any]:
    """The replay document of a finished battle ``state`` of ``setup`` (played by
    :func:`record`, or step by step by :class:`.session.BattleSession`, where a
    side a person played is named ``human``)."""
    if state.result is None:
        raise ValueError("the battle is not over")
    profiles = [profile_values(p) if uses_profile(n) else None
                for n, p in zip(controllers, setup.team_profiles(swapped), strict=True)]
    inputs = {**_inputs(setup), "ai_profiles": profiles}
    return {
        "format": REPLAY_FORMAT, "format_version": REPLAY_VERSION,
        "engine_version": __version__,
        "map": {"file": map_file, "hash": map_hash},
        "hashes": header_hashes(inputs, map_hash, controllers),
        "rules_hash": rules_hash(setup.rules),
        "seed": seed_doc(seed), "controllers": list(controllers), "swapped": swapped,
        **inputs,
        "decisions": [encode_decision(d) for d in decisions],
        "turn_hashes": list(turn_hashes),
        "result": {"winner": state.result.winner, "reason": state.result.reason,
                   "turns": state.clock.turns, "tick": state.clock.tick,
                   "events": len(state.events)},
    }


def load_replay(doc: Any, source: str) -> Replay:
    """A replay document checked against the schema and its own hashes."""
    if isinstance(doc, dict) and doc.get("format") == REPLAY_FORMAT \
            and isinstance(doc.get("format_version"), int) \
            and doc["format_version"] > REPLAY_VERSION:
        raise ReplayError(f"{source}: replay format_version {doc['format_version']} is newer "
                          f"than this program reads ({REPLAY_VERSION})")
    validate(doc, "replay", source)
    want = header_hashes(doc, doc["map"]["hash"], doc["controllers"])
    if "ai_profiles" not in doc:  # an older replay: its profiles are not embedded
        del want["ai_profiles"]
    for key, value in want.items():
        if doc["hashes"][key] != value:
            raise ReplayError(f"{source}: hashes.{key}: the embedded {key} does not match "
                              "its hash (the file was changed)")
    if doc["format_version"] >= 2:
        if "rules_hash" not in doc:
            raise ReplayError(f"{source}: rules_hash: missing (a replay of format_version "
                              f"{doc['format_version']} names the hash of its rules)")
        have = rules_doc_hash(doc["rules"])  # (as written: a later program adds keys)
        if doc["rules_hash"] != have:
            raise ReplayError(f"{source}: rules_hash: {_brief(doc['rules_hash'])} is not the "
                              f"hash of the embedded rules ({have})")
    return Replay(doc, source)


def setup_of(replay: Replay, model: MapModel) -> BattleSetup:
    """The battle setup a replay was made with, on ``model`` (its map)."""
    doc, src = replay.doc, replay.source
    try:
        rules = rules_from_dict(doc["rules"], f"{src}: rules")
        roster = roster_from_dict(doc["roster"], f"{src}: roster")
        teams = None
        if doc["teams"] is not None:
            teams = [(t["zone"], team_from_dict(t["team"], roster, f"{src}: teams[{i}]"),
                      t["formation"]) for i, t in enumerate(doc["teams"])]
        setup = BattleSetup(model, rules, roster, check_ai_names(doc["controllers"], human=True),
                            None if teams is None else tuple(teams))
        setup.check()
    except ReplayError:
        raise
    except BattleInputError as exc:
        raise ReplayError(f"{src}: cannot start its battle: {exc}") from None
    return setup


class _Script:
    """The recorded decisions, handed out in order to the team that asks."""

    def __init__(self, decisions: list[dict[str, Any]], source: str) -> None:
        self.items: Iterator[tuple[int, dict[str, Any]]] = iter(enumerate(decisions))
        self.source = source
        self.left = len(decisions)

    def next(self, team: int, want: str) -> tuple[int, dict[str, Any]]:
        """``(index, decision)``: the next decision, which must be ``team``'s ``want``
        (an ``actor`` or an ``action``)."""
        try:
            k, d = next(self.items)
        except StopIteration:
            raise ReplayError(f"{self.source}: decisions: the battle needs more decisions "
                              "than the file has") from None
        self.left -= 1
        got = "actor" if "actor" in d else "action"
        if d["team"] != team or got != want:
            raise ReplayError(f"{self.source}: decisions[{k}]: the battle asks team {team} "
                              f"for an {want}; the file has team {d['team']}'s {got}")
        return k, d


class _Scripted:
    """Team ``team``'s recorded decisions; with ``ai`` (verification) each is first
    asked of the AI ``name`` and must be the one it makes."""

    def __init__(self, team: int, script: _Script, ai: Controller | None = None,
                 name: str = "") -> None:
        self.team, self.script, self.ai, self.name = team, script, ai, name

    def choose_actor(self, view: View, candidates: Sequence[int]) -> int:
        k, d = self.script.next(self.team, "actor")
        got = d["actor"]
        if self.ai is not None:
            want = self.ai.choose_actor(view, candidates)
            if want != got:
                self._differs(k, view.turns + 1, f"pick {_name(view, want)} to act",
                              f"{_name(view, got)}")
        return int(got)

    def decide(self, view: View) -> Action:
        k, d = self.script.next(self.team, "action")
        got = decode_action(d)
        if self.ai is not None:
            want = self.ai.decide(view)
            if want != got:
                self._differs(k, view.turns, describe_action(want, view),
                              describe_action(got, view))
        return got

    def _differs(self, k: int, turn: int, want: str, got: str) -> None:
        raise ReplayError(f"{self.script.source}: decisions[{k}]: turn {turn}: team "
                          f"{self.team}'s AI ({self.name}) would {want}; the replay has "
                          f"{got} (not a decision of the AI it names)")


def _name(view: View, i: Any) -> str:
    """Character ``i`` as the log names it (its index if it is none)."""
    try:
        return repr(view.name(i))
    except (IndexError, TypeError):
        return _brief(i)


def describe_action(action: Action, view: View) -> str:
    """A few words for an action: ``move to 3,4``, ``attack 'red-1'``, ``pass``."""
    if isinstance(action, Move):
        return f"move to {_brief(action.to[0])},{_brief(action.to[1])}"
    if isinstance(action, Attack):
        return f"attack {_name(view, action.target)}"
    if isinstance(action, AttackTerrain):
        return f"attack the terrain at {_brief(action.x)},{_brief(action.y)}" + (
            f",{_brief(action.side)}" if action.side else "")
    if isinstance(action, UseAbility):
        return f"use {_brief(action.ability)}"
    return "pass"


def _ai_of(name: str, team: int, state: BattleState, profile: Profile | None) -> Controller:
    """The controller ``name`` for ``team`` on the team's AI stream of ``state``, as
    :meth:`.setup.BattleSetup.controller` made it for the battle."""
    assert state.streams is not None
    rng = state.streams.ai[team]
    if uses_profile(name):
        return CONTROLLERS[name](team, rng, profile=profile)  # type: ignore[call-arg]
    return make_controller(name, team, rng)


def played_profiles(replay: Replay) -> list[Profile | None]:
    """Per team, the AI profile the replay says its AI played by (None: the shipped
    one, for an older replay that does not embed its profiles)."""
    recorded = replay.doc.get("ai_profiles") or [None, None]
    out: list[Profile | None] = []
    for team, values in enumerate(recorded):
        if values is None:
            out.append(None)
            continue
        doc = {"format": "sodwa-ai-profile", "format_version": 1, **values}
        out.append(profile_from_dict(doc, f"{replay.source}: ai_profiles[{team}]"))
    return out


def rerun(replay: Replay, model: MapModel, map_hash: str | Sequence[str], *,
          verify: bool = False, profiles: Sequence[Profile | None] | None = None) -> Outcome:
    """Re-play a replay on ``model``; ``verify``: compare the state hash after every
    turn and the result with the recorded ones, and re-run each side's AI (with
    ``profiles``, team 0's and team 1's as played, default :func:`played_profiles`;
    ``map_hash``: the map's hash, or its hashes in each format version)
    checking that each of its decisions is the recorded one.  Raises
    :class:`ReplayError`."""
    src = replay.source
    hashes = (map_hash,) if isinstance(map_hash, str) else tuple(map_hash)
    if replay.map_hash not in hashes:  # (several: the map's hash in each format version)
        raise ReplayError(f"{src}: made on a different map: {replay.map_file} has hash "
                          f"{hashes[0]}, the replay expects {replay.map_hash}")
    setup = setup_of(replay, model)
    state = setup.state(replay.seed(), bool(replay.doc["swapped"]))
    script = _Script(replay.doc["decisions"], src)
    hashes = replay.doc["turn_hashes"]
    turn = 0
    players = [_Scripted(0, script), _Scripted(1, script)]
    if verify:
        pair = list(profiles) if profiles is not None else played_profiles(replay)
        for team, name in enumerate(replay.doc["controllers"]):
            if name != HUMAN:
                players[team] = _Scripted(team, script, _ai_of(name, team, state,
                                                                pair[team % len(pair)]), name)

    def check(s: BattleState) -> None:
        nonlocal turn
        if verify:
            if turn >= len(hashes):
                raise ReplayError(f"{src}: turn_hashes: the battle has more turns than the "
                                  f"file's {len(hashes)}")
            if s.state_hash() != hashes[turn]:
                raise ReplayError(f"{src}: turn_hashes[{turn}]: the state after turn "
                                  f"{turn + 1} differs from the recorded one")
        turn += 1

    try:
        out = run_battle(state, players, after_turn=check)
    except ControllerError as exc:
        raise ReplayError(f"{src}: decisions: {exc}") from None
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        if isinstance(exc, BattleInputError):
            raise
        raise ReplayError(f"{src}: decisions: a decision the battle cannot use "
                          f"({type(exc).__name__}: {_brief(str(exc), 120)})") from None
    if script.left:
        raise ReplayError(f"{src}: decisions: {script.left} decision(s) left after the "
                          "battle ended")
    if verify:
        res, want = out.result, replay.doc["result"]
        if turn != len(hashes):
            raise ReplayError(f"{src}: turn_hashes: the battle has {turn} turns, the file "
                              f"{len(hashes)}")
        counted = out.events if replay.doc["format_version"] >= 2 else \
            [e for e in out.events if e.kind not in NEW_IN_V2]
        got = {"winner": res.winner, "reason": res.reason, "turns": state.clock.turns,
               "tick": state.clock.tick, "events": len(counted)}
        if got != want:
            key = next((k for k in got if got[k] != want.get(k)), "winner")
            raise ReplayError(f"{src}: result.{key}: the battle ends with {_brief(got[key])}, "
                              f"the file says {_brief(want.get(key))}")
    return out
