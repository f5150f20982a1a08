"""Deterministic generated maps for benchmarks and tests.

``make_mixed_map(size, seed=s)`` is the same map for the same arguments on every
machine (``numpy.random.default_rng(seed)``): about 10% Impeding and 5%
Obstructing tiles, 5% of the inner edges carrying a random border type, three
rectangular level-1 plateaus each reached by a transition tile and transition
border, and two teams of characters in their start zones.  It passes the io
layer's validation without errors.

>>> m = make_mixed_map(32, seed=3)
>>> m.same_content(make_mixed_map(32, seed=3)), m.width, len(m.characters)
(True, 32, 6)
"""

from __future__ import annotations

import numpy as np

from .model import Character, Edge, MapModel
from .terrain import Base

#: Border types drawn for the random borders.
BORDER_TYPES = (Base.IMPEDING, Base.OBSTRUCTING, Base.DIFFICULT, Base.LIQUID)


def make_open_map(size: int) -> MapModel:
    """A ``size`` x ``size`` map of Clear level-0 tiles, nothing on it."""
    return MapModel(size, size, name=f"open {size}x{size}")


def make_mixed_map(size: int, *, seed: int = 0) -> MapModel:
    """A ``size`` x ``size`` map with every kind of feature (see module docstring).

    ``size`` must be at least 8.
    """
    if size < 8:
        raise ValueError(f"make_mixed_map needs size >= 8, not {size}")
    rng = np.random.default_rng(seed)
    m = MapModel(size, size, name=f"mixed {size}x{size} seed {seed}")
    m.description = ("Generated: 10% Impeding and 5% Obstructing tiles, 5% of edges with "
                     "borders, three level-1 plateaus with stairs, two teams.")
    r = rng.random((size, size))
    m.terrain[r < 0.10] = Base.IMPEDING
    m.terrain[(r >= 0.10) & (r < 0.15)] = Base.OBSTRUCTING
    for arr in (m.border_e, m.border_s):
        mask = rng.random(arr.shape) < 0.05
        arr[mask] = rng.choice(np.array(BORDER_TYPES, np.uint8), size=int(mask.sum()))
    zone_side = max(2, size // 16)
    rects = [_plateau(m, rng, margin=zone_side + 1) for _ in range(3)]
    for rect in rects:
        _stairs(m, *rect)
    _team(m, "red", 0, 0, zone_side, rng)
    _team(m, "blue", size - zone_side, size - zone_side, zone_side, rng)
    m.notify_bulk_change()
    return m


def _plateau(m: MapModel, rng: np.random.Generator, margin: int) -> tuple[int, int, int, int]:
    """A level-1 rectangle at least ``margin`` tiles from the map's sides; (x0, y0, w, h)."""
    n = m.width
    room = n - 2 * margin
    lo, hi = min(max(2, n // 8), room), min(max(3, n // 4), room)
    w, h = (int(v) for v in rng.integers(lo, hi + 1, size=2))
    x0 = int(rng.integers(margin, n - margin - w + 1))
    y0 = int(rng.integers(margin, n - margin - h + 1))
    m.elevation[y0 : y0 + h, x0 : x0 + w] = 1
    return x0, y0, w, h


def _stairs(m: MapModel, x0: int, y0: int, w: int, h: int) -> None:
    """Stairs: a ground tile just outside a plateau, joined to it by a transition border."""
    candidates = [
        ((x0 + w // 2, y0 + h), (x0 + w // 2, y0 + h - 1)),  # south side
        ((x0 + w // 2, y0 - 1), (x0 + w // 2, y0)),  # north side
        ((x0 + w, y0 + h // 2), (x0 + w - 1, y0 + h // 2)),  # east side
        ((x0 - 1, y0 + h // 2), (x0, y0 + h // 2)),  # west side
    ]
    for (sx, sy), (px, py) in candidates:
        if m.in_bounds(sx, sy) and m.elevation[sy, sx] == 0:
            for x, y in ((sx, sy), (px, py)):
                m.terrain[y, x] = Base.CLEAR
            edge = _edge((sx, sy), (px, py))
            arr = m.border_e if edge.side == "E" else m.border_s
            arr[edge.y, edge.x] = 0
            m.transition[sy, sx] = True
            (m.transition_e if edge.side == "E" else m.transition_s)[edge.y, edge.x] = True
            return


def _edge(a: tuple[int, int], b: tuple[int, int]) -> Edge:
    (ax, ay), (bx, by) = a, b
    if ay == by:
        return Edge(min(ax, bx), ay, "E")
    return Edge(ax, min(ay, by), "S")


def _team(m: MapModel, team: str, x0: int, y0: int, side: int,
          rng: np.random.Generator) -> None:
    """A ``side`` x ``side`` start zone of Clear ground tiles with three characters."""
    m.terrain[y0 : y0 + side, x0 : x0 + side] = Base.CLEAR
    zone = [(x, y) for y in range(y0, y0 + side) for x in range(x0, x0 + side)]
    m.start_zones[team] = set(zone)
    picks = rng.choice(len(zone), size=min(3, len(zone)), replace=False)
    for i, k in enumerate(sorted(int(p) for p in picks)):
        x, y = zone[k]
        cid = f"{team}-{i + 1}"
        m.characters[cid] = Character(cid, team, x, y, move=int(rng.integers(3, 8)),
                                      range=int(rng.integers(1, 10)), name=cid.title())
