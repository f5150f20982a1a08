"""Areas of effect: which tiles an effect reaches (companion rulebook
``tiles-movement-and-areas-of-effect.txt``, *Effective Range*, *AoE Shapes & Sizes*,
*AoE Types*; seed 002 ``terrain-properties-vertical-space.txt``, *Area Effects*, for the
Ray).  One pure function, :func:`area`, for every shape and type: no Qt, no battle
state.  Every decision is in docs/rules.md (*Areas of effect*, AE-rules).

>>> from sodwa_editor.engine.model import MapModel
>>> from sodwa_editor.engine.area_notation import parse_area
>>> m = MapModel(9, 9)
>>> a = area(m, parse_area("AoE - Blast - Sphere: 1"), (4, 4))
>>> a.affected == tuple((x, y) for y in range(3, 6) for x in range(3, 6))
True
>>> area(m, parse_area("AoE - Blast - Line: 3"), (4, 4), direction="E").affected
((5, 4), (6, 4), (7, 4))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from operator import itemgetter

import numpy as np

from . import adjacency as adj
from .area_line import walk_line
from .area_notation import AreaSpec, AreaType, Shape
from .area_spread import Durability, Keep, Reached, Wall, Why, flood_reach, line_reach, resolve
from .distance import METRICS, distance
from .footprint_los import footprint_los
from .los import LosBoard, Reason
from .model import MapModel
from .sizes import Footprint

Tile = tuple[int, int]
#: Directions by compass name (y grows to the south).
COMPASS: Mapping[str, Tile] = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
                               "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}
#: Sort key of tiles by row then column.
ROW_MAJOR = itemgetter(1, 0)
#: Types whose Reach travels in straight lines from its source (AE3): the impact types.
LINE_TYPES = frozenset({AreaType.BLAST, AreaType.FALLING})


class AreaError(ValueError):
    """A query the shape cannot answer (a tile off the map, a missing target): one line."""


class Stop:
    """A tile the area would reach on an open map and does not, and why (worded when
    first asked for: an area may stop hundreds of tiles and a preview shows the reason
    of the one under the pointer; ask before the map changes)."""

    __slots__ = ("tile", "_why", "_model")

    def __init__(self, tile: Tile, why: Why, model: MapModel | None = None) -> None:
        self.tile, self._why, self._model = tile, why, model

    @property
    def reason(self) -> Reason:
        why = self._why
        if not isinstance(why, Reason):
            assert self._model is not None
            why = self._why = resolve(self._model, self.tile, why)
        return why

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Stop) and (self.tile, self.reason) == (other.tile,
                                                                         other.reason)

    def __hash__(self) -> int:
        return hash((self.tile, self.reason))

    def __repr__(self) -> str:
        return f"Stop({self.tile!r}, {self.reason.text!r})"

    def to_json(self) -> dict[str, object]:
        return {"tile": list(self.tile), "reason": self.reason.to_json()}


@dataclass(frozen=True)
class Area:
    """What an area of effect reaches.

    ``caster``: the caster's tile (for a caster larger than one tile its top-left tile,
    or the square a Line, Rail, Cone or Ray starts from: AE18);
    ``origin``: its point of origin (the caster for shapes that start there);
    ``affected``: the tiles it reaches, by row then column; ``stopped``: the tiles it
    would reach on an open map but does not, with the reason; ``refused``: why the area
    cannot be placed at all (then nothing is affected); ``damage``: the damage left on
    each affected tile (a Blast spends it on walls), when a damage was given;
    ``impeded``: affected tiles reached by a straight line through impeding terrain;
    ``walls``: the walls a Blast broke (``("tile", x, y)``, ``("border", x, y, side)``);
    ``wall_damage``: the damage a Blast left in a tile or border that stopped it
    without breaking (the most any of its lines brought: AE8);
    ``line``: the tiles of a Line, Rail or Cone's line, in order."""

    spec: AreaSpec
    caster: Tile
    origin: Tile | None
    affected: tuple[Tile, ...] = ()
    #: why each tile was stopped (:attr:`stopped` words them when first asked for)
    stops: Mapping[Tile, Why] = field(default_factory=dict, repr=False, compare=False)
    refused: str | None = None
    damage: Mapping[Tile, int] | None = None
    impeded: frozenset[Tile] = frozenset()
    walls: tuple[Wall, ...] = ()
    line: tuple[Tile, ...] = field(default=())
    wall_damage: Mapping[Wall, int] = field(default_factory=dict)

    #: the map the reasons are worded from (read when :attr:`stopped` is first asked for)
    model: MapModel | None = field(default=None, repr=False, compare=False)

    @cached_property
    def stopped(self) -> tuple[Stop, ...]:
        """The tiles the area would reach on an open map and does not, by row then
        column, each with the reason."""
        return tuple(Stop(t, self.stops[t], self.model) for t in sorted(self.stops,
                                                                        key=ROW_MAJOR))

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "area": str(self.spec), "caster": list(self.caster),
            "origin": None if self.origin is None else list(self.origin),
            "refused": self.refused,
            "affected": [list(t) for t in self.affected],
            "stopped": [s.to_json() for s in self.stopped],
        }
        if self.line:
            out["line"] = [list(t) for t in self.line]
        if self.damage is not None:
            out["damage"] = [[x, y, self.damage[(x, y)]] for x, y in self.affected]
            out["walls"] = [list(w) for w in self.walls]
            if self.wall_damage:
                out["wall_damage"] = [[*w, d] for w, d in sorted(self.wall_damage.items())]
        return out


