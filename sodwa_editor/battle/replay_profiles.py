"""Which AI profiles a replay's AIs played by (issue 11 section 4): ``sodwa replay
--verify`` refuses a replay made with other profiles than the ones it is given,
naming the first key that differs.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .ai.profile import Profile, default_profile
from .jsonfiles import brief as _brief
from .replay import Replay, ReplayError, profiles_hash
from .setup import profile_values, uses_profile


def check_profiles(replay: Replay, profiles: Sequence[Profile], files: Sequence[str]) -> None:
    """Raise :class:`ReplayError` unless the replay's AIs played by ``profiles``
    (one for both teams, or team 0's and team 1's; ``files`` names where each came
    from): a replay made with another AI profile is not what these inputs produce."""
    src, names = replay.source, replay.doc["controllers"]
    pair, where = (profiles[0], profiles[-1]), (files[0], files[-1])
    now = [profile_values(p) if uses_profile(n) else None for n, p in zip(names, pair, strict=True)]
    if profiles_hash(names, now) == replay.doc["hashes"]["ai_profiles"]:
        return
    hint = "give the one it was made with: --ai-profile FILE"
    recorded = replay.doc.get("ai_profiles")
    if recorded is None:
        raise ReplayError(f"{src}: hashes.ai_profiles: made with other AI profiles than "
                          f"{' and '.join(dict.fromkeys(where))} (the file does not embed "
                          f"the ones it was made with)")
    for team, (old, new) in enumerate(zip(recorded, now, strict=True)):
        diff = _first_difference(old, new)
        if diff is not None:
            key, was, got = diff
            raise ReplayError(f"{src}: ai_profiles[{team}].{key}: team {team}'s AI "
                              f"({names[team]}) played by another AI profile: {was} in the "
                              f"replay, {got} in {where[team]} ({hint})")
    raise ReplayError(f"{src}: hashes.ai_profiles: made with other AI profiles than "
                      f"{' and '.join(dict.fromkeys(where))} ({hint})")


def _first_difference(old: Any, new: Any, at: str = "") -> tuple[str, Any, Any] | None:
    """The first (sorted) dotted key where two profile documents differ."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            found = _first_difference(old.get(key), new.get(key), f"{at}.{key}" if at else key)
            if found is not None:
                return found
        return None
    if old == new:
        return None
    return (_brief(at or "(profile)", 80), _brief(json.dumps(old)), _brief(json.dumps(new)))


def played_profile_docs(replay: Replay, given: Sequence[Profile] | None = None
                        ) -> list[dict[str, Any] | None]:
    """Per team, the AI profile values its controller played by, for the battle log:
    the recorded ones; for an older replay that embeds none, ``given`` (the profiles
    ``--verify`` checked, team 0's and team 1's), else the shipped profile.  None for
    a controller that uses no profile."""
    recorded = replay.doc.get("ai_profiles")
    if recorded is not None:
        return list(recorded)
    pair = list(given) if given else [default_profile()]
    return [profile_values(pair[team % len(pair)]) if uses_profile(name) else None
            for team, name in enumerate(replay.doc["controllers"])]
