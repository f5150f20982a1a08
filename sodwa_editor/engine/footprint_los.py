"""Line of sight to and from creatures larger than one tile (docs/rules.md S9).

The rulebook draws a line "from the middle of the active character's tile to the middle
of the target's tile".  A large creature has many tiles: the line of sight between two
creatures is the **least restrictive** of the lines from the centre of each square of
one to the centre of each square of the other, each walked by the engine's rules
(L1-L13, :mod:`.los_kernel`) with two readings for the creatures' own tiles: no square
of the viewer counts (L3: "not by the Orange character's occupied tile"), and a square
of the target counts as the target's tile does (L3, L12: its own terrain only, never as
Elevated Terrain or as a character).  Every other creature's squares block as a
character does (L4).  When the two creatures are adjacent (S5), Impeding terrain does
not affect their LoS (L5).  For two one-tile creatures this is :func:`.los.los`
(property-tested).

>>> from sodwa_editor.engine.model import MapModel, Rect
>>> from sodwa_editor.engine.footprint import Footprint
>>> from sodwa_editor.engine.los import los
>>> m = MapModel(8, 4)
>>> m.fill_terrain(Rect(3, 1, 3, 2), m.registry.id_of("obstructing"))
>>> los(m, (1, 1), (6, 1)).crossing.label
'blocked'
>>> r = footprint_los(m, (0, 0), Footprint(2, 4), (6, 1), Footprint(1, 1))
>>> r.crossing.label, r.src, r.dst
('clear', (1, 0), (6, 1))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from . import fan_runner
from . import los_kernel as k
from .footprint import Footprint, check_on_map, creatures_adjacent, overlaps
from .los import CROSSINGS, LosResult, _explain
from .los_inputs import los_inputs, marked_copy, pack_keys, pair_key
from .model import MapModel
from .terrain import Crossing

Tile = tuple[int, int]


@dataclass(frozen=True)
class FootprintLos:
    """The best line between two creatures: its class and reason (:class:`.los.LosResult`)
    and the squares it joins (the viewer's ``src``, the target's ``dst``)."""

    result: LosResult
    src: Tile
    dst: Tile

    @property
    def crossing(self) -> Crossing:
        return self.result.crossing

    def describe(self) -> str:
        return f"{self.result.describe()} (from {self.src} to {self.dst})"

    def to_json(self) -> dict[str, object]:
        return {**self.result.to_json(), "from": list(self.src), "to": list(self.dst)}


@njit(cache=True, nogil=True)
def _best(pxs, pys, qxs, qys, tc, ec, sc, tg):  # pragma: no cover - compiled
    """Walk the lines ``(pxs[i], pys[i]) -> (qxs[i], qys[i])`` in order; return the index
    of the first least restrictive one and its walk (a clear line ends the search)."""
    best = 3
    at = -1
    kind = rx = ry = side = 0
    for i in range(len(pxs)):
        c, kd, x, y, s = k.walk(pxs[i], pys[i], qxs[i], qys[i], tc, ec, sc, tg)
        if c < best:
            best, at, kind, rx, ry, side = c, i, kd, x, y, s
            if c == 0:
                break
    return best, at, kind, rx, ry, side


def _level(model: MapModel, anchor: Tile, fp: Footprint) -> int:
    x, y = anchor
    elev = model.elevation[y : y + fp.height, x : x + fp.width]
    if (elev != elev[0, 0]).any():
        raise ValueError(f"a {fp} footprint at {x},{y} is on two levels: it cannot stand "
                         "there (S4)")
    return int(elev[0, 0])


def _others(model: MapModel, occupied: Sequence[Tile] | None,
            mine: list[tuple[Tile, Footprint]]) -> tuple[np.ndarray, np.ndarray]:
    """The other creatures' squares: ``occupied`` or the model's characters, without the
    squares of the creatures in ``mine``."""
    tiles = ([(c.x, c.y) for c in model.characters.values()] if occupied is None
             else [(int(x), int(y)) for x, y in occupied])
    keep = [t for t in tiles if not any(fp.covers(a, t) for a, fp in mine)]
    return (np.array([t[0] for t in keep], np.int64), np.array([t[1] for t in keep], np.int64))


def footprint_los(model: MapModel, a: Tile, fa: Footprint, b: Tile, fb: Footprint, *,
                  occupied: Sequence[Tile] | None = None,
                  names: Callable[[Tile], str | None] | None = None) -> FootprintLos:
    """Line of sight from the creature of footprint ``fa`` whose top-left tile is ``a`` to
    the one of ``fb`` at ``b`` (module docstring, docs/rules.md S9).  ``occupied``: every
    square of every other creature (None: the model's characters); squares of the two
    creatures themselves are left out.  Of the least restrictive lines, the shortest (then
    the first by the viewer's square, then the target's, row-major) is reported."""
    check_on_map(model, a, fa)
    check_on_map(model, b, fb)
    if overlaps(a, fa, b, fb):
        raise ValueError(f"the footprints {fa} at {a} and {fb} at {b} overlap")
    la, lb = _level(model, a, fa), _level(model, b, fb)
    inp = los_inputs(model)
    lo, level = pair_key(la, lb)
    tc, ec, sc = inp.terrain_context(lo, level)
    xs, ys = _others(model, occupied, [(a, fa), (b, fb)])
    keys = pack_keys([(lo, level)])
    tc = marked_copy(tc[np.newaxis], *keys, inp.elev, inp.tile_los, xs, ys)[0]
    tc[a[1] : a[1] + fa.height, a[0] : a[0] + fa.width] = 0  # the viewer's own tiles
    tgt = np.s_[b[1] : b[1] + fb.height, b[0] : b[0] + fb.width]
    tc[tgt] = inp.target[tgt]  # the target's tiles count as its own tile
    ps, qs = fa.squares(a), fb.squares(b)
    pairs = sorted(((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2, i, j)
                   for i, p in enumerate(ps) for j, q in enumerate(qs))
    order = np.array([(ps[i][0], ps[i][1], qs[j][0], qs[j][1]) for _d, i, j in pairs],
                     np.int64)
    cls, at, kind, rx, ry, side = _best(order[:, 0], order[:, 1], order[:, 2], order[:, 3],
                                        tc, ec, sc, inp.target)
    src, dst = (int(order[at, 0]), int(order[at, 1])), (int(order[at, 2]), int(order[at, 3]))
    crossing = CROSSINGS[int(cls)]
    if crossing is Crossing.IMPEDED and creatures_adjacent(model, a, fa, b, fb):
        return FootprintLos(LosResult(Crossing.CLEAR, None), src, dst)
    reason = _explain(model, crossing, int(kind), int(rx), int(ry), int(side), who=names)
    return FootprintLos(LosResult(crossing, reason), src, dst)


def footprint_los_fan(model: MapModel, a: Tile, fa: Footprint, *,
                      occupied: Sequence[Tile] | None = None) -> np.ndarray:
    """LoS class (uint8 :class:`Crossing` values, ``[y, x]``) from the creature of ``fa``
    at ``a`` to a one-tile target on every tile: the least restrictive line from any of its
    squares (S9); its own tiles are clear.  ``occupied`` as in :func:`footprint_los`.  For
    a 1x1 creature this is :func:`.los.los_fan`."""
    check_on_map(model, a, fa)
    la = _level(model, a, fa)
    inp = los_inputs(model)
    (ctx, tcs, ecs, scs), keys = inp.terrain_stack(la)
    xs, ys = _others(model, occupied, [(a, fa)])
    tcs = marked_copy(tcs, *pack_keys(keys), inp.elev, inp.tile_los, xs, ys)
    tcs[:, a[1] : a[1] + fa.height, a[0] : a[0] + fa.width] = 0
    no_shortcut = np.ones((len(tcs), 1, 1), np.int32)
    mask = np.ones(model.shape, np.bool_)
    best = np.full(model.shape, 2, np.uint8)
    out = np.empty(model.shape, np.uint8)
    for p in fa.squares(a):
        fan_runner.run((p[0], p[1], ctx, tcs, ecs, scs, no_shortcut, inp.target), mask, out)
        np.minimum(best, out, out=best)
    for y in range(max(0, a[1] - 1), min(model.height, a[1] + fa.height + 1)):
        for x in range(max(0, a[0] - 1), min(model.width, a[0] + fa.width + 1)):
            if fa.covers(a, (x, y)):
                best[y, x] = 0
            elif best[y, x] == Crossing.IMPEDED and creatures_adjacent(
                    model, a, fa, (x, y), Footprint(1, 1)):
                best[y, x] = Crossing.CLEAR
    return best
