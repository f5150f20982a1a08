"""Validation warnings about terrain properties and light sources (issue 27).

Each is a warning: the map still plays, but a property has no effect or two
contradict (docs/map-format.md, *Validation*, lists the codes).

* ``property-contradiction``: two properties of one type exclude each other
  (Difficult and Very Difficult, Cover and Full Cover, High and Very High,
  Shallow and Deep Water, Dark and Full Dark, Obscured and Fully Obscured: the
  stronger applies; Exposed with Cover or Obscured: the seed's Exposed is "a
  complete lack of possible cover or hiding places").
* ``property-on-obstructing``: a property about who stands in the terrain (water,
  hazard, trap, darkness ...) on an Obstructing base, which "may not be occupied"
  (rulebook): only Full Cover, Fully Obscured, High, Very High and Exposed mean
  something there.
* ``property-base-mismatch``: Difficult, Very Difficult or Steep on a base that
  does not stop movement (Clear): in SODWA the base decides movement, so the
  property would not hinder anyone (docs/rules.md, *Terrain properties*).
* ``light-in-wall``: a light source on an Obstructing tile lights nothing.
* ``light-without-dark``: a light source that lights no Dark or Full Dark tile,
  on a map that has some.
* ``trap-unreachable``: Trapped tiles no start zone or character can reach on
  foot: the trap can never be triggered.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..engine.model import MapModel
from ..engine.property_layers import light_sources, lit_tiles, property_layer
from ..engine.regions import regions
from ..engine.terrain import Base
from ..engine.terrain_properties import contradictions
from .checks import Locator, register_check
from .problems import Problem, pointer, warning

#: Properties that mean something on a tile nothing can stand on.
ON_OBSTRUCTING = frozenset({"full_cover", "fully_obscured", "high", "very_high", "exposed"})
#: Properties whose movement effect needs a base that stops the mover.
NEEDS_STOPPING_BASE = ("difficult", "very_difficult", "steep")


def _type_path(model: MapModel, name: str, *rest: object) -> str:
    index = [t.name for t in model.registry.special_types()].index(name)
    return pointer("terrain_types", index, *rest)


@register_check
def check_terrain_properties(model: MapModel, loc: Locator) -> Iterator[Problem]:
    """Contradicting properties, and properties their base makes void."""
    for t in model.registry.special_types():
        for weaker, stronger in contradictions(t.properties):
            yield warning(f"terrain type {t.name!r} has both {weaker} and {stronger}: they "
                          f"exclude each other ({stronger} applies)",
                          _type_path(model, t.name, "properties", weaker),
                          code="property-contradiction")
        if t.base is Base.OBSTRUCTING:
            for p in t.properties:
                if p not in ON_OBSTRUCTING:
                    yield warning(
                        f"terrain type {t.name!r}: {p} on an Obstructing base never applies "
                        "(nothing can stand on Obstructing terrain)",
                        _type_path(model, t.name, "properties", p),
                        code="property-on-obstructing")
        elif t.base is Base.CLEAR:
            for p in NEEDS_STOPPING_BASE:
                if p in t.properties:
                    yield warning(
                        f"terrain type {t.name!r}: {p} on a Clear base does not hinder "
                        "movement (SODWA's base decides movement): use base difficult",
                        _type_path(model, t.name, "properties", p),
                        code="property-base-mismatch")


@register_check
def check_light_sources(model: MapModel, loc: Locator) -> Iterator[Problem]:
    """Lights inside walls, and lights that light no dark tile."""
    lights = light_sources(model)
    if not lights:
        return
    table = model.registry.base_table()
    dark = property_layer(model, "dark") | property_layer(model, "full_dark")
    any_dark = bool(dark.any())
    for o in lights:
        if not model.in_bounds(o.x, o.y):
            continue
        if table[model.terrain[o.y, o.x]] == Base.OBSTRUCTING:
            yield warning(f"light source {o.id!r} is inside a wall at ({o.x}, {o.y}): it "
                          "lights nothing", loc.obj(o.id), code="light-in-wall", tile=(o.x, o.y))
        elif any_dark and not (lit_tiles(model, [o]) & dark).any():
            yield warning(f"light source {o.id!r} at ({o.x}, {o.y}) lights no Dark or Full "
                          f"Dark tile (radius {o.radius})", loc.obj(o.id),
                          code="light-without-dark", tile=(o.x, o.y))


@register_check
def check_traps_reachable(model: MapModel, loc: Locator) -> Iterator[Problem]:
    """Trapped tiles nobody can reach on foot (one warning per terrain type)."""
    trapped = property_layer(model, "trapped")
    if not trapped.any():
        return
    label = regions(model)
    reached = {int(label[y, x]) for tiles in model.start_zones.values() for x, y in tiles
               if model.in_bounds(x, y)}
    reached |= {int(label[c.y, c.x]) for c in model.characters.values()
                if model.in_bounds(c.x, c.y)}
    reached.discard(-1)
    if not reached:
        return  # nobody placed yet: nothing to reach from
    cut_off = trapped & ~np.isin(label, list(reached))
    for tid in np.unique(model.terrain[cut_off]).tolist():
        ys, xs = np.nonzero(cut_off & (model.terrain == tid))
        x, y = int(xs[0]), int(ys[0])
        name = model.registry[tid].name
        yield warning(f"{len(xs)} Trapped tile(s) of terrain {name!r} from ({x}, {y}) cannot "
                      "be reached on foot from any start zone or character: the trap never "
                      "triggers", loc.row("terrain", y), code="trap-unreachable", tile=(x, y))
