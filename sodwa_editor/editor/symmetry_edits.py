"""Symmetry painting in the document's edits (issue 29): the images of the
tiles, edges, start-zone tiles and characters an edit writes, under the mode
the designer chose (:mod:`sodwa_editor.engine.symmetry`).  The document adds
them to the same command, so an edit and its mirror are one undo step."""

from __future__ import annotations

import numpy as np

from ..engine.model import MapModel
from ..engine.symmetry import edge_images, other_team, tile_images

__all__ = ["edge_images", "mirror_index", "zone_images"]


def mirror_index(mode: str, model: MapModel, idx: np.ndarray, value: int | np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Flat tile indices with their images appended, and the values for them (an
    image takes its tile's value; where a tile is its own image, or two images
    meet, the edited tile's own value comes first and wins)."""
    idx = np.asarray(idx, np.intp)
    value = np.broadcast_to(np.asarray(value, np.int32), idx.shape)
    w, h = model.width, model.height
    ys, xs = np.divmod(idx, w)
    out_idx, out_val = [idx], [value]
    for ix, iy, _swap in tile_images(mode, w, h, xs, ys):
        out_idx.append(iy * w + ix)
        out_val.append(value)
    return np.concatenate(out_idx), np.concatenate(out_val)


def zone_images(mode: str, model: MapModel, team: str, cells: set[tuple[int, int]]
                ) -> dict[str, set[tuple[int, int]]]:
    """Team -> the tiles a zone edit of ``team`` on ``cells`` writes: the cells,
    and their images, which go to the other team where the symmetry swaps sides
    (to ``team`` itself when the map has no single other team)."""
    out = {team: set(cells)}
    if mode == "off" or not cells:
        return out
    xs, ys = (np.array(a, np.intp) for a in zip(*sorted(cells), strict=True))
    other = other_team(model, team) or team
    for ix, iy, swap in tile_images(mode, model.width, model.height, xs, ys):
        tiles = set(zip(ix.tolist(), iy.tolist(), strict=True))
        key = other if swap else team
        out[key] = out.get(key, set()) | (tiles - cells)
    return out
