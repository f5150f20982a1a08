"""The d100 (RB *Attacking and Defending*) and the battle's random streams.

"the player rolls two 10-sided dice consisting of numbers 0-9; one dice
represents the ten's place and the other represents the one's place. So, a roll
of 0 and 6 would equal 6%. 7 and 7 would equal 77%. 0 and 0 would equal 100%,
not 0%."  "When both dice roll the same number, this is known as rolling
Doubles."  "A roll of 01 (1%) is always a failure, regardless of difficulty. A
roll of 00 (100%) is always a success and counts as rolling Doubles."

Random numbers come from one root seed: :class:`Streams` spawns independent
``numpy.random.SeedSequence`` children, one per purpose (dice, setup, the AI of
each team), so a changed AI never shifts the dice, and the same seed gives the
same draws.

>>> D100(0, 6).value, D100(7, 7).value, D100(7, 7).doubles, D100(0, 0).value
(6, 77, True, 100)
>>> a, b = Streams(7).dice, Streams(7).dice
>>> [a.roll() for _ in range(3)] == [b.roll() for _ in range(3)]
True
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .rules import DiceRules

#: Purposes of the spawned streams, in spawn order (the order is part of a replay's meaning).
STREAM_PURPOSES = ("dice", "setup", "ai")
#: Dice drawn from the generator at a time (a fixed property of the stream, so the
#: sequence of rolls does not depend on how many are asked for at once).
DICE_CHUNK = 512


class D100(NamedTuple):
    """One d100 roll as its two dice (tens die, ones die), each 0..9."""

    tens: int
    ones: int

    @property
    def value(self) -> int:
        """1..100: ten's and one's place, 0 and 0 = 100 (RB)."""
        return self.tens * 10 + self.ones or 100

    @property
    def doubles(self) -> bool:
        """Both dice show the same number (00 included: RB "counts as rolling Doubles")."""
        return self.tens == self.ones


def d100_from_value(value: int) -> D100:
    """The two dice that show ``value`` (1..100)."""
    if not 1 <= value <= 100:
        raise ValueError(f"a d100 shows 1..100, not {value}")
    value %= 100
    return D100(value // 10, value % 10)


def natural_success(value: int, difficulty: int, dice: DiceRules) -> bool:
    """Whether a roll succeeds before karma (RB): at or below the always-failing roll
    (01) it fails, at or above the always-succeeding one (00 = 100) it succeeds,
    otherwise it succeeds iff it "equals or exceeds the difficulty rating"."""
    if value <= dice.auto_fail_at_or_below:
        return False
    return value >= dice.auto_success_at_or_above or value >= difficulty


def needed_roll(difficulty: int, dice: DiceRules) -> int:
    """The lowest roll that succeeds: the difficulty, but never a roll that always
    fails and never above the roll that always succeeds (decision B24)."""
    return min(max(difficulty, dice.auto_fail_at_or_below + 1), dice.auto_success_at_or_above)


class DiceStream:
    """d100 rolls from one numpy generator, drawn :data:`DICE_CHUNK` dice at a time."""

    __slots__ = ("_gen", "_buf", "_pos", "rolled")

    def __init__(self, generator: np.random.Generator) -> None:
        self._gen = generator
        self._buf: list[int] = []
        self._pos = 0
        self.rolled = 0  # rolls handed out so far

    def roll(self) -> D100:
        if self._pos + 2 > len(self._buf):
            self._buf = self._gen.integers(0, 10, DICE_CHUNK, dtype=np.int64).tolist()
            self._pos = 0
        pos = self._pos
        self._pos = pos + 2
        self.rolled += 1
        return D100(self._buf[pos], self._buf[pos + 1])


class Streams:
    """The independent random streams of one battle, spawned from one root seed.

    Spawn order: ``dice``, ``setup``, then one AI stream per team.
    """

    __slots__ = ("seed", "dice", "setup", "ai")

    def __init__(self, seed: int | np.random.SeedSequence, teams: int = 2) -> None:
        root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
        children = root.spawn(2 + teams)
        self.seed = root.entropy
        self.dice = DiceStream(np.random.default_rng(children[0]))
        self.setup = np.random.default_rng(children[1])
        self.ai = tuple(np.random.default_rng(c) for c in children[2:])
