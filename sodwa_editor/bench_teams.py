"""Seeded teams for the battle benchmarks, the soak and the AI tests: drawn from the
roster's one-tile archetypes (:func:`random_teams`), with one Huge creature a side
(:func:`huge_teams`), or with area-ability archetypes (:func:`ability_teams`)."""

from __future__ import annotations

from typing import Any

import numpy as np


def random_teams(seed: int | np.random.Generator, n: int, roster: Any = None
                 ) -> list[tuple[str, object, None]]:
    """Two seeded teams of ``n`` roster archetypes (the same for every run; ``seed``
    may be a generator to draw from; ``roster``: default the shipped one).  Used by the
    battle benchmark and the AI tests.  Medium archetypes only (the draws and so every
    battle stay those of a roster without sizes; :func:`huge_teams` adds large ones)."""
    from .battle.sheet import load_roster
    from .battle.teams import team_from_dict

    roster = roster or load_roster()
    names = medium_names(roster)
    rng = np.random.default_rng(seed)
    sides: list[tuple[str, object, None]] = []
    for side in ("red", "blue"):
        members = [{"id": f"m{i}", "archetype": names[int(rng.integers(len(names)))]}
                   for i in range(n)]
        doc = {"format": "sodwa-team", "format_version": 1, "name": side, "members": members}
        sides.append((side, team_from_dict(doc, roster), None))
    return sides


def medium_names(roster: Any) -> list[str]:
    """The roster's one-tile archetypes (Medium, no free dimensions), in roster order."""
    return [a.name for a in roster.archetypes if a.size == "medium" and a.dimensions is None]


def huge_teams(seed: int, n: int, roster: Any = None) -> list[tuple[str, object, None]]:
    """:func:`random_teams` with the first member of each team replaced by the roster's
    first Huge archetype: one Huge creature per team (the battle benchmark's sized
    figure)."""
    from .battle.sheet import load_roster
    from .battle.teams import team_from_dict

    roster = roster or load_roster()
    huge = next(a.name for a in roster.archetypes if a.size == "huge")
    sides: list[tuple[str, object, None]] = []
    for side, team, formation in random_teams(seed, n, roster):
        members = [{"id": m.id, "archetype": huge if i == 0 else m.archetype}
                   for i, m in enumerate(team.members)]  # type: ignore[attr-defined]
        doc = {"format": "sodwa-team", "format_version": 1, "name": side, "members": members}
        sides.append((side, team_from_dict(doc, roster), formation))
    return sides


def ability_rosters() -> tuple[Any, Any]:
    """The shipped roster and the same roster with every ability taken off (equal sheets
    otherwise), for the abilities' speed ratio."""
    import copy

    from .battle.jsonfiles import read_json
    from .battle.sheet import DEFAULT_ROSTER_PATH, roster_from_dict

    doc = read_json(DEFAULT_ROSTER_PATH)
    bare = copy.deepcopy(doc)
    for entry in bare["characters"]:
        entry.pop("abilities", None)
    return roster_from_dict(doc), roster_from_dict(bare)


def ability_teams(seed: int, n: int, roster: Any, casters: Any = None
                  ) -> list[tuple[str, object, None]]:
    """Two seeded teams of ``n`` archetypes of ``roster``, each with ``min(2, n)`` of the
    archetypes that have area abilities in the shipped roster (``casters``: their names)
    and the rest drawn from all: area abilities in both teams."""
    from .battle.teams import team_from_dict

    names = roster.names()
    casters = casters or [a.name for a in ability_rosters()[0].archetypes if a.abilities]
    rng = np.random.default_rng(seed)
    sides: list[tuple[str, object, None]] = []
    for side in ("red", "blue"):
        picks = [casters[int(rng.integers(len(casters)))] for _ in range(min(2, n))]
        picks += [names[int(rng.integers(len(names)))] for _ in range(n - len(picks))]
        doc = {"format": "sodwa-team", "format_version": 1, "name": side,
               "members": [{"id": f"m{i}", "archetype": a} for i, a in enumerate(picks)]}
        sides.append((side, team_from_dict(doc, roster), None))
    return sides
