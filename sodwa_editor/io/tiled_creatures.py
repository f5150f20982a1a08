"""A character's size and footprint in a Tiled map (issue 26 x issue 29), for
:mod:`.tiled_export` and :mod:`.tiled_import`.  No Qt.

A character is written as a Tiled object in the ``characters`` layer with two more
typed properties: ``size`` (``string``, a size category of docs/rules.md S1-S2,
``medium`` included) and, only when the map gives one, ``footprint`` (``string``,
``WxH`` in tiles as ``sodwa reach --size`` takes it, e.g. ``4x8``).  Its shape
follows Tiled's convention for what covers tiles: a one-tile character is a point at
its tile's centre (as before), a larger one a rectangle over its whole footprint
(``x``, ``y``: the top-left corner of its top-left tile, the anchor; ``width`` x
``height``: the footprint in pixels), so that a game engine reading the map sees
the area it covers.  The footprint is in tiles of 1 m, the map file's unit (the
rules key ``sizes.grid_scale_m`` is a battle's, not the map's).

Reading a hand-made map: a point stands for the character's top-left tile,
whatever its size; a rectangle (or ellipse, or tile object) must cover exactly the
footprint its properties give (one tile when they give none), else it is an error
that names the two, never a silently shrunk or moved creature.  A rectangle no
larger than one tile stands for a one-tile character on the tile of its centre.

>>> creature_anchor({"x": 64, "y": 32, "width": 64, "height": 64}, 32, 32,
...                 Footprint(2, 2), "large")
(2, 1)
>>> creature_anchor({"x": 80, "y": 48, "point": True}, 32, 32, Footprint(4, 4), "huge")
(2, 1)
"""

from __future__ import annotations

import math
from typing import Any

from ..engine.model import MAX_SIDE
from ..engine.sizes import SIZE_BY_NAME, SIZES, Footprint, footprint_for
from .tiled_props import PropertyError, prop
from .tiled_shapes import GRID_TOLERANCE, ShapeError, placeable

#: The two properties (name -> Tiled type), read beside the other character fields.
SIZE, FOOTPRINT = "size", "footprint"
CREATURE_FIELDS = {SIZE: "string", FOOTPRINT: "string"}
MEDIUM_SIZE = "medium"


# ------------------------------------------------------------------ export
def creature_properties(c: Any) -> list[dict[str, Any]]:
    """``size`` (always, like every other field) and ``footprint`` (when the map gives
    one) of character ``c``."""
    out = [prop(SIZE, c.size)]
    if c.footprint is not None:
        out.append(prop(FOOTPRINT, f"{int(c.footprint[0])}x{int(c.footprint[1])}"))
    return out


def creature_shape(c: Any, tile_px: int) -> dict[str, Any]:
    """The position keys of character ``c``'s object: a point at the centre of its tile
    (one tile), else a rectangle over its footprint.  A ``ValueError`` for an unknown
    size (which saving refuses too)."""
    fp = c.footprint_at()
    if fp.area == 1:
        return {"height": 0, "point": True, "width": 0,
                "x": (c.x + 0.5) * tile_px, "y": (c.y + 0.5) * tile_px}
    return {"height": fp.height * tile_px, "width": fp.width * tile_px,
            "x": c.x * tile_px, "y": c.y * tile_px}


# ------------------------------------------------------------------ import
def creature_fields(fields: dict[str, Any]) -> tuple[dict[str, Any], Footprint]:
    """The map document's ``size`` / ``footprint`` keys from the character's read
    ``fields`` (popped from it) and the footprint they give; raises
    :class:`PropertyError` saying what is wrong with them."""
    out: dict[str, Any] = {}
    size = fields.pop(SIZE, MEDIUM_SIZE)
    if size not in SIZE_BY_NAME:
        raise PropertyError(f"property {SIZE!r} is {size!r}, not a size: one of "
                            f"{', '.join(s.name for s in SIZES)}")
    if size != MEDIUM_SIZE:
        out[SIZE] = size
    dims = None
    if FOOTPRINT in fields:
        text = fields.pop(FOOTPRINT)
        try:
            dims = Footprint.parse(text)
        except ValueError as exc:
            raise PropertyError(f"property {FOOTPRINT!r}: {exc}") from None
        if max(dims) > MAX_SIDE:
            raise PropertyError(f"property {FOOTPRINT!r} is {text!r}: a side is at most "
                                f"{MAX_SIDE} tiles")
        out[FOOTPRINT] = [dims.width, dims.height]
    return out, footprint_for(size, dimensions=dims)


def creature_anchor(obj: dict[str, Any], tile_w: float, tile_h: float, fp: Footprint,
                    size: str, *, given: bool = True) -> tuple[int, int]:
    """The top-left tile of a character of footprint ``fp`` drawn as ``obj`` (module
    docstring); raises :class:`ShapeError` for a shape that cannot stand for it.
    ``given``: whether the properties name the size or footprint (for the message)."""
    placeable(obj, "character")
    px, py = obj["x"], obj["y"]
    if obj.get("point"):
        return math.floor(px / tile_w), math.floor(py / tile_h)
    w, h = obj.get("width", 0), obj.get("height", 0)
    if not all(type(v) in (int, float) and math.isfinite(v) for v in (w, h)):
        raise ShapeError("its width or height is not a number")
    if "gid" in obj:  # a tile object's (x, y) is its bottom-left corner
        py -= h
    cw, ch = w / tile_w, h / tile_h
    small = cw <= 1 + GRID_TOLERANCE and ch <= 1 + GRID_TOLERANCE
    if fp.area == 1 and small:  # a one-tile character: the tile of the shape's centre
        return math.floor((px + w / 2) / tile_w), math.floor((py + h / 2) / tile_h)
    if abs(cw - fp.width) > GRID_TOLERANCE or abs(ch - fp.height) > GRID_TOLERANCE:
        what = f"a {size} creature" if given else "a character with no size or footprint"
        raise ShapeError(
            f"its shape covers {cw:g}x{ch:g} tiles but {what} covers {fp}: draw it along "
            f"the grid over {fp} tiles, or as a point on its top-left tile"
            + ("" if given else f", and give it a {_suggestion(cw, ch)}"))
    # the tile nearest to the shape's top-left corner (exact for a shape on the grid)
    return math.floor(px / tile_w + 0.5), math.floor(py / tile_h + 0.5)


def _suggestion(cw: float, ch: float) -> str:
    """The properties that would make a shape of ``cw`` x ``ch`` tiles its footprint."""
    w, h = round(cw), round(ch)
    if abs(cw - w) > GRID_TOLERANCE or abs(ch - h) > GRID_TOLERANCE or min(w, h) < 1:
        return "'size' or 'footprint' property"
    table = [s.name for s in SIZES if (s.side or 1) == w == h]
    return (f"'size' property ({table[-1]!r}) or a " if table else "") + \
        f"'footprint' property ({f'{w}x{h}'!r})"
