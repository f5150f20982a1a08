"""The eyedropper: what is under the pointer picked into the current tool.

Right-click in a painting tool picks (as Tiled's stamp brush captures with its
right button), the same in every tool that has something to pick, and the
status bar says what was picked; Shift + left button does the tool's opposite
action (paint Clear, remove borders, lower, erase the zone, remove a token).
The Eraser keeps both buttons painting Clear (it has nothing to pick).

=========== ====================================================================
picks       what is set in the :class:`~.base.EditorState`
=========== ====================================================================
terrain     ``terrain_id``: the tile's terrain (brush, rectangle, line, fill)
border      ``border_id`` and ``border_indoor``: the nearest edge's border
level       ``elevation_level`` (and the mode ``set`` when it was raise/lower)
zone        ``team``: the start zone of the tile
character   ``team`` and ``roster_entry`` (by name, in the roster in use) of the
            character there
object      ``object_kind`` of the object there
=========== ====================================================================
"""

from __future__ import annotations

from typing import Any, Protocol

from ...engine.model import INDOOR_NO, INDOOR_YES, MapModel
from ..geometry import nearest_edge
from ..roster import entries_in_use


class EditorState(Protocol):
    """What the eyedropper needs of :class:`~.base.EditorState` (which imports this
    module)."""

    elevation_mode: str
    roster_in_use: Any  # a RosterInUse, or None: the shipped roster

    def set(self, name: str, value: Any) -> None: ...


#: an edge farther than this (tiles) from the pointer is not picked
EDGE_REACH = 0.35
PICKS = ("terrain", "border", "level", "zone", "character", "object")


def pick(what: str, model: MapModel, state: EditorState, fx: float, fy: float,
         tool_label: str) -> str:
    """Set the state from what is under (fx, fy) for a tool that picks ``what``
    (one of :data:`PICKS`); the line the status bar says (also when nothing is
    there to pick: then the state is left as it is)."""
    x, y = int(fx // 1), int(fy // 1)
    where = f"tile {x}, {y}"
    if what == "border":
        edge, dist = nearest_edge(model, fx, fy)
        if edge is None or dist > EDGE_REACH:
            return "Eyedropper: right-click on or near a grid line to pick its border"
        tid = model.border_at(edge)
        if tid == 0:
            return f"Eyedropper: no border on edge {edge.x},{edge.y},{edge.side}: nothing picked"
        code = int((model.indoor_e if edge.side == "E" else model.indoor_s)[edge.y, edge.x])
        indoor = {INDOOR_YES: True, INDOOR_NO: False}.get(code)
        state.set("border_id", tid)
        state.set("border_indoor", indoor)
        flag = "" if indoor is None else ", indoor" if indoor else ", outdoor"
        return (f"Eyedropper: picked the {model.registry[tid].name} border{flag} of edge "
                f"{edge.x},{edge.y},{edge.side} into the {tool_label} tool")
    if not model.in_bounds(x, y):
        return "Eyedropper: right-click a tile of the map to pick from it"
    if what == "terrain":
        tid = int(model.terrain[y, x])
        state.set("terrain_id", tid)
        return (f"Eyedropper: picked {model.registry[tid].name} ({where}) into the "
                f"{tool_label} tool")
    if what == "level":
        level = int(model.elevation[y, x])
        state.set("elevation_level", level)
        said = ""
        if state.elevation_mode in ("raise", "lower"):
            state.set("elevation_mode", "set")
            said = "; mode set"
        return f"Eyedropper: picked level {level} ({where}) into the {tool_label} tool{said}"
    if what == "zone":
        team = model.start_zone_of(x, y)
        if team is None:
            return f"Eyedropper: {where} is in no start zone: nothing picked"
        state.set("team", team)
        return f"Eyedropper: picked team {team}'s start zone ({where}) into the {tool_label} tool"
    if what == "character":
        c = model.character_at(x, y)
        if c is None:
            return f"Eyedropper: no character on {where}: nothing picked"
        state.set("team", c.team)
        entry = next((e for e in entries_in_use(state.roster_in_use)
                      if e.get("name") == c.name), None)
        if entry is not None:
            state.set("roster_entry", entry)
        state.set("creature_size", c.size)  # after the entry, whose size it replaces
        kind = f"{c.name} of " if entry is not None else ""
        return f"Eyedropper: picked {kind}team {c.team} ({where}) into the {tool_label} tool"
    if what == "object":
        objects = model.objects_at(x, y)
        if not objects:
            return f"Eyedropper: no object on {where}: nothing picked"
        state.set("object_kind", objects[0].kind)
        if objects[0].kind == "light":  # a light source: its radius too
            state.set("light_radius", int(objects[0].radius))
            return (f"Eyedropper: picked light radius {objects[0].radius} ({where}) into the "
                    f"{tool_label} tool")
        return f"Eyedropper: picked {objects[0].kind} ({where}) into the {tool_label} tool"
    raise ValueError(f"the eyedropper picks one of {', '.join(PICKS)}, not {what!r}")
