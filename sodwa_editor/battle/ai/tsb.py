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

from ..clock import ticks_to_reach
from ..rules import ClockRules


def turns_by(ip: int, initiative: int, due_now: bool, tick: int, until: int,
             rules: ClockRules) -> int:
    """Turns the TSB predicts for one character at ticks ``tick..until`` (inclusive),
    from its ``ip`` now; ``due_now``: it still has a turn in the current tick
    (:meth:`..clock.Clock.ticks_until_turn` is 0)."""
    threshold, cost, once = rules.turn_threshold, rules.turn_cost, rules.one_turn_per_tick
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
