"""AI profiles: the greedy AI's weights, its terrain weights and the expectimax AI's
search settings, read from a JSON file (``resources/ai-profile.json`` by default, validated by
``schemas/ai-profile.schema.json``; keys documented in docs/battle-ai.md).  A key
left out takes the default file's value.

>>> p = default_profile()
>>> p.greedy.damage, p.expectimax.depth, p.terrain.cover
(1.0, 2, 0.0)
>>> load_profile(TERRAIN_PROFILE).terrain.cover  # the terrain-aware profile
1.0
>>> try:
...     profile_from_dict({"format": "sodwa-ai-profile", "format_version": 1,
...                        "greedy": {"kill": -1}}, "mine.json")
... except BattleInputError as exc:
...     print(exc)
mine.json: greedy.kill: -1 is less than the minimum of 0
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from ..jsonfiles import RESOURCE_DIR, BattleInputError, PathLike, read_json, validate

DEFAULT_PROFILE = RESOURCE_DIR / "ai-profile.json"
#: The shipped terrain-aware profile: the default with the ``terrain`` weights on
#: (docs/battle-ai.md, *Terrain properties*; the default has them off, for speed).
TERRAIN_PROFILE = RESOURCE_DIR / "ai-profile-terrain.json"
#: The largest greedy weight (schemas/ai-profile.schema.json): a utility is a sum of
#: weights times damage (at most 10**6 a hit), chances, point costs and steps, so
#: with weights up to this it stays a finite float (1e308 overflowed to inf, and
#: inf - inf is NaN, which no comparison picks).
MAX_WEIGHT = 1e6


@dataclass(frozen=True, slots=True)
class GreedyWeights:
    """Weights of the greedy utility (each term in hit points; docs/battle-ai.md).

    Each is kept as a float within ``+-MAX_WEIGHT``, however the weights were made
    (a file is checked by the schema first; NaN becomes 0, inf or an int too large
    for a float the bound), so the scorer never meets inf or NaN.

    >>> GreedyWeights(float("inf"), float("nan"), 10**400, 1, 0, 0, 0).damage
    1000000.0
    """

    damage: float
    kill: float
    karma: float
    threat: float
    death: float
    ip: float
    approach: float

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if type(value) is not float or not -MAX_WEIGHT <= value <= MAX_WEIGHT:
                object.__setattr__(self, f.name, _finite(value))


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """Expectimax settings: own turns searched, candidates at the root and at the
    next turn, and the node budget per decision (never seconds)."""

    depth: int
    candidates: int
    reply_candidates: int
    node_budget: int


@dataclass(frozen=True, slots=True)
class TerrainWeights:
    """Weights of the terrain properties' terms of the greedy utility (docs/battle-ai.md,
    *Terrain properties*; :mod:`.terrain_terms`), each in hit points as the greedy
    weights: ``cover`` per expected point of damage the end tile's terrain spares the
    character (Cover, Full Cover, high ground, water, Dark and Obscured, read by the
    battle's own modifiers), ``hazard`` per expected point of damage the Move's path
    deals on entering (Hazardous, a trap seen springing, Precarious), ``condition`` the
    hit points a condition left on the way is worth (times ``hazard``), ``attack`` the
    share of the terrain's change to the character's own attack values (1: the BIP's
    numbers; 0: the values of a map without properties) and ``altitude`` per expected
    point of damage a flyer's change of altitude layer spares it; ``plans`` the most
    plans of a decision scored with these terms, the most promising first (a budget,
    as the expectimax AI's nodes; 0: every plan that may be best).  All weights 0 (the
    default of a profile made in code): the AI plays as on a map without properties.

    >>> TerrainWeights(float("nan"), 2, 0, 0, 0).any
    True
    >>> TerrainWeights(plans=3.7).budget, TerrainWeights().budget
    (3, None)
    """

    cover: float = 0.0
    hazard: float = 0.0
    condition: float = 0.0
    attack: float = 0.0
    altitude: float = 0.0
    plans: float = 0.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if type(value) is not float or not -MAX_WEIGHT <= value <= MAX_WEIGHT:
                object.__setattr__(self, f.name, _finite(value))

    @property
    def any(self) -> bool:
        """Some term is weighed (else the terrain is not looked at: no time spent)."""
        return bool(self.cover or self.hazard or self.attack or self.altitude)

    @property
    def budget(self) -> int | None:
        """``plans`` as a count (None: no limit)."""
        return int(self.plans) or None


#: No terrain term (a profile made in code without terrain weights).
NO_TERRAIN = TerrainWeights()


@dataclass(frozen=True, slots=True)
class Profile:
    greedy: GreedyWeights
    expectimax: SearchSettings
    #: (in a replay's recorded profile values, ``setup.profile_values``, only when some
    #: weight is on: a replay made before these keys, or with them off, keeps its hash)
    terrain: TerrainWeights = NO_TERRAIN


def _section(cls: type, doc: dict[str, Any], base: dict[str, Any]) -> Any:
    merged = {**base, **doc}
    return cls(**{f.name: merged[f.name] for f in fields(cls)})


def profile_from_dict(doc: Any, source: str = "profile") -> Profile:
    """A profile from a parsed document; an invalid one is one line naming the key."""
    validate(doc, "ai-profile", source)
    base = _default_doc() if source != str(DEFAULT_PROFILE) else doc
    for section in ("greedy", "terrain"):
        raw = {**base.get(section, {}), **doc.get(section, {})}
        for key, value in raw.items():  # (the schema bound, checked here too: what scores hold)
            if isinstance(value, bool) or not isinstance(value, int | float) \
                    or not 0 <= value <= MAX_WEIGHT:
                raise BattleInputError(f"{source}: {section}.{key}: must be a number from 0 "
                                       f"to {MAX_WEIGHT:.0f}")
    greedy = _section(GreedyWeights, doc.get("greedy", {}), base.get("greedy", {}))
    search = _section(SearchSettings, doc.get("expectimax", {}), base.get("expectimax", {}))
    terrain = _section(TerrainWeights, doc.get("terrain", {}), base.get("terrain", {}))
    return Profile(greedy, search, terrain)


def _finite(value: float) -> float:
    """``value`` as a float within ``+-MAX_WEIGHT`` (NaN -> 0, beyond -> the bound)."""
    try:
        value = float(value)
    except OverflowError:  # an int too large for a float
        return MAX_WEIGHT
    if math.isnan(value):
        return 0.0
    return max(-MAX_WEIGHT, min(MAX_WEIGHT, value))


def load_profile(path: PathLike | None = None) -> Profile:
    """The profile in ``path`` (default: the shipped one)."""
    if path is None:
        return default_profile()
    return profile_from_dict(read_json(path), str(path))


@cache
def _default_doc() -> dict[str, Any]:
    doc = read_json(DEFAULT_PROFILE)
    validate(doc, "ai-profile", str(DEFAULT_PROFILE))
    for section, cls in (("greedy", GreedyWeights), ("expectimax", SearchSettings),
                         ("terrain", TerrainWeights)):
        missing = [f.name for f in fields(cls) if f.name not in doc.get(section, {})]
        if missing:
            raise BattleInputError(f"{DEFAULT_PROFILE}: {section}.{missing[0]}: missing "
                                   "required key")
    return doc


@cache
def default_profile() -> Profile:
    return profile_from_dict(_default_doc(), str(DEFAULT_PROFILE))
