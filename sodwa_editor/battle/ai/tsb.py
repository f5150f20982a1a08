"""The TSB's turn counts as the AIs need them, without simulating the clock.

:meth:`..clock.Clock.predict` simulates every future turn as a pass (RB TSB: "it
always assumes the character will pass").  Under that assumption each
character's turns fall on ticks that depend on its own IP and Initiative only:
a tick's turns are all taken before the clock moves on (RB: "The Battle Clock
doesn't resume ticking until all applicable characters have completed their
turns"), so the tie-breaks order turns inside a tick but never move one to
another tick.  :func:`turns_by` counts them in closed steps per character; it is
property-tested equal to counting :meth:`..clock.Clock.predict`'s entries
(tests/test_battle_ai_speed.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..clock import ticks_to_reach
from ..rules import ClockRules


@njit(cache=True, nogil=True)
def _count(ip, initiative, due_now, tick, until, threshold, cost, once):  # pragma: no cover
    count = 0
    t = tick
    if due_now:
        count, ip = count + 1, ip - cost
        while not once and ip >= threshold:
            count, ip = count + 1, ip - cost
    while True:
        k = max(1, ticks_to_reach(ip, initiative, threshold))
        t += k
        if t > until:
            return count
        ip += k * initiative
        count, ip = count + 1, ip - cost
        while not once and ip >= threshold:
            count, ip = count + 1, ip - cost


def turns_by(ip: int, initiative: int, due_now: bool, tick: int, until: int,
             rules: ClockRules) -> int:
    """Turns the TSB predicts for one character at ticks ``tick..until`` (inclusive),
    from its ``ip`` now; ``due_now``: it still has a turn in the current tick
    (:meth:`..clock.Clock.ticks_until_turn` is 0)."""
    return int(_count(ip, initiative, due_now, tick, until, rules.turn_threshold,
                      rules.turn_cost, rules.one_turn_per_tick))


@njit(cache=True, nogil=True)
def turn_table(ip, initiative, extras, ips, initiatives, due, threshold, cost, once,
               out):  # pragma: no cover
    """:func:`turns_before_next` into ``out`` (compiled callers: the arrays as there,
    the clock rules as numbers)."""
    for c in range(extras.shape[0]):
        ahead = max(1, ticks_to_reach(ip - extras[c], initiative, threshold))
        for b in range(ips.shape[0]):
            out[c, b] = _count(ips[b], initiatives[b], due[b] != 0, 0, ahead, threshold,
                               cost, once)


def turns_before_next(ip: int, initiative: int, extras: np.ndarray, ips: np.ndarray,
                      initiatives: np.ndarray, due: np.ndarray, rules: ClockRules
                      ) -> np.ndarray:
    """``out[c, b]``: the turns the TSB predicts for character ``b`` (IP ``ips[b]``,
    Initiative ``initiatives[b]``, ``due[b]``: still due in this tick) before the next
    turn of a character with ``ip`` and ``initiative`` that spends ``extras[c]`` more
    IP in its turn now (its next turn ``max(1, ticks to reach the threshold)`` ticks
    ahead; ties counted as before): :func:`turns_by` for every pair in one call.

    >>> from sodwa_editor.battle.rules import default_rules
    >>> clock = default_rules().clock
    >>> turns_before_next(1000, 10, np.array([500]), np.array([990]), np.array([10]),
    ...                   np.array([0]), clock).tolist()
    [[1]]
    """
    out = np.empty((len(extras), len(ips)), np.int64)
    turn_table(ip, initiative, np.ascontiguousarray(extras, np.int64),
               np.ascontiguousarray(ips, np.int64), np.ascontiguousarray(initiatives, np.int64),
               np.ascontiguousarray(due, np.int64), rules.turn_threshold, rules.turn_cost,
               rules.one_turn_per_tick, out)
    return out
