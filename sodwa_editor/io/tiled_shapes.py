"""Where Tiled objects lie on a SODWA map, for :mod:`.tiled_import`: the grid edges
a border (a polyline, polygon or rectangle along the grid lines) runs along, and
the tile a character or object (a point, or a rectangle's, ellipse's or tile
object's centre) stands on.  Pixel positions are divided by the map's tile size.

>>> border_edges({"x": 32, "y": 0, "polyline": [{"x": 0, "y": 0}, {"x": 0, "y": 64}]},
...              32, 32, 4, 4)
[Edge(x=0, y=0, side='E'), Edge(x=0, y=1, side='E')]
>>> object_tile({"x": 48, "y": 80, "point": True}, 32, 32, "character")
(1, 2)
"""

from __future__ import annotations

import math
from typing import Any

from ..engine.model import Edge

#: A grid point may be this far (in tiles) from a grid line (float noise).
GRID_TOLERANCE = 1e-3


class ShapeError(ValueError):
    """An object that cannot be placed on the map (``args[0]`` says why)."""


def border_edges(obj: dict[str, Any], tile_w: float, tile_h: float, width: int,
                 height: int) -> list[Edge]:
    """The grid edges a border object runs along, in drawing order; raises
    :class:`ShapeError` when it is not made of grid lines inside the map."""
    shape = _unusable(obj)
    if shape is None and (obj.get("point") or obj.get("ellipse") or "gid" in obj):
        shape = "a point" if obj.get("point") else "an ellipse" if obj.get(
            "ellipse") else "a tile object"
    if shape is not None:
        raise ShapeError(f"{shape} cannot be a border: draw a polyline, polygon or "
                         "rectangle along the grid lines")
    x0, y0 = obj["x"], obj["y"]
    if "polyline" in obj or "polygon" in obj:
        pts = obj.get("polyline", obj.get("polygon"))
        if not isinstance(pts, list) or not all(
                isinstance(p, dict) and _num(p.get("x")) and _num(p.get("y")) for p in pts):
            raise ShapeError("its points are not a list of {x, y}")
        points = [(x0 + p["x"], y0 + p["y"]) for p in pts]
        closed = "polygon" in obj
    else:
        w, h = obj.get("width", 0), obj.get("height", 0)
        if not (_num(w) and _num(h) and w > 0 and h > 0):
            raise ShapeError("a rectangle without a width and height cannot be a border")
        points = [(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)]
        closed = True
    grid = []
    for px, py in points:
        gx, gy = px / tile_w, py / tile_h
        if abs(gx - round(gx)) > GRID_TOLERANCE or abs(gy - round(gy)) > GRID_TOLERANCE:
            raise ShapeError(f"its point at pixel ({px:g}, {py:g}) is not on a corner of the "
                             f"grid ({tile_w:g}x{tile_h:g} px tiles)")
        gx, gy = round(gx), round(gy)
        if not (0 <= gx <= width and 0 <= gy <= height):
            raise ShapeError(f"its point at pixel ({px:g}, {py:g}) is off the map")
        grid.append((gx, gy))
    edges: list[Edge] = []
    ends = grid[1:] + grid[:1] if closed else grid[1:]
    for (ax, ay), (bx, by) in zip(grid, ends, strict=False):
        if ax == bx:
            edges += [Edge(ax - 1, y, "E") for y in range(min(ay, by), max(ay, by))]
        elif ay == by:
            edges += [Edge(x, ay - 1, "S") for x in range(min(ax, bx), max(ax, bx))]
        else:
            raise ShapeError(f"its line from grid corner ({ax}, {ay}) to ({bx}, {by}) is not "
                             "along a grid line (borders run horizontally or vertically)")
    return edges


def object_tile(obj: dict[str, Any], tile_w: float, tile_h: float,
                what: str) -> tuple[int, int]:
    """The tile an object stands on: a point's, or a rectangle's, ellipse's or tile
    object's centre; raises :class:`ShapeError` for a line, a text or a rotated shape."""
    placeable(obj, what)
    px, py = obj["x"], obj["y"]
    if not obj.get("point"):
        w, h = obj.get("width", 0), obj.get("height", 0)
        if not (_num(w) and _num(h)):
            raise ShapeError("its width or height is not a number")
        # a tile object's (x, y) is its bottom-left corner, any other shape's top-left
        px, py = px + w / 2, (py - h / 2) if "gid" in obj else (py + h / 2)
    return math.floor(px / tile_w), math.floor(py / tile_h)


def placeable(obj: dict[str, Any], what: str) -> None:
    """A :class:`ShapeError` unless ``obj`` may stand for a ``what`` on tiles: a point,
    rectangle, ellipse or tile object with a position, not rotated."""
    shape = _unusable(obj)
    if shape is None and ("polyline" in obj or "polygon" in obj):
        shape = "a polyline" if "polyline" in obj else "a polygon"
    if shape is not None:
        raise ShapeError(f"{shape} cannot be a {what}: use a point object on its tile")


def object_class(obj: dict[str, Any]) -> str:
    """An object's class: ``type`` (Tiled 1.10+ and before 1.9) or ``class`` (1.9)."""
    value = obj.get("type") or obj.get("class") or ""
    return value if isinstance(value, str) else ""


def _unusable(obj: dict[str, Any]) -> str | None:
    """Why an object cannot stand for anything (a template, a text, rotated, no position)."""
    if obj.get("template") is not None:
        return "a template instance (detach it in Tiled)"
    if "text" in obj:
        return "a text object"
    if not (_num(obj.get("x")) and _num(obj.get("y"))):
        return "an object without a position"
    if obj.get("rotation") and not obj.get("point"):
        return "a rotated object"
    return None


def _num(v: Any) -> bool:
    return type(v) in (int, float) and math.isfinite(v)
