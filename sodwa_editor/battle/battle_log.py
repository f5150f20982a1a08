"""The battle log a reader can audit (issue 28 section 5; ``schemas/battle-log.schema.json``,
docs/battle-log.md).

``sodwa battle --json`` and ``sodwa replay --json`` print one document: a header
with everything the battle used -- the rules in force (every value, the defaults
filled in), their hash (:func:`.rules.rules_hash`, the one the battle's replay
names) and the keys that differ from the defaults; every combatant's full sheet
and starting tile; the controllers and the AI profile each played by; the seed;
the map's name and the hash of its canonical JSON -- then every event
(:mod:`.events`) and the result.  :mod:`.audit_log` re-derives every attack's
numbers from the header alone.

>>> from sodwa_editor.engine.generate import make_mixed_map
>>> from sodwa_editor.battle.setup import BattleSetup
>>> setup = BattleSetup.from_map(make_mixed_map(12, seed=4), ai=("random", "random"))
>>> state = setup.state(5)
>>> from sodwa_editor.battle.loop import run_battle
>>> out = run_battle(state, setup.controllers(state))
>>> doc = battle_log(setup.state(5), out, map_name="m.json", map_hash="sha256:00", seed=5,
...                  controllers=setup.ai, profiles=setup.profile_docs())
>>> doc["format"], doc["rules_hash"] == rules_hash(setup.rules), doc["events"][0]["kind"]
('sodwa-battle-log', True, 'first_tie')
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import fields, is_dataclass
from typing import Any

from .. import __version__
from .ability_defs import AbilityDef
from .loop import Outcome
from .replay import seed_doc
from .rules import rules_hash, rules_report, rules_to_dict
from .setup import Seed
from .sheet import Sheet
from .state import BattleState

LOG_FORMAT = "sodwa-battle-log"
LOG_VERSION = 1


def plain(value: Any) -> Any:
    """A value as plain JSON: dataclasses as objects (field order), tuples as lists,
    enums by value."""
    if isinstance(value, AbilityDef):
        return ability_doc(value)
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def ability_doc(d: AbilityDef) -> dict[str, Any]:
    """An area ability as the roster writes it (its area in the designers' notation)."""
    return {f.name: plain(getattr(d, f.name)) for f in fields(d) if f.name != "spec"}


def sheet_doc(sheet: Sheet) -> dict[str, Any]:
    """Every attribute of a character's sheet (:class:`.sheet.Sheet`, field order)."""
    return {f.name: plain(getattr(sheet, f.name)) for f in fields(sheet)}


def sheet_from_doc(doc: dict[str, Any]) -> Sheet:
    """The sheet of a log's ``sheet`` object, without its abilities (the audit's
    Basic Attack numbers need none; an area ability's it reads from ``doc``)."""
    names = {f.name for f in fields(Sheet)}
    return Sheet(**{k: v for k, v in doc.items() if k in names and k != "abilities"})


def header(start: BattleState, *, map_name: str, map_hash: str, seed: Seed,
           controllers: Sequence[str], profiles: Sequence[dict[str, Any] | None],
           swapped: bool = False) -> dict[str, Any]:
    """The log's header: everything the battle of ``start`` (its state before the
    first turn) used."""
    rules = start.rules
    return {
        "format": LOG_FORMAT, "format_version": LOG_VERSION, "engine_version": __version__,
        "map": {"name": map_name, "hash": map_hash},
        "seed": seed_doc(seed), "swapped": swapped,
        "rules_hash": rules_hash(rules), "rules_changed": rules_report(rules)["changed"],
        "rules": rules_to_dict(rules),
        "ai": list(controllers), "ai_profiles": list(profiles),
        "characters": [{"index": i, "id": f.id, "team": f.team, "side": f.side,
                        "archetype": f.sheet.archetype, "cost": f.sheet.cost,
                        "tile": [f.x, f.y], "sheet": sheet_doc(f.sheet)}
                       for i, f in enumerate(start.fighters)],
    }


def battle_log(start: BattleState, outcome: Outcome, **options: Any) -> dict[str, Any]:
    """The whole log of a battle: :func:`header` (``options`` are its keywords), every
    event of ``outcome`` and the result."""
    end = next((e for e in reversed(outcome.events) if e.kind == "battle_ended"), None)
    return {**header(start, **options),
            "events": [e.to_dict() for e in outcome.events],
            "result": {"winner": outcome.result.winner, "reason": outcome.result.reason,
                       "turns": getattr(end, "turns", None), "tick": getattr(end, "tick", None)}}