def area(model: MapModel, spec: AreaSpec, caster: Tile, *, target: Tile | None = None,
         direction: str | None = None, chosen: Sequence[Tile] = (), damage: int | None = None,
         durability: int = 3, metric: str = "chebyshev", occupied: Sequence[Tile] = (),
         falling_indoors: bool = False, worn: Mapping[Wall, int] | None = None,
         footprint: Footprint | None = None) -> Area:
    """The tiles the area ``spec`` cast from ``caster`` reaches.

    ``target``: the tile aimed at (a Line's end, the point of origin of a Sphere, Disk
    or Cube with a Range, the direction of a Rail, Cone or Ray); ``direction``: a
    compass name instead (``"NE"``); ``chosen``: a Specified area's tiles or a Trail's
    tiles in order; ``damage``: a Blast's damage, spent on the walls it breaks
    (``durability`` each: the rules' ``terrain.obstruction_damage_threshold``, less
    the damage ``worn`` of a wall damaged already: ``{wall: damage}``, B39);
    ``metric``: the rules' ``targeting.range_metric`` for Range; ``occupied``: the
    characters' tiles (they block the line of sight a point of origin at Range needs,
    never the area itself); ``falling_indoors``: the rules key
    ``areas.falling_indoors`` (AE15); ``footprint``: the caster's, ``caster`` being its
    top-left tile (AE18: Range from its nearest square, the best line of sight from any
    square, a centred area from every square, a line from the square nearest its aim).
    Raises :class:`AreaError` for a tile off the map or a shape given what it cannot use.
    """
    fp = footprint if footprint is not None and tuple(footprint) != (1, 1) else None
    squares = tuple(fp.squares(caster)) if fp is not None else (caster,)
    for t in squares:
        _on_map(model, t, "caster")
    if fp is not None and direction is not None:
        raise AreaError(f"a {fp} caster aims at a tile, not a direction: its line starts "
                        "from its square nearest the tile (AE18)")
    if target is not None:
        _on_map(model, target, "target")
    for t in chosen:
        _on_map(model, t, "chosen tile")
    if metric not in METRICS:
        raise AreaError(f"unknown range metric {metric!r} (known: {', '.join(METRICS)})")
    if direction is not None and direction not in COMPASS:
        raise AreaError(f"unknown direction {direction!r} (known: {', '.join(COMPASS)})")
    if damage is not None and damage < 0:
        raise AreaError(f"damage {damage} is negative")
    for x, y in squares:
        if model.registry[int(model.terrain[y, x])].los.label == "blocked":
            return Area(spec, caster, None, refused=f"the caster's tile ({x}, {y}) is "
                        "Obstructing: nothing stands there")
    if durability < 1:
        raise AreaError(f"durability {durability} is below 1")
    q = _Query(model, spec, caster, target, direction, tuple(chosen), damage,
               Durability(model, durability, worn) if worn else durability, metric,
               tuple(occupied), fp)
    if spec.type is AreaType.FALLING and model.setting == "indoor" and not falling_indoors:
        return q.refuse(None, "an indoor map: nothing falls through its ceiling (rules key "
                              "areas.falling_indoors)")
    return _SHAPES[spec.shape](q)


