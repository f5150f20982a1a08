"""Rates with 95 % Wilson score intervals, for the balance report (:mod:`.report`)
and its verdict (:mod:`.report_verdict`).  A Wilson interval stays inside [0, 1]
and is sensible for small batches and rates near 0 or 1, where the normal
approximation is not.

>>> lo, hi = wilson(5, 10)
>>> round(lo, 3), round(hi, 3)
(0.237, 0.763)
>>> wilson(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math
from typing import Any

#: z for a two-sided 95 % interval.
Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial rate (``(0, 1)`` when ``n == 0``)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends: no rounding
    hi = 1.0 if successes == n else min(1.0, centre + half)  # error at 0 % or 100 %
    return lo, hi


def rate(successes: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(successes, n)
    return {"count": successes, "of": n, "rate": successes / n if n else 0.0,
            "ci95": [round(lo, 6), round(hi, 6)]}
