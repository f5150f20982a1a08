"""Line of sight (rulebook *Line of Sight*, *Terrain*, *Elevated Terrain LoS*,
*Adding Clarity*, *Obstructing Terrain Elevation*).

"LoS is determined by drawing a straight imaginary line from the middle of the
active character's tile to the middle of the target's tile."  Every LoS is
clear, impeded or blocked; the most restrictive feature the line crosses wins.
The exact walk lives in :mod:`sodwa_editor.engine.los_kernel` (integer
arithmetic, compiled with numba); this module prepares its inputs from a
:class:`~sodwa_editor.engine.model.MapModel`, explains results and applies the
adjacency exception.  Every decision is listed in docs/rules.md.

>>> from sodwa_editor.engine.model import MapModel, Edge
>>> m = MapModel(5, 1)
>>> m.set_border(Edge(2, 0, "E"), m.registry.id_of("impeding"))
>>> r = los(m, (0, 0), (4, 0))
>>> r.crossing.label, r.reason.text
('impeded', 'impeded by the Impeding border on edge 2,0,E')
>>> los_fan(m, (0, 0)).tolist()
[[0, 0, 0, 1, 1]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import fan_runner
from . import los_kernel as k
from .los_inputs import LosInputs, los_inputs
from .model import Edge, MapModel
from .terrain import Crossing

Tile = tuple[int, int]
__all__ = ["LosInputs", "LosResult", "Reason", "los", "los_fan", "los_inputs"]

REASON_KINDS = {
    k.R_TILE: "tile",
    k.R_BORDER: "border",
    k.R_CORNER: "corner",
    k.R_CHARACTER: "character",
    k.R_ELEVATION: "elevation",
    k.R_OBJECT: "object",
    k.R_TARGET: "target-tile",
}


@dataclass(frozen=True)
class Reason:
    """What decided a line of sight: the first feature that reached its class."""

    kind: str  # tile | border | corner | character | elevation | object | target-tile | adjacent
    text: str
    tile: Tile | None = None
    edge: Edge | None = None
    corner: Tile | None = None  # grid point (x, y): the top-left corner of tile (x, y)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "text": self.text}
        if self.tile is not None:
            out["tile"] = list(self.tile)
        if self.edge is not None:
            out["edge"] = [self.edge.x, self.edge.y, self.edge.side]
        if self.corner is not None:
            out["corner"] = list(self.corner)
        return out


@dataclass(frozen=True)
class LosResult:
    """Result of one line of sight: its class and the reason (None when clear)."""

    crossing: Crossing
    reason: Reason | None

    def to_json(self) -> dict[str, object]:
        return {
            "class": self.crossing.label,
            "reason": None if self.reason is None else self.reason.to_json(),
        }

    def describe(self) -> str:
        """One phrase for people: ``clear``, or the reason, which starts with the
        class (``blocked by the Obstructing tile (3, 4)``)."""
        return self.reason.text if self.reason is not None else self.crossing.label


def los(model: MapModel, src: Tile, dst: Tile) -> LosResult:
    """Line of sight from a character on ``src`` to a target on ``dst``.

    Implements rulebook *Line of Sight*: obstructing tiles and borders and
    characters block, impeding tiles and borders impede, the most restrictive
    wins; the diagonal-intersection rule of *Terrain*; the five *Elevated
    Terrain LoS* bullets, *Adding Clarity* and *Obstructing Terrain Elevation*
    generalised to several levels; the attacker's own tile never impedes, the
    target's tile does; adjacent characters ignore Impeding terrain.  Each
    endpoint stands at its tile's elevation.
    """
    _check(model, src)
    _check(model, dst)
    inp = los_inputs(model)
    a = int(inp.elev[src[1], src[0]])
    b = int(inp.elev[dst[1], dst[0]])
    tc, ec, sc = inp.context(min(a, b), a == b)
    cls, kind, rx, ry, side = k.walk(src[0], src[1], dst[0], dst[1], tc, ec, sc, inp.target)
    crossing = Crossing(int(cls))
    reason = _explain(model, crossing, int(kind), int(rx), int(ry), int(side))
    if crossing is Crossing.IMPEDED and _adjacent(model, src, dst):
        return LosResult(Crossing.CLEAR, None)
    return LosResult(crossing, reason)


def los_fan(model: MapModel, src: Tile, *, previous: np.ndarray | None = None,
            mask: np.ndarray | None = None) -> np.ndarray:
    """LoS class (uint8 :class:`Crossing` values) from ``src`` to every tile, ``[y, x]``.

    The viewer stands on ``src`` at that tile's elevation; each target stands on
    its own tile at its elevation.  ``src`` itself is clear.  Same rules and
    results as :func:`los` for every tile.  With ``previous`` (the fan from the
    same source before an edit) and ``mask``, only the masked targets are
    computed again (:class:`~sodwa_editor.engine.los_fan.FanTracker` knows which).

    >>> from sodwa_editor.engine.model import MapModel
    >>> m = MapModel(3, 3)
    >>> m.set_terrain(1, 1, m.registry.id_of("obstructing"))
    >>> los_fan(m, (0, 0)).tolist()
    [[0, 0, 0], [0, 2, 2], [0, 2, 2]]
    """
    _check(model, src)
    inp = los_inputs(model)
    a = int(inp.elev[src[1], src[0]])
    levels, ctx = inp.levels()
    keys = [(min(a, int(b)), a == int(b)) for b in levels]
    stacked = [inp.context(lo, level) for lo, level in keys]
    tcs = np.stack([c[0] for c in stacked])
    ecs = np.stack([c[1] for c in stacked])
    scs = np.stack([c[2] for c in stacked])
    if previous is None or mask is None:
        out = np.zeros(model.shape, np.uint8)
        mask = np.ones(model.shape, np.bool_)
        # a whole fan: lines with nothing in their bounding box are not walked
        sats = np.stack([inp.feature_sat(lo, level) for lo, level in keys])
    else:
        out = previous.copy()
        sats = np.ones((len(keys), 1, 1), np.int32)  # a few targets: walk them all
    x0, y0 = src
    near = np.s_[max(0, y0 - 1):y0 + 2, max(0, x0 - 1):x0 + 2]
    mask = mask.copy()
    mask[near] = True  # the adjacency exception below is applied afresh
    fan_runner.run((x0, y0, ctx, tcs, ecs, scs, sats, inp.target), mask, out)
    for ny in range(max(0, y0 - 1), min(model.height, y0 + 2)):
        for nx in range(max(0, x0 - 1), min(model.width, x0 + 2)):
            if out[ny, nx] == Crossing.IMPEDED and _adjacent(model, src, (nx, ny)):
                out[ny, nx] = Crossing.CLEAR
    return out


def _adjacent(model: MapModel, a: Tile, b: Tile) -> bool:
    """Rulebook *Elevated Terrain LoS* (Yellow vs Orange): "Because the Yellow and
    Orange characters are adjacent, their LoS to each other is unaffected by the
    Impeding Terrain."  Adjacency is the engine's one adjacency rule."""
    if a == b or max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
        return False
    from .adjacency import pair_crossing  # local: adjacency may import los helpers

    return pair_crossing(model, a, b)[0] is not Crossing.BLOCKED