def _on_map(model: MapModel, t: Tile, what: str) -> None:
    if not (isinstance(t, tuple) and len(t) == 2 and model.in_bounds(*t)):
        raise AreaError(f"{what} {t} is outside the {model.width}x{model.height} map")


@dataclass
class _Query:
    model: MapModel
    spec: AreaSpec
    caster: Tile
    target: Tile | None
    direction: str | None
    chosen: tuple[Tile, ...]
    damage: int | None
    durability: int | Durability
    metric: str
    occupied: tuple[Tile, ...]
    #: the caster's footprint when larger than one tile (``caster`` its top-left tile)
    fp: Footprint | None = None

    @property
    def squares(self) -> list[Tile]:
        return [self.caster] if self.fp is None else self.fp.squares(self.caster)

    def near(self, t: Tile) -> Tile:
        """The caster's square nearest ``t`` (its tile for a one-tile caster)."""
        return self.caster if self.fp is None else self.fp.nearest(self.caster, t)

    def from_square(self) -> _Query:
        """A line-shaped area of a larger caster starts from its square nearest the aim
        (AE18): the same query from that one square."""
        if self.fp is None or self.target is None:
            return self
        return replace(self, caster=self.near(self.target), fp=None)

    @property
    def pay(self) -> bool:
        """A Blast with a damage breaks through walls (AE8)."""
        return self.spec.type is AreaType.BLAST and self.damage is not None

    def within(self, rng: int) -> Callable[[Tile], bool]:
        return lambda t: distance(self.near(t), t, self.metric) <= rng

    def refuse(self, origin: Tile | None, why: str) -> Area:
        return Area(self.spec, self.caster, origin, refused=why)

    def aim(self) -> Tile | None:
        """The tile a line-shaped area heads for: the target or the compass direction."""
        if self.direction is not None:
            dx, dy = COMPASS[self.direction]
            return self.caster[0] + dx, self.caster[1] + dy
        if self.target is not None and self.target != self.caster:
            return self.target
        return None

    def targetable(self, t: Tile, rng: int) -> str | None:
        """Why tile ``t`` cannot be chosen at Range ``rng`` (None: it can): the seed's
        *Range* ("Targeted effects will always use the Tile Center to determine whether
        or not target is in range"; "To Target an occupant of a Tile in Range there
        must be a clear Line of Sight"): within Range by the metric, a line of sight
        from the caster that is not blocked (AE1), and not a wall (L12).  A larger
        caster: Range from its nearest square, the best line from any square (AE18)."""
        d = distance(self.near(t), t, self.metric)
        if d > rng:
            return f"({t[0]}, {t[1]}) is out of Range {rng} ({self.metric} distance {d:g})"
        if t == self.near(t):
            return None
        if self.fp is not None:
            mine = set(self.squares)
            result = footprint_los(self.model, self.caster, self.fp, t, Footprint(),
                                   occupied=[o for o in self.occupied if o not in mine]
                                   ).result
        else:
            result = LosBoard(self.model, self.occupied).los(self.caster, t)
        if result.reason is not None and result.crossing.label == "blocked":
            return f"no line of sight to ({t[0]}, {t[1]}): {result.reason.text}"
        return None

    def spread(self, sources: list[tuple[Tile, int, int]], *, level: int | None = None,
               keep: Keep | None = None) -> Reached:
        """The Reach of ``sources`` (tile, reach, damage) by the type's way (AE2, AE3)."""
        if self.spec.type in LINE_TYPES:
            return line_reach(self.model, sources, pay=self.pay, durability=self.durability,
                              level=level, keep=keep)
        return flood_reach(self.model, sources, level=level, keep=keep)

    def done(self, origin: Tile | None, reached: Reached, line: Sequence[Tile] = ()) -> Area:
        affected = tuple(sorted(reached.left, key=ROW_MAJOR))
        stops = {t: r for t, r in reached.stopped.items() if t not in reached.left}
        return Area(self.spec, self.caster, origin, affected, stops,
                    damage=None if self.damage is None else dict(reached.left),
                    impeded=frozenset(reached.impeded & set(reached.left)),
                    walls=tuple(sorted(reached.walls)) if self.pay else (),
                    line=tuple(line), model=self.model,
                    wall_damage=dict(reached.hits) if self.pay else {})


