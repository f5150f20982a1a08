"""The battle files the fuzz campaign mutates (:mod:`.fuzz`): a team, the shipped
roster, rules and AI profile, and the replay of a short battle, with the values
the battle mutations use.  Their check: ``sodwa_editor/cli_fuzz.py``."""

from __future__ import annotations

import json
from functools import cache

#: Numbers of battle files at and beyond their bounds (sheet values, rules,
#: weights, counts; 10**6 is the largest Health, -10**6 the lowest defeat floor).
BATTLE_NUMBERS = (0, 1, -1, 2, 7, 100, 1000, 10**6, 10**6 + 1, -10**6, 2**31, 2**63, 0.5,
                  1e308, 1e-9, 10**400)
#: Controller names a relabelled replay may get.
AI_NAMES = ("greedy", "random", "pass", "expectimax", "human", "nobody")
#: The sample map battle cases are played on (its file name beside the case:
#: the replay seed names it) and the team seed's members (its start zones hold 9).
BATTLE_MAP = "indoor-compound"
#: Names of the battle seeds, by the ``format`` of their document.
BATTLE_FORMATS = {"sodwa-team": "team", "sodwa-roster": "roster", "sodwa-rules": "rules",
                  "sodwa-ai-profile": "ai-profile", "sodwa-replay": "replay"}


@cache
def battle_documents() -> tuple[tuple[str, str], ...]:
    """``(name, text)`` of the battle seeds: a team, the shipped roster, rules and AI
    profile, and the replay of a short greedy-vs-random battle on :data:`BATTLE_MAP`
    (its map file named as it lies beside the case)."""
    from ..battle.ai.profile import DEFAULT_PROFILE
    from ..battle.jsonfiles import read_json
    from ..battle.replay import digest, record
    from ..battle.rules import DEFAULT_RULES_PATH, rules_from_dict
    from ..battle.setup import BattleSetup
    from ..battle.sheet import DEFAULT_ROSTER_PATH
    from ..engine.samples import SAMPLE_MAPS
    from .encode import map_to_dict

    team = {"format": "sodwa-team", "format_version": 1, "name": "fuzz team",
            "description": "three of the roster", "members": [
                {"id": "a", "archetype": "Archer", "name": "Ann"},
                {"id": "k", "archetype": "Knight"}, {"id": "m", "archetype": "Mage"}],
            "formations": [{"name": "line", "positions": {"a": [0, 1], "k": [1, 0],
                                                          "m": [2, 1]}}]}
    model = SAMPLE_MAPS[BATTLE_MAP]()
    rules = rules_from_dict({"format": "sodwa-rules", "format_version": 1,
                             "battle": {"max_turns": 24}})
    setup = BattleSetup.from_map(model, rules=rules, ai=("greedy", "random"))
    _out, replay = record(setup, 7, map_file=f"{BATTLE_MAP}.json",
                          map_hash=digest(map_to_dict(model)))
    docs = [("team", team), ("roster", read_json(DEFAULT_ROSTER_PATH)),
            ("rules", read_json(DEFAULT_RULES_PATH)), ("ai-profile", read_json(DEFAULT_PROFILE)),
            ("replay", replay)]
    return tuple((name, json.dumps(doc, indent=1)) for name, doc in docs)


