"""Signs of life and a time limit for ``sodwa battle``: a progress line on a
terminal and ``--time-limit``.

:class:`BattleWatch` is called after every turn of a battle (``run_battle``'s
``after_turn``).  On a terminal (stderr a tty, never in a pipe or a log file) it
redraws ``battle: turn T of at most N, tick K, S s`` in place once the battle has
run for half a second (a quick battle prints nothing), and clears it at the end.
With a time limit it stops the battle after the first turn that ends past it,
with one line and exit code :data:`.cli_common.EXIT_BUDGET`.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

from .cli_common import EXIT_BUDGET, CliError

#: The progress line appears once a battle has run this long, and is redrawn at
#: most this often (seconds).
SHOW_AFTER = 0.5
REDRAW_EVERY = 0.2


class BattleWatch:
    """Progress on ``stream`` (when it is a terminal) and an optional time limit
    in seconds; ``what`` ends the time-limit line (what was not done)."""

    def __init__(self, limit: float | None = None, stream: TextIO | None = None,
                 what: str = "") -> None:
        self.limit = limit
        self.stream = stream if stream is not None else sys.stderr
        try:
            self.live = bool(self.stream is not None and self.stream.isatty())
        except (AttributeError, ValueError, OSError):  # (closed, or no such method)
            self.live = False
        self.what = what
        self.start = time.monotonic()
        self._drawn = 0.0  # when the line was last drawn (0: never)

    def __call__(self, state: Any) -> None:
        now = time.monotonic()
        spent = now - self.start
        clock = state.clock
        if self.limit is not None and spent > self.limit:
            self.clear()
            raise CliError(f"the battle went over --time-limit {self.limit:g} s at turn "
                           f"{clock.turns} of at most {state.rules.battle.max_turns} (tick "
                           f"{clock.tick}); stopped{self.what}", code=EXIT_BUDGET)
        if self.live and spent >= SHOW_AFTER and now - self._drawn >= REDRAW_EVERY:
            self._drawn = now
            self._write(f"\rbattle: turn {clock.turns} of at most "
                        f"{state.rules.battle.max_turns}, tick {clock.tick}, {spent:.0f} s "
                        + ("" if self.limit is None else f"(limit {self.limit:g} s) "))

    def clear(self) -> None:
        """Remove the progress line (if one was drawn)."""
        if self._drawn:
            self._drawn = 0.0
            self._write("\r\033[K")

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # stderr went away: no progress, no error
            self.live = False