def _dmg(q: _Query) -> int:
    return 0 if q.damage is None else q.damage


def _centred(q: _Query) -> Area:
    """Sphere, Disk and Cube (AE9): a Reach from the point of origin, which is the
    caster without a Range, else a tile chosen within Range."""
    spec = q.spec
    reach = (spec.size - 1) // 2 if spec.shape is Shape.CUBE and spec.size is not None \
        else (spec.reach or 0)
    if spec.range is None:
        if q.target is not None and q.target != q.caster:
            return q.refuse(None, f"a {spec.shape.value} without a Range is centred on its "
                                  "caster")
        origin = q.caster  # a larger caster: its Reach counts from every square (AE18)
        sources = [(s, reach, _dmg(q)) for s in q.squares]
    else:
        if q.target is None:
            return q.refuse(None, f"choose the point of origin: a tile within Range "
                                  f"{spec.range}")
        why = q.targetable(q.target, spec.range)
        if why is not None:
            return q.refuse(q.target, why)
        origin = q.target
        sources = [(origin, reach, _dmg(q))]
    level = int(q.model.elevation[origin[1], origin[0]]) if spec.shape is Shape.DISK else None
    return q.done(origin, q.spread(sources, level=level))


def _line(q: _Query) -> Area:
    """Line (AE10): every tile between the caster's centre and the targeted tile's
    centre, out to the Line's length."""
    q = q.from_square()
    rng = q.spec.range or 0
    toward = q.aim()
    if toward is None:
        return q.refuse(None, "aim it: a target tile or a direction")
    end = None
    if q.direction is None:
        end = q.target
        assert end is not None
        if distance(q.caster, end, q.metric) > rng:
            return q.refuse(None, f"({end[0]}, {end[1]}) is beyond the Line's length {rng}")
    walk = walk_line(q.model, q.caster, toward, within=q.within(rng), end=end,
                     damage=_dmg(q) if q.pay else -1, durability=q.durability)
    return q.done(q.caster, walk.reached, walk.tiles)


def _outward(q: _Query, toward: Tile) -> Keep:
    """Tiles ahead of the caster (a positive dot product with the aim), never the
    caster's own: a Rail or Cone "travel[s] outward from their Point of Origin" (AE11)."""
    dx, dy = toward[0] - q.caster[0], toward[1] - q.caster[1]
    cx, cy = q.caster
    return lambda xs, ys: (xs - cx) * dx + (ys - cy) * dy > 0


def _rail_or_cone(q: _Query) -> Area:
    """Rail (AE11): the line out to its Range, each tile of it reaching out to the
    Rail's Reach.  Cone (AE12): the line out to its length, its Reach Anchors reaching
    out to their Reach from the anchor tiles."""
    q = q.from_square()
    rng = q.spec.range or 0
    toward = q.aim()
    if toward is None:
        return q.refuse(None, "aim it: a target tile or a direction")
    walk = walk_line(q.model, q.caster, toward, within=q.within(rng),
                     damage=_dmg(q) if q.pay else -1, durability=q.durability)
    line = walk.reached
    if q.spec.shape is Shape.RAIL:
        sources = [(t, q.spec.reach or 0, line.left[t]) for t in walk.tiles if t in line.left]
    else:
        sources = [(t, 0, line.left[t]) for t in walk.tiles if t in line.left]
        for tile_no, reach in q.spec.anchors:
            anchor = next((t for t in walk.tiles
                           if distance(q.caster, t, q.metric) >= tile_no), None)
            if anchor is not None and anchor in line.left:
                sources.append((anchor, reach, line.left[anchor]))
    spread = q.spread(sources, keep=_outward(q, toward))
    spread.merge(line)
    return q.done(q.caster, spread, walk.tiles)


