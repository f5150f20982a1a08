"""Resize a map: a new model of the new size with the old content shifted by
(dx, dy); whatever falls outside is dropped (tiles, edges, start-zone tiles,
characters, objects).  Used by the editor's *Resize Map* (one undo step).

>>> from sodwa_editor.engine.model import MapModel
>>> m = MapModel(3, 2)
>>> m.set_terrain(2, 1, m.registry.id_of("impeding"))
>>> dx, dy = anchor_offset(3, 2, 4, 4, "center")
>>> (dx, dy)
(0, 1)
>>> r = resized(m, 4, 4, dx=dx, dy=dy)
>>> r.terrain.tolist()
[[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0]]
"""

from __future__ import annotations

import copy
import dataclasses

import numpy as np

from .model import MapModel, check_size

ANCHORS = {
    "top-left": (0, 0), "top": (0.5, 0), "top-right": (1, 0),
    "left": (0, 0.5), "center": (0.5, 0.5), "right": (1, 0.5),
    "bottom-left": (0, 1), "bottom": (0.5, 1), "bottom-right": (1, 1),
}


def anchor_offset(old_w: int, old_h: int, new_w: int, new_h: int,
                  anchor: str) -> tuple[int, int]:
    """Offset that keeps the anchored side or corner (a key of :data:`ANCHORS`) in
    place.  Half tiles are truncated toward zero, so a centred grow by an odd
    amount adds the extra row/column at the bottom/right, and the centred shrink
    back by the same amount removes exactly what was added."""
    if anchor not in ANCHORS:
        raise ValueError(f"unknown anchor {anchor!r}; use one of {', '.join(ANCHORS)}")
    ax, ay = ANCHORS[anchor]
    return int((new_w - old_w) * ax), int((new_h - old_h) * ay)


def _paste(dst: np.ndarray, src: np.ndarray, dx: int, dy: int) -> None:
    h, w = src.shape
    H, W = dst.shape  # noqa: N806
    x0, y0 = max(0, dx), max(0, dy)
    x1, y1 = min(W, dx + w), min(H, dy + h)
    if x0 < x1 and y0 < y1:
        dst[y0:y1, x0:x1] = src[y0 - dy:y1 - dy, x0 - dx:x1 - dx]


def resized(model: MapModel, width: int, height: int, dx: int = 0, dy: int = 0) -> MapModel:
    """Copy of ``model`` resized to ``width`` x ``height``, content moved by (dx, dy).

    Raises ``ValueError`` for a size outside 1..MAX_SIDE before allocating."""
    check_size(width, height)
    out = MapModel(width, height, name=model.name, setting=model.setting,
                   registry=model.registry.copy())
    out.description = model.description
    for field in ("terrain", "elevation", "transition", "tile_indoor", "border_e", "border_s",
                  "transition_e", "transition_s", "indoor_e", "indoor_s"):
        _paste(getattr(out, field), getattr(model, field), dx, dy)

    def inside(x: int, y: int) -> bool:
        return 0 <= x < width and 0 <= y < height

    for team, tiles in model.start_zones.items():
        moved = {(x + dx, y + dy) for x, y in tiles if inside(x + dx, y + dy)}
        if moved:
            out.start_zones[team] = moved
    for cid, c in model.characters.items():
        if inside(c.x + dx, c.y + dy):
            out.characters[cid] = copy.deepcopy(c)
            out.characters[cid].x += dx
            out.characters[cid].y += dy
    for oid, o in model.objects.items():
        if inside(o.x + dx, o.y + dy):
            out.objects[oid] = copy.deepcopy(o)
            out.objects[oid].x += dx
            out.objects[oid].y += dy
    for lid, lb in model.labels.items():  # annotations move with the content too
        if inside(lb.x + dx, lb.y + dy):
            out.labels[lid] = dataclasses.replace(lb, x=lb.x + dx, y=lb.y + dy)
    ref = model.reference_image
    if ref is not None:
        out.reference_image = dataclasses.replace(ref, offset_x=ref.offset_x + dx,
                                                  offset_y=ref.offset_y + dy)
    return out
