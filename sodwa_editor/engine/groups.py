"""Terrain groups: contiguous tiles of one kind, for outlines and movement.

Rulebook *Terrain*: "Multiple tiles within the same border are part of the same
'terrain group'. For example, 3 adjacent tiles of Impeding Terrain would all be
surrounded by a single border." and "If the diagonal tiles are of the same
terrain type, then they are considered to be contiguous."  Groups are therefore
8-connected.

* :func:`terrain_groups`: equal terrain id **and** equal elevation;
* :func:`elevation_groups`: tiles of the same level above 0;
* :func:`transition_groups`: transition tiles (stairs), whatever their level.

>>> from sodwa_editor.engine.model import MapModel
>>> m = MapModel(4, 3)
>>> m.terrain[0, 0] = m.terrain[1, 1] = m.terrain[2, 3] = 1
>>> g = terrain_groups(m, skip_clear=True)
>>> [(grp.size, grp.rect) for grp in g.groups]
[(2, Rect(x0=0, y0=0, x1=1, y1=1)), (1, Rect(x0=3, y0=2, x1=3, y1=2))]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from .model import CLEAR_ID, MapModel, Rect
from .terrain import Base

Tile = tuple[int, int]


@njit(cache=True, nogil=True)
def _label8(keys, valid):  # pragma: no cover - compiled
    """Label the 8-connected components of equal ``keys`` among ``valid`` tiles.

    Returns ``(labels, info)``: labels ``-1`` outside ``valid``; ``info[i]`` =
    ``(size, x0, y0, x1, y1, seed_x, seed_y)`` of component ``i``.
    """
    h, w = keys.shape
    labels = np.full((h, w), -1, np.int32)
    info = np.zeros((h * w, 7), np.int32)
    stack = np.empty(h * w, np.int32)
    n = 0
    for sy in range(h):
        for sx in range(w):
            if not valid[sy, sx] or labels[sy, sx] >= 0:
                continue
            key = keys[sy, sx]
            labels[sy, sx] = n
            stack[0] = sy * w + sx
            top = 1
            size, x0, y0, x1, y1 = 0, sx, sy, sx, sy
            while top > 0:
                top -= 1
                p = stack[top]
                y, x = p // w, p % w
                size += 1
                x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
                for dy in range(-1, 2):
                    for dx in range(-1, 2):
                        ny, nx = y + dy, x + dx
                        if (0 <= ny < h and 0 <= nx < w and valid[ny, nx]
                                and labels[ny, nx] < 0 and keys[ny, nx] == key):
                            labels[ny, nx] = n
                            stack[top] = ny * w + nx
                            top += 1
            info[n, 0], info[n, 1], info[n, 2], info[n, 3], info[n, 4] = size, x0, y0, x1, y1
            info[n, 5], info[n, 6] = sx, sy
            n += 1
    return labels, info[:n].copy()


@njit(cache=True, nogil=True)
def _flood8(keys, valid, sx, sy):  # pragma: no cover - compiled
    """bool mask of the 8-connected component of equal ``keys`` containing (sx, sy)."""
    h, w = keys.shape
    mask = np.zeros((h, w), np.bool_)
    if not valid[sy, sx]:
        return mask
    key = keys[sy, sx]
    stack = np.empty(h * w, np.int32)
    mask[sy, sx] = True
    stack[0] = sy * w + sx
    top = 1
    while top > 0:
        top -= 1
        p = stack[top]
        y, x = p // w, p % w
        for dy in range(-1, 2):
            for dx in range(-1, 2):
                ny, nx = y + dy, x + dx
                if (0 <= ny < h and 0 <= nx < w and valid[ny, nx] and not mask[ny, nx]
                        and keys[ny, nx] == key):
                    mask[ny, nx] = True
                    stack[top] = ny * w + nx
                    top += 1
    return mask


@dataclass(frozen=True)
class Group:
    """One contiguous group: its label, what it is made of, its size and bounding rect.

    ``terrain`` / ``elevation`` are ``None`` when the grouping does not fix them
    (elevation groups have no terrain; transition groups neither).
    """

    label: int
    terrain: int | None
    elevation: int | None
    size: int
    rect: Rect
    seed: Tile


@dataclass(frozen=True)
class Groups:
    """Label array (``-1`` = in no group) and the list of groups, by label."""

    labels: np.ndarray
    groups: list[Group]

    def __len__(self) -> int:
        return len(self.groups)

    def mask(self, label: int) -> np.ndarray:
        """bool (H, W) mask of one group."""
        return self.labels == label

    def tiles(self, label: int) -> list[Tile]:
        """The group's tiles in row-major order."""
        x0, y0, x1, y1 = self.groups[label].rect
        ys, xs = np.nonzero(self.labels[y0 : y1 + 1, x0 : x1 + 1] == label)
        return list(zip((xs + x0).tolist(), (ys + y0).tolist(), strict=True))

    def group_at(self, x: int, y: int) -> Group | None:
        label = int(self.labels[y, x])
        return self.groups[label] if label >= 0 else None


