"""A slow, independent line-of-sight oracle using exact ``fractions.Fraction`` clipping.

It shares no code with the engine's walk: it intersects the centre-to-centre
segment with every grid line as a rational parameter ``t``, merges equal
parameters into corner crossings, finds the tile between two events from the
midpoint of the sub-segment, and then applies the rules written out plainly
from docs/rules.md.  It returns the class *before* the adjacency exception
(that exception is a rule of its own, tested separately).
"""

from __future__ import annotations

from fractions import Fraction
from math import floor

from sodwa_editor.engine.model import Edge, MapModel

CLEAR, IMPEDED, BLOCKED = 0, 1, 2


def _terrain_los(model: MapModel, terrain_id: int) -> int:
    base = model.registry[terrain_id].base.name
    return {"OBSTRUCTING": BLOCKED, "IMPEDING": IMPEDED}.get(base, CLEAR)


def _events(src: tuple[int, int], dst: tuple[int, int]) -> list[tuple[Fraction, str, int, int]]:
    """Sorted crossings of the segment with grid lines: (t, 'v'|'h'|'c', gx, gy)."""
    ax, ay = Fraction(2 * src[0] + 1, 2), Fraction(2 * src[1] + 1, 2)
    bx, by = Fraction(2 * dst[0] + 1, 2), Fraction(2 * dst[1] + 1, 2)
    vert: dict[Fraction, int] = {}
    horz: dict[Fraction, int] = {}
    if bx != ax:
        for gx in range(min(src[0], dst[0]) + 1, max(src[0], dst[0]) + 1):
            vert[(gx - ax) / (bx - ax)] = gx
    if by != ay:
        for gy in range(min(src[1], dst[1]) + 1, max(src[1], dst[1]) + 1):
            horz[(gy - ay) / (by - ay)] = gy
    out = []
    for t in sorted(set(vert) | set(horz)):
        if t in vert and t in horz:
            out.append((t, "c", vert[t], horz[t]))
        elif t in vert:
            out.append((t, "v", vert[t], floor(ay + t * (by - ay))))
        else:
            out.append((t, "h", floor(ax + t * (bx - ax)), horz[t]))
    return out


def oracle_los(model: MapModel, src: tuple[int, int], dst: tuple[int, int], *,
               own: frozenset = frozenset(), target: frozenset = frozenset(),
               occupied: set | None = None) -> int:
    """LoS class from ``src`` to ``dst`` (without the adjacency exception).  For creatures
    larger than a tile (docs/rules.md S9): ``own`` the viewer's other tiles (they never
    count), ``target`` the target's other tiles (they count as the target's tile does),
    ``occupied`` the other characters' tiles (None: the model's characters)."""
    if src == dst:
        return CLEAR
    elev = model.elevation
    a, b = int(elev[src[1], src[0]]), int(elev[dst[1], dst[0]])
    low = min(a, b)
    level = a == b
    if occupied is None:
        occupied = {(c.x, c.y) for c in model.characters.values()}
    impeding_objects = {(o.x, o.y) for o in model.objects.values() if o.impedes_los}

    def tile_class(x: int, y: int) -> int:
        if (x, y) in own:
            return CLEAR
        if (x, y) in target:
            return target_class(x, y)
        e = int(elev[y, x])
        if e > low:  # elevated terrain is Obstructing for the lower party
            return BLOCKED
        if e < low:  # both parties see over lower terrain
            return CLEAR
        terrain = _terrain_los(model, int(model.terrain[y, x]))
        if terrain == BLOCKED:
            return BLOCKED
        if not level:  # grounded impeding, objects and characters are ignored
            return CLEAR
        if (x, y) in occupied:
            return BLOCKED
        if terrain == IMPEDED or (x, y) in impeding_objects:
            return IMPEDED
        return CLEAR

    def target_class(x: int, y: int) -> int:
        """The target's own tile: its terrain whatever the elevations (L3, L12)."""
        terrain = _terrain_los(model, int(model.terrain[y, x]))
        if terrain == BLOCKED:
            return BLOCKED
        return IMPEDED if terrain == IMPEDED or (x, y) in impeding_objects else CLEAR

    def border_class(edge: Edge) -> int:
        terrain = _terrain_los(model, model.border_at(edge))
        (x1, y1), (x2, y2) = edge.tiles
        e = max(int(elev[y1, x1]), int(elev[y2, x2]))
        if terrain == CLEAR or e < low:
            return CLEAR
        if terrain == BLOCKED:
            return BLOCKED
        return IMPEDED if (level or e > low) else CLEAR

    def edge_of(p: tuple[int, int], q: tuple[int, int]) -> Edge:
        if p[1] == q[1]:
            return Edge(min(p[0], q[0]), p[1], "E")
        return Edge(p[0], min(p[1], q[1]), "S")

    ax, ay = Fraction(2 * src[0] + 1, 2), Fraction(2 * src[1] + 1, 2)
    bx, by = Fraction(2 * dst[0] + 1, 2), Fraction(2 * dst[1] + 1, 2)
    events = _events(src, dst)
    ts = [Fraction(0)] + [e[0] for e in events] + [Fraction(1)]
    # tile occupied by the segment between consecutive events, from its midpoint
    pieces = []
    for t0, t1 in zip(ts, ts[1:], strict=False):
        tm = (t0 + t1) / 2
        pieces.append((floor(ax + tm * (bx - ax)), floor(ay + tm * (by - ay))))
    assert pieces[0] == src and pieces[-1] == dst
    worst = CLEAR
    for i, (_t, kind, gx, gy) in enumerate(events):
        p, q = pieces[i], pieces[i + 1]
        if kind in "vh":
            worst = max(worst, border_class(edge_of(p, q)))
        else:
            corner_tiles = {(gx - 1, gy - 1), (gx, gy - 1), (gx - 1, gy), (gx, gy)}
            r, s = sorted(corner_tiles - {p, q})
            routes = [
                max(border_class(edge_of(p, m)), tile_class(*m), border_class(edge_of(m, q)))
                for m in (r, s)
            ]
            worst = max(worst, min(routes))
        if q != dst:
            worst = max(worst, tile_class(*q))
    return max(worst, target_class(*dst))
