"""Resize a map: a new model of the new size with the old content shifted by
(dx, dy); whatever falls outside is dropped.  (Editor-side until the engine
offers it; see the report.)"""

from __future__ import annotations

import copy

import numpy as np

from ..engine.model import MapModel

ANCHORS = {
    "top-left": (0, 0), "top": (0.5, 0), "top-right": (1, 0),
    "left": (0, 0.5), "center": (0.5, 0.5), "right": (1, 0.5),
    "bottom-left": (0, 1), "bottom": (0.5, 1), "bottom-right": (1, 1),
}


def anchor_offset(old_w: int, old_h: int, new_w: int, new_h: int,
                  anchor: str) -> tuple[int, int]:
    """Offset that keeps the anchored side or corner in place."""
    ax, ay = ANCHORS[anchor]
    return int(round((new_w - old_w) * ax)), int(round((new_h - old_h) * ay))


def _paste(dst: np.ndarray, src: np.ndarray, dx: int, dy: int) -> None:
    h, w = src.shape
    H, W = dst.shape  # noqa: N806
    x0, y0 = max(0, dx), max(0, dy)
    x1, y1 = min(W, dx + w), min(H, dy + h)
    if x0 < x1 and y0 < y1:
        dst[y0:y1, x0:x1] = src[y0 - dy:y1 - dy, x0 - dx:x1 - dx]


def resized(model: MapModel, width: int, height: int, dx: int = 0, dy: int = 0) -> MapModel:
    """Copy of ``model`` resized to ``width`` x ``height``, content moved by (dx, dy)."""
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
    return out
