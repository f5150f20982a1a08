"""Per-tile layers of the terrain properties, and light sources (pure functions).

Seed ``terrain-properties-vertical-space.txt``, *Dark and Full Dark*: "The Dark
Property is suppressed by Light Sources which are either in the same Space or an
Adjacent Space" (Full Dark likewise).  A light source is an object of kind
``"light"``; it lights its own tile and the tiles up to its ``radius`` (1 = the
seed's "Adjacent Space") adjacency steps away, adjacency as SODWA defines it for a
character on foot (docs/rules.md, *Decisions / Adjacency*): light does not pass a
wall (an Obstructing border or tile) nor climb to another elevation without a
transition, as "Tiles on opposite sides of an Obstructing Terrain Border are not
considered adjacent" (rulebook, *Terrain Types*).

>>> from sodwa_editor.engine.model import MapModel, MapObject, Edge
>>> m = MapModel(5, 1)
>>> cave = m.registry.register("cave", m.registry[0].base, {"full_dark": {}})
>>> m.terrain[:] = cave
>>> m.put_object(MapObject("torch", "light", 1, 0))
>>> dark_levels(m).tolist()
[[0, 0, 0, 2, 2]]
>>> m.set_border(Edge(1, 0, "E"), m.registry.id_of("obstructing"))
>>> dark_levels(m).tolist()
[[0, 0, 2, 2, 2]]
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .adjacency import BLOCKED, DIRS, steps
from .model import MapModel, MapObject

LIGHT_KIND = "light"
#: Values of :func:`dark_levels`.
LIT, DARK, FULL_DARK = 0, 1, 2


def property_layer(model: MapModel, prop: str) -> np.ndarray:
    """bool ``(h, w)``: tiles whose terrain type has vocabulary property ``prop``."""
    return _per_tile(model, model.registry.property_mask(prop))


def _per_tile(model: MapModel, mask: np.ndarray) -> np.ndarray:
    """``mask[terrain id]`` per tile; an id the registry lacks (a model being
    repaired) counts as without the property."""
    padded = np.append(mask, False)
    return padded[np.minimum(model.terrain, len(padded) - 1, dtype=np.intp)]


def light_sources(model: MapModel) -> list[MapObject]:
    """The map's light sources, by id."""
    return [model.objects[k] for k in sorted(model.objects)
            if model.objects[k].kind == LIGHT_KIND]


def lit_tiles(model: MapModel, lights: Iterable[MapObject] | None = None) -> np.ndarray:
    """bool ``(h, w)``: tiles a light source lights (its tile and those up to its
    ``radius`` adjacency steps away)."""
    lights = light_sources(model) if lights is None else list(lights)
    lit = np.zeros(model.shape, np.bool_)
    if not lights:
        return lit
    step = steps(model).step
    by_radius: dict[int, list[MapObject]] = {}
    for o in lights:
        by_radius.setdefault(max(0, int(o.radius)), []).append(o)
    for radius, group in by_radius.items():
        reach = np.zeros(model.shape, np.bool_)
        for o in group:
            reach[o.y, o.x] = True
        for _ in range(radius):
            reach = _grow(reach, step)
        lit |= reach
    return lit


def _grow(mask: np.ndarray, step: np.ndarray) -> np.ndarray:
    """``mask`` plus every tile adjacent to one of its tiles."""
    h, w = mask.shape
    out = mask.copy()
    for d, (dx, dy) in enumerate(DIRS):
        src = mask & (step[d] != BLOCKED)
        ys, xs = np.nonzero(src)
        out[ys + dy, xs + dx] = True  # a non-BLOCKED step stays on the map
    return out


def dark_levels(model: MapModel, lit: np.ndarray | None = None) -> np.ndarray:
    """uint8 ``(h, w)``: :data:`FULL_DARK`, :data:`DARK` or :data:`LIT` per tile after
    light sources suppressed Dark and Full Dark (Full Dark wins on a tile with both)."""
    levels = np.zeros(model.shape, np.uint8)
    reg = model.registry
    dark, full = reg.property_mask("dark"), reg.property_mask("full_dark")
    if not (dark.any() or full.any()):
        return levels
    levels[_per_tile(model, dark)] = DARK
    levels[_per_tile(model, full)] = FULL_DARK
    levels[lit_tiles(model) if lit is None else lit] = LIT
    return levels
