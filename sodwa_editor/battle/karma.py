"""The Karma System (RB *The Karma System*) and the resolution of one chance roll.

The two teams' Karma Pools are one signed integer (decision B27): positive =
team 0 holds that many points, negative = team 1 does.  "The Karma Points of
opponents cancel each other out before being added to the Karma Pool ... This
means only one player at a time has access to Karma Points" is then plain
addition, and only one team can ever hold points.

>>> pool = add(0, 0, 10)          # Player A has 10 Karma Points
>>> pool = add(pool, 1, 25)       # Player B earns 25: 10 cancel A's, 15 remain
>>> available(pool, 0), available(pool, 1)
(0, 15)
"""

from __future__ import annotations

from typing import NamedTuple

from .dice import natural_success, needed_roll
from .rules import Rules


def available(pool: int, team: int) -> int:
    """Karma Points team ``team`` (0 or 1) holds in the signed pool."""
    return pool if team == 0 and pool > 0 else (-pool if team == 1 and pool < 0 else 0)


def add(pool: int, team: int, points: int) -> int:
    """The pool after ``team`` earns ``points`` (RB: opponents' points cancel first)."""
    return pool + points if team == 0 else pool - points


def spend(pool: int, team: int, points: int) -> int:
    """The pool after ``team`` uses ``points`` of its own (RB: "Karma Points are
    deducted from the Karma Pool when used")."""
    if not 0 <= points <= available(pool, team):
        raise ValueError(f"team {team} holds {available(pool, team)} Karma Points, "
                         f"cannot spend {points}")
    return add(pool, team, -points)


def gain(difficulty: int, rules: Rules) -> int:
    """Karma Points earned by a failed roll (RB: "Whenever a player attempts an action
    with a difficulty less than 50%, but the roll fails, they gain Karma Points
    equal to the difference between the action's difficulty and 50%").

    With ``karma.gain_from_effective_difficulty`` the difficulty is the roll that is
    actually needed (:func:`.dice.needed_roll`, at least 2), decision B29.
    """
    d = needed_roll(difficulty, rules.dice) if rules.karma.gain_from_effective_difficulty \
        else difficulty
    return rules.karma.gain_below - d if d < rules.karma.gain_below else 0


def points_to_rescue(difficulty: int, value: int, rules: Rules) -> int | None:
    """Karma Points that turn the failed roll ``value`` into a success, or None.

    RB: "if you have enough Karma Points to increase your roll enough to succeed,
    the points will automatically be used": the roll is raised to the difficulty
    (``difficulty - value`` points, at least 1); a roll that always fails (01) is
    rescued only with ``karma.rescues_auto_fail`` (decision B30).
    """
    if value <= rules.dice.auto_fail_at_or_below and not rules.karma.rescues_auto_fail:
        return None
    return max(difficulty - value, 1)


class RollOutcome(NamedTuple):
    """What one chance roll did: success (after karma), the natural result, karma used
    and earned, and the signed pool afterwards."""

    success: bool
    natural: bool
    karma_spent: int
    karma_gained: int
    pool_after: int


def resolve_roll(difficulty: int, value: int, pool: int, team: int, rules: Rules) -> RollOutcome:
    """Resolve a d100 roll ``value`` at ``difficulty`` for ``team`` with the signed pool.

    RB *Attacking and Defending*: success iff the roll "equals or exceeds the
    difficulty rating", 01 always fails, 00 always succeeds.  RB *Karma*: a failed
    roll is rescued automatically when the team holds enough points (all or
    nothing, decision B28); a failure that stays a failure earns :func:`gain`.
    """
    if natural_success(value, difficulty, rules.dice):
        return RollOutcome(True, True, 0, 0, pool)
    need = points_to_rescue(difficulty, value, rules)
    if need is not None and need <= available(pool, team):
        return RollOutcome(True, False, need, 0, add(pool, team, -need))
    earned = gain(difficulty, rules)
    return RollOutcome(False, False, 0, earned, add(pool, team, earned))


def successes(difficulty: int, karma: int, rules: Rules) -> int:
    """Rolls out of the 100 equally likely ones that succeed when the roller holds
    ``karma`` points: the natural successes plus the failures karma rescues.
    (Closed form of counting :func:`resolve_roll` over 1..100.)"""
    d = rules.dice
    need = needed_roll(difficulty, d)
    count = 101 - need
    if karma <= 0:
        return count
    low = max(difficulty - karma, d.auto_fail_at_or_below + 1)
    count += max(0, need - low)
    if rules.karma.rescues_auto_fail:
        count += max(0, d.auto_fail_at_or_below - max(difficulty - karma, 1) + 1)
    return count
