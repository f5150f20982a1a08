"""AI profiles: the greedy AI's weights and the expectimax AI's search settings,
read from a JSON file (``resources/ai-profile.json`` by default, validated by
``schemas/ai-profile.schema.json``; keys documented in docs/battle-ai.md).  A key
left out takes the default file's value.

>>> p = default_profile()
>>> p.greedy.damage, p.expectimax.depth
(1.0, 2)
>>> try:
...     profile_from_dict({"format": "sodwa-ai-profile", "format_version": 1,
...                        "greedy": {"kill": -1}}, "mine.json")
... except BattleInputError as exc:
...     print(exc)
mine.json: greedy.kill: -1 is less than the minimum of 0
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from ..jsonfiles import RESOURCE_DIR, BattleInputError, PathLike, read_json, validate

DEFAULT_PROFILE = RESOURCE_DIR / "ai-profile.json"


@dataclass(frozen=True, slots=True)
class GreedyWeights:
    """Weights of the greedy utility (each term in hit points; docs/battle-ai.md)."""

    damage: float
    kill: float
    karma: float
    threat: float
    death: float
    ip: float
    approach: float


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """Expectimax settings: own turns searched, candidates at the root and at the
    next turn, and the node budget per decision (never seconds)."""

    depth: int
    candidates: int
    reply_candidates: int
    node_budget: int


@dataclass(frozen=True, slots=True)
class Profile:
    greedy: GreedyWeights
    expectimax: SearchSettings


def _section(cls: type, doc: dict[str, Any], base: dict[str, Any]) -> Any:
    merged = {**base, **doc}
    return cls(**{f.name: merged[f.name] for f in fields(cls)})


def profile_from_dict(doc: Any, source: str = "profile") -> Profile:
    """A profile from a parsed document; an invalid one is one line naming the key."""
    validate(doc, "ai-profile", source)
    base = _default_doc() if source != str(DEFAULT_PROFILE) else doc
    greedy = _section(GreedyWeights, doc.get("greedy", {}), base.get("greedy", {}))
    search = _section(SearchSettings, doc.get("expectimax", {}), base.get("expectimax", {}))
    return Profile(greedy, search)


def load_profile(path: PathLike | None = None) -> Profile:
    """The profile in ``path`` (default: the shipped one)."""
    if path is None:
        return default_profile()
    return profile_from_dict(read_json(path), str(path))


@cache
def _default_doc() -> dict[str, Any]:
    doc = read_json(DEFAULT_PROFILE)
    validate(doc, "ai-profile", str(DEFAULT_PROFILE))
    for section, cls in (("greedy", GreedyWeights), ("expectimax", SearchSettings)):
        missing = [f.name for f in fields(cls) if f.name not in doc.get(section, {})]
        if missing:
            raise BattleInputError(f"{DEFAULT_PROFILE}: {section}.{missing[0]}: missing "
                                   "required key")
    return doc


@cache
def default_profile() -> Profile:
    return profile_from_dict(_default_doc(), str(DEFAULT_PROFILE))
