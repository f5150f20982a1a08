"""The straight line of a Line, Rail or Cone area (docs/rules.md AE3, AE10-AE12): the
tiles the centre-to-centre line from the caster crosses, in order, each judged as a
line of sight to that tile would be (the context of the caster's and the tile's
levels, L6-L12, without characters), a Blast paying for the walls it breaks.

The line is walked once for every level context at the same time (a line that
crosses a cliff may reach the plateau's rim and not the tiles behind it, and the
ground beyond a grounded wall only if it breaks the wall).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from . import area_kernel as ak
from . import los_kernel as lk
from .area_spread import Durability, Reached, Wall, line_events
from .los_inputs import los_inputs
from .model import MapModel

Tile = tuple[int, int]


@dataclass
class _Layer:
    """The line as seen by the targets of one level context."""

    left: int
    alive: bool = True
    impeded: bool = False
    why: tuple[int, int, int, int] = (lk.R_NONE, -1, -1, lk.SIDE_NONE)
    pending: list[Wall] = field(default_factory=list)
    walls: set[Wall] = field(default_factory=set)
    #: the wall that stopped the line with damage left, and that damage (AE8)
    hit: tuple[Wall, int] | None = None
    need: int = 0

    def cross(self, c: int, cost: int, walls: list[Wall], why: tuple[int, int, int, int],
              pay: bool) -> None:
        """Cross one feature of coded class ``c`` (``cost`` the damage it takes to break
        it: the Durability left of its walls; the rules of
        :func:`.area_kernel.blast_walk`)."""
        if not self.alive:
            return
        if (c & 3) == 1:
            self.impeded = True
        if (c & 3) != 2:
            return
        if not pay or cost >= ak.NO_PASS:
            self.alive, self.why = False, why
            return
        if self.left < cost:
            self.alive, self.why, self.need = False, (ak.R_DURABILITY, *why[1:]), cost
            if self.left > 0 and why[0] != lk.R_CORNER and len(walls) == 1:
                self.hit = (walls[0], self.left)  # a tile or border keeps the damage
            return
        self.pending += walls
        self.left -= cost
        if self.left == 0:
            self.alive, self.why = False, (ak.R_SPENT, *why[1:])


@dataclass
class LineWalk:
    """The line's tiles in order (on the map and within its limit) and which of them it
    reached."""

    tiles: list[Tile]
    reached: Reached


def walk_line(model: MapModel, origin: Tile, toward: Tile, *, within: Callable[[Tile], bool],
              end: Tile | None = None, damage: int = -1,
              durability: int | Durability = 3) -> LineWalk:
    """The line from ``origin`` through ``toward``: every tile it enters while
    ``within(tile)`` holds and the tile is on the map, up to ``end`` when given.
    ``damage >= 0``: a Blast with that much damage (AE8), paying each wall's Durability
    left (``durability``: one for every wall, or a :class:`~.area_spread.Durability`)."""
    dur = durability if isinstance(durability, Durability) else \
        Durability.uniform(model, durability)
    inp = los_inputs(model)
    ctx, tcs, ecs, scs = inp.terrain_stack(int(model.elevation[origin[1], origin[0]]))[0]
    tg = inp.target
    pay = damage >= 0
    layers = [_Layer(damage if pay else 0) for _ in range(tcs.shape[0])]
    tiles: list[Tile] = []
    out = Reached()
    w, h = model.width, model.height
    for ev, x, y, qx, qy in line_events(origin, toward):
        if ev == "E" or ev == "S":
            if not (0 <= x < w - (ev == "E") and 0 <= y < h - (ev == "S")):
                break  # the line leaves the map
            arr = ecs if ev == "E" else scs
            why = (lk.R_BORDER, x, y, lk.SIDE_E if ev == "E" else lk.SIDE_S)
            wall: list[Wall] = [("border", x, y, ev)]
            for k, layer in enumerate(layers):
                c = int(arr[k, y, x])
                layer.cross(c, dur.of(wall[0]) if (c & 3) == 2 else 0, wall, why, pay)
        elif ev == "C":
            if not (0 <= qx < w and 0 <= qy < h):
                break
            _corner(layers, tcs, ecs, scs, x, y, qx, qy, pay, dur)
        else:
            t = (x, y)
            if not (0 <= x < w and 0 <= y < h) or not within(t):
                break
            tiles.append(t)
            _arrive(layers[int(ctx[y, x])], t, int(tg[y, x]), out, pay, dur)
            if t == end:
                break
            for k, layer in enumerate(layers):
                c = int(tcs[k, y, x])
                payable = (c >> 2) != lk.R_ELEVATION
                layer.cross(c, dur.of(("tile", x, y)) if (c & 3) == 2 and payable else
                            (ak.NO_PASS if (c & 3) == 2 else 0),
                            [("tile", x, y)], (c >> 2, x, y, lk.SIDE_NONE), pay)
    for layer in layers:
        out.walls |= layer.walls
    for broken in out.walls & out.hits.keys():
        del out.hits[broken]
    return LineWalk(tiles, out)


def _arrive(layer: _Layer, t: Tile, target_code: int, out: Reached,
            pay: bool, dur: Durability) -> None:
    """Judge tile ``t`` on its own level context: reached with the damage left, or
    stopped; the walls paid so far in that context count as broken (it needed them),
    and so does the damage left in the wall that stopped it."""
    layer.walls.update(layer.pending)
    layer.pending.clear()
    if layer.alive and (target_code & 3) == 2:  # a wall as a target tile (L12)
        wall = ("tile", t[0], t[1])
        need = dur.of(wall)
        if pay and layer.left >= need:
            layer.walls.add(wall)
        elif pay and layer.left > 0:
            _hit(out, wall, layer.left)
        out.stopped[t] = (lk.R_TARGET, t[0], t[1], lk.SIDE_NONE, need)
    elif layer.alive:
        out.left[t] = layer.left
        if layer.impeded:
            out.impeded.add(t)
    else:
        if layer.hit is not None:
            _hit(out, *layer.hit)
        out.stopped[t] = (*layer.why, layer.need or dur.full)


def _hit(out: Reached, wall: Wall, damage: int) -> None:
    if damage > out.hits.get(wall, 0):
        out.hits[wall] = damage


def _corner(layers: list[_Layer], tcs, ecs, scs, px: int, py: int, qx: int, qy: int,  # noqa: ANN001
            pay: bool, dur: Durability) -> None:
    """An exact corner from tile P to the diagonal tile Q: ``min`` over the two ways
    round (via R = (qx, py), via S = (px, qy)) of ``max(edge, tile, edge)`` (L2); a
    Blast breaks the cheaper way round (AE8)."""
    ex, ey = min(px, qx), min(py, qy)
    why = (lk.R_CORNER, max(px, qx), max(py, qy), lk.SIDE_NONE)
    for k, layer in enumerate(layers):
        e1, tr, e2 = int(ecs[k, py, ex]), int(tcs[k, py, qx]), int(scs[k, ey, qx])
        f1, ts, f2 = int(scs[k, ey, px]), int(tcs[k, qy, px]), int(ecs[k, qy, ex])
        c = min(max(e1, tr & 3, e2), max(f1, ts & 3, f2))
        walls: list[Wall] = []
        cost = 0
        if c == 2:
            r1, rt, r2 = ("border", ex, py, "E"), ("tile", qx, py), ("border", qx, ey, "S")
            s1, st, s2 = ("border", px, ey, "S"), ("tile", px, qy), ("border", ex, qy, "E")
            cost_r = _cost(e1, dur, r1) + _tile_cost(tr, dur, rt) + _cost(e2, dur, r2)
            cost_s = _cost(f1, dur, s1) + _tile_cost(ts, dur, st) + _cost(f2, dur, s2)
            cost = min(cost_r, cost_s)
            if cost_r <= cost_s:
                walls = _route(e1, r1, tr, rt, e2, r2)
            else:
                walls = _route(f1, s1, ts, st, f2, s2)
        layer.cross(c, cost, walls, why, pay)


def _cost(c: int, dur: Durability, wall: Wall) -> int:
    return dur.of(wall) if (c & 3) == 2 else 0


def _tile_cost(c: int, dur: Durability, wall: Wall) -> int:
    if (c & 3) != 2:
        return 0
    return ak.NO_PASS if (c >> 2) == lk.R_ELEVATION else dur.of(wall)


def _route(e1: int, w1: Wall, t: int, wt: Wall, e2: int, w2: Wall) -> list[Wall]:
    return [w for c, w in ((e1, w1), (t & 3, wt), (e2, w2)) if (c & 3) == 2]