def _check(model: MapModel, tile: Tile) -> None:
    x, y = tile
    if not model.in_bounds(x, y):
        raise IndexError(f"tile ({x}, {y}) is outside the {model.width}x{model.height} map")


def _explain(
    model: MapModel, crossing: Crossing, kind: int, x: int, y: int, side: int
) -> Reason | None:
    if crossing is Crossing.CLEAR:
        return None
    verb = "blocked" if crossing is Crossing.BLOCKED else "impeded"
    if kind == k.R_BORDER:
        edge = Edge(x, y, "E" if side == k.SIDE_E else "S")
        name = model.registry[model.border_at(edge)].name.capitalize()
        return Reason("border", f"{verb} by the {name} border on edge {edge}", edge=edge)
    if kind == k.R_CORNER:
        what = "a wall" if crossing is Crossing.BLOCKED else "Impeding terrain"
        return Reason(
            "corner",
            f"{verb} at corner ({x}, {y}): both ways around it cross {what}",
            corner=(x, y),
        )
    tile = (x, y)
    terrain = model.registry[int(model.terrain[y, x])].name.capitalize()
    if kind == k.R_TILE:
        return Reason("tile", f"{verb} by the {terrain} tile ({x}, {y})", tile=tile)
    if kind == k.R_TARGET:
        why = f"{terrain} terrain" if model.registry[int(model.terrain[y, x])].los else "an object"
        return Reason("target-tile", f"{verb}: the target's tile ({x}, {y}) holds {why}", tile=tile)
    if kind == k.R_CHARACTER:
        c = model.character_at(x, y)
        who = f"character {c.id!r}" if c is not None else "a character"
        return Reason("character", f"{verb} by {who} on ({x}, {y})", tile=tile)
    if kind == k.R_ELEVATION:
        level = int(model.elevation[y, x])
        return Reason(
            "elevation", f"{verb} by elevated terrain (level {level}) at ({x}, {y})", tile=tile
        )
    if kind == k.R_OBJECT:
        objs = model.objects_at(x, y)
        what = f"object {objs[0].id!r}" if objs else "an object"
        return Reason("object", f"{verb} by {what} on ({x}, {y})", tile=tile)
    raise AssertionError(f"unknown reason kind {kind}")
