"""Stamps: a copied rectangle of a map (tile layers and the edges inside it),
rotated or flipped and pasted back as one command."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.model import INDOOR_DEFAULT, MapModel, Rect
from .commands import FieldEdit, read_field

TILE_FIELDS = ("terrain", "elevation", "transition", "tile_indoor")


@dataclass
class Stamp:
    """Tile layers (h, w) and inner edge layers: east (h, w-1), south (h-1, w).
    Border values are packed as in :func:`~.commands.read_field`."""

    tiles: dict[str, np.ndarray]
    border_e: np.ndarray
    border_s: np.ndarray
    transition_e: np.ndarray
    transition_s: np.ndarray

    @property
    def width(self) -> int:
        return self.tiles["terrain"].shape[1]

    @property
    def height(self) -> int:
        return self.tiles["terrain"].shape[0]

    @classmethod
    def from_region(cls, model: MapModel, rect: Rect) -> Stamp:
        x0, y0, x1, y1 = rect
        sl = np.s_[y0:y1 + 1, x0:x1 + 1]
        tiles = {f: getattr(model, f)[sl].astype(np.int32) for f in TILE_FIELDS}

        def edges(field: str, xs: range, ys: range) -> np.ndarray:
            shape = getattr(model, field).shape
            gy, gx = np.meshgrid(np.array(ys, np.intp), np.array(xs, np.intp), indexing="ij")
            if gy.size == 0:
                return np.zeros(gy.shape, np.int32)
            return read_field(model, field, np.ravel_multi_index((gy, gx), shape)).reshape(
                gy.shape)

        return cls(
            tiles,
            edges("border_e", range(x0, x1), range(y0, y1 + 1)),
            edges("border_s", range(x0, x1 + 1), range(y0, y1)),
            edges("transition_e", range(x0, x1), range(y0, y1 + 1)),
            edges("transition_s", range(x0, x1 + 1), range(y0, y1)),
        )

    @classmethod
    def empty(cls, w: int, h: int) -> Stamp:
        """A stamp of Clear ground (what Cut and Delete leave behind)."""
        tiles = {f: np.zeros((h, w), np.int32) for f in TILE_FIELDS}
        tiles["tile_indoor"][:] = INDOOR_DEFAULT
        e = np.zeros((h, max(w - 1, 0)), np.int32)
        s = np.zeros((max(h - 1, 0), w), np.int32)
        return cls(tiles, e, s, e.copy(), s.copy())

    # ------------------------------------------------------------ transforms
    def rotated(self, clockwise: bool = True) -> Stamp:
        """Rotated by 90 degrees: tile (x, y) goes to (h-1-y, x) clockwise; east
        edges become south edges and the other way round."""
        if not clockwise:
            return self.rotated().rotated().rotated()

        def r(a: np.ndarray) -> np.ndarray:
            return np.ascontiguousarray(np.rot90(a, -1))

        return Stamp({f: r(a) for f, a in self.tiles.items()},
                     r(self.border_s), r(self.border_e),
                     r(self.transition_s), r(self.transition_e))

    def flipped(self, horizontal: bool = True) -> Stamp:
        """Mirrored left-right (``horizontal``) or top-bottom."""
        def f(a: np.ndarray) -> np.ndarray:
            return np.ascontiguousarray(a[:, ::-1] if horizontal else a[::-1])

        return Stamp({k: f(a) for k, a in self.tiles.items()}, f(self.border_e),
                     f(self.border_s), f(self.transition_e), f(self.transition_s))

    # ----------------------------------------------------------------- paste
    def footprint(self, ox: int, oy: int) -> list[tuple[int, int]]:
        return [(ox + x, oy + y) for y in range(self.height) for x in range(self.width)]

    def edits(self, model: MapModel, ox: int, oy: int) -> list[FieldEdit]:
        """Cell edits pasting this stamp with its top-left tile at (ox, oy)."""
        out = []
        layers = [(f, a) for f, a in self.tiles.items()] + [
            ("border_e", self.border_e), ("border_s", self.border_s),
            ("transition_e", self.transition_e), ("transition_s", self.transition_s)]
        n_types = len(model.registry)
        for field, arr in layers:
            if arr.size == 0:
                continue
            ys, xs = np.nonzero(np.ones(arr.shape, bool))
            values = arr[ys, xs]
            ty, tx = ys + oy, xs + ox
            fh, fw = getattr(model, field).shape
            ok = (tx >= 0) & (ty >= 0) & (tx < fw) & (ty < fh)
            if field == "terrain":
                ok &= values < n_types
            elif field.startswith("border"):
                ok &= values // 4 < n_types
            idx = ty[ok] * fw + tx[ok]
            out.append(FieldEdit.capture(model, field, idx, values[ok]))
        return out