def _groups(keys: np.ndarray, valid: np.ndarray, terrain: np.ndarray | None,
            elevation: np.ndarray | None) -> Groups:
    labels, info = _label8(np.ascontiguousarray(keys), np.ascontiguousarray(valid))
    groups = []
    for i, (size, x0, y0, x1, y1, sx, sy) in enumerate(info.tolist()):
        groups.append(Group(
            i,
            None if terrain is None else int(terrain[sy, sx]),
            None if elevation is None else int(elevation[sy, sx]),
            size, Rect(x0, y0, x1, y1), (sx, sy)))
    return Groups(labels, groups)


def _terrain_keys(model: MapModel) -> np.ndarray:
    return model.terrain.astype(np.int32) * 256 + model.elevation


def terrain_groups(model: MapModel, *, skip_clear: bool = False) -> Groups:
    """Rulebook *Terrain*: "Multiple tiles within the same border are part of the same
    'terrain group'" with "If the diagonal tiles are of the same terrain type, then they
    are considered to be contiguous": 8-connected tiles of equal terrain id and equal
    elevation.  ``skip_clear`` leaves the plain Clear type (id 0) out."""
    valid = np.ones(model.shape, np.bool_) if not skip_clear else model.terrain != CLEAR_ID
    return _groups(_terrain_keys(model), valid, model.terrain, model.elevation)


def elevation_groups(model: MapModel) -> Groups:
    """Rulebook *Elevated Terrain* ("tiles that are at a higher elevation than the base
    game map", outlined by a red border): 8-connected tiles of one level above 0."""
    return _groups(model.elevation.astype(np.int32), model.elevation > 0, None, model.elevation)


def _stairs(model: MapModel) -> np.ndarray:
    """Transition tiles that can be stood on: an Obstructing tile flagged as a transition
    tile is a wall, not part of a stairway (RB: "A Tile of Obstructing Terrain may not be
    occupied"; docs/rules.md G2)."""
    walls = model.registry.base_table()[model.terrain] == Base.OBSTRUCTING
    return np.ascontiguousarray(model.transition & ~walls)


def transition_groups(model: MapModel) -> Groups:
    """Rulebook *Elevated Terrain* transition tiles (EL: "Part of a stairway or ladder
    is on terrain of a lower elevation and part is on terrain of a higher elevation"):
    8-connected transition tiles, whatever their elevation, so one stairway is one
    group.  Obstructing tiles are in none (:func:`_stairs`)."""
    return _groups(np.zeros(model.shape, np.int32), _stairs(model), None, None)


def terrain_group_mask(model: MapModel, tile: Tile) -> np.ndarray:
    """bool mask of the terrain group (same id and elevation, 8-connected) of ``tile``."""
    return _flood8(_terrain_keys(model), np.ones(model.shape, np.bool_), tile[0], tile[1])


def transition_group_mask(model: MapModel, tile: Tile) -> np.ndarray:
    """bool mask of the transition-tile group (stairway) containing ``tile`` (empty if it
    is in none, an Obstructing tile included)."""
    return _flood8(np.zeros(model.shape, np.int32), _stairs(model), tile[0], tile[1])
