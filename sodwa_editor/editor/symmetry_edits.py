"""Symmetry painting in the document's edits (issue 29): the images of the
tiles, edges, start-zone tiles, characters and placed stamps an edit writes,
under the mode the designer chose (:mod:`sodwa_editor.engine.symmetry`).  The
document adds them to the same command, so an edit and its mirror are one undo
step."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..engine.model import MapModel
from ..engine.symmetry import IMAGES, check_mode, edge_images, other_team, tile_images

if TYPE_CHECKING:
    from .stamp import Stamp

__all__ = ["edge_images", "mirror_index", "stamp_images", "zone_images"]


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


def stamp_images(mode: str, model: MapModel, stamp: Stamp, ox: int, oy: int
                 ) -> list[tuple[Stamp, int, int]]:
    """The images of ``stamp`` placed with its top-left tile at (ox, oy): each the
    stamp flipped as the mode mirrors the map, at the mirrored place, with the
    teams of its zones and characters swapped where the symmetry swaps sides
    (:func:`~..engine.symmetry.other_team`).  An image keeps only the tiles no
    earlier placement (the stamp's own first) covers, so where they overlap the
    placed stamp wins as a painted tile does; an image left without tiles is
    dropped.

    >>> from sodwa_editor.editor.stamp import Stamp
    >>> [(s.width, x, y) for s, x, y in stamp_images("x", MapModel(10, 6),
    ...                                              Stamp.empty(3, 2), 1, 0)]
    [(3, 6, 0)]
    """
    w, h = model.width, model.height
    covered = np.zeros((h, w), bool)

    def cover(st: Stamp, x: int, y: int) -> None:
        for tx, ty in st.footprint(x, y):
            if 0 <= tx < w and 0 <= ty < h:
                covered[ty, tx] = True

    def free(st: Stamp, x: int, y: int) -> np.ndarray:
        """bool (st.height, st.width): its tiles not covered yet (off the map: free)."""
        own = np.ones((st.height, st.width), bool) if st.mask is None else st.mask.copy()
        ys, xs = np.nonzero(own)
        on = (xs + x >= 0) & (ys + y >= 0) & (xs + x < w) & (ys + y < h)
        hit = np.zeros(len(xs), bool)
        hit[on] = covered[ys[on] + y, xs[on] + x]
        own[ys[hit], xs[hit]] = False
        return own

    cover(stamp, ox, oy)
    out: list[tuple[Stamp, int, int]] = []
    for fx, fy, swap in IMAGES[check_mode(mode)]:
        image = stamp
        if fx:
            image = image.flipped(horizontal=True)
        if fy:
            image = image.flipped(horizontal=False)
        x = w - ox - stamp.width if fx else ox
        y = h - oy - stamp.height if fy else oy
        if swap and image.contents:
            image = image.with_teams({t: other_team(model, t) or t
                                      for t in image.contents.teams()})
        mask = free(image, x, y)
        if not mask.any():
            continue
        image = image.with_mask(mask)
        cover(image, x, y)
        out.append((image, x, y))
    return out