def _specified(q: _Query) -> Area:
    """Specified (AE13): up to Targets chosen tiles, each within Range with a line of
    sight, each reaching out to the Reach."""
    spec = q.spec
    chosen = q.chosen
    if not chosen:
        return q.refuse(None, f"choose 1 to {spec.targets} tile(s) within Range {spec.range}")
    if spec.targets is not None and len(set(chosen)) > spec.targets:
        return q.refuse(None, f"{len(set(chosen))} tiles chosen, at most {spec.targets}")
    sources, out = [], Reached()
    for t in dict.fromkeys(chosen):
        why = q.targetable(t, spec.range or 0)
        if why is None:
            sources.append((t, spec.reach or 0, _dmg(q)))
        else:
            out.stopped[t] = Reason("range", why, tile=t)
    spread = q.spread(sources)
    spread.merge(out)
    return q.done(chosen[0], spread)


def _trail(q: _Query) -> Area:
    """Trail (AE14): the chosen tiles in order, the first adjacent to the caster and each
    adjacent to the one before it; a tile visited twice counts once."""
    size = q.spec.size or 0
    if not q.chosen:
        return q.refuse(None, f"choose the trail's tiles in order (at most {size})")
    if len(q.chosen) > size:
        return q.refuse(None, f"{len(q.chosen)} tiles chosen, the Trail has {size}")
    out = Reached()
    prev, broken = q.caster, None
    for k, t in enumerate(q.chosen):
        if k == 0 and q.fp is not None:  # adjacent to any square of a larger caster
            prev = next((s for s in q.squares if adj.adjacent(q.model, s, t)), q.near(t))
        if broken is None and not adj.adjacent(q.model, prev, t):
            broken = Reason("path", f"({t[0]}, {t[1]}) is not adjacent to ({prev[0]}, "
                            f"{prev[1]}), the tile before it: the trail stops there", tile=t)
        if broken is not None:
            out.stopped.setdefault(t, broken)
        else:
            out.left[t] = _dmg(q)
            prev = t
    return q.done(q.caster, out, q.chosen)


def _ray(q: _Query) -> Area:
    """Ray (AE16, seed 002): the tiles within its radius from the caster that are less
    than 45 degrees off its direction (exact: ``v.d > 0`` and ``2 (v.d)^2 > |v|^2
    |d|^2`` for the tile's offset ``v`` and the direction ``d``)."""
    q = q.from_square()
    toward = q.aim()
    if toward is None:
        return q.refuse(None, "aim it: a target tile or a direction")
    dx, dy = toward[0] - q.caster[0], toward[1] - q.caster[1]
    dd = dx * dx + dy * dy
    cx, cy = q.caster

    def in_sector(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        vx, vy = xs - cx, ys - cy
        dot = vx * dx + vy * dy
        return (dot > 0) & (2 * dot * dot > (vx * vx + vy * vy) * dd)

    return q.done(q.caster, q.spread([(q.caster, q.spec.reach or 0, _dmg(q))],
                                     keep=in_sector))


_SHAPES: dict[Shape, Callable[[_Query], Area]] = {
    Shape.SPHERE: _centred, Shape.DISK: _centred, Shape.CUBE: _centred,
    Shape.LINE: _line, Shape.RAIL: _rail_or_cone, Shape.CONE: _rail_or_cone,
    Shape.SPECIFIED: _specified, Shape.TRAIL: _trail, Shape.RAY: _ray,
}


def affected_mask(a: Area, shape: tuple[int, int]) -> np.ndarray:
    """The affected tiles as a bool array ``[y, x]`` of a map of ``shape`` (H, W)."""
    out = np.zeros(shape, bool)
    for x, y in a.affected:
        out[y, x] = True
    return out
