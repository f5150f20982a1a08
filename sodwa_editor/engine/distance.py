"""How far apart two tiles are, by the rules' range metric (docs/rules.md B18: Range is
counted with ``targeting.range_metric``, default Chebyshev, "steps with diagonals, as
movement M1").  The battle's Range test and the areas of effect's Range both use it.

>>> distance((0, 0), (3, 4), "chebyshev"), distance((0, 0), (3, 4), "manhattan")
(4, 7)
>>> distance((0, 0), (3, 4), "euclidean")
5.0
"""

from __future__ import annotations

import math

#: The metrics ``targeting.range_metric`` may name, with the code the compiled kernels use.
METRICS = {"chebyshev": 0, "euclidean": 1, "manhattan": 2}


def distance(a: tuple[int, int], b: tuple[int, int], metric: str) -> float:
    """Tiles between two tiles by ``targeting.range_metric`` (decision B18)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    if metric == "chebyshev":
        return max(dx, dy)
    if metric == "manhattan":
        return dx + dy
    return math.hypot(dx, dy)


def steps(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Steps between two tiles on an open map (each step to one of the 8 neighbours,
    M1): the Chebyshev distance.  A Reach is counted in steps (AE2)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
